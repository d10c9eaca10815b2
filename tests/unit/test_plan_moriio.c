/* vLLM's MoRI-IO connector in the launch plan.  Expected lines derived by
 * hand from srtctl's backends/vllm.py@009a4fa: the moriio row is
 * MoRIIOConnector with kv_role kv_producer on prefill, kv_consumer on decode
 * and discovery on (_CONNECTOR_MAP); kv_transfer_config replaces the extra
 * config with _discovery_extra_config's keys in this order, every value a
 * string but read_mode: proxy_ip (the head node), proxy_ping_port 36367,
 * http_port (the process's, 0 on a follower node), host_ip (the process's
 * node), handshake_port, notify_port, read_mode true; json.dumps with the
 * default separators.  _with_connector_ports gives every MoRI-IO process,
 * after the standard ports, a handshake and a notify block of one port per
 * GPU (ports.py 26000 and 27000, job-wide, NodePortAllocator.next moving
 * past the block) and no VLLM_PORT scan range; get_process_environment
 * gives it no VLLM_NIXL_SIDE_CHANNEL_*.  The direct `vllm serve` puts the
 * config among its sorted args (build_worker_command).  The router
 * (frontends/vllm_router.py@020fbc6 build_router_command, and
 * static_router.py's discovery branch) gets --kv-connector <prefill's
 * connector, lowercased> --vllm-discovery-address 0.0.0.0:36367 right
 * before --host and no --prefill/--decode URLs; _validate_discovery refuses
 * a discovery connector on one role only, aggregate workers, nginx
 * replicas and a router off the head node. */
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
	     "\"observability\": {\"tachometer\": {\"enabled\": false}}, \"benchmark\": {\"type\": \"manual\"}, "
#define ROUTER "\"frontend\": {\"type\": \"vllm-router\", \"enable_multiple_frontends\": false}, "
#define MORIIO "\"engine\": {\"type\": \"vllm\", \"connector\": \"moriio\"}, "
/* two TP2 prefills sharing a node, one TP4 decode on the next */
#define ROLES "\"roles\": {\"prefill\": {\"nodes\": 1, \"workers\": 2, \"gpus\": 2, \"args\": " \
	      "{\"tensor-parallel-size\": 2}}, \"decode\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 4, " \
	      "\"args\": {\"tensor-parallel-size\": 4}}}"

#define EXTRA(role, http, host, hs, nt) \
	"--kv-transfer-config '{\"kv_connector\": \"MoRIIOConnector\", \"kv_role\": \"" role "\", " \
	"\"kv_connector_extra_config\": {\"proxy_ip\": \"127.0.0.1\", \"proxy_ping_port\": \"36367\", " \
	"\"http_port\": \"" http "\", \"host_ip\": \"" host "\", \"handshake_port\": \"" hs "\", " \
	"\"notify_port\": \"" nt "\", \"read_mode\": true}}' "

static void test_ports_and_router(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD ROUTER MORIIO ROLES "}");
	char *p0 = tu_step_of(o, "prefill_0_node-01"), *p1 = tu_step_of(o, "prefill_1_node-01");
	char *d0 = tu_step_of(o, "decode_0_node-02"), *rt = tu_step_of(o, "vllm_router_0");

	/* the second prefill starts past the first's two GPUs; the decode past both */
	tu_has(p0, "command: |\n    vllm serve /model --host 0.0.0.0 --port 6100 --device-ids 0,1 "
		   EXTRA("kv_producer", "6100", "127.0.0.1", "26000", "27000")
		   "--served-model-name model --tensor-parallel-size 2\n");
	tu_has(p1, "    vllm serve /model --host 0.0.0.0 --port 6132 --device-ids 2,3 "
		   EXTRA("kv_producer", "6132", "127.0.0.1", "26002", "27002")
		   "--served-model-name model --tensor-parallel-size 2\n");
	tu_has(d0, "    vllm serve /model --host 0.0.0.0 --port 6100 --device-ids 0,1,2,3 "
		   EXTRA("kv_consumer", "6100", "127.0.0.1", "26004", "27004")
		   "--served-model-name model --tensor-parallel-size 4\n");
	/* the KV-event port stays; no NIXL side channel, no scan range */
	tu_has(p1, "env_to_set:\n    DYN_VLLM_KV_EVENT_PORT: 5201\n    HEAD_NODE_IP: 127.0.0.1\nbash_preamble");
	tu_has(d0, "    DYN_VLLM_KV_EVENT_PORT: 5202\n");
	tu_lacks(o, "VLLM_NIXL_SIDE_CHANNEL");
	tu_lacks(o, "VLLM_PORT:");
	tu_has(rt, "command: |\n    vllm-router --vllm-pd-disaggregation --kv-connector moriio "
		   "--vllm-discovery-address 0.0.0.0:36367 --host 0.0.0.0 --port 8000 "
		   "--worker-startup-timeout-secs 1800\n");
	tu_lacks(rt, "--prefill");
	free(p0);
	free(p1);
	free(d0);
	free(rt);
	free(o);
}

/* The worker's own node is host_ip, the head node proxy_ip (with the
 * user's node names each name is its own address). */
