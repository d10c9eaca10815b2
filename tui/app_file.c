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
#include <unistd.h>

#include "model/fileio.h"
#include "tui/app_int.h"
#include "tui/recover.h"
#include "tui/submit.h"

static volatile sig_atomic_t sig_terminate; /* SIGHUP / SIGTERM received */
static volatile sig_atomic_t sig_interrupt; /* SIGINT (outside raw mode) */
/* The running app, for the crash handler's last-ditch recovery file. */
static struct app *crash_app;
static char *crash_path, *crash_tmp;

/* ---- signals -------------------------------------------------------------- */

static void on_terminate(int sig)
{
	(void)sig;
	sig_terminate = 1;
}

static void on_interrupt(int sig)
{
	(void)sig;
	sig_interrupt = 1;
}

/* A crash (SIGSEGV, SIGBUS, SIGFPE, SIGABRT): write the unsaved text to the
 * recovery file with async-signal-safe calls only, then die as we would
 * have.  Best effort: the document itself may be what is broken. */
static void on_crash(int sig)
{
	struct app *a = crash_app;
	crash_app = NULL;
	if (a && crash_path && crash_tmp && doc_dirty(a->doc)) {
		size_t len;
		const char *text = doc_text(a->doc, &len);
		int fd = open(crash_tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd >= 0) {
			size_t off = 0;
			while (off < len) {
				ssize_t n = write(fd, text + off, len - off);
				if (n <= 0)
					break;
				off += (size_t)n;
			}
			if (off == len && !fsync(fd) && !close(fd)) {
				rename(crash_tmp, crash_path);
				static const char msg[] = "\r\nsrt-tui: crashed; unsaved edits kept in the "
							  "recovery file (srt-tui edit offers them)\r\n";
				if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
					(void)0;
			} else {
				close(fd);
				unlink(crash_tmp);
			}
		}
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void app_crash_guard(struct app *a)
{
	const char *target = a->path ? a->path : RECOVER_NEW;
	crash_path = recover_path(target);
	crash_tmp = xasprintf("%s.tmp", crash_path);
	crash_app = a;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
}

void app_crash_unguard(void)
{
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGABRT, SIG_DFL);
	crash_app = NULL;
	free(crash_path);
	free(crash_tmp);
	crash_path = crash_tmp = NULL;
}

void app_signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_terminate;
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_interrupt;
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/* ---- the file on disk ----------------------------------------------------- */

static unsigned long long hash_bytes(const char *s, size_t n)
{
	unsigned long long h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

void app_disk_identify(const char *path, struct disk_id *id)
{
	struct stat st;
	char *buf, *err = NULL;
	size_t len;
	memset(id, 0, sizeof(*id));
	if (!path || stat(path, &st))
		return;
	id->exists = 1;
	id->mtime = st.st_mtim;
	id->size = st.st_size;
	if (!file_read(path, &buf, &len, &err)) {
		id->hash = hash_bytes(buf, len);
		free(buf);
	}
	free(err);
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

/* Write the document to a->path; on failure offer another path (a
 * read-only file used to leave discarding the work as the only way out). */
static int write_file(struct app *a, int must_be_new)
{
	int existed = !must_be_new && access(a->path, F_OK) == 0;
	if (a->before_save)
		a->before_save(a);
	size_t len;
	const char *text = doc_text(a->doc, &len);
	char *err = NULL;
	if (file_write_atomic(a->path, text, len, must_be_new ? WRITE_NEW : WRITE_BACKUP, &err)) {
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
	if (existed)
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
				    "The file changed on disk since it was opened.\n"
				    "o: overwrite it with this version   c: cancel (see the Diff tab)",
				    "co");
		if (k != 'o') {
			app_message(a, "not saved");
			return -1;
		}
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
	char *dir = xstrdup(a->path), *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = 0;
	int ro = access(slash ? dir : ".", W_OK) != 0;
	free(dir);
	return ro;
}

void app_written(struct app *a)
{
	doc_mark_saved(a->doc);
	app_disk_identify(a->path, &a->disk);
	a->pv_valid[PV_DIFF] = 0;
	if (a->path)
		recover_remove(a->path);
	/* a restored path-less session is now a file: its rescue copy is done */
	if (a->restored_new)
		recover_remove(RECOVER_NEW);
	a->restored_new = 0;
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
		if (a->path)
			recover_remove(a->path);
		a->quit = 1;
	}
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
	if (submit_argv(a->submit_cmd, a->path, &argv, &err)) {
		app_error(a, "%s", err);
		free(err);
		strvec_release(&argv);
		return;
	}
	struct strbuf out = STRBUF_INIT, cmdline = STRBUF_INIT;
	for (size_t i = 0; i < argv.n; i++) {
		if (i)
			strbuf_addch(&cmdline, ' ');
		strbuf_addstr(&cmdline, argv.v[i]);
	}
	struct submit_extra x;
	submit_extra_init(a, &argv, &x);
	submit_extra_apply(a, &x, &argv);
	strbuf_reset(&cmdline);
	for (size_t i = 0; i < argv.n; i++) {
		if (i)
			strbuf_addch(&cmdline, ' ');
		strbuf_addstr(&cmdline, argv.v[i]);
	}
	if (!submit_found(argv.v[0])) {
		strbuf_addf(&out,
			    "'%s' is not on PATH, so srt-tui cannot submit for you.\n"
			    "Run this where srtctl is installed:\n\n  %s\n",
			    argv.v[0], sb_str(&cmdline));
		app_show_text(a, "Submit", sb_str(&out));
	} else {
		int k;
		/* the command as it will run; 'o' changes srtctl apply's options */
		for (;;) {
			char *q = x.apply ? xasprintf("%s\n\ny: submit   o: options (variant, --serve-only, "
						      "--tags)   n: cancel", sb_str(&cmdline))
					  : xstrdup(sb_str(&cmdline));
			k = app_confirm(a, "Submit", q, x.apply ? "yno" : "yn");
			free(q);
			if (k != 'o')
				break;
			submit_extra_edit(a, &x);
			strvec_release(&argv);
			submit_argv(a->submit_cmd, a->path, &argv, &err);
			free(err);
			err = NULL;
			submit_extra_apply(a, &x, &argv);
			strbuf_reset(&cmdline);
			for (size_t i = 0; i < argv.n; i++) {
				if (i)
					strbuf_addch(&cmdline, ' ');
				strbuf_addstr(&cmdline, argv.v[i]);
			}
		}
		if (k == 'y') {
			app_message(a, "running: %s", sb_str(&cmdline));
			app_draw(a);
			strbuf_addf(&out, "$ %s\n", sb_str(&cmdline));
			int rc = submit_run(argv.v, &out, &err);
			if (rc < 0) {
				strbuf_addf(&out, "%s\n", err);
				free(err);
			} else {
				strbuf_addf(&out, "\n[exit status %d]\n", rc);
			}
			app_message(a, rc == 0 ? "submitted: %s" : "submit failed: %s",
				    sb_str(&cmdline));
			app_show_text(a, "Submit output", sb_str(&out));
		}
	}
	submit_extra_release(&x);
	strbuf_release(&out);
	strbuf_release(&cmdline);
	strvec_release(&argv);
}

/* SIGHUP / SIGTERM: keep the unsaved text in the recovery file, once. */
static void terminate(struct app *a)
{
	if (a->terminated)
		return;
	a->terminated = 1;
	if (!doc_dirty(a->doc))
		return;
	size_t len;
	const char *text = doc_text(a->doc, &len);
	char *err = NULL;
	const char *target = a->path ? a->path : RECOVER_NEW;
	if (recover_write(target, text, len, &err)) {
		a->terminated = 2;
		free(err);
	} else {
		a->terminated = 3;
	}
}

int app_signal_key(struct app *a)
{
	if (sig_terminate) {
		terminate(a);
		return K_TERMINATE;
	}
	if (a->terminated)
		return K_TERMINATE;
	if (sig_interrupt) {
		sig_interrupt = 0;
		return K_CTRL('c');
	}
	return K_NONE;
}

void app_offer_recovery(struct app *a)
{
	char *text = NULL;
	size_t len = 0;
	time_t when = 0;
	/* `srt-tui new` without a file rescues to RECOVER_NEW in its folder */
	const char *target = a->path ? a->path : RECOVER_NEW;
	if (recover_read(target, &text, &len, &when) != 1)
		return;
	size_t cur_len;
	const char *cur = doc_text(a->doc, &cur_len);
	if (cur_len == len && !memcmp(cur, text, len)) {
		recover_remove(target);
		free(text);
		return;
	}
	char stamp[64] = "";
	struct tm tm;
	if (localtime_r(&when, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M", &tm);
	char *rp = recover_path(target);
	char *q = xasprintf("Unsaved edits of an earlier session were kept in\n%s (%s).\n"
			    "y: restore them   n: not now (keep the file)   d: delete them",
			    rp, stamp);
	int k = app_confirm(a, "Restore unsaved edits?", q, "ynd");
	free(q);
	if (k == 'y') {
		char *err = NULL;
		if (doc_replace_text(a->doc, text, len, &err)) {
			app_error(a, "cannot restore '%s': %s", rp, err);
			free(err);
		} else {
			app_message(a, "restored the unsaved edits from '%s' (u undoes)", rp);
			a->restored_new = !a->path;
		}
	} else if (k == 'd') {
		recover_remove(target);
		app_message(a, "deleted '%s'", rp);
	}
	free(rp);
	free(text);
}
