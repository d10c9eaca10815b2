/*
 * --set / --unset (spec §9.9): value typing, path and application errors
 * with srtctl's messages, fan-out into override sections, zip wrapping,
 * sets before unsets, and the "Applied override" rendering.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/override.h"
#include "tests/unit/tree_helpers.h"

static void expect_typed(const char *text, const char *want_json)
{
	json_t *v = setflag_parse_value(text);
	assert_non_null(v);
	assert_json(v, want_json);
	json_decref(v);
}

static void test_value_typing(void **state)
{
	(void)state;
	expect_typed("", "\"\"");
	expect_typed("720", "720");
	expect_typed("\"720\"", "\"720\"");
	expect_typed("0.85", "0.85");
	expect_typed("true", "true");
	expect_typed("[4, 8]", "[4, 8]");
	expect_typed("null", "null");
	expect_typed("~", "null");
	expect_typed("1x2x4", "\"1x2x4\"");
	expect_typed("{\"rope_type\": \"yarn\"}", "\"{\\\"rope_type\\\": \\\"yarn\\\"}\"");
	expect_typed("{concurrency}", "\"{concurrency}\"");
	expect_typed("x=y", "\"x=y\"");
	expect_typed("yes", "true");
	expect_typed("010", "8");
	expect_typed("1e3", "\"1e3\"");
	expect_typed("[unclosed", "\"[unclosed\"");
	/* the rest of PyYAML's YAML 1.1 resolvers */
	expect_typed("no", "false");
	expect_typed("on", "true");
	expect_typed("off", "false");
	expect_typed("y", "\"y\"");
	expect_typed("08", "\"08\"");
	expect_typed("0o17", "\"0o17\"");
	expect_typed("0x1F", "31");
	expect_typed("0b101", "5");
	expect_typed("1_000", "1000");
	expect_typed("12:30", "750");
	expect_typed("6.", "6.0");
	expect_typed("1.0e3", "\"1.0e3\"");
	expect_typed("1.0e+3", "1000.0");
	expect_typed("a: b", "\"a: b\"");
	expect_typed("- a", "[\"a\"]");
	expect_typed("!!str 5", "\"5\"");
	/* no JSON form: kept as written (srtctl holds a date / float there) */
	expect_typed("2026-01-01", "\"2026-01-01\"");
	expect_typed(".NaN", "\".NaN\"");
	expect_typed("-.Inf", "\"-.Inf\"");
}

/* Run the flags on root_json; want is the resulting tree or the error. */
static void run(const char *root_json, const char *const *sets, const char *const *unsets,
		const char *want, int want_usage, const char *want_applied)
{
	json_t *root = tu_json(root_json);
	struct strvec s = STRVEC_INIT, u = STRVEC_INIT, applied = STRVEC_INIT;
	for (; sets && *sets; sets++)
		strvec_push(&s, *sets);
	for (; unsets && *unsets; unsets++)
		strvec_push(&u, *unsets);
	char *err = NULL;
	int usage = -1;
	int rc = setflags_apply(root, &s, &u, &applied, &usage, &err);
	if (want_usage >= 0) {
		assert_int_equal(rc, -1);
		assert_string_equal(err, want);
		assert_int_equal(usage, want_usage);
		free(err);
	} else {
		if (rc)
			fail_msg("unexpected error: %s", err);
		assert_int_equal(usage, 0);
		assert_json(root, want);
		if (want_applied) {
			struct strbuf sb = STRBUF_INIT;
			for (size_t i = 0; i < applied.n; i++)
				strbuf_addf(&sb, "%s\n", applied.v[i]);
			assert_string_equal(sb_str(&sb), want_applied);
			strbuf_release(&sb);
		}
	}
	strvec_release(&s);
	strvec_release(&u);
	strvec_release(&applied);
	json_decref(root);
}

