/* The launch plan: srtctl's launch snapshots byte for byte (read from
 * $SHARED/reference when present), our own golden files for the shapes no
 * snapshot covers (vLLM P/D with a raw MultiConnector on prefill, ATOM P/D),
 * the per-node text view, user node names, and the plain refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/diag.h"
#include "model/doc.h"
#include "model/fileio.h"
#include "model/recipe.h"
#include "lib/util.h"
#include "render/plan.h"
#include "tests/unit/testutil.h"
#include "tests/unit/plan_testutil.h"

static const char *const snapshots[] = {
	"features__lmcache-server", "features__lmcache-server-sglang", "sglang__dynamo-agg",
	"sglang__sglang-direct-agg", "vllm__dynamo-agg", "vllm__dynamo-disagg",
};

static void test_saved_snapshots(void **state)
{
	const char *shared = getenv("SHARED");
	(void)state;
	if (!shared || !*shared) {
		printf("skipped: SHARED is empty, srtctl's launch snapshots are not available\n");
		skip();
	}
	for (size_t i = 0; i < sizeof(snapshots) / sizeof(*snapshots); i++) {
		char *yaml = xasprintf("%s/reference/%s.yaml", shared, snapshots[i]);
		char *snap = xasprintf("%s/reference/snapshots/%s.txt", shared, snapshots[i]);
		char *want = tu_slurp(snap), *name, *err = NULL;
		struct plan_opts o = { NULL, NULL, 0 };
		struct strbuf out = STRBUF_INIT;
		struct recipe r;
		assert_non_null(want);
		/* the first line names the recipe: "# examples/<folder>/<file>.yaml" */
		name = xstrndup(want + 2, strcspn(want + 2, "\n"));
		o.snapshot_name = name;
		assert_int_equal(tu_recipe_file(&r, yaml), 0);
		if (plan_render_snapshot(&out, &r, &o, &err) < 0)
			fail_msg("%s: %s", snapshots[i], err);
		tu_assert_same_text(want, sb_str(&out), snapshots[i]);
		strbuf_release(&out);
		recipe_release(&r);
		free(name);
		free(want);
		free(snap);
		free(yaml);
	}
}

static void check_golden(const char *fixture, const char *golden, int text)
{
	char *fx = xasprintf("tests/fixtures/plan/%s.yaml", fixture);
	char *fpath = tu_srcpath(fx), *gpath = tu_srcpath(golden), *want = tu_slurp(gpath), *err = NULL;
	struct plan_opts o = { fx, NULL, 0 };
	struct strbuf out = STRBUF_INIT;
	struct recipe r;
	assert_non_null(want);
	assert_int_equal(tu_recipe_file(&r, fpath), 0);
	if ((text ? plan_render_text(&out, &r, &o, &err) : plan_render_snapshot(&out, &r, &o, &err)) < 0)
		fail_msg("%s: %s", fixture, err);
	tu_assert_same_text(want, sb_str(&out), golden);
	strbuf_release(&out);
	recipe_release(&r);
	free(want);
	free(gpath);
	free(fpath);
	free(fx);
}

static void test_vllm_pd_multiconnector(void **state)
{
	(void)state;
	check_golden("vllm-pd-multiconnector", "tests/golden/plan/vllm-pd-multiconnector.snapshot", 0);
	check_golden("vllm-pd-multiconnector", "tests/golden/plan/vllm-pd-multiconnector.plan", 1);
}

/* nginx + router replicas (the default frontend layer), workers spanning
 * several nodes for vLLM (Dynamo and vllm-router) and SGLang. */
