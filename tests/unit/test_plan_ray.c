/* A `type: ray` service in the launch plan and the dry-run preview.
 * Expected lines by hand from srtctl's services/ray.py (stored as
 * SemiAnalysisAI/srt-slurm@4c4b3aa; the same lines are in NVIDIA srt-slurm's
 * launch snapshot of examples/miles/qwen3-4b-grpo at 8633852): the first
 * instance runs `ray start --head --port=P --dashboard-host=0.0.0.0
 * --dashboard-port=D` then the shared `--node-ip-address=<its ip>
 * --num-gpus=N --disable-usage-stats --block` and the service's args; every
 * other one waits for the head's GCS port over /dev/tcp (60 tries, 5 s
 * apart) and execs `ray start --address=<head ip>:P` with the same shared
 * words, joined by spaces inside one `bash -c` string.  N is options.num_gpus,
 * else the node's GPU count; CUDA_VISIBLE_DEVICES lists 0..N-1 and
 * RAY_memory_monitor_refresh_ms is 0, both under the recipe's env (srtctl's
 * service stage layers kind defaults, then the recipe's env).  The preview
 * (ServiceLaunchContext.preview) has no node: '<node_ip>', and
 * '<gpus_per_node>' unless options.num_gpus says. */
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
#include "render/service.h"
#include "tests/unit/testutil.h"
#include "tests/unit/plan_testutil.h"

#define BASE "\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", " \
	     "\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, " \
	     "\"observability\": {\"tachometer\": {\"enabled\": false}}, "
#define HEAD BASE "\"frontend\": {\"type\": \"none\"}, "

/* The snapshot on the nodes a and b: each node is its own IP there, so the
 * head's address can be told from a worker's. */
static char *plan_on_ab(const char *json)
{
	static const char *const names[] = { "a", "b" };
	struct plan_opts o = { NULL, names, 2 };
	struct strbuf out = STRBUF_INIT;
	struct recipe r;
	char *err = NULL;
	tu_recipe_json(&r, json);
	if (plan_render_snapshot(&out, &r, &o, &err) < 0)
		fail_msg("%s", err);
	recipe_release(&r);
	return strbuf_detach(&out, NULL);
}

static void test_head_and_worker(void **state)
{
	(void)state;
	char *o = plan_on_ab("{" HEAD "\"services\": [{\"name\": \"train\", \"type\": \"ray\", \"nodes\": 2}]}");
	char *h = tu_step_of(o, "service_train_a"), *w = tu_step_of(o, "service_train_b");
	tu_has(h, "env_to_set:\n    CUDA_VISIBLE_DEVICES: 0,1,2,3,4,5,6,7\n    ETCD_ENDPOINTS: http://a:2379\n"
	       "    RAY_memory_monitor_refresh_ms: 0\nuse_bash_wrapper: True\n");
	tu_has(h, "command: |\n    ray start --head --port=6379 --dashboard-host=0.0.0.0 --dashboard-port=8265 "
	       "--node-ip-address=a --num-gpus=8 --disable-usage-stats --block\n");
	tu_has(w, "    CUDA_VISIBLE_DEVICES: 0,1,2,3,4,5,6,7\n");
	tu_has(w, "command: |\n    bash -c 'for i in $(seq 1 60); do (exec 3<>/dev/tcp/a/6379) 2>/dev/null && "
	       "break; echo \"ray worker: waiting for head a:6379 ($i/60)\"; sleep 5; done; exec ray start "
	       "--address=a:6379 --node-ip-address=b --num-gpus=8 --disable-usage-stats --block'\n");
	free(h);
	free(w);
	free(o);
}

