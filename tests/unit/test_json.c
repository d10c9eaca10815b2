/*
 * Python json.dumps / repr / str clone: exact bytes CPython prints.
 *
 * Run with `--emit N` this binary instead prints N random cases (floats as
 * bit patterns, documents, shell words) with our output hex-encoded, for
 * tests/cli/json_crosscheck.sh to compare against python3.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/shell.h"

static void expect_dump(const char *json_in, unsigned flags, int indent, const char *want)
{
	json_error_t jerr;
	json_t *v = json_loads(json_in, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
	assert_non_null(v);
	struct strbuf sb = STRBUF_INIT;
	pyjson_dump(&sb, v, flags, indent);
	assert_string_equal(sb_str(&sb), want);
	strbuf_release(&sb);
	json_decref(v);
}

static void expect_float(double d, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	py_float_repr(&sb, d);
	assert_string_equal(sb_str(&sb), want);
	strbuf_release(&sb);
}

static void test_separators_and_layout(void **state)
{
	(void)state;
	const char *doc = "{\"b\": [1, 2.5, {}], \"a\": [], \"c\": {\"y\": null, \"x\": true}}";
	expect_dump(doc, 0, -1, "{\"b\": [1, 2.5, {}], \"a\": [], \"c\": {\"y\": null, \"x\": true}}");
	expect_dump(doc, PYJSON_COMPACT, -1, "{\"b\":[1,2.5,{}],\"a\":[],\"c\":{\"y\":null,\"x\":true}}");
	expect_dump(doc, PYJSON_COMPACT | PYJSON_SORT_KEYS, -1,
		    "{\"a\":[],\"b\":[1,2.5,{}],\"c\":{\"x\":true,\"y\":null}}");
	expect_dump(doc, 0, 2,
		    "{\n  \"b\": [\n    1,\n    2.5,\n    {}\n  ],\n  \"a\": [],\n"
		    "  \"c\": {\n    \"y\": null,\n    \"x\": true\n  }\n}");
	expect_dump("{\"a\": []}", 0, 0, "{\n\"a\": []\n}");
	expect_dump("{\"a\": [1]}", PYJSON_COMPACT, 1, "{\n \"a\":[\n  1\n ]\n}");
	expect_dump("[]", 0, 4, "[]");
	expect_dump("false", 0, -1, "false");
	expect_dump("-42", 0, -1, "-42");
	struct strbuf sb = STRBUF_INIT;
	pyjson_dump(&sb, NULL, 0, -1);
	assert_string_equal(sb_str(&sb), "null");
	strbuf_release(&sb);
	json_t *v = json_pack("{s:s}", "k", "v");
	char *s = pyjson_dumps(v, PYJSON_COMPACT);
	assert_string_equal(s, "{\"k\":\"v\"}");
	free(s);
	json_decref(v);
}

static void test_string_escapes(void **state)
{
	(void)state;
	/* DEL, é, an emoji (surrogate pair), U+2028, '/', quote, backslash, controls */
	const char *in = "\"\\u007f\\u00e9\\ud83d\\ude00\\u2028/\\\"\\\\\\u0001\\b\\f\\n\\r\\t\\u001b\"";
	expect_dump(in, 0, -1, "\"\\u007f\\u00e9\\ud83d\\ude00\\u2028/\\\"\\\\\\u0001\\b\\f\\n\\r\\t\\u001b\"");
	expect_dump(in, PYJSON_UNICODE, -1,
		    "\"\x7f\xc3\xa9\xf0\x9f\x98\x80\xe2\x80\xa8/\\\"\\\\\\u0001\\b\\f\\n\\r\\t\\u001b\"");
	expect_dump("{\"\\u00e9\": 1, \"a\": 2}", PYJSON_SORT_KEYS, -1, "{\"a\": 2, \"\\u00e9\": 1}");
}

