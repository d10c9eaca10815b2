/*
 * validate_variants.c — validation of a file that is many jobs (validate.h):
 * every variant of an override file, the jobs of their sweeps, the jobs of a
 * sweep file, each checked as the recipe srtctl will submit, and each
 * problem pointed back at the line of the file that caused it (base, the
 * variant's section, element i of a zip list, or the --set flag that put
 * the value there).  Shared by `srt-tui validate` and the TUI.
 */
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "model/path.h"
#include "model/recipe.h"
#include "lib/util.h"
#include "model/validate.h"
#include "model/legacy.h"
#include "model/validate_int.h"

/* A --set/--unset flag as given, and the path it touches. */
struct flagref {
	struct path p;
	char *text; /* "--set roles.agg.gpus=2" */
};

/* What a diagnostic's file path is located against. */
struct vctx {
	const struct doc *d;
	enum recipe_form form;
	const json_t *orig; /* the file as written; NULL when no flag changed it */
	const json_t *root; /* after the flags */
	struct flagref *flags;
	size_t nflags;
	const struct cluster *cluster; /* srtctl's cluster defaults for the rules; NULL */
};

/* One diagnostic, with the jobs that have it. */
struct vdiag {
	struct diag d; /* path = file path, message without labels */
	struct strvec labels;
	char *section; /* about a whole job (path ""): the first job's section */
	int flagged;   /* the value comes from a flag, named in the message */
};

struct vacc {
	struct vdiag *v;
	size_t n, alloc;
};

/* ---- where a value is ----------------------------------------------------- */

/* pre is a prefix of p's segments from off on. */
static int is_prefix(const struct path *pre, const struct path *p, size_t off)
{
	if (off + pre->n > p->n)
		return 0;
	for (size_t i = 0; i < pre->n; i++)
		if (!path_seg_equal(&pre->seg[i], &p->seg[off + i]))
			return 0;
	return 1;
}

/*
 * The flag a value at file path fp comes from, or NULL when the file itself
 * holds it.  On an override file a flag's path is applied under base and
 * every section, so it is compared below fp's first segment.  The last flag
 * applied wins (unsets run after sets; flags are kept in that order).
 */
static const char *flag_for(const struct vctx *c, const struct path *fp)
{
	if (!c->orig || !c->nflags)
		return NULL;
	const json_t *was = tree_lookup(c->orig, fp, fp->n), *now = tree_lookup(c->root, fp, fp->n);
	if (was && now && json_equal((json_t *)was, (json_t *)now))
		return NULL;
	size_t off = c->form == RECIPE_OVERRIDE && fp->n && fp->seg[0].kind == PATH_KEY ? 1 : 0;
	for (size_t i = c->nflags; i-- > 0;)
		if (is_prefix(&c->flags[i].p, fp, off))
			return c->flags[i].text;
	return NULL;
}

/* Fill g's position from the file, or name the flag that set the value. */
static void place(const struct vctx *c, struct diag *g)
{
	struct path p = PATH_INIT;
	char *err = NULL;
	if (!g->path || !*g->path || path_parse(&p, g->path, PATH_NAMES, &err)) {
		free(err);
		path_release(&p);
		return;
	}
	const char *flag = flag_for(c, &p);
	if (flag) {
		char *m = xasprintf("%s (from %s)", g->message, flag);
		free(g->message);
		g->message = m;
		g->line = g->col = 0;
	} else if (c->d && !g->line) {
		doc_locate(c->d, &p, &g->line, &g->col);
	}
	path_release(&p);
}

/* ---- one job ----------------------------------------------------------------- */

/* The schema on the job as written; the rules on the job as srtctl loads
 * it, the cluster's defaults applied (its gpus_per_node sizes the nodes). */
static void recipe_diags(json_t *tree, const struct cluster *c, struct diag_list *l)
{
	struct recipe r;
	validate_schema(tree, l);
	cluster_recipe_init(&r, c, tree, NULL);
	validate_recipe(&r, l);
	recipe_release(&r);
}

