/* Worker allocation, ports, node counts and service instance placement
 * (spec §2.3, §1.5, §4.3, §4.7). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/recipe.h"
#include "lib/util.h"
#include "render/topology.h"
#include "tests/unit/testutil.h"

struct want {
	enum role_id role;
	int index, rank;
	size_t node;
	int gpu_first, ngpus;
};

static void check_alloc(const int counts[ROLE_COUNT], const int gpus[ROLE_COUNT], int gpn,
			size_t nodes, int spread, int colo, const struct want *w, size_t nw)
{
	struct topo_proc *p = NULL;
	size_t n = 0;
	char *err = NULL;
	assert_int_equal(topo_allocate(counts, gpus, gpn, nodes, spread, colo, &p, &n, &err), 0);
	assert_null(err);
	assert_int_equal(n, nw);
	for (size_t i = 0; i < nw; i++) {
		assert_int_equal(p[i].role, w[i].role);
		assert_int_equal(p[i].index, w[i].index);
		assert_int_equal(p[i].node_rank, w[i].rank);
		assert_int_equal(p[i].node, w[i].node);
		assert_int_equal(p[i].gpu_first, w[i].gpu_first);
		assert_int_equal(p[i].ngpus, w[i].ngpus);
	}
	free(p);
}

static void test_packing(void **state)
{
	/* Four 2-GPU workers fill one 8-GPU node at a running offset. */
	static const int c[ROLE_COUNT] = { 0, 0, 4 }, g[ROLE_COUNT] = { 0, 0, 2 };
	static const struct want w[] = {
		{ ROLE_AGG, 0, 0, 0, 0, 2 }, { ROLE_AGG, 1, 0, 0, 2, 2 },
		{ ROLE_AGG, 2, 0, 0, 4, 2 }, { ROLE_AGG, 3, 0, 0, 6, 2 },
	};
	/* 3-GPU workers: the third does not fit the 2 GPUs left and moves on. */
	static const int c3[ROLE_COUNT] = { 0, 0, 3 }, g3[ROLE_COUNT] = { 0, 0, 3 };
	static const struct want w3[] = {
		{ ROLE_AGG, 0, 0, 0, 0, 3 }, { ROLE_AGG, 1, 0, 0, 3, 3 }, { ROLE_AGG, 2, 0, 1, 0, 3 },
	};
	(void)state;
	check_alloc(c, g, 8, 1, 0, 0, w, 4);
	check_alloc(c3, g3, 8, 2, 0, 0, w3, 3);
}

static void test_whole_nodes(void **state)
{
	/* srtctl's own example: 2 prefill x 16 GPUs then 4 decode x 4 GPUs. */
	static const int c[ROLE_COUNT] = { 2, 4, 0 }, g[ROLE_COUNT] = { 16, 4, 0 };
	static const struct want w[] = {
		{ ROLE_PREFILL, 0, 0, 0, 0, 8 }, { ROLE_PREFILL, 0, 1, 1, 0, 8 },
		{ ROLE_PREFILL, 1, 0, 2, 0, 8 }, { ROLE_PREFILL, 1, 1, 3, 0, 8 },
		{ ROLE_DECODE, 0, 0, 4, 0, 4 }, { ROLE_DECODE, 1, 0, 4, 4, 4 },
		{ ROLE_DECODE, 2, 0, 5, 0, 4 }, { ROLE_DECODE, 3, 0, 5, 4, 4 },
	};
	/* A worker of exactly one node takes it whole. */
	static const int c8[ROLE_COUNT] = { 0, 0, 2 }, g8[ROLE_COUNT] = { 0, 0, 8 };
	static const struct want w8[] = { { ROLE_AGG, 0, 0, 0, 0, 8 }, { ROLE_AGG, 1, 0, 1, 0, 8 } };
	(void)state;
	check_alloc(c, g, 8, 6, 0, 0, w, 8);
	check_alloc(c8, g8, 8, 2, 0, 0, w8, 2);
}

