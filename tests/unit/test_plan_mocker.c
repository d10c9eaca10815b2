/* Dynamo's mocker engine in the launch plan and the Workers previews.
 * Expected commands worked out from srtctl's backends/mocker.py at 435bc89
 * (build_worker_command: --model-path, --disaggregation-mode off agg,
 * --bootstrap-ports on a prefill with a bootstrap port, six flags always,
 * decode_speedup_ratio only when not 1.0, num_workers only above 1, the
 * None-default ones only when set, --no-enable-* for a switch turned off,
 * --preemption-mode last; floats are Python floats (100 -> 100.0);
 * _config_to_cli_args: the role args sorted, '_' as '-', true a bare flag,
 * false left out, a list as the flag then its items; get_served_model_name:
 * the default name whatever the args say; get_process_environment: nothing)
 * and, for --model-name after the model path, the launch snapshots of
 * features/result-publishers (d7256a2) and mocker/dynamo-agg (08b968d). */
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
#include "render/workers.h"
#include "tests/unit/testutil.h"
#include "tests/unit/plan_testutil.h"

#define HEAD "\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", " \
	     "\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, " \
	     "\"dynamo\": {\"install\": false}, " \
	     "\"observability\": {\"tachometer\": {\"enabled\": false}}, " \
	     "\"frontend\": {\"type\": \"dynamo\", \"enable_multiple_frontends\": false}, "
#define AGG "\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, \"env\": {\"X\": \"1\"}}}"
#define DEFAULT_FLAGS "--engine-type vllm --speedup-ratio 100.0 --data-parallel-size 1 " \
		      "--num-gpu-blocks-override 16384 --max-num-seqs 256 --max-num-batched-tokens 8192"

static void test_defaults(void **state)
{
	(void)state;
	/* decode_speedup_ratio 1 and num_workers 1 are the defaults: not passed */
	char *o = tu_plan_of("{" HEAD "\"engine\": {\"type\": \"mocker\", \"speedup_ratio\": 100, "
			     "\"decode_speedup_ratio\": 1, \"num_workers\": 1}, " AGG "}");
	char *w = tu_step_of(o, "agg_0_node-01");
	tu_has(w, "command: |\n    python3 -m dynamo.mocker --model-path /model --model-name model "
		  DEFAULT_FLAGS "\n");
	tu_has(w, "    DYN_SYSTEM_PORT: 7500\n");
	tu_has(w, "    X: 1\n");
	/* the whole node, and none of vLLM's per-process env */
	tu_lacks(w, "CUDA_VISIBLE_DEVICES");
	tu_lacks(w, "VLLM_");
	tu_lacks(w, "DYN_VLLM_KV_EVENT_PORT");
	free(w);
	free(o);
}

static void test_every_option(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD "\"engine\": {\"type\": \"mocker\", \"engine_type\": \"sglang\", "
			     "\"speedup_ratio\": 2.5, \"decode_speedup_ratio\": 2, \"num_gpu_blocks_override\": 100, "
			     "\"max_num_seqs\": 8, \"max_num_batched_tokens\": 512, \"block_size\": 64, "
			     "\"data_parallel_size\": 2, \"num_workers\": 3, \"startup_time\": 5, "
			     "\"kv_transfer_bandwidth\": 64.5, \"kv_cache_dtype\": \"fp8\", "
			     "\"enable_prefix_caching\": false, \"enable_chunked_prefill\": false, "
			     "\"preemption_mode\": \"swap\"}, \"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, "
			     "\"args\": {\"watermark\": 0.05, \"enable_foo\": true, \"skip_me\": false, "
			     "\"list_x\": [1, 2], \"served-model-name\": \"alias\"}}}, \"benchmark\": {\"type\": "
			     "\"sa-bench\", \"isl\": 128, \"osl\": 128, \"concurrencies\": \"4\"}}");
	char *w = tu_step_of(o, "agg_0_node-01"), *b = tu_step_of(o, "<unnamed>");
	tu_has(w, "    python3 -m dynamo.mocker --model-path /model --model-name model --engine-type sglang "
		  "--speedup-ratio 2.5 --data-parallel-size 2 --num-gpu-blocks-override 100 --max-num-seqs 8 "
		  "--max-num-batched-tokens 512 --decode-speedup-ratio 2.0 --block-size 64 --num-workers 3 "
		  "--startup-time 5.0 --kv-transfer-bandwidth 64.5 --kv-cache-dtype fp8 "
		  "--no-enable-prefix-caching --no-enable-chunked-prefill --preemption-mode swap "
		  "--enable-foo --list-x 1 2 --served-model-name alias --watermark 0.05\n");
	/* the benchmark asks for the model's own name, not the args' alias */
	tu_has(b, "bench.sh http://localhost:8000 128 128 4 inf /model model false 8 0 0 ");
	free(w);
	free(b);
	free(o);
}

static void test_prefill_decode(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD "\"engine\": \"mocker\", \"roles\": {\"prefill\": {\"nodes\": 1, "
			     "\"workers\": 1, \"gpus\": 1}, \"decode\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1}}}");
	char *p = tu_step_of(o, "prefill_0_node-01"), *d = tu_step_of(o, "decode_0_node-02");
	tu_has(p, "    python3 -m dynamo.mocker --model-path /model --model-name model --disaggregation-mode "
		  "prefill --bootstrap-ports 7200 " DEFAULT_FLAGS "\n");
	tu_has(p, "    CUDA_VISIBLE_DEVICES: 0\n");
	tu_has(d, "    python3 -m dynamo.mocker --model-path /model --model-name model --disaggregation-mode "
		  "decode " DEFAULT_FLAGS "\n");
	tu_has(d, "    DYN_SYSTEM_PORT: 7501\n");
	free(p);
	free(d);
	free(o);
}

static void test_refusal(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct recipe r;
	char *err = NULL;
	(void)state;
	tu_recipe_json(&r, "{\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", "
			   "\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, \"frontend\": "
			   "{\"type\": \"sglang\", \"enable_multiple_frontends\": false}, \"engine\": \"mocker\", " AGG "}");
	assert_int_equal(plan_render_snapshot(&out, &r, NULL, &err), -1);
	assert_string_equal(err, "the launch plan for engine 'mocker' with frontend 'sglang' is not rendered yet");
	free(err);
	strbuf_release(&out);
	recipe_release(&r);
}

static void test_workers_block(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct recipe r;
	(void)state;
	tu_recipe_json(&r, "{" HEAD "\"engine\": \"mocker\", " AGG "}");
	render_workers_block(&out, &r, WORKERS_DRYRUN, NULL, NULL);
	/* the mocker takes no --kv-transfer-config: its flags instead */
	assert_string_equal(sb_str(&out), "Workers:\n  agg engine=mocker workers=1 gpus=8\n    mocker: "
					  DEFAULT_FLAGS "\n");
	strbuf_reset(&out);
	render_workers_block(&out, &r, WORKERS_PANEL, NULL, NULL);
	tu_has(sb_str(&out), "  mocker (no weights, no KV transfer): " DEFAULT_FLAGS "\n");
	tu_lacks(sb_str(&out), "--kv-transfer-config");
	strbuf_release(&out);
	recipe_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_option),
		cmocka_unit_test(test_prefill_decode),
		cmocka_unit_test(test_refusal),
		cmocka_unit_test(test_workers_block),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
