/* The TUI's view of a file that is many jobs (tui/variants.h): the variants
 * and their order, diagnostics of every variant at the file's own lines,
 * where an edit of one variant's value goes (base, the section, element i of
 * a zip list, a scalar widened to a list), sweep jobs, and the text that
 * turns a recipe into an override file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "model/validate.h"
#include "tui/screen_variants.h"
#include "tui/variants.h"

/* Our own override file (spec 9.2-9.5): base, one override section and a
 * zip group of two; override_bad sets a string where an integer belongs. */
static const char ovr_text[] =
	"schema: 2\n"                          /* 1 */
	"base:\n"                              /* 2 */
	"  name: \"t\"\n"                      /* 3 */
	"  model:\n"                           /* 4 */
	"    path: \"m\"\n"                    /* 5 */
	"    container: \"c\"\n"               /* 6 */
	"    precision: \"bf16\"\n"            /* 7 */
	"  resources:\n"                       /* 8 */
	"    gpu_type: \"h100\"\n"             /* 9 */
	"    gpus_per_node: 8\n"               /* 10 */
	"  engine:\n"                          /* 11 */
	"    type: vllm\n"                     /* 12 */
	"  roles:\n"                           /* 13 */
	"    agg:\n"                           /* 14 */
	"      nodes: 1\n"                     /* 15 */
	"      workers: 2\n"                   /* 16 */
	"      gpus: 1\n"                      /* 17 */
	"      args:\n"                        /* 18 */
	"        max-model-len: 4096\n"        /* 19 */
	"override_bad:\n"                      /* 20 */
	"  roles:\n"                           /* 21 */
	"    agg:\n"                           /* 22 */
	"      workers: many\n"                /* 23 */
	"override_tp2:\n"                      /* 24 */
	"  roles:\n"                           /* 25 */
	"    agg:\n"                           /* 26 */
	"      gpus: 2\n"                      /* 27 */
	"zip_override_ctx:\n"                  /* 28 */
	"  roles:\n"                           /* 29 */
	"    agg:\n"                           /* 30 */
	"      workers: 1\n"                   /* 31 */
	"      args:\n"                        /* 32 */
	"        max-model-len: [2048, 8192]\n"; /* 33 */

static struct doc *load_text(const char *text)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load("f.yaml", text, strlen(text), &dl);
	assert_non_null(d);
	diag_list_release(&dl);
	return d;
}

static void compute(struct doc *d, struct variant_state *vs)
{
	json_t *root = doc_json(d);
	variant_state_compute(vs, root);
	json_decref(root);
}

static void test_override_list(void **state)
{
	(void)state;
	struct doc *d = load_text(ovr_text);
	struct variant_state vs;
	compute(d, &vs);
	assert_int_equal(vs.form, RECIPE_OVERRIDE);
	assert_null(vs.error);
	/* sorted override_* first, then the zip group; base last, not a job */
	assert_int_equal(vs.njobs, 4);
	assert_int_equal(vs.list.n, 5);
	assert_string_equal(vs.list.v[0].label, "override_bad");
	assert_string_equal(vs.list.v[1].label, "override_tp2");
	assert_string_equal(vs.list.v[1].job_name, "t_tp2");
	assert_string_equal(vs.list.v[2].label, "override_ctx_0");
	assert_string_equal(vs.list.v[2].selector, "zip_override_ctx[0]");
	assert_string_equal(vs.list.v[3].job_name, "t_ctx_1");
	assert_string_equal(vs.list.v[4].label, "base");
	assert_int_equal(variant_state_find(&vs, "override_ctx_1"), 3);
	assert_int_equal(variant_state_find(&vs, "nope"), -1);

	/* who sets what */
	char *fp = NULL;
	const char *who = NULL;
	assert_int_equal(variant_where(&vs, 1, "roles.agg.gpus", &fp, &who), ORIGIN_SECTION);
	assert_string_equal(fp, "override_tp2.roles.agg.gpus");
	assert_string_equal(who, "override_tp2");
	free(fp);
	assert_int_equal(variant_where(&vs, 1, "roles.agg.workers", &fp, &who), ORIGIN_BASE);
	assert_string_equal(fp, "base.roles.agg.workers");
	assert_string_equal(who, "base");
	free(fp);
	assert_int_equal(variant_where(&vs, 3, "roles.agg.args.max-model-len", &fp, &who),
			 ORIGIN_SECTION);
	assert_string_equal(fp, "zip_override_ctx.roles.agg.args.max-model-len[1]");
	assert_string_equal(who, "zip_override_ctx[1]");
	free(fp);
	variant_state_release(&vs);
	doc_free(d);
}

