/*
 * dryrun_engine.h — the parts of srtctl's dry-run that describe the engine
 * and the worker roles rather than the job around them: the lines and
 * panels show_config_details prints before the Container Mounts (the GPU
 * visibility variable, per-role restart policies and engines, the Dynamo
 * TRT-LLM publication flags, TRT-LLM NUMA binding and engine statistics,
 * vLLM flags srtctl overrides), the Shadow Engine Recovery panel of
 * engine.failover, and the post_eval dispatch block.
 *
 * Each is printed only when srtctl prints it (docs/decisions.md says which
 * srtctl version each follows); the text is srtctl's with the Rich markup
 * removed, wrapped or drawn in its Panel at width cells (lib/rich.h).
 */
#ifndef SRT_DRYRUN_ENGINE_H
#define SRT_DRYRUN_ENGINE_H

#include <jansson.h>

#include "lib/util.h"
#include "model/recipe.h"

/* srtctl's worker_container_for_role: the role's container, else
 * model.container, $VARS expanded, and resolved (Path.resolve) when it is a
 * path ("/..." or "./...").  malloc'd; "None" when neither is a string. */
char *dryrun_worker_container(const struct recipe *r, enum role_id role);

/* The facts those lines show, as `render --format json` carries them; the
 * text below is printed from these, so each rule is in one place.  A block
 * the dry-run does not print is an empty object/array or NULL, a value the
 * dry-run prints as None is null. */

/* {role: {"policy", "max_restarts", "backoff_seconds", "max_backoff_seconds"}}
 * for each role whose restart policy is not never, in the recipe's order. */
json_t *dryrun_restarts(const struct recipe *r);
/* {role: {"type", "container"}} (backend_for_role(role).type and
 * worker_container_for_role) for each role with workers, prefill, decode,
 * agg, when some role has its own engine or image; else {}. */
json_t *dryrun_role_backends(const struct recipe *r);
/* For a TRT-LLM backend {"metrics": {"flags", "text"} (the Dynamo TRT-LLM
 * Metrics panel, only behind the Dynamo frontend without sidecars),
 * "numa": text after "TRT-LLM NUMA: " (numa_memory_bind local only),
 * "engine_statistics": {mode role: {key: value as the engine YAML carries
 * it; a key it lacks, which the panel shows as unset, left out}}}; else
 * NULL. */
json_t *dryrun_trtllm(const struct recipe *r);
/* The "WARNING: roles.<role>.args.<flag> ..." lines (vLLM frontend and
 * backend), in order; [] when none. */
json_t *dryrun_engine_warnings(const struct recipe *r);
/* engine.failover on a vLLM backend: {"shadow_engines",
 * "engines_per_worker", "worker_dir", "service", "steps", "engine_flags",
 * "engine_env", "engine_relaunch", "note"}; else NULL. */
json_t *dryrun_failover(const struct recipe *r);
/* {"command": [str], "passthrough_env": [str]}, each only when not empty;
 * NULL when post_eval has neither. */
json_t *dryrun_post_eval(const struct recipe *r);

/* Everything show_config_details prints before the Container Mounts panel. */
void dryrun_engine_text(struct strbuf *out, const struct recipe *r, int width);

/* The Shadow Engine Recovery panel and its NOTE (engine.failover set on a
 * vLLM engine); nothing otherwise.  srtctl prints it after the environment. */
void dryrun_failover_text(struct strbuf *out, const struct recipe *r, int width);

/* "Post-eval dispatch:" and its command / passthrough_env lines, "\n"-ended
 * and not wrapped (the caller prints them as console.print lines); nothing
 * when post_eval has neither. */
void dryrun_post_eval_lines(struct strbuf *out, const struct recipe *r);

#endif
