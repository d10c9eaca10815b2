/* Format-preserving edits: exact resulting bytes for each operation and for
 * the edge cases of the design notes (§3.4 items 1-16). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"

enum op { SET, SETB, DEL, INS, REN, MOVE };

struct kase {
	const char *in;
	enum op op;
	const char *path;
	const char *arg;  /* JSON value, new key, or index for INS/MOVE */
	const char *arg2; /* JSON value for INS */
	const char *want; /* NULL: the edit must be refused, text untouched */
};

static int run_op(struct doc *d, const struct kase *k, char **err, char **warn)
{
	struct path p = PATH_INIT;
	char *perr = NULL;
	assert_int_equal(path_parse(&p, k->path, PATH_NAMES, &perr), 0);
	json_error_t je;
	json_t *v = NULL;
	int rc = -1;
	switch (k->op) {
	case SET:
	case SETB:
		v = json_loads(k->arg, JSON_DECODE_ANY, &je);
		assert_non_null(v);
		rc = (k->op == SET ? doc_set : doc_set_block)(d, &p, v, err, warn);
		break;
	case DEL:
		rc = doc_delete(d, &p, err, warn);
		break;
	case INS:
		v = json_loads(k->arg2, JSON_DECODE_ANY, &je);
		assert_non_null(v);
		rc = doc_insert(d, &p, strtoul(k->arg, NULL, 10), v, err, warn);
		break;
	case REN:
		rc = doc_rename_key(d, &p, k->arg, err);
		break;
	case MOVE:
		rc = doc_move_item(d, &p, strtoul(k->arg, NULL, 10), err);
		break;
	}
	json_decref(v);
	path_release(&p);
	return rc;
}

static void check(const struct kase *k)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load("t.yaml", k->in, strlen(k->in), &dl);
	if (!d)
		fail_msg("cannot load: %s", dl.n ? dl.v[0].message : "?");
	char *err = NULL, *warn = NULL;
	unsigned long gen = doc_generation(d);
	int rc = run_op(d, k, &err, &warn);
	size_t len;
	const char *t = doc_text(d, &len);
	if (!k->want) {
		if (rc == 0)
			fail_msg("%s: expected a refusal, got:\n%s", k->path, t);
		assert_non_null(err);
		assert_int_equal(len, strlen(k->in));
		assert_memory_equal(t, k->in, len);
		assert_int_equal(gen, doc_generation(d));
	} else {
		if (rc != 0)
			fail_msg("%s: refused: %s", k->path, err);
		if (len != strlen(k->want) || memcmp(t, k->want, len))
			fail_msg("%s:\n--- got\n%.*s\n--- want\n%s", k->path, (int)len, t, k->want);
		/* undo restores the bytes, redo the edit */
		if (strcmp(k->in, k->want)) {
			assert_int_equal(doc_undo(d), 0);
			t = doc_text(d, &len);
			assert_memory_equal(t, k->in, len);
			assert_int_equal(doc_redo(d), 0);
			t = doc_text(d, &len);
			assert_memory_equal(t, k->want, len);
		}
	}
	free(err);
	free(warn);
	doc_free(d);
	diag_list_release(&dl);
}

static void run_all(const struct kase *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		check(&v[i]);
}
#define RUN(v) run_all(v, sizeof(v) / sizeof(v[0]))

