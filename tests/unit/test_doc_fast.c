/*
 * model/doc_fast.c reads the block YAML of recipes without libyaml, and its
 * contract is to give exactly libyaml's events (types, styles, marks and
 * values) or to give up.  libyaml itself is the oracle here: every text
 * below is read both ways, and whenever doc_fast accepts a text its events
 * must equal yaml_parser_parse's, which must not fail.
 *   - hand-written corner cases: where collections end (the next content
 *     line, or the end of the text, with libyaml's move to a new line when
 *     the last has no line break), empty values, sequences at the column of
 *     their key, block scalars (chomping, blank lines, indentation), flow
 *     collections, quotes, comments, UTF-8, a byte order mark;
 *   - what it must give up on (anchors, tags, escapes, tabs, CR, multi-line
 *     scalars, syntax errors...), so libyaml keeps its messages;
 *   - every example (all of which it must read: that is what makes
 *     `validate` fast), our fixtures, the fuzz seeds and regressions, the
 *     reference recipes when present;
 *   - thousands of deterministic mutations of those (bytes and indicators
 *     inserted, deleted, replaced; lines indented, dedented, deleted,
 *     repeated).
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

#include <yaml.h>

#include "model/doc_fast.h"
#include "tests/unit/testutil.h"

enum want { ANY, READS, GIVES_UP };

static void show(const char *who, const struct doc_event *e)
{
	print_message("  %s: type %d style %d start %zu/%d/%d end %zu/%d/%d '%.*s'\n", who, e->type, e->style,
		      e->start.index, e->start.line, e->start.col, e->end.index, e->end.line, e->end.col,
		      (int)(e->len > 60 ? 60 : e->len), e->value ? e->value : "");
}

/* 1 when doc_fast read the text (and agreed with libyaml), 0 when it gave up. */
static int check(const char *what, const char *s, size_t len, enum want want)
{
	struct doc_events fast, ly;
	int fr = doc_fast_events(s, len, &fast);
	if (fr < 0) {
		assert_int_equal(fast.n, 0);
		if (want == READS)
			fail_msg("%s: doc_fast gave up on it", what);
		return 0;
	}
	if (want == GIVES_UP)
		fail_msg("%s: doc_fast read what it should leave to libyaml", what);
	int lr = doc_libyaml_events(s, len, &ly);
	long at = doc_events_differ(&fast, &ly);
	if (lr < 0 || at >= 0) {
		print_message("%s: text:\n%.*s\n", what, (int)len, s);
		if (at >= 0 && (size_t)at < fast.n)
			show("doc_fast", &fast.v[at]);
		if (at >= 0 && (size_t)at < ly.n)
			show("libyaml ", &ly.v[at]);
		fail_msg("%s: %s", what, lr < 0 ? "libyaml refuses what doc_fast read" : "the events differ");
	}
	doc_events_release(&fast);
	doc_events_release(&ly);
	return 1;
}

