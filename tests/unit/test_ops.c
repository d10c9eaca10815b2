/* Every compound recipe operation is one transaction: after it, one undo
 * returns the document byte-identical to before and one redo byte-identical
 * to after; a refused operation leaves no trace (no text change, no undo
 * entry).  Also checks what each operation does to the recipe. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "model/doc.h"
#include "model/ops.h"
#include "model/ops_services.h"
#include "tests/unit/testutil.h"

static const char *AGG = "# a recipe\n"
			 "schema: 2\n"
			 "name: t\n"
			 "engine: vllm\n"
			 "frontend:\n"
			 "  type: vllm   # direct\n"
			 "roles:\n"
			 "  agg:\n"
			 "    workers: 2  # two\n"
			 "    gpus: 1\n"
			 "services:\n"
			 "  - name: lmcache-server\n"
			 "    type: lmcache-server\n"
			 "    placement:\n"
			 "      node: agg\n";

static struct doc *load(const char *text)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load("t.yaml", text, strlen(text), &dl);
	diag_list_release(&dl);
	assert_non_null(d);
	return d;
}

static char *text_of(struct doc *d)
{
	size_t len;
	const char *t = doc_text(d, &len);
	char *s = xmalloc(len + 1);
	memcpy(s, t, len);
	s[len] = 0;
	return s;
}

/* The op changed the text; one undo restores `before`, one redo the result. */
static void assert_one_step(struct doc *d, const char *before)
{
	char *after = text_of(d);
	assert_string_not_equal(after, before);
	assert_false(doc_in_transaction(d));
	assert_int_equal(doc_undo(d), 0);
	char *undone = text_of(d);
	tu_assert_same_text(before, undone, "after one undo");
	assert_int_equal(doc_redo(d), 0);
	char *redone = text_of(d);
	tu_assert_same_text(after, redone, "after one redo");
	free(after);
	free(undone);
	free(redone);
}

static void test_layout_round_trip(void **state)
{
	(void)state;
	struct doc *d = load(AGG);
	char *err = NULL;
	assert_int_equal(ops_set_layout(d, 1, &err), 0);
	/* agg became prefill + decode, the direct frontend its router, the
	 * server placed on agg moved to workers: four edits, one step */
	assert_string_equal(ops_get_str(d, "frontend.type"), "vllm-router");
	assert_string_equal(ops_get_str(d, "services[0].placement.node"), "workers");
	json_t *dec = ops_get(d, "roles.decode");
	assert_non_null(dec);
	json_decref(dec);
	assert_null(ops_get(d, "roles.agg"));
	assert_one_step(d, AGG);
	assert_false(doc_can_redo(d));

	/* and back: one step again */
	char *pd = text_of(d);
	assert_int_equal(ops_set_layout(d, 0, &err), 0);
	json_t *agg = ops_get(d, "roles.agg");
	assert_non_null(agg);
	json_decref(agg);
	assert_null(ops_get(d, "roles.decode"));
	assert_one_step(d, pd);
	free(pd);

	/* nothing to do: no entry */
	assert_int_equal(doc_undo(d), 0);
	assert_int_equal(doc_undo(d), 0);
	assert_false(doc_can_undo(d));
	assert_int_equal(ops_set_layout(d, 0, &err), 0);
	assert_false(doc_can_undo(d));
	doc_free(d);
}

static void test_engine_change(void **state)
{
	(void)state;
	const char *in = "engine:\n  type: vllm\n  connector: nixl\nfrontend:\n  type: dynamo\n"
			 "roles:\n  agg:\n    workers: 1\n";
	struct doc *d = load(in);
	char *err = NULL;
	const char *fe = NULL;
	assert_int_equal(ops_set_engine(d, "atom", &fe, &err), 0);
	assert_string_equal(fe, "atomesh");
	assert_string_equal(ops_get_str(d, "engine.type"), "atom");
	assert_null(ops_get(d, "engine.connector"));
	assert_string_equal(ops_get_str(d, "frontend.type"), "atomesh");
	assert_one_step(d, in);

	/* leaving ATOM leaves atomesh for dynamo, still one step */
	char *atom = text_of(d);
	assert_int_equal(ops_set_engine(d, "sglang", &fe, &err), 0);
	assert_string_equal(ops_get_str(d, "frontend.type"), "dynamo");
	assert_one_step(d, atom);
	free(atom);
	doc_free(d);
}