static void test_set_scalar(void **state)
{
	(void)state;
	static const struct kase v[] = {
		/* 1: longer/shorter value, the comment shifts */
		{ "a: 8    # c\nb: 1\n", SET, "a", "16", NULL, "a: 16    # c\nb: 1\n" },
		{ "a: 1000 # c\n", SET, "a", "7", NULL, "a: 7 # c\n" },
		/* 3: old style kept */
		{ "a: \"x\"\n", SET, "a", "\"yz\"", NULL, "a: \"yz\"\n" },
		{ "a: 'x'\n", SET, "a", "\"it's\"", NULL, "a: 'it''s'\n" },
		{ "a: 'x'\n", SET, "a", "\"t\\tb\"", NULL, "a: \"t\\tb\"\n" },
		{ "a: \"x\"\n", SET, "a", "5", NULL, "a: 5\n" },
		{ "a: 'x'\n", SET, "a", "true", NULL, "a: true\n" },
		{ "a: x\n", SET, "a", "null", NULL, "a: null\n" },
		{ "a: x\n", SET, "a", "1e-05", NULL, "a: 1.0e-05\n" },
		/* 2: plain values that need quotes */
		{ "a: x\n", SET, "a", "\"yes\"", NULL, "a: 'yes'\n" },
		{ "a: x\n", SET, "a", "\"a: b\"", NULL, "a: 'a: b'\n" },
		{ "a: x\n", SET, "a", "\"x # y\"", NULL, "a: 'x # y'\n" },
		{ "a: x\n", SET, "a", "\"12:30\"", NULL, "a: '12:30'\n" },
		{ "a: x\n", SET, "a", "\"\"", NULL, "a: ''\n" },
		{ "a: x\n", SET, "a", "\" lead\"", NULL, "a: ' lead'\n" },
		{ "a: x\n", SET, "a", "\"<<\"", NULL, "a: '<<'\n" },
		{ "a: [x, y]\n", SET, "a[1]", "\"p,q\"", NULL, "a: [x, 'p,q']\n" },
		{ "a: {k: v}\n", SET, "a.k", "\"[x]\"", NULL, "a: {k: '[x]'}\n" },
		/* same value: nothing changes */
		{ "a: 010\n", SET, "a", "8", NULL, "a: 010\n" },
		{ "a: ~\n", SET, "a", "null", NULL, "a: ~\n" },
		/* empty value */
		{ "a:\nb: 1\n", SET, "a", "\"v\"", NULL, "a: v\nb: 1\n" },
		{ "a:   # c\nb: 1\n", SET, "a", "3", NULL, "a: 3   # c\nb: 1\n" },
		/* anchor and tag stay */
		{ "a: &x 1\nb: *x\n", SET, "a", "2", NULL, "a: &x 2\nb: *x\n" },
		{ "a: 1\nb: 2\nb: 3\n", SET, "b", "4", NULL, "a: 1\nb: 2\nb: 4\n" },
		/* multi-line string into a plain scalar: a literal block */
		{ "a: x  # c\nb: 1\n", SET, "a", "\"l1\\nl2\\n\"", NULL, "a: |  # c\n  l1\n  l2\nb: 1\n" },
		{ "s:\n  a: x\n", SET, "s.a", "\"l1\\nl2\"", NULL, "s:\n  a: |-\n    l1\n    l2\n" },
		{ "a: x\n", SET, "a", "\" l1\\nl2\"", NULL, "a: \" l1\\nl2\"\n" },
		/* aliases are refused */
		{ "a: &x 1\nb: *x\n", SET, "b", "2", NULL, NULL },
		{ "a: &x {k: 1}\nb: *x\n", SET, "b.k", "2", NULL, NULL },
		{ "a: 1\n", SET, "a.b", "2", NULL, NULL },
		{ "a: [1]\n", SET, "a[3]", "2", NULL, NULL },
	};
	RUN(v);
}

