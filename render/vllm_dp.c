/*
 * vllm_dp.c — vLLM data parallelism in the launch plan (see vllm_dp.h).
 * Rules from srtctl's backends/vllm.py (009a4fa): find_dp_modes and
 * __post_init__ (which roles are in DP mode, headless refused),
 * _get_model_parallel_size and _validate_endpoint_parallelism (the GPUs a
 * DP worker must have), endpoints_to_processes and
 * _dp_per_node_endpoints_to_processes (one process per node, its ports),
 * build_worker_command (the Dynamo worker's DP flags); ports.py (DP RPC
 * ports per node from 8400) and core/topology.py NodePortAllocator.next
 * (a block of size ports moves the counter past the whole block).
 */
#include "render/vllm_dp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "model/kinds.h"

/* roles.<role>.args.<name>, kebab or snake case (srtctl reads both). */
static json_t *arg(json_t *args, const char *kebab)
{
	char snake[64];
	json_t *v = json_object_get(args, kebab);
	size_t i;
	if (v)
		return v;
	for (i = 0; kebab[i] && i + 1 < sizeof(snake); i++)
		snake[i] = kebab[i] == '-' ? '_' : kebab[i];
	snake[i] = 0;
	return json_object_get(args, snake);
}

/* int(value) as Python takes an int or a decimal string; -1 when it cannot. */
static long int_of(json_t *v)
{
	if (json_is_integer(v))
		return (long)json_integer_value(v);
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end;
		long n;
		while (*s == ' ')
			s++;
		n = strtol(s, &end, 10);
		while (*end == ' ')
			end++;
		return end != s && !*end ? n : -1;
	}
	return -1;
}

/* A parallel size: 1 when unset, -1 when not a positive integer. */
static long psize(json_t *args, const char *name)
{
	json_t *v = arg(args, name);
	long n;
	if (!v)
		return 1;
	n = int_of(v);
	return n >= 1 ? n : -1;
}

static int is_vllm(const struct recipe *r, enum role_id role)
{
	const struct role *ro = &r->role[role];
	return ro->present && ro->engine && !strcmp(ro->engine, "vllm");
}

int vllm_dp_of(const struct recipe *r, enum role_id role, int *size, int *replica)
{
	json_t *args = r->role[role].args;
	long dp = is_vllm(r, role) ? psize(args, "data-parallel-size") : 1;
	long tp = psize(args, "tensor-parallel-size"), pp = psize(args, "pipeline-parallel-size");
	long pcp = psize(args, "prefill-context-parallel-size");
	if (size)
		*size = dp > 1 ? (int)dp : 1;
	if (replica)
		*replica = tp > 0 && pp > 0 && pcp > 0 ? (int)(tp * pp * pcp) : 1;
	return dp > 1;
}

static const char *dp_launch_mode(const struct recipe *r, enum role_id role)
{
	const struct role *ro = &r->role[role];
	json_t *ec = ro->engine_cfg ? ro->engine_cfg : r->engine_cfg;
	const char *m = jget_str(ec, "dp_launch_mode");
	return m ? m : "per_node"; /* schema.c's default for engine.dp_launch_mode */
}

/* The workers srtctl lays out per node: behind the Dynamo frontend, or a
 * router that expands each node's DP pool itself (vllm-router). */
static int per_node_layout(const struct recipe *r, enum role_id role)
{
	return vllm_dp_of(r, role, NULL, NULL) && !strcmp(dp_launch_mode(r, role), "per_node") &&
	       (!strcmp(r->frontend, "dynamo") || !strcmp(r->frontend, "vllm-router"));
}

/* The GPUs an endpoint of role has per node and in all: a worker of more
 * than a node takes whole nodes (srtctl's allocate_endpoints). */
static void endpoint_gpus(const struct recipe *r, enum role_id role, int *local, int *nodes)
{
	int g = r->role[role].eff_gpus, gpn = r->gpus_per_node > 0 ? r->gpus_per_node : 1;
	*nodes = g > gpn ? (g + gpn - 1) / gpn : 1;
	*local = g > gpn ? gpn : g;
}

