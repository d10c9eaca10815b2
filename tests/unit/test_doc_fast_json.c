/*
 * doc_fast_json: for every text it answers, doc_load reads the same text
 * without a diagnostic and doc_json gives the same tree, key order included;
 * and it leaves to doc_load each kind of text doc_load may have something to
 * say about.  validate_text_glance, which `validate` builds on it: a text it
 * calls clean gets no diagnostic the full way (doc_load, the cluster's
 * aliases, validate_doc_variants_with), a text it judges gets from its
 * findings the same diagnostics as the full way, and every example is clean.  The texts: the examples, our fixtures and $SHARED/reference
 * (when present), each also with CRLF line ends, a BOM and no final newline,
 * and hand-written cases, each beside the same text without what makes it
 * need doc_load.
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
#include <sys/stat.h>

#include "model/cluster.h"
#include "model/doc.h"
#include "model/validate.h"
#include "tests/unit/testutil.h"

struct tally {
	int texts, answered, judged, clean;
};

/* What check_file gives for the text (the diagnostics, formatted), the full
 * way or, with g, from what the glance found; NULL when doc_load refuses it. */
static char *checked(const char *name, const char *t, size_t len, struct text_glance *g)
{
	struct cluster cl = CLUSTER_INIT;
	struct diag_list dl = DIAG_LIST_INIT;
	struct strvec labels = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	int unchecked = 0, usage = 0, ok = 0;
	char *err = NULL;
	struct doc *d = doc_load(name, t, len, &dl);
	if (d) {
		if (g)
			doc_adopt_json(d, g->tree);
		json_t *root = doc_json(d);
		if (g)
			diag_list_move(&dl, &g->alias);
		else
			cluster_alias_diags(&cl, root, &dl, &unchecked);
		doc_locate_diags(d, &dl);
		json_decref(root);
		if (g)
			validate_doc_variants_given(d, &cl, g, &dl, &labels);
		else if (validate_doc_variants_with(d, &cl, NULL, NULL, NULL, &dl, &labels, &usage, &err))
			free(err);
		for (size_t i = 0; i < dl.n; i++)
			diag_format(&sb, name, &dl.v[i]);
		ok = 1;
	}
	doc_free(d);
	diag_list_release(&dl);
	strvec_release(&labels);
	cluster_release(&cl);
	if (!ok) {
		strbuf_release(&sb);
		return NULL;
	}
	return sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
}

/* validate_text_glance's promise for one text: a clean text gets nothing the
 * full way, and a judged one gets from its findings what the full way
 * gives.  1 when it was clean; *judged counts the judged ones. */
static int glance_as_full(const char *name, const char *t, size_t len, int *judged)
{
	struct cluster cl = CLUSTER_INIT;
	struct text_glance g = TEXT_GLANCE_INIT;
	int unchecked = 0, clean = validate_text_glance(t, len, &cl, &unchecked, &g);
	cluster_release(&cl);
	*judged += !!g.tree;
	if (g.tree) {
		char *full = checked(name, t, len, NULL), *given = checked(name, t, len, &g);
		if (!full || !given)
			fail_msg("%s: judged at a glance, but doc_load refuses it", name);
		if (clean && *full)
			fail_msg("%s: clean at a glance, but the full way says:\n%s", name, full);
		tu_assert_same_text(full, given, name);
		free(full);
		free(given);
	}
	text_glance_release(&g);
	return clean;
}

static char *dumped(json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
	assert_non_null(s);
	return s;
}

/* The promise for one text; 1 when doc_fast_json answered it. */
static int same_as_load(const char *name, const char *t, size_t len)
{
	json_t *fast = doc_fast_json(t, len);
	if (!fast)
		return 0;
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load(name, t, len, &dl);
	if (!d)
		fail_msg("%s: doc_fast_json answers a text doc_load refuses", name);
	if (dl.n)
		fail_msg("%s: doc_fast_json answers a text doc_load has a word about: %s [%s]", name,
			 dl.v[0].message, dl.v[0].code);
	json_t *full = doc_json(d);
	char *a = dumped(fast), *b = dumped(full);
	tu_assert_same_text(b, a, name);
	free(a);
	free(b);
	json_decref(full);
	json_decref(fast);
	doc_free(d);
	diag_list_release(&dl);
	return 1;
}

static void run_text(struct tally *t, const char *name, const char *text, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	for (int v = 0; v < TU_VARIANTS; v++) {
		tu_text_variant(&sb, text, len, v);
		t->texts++;
		t->answered += same_as_load(name, sb.buf, sb.len);
		t->clean += glance_as_full(name, sb.buf, sb.len, &t->judged);
	}
	strbuf_release(&sb);
}

static int yaml_name(const char *s)
{
	size_t n = strlen(s);
	return (n > 5 && !strcmp(s + n - 5, ".yaml")) || (n > 4 && !strcmp(s + n - 4, ".yml"));
}

static void run_tree(struct tally *t, const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	if (!dp)
		return;
	while ((de = readdir(dp))) {
		if (de->d_name[0] == '.')
			continue;
		char *p = xasprintf("%s/%s", dir, de->d_name);
		struct stat st;
		if (!stat(p, &st) && S_ISDIR(st.st_mode)) {
			run_tree(t, p);
		} else if (yaml_name(p)) {
			size_t len;
			char *text = tu_slurp_len(p, &len);
			if (text)
				run_text(t, p, text, len);
			free(text);
		}
		free(p);
	}
	closedir(dp);
}