static void test_block_scalars(void **state)
{
	(void)state;
	static const struct kase v[] = {
		{ "a: |\n  x\n  y\n\nb: 1\n", SET, "a", "\"p\\nq\\nr\"", NULL, "a: |-\n  p\n  q\n  r\n\nb: 1\n" },
		{ "a: |\n  x\n\nb: 1\n", SET, "a", "\"one\"", NULL, "a: |-\n  one\n\nb: 1\n" },
		{ "a: |-\n  x\nb: 1\n", SET, "a", "\"p\\n\"", NULL, "a: |\n  p\nb: 1\n" },
		{ "a: |+\n  x\n\nb: 1\n", SET, "a", "\"p\\n\\n\\n\"", NULL, "a: |+\n  p\n\n\nb: 1\n" },
		{ "a: | # note\n  x\nb: 1\n", SET, "a", "\"y\\n\"", NULL, "a: | # note\n  y\nb: 1\n" },
		{ "a: |2\n    x\nb: 1\n", SET, "a", "\" y\\n\"", NULL, "a: |2\n   y\nb: 1\n" },
		{ "a: |\n    x\nb: 1\n", SET, "a", "\" y\\n\"", NULL, "a: \" y\\n\"\nb: 1\n" },
		{ "a: |\n  # not a comment\n  x\nb: 1\n", SET, "b", "2", NULL, "a: |\n  # not a comment\n  x\nb: 2\n" },
		{ "a: >-\n  one\n  two\nb: 1\n", SET, "a", "\"p q\\nr\"", NULL, "a: >-\n  p q\n\n  r\nb: 1\n" },
		{ "a: |\n  x\n", SET, "a", "5", NULL, "a: 5\n" },
		/* 9: a file ending inside a literal block without a final newline */
		{ "a: |\n  x", SET, "b", "1", NULL, "a: |-\n  x\nb: 1\n" },
		{ "a: |\n  x", INS, "l", "0", "1", "a: |-\n  x\nl:\n  - 1\n" },
		{ "a: |\n  x\n", SET, "b", "1", NULL, "a: |\n  x\nb: 1\n" },
	};
	RUN(v);
}

static void test_collections(void **state)
{
	(void)state;
	static const struct kase v[] = {
		/* 4: scalar -> list inline, list -> scalar */
		{ "a: x # c\nb: 1\n", SET, "a", "[\"p\", 2]", NULL, "a: [p, 2] # c\nb: 1\n" },
		{ "a:\n  - x\n  - y\nb: 1\n", SET, "a", "\"s\"", NULL, "a: s\nb: 1\n" },
		{ "a:\n  k: 1\nb: 1\n", SET, "a", "{\"k\": 2, \"j\": [1]}", NULL, "a:\n  k: 2\n  j:\n    - 1\nb: 1\n" },
		{ "a: x\n", SETB, "a", "{\"k\": 1}", NULL, "a:\n  k: 1\n" },
		{ "l:\n- x\n", SETB, "l[0]", "{\"k\": 1, \"j\": 2}", NULL, "l:\n- k: 1\n  j: 2\n" },
		{ "a:\n", SETB, "a", "[1, 2]", NULL, "a:\n  - 1\n  - 2\n" },
		/* 5: empty collections */
		{ "a: {}\n", SET, "a.k", "\"v\"", NULL, "a: {k: v}\n" },
		{ "a: []\n", INS, "a", "0", "1", "a: [1]\n" },
		{ "a:\n  k: 1\nb: 2\n", DEL, "a.k", NULL, NULL, "a: {}\nb: 2\n" },
		{ "a: &d\n  k: 1\nb: 2\n", DEL, "a.k", NULL, NULL, "a: &d {}\nb: 2\n" },
		{ "a:\n  - 1\nb: 2\n", DEL, "a[0]", NULL, NULL, "a: []\nb: 2\n" },
		/* 6: flow collections */
		{ "a: [1, 2, 3]\n", INS, "a", "3", "4", "a: [1, 2, 3, 4]\n" },
		{ "a: [1, 2, 3]\n", INS, "a", "0", "0", "a: [0, 1, 2, 3]\n" },
		{ "a: [1, 2, 3]\n", DEL, "a[0]", NULL, NULL, "a: [2, 3]\n" },
		{ "a: [1, 2, 3]\n", DEL, "a[1]", NULL, NULL, "a: [1, 3]\n" },
		{ "a: [1, 2, 3]\n", DEL, "a[2]", NULL, NULL, "a: [1, 2]\n" },
		{ "a: [1]\n", DEL, "a[0]", NULL, NULL, "a: []\n" },
		{ "a: [\n  1,\n  2,\n]\n", INS, "a", "2", "3", "a: [\n  1,\n  2, 3,\n]\n" },
		{ "a: [\n  1,\n  2,\n]\n", DEL, "a[1]", NULL, NULL, "a: [\n  1,\n]\n" },
		{ "a: {x: 1, y: 2}\n", DEL, "a.x", NULL, NULL, "a: {y: 2}\n" },
		{ "a: {x: 1, y: 2}\n", SET, "a.on", "1", NULL, "a: {x: 1, y: 2, 'on': 1}\n" },
		/* block lists */
		{ "l:\n  - a\n  - b\n", INS, "l", "2", "\"c\"", "l:\n  - a\n  - b\n  - c\n" },
		{ "l:\n  - a\n  - b\n", INS, "l", "1", "\"c\"", "l:\n  - a\n  - c\n  - b\n" },
		{ "l:\n- a\n", INS, "l", "1", "{\"name\": \"x\", \"port\": 1}", "l:\n- a\n- name: x\n  port: 1\n" },
		{ "l:\n  - - a\n    - b\n", INS, "l[0]", "0", "\"z\"", "l:\n  - - z\n    - a\n    - b\n" },
		{ "l:\n  - a\n  - b\n  - c\n", MOVE, "l[0]", "2", NULL, "l:\n  - b\n  - c\n  - a\n" },
		{ "l:\n  - a\n  - b\n  - c\n", MOVE, "l[2]", "0", NULL, "l:\n  - c\n  - a\n  - b\n" },
		{ "l: [a, b, c]\n", MOVE, "l[0]", "1", NULL, "l: [b, a, c]\n" },
		{ "l:\n  - a\n  - b", MOVE, "l[1]", "0", NULL, "l:\n  - b\n  - a" },
		{ "a: 1\n", INS, "a", "0", "1", NULL },
	};
	RUN(v);
}

