/*
 * Sweeps (spec §9.8, §9.11 B and D): Cartesian order, typed exact
 * placeholders, text for embedded ones, names, errors, sweeps inside
 * override variants.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/override.h"
#include "tests/unit/tree_helpers.h"

static const json_t *at(const json_t *v, const char *path)
{
	struct path p = PATH_INIT;
	char *err = NULL;
	if (path_parse(&p, path, 0, &err))
		fail_msg("%s", err);
	for (size_t i = 0; i < p.n && v; i++)
		v = p.seg[i].kind == PATH_INDEX ? json_array_get(v, p.seg[i].index)
						: json_object_get(v, p.seg[i].key);
	path_release(&p);
	return v;
}

/* Example B: names, typed values, the template's other values untouched. */
static void check_example_b(json_t *root, const char *name)
{
	struct variant_list vl = VARIANT_LIST_INIT;
	char *err = NULL;
	assert_int_equal(sweep_expand(root, NULL, &vl, &err), 0);
	assert_int_equal(vl.n, 4);
	static const int conc[] = { 4, 4, 8, 8 }, mrr[] = { 16, 64, 16, 64 };
	for (size_t i = 0; i < 4; i++) {
		char *want = xasprintf("%s_concurrency%d_max_running_requests%d", name, conc[i], mrr[i]);
		assert_string_equal(vl.v[i].job_name, want);
		assert_string_equal(json_string_value(json_object_get(vl.v[i].tree, "name")), want);
		free(want);
		assert_int_equal(vl.v[i].kind, VARIANT_SWEEP);
		assert_null(json_object_get(vl.v[i].tree, "sweep"));
		/* typed: integers, not "16" */
		const json_t *m = at(vl.v[i].tree, "roles.agg.args.max-running-requests");
		assert_true(json_is_integer(m));
		assert_int_equal(json_integer_value(m), mrr[i]);
		const json_t *c = at(vl.v[i].tree, "benchmark.concurrencies");
		assert_true(json_is_integer(c));
		assert_int_equal(json_integer_value(c), conc[i]);
		assert_json(at(vl.v[i].tree, "roles.agg.workers"), "2");
		char *s = xasprintf("{\"concurrency\": %d, \"max_running_requests\": %d}", conc[i], mrr[i]);
		assert_json(vl.v[i].params, s);
		free(s);
	}
	/* Changes against the template: name and the two substituted values. */
	struct change_list cl = CHANGE_LIST_INIT;
	variant_changes(&vl.v[1], &cl);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < cl.n; i++) {
		if (strstr(cl.v[i].path, ".env."))
			continue; /* our fixture has one more placeholder there */
		change_format(&sb, &cl.v[i]);
		strbuf_addch(&sb, '\n');
	}
	char *want = xasprintf("name: \"%s\" -> \"%s_concurrency4_max_running_requests64\"\n"
			       "roles.agg.args.max-running-requests: \"{max_running_requests}\" -> 64\n"
			       "benchmark.concurrencies: \"{concurrency}\" -> 4\n", name, name);
	assert_string_equal(sb_str(&sb), want);
	free(want);
	strbuf_release(&sb);
	change_list_release(&cl);
	/* Origin: substituted values point at the placeholder. */
	struct path p = PATH_INIT, fp = PATH_INIT;
	path_parse(&p, "benchmark.concurrencies", 0, &err);
	assert_int_equal(variant_origin(&vl.v[0], &p, &fp), ORIGIN_SWEEP);
	char *fs = path_format(&fp, (size_t)-1);
	assert_string_equal(fs, "benchmark.concurrencies");
	free(fs);
	path_parse(&p, "roles.agg.workers", 0, &err);
	assert_int_equal(variant_origin(&vl.v[0], &p, &fp), ORIGIN_BASE);
	path_parse(&p, "name", 0, &err);
	assert_int_equal(variant_origin(&vl.v[0], &p, &fp), ORIGIN_NAME);
	path_release(&p);
	path_release(&fp);
	variant_list_release(&vl);
}

static void test_example_b(void **state)
{
	(void)state;
	json_t *f = fixture("sweep-agg.yaml");
	check_example_b(f, "tiny-sweep");
	/* Embedded placeholders become text; runtime ones survive. */
	struct variant_list vl = VARIANT_LIST_INIT;
	char *err = NULL;
	assert_int_equal(sweep_expand(f, NULL, &vl, &err), 0);
	assert_json(at(vl.v[2].tree, "roles.agg.env.TAG"), "\"mrr16-c8\"");
	assert_json(at(vl.v[2].tree, "output.log_dir"), "\"logs/{job_id}\"");
	variant_list_release(&vl);
	json_decref(f);
	json_t *r = reference("features__sweep.yaml");
	if (r) {
		check_example_b(r, "qwen3-0.6b-sweep");
		json_decref(r);
	}
}