static void test_override_diags(void **state)
{
	(void)state;
	struct doc *d = load_text(ovr_text);
	struct variant_state vs;
	struct diag_list dl = DIAG_LIST_INIT;
	compute(d, &vs);
	validate_doc(d, &dl);
	size_t own = dl.n;
	variant_state_validate(&vs, d, &dl);
	/* exactly one new problem: override_bad's workers, at its own line */
	assert_int_equal(dl.n, own + 1);
	const struct diag *g = &dl.v[own];
	assert_int_equal(g->severity, DIAG_ERROR);
	assert_string_equal(g->path, "override_bad.roles.agg.workers");
	assert_int_equal(g->line, 23);
	assert_non_null(strstr(g->message, "[override_bad] roles.agg.workers"));
	diag_list_release(&dl);
	variant_state_release(&vs);
	doc_free(d);

	/* A problem of base that every variant has is one entry naming them. */
	const char *bad_base =
		"base:\n"
		"  name: t\n"
		"  schema: 2\n"
		"  model: {path: m, container: c, precision: bf16}\n"
		"  resources: {gpu_type: h100, gpus_per_node: 8}\n"
		"  roles: {agg: {nodes: 1, workers: 2, gpus: 1}}\n"
		"  frontend: {type: dynamo}\n"
		"  engine: {type: vllm}\n"
		"  services:\n"
		"    - {name: lmc, type: lmcache-server, args: [--port, '9000']}\n"
		"override_a: {roles: {agg: {workers: 1}}}\n"
		"override_b: {roles: {agg: {workers: 2}}}\n";
	d = load_text(bad_base);
	compute(d, &vs);
	variant_state_validate(&vs, d, &dl);
	size_t port = 0;
	for (size_t i = 0; i < dl.n; i++)
		if (!strcmp(dl.v[i].code, "lmcache-server-port")) {
			port++;
			assert_int_equal(strncmp(dl.v[i].message, "[override_a, override_b] ", 25), 0);
			assert_int_equal(dl.v[i].line, 10);
			assert_int_equal(strncmp(dl.v[i].path, "base.services[", 14), 0);
		}
	assert_int_equal(port, 1);
	diag_list_release(&dl);
	variant_state_release(&vs);
	doc_free(d);
}

static void apply(struct doc *d, const struct variant_edit *e)
{
	struct path p = PATH_INIT;
	char *err = NULL;
	assert_int_equal(path_parse(&p, e->path, PATH_NAMES, &err), 0);
	assert_int_equal(doc_set(d, &p, e->value, &err, NULL), 0);
	path_release(&p);
}

