/*
 * bench_plan — how long the launch plan takes, starting from YAML text as
 * the editor and `srt-tui render` do: load the text, build the typed view
 * and the recipe, render the snapshot (or the per-node text).  On the
 * largest example that renders and on a generated job of 64 nodes with 32
 * services (written as YAML here).  CPU time, median of many runs; the
 * render alone beside it.  Figures only, no verdict.
 * Then the editor's case: the per-node text of a generated recipe of 2,000
 * and 20,000 lines (bench/gen_recipe.h) rendered again and again with one
 * plan cache kept, as the Plan tab does after every edit (the recipe is
 * built once; the launch-snapshot note is left out, as the tab defers it).
 *   bench_plan [SRCDIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/gen_recipe.h"
#include "model/diag.h"
#include "model/doc.h"
#include "model/fileio.h"
#include "model/recipe.h"
#include "lib/jalloc.h"
#include "lib/util.h"
#include "render/plan.h"

static size_t steps; /* srun calls of the last snapshot rendered */

/* Median CPU ms of runs renders from the YAML text yaml (*render_only: of
 * the render step alone); *bytes = output size. */
static double bench(const char *yaml, int text, int runs, size_t *bytes, double *render_only)
{
	double *t = xcalloc((size_t)runs, sizeof(double)), *ro = xcalloc((size_t)runs, sizeof(double)), med;
	struct plan_opts o = { "bench.yaml", NULL, 0 };
	for (int i = 0; i < runs; i++) {
		struct strbuf sb = STRBUF_INIT;
		char *err = NULL;
		struct diag_list dl = DIAG_LIST_INIT;
		struct recipe rr, *r = &rr;
		double t0 = bench_cpu_ms();
		struct doc *d = doc_load("bench.yaml", yaml, strlen(yaml), &dl);
		if (!d) {
			fprintf(stderr, "bench_plan: the YAML does not load\n");
			exit(1);
		}
		json_t *root = doc_json(d);
		recipe_init(r, root);
		double t1 = bench_cpu_ms();
		int rc = text ? plan_render_text(&sb, r, &o, &err) : plan_render_snapshot(&sb, r, &o, &err);
		double t2 = bench_cpu_ms();
		t[i] = t2 - t0;
		ro[i] = t2 - t1;
		recipe_release(r);
		json_decref(root);
		doc_free(d);
		diag_list_release(&dl);
		if (rc < 0) {
			fprintf(stderr, "bench_plan: %s\n", err);
			exit(1);
		}
		*bytes = sb.len;
		if (!text && strstr(sb_str(&sb), "# srun calls: "))
			steps = strtoul(strstr(sb_str(&sb), "# srun calls: ") + 14, NULL, 10);
		strbuf_release(&sb);
	}
	med = bench_median(t, (size_t)runs);
	*render_only = bench_median(ro, (size_t)runs);
	free(t);
	free(ro);
	return med;
}

static void report(const char *label, const char *yaml)
{
	int runs = bench_runs(201);
	size_t bytes = 0, tbytes = 0;
	double sr, tr;
	double snap = bench(yaml, 0, runs, &bytes, &sr);
	double text = bench(yaml, 1, runs, &tbytes, &tr);
	printf("plan: snapshot of %s from its YAML text, %zu steps (%zu bytes): CPU median %.3f ms "
	       "(render alone %.3f ms) of %d runs\n", label, steps, bytes, snap, sr, runs);
	printf("plan: per-node text of %s from its YAML text (%zu bytes): CPU median %.3f ms "
	       "(render alone %.3f ms) of %d runs\n", label, tbytes, text, tr, runs);
}

static struct doc *load_recipe(const char *path, struct recipe *r)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load_file(path, &dl);
	diag_list_release(&dl);
	if (!d)
		return NULL;
	json_t *root = doc_json(d);
	recipe_init(r, root);
	json_decref(root);
	return d;
}

/* Whether the launch plan renders the recipe at path. */
static int renders(const char *path)
{
	struct recipe r;
	struct doc *d = load_recipe(path, &r);
	struct strbuf sb = STRBUF_INIT;
	char *err = NULL;
	int ok;
	if (!d)
		return 0;
	ok = plan_render_snapshot(&sb, &r, NULL, &err) == 0;
	free(err);
	strbuf_release(&sb);
	recipe_release(&r);
	doc_free(d);
	return ok;
}

/* A Dynamo vLLM P/D job on 64 nodes (32 prefill nodes of 2 TP4 workers, 32
 * decode nodes of 4 TP2 workers) with 32 services over every placement, as
 * the YAML a user would write. */
