/*
 * bench_validate — what `srt-tui validate` costs, from the file on disk.
 *
 *   1. In process, on the largest example and generated recipes of 2,000 and
 *      20,000 lines, the full way (what validate does for a file with
 *      problems, or one its glance cannot judge; section 2 is the way it
 *      takes a clean one): read the file, load it (parser events + the node
 *      index), build the typed view, check it against the schema and the
 *      rules, and locate the diagnostics; median CPU time of each step and
 *      its share of the total.  The two libyaml passes a loader could make (the token
 *      scanner and the event parser) and doc_fast's reading (model/doc_fast.c,
 *      what the loader uses for such text) are timed alone on the same text.
 *   2. The same 200 recipes the comparison below reads, in process, as
 *      `srt-tui validate` takes each file (cmd_validate.c's check_file):
 *      read, check (validate_text: the typed tree at a glance, and for the
 *      files that are not clean the document, loaded and indexed, to place
 *      what was found), output (the text lines) and freeing;
 *      median CPU time of the whole set over BENCH_RUNS runs, per phase and
 *      per recipe.
 *   3. `srt-tui validate` over 200 recipes (copies of the examples) against
 *      /usr/bin/python3 doing the same reading with PyYAML `yaml.safe_load`,
 *      and with PyYAML + jsonschema against ../shared/reference/
 *      recipe.schema.json: the two commands alternate pair by pair
 *      (A B A B ...), and the median of the per-pair ratios is printed, by
 *      wall time and by CPU time.
 *   4. The same with srtctl on PATH, as users have it: a stand-in srtctl
 *      whose `schema` prints recipe.schema.json, so srt-tui loads srtctl's
 *      schema at start (from its cache after the first run, as for a user)
 *      and validates against both; and one recipe with and without it.
 * Figures only, no verdict.
 *
 * Usage: bench_validate SRCDIR   (BENCH_RUNS, BENCH_PAIRS override the counts)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

#include "bench/bench.h"
#include "bench/gen_recipe.h"
#include "bench/spawn.h"
#include "model/cluster.h"
#include "model/doc.h"
#include "model/doc_fast.h"
#include "model/fileio.h"
#include "model/legacy.h"
#include "model/override.h"
#include "model/recipe.h"
#include "lib/jalloc.h"
#include "lib/util.h"
#include "model/validate.h"
#include "model/validate_int.h"

enum { S_READ, S_LOAD, S_TYPED, S_SCHEMA, S_RULES, S_LOCATE, S_COUNT };
static const char *const step_names[S_COUNT] = {
	"read the file", "load (events + node index)", "typed view", "schema", "rules",
	"locate + sort",
};

static double libyaml_pass(const char *buf, size_t len, int tokens)
{
	yaml_parser_t p;
	double t0 = bench_cpu_ms();
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	for (int done = 0; !done;) {
		if (tokens) {
			yaml_token_t t;
			if (!yaml_parser_scan(&p, &t))
				break;
			done = t.type == YAML_STREAM_END_TOKEN;
			yaml_token_delete(&t);
		} else {
			yaml_event_t e;
			if (!yaml_parser_parse(&p, &e))
				break;
			done = e.type == YAML_STREAM_END_EVENT;
			yaml_event_delete(&e);
		}
	}
	yaml_parser_delete(&p);
	return bench_cpu_ms() - t0;
}

static int no_op(void *ctx, const struct doc_event *e)
{
	(void)ctx;
	(void)e;
	return 0;
}

/* doc_fast's reading alone; -1 when it leaves the text to libyaml. */
static double fast_pass(const char *buf, size_t len)
{
	double t0 = bench_cpu_ms();
	int r = doc_fast_scan(buf, len, no_op, NULL);
	return r ? -1 : bench_cpu_ms() - t0;
}