static void test_spread(void **state)
{
	static const int c[ROLE_COUNT] = { 0, 0, 3 }, g[ROLE_COUNT] = { 0, 0, 2 };
	static const struct want w[] = {
		{ ROLE_AGG, 0, 0, 0, 0, 2 }, { ROLE_AGG, 1, 0, 1, 0, 2 }, { ROLE_AGG, 2, 0, 2, 0, 2 },
	};
	(void)state;
	check_alloc(c, g, 8, 3, 1, 0, w, 3);
}

static void test_decode_next_node_and_colocate(void **state)
{
	static const int c[ROLE_COUNT] = { 1, 1, 0 }, g[ROLE_COUNT] = { 1, 1, 0 };
	/* Another node exists: decode leaves the partial prefill node. */
	static const struct want next[] = { { ROLE_PREFILL, 0, 0, 0, 0, 1 },
					    { ROLE_DECODE, 0, 0, 1, 0, 1 } };
	/* colocate on an exact one-node allocation: decode packs after prefill. */
	static const struct want same[] = { { ROLE_PREFILL, 0, 0, 0, 0, 1 },
					    { ROLE_DECODE, 0, 0, 0, 1, 1 } };
	(void)state;
	check_alloc(c, g, 8, 3, 0, 0, next, 2);
	check_alloc(c, g, 8, 1, 0, 0, same, 2);
	/* vLLM allow_prefill_decode_colocation keeps packing. */
	check_alloc(c, g, 8, 3, 0, 1, same, 2);
}

static void test_not_enough_nodes(void **state)
{
	static const int c[ROLE_COUNT] = { 0, 0, 3 }, g[ROLE_COUNT] = { 0, 0, 8 };
	struct topo_proc *p = NULL;
	size_t n = 0;
	char *err = NULL;
	(void)state;
	assert_int_equal(topo_allocate(c, g, 8, 2, 0, 0, &p, &n, &err), -1);
	assert_string_equal(err, "not enough nodes for agg worker 2: the allocation has 2 nodes; "
				 "raise roles.agg.nodes or lower workers/gpus");
	assert_null(p);
	free(err);
}

/* ---- whole recipes --------------------------------------------------------- */

#define HEAD "\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", " \
	     "\"precision\": \"bf16\"}, "

static void test_ports(void **state)
{
	struct recipe r;
	struct topology t;
	char *err = NULL;
	(void)state;
	tu_recipe_json(&r, "{" HEAD "\"resources\": {\"gpus_per_node\": 8}, \"engine\": \"sglang\", "
		 "\"roles\": {\"prefill\": {\"nodes\": 1, \"workers\": 2, \"gpus\": 1}, "
		 "\"decode\": {\"nodes\": 1, \"workers\": 2, \"gpus\": 4}}}");
	assert_int_equal(topo_build(&t, &r, NULL, 0, &err), 0);
	assert_int_equal(t.job_nodes, 2);
	assert_int_equal(t.nnodes, 4);
	assert_string_equal(t.node[3], "node-04");
	assert_string_equal(t.ip[3], "127.0.0.1");
	assert_int_equal(t.nproc, 4);
	/* per node: http +32, bootstrap +1 on prefill; global: sys, kv, nixl, VLLM_PORT */
	assert_int_equal(t.proc[0].http_port, 6100);
	assert_int_equal(t.proc[1].http_port, 6132);
	assert_int_equal(t.proc[0].bootstrap_port, 7200);
	assert_int_equal(t.proc[1].bootstrap_port, 7201);
	assert_int_equal(t.proc[2].node, 1);
	assert_int_equal(t.proc[2].http_port, 6100);
	assert_int_equal(t.proc[2].bootstrap_port, 0);
	assert_int_equal(t.proc[3].gpu_first, 4);
	assert_int_equal(t.proc[3].http_port, 6132);
	assert_int_equal(t.proc[3].sys_port, 7503);
	assert_int_equal(t.proc[3].nccl_port, 17503);
	assert_int_equal(t.proc[3].kv_events_port, 5203);
	assert_int_equal(t.proc[3].nixl_port, 5403);
	assert_int_equal(t.proc[3].vllm_port, 20150);
	topo_release(&t);
	recipe_release(&r);
}

