/*
 * Inputs that once crashed, hung, leaked or broke an invariant under the
 * fuzzers (fuzz/regress/), replayed on every `make check`, in the release,
 * ASan/UBSan and valgrind runs.
 *
 * Each input goes through the five harnesses themselves (included below
 * under other names, so the replay is the fuzzers' own code with their
 * invariants), and then through explicit checks: a refused input carries an
 * error diagnostic with a message and a position; a loaded one keeps its
 * bytes, validates with messages on every diagnostic, renders, and takes a
 * few edits that either apply (and undo to the same bytes) or are refused
 * with a message and leave the text alone.  Some inputs also have an
 * expected outcome (the table below).  Deep nesting is generated here rather
 * than stored: the bound is 1000 levels, checked on both sides.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/diag.h"
#include "model/doc.h"
#include "model/path.h"
#include "model/recipe.h"
#include "lib/util.h"
#include "model/validate.h"
#include "render/plan.h"
#include "render/service.h"
#include "tests/unit/testutil.h"

/* The harnesses, each under its own name. */
#define LLVMFuzzerTestOneInput harness_doc_load
#include "fuzz/fuzz_doc_load.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput harness_doc_edit
#include "fuzz/fuzz_doc_edit.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput harness_validate
#include "fuzz/fuzz_validate.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput harness_render
#include "fuzz/fuzz_render.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput harness_doc_fast
#include "fuzz/fuzz_doc_fast.c"
#undef LLVMFuzzerTestOneInput

/* What some inputs must give: refused at load with this text in the first
 * error, or (refused == 0) loaded. */
static const struct expect {
	const char *file;
	int refused;
	const char *error;
} expects[] = {
	{ "alias_cycle_flow.yaml", 1, "refers to its own enclosing node" },
	{ "alias_cycle_in_bomb.yaml", 1, "alias '*c' refers to its own enclosing node" },
	{ "merge_key_inside_its_anchor.yaml", 1, "alias '*defs' refers to its own enclosing node" },
	{ "validate_leak.yaml", 0, NULL },
	{ "move_empty_path.bin", 0, NULL },
	{ "complex_key_first.yaml", 0, NULL },
	{ "complex_key_mapping_edit.bin", 0, NULL },
};

static const struct expect *expect_of(const char *name)
{
	for (size_t i = 0; i < sizeof(expects) / sizeof(expects[0]); i++)
		if (!strcmp(expects[i].file, name))
			return &expects[i];
	return NULL;
}

static void check_error_diags(const struct diag_list *l)
{
	assert_true(diag_count(l, DIAG_ERROR) > 0);
	for (size_t i = 0; i < l->n; i++) {
		assert_non_null(l->v[i].message);
		assert_true(l->v[i].message[0] != 0);
		if (l->v[i].severity == DIAG_ERROR)
			assert_true(l->v[i].line > 0 && l->v[i].col > 0);
	}
}

/* The text of d is byte for byte was/was_len. */
static void assert_text(const struct doc *d, const char *was, size_t was_len)
{
	size_t len;
	const char *t = doc_text(d, &len);
	assert_int_equal(len, was_len);
	assert_memory_equal(t, was, len);
}

/* An edit either applied (then undo gives the bytes back) or was refused
 * with a message and changed nothing. */
static void after_edit(struct doc *d, int rc, char *err, char *warn, const char *was, size_t was_len)
{
	if (rc < 0) {
		assert_non_null(err);
		assert_true(*err != 0);
		if (getenv("REGRESS_VERBOSE"))
			printf("  refused: %s\n", err);
		/* the refusal meant for srt-tui's own mistakes */
		if (strstr(err, "this is a bug"))
			fail_msg("an edit was refused as a bug: %s", err);
		assert_text(d, was, was_len);
	} else {
		assert_null(err);
		json_t *j = doc_json(d);
		json_decref(j);
		if (doc_can_undo(d) && doc_dirty(d)) {
			assert_int_equal(doc_undo(d), 0);
			assert_text(d, was, was_len);
		}
	}
	free(err);
	free(warn);
}

