/* vLLM data parallelism in the launch plan.  Expected lines derived by hand
 * from srtctl's backends/vllm.py@009a4fa: a role is in DP mode when
 * data-parallel-size > 1 (find_dp_modes); behind the Dynamo frontend with
 * dp_launch_mode per_node (the default) each node of the worker is one
 * process (_dp_per_node_endpoints_to_processes) whose command, after
 * --device-ids, carries --data-parallel-size-local <node GPUs / TPxPP>
 * --data-parallel-start-rank <node index x local> --data-parallel-address
 * <leader> --data-parallel-rpc-port <the worker's> --data-parallel-hybrid-lb,
 * and the role args lose data-parallel-rpc-port, -size-local, -start-rank,
 * -hybrid-lb and headless (build_worker_command).  Ports: the worker takes
 * one DP RPC port on its leader node (ports.py DP_RPC_PORTS: 8400, per
 * node) and one NIXL block of data-parallel-size ports that every process
 * of the worker is given; each process takes a KV-event block of its local
 * rank count (core/topology.py NodePortAllocator.next: size slots move the
 * counter past the block).  A rank wider than a node keeps the plain
 * per-process ports and runs --master-addr/--nnodes/--node-rank plus
 * --data-parallel-address and the recipe's RPC port (else 8400), followers
 * --headless.  A multi-node worker unsets VLLM_PORT (worker stage).  A
 * direct `vllm serve` runs its ranks itself: its flags come from the args
 * (frontend vllm: worker_launch direct, expands_node_local_dp False). */
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
	     "\"observability\": {\"tachometer\": {\"enabled\": false}}, \"dynamo\": {\"install\": false}, " \
	     "\"benchmark\": {\"type\": \"manual\"}, "
#define DYN "\"frontend\": {\"enable_multiple_frontends\": false}, \"engine\": \"vllm\", "
#define KV "--kv-transfer-config '{\"kv_connector\": \"NixlConnector\", \"kv_role\": \"kv_both\"}' "

/* Prefill: DP 8 on one node; decode: DP 16 over two nodes, 8 ranks each. */
static void test_per_node_pd(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD DYN "\"roles\": {"
			     "\"prefill\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 8, \"args\": "
			     "{\"data-parallel-size\": 8, \"data-parallel-rpc-port\": 9999, "
			     "\"data_parallel_hybrid_lb\": true, \"enable-expert-parallel\": true}}, "
			     "\"decode\": {\"nodes\": 2, \"workers\": 1, \"gpus\": 16, \"args\": "
			     "{\"data-parallel-size\": 16}}}}");
	char *p = tu_step_of(o, "prefill_0_node-01"), *d0 = tu_step_of(o, "decode_0_node-02");
	char *d1 = tu_step_of(o, "decode_0_node-03");
	tu_has(p, "command: |\n    python3 -m dynamo.vllm --model /model --served-model-name model "
		  "--disaggregation-mode prefill " KV "--device-ids 0,1,2,3,4,5,6,7 "
		  "--data-parallel-size-local 8 --data-parallel-start-rank 0 --data-parallel-address 127.0.0.1 "
		  "--data-parallel-rpc-port 8400 --data-parallel-hybrid-lb --request-plane tcp "
		  "--dump-config-to /logs/workers/node-01_config.json --data-parallel-size 8 "
		  "--enable-expert-parallel\n");
	tu_has(p, "    DYN_VLLM_KV_EVENT_PORT: 5200\n");
	tu_has(p, "    VLLM_NIXL_SIDE_CHANNEL_PORT: 5400\n");
	tu_lacks(p, "env_to_unset");
	/* decode: KV events after prefill's block of 8, NIXL after its block of
	 * 8 and shared by both nodes; its own leader node's first RPC port */
	tu_has(d0, "--device-ids 0,1,2,3,4,5,6,7 --data-parallel-size-local 8 --data-parallel-start-rank 0 "
		   "--data-parallel-address 127.0.0.1 --data-parallel-rpc-port 8400 --data-parallel-hybrid-lb "
		   "--request-plane tcp --dump-config-to /logs/workers/node-02_config.json "
		   "--data-parallel-size 16\n");
	tu_has(d1, "--data-parallel-size-local 8 --data-parallel-start-rank 8 --data-parallel-address 127.0.0.1 "
		   "--data-parallel-rpc-port 8400 --data-parallel-hybrid-lb ");
	tu_lacks(d1, "--headless");
	tu_lacks(d1, "--master-addr");
	tu_has(d0, "    DYN_SYSTEM_PORT: 7501\n    DYN_VLLM_KV_EVENT_PORT: 5208\n");
	tu_has(d1, "    DYN_SYSTEM_PORT: 7502\n    DYN_VLLM_KV_EVENT_PORT: 5216\n");
	tu_has(d0, "    VLLM_NIXL_SIDE_CHANNEL_PORT: 5408\n    VLLM_PORT: 20050\n");
	tu_has(d1, "    VLLM_NIXL_SIDE_CHANNEL_PORT: 5408\n    VLLM_PORT: 20100\n");
	tu_has(d1, "env_to_unset: VLLM_PORT\n");
	free(p);
	free(d0);
	free(d1);
	free(o);
}