static const struct {
	const char *text;
	enum want want;
} cases[] = {
	/* where collections end */
	{ "a: 1", READS },
	{ "a: 1\n", READS },
	{ "a: 1\n# the end, no line break", READS },
	{ "a:\n  b: 1\n  c:\n    d: 2\n  ", READS },   /* the last line's column ends c, then a */
	{ "a:\n  b: 1\n  c:\n    d: 2\n     ", READS }, /* ... and here none before the new line */
	{ "a:\n  b:\n    c: 1\n # x", READS },
	{ "a:\n  b:\n", READS },
	{ "a:\n  b:", READS },
	{ "a:   \n  b:   # c\n", READS },
	{ "  a: 1\n  b: 2\n", READS },
	{ "a: x\n\n\n   \nb: y\n   ", READS },
	{ "a:\n\n  b: 1\n", READS },
	/* sequences, with and without their own indentation */
	{ "a:\n- 1\n- 2\nb: 3", READS },
	{ "a:\n- 1\n- 2", READS },
	{ "a:\n  - 1\n  - 2\n", READS },
	{ "a:\n  - x: 1\n    y: 2\n  - z\n", READS },
	{ "a:\n  -   x: 1\n      y:\n      - q\n", READS },
	{ "a:\n    - 1\n    - 2\nb:\n  - c: |\n      x\n    d: 2\n", READS },
	{ "k: --flag\nl:\n  - -1\n  - --x=y\n", READS },
	/* block scalars */
	{ "a: |\n  line1\n\n  line2\n\n\nb: 1\n", READS },
	{ "a: |-\n  x\n\n", READS },
	{ "a: |+\n  x\n\n\n", READS },
	{ "a: |+\n  x\n\n\nb: 2", READS },
	{ "a: |\nb: 1\n", READS },
	{ "a: |", READS },
	{ "a: | # c\n  t\n", READS },
	{ "a: |\n  t", READS },
	{ "a: |\n  t\n   u\n  v \nb:", READS },
	{ "a: |\n  t\n  # part of the text\nb: 1\n", READS },
	{ "x:\n  a: |\n    t\n  b: 2\n", READS },
	{ "l:\n  - |\n    t\n  - u\n", READS },
	{ "l:\n- |\n  t\n- u\n", READS },
	{ "a: >\n  one\n  two\n\n  three\n   more\n  four\nb: 1\n", READS },
	{ "a: >-\n  {\"k\": 1,\n   \"j\": 2}\n", READS },
	{ "a: >+\n  x\n\n", READS },
	{ "a:\n  value on the next line\nb: 1\n", READS },
	{ "a:\n  'quoted on the next line'\n", READS },
	/* flow collections and scalars */
	{ "a: [1, 2, [3]]\nb: {x: 1, y: [a, b]}\nc: []\nd: {}\n", READS },
	{ "a: { x: 1 , y : 2 }\n", READS },
	{ "a: [ a , b ]\n", READS },
	{ "a: [a b, c d]\n", READS },
	{ "a: 'it''s'\nb: \"q\"\n'c d': 1\n\"e\": 2\n", READS },
	{ "a: x # c\nb: y#z\nc: a:b\n", READS },
	{ "a: 'x' # c\nb: [1] # d\n", READS },
	{ "a: ü\nb: \"é\" # ×\n", READS },
	{ "\xEF\xBB\xBF" "a: 1\n", READS },
	{ "# only\n\n", READS },
	{ "", READS },
	{ "\n\n", READS },
	/* left to libyaml */
	{ "a: &x 1\nb: *x\n", GIVES_UP },
	{ "a: !!str 1\n", GIVES_UP },
	{ "a: \"x\\ty\"\n", GIVES_UP },
	{ "a:\tb\n", GIVES_UP },
	{ "a: 1\r\n", GIVES_UP },
	{ "a: plain\n  continued\n", GIVES_UP },
	{ "a: 'quoted\n  continued'\n", GIVES_UP },
	{ "a: [1,\n  2]\n", GIVES_UP },
	{ "a: b: c\n", GIVES_UP },
	{ "a: |2\n  x\n", GIVES_UP },
	{ "? complex\n: value\n", GIVES_UP },
	{ "- top\n- list\n", GIVES_UP },
	{ "---\na: 1\n", GIVES_UP },
	{ "a: 1\n---\nb: 2\n", GIVES_UP },
	{ "%YAML 1.1\n---\na: 1\n", GIVES_UP },
	{ "a: [1, 2,]\n", GIVES_UP },
	{ "a:\n  b: 1\n c: 2\n", GIVES_UP },
	{ "a: 1\n  b: 2\n", GIVES_UP },
	{ "a:\n- 1\n  - 2\n", GIVES_UP },
	{ "a: \x01\n", GIVES_UP },
	{ "a: \xC3\n", GIVES_UP },
	{ "a: \xE2\x80\xA8\n", GIVES_UP }, /* U+2028 breaks a line for libyaml */
	{ "a: 'x'y\n", GIVES_UP },
};

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char what[32];
		snprintf(what, sizeof(what), "case %zu", i);
		check(what, cases[i].text, strlen(cases[i].text), cases[i].want);
	}
}

/* The scans that take sixteen or eight bytes at a time (doc_fast.c's find3
 * and readable) must find a byte wherever it falls: each byte below at every
 * place of 40 bytes, alone in a key or in a plain or quoted value.  A control
 * or DEL must be left to libyaml; the others read as libyaml reads them. */
static void test_every_offset(void **state)
{
	(void)state;
	static const struct {
		unsigned char byte;
		enum want want;
	} bytes[] = {
		{ 0x01, GIVES_UP }, { 0x1F, GIVES_UP }, { 0x7F, GIVES_UP }, { 0x80, GIVES_UP },
		{ 0xFF, GIVES_UP }, { ':', ANY }, { '#', ANY }, { ' ', ANY }, { '\'', ANY },
		{ '"', ANY }, { '\\', ANY }, { '\n', ANY }, { 'z', READS },
	};
	for (size_t b = 0; b < sizeof(bytes) / sizeof(bytes[0]); b++) {
		for (size_t at = 0; at < 40; at++) {
			char text[128], what[64];
			char value[41];
			memset(value, 'v', 40);
			value[40] = 0;
			value[at] = (char)bytes[b].byte;
			int n = snprintf(text, sizeof(text), "k%s: 1\nlast: 2\n", value);
			snprintf(what, sizeof(what), "byte 0x%02x at %zu of a key", bytes[b].byte, at);
			check(what, text, (size_t)n, bytes[b].want);
			n = snprintf(text, sizeof(text), "key: %s\nlast: 2\n", value);
			snprintf(what, sizeof(what), "byte 0x%02x at %zu of a value", bytes[b].byte, at);
			check(what, text, (size_t)n, bytes[b].want);
			for (const char *q = "'\""; *q; q++) {
				n = snprintf(text, sizeof(text), "key: %c%s%c\nlast: 2\n", *q, value, *q);
				snprintf(what, sizeof(what), "byte 0x%02x at %zu of a %c-quoted value",
					 bytes[b].byte, at, *q);
				check(what, text, (size_t)n, bytes[b].want);
			}
		}
	}
}