static void generated(struct strbuf *sb)
{
	static const char *const placements[] = { "head", "infra", "prefill", "decode",
						  "workers", "compute", "all" };
	strbuf_addstr(sb,
		"schema: 2\n"
		"name: bench-64-nodes\n"
		"model:\n  path: big-model\n  container: vllm\n  precision: fp8\n"
		"resources:\n  gpus_per_node: 8\n"
		"dynamo:\n  source:\n    pypi: \"1.4.2\"\n"
		"environment:\n  PYTHONHASHSEED: \"0\"\n"
		"frontend:\n  type: dynamo\n  enable_multiple_frontends: false\n  args:\n    router-mode: kv\n"
		"engine:\n  type: vllm\n  connector: nixl\n"
		"roles:\n"
		"  prefill:\n    nodes: 32\n    workers: 64\n    gpus: 4\n"
		"    args:\n      served-model-name: big/model\n"
		"  decode:\n    nodes: 32\n    workers: 128\n    gpus: 2\n"
		"    args:\n      tensor-parallel-size: 2\n"
		"benchmark:\n  type: sa-bench\n  isl: 1024\n  osl: 1024\n  concurrencies: \"64x128\"\n"
		"services:\n");
	for (int i = 0; i < 32; i++) {
		strbuf_addf(sb,
			    "  - name: svc%02d\n"
			    "    command: [tool, --node, \"{node}\"]\n"
			    "    args: [--ip, \"{node_ip}\"]\n"
			    "    env:\n      MODE: bench\n      WHERE: \"{node}\"\n"
			    "    placement:\n      node: %s\n",
			    i, placements[i % 7]);
		/* three per-worker sidecars, on placements that allow them */
		if (i == 2 || i == 10 || i == 18)
			strbuf_addstr(sb, "      per: worker\n");
		if (i % 5 == 0)
			strbuf_addstr(sb, "    start: before_workers\n");
	}
}

/* The Plan tab's render of a generated recipe of `lines` lines, its cache
 * kept from one run to the next. */
static void report_editor(int lines)
{
	int runs = bench_runs(101);
	double *t = xcalloc((size_t)runs, sizeof(double));
	struct strbuf yaml = STRBUF_INIT;
	struct diag_list dl = DIAG_LIST_INIT;
	struct recipe r;
	struct plan_cache *cache = plan_cache_new();
	size_t bytes = 0;
	gen_recipe(&yaml, lines);
	struct doc *d = doc_load("bench.yaml", yaml.buf, yaml.len, &dl);
	if (!d) {
		fprintf(stderr, "bench_plan: the generated YAML does not load\n");
		exit(1);
	}
	json_t *root = doc_json(d);
	recipe_init(&r, root);
	for (int i = 0; i < runs; i++) {
		struct strbuf sb = STRBUF_INIT;
		struct plan_note *note = NULL;
		size_t at;
		char *err = NULL;
		double t0 = bench_cpu_ms();
		int rc = plan_render_text_deferred(&sb, &r, NULL, cache, &at, &note, &err);
		t[i] = bench_cpu_ms() - t0;
		if (rc < 0) {
			fprintf(stderr, "bench_plan: %s\n", err);
			exit(1);
		}
		bytes = sb.len;
		plan_note_free(note);
		strbuf_release(&sb);
	}
	printf("plan: Plan tab text of a generated %d-line recipe (%zu bytes, cache kept): "
	       "CPU median %.3f ms of %d runs\n", lines, bytes, bench_median(t, (size_t)runs), runs);
	plan_cache_free(cache);
	recipe_release(&r);
	json_decref(root);
	doc_free(d);
	diag_list_release(&dl);
	strbuf_release(&yaml);
	free(t);
}

int main(int argc, char **argv)
{
	jalloc_install(); /* as the binary does: its figures are the binary's */
	const char *src = argc > 1 ? argv[1] : getenv("SRCDIR");
	struct strvec list = STRVEC_INIT;
	long best;

	if (!src || !*src)
		src = ".";
	{
		char *dir = xasprintf("%s/examples", src);
		bench_list_yaml(dir, &list);
		free(dir);
	}
	best = bench_largest(&list, renders);
	if (best >= 0) {
		char *buf = NULL, *err = NULL;
		size_t len = 0;
		if (file_read(list.v[best], &buf, &len, &err) == 0)
			report(bench_basename(list.v[best]), buf);
		free(buf);
		free(err);
	} else {
		printf("plan: no example recipe under %s/examples renders a plan: skipped\n", src);
	}
	strvec_release(&list);

	struct strbuf sb = STRBUF_INIT;
	generated(&sb);
	report("a generated job (64 nodes, 32 services)", sb_str(&sb));
	strbuf_release(&sb);
	report_editor(2000);
	report_editor(20000);
	return 0;
}