static void test_connectors(void **state)
{
	(void)state;
	const char *in = "engine: vllm\nroles:\n  agg:\n    workers: 1\n    args:\n      enable_lmcache: true\n";
	struct doc *d = load(in);
	char *err = NULL;
	/* engine: vllm becomes a mapping, then gets the connector: one step */
	assert_int_equal(ops_set_engine_connector(d, "lmcache-mp", &err), 0);
	assert_string_equal(ops_get_str(d, "engine.type"), "vllm");
	assert_string_equal(ops_get_str(d, "engine.connector"), "lmcache-mp");
	assert_one_step(d, in);

	char *t = text_of(d);
	assert_int_equal(ops_set_role_connector(d, "agg", "nixl", &err), 0);
	assert_string_equal(ops_get_str(d, "roles.agg.args.connector"), "nixl");
	assert_one_step(d, t);
	free(t);

	/* SGLang off removes both spellings in one step */
	t = text_of(d);
	assert_int_equal(ops_set_sglang_lmcache(d, "agg", 1, &err), 0);
	assert_one_step(d, t);
	char *on = text_of(d);
	assert_int_equal(ops_set_sglang_lmcache(d, "agg", 0, &err), 0);
	assert_null(ops_get(d, "roles.agg.args.enable-lmcache"));
	assert_null(ops_get(d, "roles.agg.args.enable_lmcache"));
	assert_one_step(d, on);
	free(on);
	free(t);
	doc_free(d);
}

static void test_atom_kv(void **state)
{
	(void)state;
	const char *in = "engine: atom\nroles:\n  prefill:\n    workers: 1\n  decode:\n    workers: 1\n";
	struct doc *d = load(in);
	char *err = NULL;
	json_t *e = tu_json("{\"name\": \"lmcache_mp\", \"kv_role\": \"kv_both\"}");
	assert_int_equal(ops_atom_kv_add(d, "decode", e, &err), 0);
	assert_one_step(d, in);
	char *one = text_of(d);
	assert_int_equal(ops_atom_kv_add(d, "decode", e, &err), 0);
	assert_one_step(d, one);
	char *two = text_of(d);
	json_t *port = json_integer(8750);
	assert_int_equal(ops_atom_kv_set(d, "decode", 1, "kv_connector_extra_config.lmcache.mp.port",
					 port, &err), 0);
	json_t *list = ops_get(d, "roles.decode.args.extra-kv-connectors");
	json_t *xc = json_object_get(json_array_get(list, 1), "kv_connector_extra_config");
	assert_int_equal(json_integer_value(json_object_get(xc, "lmcache.mp.port")), 8750);
	json_decref(list);
	assert_one_step(d, two);
	json_decref(port);
	/* deleting down to none drops the key */
	assert_int_equal(ops_atom_kv_delete(d, "decode", 1, &err), 0);
	assert_int_equal(ops_atom_kv_delete(d, "decode", 0, &err), 0);
	assert_null(ops_get(d, "roles.decode.args.extra-kv-connectors"));
	assert_int_equal(doc_undo(d), 0);
	assert_int_equal(doc_undo(d), 0);
	assert_int_equal(doc_undo(d), 0);
	char *back = text_of(d);
	tu_assert_same_text(two, back, "three undos");
	free(back);
	free(one);
	free(two);
	json_decref(e);
	doc_free(d);
}

