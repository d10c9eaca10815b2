/*
 * plan.h — the launch plan: every srun step srtctl would run for a recipe, in
 * launch order, with nodes, log path, container, mounts, env, preamble and
 * command; printed readably (grouped by node) or as srtctl's launch snapshot
 * text (spec §6.3).
 */
#ifndef SRT_PLAN_H
#define SRT_PLAN_H

#include "model/recipe.h"
#include "lib/util.h"

struct plan_opts {
	const char *snapshot_name;      /* "# <path>" header line of a snapshot */
	const char *const *node_names;  /* NULL: mock node-01..; else user nodes */
	size_t nnodes;
};

/* 0 on success; -1 with *err (malloc'd) when the recipe cannot be planned
 * (the text then says what is not supported). */
int plan_render_snapshot(struct strbuf *out, const struct recipe *r,
			 const struct plan_opts *opts, char **err);
int plan_render_text(struct strbuf *out, const struct recipe *r,
		     const struct plan_opts *opts, char **err);
/* Every srun step as a JSON array of {name, node, role (a worker's, else
 * null), image, argv (workers), command, env, preamble, ...}; NULL with *err
 * when the recipe cannot be planned.  New reference. */
json_t *plan_steps_json(const struct recipe *r, const struct plan_opts *opts, char **err);
/* Nodes the job asks Slurm for; -1 when unknown. */
int plan_job_nodes(const struct recipe *r);

#endif
