/* The previews as shown (tui/preview_rows.c): a text wrapped again only
 * where it changed must give exactly the rows text_wrap_all gives for the
 * whole text, after any edit, and say how many rows lie above a line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app_int.h"

/* What the view showed before the cache: text_wrap_all, one row a line. */
static char *wrap_whole(const char *text, int width)
{
	struct strvec rows = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	text_wrap_all(text, width, 2, &rows);
	for (size_t i = 0; i < rows.n; i++) {
		strbuf_addstr(&sb, rows.v[i]);
		strbuf_addch(&sb, '\n');
	}
	strvec_release(&rows);
	return strbuf_detach(&sb, NULL);
}

static int count_rows(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* s shows text at width as the whole wrap does, and at every line start
 * the rows above it are those of the lines before it. */
static void check(struct shown_text *s, const char *text, int width)
{
	shown_update(s, text, width);
	char *want = wrap_whole(text, width);
	if (strcmp(sb_str(&s->out), want))
		fail_msg("width %d, text:\n%s\nwant:\n%s\ngot:\n%s", width, text, want, sb_str(&s->out));
	free(want);
	for (size_t off = 0, len = strlen(text); off <= len; off++) {
		if (off && text[off - 1] != '\n')
			continue;
		char *head = strndup(text, off);
		char *rows = wrap_whole(head, width);
		int n = off ? count_rows(rows) : 0; /* no line: no row */
		assert_int_equal(shown_rows_before(s, off), n);
		free(rows);
		free(head);
	}
}

static void test_exact(void **state)
{
	(void)state;
	struct shown_text s = { 0 };
	shown_update(&s, "one\ntwo three four\n", 10);
	/* "two three four" at 10 cells: cut at the last space that fits, the
	 * continuation indented 2 (text_hang: no second column, extra 2) */
	assert_string_equal(sb_str(&s.out), "one\ntwo three\n  four\n");
	assert_int_equal(shown_rows_before(&s, 0), 0);
	assert_int_equal(shown_rows_before(&s, 4), 1);
	assert_int_equal(shown_rows_before(&s, 19), 3);
	/* the middle line changes, the first is kept */
	shown_update(&s, "one\ntwo\nfive\n", 10);
	assert_string_equal(sb_str(&s.out), "one\ntwo\nfive\n");
	assert_int_equal(shown_rows_before(&s, 8), 2);
	/* an empty text is one empty row, as text_wrap_all has it */
	shown_update(&s, "", 10);
	assert_string_equal(sb_str(&s.out), "\n");
	assert_int_equal(shown_rows_before(&s, 0), 0);
	shown_release(&s);
}

static void test_edits(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"job: 1 node\n\nnode-01 — head\n  1. agg_0_node-01\n       $ python3 -m dynamo.vllm "
		"--model /model --max-model-len 4096 --tensor-parallel-size 2\n  2. frontend\n",
		/* one flag's value in the long command */
		"job: 1 node\n\nnode-01 — head\n  1. agg_0_node-01\n       $ python3 -m dynamo.vllm "
		"--model /model --max-model-len 5001 --tensor-parallel-size 2\n  2. frontend\n",
		/* a step more at the end, no final newline */
		"job: 1 node\n\nnode-01 — head\n  1. agg_0_node-01\n       $ python3 -m dynamo.vllm "
		"--model /model --max-model-len 5001 --tensor-parallel-size 2\n  2. frontend\n  3. x",
		/* lines before it, the same after */
		"Nodes requested: 1\n\njob: 1 node\n\nnode-01 — head\n  1. agg_0_node-01\n       $ "
		"python3 -m dynamo.vllm --model /model --max-model-len 5001 --tensor-parallel-size 2\n"
		"  2. frontend\n  3. x",
		/* the end gone */
		"Nodes requested: 1\n\njob: 1 node\n",
		"Nodes requested: 1\n\njob: 1 node\n",
		"\n\n\n",
		"\n",
		"a\n\nb\n",
		"a\nb\n",
		"  key    a value long enough to hang under its column\nz\n",
	};
	struct shown_text s = { 0 };
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		check(&s, texts[i], 24);
	/* a new width wraps everything again */
	check(&s, texts[0], 30);
	check(&s, texts[1], 12);
	shown_release(&s);
}

/* Random splices of pieces that wrap, hang, or are blank, from a fixed
 * seed: every text is checked against the whole wrap. */
static void test_random(void **state)
{
	(void)state;
	static const char *const pieces[] = { "a", "bb b", "\n", "  key    value that wraps at last",
					      "$ cmd --flag x --other y --more z", "\n\n", "x y z", "",
					      "   " };
	unsigned long seed = 12345;
	struct strbuf t = STRBUF_INIT;
	for (int it = 0; it < 400; it++) {
		struct shown_text s = { 0 };
		int width = 4 + (int)(seed % 20);
		strbuf_reset(&t);
		for (int k = 0; k < 8; k++) {
			seed = seed * 6364136223846793005UL + 1442695040888963407UL;
			size_t len = t.len, a = len ? (seed >> 33) % (len + 1) : 0;
			size_t b = a + (len - a ? (seed >> 17) % (len - a + 1) : 0);
			struct strbuf n = STRBUF_INIT;
			strbuf_add(&n, t.buf ? t.buf : "", a);
			for (unsigned long r = seed >> 40, p = 0; p < r % 4; p++, r /= 9)
				strbuf_addstr(&n, pieces[r % 9]);
			strbuf_addstr(&n, t.buf ? t.buf + b : "");
			strbuf_release(&t);
			t = n;
			check(&s, sb_str(&t), width);
		}
		shown_release(&s);
	}
	strbuf_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_edits),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
