/* The env map of a plan step: a later set wins, values are copied, small
 * and hashed (large) maps behave alike, the sorted order is strcmp's, and a
 * copy has its original's entries, shares its sorted order and sorts what
 * is set after it in with it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "render/envmap.h"

/* The map as "K=V K=V ..." in sorted order. */
static char *sorted_text(const struct envmap *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t *idx = xcalloc(m->n + 1, sizeof(*idx));
	envmap_sorted(m, idx);
	for (size_t i = 0; i < m->n; i++)
		strbuf_addf(&sb, "%s%s=%s", i ? " " : "", m->e[idx[i]].key, envmap_value(m, idx[i]));
	free(idx);
	return strbuf_detach(&sb, NULL);
}

/* The same as sorted_text, from the names sorted here by qsort. */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static char *want_text(const struct envmap *m)
{
	struct strbuf sb = STRBUF_INIT;
	const char **k = xcalloc(m->n + 1, sizeof(*k));
	for (size_t i = 0; i < m->n; i++)
		k[i] = m->e[i].key;
	qsort(k, m->n, sizeof(*k), cmp_str);
	for (size_t i = 0; i < m->n; i++)
		strbuf_addf(&sb, "%s%s=%s", i ? " " : "", k[i], envmap_get(m, k[i]));
	free(k);
	return strbuf_detach(&sb, NULL);
}

static void check_sorted(const struct envmap *m)
{
	char *got = sorted_text(m), *want = want_text(m);
	assert_string_equal(got, want);
	free(got);
	free(want);
}

/* n names in a scrambled order: N<k> for k = i * 37 mod n. */
static void fill(struct envmap *m, struct strvec *names, size_t n, const char *prefix)
{
	for (size_t i = 0; i < n; i++) {
		char val[32];
		strvec_pushf(names, "%s%zu", prefix, i * 37 % n);
		snprintf(val, sizeof(val), "v%zu", i);
		envmap_set(m, names->v[names->n - 1], val);
	}
}

static void test_set_get_sizes(void **state)
{
	(void)state;
	static const size_t sizes[] = { 0, 1, 5, ENVMAP_SCAN, ENVMAP_SCAN + 1, 100, 1000 };
	for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++) {
		struct envmap *m = envmap_new();
		struct strvec names = STRVEC_INIT;
		size_t n = sizes[s];
		fill(m, &names, n, "N");
		assert_int_equal(m->n, n);
		for (size_t i = 0; i < n; i++) {
			char want[32];
			snprintf(want, sizeof(want), "v%zu", i);
			assert_string_equal(envmap_get(m, names.v[i]), want);
		}
		/* a later set wins, in place; a value is copied with its length */
		if (n) {
			envmap_setn(m, names.v[0], "newer-and-cut", 5);
			assert_string_equal(envmap_get(m, names.v[0]), "newer");
			assert_int_equal(m->n, n);
		}
		assert_null(envmap_get(m, "absent"));
		envmap_set(m, "", "empty name");
		assert_string_equal(envmap_get(m, ""), "empty name");
		check_sorted(m);
		envmap_unref(m);
		strvec_release(&names);
	}
}

static void test_copy(void **state)
{
	(void)state;
	static const size_t sizes[] = { 3, ENVMAP_SCAN + 1, 700 };
	for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++) {
		struct envmap *m = envmap_new();
		struct strvec names = STRVEC_INIT, more = STRVEC_INIT;
		fill(m, &names, sizes[s], "B");
		char *orig = sorted_text(m);
		struct envmap *a = envmap_copy(m), *b = envmap_copy(m);
		/* the copy is its original's */
		char *ta = sorted_text(a);
		assert_string_equal(ta, orig);
		free(ta);
		/* names before, among and after the original's, and over them */
		fill(a, &more, 40, "B0x");
		envmap_set(a, "A", "first");
		envmap_set(a, "Z", "last");
		envmap_set(a, names.v[1], "changed");
		check_sorted(a);
		assert_string_equal(envmap_get(a, names.v[1]), "changed");
		/* the other copy and the original are untouched */
		ta = sorted_text(b);
		assert_string_equal(ta, orig);
		free(ta);
		envmap_set(b, "C", "c");
		check_sorted(b);
		ta = sorted_text(m);
		assert_string_equal(ta, orig);
		free(ta);
		/* the original grown after its copies: their order is its old one */
		envmap_set(m, "B-late", "x");
		check_sorted(m);
		struct envmap *c = envmap_copy(m);
		check_sorted(c);
		envmap_set(c, "D", "d");
		check_sorted(c);
		/* the original goes first: the copies keep what they share */
		envmap_unref(m);
		check_sorted(a);
		check_sorted(c);
		envmap_unref(a);
		envmap_unref(b);
		envmap_unref(c);
		free(orig);
		strvec_release(&names);
		strvec_release(&more);
	}
}

/* The JSON a map borrows its keys from lives as long as the map and its
 * copies. */
static void test_keep(void **state)
{
	(void)state;
	json_t *src = json_pack("{s:s, s:s}", "KEY_ONE", "1", "KEY_TWO", "2");
	struct envmap *m = envmap_new(), *c;
	const char *k;
	json_t *v;
	json_object_foreach(src, k, v)
		envmap_set(m, k, json_string_value(v));
	m->keep = src; /* taken */
	c = envmap_copy(m);
	envmap_unref(m);
	assert_int_equal(src->refcount, 1); /* the copy's */
	assert_string_equal(envmap_get(c, "KEY_TWO"), "2");
	envmap_unref(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_get_sizes),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_keep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
