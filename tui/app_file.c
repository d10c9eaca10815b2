/*
 * app_file.c — the session and the file on disk: saving, quitting,
 * submitting, the recovery file, and the signals that write it.  The only
 * file of the TUI with global mutable state: the signal flags (and the app a
 * crash handler may still rescue).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "model/fileio.h"
#include "model/textdiff.h"
#include "tui/app_int.h"
#include "tui/recover.h"
#include "tui/run_where.h"
#include "tui/submit.h"

static volatile sig_atomic_t sig_terminate; /* the number of a fatal signal received */
static volatile sig_atomic_t sig_interrupt; /* SIGINT (outside raw mode) */
static volatile sig_atomic_t sig_stop;      /* SIGTSTP: suspend */
static volatile sig_atomic_t sig_cont;      /* SIGCONT: redraw */
/* The running app and its recovery session, for the crash handler. */
static struct app *volatile crash_app;
/* The terminal as it was before curses, and what leaves curses' screen, for
 * a crash handler that cannot call endwin. */
static struct termios orig_tio;
static int have_tio;
static char term_reset[128];
static size_t term_reset_len;

/* ---- signals -------------------------------------------------------------- */

/* Signals whose default is to end the process and that leave us time to keep
 * the edits and put the terminal back: the main loop sees the flag within
 * 100 ms (and a running submit command is polled for it). */
static const int graceful[] = {
	SIGHUP, SIGTERM, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
	SIGPOLL, SIGPWR,
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
};
/* Signals after which the process cannot go on: the handler itself writes
 * the recovery file and resets the terminal, then dies as it would have. */
static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL, SIGTRAP, SIGSYS };

#define NELEM(v) (sizeof(v) / sizeof((v)[0]))

static void on_terminate(int sig)
{
	sig_terminate = sig;
}

static void on_interrupt(int sig)
{
	(void)sig;
	sig_interrupt = 1;
}

static void on_stop(int sig)
{
	(void)sig;
	sig_stop = 1;
}

static void on_cont(int sig)
{
	(void)sig;
	sig_cont = 1;
}

static void say(const char *msg)
{
	if (write(STDERR_FILENO, msg, strlen(msg)) < 0)
		(void)0;
}

/* Async-signal-safe: the recovery file through recover_save (prepared names,
 * open/write/rename only), then the terminal back to how it was. */
