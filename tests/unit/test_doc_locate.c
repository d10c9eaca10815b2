/*
 * doc_locate goes through the sorted keys of a big mapping and the sorted
 * names of a big list (model/doc.c) instead of walking them: it must give
 * exactly what the walk gives (doc_index_lookup, then the key of a mapping
 * value): for every node of documents with big collections (duplicate keys,
 * where the last one counts; duplicate names, where the first item counts;
 * items that are aliases, items without a name or with a list as their
 * name; keys with '.' and quotes), reached by key, by index and by [name],
 * and for paths that go missing at every level.  Also after an edit, which
 * makes a new generation (the sorted siblings are made again).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/doc_internal.h"
#include "tests/unit/testutil.h"

/* What doc_locate did before the sorted siblings: the walk. */
static int walk_locate(struct doc *d, const struct path *p, int *line, int *col)
{
	size_t depth;
	const struct doc_node *n = doc_index_lookup(doc_current_index(d), p, &depth, 1);
	*line = *col = 0;
	if (!n)
		return -1;
	if (depth == p->n || depth > 0) {
		const struct doc_node *at = n;
		if (n->parent && n->parent->kind == DOC_MAP)
			for (size_t i = 1; i < n->parent->nkids; i += 2)
				if (n->parent->kids[i] == n)
					at = n->parent->kids[i - 1];
		if (n->parent && n->parent->kind == DOC_SEQ && n->dash != DOC_NONE) {
			*line = n->dash_line + 1;
			*col = n->dash_col + 1;
		} else {
			*line = at->line + 1;
			*col = at->col + 1;
		}
		return depth == p->n;
	}
	*line = n->line + 1;
	*col = n->col + 1;
	return 0;
}

static int compared;

static void same(struct doc *d, const struct path *p)
{
	int l1, c1, l2, c2;
	int r1 = doc_locate(d, p, &l1, &c1), r2 = walk_locate(d, p, &l2, &c2);
	compared++;
	if (r1 != r2 || l1 != l2 || c1 != c2) {
		char *s = path_format(p, (size_t)-1);
		fail_msg("%s: doc_locate %d at %d:%d, the walk %d at %d:%d", s, r1, l1, c1, r2, l2, c2);
	}
}

/* Every path of n's subtree, plus a missing key or name under each. */
static void every_path(struct doc *d, const struct doc_node *n, struct path *p, int depth)
{
	if (depth > 12)
		return;
	same(d, p);
	if (n->kind == DOC_ALIAS)
		n = n->target;
	path_push_key(p, "no-such-key");
	same(d, p);
	path_pop(p);
	if (n->kind == DOC_MAP) {
		for (size_t i = 0; i + 1 < n->nkids; i += 2) {
			if (n->kids[i]->kind != DOC_SCALAR)
				continue;
			path_push_key(p, n->kids[i]->text);
			every_path(d, n->kids[i + 1], p, depth + 1);
			path_pop(p);
		}
	} else if (n->kind == DOC_SEQ) {
		path_push_name(p, "no-such-name");
		same(d, p);
		path_pop(p);
		for (size_t i = 0; i < n->nkids; i++) {
			path_push_index(p, i);
			every_path(d, n->kids[i], p, depth + 1);
			path_pop(p);
			const struct doc_node *it = n->kids[i]->kind == DOC_ALIAS ? n->kids[i]->target : n->kids[i];
			ssize_t k = doc_map_find(it, "name");
			const struct doc_node *v = k >= 0 ? it->kids[2 * k + 1] : NULL;
			if (v && v->kind == DOC_SCALAR) {
				path_push_name(p, v->text);
				every_path(d, n->kids[i], p, depth + 1);
				path_pop(p);
			}
		}
	}
}

static void check_text(const char *what, const char *text)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load(what, text, strlen(text), &dl);
	assert_non_null(d);
	struct path p = PATH_INIT;
	every_path(d, doc_root(d), &p, 0);
	path_release(&p);
	doc_free(d);
	diag_list_release(&dl);
}

/* A mapping of n keys (k0, k1 ... with k5 and k17 given twice and keys
 * holding '.' or quotes) and a list of n items (names repeated, an alias
 * item, items without a name or with a list for one). */