static void split(const char *path, const char *label)
{
	int runs = bench_runs(0);
	struct stat st;
	if (stat(path, &st))
		return;
	if (!runs)
		runs = st.st_size > 200000 ? 15 : st.st_size > 20000 ? 61 : 301;
	double *t[S_COUNT], *tok = xcalloc((size_t)runs, sizeof(double)),
			    *ev = xcalloc((size_t)runs, sizeof(double)),
			    *fa = xcalloc((size_t)runs, sizeof(double)),
			    *all = xcalloc((size_t)runs, sizeof(double));
	for (int s = 0; s < S_COUNT; s++)
		t[s] = xcalloc((size_t)runs, sizeof(double));
	size_t ndiag = 0;
	for (int r = 0; r < runs; r++) {
		char *buf = NULL, *err = NULL;
		size_t len = 0;
		struct diag_list dl = DIAG_LIST_INIT;
		double t0 = bench_cpu_ms();
		if (file_read(path, &buf, &len, &err) < 0) {
			printf("validate: %s: %s\n", label, err);
			free(err);
			return;
		}
		double t1 = bench_cpu_ms();
		struct doc *d = doc_load(path, buf, len, &dl);
		double t2 = bench_cpu_ms();
		if (!d) {
			printf("validate: %s does not load\n", label);
			free(buf);
			return;
		}
		json_t *root = doc_json(d);
		double t3 = bench_cpu_ms();
		struct diag_list l = DIAG_LIST_INIT;
		validate_schema(root, &l);
		double t4 = bench_cpu_ms();
		struct recipe rc;
		recipe_init(&rc, root);
		validate_recipe(&rc, &l);
		recipe_release(&rc);
		double t5 = bench_cpu_ms();
		doc_locate_diags(d, &l);
		diag_sort(&l);
		double t6 = bench_cpu_ms();
		t[S_READ][r] = t1 - t0;
		t[S_LOAD][r] = t2 - t1;
		t[S_TYPED][r] = t3 - t2;
		t[S_SCHEMA][r] = t4 - t3;
		t[S_RULES][r] = t5 - t4;
		t[S_LOCATE][r] = t6 - t5;
		all[r] = t6 - t0;
		ndiag = l.n + dl.n;
		json_decref(root);
		diag_list_release(&l);
		diag_list_release(&dl);
		doc_free(d);
		tok[r] = libyaml_pass(buf, len, 1);
		ev[r] = libyaml_pass(buf, len, 0);
		fa[r] = fast_pass(buf, len);
		free(buf);
	}
	char la[96];
	bench_load(la, sizeof(la));
	double total = bench_median(all, (size_t)runs);
	printf("validate: in process, the full way, %s (%lld bytes, %zu diagnostics): median %.3f ms of CPU from the file, "
	       "%d runs (%s)\n", label, (long long)st.st_size, ndiag, total, runs, la);
	double sum = 0, med[S_COUNT];
	for (int s = 0; s < S_COUNT; s++)
		sum += med[s] = bench_median(t[s], (size_t)runs);
	printf("validate:   split:");
	for (int s = 0; s < S_COUNT; s++)
		printf("%s %s %.3f ms (%.0f%%)", s ? "," : "", step_names[s], med[s], sum > 0 ? 100 * med[s] / sum : 0);
	printf("\n");
	double fast = bench_median(fa, (size_t)runs);
	printf("validate:   alone on this text: libyaml token scan %.3f ms, libyaml event parse %.3f ms, ",
	       bench_median(tok, (size_t)runs), bench_median(ev, (size_t)runs));
	if (fast < 0)
		printf("doc_fast leaves it to libyaml\n");
	else
		printf("doc_fast %.3f ms (what the load uses)\n", fast);
	for (int s = 0; s < S_COUNT; s++)
		free(t[s]);
	free(tok);
	free(ev);
	free(fa);
	free(all);
}

enum { P_READ, P_CHECK, P_OUTPUT, P_FREE, P_COUNT };
static const char *const phase_names[P_COUNT] = { "read", "check", "output", "free" };

/* What `srt-tui validate FILE...` does per file, phase by phase (the steps of
 * cmd_validate.c's check_file and its output loop, no cluster file): read
 * the file, check it (validate_text: at a glance, and loaded in full only
 * when not clean), format the diagnostics, free them. */
