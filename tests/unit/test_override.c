/*
 * Override files (spec §9.2-9.7, §9.11 A and C): merge, zip groups, naming,
 * selectors with srtctl's exact messages, schema carry-over, provenance and
 * per-variant changes.  Fixtures are ours (tests/fixtures/override); the
 * published examples are checked too when $SHARED/reference exists.
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

static void test_merge(void **state)
{
	(void)state;
	json_t *base = tu_json("{\"name\": \"b\", \"a\": {\"x\": 1, \"y\": [1, 2], \"z\": {\"k\": 1}},"
			 " \"s\": 5, \"gone\": 1, \"m\": 3}");
	json_t *sec = tu_json("{\"new1\": 1, \"a\": {\"y\": [3], \"z\": {\"j\": 2}, \"w\": null, \"n\": {}},"
			" \"gone\": null, \"nothing\": null, \"m\": {\"now\": \"map\"}, \"s\": [null, 1]}");
	json_t *m = override_merge(base, sec);
	/* base order, then new keys in section order; null deletes; lists replace;
	 * mappings merge; a mapping over a scalar replaces it; null inside a list stays. */
	assert_json(m, "{\"name\": \"b\", \"a\": {\"x\": 1, \"y\": [3], \"z\": {\"k\": 1, \"j\": 2}, "
		       "\"n\": {}}, \"s\": [null, 1], \"m\": {\"now\": \"map\"}, \"new1\": 1}");
	/* Neither input changed. */
	assert_json(base, "{\"name\": \"b\", \"a\": {\"x\": 1, \"y\": [1, 2], \"z\": {\"k\": 1}}, "
			  "\"s\": 5, \"gone\": 1, \"m\": 3}");
	json_decref(m);
	json_t *empty = tu_json("{\"a\": {}}");
	m = override_merge(base, empty);
	assert_true(json_equal(m, base));
	json_decref(m);
	json_decref(empty);
	json_decref(sec);
	json_decref(base);
}

static void expect_zip_len(const char *sec_json, long want_n, const char *want_err)
{
	json_t *sec = tu_json(sec_json);
	size_t n = 0;
	char *err = NULL;
	int rc = zip_length(sec, &n, &err);
	if (want_err) {
		assert_int_equal(rc, -1);
		assert_string_equal(err, want_err);
		free(err);
	} else {
		assert_int_equal(rc, 0);
		assert_int_equal(n, (size_t)want_n);
	}
	json_decref(sec);
}

static void test_zip_length(void **state)
{
	(void)state;
	expect_zip_len("{\"a\": 1, \"b\": {\"c\": \"x\"}}", 0,
		       "zip_override section contains no list values \xe2\x80\x94 nothing to zip");
	expect_zip_len("{}", 0, "zip_override section contains no list values \xe2\x80\x94 nothing to zip");
	expect_zip_len("{\"a\": [1, 2], \"b\": []}", 0,
		       "zip_override contains an empty list \xe2\x80\x94 cannot zip zero-length lists");
	expect_zip_len("{\"a\": [1, 2, 3], \"b\": {\"c\": [1, 2]}, \"d\": [5, 6, 7, 8, 9], \"e\": [2, 3]}", 0,
		       "Incompatible zip lengths [2, 3, 5]. All lists must have the same length or "
		       "length 1 (broadcast).");
	expect_zip_len("{\"a\": [1], \"b\": {\"c\": [\"x\"]}}", 1, NULL);
	/* A list inside a list is an element: [[4, 8], [4]] has length 2. */
	expect_zip_len("{\"a\": [[4, 8], [4]], \"b\": [7], \"c\": {\"d\": {\"e\": [1, 2]}}, \"f\": 3}", 2, NULL);
	expect_zip_len("{\"name\": [\"x\", \"y\", \"z\"]}", 3, NULL);
}