#define SETS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void test_usage_errors(void **state)
{
	(void)state;
	run("{}", SETS("health_check.max_attempts"), NULL,
	    "--set expects KEY=VALUE, got 'health_check.max_attempts'", 1, NULL);
	run("{}", SETS("it's"), NULL, "--set expects KEY=VALUE, got \"it's\"", 1, NULL);
	run("{}", SETS("=1"), NULL, "override path must not be empty", 1, NULL);
	run("{}", SETS("a..b=1"), NULL, "empty segment in override path 'a..b'", 1, NULL);
	run("{}", NULL, SETS("[0]"), "override path '[0]' must start with a key, not an index", 1, NULL);
	run("{}", NULL, SETS("a[x]"), "bad list index in override path 'a[x]'", 1, NULL);
	run("{}", NULL, SETS("a.\"b"), "unterminated quote in override path 'a.\"b'", 1, NULL);
	run("{}", NULL, SETS("a."), "override path 'a.' ends with a separator", 1, NULL);
	run("{}", NULL, SETS("a[0]b"), "expected '.' or '[' at position 4 in override path 'a[0]b'", 1, NULL);
	/* A bad flag anywhere: nothing is applied. */
	json_t *root = tu_json("{\"k\": 1}");
	struct strvec s = STRVEC_INIT, u = STRVEC_INIT;
	strvec_push(&s, "k=2");
	strvec_push(&u, "a..b");
	char *err = NULL;
	assert_int_equal(setflags_apply(root, &s, &u, NULL, NULL, &err), -1);
	assert_json(root, "{\"k\": 1}");
	free(err);
	strvec_release(&s);
	strvec_release(&u);
	json_decref(root);
}

static void test_apply(void **state)
{
	(void)state;
	/* Missing keys are created; a.b=x=y keeps "x=y"; replace keeps position. */
	run("{\"name\": \"n\", \"k\": {\"x\": 1}, \"z\": 0}",
	    SETS("health_check.max_attempts=720", "k=5", "a.b=x=y", "l=[4, 8]"), NULL,
	    "{\"name\": \"n\", \"k\": 5, \"z\": 0, \"health_check\": {\"max_attempts\": 720}, "
	    "\"a\": {\"b\": \"x=y\"}, \"l\": [4, 8]}", -1,
	    "--set health_check.max_attempts=720\n--set k=5\n--set a.b=x=y\n--set l=[4, 8]\n");
	/* Lists: set an element, unset shifts; a missing unset is a no-op. */
	run("{\"c\": [\"a\", \"b\", \"c\"], \"m\": {\"n\": 1}}", SETS("c[1]=B", "m.n=null"),
	    SETS("c[0]", "nope.x", "c[9]", "m.q"),
	    "{\"c\": [\"B\", \"c\"], \"m\": {\"n\": null}}", -1,
	    "--set c[1]=B\n--set m.n=null\n--unset c[0]\n");
	/* sets first, then unsets, whatever the order given */
	run("{}", SETS("a.b=1", "a.c=2"), SETS("a.b"), "{\"a\": {\"c\": 2}}", -1, NULL);
	/* quoted segments, rendered back with double quotes */
	run("{}", SETS("container_mounts.\"/a/b.c\"=/x", "f.'g[1]'=true"), NULL,
	    "{\"container_mounts\": {\"/a/b.c\": \"/x\"}, \"f\": {\"g[1]\": true}}", -1,
	    "--set container_mounts.\"/a/b.c\"=/x\n--set f.\"g[1]\"=true\n");
	/* srtctl stops silently at a null on the way (for --set too) */
	run("{\"a\": null, \"l\": [null]}", SETS("a.b=1", "l[0].x=2"), SETS("a.b"),
	    "{\"a\": null, \"l\": [null]}", -1, "");
	/* the same value again still counts as applied (srtctl does not compare) */
	run("{\"a\": 1}", SETS("a=1.50"), NULL, "{\"a\": 1.5}", -1, "--set a=1.5\n");
}

