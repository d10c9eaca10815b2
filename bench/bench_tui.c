/*
 * bench_tui — what one value edit costs in the real editor.
 *
 * Runs `srt-tui edit FILE` (the binary beside bench/) in a pseudo-terminal
 * of 200x60 (TERM=xterm-256color), reads its screen through a small terminal
 * emulator (vt.h), opens a preview tab (Plan) and checks on the screen that
 * it is the one shown, then types value edits of roles.prefill.args.
 * max-model-len the way a user does: Enter opens the field, Ctrl-U and the
 * digits replace the value, Enter accepts it; each key waits until the
 * screen shows its effect and the process is idle again.
 *
 * For each key: srt-tui's own CPU time (/proc/PID/schedstat, the time the
 * kernel ran it), and for the accepting Enter the wall time from writing the
 * key to the screen showing the new value.  RSS from /proc/PID/status at load
 * and after the edits.  On the largest example and on generated recipes of
 * 2,000 and 20,000 lines (bench/gen_recipe.h).  Figures only, no verdict.
 *
 * The largest example is measured again with each dry-run tab open (Sbatch,
 * Mounts, Env), which every edit re-renders.
 *
 *   bench_tui SRCDIR       BENCH_EDITS=N sets the number of edits (1000),
 *                          BENCH_EDITS_LARGE=N that on 20,000 lines (BENCH_EDITS),
 *                          BENCH_EDITS_TABS=N that per dry-run tab (BENCH_EDITS/5)
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/gen_recipe.h"
#include "bench/spawn.h"
#include "bench/vt.h"
#include "model/fileio.h"

#define ROWS 60
#define COLS 200
#define FIELD "roles.prefill.args.max-model-len"
#define LABEL "max-model-len"

struct child {
	pid_t pid;
	int fd;
	struct vt vt;
	struct strbuf row;
	int eof;
};

/* Read what the program wrote within timeout_ms (0: only what is there);
 * returns the number of bytes read. */
static size_t pump(struct child *c, int timeout_ms)
{
	size_t got = 0;
	char buf[65536];
	for (;;) {
		struct pollfd p = { c->fd, POLLIN, 0 };
		int r = poll(&p, 1, got ? 0 : timeout_ms);
		if (r <= 0)
			break;
		ssize_t n = read(c->fd, buf, sizeof(buf));
		if (n <= 0) {
			c->eof = 1;
			break;
		}
		vt_feed(&c->vt, buf, (size_t)n);
		got += (size_t)n;
		if (c->vt.reply.len) {
			if (write(c->fd, c->vt.reply.buf, c->vt.reply.len) < 0) {
				/* the program is gone: pump sees EOF next */
			}
			strbuf_reset(&c->vt.reply);
		}
	}
	return got;
}