static void test_job_nodes(void **state)
{
	struct recipe r;
	(void)state;
	/* colocate adds no node */
	tu_recipe_json(&r, "{" HEAD "\"engine\": \"vllm\", \"roles\": {\"prefill\": {\"nodes\": 1, "
		 "\"workers\": 1, \"gpus\": 1}, \"decode\": {\"nodes\": \"colocate\", \"workers\": 1, "
		 "\"gpus\": 1}}}");
	assert_int_equal(topo_job_nodes(&r), 1);
	recipe_release(&r);
	/* a dedicated etcd and a 2-node pool */
	tu_recipe_json(&r, "{" HEAD "\"engine\": \"vllm\", \"roles\": {\"agg\": {\"nodes\": 2, \"workers\": 2}}, "
		 "\"services\": [{\"name\": \"etcd\", \"type\": \"etcd\", \"placement\": {\"node\": "
		 "\"dedicated\"}}, {\"name\": \"p\", \"command\": [\"x\"], \"nodes\": 2, "
		 "\"placement\": {\"node\": \"workers\"}}]}");
	assert_int_equal(topo_job_nodes(&r), 5);
	recipe_release(&r);
	/* no node count and no GPU count: unknown */
	tu_recipe_json(&r, "{" HEAD "\"engine\": \"vllm\", \"roles\": {\"agg\": {\"workers\": 2}}}");
	assert_int_equal(topo_job_nodes(&r), -1);
	recipe_release(&r);
}

/* Step names and nodes of every instance of service `name`, "step@node ..." */
static char *instances(const struct topology *t, const struct recipe *r, const char *name)
{
	const struct service *s = NULL;
	struct topo_inst *in;
	size_t n;
	char *out = xstrdup("");
	for (size_t i = 0; i < r->nsvc; i++)
		if (!strcmp(r->svc[i].name, name))
			s = &r->svc[i];
	assert_non_null(s);
	topo_service_instances(t, s, &in, &n);
	for (size_t i = 0; i < n; i++) {
		char *next = xasprintf("%s%s%s@%s%s%s", out, i ? " " : "", in[i].step, t->node[in[i].node],
				       in[i].cuda_visible ? "/" : "",
				       in[i].cuda_visible ? in[i].cuda_visible : "");
		free(out);
		out = next;
	}
	topo_insts_free(in, n);
	return out;
}

static void expect_inst(const struct topology *t, const struct recipe *r, const char *name,
			const char *want)
{
	char *got = instances(t, r, name);
	assert_string_equal(got, want);
	free(got);
}

