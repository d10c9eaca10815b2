/*
 * json_read, json_readb, json_read_file: the same value, key order and error
 * as jansson's json_loads, json_loadb and json_load_file, for the texts they
 * read themselves and for those they hand on: hand-picked cases, srtctl's
 * schema from $SHARED/reference, and random documents.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <locale.h>
#include <string.h>
#include <unistd.h>

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

static void same(const char *what, const char *text, size_t flags, json_t *a, json_error_t *ea,
		 json_t *b, json_error_t *eb)
{
	if (!a) {
		if (b)
			fail_msg("%s '%s' (flags %zx): jansson refuses it, json_read reads it", what, text,
				 flags);
		assert_string_equal(ea->text, eb->text);
		assert_string_equal(ea->source, eb->source);
		assert_int_equal(ea->line, eb->line);
		assert_int_equal(ea->column, eb->column);
		assert_int_equal(ea->position, eb->position);
		return;
	}
	if (!b)
		fail_msg("%s '%s' (flags %zx): jansson reads it, json_read refuses it", what, text, flags);
	assert_true(json_equal(a, b));
	char *ta = json_text(a, JSON_ENCODE_ANY), *tb = json_text(b, JSON_ENCODE_ANY);
	assert_string_equal(ta, tb);
	assert_int_equal(json_typeof(a), json_typeof(b));
	free(ta);
	free(tb);
	json_decref(a);
	json_decref(b);
}

static char tmp_file[64];

/* json_read and json_loads (and the b and file forms) agree on text (len
 * bytes) under every flag set: both fail with the same message and place,
 * or both give equal values printed the same way (so with their keys in the
 * same order). */