static void send_keys(struct child *c, const char *s)
{
	size_t n = strlen(s);
	while (n) {
		ssize_t w = write(c->fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static int screen_has(struct child *c, const char *text)
{
	for (int y = 0; y < ROWS; y++) {
		vt_row(&c->vt, y, &c->row);
		if (strstr(sb_str(&c->row), text))
			return 1;
	}
	return 0;
}

/* The form row of the field shows value: "max-model-len    5001". */
static int field_shows(struct child *c, const char *value)
{
	size_t vl = strlen(value);
	for (int y = 0; y < ROWS; y++) {
		vt_row(&c->vt, y, &c->row);
		const char *s = strstr(sb_str(&c->row), "  " LABEL " ");
		if (!s)
			continue;
		s += strlen(LABEL) + 2;
		while (*s == ' ')
			s++;
		if (!strncmp(s, value, vl) && (s[vl] == ' ' || !s[vl]))
			return 1;
	}
	return 0;
}

struct want {
	const char *has;    /* text on the screen */
	const char *hasnt;  /* text no longer on the screen */
	const char *field;  /* the field row shows this value */
	int any_output;     /* any output at all */
};

static int satisfied(struct child *c, const struct want *w, size_t got)
{
	if (w->any_output && !got)
		return 0;
	if (w->has && !screen_has(c, w->has))
		return 0;
	if (w->hasnt && screen_has(c, w->hasnt))
		return 0;
	if (w->field && !field_shows(c, w->field))
		return 0;
	return 1;
}

/* Wait until the screen is as wanted; returns the time it was seen (ms),
 * or < 0 after timeout_s seconds. */
static double wait_screen(struct child *c, const struct want *w, double timeout_s)
{
	double end = bench_now_ms() + timeout_s * 1e3;
	size_t got = 0;
	for (;;) {
		if (satisfied(c, w, got))
			return bench_now_ms();
		if (c->eof || bench_now_ms() > end)
			return -1;
		got += pump(c, 20);
	}
}

static char proc_state(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return '?';
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = 0;
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

/* Wait until the program sleeps with nothing left to write: its redraw is
 * finished. */
static void wait_idle(struct child *c)
{
	int quiet = 0;
	while (quiet < 2 && !c->eof) {
		size_t got = pump(c, 0);
		if (!got && proc_state(c->pid) == 'S') {
			quiet++;
			usleep(200);
		} else {
			quiet = 0;
			if (!got)
				usleep(100);
		}
	}
}

/* CPU time the kernel has run the program, in ms. */
static double cpu_ms(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	FILE *f = fopen(path, "r");
	unsigned long long ns = 0;
	if (f) {
		if (fscanf(f, "%llu", &ns) != 1)
			ns = 0;
		fclose(f);
	}
	return ns / 1e6;
}

static double rss_mib(pid_t pid)
{
	long kib = proc_rss_kib((int)pid);
	return kib < 0 ? 0 : kib / 1024.0;
}

static int start(struct child *c, const char *bin, const char *dir, const char *file)
{
	struct winsize ws = { ROWS, COLS, 0, 0 };
	memset(c, 0, sizeof(*c));
	c->pid = forkpty(&c->fd, NULL, NULL, &ws);
	if (c->pid < 0)
		return -1;
	if (c->pid == 0) {
		if (chdir(dir) < 0)
			_exit(127);
		setenv("TERM", "xterm-256color", 1);
		setenv("LC_ALL", "C.UTF-8", 1);
		unsetenv("EDITOR");
		execl(bin, bin, "edit", file, (char *)NULL);
		_exit(127);
	}
	vt_init(&c->vt, ROWS, COLS);
	strbuf_init(&c->row);
	return 0;
}

/* SIGTERM first: the editor keeps its edits in a recovery file (in the
 * temporary folder) and exits, so a profiler run under it can write its
 * data; SIGKILL if it has not gone within 60 s. */
static void stop(struct child *c)
{
	kill(c->pid, SIGTERM);
	for (int i = 0; i < 6000; i++) {
		pump(c, 0);
		if (waitpid(c->pid, NULL, WNOHANG) == c->pid)
			goto gone;
		usleep(10000);
	}
	kill(c->pid, SIGKILL);
	waitpid(c->pid, NULL, 0);
gone:
	close(c->fd);
	vt_release(&c->vt);
	strbuf_release(&c->row);
}

static int fail(struct child *c, const char *what)
{
	printf("tui: %s did not show %s; the screen was:\n", what,
	       c->eof ? "(the editor exited)" : "within the time allowed");
	for (int y = 0; y < ROWS; y++) {
		vt_row(&c->vt, y, &c->row);
		while (c->row.len && c->row.buf[c->row.len - 1] == ' ')
			c->row.buf[--c->row.len] = 0;
		printf("  |%s\n", sb_str(&c->row));
	}
	stop(c);
	return -1;
}

static double pct(double *v, size_t n, double p)
{
	qsort(v, n, sizeof(*v), bench_cmp_double);
	size_t i = (size_t)(p * (double)(n - 1) + 0.5);
	return v[i];
}

/* The preview tabs in the order Right walks them from Services. */
static const char *const tabs[] = { "[Workers]", "[YAML]", "[Diff]", "[Plan]", "[Sbatch]",
				    "[Mounts]", "[Env]" };
#define TAB_PLAN 4

/* One file: open the preview tab reached with `ntabs` Right keys (TAB_PLAN:
 * Plan), then `edits` value edits, each redrawing that tab. */
static int bench_file(const char *bin, const char *dir, const char *file, const char *label,
		      int edits, int ntabs)
{
	struct child c;
	char la[96];
	if (start(&c, bin, dir, file) < 0) {
		printf("tui: cannot start %s: %s\n", bin, strerror(errno));
		return -1;
	}
	struct want w = { 0 };
	w.has = "F1/? Help";
	if (wait_screen(&c, &w, 120) < 0)
		return fail(&c, "the editor");
	wait_idle(&c);
	double rss0 = rss_mib(c.pid);
	/* Tab Tab: the preview pane; Right ntabs times from Services */
	send_keys(&c, "\t\t");
	for (int i = 0; i < ntabs; i++) {
		wait_idle(&c);
		send_keys(&c, "\033OC");
		w = (struct want){ .has = tabs[i] };
		if (wait_screen(&c, &w, 60) < 0)
			return fail(&c, tabs[i]);
	}
	wait_idle(&c);
	send_keys(&c, "\t"); /* back to the form; the preview keeps its tab */
	wait_idle(&c);
	send_keys(&c, "/");
	w = (struct want){ .has = "Search labels, keys, values and help" };
	if (wait_screen(&c, &w, 60) < 0)
		return fail(&c, "the search box");
	wait_idle(&c);
	send_keys(&c, "\025" FIELD "\r");
	/* one hit jumps to it; several are listed first: take the first */
	wait_idle(&c);
	if (screen_has(&c, "for '" FIELD "' (Enter: jump)")) {
		send_keys(&c, "\r");
		wait_idle(&c);
	}
	w = (struct want){ .has = "/" FIELD "  (n: next" };
	if (wait_screen(&c, &w, 60) < 0)
		return fail(&c, "the search result");
	wait_idle(&c);

	double *commit_cpu = xcalloc((size_t)edits, sizeof(double));
	double *commit_wall = xcalloc((size_t)edits, sizeof(double));
	double *open_cpu = xcalloc((size_t)edits, sizeof(double));
	double *type_cpu = xcalloc((size_t)edits * 5, sizeof(double));
	double t_start = bench_now_ms();
	int done = 0;
	for (int i = 0; i < edits; i++) {
		char value[16];
		snprintf(value, sizeof(value), "%d", 5000 + i % 4000);
		/* Enter: the field's input box */
		double c0 = cpu_ms(c.pid);
		send_keys(&c, "\r");
		w = (struct want){ .has = FIELD ": " };
		if (wait_screen(&c, &w, 60) < 0)
			break;
		wait_idle(&c);
		double c1 = cpu_ms(c.pid);
		open_cpu[i] = c1 - c0;
		/* Ctrl-U and four digits, one key at a time */
		char keys[5][2] = { "\025" };
		for (int k = 0; k < 4; k++)
			keys[k + 1][0] = value[k];
		for (int k = 0; k < 5; k++) {
			double k0 = cpu_ms(c.pid);
			send_keys(&c, keys[k]);
			w = (struct want){ .any_output = 1 };
			if (wait_screen(&c, &w, 60) < 0)
				break;
			wait_idle(&c);
			type_cpu[(size_t)i * 5 + (size_t)k] = cpu_ms(c.pid) - k0;
		}
		char boxed[32];
		snprintf(boxed, sizeof(boxed), "\xe2\x94\x82 %s ", value);
		w = (struct want){ .has = boxed };
		if (wait_screen(&c, &w, 60) < 0)
			break;
		/* Enter: the edit, re-validation and the redraw */
		double c2 = cpu_ms(c.pid), t0 = bench_now_ms();
		send_keys(&c, "\r");
		w = (struct want){ .hasnt = "Enter: accept", .field = value };
		double t1 = wait_screen(&c, &w, 60);
		if (t1 < 0)
			break;
		wait_idle(&c);
		commit_cpu[i] = cpu_ms(c.pid) - c2;
		commit_wall[i] = t1 - t0;
		done++;
	}
	double took = (bench_now_ms() - t_start) / 1e3;
	const char *tab = tabs[ntabs - 1];
	int shown = screen_has(&c, tab);
	double rss1 = rss_mib(c.pid);
	bench_load(la, sizeof(la));
	if (done < edits) {
		printf("tui: %s: only %d of %d edits showed on the screen\n", label, done, edits);
		fail(&c, "an edit");
		return -1;
	}
	printf("tui: %s, %dx%d, preview tab open: %s%s; %d edits of %s typed as keys in %.1f s (%s)\n",
	       label, COLS, ROWS, shown ? "" : "NOT ", tab, edits, FIELD, took, la);
	double cm = pct(commit_cpu, (size_t)edits, 0.5), cp = pct(commit_cpu, (size_t)edits, 0.95);
	double wm = pct(commit_wall, (size_t)edits, 0.5), wp = pct(commit_wall, (size_t)edits, 0.95);
	printf("tui:   Enter that changes the value: srt-tui CPU median %.2f ms, p95 %.2f ms; "
	       "key to screen (wall) median %.2f ms, p95 %.2f ms\n", cm, cp, wm, wp);
	printf("tui:   Enter that opens the field: CPU median %.2f ms, p95 %.2f ms; "
	       "a typed key (Ctrl-U, digits): CPU median %.2f ms, p95 %.2f ms\n",
	       pct(open_cpu, (size_t)edits, 0.5), pct(open_cpu, (size_t)edits, 0.95),
	       pct(type_cpu, (size_t)edits * 5, 0.5), pct(type_cpu, (size_t)edits * 5, 0.95));
	printf("tui:   RSS at load %.1f MiB, after %d edits %.1f MiB (%.1fx)\n", rss0, edits, rss1,
	       rss0 > 0 ? rss1 / rss0 : 0);
	free(commit_cpu);
	free(commit_wall);
	free(open_cpu);
	free(type_cpu);
	stop(&c);
	return 0;
}

static int lines_of(const char *path)
{
	char *buf = NULL, *err = NULL;
	size_t len = 0;
	int n = 0;
	if (file_read(path, &buf, &len, &err) == 0)
		for (size_t i = 0; i < len; i++)
			n += buf[i] == '\n';
	free(err);
	free(buf);
	return n;
}

int main(int argc, char **argv)
{
	const char *srcdir = argc > 1 ? argv[1] : ".";
	const char *e = getenv("BENCH_EDITS");
	int edits = e && atoi(e) > 0 ? atoi(e) : 1000;
	char *bin = bench_srt_tui(argv[0]);
	if (!bin) {
		printf("tui: no srt-tui binary beside bench/: skipped\n");
		return 0;
	}
	char tmpl[] = "/tmp/srt-tui-bench-tui-XXXXXX";
	if (!mkdtemp(tmpl)) {
		perror("bench_tui: mkdtemp");
		return 1;
	}
	/* the largest example, copied: the editor never touches the source tree */
	struct strvec list = STRVEC_INIT;
	char *exdir = xasprintf("%s/examples", srcdir);
	bench_list_yaml(exdir, &list);
	free(exdir);
	long best = bench_largest(&list, NULL);
	int rc = 0;
	/* BENCH_TUI_FILES=example,2000,20000 (the default) picks the recipes */
	const char *which = getenv("BENCH_TUI_FILES");
	if (!which || !*which)
		which = "example,2000,20000";
	if (best >= 0 && strstr(which, "example")) {
		char *buf = NULL, *err = NULL;
		size_t len = 0;
		if (file_read(list.v[best], &buf, &len, &err) == 0) {
			struct strbuf sb = { buf, len, len + 1 };
			char *dst = xasprintf("%s/%s", tmpl, bench_basename(list.v[best]));
			char *label = xasprintf("%s (largest example, %d lines)", bench_basename(list.v[best]),
						lines_of(list.v[best]));
			if (bench_write_file(dst, sb.buf, sb.len) == 0)
				{
				rc |= bench_file(bin, tmpl, bench_basename(list.v[best]), label, edits, TAB_PLAN);
				/* the dry-run tabs, each redrawn by every edit */
				const char *et = getenv("BENCH_EDITS_TABS");
				int nt = et && atoi(et) > 0 ? atoi(et) : edits / 5 > 0 ? edits / 5 : 1;
				/* a fresh copy per run: the killed editor leaves a
				 * recovery file beside the one it had open */
				for (int t = TAB_PLAN + 1; t <= 7; t++) {
					char *name = xasprintf("tab%d-%s", t, bench_basename(list.v[best]));
					char *copy = xasprintf("%s/%s", tmpl, name);
					if (bench_write_file(copy, sb.buf, sb.len) == 0)
						rc |= bench_file(bin, tmpl, name, label, nt, t);
					unlink(copy);
					free(copy);
					free(name);
				}
			}
			unlink(dst);
			free(dst);
			free(label);
		}
		free(buf);
		free(err);
	} else if (best < 0) {
		printf("tui: no examples/*.yaml under %s: the largest-example figure is skipped\n", srcdir);
	}
	strvec_release(&list);
	static const int sizes[] = { 2000, 20000 };
	for (int i = 0; i < 2; i++) {
		char key[16];
		snprintf(key, sizeof(key), "%d", sizes[i]);
		const char *at = strstr(which, key);
		if (!at || (at > which && at[-1] != ',') || (at[strlen(key)] && at[strlen(key)] != ','))
			continue;
		struct strbuf sb = STRBUF_INIT;
		gen_recipe(&sb, sizes[i]);
		char *name = xasprintf("gen-%d.yaml", sizes[i]);
		char *dst = xasprintf("%s/%s", tmpl, name);
		char *label = xasprintf("generated recipe of %d lines", sizes[i]);
		const char *el = getenv("BENCH_EDITS_LARGE");
		int n = sizes[i] == 20000 && el && atoi(el) > 0 ? atoi(el) : edits;
		if (bench_write_file(dst, sb.buf, sb.len) == 0)
			rc |= bench_file(bin, tmpl, name, label, n, TAB_PLAN);
		unlink(dst);
		free(dst);
		free(name);
		free(label);
		strbuf_release(&sb);
	}
	/* whatever the editor left (a recovery file after the kill) */
	char *cmd = xasprintf("rm -rf '%s'", tmpl);
	if (system(cmd) != 0)
		rc = 1;
	free(cmd);
	free(bin);
	return rc ? 1 : 0;
}