static void on_crash(int sig)
{
	struct app *a = crash_app;
	crash_app = NULL;
	int kept = 0;
	if (a && a->rs && doc_dirty(a->doc)) {
		size_t len;
		const char *text = doc_text(a->doc, &len);
		kept = recover_save(a->rs, text, len) == 0;
	}
	if (term_reset_len && write(STDOUT_FILENO, term_reset, term_reset_len) < 0)
		(void)0;
	if (have_tio)
		tcsetattr(STDIN_FILENO, TCSANOW, &orig_tio);
	if (kept) {
		say("\r\nsrt-tui: crashed; unsaved edits kept in '");
		say(recover_where(a->rs));
		say("' (srt-tui edit offers them)\r\n");
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* What puts the terminal back, read from terminfo now: in a signal handler
 * only write(2) is left. */
static void prepare_term_reset(void)
{
	static const char *const caps[] = { "sgr0", "cnorm", "rmkx", "rmcup" };
	term_reset_len = 0;
	for (size_t i = 0; i < NELEM(caps); i++) {
		char *s = tigetstr((char *)caps[i]);
		if (!s || s == (char *)-1)
			continue;
		size_t n = strlen(s);
		if (term_reset_len + n + 2 >= sizeof(term_reset))
			break;
		memcpy(term_reset + term_reset_len, s, n);
		term_reset_len += n;
	}
}

void app_save_terminal(void)
{
	have_tio = tcgetattr(STDIN_FILENO, &orig_tio) == 0;
}

void app_crash_guard(struct app *a)
{
	if (!a->rs) {
		size_t len;
		const char *text = doc_text(a->doc, &len);
		a->rs_target = xstrdup(a->path ? a->path : RECOVER_NEW);
		a->rs = recover_open(a->rs_target, a->disk.exists ? text : NULL, len);
		a->rs_gen = doc_generation(a->doc);
	}
	prepare_term_reset();
	crash_app = a;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < NELEM(fatal); i++)
		sigaction(fatal[i], &sa, NULL);
}

void app_crash_unguard(void)
{
	for (size_t i = 0; i < NELEM(fatal); i++)
		signal(fatal[i], SIG_DFL);
	crash_app = NULL;
}

void app_signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_terminate;
	for (size_t i = 0; i < NELEM(graceful); i++)
		sigaction(graceful[i], &sa, NULL);
	/* real-time signals end a process by default too */
	for (int s = SIGRTMIN; s <= SIGRTMAX; s++)
		sigaction(s, &sa, NULL);
	sa.sa_handler = on_interrupt;
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_stop;
	sigaction(SIGTSTP, &sa, NULL);
	sa.sa_handler = on_cont;
	sigaction(SIGCONT, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

int app_terminating(void)
{
	return sig_terminate != 0;
}

/* Ctrl-Z or SIGTSTP: keep the edits (a suspended session is easily
 * forgotten, then killed), give the terminal back, stop; on SIGCONT take it
 * again and redraw everything. */
void app_suspend(struct app *a)
{
	sig_stop = 0;
	app_autosave(a, 1);
	def_prog_mode();
	endwin();
	signal(SIGTSTP, SIG_DFL);
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGTSTP);
	sigprocmask(SIG_UNBLOCK, &set, &old);
	raise(SIGTSTP);
	/* here after SIGCONT (or at once when the process group is orphaned,
	 * where the kernel drops a stop) */
	sigprocmask(SIG_SETMASK, &old, NULL);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	sigaction(SIGTSTP, &sa, NULL);
	reset_prog_mode();
	clearok(curscr, TRUE);
	sig_cont = 0;
	app_draw(a);
}

/* ---- the file on disk ----------------------------------------------------- */

static unsigned long long hash_bytes(const char *s, size_t n)
{
	unsigned long long h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* Identify the file at path; with text, also hand over the bytes the hash
 * was taken of (NULL when it could not be read), so a caller needing both
 * reads the file once and gets the two from one version of it. */
static void disk_identify(const char *path, struct disk_id *id, char **text, size_t *tlen)
{
	struct stat st;
	char *buf = NULL, *err = NULL;
	size_t len = 0;
	memset(id, 0, sizeof(*id));
	if (text)
		*text = NULL;
	if (!path || stat(path, &st))
		return;
	id->exists = 1;
	id->mtime = st.st_mtim;
	id->size = st.st_size;
	if (!file_read(path, &buf, &len, &err))
		id->hash = hash_bytes(buf, len);
	free(err);
	if (text) {
		*text = buf;
		*tlen = len;
	} else {
		free(buf);
	}
}

void app_disk_identify(const char *path, struct disk_id *id)
{
	disk_identify(path, id, NULL, NULL);
}

void app_set_base(struct app *a, const char *text, size_t len)
{
	free(a->base);
	a->base = NULL;
	a->base_len = 0;
	if (!text)
		return;
	a->base = xmalloc(len + 1);
	memcpy(a->base, text, len);
	a->base[len] = 0;
	a->base_len = len;
}

void app_disk_load(struct app *a)
{
	char *buf;
	size_t len = 0;
	disk_identify(a->path, &a->disk, &buf, &len);
	app_set_base(a, buf, len);
	free(buf);
}

/* ---- saving, quitting, submitting ----------------------------------------- */

int app_disk_changed(struct app *a)
{
	struct disk_id now;
	app_disk_identify(a->path, &now);
	if (now.exists != a->disk.exists)
		return 1;
	if (!now.exists)
		return 0;
	if (now.size != a->disk.size || now.hash != a->disk.hash)
		return 1;
	return 0;
}

static int save_as(struct app *a, int errors_accepted);

/* Take the change another writer made on disk into the document: the edits
 * since the base and the disk's changes since it, merged line by line (one
 * undo step).  Called with the recipe locked, so nothing can slip in between
 * this read and the write. */
static int merge_disk(struct app *a)
{
	char *disk = NULL, *err = NULL;
	size_t dlen = 0, len, line = 0;
	if (file_read(a->path, &disk, &dlen, &err)) {
		app_error(a, "not merged: %s; nothing was saved", err);
		free(err);
		return -1;
	}
	const char *text = doc_text(a->doc, &len);
	struct strbuf out = STRBUF_INIT;
	int rc = -1;
	if (text_merge3(&out, a->base ? a->base : "", a->base_len, text, len, disk, dlen, &line)) {
		app_error(a, "not merged: line %zu was changed both on disk and here; nothing was "
			     "saved (the Diff tab shows both; F2 again can overwrite instead)", line);
	} else if (doc_replace_text(a->doc, sb_str(&out), out.len, &err)) {
		app_error(a, "not merged: the two changes together are not a recipe (%s); nothing "
			     "was saved", err);
		free(err);
	} else {
		rc = 0;
	}
	strbuf_release(&out);
	free(disk);
	return rc;
}

/* Write the document to a->path; on failure offer another path (a
 * read-only file used to leave discarding the work as the only way out). */
static int write_file(struct app *a, int must_be_new)
{
	int existed = !must_be_new && access(a->path, F_OK) == 0;
	if (a->before_save)
		a->before_save(a);
	size_t len;
	const char *text;
	char *err = NULL;
	/* The lock every srt-tui writer takes, held from the changed-on-disk
	 * check to the rename (the questions before were asked without it, so
	 * that other writers do not wait on the user): a `set` that slipped in
	 * meanwhile is seen here, not overwritten. */
	int lock_fd = -1, overwrite = a->overwrite_ok, merge = a->merge_ok, merged = 0;
	a->overwrite_ok = a->merge_ok = 0;
	if (!must_be_new && file_lock(a->path, &lock_fd, &err)) {
		app_error(a, "%s; not saved (F2 tries again)", err);
		free(err);
		return -1;
	}
	if (!must_be_new && !overwrite && a->disk.exists && app_disk_changed(a)) {
		if (!merge) {
			file_unlock(lock_fd);
			app_error(a, "not saved: '%s' changed on disk just now (see the Diff tab; F2 "
				     "asks whether to merge or overwrite)", a->path);
			return -1;
		}
		if (merge_disk(a)) {
			file_unlock(lock_fd);
			return -1;
		}
		merged = 1;
	}
	text = doc_text(a->doc, &len);
	unsigned flags = must_be_new ? WRITE_NEW : (WRITE_BACKUP | WRITE_LOCKED);
	int wrc = file_write_atomic(a->path, text, len, flags, &err);
	if (wrc == WRITE_ERR_READONLY) {
		/* the user's own read-only file: ask, as vim's :w! does */
		char *q = xasprintf("%s.\nw: write it anyway (it stays read-only)   "
				    "a: save as another file   c: cancel", err);
		free(err);
		err = NULL;
		int k = app_confirm(a, "Read-only file", q, "caw");
		free(q);
		if (k == 'a') {
			file_unlock(lock_fd);
			return save_as(a, 1);
		}
		if (k != 'w') {
			file_unlock(lock_fd);
			app_message(a, "not saved: '%s' is read-only (F2 asks again)", a->path);
			return -1;
		}
		wrc = file_write_atomic(a->path, text, len, flags | WRITE_FORCE, &err);
	}
	file_unlock(lock_fd);
	if (wrc) {
		char *q = xasprintf("%s\na: save as another file   c: cancel (nothing is lost: "
				    "the edits stay here)", err);
		free(err);
		int k = app_confirm(a, "Not saved", q, "ca");
		free(q);
		if (k == 'a')
			return save_as(a, 1);
		app_error(a, "not saved: '%s' could not be written (F2 tries again; the Write step "
			     "saves as another file)", a->path);
		return -1;
	}
	app_written(a);
	if (merged)
		app_message(a, "merged the change on disk with the edits and saved '%s' (previous "
			       "version in '%s.bak'; u undoes the merge here)", a->path, a->path);
	else if (existed)
		app_message(a, "saved '%s' (previous version in '%s.bak')", a->path, a->path);
	else
		app_message(a, "saved '%s' (a new file)", a->path);
	return 0;
}

/* Saving with errors asks first, as the wizard's Write button does. */
static int errors_ok(struct app *a)
{
	const struct app_state *st = app_state(a);
	if (!st->errors)
		return 1;
	char *q = xasprintf("The recipe has %zu error%s (see Problems). Save it anyway?\n"
			    "y: save   n: do not save", st->errors, st->errors == 1 ? "" : "s");
	int k = app_confirm(a, "Errors", q, "ny");
	free(q);
	if (k != 'y') {
		app_message(a, "not saved");
		return 0;
	}
	return 1;
}

int app_save(struct app *a)
{
	if (!a->path)
		return app_save_as(a);
	int changed = app_disk_changed(a);
	if (!doc_dirty(a->doc) && !changed && a->disk.exists) {
		app_message(a, "no changes to save");
		return 0;
	}
	if (!errors_ok(a))
		return -1;
	if (changed) {
		int k = app_confirm(a, "File changed on disk",
				    "The file changed on disk since it was opened (the Diff tab "
				    "shows how).\n"
				    "m: merge (keep that change and the edits)\n"
				    "o: overwrite it with this version\n"
				    "c: cancel",
				    "cmo");
		if (k != 'o' && k != 'm') {
			app_message(a, "not saved");
			return -1;
		}
		if (k == 'm')
			a->merge_ok = 1;
		else
			a->overwrite_ok = 1;
	}
	return write_file(a, 0);
}

int app_save_as(struct app *a)
{
	return save_as(a, 0);
}

static int save_as(struct app *a, int errors_accepted)
{
	char *p = app_prompt(a, "Save as (a new path, or replace a file)",
			     a->path ? a->path : "recipe.yaml");
	if (!p || !*p) {
		free(p);
		app_message(a, "not saved");
		return -1;
	}
	int same = a->path && !strcmp(p, a->path);
	if (same) {
		free(p);
		return app_save(a);
	}
	if (!errors_accepted && !errors_ok(a)) {
		free(p);
		return -1;
	}
	int exists = access(p, F_OK) == 0;
	if (exists) {
		char *q = xasprintf("'%s' exists. Replace it (the old one is kept as .bak)?\n"
				    "y: replace   n: keep it", p);
		int k = app_confirm(a, "Replace?", q, "ny");
		free(q);
		if (k != 'y') {
			free(p);
			app_message(a, "not saved");
			return -1;
		}
	}
	/* the session now edits the new file; the old one is left as it is */
	app_set_path(a, p);
	free(p);
	return write_file(a, !exists);
}

int app_read_only(const struct app *a)
{
	if (!a->path || access(a->path, F_OK))
		return 0;
	if (access(a->path, W_OK))
		return 1;
	/* the atomic save writes a temporary file beside it */
	char *dir = path_dir(a->path);
	int ro = access(dir, W_OK) != 0;
	free(dir);
	return ro;
}

void app_written(struct app *a)
{
	doc_mark_saved(a->doc);
	app_disk_identify(a->path, &a->disk);
	a->pv_valid[PV_DIFF] = 0;
	size_t len;
	const char *text = doc_text(a->doc, &len);
	app_set_base(a, text, len);
	if (a->rs) {
		/* saved: the recovery file is done, and the edits start from here */
		recover_discard(a->rs);
		const char *target = a->path ? a->path : RECOVER_NEW;
		if (strcmp(a->rs_target, target)) {
			/* a path-less session became a file: recover under its name */
			struct recover_session *old = a->rs;
			a->rs = recover_open(target, text, len);
			recover_close(old);
			free(a->rs_target);
			a->rs_target = xstrdup(target);
		} else {
			recover_set_base(a->rs, text, len);
		}
		a->rs_gen = doc_generation(a->doc);
	}
	a->restored_new = 0;
}

/* Bring the recovery file up to date after RECOVER_IDLE_SECONDS without a
 * key (now: at once).  Called every 100 ms by the key reader: a kill -9 or a
 * reboot loses at most the last few seconds of typing. */
void app_autosave(struct app *a, int now)
{
	if (!a->rs)
		return;
	unsigned long g = doc_generation(a->doc);
	if (g == a->rs_gen)
		return;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	if (!now && t.tv_sec - a->last_key.tv_sec < RECOVER_IDLE_SECONDS)
		return;
	a->rs_gen = g;
	if (!doc_dirty(a->doc)) {
		recover_discard(a->rs); /* undone back to the file */
		return;
	}
	size_t len;
	const char *text = doc_text(a->doc, &len);
	if (recover_save(a->rs, text, len) && !a->rs_failed) {
		a->rs_failed = 1;
		app_error(a, "cannot keep a recovery file beside the recipe or in the state folder; "
			     "save with F2 to be safe");
	} else if (a->rs_failed && recover_where(a->rs)) {
		a->rs_failed = 0;
	}
}

void app_key_read(struct app *a)
{
	clock_gettime(CLOCK_MONOTONIC, &a->last_key);
}

void app_ask_quit(struct app *a)
{
	if (!doc_dirty(a->doc)) {
		a->quit = 1;
		return;
	}
	int k = app_confirm(a, "Unsaved changes",
			    "The recipe has unsaved changes.\n"
			    "s: save and quit   d: discard them and quit   c: cancel",
			    "sdc");
	if (k == 's') {
		if (!app_save(a))
			a->quit = 1;
	} else if (k == 'd') {
		recover_discard(a->rs);
		a->quit = 1;
	}
}

/* Below the minimum size no question can be shown: quit at once when
 * nothing is unsaved; otherwise keep the edits in the recovery file and
 * leave, saying where (as a hangup would). */
void app_quit_small(struct app *a)
{
	if (!doc_dirty(a->doc)) {
		a->quit = 1;
		return;
	}
	app_terminate(a);
}

/* While the submit command runs: Esc or Ctrl-C cancels it, and so does a
 * fatal signal, after keeping the edits (the loop then ends the session). */
static int submit_cancel(void *ctx)
{
	struct app *a = ctx;
	if (sig_terminate) {
		app_terminate(a);
		return 1;
	}
	wint_t wc;
	wtimeout(stdscr, 0);
	int r = wget_wch(stdscr, &wc);
	wtimeout(stdscr, 100);
	return r == OK && (wc == K_ESC || wc == K_CTRL('c'));
}

void app_submit(struct app *a)
{
	const struct app_state *st = app_state(a);
	if (!a->path || doc_dirty(a->doc) || app_disk_changed(a)) {
		app_error(a, "save the recipe first (F2 or Ctrl-S): submit runs on the file on disk");
		return;
	}
	if (st->errors) {
		app_error(a, "the recipe has %zu error%s: fix them before submitting (see Problems)",
			   st->errors, st->errors == 1 ? "" : "s");
		return;
	}
	struct strvec argv = STRVEC_INIT;
	char *err = NULL;
	struct run_where where = RUN_WHERE_INIT;
	run_where_init(&where, &a->cluster);
	char *file = run_where_path(&where, a->path);
	char *wdesc = run_where_describe(&where, &a->cluster);
	if (submit_argv(a->submit_cmd, file, &argv, &err)) {
		app_error(a, "%s", err);
		free(err);
		strvec_release(&argv);
		free(file);
		free(wdesc);
		run_where_release(&where);
		return;
	}
	struct strbuf out = STRBUF_INIT, cmdline = STRBUF_INIT;
	struct submit_extra x;
	submit_extra_init(a, &argv, &x);
	submit_extra_apply(a, &x, &argv);
	/* quoted, so that what is shown can be copied into a shell as it is */
	submit_display(&cmdline, &argv);
	if (!submit_found(argv.v[0])) {
		strbuf_addf(&out,
			    "'%s' is not on PATH, so srt-tui cannot submit for you.\n"
			    "Run this where srtctl is installed:\n\n  %s\n\n%s\n",
			    argv.v[0], sb_str(&cmdline), wdesc);
		app_show_text(a, "Submit", sb_str(&out));
	} else {
		int k;
		/* the command as it will run; 'o' changes srtctl apply's options */
		for (;;) {
			char *q = x.apply ? xasprintf("%s\n\n%s\n\ny: submit   o: options (variant, "
						      "--serve-only, --tags)   n: cancel", sb_str(&cmdline),
						      wdesc)
					  : xasprintf("%s\n\n%s", sb_str(&cmdline), wdesc);
			k = app_confirm(a, "Submit", q, x.apply ? "yno" : "yn");
			free(q);
			if (k != 'o')
				break;
			submit_extra_edit(a, &x);
			strvec_release(&argv);
			submit_argv(a->submit_cmd, file, &argv, &err);
			free(err);
			err = NULL;
			submit_extra_apply(a, &x, &argv);
			strbuf_reset(&cmdline);
			submit_display(&cmdline, &argv);
		}
		if (k == 'y') {
			app_message(a, "running: %s   (Esc or Ctrl-C cancels)", sb_str(&cmdline));
			app_draw(a);
			strbuf_addf(&out, "%s\n$ %s\n", wdesc, sb_str(&cmdline));
			run_where_current = &where;
			int rc = submit_run(argv.v, &out, &err, submit_cancel, a);
			run_where_current = NULL;
			if (rc < 0) {
				strbuf_addf(&out, "%s\n", err);
				free(err);
			} else {
				strbuf_addf(&out, "\n[exit status %d]\n", rc);
			}
			app_message(a, rc == 0 ? "submitted: %s"
				       : rc == SUBMIT_CANCELLED ? "submit cancelled: %s"
							  : "submit failed: %s",
				    sb_str(&cmdline));
			app_show_text(a, "Submit output", sb_str(&out));
		}
	}
	submit_extra_release(&x);
	strbuf_release(&out);
	strbuf_release(&cmdline);
	strvec_release(&argv);
	free(file);
	free(wdesc);
	run_where_release(&where);
}

/* A fatal signal (or a quit below the minimum size): keep the unsaved text
 * in the recovery file, once. */
void app_terminate(struct app *a)
{
	if (a->terminated)
		return;
	a->terminated = 1;
	if (!doc_dirty(a->doc))
		return;
	size_t len;
	const char *text = doc_text(a->doc, &len);
	a->terminated = a->rs && recover_save(a->rs, text, len) == 0 ? 3 : 2;
}

int app_signal_key(struct app *a)
{
	if (sig_terminate) {
		app_terminate(a);
		return K_TERMINATE;
	}
	if (a->terminated)
		return K_TERMINATE;
	if (sig_interrupt) {
		sig_interrupt = 0;
		return K_CTRL('c');
	}
	if (sig_stop) {
		app_suspend(a);
		return K_REDRAW;
	}
	if (sig_cont) {
		/* continued after a stop we did not see (SIGSTOP): the terminal
		 * may have been used meanwhile */
		sig_cont = 0;
		reset_prog_mode();
		clearok(curscr, TRUE);
		return K_REDRAW;
	}
	return K_NONE;
}

const char *app_recovery_where(const struct app *a)
{
	return a->rs ? recover_where(a->rs) : NULL;
}

void app_recovery_end(struct app *a)
{
	/* a normal quit: saved, or the user discarded the edits */
	if (a->rs && !a->terminated)
		recover_discard(a->rs);
	recover_close(a->rs);
	a->rs = NULL;
	free(a->rs_target);
	a->rs_target = NULL;
}

static void add_stamp(struct strbuf *sb, time_t when)
{
	char stamp[64] = "";
	struct tm tm;
	if (localtime_r(&when, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
	strbuf_addstr(sb, stamp);
}

/* The three versions: what changed on disk since the edits began, and what
 * the edits changed. */
static void show_three(struct app *a, const struct recover_file *f, const char *disk,
		       size_t dlen)
{
	struct strbuf sb = STRBUF_INIT;
	const char *name = a->path ? a->path : RECOVER_NEW;
	strbuf_addstr(&sb, "Changed on disk since the unsaved edits began (base -> disk now):\n\n");
	size_t before = sb.len;
	text_diff(&sb, name, f->base, f->base_len, disk, dlen);
	if (sb.len == before)
		strbuf_addstr(&sb, "(nothing)\n");
	strbuf_addstr(&sb, "\nThe unsaved edits (base -> recovered):\n\n");
	before = sb.len;
	text_diff(&sb, name, f->base, f->base_len, f->text, f->len);
	if (sb.len == before)
		strbuf_addstr(&sb, "(nothing)\n");
	strbuf_addstr(&sb, "\nRestoring takes the recovered text as it is: the changes on disk "
			   "above are then undone in the editor (the Diff tab shows them) until you "
			   "make them again.\n");
	app_show_text(a, "Recovered edits: three versions", sb_str(&sb));
	strbuf_release(&sb);
}

/* Offer the recovery files of earlier sessions, newest first, one at a time;
 * none is overwritten or removed without the user's word (a copy identical
 * to the recipe as it is now holds nothing to lose and is removed). */
void app_offer_recovery(struct app *a)
{
	const char *target = a->path ? a->path : RECOVER_NEW;
	struct recover_file *v;
	char *refused = NULL;
	size_t n = recover_list(target, a->rs, &v, &refused);
	if (refused) {
		app_show_text(a, "Recovery files ignored", refused);
		free(refused);
	}
	size_t cur_len;
	const char *cur = doc_text(a->doc, &cur_len);
	/* the recipe on disk as the editor loaded it */
	char *disk = xmalloc(cur_len + 1);
	memcpy(disk, cur, cur_len);
	size_t dlen = cur_len;
	for (size_t i = 0; i < n; i++) {
		struct recover_file *f = &v[i];
		if (f->len == dlen && !memcmp(f->text, disk, dlen)) {
			recover_remove_file(f->path);
			continue;
		}
		int moved = f->has_base && a->disk.exists &&
			    (f->base_len != dlen || memcmp(f->base, disk, dlen));
		struct strbuf q = STRBUF_INIT;
		strbuf_addf(&q, "Unsaved edits of an earlier session were kept in\n%s (", f->path);
		add_stamp(&q, f->mtime);
		strbuf_addstr(&q, ").\n");
		if (n > 1)
			strbuf_addf(&q, "(%zu of %zu recovery files of this recipe)\n", i + 1, n);
		if (moved)
			strbuf_addstr(&q, "The recipe changed on disk since these edits began.\n"
					  "v: view the three versions   m: merge them with that change\n");
		strbuf_addstr(&q, "y: restore them   n: not now (keep the file)   d: delete them");
		int k;
		struct strbuf merged = STRBUF_INIT;
		for (;;) {
			k = app_confirm(a, moved ? "Restore unsaved edits? The file changed since"
						 : "Restore unsaved edits?",
					sb_str(&q), moved ? "yndvm" : "ynd");
			if (k == 'v') {
				show_three(a, f, disk, dlen);
				continue;
			}
			size_t line = 0;
			strbuf_reset(&merged);
			if (k == 'm' && text_merge3(&merged, f->base, f->base_len, f->text, f->len, disk,
						    dlen, &line)) {
				char *why = xasprintf("Line %zu was changed both on disk and by these "
						      "edits, so they cannot be merged line by line.\n"
						      "Restore them as they are (y) and make the change on "
						      "disk again, or keep the file for later (n).",
						      line);
				app_show_text(a, "Cannot merge", why);
				free(why);
				continue;
			}
			break;
		}
		strbuf_release(&q);
		if (k == 'y' || k == 'm') {
			char *err = NULL;
			const char *rt = k == 'm' ? sb_str(&merged) : f->text;
			size_t rlen = k == 'm' ? merged.len : f->len;
			if (doc_replace_text(a->doc, rt, rlen, &err)) {
				app_error(a, "cannot restore '%s': %s", f->path, err);
				free(err);
				strbuf_release(&merged);
				continue;
			}
			/* the edits now live in this session's file; the old one goes
			 * only once that is written */
			if (a->rs && recover_save(a->rs, rt, rlen) == 0)
				recover_remove_file(f->path);
			/* restored as they were, the edits still start from their own
			 * base: the Diff tab shows the change on disk, and a save asks
			 * whether to merge it or overwrite it */
			if (k == 'y' && moved) {
				app_set_base(a, f->base, f->base_len);
				a->disk.size = (off_t)f->base_len;
				a->disk.hash = hash_bytes(f->base, f->base_len);
			}
			a->rs_gen = doc_generation(a->doc);
			a->restored_new = !a->path;
			if (i + 1 < n)
				app_message(a, "restored the unsaved edits from '%s' (u undoes); %zu more "
					       "recovery file%s kept for the next session",
					    f->path, n - i - 1, n - i - 1 == 1 ? "" : "s");
			else if (k == 'm')
				app_message(a, "restored the unsaved edits from '%s', merged with the "
					       "change on disk (u undoes)", f->path);
			else
				app_message(a, "restored the unsaved edits from '%s' (u undoes)%s", f->path,
					    moved ? "; the Diff tab shows what they change on disk" : "");
			strbuf_release(&merged);
			break;
		}
		strbuf_release(&merged);
		if (k == 'd') {
			recover_remove_file(f->path);
			app_message(a, "deleted '%s'", f->path);
		} else if (k == K_TERMINATE) {
			break;
		}
	}
	free(disk);
	recover_list_free(v, n);
}
