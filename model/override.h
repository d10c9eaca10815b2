/*
 * override.h — one recipe file, many jobs: override files (`base` plus
 * `override_*` / `zip_override_*` sections), `sweep:` blocks, and the
 * `--set` / `--unset` command-line edits, with srtctl's rules and messages
 * (spec §9).  Everything works on typed trees (json_t, as doc_json() gives).
 *
 * Typical use (validate, render, the TUI variant picker):
 *
 *	char *path, *sel, *err = NULL;
 *	override_parse_arg(argv[i], &path, &sel, &err);      // "f.yaml:override_x"
 *	json_t *root = doc_json(doc);
 *	setflags_apply(root, &sets, &unsets, &err);          // before anything else
 *	struct variant_list vl = VARIANT_LIST_INIT;
 *	switch (recipe_form(root)) {
 *	case RECIPE_OVERRIDE: override_expand(root, sel, &vl, &err); break;
 *	case RECIPE_SWEEP:    sweep_expand(root, NULL, &vl, &err); break;
 *	case RECIPE_PLAIN:    variant_list_add_plain(&vl, root); break;
 *	}
 *	for each vl.v[i]: validate vl.v[i].tree; map each diagnostic path back
 *	with variant_origin(&vl.v[i], diag_path, &file_path) and doc_locate() it.
 *	variant_list_release(&vl);
 *
 * Ownership: every function returning int gives 0 on success, or -1 with
 * *err set to a malloc'd message (srtctl's exact text where srtctl has one;
 * printed by commands as "Error: <message>").  Inputs are never modified
 * except where said (setflags_apply).  A struct variant owns its strings and
 * holds one reference on each json_t in it; variant_list_release() frees all.
 */
#ifndef SRT_OVERRIDE_H
#define SRT_OVERRIDE_H

#include <jansson.h>
#include <stddef.h>

#include "model/diag.h"
#include "model/path.h"
#include "lib/util.h"

/* ---- the three file forms (spec §1.1, §9.12) ----------------------------- */

enum recipe_form {
	RECIPE_PLAIN,    /* one job */
	RECIPE_SWEEP,    /* a top-level `sweep:`; one job per combination */
	RECIPE_OVERRIDE, /* a top-level `base:`; tested first, so base + sweep is an override file */
};
enum recipe_form recipe_form(const json_t *root);

/* ---- -f FILE[:SELECTOR] (spec §9.6) -------------------------------------- */

/* Split at the last ':' like srtctl's parse_config_arg.  *path and *selector
 * are malloc'd; *selector is NULL when arg has no ':'.  Errors:
 * "Invalid config path in selector syntax." and "Invalid selector '<sel>'. ..." */
int override_parse_arg(const char *arg, char **path, char **selector, char **err);
/* Only the selector check: base, override_<non-space>, zip_override_<[\w-]+>,
 * zip_override_<[\w-]+>[N], or anything containing '*' or '?'. */
int override_selector_valid(const char *sel, char **err);

/* ---- override files (spec §9.2-9.7) -------------------------------------- */

/* Shape checks of the file itself (schema `then` branch), as diagnostics with
 * paths: `base` required and a mapping, `schema` must be 2, only
 * ^(zip_)?override_ keys beside them, each section a mapping ("override_x
 * must be a mapping").  srtctl's own code ignores unknown top-level keys, so
 * those are errors of the schema only; override_expand() does not refuse them. */
void override_check_file(const json_t *root, struct diag_list *diags);

/* base ⊕ section (spec §9.3): null deletes, mappings merge, anything else
 * replaces; key order is base's, then new keys in section order.  New ref. */
json_t *override_merge(const json_t *base, const json_t *section);

/* zip groups (spec §9.5): N with srtctl's errors, and the section for variant i. */
int zip_length(const json_t *section, size_t *n, char **err);
json_t *zip_slice(const json_t *section, size_t i); /* new ref */

enum variant_kind {
	VARIANT_PLAIN,    /* a plain recipe: the file itself */
	VARIANT_BASE,     /* `:base` */
	VARIANT_OVERRIDE, /* one override_<suffix> section */
	VARIANT_ZIP,      /* element zip_index of a zip_override_<group> section */
	VARIANT_SWEEP,    /* one combination of a `sweep:` block */
};

struct variant {
	enum variant_kind kind;
	char *label;    /* dry-run label: "override_tp2", "override_context_0", "base";
			 * sweeps: "<parent label>/<job name>" or the job name */
	char *selector; /* what picks it: "override_tp2", "zip_override_context[0]", "base"
			 * (sweep jobs: the parent's selector, NULL for a plain recipe) */
	char *suffix;   /* "tp2", "context_0", "base"; sweep jobs: "<p><v>_..." */
	char *job_name; /* str() of the final `name`, NULL when it has none */
	json_t *tree;   /* the resolved recipe (schema carried over, sweep expanded) */
	json_t *reference; /* what "changed" is measured against: the `:base` tree
			    * for overrides, the template without `sweep` for sweep jobs */

	/* Provenance, for variant_origin(). */
	char *section_key;   /* "override_tp2", "zip_override_context"; NULL otherwise */
	size_t zip_index;    /* VARIANT_ZIP */
	json_t *section_raw; /* the section as written in the file (zip: unsliced) */
	json_t *section;     /* what was merged over base (zip: sliced) */
	json_t *base_tree;   /* `base` with the file's schema; NULL for plain recipes */
	int name_auto;       /* name generated (<base>_<suffix>, sweep names) */
	int schema_carried;  /* `schema` copied from the file's top level */
	json_t *params;      /* VARIANT_SWEEP: {param: value} in sweep order */
	json_t *template_tree; /* VARIANT_SWEEP: the recipe before substitution */
	enum variant_kind parent_kind; /* VARIANT_SWEEP: kind of the recipe swept */
};

