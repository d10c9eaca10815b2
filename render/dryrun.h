/*
 * dryrun.h — srtctl's whole dry-run (`srtctl dry-run -f FILE`, spec §6) as
 * plain text: the DRY-RUN banner, the generated sbatch script, the engine
 * and role lines (render/dryrun_engine.h), the Container Mounts and
 * Environment Variables tables (show_config_details), the Shadow Engine
 * Recovery panel, Host Setup, post_eval, the Services block, `srun options:`
 * (the recipe's and each role's), the dynamo install lines, the `Nodes:`
 * block, Execution Extensions and the `Running:` summary.
 *
 * Where srtctl prints plain lines (Services, srun options, dynamo, Nodes,
 * Running) the text is srtctl's byte for byte with the Rich markup removed;
 * srtctl's tables (in their panels) and the DRY-RUN panel are laid out as
 * Rich draws them without colour (lib/rich.h) on a console width cells wide.
 *
 * The row builders return new json_t arrays of objects for `--format json`.
 */
#ifndef SRT_DRYRUN_H
#define SRT_DRYRUN_H

#include "model/recipe.h"
#include "lib/util.h"
#include "render/sbatch.h"

/* Container Mounts rows: [{"source","host","container"}] in srtctl's order. */
json_t *dryrun_mounts(const struct recipe *r, const struct cluster *c);
/* Environment Variables rows: [{"scope","name","value"}]. */
json_t *dryrun_env(const struct recipe *r);
/* Execution Extensions rows: [{"area","setting","value"}]; empty when srtctl
 * would not print the table. */
json_t *dryrun_extensions(const struct recipe *r);

/* The tables alone in their panels, width cells wide (the TUI's Mounts and
 * Env tabs). */
void dryrun_mounts_text(struct strbuf *out, const struct recipe *r, const struct cluster *c,
			int width);
void dryrun_env_text(struct strbuf *out, const struct recipe *r, int width);
/* The options of an srun_options mapping as srtctl prints them: "--k=v",
 * or "--k" for a falsy value, in the mapping's order. */
json_t *dryrun_srun_options(json_t *so);
/* {role: dryrun_srun_options(roles.<role>.srun_options)} for each role with
 * its own, in the recipe's order of roles. */
json_t *dryrun_role_srun_options(const struct recipe *r);
/* "srun options: ...", each role's "<role> worker srun options (override
 * recipe): ..." and the dynamo install lines; "Nodes:" block. */
void dryrun_srun_text(struct strbuf *out, const struct recipe *r);
void dryrun_nodes_text(struct strbuf *out, const struct recipe *r);
/* The "Running:" summary (starts with an empty line, as srtctl's). */
void dryrun_running_text(struct strbuf *out, const struct recipe *r, int serve_only);

/* Add to doc (a JSON object) what the dry-run shows beyond services and
 * roles: "cluster" {state, path, origin}, "sbatch" {script, directives,
 * exports}, "mounts", "env", "extensions", "running", "gpu_subset_variable",
 * "srun_options", "trtllm", "warnings", "failover", "post_eval" (the facts
 * of render/dryrun_engine.h; each left out when the dry-run prints nothing
 * of it), "steps" (every srun step, see plan_steps_json) and, under each
 * existing doc.roles.<role>, "restart", "backend" and "srun_options" (left
 * out likewise) and "worker_commands": that role's worker steps with their
 * full argv and env. */
void dryrun_json_add(json_t *doc, const struct recipe *r, const struct sbatch_opts *o,
		     int serve_only);

/* Everything, in srtctl's order. */
void dryrun_render(struct strbuf *out, const struct recipe *r, const struct sbatch_opts *o,
		   int serve_only);

#endif
