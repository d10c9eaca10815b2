/* text_merge3: a save that finds the file changed on disk merges the two sets
 * of changes when they touch different lines, and refuses (naming the line)
 * when they change the same lines differently.  Expected texts are written
 * out by hand; the random case checks the merge against applying both edit
 * lists to the base directly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/textdiff.h"
#include "lib/util.h"

static int merge(const char *base, const char *ours, const char *theirs, struct strbuf *out,
		 size_t *line)
{
	strbuf_reset(out);
	return text_merge3(out, base, strlen(base), ours, strlen(ours), theirs, strlen(theirs),
			   line);
}

static const char BASE[] = "schema: 2\n"
			   "name: r\n"
			   "model:\n"
			   "  path: /m\n"
			   "  container: c\n"
			   "roles:\n"
			   "  agg:\n"
			   "    workers: 1\n"
			   "    gpus: 8\n";

static void test_disjoint(void **state)
{
	(void)state;
	struct strbuf out = STRBUF_INIT;
	size_t line = 0;
	/* ours changes the name, theirs the workers: both kept */
	assert_int_equal(merge(BASE,
			       "schema: 2\nname: mine\nmodel:\n  path: /m\n  container: c\n"
			       "roles:\n  agg:\n    workers: 1\n    gpus: 8\n",
			       "schema: 2\nname: r\nmodel:\n  path: /m\n  container: c\n"
			       "roles:\n  agg:\n    workers: 6\n    gpus: 8\n",
			       &out, &line),
			 0);
	assert_string_equal(sb_str(&out), "schema: 2\nname: mine\nmodel:\n  path: /m\n"
					  "  container: c\nroles:\n  agg:\n    workers: 6\n    gpus: 8\n");
	/* neighbouring lines: two keys side by side, order not in doubt */
	assert_int_equal(merge(BASE,
			       "schema: 2\nname: r\nmodel:\n  path: /other\n  container: c\n"
			       "roles:\n  agg:\n    workers: 1\n    gpus: 8\n",
			       "schema: 2\nname: r\nmodel:\n  path: /m\n  container: d\n"
			       "roles:\n  agg:\n    workers: 1\n    gpus: 8\n",
			       &out, &line),
			 0);
	assert_string_equal(sb_str(&out), "schema: 2\nname: r\nmodel:\n  path: /other\n"
					  "  container: d\nroles:\n  agg:\n    workers: 1\n    gpus: 8\n");
	/* an insertion on one side, a deletion on the other */
	assert_int_equal(merge(BASE,
			       "schema: 2\nname: r\nmodel:\n  path: /m\n  container: c\n"
			       "roles:\n  agg:\n    workers: 1\n    gpus: 8\n    nodes: 1\n",
			       "schema: 2\nmodel:\n  path: /m\n  container: c\n"
			       "roles:\n  agg:\n    workers: 1\n    gpus: 8\n",
			       &out, &line),
			 0);
	assert_string_equal(sb_str(&out), "schema: 2\nmodel:\n  path: /m\n  container: c\n"
					  "roles:\n  agg:\n    workers: 1\n    gpus: 8\n    nodes: 1\n");
	strbuf_release(&out);
}

static void test_same_change_and_no_change(void **state)
{
	(void)state;
	struct strbuf out = STRBUF_INIT;
	const char *both = "schema: 2\nname: r\nmodel:\n  path: /m\n  container: c\n"
			   "roles:\n  agg:\n    workers: 4\n    gpus: 8\n";
	/* the same edit made twice is made once */
	assert_int_equal(merge(BASE, both, both, &out, NULL), 0);
	assert_string_equal(sb_str(&out), both);
	/* nothing changed on disk: ours as it is; nothing of ours: theirs */
	assert_int_equal(merge(BASE, both, BASE, &out, NULL), 0);
	assert_string_equal(sb_str(&out), both);
	assert_int_equal(merge(BASE, BASE, both, &out, NULL), 0);
	assert_string_equal(sb_str(&out), both);
	/* all empty */
	assert_int_equal(merge("", "", "", &out, NULL), 0);
	assert_int_equal(out.len, 0);
	/* a new file on both sides from nothing, the same */
	assert_int_equal(merge("", "a: 1\n", "a: 1\n", &out, NULL), 0);
	assert_string_equal(sb_str(&out), "a: 1\n");
	strbuf_release(&out);
}