static void test_zip_slice(void **state)
{
	(void)state;
	json_t *sec = tu_json("{\"a\": [[4, 8], [4]], \"b\": [7], \"c\": {\"d\": [null, 5]}, \"f\": 3, \"g\": null,"
			" \"s\": [{\"p\": 1}, {\"p\": 2}]}");
	json_t *s0 = zip_slice(sec, 0), *s1 = zip_slice(sec, 1);
	assert_json(s0, "{\"a\": [4, 8], \"b\": 7, \"c\": {\"d\": null}, \"f\": 3, \"g\": null, \"s\": {\"p\": 1}}");
	assert_json(s1, "{\"a\": [4], \"b\": 7, \"c\": {\"d\": 5}, \"f\": 3, \"g\": null, \"s\": {\"p\": 2}}");
	/* Sliced and merged: null deletes in that variant only; a mapping element
	 * is merged into base's mapping. */
	json_t *base = tu_json("{\"c\": {\"d\": 1, \"e\": 2}, \"s\": {\"p\": 0, \"q\": 9}}");
	json_t *m0 = override_merge(base, s0);
	assert_json(m0, "{\"c\": {\"e\": 2}, \"s\": {\"p\": 1, \"q\": 9}, \"a\": [4, 8], \"b\": 7, \"f\": 3}");
	json_decref(m0);
	json_decref(base);
	json_decref(s0);
	json_decref(s1);
	json_decref(sec);
}

static void expect_arg(const char *arg, const char *want_path, const char *want_sel, const char *want_err)
{
	char *path = NULL, *sel = NULL, *err = NULL;
	int rc = override_parse_arg(arg, &path, &sel, &err);
	if (want_err) {
		assert_int_equal(rc, -1);
		assert_string_equal(err, want_err);
		free(err);
		assert_null(path);
		assert_null(sel);
		return;
	}
	assert_int_equal(rc, 0);
	assert_string_equal(path, want_path);
	if (want_sel)
		assert_string_equal(sel, want_sel);
	else
		assert_null(sel);
	free(path);
	free(sel);
}

#define BAD_SEL(s) "Invalid selector '" s "'. Must be 'base', 'override_<name>', 'zip_override_<name>', " \
	"'zip_override_<name>[N]', or a glob pattern like '*mtp*'."

static void test_parse_arg(void **state)
{
	(void)state;
	expect_arg("r.yaml", "r.yaml", NULL, NULL);
	expect_arg("r.yaml:base", "r.yaml", "base", NULL);
	expect_arg("dir/r.yaml:override_tp2", "dir/r.yaml", "override_tp2", NULL);
	expect_arg("r.yaml:override_a.b[c]", "r.yaml", "override_a.b[c]", NULL);
	expect_arg("r.yaml:zip_override_ctx", "r.yaml", "zip_override_ctx", NULL);
	expect_arg("r.yaml:zip_override_my-ctx[12]", "r.yaml", "zip_override_my-ctx[12]", NULL);
	expect_arg("r.yaml:*tp*", "r.yaml", "*tp*", NULL);
	expect_arg("r.yaml:ov?rride_x", "r.yaml", "ov?rride_x", NULL);
	/* split at the last ':' */
	expect_arg("a:b.yaml:base", "a:b.yaml", "base", NULL);
	expect_arg(":base", NULL, NULL, "Invalid config path in selector syntax.");
	expect_arg("  :base", NULL, NULL, "Invalid config path in selector syntax.");
	expect_arg("r.yaml:", NULL, NULL, BAD_SEL(""));
	expect_arg("r.yaml:tp2", NULL, NULL, BAD_SEL("tp2"));
	expect_arg("r.yaml:override_", NULL, NULL, BAD_SEL("override_"));
	expect_arg("r.yaml:override_a b", NULL, NULL, BAD_SEL("override_a b"));
	expect_arg("r.yaml:zip_override_a.b", NULL, NULL, BAD_SEL("zip_override_a.b"));
	expect_arg("r.yaml:zip_override_a[x]", NULL, NULL, BAD_SEL("zip_override_a[x]"));
	expect_arg("r.yaml:zip_override_a[1]x", NULL, NULL, BAD_SEL("zip_override_a[1]x"));
	expect_arg("C:\\recipe.yaml", NULL, NULL, BAD_SEL("\\recipe.yaml"));
}