static void test_add_and_create(void **state)
{
	(void)state;
	static const struct kase v[] = {
		/* 14: the comment after the last entry of a nested map stays put */
		{ "a:\n  x: 1\n  # about x\nb: 2\n", SET, "a.w", "2", NULL, "a:\n  x: 1\n  w: 2\n  # about x\nb: 2\n" },
		{ "a:\n  x: 1\n", SET, "a.y", "2", NULL, "a:\n  x: 1\n  'y': 2\n" },
		{ "a:\n    x: 1\n", SET, "a.v", "\"v\"", NULL, "a:\n    x: 1\n    v: v\n" },
		{ "l:\n  - name: a\n    port: 1\n", SET, "l[a].host", "\"h\"", NULL,
		  "l:\n  - name: a\n    port: 1\n    host: h\n" },
		{ "a: 1\n", SET, "b.c.d", "1", NULL, "a: 1\nb:\n  c:\n    d: 1\n" },
		{ "a: 1\n", SET, "b", "{\"c\": 1}", NULL, "a: 1\nb: {c: 1}\n" },
		{ "a: 1\n", SETB, "b", "{\"c\": 1}", NULL, "a: 1\nb:\n  c: 1\n" },
		{ "a:\nb: 1\n", SET, "a.c", "1", NULL, "a:\n  c: 1\nb: 1\n" },
		{ "a: 1\nb: 2", SET, "c", "3", NULL, "a: 1\nb: 2\nc: 3\n" },
		/* 15: keys needing quotes */
		{ "a: 1\n", SET, "yes", "1", NULL, "a: 1\n'yes': 1\n" },
		{ "a: 1\n", SET, "123", "1", NULL, "a: 1\n'123': 1\n" },
		{ "a: 1\n", SET, "\"with: colon\"", "1", NULL, "a: 1\n'with: colon': 1\n" },
		{ "a: 1\n", SET, "k#1", "1", NULL, "a: 1\nk#1: 1\n" },
		{ "a: 1\n", SET, "a b", "1", NULL, "a: 1\na b: 1\n" },
		/* 16: empty and comment-only documents */
		{ "", SET, "a", "1", NULL, "a: 1\n" },
		{ "# only a comment", SET, "a.b", "1", NULL, "# only a comment\na:\n  b: 1\n" },
		{ "---\n", SET, "a", "1", NULL, "---\na: 1\n" },
		/* 13: merge keys: inherited values are overridden locally */
		{ "d: &d\n  x: 1\ne:\n  <<: *d\n", SET, "e.x", "2", NULL, "d: &d\n  x: 1\ne:\n  <<: *d\n  x: 2\n" },
		/* rename */
		{ "a: 1 # c\nb: 2\n", REN, "a", "z", NULL, "z: 1 # c\nb: 2\n" },
		{ "\"a\": 1\n", REN, "a", "on", NULL, "\"on\": 1\n" },
		{ "a: 1\n", REN, "a", "on", NULL, "'on': 1\n" },
		{ "a: 1\nb: 2\n", REN, "a", "b", NULL, NULL },
	};
	RUN(v);
}

