/* PyYAML typing of plain scalars, the quoting policy and the emitters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pyfloat.h"
#include "model/scalar.h"
#include "model/schema.h"

static void expect_json(const char *text, int plain, const char *want)
{
	json_t *v = scalar_to_json(text, strlen(text), plain);
	char *got = json_dumps(v, JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
	if (strcmp(got, want))
		fail_msg("'%s' -> %s, want %s", text, got, want);
	free(got);
	json_decref(v);
}

static void test_to_json(void **state)
{
	(void)state;
	expect_json("yes", 1, "true");
	expect_json("No", 1, "false");
	expect_json("ON", 1, "true");
	expect_json("off", 1, "false");
	expect_json("True", 1, "true");
	expect_json("yEs", 1, "\"yEs\"");
	/* PyYAML's bool and null words: lower, Capitalised or UPPER only */
	expect_json("FALSE", 1, "false");
	expect_json("OFF", 1, "false");
	expect_json("NULL", 1, "null");
	expect_json("oN", 1, "\"oN\"");
	expect_json("fALSE", 1, "\"fALSE\"");
	expect_json("nuLL", 1, "\"nuLL\"");
	expect_json("falsey", 1, "\"falsey\"");
	expect_json("y", 1, "\"y\"");
	expect_json("~", 1, "null");
	expect_json("", 1, "null");
	expect_json("Null", 1, "null");
	expect_json("8", 1, "8");
	expect_json("010", 1, "8");
	expect_json("08", 1, "\"08\"");
	expect_json("0x10", 1, "16");
	expect_json("0o17", 1, "\"0o17\"");
	expect_json("0b101", 1, "5");
	expect_json("1_000", 1, "1000");
	expect_json("-12", 1, "-12");
	expect_json("12:30", 1, "750");
	expect_json("190:20:30", 1, "685230");
	expect_json("1e3", 1, "\"1e3\"");
	expect_json("1.0e3", 1, "\"1.0e3\"");
	expect_json("1.0e+3", 1, "1000.0");
	expect_json("1.5", 1, "1.5");
	expect_json("1.", 1, "1.0");
	expect_json(".5", 1, "0.5");
	expect_json("-.5", 1, "\"-.5\"");
	expect_json(".inf", 1, "\".inf\"");
	expect_json("-.Inf", 1, "\"-.inf\"");
	expect_json(".NaN", 1, "\".nan\"");
	expect_json("2024-01-01", 1, "\"2024-01-01\"");
	expect_json("0.8.0", 1, "\"0.8.0\"");
	expect_json("99999999999999999999", 1, "\"99999999999999999999\"");
	expect_json("-9223372036854775808", 1, "-9223372036854775808");
	expect_json("yes", 0, "\"yes\"");
	expect_json("8", 0, "\"8\"");
}

static void test_special(void **state)
{
	(void)state;
	const char *special[] = { "yes", "no", "on", "off", "y", "n", "Y", "true", "null", "~", "", "1e3",
				  "0x10", "010", "08", "0o17", "1_000", "12:30", "2024-01-01", ".inf",
				  "=", "<<", "fAlSe", "NuLl", "oFf", "-.5", "+.5", "1.0e3", "2001-12-14t21:59:43.10-05:00", NULL };
	for (const char **s = special; *s; s++)
		if (!scalar_is_special(*s, strlen(*s)))
			fail_msg("'%s' should be special", *s);
	const char *plain[] = { "0.8.0", "8k1k", "fp8", "--foo", "a:b", "a#b", "http://x:80/y", "yess",
				"<", "nul", "bf16", "h100", NULL };
	for (const char **s = plain; *s; s++)
		if (scalar_is_special(*s, strlen(*s)))
			fail_msg("'%s' should not be special", *s);
}

static void expect_emit(const char *s, enum scalar_style prefer, int in_flow, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	scalar_emit_string(&sb, s, strlen(s), prefer, in_flow);
	if (strcmp(sb_str(&sb), want))
		fail_msg("emit '%s' -> %s, want %s", s, sb_str(&sb), want);
	strbuf_release(&sb);
}

static void test_quoting(void **state)
{
	(void)state;
	const char *quote[] = { "a: b", "x # y", "#x", "- x", "@x", "`x", "%x", "!x", "&x", "*x", "|x",
				">x", "[x]", "{x}", "'q'", "\"q\"", " lead", "trail ", "end:", "", "yes",
				"no", "on", "off", "y", "n", "true", "null", "~", "1e3", "0x10", "010", "08",
				"0o17", "1_000", "12:30", "2024-01-01", ".inf", "=", "<<", "---x", "...", NULL };
	for (const char **s = quote; *s; s++)
		if (scalar_plain_ok(*s, strlen(*s), 0))
			fail_msg("'%s' must not be plain", *s);
	expect_emit("yes", STYLE_ANY, 0, "'yes'");
	expect_emit("it's", STYLE_PLAIN, 0, "it's");
	expect_emit("'q'", STYLE_ANY, 0, "'''q'''");
	expect_emit("a,b", STYLE_ANY, 0, "a,b");
	expect_emit("a,b", STYLE_ANY, 1, "'a,b'");
	expect_emit("a?b", STYLE_ANY, 1, "'a?b'");
	expect_emit(":a", STYLE_ANY, 1, "':a'");
	expect_emit(":a", STYLE_ANY, 0, ":a");
	expect_emit("x", STYLE_DOUBLE, 0, "\"x\"");
	expect_emit("x", STYLE_SINGLE, 0, "'x'");
	expect_emit("a\tb", STYLE_SINGLE, 0, "\"a\\tb\"");
	expect_emit("a\nb\x01\x7f\xc2\x85\xc2\xa0\xe2\x80\xa8\xe2\x80\xa9\xef\xbb\xbf\x1b\\\"", STYLE_ANY, 0,
		    "\"a\\nb\\x01\\x7F\\N\\_\\L\\P\\uFEFF\\e\\\\\\\"\"");
	expect_emit("caf\xc3\xa9", STYLE_ANY, 0, "caf\xc3\xa9");
}