static void expect_expand_err(const json_t *root, const char *sel, const char *want)
{
	struct variant_list vl = VARIANT_LIST_INIT;
	char *err = NULL;
	assert_int_equal(override_expand(root, sel, &vl, &err), -1);
	assert_string_equal(err, want);
	assert_int_equal(vl.n, 0);
	free(err);
	variant_list_release(&vl);
}

static void expect_expand(const json_t *root, const char *sel, const char *want_selectors)
{
	struct variant_list vl = VARIANT_LIST_INIT;
	char *err = NULL;
	if (override_expand(root, sel, &vl, &err))
		fail_msg("expand %s: %s", sel ? sel : "(none)", err);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < vl.n; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", vl.v[i].selector);
	assert_string_equal(sb_str(&sb), want_selectors);
	strbuf_release(&sb);
	variant_list_release(&vl);
}

static void test_selector_errors(void **state)
{
	(void)state;
	json_t *c = fixture("disagg-variants.yaml");
	expect_expand_err(c, "zip_override_nope[0]",
			  "'zip_override_nope' not found in config. Available zip groups: zip_override_tp_sweep[i]");
	expect_expand_err(c, "zip_override_tp_sweep[3]",
			  "Index [3] out of range for 'zip_override_tp_sweep' (has 3 variants, valid: 0\xe2\x80\x93" "2)");
	expect_expand_err(c, "*nomatch*",
			  "No variants match '*nomatch*'. Available: override_small, override_tp64, "
			  "zip_override_tp_sweep[i]");
	expect_expand_err(c, "zip_override_nope",
			  "'zip_override_nope' not found in config. Available: zip_override_tp_sweep");
	expect_expand_err(c, "override_nope",
			  "Override 'override_nope' not found in config. Available: override_small, "
			  "override_tp64, zip_override_tp_sweep[i]");
	expect_expand(c, "*tp*", "override_tp64 zip_override_tp_sweep[0] zip_override_tp_sweep[1] "
				 "zip_override_tp_sweep[2]");
	expect_expand(c, "override_*", "override_small override_tp64");
	expect_expand(c, "*_s[mt]*", "override_small");
	expect_expand(c, "*_[st][mw]*", "override_small zip_override_tp_sweep[0] zip_override_tp_sweep[1] "
					"zip_override_tp_sweep[2]");
	expect_expand(c, "[!z]*", "override_small override_tp64");
	expect_expand(c, "zip_override_tp_sweep", "zip_override_tp_sweep[0] zip_override_tp_sweep[1] "
						  "zip_override_tp_sweep[2]");
	expect_expand(c, "zip_override_tp_sweep[1]", "zip_override_tp_sweep[1]");
	expect_expand(c, "base", "base");
	expect_expand(c, NULL, "override_small override_tp64 zip_override_tp_sweep[0] "
			       "zip_override_tp_sweep[1] zip_override_tp_sweep[2]");
	json_decref(c);

	/* Only base: zero variants, and (none) in every list. */
	json_t *only = tu_json("{\"base\": {\"name\": \"x\"}}");
	expect_expand(only, NULL, "");
	expect_expand(only, "base", "base");
	expect_expand_err(only, "override_a", "Override 'override_a' not found in config. Available: (none)");
	expect_expand_err(only, "zip_override_a", "'zip_override_a' not found in config. Available: (none)");
	expect_expand_err(only, "zip_override_a[0]",
			  "'zip_override_a' not found in config. Available zip groups: (none)");
	expect_expand_err(only, "*", "No variants match '*'. Available: (none)");
	json_decref(only);

	/* File-level errors. */
	json_t *bad = tu_json("{\"base\": {\"name\": \"x\"}, \"override_a\": 5, \"override_b\": {},"
			" \"zip_override_z\": {\"a\": 1}}");
	expect_expand_err(bad, NULL, "override_a must be a mapping");
	expect_expand(bad, "override_b", "override_b");
	expect_expand_err(bad, "zip_override_z",
			  "zip_override section contains no list values \xe2\x80\x94 nothing to zip");
	expect_expand_err(bad, "zip_override_z[0]",
			  "zip_override section contains no list values \xe2\x80\x94 nothing to zip");
	json_decref(bad);
	json_t *nob = tu_json("{\"name\": \"x\"}");
	expect_expand_err(nob, NULL, "not an override config (missing 'base' key)");
	json_decref(nob);
	json_t *bnm = tu_json("{\"base\": [1]}");
	expect_expand_err(bnm, "base", "base must be a mapping");
	json_decref(bnm);
}

