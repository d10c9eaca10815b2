/*
 * variants.h — a file that is many jobs, as the TUI shows it: the variants
 * of an override file (and the jobs of their sweeps), the jobs of a sweep
 * file, their diagnostics pointed at the file's own lines, and where an edit
 * of one variant's value has to go in the file (base or the variant's
 * section; element i of a zip list).  No curses: app.c and the Variants
 * screen use it, unit tests call it directly.
 *
 * A struct variant_state owns everything in it (release with
 * variant_state_release); strings and json_t results handed out are the
 * caller's unless said otherwise.
 */
#ifndef SRT_TUI_VARIANTS_H
#define SRT_TUI_VARIANTS_H

#include <jansson.h>
#include <stddef.h>

#include "model/diag.h"
#include "model/doc.h"
#include "model/override.h"

struct variant_state {
	enum recipe_form form;
	json_t *root;             /* the file's typed tree (a reference) */
	/* The jobs in srtctl's order (what `srtctl apply -f FILE` submits; an
	 * override variant with its own `sweep:` is replaced by its jobs), then,
	 * for override files, `base` (selectable for the preview, not a job). */
	struct variant_list list;
	size_t njobs;
	char *error;              /* expansion failed: srtctl's message, else NULL */
};
#define VARIANT_STATE_INIT { RECIPE_PLAIN, NULL, VARIANT_LIST_INIT, 0, NULL }

/* Expand root (doc_json of the file); never fails: a file that does not
 * expand keeps what could be expanded (base) and the message in error. */
void variant_state_compute(struct variant_state *vs, const json_t *root);
void variant_state_release(struct variant_state *vs);
/* Index of the entry whose label is label, or -1. */
long variant_state_find(const struct variant_state *vs, const char *label);

/*
 * Diagnostics of every job, appended to out (which holds the file's own,
 * validate_doc's, used to drop repeats).  Each message starts with the
 * labels of the jobs it concerns ("[override_tp2] ..." or "[override_a,
 * override_b] ..."), its path is the place in the file that sets the value
 * (variant_origin: base.x, override_tp2.x, zip_override_g.x[1]) and its
 * line/col are that place's in d.  An expansion error is one diagnostic
 * "failed to expand overrides: <error>" (srtctl's validation helper).
 */
void variant_state_validate(const struct variant_state *vs, const struct doc *d,
			    struct diag_list *out);
/* The same, each variant checked with the cluster's defaults applied (the
 * editor's cluster file; NULL for none), as `srt-tui validate` does. */
struct cluster;
void variant_state_validate_cluster(const struct variant_state *vs, const struct cluster *c,
				    const struct doc *d, struct diag_list *out);

/* Where variant vi's value at recipe_path is set: the origin, and (when
 * file_path is not NULL) the file path, malloc'd.  *who (may be NULL) gets
 * a short name for the UI: "base", "override_tp2", "zip_override_g[1]",
 * "sweep", "generated name", "unset" (static or owned by vs). */
enum origin variant_where(const struct variant_state *vs, size_t vi, const char *recipe_path,
			  char **file_path, const char **who);

enum edit_place { EDIT_BASE, EDIT_SECTION };

/* One doc_set to make: value at path (a file path). */
struct variant_edit {
	char *path;
	json_t *value;
	int widens; /* a zip section gets a list of N values where it had none or a scalar */
	char *note; /* what the user should know (the section still overrides base...), or NULL */
};
void variant_edit_release(struct variant_edit *e);

/*
 * The edit that gives variant vi the value at recipe_path, in base or in
 * the variant's own section.  zip sections: element i of the list that sets
 * it; where a scalar (or nothing) sets it, a list of N values, the others
 * keeping what their variants have now (widens = 1; ask first).  Sweep jobs
 * of a sweep file: the template (a swept value is refused: edit the sweep
 * block).  0, or -1 with *err (malloc'd).
 */
int variant_edit_plan(const struct variant_state *vs, size_t vi, const char *recipe_path,
		      enum edit_place where, const json_t *value, struct variant_edit *out,
		      char **err);

/* The job's parameters as "p1=v1, p2=v2" (sweep jobs), or "" ; malloc'd. */
char *variant_params_text(const struct variant *v);

#endif