static void set_split(const struct strvec *files)
{
	int runs = bench_runs(15);
	double *t[P_COUNT];
	for (int k = 0; k < P_COUNT; k++)
		t[k] = xcalloc((size_t)runs, sizeof(double));
	struct cluster cl = CLUSTER_INIT;
	struct validate_run run = { &cl, NULL, NULL, 0, 0 };
	size_t nd = 0, out_bytes = 0;
	for (int r = 0; r < runs; r++) {
		struct strbuf out = STRBUF_INIT;
		nd = 0;
		run.loaded = 0;
		for (size_t i = 0; i < files->n; i++) {
			struct diag_list l = DIAG_LIST_INIT;
			struct strvec labels = STRVEC_INIT;
			int usage = 0;
			char *err = NULL;
			enum recipe_form form;
			size_t len;
			double t0 = bench_cpu_ms();
			char *buf = doc_file_read(files->v[i], &len, &l);
			double t1 = bench_cpu_ms();
			if (buf && validate_text(&run, files->v[i], buf, len, NULL, &form, &l, &labels, &usage, &err) == 1)
				free(err);
			double t2 = bench_cpu_ms();
			for (size_t k = 0; k < l.n; k++)
				diag_format(&out, files->v[i], &l.v[k]);
			double t3 = bench_cpu_ms();
			nd += l.n;
			diag_list_release(&l);
			strvec_release(&labels);
			double t4 = bench_cpu_ms();
			t[P_READ][r] += t1 - t0;
			t[P_CHECK][r] += t2 - t1;
			t[P_OUTPUT][r] += t3 - t2;
			t[P_FREE][r] += t4 - t3;
		}
		out_bytes = out.len;
		strbuf_release(&out);
	}
	char la[96];
	bench_load(la, sizeof(la));
	double med[P_COUNT], sum = 0;
	for (int k = 0; k < P_COUNT; k++)
		sum += med[k] = bench_median(t[k], (size_t)runs);
	printf("validate: %zu recipes in process as `srt-tui validate` takes them (%zu diagnostics, %zu bytes of "
	       "output, %zu loaded in full), CPU medians of %d runs: %.2f ms, %.1f us a recipe (%s)\n", files->n,
	       nd, out_bytes, run.loaded, runs, sum, 1e3 * sum / (double)files->n, la);
	printf("validate:   split:");
	for (int k = 0; k < P_COUNT; k++)
		printf("%s %s %.2f ms (%.0f%%)", k ? "," : "", phase_names[k], med[k], sum > 0 ? 100 * med[k] / sum : 0);
	printf("\n");
	for (int k = 0; k < P_COUNT; k++)
		free(t[k]);
	cluster_release(&cl);
}

static int python_has(const char *py, const char *module)
{
	char *code = xasprintf("import %s", module);
	char *argv[] = { (char *)py, "-c", code, NULL };
	struct run_cost c = bench_spawn(argv);
	free(code);
	return bench_ok(&c, 0);
}

/* A B A B ...: the median of B/A per pair, by wall and by CPU time. */
static void paired(const char *what, char *const *a, char *const *b)
{
	int pairs = 7;
	const char *e = getenv("BENCH_PAIRS");
	if (e && atoi(e) > 0)
		pairs = atoi(e);
	double *rw = xcalloc((size_t)pairs, sizeof(double)), *rc = xcalloc((size_t)pairs, sizeof(double));
	double *aw = xcalloc((size_t)pairs, sizeof(double)), *bw = xcalloc((size_t)pairs, sizeof(double));
	for (int i = 0; i < pairs; i++) {
		struct run_cost x = bench_spawn(a), y = bench_spawn(b);
		if (!bench_ok(&x, 1) || !bench_ok(&y, 0)) {
			printf("validate: %s: a run failed (status %d / %d): skipped\n", what, x.status, y.status);
			goto out;
		}
		rw[i] = y.wall_ms / x.wall_ms;
		rc[i] = y.cpu_ms / (x.cpu_ms > 0.01 ? x.cpu_ms : 0.01);
		aw[i] = x.wall_ms;
		bw[i] = y.wall_ms;
	}
	char la[96];
	bench_load(la, sizeof(la));
	printf("validate: 200 recipes, srt-tui validate vs %s, %d pairs A B A B: srt-tui median %.1f ms, "
	       "Python median %.1f ms; median pairwise ratio %.1fx by wall time, %.1fx by CPU time (%s)\n",
	       what, pairs, bench_median(aw, (size_t)pairs), bench_median(bw, (size_t)pairs),
	       bench_median(rw, (size_t)pairs), bench_median(rc, (size_t)pairs), la);
out:
	free(rw);
	free(rc);
	free(aw);
	free(bw);
}

