/*
 * The parallel sizes in a role's args against its GPUs per worker
 * (model/validate_engine_args.c): each engine's own product, a warning with
 * the GPU count that would fit, and silence when the args name no size.
 * Recipes are JSON trees through recipe_init, as validate_recipe sees them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "model/validate.h"
#include "model/validate_int.h"
#include "tests/unit/testutil.h"

/* Warnings of code parallel-gpus for one agg role of engine e. */
static size_t warn(const char *e, int gpus, const char *args, struct diag_list *l)
{
	char json[512];
	struct recipe r;
	snprintf(json, sizeof(json),
		 "{\"schema\":2,\"name\":\"t\",\"resources\":{\"gpus_per_node\":8},\"engine\":\"%s\","
		 "\"roles\":{\"agg\":{\"nodes\":1,\"workers\":1,\"gpus\":%d,\"args\":%s}}}",
		 e, gpus, args);
	tu_recipe_json(&r, json);
	validate_engine_args(&r, l);
	recipe_release(&r);
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++)
		n += !strcmp(l->v[i].code, "parallel-gpus");
	return n;
}

static void vllm_idle_gpus(void **state)
{
	struct diag_list l = DIAG_LIST_INIT;
	/* the case: 4 GPUs per worker, tensor-parallel-size 1 */
	assert_int_equal(warn("vllm", 4, "{\"tensor-parallel-size\":1}", &l), 1);
	assert_string_equal(l.v[0].message,
			    "roles.agg: 4 GPUs per worker, but its args ask for tensor-parallel-size 1 = 1");
	assert_string_equal(l.v[0].hint,
			    "3 of each worker's 4 GPUs would stay idle: set roles.agg.gpus: 1, or raise the parallel size");
	assert_string_equal(l.v[0].path, "roles.agg.gpus");
	assert_int_equal(l.v[0].severity, DIAG_WARNING);
	diag_list_release(&l);
}

static void vllm_products(void **state)
{
	struct diag_list l = DIAG_LIST_INIT;
	/* vLLM: tp x pp x dp */
	assert_int_equal(warn("vllm", 8, "{\"tensor-parallel-size\":2,\"pipeline-parallel-size\":2,"
					  "\"data-parallel-size\":2}", &l), 0);
	assert_int_equal(warn("vllm", 2, "{\"tensor-parallel-size\":4}", &l), 1);
	assert_string_equal(l.v[0].hint,
			    "the engine needs 4 GPUs per worker and gets 2: set roles.agg.gpus: 4, or lower the parallel size");
	diag_list_release(&l);
}

static void sglang_dp_attention(void **state)
{
	struct diag_list l = DIAG_LIST_INIT;
	/* dp attention ranks share the tp GPUs (srtctl's sglang dp examples:
	 * gpus 2, tp-size 2, dp-size 2, enable-dp-attention) */
	assert_int_equal(warn("sglang", 2, "{\"tp-size\":2,\"dp-size\":2,\"enable-dp-attention\":true}", &l), 0);
	/* without it, dp replicas each take tp GPUs */
	assert_int_equal(warn("sglang", 2, "{\"tp-size\":2,\"dp-size\":2}", &l), 1);
	assert_string_equal(l.v[0].message,
			    "roles.agg: 2 GPUs per worker, but its args ask for tp-size 2 x dp-size 2 = 4");
	diag_list_release(&l);
}

static void trtllm_and_silence(void **state)
{
	struct diag_list l = DIAG_LIST_INIT;
	assert_int_equal(warn("trtllm", 8, "{\"tensor_parallel_size\":8,\"kv_cache_config\":{}}", &l), 0);
	assert_int_equal(warn("trtllm", 8, "{\"tensor_parallel_size\":4}", &l), 1);
	diag_list_release(&l);
	/* no size written: the engine's default applies, nothing to check */
	assert_int_equal(warn("vllm", 4, "{\"max-model-len\":4096}", &l), 0);
	/* ATOM's -tp is srtctl's, from the GPU count */
	assert_int_equal(warn("atom", 4, "{\"tensor-parallel-size\":1}", &l), 0);
	diag_list_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vllm_idle_gpus),
		cmocka_unit_test(vllm_products),
		cmocka_unit_test(sglang_dp_attention),
		cmocka_unit_test(trtllm_and_silence),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