/* The marks spelt out for one text, as libyaml 0.2 gives them: a sequence
 * at its key's column runs from its '-' to after it and ends where the next
 * key starts; the empty value is marked just after its ':'; the mapping
 * ends at the end of the text, moved to the start of a new line (line 3,
 * column 0) since the last line has no line break. */
static void test_marks_spelt_out(void **state)
{
	(void)state;
	const char *t = "a:\n- x\nb:";
	struct doc_events ev;
	assert_int_equal(doc_fast_events(t, strlen(t), &ev), 0);
	static const struct {
		int type;
		size_t start, end;
		int line, col;
	} want[] = {
		{ YAML_STREAM_START_EVENT, 0, 0, 0, 0 },   { YAML_DOCUMENT_START_EVENT, 0, 0, 0, 0 },
		{ YAML_MAPPING_START_EVENT, 0, 0, 0, 0 },  { YAML_SCALAR_EVENT, 0, 1, 0, 0 },
		{ YAML_SEQUENCE_START_EVENT, 3, 4, 1, 0 }, { YAML_SCALAR_EVENT, 5, 6, 1, 2 },
		{ YAML_SEQUENCE_END_EVENT, 7, 7, 2, 0 },   { YAML_SCALAR_EVENT, 7, 8, 2, 0 },
		{ YAML_SCALAR_EVENT, 9, 9, 2, 2 },         { YAML_MAPPING_END_EVENT, 9, 9, 3, 0 },
		{ YAML_DOCUMENT_END_EVENT, 9, 9, 3, 0 },   { YAML_STREAM_END_EVENT, 9, 9, 3, 0 },
	};
	assert_int_equal(ev.n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < ev.n; i++) {
		assert_int_equal(ev.v[i].type, want[i].type);
		assert_int_equal(ev.v[i].start.index, want[i].start);
		assert_int_equal(ev.v[i].end.index, want[i].end);
		assert_int_equal(ev.v[i].start.line, want[i].line);
		assert_int_equal(ev.v[i].start.col, want[i].col);
	}
	doc_events_release(&ev);
	check("spelt out", t, strlen(t), READS);
}

/* The index takes doc_fast's events as they come; when doc_fast gives up
 * late, what the index made of them (here a duplicate key warning, given
 * when the mapping `m` closed) is dropped and libyaml reads the text from
 * the start: the warning is there once, with libyaml's position. */
static void test_late_give_up(void **state)
{
	(void)state;
	const char *t = "m:\n  a: 1\n  a: 2\nn: &x 1\nk: *x\n";
	struct doc_events ev;
	assert_int_equal(doc_fast_events(t, strlen(t), &ev), -1);
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load("late.yaml", t, strlen(t), &dl);
	assert_non_null(d);
	assert_int_equal(dl.n, 1);
	assert_string_equal(dl.v[0].code, "yaml-duplicate-key");
	assert_int_equal(dl.v[0].line, 3);
	assert_int_equal(dl.v[0].col, 3);
	assert_int_equal(doc_lint(d)->n, 1);
	json_t *j = doc_json(d);
	char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(s, "{\"k\":1,\"m\":{\"a\":2},\"n\":1}");
	free(s);
	json_decref(j);
	doc_free(d);
	diag_list_release(&dl);
}

/* More values than an index takes (DOC_MAX_NODES) in a text doc_fast reads:
 * the refusal is libyaml's reading's, at the value past the limit (the
 * 100,001st: the root, then keys and values two a line, so the value of
 * line 50,000). */
static void test_too_many_values(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < 60000; i++)
		strbuf_addf(&sb, "k%d: 1\n", i);
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load("big.yaml", sb.buf, sb.len, &dl);
	assert_null(d);
	assert_int_equal(dl.n, 1);
	assert_string_equal(dl.v[0].code, "yaml-too-big");
	assert_int_equal(dl.v[0].line, 50000);
	assert_int_equal(dl.v[0].col, 9);
	diag_list_release(&dl);
	strbuf_release(&sb);
}

/* ---- corpus and mutations -------------------------------------------- */

struct tally {
	size_t files, read, mutants, mutants_read;
};