/* A stand-in srtctl in dir/bin serving schema, a cache in dir/cache, both
 * in the environment while the runs of section 4 go. */
static void with_srtctl(const char *dir, const char *schema, struct strvec *a, struct strvec *c,
			const char *one)
{
	char *bin = xasprintf("%s/bin", dir), *cache = xasprintf("%s/cache", dir);
	char *exe = xasprintf("%s/srtctl", bin);
	char *script = xasprintf("#!/bin/sh\ncase \"$1\" in\n--version) echo 'srtctl 0.0.0-bench' ;;\n"
				 "schema) exec cat '%s' ;;\n*) exit 2 ;;\nesac\n", schema);
	const char *old_path = getenv("PATH"), *old_cache = getenv("XDG_CACHE_HOME");
	char *keep_path = old_path ? xstrdup(old_path) : NULL;
	char *keep_cache = old_cache ? xstrdup(old_cache) : NULL;
	const char *without = keep_path ? keep_path : "/usr/bin:/bin";
	char *with_path = xasprintf("%s:%s", bin, without);
	if (mkdir(bin, 0700) || bench_write_file(exe, script, strlen(script)) || chmod(exe, 0700)) {
		printf("validate: cannot write a stand-in srtctl in %s: the srtctl comparisons are skipped\n", dir);
		goto out;
	}
	setenv("PATH", with_path, 1);
	setenv("XDG_CACHE_HOME", cache, 1);
	char *first[] = { a->v[0], "--version", NULL };
	struct run_cost f = bench_spawn(first); /* fills the cache, as a user's first run does */
	if (!bench_ok(&f, 0)) {
		printf("validate: srt-tui --version failed with the stand-in srtctl: skipped\n");
		goto restore;
	}
	printf("validate: with srtctl on PATH (a stand-in serving recipe.schema.json; srt-tui loads it "
	       "from its cache and validates against it too):\n");
	paired("PyYAML + jsonschema (recipe.schema.json), srtctl on PATH", a->v, c->v);
	char *with[] = { a->v[0], "validate", (char *)one, NULL };
	double w[15], wo[15];
	for (int i = 0; i < 15; i++) {
		setenv("PATH", without, 1);
		wo[i] = bench_spawn(with).wall_ms;
		setenv("PATH", with_path, 1);
		w[i] = bench_spawn(with).wall_ms;
	}
	printf("validate: one recipe, median wall time of 15 runs each, alternating: %.2f ms without "
	       "srtctl on PATH, %.2f ms with it\n", bench_median(wo, 15), bench_median(w, 15));
restore:
	if (keep_path)
		setenv("PATH", keep_path, 1);
	else
		unsetenv("PATH");
	if (keep_cache)
		setenv("XDG_CACHE_HOME", keep_cache, 1);
	else
		unsetenv("XDG_CACHE_HOME");
out:
	{
		char *rm[] = { "/bin/rm", "-rf", bin, cache, NULL };
		bench_spawn(rm);
	}
	free(with_path);
	free(keep_path);
	free(keep_cache);
	free(script);
	free(exe);
	free(bin);
	free(cache);
}

