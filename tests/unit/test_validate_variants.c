/* Validation of files that are many jobs (model/validate_variants.c): a
 * problem in a section points at the section's line, one in base is one
 * entry for all variants, a zip list element gets its own line, a --set
 * value names its flag, sweep jobs are checked one by one, selectors and
 * the reference examples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "model/validate.h"

/* Our own override file (spec 9.2-9.5). */
static const char ovr_text[] =
	"schema: 2\n"                             /* 1 */
	"base:\n"                                 /* 2 */
	"  name: \"v\"\n"                         /* 3 */
	"  model: {path: m, container: c, precision: bf16}\n" /* 4 */
	"  resources: {gpu_type: h100, gpus_per_node: 8}\n"  /* 5 */
	"  engine: sglang\n"                      /* 6 */
	"  roles:\n"                              /* 7 */
	"    agg:\n"                              /* 8 */
	"      nodes: 1\n"                        /* 9 */
	"      workers: 2\n"                      /* 10 */
	"      gpus: 1\n"                         /* 11 */
	"  services:\n"                           /* 12 */
	"    - name: lmc\n"                       /* 13 */
	"      type: lmcache-server\n"            /* 14 */
	"      args: [\"--port\", \"9000\", \"--l1-size-gb\", \"8\", \"--eviction-policy\", \"LRU\"]\n" /* 15 */
	"override_bad:\n"                         /* 16 */
	"  roles:\n"                              /* 17 */
	"    agg:\n"                              /* 18 */
	"      gpus: \"two\"\n"                   /* 19 */
	"override_good:\n"                        /* 20 */
	"  roles: {agg: {workers: 1}}\n"          /* 21 */
	"zip_override_z:\n"                       /* 22 */
	"  roles:\n"                              /* 23 */
	"    agg:\n"                              /* 24 */
	"      workers:\n"                        /* 25 */
	"        - 1\n"                           /* 26 */
	"        - \"many\"\n";                   /* 27 */

static struct doc *load(const char *text)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load("t.yaml", text, strlen(text), &dl);
	assert_non_null(d);
	diag_list_release(&dl);
	return d;
}

static const struct diag *find(const struct diag_list *l, const char *code, const char *msg_part,
			       size_t *count)
{
	const struct diag *g = NULL;
	*count = 0;
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].code, code) && strstr(l->v[i].message, msg_part)) {
			g = &l->v[i];
			(*count)++;
		}
	return g;
}

