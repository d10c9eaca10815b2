/* variants.c — override variants and sweep jobs for the TUI (variants.h). */
#include <stdlib.h>
#include <string.h>

#include "model/path.h"
#include "model/recipe.h"
#include "model/validate.h"
#include "lib/json.h"
#include "tui/variants.h"

/* Move entry i of src to the end of dst (src keeps a hole: callers drop
 * src's array with free(), never variant_list_release). */
static void move_variant(struct variant_list *dst, struct variant *v)
{
	ALLOC_GROW(dst->v, dst->n + 1, dst->alloc);
	dst->v[dst->n++] = *v;
	memset(v, 0, sizeof(*v));
}

void variant_state_compute(struct variant_state *vs, const json_t *root)
{
	struct variant_state z = VARIANT_STATE_INIT;
	char *err = NULL;
	*vs = z;
	if (!root)
		return;
	vs->root = json_incref((json_t *)root);
	vs->form = recipe_form(root);
	switch (vs->form) {
	case RECIPE_PLAIN:
		variant_list_add_plain(&vs->list, root);
		vs->njobs = 1;
		return;
	case RECIPE_SWEEP:
		if (sweep_expand(root, NULL, &vs->list, &err))
			vs->error = err;
		vs->njobs = vs->list.n;
		return;
	case RECIPE_OVERRIDE:
		break;
	}
	struct variant_list tmp = VARIANT_LIST_INIT, done = VARIANT_LIST_INIT;
	if (override_expand(root, NULL, &tmp, &err)) {
		vs->error = err;
		err = NULL;
	}
	for (size_t i = 0; i < tmp.n; i++) {
		struct variant *v = &tmp.v[i];
		if (json_is_object(v->tree) && json_object_get(v->tree, "sweep")) {
			if (sweep_expand(v->tree, v, &vs->list, &err) && !vs->error) {
				vs->error = err;
				err = NULL;
			}
			free(err);
			err = NULL;
			move_variant(&done, v);
		} else {
			move_variant(&vs->list, v);
		}
	}
	free(tmp.v);
	variant_list_release(&done);
	vs->njobs = vs->list.n;
	/* base last: a preview of the common part, never a job */
	if (override_expand(root, "base", &vs->list, &err))
		free(err);
}

void variant_state_release(struct variant_state *vs)
{
	variant_list_release(&vs->list);
	json_decref(vs->root);
	free(vs->error);
	struct variant_state z = VARIANT_STATE_INIT;
	*vs = z;
}

long variant_state_find(const struct variant_state *vs, const char *label)
{
	for (size_t i = 0; label && i < vs->list.n; i++)
		if (vs->list.v[i].label && !strcmp(vs->list.v[i].label, label))
			return (long)i;
	return -1;
}

/* ---- where values come from ------------------------------------------------ */

static int parse(const char *text, struct path *p, char **err)
{
	return path_parse(p, text, PATH_NAMES, err);
}

enum origin variant_where(const struct variant_state *vs, size_t vi, const char *recipe_path,
			  char **file_path, const char **who)
{
	struct path p = PATH_INIT, fp = PATH_INIT;
	char *err = NULL;
	enum origin o = ORIGIN_NONE;
	const struct variant *v = vi < vs->list.n ? &vs->list.v[vi] : NULL;
	if (file_path)
		*file_path = NULL;
	if (who)
		*who = "unset";
	if (!v || parse(recipe_path, &p, &err)) {
		free(err);
		path_release(&p);
		return ORIGIN_NONE;
	}
	o = variant_origin(v, &p, &fp);
	if (file_path)
		*file_path = path_format(&fp, (size_t)-1);
	if (who) {
		switch (o) {
		case ORIGIN_SECTION:
			*who = v->section_key ? v->section_key : "section";
			if (v->kind == VARIANT_ZIP || v->parent_kind == VARIANT_ZIP)
				*who = v->selector ? v->selector : *who;
			break;
		case ORIGIN_NONE:
			*who = "unset";
			break;
		default:
			*who = origin_name(o);
			break;
		}
	}
	path_release(&p);
	path_release(&fp);
	return o;
}

/* ---- validation ------------------------------------------------------------ */

/* The rules, the merging of repeats and the file positions live in the
 * model (validate_variants.c), shared with `srt-tui validate`. */
void variant_state_validate(const struct variant_state *vs, const struct doc *d,
			    struct diag_list *out)
{
	variant_state_validate_cluster(vs, NULL, d, out);
}

void variant_state_validate_cluster(const struct variant_state *vs, const struct cluster *c,
				    const struct doc *d, struct diag_list *out)
{
	validate_variant_jobs_with(c, vs->form, &vs->list, vs->njobs, vs->error, d, VV_NAME_EVERY, out);
}

/* ---- edits ----------------------------------------------------------------- */

void variant_edit_release(struct variant_edit *e)
{
	free(e->path);
	json_decref(e->value);
	free(e->note);
	memset(e, 0, sizeof(*e));
}

static char *prefix_path(const char *first, const struct path *p)
{
	struct path q = PATH_INIT;
	path_push_key(&q, first);
	for (size_t i = 0; i < p->n; i++)
		path_push_seg(&q, &p->seg[i]);
	char *out = path_format(&q, (size_t)-1);
	path_release(&q);
	return out;
}