/* Two DP workers share a leader node: the second takes the next RPC port,
 * and the NIXL and KV blocks; a plain worker after them starts past both. */
static void test_blocks(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD DYN "\"roles\": {"
			     "\"prefill\": {\"nodes\": 1, \"workers\": 2, \"gpus\": 4, \"args\": "
			     "{\"data-parallel-size\": 2, \"tensor-parallel-size\": 2}}, "
			     "\"decode\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 4, \"args\": "
			     "{\"tensor-parallel-size\": 4}}}}");
	char *p0 = tu_step_of(o, "prefill_0_node-01"), *p1 = tu_step_of(o, "prefill_1_node-01");
	char *d = tu_step_of(o, "decode_0_node-02");
	tu_has(p0, "--device-ids 0,1,2,3 --data-parallel-size-local 2 --data-parallel-start-rank 0 "
		   "--data-parallel-address 127.0.0.1 --data-parallel-rpc-port 8400 --data-parallel-hybrid-lb ");
	tu_has(p1, "--device-ids 4,5,6,7 --data-parallel-size-local 2 --data-parallel-start-rank 0 "
		   "--data-parallel-address 127.0.0.1 --data-parallel-rpc-port 8401 --data-parallel-hybrid-lb ");
	tu_has(p0, "    DYN_VLLM_KV_EVENT_PORT: 5200\n");
	tu_has(p1, "    DYN_VLLM_KV_EVENT_PORT: 5202\n");
	tu_has(p0, "    VLLM_NIXL_SIDE_CHANNEL_PORT: 5400\n");
	tu_has(p1, "    VLLM_NIXL_SIDE_CHANNEL_PORT: 5402\n");
	tu_has(d, "    DYN_VLLM_KV_EVENT_PORT: 5204\n");
	tu_has(d, "    VLLM_NIXL_SIDE_CHANNEL_PORT: 5404\n");
	tu_has(d, "--device-ids 0,1,2,3 --request-plane tcp "); /* no DP flags */
	free(p0);
	free(p1);
	free(d);
	free(o);
}

/* DP 2 of TP 16 on 8-GPU nodes: each rank spans two nodes, one engine over
 * four nodes with the DP address and the recipe's RPC port. */