static void test_where(void **state)
{
	(void)state;
	struct doc *d = load(ovr_text);
	struct diag_list l = DIAG_LIST_INIT;
	struct strvec labels = STRVEC_INIT;
	char *err = NULL;
	assert_int_equal(validate_doc_variants(d, NULL, NULL, NULL, &l, &labels, NULL, &err), 0);
	assert_int_equal(labels.n, l.n);
	assert_int_equal(l.n, 3);
	size_t n;

	/* base's problem, which every variant has: one entry, at base's line */
	const struct diag *g = find(&l, "lmcache-server-port", "", &n);
	assert_int_equal(n, 1);
	assert_int_equal(strncmp(g->message, "[all variants] services[lmc].args", 33), 0);
	assert_string_equal(g->path, "base.services[lmc].args[0]");
	assert_int_equal(g->line, 15);
	assert_string_equal(labels.v[g - l.v], "all variants");

	/* a section's problem: its own line, its own name */
	g = find(&l, "wrong-type", "gpus", &n);
	assert_int_equal(n, 1);
	assert_string_equal(g->message,
			    "[override_bad] roles.agg.gpus must be an integer or null; got the string 'two'");
	assert_string_equal(g->path, "override_bad.roles.agg.gpus");
	assert_int_equal(g->line, 19);
	assert_int_equal(g->col, 7); /* doc_locate: the key */
	assert_string_equal(labels.v[g - l.v], "override_bad");

	/* element 1 of a zip list: that element's line */
	g = find(&l, "wrong-type", "workers", &n);
	assert_int_equal(n, 1);
	assert_string_equal(g->path, "zip_override_z.roles.agg.workers[1]");
	assert_int_equal(g->line, 27);
	assert_int_equal(strncmp(g->message, "[override_z_1] ", 15), 0);

	/* sorted by line */
	for (size_t i = 1; i < l.n; i++)
		assert_true(l.v[i - 1].line <= l.v[i].line);
	diag_list_release(&l);
	strvec_release(&labels);

	/* a selector: only that variant; base's problem names it */
	assert_int_equal(validate_doc_variants(d, "override_good", NULL, NULL, &l, &labels, NULL, &err), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(strncmp(l.v[0].message, "[override_good] services[lmc]", 29), 0);
	diag_list_release(&l);
	/* a glob picking two: "all selected variants" */
	assert_int_equal(validate_doc_variants(d, "override_*", NULL, NULL, &l, &labels, NULL, &err), 0);
	g = find(&l, "lmcache-server-port", "", &n);
	assert_int_equal(n, 1);
	assert_int_equal(strncmp(g->message, "[all selected variants] ", 24), 0);
	diag_list_release(&l);
	/* a selector that does not resolve: srtctl's message, on the section */
	assert_int_equal(validate_doc_variants(d, "zip_override_z[4]", NULL, NULL, &l, &labels, NULL, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].code, "override-expand");
	assert_string_equal(l.v[0].message, "failed to expand overrides: Index [4] out of range for "
					    "'zip_override_z' (has 2 variants, valid: 0\xe2\x80\x93" "1)");
	assert_int_equal(l.v[0].line, 22);
	diag_list_release(&l);
	strvec_release(&labels);
	doc_free(d);
}

static void test_setflags(void **state)
{
	(void)state;
	struct doc *d = load(ovr_text);
	struct diag_list l = DIAG_LIST_INIT;
	struct strvec sets = STRVEC_INIT, unsets = STRVEC_INIT;
	char *err = NULL;
	int usage = -1;

	/* --set gpus=3 reaches override_bad too and repairs it; nodes=x is the
	 * flag's: no line, named, once; the --unset removes base's port */
	strvec_push(&sets, "roles.agg.gpus=3");
	strvec_push(&sets, "roles.agg.nodes=x");
	strvec_push(&unsets, "services[0].args");
	assert_int_equal(validate_doc_variants(d, NULL, &sets, &unsets, &l, NULL, &usage, &err), 0);
	assert_int_equal(usage, 0);
	size_t n;
	const struct diag *g = find(&l, "wrong-type", "nodes", &n);
	assert_int_equal(n, 1);
	assert_int_equal(g->line, 0);
	assert_non_null(strstr(g->message, " (from --set roles.agg.nodes=x)"));
	find(&l, "wrong-type", "gpus", &n);
	assert_int_equal(n, 0);
	/* the file's own lines still hold for what the flags did not touch */
	g = find(&l, "wrong-type", "workers", &n);
	assert_int_equal(n, 1);
	assert_int_equal(g->line, 27);
	find(&l, "lmcache-server-port", "", &n);
	assert_int_equal(n, 0);
	diag_list_release(&l);
	strvec_release(&sets);
	strvec_release(&unsets);

	/* usage and application errors */
	strvec_push(&sets, "a..b=1");
	assert_int_equal(validate_doc_variants(d, NULL, &sets, NULL, &l, NULL, &usage, &err), -1);
	assert_int_equal(usage, 1);
	assert_string_equal(err, "empty segment in override path 'a..b'");
	free(err);
	err = NULL;
	strvec_release(&sets);
	strvec_push(&sets, "services[0].args[1]=9001");
	assert_int_equal(validate_doc_variants(d, NULL, &sets, NULL, &l, NULL, &usage, &err), -1);
	assert_int_equal(usage, 0);
	assert_string_equal(err, "services[0]: cannot index a non-list with [0]");
	free(err);
	strvec_release(&sets);
	diag_list_release(&l);
	doc_free(d);
}

static void test_sweeps(void **state)
{
	(void)state;
	/* a sweep file: each job is checked; the job whose value is wrong is named */
	struct doc *d = load("schema: 2\n"
			     "name: s\n"
			     "sweep:\n"
			     "  w: [1, \"x\"]\n"
			     "model: {path: m, container: c, precision: bf16}\n"
			     "resources: {gpu_type: h100, gpus_per_node: 8}\n"
			     "engine: sglang\n"
			     "roles:\n"
			     "  agg:\n"
			     "    nodes: 1\n"
			     "    workers: \"{w}\"\n"
			     "    gpus: 1\n");
	struct diag_list l = DIAG_LIST_INIT;
	struct strvec labels = STRVEC_INIT;
	char *err = NULL;
	assert_int_equal(validate_doc_variants(d, NULL, NULL, NULL, &l, &labels, NULL, &err), 0);
	size_t n;
	const struct diag *g = find(&l, "wrong-type", "workers", &n);
	assert_int_equal(n, 1);
	assert_int_equal(strncmp(g->message, "[s_wx] roles.agg.workers", 24), 0);
	assert_int_equal(g->line, 11); /* the placeholder */
	assert_string_equal(labels.v[g - l.v], "s_wx");
	diag_list_release(&l);
	doc_free(d);

	/* an override variant's own sweep: its jobs; zero jobs reported */
	d = load("schema: 2\n"
		 "base:\n"
		 "  name: b\n"
		 "  model: {path: m, container: c, precision: bf16}\n"
		 "  resources: {gpu_type: h100, gpus_per_node: 8}\n"
		 "  engine: sglang\n"
		 "  roles: {agg: {nodes: 1, workers: 1, gpus: 1, args: {context-length: \"{p}\"}}}\n"
		 "override_a:\n"
		 "  sweep: {p: [1, 2]}\n"
		 "override_e:\n"
		 "  sweep: {p: []}\n");
	assert_int_equal(validate_doc_variants(d, NULL, NULL, NULL, &l, &labels, NULL, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].message, "[override_e] sweep expanded to zero jobs");
	assert_string_equal(l.v[0].path, "override_e.sweep");
	assert_int_equal(l.v[0].line, 11);
	assert_string_equal(labels.v[0], "override_e");
	diag_list_release(&l);
	strvec_release(&labels);
	doc_free(d);
}

/* The TUI's entry point: same merging, every job named (VV_NAME_EVERY). */
static void test_jobs_api(void **state)
{
	(void)state;
	struct doc *d = load(ovr_text);
	json_t *root = doc_json(d);
	struct variant_list vl = VARIANT_LIST_INIT;
	char *err = NULL;
	assert_int_equal(override_expand(root, "override_*", &vl, &err), 0);
	struct diag_list l = DIAG_LIST_INIT;
	validate_variant_jobs(RECIPE_OVERRIDE, &vl, vl.n, NULL, d, VV_NAME_EVERY, &l);
	size_t n;
	const struct diag *g = find(&l, "lmcache-server-port", "", &n);
	assert_int_equal(n, 1);
	assert_int_equal(strncmp(g->message, "[override_bad, override_good] ", 30), 0);
	assert_int_equal(g->line, 15);
	diag_list_release(&l);
	validate_variant_jobs(RECIPE_OVERRIDE, &vl, vl.n, NULL, d, 0, &l);
	g = find(&l, "lmcache-server-port", "", &n);
	assert_int_equal(strncmp(g->message, "[all variants] ", 15), 0);
	diag_list_release(&l);
	/* an expansion error is one diagnostic */
	validate_variant_jobs(RECIPE_OVERRIDE, &vl, 0, "boom", d, 0, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].message, "failed to expand overrides: boom");
	diag_list_release(&l);
	variant_list_release(&vl);
	json_decref(root);
	doc_free(d);
}