static void check_example_d(json_t *root, const char *name)
{
	struct variant_list vl = VARIANT_LIST_INIT;
	char *err = NULL;
	assert_int_equal(sweep_expand(root, NULL, &vl, &err), 0);
	assert_int_equal(vl.n, 4);
	static const int cps[] = { 4096, 4096, 8192, 8192 }, mtt[] = { 8192, 16384, 8192, 16384 };
	for (size_t i = 0; i < 4; i++) {
		char *want = xasprintf("%s_chunked_prefill_size%d_max_total_tokens%d", name, cps[i], mtt[i]);
		assert_string_equal(vl.v[i].job_name, want);
		free(want);
		assert_int_equal(json_integer_value(at(vl.v[i].tree, "backend.sglang_config.prefill.max-total-tokens")),
				 mtt[i]);
		assert_int_equal(json_integer_value(at(vl.v[i].tree,
						       "backend.sglang_config.prefill.chunked-prefill-size")), cps[i]);
		assert_int_equal(json_integer_value(at(vl.v[i].tree,
						       "backend.sglang_config.decode.chunked-prefill-size")), cps[i]);
	}
	variant_list_release(&vl);
}

static void test_example_d(void **state)
{
	(void)state;
	json_t *f = fixture("sweep-pd.yaml");
	check_example_d(f, "pd-sweep");
	json_decref(f);
	json_t *r = reference("example-sweep.yaml");
	if (r) {
		check_example_d(r, "example-sweep");
		json_decref(r);
	}
}

static void test_substitution(void **state)
{
	(void)state;
	json_t *root = tu_json("{\"name\": \"s-{a}\", \"sweep\": {\"a\": [0.9, true, null, [1, \"x\"], {\"k\": 1}],"
			 " \"b\": [\"{a}\"]},"
			 " \"exact\": \"{a}\", \"text\": \"v={a};b={b}\", \"list\": [\"{a}\", 3, \"{c}\"],"
			 " \"nested\": {\"{a}\": \"{b}\"}, \"num\": 5}");
	struct variant_list vl = VARIANT_LIST_INIT;
	char *err = NULL;
	assert_int_equal(sweep_expand(root, NULL, &vl, &err), 0);
	assert_int_equal(vl.n, 5);
	/* name is built from the unsubstituted name; values as Python str() */
	assert_string_equal(vl.v[0].job_name, "s-{a}_a0.9_b{a}");
	assert_string_equal(vl.v[1].job_name, "s-{a}_aTrue_b{a}");
	assert_string_equal(vl.v[2].job_name, "s-{a}_aNone_b{a}");
	assert_string_equal(vl.v[3].job_name, "s-{a}_a[1, 'x']_b{a}");
	assert_string_equal(vl.v[4].job_name, "s-{a}_a{'k': 1}_b{a}");
	assert_json(vl.v[0].tree, "{\"name\": \"s-{a}_a0.9_b{a}\", \"exact\": 0.9, \"text\": \"v=0.9;b={a}\","
				  " \"list\": [0.9, 3, \"{c}\"], \"nested\": {\"{a}\": \"{a}\"}, \"num\": 5}");
	assert_json(at(vl.v[1].tree, "exact"), "true");
	assert_json(at(vl.v[1].tree, "text"), "\"v=True;b={a}\"");
	assert_json(at(vl.v[2].tree, "exact"), "null");
	assert_json(at(vl.v[2].tree, "text"), "\"v=None;b={a}\"");
	/* A list: typed when exact, joined with "," when embedded. */
	assert_json(at(vl.v[3].tree, "exact"), "[1, \"x\"]");
	assert_json(at(vl.v[3].tree, "text"), "\"v=1,x;b={a}\"");
	assert_json(at(vl.v[4].tree, "exact"), "{\"k\": 1}");
	assert_json(at(vl.v[4].tree, "text"), "\"v={'k': 1};b={a}\"");
	/* "{b}" -> "{a}" after a was tried: parameters are tried in order once. */
	assert_json(at(vl.v[0].tree, "nested"), "{\"{a}\": \"{a}\"}");
	variant_list_release(&vl);
	json_decref(root);

	/* An exact match returns the value at once: it is not substituted again. */
	root = tu_json("{\"name\": \"n\", \"sweep\": {\"b\": [\"{a}\"], \"a\": [7]}, \"v\": \"{b}\","
		 " \"w\": \"{a}{b}\"}");
	assert_int_equal(sweep_expand(root, NULL, &vl, &err), 0);
	assert_json(at(vl.v[0].tree, "v"), "\"{a}\"");
	assert_json(at(vl.v[0].tree, "w"), "\"77\""); /* b first, then a */
	variant_list_release(&vl);
	json_decref(root);
}