static void test_check_file(void **state)
{
	(void)state;
	json_t *root = tu_json("{\"schema\": 3, \"base\": 1, \"override_a\": null, \"zip_override_b\": [1],"
			 " \"extra\": {}, \"override_ok\": {}}");
	struct diag_list dl = DIAG_LIST_INIT;
	override_check_file(root, &dl);
	assert_int_equal(dl.n, 5);
	assert_string_equal(dl.v[0].message, "base must be a mapping");
	assert_string_equal(dl.v[0].path, "base");
	assert_string_equal(dl.v[1].message, "schema must be 2, got 3");
	assert_string_equal(dl.v[2].message, "override_a must be a mapping");
	assert_string_equal(dl.v[2].path, "override_a");
	assert_string_equal(dl.v[3].message, "zip_override_b must be a mapping");
	assert_string_equal(dl.v[4].message, "unknown top-level key 'extra' in an override file");
	assert_string_equal(dl.v[4].code, "override-unknown-key");
	diag_list_release(&dl);
	json_decref(root);
	root = tu_json("{\"base\": {}}");
	override_check_file(root, &dl);
	assert_int_equal(dl.n, 0);
	json_decref(root);
	root = tu_json("{\"override_a\": {}}");
	override_check_file(root, &dl);
	assert_int_equal(dl.n, 1);
	assert_string_equal(dl.v[0].message, "override file has no 'base' key");
	diag_list_release(&dl);
	json_decref(root);
}

static void test_naming(void **state)
{
	(void)state;
	/* No base name: "unnamed"; name in section (even null) turns naming off;
	 * a scalar name in a zip group is replaced by generated names. */
	json_t *root = tu_json("{\"base\": {\"a\": 1}, \"override_x\": {\"a\": 2},"
			 " \"override_y\": {\"name\": null}, \"override_z\": {\"name\": \"own\"},"
			 " \"zip_override_g\": {\"name\": \"same\", \"a\": [1, 2]},"
			 " \"zip_override_h\": {\"name\": [\"one\"], \"a\": [1, 2]}}");
	struct variant_list vl = VARIANT_LIST_INIT;
	char *err = NULL;
	assert_int_equal(override_expand(root, NULL, &vl, &err), 0);
	assert_int_equal(vl.n, 7);
	assert_string_equal(vl.v[0].job_name, "unnamed_x");
	assert_null(vl.v[1].job_name);
	assert_null(json_object_get(vl.v[1].tree, "name"));
	assert_string_equal(vl.v[2].job_name, "own");
	assert_string_equal(vl.v[3].job_name, "unnamed_g_0");
	assert_string_equal(vl.v[4].job_name, "unnamed_g_1");
	assert_string_equal(vl.v[5].job_name, "one");
	assert_string_equal(vl.v[6].job_name, "one");
	assert_string_equal(vl.v[3].label, "override_g_0");
	assert_string_equal(vl.v[3].suffix, "g_0");
	/* Generated names replace base's in place (key order kept). */
	variant_list_release(&vl);
	json_decref(root);
	root = tu_json("{\"base\": {\"a\": 1, \"name\": 7, \"b\": 2}, \"override_q\": {\"b\": 3}}");
	assert_int_equal(override_expand(root, NULL, &vl, &err), 0);
	assert_json(vl.v[0].tree, "{\"a\": 1, \"name\": \"7_q\", \"b\": 3}");
	variant_list_release(&vl);
	json_decref(root);
}