static void test_our_texts(void **state)
{
	(void)state;
	struct tally t = { 0, 0, 0, 0 };
	char *ex = tu_srcpath("examples"), *fx = tu_srcpath("tests/fixtures");
	run_tree(&t, ex);
	int examples = t.answered, clean = t.clean;
	run_tree(&t, fx);
	free(ex);
	free(fx);
	printf("ours: %d texts, %d answered without the index, %d judged, %d clean at a glance\n", t.texts,
	       t.answered, t.judged, t.clean);
	/* every example is a recipe that loads quietly, as it is, after a BOM
	 * and without its final newline (CRLF is outside doc_fast's subset) */
	assert_true(examples >= 3 * 9);
	assert_int_equal(clean, examples);
	assert_true(t.answered < t.texts); /* the fixtures hold texts only doc_load can judge */
	assert_true(t.judged > t.clean);   /* and recipes with findings to place */
}

static void test_reference(void **state)
{
	(void)state;
	char *dir = tu_reference("");
	if (!dir)
		return;
	struct tally t = { 0, 0, 0, 0 };
	run_tree(&t, dir);
	free(dir);
	printf("reference: %d texts, %d answered without the index, %d judged, %d clean at a glance\n",
	       t.texts, t.answered, t.judged, t.clean);
	assert_true(t.answered > 0);
}

/* Each case needs doc_load; the same text with the fix does not. */
static void test_left_to_doc_load(void **state)
{
	(void)state;
	static const struct {
		const char *needs, *quiet, *why;
	} cases[] = {
		{ "a:\n\tb: 1\n", "a:\n  b: 1\n", "a tab" },
		{ "a: 1 # \t\n", "a: 1 #\n", "a tab even in a comment (doc_load's judgement)" },
		{ "a: 1\na: 2\n", "a: 1\nb: 2\n", "a duplicate key" },
		{ "a:\n  x: 1\n  x: 1\n", "a:\n  x: 1\n  z: 1\n", "a duplicate nested key" },
		{ "on: 1\n", "'on': 1\n", "a key PyYAML reads as a bool" },
		{ "1: x\n", "'1': x\n", "a key PyYAML reads as a number" },
		{ "~: x\n", "'~': x\n", "a key PyYAML reads as null" },
		{ "a: &x 1\nb: *x\n", "a: 1\nb: 1\n", "an anchor and an alias" },
		{ "a: {x: 1}\nb:\n  <<: {x: 1}\n", "a: {x: 1}\nb:\n  c: {x: 1}\n", "a merge key" },
		{ "a: !!str 1\n", "a: '1'\n", "a tag" },
		{ "a: 1\n---\nb: 2\n", "a: 1\nb: 2\n", "a second document" },
		{ "- a\n- b\n", "a: [a, b]\n", "a top level that is a list" },
		{ "", "a: 1\n", "an empty text" },
		{ "\"a\\0b\": 1\n", "\"a b\": 1\n", "a key with a NUL" },
		{ "a: [1, 2\n", "a: [1, 2]\n", "a syntax error" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *j = doc_fast_json(cases[i].needs, strlen(cases[i].needs));
		if (j)
			fail_msg("answered without doc_load: %s", cases[i].why);
		if (!same_as_load(cases[i].why, cases[i].quiet, strlen(cases[i].quiet)))
			fail_msg("the quiet twin of '%s' was left to doc_load", cases[i].why);
	}
	/* deeper than a recipe nests */
	struct strbuf deep = STRBUF_INIT;
	for (int i = 0; i < 80; i++)
		strbuf_addf(&deep, "%*sk%d:\n", 2 * i, "", i);
	strbuf_addf(&deep, "%*sleaf: 1\n", 160, "");
	assert_null(doc_fast_json(deep.buf, deep.len));
	strbuf_release(&deep);
}

/* Values keep their YAML types, and an empty key is a key. */
static void test_values(void **state)
{
	(void)state;
	/* (keys y and n would be booleans to PyYAML, left to doc_load; 1.5e3
	 * is a string to PyYAML, whose floats have a dot and a signed exponent) */
	const char *t = "s: x\nq: 'yes'\nb: yes\nz: ~\ni: 0x1f\nf: 1.5e3\ng: 1.5e+3\nl: [1, a, {k: v}]\n"
			"m:\n  - x: 1\n    w: |\n      two\n      lines\n\"\": empty\n";
	assert_true(same_as_load("typed values", t, strlen(t)));
	json_t *j = doc_fast_json(t, strlen(t));
	char *s = dumped(j);
	assert_string_equal(s, "{\"s\":\"x\",\"q\":\"yes\",\"b\":true,\"z\":null,\"i\":31,\"f\":\"1.5e3\",\"g\":1500.0,"
			       "\"l\":[1,\"a\",{\"k\":\"v\"}],\"m\":[{\"x\":1,\"w\":\"two\\nlines\\n\"}],"
			       "\"\":\"empty\"}");
	free(s);
	json_decref(j);
	/* a decoded key outlives the decoded value after it (a plain key is
	 * borrowed from the text, a decoded one copied) */
	t = "'it''s': 'a''b'\n'x''y':\n  'p''q': r\n";
	assert_true(same_as_load("decoded keys", t, strlen(t)));
	j = doc_fast_json(t, strlen(t));
	s = dumped(j);
	assert_string_equal(s, "{\"it's\":\"a'b\",\"x'y\":{\"p'q\":\"r\"}}");
	free(s);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_our_texts),
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_left_to_doc_load),
		cmocka_unit_test(test_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