static void edits(struct doc *d)
{
	size_t len;
	const char *t = doc_text(d, &len);
	char *was = xstrndup(t, len);
	struct path p = PATH_INIT;
	char *err = NULL, *warn = NULL;
	json_t *one = json_integer(1), *list = json_pack("[s, {s: i}]", "x", "k", 2);

	/* move on the empty path: always a message (once it had none) */
	assert_int_equal(doc_move_item(d, &p, 0, &err), -1);
	assert_non_null(err);
	assert_string_equal(err, "the path is empty; name the list item to move");
	free(err);
	err = NULL;

	path_push_key(&p, "regress_probe");
	int rc = doc_set(d, &p, one, &err, &warn);
	after_edit(d, rc, err, warn, was, len);
	rc = doc_set_block(d, &p, list, &err, &warn);
	after_edit(d, rc, err, warn, was, len);
	rc = doc_insert(d, &p, 0, one, &err, &warn);
	after_edit(d, rc, err, warn, was, len);

	const struct doc_node *root = doc_root(d);
	size_t n = root ? doc_node_count(root) : 0;
	for (size_t i = 0; i < n && i < 8; i++) {
		root = doc_root(d);
		const struct doc_node *k = doc_node_key(root, i);
		if (!k || doc_node_kind(k) != DOC_SCALAR)
			continue;
		path_clear(&p);
		path_push_key(&p, doc_node_text(k));
		rc = doc_delete(d, &p, &err, &warn);
		after_edit(d, rc, err, warn, was, len);
		rc = doc_rename_key(d, &p, "regress_renamed", &err);
		after_edit(d, rc, err, NULL, was, len);
		path_push_index(&p, 0);
		rc = doc_move_item(d, &p, 1, &err);
		after_edit(d, rc, err, NULL, was, len);
	}
	json_decref(one);
	json_decref(list);
	path_release(&p);
	free(was);
}

static void replay(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	size_t len;
	char *buf = tu_slurp_len(path, &len);
	assert_non_null(buf);
	const uint8_t *u = (const uint8_t *)buf;

	harness_doc_load(u, len);
	harness_doc_edit(u, len);
	harness_validate(u, len);
	harness_render(u, len);
	harness_doc_fast(u, len);

	/* inputs for the edit harness carry operations after a 0xFF byte */
	const char *sep = memchr(buf, 0xff, len);
	size_t ylen = sep ? (size_t)(sep - buf) : len;
	struct diag_list diags = DIAG_LIST_INIT;
	struct doc *d = doc_load(name, buf, ylen, &diags);
	const struct expect *x = expect_of(name);
	if (x)
		assert_int_equal(d == NULL, x->refused);
	if (!d) {
		check_error_diags(&diags);
		if (x && x->error) {
			const struct diag *e = NULL;
			for (size_t i = 0; i < diags.n && !e; i++)
				if (diags.v[i].severity == DIAG_ERROR)
					e = &diags.v[i];
			if (!strstr(e->message, x->error))
				fail_msg("%s: error '%s' lacks '%s'", name, e->message, x->error);
		}
	} else {
		assert_text(d, buf, ylen);
		struct diag_list v = DIAG_LIST_INIT;
		validate_doc(d, &v);
		for (size_t i = 0; i < v.n; i++)
			assert_true(v.v[i].message && *v.v[i].message);
		diag_list_release(&v);
		fuzz_render_preview(d, "regress.yaml");
		edits(d);
		doc_free(d);
	}
	diag_list_release(&diags);
	free(buf);
	free(path);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_regress_dir(void **state)
{
	(void)state;
	const char *src = getenv("SRCDIR");
	char *dir = xasprintf("%s/fuzz/regress", src && *src ? src : ".");
	DIR *dp = opendir(dir);
	if (!dp)
		fail_msg("cannot open '%s'; run from the source folder or set SRCDIR", dir);
	struct strvec names = STRVEC_INIT;
	struct dirent *de;
	while ((de = readdir(dp)))
		if (de->d_name[0] != '.')
			strvec_push(&names, de->d_name);
	closedir(dp);
	qsort(names.v, names.n, sizeof(*names.v), by_name);
	for (size_t i = 0; i < names.n; i++)
		replay(dir, names.v[i]);
	/* every expectation names a file that is there */
	for (size_t i = 0; i < sizeof(expects) / sizeof(expects[0]); i++) {
		int found = 0;
		for (size_t j = 0; j < names.n; j++)
			found |= !strcmp(names.v[j], expects[i].file);
		if (!found)
			fail_msg("fuzz/regress/%s is missing", expects[i].file);
	}
	printf("replayed %zu inputs\n", names.n);
	strvec_release(&names);
	free(dir);
}

/* ---------- depth: the bound, on both sides ---------- */

static char *nested_flow(int levels)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "a: ");
	for (int i = 0; i < levels; i++)
		strbuf_addch(&sb, '[');
	for (int i = 0; i < levels; i++)
		strbuf_addch(&sb, ']');
	strbuf_addch(&sb, '\n');
	return strbuf_detach(&sb, NULL);
}