static void test_schema_carry(void **state)
{
	(void)state;
	json_t *root = tu_json("{\"schema\": 2, \"base\": {\"name\": \"n\"}, \"override_a\": {\"x\": 1},"
			 " \"override_b\": {\"schema\": 1}}");
	struct variant_list vl = VARIANT_LIST_INIT;
	char *err = NULL;
	assert_int_equal(override_expand(root, "base", &vl, &err), 0);
	assert_int_equal(override_expand(root, NULL, &vl, &err), 0);
	assert_int_equal(vl.n, 3);
	assert_json(vl.v[0].tree, "{\"name\": \"n\", \"schema\": 2}");
	assert_json(vl.v[1].tree, "{\"name\": \"n_a\", \"x\": 1, \"schema\": 2}");
	assert_json(vl.v[2].tree, "{\"name\": \"n_b\", \"schema\": 1}");
	struct path p = PATH_INIT, fp = PATH_INIT;
	path_push_key(&p, "schema");
	assert_int_equal(variant_origin(&vl.v[1], &p, &fp), ORIGIN_SCHEMA);
	assert_int_equal(variant_origin(&vl.v[2], &p, &fp), ORIGIN_SECTION);
	char *s = path_format(&fp, (size_t)-1);
	assert_string_equal(s, "override_b.schema");
	free(s);
	/* No schema change is reported against base (base gets it too). */
	struct change_list cl = CHANGE_LIST_INIT;
	variant_changes(&vl.v[1], &cl);
	assert_int_equal(cl.n, 2);
	assert_string_equal(cl.v[0].path, "name");
	assert_string_equal(cl.v[1].path, "x");
	change_list_release(&cl);
	path_release(&p);
	path_release(&fp);
	variant_list_release(&vl);
	json_decref(root);
}

/* "label|selector|suffix|job" per variant, then the change lines without name. */
static char *describe(const struct variant_list *vl)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < vl->n; i++) {
		const struct variant *v = &vl->v[i];
		strbuf_addf(&sb, "%s|%s|%s|%s\n", v->label, v->selector, v->suffix,
			    v->job_name ? v->job_name : "-");
		struct change_list cl = CHANGE_LIST_INIT;
		variant_changes(v, &cl);
		for (size_t j = 0; j < cl.n; j++) {
			if (!strcmp(cl.v[j].path, "name"))
				continue;
			strbuf_addstr(&sb, "  ");
			change_format(&sb, &cl.v[j]);
			strbuf_addch(&sb, '\n');
		}
		change_list_release(&cl);
	}
	return strbuf_detach(&sb, NULL);
}

static void check_example_a(json_t *root, const char *prefix, const char *ctx_key, const char *n0,
			    const char *n1)
{
	struct variant_list vl = VARIANT_LIST_INIT;
	char *err = NULL;
	assert_int_equal(override_expand(root, NULL, &vl, &err), 0);
	char *d = describe(&vl);
	char *want = xasprintf(
		"override_tp2|override_tp2|tp2|%s_tp2\n"
		"  roles.agg.workers: 2 -> 1\n"
		"  roles.agg.gpus: 1 -> 2\n"
		"  roles.agg.args.tensor-parallel-size: 1 -> 2\n"
		"override_%s_0|zip_override_%s[0]|%s_0|%s\n"
		"  roles.agg.args.context-length: 4096 -> 2048\n"
		"  benchmark.concurrencies: \"4x8\" -> [\"4\"]\n"
		"override_%s_1|zip_override_%s[1]|%s_1|%s\n"
		"  roles.agg.args.context-length: 4096 -> 8192\n"
		"  benchmark.concurrencies: \"4x8\" -> [\"4\", \"8\"]\n",
		prefix, ctx_key, ctx_key, ctx_key, n0, ctx_key, ctx_key, ctx_key, n1);
	assert_string_equal(d, want);
	free(d);
	free(want);
	for (size_t i = 0; i < vl.n; i++)
		assert_json(json_object_get(vl.v[i].tree, "schema"), "2");
	variant_list_release(&vl);
	assert_int_equal(override_expand(root, "base", &vl, &err), 0);
	assert_int_equal(vl.n, 1);
	assert_string_equal(vl.v[0].job_name, prefix);
	variant_list_release(&vl);
}