static void test_placements(void **state)
{
	struct recipe r;
	struct topology t;
	char *err = NULL;
	(void)state;
	/* P/D: 2 prefill x 4 GPUs on node-01, 3 decode x 2 GPUs from node-02 (two
	 * fit... three of them: 0-1, 2-3, 4-5), plus services of every placement. */
	tu_recipe_json(&r, "{" HEAD "\"resources\": {\"gpus_per_node\": 8}, \"engine\": \"vllm\", "
		 "\"roles\": {\"prefill\": {\"nodes\": 1, \"workers\": 2, \"gpus\": 4}, "
		 "\"decode\": {\"nodes\": 1, \"workers\": 3, \"gpus\": 2}}, "
		 "\"services\": ["
		 "{\"name\": \"h\", \"command\": [\"x\"]},"
		 "{\"name\": \"i\", \"command\": [\"x\"], \"placement\": {\"node\": \"infra\"}},"
		 "{\"name\": \"pf\", \"command\": [\"x\"], \"placement\": {\"node\": \"prefill\"}},"
		 "{\"name\": \"dc\", \"command\": [\"x\"], \"placement\": {\"node\": \"decode\"}},"
		 "{\"name\": \"ag\", \"command\": [\"x\"], \"placement\": {\"node\": \"agg\"}},"
		 "{\"name\": \"wk\", \"command\": [\"x\"], \"placement\": {\"node\": \"workers\"}},"
		 "{\"name\": \"cp\", \"command\": [\"x\"], \"placement\": {\"node\": \"compute\"}},"
		 "{\"name\": \"al\", \"command\": [\"x\"], \"placement\": {\"node\": \"all\"}},"
		 "{\"name\": \"pw\", \"command\": [\"x\"], \"placement\": {\"node\": \"decode\", "
		 "\"per\": \"worker\"}},"
		 "{\"name\": \"ww\", \"command\": [\"x\"], \"placement\": {\"node\": \"workers\", "
		 "\"per\": \"worker\"}}"
		 "], \"observability\": {\"tachometer\": {\"enabled\": false}}}");
	assert_int_equal(topo_build(&t, &r, NULL, 0, &err), 0);
	expect_inst(&t, &r, "h", "service_h@node-01");
	expect_inst(&t, &r, "i", "service_i@node-01");
	expect_inst(&t, &r, "pf", "service_pf@node-01");
	expect_inst(&t, &r, "dc", "service_dc@node-02");
	expect_inst(&t, &r, "ag", ""); /* selects no nodes: skipped */
	/* the mock's worker nodes are every listed node */
	expect_inst(&t, &r, "wk", "service_wk_node-01@node-01 service_wk_node-02@node-02 "
				  "service_wk_node-03@node-03 service_wk_node-04@node-04");
	expect_inst(&t, &r, "cp", "service_cp_node-01@node-01 service_cp_node-02@node-02 "
				  "service_cp_node-03@node-03 service_cp_node-04@node-04");
	expect_inst(&t, &r, "al", "service_al_node-01@node-01 service_al_node-02@node-02 "
				  "service_al_node-03@node-03 service_al_node-04@node-04");
	expect_inst(&t, &r, "pw", "service_pw_decode_0_node-02@node-02/0,1 "
				  "service_pw_decode_1_node-02@node-02/2,3 "
				  "service_pw_decode_2_node-02@node-02/4,5");
	expect_inst(&t, &r, "ww", "service_ww_prefill_0_node-01@node-01/0,1,2,3 "
				  "service_ww_prefill_1_node-01@node-01/4,5,6,7 "
				  "service_ww_decode_0_node-02@node-02/0,1 "
				  "service_ww_decode_1_node-02@node-02/2,3 "
				  "service_ww_decode_2_node-02@node-02/4,5");
	topo_release(&t);
	recipe_release(&r);
}