/* The zip group of v: how many variants, from the expansion. */
static size_t zip_group_size(const struct variant_state *vs, const struct variant *v)
{
	size_t n = 0;
	for (size_t i = 0; i < vs->list.n; i++) {
		const struct variant *w = &vs->list.v[i];
		if (w->kind == VARIANT_ZIP && w->section_key && !strcmp(w->section_key, v->section_key) &&
		    w->zip_index + 1 > n)
			n = w->zip_index + 1;
	}
	return n;
}

static int zip_plan(const struct variant_state *vs, const struct variant *v, const struct path *p,
		    const json_t *value, struct variant_edit *out, char **err)
{
	struct path fp = PATH_INIT;
	enum origin o = variant_origin(v, p, &fp);
	size_t n = zip_group_size(vs, v), k;
	/* A list in the section already picks this variant's value: change
	 * that element, unless it is a length-1 broadcast. */
	for (k = 1; o == ORIGIN_SECTION && k < fp.n; k++)
		if (fp.seg[k].kind == PATH_INDEX)
			break;
	if (o == ORIGIN_SECTION && k < fp.n) {
		const json_t *list = tree_lookup(vs->root, &fp, k);
		if (json_array_size(list) > 1) {
			out->path = path_format(&fp, (size_t)-1);
			out->value = json_deep_copy(value);
			path_release(&fp);
			return 0;
		}
		if (k + 1 != fp.n) {
			char *lp = path_format(&fp, k);
			*err = xasprintf("'%s' is inside a one-element list that every variant of %s "
					 "shares: edit it in the Fields tree",
					 lp, v->section_key);
			free(lp);
			path_release(&fp);
			return -1;
		}
	}
	/* A scalar (or nothing) in the section: one value per variant. */
	json_t *arr = json_array();
	for (size_t j = 0; j < n; j++) {
		const json_t *cur = NULL;
		if (j == v->zip_index) {
			json_array_append_new(arr, json_deep_copy(value));
			continue;
		}
		for (size_t i = 0; i < vs->list.n; i++) {
			const struct variant *w = &vs->list.v[i];
			if (w->kind == VARIANT_ZIP && !strcmp(w->section_key, v->section_key) &&
			    w->zip_index == j) {
				cur = tree_lookup(w->tree, p, p->n);
				break;
			}
		}
		json_array_append_new(arr, cur ? json_deep_copy(cur) : json_null());
	}
	out->path = o == ORIGIN_SECTION && k < fp.n ? path_format(&fp, k) : prefix_path(v->section_key, p);
	out->value = arr;
	out->widens = 1;
	out->note = xasprintf("%s sets one value for all %zu of its variants: changing it for "
			      "variant %zu alone turns it into a list of %zu, one per variant",
			      v->section_key, n, v->zip_index, n);
	path_release(&fp);
	return 0;
}

int variant_edit_plan(const struct variant_state *vs, size_t vi, const char *recipe_path,
		      enum edit_place where, const json_t *value, struct variant_edit *out,
		      char **err)
{
	struct path p = PATH_INIT, fp = PATH_INIT;
	memset(out, 0, sizeof(*out));
	if (vi >= vs->list.n) {
		*err = xstrdup("no such variant");
		return -1;
	}
	const struct variant *v = &vs->list.v[vi];
	if (parse(recipe_path, &p, err)) {
		path_release(&p);
		return -1;
	}
	int rc = 0;
	enum origin o = variant_origin(v, &p, &fp);
	enum variant_kind kind = v->kind == VARIANT_SWEEP ? v->parent_kind : v->kind;
	if (v->kind == VARIANT_SWEEP && (o == ORIGIN_SWEEP || o == ORIGIN_NAME)) {
		char *f = path_format(&fp, (size_t)-1);
		*err = o == ORIGIN_SWEEP
			       ? xasprintf("'%s' comes from the sweep (the placeholder at '%s'): change "
					   "the parameter's values in the sweep block instead",
					   recipe_path, f)
			       : xasprintf("job names are built from 'name' and the parameters: edit "
					   "'%s' instead", f);
		free(f);
		rc = -1;
	} else if (kind == VARIANT_PLAIN || vs->form != RECIPE_OVERRIDE) {
		out->path = path_format(&fp, (size_t)-1);
		out->value = json_deep_copy(value);
	} else if (where == EDIT_BASE || kind == VARIANT_BASE) {
		out->path = prefix_path("base", &p);
		out->value = json_deep_copy(value);
		if (o == ORIGIN_SECTION && kind != VARIANT_BASE)
			out->note = xasprintf("%s still sets '%s' for this variant: base's value reaches "
					      "only the variants that do not",
					      v->section_key, recipe_path);
	} else if (kind == VARIANT_ZIP) {
		rc = zip_plan(vs, v, &p, value, out, err);
	} else {
		out->path = o == ORIGIN_SECTION ? path_format(&fp, (size_t)-1)
						: prefix_path(v->section_key, &p);
		out->value = json_deep_copy(value);
	}
	path_release(&p);
	path_release(&fp);
	if (rc)
		variant_edit_release(out);
	return rc;
}

char *variant_params_text(const struct variant *v)
{
	struct strbuf sb = STRBUF_INIT;
	const char *k;
	json_t *val;
	if (v->kind == VARIANT_SWEEP && json_is_object(v->params))
		json_object_foreach(v->params, k, val) {
			strbuf_addf(&sb, "%s%s=", sb.len ? ", " : "", k);
			py_str(&sb, val);
		}
	return strbuf_detach(&sb, NULL);
}