static void test_options_args_env(void **state)
{
	(void)state;
	char *o = plan_on_ab("{" HEAD "\"services\": [{\"name\": \"rl\", \"type\": \"ray\", \"nodes\": 2, "
			     "\"options\": {\"port\": 7000, \"dashboard_port\": 9000, \"num_gpus\": 4}, "
			     "\"args\": [\"--temp-dir=/tmp/ray-{index}\", \"--object-store-memory=1000\"], "
			     "\"env\": {\"RAY_memory_monitor_refresh_ms\": \"250\"}}]}");
	char *h = tu_step_of(o, "service_rl_a"), *w = tu_step_of(o, "service_rl_b");
	/* the device view follows num_gpus; the recipe's env wins over the kind's */
	tu_has(h, "    CUDA_VISIBLE_DEVICES: 0,1,2,3\n");
	tu_has(h, "    RAY_memory_monitor_refresh_ms: 250\n");
	/* args after --block, placeholders substituted per instance */
	tu_has(h, "command: |\n    ray start --head --port=7000 --dashboard-host=0.0.0.0 --dashboard-port=9000 "
	       "--node-ip-address=a --num-gpus=4 --disable-usage-stats --block --temp-dir=/tmp/ray-0 "
	       "--object-store-memory=1000\n");
	tu_has(w, "(exec 3<>/dev/tcp/a/7000) 2>/dev/null && break; echo \"ray worker: waiting for head a:7000 "
	       "($i/60)\"; sleep 5; done; exec ray start --address=a:7000 --node-ip-address=b --num-gpus=4 "
	       "--disable-usage-stats --block --temp-dir=/tmp/ray-1 --object-store-memory=1000'\n");
	free(h);
	free(w);
	free(o);
}

/* A ray service starts before the workers (srtctl's default_start). */
static void test_before_workers(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" BASE "\"engine\": \"sglang\", \"frontend\": {\"type\": \"sglang-router\", "
			     "\"enable_multiple_frontends\": false}, \"roles\": {\"agg\": {\"nodes\": 2, "
			     "\"workers\": 1, \"gpus\": 16}}, \"services\": [{\"name\": \"r\", \"type\": \"ray\"}]}");
	const char *ray = strstr(o, "\n## service_r_node-01\n"), *worker = strstr(o, "\n## agg_0_node-01\n");
	assert_non_null(ray);
	assert_non_null(worker);
	assert_true(ray < worker);
	free(o);
}

/* {pool_ip} is the pool's first node on every instance, the rendezvous a
 * torchrun or Ray cluster forms on (srtctl's ServiceLaunchContext.template_vars,
 * services/registry.py at 009a4fa: pool_ip = pool_ips[0]); {node_ip} is the
 * instance's own. */
static void test_pool_rendezvous(void **state)
{
	(void)state;
	char *o = plan_on_ab("{" HEAD "\"services\": [{\"name\": \"t\", \"nodes\": 2, \"command\": "
			     "[\"torchrun\", \"--node-rank={index}\", \"--master-addr={pool_ip}\", "
			     "\"--local-addr={node_ip}\", \"--first={pool_node}\"]}]}");
	tu_has(o, "## service_t_a\n");
	tu_has(o, "    torchrun --node-rank=0 --master-addr=a --local-addr=a --first=a\n");
	tu_has(o, "    torchrun --node-rank=1 --master-addr=a --local-addr=b --first=a\n");
	free(o);
}

static void test_preview(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	struct recipe r;
	tu_recipe_json(&r, "{" HEAD "\"services\": [{\"name\": \"train\", \"type\": \"ray\", \"nodes\": 2}]}");
	service_command(&sb, &r, &r.svc[0], NULL, NULL);
	assert_string_equal(sb_str(&sb), "ray start --head --port=6379 --dashboard-host=0.0.0.0 "
			    "--dashboard-port=8265 '--node-ip-address=<node_ip>' '--num-gpus=<gpus_per_node>' "
			    "--disable-usage-stats --block");
	strbuf_release(&sb);
	recipe_release(&r);
	tu_recipe_json(&r, "{" HEAD "\"services\": [{\"name\": \"train\", \"type\": \"ray\", \"nodes\": 2, "
		       "\"options\": {\"num_gpus\": 2}}]}");
	service_command(&sb, &r, &r.svc[0], NULL, NULL);
	assert_string_equal(sb_str(&sb), "ray start --head --port=6379 --dashboard-host=0.0.0.0 "
			    "--dashboard-port=8265 '--node-ip-address=<node_ip>' --num-gpus=2 "
			    "--disable-usage-stats --block");
	strbuf_release(&sb);
	recipe_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_head_and_worker),
		cmocka_unit_test(test_options_args_env),
		cmocka_unit_test(test_before_workers),
		cmocka_unit_test(test_pool_rendezvous),
		cmocka_unit_test(test_preview),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