static void test_pools_dedicated_and_user_nodes(void **state)
{
	static const char *const names[] = { "a1", "a2", "a3", "a4", "a5" };
	struct recipe r;
	struct topology t;
	char *err = NULL;
	(void)state;
	tu_recipe_json(&r, "{" HEAD "\"resources\": {\"gpus_per_node\": 4}, \"engine\": \"vllm\", "
		 "\"roles\": {\"agg\": {\"nodes\": 2, \"workers\": 2, \"gpus\": 4}}, "
		 "\"services\": ["
		 "{\"name\": \"etcd\", \"type\": \"etcd\", \"placement\": {\"node\": \"dedicated\"}},"
		 "{\"name\": \"own\", \"command\": [\"x\"], \"nodes\": 1, \"placement\": {\"node\": "
		 "\"workers\"}},"
		 "{\"name\": \"onpool\", \"command\": [\"x\"], \"placement\": {\"pool\": \"own\"}},"
		 "{\"name\": \"wk\", \"command\": [\"x\"], \"placement\": {\"node\": \"workers\"}},"
		 "{\"name\": \"cp\", \"command\": [\"x\"], \"placement\": {\"node\": \"compute\"}},"
		 "{\"name\": \"al\", \"command\": [\"x\"], \"placement\": {\"node\": \"all\"}},"
		 "{\"name\": \"hd\", \"command\": [\"x\"]}"
		 "], \"observability\": {\"tachometer\": {\"enabled\": false}}}");
	assert_int_equal(topo_job_nodes(&r), 4);
	/* user nodes: the names stand in for IPs; a1 is the dedicated infra node */
	assert_int_equal(topo_build(&t, &r, names, 4, &err), 0);
	assert_string_equal(t.ip[1], "a2");
	assert_int_equal(t.infra, 0);
	assert_int_equal(t.head, 1);
	assert_int_equal(t.proc[0].node, 1);
	assert_int_equal(t.proc[1].node, 2);
	expect_inst(&t, &r, "etcd", "service_etcd@a1");
	expect_inst(&t, &r, "own", "service_own@a4");
	expect_inst(&t, &r, "onpool", "service_onpool@a4");
	expect_inst(&t, &r, "wk", "service_wk_a2@a2 service_wk_a3@a3");
	expect_inst(&t, &r, "cp", "service_cp_a2@a2 service_cp_a3@a3 service_cp_a4@a4");
	expect_inst(&t, &r, "al", "service_al_a2@a2 service_al_a1@a1 service_al_a3@a3 "
				  "service_al_a4@a4");
	expect_inst(&t, &r, "hd", "service_hd@a2");
	topo_release(&t);
	/* too few user nodes for engine + pool */
	assert_int_equal(topo_build(&t, &r, names, 3, &err), -1);
	assert_string_equal(err, "the allocation has 2 non-reserved node(s) but the recipe needs 3 "
				 "(engine roles plus service pools)");
	free(err);
	recipe_release(&r);
}

/* The snapshot harness's node list (srtctl tests/launch_snapshots.py at
 * 47c51e8): node-01 .. node-(total_nodes + 2), where srtctl's total_nodes
 * counts the engine's and the pools' nodes but not a dedicated one, which
 * the sbatch asks for on top (the job's 2 nodes here).  The snapshot of
 * features/infra-services at 73e0061 shows it: one agg node and a dedicated
 * etcd/NATS node give node-01 (infra) .. node-03. */
static void test_mock_list_without_dedicated(void **state)
{
	struct recipe r;
	struct topology t;
	char *err = NULL;
	(void)state;
	tu_recipe_json(&r, "{" HEAD "\"resources\": {\"gpus_per_node\": 8}, \"engine\": \"sglang\", "
		 "\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 2, \"gpus\": 1}}, "
		 "\"services\": [{\"name\": \"etcd\", \"type\": \"etcd\", \"placement\": {\"node\": "
		 "\"dedicated\"}}], \"observability\": {\"tachometer\": {\"enabled\": false}}}");
	assert_int_equal(topo_job_nodes(&r), 2);
	assert_int_equal(topo_build(&t, &r, NULL, 0, &err), 0);
	assert_int_equal(t.nnodes, 3);
	assert_string_equal(t.node[t.infra], "node-01");
	assert_string_equal(t.node[t.head], "node-02");
	assert_int_equal(t.proc[0].node, 1);
	topo_release(&t);
	recipe_release(&r);
}

/* The frontend layer (srtctl's frontend stage): nginx on the head node and
 * num_additional_frontends + 1 replicas on the other worker nodes, a single
 * frontend on one worker node or when turned off; a dedicated frontend node
 * is the head and every worker node can take a replica. */
#define R8 "\"resources\": {\"gpus_per_node\": 8}, "

static size_t fe_nodes(const char *json, const char *const *names, size_t nn, size_t *out,
		       int *nginx)
{
	struct recipe r;
	struct topology t;
	char *err = NULL;
	size_t n;
	tu_recipe_json(&r, json);
	assert_int_equal(topo_build(&t, &r, names, nn, &err), 0);
	n = topo_frontend_nodes(&t, &r, out, nginx);
	topo_release(&t);
	recipe_release(&r);
	return n;
}