static void test_delete(void **state)
{
	(void)state;
	static const struct kase v[] = {
		{ "a: 1\nb: 2 # c\nc: 3\n", DEL, "b", NULL, NULL, "a: 1\nc: 3\n" },
		/* own comment block: taken when a blank line precedes it */
		{ "a: 1\n\n# about b\nb: 2\nc: 3\n", DEL, "b", NULL, NULL, "a: 1\n\nc: 3\n" },
		{ "a: 1\n# about b\nb: 2\nc: 3\n", DEL, "b", NULL, NULL, "a: 1\n# about b\nc: 3\n" },
		{ "a: 1\n\n# about b\nb: 2\n\nc: 3\n", DEL, "b", NULL, NULL, "a: 1\n\nc: 3\n" },
		{ "s:\n  # first\n  a: 1\n  b: 2\n", DEL, "s.a", NULL, NULL, "s:\n  b: 2\n" },
		{ "# header\nname: x\nb: 2\n", DEL, "name", NULL, NULL, "# header\nb: 2\n" },
		{ "a:\n  x:\n    - 1\n    - 2\n  y: 3\nb: 1\n", DEL, "a.x", NULL, NULL, "a:\n  y: 3\nb: 1\n" },
		{ "a: |\n  t\n\nb: 1\n", DEL, "a", NULL, NULL, "\nb: 1\n" },
		/* first key of `- name: x` */
		{ "l:\n  - name: x # n\n    port: 1\n", DEL, "l[0].name", NULL, NULL, "l:\n  - port: 1\n" },
		{ "l:\n  - name: x\n", DEL, "l[0].name", NULL, NULL, "l:\n  - {}\n" },
		{ "l:\n  - name: x\n    # c\n    port: 1\n", DEL, "l[0].name", NULL, NULL, "l:\n  -\n    # c\n    port: 1\n" },
		{ "l:\n  - a # c\n  - b\n", DEL, "l[0]", NULL, NULL, "l:\n  - b\n" },
		{ "l:\n  - name: a\n  - name: b\n", DEL, "l[b]", NULL, NULL, "l:\n  - name: a\n" },
		{ "a: 1\n", DEL, "a", NULL, NULL, "" },
		/* an anchor still used cannot go */
		{ "a: &x 1\nb: *x\n", DEL, "a", NULL, NULL, NULL },
		{ "a: &x 1\nb: *x\n", DEL, "b", NULL, NULL, "a: &x 1\n" },
		{ "a: 1\na: 2\n", DEL, "a", NULL, NULL, NULL },
		{ "a: 1\n", DEL, "zz", NULL, NULL, NULL },
	};
	RUN(v);
}

