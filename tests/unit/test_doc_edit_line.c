/*
 * A scalar value replaced on its line is checked on that line and the index
 * patched (model/doc_edit_line.c) instead of the whole text being read
 * again.  These tests hold the patched index to the one a fresh read of the
 * new text builds, node by node (spans, lines, columns, dashes, texts) and
 * lint by lint, over hand-written cases and over every value of every
 * example and reference recipe; they also check which edits take the line
 * check (the tree's nodes survive the edit) and which fall back to the
 * whole-text one (a value that changes style, a multi-line value, an alias),
 * and that doc_value_edit names the changed value only after a line check.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "model/doc_internal.h"
#include "tests/unit/testutil.h"

static void same_index(const char *what, const struct doc_index *a, const struct doc_index *b)
{
	if (a->nall != b->nall)
		fail_msg("%s: %zu nodes after the edit, a fresh read has %zu", what, a->nall, b->nall);
	for (size_t i = 0; i < a->nall; i++) {
		const struct doc_node *x = a->all[i], *y = b->all[i];
		if (x->kind != y->kind || x->style != y->style || x->start != y->start || x->vstart != y->vstart ||
		    x->end != y->end || x->raw_end != y->raw_end || x->line != y->line || x->col != y->col ||
		    x->dash != y->dash || (x->dash != DOC_NONE && (x->dash_line != y->dash_line ||
								   x->dash_col != y->dash_col)) ||
		    x->len != y->len || (x->len && memcmp(x->text, y->text, x->len)) || x->nkids != y->nkids)
			fail_msg("%s: node %zu ('%s') differs from a fresh read: start %zu/%zu vstart %zu/%zu "
				 "end %zu/%zu line %d/%d col %d/%d dash %zu/%zu", what, i, x->text ? x->text : "",
				 x->start, y->start, x->vstart, y->vstart, x->end, y->end, x->line, y->line, x->col,
				 y->col, x->dash, y->dash);
	}
	assert_int_equal(a->lint.n, b->lint.n);
	for (size_t i = 0; i < a->lint.n; i++) {
		assert_int_equal(a->lint.v[i].line, b->lint.v[i].line);
		assert_int_equal(a->lint.v[i].col, b->lint.v[i].col);
		assert_string_equal(a->lint.v[i].message, b->lint.v[i].message);
	}
}

/* The document's index against a fresh read of its text, and its typed
 * value (patched from the one before when a value edit allows it) against
 * one built from the whole tree: the same keys in the same order. */
static void check_fresh(const char *what, struct doc *d)
{
	size_t len;
	const char *s = doc_text(d, &len);
	struct doc_index ix;
	assert_int_equal(doc_index_build(&ix, what, s, len, NULL, 1), 0);
	same_index(what, doc_current_index(d), &ix);
	doc_index_release(&ix);
	json_t *got = doc_json(d), *want = doc_node_json(d, doc_root(d));
	char *g = json_dumps(got, JSON_COMPACT | JSON_ENCODE_ANY);
	char *w = json_dumps(want, JSON_COMPACT | JSON_ENCODE_ANY);
	if (strcmp(g, w))
		fail_msg("%s: the typed value after the edit is %s, a build from the tree gives %s", what, g, w);
	free(g);
	free(w);
	json_decref(got);
	json_decref(want);
}

/* Set path to the JSON value; returns 1 when the line check took it. */
static int set(struct doc *d, const char *path, const char *json)
{
	struct path p = PATH_INIT;
	char *err = NULL, *warn = NULL;
	assert_int_equal(path_parse(&p, path, 0, &err), 0);
	json_t *v = tu_json(json);
	const struct doc_node *root = doc_root(d);
	json_decref(doc_json(d)); /* a typed value the edit can patch */
	if (doc_set(d, &p, v, &err, &warn))
		fail_msg("set %s=%s: %s", path, json, err);
	int line = doc_root(d) == root;
	json_decref(v);
	path_release(&p);
	free(warn);
	return line;
}

