/*
 * validate.h — every rule a recipe must satisfy: srtctl's own (spec §1–§5,
 * §4.9, with its message text) and srt-tui's stricter ones (ports in
 * lmcache-server args, placement.per: worker, an lmcache connector with no
 * server on its nodes, ...).  Each diagnostic carries a hint.
 */
#ifndef SRT_VALIDATE_H
#define SRT_VALIDATE_H

#include <jansson.h>

#include "model/diag.h"
#include "model/doc.h"
#include "model/override.h"
#include "model/recipe.h"

/* Rules over a typed recipe; diagnostics carry paths but no positions. */
void validate_recipe(const struct recipe *r, struct diag_list *out);

/* Schema check of a tree: unknown keys (with "did you mean"), types, enums,
 * required fields.  Paths only. */
void validate_schema(json_t *root, struct diag_list *out);

/* Everything for one loaded document: schema + rules, positions filled in from
 * the document, sorted.  Load-time diagnostics are the caller's (doc_load). */
void validate_doc(const struct doc *d, struct diag_list *out);
/* The same, reusing a recipe the caller already built from doc_json(d) (NULL:
 * build one), so a screen that keeps the typed view does not build it twice
 * on every edit. */
void validate_doc_with(const struct doc *d, const struct recipe *built, struct diag_list *out);

/* ---- files that are many jobs (validate_variants.c, spec §9) -------------- */

enum {
	VV_NAME_EVERY = 1, /* name every job a shared diagnostic concerns, never "all variants" */
	VV_SELECTED = 2,   /* the jobs are a selector's pick: "all selected variants" */
};

/*
 * Diagnostics of the jobs jobs->v[0..njobs) of one file (an override file's
 * variants, or the jobs of their sweeps, or a sweep file's jobs), appended
 * to out.  Each job is validated as a full recipe (validate_schema, then
 * recipe_init + validate_recipe).  A diagnostic's path becomes the place in
 * the file that sets the value (variant_origin: base.x, override_tp2.x,
 * zip_override_g.x[1]; "" becomes the variant's section) and line/col are
 * that place's in d (d may be NULL: no positions).  Identical diagnostics of
 * several jobs are one entry whose message starts with the jobs' labels:
 * "[override_tp2] ...", "[override_a, override_b] ...", and, when every job
 * (two or more) has it, "[all variants] ..." ("[all jobs]" for a sweep file;
 * VV_NAME_EVERY lists them instead).  A diagnostic with the same path and
 * code as an entry already in out (validate_doc's: the file's own) is
 * dropped.  expand_error (may be NULL) is the expansion's failure, reported
 * as "failed to expand overrides|sweep: <error>"; a sweep file with no jobs
 * gets "sweep expanded to zero jobs".  A plain recipe adds nothing.
 */
void validate_variant_jobs(enum recipe_form form, const struct variant_list *jobs, size_t njobs,
			   const char *expand_error, const struct doc *d, unsigned flags,
			   struct diag_list *out);
/* The same with srtctl's cluster file (may be NULL): each job's rules run on
 * the job with the cluster's defaults applied, as srtctl loads it (the
 * cluster's gpus_per_node sizes the nodes when the job sets none). */
struct cluster;
void validate_variant_jobs_with(const struct cluster *c, enum recipe_form form,
				const struct variant_list *jobs, size_t njobs,
				const char *expand_error, const struct doc *d, unsigned flags,
				struct diag_list *out);