static void test_example_a(void **state)
{
	(void)state;
	json_t *f = fixture("agg-variants.yaml");
	check_example_a(f, "tiny-agg", "ctx", "tiny-agg-2k", "tiny-agg-8k");
	json_decref(f);
	json_t *r = reference("features__override.yaml");
	if (r) {
		check_example_a(r, "qwen3-0.6b-override", "context", "qwen3-0.6b-override-ctx2k",
				"qwen3-0.6b-override-ctx8k");
		json_decref(r);
	}
}

static void check_example_c(json_t *root, const char *name, const char *extra_base)
{
	struct variant_list vl = VARIANT_LIST_INIT;
	char *err = NULL;
	assert_int_equal(override_expand(root, NULL, &vl, &err), 0);
	char *d = describe(&vl);
	(void)extra_base;
	char *want = xasprintf(
		"override_small|override_small|small|%s_small\n"
		"  resources.decode_nodes: 8 -> 4\n"
		"  resources.decode_workers: 8 -> 4\n"
		"  benchmark.concurrencies: [8192, 10240] -> [4096]\n"
		"override_tp64|override_tp64|tp64|%s_tp64\n"
		"  backend.sglang_config.prefill.tp-size: 8 -> 64\n"
		"  backend.sglang_config.decode.tp-size: 8 -> 64\n"
		"override_tp_sweep_0|zip_override_tp_sweep[0]|tp_sweep_0|%s-tp16\n"
		"  resources.prefill_nodes: 2 -> 1\n"
		"  resources.prefill_workers: 2 -> 1\n"
		"  resources.decode_nodes: 8 -> 4\n"
		"  resources.decode_workers: 8 -> 4\n"
		"  backend.sglang_config.prefill.tp-size: 8 -> 16\n"
		"  backend.sglang_config.decode.tp-size: 8 -> 16\n"
		"  backend.sglang_config.decode.mem-fraction-static: (unset) -> 0.85\n"
		"  benchmark.concurrencies: [8192, 10240] -> [4096, 8192]\n"
		"override_tp_sweep_1|zip_override_tp_sweep[1]|tp_sweep_1|%s-tp32\n"
		"  backend.sglang_config.prefill.tp-size: 8 -> 32\n"
		"  backend.sglang_config.decode.tp-size: 8 -> 32\n"
		"  backend.sglang_config.decode.mem-fraction-static: (unset) -> 0.85\n"
		"  benchmark.concurrencies: [8192, 10240] -> [4096, 8192, 10240]\n"
		"override_tp_sweep_2|zip_override_tp_sweep[2]|tp_sweep_2|%s-tp64\n"
		"  resources.prefill_nodes: 2 -> 4\n"
		"  resources.prefill_workers: 2 -> 4\n"
		"  resources.decode_nodes: 8 -> 16\n"
		"  resources.decode_workers: 8 -> 16\n"
		"  backend.sglang_config.prefill.tp-size: 8 -> 64\n"
		"  backend.sglang_config.decode.tp-size: 8 -> 64\n"
		"  backend.sglang_config.decode.mem-fraction-static: (unset) -> 0.85\n"
		"  benchmark.concurrencies: [8192, 10240] -> [8192, 10240, 12288]\n",
		name, name, name, name, name);
	assert_string_equal(d, want);
	free(d);
	free(want);
	/* No top-level schema: nothing carried. */
	assert_null(json_object_get(vl.v[0].tree, "schema"));
	variant_list_release(&vl);
	expect_expand(root, "*tp*", "override_tp64 zip_override_tp_sweep[0] zip_override_tp_sweep[1] "
				    "zip_override_tp_sweep[2]");
	expect_expand(root, "zip_override_tp_sweep[0]", "zip_override_tp_sweep[0]");
	expect_expand_err(root, "zip_override_tp_sweep[3]",
			  "Index [3] out of range for 'zip_override_tp_sweep' (has 3 variants, valid: 0\xe2\x80\x93" "2)");
}

