/* Torch profiling in the launch plan (render/plan_profiling.h).  Expected
 * values from srtctl: core/schema.py ProfilingConfig.get_env_vars (8e804f0:
 * PROFILING_MODE, PROFILE_TYPE, the phase's steps, the torch folder per
 * mode) on every worker, last; cli/mixins/benchmark_stage.py
 * _get_benchmark_profiling_env on the client (every phase's steps, leader
 * IPs and endpoints by mode, and for sa-bench the output folder, model name,
 * head node and port, PROFILE_WORKER_PORT).  Nsight is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/recipe.h"
#include "lib/util.h"
#include "render/plan.h"
#include "tests/unit/testutil.h"
#include "tests/unit/plan_testutil.h"

#define HEAD "\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", " \
	     "\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, " \
	     "\"observability\": {\"tachometer\": {\"enabled\": false}}, " \
	     "\"benchmark\": {\"type\": \"sa-bench\", \"isl\": 8, \"osl\": 8, \"concurrencies\": \"4\"}, "
#define PD "\"roles\": {\"prefill\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1}, " \
	   "\"decode\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1}}"

static void test_torch_pd(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct recipe r;
	char *err = NULL;
	const char *o, *pf, *bench;
	(void)state;
	tu_recipe_json(&r, "{" HEAD "\"engine\": \"sglang\", \"frontend\": {\"type\": \"sglang-router\", "
		      "\"enable_multiple_frontends\": false}, \"profiling\": {\"type\": \"torch\", "
		      "\"prefill\": {\"start_step\": 2, \"stop_step\": 9}, \"decode\": {\"stop_step\": 5}}, "
		      PD "}");
	assert_int_equal(plan_render_snapshot(&out, &r, NULL, &err), 0);
	o = sb_str(&out);
	pf = strstr(o, "## prefill_0_node-01\n");
	bench = strstr(o, "## <unnamed>\n");
	assert_non_null(pf);
	assert_non_null(bench);
	tu_has(pf, "    PROFILE_PREFILL_START_STEP: 2\n    PROFILE_PREFILL_STOP_STEP: 9\n"
		"    PROFILE_TYPE: torch\n    PROFILING_MODE: prefill\n");
	tu_has(pf, "    SGLANG_TORCH_PROFILER_DIR: /logs/profiles/prefill\n");
	tu_has(strstr(o, "## decode_0_node-02\n"), "    PROFILE_DECODE_STOP_STEP: 5\n    PROFILE_TYPE: torch\n"
						  "    PROFILING_MODE: decode\n");
	/* the client: both phases, each role's leader on its HTTP port */
	tu_has(bench, "    PROFILE_DECODE_ENDPOINTS: 127.0.0.1:6100\n    PROFILE_DECODE_IPS: 127.0.0.1\n"
		   "    PROFILE_DECODE_STOP_STEP: 5\n    PROFILE_OUTPUT_DIR: /logs/profiles\n"
		   "    PROFILE_PREFILL_ENDPOINTS: 127.0.0.1:6100\n    PROFILE_PREFILL_IPS: 127.0.0.1\n"
		   "    PROFILE_PREFILL_START_STEP: 2\n    PROFILE_PREFILL_STOP_STEP: 9\n"
		   "    PROFILE_TYPE: torch\n    PROFILE_WORKER_PORT: 6100\n"
		   "    SGLANG_TORCH_PROFILER_DIR: /logs/profiles\n");
	/* the served name the workers get (the snapshot harness names the model "model") */
	tu_has(bench, "    BENCH_MODEL_NAME: model\n    HEAD_NODE: node-01\n    HEAD_PORT: 8000\n");
	strbuf_release(&out);
	recipe_release(&r);
}

static void test_dynamo_endpoint_is_system_port(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct recipe r;
	char *err = NULL;
	(void)state;
	tu_recipe_json(&r, "{" HEAD "\"engine\": \"sglang\", \"frontend\": {\"enable_multiple_frontends\": "
		      "false}, \"profiling\": {\"type\": \"torch\"}, " PD "}");
	assert_int_equal(plan_render_snapshot(&out, &r, NULL, &err), 0);
	tu_has(strstr(sb_str(&out), "## <unnamed>\n"),
	    "    PROFILE_DECODE_ENDPOINTS: 127.0.0.1:7501\n");
	strbuf_release(&out);
	recipe_release(&r);
}

static void test_nsys_refused(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct recipe r;
	char *err = NULL;
	(void)state;
	tu_recipe_json(&r, "{" HEAD "\"engine\": \"sglang\", \"profiling\": {\"type\": \"nsys\"}, " PD "}");
	assert_int_equal(plan_render_snapshot(&out, &r, NULL, &err), -1);
	assert_non_null(strstr(err, "profiling (type 'nsys') is not rendered yet"));
	free(err);
	strbuf_release(&out);
	recipe_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_torch_pd),
		cmocka_unit_test(test_dynamo_endpoint_is_system_port),
		cmocka_unit_test(test_nsys_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
