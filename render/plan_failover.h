/*
 * plan_failover.h — vLLM shadow engine recovery (engine.failover) in the
 * launch plan: what srtctl adds to a worker whose role runs under it.
 *
 * Per worker and node srtctl launches 1 + shadow_engines engine steps on the
 * same GPUs (<role>_<index>_<node>, then ..._e<k>), each a process with its
 * own ports (render/topology: topo_engine), all loading the weights through
 * the worker's instance of the implied gms service.  The engines and that
 * instance share a directory, <shared_dir>/srtctl-<job_id>/<role>_<index>,
 * holding the GMS sockets and the lock file the engines elect the serving
 * one with.  Nothing here is kept; strings returned are malloc'd.
 */
#ifndef SRT_PLAN_FAILOVER_H
#define SRT_PLAN_FAILOVER_H

#include "model/recipe.h"
#include "lib/util.h"
#include "render/envmap.h"
#include "render/workers.h"

/* Whether role's workers run under engine.failover. */
int failover_on(const struct recipe *r, enum role_id role);

/* Why the plan of role cannot be shown (a setting srtctl refuses), else
 * NULL; static text. */
const char *failover_refusal(const struct recipe *r, enum role_id role);

/* The role args srtctl takes over under failover and leaves out of the
 * engine's flags (with the key lists render/plan skips anyway). */
extern const char *const failover_skip_vllm[];

/* <shared_dir>/srtctl-<job_id>/<role>_<index>. */
char *failover_worker_dir(const struct recipe *r, enum role_id role, int index, const char *job_id);

/* The env one engine gets: ENGINE_ID, GMS_SOCKET_DIR, FAILOVER_LOCK_PATH,
 * DYN_VLLM_GMS_SHADOW_MODE, DYN_SYSTEM_STARTING_HEALTH_STATUS. */
void failover_engine_env(struct envmap *env, const char *dir, int engine);

/* The dynamo.vllm flags every engine gets (after the multi-node flags,
 * before --request-plane): --load-format gms --gms-shadow-mode, and on a
 * multi-node worker --master-port (args' master-port, else 29500, plus
 * 100 per engine). */
void failover_engine_flags(struct strvec *argv, json_t *args, int engine, int multi_node);

/* The worker preamble with the shared directory created after it. */
char *failover_preamble(const char *worker_pre, const char *dir);

/* The gms instance of a worker with ngpus GPUs: its `bash -c` script (one
 * GPU Memory Service server per GPU, "GMS ready:" once every socket is
 * bound), and the startup timeout that script waits (the service's
 * readiness.timeout_seconds, else the kind's). */
char *failover_gms_command(const char *dir, int ngpus, int timeout);
int failover_gms_timeout(const struct service *sv);

/* The Workers preview line of a role under failover (nothing otherwise). */
void failover_workers_note(struct strbuf *out, const struct recipe *r, enum role_id role,
			   enum workers_layout layout);

#endif