static const char recipe[] =
	"# a comment\n"
	"name: \"demo\"   # trailing comment\n"
	"ünï: 'x'\n"
	"roles:\n"
	"  prefill:\n"
	"    workers: 1\n"
	"    args:\n"
	"      max-model-len: 4096\n"
	"      served-model-name: \"Qwen/Qwen3\"\n"
	"    env:\n"
	"      A: 'é'\n"
	"services:\n"
	"  - name: s\n"
	"    args:\n"
	"      - --port\n"
	"      - \"8000\"\n"
	"    command: [a, b]\n"
	"    script: |\n"
	"      two\n"
	"      lines\n"
	"on: 1\n"
	"multi: first\n"
	"  second\n";

static struct doc *load(const char *text)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load("t.yaml", text, strlen(text), &dl);
	assert_non_null(d);
	diag_list_release(&dl);
	return d;
}

static json_t *args_mml(json_t *root)
{
	json_t *pre = json_object_get(json_object_get(root, "roles"), "prefill");
	return json_object_get(json_object_get(pre, "args"), "max-model-len");
}

static void test_line_edits(void **state)
{
	(void)state;
	struct doc *d = load(recipe);
	assert_true(set(d, "roles.prefill.args.max-model-len", "50001"));
	check_fresh("max-model-len", d);
	/* the document names the one value that changed, and its key */
	const struct doc_node *v = doc_value_edit(d);
	assert_non_null(v);
	assert_string_equal(doc_node_text(v), "50001");
	assert_string_equal(doc_node_key_text(v), "max-model-len");
	/* the typed value is patched, not rebuilt: what the edit did not reach
	 * is the same object as before, and the tree before is left as it was
	 * for whoever still holds it */
	json_t *before = doc_json(d);
	assert_true(set(d, "roles.prefill.args.max-model-len", "60002"));
	json_t *after = doc_json(d);
	check_fresh("a value of the same length", d);
	assert_ptr_not_equal(before, after);
	assert_ptr_equal(json_object_get(before, "services"), json_object_get(after, "services"));
	assert_ptr_equal(json_object_get(json_object_get(json_object_get(before, "roles"), "prefill"), "env"),
			 json_object_get(json_object_get(json_object_get(after, "roles"), "prefill"), "env"));
	assert_int_equal(json_integer_value(args_mml(before)), 50001);
	assert_int_equal(json_integer_value(args_mml(after)), 60002);
	json_decref(before);
	json_decref(after);
	assert_true(set(d, "roles.prefill.args.max-model-len", "50001"));
	check_fresh("max-model-len again", d);
	assert_true(set(d, "name", "\"a much longer name than before\""));
	check_fresh("name", d);
	assert_true(set(d, "ünï", "\"ÿ\""));
	check_fresh("unicode key", d);
	assert_true(set(d, "services[0].args[1]", "\"9000\""));
	check_fresh("list item", d);
	assert_true(set(d, "roles.prefill.env.A", "\"éé\""));
	check_fresh("env", d);
	/* the lint of the untouched `on:` key moved nowhere: same line */
	size_t len;
	const char *s = doc_text(d, &len);
	assert_non_null(strstr(s, "max-model-len: 50001\n"));
	assert_non_null(strstr(s, "name: \"a much longer name than before\"   # trailing comment\n"));
	assert_non_null(strstr(s, "- \"9000\"\n"));
	/* undo restores the text and an index that matches it */
	assert_int_equal(doc_undo(d), 0);
	check_fresh("undo", d);
	assert_null(doc_value_edit(d)); /* undo reads the text again: any change */
	doc_free(d);
}

static void test_whole_text_fallbacks(void **state)
{
	(void)state;
	struct doc *d = load(recipe);
	/* a plain value that needs quotes now: the style changes */
	assert_false(set(d, "roles.prefill.workers", "\"a: b\""));
	check_fresh("style change", d);
	assert_null(doc_value_edit(d));
	/* in a flow list */
	assert_false(set(d, "services[0].command[1]", "\"c\""));
	check_fresh("flow item", d);
	/* a block scalar, a multi-line plain scalar */
	assert_false(set(d, "services[0].script", "\"one line\""));
	check_fresh("block scalar", d);
	assert_false(set(d, "multi", "\"third\""));
	check_fresh("multi-line plain", d);
	doc_free(d);
	/* a document with an alias */
	d = load("a: &x 1\nb: *x\nc: 2\n");
	assert_false(set(d, "c", "3"));
	check_fresh("alias", d);
	doc_free(d);
}