static void test_edit_plans(void **state)
{
	(void)state;
	struct doc *d = load_text(ovr_text);
	struct variant_state vs;
	struct variant_edit e;
	char *err = NULL;
	json_t *v3072 = json_integer(3072), *v4 = json_integer(4);
	compute(d, &vs);

	/* override section: the section's own key */
	assert_int_equal(variant_edit_plan(&vs, 1, "roles.agg.gpus", EDIT_SECTION, v4, &e, &err), 0);
	assert_string_equal(e.path, "override_tp2.roles.agg.gpus");
	assert_int_equal(e.widens, 0);
	variant_edit_release(&e);
	/* a key the section lacks is added there */
	assert_int_equal(variant_edit_plan(&vs, 1, "roles.agg.workers", EDIT_SECTION, v4, &e, &err), 0);
	assert_string_equal(e.path, "override_tp2.roles.agg.workers");
	variant_edit_release(&e);
	/* base, while the section overrides it: said so */
	assert_int_equal(variant_edit_plan(&vs, 1, "roles.agg.gpus", EDIT_BASE, v4, &e, &err), 0);
	assert_string_equal(e.path, "base.roles.agg.gpus");
	assert_non_null(e.note);
	assert_non_null(strstr(e.note, "override_tp2 still sets"));
	variant_edit_release(&e);

	/* zip list: element i */
	assert_int_equal(variant_edit_plan(&vs, 2, "roles.agg.args.max-model-len", EDIT_SECTION,
					   v3072, &e, &err), 0);
	assert_string_equal(e.path, "zip_override_ctx.roles.agg.args.max-model-len[0]");
	assert_int_equal(e.widens, 0);
	apply(d, &e);
	variant_edit_release(&e);
	size_t len;
	const char *t = doc_text(d, &len);
	assert_non_null(strstr(t, "        max-model-len: [3072, 8192]\n"));

	/* zip scalar (workers: 1 for both): widened to a list, the other
	 * variant keeps its value */
	variant_state_release(&vs);
	compute(d, &vs);
	assert_int_equal(variant_edit_plan(&vs, 3, "roles.agg.workers", EDIT_SECTION, v4, &e, &err),
			 0);
	assert_string_equal(e.path, "zip_override_ctx.roles.agg.workers");
	assert_int_equal(e.widens, 1);
	assert_non_null(e.note);
	json_t *want = json_pack("[i, i]", 1, 4);
	assert_true(json_equal(e.value, want));
	json_decref(want);
	variant_edit_release(&e);
	/* zip, absent from the section: a list built from the variants' values */
	assert_int_equal(variant_edit_plan(&vs, 2, "roles.agg.gpus", EDIT_SECTION, v4, &e, &err), 0);
	assert_string_equal(e.path, "zip_override_ctx.roles.agg.gpus");
	want = json_pack("[i, i]", 4, 1);
	assert_true(json_equal(e.value, want));
	json_decref(want);
	apply(d, &e);
	variant_edit_release(&e);
	variant_state_release(&vs);
	compute(d, &vs);
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(json_object_get(vs.list.v[2].tree, "roles"), "agg"),
				 "gpus")),
			 4);
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(json_object_get(vs.list.v[3].tree, "roles"), "agg"),
				 "gpus")),
			 1);
	/* base entry: always base */
	assert_int_equal(variant_edit_plan(&vs, 4, "roles.agg.gpus", EDIT_SECTION, v4, &e, &err), 0);
	assert_string_equal(e.path, "base.roles.agg.gpus");
	variant_edit_release(&e);

	json_decref(v3072);
	json_decref(v4);
	variant_state_release(&vs);
	doc_free(d);
}

static void test_sweep_jobs(void **state)
{
	(void)state;
	const char *text =
		"schema: 2\n"
		"name: \"sw\"\n"
		"model: {path: m, container: c, precision: bf16}\n"
		"resources: {gpu_type: h100, gpus_per_node: 8}\n"
		"engine: {type: vllm}\n"
		"roles:\n"
		"  agg:\n"
		"    nodes: 1\n"
		"    workers: 1\n"
		"    args:\n"
		"      max-num-seqs: \"{seqs}\"\n"
		"sweep:\n"
		"  seqs: [16, 64]\n"
		"  tp: [1, 2]\n";
	struct doc *d = load_text(text);
	struct variant_state vs;
	struct variant_edit e;
	char *err = NULL;
	compute(d, &vs);
	assert_int_equal(vs.form, RECIPE_SWEEP);
	assert_int_equal(vs.njobs, 4);
	assert_int_equal(vs.list.n, 4);
	assert_string_equal(vs.list.v[1].job_name, "sw_seqs16_tp2");
	char *params = variant_params_text(&vs.list.v[2]);
	assert_string_equal(params, "seqs=64, tp=1");
	free(params);
	/* a swept value is changed in the sweep block, not per job */
	json_t *v = json_integer(8);
	assert_int_equal(variant_edit_plan(&vs, 0, "roles.agg.args.max-num-seqs", EDIT_SECTION, v,
					   &e, &err), -1);
	assert_non_null(strstr(err, "comes from the sweep"));
	free(err);
	err = NULL;
	/* anything else goes to the template */
	assert_int_equal(variant_edit_plan(&vs, 0, "roles.agg.workers", EDIT_SECTION, v, &e, &err), 0);
	assert_string_equal(e.path, "roles.agg.workers");
	variant_edit_release(&e);
	json_decref(v);

	/* tp is not used by any placeholder: every job validates the same; an
	 * empty list gives zero jobs, reported */
	variant_state_release(&vs);
	struct path p = PATH_INIT;
	path_parse(&p, "sweep.tp", 0, &err);
	json_t *empty = json_array();
	assert_int_equal(doc_set(d, &p, empty, &err, NULL), 0);
	json_decref(empty);
	path_release(&p);
	compute(d, &vs);
	assert_int_equal(vs.njobs, 0);
	struct diag_list dl = DIAG_LIST_INIT;
	variant_state_validate(&vs, d, &dl);
	assert_int_equal(dl.n, 1);
	assert_string_equal(dl.v[0].message, "sweep expanded to zero jobs");
	diag_list_release(&dl);
	variant_state_release(&vs);
	doc_free(d);
}