static void agree_n(const char *text, size_t len)
{
	FILE *f = fopen(tmp_file, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	for (size_t i = 0; i < sizeof(flag_sets) / sizeof(flag_sets[0]); i++) {
		size_t fl = flag_sets[i];
		json_error_t ea, eb;
		json_t *a, *b;
		if (strlen(text) == len) {
			a = json_loads(text, fl, &ea);
			b = json_read(text, fl, &eb);
			same("json_read", text, fl, a, &ea, b, &eb);
		}
		a = json_loadb(text, len, fl, &ea);
		b = json_readb(text, len, fl, &eb);
		same("json_readb", text, fl, a, &ea, b, &eb);
		a = json_load_file(tmp_file, fl, &ea);
		b = json_read_file(tmp_file, fl, &eb);
		same("json_read_file", text, fl, a, &ea, b, &eb);
	}
}

static void agree(const char *text) { agree_n(text, strlen(text)); }

/* Read here, without jansson's reader, and as jansson reads it. */
static void direct(const char *text)
{
	json_t *v = json_read_direct(text, strlen(text), JSON_DECODE_ANY);
	if (!v)
		fail_msg("'%s': handed to jansson", text);
	json_decref(v);
	agree(text);
}

/* Handed to jansson. */
static void handed_n(const char *text, size_t len)
{
	for (size_t i = 0; i < 4; i++) {
		json_t *v = json_read_direct(text, len, flag_sets[i]);
		if (v)
			fail_msg("'%s' (flags %zx): read here", text, flag_sets[i]);
	}
	agree_n(text, len);
}

static void handed(const char *text) { handed_n(text, strlen(text)); }

/* What connectors are written as: read directly. */
static void test_connector_shapes(void **state)
{
	direct("{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}");
	direct("{\"kv_connector\":\"MultiConnector\",\"kv_role\":\"kv_both\",\"kv_connector_extra_config\":"
	      "{\"connectors\":[{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"},"
	      "{\"kv_connector\":\"LMCacheMPConnector\",\"kv_role\":\"kv_both\",\"kv_connector_extra_config\":"
	      "{\"lmcache.mp.host\":\"tcp://localhost\",\"lmcache.mp.port\":8750}}]}}");
	direct(" \t\r\n{ \"z\" : 1 , \"a\" : [ true , false , null , -0 , 0 , -12 ] , \"m\" : { } , "
	      "\"e\" : [ ] } \n");
	direct("{\"b\":2,\"a\":1,\"c\":3}"); /* insertion order, not sorted */
	direct("[]");
	direct("{}");
	direct("{\"\":\"\"}");
	direct("[[[[[[1]]]]]]");
	direct("{\"n\":999999999999999999,\"m\":-999999999999999999}");
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

/* Escapes, UTF-8 and reals, read here (srtctl's schema has all three). */
static void test_escapes_utf8_reals(void **state)
{
	direct("{\"a\":\"tab\\there \\\"q\\\" \\\\ \\/ \\b\\f\\n\\r\\t\"}");
	direct("[\"\\u00e9\\u20AC\\ud83d\\ude00\\u0041\"]");
	direct("{\"caf\xc3\xa9\":\"\xe2\x82\xac \xf0\x9f\x98\x80 \xed\x9f\xbf \xee\x80\x80 \xf4\x8f\xbf\xbf\"}");
	direct("{\"a\":1.5,\"b\":1e3,\"c\":-0.0,\"d\":2E-2,\"e\":0.1,\"f\":1e-400,\"g\":5e-324,"
	      "\"h\":123456789.123456789e+10,\"i\":1E+2}");
	direct("{\"del\":\"\x7f\"}");
}

/* Handed to jansson: the value must still be jansson's. */
static void test_handed_on(void **state)
{
	handed("{\"a\":\"\\u0000\"}"); /* a NUL: only with JSON_ALLOW_NUL */
	handed("{\"\\u0000\":1}");
	handed("{\"n\":9223372036854775807,\"m\":-9223372036854775808}");
	handed("{\"n\":9223372036854775808}");
	handed("[1e400]");
	handed("[-1e400]");
	handed("{\"a\":1,\"a\":2}"); /* last wins, or refused with REJECT_DUPLICATES */
	handed("{\"a\":{\"x\":1,\"x\":[2]}}");
	handed("{\"k\\u00e9\":1,\"k\xc3\xa9\":2}"); /* one key, spelt two ways */
	handed_n("[1,\0 2]", 7);
	handed_n("{\"a\":\"x\0y\"}", 11);
	char deep[200];
	size_t n = 0;
	for (; n < 90; n++)
		deep[n] = '[';
	for (size_t i = 0; i < 90; i++)
		deep[n++] = ']';
	deep[n] = 0;
	handed(deep);
}

/* Errors: jansson's message, line and column. */
static void test_errors(void **state)
{
	static const char *const bad[] = {
		"", "   ", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[01]", "[1 2]",
		"[truex]", "[nul]", "[-]", "[12ab]", "{\"a\":1} x", "[1]]", "\"open", "{\"a\":\"b\n\"}",
		"[99999999999999999999]", "[-99999999999999999999]", "[1.]", "[.5]", "{\"k\":}",
		"[\"a\" \"b\"]", "{\"a\":1 \"b\":2}", "{\"a\":[1,2}", "[1,\n2,\n]",
		/* strings: controls, bad escapes, lone and broken surrogates, bad UTF-8 */
		"[\"a\tb\"]", "[\"\\x\"]", "[\"\\u12\"]", "[\"\\u12G4\"]", "[\"\\ud83d\"]",
		"[\"\\ud83d\\u0041\"]", "[\"\\ude00\"]", "[\"\\ud83dx\"]", "[\"\xc0\x80\"]",
		"[\"\xe0\x80\x80\"]", "[\"\xed\xa0\x80\"]", "[\"\xf4\x90\x80\x80\"]", "[\"\xf5\x80\x80\x80\"]",
		"[\"\xc3\"]", "[\"\xe2\x82\"]", "[\"\x80\"]", "[\"\xff\"]", "[\"\\", "[\"\\u",
		/* numbers */
		"[1e]", "[1e+]", "[-01]", "[1.e5]", "[+1]", "[0x10]", "[1.5.5]", "[Infinity]", "[NaN]",
		"\xef\xbb\xbf{}", "{\"a\":1}\xc3\xa9",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		agree(bad[i]);
	json_error_t e;
	assert_null(json_read(NULL, 0, &e));
}

/* srtctl's schema, as srtctl prints it. */
static void test_reference_schema(void **state)
{
	const char *shared = getenv("SHARED");
	if (!shared || !*shared) {
		printf("skip: no reference folder (SHARED unset)\n");
		return;
	}
	char *path = xasprintf("%s/reference/recipe.schema.json", shared);
	char *text = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "rb");
	if (f) {
		struct strbuf sb = STRBUF_INIT;
		char buf[8192];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			strbuf_add(&sb, buf, n);
		fclose(f);
		len = sb.len;
		text = strbuf_detach(&sb, NULL);
	}
	free(path);
	if (!text) {
		printf("skip: no reference/recipe.schema.json\n");
		return;
	}
	json_t *v = json_read_direct(text, len, 0);
	if (!v)
		fail_msg("srtctl's schema: handed to jansson");
	json_decref(v);
	agree_n(text, len);
	free(text);
}

/* A random JSON-ish document: mostly well-formed, now and then broken. */
static void random_doc(struct strbuf *sb, unsigned *seed, int depth)
{
	static const char *const atoms[] = {
		"0", "-0", "7", "-12", "123456789012345678", "1234567890123456789", "0.5", "-2.5e-3",
		"1E9", "6.02e23", "true", "false", "null", "1e400", "01", "tru", "-",
	};
	static const char *const pieces[] = {
		"a", "key", " ", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\u20ac", "\\ud83d\\ude00",
		"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\\t", "~", "\\u0000", "\\ud800", "\xc3",
		"\x01", "\\q",
	};
	unsigned r = (unsigned)rand_r(seed);
	int kind = depth > 4 ? (int)(r % 3) : (int)(r % 5);
	if (kind == 0) {
		strbuf_addstr(sb, atoms[(r >> 4) % (sizeof(atoms) / sizeof(atoms[0]))]);
	} else if (kind <= 2) {
		strbuf_addch(sb, '"');
		for (unsigned n = (r >> 4) % 5; n--;) {
			unsigned k = (unsigned)rand_r(seed) % (sizeof(pieces) / sizeof(pieces[0]));
			/* the broken pieces (the last five) stay rare */
			if (k >= sizeof(pieces) / sizeof(pieces[0]) - 5 && rand_r(seed) % 8)
				k = 0;
			strbuf_addstr(sb, pieces[k]);
		}
		strbuf_addch(sb, '"');
	} else {
		int obj = kind == 3;
		strbuf_addch(sb, obj ? '{' : '[');
		for (unsigned n = (r >> 4) % 5, i = 0; i < n; i++) {
			if (i)
				strbuf_addstr(sb, rand_r(seed) % 4 ? "," : " , ");
			if (obj) {
				strbuf_addf(sb, "\"k%u\"", (unsigned)rand_r(seed) % 6);
				strbuf_addstr(sb, rand_r(seed) % 3 ? ":" : " :\n");
			}
			random_doc(sb, seed, depth + 1);
		}
		strbuf_addch(sb, obj ? '}' : ']');
	}
}

static void test_random(void **state)
{
	unsigned seed = 20261203;
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < 1500; i++) {
		strbuf_reset(&sb);
		random_doc(&sb, &seed, 0);
		agree(sb_str(&sb));
	}
	strbuf_release(&sb);
}

/* With a locale that writes reals with ',', jansson puts it in before
 * strtod: reals are left to it. */
static void test_comma_locale(void **state)
{
	static const char *const names[] = { "de_DE.UTF-8", "fr_FR.UTF-8", "de_DE.utf8", "fr_FR.utf8" };
	const char *got = NULL;
	for (size_t i = 0; i < 4 && !got; i++)
		got = setlocale(LC_NUMERIC, names[i]);
	if (!got) {
		printf("skip: no locale with a decimal comma installed\n");
		return;
	}
	agree("{\"a\":1.5,\"b\":[2.25e1,-0.125]}");
	setlocale(LC_NUMERIC, "C");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_connector_shapes),
		cmocka_unit_test(test_top_level_scalars),
		cmocka_unit_test(test_escapes_utf8_reals),
		cmocka_unit_test(test_handed_on),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_reference_schema),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_comma_locale),
	};
	snprintf(tmp_file, sizeof(tmp_file), "/tmp/test-json-read-%ld.json", (long)getpid());
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(tmp_file);
	return rc;
}