static const struct diag *first_error(const struct diag_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].severity == DIAG_ERROR)
			return &l->v[i];
	return NULL;
}

static void test_depth_bound(void **state)
{
	(void)state;
	struct diag_list l = DIAG_LIST_INIT;
	/* 999 lists under the top mapping: 1000 levels, the most allowed */
	char *ok = nested_flow(999);
	struct doc *d = doc_load("ok.yaml", ok, strlen(ok), &l);
	assert_non_null(d);
	json_t *j = doc_json(d);
	assert_non_null(j);
	json_decref(j);
	struct strbuf out = STRBUF_INIT;
	struct path p = PATH_INIT;
	char *err = NULL, *warn = NULL;
	path_push_key(&p, "a");
	assert_int_equal(doc_get(d, &p, 1, &out, &err), 0);
	/* an edit whose result would be one level deeper is refused, with why */
	path_clear(&p);
	path_push_key(&p, "a");
	for (int i = 0; i < 998; i++)
		path_push_index(&p, 0);
	json_t *v = json_pack("[i]", 1);
	assert_int_equal(doc_insert(d, &p, 0, v, &err, &warn), -1);
	assert_non_null(strstr(err, "nests more than 1000 levels deep"));
	free(err);
	err = NULL;
	json_decref(v);
	/* a value deeper than the bound is refused before any work */
	json_t *deep = json_integer(0);
	for (int i = 0; i < 1200; i++)
		deep = json_pack("[o]", deep);
	path_clear(&p);
	path_push_key(&p, "b");
	assert_int_equal(doc_set(d, &p, deep, &err, &warn), -1);
	assert_string_equal(err, "the path and value nest more than 1000 levels deep; a recipe needs a few");
	free(err);
	err = NULL;
	json_decref(deep);
	doc_free(d);
	free(ok);
	diag_list_release(&l);

	/* one more level, and 10,000, are refused at the first list too deep */
	int sizes[] = { 1000, 10000 };
	for (size_t s = 0; s < 2; s++) {
		char *bad = nested_flow(sizes[s]);
		assert_null(doc_load("deep.yaml", bad, strlen(bad), &l));
		const struct diag *e = first_error(&l);
		assert_non_null(e);
		assert_string_equal(e->code, "yaml-too-deep");
		assert_string_equal(e->message, "'deep.yaml' nests more than 1000 levels deep");
		assert_int_equal(e->line, 1);
		assert_int_equal(e->col, 1003);
		diag_list_release(&l);
		free(bad);
	}

	/* block lists nest on one line: "- - - x" */
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "a:\n  ");
	for (int i = 0; i < 10000; i++)
		strbuf_addstr(&sb, "- ");
	strbuf_addstr(&sb, "x\n");
	assert_null(doc_load("deep.yaml", sb.buf, sb.len, &l));
	assert_string_equal(first_error(&l)->code, "yaml-too-deep");
	diag_list_release(&l);
	strbuf_release(&sb);

	/* aliases bring their depth: 5 x 200 levels stacked through aliases */
	for (int n = 0; n < 6; n++) {
		strbuf_addf(&sb, "l%d: &l%d ", n, n);
		for (int i = 0; i < 199; i++)
			strbuf_addch(&sb, '[');
		if (n)
			strbuf_addf(&sb, "[*l%d]", n - 1);
		else
			strbuf_addstr(&sb, "[x]");
		for (int i = 0; i < 199; i++)
			strbuf_addch(&sb, ']');
		strbuf_addch(&sb, '\n');
	}
	assert_null(doc_load("alias.yaml", sb.buf, sb.len, &l));
	const struct diag *e = first_error(&l);
	assert_string_equal(e->message, "alias '*l3' nests the data more than 1000 levels deep");
	assert_int_equal(e->line, 5);
	diag_list_release(&l);
	strbuf_release(&sb);
	strbuf_release(&out);
	path_release(&p);
}