static void test_rank_spans_nodes(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD DYN "\"roles\": {\"agg\": {\"nodes\": 4, \"workers\": 1, \"gpus\": 32, "
			     "\"args\": {\"data-parallel-size\": 2, \"tensor-parallel-size\": 16, "
			     "\"data-parallel-rpc-port\": 9100}}}}");
	char *a0 = tu_step_of(o, "agg_0_node-01"), *a3 = tu_step_of(o, "agg_0_node-04");
	tu_has(a0, "--device-ids 0,1,2,3,4,5,6,7 --master-addr 127.0.0.1 --nnodes 4 --node-rank 0 "
		   "--data-parallel-address 127.0.0.1 --data-parallel-rpc-port 9100 --request-plane tcp "
		   "--dump-config-to /logs/workers/node-01_config.json --data-parallel-size 2 "
		   "--tensor-parallel-size 16\n");
	tu_has(a3, "--master-addr 127.0.0.1 --nnodes 4 --node-rank 3 --data-parallel-address 127.0.0.1 "
		   "--data-parallel-rpc-port 9100 --headless --request-plane tcp ");
	/* the plain layout's ports, one per process */
	tu_has(a3, "    DYN_VLLM_KV_EVENT_PORT: 5203\n");
	tu_has(a3, "    VLLM_NIXL_SIDE_CHANNEL_PORT: 5403\n");
	free(a0);
	free(a3);
	free(o);
}

/* frontend vllm: one `vllm serve` over both nodes, DP from the args; the
 * served name is set by default (build_worker_command's setdefault). */
static void test_direct_vllm(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD "\"frontend\": {\"type\": \"vllm\", \"enable_multiple_frontends\": false}, "
			     "\"engine\": \"vllm\", \"roles\": {\"agg\": {\"nodes\": 2, \"workers\": 1, "
			     "\"gpus\": 16, \"args\": {\"data-parallel-size\": 16}}}}");
	char *a1 = tu_step_of(o, "agg_0_node-02");
	tu_has(a1, "command: |\n    vllm serve /model --master-addr 127.0.0.1 --nnodes 2 --node-rank 1 --headless "
		   "--device-ids 0,1,2,3,4,5,6,7 --data-parallel-size 16 --served-model-name model\n");
	tu_lacks(a1, "--data-parallel-size-local");
	free(a1);
	free(o);
}

/* srtctl's own refusals (its messages), and the layouts not rendered yet. */
static void test_refusals(void **state)
{
	(void)state;
	tu_refused("{" HEAD DYN "\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 4, "
		       "\"args\": {\"data-parallel-size\": 2}}}}",
		       "agg data-parallel-size=2, tensor-parallel-size=1, pipeline-parallel-size=1, "
		       "prefill-context-parallel-size=1 require 2 GPUs, but the endpoint has 4 allocated GPUs");
	tu_refused("{" HEAD DYN "\"roles\": {\"agg\": {\"nodes\": 3, \"workers\": 1, \"gpus\": 24, "
		       "\"args\": {\"data-parallel-size\": 2, \"tensor-parallel-size\": 12}}}}",
		       "agg TP x PP replica size 12 does not divide evenly across nodes with 8 allocated GPUs each");
	tu_refused("{" HEAD DYN "\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 2, "
		       "\"args\": {\"data-parallel-size\": 2, \"headless\": true}}}}",
		       "roles.agg.args.headless cannot be set when vLLM uses per-node DP. srtslurm derives the "
		   "head/headless layout; remove headless.");
	tu_refused("{" HEAD DYN "\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 2, "
		       "\"args\": {\"data-parallel-size\": \"two\"}}}}",
		       "roles.agg.args.data-parallel-size must be a positive integer; got 'two'");
	tu_refused("{" HEAD "\"frontend\": {\"enable_multiple_frontends\": false}, \"engine\": "
		       "{\"type\": \"vllm\", \"dp_launch_mode\": \"per_gpu\"}, \"roles\": {\"agg\": {\"nodes\": 1, "
		       "\"workers\": 1, \"gpus\": 2, \"args\": {\"data-parallel-size\": 2}}}}",
		       "the launch plan for vLLM data parallelism with engine.dp_launch_mode 'per_gpu' is not rendered yet");
	tu_refused("{" HEAD "\"frontend\": {\"type\": \"vllm-router\", \"enable_multiple_frontends\": false}, "
		       "\"engine\": \"vllm\", \"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 2, "
		       "\"args\": {\"data-parallel-size\": 2}}}}",
		       "the launch plan for vLLM data parallelism (roles.agg.args.data-parallel-size) "
		   "behind frontend 'vllm-router' is not rendered yet");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_node_pd),
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_rank_spans_nodes),
		cmocka_unit_test(test_direct_vllm),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
