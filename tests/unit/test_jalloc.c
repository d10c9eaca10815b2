/* jalloc: jansson's small values come back from their size class's free
 * list, never overlap, stay 16-byte aligned, and large ones go to malloc. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lib/jalloc.h"
#include "lib/json.h"

static void test_reuse_by_class(void **state)
{
	(void)state;
	void *a = jalloc_malloc(24);
	jalloc_free(a);
	/* 17..32 bytes are one class: the freed block comes back */
	assert_ptr_equal(jalloc_malloc(32), a);
	void *b = jalloc_malloc(24);
	assert_ptr_not_equal(b, a);
	jalloc_free(b);
	/* another class never takes it */
	void *c = jalloc_malloc(100);
	assert_ptr_not_equal(c, b);
	assert_ptr_equal(jalloc_malloc(20), b);
	jalloc_free(a);
	jalloc_free(b);
	jalloc_free(c);
	jalloc_free(NULL);
}

static void test_aligned_and_apart(void **state)
{
	(void)state;
	enum { N = 6000 };
	unsigned char **v = calloc(N, sizeof(*v));
	size_t *len = calloc(N, sizeof(*len));
	/* sizes 0..700 cross both the class limit and many 64 KiB chunks */
	for (size_t i = 0; i < N; i++) {
		len[i] = (i * 37) % 701;
		v[i] = jalloc_malloc(len[i]);
		assert_non_null(v[i]);
		assert_int_equal((uintptr_t)v[i] % 16, 0);
		memset(v[i], (int)(i & 0xff), len[i]);
	}
	for (size_t i = 0; i < N; i += 2)
		jalloc_free(v[i]);
	for (size_t i = 0; i < N; i += 2) {
		v[i] = jalloc_malloc(len[i]);
		memset(v[i], (int)(i & 0xff), len[i]);
	}
	for (size_t i = 0; i < N; i++) {
		for (size_t k = 0; k < len[i]; k++)
			assert_int_equal(v[i][k], i & 0xff);
		jalloc_free(v[i]);
	}
	free(v);
	free(len);
}

static void test_large_from_malloc(void **state)
{
	(void)state;
	/* over JALLOC_SMALL: a block of its own, whole and writable */
	unsigned char *p = jalloc_malloc(JALLOC_SMALL + 1);
	unsigned char *q = jalloc_malloc(1 << 20);
	memset(p, 1, JALLOC_SMALL + 1);
	memset(q, 2, 1 << 20);
	assert_int_equal(q[(1 << 20) - 1], 2);
	jalloc_free(p);
	jalloc_free(q);
}

static void test_jansson_on_jalloc(void **state)
{
	(void)state;
	json_malloc_t m;
	json_free_t f;
	json_get_alloc_funcs(&m, &f);
	assert_ptr_equal(m, jalloc_malloc);
	char big[2000];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	for (int round = 0; round < 3; round++) {
		json_t *o = json_pack("{s:i, s:s, s:[f, s, n], s:s}", "tp", 8, "model", "llama", "args", 1.5,
				      "--x", "long", big);
		char *s = json_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
		assert_non_null(s);
		assert_int_equal(strncmp(s, "{\"args\":[1.5,\"--x\",null],\"long\":\"xxx", 36), 0);
		const char *tail = "\",\"model\":\"llama\",\"tp\":8}";
		assert_string_equal(s + strlen(s) - strlen(tail), tail);
		assert_int_equal(strlen(s), 36 - 3 + sizeof(big) - 1 + strlen(tail));
		/* jansson's own text is jansson's to free */
		jalloc_free(s);
		/* json_text's copy is free()'s */
		s = json_text(json_object_get(o, "tp"), JSON_ENCODE_ANY);
		assert_string_equal(s, "8");
		free(s);
		json_decref(o);
	}
}

int main(void)
{
	/* as main() does, before any jansson value exists; set directly so the
	 * sanitizer build tests it too */
	json_set_alloc_funcs(jalloc_malloc, jalloc_free);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reuse_by_class),
		cmocka_unit_test(test_aligned_and_apart),
		cmocka_unit_test(test_large_from_malloc),
		cmocka_unit_test(test_jansson_on_jalloc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
