/* A role's flags (spec §2.2) through the cache a view keeps from one plan
 * to the next are the flags made afresh, word for word, and joined as
 * shlex.join joins them: after a value edit, a name added, removed or
 * renamed, the args written in another order, a value of another type, a
 * list, and with another skip list or dash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/shell.h"
#include "lib/util.h"
#include "render/role_flags.h"

static const char *const skip_none[] = { NULL };
static const char *const skip_some[] = { "connector", "b_2", NULL };

static char *joined(const struct strvec *v)
{
	struct strbuf sb = STRBUF_INIT;
	shell_join(&sb, v->v, v->n);
	return sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
}

/* The cached flags of args are the fresh ones. */
static void check(struct flags_cache *c, json_t *args, const char *const *skip, int dash)
{
	struct strvec want = STRVEC_INIT;
	render_args(&want, args, skip, dash);
	struct role_flags *f = flags_cache_get(c, args, skip, dash);
	char *w = joined(&want), *g = joined(&f->v);
	assert_string_equal(g, w);
	assert_int_equal(f->v.n, want.n);
	assert_string_equal(role_flags_joined(f), w);
	free(w);
	free(g);
	role_flags_unref(f);
	strvec_release(&want);
}

static void test_words(void **state)
{
	(void)state;
	json_t *a = json_pack("{s:b, s:b, s:n, s:i, s:f, s:s, s:[i,s], s:s}", "on", 1, "off", 0,
			      "none", "max_len", 8, "ratio", 0.5, "name", "a b's", "sizes", 1, "x",
			      "connector", "nixl");
	struct strvec v = STRVEC_INIT;
	render_args(&v, a, skip_some, 1);
	char *j = joined(&v);
	assert_string_equal(j, "--max-len 8 --name 'a b'\"'\"'s' --on --ratio 0.5 --sizes 1 x");
	free(j);
	strvec_clear(&v);
	render_args(&v, a, skip_none, 0);
	j = joined(&v);
	assert_string_equal(j, "--connector nixl --max_len 8 --name 'a b'\"'\"'s' --on --ratio 0.5 "
			       "--sizes 1 x");
	free(j);
	strvec_release(&v);
	json_decref(a);
}

/* n args a_<i> of every kind of value, written in a scrambled order. */
static json_t *many(size_t n)
{
	json_t *o = json_object();
	for (size_t k = 0; k < n; k++) {
		size_t i = k * 37 % n;
		char name[32];
		snprintf(name, sizeof(name), i % 5 ? "a_%zu" : "b-%zu", i);
		switch (i % 5) {
		case 0: json_object_set_new(o, name, json_integer((json_int_t)i)); break;
		case 1: json_object_set_new(o, name, json_real(i / 8.0)); break;
		case 2: json_object_set_new(o, name, json_sprintf("v %zu", i)); break;
		case 3: json_object_set_new(o, name, json_boolean(i % 2)); break;
		default: json_object_set_new(o, name, json_pack("[i,i]", (int)i, 2)); break;
		}
	}
	return o;
}

static void test_edits(void **state)
{
	(void)state;
	struct flags_cache *c = flags_cache_new();
	for (int dash = 0; dash < 2; dash++) {
		json_t *a = many(300);
		check(c, a, skip_none, dash);
		check(c, a, skip_none, dash); /* a hit */
		check(c, a, skip_some, dash); /* another skip: other flags */
		/* a value edited, then again, then back */
		json_object_set_new(a, "a_7", json_integer(9999));
		check(c, a, skip_none, dash);
		json_object_set_new(a, "a_7", json_integer(10000));
		check(c, a, skip_none, dash);
		json_object_set_new(a, "a_7", json_real(7 / 8.0));
		check(c, a, skip_none, dash);
		/* the same value of another type */
		json_object_set_new(a, "b-10", json_string("10"));
		check(c, a, skip_none, dash);
		/* a list grown, a flag turned off, null */
		json_object_set_new(a, "b-4", json_pack("[i,i,i]", 4, 2, 1));
		json_object_set_new(a, "a_3", json_false());
		json_object_set_new(a, "a_8", json_null());
		check(c, a, skip_none, dash);
		/* names added (first, last, between), removed, a skipped one */
		json_object_set_new(a, "0first", json_true());
		json_object_set_new(a, "zz_last", json_integer(1));
		json_object_set_new(a, "a_15x", json_string("between"));
		json_object_set_new(a, "b_2", json_string("skipped"));
		check(c, a, skip_none, dash);
		check(c, a, skip_some, dash);
		json_object_del(a, "a_1");
		json_object_del(a, "0first");
		check(c, a, skip_none, dash);
		/* the same args written in another order */
		json_t *b = json_object();
		size_t n;
		const char **keys = json_sorted_keys(a, &n);
		for (size_t i = n; i-- > 0;)
			json_object_set(b, keys[i], json_object_get(a, keys[i]));
		free(keys);
		check(c, b, skip_none, dash);
		json_object_set_new(b, "a_6", json_string("edited"));
		check(c, b, skip_none, dash);
		check(c, a, skip_none, dash);
		/* fewer args than the last, then none */
		json_t *small = json_pack("{s:i}", "a_7", 1);
		check(c, small, skip_none, dash);
		json_t *empty = json_object();
		check(c, empty, skip_none, dash);
		check(c, a, skip_none, dash);
		/* more distinct args than the cache keeps */
		for (int i = 0; i < 20; i++) {
			json_object_set_new(a, "a_9", json_integer(i));
			check(c, a, i % 2 ? skip_some : skip_none, dash);
		}
		json_decref(empty);
		json_decref(small);
		json_decref(b);
		json_decref(a);
	}
	flags_cache_free(c);
}

/* The cached values are copies: args changed in place afterwards do not
 * make a stale hit. */
static void test_copies(void **state)
{
	(void)state;
	struct flags_cache *c = flags_cache_new();
	json_t *a = json_pack("{s:[i], s:i}", "sizes", 1, "n", 2);
	check(c, a, skip_none, 1);
	json_array_append_new(json_object_get(a, "sizes"), json_integer(2));
	json_integer_set(json_object_get(a, "n"), 3);
	check(c, a, skip_none, 1);
	/* no cache: made afresh; not an object: no flags */
	check(NULL, a, skip_none, 1);
	json_t *s = json_string("x");
	check(c, s, skip_none, 1);
	json_decref(s);
	json_decref(a);
	flags_cache_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_edits),
		cmocka_unit_test(test_copies),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