static void test_float_repr(void **state)
{
	(void)state;
	expect_float(1e16, "1e+16");
	expect_float(1e15, "1000000000000000.0");
	expect_float(0.0001, "0.0001");
	expect_float(0.00001, "1e-05");
	expect_float(1e22, "1e+22");
	expect_float(123456789012345678.0, "1.2345678901234568e+17");
	expect_float(5e-324, "5e-324");
	expect_float(1.7976931348623157e308, "1.7976931348623157e+308");
	expect_float(0.1 + 0.2, "0.30000000000000004");
	expect_float(0.1, "0.1");
	expect_float(100.0, "100.0");
	expect_float(1.5e-7, "1.5e-07");
	expect_float(9999999999999998.0, "9999999999999998.0");
	expect_float(0.0, "0.0");
	expect_float(-0.0, "-0.0");
	expect_float(-2.5, "-2.5");
	expect_float(0.85, "0.85");
	expect_float(INFINITY, "inf");
	expect_float(-INFINITY, "-inf");
	expect_float(NAN, "nan");
	/* Powers of two whose correctly rounded short form misses (asymmetric interval). */
	expect_float(ldexp(1, -1073), "1e-323");
	expect_float(ldexp(1, 1023), "8.98846567431158e+307");
	expect_float(ldexp(1, -44), "5.684341886080802e-14");
	expect_float(ldexp(1, 54), "1.8014398509481984e+16");
	expect_float(ldexp(1, -1017), "7.120236347223045e-307");
	expect_float(ldexp(1, -808), "5.858190679279809e-244");
	json_t *r = json_real(1e100);
	char *s = pyjson_dumps(r, 0);
	assert_string_equal(s, "1e+100");
	free(s);
	json_decref(r);
}

static void expect_repr(const char *json_in, const char *want_repr, const char *want_str)
{
	json_error_t jerr;
	json_t *v = json_loads(json_in, JSON_DECODE_ANY, &jerr);
	assert_non_null(v);
	struct strbuf sb = STRBUF_INIT;
	py_repr(&sb, v);
	assert_string_equal(sb_str(&sb), want_repr);
	strbuf_reset(&sb);
	py_str(&sb, v);
	assert_string_equal(sb_str(&sb), want_str);
	strbuf_release(&sb);
	json_decref(v);
}

static void test_repr_and_str(void **state)
{
	(void)state;
	expect_repr("true", "True", "True");
	expect_repr("null", "None", "None");
	expect_repr("16", "16", "16");
	expect_repr("0.9", "0.9", "0.9");
	expect_repr("\"it's\"", "\"it's\"", "it's");
	expect_repr("\"a\\\"b'c\"", "'a\"b\\'c'", "a\"b'c");
	expect_repr("\"\\u0001\\u007f\\u00a0\\u2028\\u00e9\\t\\\\\"",
		    "'\\x01\\x7f\\xa0\\u2028\xc3\xa9\\t\\\\'",
		    "\x01\x7f\xc2\xa0\xe2\x80\xa8\xc3\xa9\t\\");
	expect_repr("[1, \"x\", [true, null], {\"k\": 2.5}]", "[1, 'x', [True, None], {'k': 2.5}]",
		    "[1, 'x', [True, None], {'k': 2.5}]");
	expect_repr("{\"a\": {\"b\": \"c\"}, \"d\": []}", "{'a': {'b': 'c'}, 'd': []}",
		    "{'a': {'b': 'c'}, 'd': []}");
	struct strbuf sb = STRBUF_INIT;
	py_repr(&sb, NULL);
	assert_string_equal(sb_str(&sb), "None");
	strbuf_release(&sb);
}

/* ---- random cases for the python3 cross-check ---------------------------- */

static uint64_t rng_state;
static uint64_t rnd(void)
{
	/* splitmix64: reproducible across platforms */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void emit_hex(FILE *f, const struct strbuf *sb)
{
	for (size_t i = 0; i < sb->len; i++)
		fprintf(f, "%02x", (unsigned char)sb->buf[i]);
}

static void emit_float(FILE *f, double d)
{
	uint64_t bits;
	memcpy(&bits, &d, sizeof(bits));
	struct strbuf sb = STRBUF_INIT;
	py_float_repr(&sb, d);
	fprintf(f, "F %016llx %s\n", (unsigned long long)bits, sb_str(&sb));
	strbuf_release(&sb);
}

static const char *const pieces[] = {
	"a", "b", "Z", "0", " ", "'", "\"", "\\", "/", "\n", "\t", "\r", "\b", "\f", "\x01", "\x1b",
	"\x7f", "\xc3\xa9", "\xc2\xa0", "\xe2\x80\xa8", "\xe4\xb8\xad", "\xf0\x9f\x98\x80", "{x}", ":",
	"@", "%", "=", ",", ".", "-", "_", "$", "*", "\xc2\x85",
};

static json_t *rand_string(void)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = rnd() % 8;
	for (size_t i = 0; i < n; i++)
		strbuf_addstr(&sb, pieces[rnd() % (sizeof(pieces) / sizeof(pieces[0]))]);
	json_t *s = json_string(sb_str(&sb));
	strbuf_release(&sb);
	return s;
}