static void test_conflicts(void **state)
{
	(void)state;
	struct strbuf out = STRBUF_INIT;
	size_t line = 0;
	/* the same line changed two ways: refused at that line (8) */
	assert_int_equal(merge(BASE,
			       "schema: 2\nname: r\nmodel:\n  path: /m\n  container: c\n"
			       "roles:\n  agg:\n    workers: 2\n    gpus: 8\n",
			       "schema: 2\nname: r\nmodel:\n  path: /m\n  container: c\n"
			       "roles:\n  agg:\n    workers: 3\n    gpus: 8\n",
			       &out, &line),
			 1);
	assert_int_equal(line, 8);
	assert_int_equal(out.len, 0);
	/* two insertions at one place: which goes first is not known.  Ours
	 * added a line before, so the place is line 4 of ours. */
	line = 0;
	assert_int_equal(merge("a\nb\nc\n", "x\na\nb\nmine\nc\n", "a\nb\ntheirs\nc\n", &out, &line),
			 1);
	assert_int_equal(line, 4);
	/* an insertion inside lines the other side rewrote */
	line = 0;
	assert_int_equal(merge("a\nb\nc\nd\n", "a\nb\nnew\nc\nd\n", "a\nB\nC\nd\n", &out, &line), 1);
	assert_int_equal(line, 2);
	/* the last line without a newline, changed two ways */
	assert_int_equal(merge("a\nb", "a\nc", "a\nd", &out, &line), 1);
	assert_int_equal(line, 2);
	strbuf_release(&out);
}

static void test_edges(void **state)
{
	(void)state;
	struct strbuf out = STRBUF_INIT;
	/* an insertion before a line the other side changes: insertion first */
	assert_int_equal(merge("a\nb\nc\n", "a\nnew\nb\nc\n", "a\nB\nc\n", &out, NULL), 0);
	assert_string_equal(sb_str(&out), "a\nnew\nB\nc\n");
	assert_int_equal(merge("a\nb\nc\n", "a\nB\nc\n", "a\nnew\nb\nc\n", &out, NULL), 0);
	assert_string_equal(sb_str(&out), "a\nnew\nB\nc\n");
	/* a newline added at the end on one side, a first line changed on the other */
	assert_int_equal(merge("a\nb", "a\nb\n", "A\nb", &out, NULL), 0);
	assert_string_equal(sb_str(&out), "A\nb\n");
	/* both sides delete the same line: once */
	assert_int_equal(merge("a\nb\nc\n", "a\nc\n", "a\nc\n", &out, NULL), 0);
	assert_string_equal(sb_str(&out), "a\nc\n");
	strbuf_release(&out);
}

/* Blocks of four lines; ours edits lines 1-2 of the even blocks, theirs of
 * the odd ones (replace, delete, or insert after line 1).  Line 0 and 3 of
 * every block stay, so no two edits are ever at one place. */
static void edit_block(struct strbuf *sb, int blk, int op, const char *who)
{
	for (int l = 0; l < 4; l++) {
		int mid = l == 1 || l == 2;
		if (mid && op == 1) {
			strbuf_addf(sb, "%s %d.%d\n", who, blk, l);
			continue;
		}
		if (mid && op == 2)
			continue;
		strbuf_addf(sb, "line %d.%d\n", blk, l);
		if (l == 1 && op == 3)
			strbuf_addf(sb, "%s added %d\n", who, blk);
	}
}

static void test_random(void **state)
{
	(void)state;
	srand(7);
	for (int round = 0; round < 300; round++) {
		int nblk = 1 + rand() % 40;
		int *op = xcalloc((size_t)nblk, sizeof(int));
		struct strbuf b = STRBUF_INIT, o = STRBUF_INIT, t = STRBUF_INIT, want = STRBUF_INIT,
			      out = STRBUF_INIT;
		for (int k = 0; k < nblk; k++) {
			op[k] = rand() % 4; /* 0: untouched */
			edit_block(&b, k, 0, "");
			edit_block(&o, k, k % 2 ? 0 : op[k], "ours");
			edit_block(&t, k, k % 2 ? op[k] : 0, "theirs");
			edit_block(&want, k, op[k], k % 2 ? "theirs" : "ours");
		}
		size_t line = 0;
		assert_int_equal(text_merge3(&out, sb_str(&b), b.len, sb_str(&o), o.len, sb_str(&t),
					     t.len, &line),
				 0);
		assert_string_equal(sb_str(&out), sb_str(&want));
		strbuf_release(&b);
		strbuf_release(&o);
		strbuf_release(&t);
		strbuf_release(&want);
		strbuf_release(&out);
		free(op);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disjoint),
		cmocka_unit_test(test_same_change_and_no_change),
		cmocka_unit_test(test_conflicts),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