static void test_line_ends(void **state)
{
	(void)state;
	static const struct kase v[] = {
		/* 8: CRLF in new lines */
		{ "a: 1\r\nb:\r\n  c: 2\r\n", SET, "b.d", "3", NULL, "a: 1\r\nb:\r\n  c: 2\r\n  d: 3\r\n" },
		{ "a: 1\r\n", SET, "a", "\"x\\ny\"", NULL, "a: |-\r\n  x\r\n  y\r\n" },
		{ "a: 1\r\nb: 2\r\n", DEL, "a", NULL, NULL, "b: 2\r\n" },
		/* 10: BOM and UTF-8 before the edit */
		{ "\xEF\xBB\xBFn: \"caf\xC3\xA9\"\nb: 1\n", SET, "b", "2", NULL, "\xEF\xBB\xBFn: \"caf\xC3\xA9\"\nb: 2\n" },
		{ "\xEF\xBB\xBFn: \"caf\xC3\xA9\"\r\nb: 1\r\n", SET, "n", "\"th\xC3\xA9\"", NULL,
		  "\xEF\xBB\xBFn: \"th\xC3\xA9\"\r\nb: 1\r\n" },
		{ "\xEF\xBB\xBF" "a: 1\n", SET, "z", "1", NULL, "\xEF\xBB\xBF" "a: 1\nz: 1\n" },
		/* 11: never a raw tab */
		{ "a: x\n", SET, "a", "\"p\\tq\"", NULL, "a: \"p\\tq\"\n" },
	};
	RUN(v);
}

static struct doc *load(const char *text, struct diag_list *dl)
{
	return doc_load("r.yaml", text, strlen(text), dl);
}

static void test_load_diags(void **state)
{
	(void)state;
	struct diag_list dl = DIAG_LIST_INIT;
	/* 11: tabs PyYAML refuses load, with an error per line */
	struct doc *d = load("a:\tb\nc: 'x\ty' # t\tt\nd: |\n  a\tz\n", &dl);
	assert_non_null(d);
	assert_int_equal(dl.n, 1);
	assert_int_equal(dl.v[0].severity, DIAG_ERROR);
	assert_string_equal(dl.v[0].code, "yaml-tab");
	assert_int_equal(dl.v[0].line, 1);
	assert_int_equal(dl.v[0].col, 3);
	assert_non_null(dl.v[0].hint);
	doc_free(d);
	diag_list_clear(&dl);
	/* 12: duplicate keys and non-string keys warn */
	d = load("a: 1\non: 2\na: 3\n", &dl);
	assert_non_null(d);
	assert_int_equal(dl.n, 2);
	assert_string_equal(dl.v[0].code, "yaml-key-not-string");
	assert_string_equal(dl.v[1].code, "yaml-duplicate-key");
	assert_int_equal(dl.v[1].line, 3);
	json_t *j = doc_json(d);
	char *s = json_dumps(j, JSON_COMPACT);
	assert_string_equal(s, "{\"a\":3,\"on\":2}");
	free(s);
	json_decref(j);
	doc_free(d);
	diag_list_clear(&dl);
	/* 16: more than one document, not a mapping, undefined alias, syntax */
	const char *bad[] = { "a: 1\n---\nb: 2\n", "- a\n", "just text\n", "a: *nope\n", "a: [1\n", NULL };
	const char *code[] = { "yaml-multi-document", "yaml-not-mapping", "yaml-not-mapping", "yaml-syntax",
			       "yaml-syntax" };
	for (int i = 0; bad[i]; i++) {
		assert_null(load(bad[i], &dl));
		assert_int_equal(dl.n, 1);
		assert_string_equal(dl.v[0].code, code[i]);
		assert_true(dl.v[0].line > 0);
		assert_non_null(dl.v[0].hint);
		diag_list_clear(&dl);
	}
	d = load("# nothing here\n", &dl);
	assert_non_null(d);
	assert_null(doc_root(d));
	doc_free(d);
	diag_list_release(&dl);
}