/* srtctl's examples, when the reference folder is there: the schema 2 ones
 * have no errors; the pre-2.0 ones only name variants they have. */
static void test_reference(void **state)
{
	(void)state;
	const char *shared = getenv("SHARED");
	if (!shared || !*shared) {
		printf("skip: shared reference recipes not available\n");
		return;
	}
	static const struct {
		const char *file;
		int clean;
		const char *names[6];
	} refs[] = {
		{ "features__override.yaml", 1, { "override_tp2", "override_context_0", "override_context_1" } },
		{ "features__sweep.yaml", 1, { "qwen3-0.6b-sweep_concurrency4_max_running_requests16" } },
		{ "features__override.nvidia-b9947a0a.yaml", 0,
		  { "override_tp2", "override_context_0", "override_context_1" } },
		{ "example-override.yaml", 0,
		  { "override_small", "override_tp64", "override_tp_sweep_0", "override_tp_sweep_1",
		    "override_tp_sweep_2" } },
	};
	for (size_t i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		char *path = xasprintf("%s/reference/%s", shared, refs[i].file);
		struct diag_list l = DIAG_LIST_INIT;
		struct strvec labels = STRVEC_INIT;
		char *err = NULL;
		struct doc *d = doc_load_file(path, &l);
		free(path);
		if (!d) {
			diag_list_release(&l);
			continue;
		}
		assert_int_equal(validate_doc_variants(d, NULL, NULL, NULL, &l, &labels, NULL, &err), 0);
		if (refs[i].clean)
			assert_int_equal(diag_count(&l, DIAG_ERROR), 0);
		else
			assert_true(diag_count(&l, DIAG_ERROR) > 0);
		/* every label names a job of the file */
		for (size_t k = 0; k < labels.n; k++) {
			const char *lb = labels.v[k];
			if (!*lb || !strcmp(lb, "all variants") || !strcmp(lb, "all jobs") ||
			    strstr(lb, " more"))
				continue;
			int ok = 0;
			for (size_t m = 0; m < 6 && refs[i].names[m]; m++)
				ok |= strstr(lb, refs[i].names[m]) != NULL ||
				      !strncmp(lb, "qwen3-0.6b-sweep_", 17);
			if (!ok)
				fail_msg("%s: label '%s'", refs[i].file, lb);
		}
		diag_list_release(&l);
		strvec_release(&labels);
		doc_free(d);
	}
}