static void test_example_c(void **state)
{
	(void)state;
	json_t *f = fixture("disagg-variants.yaml");
	check_example_c(f, "pd-bench", NULL);
	json_decref(f);
	json_t *r = reference("example-override.yaml");
	if (r) {
		check_example_c(r, "disagg-fp8-benchmark", NULL);
		json_decref(r);
	}
}

static char *origin_of(const struct variant *v, const char *path, enum origin *o)
{
	struct path p = PATH_INIT, fp = PATH_INIT;
	char *err = NULL;
	if (path_parse(&p, path, PATH_NAMES, &err))
		fail_msg("%s", err);
	*o = variant_origin(v, &p, &fp);
	char *s = path_format(&fp, (size_t)-1);
	path_release(&p);
	path_release(&fp);
	return s;
}

#define EXPECT_ORIGIN(v, path, want_o, want_fp)                   \
	do {                                                      \
		enum origin o_;                                   \
		char *fp_ = origin_of((v), (path), &o_);          \
		assert_string_equal(origin_name(o_), origin_name(want_o)); \
		assert_string_equal(fp_, (want_fp));              \
		free(fp_);                                        \
	} while (0)

static void test_origin(void **state)
{
	(void)state;
	json_t *f = fixture("agg-variants.yaml");
	struct variant_list vl = VARIANT_LIST_INIT;
	char *err = NULL;
	assert_int_equal(override_expand(f, NULL, &vl, &err), 0);
	const struct variant *tp2 = &vl.v[0], *z1 = &vl.v[2];
	EXPECT_ORIGIN(tp2, "roles.agg.workers", ORIGIN_SECTION, "override_tp2.roles.agg.workers");
	EXPECT_ORIGIN(tp2, "roles.agg.nodes", ORIGIN_BASE, "base.roles.agg.nodes");
	EXPECT_ORIGIN(tp2, "roles.agg", ORIGIN_BASE, "base.roles.agg");
	EXPECT_ORIGIN(tp2, "roles.agg.args.context-length", ORIGIN_BASE, "base.roles.agg.args.context-length");
	EXPECT_ORIGIN(tp2, "resources.gpu_type", ORIGIN_BASE, "base.resources.gpu_type");
	EXPECT_ORIGIN(tp2, "name", ORIGIN_NAME, "base.name");
	EXPECT_ORIGIN(tp2, "schema", ORIGIN_SCHEMA, "schema");
	EXPECT_ORIGIN(tp2, "roles.agg.missing", ORIGIN_NONE, "base.roles.agg.missing");
	EXPECT_ORIGIN(z1, "roles.agg.args.context-length", ORIGIN_SECTION,
		      "zip_override_ctx.roles.agg.args.context-length[1]");
	EXPECT_ORIGIN(z1, "roles.agg.args.mem-fraction-static", ORIGIN_SECTION,
		      "zip_override_ctx.roles.agg.args.mem-fraction-static[0]");
	EXPECT_ORIGIN(z1, "benchmark.concurrencies[1]", ORIGIN_SECTION,
		      "zip_override_ctx.benchmark.concurrencies[1][1]");
	EXPECT_ORIGIN(z1, "name", ORIGIN_SECTION, "zip_override_ctx.name[1]");
	EXPECT_ORIGIN(z1, "benchmark.isl", ORIGIN_BASE, "base.benchmark.isl");
	variant_list_release(&vl);
	json_decref(f);

	/* Keys only the section has; a section mapping over a base scalar. */
	json_t *root = tu_json("{\"base\": {\"a\": 1, \"m\": {\"k\": 1}}, \"override_x\": {\"a\": {\"b\": 2},"
			 " \"m\": {\"j\": 2}, \"n\": {\"o\": {\"p\": 1}}},"
			 " \"zip_override_s\": {\"svc\": [{\"port\": 1}, {\"port\": 2}]}}");
	assert_int_equal(override_expand(root, NULL, &vl, &err), 0);
	EXPECT_ORIGIN(&vl.v[0], "a.b", ORIGIN_SECTION, "override_x.a.b");
	EXPECT_ORIGIN(&vl.v[0], "a.c", ORIGIN_NONE, "override_x.a.c");
	EXPECT_ORIGIN(&vl.v[0], "n.o.q", ORIGIN_NONE, "override_x.n.o.q");
	EXPECT_ORIGIN(&vl.v[0], "n", ORIGIN_SECTION, "override_x.n");
	EXPECT_ORIGIN(&vl.v[0], "m.k", ORIGIN_BASE, "base.m.k");
	EXPECT_ORIGIN(&vl.v[0], "m.j", ORIGIN_SECTION, "override_x.m.j");
	EXPECT_ORIGIN(&vl.v[0], "z", ORIGIN_NONE, "base.z");
	EXPECT_ORIGIN(&vl.v[2], "svc.port", ORIGIN_SECTION, "zip_override_s.svc[1].port");
	variant_list_release(&vl);
	json_decref(root);

	/* A plain recipe: the path itself. */
	root = tu_json("{\"a\": {\"b\": 1}}");
	variant_list_add_plain(&vl, root);
	EXPECT_ORIGIN(&vl.v[0], "a.b", ORIGIN_BASE, "a.b");
	EXPECT_ORIGIN(&vl.v[0], "a.c", ORIGIN_NONE, "a.c");
	variant_list_release(&vl);
	json_decref(root);
}

