/*
 * bench_plan — how long the launch plan takes to render: the largest example
 * recipe, and a generated job of 64 nodes with 32 services.  Prints the
 * median of many runs for the snapshot and the per-node text; the goal is
 * under 5 ms so the preview can re-render on every keystroke.
 *   bench_plan [SRCDIR]
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "model/diag.h"
#include "model/doc.h"
#include "model/recipe.h"
#include "model/util.h"
#include "render/plan.h"

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static size_t steps; /* srun calls of the last snapshot rendered */

/* Median ms of runs renders; *bytes = output size. */
static double bench(const struct recipe *r, int text, int runs, size_t *bytes)
{
	double *t = xcalloc((size_t)runs, sizeof(double)), med;
	struct plan_opts o = { "bench.yaml", NULL, 0 };
	for (int i = 0; i < runs; i++) {
		struct strbuf sb = STRBUF_INIT;
		char *err = NULL;
		double t0 = now_ms();
		int rc = text ? plan_render_text(&sb, r, &o, &err) : plan_render_snapshot(&sb, r, &o, &err);
		t[i] = now_ms() - t0;
		if (rc < 0) {
			fprintf(stderr, "bench_plan: %s\n", err);
			exit(1);
		}
		*bytes = sb.len;
		if (!text && strstr(sb_str(&sb), "# srun calls: "))
			steps = strtoul(strstr(sb_str(&sb), "# srun calls: ") + 14, NULL, 10);
		strbuf_release(&sb);
	}
	qsort(t, (size_t)runs, sizeof(double), cmp_double);
	med = t[runs / 2];
	free(t);
	return med;
}

static void report(const char *label, const struct recipe *r)
{
	size_t bytes = 0;
	double snap = bench(r, 0, 201, &bytes), text;
	size_t tbytes = 0;
	text = bench(r, 1, 201, &tbytes);
	printf("plan %-36s %5zu steps: snapshot %7.3f ms (%zu bytes), plan text %7.3f ms (%zu bytes)  %s\n",
	       label, steps, snap, bytes, text, tbytes, snap < 5.0 && text < 5.0 ? "ok (< 5 ms)" : "SLOW (goal < 5 ms)");
}

/* The largest *.yaml under dir that the launch plan renders; NULL when none. */
static char *largest(const char *dir, off_t *size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *best = NULL;
	*size = -1;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		struct stat st;
		char *p;
		if (n < 6 || strcmp(e->d_name + n - 5, ".yaml"))
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		if (!stat(p, &st) && st.st_size > *size) {
			struct diag_list dl = DIAG_LIST_INIT;
			struct doc *doc = doc_load_file(p, &dl);
			int ok = 0;
			if (doc) {
				struct recipe r;
				json_t *root = doc_json(doc);
				struct strbuf sb = STRBUF_INIT;
				char *err = NULL;
				recipe_init(&r, root);
				json_decref(root);
				ok = plan_render_snapshot(&sb, &r, NULL, &err) == 0;
				free(err);
				strbuf_release(&sb);
				recipe_release(&r);
				doc_free(doc);
			}
			diag_list_release(&dl);
			if (ok) {
				free(best);
				best = p;
				*size = st.st_size;
				continue;
			}
		}
		free(p);
	}
	closedir(d);
	return best;
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
	char *dir = xasprintf("%s/examples", src && *src ? src : ".");
	off_t size;
	char *ex = largest(dir, &size);
	struct recipe r;
	json_t *root;

	if (!ex) { /* no renderable example yet: the largest fixture */
		free(dir);
		dir = xasprintf("%s/tests/fixtures/plan", src && *src ? src : ".");
		ex = largest(dir, &size);
	}
	if (ex) {
		struct diag_list dl = DIAG_LIST_INIT;
		struct doc *d = doc_load_file(ex, &dl);
		const char *base = strrchr(ex, '/') ? strrchr(ex, '/') + 1 : ex;
		root = doc_json(d);
		recipe_init(&r, root);
		json_decref(root);
		report(base, &r);
		recipe_release(&r);
		doc_free(d);
		diag_list_release(&dl);
		free(ex);
	} else {
		printf("plan: no example recipe found under %s\n", dir);
	}
	free(dir);

	root = generated();
	recipe_init(&r, root);
	json_decref(root);
	printf("plan: generated job asks for %d nodes, %zu services\n", plan_job_nodes(&r), r.nsvc);
	report("generated (64 nodes, 32 services)", &r);
	recipe_release(&r);
	return 0;
}