struct variant_list {
	struct variant *v;
	size_t n, alloc;
};
#define VARIANT_LIST_INIT { NULL, 0, 0 }
void variant_list_release(struct variant_list *l);
/* Add a plain recipe as a single variant (no label/selector/suffix). */
void variant_list_add_plain(struct variant_list *l, const json_t *recipe);

/*
 * Expand an override file for a selector (NULL: every override_* in sorted
 * order, then every zip_override_* group, base excluded — spec §9.6).
 * Appends to out.  Fails with srtctl's messages (missing section, bad index,
 * no glob match, zip errors) and "override_x must be a mapping" /
 * "base must be a mapping"; on failure out is left as it was.  Variants keep
 * their own `sweep:` block: expand it with sweep_expand(v->tree, v, ...).
 */
int override_expand(const json_t *file_root, const char *selector, struct variant_list *out,
		    char **err);

/*
 * Expand a `sweep:` block (spec §9.8): Cartesian product, last parameter
 * fastest; exact "{p}" strings take the value with its type, embedded ones
 * its str() text (lists joined with ","); name <name>_<p><v>...; `sweep`
 * dropped.  parent is the override variant the recipe came from (NULL for a
 * sweep file): jobs then inherit its provenance.  Zero combinations gives
 * zero jobs and no error (callers report "sweep expanded to zero jobs").
 * Errors: "Sweep config must have 'sweep' section", "Sweep parameter '<p>'
 * must be a list", "'sweep' must be a mapping of parameter names to lists",
 * "sweep config needs a 'name': job names are built from it".
 */
int sweep_expand(const json_t *recipe, const struct variant *parent, struct variant_list *out,
		 char **err);

/* ---- where a value of a variant comes from -------------------------------- */

enum origin {
	ORIGIN_NONE,    /* not in the variant */
	ORIGIN_BASE,    /* from `base` (or the plain recipe itself) */
	ORIGIN_SECTION, /* set by the variant's section */
	ORIGIN_NAME,    /* the generated job name */
	ORIGIN_SCHEMA,  /* `schema` copied from the file's top level */
	ORIGIN_SWEEP,   /* substituted by the sweep (file_path: where the placeholder is) */
};

/*
 * Where the value at path p (a path into v->tree) is set in the file, for the
 * TUI ("set in override_x") and to point diagnostics at the right line.  If
 * file_path is not NULL it receives the path in the file's typed tree, e.g.
 * base.roles.agg.workers, override_tp2.roles.agg.gpus,
 * zip_override_context.roles.agg.args.context-length[0] (the list element the
 * variant took).  For a path the variant lacks it is the place that would
 * have to set it: the section for values under a section-only key, else base.
 * For a plain recipe file_path is p itself.  p may end past a leaf (a
 * diagnostic about a missing key): the mapping is done on its longest
 * existing prefix and the rest appended.
 */
enum origin variant_origin(const struct variant *v, const struct path *p, struct path *file_path);

/* The value at the first n segments of p in v (borrowed), NULL when absent;
 * a PATH_NAME segment picks the list item whose "name" equals it. */
const json_t *tree_lookup(const json_t *v, const struct path *p, size_t n);
const char *origin_name(enum origin o); /* "base", "section", ... for messages */

/* ---- what a variant changes ----------------------------------------------- */

struct change {
	char *path;    /* path syntax (path_format) */
	json_t *old;   /* NULL: absent before */
	json_t *new_;  /* NULL: removed */
};
struct change_list {
	struct change *v;
	size_t n, alloc;
};
#define CHANGE_LIST_INIT { NULL, 0, 0 }
void change_list_release(struct change_list *l);

/* One entry per changed leaf, walking mappings present on both sides (lists
 * and scalars compare whole), in `to`'s key order with removed keys where they
 * were.  Appends to out. */
void tree_diff(const json_t *from, const json_t *to, struct change_list *out);
/* tree_diff(v->reference, v->tree). */
void variant_changes(const struct variant *v, struct change_list *out);
/* "roles.agg.workers: 2 -> 1"; values as JSON ("4x8" quoted, [4, 8]),
 * "(unset)" for an absent side. */
void change_format(struct strbuf *out, const struct change *c);

/* ---- --set / --unset (spec §9.9) ------------------------------------------ */

/* srtctl's parse_value: "" -> "", else PyYAML typing of the text, except that
 * a mapping or unparsable text stays the original string.  New ref. */
json_t *setflag_parse_value(const char *text);

/*
 * Apply every "KEY=VALUE" of sets, in order, then every KEY of unsets, to root
 * (modified in place).  On an override file (root has `base`), each flag goes
 * to base and to every override_* / zip_override_* mapping section; in zip
 * sections a --set value is wrapped in a one-element list.  Errors:
 * path syntax (path_parse with PATH_OVERRIDE) and "--set expects KEY=VALUE,
 * got '...'" are usage errors: *usage is set to 1 (exit 2); application
 * errors ("<path>: index [N] is out of range (length L)", ...) leave *usage 0
 * (exit 1).  usage may be NULL.  On error root may be partly modified.
 * applied (may be NULL) receives "--set <path>=<value>" / "--unset <path>" for
 * each flag that changed something, as srtctl logs them.
 */
int setflags_apply(json_t *root, const struct strvec *sets, const struct strvec *unsets,
		   struct strvec *applied, int *usage, char **err);

#endif