static void test_json_and_get(void **state)
{
	(void)state;
	struct diag_list dl = DIAG_LIST_INIT;
	const char *text = "base: &b\n  x: 1\n  y: [1, 2]\nm:\n  <<: *b\n  y: 3\nl:\n  - &i v\n  - *i\n"
			   "n: 010\nf: 1.0e+3\ns: 1e3\nt: 12:30\nlit: |\n  a\n  b\nnest:\n  k:\n    - 1\n    - z: 2\n";
	struct doc *d = load(text, &dl);
	assert_non_null(d);
	json_t *j = doc_json(d);
	char *s = json_dumps(j, JSON_COMPACT);
	assert_string_equal(s, "{\"base\":{\"x\":1,\"y\":[1,2]},\"m\":{\"x\":1,\"y\":3},\"l\":[\"v\",\"v\"],\"n\":8,"
			       "\"f\":1000.0,\"s\":\"1e3\",\"t\":750,\"lit\":\"a\\nb\\n\",\"nest\":{\"k\":[1,{\"z\":2}]}}");
	free(s);
	json_decref(j);
	struct path p = PATH_INIT;
	char *err = NULL;
	struct strbuf out = STRBUF_INIT;
	path_parse(&p, "nest", 0, &err);
	assert_int_equal(doc_get(d, &p, 0, &out, &err), 0);
	assert_string_equal(sb_str(&out), "k:\n  - 1\n  - z: 2\n");
	strbuf_reset(&out);
	assert_int_equal(doc_get(d, &p, 1, &out, &err), 0);
	assert_string_equal(sb_str(&out), "{\n  \"k\": [\n    1,\n    {\n      \"z\": 2\n    }\n  ]\n}\n");
	strbuf_reset(&out);
	path_parse(&p, "m.x", 0, &err); /* inherited through << */
	assert_int_equal(doc_get(d, &p, 0, &out, &err), 0);
	assert_string_equal(sb_str(&out), "1\n");
	strbuf_reset(&out);
	path_parse(&p, "base.y[1]", 0, &err);
	assert_int_equal(doc_get(d, &p, 0, &out, &err), 0);
	assert_string_equal(sb_str(&out), "2\n");
	int line, col;
	assert_int_equal(doc_locate(d, &p, &line, &col), 1);
	assert_int_equal(line, 3);
	assert_int_equal(col, 10);
	path_parse(&p, "nest.k[1].z", 0, &err);
	assert_int_equal(doc_locate(d, &p, &line, &col), 1);
	assert_int_equal(line, 20);
	assert_int_equal(col, 7);
	path_parse(&p, "nest.k[1].missing.deeper", 0, &err);
	assert_int_equal(doc_locate(d, &p, &line, &col), 0);
	assert_int_equal(line, 20);
	path_parse(&p, "nope", 0, &err);
	assert_int_equal(doc_get(d, &p, 0, &out, &err), -1);
	assert_string_equal(err, "'nope' does not exist");
	free(err);
	struct diag_list l2 = DIAG_LIST_INIT;
	diag_add(&l2, DIAG_ERROR, "x", "base.y[1]", NULL, "bad");
	doc_locate_diags(d, &l2);
	assert_int_equal(l2.v[0].line, 3);
	diag_list_release(&l2);
	/* node accessors */
	const struct doc_node *r = doc_root(d);
	assert_int_equal(doc_node_kind(r), DOC_MAP);
	assert_int_equal(doc_node_count(r), 9);
	assert_string_equal(doc_node_text(doc_node_key(r, 0)), "base");
	assert_string_equal(doc_node_anchor(doc_node_child(r, 0)), "b");
	const struct doc_node *lit = doc_node_child(r, 7);
	assert_int_equal(doc_node_style(lit), STYLE_LITERAL);
	assert_int_equal(doc_node_line(lit), 14);
	strbuf_release(&out);
	path_release(&p);
	doc_free(d);
	diag_list_release(&dl);
}

static void test_alias_bomb(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
	for (int i = 1; i < 10; i++) {
		strbuf_addf(&sb, "a%d: &a%d [", i, i);
		for (int k = 0; k < 10; k++)
			strbuf_addf(&sb, "%s*a%d", k ? ", " : "", i - 1);
		strbuf_addstr(&sb, "]\n");
	}
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load("bomb.yaml", sb.buf, sb.len, &dl);
	assert_non_null(d);
	assert_null(doc_json(d));
	doc_free(d);
	strbuf_release(&sb);
	diag_list_release(&dl);
}

