/*
 * topology.h — where a recipe's processes run: the node list of the job,
 * which node and GPUs each engine worker gets (spec §2.3, the order and
 * packing rules of srtctl's endpoint allocator), the ports each worker
 * process is given, and on which nodes each service instance starts
 * (spec §4.3, §4.7).
 *
 * A struct topology owns everything inside it (node names, IPs, processes);
 * topo_release() frees it.  Service instance arrays from
 * topo_service_instances() are owned by the caller: topo_insts_free().
 * Pointers to struct recipe / struct service are borrowed.
 */
#ifndef SRT_TOPOLOGY_H
#define SRT_TOPOLOGY_H

#include <stddef.h>

#include "model/recipe.h"

/* Port bases (spec §2.3 table), from the kinds table (model/kinds.h). */
enum {
	TOPO_HTTP_BASE = WORKER_HTTP_PORT_BASE,
	TOPO_HTTP_STRIDE = WORKER_HTTP_PORT_STRIDE,
	TOPO_BOOTSTRAP_BASE = SGLANG_BOOTSTRAP_PORT_BASE,
	TOPO_KV_EVENTS_BASE = KV_EVENTS_PORT_BASE,
	TOPO_NIXL_BASE = NIXL_PORT_BASE,
	TOPO_SYS_BASE = DYN_SYSTEM_PORT_BASE,
	TOPO_VLLM_PORT_BASE = VLLM_PORT_BASE,
	TOPO_VLLM_PORT_STRIDE = VLLM_PORT_STRIDE,
	TOPO_NCCL_BASE = SGLANG_NCCL_PORT_BASE,
	TOPO_FRONTEND_PORT = FRONTEND_PUBLIC_PORT,
	TOPO_FRONTEND_INTERNAL_PORT = FRONTEND_INTERNAL_PORT,
	TOPO_SGLANG_DIST_INIT_PORT = SGLANG_DIST_INIT_PORT,
};

/* One engine process: one node of one worker (endpoint).  A worker needing
 * more GPUs than a node has gets one process per node. */
struct topo_proc {
	enum role_id role;
	int index;          /* worker index within the role */
	int node_rank;      /* 0 = the worker's leader */
	size_t node;        /* index into topology.node */
	int gpu_first;      /* GPUs gpu_first .. gpu_first + ngpus - 1 */
	int ngpus;
	int sys_port;       /* DYN_SYSTEM_PORT */
	int http_port;      /* 0 on non-leader processes */
	int bootstrap_port; /* prefill only, else 0 */
	int kv_events_port;
	int nixl_port;
	int vllm_port;      /* VLLM_PORT scan base */
	int nccl_port;      /* SGLang --nccl-port */
	int engines;        /* engines on these GPUs (vLLM failover: 1 + shadows,
			     * else 1); the ports above are engine 0's */
};

struct topo_pool {
	const char *service; /* borrowed from the recipe */
	size_t first, count; /* nodes first .. first + count - 1 */
};

struct topology {
	char **node;         /* node names, in allocation order */
	char **ip;           /* their IPs (mock: 127.0.0.1; user nodes: the name) */
	size_t nnodes;
	size_t head, infra, bench;
	size_t worker_first, nworker; /* engine worker nodes: a contiguous run */
	struct topo_pool *pool;
	size_t npool;
	struct topo_proc *proc; /* prefill, decode, agg; by worker index, node rank */
	size_t nproc;
	int gpus_per_node;
	int job_nodes;       /* what the job asks Slurm for */
	int mock;            /* node list is the snapshot harness's mock */
};

/*
 * Build the topology of r.  names == NULL: the snapshot harness's mock list
 * node-01 .. node-(N + 2) with IP 127.0.0.1, N the job's nodes without the
 * dedicated one (srtctl's total_nodes).  Otherwise the user's
 * node names, each used as its own IP placeholder.  Returns 0, or -1 with
 * *err (malloc'd) when the workers do not fit or the node count is unknown.
 */
int topo_build(struct topology *t, const struct recipe *r, const char *const *names,
	       size_t nnames, char **err);
void topo_release(struct topology *t);

/* Nodes the job asks Slurm for (spec §1.5): role nodes (colocate adds 0),
 * +1 when anything is placed on a dedicated node, + every service pool.
 * -1 when a role's node count cannot be known. */
int topo_job_nodes(const struct recipe *r);
/* An etcd/NATS service placed on a dedicated node (srtctl's infra_dedicated_node). */
int topo_infra_dedicated(const struct recipe *r);

/* Worker GPU allocation only (spec §2.3), for tests and the text view.
 * counts/gpus are indexed by role; nodes = how many nodes are available.
 * Fills proc (caller frees) with node indices 0..nodes-1; ports unset.
 * Returns 0 or -1 with *err. */
int topo_allocate(const int counts[ROLE_COUNT], const int gpus[ROLE_COUNT], int gpus_per_node,
		  size_t nodes, int spread, int allow_colocation, struct topo_proc **proc,
		  size_t *nproc, char **err);

/* One instance of a service. */
struct topo_inst {
	size_t node;
	const struct topo_proc *proc; /* the worker of a per: worker instance, else NULL */
	char *step;                   /* Slurm step name = log stem (spec §4.7) */
	char *cuda_visible;           /* "0" / "2,3" for per-worker instances on part of a node */
};

/* Instances of s, in launch order (node order; per worker: node, worker,
 * rank).  *n = 0 when the placement selects nothing (srtctl skips it). */
void topo_service_instances(const struct topology *t, const struct service *s,
			    struct topo_inst **out, size_t *n);
void topo_insts_free(struct topo_inst *v, size_t n);

/* Distinct nodes used by a role's processes, in worker order; returns the
 * count written to out (room for t->nnodes entries). */
size_t topo_role_nodes(const struct topology *t, enum role_id role, size_t *out);

/* Where the frontend layer runs (srtctl's frontend stage): with
 * frontend.enable_multiple_frontends (default true) and more than one engine
 * worker node, nginx on the head node and num_additional_frontends + 1
 * (default 9 + 1) router replicas on the other worker nodes, capped by how
 * many there are; otherwise one frontend on the head node.  Writes the
 * replica nodes to out (room for t->nnodes) and returns their count; *nginx
 * says whether nginx fronts them. */
size_t topo_frontend_nodes(const struct topology *t, const struct recipe *r, size_t *out,
			   int *nginx);

/* placement.node of the frontend or benchmark block ("head" when unset),
 * borrowed from the recipe. */
const char *topo_block_placement(const struct recipe *r, const char *block);

/* Engine k of process p (0 <= k < p->engines) as a process of its own:
 * srtctl allocates every engine's ports in turn (endpoint, node, engine), so
 * engine k has engine 0's job-wide ports + k and its per-node ones k
 * strides on.  Engine 0 is *p. */
struct topo_proc topo_engine(const struct topo_proc *p, int k);

/* The SLURM job id a plan names (failover's /dev/shm/srtctl-<id>): the
 * snapshot harness's 4242 on its mock node list, else a placeholder. */
const char *topo_job_id(const struct topology *t);

/* "0,1,2" for a process's GPUs; malloc'd. */
char *topo_gpu_list(const struct topo_proc *p);

#endif
