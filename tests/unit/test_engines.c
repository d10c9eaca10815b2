/* SPDX-License-Identifier: Apache-2.0 */
/* The engines and frontends table: every name srtctl's schema allows is a
 * row, rows are found by srtctl's spelling, and a recipe resolves its
 * engine and frontend to rows once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "model/engines.h"
#include "model/recipe.h"
#include "model/schema.h"

/* Each row sits at its id and is found by its own name. */
static void test_rows_at_their_ids(void **state)
{
	(void)state;
	for (int i = 0; i < ENG_COUNT; i++) {
		assert_int_equal(engine_rows[i].id, i);
		assert_ptr_equal(engine_find(engine_rows[i].name), &engine_rows[i]);
		assert_true(engine_is(engine_rows[i].name, (enum engine_id)i));
	}
	for (int i = 0; i < FE_COUNT; i++) {
		assert_int_equal(frontend_rows[i].id, i);
		assert_ptr_equal(frontend_find(frontend_rows[i].name), &frontend_rows[i]);
	}
	assert_null(engine_find("vLLM"));
	assert_null(engine_find(NULL));
	assert_null(frontend_find("nginx"));
	assert_false(frontend_is(NULL, FE_NONE));
}

/* The schema's allowed engine types are exactly the engine rows. */
static void test_schema_engines_are_rows(void **state)
{
	(void)state;
	int n = 0;
	for (const char *const *t = schema_engine_types; *t; t++, n++)
		assert_non_null(engine_find(*t));
	assert_int_equal(n, ENG_COUNT);
}

/* A direct frontend is one engine serving one worker (srtctl's
 * frontends/vllm.py, sglang.py, trtllm_serve.py, atom.py). */
static void test_direct_frontends(void **state)
{
	(void)state;
	assert_int_equal(frontend_rows[FE_VLLM].direct_engine, ENG_VLLM);
	assert_int_equal(frontend_rows[FE_SGLANG].direct_engine, ENG_SGLANG);
	assert_int_equal(frontend_rows[FE_TRTLLM_SERVE].direct_engine, ENG_TRTLLM);
	assert_int_equal(frontend_rows[FE_ATOM].direct_engine, ENG_ATOM);
	for (int i = 0; i < FE_COUNT; i++) {
		int direct = frontend_rows[i].cls == FEC_DIRECT;
		assert_int_equal(frontend_rows[i].direct_workers, direct);
		assert_int_equal(frontend_rows[i].direct_engine >= 0, direct);
		assert_false(direct && frontend_rows[i].nginx);
	}
	assert_true(engine_plan_takes(&engine_rows[ENG_VLLM], &frontend_rows[FE_VLLM]));
	assert_false(engine_plan_takes(&engine_rows[ENG_SGLANG], &frontend_rows[FE_VLLM]));
	assert_false(engine_plan_takes(&engine_rows[ENG_VLLM], &frontend_rows[FE_SMG]));
	assert_false(engine_plan_takes(NULL, &frontend_rows[FE_DYNAMO]));
}

/* recipe_init resolves the names to rows; a role inherits the engine. */
static void test_recipe_resolves(void **state)
{
	(void)state;
	struct recipe r;
	json_t *root = json_loads("{\"engine\": \"sglang\", \"roles\": "
				  "{\"agg\": {\"nodes\": 1}}}", 0, NULL);

	recipe_init(&r, root);
	assert_ptr_equal(r.eng, &engine_rows[ENG_SGLANG]);
	assert_ptr_equal(r.fe, &frontend_rows[FE_DYNAMO]);
	assert_ptr_equal(r.role[ROLE_AGG].eng, &engine_rows[ENG_SGLANG]);
	recipe_release(&r);
	json_decref(root);

	root = json_loads("{\"engine\": \"nope\", \"frontend\": "
			  "{\"type\": \"smg\"}}", 0, NULL);
	recipe_init(&r, root);
	assert_null(r.eng);
	assert_ptr_equal(r.fe, &frontend_rows[FE_SMG]);
	recipe_release(&r);
	json_decref(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_at_their_ids),
		cmocka_unit_test(test_schema_engines_are_rows),
		cmocka_unit_test(test_direct_frontends),
		cmocka_unit_test(test_recipe_resolves),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
