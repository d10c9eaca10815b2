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

#include "lib/util.h"
#include "model/recipe.h"

/* srtctl's worker_container_for_role: the role's container, else
 * model.container, $VARS expanded, and resolved (Path.resolve) when it is a
 * path ("/..." or "./...").  malloc'd; "None" when neither is a string. */
char *dryrun_worker_container(const struct recipe *r, enum role_id role);

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
