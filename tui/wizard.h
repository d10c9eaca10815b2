/*
 * wizard.h — `srt-tui new`: a recipe built step by step (Basics, Engine,
 * Topology, Connectors, Services, Frontend & benchmark, Review, Write) on the
 * form engine, over a struct doc loaded from a template's text, so a new
 * recipe is produced by the same document and encoder code as an edit.
 *
 * wizard_steps() (app.h) gives the step screens to `edit` as well.  The pure
 * helpers below (GPU arithmetic, topology switching, templates) are what the
 * screens call; strings returned are malloc'd and owned by the caller.
 */
#ifndef SRT_TUI_WIZARD_H
#define SRT_TUI_WIZARD_H

#include <jansson.h>
#include <stddef.h>

#include "lib/util.h"
#include "tui/templates.h"

struct doc;

/* ---- the command ---- */

struct wizard_opts {
	const struct template *tmpl; /* the starting point (required) */
	const char *path;            /* FILE to write; NULL: asked for at the Write step */
	const char *theme;           /* --theme or NULL */
	const char *submit_cmd;      /* --submit-cmd or NULL */
	int no_mouse;
	const char *srtctl_dir;       /* --srtctl-dir or NULL */
};
/* Run the wizard in the terminal; returns the exit status (0 also when the
 * user quit without writing; 2 when the terminal or template is unusable). */
int wizard_run(const struct wizard_opts *o);

/* ---- templates ---- */

/* The template named name (file name without .yaml), or NULL. */
const struct template *wizard_template(const char *name);
/* The default for `new` without --template: vllm-lmcache-agg when present,
 * else the first; NULL when none are compiled in. */
const struct template *wizard_default_template(void);
/* "a, b, c": every template name, for error messages; malloc'd. */
char *wizard_template_names(void);
/* The template a recipe text was made from: the one with the most of its
 * own comment lines in text; NULL when none has any.  The score is that
 * count. */
const struct template *wiz_template_of(const char *text);
int wiz_template_score(const char *text, const struct template *t);
/*
 * A template's comments describe the template's values; after the wizard
 * changed them they may no longer hold ("vLLM aggregated ... an
 * lmcache-server on every worker node" above a prefill/decode recipe).
 * Returns text (malloc'd) without the template's comments that no longer
 * hold, counting the lines dropped or cut in *dropped:
 *   - the header (comments from the first line on) describes the engine,
 *     the roles and the services (name, type, placement): it goes when any
 *     of them differs from the template, replaced by one line naming it;
 *   - a block of comment lines above a key goes when the key's value
 *     differs from the template's;
 *   - a comment at the end of a line goes when that line's value differs.
 * A comment is the template's only when the template has it word for word
 * (a block: every line of it); any other comment is the user's and is
 * never touched.
 */
char *wiz_fix_template_comments(const char *text, const struct template *t, size_t *dropped);

/* ---- GPU arithmetic ---- */

/* One role as the topology step sees it; -1 = absent (null). */
struct wiz_role_gpus {
	int nodes;    /* -1 when unset; ignored when colocate */
	int colocate; /* nodes: colocate (decode only) */
	int workers;  /* -1: default 1 */
	int gpus;     /* -1: default nodes * gpus_per_node / workers */
};

enum wiz_fit { WIZ_FIT_EXACT = 0, WIZ_FIT_IDLE = 1, WIZ_FIT_NONE = -1 };

/*
 * The live line of the topology step, e.g.
 *   "2 workers × 4 GPUs on 1 node of 8 — all 8 GPUs used"
 *   "2 workers × 1 GPU on 1 node of 8 — 2 of 8 GPUs used, 6 idle"
 *   "2 workers × 8 GPUs on 1 node of 8 — does not fit: needs 2 nodes"
 *   "1 worker × 1 GPU on the prefill node (colocate) — 2 of 8 GPUs used with prefill"
 * prefill is the prefill role for a colocated decode (else NULL); spread is
 * resources.spread_workers.  Appends to out; returns how it fits.
 */
enum wiz_fit wiz_gpu_text(struct strbuf *out, const struct wiz_role_gpus *r,
			  const struct wiz_role_gpus *prefill, int gpus_per_node, int spread);
/* Nodes a role needs for its workers (0 for colocate); -1 when unknown. */
int wiz_role_nodes_needed(const struct wiz_role_gpus *r, int gpus_per_node, int spread);
/* Effective GPUs per worker (the srtctl default when gpus is absent). */
int wiz_role_gpus_per_worker(const struct wiz_role_gpus *r, int gpus_per_node);

/* ---- topology switching (document operations) ---- */

/* Aggregated <-> prefill/decode, rewriting roles through doc_delete and
 * doc_set_block: agg -> P/D copies agg's settings to prefill and decode
 * (args, env, gpus, workers; nodes split), P/D -> agg keeps prefill's.
 * Moves `placement.node` of services that named a removed role to the new
 * one(s).  0 on success, -1 with *err and the document unchanged. */
int wiz_set_disagg(struct doc *d, int disagg, char **err);

/* ---- document helpers shared by the wizard's files ----
 * path is path.h syntax (with [name] selectors).  Edits return 0, or -1 with
 * *err (malloc'd) and the document unchanged. */
/* The value at path as JSON (new reference), NULL when absent. */
json_t *wiz_get(struct doc *d, const char *path);
/* The string at path, or NULL (borrowed from the doc until the next edit). */
const char *wiz_get_str(struct doc *d, const char *path);
int wiz_set(struct doc *d, const char *path, const json_t *v, int block, char **err);
int wiz_set_str(struct doc *d, const char *path, const char *s, char **err);
int wiz_delete(struct doc *d, const char *path, char **err); /* absent: 0 */
int wiz_insert(struct doc *d, const char *path, size_t index, const json_t *v, char **err);
int wiz_rename(struct doc *d, const char *path, const char *new_key, char **err);
/* Append key to a path buffer, quoted when it holds '.', '[', ']' or quotes. */
void wiz_path_key(struct strbuf *sb, const char *key);
/* Undo the last n edits (to make a multi-edit operation all-or-nothing). */

#endif
