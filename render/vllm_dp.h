/*
 * vllm_dp.h — vLLM data parallelism in the launch plan, as srtctl's
 * backends/vllm.py launches it (009a4fa): a role whose args set
 * data-parallel-size above 1.  Behind the Dynamo frontend, with
 * engine.dp_launch_mode per_node (the default), each node of a DP worker is
 * one process that runs its node's ranks (--data-parallel-size-local,
 * --data-parallel-start-rank, --data-parallel-hybrid-lb); a rank larger
 * than a node runs as a multi-node engine that also names the DP address.
 * A direct `vllm serve` (frontend vllm) manages its ranks itself, from the
 * role's args.  The rest is refused (vllm_dp_unrendered).
 */
#ifndef SRT_VLLM_DP_H
#define SRT_VLLM_DP_H

#include "lib/util.h"
#include "model/recipe.h"
#include "render/topology.h"

/* A role's DP layout: size (data-parallel-size, 1 without), replica (GPUs
 * of one rank: tensor x pipeline x prefill-context parallel sizes).
 * Returns whether the role is a vLLM role in DP mode (size > 1). */
int vllm_dp_of(const struct recipe *r, enum role_id role, int *size, int *replica);

/* NULL when the plan renders r's vLLM DP roles (or it has none); else a
 * malloc'd message: what is not rendered yet, or srtctl's own refusal. */
char *vllm_dp_unrendered(const struct recipe *r);

/* The ports srtctl's per-node DP layout changes, over t's processes in
 * launch order: each process of a DP worker takes one KV-event port per
 * local rank, and the worker one NIXL block of data-parallel-size ports
 * that all its processes share (vLLM adds the rank to it).  Called by
 * topo_build once the plain counters are set. */
void vllm_dp_ports(struct topology *t, const struct recipe *r);

/* How many DP ranks pr runs when its worker runs each node's ranks in one
 * process (srtctl's --data-parallel-size-local); 0 otherwise. */
int vllm_dp_local_ranks(const struct recipe *r, const struct topo_proc *pr);

/* Role args srtctl derives from the layout and drops from a Dynamo DP
 * worker's flags (with the connector, as for every Dynamo vLLM worker). */
extern const char *const vllm_dp_skip[];

/* A Dynamo vLLM DP process's flags, after --device-ids: pr is the process,
 * span its worker's node count, leader_ip the worker's first node. */
void vllm_dp_argv(const struct topology *t, const struct recipe *r, const struct topo_proc *pr,
		  int span, const char *leader_ip, struct strvec *argv);

#endif
