/*
 * The lookup images the build links (model/images.h) are what the field,
 * engine flag and LMCache flag tables give now, they are the ones in use, and writing them is
 * reproducible.  test_schema and test_engine_flags check the lookups
 * themselves, through the same images.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/images.h"

static void test_schema_image_matches_table(void **state)
{
	(void)state;
	char *why = NULL;
	assert_non_null(&schema_tree_image);
	if (schema_tree_image_check(&why))
		fail_msg("the linked field tree differs from the table's: %s", why);
	assert_int_equal(schema_tree_image.nfields, schema_fields_count);
}

static void test_flags_image_matches_tables(void **state)
{
	(void)state;
	char *why = NULL;
	assert_non_null(engine_kind_images);
	if (engine_flags_image_check(&why))
		fail_msg("the linked flag index differs from the tables: %s", why);
	/* one per table engine_flags_find knows, in that order */
	assert_ptr_equal(engine_kind_images[0].t, engine_flags_find("vllm"));
	assert_ptr_equal(engine_kind_images[1].t, engine_flags_find("sglang"));
	assert_null(engine_kind_images[2].t);
}

static void test_lmc_image_matches_table(void **state)
{
	(void)state;
	char *why = NULL;
	assert_non_null(lmc_by_name_image);
	if (lmc_flags_image_check(&why))
		fail_msg("the linked LMCache flag order differs from the table's: %s", why);
	for (size_t i = 0; i < lmc_flags_count; i++) {
		const struct lmc_flag *f = &lmc_flags[lmc_by_name_image[i]];
		if (i)
			assert_true(strcmp(lmc_flags[lmc_by_name_image[i - 1]].name, f->name) <= 0);
		/* the first entry of a name is the one found */
		const struct lmc_flag *got = lmc_flag_find(f->name, NULL);
		assert_non_null(got);
		assert_string_equal(got->name, f->name);
		assert_true(got <= f);
	}
}

/* Lookups answer from the image: a key srtctl's engine table has is found
 * in the image's slots, with the kind engine_flags_kind gives. */
static void test_flags_lookup_uses_image(void **state)
{
	(void)state;
	const struct engine_kind_index *x = &engine_kind_images[0];
	size_t found = 0;
	for (size_t h = 0; h <= x->mask; h++)
		if (x->slot[h].name) {
			found++;
			assert_int_equal(engine_flags_kind(x->t, x->slot[h].name), x->slot[h].plain);
		}
	assert_true(found >= x->t->nflags);
}

static char *written(void (*write)(FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	write(f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_writing_is_reproducible(void **state)
{
	(void)state;
	char *a = written(schema_tree_write), *b = written(schema_tree_write);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "const struct schema_tree schema_tree_image = {"));
	free(a);
	free(b);
	a = written(engine_flags_write);
	b = written(engine_flags_write);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "{ &engine_flags_vllm, ek_0, "));
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema_image_matches_table),
		cmocka_unit_test(test_flags_image_matches_tables),
		cmocka_unit_test(test_flags_lookup_uses_image),
		cmocka_unit_test(test_lmc_image_matches_table),
		cmocka_unit_test(test_writing_is_reproducible),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