/* The place in the file a job's diagnostic path points at; malloc'd.  A
 * diagnostic about the whole job keeps "" (placed later, see emit). */
static char *file_path_of(const struct variant *v, const char *dpath)
{
	struct path p = PATH_INIT, fp = PATH_INIT;
	char *err = NULL, *out;
	if (*dpath && !path_parse(&p, dpath, PATH_NAMES, &err)) {
		variant_origin(v, &p, &fp);
		out = path_format(&fp, (size_t)-1);
	} else {
		out = xstrdup(dpath);
	}
	free(err);
	path_release(&p);
	path_release(&fp);
	return out;
}

/* A string srtctl's loader reads as an integer (marshmallow's non-strict
 * Integer field), e.g. "4". */
static int int_text(const json_t *v)
{
	const char *t = json_is_string(v) ? json_string_value(v) : NULL;
	if (!t || !*t)
		return 0;
	for (t += *t == '-'; *t; t++)
		if (*t < '0' || *t > '9')
			return 0;
	return 1;
}

/*
 * The published override and sweep examples produce values srtctl's JSON
 * schema refuses but its loader may take (spec 9.13 items 3 and 4): an exact
 * "{p}" placeholder substituted with an integer where the schema wants a
 * string or list, and "4" in a list of integers.  Whether srtctl accepts
 * them was never run, so these are warnings, with the portable spelling as
 * the hint.  Returns the hint to use, or NULL to keep the diagnostic.
 */
static char *soften(const struct variant *v, const struct diag *g)
{
	struct path p = PATH_INIT;
	char *err = NULL;
	char *hint = NULL;
	if (strcmp(g->code ? g->code : "", "wrong-type") || !*g->path ||
	    path_parse(&p, g->path, PATH_NAMES, &err)) {
		free(err);
		path_release(&p);
		return NULL;
	}
	const json_t *val = tree_lookup(v->tree, &p, p.n);
	if (variant_origin(v, &p, NULL) == ORIGIN_SWEEP)
		hint = xstrdup("the sweep puts the value here with its own type (an exact \"{p}\" "
			       "placeholder), which srtctl's schema does not list for this field; write "
			       "the placeholder inside a list, e.g. [\"{p}\"], or inside a longer string");
	else if (int_text(val) && strstr(g->message, "integer"))
		hint = xasprintf("srtctl's loader reads \"%s\" as %s, but its schema wants a number: "
				 "write it without quotes", json_string_value(val), json_string_value(val));
	path_release(&p);
	return hint;
}

static int same_diag(const struct diag *a, const struct diag *b)
{
	return a->severity == b->severity && !strcmp(a->code ? a->code : "", b->code ? b->code : "") &&
	       !strcmp(a->path, b->path) && !strcmp(a->message, b->message);
}

/* Already reported as the file's own (base's schema problems, a sweep
 * file's template): the same code at the same place. */
static int already(const struct diag_list *out, size_t n, const struct diag *g)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(out->v[i].path ? out->v[i].path : "", g->path) &&
		    !strcmp(out->v[i].code ? out->v[i].code : "", g->code ? g->code : ""))
			return 1;
	return 0;
}

/* The file's own check (base) already names the flag for this code. */
static int already_flagged(const struct diag_list *out, size_t n, const struct diag *g,
			   const char *flag)
{
	char *tail = xasprintf(" (from %s)", flag);
	size_t tl = strlen(tail);
	int found = 0;
	for (size_t i = 0; i < n && !found; i++) {
		const char *m = out->v[i].message;
		size_t ml = strlen(m);
		found = !strcmp(out->v[i].code ? out->v[i].code : "", g->code ? g->code : "") &&
			ml >= tl && !strcmp(m + ml - tl, tail);
	}
	free(tail);
	return found;
}