static void test_frontends_and_multinode(void **state)
{
	(void)state;
	check_golden("dynamo-nginx", "tests/golden/plan/dynamo-nginx.snapshot", 0);
	check_golden("dynamo-nginx", "tests/golden/plan/dynamo-nginx.plan", 1);
	check_golden("sglang-router-multinode", "tests/golden/plan/sglang-router-multinode.snapshot", 0);
	check_golden("vllm-multinode", "tests/golden/plan/vllm-multinode.snapshot", 0);
	check_golden("vllm-multinode", "tests/golden/plan/vllm-multinode.plan", 1);
	/* every vLLM worker, router-fronted too, gets DYN_VLLM_KV_EVENT_PORT (global
	 * from 5200) beside the NIXL side channel: srtctl's current-layout
	 * vllm-direct-agg and tilert snapshots show it on non-Dynamo workers */
	check_golden("vllm-router-multinode", "tests/golden/plan/vllm-router-multinode.snapshot", 0);
}

static void test_atom_pd(void **state)
{
	(void)state;
	check_golden("atom-pd", "tests/golden/plan/atom-pd.snapshot", 0);
	check_golden("atom-pd-lmcache", "tests/golden/plan/atom-pd-lmcache.snapshot", 0);
}

#define HEAD "\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", " \
	     "\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, "
#define ONE_FE "\"frontend\": {\"enable_multiple_frontends\": false}, "
#define PD "\"roles\": {\"prefill\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1}, " \
	   "\"decode\": {\"nodes\": \"colocate\", \"workers\": 1, \"gpus\": 1}}"

static void test_refusals(void **state)
{
	(void)state;
	tu_refused("{" HEAD ONE_FE "\"engine\": \"tokenspeed\", " PD "}",
		       "the launch plan for engine 'tokenspeed' is not rendered yet");
	/* trtllm_serve aggregated: the one worker owns the public port */
	tu_refused("{" HEAD "\"frontend\": {\"type\": \"trtllm_serve\"}, \"engine\": \"trtllm\", "
		       "\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 2, \"gpus\": 1}}}",
		       "frontend.type trtllm_serve in aggregated mode serves exactly one worker on the "
		       "public port; set roles.agg.workers: 1");
	tu_refused("{" HEAD "\"frontend\": {\"type\": \"smg\"}, \"engine\": \"sglang\", " PD "}",
		       "the launch plan for engine 'sglang' with frontend 'smg' is not rendered yet");
	tu_refused("{" HEAD "\"frontend\": {\"type\": \"sglang\"}, \"engine\": \"sglang\", "
		       "\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 8}}}",
		       "frontend.type: sglang binds the worker to the public port directly; set "
		       "frontend.enable_multiple_frontends: false");
	tu_refused("{" HEAD "\"frontend\": {\"type\": \"atomesh\", "
		       "\"enable_multiple_frontends\": false}, \"engine\": \"atom\", \"roles\": "
		       "{\"agg\": {\"nodes\": 2, \"workers\": 1, \"gpus\": 16}}}",
		       "the launch plan for agg workers spanning several nodes (16 GPUs, 8 per node) "
		       "is not rendered yet for engine 'atom'");
	/* a single frontend honours placement.node; only head is rendered */
	tu_refused("{" HEAD "\"frontend\": {\"enable_multiple_frontends\": false, \"placement\": "
		       "{\"node\": \"first_decode\"}}, \"engine\": \"vllm\", " PD "}",
		       "the launch plan for frontend.placement.node 'first_decode' is not rendered yet");
	/* MoRI-IO needs the vLLM Router (srtctl's backends/vllm.py@009a4fa
	 * kv_transfer_config); behind it, test_plan_moriio.c */
	tu_refused("{" HEAD ONE_FE "\"engine\": {\"type\": \"vllm\", \"connector\": \"moriio\"}, "
		       PD "}", "connector 'moriio' registers workers with the vLLM Router and needs the "
		       "worker topology; it is only available with frontend.type: vllm-router");
}

