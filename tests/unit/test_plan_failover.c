/* vLLM shadow engine recovery (engine.failover) in the launch plan.
 * Expected values worked out from srtctl's rules, not recorded: backends/
 * vllm.py at 009a4fa (engines_per_process = 1 + shadow_engines;
 * failover_worker_dir <shared_dir stripped of '/'>/srtctl-<job>/<role>_<index>;
 * get_failover_environment; _failover_flags: --load-format gms
 * --gms-shadow-mode after the multi-node flags, --master-port base + 100 *
 * engine on a multi-node worker, the args' load-format / gms-shadow-mode /
 * master-port taken over; no --device-ids under failover), core/topology.py
 * endpoints_to_processes (endpoint, node, engine: every engine takes the next
 * port of each counter), services/gms.py at 594f6aa (one server per GPU, two
 * sockets each, the readiness timeout as the script's wait, default 120) and
 * tests/test_failover.py (step and log names with _e<k>, the config dump per
 * engine, mkdir of the directory in the preamble, no mask on a whole-node
 * worker).  The snapshot harness's job id is 4242. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/recipe.h"
#include "model/worker_ports.h"
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
/* two TP1 workers on one node, one shadow each (srtctl's acceptance recipe) */
#define TWO "\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 2, \"gpus\": 1, " \
	    "\"args\": {\"tensor-parallel-size\": 1}}}"

/* The steps named appear in this order. */
static void assert_order(const char *plan, const char *const *names)
{
	const char *at = plan;
	for (; *names; names++) {
		char *hdr = xasprintf("\n## %s\n", *names);
		const char *p = strstr(at, hdr);
		if (!p)
			fail_msg("step %s missing or out of order in:\n%s", *names, plan);
		at = p + 1;
		free(hdr);
	}
}

static void test_two_workers_one_shadow(void **state)
{
	static const char *const order[] = {
		"service_etcd", "service_gms_agg_0_node-01", "service_gms_agg_1_node-01",
		"agg_0_node-01", "agg_0_node-01_e1", "agg_1_node-01", "agg_1_node-01_e1",
		"frontend_0", NULL,
	};
	(void)state;
	char *o = tu_plan_of("{" HEAD "\"engine\": {\"type\": \"vllm\", \"failover\": {}}, " TWO "}");
	char *e1 = tu_step_of(o, "agg_0_node-01_e1"), *w1 = tu_step_of(o, "agg_1_node-01");
	char *g1 = tu_step_of(o, "service_gms_agg_1_node-01");
	assert_order(o, order);
	/* engine 1 of worker 0: the next port of every counter after engine 0 */
	tu_has(e1, "nodelist: node-01\noutput: <output>/logs/workers/node-01_agg_w0_e1.out\n");
	tu_has(e1, "    CUDA_VISIBLE_DEVICES: 0\n");
	tu_has(e1, "    DYN_SYSTEM_PORT: 7501\n    DYN_SYSTEM_STARTING_HEALTH_STATUS: notready\n"
		   "    DYN_VLLM_GMS_SHADOW_MODE: true\n    DYN_VLLM_KV_EVENT_PORT: 5201\n    ENGINE_ID: 1\n");
	tu_has(e1, "    FAILOVER_LOCK_PATH: /dev/shm/srtctl-4242/agg_0/failover.lock\n"
		   "    GMS_SOCKET_DIR: /dev/shm/srtctl-4242/agg_0\n");
	tu_has(e1, "    VLLM_NIXL_SIDE_CHANNEL_PORT: 5401\n    VLLM_PORT: 20050\n");
	tu_has(e1, "    ) || true ) && mkdir -p /dev/shm/srtctl-4242/agg_0\ncommand: |\n");
	tu_has(e1, "    python3 -m dynamo.vllm --model /model --served-model-name model --kv-transfer-config "
		   "'{\"kv_connector\": \"NixlConnector\", \"kv_role\": \"kv_both\"}' --load-format gms "
		   "--gms-shadow-mode --request-plane tcp --dump-config-to "
		   "/logs/workers/node-01_config_e1.json --tensor-parallel-size 1\n");
	tu_lacks(e1, "--device-ids");
	/* worker 1's engine 0 comes after both engines of worker 0 */
	tu_has(w1, "    CUDA_VISIBLE_DEVICES: 1\n");
	tu_has(w1, "    DYN_SYSTEM_PORT: 7502\n");
	tu_has(w1, "    ENGINE_ID: 0\n");
	tu_has(w1, "    GMS_SOCKET_DIR: /dev/shm/srtctl-4242/agg_1\n");
	tu_has(w1, "    VLLM_PORT: 20100\n");
	tu_has(w1, "--dump-config-to /logs/workers/node-01_config.json ");
	/* the gms instance of worker 1: its GPU, its directory, one server */
	tu_has(g1, "output: <output>/logs/services/logs/service_gms_agg_1_node-01.out\n");
	tu_has(g1, "env_to_set:\n    CUDA_VISIBLE_DEVICES: 1\n    ETCD_ENDPOINTS: http://127.0.0.1:2379\n"
		   "    GMS_SOCKET_DIR: /dev/shm/srtctl-4242/agg_1\nuse_bash_wrapper: True\ncommand: |\n"
		   "    bash -c 'set -u\n    dir=/dev/shm/srtctl-4242/agg_1\n");
	tu_has(g1, "    for device in $(seq 0 0); do\n        python3 -m gpu_memory_service --device "
		   "\"$device\" &\n");
	tu_has(g1, "    for _ in $(seq 1 120); do\n");
	tu_has(g1, "        if [ \"$count\" -ge 2 ]; then break; fi\n");
	tu_has(g1, "        echo \"GMS startup timed out: $count of 2 sockets in $dir after 120s\" >&2\n");
	tu_has(g1, "    echo \"GMS ready: 1 device(s), $count sockets in $dir\"\n");
	tu_has(g1, "    exit \"$rc\"\n    '\n");
	free(e1);
	free(w1);
	free(g1);
	free(o);
}