static void collect(const struct vctx *c, const struct variant_list *jobs, size_t njobs,
		    const struct diag_list *prior, size_t nprior, struct vacc *acc)
{
	for (size_t i = 0; i < njobs && i < jobs->n; i++) {
		const struct variant *v = &jobs->v[i];
		const char *label = v->label ? v->label : v->job_name ? v->job_name : "?";
		struct diag_list l = DIAG_LIST_INIT;
		recipe_diags(v->tree, c->cluster, &l);
		for (size_t k = 0; k < l.n; k++) {
			struct diag key = l.v[k];
			char *soft = key.severity == DIAG_ERROR ? soften(v, &key) : NULL;
			if (soft) {
				key.severity = DIAG_WARNING;
				key.hint = soft;
			}
			key.path = file_path_of(v, l.v[k].path);
			if (already(prior, nprior, &key)) {
				free(key.path);
				free(soft);
				continue;
			}
			/* A value a flag put there is the flag's, the same for every
			 * variant it fans out to: merge at the recipe path. */
			char *flagged_msg = NULL;
			const char *flag = NULL;
			if (c->nflags && *key.path) {
				struct path fp = PATH_INIT;
				char *perr = NULL;
				if (!path_parse(&fp, key.path, PATH_NAMES, &perr))
					flag = flag_for(c, &fp);
				free(perr);
				path_release(&fp);
			}
			if (flag && already_flagged(prior, nprior, &key, flag)) {
				free(key.path);
				free(soft);
				continue;
			}
			if (flag) {
				free(key.path);
				key.path = xstrdup(l.v[k].path);
				key.message = flagged_msg = xasprintf("%s (from %s)", l.v[k].message, flag);
			}
			size_t j;
			for (j = 0; j < acc->n && !same_diag(&acc->v[j].d, &key); j++)
				;
			if (j == acc->n) {
				ALLOC_GROW(acc->v, acc->n + 1, acc->alloc);
				struct vdiag *x = &acc->v[acc->n++];
				memset(x, 0, sizeof(*x));
				x->d.severity = key.severity;
				x->d.path = key.path;
				x->d.code = key.code ? xstrdup(key.code) : NULL;
				x->d.message = xstrdup(key.message);
				x->d.hint = key.hint ? xstrdup(key.hint) : NULL;
				if (!*key.path && c->form == RECIPE_OVERRIDE && v->section_key)
					x->section = xstrdup(v->section_key);
				x->flagged = flag != NULL;
			} else {
				free(key.path);
			}
			free(flagged_msg);
			free(soft);
			struct strvec *lb = &acc->v[j].labels;
			if (!lb->n || strcmp(lb->v[lb->n - 1], label))
				strvec_push(lb, label);
		}
		diag_list_release(&l);
	}
}

/* "override_tp2", "override_a, override_b", "a, b and 3 more", "all variants". */
static char *who_text(const struct vdiag *x, size_t njobs, enum recipe_form form, unsigned flags)
{
	if (!(flags & VV_NAME_EVERY) && njobs >= 2 && x->labels.n == njobs)
		return xstrdup(form == RECIPE_SWEEP ? "all jobs"
			       : flags & VV_SELECTED ? "all selected variants"
						     : "all variants");
	struct strbuf who = STRBUF_INIT;
	size_t show = x->labels.n > 3 ? 2 : x->labels.n;
	for (size_t k = 0; k < show; k++)
		strbuf_addf(&who, "%s%s", k ? ", " : "", x->labels.v[k]);
	if (show < x->labels.n)
		strbuf_addf(&who, " and %zu more", x->labels.n - show);
	return strbuf_detach(&who, NULL);
}

/* Move the collected diagnostics into out, labelled and placed. */
static void emit(const struct vctx *c, struct vacc *acc, size_t njobs, unsigned flags,
		 struct diag_list *out, struct strvec *labels)
{
	for (size_t j = 0; j < acc->n; j++) {
		struct vdiag *x = &acc->v[j];
		char *who = who_text(x, njobs, c->form, flags);
		/* about a whole job: one job's is about its section, several jobs'
		 * about the file */
		const char *path = x->section && x->labels.n == 1 ? x->section : x->d.path;
		struct diag *n = diag_add(out, x->d.severity, x->d.code, path, x->d.hint, "[%s] %s",
					  who, x->d.message);
		if (!x->flagged)
			place(c, n);
		if (labels)
			strvec_push_nodup(labels, who);
		else
			free(who);
		strvec_release(&x->labels);
		free(x->d.path);
		free(x->d.code);
		free(x->d.message);
		free(x->d.hint);
		free(x->section);
	}
	free(acc->v);
	memset(acc, 0, sizeof(*acc));
}


