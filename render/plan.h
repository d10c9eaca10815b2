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

/* For a view that plans the recipe after every edit
 * (plan_render_text_deferred): what did not change since the last build
 * (the flags of each role's args, by their args, and large role envs, by
 * their env) is taken from it.  The plans are the same with or without
 * one. */
struct plan_cache;
struct plan_cache *plan_cache_new(void);
void plan_cache_free(struct plan_cache *c);

/* 0 on success; -1 with *err (malloc'd) when the recipe cannot be planned
 * (the text then says what is not supported). */
int plan_render_snapshot(struct strbuf *out, const struct recipe *r,
			 const struct plan_opts *opts, char **err);
int plan_render_text(struct strbuf *out, const struct recipe *r,
		     const struct plan_opts *opts, char **err);
/* plan_render_text in two goes, for a view that shows the end of a long
 * plan only when scrolled to it: the text without the launch-snapshot note
 * (which steps srtctl's harness list, two spare nodes longer, places
 * elsewhere: it costs a second plan on that list), *note_at the offset in
 * out where the note goes, and *note what it needs of this plan (NULL when
 * the plan has no note).  plan_note_render appends the note as
 * plan_render_text has it, for the same recipe r (and with the same cache,
 * which must outlive the note); plan_note_free frees.  cache may be NULL. */
struct plan_note;
int plan_render_text_deferred(struct strbuf *out, const struct recipe *r,
			      const struct plan_opts *opts, struct plan_cache *cache,
			      size_t *note_at, struct plan_note **note, char **err);
void plan_note_render(struct strbuf *out, const struct recipe *r, const struct plan_note *note);
void plan_note_free(struct plan_note *note);
/* Every srun step as a JSON array of {name, node, role (a worker's, else
 * null), image, argv (workers), command, env, preamble, ...}; NULL with *err
 * when the recipe cannot be planned.  New reference. */
json_t *plan_steps_json(const struct recipe *r, const struct plan_opts *opts, char **err);
/* Nodes the job asks Slurm for; -1 when unknown. */
int plan_job_nodes(const struct recipe *r);

#endif
