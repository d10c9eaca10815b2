/* mem_hash: the same value on every CPU (the schema's tables are hashed at
 * build time and looked up at run time), and every byte, the length and the
 * seed change it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "lib/util.h"

/* Pinned on a little-endian CPU: a big-endian one must give the same. */
static void test_pinned(void **state)
{
	(void)state;
	if (SIZE_MAX < UINT64_MAX)
		skip();
	assert_true(mem_hash("", 0, 0) == 0);
	assert_true(mem_hash("a", 1, 0) == (size_t)0x9b471411e60fb289u);
	assert_true(mem_hash("name", 4, 3) == (size_t)0xe37c6a30ff731730u);
	assert_true(mem_hash("resources", 9, 0) == (size_t)0xfd60f4d36bc32d77u);
	assert_true(mem_hash("gpus_per_node", 13, 3) == (size_t)0x2556b1ee79143430u);
}

/* Each bit of each byte, at every length up to three words. */
static void test_every_byte(void **state)
{
	(void)state;
	char s[24];
	for (size_t n = 1; n <= sizeof(s); n++) {
		memset(s, 'k', sizeof(s));
		size_t h = mem_hash(s, n, 0);
		for (size_t i = 0; i < n; i++)
			for (int bit = 0; bit < 8; bit++) {
				s[i] ^= (char)(1 << bit);
				if (mem_hash(s, n, 0) == h)
					fail_msg("length %zu: byte %zu bit %d leaves the hash", n, i, bit);
				s[i] ^= (char)(1 << bit);
			}
		if (mem_hash(s, n - 1, 0) == h)
			fail_msg("length %zu hashes as its first %zu bytes", n, n - 1);
		if (mem_hash(s, n, 1) == h)
			fail_msg("length %zu: the seed leaves the hash", n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pinned),
		cmocka_unit_test(test_every_byte),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