static void test_errors_and_edges(void **state)
{
	(void)state;
	struct variant_list vl = VARIANT_LIST_INIT;
	char *err = NULL;
	json_t *r = tu_json("{\"name\": \"n\"}");
	assert_int_equal(sweep_expand(r, NULL, &vl, &err), -1);
	assert_string_equal(err, "Sweep config must have 'sweep' section");
	free(err);
	json_decref(r);
	r = tu_json("{\"name\": \"n\", \"sweep\": {\"a\": [1], \"b\": 5}}");
	assert_int_equal(sweep_expand(r, NULL, &vl, &err), -1);
	assert_string_equal(err, "Sweep parameter 'b' must be a list");
	free(err);
	json_decref(r);
	r = tu_json("{\"name\": \"n\", \"sweep\": {\"b\": \"abc\"}}");
	assert_int_equal(sweep_expand(r, NULL, &vl, &err), -1);
	assert_string_equal(err, "Sweep parameter 'b' must be a list");
	free(err);
	json_decref(r);
	r = tu_json("{\"name\": \"n\", \"sweep\": [1]}");
	assert_int_equal(sweep_expand(r, NULL, &vl, &err), -1);
	assert_string_equal(err, "'sweep' must be a mapping of parameter names to lists");
	free(err);
	json_decref(r);
	r = tu_json("{\"sweep\": {\"a\": [1]}}");
	assert_int_equal(sweep_expand(r, NULL, &vl, &err), -1);
	assert_string_equal(err, "sweep config needs a 'name': job names are built from it");
	free(err);
	json_decref(r);
	/* An empty list: zero jobs, no error. */
	r = tu_json("{\"name\": \"n\", \"sweep\": {\"a\": [1, 2], \"b\": []}}");
	assert_int_equal(sweep_expand(r, NULL, &vl, &err), 0);
	assert_int_equal(vl.n, 0);
	json_decref(r);
	/* sweep: {} -> one job named "<name>_" */
	r = tu_json("{\"name\": \"n\", \"sweep\": {}, \"x\": \"{a}\"}");
	assert_int_equal(sweep_expand(r, NULL, &vl, &err), 0);
	assert_int_equal(vl.n, 1);
	assert_json(vl.v[0].tree, "{\"name\": \"n_\", \"x\": \"{a}\"}");
	variant_list_release(&vl);
	json_decref(r);
	/* 3 x 2: last parameter fastest */
	r = tu_json("{\"name\": \"n\", \"sweep\": {\"p\": [1, 2, 3], \"q\": [\"a\", \"b\"]}}");
	assert_int_equal(sweep_expand(r, NULL, &vl, &err), 0);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < vl.n; i++)
		strbuf_addf(&sb, "%s ", vl.v[i].suffix);
	assert_string_equal(sb_str(&sb), "p1_qa p1_qb p2_qa p2_qb p3_qa p3_qb ");
	strbuf_release(&sb);
	variant_list_release(&vl);
	json_decref(r);
}

static void test_sweep_in_override(void **state)
{
	(void)state;
	json_t *root = tu_json("{\"base\": {\"name\": \"b\", \"sweep\": {\"c\": [1, 2]}, \"x\": \"{c}\", \"y\": 0},"
			 " \"override_big\": {\"y\": \"{c}\"}}");
	struct variant_list vl = VARIANT_LIST_INIT, jobs = VARIANT_LIST_INIT;
	char *err = NULL;
	assert_int_equal(override_expand(root, NULL, &vl, &err), 0);
	assert_int_equal(vl.n, 1); /* base excluded: its sweep runs only through override_big */
	assert_int_equal(sweep_expand(vl.v[0].tree, &vl.v[0], &jobs, &err), 0);
	assert_int_equal(jobs.n, 2);
	assert_string_equal(jobs.v[0].job_name, "b_big_c1");
	assert_string_equal(jobs.v[1].label, "override_big/b_big_c2");
	assert_string_equal(jobs.v[1].selector, "override_big");
	assert_json(jobs.v[1].tree, "{\"name\": \"b_big_c2\", \"x\": 2, \"y\": 2}");
	struct path p = PATH_INIT, fp = PATH_INIT;
	path_push_key(&p, "y");
	assert_int_equal(variant_origin(&jobs.v[1], &p, &fp), ORIGIN_SWEEP);
	char *s = path_format(&fp, (size_t)-1);
	assert_string_equal(s, "override_big.y");
	free(s);
	path_clear(&p);
	path_push_key(&p, "x");
	assert_int_equal(variant_origin(&jobs.v[1], &p, &fp), ORIGIN_SWEEP);
	s = path_format(&fp, (size_t)-1);
	assert_string_equal(s, "base.x");
	free(s);
	path_release(&p);
	path_release(&fp);
	variant_list_release(&jobs);
	variant_list_release(&vl);
	json_decref(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example_b),
		cmocka_unit_test(test_example_d),
		cmocka_unit_test(test_substitution),
		cmocka_unit_test(test_errors_and_edges),
		cmocka_unit_test(test_sweep_in_override),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