static void test_whole_node_two_shadows(void **state)
{
	static const char *const order[] = {
		"service_gms_agg_0_node-01", "agg_0_node-01", "agg_0_node-01_e1", "agg_0_node-01_e2",
		NULL,
	};
	(void)state;
	/* a declared gms service keeps the kind's rules; its readiness timeout
	 * is what the script waits */
	char *o = tu_plan_of("{" HEAD "\"engine\": {\"type\": \"vllm\", \"failover\": {\"shadow_engines\": 2, "
			     "\"shared_dir\": \"/scratch/\"}}, \"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, "
			     "\"gpus\": 8, \"args\": {\"tensor-parallel-size\": 8, \"load-format\": \"gms\"}}}, "
			     "\"services\": [{\"name\": \"gms\", \"type\": \"gms\", \"placement\": {\"node\": "
			     "\"workers\", \"per\": \"worker\"}, \"readiness\": {\"timeout_seconds\": 300}}]}");
	char *e2 = tu_step_of(o, "agg_0_node-01_e2"), *g = tu_step_of(o, "service_gms_agg_0_node-01");
	assert_order(o, order);
	/* the worker owns its node: no mask, on the engines or on gms */
	tu_lacks(e2, "CUDA_VISIBLE_DEVICES");
	tu_lacks(g, "CUDA_VISIBLE_DEVICES");
	tu_has(e2, "    DYN_SYSTEM_PORT: 7502\n");
	tu_has(e2, "    ENGINE_ID: 2\n");
	tu_has(e2, "    GMS_SOCKET_DIR: /scratch/srtctl-4242/agg_0\n");
	tu_has(e2, "    VLLM_PORT: 20100\n");
	tu_has(e2, "output: <output>/logs/workers/node-01_agg_w0_e2.out\n");
	/* the recipe's load-format gms is srtctl's own flag: passed once */
	tu_has(e2, "--load-format gms --gms-shadow-mode --request-plane tcp --dump-config-to "
		   "/logs/workers/node-01_config_e2.json --tensor-parallel-size 8\n");
	assert_null(strstr(strstr(e2, "--load-format") + 1, "--load-format"));
	tu_has(g, "    dir=/scratch/srtctl-4242/agg_0\n");
	tu_has(g, "    for device in $(seq 0 7); do\n");
	tu_has(g, "    for _ in $(seq 1 300); do\n");
	tu_has(g, "        if [ \"$count\" -ge 16 ]; then break; fi\n");
	tu_has(g, "    echo \"GMS ready: 8 device(s), $count sockets in $dir\"\n");
	free(e2);
	free(g);
	free(o);
}