static void test_undo_dirty(void **state)
{
	(void)state;
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = load("a: 1\n", &dl);
	struct path p = PATH_INIT;
	char *err = NULL, *warn = NULL;
	path_parse(&p, "a", 0, &err);
	assert_false(doc_dirty(d));
	assert_false(doc_can_undo(d));
	unsigned long g = doc_generation(d);
	for (int i = 0; i < 1100; i++) {
		json_t *v = json_integer(i + 2);
		assert_int_equal(doc_set(d, &p, v, &err, &warn), 0);
		json_decref(v);
	}
	assert_true(doc_generation(d) > g);
	assert_true(doc_dirty(d));
	int undone = 0;
	while (doc_undo(d) == 0)
		undone++;
	assert_int_equal(undone, 1000); /* the stack is capped */
	assert_true(doc_can_redo(d));
	assert_int_equal(doc_redo(d), 0);
	doc_mark_saved(d);
	assert_false(doc_dirty(d));
	assert_int_equal(doc_replace_text(d, "b: 2\n", 5, &err), 0);
	assert_true(doc_dirty(d));
	assert_int_equal(doc_replace_text(d, "- x\n", 4, &err), -1);
	assert_non_null(err);
	free(err);
	assert_int_equal(doc_undo(d), 0);
	assert_false(doc_dirty(d));
	path_release(&p);
	doc_free(d);
	diag_list_release(&dl);
}

static void test_warn_anchor(void **state)
{
	(void)state;
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = load("d: &d\n  x: 1\ne: *d\n", &dl);
	struct path p = PATH_INIT;
	char *err = NULL, *warn = NULL;
	path_parse(&p, "d.x", 0, &err);
	json_t *v = json_integer(2);
	assert_int_equal(doc_set(d, &p, v, &err, &warn), 0);
	assert_non_null(warn);
	assert_string_equal(warn, "'d.x' is inside &d (line 1): every alias of it sees this change");
	free(warn);
	json_decref(v);
	path_release(&p);
	doc_free(d);
	diag_list_release(&dl);
}

/* The findings of a read (duplicate keys, tabs) follow every version of the
 * text, so a screen never has to parse again to show them. */
static void test_lint_follows_edits(void **state)
{
	(void)state;
	const char *src = "a: 1\na: 2\nb: x\n";
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load("r.yaml", src, strlen(src), &dl);
	assert_non_null(d);
	assert_int_equal(dl.n, 1);
	assert_int_equal(doc_lint(d)->n, 1);
	assert_string_equal(doc_lint(d)->v[0].message, dl.v[0].message);
	struct path p = PATH_INIT;
	char *err = NULL;
	assert_int_equal(path_parse(&p, "b", 0, &err), 0);
	json_t *v = json_string("y");
	assert_int_equal(doc_set(d, &p, v, &err, NULL), 0);
	assert_int_equal(doc_lint(d)->n, 1); /* still two 'a' keys */
	assert_int_equal(doc_lint(d)->v[0].line, dl.v[0].line);
	const char *fixed = "a: 1\nb: y\n";
	assert_int_equal(doc_replace_text(d, fixed, strlen(fixed), &err), 0);
	assert_int_equal(doc_lint(d)->n, 0); /* fixed by the edit */
	assert_int_equal(doc_undo(d), 0);
	assert_int_equal(doc_lint(d)->n, 1); /* and back */
	json_decref(v);
	path_release(&p);
	diag_list_release(&dl);
	doc_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_scalar),
		cmocka_unit_test(test_block_scalars),
		cmocka_unit_test(test_collections),
		cmocka_unit_test(test_add_and_create),
		cmocka_unit_test(test_delete),
		cmocka_unit_test(test_line_ends),
		cmocka_unit_test(test_load_diags),
		cmocka_unit_test(test_json_and_get),
		cmocka_unit_test(test_alias_bomb),
		cmocka_unit_test(test_undo_dirty),
		cmocka_unit_test(test_warn_anchor),
		cmocka_unit_test(test_lint_follows_edits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