static void test_sweep(void **state)
{
	(void)state;
	const char *in = "roles:\n  agg:\n    args:\n      max-num-seqs: 8\n";
	struct doc *d = load(in);
	char *err = NULL;
	json_t *v = tu_json("[8, 16]");
	assert_int_equal(ops_add_sweep(d, "roles.agg.args.max-num-seqs", "seqs", v, &err), 0);
	assert_string_equal(ops_get_str(d, "roles.agg.args.max-num-seqs"), "{seqs}");
	assert_one_step(d, in);
	json_decref(v);
	doc_free(d);
}

/* A refusal in the middle of an operation leaves no trace. */
static void test_refusal_aborts(void **state)
{
	(void)state;
	/* roles.agg.args is a list: the role connector cannot go in it; and a
	 * layout switch whose second edit is refused (decode exists as a
	 * scalar under an alias) */
	const char *in = "engine: atom\nroles:\n  decode:\n    args:\n      extra-kv-connectors: 3\n";
	struct doc *d = load(in);
	char *err = NULL;
	json_t *e = tu_json("{\"name\": \"x\"}");
	assert_int_equal(ops_atom_kv_add(d, "decode", e, &err), -1);
	assert_non_null(err);
	free(err);
	err = NULL;
	char *t = text_of(d);
	tu_assert_same_text(in, t, "after a refused op");
	free(t);
	assert_false(doc_can_undo(d));
	assert_false(doc_in_transaction(d));
	json_decref(e);
	doc_free(d);

	/* the engine change refused half way (engine.type under an alias is
	 * refused by the document) rolls back the knob it already removed */
	const char *in2 = "base: &b\n  type: vllm\nengine:\n  <<: *b\n  connector: nixl\n"
			  "  type: *t\nt: &t vllm\n";
	struct diag_list dl = DIAG_LIST_INIT;
	d = doc_load("t.yaml", in2, strlen(in2), &dl);
	diag_list_release(&dl);
	if (d) {
		const char *fe;
		if (ops_set_engine(d, "sglang", &fe, &err) < 0) {
			t = text_of(d);
			tu_assert_same_text(in2, t, "after a refused engine change");
			free(t);
			assert_false(doc_can_undo(d));
		}
		free(err);
		doc_free(d);
	}
}

/* Adding a placed service creates the services list, the entry and its
 * placement mapping: one step, and the entry is named for its kind.
 * Removing the last service and adding one to a list are one step too. */
static void test_services(void **state)
{
	static const char *NONE = "schema: 2\nname: t\nroles:\n  agg:\n    workers: 1\n    gpus: 1\n";
	struct doc *d = load(NONE);
	char *err = NULL;
	(void)state;
	assert_int_equal(svc_add_placed(d, "lmcache-server", "agg", &err), 0);
	assert_one_step(d, NONE);
	assert_string_equal(ops_get_str(d, "services[0].name"), "lmcache");
	assert_string_equal(ops_get_str(d, "services[0].placement.node"), "agg");
	char *one = text_of(d);
	/* a second one gets a name of its own, on another role */
	assert_int_equal(svc_add_placed(d, "lmcache-server", "workers", &err), 0);
	assert_one_step(d, one);
	assert_string_equal(ops_get_str(d, "services[1].placement.node"), "workers");
	assert_string_not_equal(ops_get_str(d, "services[1].name"), "lmcache");
	char *two = text_of(d);
	assert_int_equal(svc_remove(d, 1, &err), 0);
	assert_one_step(d, two);
	char *left = text_of(d);
	tu_assert_same_text(one, left, "after removing the second");
	free(left);
	assert_int_equal(svc_remove(d, 0, &err), 0);
	assert_one_step(d, one);
	free(one);
	free(two);
	doc_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_round_trip),
		cmocka_unit_test(test_engine_change),
		cmocka_unit_test(test_connectors),
		cmocka_unit_test(test_atom_kv),
		cmocka_unit_test(test_sweep),
		cmocka_unit_test(test_refusal_aborts),
		cmocka_unit_test(test_services),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
