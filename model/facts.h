/*
 * facts.h — derived facts about a recipe, written once and used by
 * validation, render/topology and the TUI alike (so they cannot disagree):
 *
 *   - srtctl's worker allocator (spec §2.3): which node and GPUs each worker
 *     of each role gets on a list of engine nodes;
 *   - how many nodes a role needs and reserves, and whether the job's
 *     workers fit on the nodes it reserves;
 *   - whether a service runs on every node of a role;
 *   - whether a role's vLLM connector talks to a node-local LMCache MP
 *     server (the connector JSON parsed, never searched as text).
 *
 * All functions are pure over struct recipe.  Slot arrays are malloc'd and
 * owned by the caller (free()); error strings are malloc'd.
 */
#ifndef SRT_FACTS_H
#define SRT_FACTS_H

#include <stddef.h>

#include "model/recipe.h"

/* One engine process: one node of one worker. */
struct facts_slot {
	enum role_id role;
	int index;     /* worker index within the role */
	int node_rank; /* 0 = the worker's leader */
	size_t node;   /* 0 .. nodes - 1, in the allocation order */
	int gpu_first; /* GPUs gpu_first .. gpu_first + ngpus - 1 */
	int ngpus;
};

/* srtctl's allocate_endpoints over `nodes` engine nodes: roles in the order
 * prefill, decode, agg; a worker of >= gpus_per_node GPUs takes whole nodes,
 * smaller ones pack at a running GPU offset (spread: one per node); decode
 * leaves a partly used prefill node when another node exists, unless
 * allow_colocation.  Returns 0, or -1 with *err when the workers do not fit. */
int facts_allocate(const int counts[ROLE_COUNT], const int gpus[ROLE_COUNT], int gpus_per_node,
		   size_t nodes, int spread, int allow_colocation, struct facts_slot **out,
		   size_t *n, char **err);

/* resources.spread_workers; vLLM engine.allow_prefill_decode_colocation. */
int facts_spread(const struct recipe *r);
int facts_allow_colocation(const struct recipe *r);

/* Engines srtctl launches per (worker, node) of a role: 1, or under a vLLM
 * role's engine.failover 1 + shadow_engines (srtctl's backends/vllm.py
 * engines_per_process; each engine is a process with its own ports). */
int facts_engines_per_process(const struct recipe *r, enum role_id role);

/* Nodes `workers` workers of `gpus` GPUs need when packed alone by the
 * allocator; -1 when gpus or gpus_per_node is not positive. */
long facts_nodes_needed(int workers, int gpus, int gpus_per_node, int spread);

/* Nodes a role reserves in the job: 0 when colocated or absent, its `nodes`
 * when written, else what its workers need (gpus must then be written);
 * -1 when it cannot be known (neither nodes nor gpus). */
int facts_role_nodes(const struct recipe *r, enum role_id role);
/* Nodes a role's workers need on their own (colocated decode: 0). */
long facts_role_need(const struct recipe *r, enum role_id role);
/* Sum over the roles; -1 when one cannot be known. */
int facts_engine_nodes(const struct recipe *r);

/* Does a role that writes `nodes` fit on them by itself (srt-tui's rule on
 * top of srtctl's pooled allocator: workers never spill onto nodes another
 * role reserves)?  1 yes or nothing to check; 0 no, with *need. */
int facts_role_fits(const struct recipe *r, enum role_id role, long *need);

/* Place the workers of r on `nodes` engine nodes (the allocator with r's
 * counts, GPUs and switches).  0, or -1 with *err. */
int facts_place_workers(const struct recipe *r, size_t nodes, struct facts_slot **out, size_t *n,
			char **err);
/* Do r's workers fit on the nodes the roles reserve (each role on its own,
 * then the allocator over them all)?  1 yes, 0 no (with *err saying why,
 * when err != NULL), -1 when the node count is unknown. */
int facts_workers_fit(const struct recipe *r, char **err);

/* Does service s run on every node of role's workers (on the job's own
 * allocation: engine nodes first, the head on the first one unless the
 * frontend is dedicated)?  0 for an absent role or one on no node. */
int facts_service_covers_role(const struct recipe *r, const struct service *s, enum role_id role);

/* Is an LMCache MP address (host, tcp://host, NULL = the default) the
 * worker's own node: localhost, 127.x, 0.0.0.0, ::1? */
int facts_local_host(const char *h);
/* Does the vLLM connector text c (a preset name or raw kv-transfer-config
 * JSON) talk to an LMCache MP server on the worker's own node? */
int facts_connector_uses_local_mp(const char *c);
/* The same for kv-transfer-config JSON already parsed. */
int facts_connector_json_uses_local_mp(json_t *cfg);
/* The same for role's effective connector (vLLM roles only). */
int facts_role_uses_local_lmcache(const struct recipe *r, enum role_id role);
/* Does an lmcache-server that launches run on every node of role? */
int facts_lmcache_server_on_role(const struct recipe *r, enum role_id role);

#endif
