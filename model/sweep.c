/*
 * sweep.c — `sweep:` blocks: one job per combination of parameter values
 * (spec §9.8), following srtctl's sweep.py: typed exact placeholders, text
 * for embedded ones, names from the unsubstituted `name`.
 */
#include "model/override.h"

#include <stdlib.h>
#include <string.h>

#include "lib/json.h"

/* Text that replaces an embedded {p}: str(value), lists as their elements'
 * str() joined with ",". */
static char *placeholder_text(const json_t *v)
{
	if (!json_is_array(v))
		return py_str_dup(v);
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	json_t *x;
	json_array_foreach((json_t *)v, i, x) {
		if (i)
			strbuf_addch(&sb, ',');
		py_str(&sb, x);
	}
	return strbuf_detach(&sb, NULL);
}

static char *replace_all(const char *s, const char *needle, const char *with)
{
	struct strbuf sb = STRBUF_INIT;
	size_t nl = strlen(needle);
	const char *p;
	while ((p = strstr(s, needle))) {
		strbuf_add(&sb, s, (size_t)(p - s));
		strbuf_addstr(&sb, with);
		s = p + nl;
	}
	strbuf_addstr(&sb, s);
	return strbuf_detach(&sb, NULL);
}

/* expand_template: a new value for v (new reference). */
static json_t *substitute(const json_t *v, const json_t *params)
{
	if (json_is_object(v)) {
		json_t *out = json_object();
		const char *k;
		json_t *x;
		json_object_foreach((json_t *)v, k, x)
			json_object_set_new(out, k, substitute(x, params));
		return out;
	}
	if (json_is_array(v)) {
		json_t *out = json_array();
		size_t i;
		json_t *x;
		json_array_foreach((json_t *)v, i, x)
			json_array_append_new(out, substitute(x, params));
		return out;
	}
	if (!json_is_string(v))
		return json_incref((json_t *)v);
	char *cur = xstrdup(json_string_value(v));
	const char *k;
	json_t *val;
	json_object_foreach((json_t *)params, k, val) {
		char *ph = xasprintf("{%s}", k);
		if (!strcmp(cur, ph)) {
			/* Exactly the placeholder: the value keeps its YAML type. */
			free(ph);
			free(cur);
			return json_deep_copy(val);
		}
		if (strstr(cur, ph)) {
			char *text = placeholder_text(val);
			char *next = replace_all(cur, ph, text);
			free(text);
			free(cur);
			cur = next;
		}
		free(ph);
	}
	json_t *out = json_string(cur);
	if (!out) /* not UTF-8: cannot happen for text from a YAML file */
		out = json_stringn_nocheck(cur, strlen(cur));
	free(cur);
	return out;
}

int sweep_expand(const json_t *recipe, const struct variant *parent, struct variant_list *out,
		 char **err)
{
	const json_t *sweep = json_is_object(recipe) ? json_object_get(recipe, "sweep") : NULL;
	if (!sweep) {
		*err = xstrdup("Sweep config must have 'sweep' section");
		return -1;
	}
	if (!json_is_object(sweep)) {
		*err = xstrdup("'sweep' must be a mapping of parameter names to lists");
		return -1;
	}
	const char *k;
	json_t *vals;
	size_t np = json_object_size(sweep), total = 1;
	json_object_foreach((json_t *)sweep, k, vals) {
		if (!json_is_array(vals)) {
			*err = xasprintf("Sweep parameter '%s' must be a list", k);
			return -1;
		}
		total *= json_array_size(vals);
	}
	const json_t *name = json_object_get(recipe, "name");
	if (!name) {
		*err = xstrdup("sweep config needs a 'name': job names are built from it");
		return -1;
	}
	if (!total)
		return 0;

	const char **keys = xmalloc((np + 1) * sizeof(*keys));
	const json_t **lists = xmalloc((np + 1) * sizeof(*lists));
	size_t *idx = xcalloc(np + 1, sizeof(*idx));
	size_t i = 0;
	json_object_foreach((json_t *)sweep, k, vals) {
		keys[i] = k;
		lists[i++] = vals;
	}
	json_t *templ = json_deep_copy(recipe);
	json_object_del(templ, "sweep");
	char *name_text = py_str_dup(name);

	for (size_t job = 0; job < total; job++) {
		json_t *params = json_object();
		struct strbuf suffix = STRBUF_INIT;
		for (i = 0; i < np; i++) {
			json_t *val = json_array_get(lists[i], idx[i]);
			json_object_set_new(params, keys[i], json_deep_copy(val));
			strbuf_addf(&suffix, "%s%s", i ? "_" : "", keys[i]);
			py_str(&suffix, val);
		}
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		struct variant *v = &out->v[out->n++];
		memset(v, 0, sizeof(*v));
		v->kind = VARIANT_SWEEP;
		v->tree = substitute(templ, params);
		/* name is built from the document before substitution. */
		json_object_set_new(v->tree, "name",
				    json_sprintf("%s_%s", name_text, sb_str(&suffix)));
		v->job_name = xasprintf("%s_%s", name_text, sb_str(&suffix));
		v->suffix = strbuf_detach(&suffix, NULL);
		v->params = params;
		v->template_tree = json_deep_copy(recipe);
		v->reference = json_incref(templ);
		v->name_auto = 1;
		if (parent) {
			v->parent_kind = parent->kind;
			v->label = xasprintf("%s/%s", parent->label ? parent->label : "", v->job_name);
			v->selector = parent->selector ? xstrdup(parent->selector) : NULL;
			v->section_key = parent->section_key ? xstrdup(parent->section_key) : NULL;
			v->zip_index = parent->zip_index;
			v->section_raw = parent->section_raw ? json_incref(parent->section_raw) : NULL;
			v->section = parent->section ? json_incref(parent->section) : NULL;
			v->base_tree = parent->base_tree ? json_incref(parent->base_tree) : NULL;
			v->schema_carried = parent->schema_carried;
		} else {
			v->parent_kind = VARIANT_PLAIN;
			v->label = xstrdup(v->job_name);
		}
		/* Odometer: the last parameter varies fastest. */
		for (size_t d = np; d-- > 0;) {
			if (++idx[d] < json_array_size(lists[d]))
				break;
			idx[d] = 0;
		}
	}
	free(name_text);
	json_decref(templ);
	free(keys);
	free(lists);
	free(idx);
	return 0;
}