static void test_frontend_nodes(void **state)
{
	static const char *const names[] = { "a1", "a2", "a3", "a4" };
	size_t out[8];
	int nginx = -1;
	(void)state;
	/* default: mock list of 1 + 2 spare nodes, replicas on node-02 and node-03 */
	assert_int_equal(fe_nodes("{" HEAD R8 "\"engine\": \"vllm\", \"roles\": {\"agg\": "
				  "{\"nodes\": 1, \"workers\": 1, \"gpus\": 8}}}", NULL, 0, out,
				  &nginx), 2);
	assert_int_equal(nginx, 1);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[1], 2);
	/* capped by num_additional_frontends + 1 */
	assert_int_equal(fe_nodes("{" HEAD R8 "\"frontend\": {\"num_additional_frontends\": 0}, "
				  "\"engine\": \"vllm\", \"roles\": {\"agg\": {\"nodes\": 1, "
				  "\"workers\": 1, \"gpus\": 8}}}", NULL, 0, out, &nginx), 1);
	assert_int_equal(nginx, 1);
	assert_int_equal(out[0], 1);
	/* exactly one worker node: one frontend on the head, no nginx */
	assert_int_equal(fe_nodes("{" HEAD R8 "\"engine\": \"vllm\", \"roles\": {\"agg\": "
				  "{\"nodes\": 1, \"workers\": 1, \"gpus\": 8}}}", names, 1, out,
				  &nginx), 1);
	assert_int_equal(nginx, 0);
	assert_int_equal(out[0], 0);
	/* turned off */
	assert_int_equal(fe_nodes("{" HEAD R8 "\"frontend\": {\"enable_multiple_frontends\": false}, "
				  "\"engine\": \"vllm\", \"roles\": {\"agg\": {\"nodes\": 2, "
				  "\"workers\": 2, \"gpus\": 8}}}", names, 2, out, &nginx), 1);
	assert_int_equal(nginx, 0);
	/* dedicated frontend node a1 is the head; replicas on every worker node */
	assert_int_equal(fe_nodes("{" HEAD R8 "\"frontend\": {\"placement\": {\"node\": "
				  "\"dedicated\"}}, \"engine\": \"vllm\", \"roles\": {\"agg\": "
				  "{\"nodes\": 2, \"workers\": 2, \"gpus\": 8}}}", names, 3, out,
				  &nginx), 2);
	assert_int_equal(nginx, 1);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[1], 2);
}

/* A TP16 worker on 8-GPU nodes is one process per node, rank 0 the leader:
 * only the leader has an HTTP port; every rank has its own system port. */
static void test_multinode_ports(void **state)
{
	struct recipe r;
	struct topology t;
	char *err = NULL;
	(void)state;
	tu_recipe_json(&r, "{" HEAD R8 "\"engine\": \"sglang\", \"roles\": {\"prefill\": {\"nodes\": 2, "
		 "\"workers\": 1, \"gpus\": 16}, \"decode\": {\"nodes\": 2, \"workers\": 1, "
		 "\"gpus\": 16}}}");
	assert_int_equal(topo_build(&t, &r, NULL, 0, &err), 0);
	assert_int_equal(t.nproc, 4);
	assert_int_equal(t.proc[1].node_rank, 1);
	assert_int_equal(t.proc[1].node, 1);
	assert_int_equal(t.proc[0].http_port, 6100);
	assert_int_equal(t.proc[1].http_port, 0);
	assert_int_equal(t.proc[1].bootstrap_port, 7200);
	assert_int_equal(t.proc[1].sys_port, 7501);
	assert_int_equal(t.proc[3].nixl_port, 5403);
	topo_release(&t);
	recipe_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_packing),
		cmocka_unit_test(test_whole_nodes),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_decode_next_node_and_colocate),
		cmocka_unit_test(test_not_enough_nodes),
		cmocka_unit_test(test_ports),
		cmocka_unit_test(test_job_nodes),
		cmocka_unit_test(test_placements),
		cmocka_unit_test(test_pools_dedicated_and_user_nodes),
		cmocka_unit_test(test_mock_list_without_dedicated),
		cmocka_unit_test(test_frontend_nodes),
		cmocka_unit_test(test_multinode_ports),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