static void test_multi_node_master_ports(void **state)
{
	static const char *const order[] = {
		"service_gms_agg_0_node-01", "service_gms_agg_0_node-02", "agg_0_node-01",
		"agg_0_node-01_e1", "agg_0_node-02", "agg_0_node-02_e1", NULL,
	};
	(void)state;
	char *o = tu_plan_of("{" HEAD "\"engine\": {\"type\": \"vllm\", \"failover\": {}}, \"roles\": {\"agg\": "
			     "{\"nodes\": 2, \"workers\": 1, \"gpus\": 16, \"args\": {\"tensor-parallel-size\": 16, "
			     "\"master-port\": 31000}}}}");
	char *l0 = tu_step_of(o, "agg_0_node-01"), *f1 = tu_step_of(o, "agg_0_node-02_e1");
	assert_order(o, order);
	tu_has(l0, "--master-addr 127.0.0.1 --nnodes 2 --node-rank 0 --load-format gms --gms-shadow-mode "
		   "--master-port 31000 --request-plane tcp --dump-config-to /logs/workers/node-01_config.json "
		   "--tensor-parallel-size 16\n");
	/* engine 1 on the follower: node 2's second engine, port 7500 + 3 */
	tu_has(f1, "--master-addr 127.0.0.1 --nnodes 2 --node-rank 1 --headless --load-format gms "
		   "--gms-shadow-mode --master-port 31100 --request-plane tcp --dump-config-to "
		   "/logs/workers/node-02_config_e1.json --tensor-parallel-size 16\n");
	tu_has(f1, "    DYN_SYSTEM_PORT: 7503\n");
	tu_has(f1, "env_to_unset: VLLM_PORT\n");
	free(l0);
	free(f1);
	free(o);
	/* without master-port in the args the base is 29500 */
	o = tu_plan_of("{" HEAD "\"engine\": {\"type\": \"vllm\", \"failover\": {}}, \"roles\": {\"agg\": "
		       "{\"nodes\": 2, \"workers\": 1, \"gpus\": 16}}}");
	f1 = tu_step_of(o, "agg_0_node-02_e1");
	tu_has(f1, "--gms-shadow-mode --master-port 29600 --request-plane tcp ");
	free(f1);
	free(o);
}

static void test_refusals(void **state)
{
	(void)state;
	tu_refused("{" HEAD "\"engine\": {\"type\": \"vllm\", \"failover\": {\"shadow_engines\": 0}}, " TWO "}",
		       "engine.failover.shadow_engines must be at least 1 (srtctl refuses it)");
	tu_refused("{" HEAD "\"engine\": {\"type\": \"vllm\", \"failover\": {\"shared_dir\": \"shm\"}}, " TWO "}",
		       "engine.failover.shared_dir must be an absolute directory below / (srtctl refuses it)");
	tu_refused("{" HEAD "\"engine\": {\"type\": \"vllm\", \"failover\": {}}, \"roles\": {\"agg\": "
		       "{\"nodes\": 1, \"workers\": 1, \"gpus\": 1, \"args\": {\"load_format\": \"safetensors\"}}}}",
		       "under engine.failover the roles' load-format must be gms or unset (srtctl refuses it)");
	tu_refused("{" HEAD "\"engine\": {\"type\": \"vllm\", \"failover\": {}}, \"roles\": {\"agg\": "
		       "{\"nodes\": 1, \"workers\": 1, \"gpus\": 2, \"args\": {\"data-parallel-size\": 2}}}}",
		       "engine.failover does not support data-parallel-size (srtctl refuses it)");
	tu_refused("{\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", "
		       "\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, \"frontend\": {\"type\": "
		       "\"vllm-router\", \"enable_multiple_frontends\": false}, \"engine\": {\"type\": \"vllm\", "
		       "\"failover\": {}}, " TWO "}",
		       "engine.failover requires frontend.type: dynamo (srtctl refuses it)");
}

/* The readable plan names each engine; the Workers block says what runs;
 * the port-clash check counts every engine's ports. */
static void test_previews(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct recipe r;
	struct wport_range w[16];
	char *err = NULL;
	size_t n;
	int seen = 0;
	(void)state;
	tu_recipe_json(&r, "{" HEAD "\"engine\": {\"type\": \"vllm\", \"failover\": {}}, " TWO "}");
	assert_int_equal(plan_render_text(&out, &r, NULL, &err), 0);
	tu_has(sb_str(&out), "  5. agg_0_node-01_e1  [GPUs 0, engine 1 of 2 (shadow), http 6132, "
			     "DYN_SYSTEM_PORT 7501]\n");
	tu_has(sb_str(&out), "GMS_SOCKET_DIR=/dev/shm/srtctl-<job_id>/agg_0 "); /* not the harness's id */
	strbuf_reset(&out);
	render_workers_block(&out, &r, WORKERS_DRYRUN, NULL, NULL);
	tu_has(sb_str(&out), "    failover: 2 engines per worker (steps agg_<index>_<node> and _e1), "
			     "--load-format gms --gms-shadow-mode, GMS sockets and failover.lock in "
			     "/dev/shm/srtctl-<job_id>/agg_<index>/, weights in a gms service per worker\n");
	n = role_worker_ports(&r, ROLE_AGG, w, 16);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(w[i].wp->what, "DYN_SYSTEM_PORT") || !strcmp(w[i].wp->what, "VLLM_PORT")) {
			assert_int_equal(w[i].first, 0);
			assert_int_equal(w[i].last, 3); /* 2 workers x 2 engines */
			seen++;
		}
	assert_int_equal(seen, 2);
	strbuf_release(&out);
	recipe_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_workers_one_shadow),
		cmocka_unit_test(test_whole_node_two_shadows),
		cmocka_unit_test(test_multi_node_master_ports),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_previews),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
