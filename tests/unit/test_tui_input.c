/* The line editor and UTF-8 cell widths behind every text input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "tui/draw.h"
#include "tui/submit.h"
#include "tui/widget.h"

static void test_widths(void **state)
{
	(void)state;
	setlocale(LC_ALL, "C.UTF-8");
	assert_int_equal(utf8_width("abc", 3), 3);
	assert_int_equal(utf8_width("\xe6\x97\xa5\xe6\x9c\xac", 6), 4); /* two CJK: 2 cells each */
	assert_int_equal(utf8_width("e\xcc\x81", 3), 1);                /* e + combining acute */
	/* a wide character never splits across the edge */
	assert_int_equal(utf8_fit("a\xe6\x97\xa5" "b", 5, 2), 1);
	assert_int_equal(utf8_fit("a\xe6\x97\xa5" "b", 5, 3), 4);
	unsigned cp;
	assert_int_equal(utf8_decode("\xff", 1, &cp), 1);
	assert_int_equal(cp, 0xfffd);
	assert_int_equal(utf8_decode("\xe6\x97", 2, &cp), 1); /* truncated */
	assert_int_equal(cp, 0xfffd);
	assert_int_equal(utf8_decode("\xc0\x80", 2, &cp), 1); /* overlong */
	assert_int_equal(cp, 0xfffd);
	char buf[4];
	assert_int_equal(utf8_put(0x1f600, buf), 4);
	assert_memory_equal(buf, "\xf0\x9f\x98\x80", 4);
}

static void test_line_input(void **state)
{
	(void)state;
	struct line_input in;
	line_input_init(&in, "\xe6\x97\xa5\xe6\x9c\xac");
	assert_int_equal(in.n, 2);
	assert_int_equal(in.cursor, 2);
	assert_int_equal(line_input_key(&in, 0xe9), INPUT_CONTINUE); /* é */
	assert_int_equal(line_input_key(&in, K_FN(KEY_HOME)), INPUT_CONTINUE);
	assert_int_equal(line_input_key(&in, 'x'), INPUT_CONTINUE);
	char *t = line_input_text(&in);
	assert_string_equal(t, "x\xe6\x97\xa5\xe6\x9c\xac\xc3\xa9");
	free(t);
	line_input_key(&in, K_FN(KEY_RIGHT));
	line_input_key(&in, K_FN(KEY_BACKSPACE));
	t = line_input_text(&in);
	assert_string_equal(t, "x\xe6\x9c\xac\xc3\xa9");
	free(t);
	line_input_key(&in, K_CTRL('u'));
	t = line_input_text(&in);
	assert_string_equal(t, "\xe6\x9c\xac\xc3\xa9");
	free(t);
	line_input_key(&in, K_CTRL('k'));
	line_input_key(&in, K_CTRL('u')); /* empty: nothing to move */
	t = line_input_text(&in);
	assert_string_equal(t, "");
	free(t);
	assert_int_equal(line_input_key(&in, K_ENTER), INPUT_DONE);
	assert_int_equal(line_input_key(&in, K_ESC), INPUT_CANCEL);
	assert_int_equal(line_input_key(&in, K_FN(KEY_F(5))), INPUT_IGNORED);
	line_input_release(&in);
	line_input_init(&in, "run --port 9000");
	line_input_key(&in, K_CTRL('w'));
	t = line_input_text(&in);
	assert_string_equal(t, "run --port ");
	free(t);
	line_input_release(&in);
}

static void test_submit_argv(void **state)
{
	(void)state;
	struct strvec v = STRVEC_INIT;
	char *err = NULL;
	assert_int_equal(submit_argv(SUBMIT_DEFAULT, "a b.yaml", &v, &err), 0);
	assert_int_equal(v.n, 4);
	assert_string_equal(v.v[0], "srtctl");
	assert_string_equal(v.v[3], "a b.yaml");
	strvec_clear(&v);
	assert_int_equal(submit_argv("sbatch-wrap --q 'gpu a' \"x\\\"y\"", "r.yaml", &v, &err), 0);
	assert_int_equal(v.n, 5);
	assert_string_equal(v.v[2], "gpu a");
	assert_string_equal(v.v[3], "x\"y");
	assert_string_equal(v.v[4], "r.yaml"); /* appended: no {file} */
	strvec_clear(&v);
	assert_int_equal(submit_argv("go --recipe={file}", "r.yaml", &v, &err), 0);
	assert_int_equal(v.n, 2);
	assert_string_equal(v.v[1], "--recipe=r.yaml");
	strvec_clear(&v);
	/* inside a longer word {file} may reach a shell: quoted for one */
	assert_int_equal(submit_argv("sh -c 'srtctl apply -f {file}'", "x; touch pwned.yaml", &v,
				     &err), 0);
	assert_int_equal(v.n, 3);
	assert_string_equal(v.v[2], "srtctl apply -f 'x; touch pwned.yaml'");
	strvec_clear(&v);
	assert_int_equal(submit_argv("sh -c 'cat {file}'", "it's.yaml", &v, &err), 0);
	assert_string_equal(v.v[2], "cat 'it'\"'\"'s.yaml'");
	strvec_clear(&v);
	/* a word of its own stays one argument, unquoted */
	assert_int_equal(submit_argv("srtctl apply -f {file}", "x; touch p.yaml", &v, &err), 0);
	assert_string_equal(v.v[3], "x; touch p.yaml");
	/* and the line shown to copy is quoted */
	struct strbuf sb = STRBUF_INIT;
	submit_display(&sb, &v);
	assert_string_equal(sb_str(&sb), "srtctl apply -f 'x; touch p.yaml'");
	strbuf_release(&sb);
	strvec_clear(&v);
	assert_int_equal(submit_argv("go 'open", "r.yaml", &v, &err), -1);
	assert_string_equal(err, "unbalanced quote in the submit command 'go 'open'");
	free(err);
	err = NULL;
	strvec_clear(&v);
	assert_int_equal(submit_argv("   ", "r.yaml", &v, &err), -1);
	free(err);
	strvec_release(&v);
	assert_true(submit_found("sh"));
	assert_false(submit_found("no-such-program-srt-tui"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_widths),
		cmocka_unit_test(test_line_input),
		cmocka_unit_test(test_submit_argv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