/* A file that does not expand: srtctl's message at the section it is about,
 * with a hint for its mistake; a section that is not a mapping is reported
 * once, by the file's own check. */
static void test_expand_errors(void **state)
{
	(void)state;
	static const struct {
		const char *text, *msg, *hint_part;
		int line;
	} cases[] = {
		{ "base: {name: x}\n"
		  "zip_override_b: {a: [1, 2]}\n"
		  "zip_override_a:\n"
		  "  a: [1, 2]\n"
		  "  b: [1, 2, 3]\n",
		  "failed to expand overrides: Incompatible zip lengths [2, 3]. All lists must have "
		  "the same length or length 1 (broadcast).",
		  "same length", 3 },
		{ "base: {name: x}\noverride_y: {a: 1}\nzip_override_g: {a: 1}\n",
		  "failed to expand overrides: zip_override section contains no list values \xe2\x80\x94 "
		  "nothing to zip",
		  "override_<name>", 3 },
		{ "base: {name: x}\nzip_override_g: {a: [1, 2], b: []}\n",
		  "failed to expand overrides: zip_override contains an empty list \xe2\x80\x94 cannot "
		  "zip zero-length lists",
		  "empty list", 2 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct doc *d = load(cases[i].text);
		struct diag_list l = DIAG_LIST_INIT;
		char *err = NULL;
		assert_int_equal(validate_doc_variants(d, NULL, NULL, NULL, &l, NULL, NULL, &err), 0);
		size_t n;
		const struct diag *g = find(&l, "override-expand", "", &n);
		assert_int_equal(n, 1);
		assert_string_equal(g->message, cases[i].msg);
		assert_int_equal(g->line, cases[i].line);
		assert_non_null(strstr(g->hint, cases[i].hint_part));
		diag_list_release(&l);
		doc_free(d);
	}
	/* not a mapping: one error, the file's own */
	struct doc *d = load("base: {name: x}\noverride_x: 5\n");
	struct diag_list l = DIAG_LIST_INIT;
	char *err = NULL;
	assert_int_equal(validate_doc_variants(d, NULL, NULL, NULL, &l, NULL, NULL, &err), 0);
	size_t n;
	assert_non_null(find(&l, "wrong-type", "override_x must be a mapping", &n));
	assert_int_equal(n, 1);
	assert_null(find(&l, "override-expand", "", &n));
	diag_list_release(&l);
	doc_free(d);
	/* the TUI's entry point places it too */
	d = load("base: {name: x}\nzip_override_g: {a: [1, 2], b: [1, 2, 3]}\n");
	struct variant_list vl = VARIANT_LIST_INIT;
	validate_variant_jobs(RECIPE_OVERRIDE, &vl, 0,
			      "Incompatible zip lengths [2, 3]. All lists must have the same length or "
			      "length 1 (broadcast).",
			      d, 0, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].path, "zip_override_g");
	assert_int_equal(l.v[0].line, 2);
	diag_list_release(&l);
	doc_free(d);
}

/* A quoted number in a list of integers: the hint quotes the value itself. */
static void test_soft_hint_value(void **state)
{
	(void)state;
	struct doc *d = load("schema: 2\n"
			     "base:\n"
			     "  name: q\n"
			     "  model: {path: m, container: c, precision: bf16}\n"
			     "  resources: {gpus_per_node: 8}\n"
			     "  engine: sglang\n"
			     "  roles: {agg: {nodes: 1, workers: 1, gpus: 1}}\n"
			     "zip_override_c:\n"
			     "  benchmark: {concurrencies: [[\"16\"], [\"4\", \"8\"]]}\n");
	struct diag_list l = DIAG_LIST_INIT;
	char *err = NULL;
	assert_int_equal(validate_doc_variants(d, NULL, NULL, NULL, &l, NULL, NULL, &err), 0);
	size_t n;
	const struct diag *g = find(&l, "wrong-type", "concurrencies[1]", &n);
	assert_int_equal(n, 1);
	assert_int_equal(g->severity, DIAG_WARNING);
	assert_string_equal(g->hint, "srtctl's loader reads \"8\" as 8, but its schema wants a number: "
				     "write it without quotes");
	g = find(&l, "wrong-type", "[override_c_0]", &n);
	assert_non_null(strstr(g->hint, "reads \"16\" as 16"));
	diag_list_release(&l);
	doc_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_where),
		cmocka_unit_test(test_setflags),
		cmocka_unit_test(test_sweeps),
		cmocka_unit_test(test_jobs_api),
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_expand_errors),
		cmocka_unit_test(test_soft_hint_value),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
