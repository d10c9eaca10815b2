/* Path syntax: srtctl's --set grammar (spec §9.9) plus [name] selectors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/path.h"

static void expect_error(const char *text, unsigned flags, const char *msg)
{
	struct path p = PATH_INIT;
	char *err = NULL;
	assert_int_equal(path_parse(&p, text, flags, &err), -1);
	assert_non_null(err);
	assert_string_equal(err, msg);
	assert_int_equal(p.n, 0);
	free(err);
	path_release(&p);
}

static void test_errors_match_srtctl(void **state)
{
	(void)state;
	expect_error("", PATH_OVERRIDE, "override path must not be empty");
	expect_error("   ", PATH_OVERRIDE, "override path must not be empty");
	expect_error("a..b", PATH_OVERRIDE, "empty segment in override path 'a..b'");
	expect_error(".a", PATH_OVERRIDE, "empty segment in override path '.a'");
	expect_error("[0]", PATH_OVERRIDE, "override path '[0]' must start with a key, not an index");
	expect_error("a[x]", PATH_OVERRIDE, "bad list index in override path 'a[x]'");
	expect_error("a[1", PATH_OVERRIDE, "bad list index in override path 'a[1'");
	expect_error("a.\"b", PATH_OVERRIDE, "unterminated quote in override path 'a.\"b'");
	expect_error("a.", PATH_OVERRIDE, "override path 'a.' ends with a separator");
	expect_error("a[0]b", PATH_OVERRIDE, "expected '.' or '[' at position 4 in override path 'a[0]b'");
	expect_error("a[]", PATH_NAMES, "bad list index in path 'a[]'");
}

static void test_segments(void **state)
{
	(void)state;
	struct path p = PATH_INIT;
	char *err = NULL;
	assert_int_equal(path_parse(&p, " a[0].b[2].c ", 0, &err), 0);
	assert_int_equal(p.n, 5);
	assert_int_equal(p.seg[1].kind, PATH_INDEX);
	assert_int_equal(p.seg[3].index, 2);
	assert_string_equal(p.seg[4].key, "c");

	assert_int_equal(path_parse(&p, "container_mounts.\"/a/b.c\"", 0, &err), 0);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.seg[1].key, "/a/b.c");

	assert_int_equal(path_parse(&p,
		"roles.agg.args.extra-kv-connectors[0].kv_connector_extra_config.'lmcache.mp.port'", 0, &err), 0);
	assert_int_equal(p.n, 7);
	assert_string_equal(p.seg[6].key, "lmcache.mp.port");
	char *s = path_format(&p, (size_t)-1);
	assert_string_equal(s, "roles.agg.args.extra-kv-connectors[0].kv_connector_extra_config.\"lmcache.mp.port\"");
	free(s);
	path_release(&p);
}

static void test_name_selector(void **state)
{
	(void)state;
	struct path p = PATH_INIT, q = PATH_INIT;
	char *err = NULL;
	assert_int_equal(path_parse(&p, "services[lmcache].args[2]", PATH_NAMES, &err), 0);
	assert_int_equal(p.n, 4);
	assert_int_equal(p.seg[1].kind, PATH_NAME);
	assert_string_equal(p.seg[1].key, "lmcache");
	char *s = path_format(&p, 2);
	assert_string_equal(s, "services[lmcache]");
	free(s);
	path_copy(&q, &p);
	assert_true(path_equal(&p, &q));
	path_pop(&q);
	assert_false(path_equal(&p, &q));
	/* a path under another key keeps the name selector (variant sections) */
	path_clear(&q);
	path_push_key(&q, "override_a");
	for (size_t i = 0; i < p.n; i++)
		path_push_seg(&q, &p.seg[i]);
	s = path_format(&q, (size_t)-1);
	assert_string_equal(s, "override_a.services[lmcache].args[2]");
	free(s);
	path_release(&p);
	path_release(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errors_match_srtctl),
		cmocka_unit_test(test_segments),
		cmocka_unit_test(test_name_selector),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