static uint32_t rnd(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* One edit of t (len bytes, room for 2 * len + 16) in place; returns the
 * new length. */
static size_t mutate(char *t, size_t len, uint32_t *seed)
{
	static const char ins[] = " -:#'\"[]{},|>\n&*!?a0.+";
	size_t pos = len ? rnd(seed) % len : 0;
	int op = (int)(rnd(seed) % 9);
	char c = ins[rnd(seed) % (sizeof(ins) - 1)];
	size_t ls = pos, le = pos;
	while (ls > 0 && t[ls - 1] != '\n')
		ls--;
	while (le < len && t[le] != '\n')
		le++;
	le += le < len;
	switch (op) {
	case 0: /* delete a byte */
		if (len) {
			memmove(t + pos, t + pos + 1, len - pos - 1);
			len--;
		}
		break;
	case 1: /* insert an indicator */
		memmove(t + pos + 1, t + pos, len - pos);
		t[pos] = c;
		len++;
		break;
	case 2: /* replace a byte */
		if (len)
			t[pos] = c;
		break;
	case 3: /* insert a blank and an indicator */
		memmove(t + pos + 2, t + pos, len - pos);
		t[pos] = ' ';
		t[pos + 1] = c;
		len += 2;
		break;
	case 4: /* indent a line */
	case 8:
		memmove(t + ls + 1, t + ls, len - ls);
		t[ls] = ' ';
		len++;
		break;
	case 5: /* dedent a line */
		if (ls < len && t[ls] == ' ') {
			memmove(t + ls, t + ls + 1, len - ls - 1);
			len--;
		}
		break;
	case 6: /* delete a line */
		memmove(t + ls, t + le, len - le);
		len -= le - ls;
		break;
	default: /* repeat a line */
		memmove(t + le + (le - ls), t + le, len - le);
		memcpy(t + le, t + ls, le - ls);
		len += le - ls;
		break;
	}
	return len;
}

static void check_file(const char *path, enum want want, int mutants, struct tally *t)
{
	size_t len;
	char *s = tu_slurp_len(path, &len);
	if (!s)
		return;
	t->files++;
	t->read += (size_t)check(path, s, len, want);
	uint32_t seed = (uint32_t)len * 2654435761u;
	char *m = xmalloc(4 * len + 64);
	for (int k = 0; k < mutants; k++) {
		/* one edit, or two on top of each other */
		memcpy(m, s, len);
		size_t n = mutate(m, len, &seed);
		if (k & 1)
			n = mutate(m, n, &seed);
		char what[512];
		snprintf(what, sizeof(what), "%s, mutant %d", path, k);
		t->mutants++;
		t->mutants_read += (size_t)check(what, m, n, ANY);
	}
	free(m);
	free(s);
}

static void check_dir(const char *dir, enum want want, int mutants, struct tally *t)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		char *p = xasprintf("%s/%s", dir, name);
		if (name[0] != '.') {
			struct stat st;
			if (!stat(p, &st) && S_ISDIR(st.st_mode))
				check_dir(p, want, mutants, t);
			else
				check_file(p, want, mutants, t);
		}
		free(p);
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

static void test_examples(void **state)
{
	(void)state;
	struct tally t = { 0, 0, 0, 0 };
	char *dir = tu_srcpath("examples");
	check_dir(dir, READS, 400, &t);
	free(dir);
	assert_true(t.files >= 5);
	print_message("examples: %zu read; %zu of %zu mutants read, all as libyaml does\n", t.read,
		      t.mutants_read, t.mutants);
	assert_true(t.mutants_read > t.mutants / 4);
}

static void test_fixtures_and_fuzz_inputs(void **state)
{
	(void)state;
	static const char *const dirs[] = { "tests/fixtures", "fuzz/seeds", "fuzz/regress" };
	struct tally t = { 0, 0, 0, 0 };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char *dir = tu_srcpath(dirs[i]);
		check_dir(dir, ANY, 60, &t);
		free(dir);
	}
	print_message("fixtures and fuzz inputs: %zu of %zu read; %zu of %zu mutants read\n", t.read, t.files,
		      t.mutants_read, t.mutants);
	assert_true(t.files > 30 && t.read > 10);
}

static void test_reference(void **state)
{
	(void)state;
	char *dir = tu_reference("");
	if (!dir)
		return;
	struct tally t = { 0, 0, 0, 0 };
	check_dir(dir, ANY, 40, &t);
	free(dir);
	print_message("reference: %zu of %zu files read; %zu of %zu mutants read\n", t.read, t.files,
		      t.mutants_read, t.mutants);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_every_offset),
		cmocka_unit_test(test_marks_spelt_out),
		cmocka_unit_test(test_late_give_up),
		cmocka_unit_test(test_too_many_values),
		cmocka_unit_test(test_examples),
		cmocka_unit_test(test_fixtures_and_fuzz_inputs),
		cmocka_unit_test(test_reference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