static char *big_text_with(int n, int alias)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, alias ? "base: &b\n  name: shared\n  x: 1\nargs:\n" : "args:\n");
	for (int i = 0; i < n; i++) {
		strbuf_addf(&sb, "  k%d: %d\n", i, i);
		if (i == 5 || i == 17)
			strbuf_addf(&sb, "  k%d: again\n", i);
	}
	strbuf_addstr(&sb, "  \"a.b\": dotted\n  'q''t': quoted\nservices:\n");
	for (int i = 0; i < n; i++) {
		if (i % 10 == 3 && alias)
			strbuf_addstr(&sb, "  - *b\n");
		else if (i % 10 == 4)
			strbuf_addstr(&sb, "  - {type: none}\n");
		else if (i % 10 == 6)
			strbuf_addstr(&sb, "  - name: [not, a, name]\n");
		else
			strbuf_addf(&sb, "  - name: svc%d\n    args:\n      - --p%d\n", i % 37, i);
	}
	return strbuf_detach(&sb, NULL);
}

static char *big_text(int n)
{
	return big_text_with(n, 1);
}

static void test_big_collections(void **state)
{
	(void)state;
	compared = 0;
	for (int n = 10; n <= 200; n += 95) { /* below and above the size that sorts */
		char *t = big_text(n);
		check_text("big.yaml", t);
		free(t);
	}
	assert_true(compared > 2000);
}

static void test_after_edits(void **state)
{
	(void)state;
	char *t = big_text(120);
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load("big.yaml", t, strlen(t), &dl);
	assert_non_null(d);
	struct path p = PATH_INIT, q = PATH_INIT;
	char *err = NULL, *warn = NULL;
	path_push_key(&p, "args");
	path_push_key(&p, "k40");
	same(d, &p); /* sorts args */
	/* a new key before it, and the list made shorter: new lines, new nodes */
	assert_int_equal(path_parse(&q, "args.k0a", PATH_NAMES, &err), 0);
	json_t *v = json_string("new");
	assert_int_equal(doc_set(d, &q, v, &err, &warn), 0);
	json_decref(v);
	free(warn);
	path_release(&q);
	assert_int_equal(path_parse(&q, "services[0]", PATH_NAMES, &err), 0);
	assert_int_equal(doc_delete(d, &q, &err, &warn), 0);
	free(warn);
	path_release(&q);
	path_clear(&p);
	every_path(d, doc_root(d), &p, 0);
	assert_int_equal(doc_undo(d), 0);
	path_clear(&p);
	every_path(d, doc_root(d), &p, 0);
	path_release(&p);
	doc_free(d);
	diag_list_release(&dl);
	free(t);
}

/* Set one value where the line check takes the edit (no aliases): the
 * nodes stay where they were, so the sorted keys are kept, except after a
 * `name:` value, which can move an item in its list's sorted names. */
static void value_edit(struct doc *d, const char *where, const char *value)
{
	struct path q = PATH_INIT, p = PATH_INIT;
	char *err = NULL, *warn = NULL;
	assert_int_equal(path_parse(&q, where, PATH_NAMES, &err), 0);
	json_t *v = json_string(value);
	const struct doc_node *root = doc_root(d);
	assert_int_equal(doc_set(d, &q, v, &err, &warn), 0);
	assert_ptr_equal(doc_root(d), root); /* checked on its line */
	assert_non_null(doc_value_edit(d));
	json_decref(v);
	free(warn);
	path_release(&q);
	every_path(d, doc_root(d), &p, 0);
	path_release(&p);
}

static void test_after_value_edits(void **state)
{
	(void)state;
	char *t = big_text_with(120, 0);
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load("big.yaml", t, strlen(t), &dl);
	assert_non_null(d);
	struct path p = PATH_INIT;
	every_path(d, doc_root(d), &p, 0); /* sorts every big collection */
	path_release(&p);
	value_edit(d, "args.k40", "changed");
	value_edit(d, "services[2].name", "svc0");    /* now a duplicate: the first counts */
	value_edit(d, "services[0].name", "zzz-last"); /* svc0 is item 2 now */
	path_push_name(&p, "svc0");
	same(d, &p);
	path_release(&p);
	doc_free(d);
	diag_list_release(&dl);
	free(t);
}

static void test_examples(void **state)
{
	(void)state;
	static const char *const names[] = { "examples/vllm-lmcache-disagg.yaml", "examples/sglang-agg.yaml" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *path = tu_srcpath(names[i]);
		char *t = tu_slurp(path);
		assert_non_null(t);
		check_text(path, t);
		free(t);
		free(path);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_big_collections),
		cmocka_unit_test(test_after_edits),
		cmocka_unit_test(test_after_value_edits),
		cmocka_unit_test(test_examples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
