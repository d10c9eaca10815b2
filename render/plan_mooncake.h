/*
 * plan_mooncake.h — the launch plan's part for srtctl's TRT-LLM Mooncake
 * pool (struct trtllm_pool in model/kinds.h): whether a recipe is in that
 * form, and what it changes in the master, donor and worker steps.
 */
#ifndef SRT_PLAN_MOONCAKE_H
#define SRT_PLAN_MOONCAKE_H

#include "model/recipe.h"
#include "render/envmap.h"

/* The mooncake-master service of a TRT-LLM job in the pool form (a
 * mooncake-donor, a master option only the pool knows, or a role whose
 * kv_connector_config has a mooncake_store); NULL otherwise, and then the
 * upstream master with its HTTP metadata server is what runs.  engine is
 * the job's engine type. */
const struct service *pool_master(const struct recipe *r, const char *engine);

/* A worker of role in the pool: TRTLLM_MOONCAKE_MASTER_TIMEOUT, and for
 * prefill TRTLLM_MOONCAKE_STORE_ROLE (srtctl's get_mooncake_worker_env and
 * get_environment_for_mode). */
void pool_worker_env(const struct service *master, enum role_id role, struct envmap *env);

/* The worker's preamble with its pool run dir exported and made first
 * (every MPI rank reads the client config its leader writes there);
 * malloc'd. */
char *pool_worker_preamble(enum role_id role, int index, const char *preamble);

/* Whether a Dynamo worker of this role runs inside the pool's context (its
 * connector has a mooncake_store). */
int pool_role_provisions(const struct role *ro);

/* A pool service instance on node (the master, a donor): its command, its
 * preamble before the recipe's own (malloc'd), and the env the kind sets
 * where the recipe's env does not; 0 when sv is not a pool service. */
int pool_service(const struct service *master, const struct service *sv, const char *node,
		 char **command, char **preamble, struct envmap *env);

#endif