static void test_diff(void **state)
{
	(void)state;
	json_t *a = tu_json("{\"k\": 1, \"gone\": {\"x\": 1, \"y\": {}}, \"m\": {\"s\": \"\xc3\xa9\"}, \"l\": [1]}");
	json_t *b = tu_json("{\"k\": 1.5, \"m\": {\"s\": \"\xc3\xa9\", \"t\": null}, \"l\": [1], \"new\": {\"q\": [true]}}");
	struct change_list cl = CHANGE_LIST_INIT;
	tree_diff(a, b, &cl);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < cl.n; i++) {
		change_format(&sb, &cl.v[i]);
		strbuf_addch(&sb, '\n');
	}
	assert_string_equal(sb_str(&sb), "k: 1 -> 1.5\n"
					  "gone.x: 1 -> (unset)\n"
					  "gone.y: {} -> (unset)\n"
					  "m.t: (unset) -> null\n"
					  "new.q: (unset) -> [true]\n");
	strbuf_release(&sb);
	change_list_release(&cl);
	json_decref(a);
	json_decref(b);
}

static void test_form(void **state)
{
	(void)state;
	json_t *o = tu_json("{\"base\": {}, \"sweep\": {}}"), *s = tu_json("{\"sweep\": {}}"), *p = tu_json("{\"name\": 1}");
	json_t *l = tu_json("[1]");
	assert_int_equal(recipe_form(o), RECIPE_OVERRIDE);
	assert_int_equal(recipe_form(s), RECIPE_SWEEP);
	assert_int_equal(recipe_form(p), RECIPE_PLAIN);
	assert_int_equal(recipe_form(l), RECIPE_PLAIN);
	assert_int_equal(recipe_form(NULL), RECIPE_PLAIN);
	json_decref(o);
	json_decref(s);
	json_decref(p);
	json_decref(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_form),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_zip_length),
		cmocka_unit_test(test_zip_slice),
		cmocka_unit_test(test_parse_arg),
		cmocka_unit_test(test_selector_errors),
		cmocka_unit_test(test_check_file),
		cmocka_unit_test(test_naming),
		cmocka_unit_test(test_schema_carry),
		cmocka_unit_test(test_example_a),
		cmocka_unit_test(test_example_c),
		cmocka_unit_test(test_origin),
		cmocka_unit_test(test_diff),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