/* ---- a file that does not expand ------------------------------------------------ */

/* srtctl's order of expansion: override_* sorted, then zip_override_* sorted. */
static int expand_order(const char *a, const char *b)
{
	int za = !strncmp(a, "zip_", 4), zb = !strncmp(b, "zip_", 4);
	return za != zb ? za - zb : strcmp(a, b);
}

/*
 * The key an override file's expansion failed on: base or a section that is
 * not a mapping, or the first zip group (in expansion order) whose lists do
 * not zip; the selector's own section when it names one.  *shape is set when
 * the problem is a section that is not a mapping, which the file's own check
 * (validate_schema) already reports.  NULL when nothing is found.
 */
static const char *failing_key(const json_t *root, const char *selector, int *shape)
{
	const char *found = NULL, *k;
	json_t *v;
	*shape = 0;
	if (!json_is_object(json_object_get(root, "base"))) {
		*shape = 1;
		return "base";
	}
	json_object_foreach((json_t *)root, k, v) {
		int zip = !strncmp(k, "zip_override_", 13);
		if (!zip && strncmp(k, "override_", 9))
			continue;
		size_t n;
		char *err = NULL;
		int bad = !json_is_object(v) || (zip && zip_length(v, &n, &err));
		free(err);
		if (bad && (!found || expand_order(k, found) < 0)) {
			found = k;
			*shape = !json_is_object(v);
		}
	}
	char *key = NULL;
	if (selector && !strpbrk(selector, "*?")) {
		const char *br = strchr(selector, '[');
		key = br ? xstrndup(selector, (size_t)(br - selector)) : xstrdup(selector);
	}
	if (key && strcmp(key, "base")) {
		/* the selector names it: its own problem, or it does not resolve */
		json_object_foreach((json_t *)root, k, v)
			if (!strcmp(k, key))
				found = k;
		*shape = found && !strcmp(found, key) && !json_is_object(json_object_get(root, found));
	}
	free(key);
	return found;
}

/* How to fix what srtctl's expansion said. */
static const char *expand_hint(const char *err, int selector)
{
	if (!strncmp(err, "zip_override section contains no list", 37))
		return "give each value that differs per variant as a list, e.g. context-length: "
		       "[2048, 8192]; a section that changes single values is an override_<name>";
	if (!strncmp(err, "zip_override contains an empty list", 35))
		return "give the empty list one value per variant, or remove it";
	if (!strncmp(err, "Incompatible zip lengths", 24))
		return "give every list in the section the same length (one value per variant), or "
		       "length 1 to use one value for every variant";
	if (selector)
		return "pick a variant the file has: 'srt-tui expand FILE' lists them";
	return "fix the section at this line; srtctl stops at the same point";
}

/* The diagnostic for an override file that does not expand, at the section
 * it is about; nothing when the file's own check already reports it. */
static void expand_error_diag(const struct vctx *c, const char *selector, const char *err,
			      struct diag_list *out)
{
	int shape = 0;
	const char *key = c->root ? failing_key(c->root, selector, &shape) : NULL;
	if (shape)
		return;
	struct diag *g = diag_add(out, DIAG_ERROR, "override-expand", key ? key : "",
				  expand_hint(err, selector != NULL), "failed to expand overrides: %s",
				  err);
	place(c, g);
}

/* ---- for the TUI: jobs already expanded --------------------------------------- */

