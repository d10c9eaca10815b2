/*
 * bench_plan — how long the launch plan takes to render: the largest example
 * recipe, and a generated job of 64 nodes with 32 services.  Prints the
 * median of many runs for the snapshot and the per-node text; the goal is
 * under 5 ms so the preview can re-render on every keystroke.
 *   bench_plan [SRCDIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "model/diag.h"
#include "model/doc.h"
#include "model/recipe.h"
#include "lib/util.h"
#include "render/plan.h"

static size_t steps; /* srun calls of the last snapshot rendered */

/* Median ms of runs renders; *bytes = output size. */
static double bench(const struct recipe *r, int text, int runs, size_t *bytes)
{
	double *t = xcalloc((size_t)runs, sizeof(double)), med;
	struct plan_opts o = { "bench.yaml", NULL, 0 };
	for (int i = 0; i < runs; i++) {
		struct strbuf sb = STRBUF_INIT;
		char *err = NULL;
		double t0 = bench_now_ms();
		int rc = text ? plan_render_text(&sb, r, &o, &err) : plan_render_snapshot(&sb, r, &o, &err);
		t[i] = bench_now_ms() - t0;
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
	free(t);
	return med;
}

static void report(const char *label, const struct recipe *r)
{
	int runs = bench_runs(201);
	size_t bytes = 0, tbytes = 0;
	double snap = bench(r, 0, runs, &bytes);
	double text = bench(r, 1, runs, &tbytes);
	printf("plan: snapshot of %s, %zu steps (%zu bytes): median %.3f ms of %d runs  %s (goal < 5 ms)\n",
	       label, steps, bytes, snap, runs, bench_verdict(snap < 5.0));
	printf("plan: per-node text of %s (%zu bytes): median %.3f ms of %d runs  %s (goal < 5 ms)\n",
	       label, tbytes, text, runs, bench_verdict(text < 5.0));
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
 * decode nodes of 4 TP2 workers) with 32 services over every placement. */
static json_t *generated(void)
{
	static const char *const placements[] = { "head", "infra", "prefill", "decode",
						  "workers", "compute", "all" };
	json_t *root = json_pack(
		"{s:i, s:s, s:{s:s, s:s, s:s}, s:{s:i}, s:{s:{s:s}}, s:{s:s}, "
		"s:{s:s, s:b, s:{s:s}}, s:{s:s, s:s}, s:{s:{s:i, s:i, s:i, s:{s:s}}, "
		"s:{s:i, s:i, s:i, s:{s:i}}}, s:{s:s, s:i, s:i, s:s}}",
		"schema", 2, "name", "bench-64-nodes",
		"model", "path", "big-model", "container", "vllm", "precision", "fp8",
		"resources", "gpus_per_node", 8,
		"dynamo", "source", "pypi", "1.4.2",
		"environment", "PYTHONHASHSEED", "0",
		"frontend", "type", "dynamo", "enable_multiple_frontends", 0, "args", "router-mode", "kv",
		"engine", "type", "vllm", "connector", "nixl",
		"roles", "prefill", "nodes", 32, "workers", 64, "gpus", 4, "args", "served-model-name",
		"big/model", "decode", "nodes", 32, "workers", 128, "gpus", 2, "args",
		"tensor-parallel-size", 2,
		"benchmark", "type", "sa-bench", "isl", 1024, "osl", 1024, "concurrencies", "64x128");
	json_t *svcs = json_array();
	for (int i = 0; i < 32; i++) {
		const char *pl = placements[i % 7];
		json_t *s = json_pack("{s:s, s:[s, s, s], s:[s, s], s:{s:s, s:s}, s:{s:s}}", "name", "x",
				      "command", "tool", "--node", "{node}", "args", "--ip", "{node_ip}",
				      "env", "MODE", "bench", "WHERE", "{node}", "placement", "node", pl);
		char *name = xasprintf("svc%02d", i);
		json_object_set_new(s, "name", json_string(name));
		/* three per-worker sidecars, on placements that allow them */
		if (i == 2 || i == 10 || i == 18)
			json_object_set_new(json_object_get(s, "placement"), "per", json_string("worker"));
		if (i % 5 == 0)
			json_object_set_new(s, "start", json_string("before_workers"));
		free(name);
		json_array_append_new(svcs, s);
	}
	json_object_set_new(root, "services", svcs);
	return root;
}

int main(int argc, char **argv)
{
	const char *src = argc > 1 ? argv[1] : getenv("SRCDIR");
	struct strvec list = STRVEC_INIT;
	struct recipe r;
	json_t *root;
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
		struct doc *d = load_recipe(list.v[best], &r);
		report(bench_basename(list.v[best]), &r);
		recipe_release(&r);
		doc_free(d);
	} else {
		printf("plan: no example recipe under %s/examples renders a plan: skipped\n", src);
	}
	strvec_release(&list);

	root = generated();
	recipe_init(&r, root);
	json_decref(root);
	report("a generated job (64 nodes, 32 services)", &r);
	recipe_release(&r);
	return 0;
}