static void test_plain_and_errors(void **state)
{
	(void)state;
	struct doc *d = load_text("name: x\nschema: 2\n");
	struct variant_state vs;
	compute(d, &vs);
	assert_int_equal(vs.form, RECIPE_PLAIN);
	assert_int_equal(vs.njobs, 1);
	assert_int_equal(vs.list.v[0].kind, VARIANT_PLAIN);
	struct diag_list dl = DIAG_LIST_INIT;
	variant_state_validate(&vs, d, &dl);
	assert_int_equal(dl.n, 0); /* validate_doc's business */
	variant_state_release(&vs);
	doc_free(d);

	/* mismatched zip lengths: srtctl's message, base still previewable */
	d = load_text("base: {name: x}\nzip_override_g: {a: [1, 2], b: [1, 2, 3]}\n");
	compute(d, &vs);
	assert_non_null(vs.error);
	assert_string_equal(vs.error, "Incompatible zip lengths [2, 3]. All lists must have the "
				      "same length or length 1 (broadcast).");
	assert_int_equal(vs.njobs, 0);
	assert_int_equal(vs.list.n, 1);
	assert_string_equal(vs.list.v[0].label, "base");
	variant_state_validate(&vs, d, &dl);
	assert_int_equal(dl.n, 1);
	assert_string_equal(dl.v[0].code, "override-expand");
	assert_non_null(strstr(dl.v[0].message, "failed to expand overrides: Incompatible"));
	diag_list_release(&dl);
	variant_state_release(&vs);
	doc_free(d);
}

static void test_override_text(void **state)
{
	(void)state;
	const char *text = "# top comment\nschema: 2\nname: \"x\"\n\nroles:\n  agg:\n    workers: 2\n"
			   "    args:\n      note: |\n        two\n        lines\n";
	size_t n;
	char *out = variants_override_text(text, strlen(text), "tp2", &n);
	assert_string_equal(out, "schema: 2\nbase:\n  # top comment\n  name: \"x\"\n\n  roles:\n"
				 "    agg:\n      workers: 2\n      args:\n        note: |\n"
				 "          two\n          lines\n\noverride_tp2: {}\n");
	/* it reads back as base = the recipe without schema */
	struct doc *a = load_text(text), *b = load_text(out);
	json_t *ja = doc_json(a), *jb = doc_json(b);
	json_object_del(ja, "schema");
	assert_true(json_equal(ja, json_object_get(jb, "base")));
	assert_int_equal(json_integer_value(json_object_get(jb, "schema")), 2);
	json_decref(ja);
	json_decref(jb);
	doc_free(a);
	doc_free(b);
	free(out);

	/* CRLF files keep CRLF; no final newline gets one */
	out = variants_override_text("name: x\r\nschema: 2", 18, "a", &n);
	assert_string_equal(out, "schema: 2\r\nbase:\r\n  name: x\r\n\r\noverride_a: {}\r\n");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_override_list),
		cmocka_unit_test(test_override_diags),
		cmocka_unit_test(test_edit_plans),
		cmocka_unit_test(test_sweep_jobs),
		cmocka_unit_test(test_plain_and_errors),
		cmocka_unit_test(test_override_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