/* A sweep that failed to expand (err) or expanded to no job: srtctl stops there. */
static void sweep_diag(const struct vctx *c, const char *err, size_t njobs, struct diag_list *out)
{
	struct diag *g;
	if (err)
		g = diag_add(out, DIAG_ERROR, "sweep-expand", "sweep",
			     "fix the sweep block; srtctl stops at the same point",
			     "failed to expand sweep: %s", err);
	else if (c->form == RECIPE_SWEEP && !njobs)
		g = diag_add(out, DIAG_ERROR, "sweep-empty", "sweep",
			     "give every sweep parameter at least one value",
			     "sweep expanded to zero jobs");
	else
		return;
	place(c, g);
}

void validate_variant_jobs(enum recipe_form form, const struct variant_list *jobs, size_t njobs,
			   const char *expand_error, const struct doc *d, unsigned flags,
			   struct diag_list *out)
{
	validate_variant_jobs_with(NULL, form, jobs, njobs, expand_error, d, flags, out);
}

void validate_variant_jobs_with(const struct cluster *cl, enum recipe_form form,
				const struct variant_list *jobs, size_t njobs,
				const char *expand_error, const struct doc *d, unsigned flags,
				struct diag_list *out)
{
	if (form == RECIPE_PLAIN)
		return;
	json_t *root = d ? doc_json(d) : NULL;
	struct vctx c = { d, form, NULL, root, NULL, 0, cl };
	size_t had = out->n;
	if (expand_error && form == RECIPE_OVERRIDE)
		expand_error_diag(&c, NULL, expand_error, out);
	else
		sweep_diag(&c, expand_error, njobs, out);
	struct vacc acc = { NULL, 0, 0 };
	collect(&c, jobs, njobs, out, had, &acc);
	emit(&c, &acc, njobs, flags, out, NULL);
	json_decref(root);
}

/* ---- for the command: the whole file ------------------------------------------ */

static void pad_labels(struct strvec *labels, size_t n)
{
	while (labels && labels->n < n)
		strvec_push(labels, "");
}

/* The flags as paths, sets first then unsets (their order of application). */
static void parse_flags(struct vctx *c, const struct strvec *sets, const struct strvec *unsets)
{
	size_t n = (sets ? sets->n : 0) + (unsets ? unsets->n : 0);
	c->flags = xcalloc(n ? n : 1, sizeof(*c->flags));
	for (int pass = 0; pass < 2; pass++) {
		const struct strvec *sv = pass ? unsets : sets;
		for (size_t i = 0; sv && i < sv->n; i++) {
			const char *eq = pass ? NULL : strchr(sv->v[i], '=');
			char *key = eq ? xstrndup(sv->v[i], (size_t)(eq - sv->v[i])) : xstrdup(sv->v[i]);
			char *err = NULL;
			struct flagref *f = &c->flags[c->nflags];
			memset(f, 0, sizeof(*f));
			if (path_parse(&f->p, key, PATH_OVERRIDE, &err)) {
				free(err);
				path_release(&f->p);
			} else {
				f->text = xasprintf("%s %s", pass ? "--unset" : "--set", sv->v[i]);
				c->nflags++;
			}
			free(key);
		}
	}
}

/* Expand an override file for the selector into jobs; problems of the
 * expansion (srtctl's messages) go to out. */