/*
 * The whole check of one loaded file, for `srt-tui validate FILE[:SELECTOR]`.
 * sets/unsets (may be NULL) are applied to the file's tree first, as
 * srtctl's --set/--unset (setflags_apply).  Then the file's own diagnostics
 * (validate_schema: an override file's shape and base; a plain or sweep
 * recipe as written, with its rules) and those of every job the selector
 * picks (NULL: all; ignored unless the file is an override file): each
 * override variant, a variant's own sweep jobs, a sweep file's jobs, as
 * validate_variant_jobs() reports them.  A selector that does not resolve
 * is one error diagnostic "failed to expand overrides: <srtctl's message>".
 * Positions are the file's; a value that is there only because of a flag
 * has none, and its message ends with "(from --set K=V)" / "(from --unset K)".
 * Entries already in out take part; out is sorted (diag_sort's order) and
 * labels (may be NULL) is reset to one string per entry of out: the jobs it
 * concerns ("override_tp2", "override_a, override_b", "all variants"), ""
 * for the file's own.  Returns 0, or -1 when a flag cannot be applied:
 * *err malloc'd (srtctl's text), *usage (may be NULL) 1 for a usage error.
 */
int validate_doc_variants(const struct doc *d, const char *selector, const struct strvec *sets,
			  const struct strvec *unsets, struct diag_list *out, struct strvec *labels,
			  int *usage, char **err);
/* The same with the cluster file srtctl would apply (may be NULL). */
int validate_doc_variants_with(const struct doc *d, const struct cluster *c, const char *selector,
			       const struct strvec *sets, const struct strvec *unsets,
			       struct diag_list *out, struct strvec *labels, int *usage, char **err);
/*
 * A recipe's text judged from its typed tree alone, before the document
 * and its node index (which only say where a problem is) are built:
 * `validate` loads the document only for a file that is not clean.
 * validate_text_glance reads buf with doc_fast_json; when that answers and
 * the text is a plain recipe (no override, sweep or legacy layout), it is
 * judged: alias gets what cluster_alias_diags gives (*unchecked set as it
 * sets it) and own what validate_doc_variants_with computes before placing
 * (without selector or flags).  Returns 1 when judged and both are empty:
 * doc_load and validation would say nothing.  A judged glance's own can be
 * handed to validate_doc_variants_given, which then places it instead of
 * computing it again, and its tree to doc_adopt_json.
 */
struct text_glance {
	json_t *tree; /* judged: doc_fast_json's tree, for doc_adopt_json; else NULL */
	struct diag_list alias, own;
};
#define TEXT_GLANCE_INIT { NULL, DIAG_LIST_INIT, DIAG_LIST_INIT }
int validate_text_glance(const char *buf, size_t len, const struct cluster *c, int *unchecked,
			 struct text_glance *g);
void text_glance_release(struct text_glance *g);
/* validate_doc_variants_with without selector or flags, for d read from the
 * text g judged (g->tree set): g's own is moved to out, placed, not computed
 * again. */
int validate_doc_variants_given(const struct doc *d, const struct cluster *c, struct text_glance *g,
				struct diag_list *out, struct strvec *labels);

/* One `validate` run over files: what each file is checked with, and what
 * the checks found beside their diagnostics. */
struct validate_run {
	const struct cluster *cluster;      /* srtctl's cluster file, may be NULL */
	const struct strvec *sets, *unsets; /* --set / --unset, may be NULL */
	int unchecked; /* set when an alias-looking value met no applied cluster file */
	size_t loaded; /* files loaded in full, not clean at a glance */
};
/* What `validate` says of one file's text (buf, len + 1 bytes, malloc'd,
 * taken) named path, with selector (NULL: none): the diagnostics, into out,
 * that the file's own reading (doc_load), the cluster's aliases and
 * validate_doc_variants_with give.  Without selector or flags the text is
 * first judged at a glance, and loaded only when there is something to
 * place.  Returns 0; 1 when a flag cannot be applied (*err malloc'd, *usage
 * 1 for a usage error); 2 when the text cannot be loaded.  *form: the
 * recipe's (RECIPE_PLAIN when clean at a glance), unset when 2. */
int validate_text(struct validate_run *run, const char *path, char *buf, size_t len, const char *selector,
		  enum recipe_form *form, struct diag_list *out, struct strvec *labels, int *usage, char **err);

#endif