static void test_apply_errors(void **state)
{
	(void)state;
	run("{\"h\": {\"commands\": [\"a\"]}}", SETS("h.commands[3].x=1"), NULL,
	    "h.commands[3]: index [3] is out of range (length 1)", 0, NULL);
	run("{\"h\": {\"commands\": [\"a\"]}}", SETS("h.commands[1]=1"), NULL,
	    "h.commands[1]: index out of range", 0, NULL);
	run("{\"h\": {\"x\": 1}}", SETS("h[0]=1"), NULL, "h[0]: index out of range", 0, NULL);
	run("{\"h\": {\"x\": 1}}", SETS("h[0].y=1"), NULL, "h[0]: cannot index a non-list with [0]", 0, NULL);
	run("{\"name\": \"s\"}", SETS("name.a.b=1"), NULL,
	    "name.a: cannot descend into a non-mapping at 'a'", 0, NULL);
	run("{\"name\": \"s\"}", SETS("name.child=1"), NULL, "name.child: cannot set a key on a non-mapping",
	    0, NULL);
	run("{\"l\": [1]}", SETS("l.x=1"), NULL, "l.x: cannot set a key on a non-mapping", 0, NULL);
	run("{\"l\": [1]}", SETS("l.\"it's\".y=1"), NULL,
	    "l.it's: cannot descend into a non-mapping at \"it's\"", 0, NULL);
	/* --unset walks without creating, but a scalar on the way is still an error */
	run("{\"name\": \"s\"}", NULL, SETS("name.a.b"), "name.a: cannot descend into a non-mapping at 'a'",
	    0, NULL);
	run("{\"name\": \"s\"}", NULL, SETS("name.a"), "{\"name\": \"s\"}", -1, "");
}

static void test_override_fanout(void **state)
{
	(void)state;
	/* Example A with --set roles.agg.args.context-length=16384 (spec §9.11). */
	run("{\"schema\": 2, \"base\": {\"roles\": {\"agg\": {\"args\": {\"context-length\": 4096}}}},"
	    " \"override_tp2\": {\"roles\": {\"agg\": {\"workers\": 1}}},"
	    " \"zip_override_context\": {\"name\": [\"a\", \"b\"], \"roles\": {\"agg\": {\"args\":"
	    " {\"context-length\": [2048, 8192]}}}}, \"other\": {\"x\": 1}, \"override_bad\": 5}",
	    SETS("roles.agg.args.context-length=16384"), NULL,
	    "{\"schema\": 2, \"base\": {\"roles\": {\"agg\": {\"args\": {\"context-length\": 16384}}}}, "
	    "\"override_tp2\": {\"roles\": {\"agg\": {\"workers\": 1, \"args\": {\"context-length\": 16384}}}}, "
	    "\"zip_override_context\": {\"name\": [\"a\", \"b\"], \"roles\": {\"agg\": {\"args\": "
	    "{\"context-length\": [16384]}}}}, \"other\": {\"x\": 1}, \"override_bad\": 5}",
	    -1, "--set roles.agg.args.context-length=16384\n");
	/* --unset is applied unchanged everywhere; a list value is wrapped once more. */
	run("{\"base\": {\"a\": 1, \"l\": [1]}, \"zip_override_z\": {\"a\": [1, 2]}, \"override_o\": {\"a\": 3}}",
	    SETS("l=[4, 8]"), SETS("a"),
	    "{\"base\": {\"l\": [4, 8]}, \"zip_override_z\": {\"l\": [[4, 8]]}, \"override_o\": {\"l\": [4, 8]}}",
	    -1, "--set l=[4, 8]\n--unset a\n");
	/* Through an index: sections without that list fail (spec §9.9). */
	run("{\"base\": {\"services\": [{\"port\": 1}]}, \"override_o\": {\"x\": 1}}",
	    SETS("services[0].port=2"), NULL, "services[0]: cannot index a non-list with [0]", 0, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_typing),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_apply_errors),
		cmocka_unit_test(test_override_fanout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