static void expand_override(const struct vctx *c, const char *selector, struct variant_list *jobs,
			    struct diag_list *out, struct strvec *labels)
{
	struct variant_list tmp = VARIANT_LIST_INIT;
	char *err = NULL;
	if (override_expand(c->root, selector, &tmp, &err)) {
		expand_error_diag(c, selector, err, out);
		pad_labels(labels, out->n);
		free(err);
		return;
	}
	for (size_t i = 0; i < tmp.n; i++) {
		struct variant *v = &tmp.v[i];
		if (!json_is_object(v->tree) || !json_object_get(v->tree, "sweep")) {
			ALLOC_GROW(jobs->v, jobs->n + 1, jobs->alloc);
			jobs->v[jobs->n++] = *v;
			memset(v, 0, sizeof(*v));
			continue;
		}
		/* The variant's own sweep: its jobs are what gets submitted. */
		size_t before = jobs->n;
		const char *msg = NULL;
		if (sweep_expand(v->tree, v, jobs, &err))
			msg = err;
		else if (jobs->n == before)
			msg = "sweep expanded to zero jobs";
		if (msg) {
			struct path p = PATH_INIT, fp = PATH_INIT;
			path_push_key(&p, "sweep");
			variant_origin(v, &p, &fp);
			char *fps = path_format(&fp, (size_t)-1);
			struct diag *g = diag_add(out, DIAG_ERROR, err ? "sweep-expand" : "sweep-empty", fps,
						  "give every sweep parameter a list of at least one value",
						  "[%s] %s%s", v->label, err ? "failed to expand sweep: " : "",
						  msg);
			place(c, g);
			if (labels) {
				pad_labels(labels, out->n - 1);
				strvec_push(labels, v->label);
			}
			free(fps);
			path_release(&p);
			path_release(&fp);
		}
		free(err);
		err = NULL;
	}
	variant_list_release(&tmp);
}

int validate_doc_variants(const struct doc *d, const char *selector, const struct strvec *sets,
			  const struct strvec *unsets, struct diag_list *out, struct strvec *labels,
			  int *usage, char **err)
{
	return validate_doc_variants_with(d, NULL, selector, sets, unsets, out, labels, usage, err);
}

/* The file's own: an override file's shape and base; a recipe as written,
 * its rules over the recipe srtctl loads (the cluster's defaults in). */
static void own_diags(json_t *root, enum recipe_form form, const struct cluster *cl, struct diag_list *own)
{
	struct recipe built;
	int have_built = cl && cl->state == CLUSTER_LOADED && json_is_object(root) && form != RECIPE_OVERRIDE;
	if (have_built)
		cluster_recipe_init(&built, cl, root, NULL);
	validate_tree(root, have_built ? &built : NULL, own);
	if (have_built)
		recipe_release(&built);
}

int validate_text_glance(const char *buf, size_t len, const struct cluster *cl, int *unchecked,
			 struct text_glance *g)
{
	json_t *root = doc_fast_json(buf, len);
	if (root && recipe_form(root) == RECIPE_PLAIN && !legacy_recipe(root)) {
		cluster_alias_diags(cl, root, &g->alias, unchecked);
		own_diags(root, RECIPE_PLAIN, cl, &g->own);
		g->tree = root;
		return !g->alias.n && !g->own.n;
	}
	json_decref(root);
	return 0;
}

void text_glance_release(struct text_glance *g)
{
	diag_list_release(&g->alias);
	diag_list_release(&g->own);
	json_decref(g->tree);
	g->tree = NULL;
}

static int variants(const struct doc *d, const struct cluster *cl, const char *selector,
		    const struct strvec *sets, const struct strvec *unsets, struct diag_list *given,
		    struct diag_list *out, struct strvec *labels, int *usage, char **err);

int validate_doc_variants_given(const struct doc *d, const struct cluster *cl, struct text_glance *g,
				struct diag_list *out, struct strvec *labels)
{
	return variants(d, cl, NULL, NULL, NULL, &g->own, out, labels, NULL, NULL);
}

int validate_doc_variants_with(const struct doc *d, const struct cluster *cl, const char *selector,
			       const struct strvec *sets, const struct strvec *unsets,
			       struct diag_list *out, struct strvec *labels, int *usage, char **err)
{
	return variants(d, cl, selector, sets, unsets, NULL, out, labels, usage, err);
}