static double rand_double(void)
{
	for (;;) {
		uint64_t bits = rnd();
		double d;
		memcpy(&d, &bits, sizeof(d));
		if (isfinite(d))
			return d;
	}
}

static json_t *rand_value(int depth)
{
	switch (rnd() % (depth > 3 ? 6 : 8)) {
	case 0: return json_integer((json_int_t)(rnd() % 2000001) - 1000000);
	case 1: return json_real(rnd() % 2 ? rand_double() : (double)(rnd() % 100000) / 100.0);
	case 2: return rand_string();
	case 3: return json_boolean(rnd() % 2);
	case 4: return json_null();
	case 5: return rand_string();
	case 6: {
		json_t *a = json_array();
		size_t n = rnd() % 4;
		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, rand_value(depth + 1));
		return a;
	}
	default: {
		json_t *o = json_object();
		size_t n = rnd() % 4;
		for (size_t i = 0; i < n; i++) {
			json_t *k = rand_string();
			json_object_set_new(o, json_string_value(k), rand_value(depth + 1));
			json_decref(k);
		}
		return o;
	}
	}
}

/* Output lines (our bytes hex-encoded, so multi-line layouts fit on one):
 *   F <bits> <repr>                 a float
 *   D <mode> <hex>                  document, mode 0 = default, 1 compact,
 *                                   2 sort_keys, 3 indent=2, 4 ensure_ascii=False,
 *                                   5 repr(), 6 str()
 *   S <hex word> <hex quoted>       shlex.quote */
static int emit_cases(long n)
{
	FILE *f = stdout;
	rng_state = 20240611;
	for (int e = -1074; e <= 1023; e++) {
		double p2 = ldexp(1, e);
		emit_float(f, p2);
		emit_float(f, nextafter(p2, 0));
		emit_float(f, nextafter(p2, INFINITY));
	}
	for (long i = 0; i < n; i++)
		emit_float(f, rand_double());
	for (long i = 0; i < n / 2; i++) {
		char buf[64];
		snprintf(buf, sizeof(buf), "%llue%d", (unsigned long long)(rnd() % 100000000),
			 (int)(rnd() % 60) - 30);
		emit_float(f, strtod(buf, NULL));
	}
	static const unsigned modes[] = { 0, PYJSON_COMPACT, PYJSON_SORT_KEYS, 0, PYJSON_UNICODE };
	struct strbuf sb = STRBUF_INIT;
	for (long i = 0; i < n / 5; i++) {
		json_t *v = rand_value(0);
		for (int m = 0; m < 7; m++) {
			strbuf_reset(&sb);
			if (m < 5)
				pyjson_dump(&sb, v, modes[m], m == 3 ? 2 : -1);
			else if (m == 5)
				py_repr(&sb, v);
			else
				py_str(&sb, v);
			fprintf(f, "D %d ", m);
			emit_hex(f, &sb);
			fputc('\n', f);
		}
		json_decref(v);
	}
	for (long i = 0; i < n / 10; i++) {
		json_t *w = rand_string();
		struct strbuf word = STRBUF_INIT;
		strbuf_addstr(&word, json_string_value(w));
		strbuf_reset(&sb);
		shell_quote(&sb, json_string_value(w));
		fputs("S ", f);
		emit_hex(f, &word);
		fputs(" ", f);
		emit_hex(f, &sb);
		fputc('\n', f);
		strbuf_release(&word);
		json_decref(w);
	}
	strbuf_release(&sb);
	return ferror(f) ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--emit"))
		return emit_cases(atol(argv[2]));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_separators_and_layout),
		cmocka_unit_test(test_string_escapes),
		cmocka_unit_test(test_float_repr),
		cmocka_unit_test(test_repr_and_str),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