/* The paths of every scalar value under n in block context (not keys);
 * "#" before the ones that read as integers. */
static void collect(const struct doc_node *n, struct path *p, struct strvec *out)
{
	if (n->kind == DOC_SCALAR) {
		if (!p->n || n->in_flow)
			return;
		json_t *v = scalar_to_json(n->text, n->len, n->style == STYLE_PLAIN);
		char *ps = path_format(p, (size_t)-1);
		strvec_pushf(out, "%s%s", json_is_integer(v) ? "#" : "", ps);
		free(ps);
		json_decref(v);
		return;
	}
	if (n->kind == DOC_ALIAS)
		return;
	for (size_t i = 0; i < doc_node_count(n); i++) {
		if (n->kind == DOC_MAP) {
			const struct doc_node *k = doc_node_key(n, i);
			if (k->kind != DOC_SCALAR)
				continue;
			path_push_key(p, k->text);
		} else {
			path_push_index(p, i);
		}
		collect(doc_node_child(n, i), p, out);
		path_pop(p);
	}
}

/* Set each value to a new one, compare with a fresh read, undo. */
static int edit_all(struct doc *d, const char *file, int *line)
{
	struct strvec paths = STRVEC_INIT;
	struct path p = PATH_INIT;
	collect(doc_root(d), &p, &paths);
	path_release(&p);
	int edits = 0;
	for (size_t i = 0; i < paths.n; i++) {
		const char *ps = paths.v[i] + (paths.v[i][0] == '#');
		struct path q = PATH_INIT;
		char *err = NULL, *warn = NULL;
		if (path_parse(&q, ps, 0, &err) == 0) {
			json_t *v = paths.v[i][0] == '#' ? json_integer(987654) : json_string("edited-value");
			const struct doc_node *root = doc_root(d);
			json_decref(doc_json(d));
			if (doc_set(d, &q, v, &err, &warn) == 0 && doc_can_undo(d)) {
				edits++;
				*line += doc_root(d) == root;
				check_fresh(file, d);
				assert_int_equal(doc_undo(d), 0);
			}
			json_decref(v);
		}
		free(err);
		free(warn);
		path_release(&q);
	}
	strvec_release(&paths);
	return edits;
}

static int walk_dir(const char *dir, int *line)
{
	DIR *dp = opendir(dir);
	int edits = 0;
	if (!dp)
		return 0;
	struct dirent *de;
	while ((de = readdir(dp))) {
		size_t l = strlen(de->d_name);
		if (l < 6 || strcmp(de->d_name + l - 5, ".yaml"))
			continue;
		char *file = xasprintf("%s/%s", dir, de->d_name);
		struct diag_list dl = DIAG_LIST_INIT;
		struct doc *d = doc_load_file(file, &dl);
		diag_list_release(&dl);
		if (d && doc_root(d))
			edits += edit_all(d, file, line);
		doc_free(d);
		free(file);
	}
	closedir(dp);
	return edits;
}

static void test_every_value(void **state)
{
	(void)state;
	int line = 0;
	char *dir = tu_srcpath("examples");
	int edits = walk_dir(dir, &line);
	free(dir);
	printf("examples: %d edits, %d checked on their line\n", edits, line);
	assert_true(edits > 100);
	assert_true(line > edits / 2);
	char *ref = tu_reference("");
	if (!ref)
		return;
	line = 0;
	edits = walk_dir(ref, &line);
	free(ref);
	printf("reference: %d edits, %d checked on their line\n", edits, line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_edits),
		cmocka_unit_test(test_whole_text_fallbacks),
		cmocka_unit_test(test_every_value),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
