/*
 * json_read: the same value, key order and error as jansson's json_loads,
 * for the texts it reads itself and for those it hands on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/json_read.h"

static const size_t flag_sets[] = {
	0,
	JSON_DECODE_ANY,
	JSON_DECODE_ANY | JSON_REJECT_DUPLICATES,
	JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL,
	JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY, /* never read here: handed on whole */
	JSON_DECODE_INT_AS_REAL | JSON_DECODE_ANY,
};

/* json_read and json_loads agree on text under every flag set: both fail
 * with the same message and place, or both give equal values printed the
 * same way (so with their keys in the same order). */
static void agree(const char *text)
{
	for (size_t i = 0; i < sizeof(flag_sets) / sizeof(flag_sets[0]); i++) {
		json_error_t ea, eb;
		json_t *a = json_loads(text, flag_sets[i], &ea);
		json_t *b = json_read(text, flag_sets[i], &eb);
		if (!a) {
			if (b)
				fail_msg("'%s' (flags %zx): jansson refuses it, json_read reads it", text,
					 flag_sets[i]);
			assert_string_equal(ea.text, eb.text);
			assert_int_equal(ea.line, eb.line);
			assert_int_equal(ea.column, eb.column);
			continue;
		}
		if (!b)
			fail_msg("'%s' (flags %zx): jansson reads it, json_read refuses it", text, flag_sets[i]);
		assert_true(json_equal(a, b));
		char *ta = json_text(a, JSON_ENCODE_ANY), *tb = json_text(b, JSON_ENCODE_ANY);
		assert_string_equal(ta, tb);
		assert_int_equal(json_typeof(a), json_typeof(b));
		free(ta);
		free(tb);
		json_decref(a);
		json_decref(b);
	}
}

/* What connectors are written as: read directly. */
static void test_connector_shapes(void **state)
{
	agree("{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}");
	agree("{\"kv_connector\":\"MultiConnector\",\"kv_role\":\"kv_both\",\"kv_connector_extra_config\":"
	      "{\"connectors\":[{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"},"
	      "{\"kv_connector\":\"LMCacheMPConnector\",\"kv_role\":\"kv_both\",\"kv_connector_extra_config\":"
	      "{\"lmcache.mp.host\":\"tcp://localhost\",\"lmcache.mp.port\":8750}}]}}");
	agree(" \t\r\n{ \"z\" : 1 , \"a\" : [ true , false , null , -0 , 0 , -12 ] , \"m\" : { } , "
	      "\"e\" : [ ] } \n");
	agree("{\"b\":2,\"a\":1,\"c\":3}"); /* insertion order, not sorted */
	agree("[]");
	agree("{}");
	agree("{\"\":\"\"}");
	agree("[[[[[[1]]]]]]");
	agree("{\"n\":999999999999999999,\"m\":-999999999999999999}");
}

/* Top-level scalars: only with JSON_DECODE_ANY. */
static void test_top_level_scalars(void **state)
{
	agree("1");
	agree("\"x\"");
	agree("true");
	agree("false");
	agree("null");
	agree("  7  ");
}

/* Handed to jansson: the value must still be jansson's. */
static void test_handed_on(void **state)
{
	agree("{\"a\":\"tab\\there\"}");
	agree("{\"a\":\"\\u00e9\\u0000\"}");
	agree("{\"caf\xc3\xa9\":\"\xe2\x82\xac\"}");
	agree("{\"a\":1.5,\"b\":1e3,\"c\":-0.0,\"d\":2E-2}");
	agree("{\"n\":9223372036854775807,\"m\":-9223372036854775808}");
	agree("{\"a\":1,\"a\":2}"); /* last wins, or refused with REJECT_DUPLICATES */
	agree("{\"a\":{\"x\":1,\"x\":[2]}}");
	agree("{\"del\":\"\x7f\"}");
	char deep[200];
	size_t n = 0;
	for (; n < 60; n++)
		deep[n] = '[';
	for (size_t i = 0; i < 60; i++)
		deep[n++] = ']';
	deep[n] = 0;
	agree(deep);
}

/* Errors: jansson's message, line and column. */
static void test_errors(void **state)
{
	static const char *const bad[] = {
		"", "   ", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[01]", "[1 2]",
		"[truex]", "[nul]", "[-]", "[12ab]", "{\"a\":1} x", "[1]]", "\"open", "{\"a\":\"b\n\"}",
		"[99999999999999999999]", "[-99999999999999999999]", "[1.]", "[.5]", "{\"k\":}",
		"[\"a\" \"b\"]", "{\"a\":1 \"b\":2}", "{\"a\":[1,2}", "[1,\n2,\n]",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		agree(bad[i]);
	json_error_t e;
	assert_null(json_read(NULL, 0, &e));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_connector_shapes),
		cmocka_unit_test(test_top_level_scalars),
		cmocka_unit_test(test_handed_on),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