static void test_user_nodes_and_counts(void **state)
{
	static const char *const one[] = { "gpu-a" };
	static const char *const two[] = { "gpu-a", "gpu-b" };
	struct plan_opts o = { "x.yaml", one, 1 };
	struct strbuf out = STRBUF_INIT;
	struct recipe r;
	char *err = NULL;
	(void)state;
	tu_recipe_json(&r, "{" HEAD ONE_FE "\"engine\": \"vllm\", " PD "}");
	assert_int_equal(plan_job_nodes(&r), 1);
	/* one node exactly: the colocated decode packs onto the prefill node */
	assert_int_equal(plan_render_snapshot(&out, &r, &o, &err), 0);
	assert_non_null(strstr(sb_str(&out), "## decode_0_gpu-a\nnodelist: gpu-a\n"));
	assert_non_null(strstr(sb_str(&out), "--disaggregation-mode decode --kv-transfer-config "
					     "'{\"kv_connector\": \"NixlConnector\", \"kv_role\": "
					     "\"kv_both\"}' --device-ids 1 "));
	assert_non_null(strstr(sb_str(&out), "    VLLM_NIXL_SIDE_CHANNEL_HOST: gpu-a\n"));
	assert_non_null(strstr(sb_str(&out), "--advertise-client-urls http://gpu-a:2379\n"));
	strbuf_reset(&out);
	/* a spare node: decode moves to it, as in srtctl's snapshots */
	o.node_names = two;
	o.nnodes = 2;
	assert_int_equal(plan_render_text(&out, &r, &o, &err), 0);
	assert_non_null(strstr(sb_str(&out), "job: 1 node, "));
	/* a user node stands for its own IP: its name alone heads its steps */
	assert_non_null(strstr(sb_str(&out), "\ngpu-b — worker node\n  3. decode_0_gpu-b  "
					     "[GPUs 0, http 6100, DYN_SYSTEM_PORT 7501]\n"));
	assert_null(strstr(sb_str(&out), "(gpu-"));
	assert_null(strstr(sb_str(&out), "stand"));
	strbuf_reset(&out);
	/* without --nodes the readable plan takes the job's own nodes (no
	 * spare ones: decode packs onto node-01), says what they stand for, and
	 * at the end where the snapshot's longer list puts what runs elsewhere
	 * there (tests/unit/test_plan_spare.c) */
	o.node_names = NULL;
	o.nnodes = 0;
	assert_int_equal(plan_render_text(&out, &r, &o, &err), 0);
	assert_true(!strncmp(sb_str(&out), "job: 1 node, ", 13));
	assert_non_null(strstr(sb_str(&out), " srun steps\nnodes: node-01 stands for the node Slurm "
					     "allocates\n\nnode-01 — head, worker node\n"));
	assert_non_null(strstr(sb_str(&out), "\n\nlaunch snapshot: "));
	assert_non_null(strstr(sb_str(&out), "decode_0_node-01  [GPUs 1, "));
	assert_null(strstr(sb_str(&out), "\nnode-02"));
	assert_null(strstr(sb_str(&out), "127.0.0.1"));
	strbuf_reset(&out);
	/* the snapshot keeps the harness's list with its two spare nodes */
	assert_int_equal(plan_render_snapshot(&out, &r, &o, &err), 0);
	assert_non_null(strstr(sb_str(&out), "## decode_0_node-02\nnodelist: node-02\n"));
	strbuf_release(&out);
	recipe_release(&r);
}

/* A service's own srun fields print in the harness's key order (spec
 * §6.3: cpus_per_task before nodelist, cpu_bind after use_bash_wrapper),
 * and placeholders in its preamble, command and env are filled per
 * instance (§4.6). */