/* given: the file's own diagnostics, already computed (a text glance). */
static int variants(const struct doc *d, const struct cluster *cl, const char *selector,
		    const struct strvec *sets, const struct strvec *unsets, struct diag_list *given,
		    struct diag_list *out, struct strvec *labels, int *usage, char **err)
{
	int has_flags = (sets && sets->n) || (unsets && unsets->n);
	json_t *orig = doc_json(d);
	if (labels)
		strvec_clear(labels);
	if (usage)
		*usage = 0;
	if (!doc_root(d) || !orig || (!has_flags && !json_is_object(orig))) {
		/* nothing to expand: validate_doc says what is wrong */
		json_decref(orig);
		validate_doc(d, out);
		pad_labels(labels, out->n);
		diag_sort_with(out, labels ? labels->v : NULL);
		return 0;
	}
	json_t *root = has_flags ? json_deep_copy(orig) : json_incref(orig);
	if (has_flags && setflags_apply(root, sets, unsets, NULL, usage, err)) {
		json_decref(root);
		json_decref(orig);
		return -1;
	}
	struct vctx c = { d, recipe_form(root), has_flags ? orig : NULL, root, NULL, 0, cl };
	parse_flags(&c, sets, unsets);

	struct diag_list own = DIAG_LIST_INIT;
	if (given)
		diag_list_move(&own, given);
	else
		own_diags(root, c.form, cl, &own);
	for (size_t i = 0; i < own.n; i++)
		place(&c, &own.v[i]);
	pad_labels(labels, out->n);
	if (own.n)
		diag_list_move(out, &own);
	diag_list_release(&own);
	pad_labels(labels, out->n);

	struct variant_list jobs = VARIANT_LIST_INIT;
	const char *sweep_err = NULL;
	char *e = NULL;
	if (c.form == RECIPE_OVERRIDE) {
		expand_override(&c, selector, &jobs, out, labels);
	} else if (c.form == RECIPE_SWEEP) {
		if (sweep_expand(root, NULL, &jobs, &e))
			sweep_err = e;
	}
	if (c.form != RECIPE_PLAIN) {
		size_t had = out->n;
		unsigned flags = c.form == RECIPE_OVERRIDE && selector ? VV_SELECTED : 0;
		sweep_diag(&c, sweep_err, jobs.n, out);
		pad_labels(labels, out->n);
		struct vacc acc = { NULL, 0, 0 };
		collect(&c, &jobs, jobs.n, out, had, &acc);
		emit(&c, &acc, jobs.n, flags, out, labels);
	}
	free(e);
	variant_list_release(&jobs);
	for (size_t i = 0; i < c.nflags; i++) {
		path_release(&c.flags[i].p);
		free(c.flags[i].text);
	}
	free(c.flags);
	json_decref(root);
	json_decref(orig);
	diag_sort_with(out, labels ? labels->v : NULL);
	return 0;
}

int validate_text(struct validate_run *run, const char *path, char *buf, size_t len, const char *selector,
		  enum recipe_form *form, struct diag_list *out, struct strvec *labels, int *usage, char **err)
{
	int flags = (run->sets && run->sets->n) || (run->unsets && run->unsets->n);
	struct text_glance g = TEXT_GLANCE_INIT;
	*form = RECIPE_PLAIN;
	if (!selector && !flags && validate_text_glance(buf, len, run->cluster, &run->unchecked, &g)) {
		text_glance_release(&g);
		free(buf);
		return 0;
	}
	run->loaded++;
	struct doc *d = doc_load_owned(doc_file_name(path), buf, len, out);
	if (!d) {
		text_glance_release(&g);
		return 2;
	}
	if (g.tree)
		doc_adopt_json(d, g.tree);
	json_t *root = doc_json(d);
	int rc = 0;
	*form = recipe_form(root);
	if (legacy_recipe(root)) {
		legacy_diag(out);
		goto done;
	}
	if (*form == RECIPE_PLAIN) {
		struct diag_list add = DIAG_LIST_INIT;
		if (g.tree)
			diag_list_move(&add, &g.alias);
		else
			cluster_alias_diags(run->cluster, root, &add, &run->unchecked);
		doc_locate_diags(d, &add);
		diag_list_move(out, &add);
		diag_list_release(&add);
	}
	if (g.tree ? validate_doc_variants_given(d, run->cluster, &g, out, labels)
		   : validate_doc_variants_with(d, run->cluster, selector, run->sets, run->unsets, out, labels, usage,
						err))
		rc = 1;
done:
	json_decref(root);
	text_glance_release(&g);
	doc_free(d);
	return rc;
}
