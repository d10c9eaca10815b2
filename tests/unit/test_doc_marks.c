/*
 * The index is built from one libyaml pass (events); where a scalar's value
 * starts after &anchor / !tag and where each block sequence item's '-' is
 * are read from the text.  This test checks those against libyaml's own
 * token scanner, which reports both directly (a SCALAR token starts at the
 * value, a BLOCK-ENTRY token at the '-'): for every scalar node, its value
 * start, line and column are the start of the scalar token that ends where
 * the node ends; for every item of a block sequence, its dash is the last
 * block entry before the item; a block sequence starts at its first dash.
 * Over hand-written corner cases, every example and, when present, every
 * reference recipe.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <yaml.h>

#include "model/doc_internal.h"
#include "tests/unit/testutil.h"

struct tok {
	size_t start, end;
	int line, col;
};

struct toks {
	struct tok *scal, *dash;
	size_t nscal, ascal, ndash, adash;
};

/* libyaml marks count characters: the byte of character ci. */
static size_t byte_of(const char *s, size_t len, size_t body, size_t ci)
{
	size_t b = body;
	while (ci && b < len) {
		b++;
		while (b < len && ((unsigned char)s[b] & 0xC0) == 0x80)
			b++;
		ci--;
	}
	return b;
}

static void scan(const char *s, size_t len, size_t body, struct toks *t)
{
	yaml_parser_t p;
	yaml_token_t k;
	memset(t, 0, sizeof(*t));
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)s, len);
	while (yaml_parser_scan(&p, &k)) {
		int type = k.type;
		struct tok x = { byte_of(s, len, body, k.start_mark.index), byte_of(s, len, body, k.end_mark.index),
				 (int)k.start_mark.line, (int)k.start_mark.column };
		if (type == YAML_SCALAR_TOKEN) {
			ALLOC_GROW(t->scal, t->nscal + 1, t->ascal);
			t->scal[t->nscal++] = x;
		} else if (type == YAML_BLOCK_ENTRY_TOKEN) {
			ALLOC_GROW(t->dash, t->ndash + 1, t->adash);
			t->dash[t->ndash++] = x;
		}
		yaml_token_delete(&k);
		if (type == YAML_STREAM_END_TOKEN)
			break;
	}
	yaml_parser_delete(&p);
}

/* Checks one text; returns the number of marks compared. */
static int check_text(const char *what, const char *s, size_t len)
{
	struct doc_index ix;
	if (doc_index_build(&ix, what, s, len, NULL, 1) < 0)
		return 0; /* not a recipe document: nothing to compare */
	struct toks t;
	scan(s, len, ix.body, &t);
	int compared = 0;
	for (size_t i = 0; i < ix.nall; i++) {
		const struct doc_node *n = ix.all[i];
		if (n->kind == DOC_SCALAR && n->raw_end > n->start) {
			const struct tok *k = NULL;
			for (size_t j = 0; j < t.nscal; j++)
				if (t.scal[j].end == n->raw_end && t.scal[j].start >= n->start)
					k = &t.scal[j];
			if (k) {
				if (n->vstart != k->start || n->line != k->line || n->col != k->col)
					fail_msg("%s: scalar '%s' at byte %zu: value start %zu line %d col %d, "
						 "the scanner says %zu line %d col %d", what, n->text, n->start,
						 n->vstart, n->line + 1, n->col, k->start, k->line + 1, k->col);
				compared++;
			}
		}
		const struct doc_node *par = n->parent;
		if (par && par->kind == DOC_SEQ && !par->flow) {
			size_t at = n->start + (n->start == n->end && n->kind == DOC_SCALAR);
			const struct tok *d = NULL;
			for (size_t j = 0; j < t.ndash; j++)
				if (t.dash[j].start < at)
					d = &t.dash[j];
			assert_non_null(d);
			if (n->dash != d->start || n->dash_line != d->line || n->dash_col != d->col)
				fail_msg("%s: item at byte %zu: dash %zu line %d col %d, the scanner says %zu line %d "
					 "col %d", what, n->start, n->dash, n->dash_line + 1, n->dash_col, d->start,
					 d->line + 1, d->col);
			if (par->kids[0] == n && (par->vstart != d->start || par->line != d->line || par->col != d->col))
				fail_msg("%s: sequence at byte %zu starts at %zu, its first dash is at %zu", what,
					 par->start, par->vstart, d->start);
			compared++;
		}
	}
	free(t.scal);
	free(t.dash);
	doc_index_release(&ix);
	return compared;
}

static const char *const cases[] = {
	"a: &x 1\nb: *x\n",
	"a: !!str 1\nb: !custom  two\n",
	"a: &x !!str\n  # a comment between the properties and the value\n  three\n",
	"a: &x\nb: 2\n", /* properties and no value */
	"a: !<tag:yaml.org,2002:str> v\n",
	"l:\n  - 1\n  -   2\n  - # comment\n    3\n  -\n  - &a 4\n  - !!str 5\n",
	"l:\n- a\n- b: 1\n  c: 2\n- - x\n  - - y\n    - z\n",
	"l:\n  -\n\n    # only a comment line, then the value\n\n    deep\n",
	"l:\n  - # a - dash in a comment\n    v\n",
	"l: [a, &b b, !t c]\nm: {k: &v v, j: !t w}\n",
	"l:\r\n  - 1\r\n  -\r\n    two\r\nk: &a\r\n  v\r\n",
	"ü: ä\nl:\n  - é\n  - &ñ ß\n  -   \xe2\x82\xac\n",
	"\xEF\xBB\xBFl:\n  - 1\n",
	"s: &x |\n  text\n  more\nt: !!str >-\n  folded\n",
	"l:\n  - ? complex\n    : value\n  - ? [1, 2]\n    : v\n",
	"k: - not a sequence\n",
	"l:\n  - 'quoted # not a comment'\n  - \"x\"   # a comment\n  - - - triple\n",
};

static void test_cases(void **state)
{
	(void)state;
	int n = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char what[32];
		snprintf(what, sizeof(what), "case %zu", i);
		n += check_text(what, cases[i], strlen(cases[i]));
	}
	assert_true(n > 40);
}

static int check_dir(const char *dir)
{
	DIR *dp = opendir(dir);
	int n = 0;
	if (!dp)
		return -1;
	struct dirent *de;
	while ((de = readdir(dp))) {
		size_t l = strlen(de->d_name);
		if (l < 6 || strcmp(de->d_name + l - 5, ".yaml"))
			continue;
		char *p = xasprintf("%s/%s", dir, de->d_name);
		size_t len;
		char *s = tu_slurp_len(p, &len);
		if (s)
			n += check_text(p, s, len);
		free(s);
		free(p);
	}
	closedir(dp);
	return n;
}

static void test_examples(void **state)
{
	(void)state;
	char *dir = tu_srcpath("examples");
	int n = check_dir(dir);
	free(dir);
	assert_true(n > 100);
}

static void test_reference(void **state)
{
	(void)state;
	static const char *const sub[] = { "", "upstream/examples" };
	for (size_t i = 0; i < 2; i++) {
		char *dir = tu_reference(sub[i]);
		if (!dir)
			return;
		int n = check_dir(dir);
		printf("reference%s%s: %d marks compared\n", *sub[i] ? "/" : "", sub[i], n);
		free(dir);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_examples),
		cmocka_unit_test(test_reference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
