/*
 * bench_doc — the document commands on generated recipes of 2,000 and 20,000
 * lines (bench/gen_recipe.h), from the file on disk.
 *
 *   1. In process: a verified `set` as the command does it — load the file,
 *      change one role arg (the edit re-reads its result and compares it
 *      with the intended tree), write the file atomically — with the CPU time
 *      of each step; and load + `get` of the same value.
 *   2. The commands themselves (`srt-tui validate`, `render` (dry-run),
 *      `render --format plan`, `get`, `set`), CPU time charged to the process
 *      (median of BENCH_RUNS, default 5, the two sizes alternating), and the
 *      growth exponent log(t20000 / t2000) / log(10): 1.0 is linear.
 * Figures only, no verdict.
 *
 * Usage: bench_doc SRCDIR
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/jalloc.h"
#include "bench/bench.h"
#include "bench/gen_recipe.h"
#include "bench/spawn.h"
#include "model/doc.h"
#include "model/fileio.h"

#define FIELD "roles.prefill.args.max-model-len"

static void in_process(const char *path, int lines)
{
	int runs = bench_runs(lines > 10000 ? 11 : 51);
	double *load = xcalloc((size_t)runs, sizeof(double)), *edit = xcalloc((size_t)runs, sizeof(double));
	double *wr = xcalloc((size_t)runs, sizeof(double)), *get = xcalloc((size_t)runs, sizeof(double));
	struct path p = PATH_INIT;
	char *err = NULL;
	path_parse(&p, FIELD, 0, &err);
	for (int r = 0; r < runs; r++) {
		struct diag_list dl = DIAG_LIST_INIT;
		double t0 = bench_cpu_ms();
		struct doc *d = doc_load_file(path, &dl);
		double t1 = bench_cpu_ms();
		if (!d) {
			printf("doc: %s does not load\n", path);
			exit(1);
		}
		json_t *v = json_integer(4096 + r % 2);
		char *warn = NULL;
		if (doc_set(d, &p, v, &err, &warn) < 0) {
			printf("doc: set %s failed: %s\n", FIELD, err);
			exit(1);
		}
		double t2 = bench_cpu_ms();
		size_t len;
		const char *text = doc_text(d, &len);
		if (file_write_atomic(path, text, len, 0, &err) < 0) {
			printf("doc: cannot write %s: %s\n", path, err);
			exit(1);
		}
		double t3 = bench_cpu_ms();
		json_decref(v);
		free(warn);
		doc_free(d);
		diag_list_release(&dl);
		/* get: load + read one value */
		double t4 = bench_cpu_ms();
		d = doc_load_file(path, &dl);
		struct strbuf out = STRBUF_INIT;
		if (!d || doc_get(d, &p, 0, &out, &err) < 0) {
			printf("doc: get %s failed\n", FIELD);
			exit(1);
		}
		double t5 = bench_cpu_ms();
		strbuf_release(&out);
		doc_free(d);
		diag_list_release(&dl);
		load[r] = t1 - t0;
		edit[r] = t2 - t1;
		wr[r] = t3 - t2;
		get[r] = t5 - t4;
	}
	char la[96];
	bench_load(la, sizeof(la));
	double ml = bench_median(load, (size_t)runs), me = bench_median(edit, (size_t)runs),
	       mw = bench_median(wr, (size_t)runs);
	printf("doc: in process, %d-line recipe, CPU medians of %d runs (%s):\n", lines, runs, la);
	printf("doc:   set %s: %.2f ms = load %.2f + edit and verify %.2f + atomic write %.2f\n", FIELD,
	       ml + me + mw, ml, me, mw);
	printf("doc:   get %s: %.2f ms (load and read)\n", FIELD, bench_median(get, (size_t)runs));
	free(load);
	free(edit);
	free(wr);
	free(get);
	path_release(&p);
}

struct cmd {
	const char *name;
	const char *args[3]; /* after FILE; FIELD / FIELD=... filled in */
};

static double cli_cpu(const char *bin, const struct cmd *c, const char *file, int run, int *ok)
{
	struct strvec argv = STRVEC_INIT;
	strvec_push(&argv, bin);
	strvec_push(&argv, c->name);
	strvec_push(&argv, file);
	for (int i = 0; i < 3 && c->args[i]; i++) {
		if (!strcmp(c->args[i], "=VALUE"))
			strvec_pushf(&argv, "%s=%d", FIELD, 4096 + run % 2);
		else
			strvec_push(&argv, c->args[i]);
	}
	struct run_cost rc = bench_spawn(argv.v);
	strvec_release(&argv);
	*ok = bench_ok(&rc, 0);
	return rc.cpu_ms;
}

static void growth(const char *bin, const char *small, const char *large)
{
	static const struct cmd cmds[] = {
		{ "validate", { NULL } },
		{ "render", { NULL } },
		{ "render", { "--format", "plan", NULL } },
		{ "get", { FIELD, NULL } },
		{ "set", { "=VALUE", NULL } },
	};
	int runs = bench_runs(5);
	double *a = xcalloc((size_t)runs, sizeof(double)), *b = xcalloc((size_t)runs, sizeof(double));
	char la[96];
	for (size_t k = 0; k < sizeof(cmds) / sizeof(cmds[0]); k++) {
		const struct cmd *c = &cmds[k];
		int ok = 1, o1 = 1, o2 = 1;
		for (int r = 0; r < runs && ok; r++) {
			a[r] = cli_cpu(bin, c, small, r, &o1);
			b[r] = cli_cpu(bin, c, large, r, &o2);
			ok = o1 && o2;
		}
		const char *label = c->args[0] && !strcmp(c->args[0], "--format") ? "render --format plan" : c->name;
		if (!ok) {
			printf("doc: srt-tui %s failed on a generated recipe: no figure\n", label);
			continue;
		}
		double ma = bench_median(a, (size_t)runs), mb = bench_median(b, (size_t)runs);
		bench_load(la, sizeof(la));
		printf("doc: srt-tui %-20s CPU median of %d: %7.2f ms at 2,000 lines, %8.2f ms at 20,000; "
		       "growth exponent %.2f (%s)\n", label, runs, ma, mb, ma > 0 ? log10(mb / ma) : 0, la);
	}
	free(a);
	free(b);
}

int main(int argc, char **argv)
{
	jalloc_install(); /* as the binary does: its figures are the binary's */
	(void)argc;
	char tmpl[] = "/tmp/srt-tui-bench-doc-XXXXXX";
	if (!mkdtemp(tmpl)) {
		perror("bench_doc: mkdtemp");
		return 1;
	}
	static const int sizes[] = { 2000, 20000 };
	char *paths[2];
	for (int i = 0; i < 2; i++) {
		struct strbuf sb = STRBUF_INIT;
		gen_recipe(&sb, sizes[i]);
		paths[i] = xasprintf("%s/gen-%d.yaml", tmpl, sizes[i]);
		if (bench_write_file(paths[i], sb.buf, sb.len)) {
			perror("bench_doc: write");
			return 1;
		}
		strbuf_release(&sb);
	}
	for (int i = 0; i < 2; i++)
		in_process(paths[i], sizes[i]);
	char *bin = bench_srt_tui(argv[0]);
	if (bin)
		growth(bin, paths[0], paths[1]);
	else
		printf("doc: no srt-tui binary beside bench/: the command figures are skipped\n");
	free(bin);
	for (int i = 0; i < 2; i++) {
		unlink(paths[i]);
		char *bak = xasprintf("%s.bak", paths[i]);
		unlink(bak);
		free(bak);
		free(paths[i]);
	}
	rmdir(tmpl);
	return 0;
}