/* srtctl's checks of one DP role against its allocation (ValueError). */
static char *layout_error(const struct recipe *r, enum role_id role)
{
	const char *mode = role_names[role];
	json_t *args = r->role[role].args;
	int dp, replica, local, nodes;
	vllm_dp_of(r, role, &dp, &replica);
	endpoint_gpus(r, role, &local, &nodes);
	if (dp * replica != local * nodes)
		return xasprintf("%s data-parallel-size=%d, tensor-parallel-size=%ld, pipeline-parallel-size=%ld, "
				 "prefill-context-parallel-size=%ld require %d GPUs, but the endpoint has %d "
				 "allocated GPUs",
				 mode, dp, psize(args, "tensor-parallel-size"),
				 psize(args, "pipeline-parallel-size"),
				 psize(args, "prefill-context-parallel-size"), dp * replica, local * nodes);
	if (replica <= local) {
		if (local % replica)
			return xasprintf("%s TP x PP replica size %d does not divide the node's %d allocated GPUs",
					 mode, replica, local);
		return NULL;
	}
	if (replica % local)
		return xasprintf("%s TP x PP replica size %d does not divide evenly across nodes with %d "
				 "allocated GPUs each", mode, replica, local);
	if (nodes != dp * (replica / local))
		return xasprintf("%s requires %d nodes per DP rank and %d nodes total, but the endpoint has %d",
				 mode, replica / local, dp * (replica / local), nodes);
	return NULL;
}

char *vllm_dp_unrendered(const struct recipe *r)
{
	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct role *ro = &r->role[i];
		json_t *ec = ro->engine_cfg ? ro->engine_cfg : r->engine_cfg;
		json_t *dpv = arg(ro->args, "data-parallel-size");
		char *e;
		if (!is_vllm(r, (enum role_id)i) || !dpv)
			continue;
		if (int_of(dpv) < 1) {
			struct strbuf sb = STRBUF_INIT;
			py_repr(&sb, dpv);
			e = xasprintf("roles.%s.args.data-parallel-size must be a positive integer; got %s",
				      role_names[i], sb_str(&sb));
			strbuf_release(&sb);
			return e;
		}
		if (!vllm_dp_of(r, (enum role_id)i, NULL, NULL))
			continue;
		/* a direct `vllm serve` runs its ranks itself: nothing to lay out */
		if (!strcmp(r->frontend, "vllm"))
			continue;
		if (strcmp(r->frontend, "dynamo"))
			return xasprintf("the launch plan for vLLM data parallelism (roles.%s.args."
					 "data-parallel-size) behind frontend '%s' is not rendered yet",
					 role_names[i], r->frontend);
		if (strcmp(dp_launch_mode(r, (enum role_id)i), "per_node"))
			return xasprintf("the launch plan for vLLM data parallelism with engine.dp_launch_mode "
					 "'%s' is not rendered yet", dp_launch_mode(r, (enum role_id)i));
		if (json_is_object(jget_obj(ec, "failover")))
			return xstrdup("the launch plan for vLLM data parallelism with engine.failover is not "
				       "rendered yet");
		/* srtctl sizes the layout with it but checks node spans without it */
		if (psize(ro->args, "prefill-context-parallel-size") != 1)
			return xasprintf("the launch plan for vLLM data parallelism with roles.%s.args."
					 "prefill-context-parallel-size is not rendered yet", role_names[i]);
		if (arg(ro->args, "headless"))
			return xasprintf("roles.%s.args.headless cannot be set when vLLM uses per-node DP. "
					 "srtslurm derives the head/headless layout; remove headless.",
					 role_names[i]);
		if ((e = layout_error(r, (enum role_id)i)))
			return e;
	}
	return NULL;
}

/* Whether pr's worker runs its node's ranks in one process (a rank fits
 * on a node): it then takes the per-node DP ports. */
