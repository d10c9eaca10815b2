/*
 * bench_validate — how fast validation is.
 *
 *   1. In process: validate_doc + recipe_init + render_services_block on the
 *      largest example (document loaded once; doc_json is cached per edit, as
 *      in the editor), median of 1,000 runs.  Goal: under 1 ms.
 *   2. `srt-tui validate` over 200 recipes (copies of the examples in a temp
 *      folder), against `python3 -c 'yaml.safe_load'` on the same files when
 *      PyYAML is installed, with the ratio.  Goal: at least 20x faster.
 *
 * Usage: bench_validate SRCDIR (the srt-tui binary is found beside bench/).
 */
#include <fcntl.h>
#include <libgen.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"
#include "model/doc.h"
#include "model/fileio.h"
#include "model/recipe.h"
#include "lib/util.h"
#include "model/validate.h"
#include "render/service.h"
#include "render/workers.h"

extern char **environ;

static double now(void)
{
	return bench_now_ms() / 1e3;
}

static double median(double *v, size_t n)
{
	return bench_median(v, n);
}

/* Run argv with stdout/stderr to /dev/null; seconds taken, < 0 on failure. */
static double time_run(char *const *argv, int *status)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	double t0 = now();
	pid_t pid;
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return -1;
	int st;
	waitpid(pid, &st, 0);
	*status = st;
	return now() - t0;
}

static void bench_in_process(const struct strvec *ex)
{
	long best = bench_largest(ex, NULL);
	struct stat st;
	size_t best_len = !stat(ex->v[best], &st) ? (size_t)st.st_size : 0;
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load_file(ex->v[best], &dl);
	if (!d) {
		fprintf(stderr, "bench_validate: cannot load %s\n", ex->v[best]);
		exit(1);
	}
	const int RUNS = bench_runs(1000);
	double *t = xcalloc((size_t)RUNS, sizeof(double));
	size_t ndiag = 0;
	struct strbuf out = STRBUF_INIT;
	for (int i = 0; i < RUNS; i++) {
		double t0 = now();
		diag_list_clear(&dl);
		validate_doc(d, &dl);
		json_t *root = doc_json(d);
		struct recipe r;
		recipe_init(&r, root);
		strbuf_reset(&out);
		render_services_block(&out, &r);
		render_workers_block(&out, &r, WORKERS_DRYRUN, NULL, NULL);
		recipe_release(&r);
		json_decref(root);
		t[i] = now() - t0;
		ndiag = dl.n;
	}
	double m = median(t, RUNS);
	printf("validate + render (dry-run: Services and Workers) of the largest example, %s (%zu bytes, "
	       "%zu diagnostics): median %.3f ms of %d runs  %s (goal < 1 ms)\n",
	       bench_basename(ex->v[best]), best_len, ndiag, m * 1e3, RUNS, bench_verdict(m < 1e-3));
	free(t);
	strbuf_release(&out);
	diag_list_release(&dl);
	doc_free(d);
}

static void bench_cli(const char *self, const struct strvec *ex)
{
	char tmpl[] = "/tmp/srt-tui-bench-XXXXXX";
	if (!mkdtemp(tmpl)) {
		perror("bench_validate: mkdtemp");
		return;
	}
	struct strvec files = STRVEC_INIT;
	for (int i = 0; i < 200; i++) {
		const char *src = ex->v[i % ex->n];
		char *buf = NULL, *err = NULL;
		size_t len;
		if (file_read(src, &buf, &len, &err) < 0) {
			fprintf(stderr, "bench_validate: %s\n", err);
			free(err);
			continue;
		}
		char *dst = xasprintf("%s/recipe-%03d-%s", tmpl, i, strrchr(src, '/') + 1);
		FILE *f = fopen(dst, "w");
		if (f) {
			fwrite(buf, 1, len, f);
			fclose(f);
			strvec_push(&files, dst);
		}
		free(dst);
		free(buf);
	}

	char *dup = xstrdup(self);
	char *bin = xasprintf("%s/../srt-tui", dirname(dup));
	free(dup);
	struct strvec argv = STRVEC_INIT;
	strvec_push(&argv, bin);
	strvec_push(&argv, "validate");
	for (size_t i = 0; i < files.n; i++)
		strvec_push(&argv, files.v[i]);

	double ts[7];
	int st = 0, ok = 1;
	for (int i = 0; i < 7 && ok; i++) {
		ts[i] = time_run(argv.v, &st);
		ok = ts[i] >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	}
	if (!ok) {
		printf("srt-tui validate over %zu recipes: could not run %s (status %d)\n", files.n, bin, st);
		goto out;
	}
	double ours = median(ts, 7);
	printf("validate: srt-tui validate over %zu recipes: median %.1f ms of 7 runs\n", files.n, ours * 1e3);

	struct strvec py = STRVEC_INIT;
	strvec_push(&py, "python3");
	strvec_push(&py, "-c");
	strvec_push(&py, "import yaml,sys; [yaml.safe_load(open(f)) for f in sys.argv[1:]]");
	for (size_t i = 0; i < files.n; i++)
		strvec_push(&py, files.v[i]);
	double tp[3];
	ok = 1;
	for (int i = 0; i < 3 && ok; i++) {
		tp[i] = time_run(py.v, &st);
		ok = tp[i] >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	}
	if (ok) {
		double theirs = median(tp, 3);
		printf("validate: python3 yaml.safe_load over the same files: median %.1f ms of 3 runs; "
		       "srt-tui is %.1fx faster  %s (goal >= 20x)\n",
		       theirs * 1e3, theirs / ours, bench_verdict(theirs / ours >= 20.0));
	} else {
		printf("validate: python3 with PyYAML not available: the >= 20x comparison is skipped\n");
	}
	strvec_release(&py);
out:
	for (size_t i = 0; i < files.n; i++)
		unlink(files.v[i]);
	rmdir(tmpl);
	strvec_release(&files);
	strvec_release(&argv);
	free(bin);
}

int main(int argc, char **argv)
{
	const char *srcdir = argc > 1 ? argv[1] : ".";
	struct strvec ex = STRVEC_INIT;
	char *dir = xasprintf("%s/examples", srcdir);
	bench_list_yaml(dir, &ex);
	free(dir);
	if (!ex.n) {
		printf("validate: no examples/*.yaml: skipped\n");
		return 0;
	}
	bench_in_process(&ex);
	bench_cli(argv[0], &ex);
	strvec_release(&ex);
	return 0;
}