static void test_own_nodes(void **state)
{
	(void)state;
	static const char *const names[] = { "a", "b" };
	struct plan_opts opts = { NULL, names, 2 };
	struct strbuf out = STRBUF_INIT;
	struct recipe r;
	char *err = NULL;
	tu_recipe_json(&r, "{" HEAD ROUTER MORIIO "\"roles\": {\"prefill\": {\"nodes\": 1, \"workers\": 1, "
			   "\"gpus\": 1}, \"decode\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1}}}");
	assert_int_equal(plan_render_snapshot(&out, &r, &opts, &err), 0);
	char *d = tu_step_of(sb_str(&out), "decode_0_b");
	tu_has(d, "\"proxy_ip\": \"a\", \"proxy_ping_port\": \"36367\", \"http_port\": \"6100\", "
		  "\"host_ip\": \"b\", \"handshake_port\": \"26001\", \"notify_port\": \"27001\"");
	free(d);
	strbuf_release(&out);
	recipe_release(&r);
}

/* A decode of two nodes is two processes, each its own eight-port block;
 * the follower has no HTTP port and says so. */
static void test_multinode(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD ROUTER MORIIO "\"roles\": {\"prefill\": {\"nodes\": 1, \"workers\": 1, "
			     "\"gpus\": 1}, \"decode\": {\"nodes\": 2, \"workers\": 1, \"gpus\": 16}}}");
	char *d0 = tu_step_of(o, "decode_0_node-02"), *d1 = tu_step_of(o, "decode_0_node-03");
	tu_has(d0, "\"http_port\": \"6100\", \"host_ip\": \"127.0.0.1\", \"handshake_port\": \"26001\", "
		   "\"notify_port\": \"27001\"");
	tu_has(d1, "    vllm serve /model --master-addr 127.0.0.1 --nnodes 2 --node-rank 1 --headless "
		   "--device-ids 0,1,2,3,4,5,6,7 "
		   EXTRA("kv_consumer", "0", "127.0.0.1", "26009", "27009")
		   "--served-model-name model\n");
	free(d0);
	free(d1);
	free(o);
}

/* The router's --kv-connector is the prefill's connector lowercased; the
 * Workers preview takes its ports from the same counters. */
static void test_spelling_and_preview(void **state)
{
	(void)state;
	const char *json = "{" HEAD ROUTER "\"engine\": {\"type\": \"vllm\", \"connector\": \"MoRIIO\"}, " ROLES "}";
	char *o = tu_plan_of(json);
	char *rt = tu_step_of(o, "vllm_router_0");
	struct recipe r;
	tu_has(rt, "--vllm-pd-disaggregation --kv-connector moriio --vllm-discovery-address");
	tu_recipe_json(&r, json);
	struct worker_ctx c = workers_preview_ctx(&r, ROLE_DECODE);
	assert_int_equal(c.moriio_handshake_port, 26004);
	assert_int_equal(c.notify_port, 27004);
	assert_int_equal(c.discovery_port, 36367);
	recipe_release(&r);
	free(rt);
	free(o);
}

#define PD "\"roles\": {\"prefill\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1}, " \
	   "\"decode\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1}}"

static void test_refusals(void **state)
{
	(void)state;
	/* one role on MoRI-IO still makes the router discover (discovers_workers) */
	tu_refused("{" HEAD ROUTER "\"engine\": \"vllm\", \"roles\": {\"prefill\": {\"nodes\": 1, "
		       "\"workers\": 1, \"gpus\": 1, \"args\": {\"connector\": \"moriio\"}}, \"decode\": "
		       "{\"nodes\": 1, \"workers\": 1, \"gpus\": 1}}}",
		       "a discovery connector must be set on both prefill and decode so the roles find each "
		       "other through the Router; got prefill='moriio', decode='nixl'");
	tu_refused("{" HEAD ROUTER MORIIO "\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1}}}",
		       "a discovery connector requires a prefill/decode topology; aggregate workers transfer no KV");
	tu_refused("{" HEAD "\"frontend\": {\"type\": \"vllm-router\"}, " MORIIO PD "}",
		       "vLLM Router discovery uses one registration endpoint; set "
		       "frontend.enable_multiple_frontends: false");
	tu_refused("{" HEAD "\"frontend\": {\"type\": \"vllm-router\", \"enable_multiple_frontends\": false, "
		       "\"placement\": {\"node\": \"first_decode\"}}, " MORIIO PD "}",
		       "vLLM Router discovery advertises the head node to every worker; set "
		       "frontend.placement.node: head");
	tu_refused("{" HEAD "\"frontend\": {\"type\": \"dynamo\", \"enable_multiple_frontends\": false}, "
		       "\"dynamo\": {\"install\": false}, " MORIIO PD "}",
		       "connector 'moriio' registers workers with the vLLM Router and needs the worker "
		       "topology; it is only available with frontend.type: vllm-router");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ports_and_router),
		cmocka_unit_test(test_own_nodes),
		cmocka_unit_test(test_multinode),
		cmocka_unit_test(test_spelling_and_preview),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