static void test_recursive_alias(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		int line, col;
		const char *message;
	} cases[] = {
		{ "a: &a [1, *a]\n", 1, 11, "alias '*a' refers to its own enclosing node" },
		{ "defs: &defs\n  x: 1\n  <<: *defs\n", 3, 7, "alias '*defs' refers to its own enclosing node" },
		{ "a: &a\n  b:\n    - c: *a\n", 3, 10, "alias '*a' refers to its own enclosing node" },
		{ "? &k [*k]\n: 1\n", 1, 7, "alias '*k' refers to its own enclosing node" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct diag_list l = DIAG_LIST_INIT;
		assert_null(doc_load("r.yaml", cases[i].text, strlen(cases[i].text), &l));
		const struct diag *e = first_error(&l);
		assert_non_null(e);
		assert_string_equal(e->code, "yaml-recursive-alias");
		assert_string_equal(e->message, cases[i].message);
		assert_int_equal(e->line, cases[i].line);
		assert_int_equal(e->col, cases[i].col);
		assert_non_null(e->hint);
		diag_list_release(&l);
	}
	/* an alias after its anchor closed is fine, also a merge of a sibling */
	const char *good = "defs: &defs {x: 1}\nuse:\n  <<: *defs\n  y: [*defs]\n";
	struct diag_list l = DIAG_LIST_INIT;
	struct doc *d = doc_load("g.yaml", good, strlen(good), &l);
	assert_non_null(d);
	json_t *j = doc_json(d);
	char *s = json_dumps(j, JSON_COMPACT);
	assert_string_equal(s, "{\"defs\":{\"x\":1},\"use\":{\"x\":1,\"y\":[{\"x\":1}]}}");
	free(s);
	json_decref(j);
	doc_free(d);
	diag_list_release(&l);
}

static void test_suggest(void **state)
{
	(void)state;
	const char *text = "roles:\n  agg:\n    workers: 2\nservices:\n  - name: lmcache\n";
	struct doc *d = doc_load("s.yaml", text, strlen(text), NULL);
	assert_non_null(d);
	static const struct {
		const char *path, *want;
	} cases[] = {
		{ "roles.agg.worker", "roles.agg.workers" },
		{ "roles.ag.workers", "roles.agg.workers" },
		{ "services[lmcach]", "services[lmcache]" },
		{ "roles.agg.zzzzzzzz", NULL },
		{ "roles.agg.workers", NULL },  /* exists */
		{ "roles.agg.workers.x", NULL }, /* under a scalar */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct path p = PATH_INIT;
		char *err = NULL;
		assert_int_equal(path_parse(&p, cases[i].path, PATH_NAMES, &err), 0);
		char *s = doc_suggest_path(d, &p);
		if (cases[i].want)
			assert_string_equal(s, cases[i].want);
		else
			assert_null(s);
		free(s);
		path_release(&p);
	}
	doc_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regress_dir),
		cmocka_unit_test(test_depth_bound),
		cmocka_unit_test(test_recursive_alias),
		cmocka_unit_test(test_suggest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