static int node_local(const struct recipe *r, const struct topo_proc *pr, int *size, int *local_dp)
{
	int dp, replica;
	if (!per_node_layout(r, pr->role))
		return 0;
	vllm_dp_of(r, pr->role, &dp, &replica);
	if (replica > pr->ngpus || pr->ngpus % replica)
		return 0;
	if (size)
		*size = dp;
	if (local_dp)
		*local_dp = pr->ngpus / replica;
	return 1;
}

int vllm_dp_local_ranks(const struct recipe *r, const struct topo_proc *pr)
{
	int local;
	return node_local(r, pr, NULL, &local) ? local : 0;
}

void vllm_dp_ports(struct topology *t, const struct recipe *r)
{
	int kv_extra = 0, nixl_extra = 0;
	for (size_t i = 0; i < t->nproc;) {
		struct topo_proc *pr = &t->proc[i];
		int dp, local, span = 1;
		while (i + span < t->nproc && t->proc[i + span].role == pr->role &&
		       t->proc[i + span].index == pr->index && t->proc[i + span].node_rank > 0)
			span++;
		if (!node_local(r, pr, &dp, &local)) {
			for (int k = 0; k < span; k++) {
				pr[k].kv_events_port += kv_extra;
				pr[k].nixl_port += nixl_extra;
			}
			i += span;
			continue;
		}
		/* the plain counters gave one of each per process */
		int base = pr->nixl_port + nixl_extra;
		for (int k = 0; k < span; k++) {
			pr[k].kv_events_port += kv_extra;
			kv_extra += local - 1;
			pr[k].nixl_port = base;
		}
		nixl_extra += dp - span;
		i += span;
	}
}

const char *const vllm_dp_skip[] = {
	"connector",
	"data-parallel-rpc-port", "data_parallel_rpc_port",
	"data-parallel-size-local", "data_parallel_size_local",
	"data-parallel-start-rank", "data_parallel_start_rank",
	"data-parallel-hybrid-lb", "data_parallel_hybrid_lb",
	"headless",
	NULL,
};

void vllm_dp_argv(const struct topology *t, const struct recipe *r, const struct topo_proc *pr,
		  int span, const char *leader_ip, struct strvec *argv)
{
	const struct topo_proc *lead = pr - pr->node_rank;
	int local;
	if (!node_local(r, pr, NULL, &local)) {
		/* a rank spans nodes: one multi-node engine, the DP address its
		 * leader's, the RPC port the recipe's or vLLM's default */
		json_t *rpc = arg(r->role[pr->role].args, "data-parallel-rpc-port");
		strvec_push(argv, "--master-addr");
		strvec_push(argv, leader_ip);
		strvec_push(argv, "--nnodes");
		strvec_pushf(argv, "%d", span);
		strvec_push(argv, "--node-rank");
		strvec_pushf(argv, "%d", pr->node_rank);
		strvec_push(argv, "--data-parallel-address");
		strvec_push(argv, leader_ip);
		strvec_push(argv, "--data-parallel-rpc-port");
		if (rpc && !json_is_null(rpc) && !json_is_false(rpc))
			strvec_push_nodup(argv, py_str_dup(rpc));
		else
			strvec_pushf(argv, "%d", VLLM_DP_RPC_PORT_BASE);
		if (pr->node_rank > 0)
			strvec_push(argv, "--headless");
		return;
	}
	/* the RPC port: one per node-local DP worker whose leader is on this
	 * worker's leader node, in launch order */
	int rpc = VLLM_DP_RPC_PORT_BASE;
	for (const struct topo_proc *q = t->proc; q < lead; q++)
		if (q->node_rank == 0 && q->node == lead->node && node_local(r, q, NULL, NULL))
			rpc++;
	strvec_push(argv, "--data-parallel-size-local");
	strvec_pushf(argv, "%d", local);
	strvec_push(argv, "--data-parallel-start-rank");
	strvec_pushf(argv, "%d", pr->node_rank * local);
	strvec_push(argv, "--data-parallel-address");
	strvec_push(argv, leader_ip);
	strvec_push(argv, "--data-parallel-rpc-port");
	strvec_pushf(argv, "%d", rpc);
	strvec_push(argv, "--data-parallel-hybrid-lb");
}