static void against_python(const char *bin, const char *srcdir, const struct strvec *ex)
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
			free(err);
			continue;
		}
		char *dst = xasprintf("%s/recipe-%03d-%s", tmpl, i, bench_basename(src));
		if (bench_write_file(dst, buf, len) == 0)
			strvec_push(&files, dst);
		free(dst);
		free(buf);
	}
	set_split(&files);
	struct strvec a = STRVEC_INIT, b = STRVEC_INIT, c = STRVEC_INIT;
	strvec_push(&a, bin);
	strvec_push(&a, "validate");
	const char *py = "/usr/bin/python3";
	strvec_push(&b, py);
	strvec_push(&b, "-c");
	strvec_push(&b, "import sys, yaml\n"
			"for f in sys.argv[1:]:\n"
			"    with open(f) as h:\n"
			"        yaml.safe_load(h)\n");
	char *schema = xasprintf("%s/../shared/reference/recipe.schema.json", srcdir);
	strvec_push(&c, py);
	strvec_push(&c, "-c");
	strvec_push(&c, "import sys, json, yaml, jsonschema\n"
			"with open(sys.argv[1]) as h:\n"
			"    s = json.load(h)\n"
			"v = jsonschema.validators.validator_for(s)(s)\n"
			"for f in sys.argv[2:]:\n"
			"    with open(f) as h:\n"
			"        list(v.iter_errors(yaml.safe_load(h)))\n");
	strvec_push(&c, schema);
	for (size_t i = 0; i < files.n; i++) {
		strvec_push(&a, files.v[i]);
		strvec_push(&b, files.v[i]);
		strvec_push(&c, files.v[i]);
	}
	if (access(py, X_OK))
		printf("validate: %s is not installed: the Python comparisons are skipped\n", py);
	else if (!python_has(py, "yaml"))
		printf("validate: %s has no PyYAML (python3-yaml): the Python comparisons are skipped\n", py);
	else {
		paired("PyYAML yaml.safe_load", a.v, b.v);
		if (access(schema, R_OK))
			printf("validate: %s is absent: the PyYAML + jsonschema comparison is skipped\n", schema);
		else if (!python_has(py, "jsonschema"))
			printf("validate: %s has no jsonschema (python3-jsonschema): the PyYAML + jsonschema "
			       "comparison is skipped\n", py);
		else
			paired("PyYAML + jsonschema (recipe.schema.json)", a.v, c.v);
	}
	if (!access(py, X_OK) && !access(schema, R_OK) && python_has(py, "jsonschema") && files.n)
		with_srtctl(tmpl, schema, &a, &c, files.v[0]);
	for (size_t i = 0; i < files.n; i++)
		unlink(files.v[i]);
	rmdir(tmpl);
	free(schema);
	strvec_release(&files);
	strvec_release(&a);
	strvec_release(&b);
	strvec_release(&c);
}

int main(int argc, char **argv)
{
	jalloc_install(); /* as the binary does: its figures are the binary's */
	const char *srcdir = argc > 1 ? argv[1] : ".";
	struct strvec ex = STRVEC_INIT;
	char *dir = xasprintf("%s/examples", srcdir);
	bench_list_yaml(dir, &ex);
	free(dir);
	if (!ex.n) {
		printf("validate: no examples/*.yaml: skipped\n");
		return 0;
	}
	long best = bench_largest(&ex, NULL);
	char *label = xasprintf("%s (largest example)", bench_basename(ex.v[best]));
	split(ex.v[best], label);
	free(label);
	char tmpl[] = "/tmp/srt-tui-bench-XXXXXX";
	if (mkdtemp(tmpl)) {
		static const int sizes[] = { 2000, 20000 };
		for (int i = 0; i < 2; i++) {
			struct strbuf sb = STRBUF_INIT;
			gen_recipe(&sb, sizes[i]);
			char *path = xasprintf("%s/gen-%d.yaml", tmpl, sizes[i]);
			char *lab = xasprintf("generated recipe of %d lines", sizes[i]);
			if (bench_write_file(path, sb.buf, sb.len) == 0)
				split(path, lab);
			unlink(path);
			free(path);
			free(lab);
			strbuf_release(&sb);
		}
		rmdir(tmpl);
	}
	char *bin = bench_srt_tui(argv[0]);
	if (bin) {
		char *ver[] = { bin, "--version", NULL };
		double w[15];
		for (int i = 0; i < 15; i++)
			w[i] = bench_spawn(ver).wall_ms;
		printf("validate: starting srt-tui (srt-tui --version): median %.2f ms of wall time\n",
		       bench_median(w, 15));
		against_python(bin, srcdir, &ex);
	}
	else
		printf("validate: no srt-tui binary beside bench/: the 200-recipe comparison is skipped\n");
	free(bin);
	strvec_release(&ex);
	return 0;
}