static void expect_json_emit(const char *json, const char *want)
{
	json_error_t je;
	json_t *v = json_loads(json, JSON_DECODE_ANY, &je);
	assert_non_null(v);
	struct strbuf sb = STRBUF_INIT;
	scalar_emit_json(&sb, v, STYLE_ANY, 0);
	if (strcmp(sb_str(&sb), want))
		fail_msg("emit %s -> %s, want %s", json, sb_str(&sb), want);
	strbuf_release(&sb);
	json_decref(v);
}

static void test_emit_json(void **state)
{
	(void)state;
	expect_json_emit("1e-05", "1.0e-05");
	expect_json_emit("0.1", "0.1");
	expect_json_emit("1e16", "1.0e+16");
	expect_json_emit("100.0", "100.0");
	expect_json_emit("0.30000000000000004", "0.30000000000000004");
	expect_json_emit("720", "720");
	expect_json_emit("true", "true");
	expect_json_emit("null", "null");
	expect_json_emit("[4, \"8\", \"a b\", \"x,y\"]", "[4, '8', a b, 'x,y']");
	expect_json_emit("{\"k\": \"v\", \"on\": 1}", "{k: v, 'on': 1}");
	struct strbuf sb = STRBUF_INIT;
	py_float_repr(&sb, 1e22);
	strbuf_addch(&sb, ' ');
	py_float_repr(&sb, 5e-324);
	strbuf_addch(&sb, ' ');
	py_float_repr(&sb, 123456789.125);
	strbuf_addch(&sb, ' ');
	py_float_repr(&sb, 0.0001);
	strbuf_addch(&sb, ' ');
	py_float_repr(&sb, 0.00001);
	assert_string_equal(sb_str(&sb), "1e+22 5e-324 123456789.125 0.0001 1e-05");
	strbuf_release(&sb);
}

static void expect_parse(const char *text, const char *want)
{
	char *err = NULL;
	json_t *v = scalar_parse_value(text, &err);
	assert_non_null(v);
	assert_null(err);
	char *got = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(15));
	if (strcmp(got, want))
		fail_msg("parse '%s' -> %s, want %s", text, got, want);
	free(got);
	json_decref(v);
}

static void test_parse_value(void **state)
{
	(void)state;
	expect_parse("", "\"\"");
	expect_parse("720", "720");
	expect_parse("\"720\"", "\"720\"");
	expect_parse("0.85", "0.85");
	expect_parse("true", "true");
	expect_parse("yes", "true");
	expect_parse("[4, 8]", "[4,8]");
	expect_parse("null", "null");
	expect_parse("~", "null");
	expect_parse("1x2x4", "\"1x2x4\"");
	expect_parse("{\"rope_type\": \"yarn\"}", "\"{\\\"rope_type\\\": \\\"yarn\\\"}\"");
	expect_parse("{concurrency}", "\"{concurrency}\"");
	expect_parse("[1, 2", "\"[1, 2\"");
	expect_parse("010", "8");
	expect_parse("1e3", "\"1e3\"");
	expect_parse("2026-01-01", "\"2026-01-01\"");
	expect_parse("[a, {b: 1}]", "[\"a\",{\"b\":1}]");
	expect_parse("=", "\"=\"");
}

/* What a user types for a field: mappings where the field holds them, srtctl's
 * --set typing otherwise (engine flags take JSON text). */
static void expect_parsed(json_t *v, const char *json)
{
	char *got = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	assert_string_equal(got, json);
	free(got);
	json_decref(v);
}

static void test_parse_flow(void **state)
{
	(void)state;
	expect_parsed(scalar_parse_flow("{node: workers, per: worker}", NULL),
		      "{\"node\":\"workers\",\"per\":\"worker\"}");
	expect_parsed(scalar_parse_flow(" {}", NULL), "{}");
	/* placeholders are text, not {param: null} */
	expect_parsed(scalar_parse_flow("{param}", NULL), "\"{param}\"");
	expect_parsed(scalar_parse_flow("{a, b}", NULL), "\"{a, b}\"");
	/* a block mapping is not a flow value: srtctl keeps it as text */
	expect_parsed(scalar_parse_flow("a: b", NULL), "\"a: b\"");
	expect_parsed(scalar_parse_flow("[1, yes]", NULL), "[1,true]");
	expect_parsed(scalar_parse_flow("{a: [1", NULL), "\"{a: [1\"");
	/* srtctl's own rule is unchanged */
	expect_parsed(scalar_parse_value("{node: workers}", NULL), "\"{node: workers}\"");

	/* by field: a mapping field takes the mapping, free-form args keep text */
	expect_parsed(schema_parse_text(schema_find_text("services[x].placement"), "{node: head}", NULL),
		      "{\"node\":\"head\"}");
	expect_parsed(schema_parse_text(schema_find_text("roles.agg.args.rope-scaling"),
					"{\"rope_type\": \"yarn\"}", NULL),
		      "\"{\\\"rope_type\\\": \\\"yarn\\\"}\"");
	expect_parsed(schema_parse_text(NULL, "{k: 1}", NULL), "{\"k\":1}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_to_json),
		cmocka_unit_test(test_special),
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_emit_json),
		cmocka_unit_test(test_parse_value),
		cmocka_unit_test(test_parse_flow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