static void test_service_step_fields(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct recipe r;
	char *err = NULL;
	(void)state;
	tu_recipe_json(&r, "{" HEAD ONE_FE "\"engine\": \"vllm\", \"observability\": {\"tachometer\": "
		      "{\"enabled\": false}}, " PD ", \"services\": [{\"name\": \"probe\", "
		      "\"command\": [\"probe\", \"--at\", \"{node}\"], \"placement\": {\"node\": "
		      "\"workers\"}, \"start\": \"before_workers\", \"cpus_per_task\": 4, "
		      "\"cpu_bind\": \"none\", \"preamble\": \"echo {node_id} on {node}\\n\", "
		      "\"env\": {\"WHERE\": \"{node}\"}}]}");
	assert_int_equal(plan_render_snapshot(&out, &r, NULL, &err), 0);
	assert_non_null(strstr(sb_str(&out),
		"\n## service_probe_node-02\n"
		"cpus_per_task: 4\n"
		"nodelist: node-02\n"
		"output: <output>/logs/services/logs/service_probe_node-02.out\n"
		"container_image: c\n"
		"container_mounts:\n"
		"    <model>: /model\n"
		"    <output>/logs: /logs\n"
		"    <repo>/src/srtctl/benchmarks/scripts: /srtctl-benchmarks\n"
		"    <repo>/src/srtctl/runtime_scripts: /srtctl-runtime\n"
		"env_to_set:\n"
		"    ETCD_ENDPOINTS: http://127.0.0.1:2379\n"
		"    WHERE: node-02\n"
		"use_bash_wrapper: True\n"
		"cpu_bind: none\n"
		"bash_preamble: |\n"
		"    echo 1 on node-02\n"
		"command: |\n"
		"    probe --at node-02\n\n"));
	strbuf_release(&out);
	recipe_release(&r);
}

/* What every instance of a service shares is built once and what differs
 * per instance is not: a per-worker service on part-node workers (a GPU
 * mask each) and on a whole-node one (none), its command naming only the
 * plan-wide {head_ip}, its env one value of its own and, for the second
 * service, the instance's {node}. */
static void test_service_instances_share(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD ONE_FE "\"engine\": \"vllm\", \"observability\": {\"tachometer\": "
			     "{\"enabled\": false}}, \"roles\": {\"prefill\": {\"nodes\": 1, \"workers\": 2, "
			     "\"gpus\": 4}, \"decode\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 8}}, "
			     "\"services\": [{\"name\": \"probe\", \"command\": [\"probe\", \"{head_ip}\"], "
			     "\"placement\": {\"node\": \"workers\", \"per\": \"worker\"}, "
			     "\"env\": {\"MODE\": \"m\"}}, "
			     "{\"name\": \"where\", \"command\": [\"w\"], \"placement\": {\"node\": \"workers\"}, "
			     "\"env\": {\"AT\": \"{node}\"}}]}");
	static const char *const steps[] = { "service_probe_prefill_0_node-01",
					     "service_probe_prefill_1_node-01",
					     "service_probe_decode_0_node-02" };
	for (size_t i = 0; i < 3; i++) {
		char *st = tu_step_of(o, steps[i]);
		tu_has(st, "    ETCD_ENDPOINTS: http://127.0.0.1:2379\n");
		tu_has(st, "    MODE: m\n");
		tu_has(st, "command: |\n    probe 127.0.0.1\n");
		if (i < 2)
			tu_has(st, i ? "    CUDA_VISIBLE_DEVICES: 4,5,6,7\n" : "    CUDA_VISIBLE_DEVICES: 0,1,2,3\n");
		else
			tu_lacks(st, "CUDA_VISIBLE_DEVICES");
		free(st);
	}
	for (int n = 1; n <= 2; n++) {
		char *name = xasprintf("service_where_node-%02d", n), *want = xasprintf("    AT: node-%02d\n", n);
		char *st = tu_step_of(o, name);
		tu_has(st, want);
		tu_has(st, "command: |\n    w\n");
		free(st);
		free(want);
		free(name);
	}
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_saved_snapshots),
		cmocka_unit_test(test_vllm_pd_multiconnector),
		cmocka_unit_test(test_atom_pd),
		cmocka_unit_test(test_frontends_and_multinode),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_user_nodes_and_counts),
		cmocka_unit_test(test_service_step_fields),
		cmocka_unit_test(test_service_instances_share),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
