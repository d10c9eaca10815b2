/* shlex.quote / shlex.join clone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "lib/shell.h"

static void expect_quote(const char *in, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	shell_quote(&sb, in);
	assert_string_equal(sb_str(&sb), want);
	strbuf_release(&sb);
}

static void test_shell(void **state)
{
	(void)state;
	expect_quote("", "''");
	expect_quote("abc-DEF_1@%+=:,./", "abc-DEF_1@%+=:,./");
	expect_quote("a b", "'a b'");
	expect_quote("it's", "'it'\"'\"'s'");
	expect_quote("{\"k\": 1}", "'{\"k\": 1}'");
	expect_quote("caf\xc3\xa9", "'caf\xc3\xa9'");
	expect_quote("$HOME", "'$HOME'");
	char *argv[] = { "python3", "-m", "sglang.launch_server", "--json", "{\"a\":1}", "" };
	struct strbuf sb = STRBUF_INIT;
	shell_join(&sb, argv, 6);
	assert_string_equal(sb_str(&sb), "python3 -m sglang.launch_server --json '{\"a\":1}' ''");
	strbuf_reset(&sb);
	shell_join(&sb, argv, 0);
	assert_string_equal(sb_str(&sb), "");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shell),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
