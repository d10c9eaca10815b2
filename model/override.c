/*
 * override.c — override files: merge, zip groups, selectors, expansion
 * (spec §9.2-9.7), and the bookkeeping every variant carries so the TUI and
 * validate can say where a value is set.  The rules follow srtctl's
 * config.py line by line; the comments say where srtctl is surprising.
 */
#include "model/override.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"

#define OVR_PREFIX "override_"
#define ZIP_PREFIX "zip_override_"

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

enum recipe_form recipe_form(const json_t *root)
{
	if (json_is_object(root) && json_object_get(root, "base"))
		return RECIPE_OVERRIDE;
	if (json_is_object(root) && json_object_get(root, "sweep"))
		return RECIPE_SWEEP;
	return RECIPE_PLAIN;
}

/* ---- selectors ------------------------------------------------------------ */

/* Python's \w and \S on str are Unicode-aware; bytes >= 0x80 stand in for
 * non-ASCII letters here (no Unicode tables in the model). */
static int word_char(unsigned char c)
{
	return isalnum(c) || c == '_' || c >= 0x80;
}

static int space_char(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/* zip_override_<[\w-]+>, optionally followed by [digits]: returns the length
 * of the group key, sets *index (or -1 when there is no [N]); 0 when it does
 * not match at all. */
static size_t match_zip_selector(const char *sel, long *index)
{
	if (!starts_with(sel, ZIP_PREFIX))
		return 0;
	const char *p = sel + strlen(ZIP_PREFIX), *start = p;
	while (*p && (word_char((unsigned char)*p) || *p == '-'))
		p++;
	if (p == start)
		return 0;
	size_t keylen = (size_t)(p - sel);
	if (!*p) {
		*index = -1;
		return keylen;
	}
	if (*p != '[' || !isdigit((unsigned char)p[1]))
		return 0;
	const char *d = p + 1;
	while (isdigit((unsigned char)*d))
		d++;
	if (*d != ']' || d[1])
		return 0;
	*index = d - (p + 1) > 15 ? 999999999999999L : strtol(p + 1, NULL, 10);
	return keylen;
}

int override_selector_valid(const char *sel, char **err)
{
	long idx;
	int ok = !strcmp(sel, "base") || strchr(sel, '*') || strchr(sel, '?') ||
		 match_zip_selector(sel, &idx);
	if (!ok && starts_with(sel, OVR_PREFIX) && sel[strlen(OVR_PREFIX)]) {
		ok = 1;
		for (const char *p = sel + strlen(OVR_PREFIX); *p; p++)
			if (space_char((unsigned char)*p))
				ok = 0;
	}
	if (!ok) {
		*err = xasprintf("Invalid selector '%s'. Must be 'base', 'override_<name>', "
				 "'zip_override_<name>', 'zip_override_<name>[N]', or a glob pattern "
				 "like '*mtp*'.", sel);
		return -1;
	}
	return 0;
}

int override_parse_arg(const char *arg, char **path, char **selector, char **err)
{
	*path = NULL;
	*selector = NULL;
	const char *colon = strrchr(arg, ':');
	if (!colon) {
		*path = xstrdup(arg);
		return 0;
	}
	const char *p = arg;
	while (p < colon && space_char((unsigned char)*p))
		p++;
	if (p == colon) {
		*err = xstrdup("Invalid config path in selector syntax.");
		return -1;
	}
	if (override_selector_valid(colon + 1, err))
		return -1;
	*path = xstrndup(arg, (size_t)(colon - arg));
	*selector = xstrdup(colon + 1);
	return 0;
}

/* ---- file shape ----------------------------------------------------------- */

void override_check_file(const json_t *root, struct diag_list *diags)
{
	if (!json_is_object(root)) {
		diag_add(diags, DIAG_ERROR, "override-not-mapping", "", NULL,
			 "an override file must be a mapping with a 'base' key");
		return;
	}
	const json_t *base = json_object_get(root, "base");
	if (!base)
		diag_add(diags, DIAG_ERROR, "override-no-base", "",
			 "add 'base:' with the recipe the sections are merged over",
			 "override file has no 'base' key");
	else if (!json_is_object(base))
		diag_add(diags, DIAG_ERROR, "override-base-not-mapping", "base",
			 "write the base recipe as a mapping under 'base:'", "base must be a mapping");
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)root, k, v) {
		if (!strcmp(k, "base"))
			continue;
		if (!strcmp(k, "schema")) {
			if (!json_is_integer(v) || json_integer_value(v) != 2) {
				char *s = pyjson_dumps(v, PYJSON_UNICODE);
				diag_add(diags, DIAG_ERROR, "override-schema", "schema",
					 "srtctl only reads schema 2 recipes", "schema must be 2, got %s", s);
				free(s);
			}
			continue;
		}
		struct path p = PATH_INIT;
		path_push_key(&p, k);
		char *ps = path_format(&p, (size_t)-1);
		path_release(&p);
		if (!starts_with(k, OVR_PREFIX) && !starts_with(k, ZIP_PREFIX))
			diag_add(diags, DIAG_ERROR, "override-unknown-key", ps,
				 "beside 'base' and 'schema' only override_<suffix> and "
				 "zip_override_<group> sections are allowed (srtctl ignores the rest)",
				 "unknown top-level key '%s' in an override file", k);
		else if (!json_is_object(v))
			diag_add(diags, DIAG_ERROR, "override-section-not-mapping", ps,
				 "write the keys to change under it, or use null inside it to delete one",
				 "%s must be a mapping", k);
		free(ps);
	}
}

/* ---- merge and zip --------------------------------------------------------- */

json_t *override_merge(const json_t *base, const json_t *section)
{
	json_t *out = json_deep_copy(base);
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)section, k, v) {
		json_t *cur = json_object_get(out, k);
		if (json_is_null(v))
			json_object_del(out, k);
		else if (json_is_object(v) && json_is_object(cur))
			json_object_set_new(out, k, override_merge(cur, v));
		else
			json_object_set_new(out, k, json_deep_copy(v));
	}
	return out;
}

/* Lengths of every list leaf, walking mappings only (a list inside a list is
 * an element, not a leaf). */
static void collect_lengths(const json_t *d, size_t **lens, size_t *n, size_t *alloc)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)d, k, v) {
		if (json_is_array(v)) {
			ALLOC_GROW(*lens, *n + 1, *alloc);
			(*lens)[(*n)++] = json_array_size(v);
		} else if (json_is_object(v)) {
			collect_lengths(v, lens, n, alloc);
		}
	}
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

int zip_length(const json_t *section, size_t *n, char **err)
{
	size_t *lens = NULL, cnt = 0, alloc = 0;
	collect_lengths(section, &lens, &cnt, &alloc);
	int rc = 0;
	if (!cnt) {
		*err = xstrdup("zip_override section contains no list values \xe2\x80\x94 nothing to zip");
		rc = -1;
		goto out;
	}
	size_t m = 0;
	for (size_t i = 0; i < cnt; i++) {
		if (!lens[i]) {
			*err = xstrdup("zip_override contains an empty list \xe2\x80\x94 cannot zip "
				       "zero-length lists");
			rc = -1;
			goto out;
		}
		if (lens[i] != 1)
			lens[m++] = lens[i];
	}
	if (!m) {
		*n = 1;
		goto out;
	}
	qsort(lens, m, sizeof(*lens), cmp_size);
	size_t u = 1;
	for (size_t i = 1; i < m; i++)
		if (lens[i] != lens[u - 1])
			lens[u++] = lens[i];
	if (u > 1) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addstr(&sb, "Incompatible zip lengths [");
		for (size_t i = 0; i < u; i++)
			strbuf_addf(&sb, "%s%zu", i ? ", " : "", lens[i]);
		strbuf_addstr(&sb, "]. All lists must have the same length or length 1 (broadcast).");
		*err = strbuf_detach(&sb, NULL);
		rc = -1;
		goto out;
	}
	*n = lens[0];
out:
	free(lens);
	return rc;
}

json_t *zip_slice(const json_t *section, size_t i)
{
	json_t *out = json_object();
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)section, k, v) {
		if (json_is_array(v))
			json_object_set_new(out, k, json_deep_copy(json_array_get(
							   v, json_array_size(v) == 1 ? 0 : i)));
		else if (json_is_object(v))
			json_object_set_new(out, k, zip_slice(v, i));
		else
			json_object_set(out, k, v);
	}
	return out;
}

/* ---- variants ------------------------------------------------------------- */

static void variant_release(struct variant *v)
{
	free(v->label);
	free(v->selector);
	free(v->suffix);
	free(v->job_name);
	free(v->section_key);
	json_decref(v->tree);
	json_decref(v->reference);
	json_decref(v->section_raw);
	json_decref(v->section);
	json_decref(v->params);
	json_decref(v->template_tree);
	json_decref(v->base_tree);
}

void variant_list_release(struct variant_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		variant_release(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->alloc = 0;
}

static struct variant *variant_new(struct variant_list *l, enum variant_kind kind)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	struct variant *v = &l->v[l->n++];
	memset(v, 0, sizeof(*v));
	v->kind = kind;
	return v;
}

static void set_job_name(struct variant *v)
{
	json_t *name = json_object_get(v->tree, "name");
	free(v->job_name);
	v->job_name = name ? py_str_dup(name) : NULL;
}

void variant_list_add_plain(struct variant_list *l, const json_t *recipe)
{
	struct variant *v = variant_new(l, VARIANT_PLAIN);
	/* The recipe itself, shared: readers of a variant never change its
	 * trees, and the editor lists the variants again at every edit, where
	 * two copies of a 20,000-line tree cost more than validating it. */
	v->tree = json_incref((json_t *)recipe);
	v->reference = json_incref((json_t *)recipe);
	set_job_name(v);
}

/* What is shared by every variant of one file. */
struct expand_ctx {
	const json_t *root;
	const json_t *base;
	const json_t *schema; /* top-level schema, or NULL */
	json_t *base_resolved; /* base with schema carried: the reference */
	struct variant_list tmp;
};

static char *base_name(const json_t *base)
{
	json_t *n = json_object_get(base, "name");
	return n ? py_str_dup(n) : xstrdup("unnamed");
}

static void carry_schema(struct expand_ctx *c, struct variant *v)
{
	if (c->schema && !json_object_get(v->tree, "schema")) {
		json_object_set(v->tree, "schema", (json_t *)c->schema);
		v->schema_carried = 1;
	}
}

static void add_base(struct expand_ctx *c)
{
	struct variant *v = variant_new(&c->tmp, VARIANT_BASE);
	v->label = xstrdup("base");
	v->selector = xstrdup("base");
	v->suffix = xstrdup("base");
	v->tree = json_deep_copy(c->base);
	carry_schema(c, v);
	v->reference = json_incref(c->base_resolved);
	v->base_tree = json_incref(c->base_resolved);
	set_job_name(v);
}

static int add_override(struct expand_ctx *c, const char *key, char **err)
{
	const json_t *section = json_object_get(c->root, key);
	if (!json_is_object(section)) {
		*err = xasprintf("%s must be a mapping", key);
		return -1;
	}
	const char *suffix = key + strlen(OVR_PREFIX);
	struct variant *v = variant_new(&c->tmp, VARIANT_OVERRIDE);
	v->label = xstrdup(key);
	v->selector = xstrdup(key);
	v->suffix = xstrdup(suffix);
	v->section_key = xstrdup(key);
	v->section_raw = json_incref((json_t *)section);
	v->section = json_incref((json_t *)section);
	v->tree = override_merge(c->base, section);
	/* srtctl: any `name` key in the section, even null, turns naming off. */
	if (!json_object_get(section, "name")) {
		char *bn = base_name(c->base);
		json_object_set_new(v->tree, "name", json_sprintf("%s_%s", bn, suffix));
		free(bn);
		v->name_auto = 1;
	}
	carry_schema(c, v);
	v->reference = json_incref(c->base_resolved);
	v->base_tree = json_incref(c->base_resolved);
	set_job_name(v);
	return 0;
}

/* All variants of a zip group, or only variant `only` when only >= 0. */
static int add_zip(struct expand_ctx *c, const char *key, long only, char **err)
{
	const json_t *section = json_object_get(c->root, key);
	if (!json_is_object(section)) {
		*err = xasprintf("%s must be a mapping", key);
		return -1;
	}
	size_t n;
	if (zip_length(section, &n, err))
		return -1;
	if (only >= 0 && (size_t)only >= n) {
		*err = xasprintf("Index [%ld] out of range for '%s' (has %zu variants, valid: 0\xe2\x80\x93%zu)",
				 only, key, n, n - 1);
		return -1;
	}
	const char *group = key + strlen(ZIP_PREFIX);
	/* A scalar `name` would give every variant the same name, so srtctl
	 * generates names unless `name` is a list. */
	int name_list = json_is_array(json_object_get(section, "name"));
	char *bn = base_name(c->base);
	for (size_t i = 0; i < n; i++) {
		if (only >= 0 && (size_t)only != i)
			continue;
		struct variant *v = variant_new(&c->tmp, VARIANT_ZIP);
		v->label = xasprintf("override_%s_%zu", group, i);
		v->selector = xasprintf("%s[%zu]", key, i);
		v->suffix = xasprintf("%s_%zu", group, i);
		v->section_key = xstrdup(key);
		v->zip_index = i;
		v->section_raw = json_incref((json_t *)section);
		v->section = zip_slice(section, i);
		v->tree = override_merge(c->base, v->section);
		if (!name_list) {
			json_object_set_new(v->tree, "name", json_sprintf("%s_%s_%zu", bn, group, i));
			v->name_auto = 1;
		}
		carry_schema(c, v);
		v->reference = json_incref(c->base_resolved);
		v->base_tree = json_incref(c->base_resolved);
		set_job_name(v);
	}
	free(bn);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "override_a, override_b, zip_override_c[i]" or "(none)". */
static char *available(const char **ovr, size_t novr, const char **zip, size_t nzip, int ovr_too)
{
	struct strbuf sb = STRBUF_INIT;
	if (ovr_too)
		for (size_t i = 0; i < novr; i++)
			strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", ovr[i]);
	for (size_t i = 0; i < nzip; i++)
		strbuf_addf(&sb, "%s%s[i]", sb.len ? ", " : "", zip[i]);
	if (!sb.len)
		strbuf_addstr(&sb, "(none)");
	return strbuf_detach(&sb, NULL);
}

static int expand(struct expand_ctx *c, const char *sel, char **err)
{
	size_t cnt = json_object_size(c->root), novr = 0, nzip = 0;
	const char **ovr = xmalloc((cnt + 1) * sizeof(*ovr));
	const char **zip = xmalloc((cnt + 1) * sizeof(*zip));
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)c->root, k, v) {
		if (starts_with(k, OVR_PREFIX))
			ovr[novr++] = k;
		else if (starts_with(k, ZIP_PREFIX))
			zip[nzip++] = k;
	}
	qsort(ovr, novr, sizeof(*ovr), cmp_str);
	qsort(zip, nzip, sizeof(*zip), cmp_str);
	int rc = 0;
	long idx;
	size_t keylen;

	if (!sel) {
		for (size_t i = 0; i < novr && !rc; i++)
			rc = add_override(c, ovr[i], err);
		for (size_t i = 0; i < nzip && !rc; i++)
			rc = add_zip(c, zip[i], -1, err);
	} else if ((keylen = match_zip_selector(sel, &idx)) && idx >= 0) {
		char *key = xstrndup(sel, keylen);
		if (!json_object_get(c->root, key)) {
			char *av = available(ovr, novr, zip, nzip, 0);
			*err = xasprintf("'%s' not found in config. Available zip groups: %s", key, av);
			free(av);
			rc = -1;
		} else {
			rc = add_zip(c, key, idx, err);
		}
		free(key);
	} else if (!strcmp(sel, "base")) {
		add_base(c);
	} else if (strchr(sel, '*') || strchr(sel, '?')) {
		/* override and zip keys sorted together, as fnmatch sees them. */
		const char **all = xmalloc((novr + nzip + 1) * sizeof(*all));
		memcpy(all, ovr, novr * sizeof(*all));
		memcpy(all + novr, zip, nzip * sizeof(*all));
		qsort(all, novr + nzip, sizeof(*all), cmp_str);
		size_t matched = 0;
		for (size_t i = 0; i < novr + nzip && !rc; i++) {
			if (fnmatch(sel, all[i], FNM_NOESCAPE))
				continue;
			matched++;
			rc = starts_with(all[i], ZIP_PREFIX) ? add_zip(c, all[i], -1, err)
							     : add_override(c, all[i], err);
		}
		if (!rc && !matched) {
			char *av = available(ovr, novr, zip, nzip, 1);
			*err = xasprintf("No variants match '%s'. Available: %s", sel, av);
			free(av);
			rc = -1;
		}
		free(all);
	} else if (starts_with(sel, ZIP_PREFIX)) {
		if (!json_object_get(c->root, sel)) {
			struct strbuf sb = STRBUF_INIT;
			for (size_t i = 0; i < nzip; i++)
				strbuf_addf(&sb, "%s%s", i ? ", " : "", zip[i]);
			*err = xasprintf("'%s' not found in config. Available: %s", sel,
					 nzip ? sb_str(&sb) : "(none)");
			strbuf_release(&sb);
			rc = -1;
		} else {
			rc = add_zip(c, sel, -1, err);
		}
	} else {
		if (!json_object_get(c->root, sel)) {
			char *av = available(ovr, novr, zip, nzip, 1);
			*err = xasprintf("Override '%s' not found in config. Available: %s", sel, av);
			free(av);
			rc = -1;
		} else {
			rc = add_override(c, sel, err);
		}
	}
	free(ovr);
	free(zip);
	return rc;
}

int override_expand(const json_t *file_root, const char *selector, struct variant_list *out,
		    char **err)
{
	if (!json_is_object(file_root) || !json_object_get(file_root, "base")) {
		*err = xstrdup("not an override config (missing 'base' key)");
		return -1;
	}
	struct expand_ctx c = { .root = file_root, .tmp = VARIANT_LIST_INIT };
	c.base = json_object_get(file_root, "base");
	if (!json_is_object(c.base)) {
		*err = xstrdup("base must be a mapping");
		return -1;
	}
	c.schema = json_object_get(file_root, "schema");
	c.base_resolved = json_deep_copy(c.base);
	if (c.schema && !json_object_get(c.base_resolved, "schema"))
		json_object_set(c.base_resolved, "schema", (json_t *)c.schema);

	int rc = expand(&c, selector, err);
	json_decref(c.base_resolved);
	if (rc) {
		variant_list_release(&c.tmp);
		return -1;
	}
	for (size_t i = 0; i < c.tmp.n; i++) {
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		out->v[out->n++] = c.tmp.v[i];
	}
	free(c.tmp.v);
	return 0;
}

/* ---- provenance ----------------------------------------------------------- */

const char *origin_name(enum origin o)
{
	switch (o) {
	case ORIGIN_NONE: return "unset";
	case ORIGIN_BASE: return "base";
	case ORIGIN_SECTION: return "section";
	case ORIGIN_NAME: return "generated name";
	case ORIGIN_SCHEMA: return "file schema";
	case ORIGIN_SWEEP: return "sweep";
	}
	return "?";
}

const json_t *tree_lookup(const json_t *v, const struct path *p, size_t n)
{
	for (size_t i = 0; i < n && v; i++) {
		const struct path_seg *s = &p->seg[i];
		if (s->kind == PATH_KEY) {
			v = json_is_object(v) ? json_object_get(v, s->key) : NULL;
		} else if (s->kind == PATH_INDEX) {
			v = json_is_array(v) ? json_array_get(v, s->index) : NULL;
		} else {
			const json_t *found = NULL;
			size_t j;
			json_t *item;
			if (json_is_array(v))
				json_array_foreach((json_t *)v, j, item) {
					json_t *nm = json_object_get(item, "name");
					if (json_is_string(nm) && !strcmp(json_string_value(nm), s->key)) {
						found = item;
						break;
					}
				}
			v = found;
		}
	}
	return v;
}

static void prefixed(struct path *out, const char *first, const struct path *p, size_t from)
{
	if (!out)
		return;
	path_clear(out);
	if (first)
		path_push_key(out, first);
	for (size_t i = from; i < p->n; i++)
		path_push_seg(out, &p->seg[i]);
}

static int is_key(const struct path *p, const char *k)
{
	return p->n == 1 && p->seg[0].kind == PATH_KEY && !strcmp(p->seg[0].key, k);
}

/* Origin within an override/zip/base/plain variant (not sweep). */
static enum origin origin_merged(const struct variant *v, enum variant_kind kind,
				 const struct path *p, struct path *fp)
{
	int present = tree_lookup(v->tree, p, p->n) != NULL;
	if (kind == VARIANT_PLAIN) {
		prefixed(fp, NULL, p, 0);
		return present ? ORIGIN_BASE : ORIGIN_NONE;
	}
	if (is_key(p, "schema") && v->schema_carried) {
		prefixed(fp, NULL, p, 0);
		return ORIGIN_SCHEMA;
	}
	if (kind == VARIANT_BASE || !v->section) {
		prefixed(fp, "base", p, 0);
		return present ? ORIGIN_BASE : ORIGIN_NONE;
	}
	if (is_key(p, "name") && v->name_auto) {
		prefixed(fp, json_object_get(v->base_tree, "name") ? "base" : v->section_key, p, 0);
		return ORIGIN_NAME;
	}
	/* Walk the section as merged, base beside it, and for zip groups the
	 * section as written, to put the chosen element's index in the path. */
	struct path file = PATH_INIT;
	path_push_key(&file, v->section_key);
	const json_t *s = v->section, *b = v->base_tree;
	const json_t *raw = kind == VARIANT_ZIP ? v->section_raw : NULL;
	size_t i = 0;
	int from_section = 0, owned = 0;
	for (; i < p->n; i++) {
		const struct path_seg *seg = &p->seg[i];
		if (!json_is_object(s) || seg->kind != PATH_KEY || !json_object_get(s, seg->key))
			break;
		s = json_object_get(s, seg->key);
		b = json_is_object(b) ? json_object_get(b, seg->key) : NULL;
		path_push_key(&file, seg->key);
		if (raw) {
			raw = json_object_get(raw, seg->key);
			if (json_is_array(raw)) {
				path_push_index(&file, json_array_size(raw) == 1 ? 0 : v->zip_index);
				raw = NULL; /* below a list leaf nothing is sliced */
			}
		}
		if (!json_is_object(s)) {
			/* A scalar, list or null replaces (or deletes) base's value. */
			i++;
			from_section = 1;
			break;
		}
		if (!json_is_object(b))
			owned = 1; /* the section's mapping replaced or added the key */
	}
	enum origin o;
	if (from_section || owned) {
		o = from_section || present ? ORIGIN_SECTION : ORIGIN_NONE;
		if (fp) {
			path_copy(fp, &file);
			for (; i < p->n; i++)
				path_push_seg(fp, &p->seg[i]);
		}
	} else {
		o = present ? ORIGIN_BASE : ORIGIN_NONE;
		prefixed(fp, "base", p, 0);
	}
	path_release(&file);
	return o;
}

enum origin variant_origin(const struct variant *v, const struct path *p, struct path *file_path)
{
	if (v->kind != VARIANT_SWEEP)
		return origin_merged(v, v->kind, p, file_path);
	if (is_key(p, "name")) {
		origin_merged(v, v->parent_kind, p, file_path);
		return ORIGIN_NAME;
	}
	enum origin o = origin_merged(v, v->parent_kind, p, file_path);
	const json_t *now = tree_lookup(v->tree, p, p->n);
	const json_t *before = tree_lookup(v->template_tree, p, p->n);
	if (now && before && json_is_string(before) && !json_equal((json_t *)now, (json_t *)before))
		return ORIGIN_SWEEP;
	return o;
}

/* ---- changes ------------------------------------------------------------- */

void change_list_release(struct change_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].path);
		json_decref(l->v[i].old);
		json_decref(l->v[i].new_);
	}
	free(l->v);
	l->v = NULL;
	l->n = l->alloc = 0;
}

static void add_change(struct change_list *out, struct path *p, const json_t *old, const json_t *new_)
{
	ALLOC_GROW(out->v, out->n + 1, out->alloc);
	struct change *c = &out->v[out->n++];
	c->path = path_format(p, (size_t)-1);
	c->old = old ? json_incref((json_t *)old) : NULL;
	c->new_ = new_ ? json_incref((json_t *)new_) : NULL;
}

static void diff_at(const json_t *a, const json_t *b, struct path *p, struct change_list *out)
{
	const char *k;
	json_t *v;
	/* Added or removed mappings are listed leaf by leaf, so each line is one
	 * value the TUI can point at. */
	const json_t *only = !b ? a : !a ? b : NULL;
	if (json_is_object(only) && json_object_size(only)) {
		json_object_foreach((json_t *)only, k, v) {
			path_push_key(p, k);
			diff_at(a ? v : NULL, b ? v : NULL, p, out);
			path_pop(p);
		}
		return;
	}
	if (!json_is_object(a) || !json_is_object(b)) {
		if (!a || !b || !json_equal((json_t *)a, (json_t *)b))
			add_change(out, p, a, b);
		return;
	}
	json_object_foreach((json_t *)a, k, v) {
		path_push_key(p, k);
		diff_at(v, json_object_get(b, k), p, out);
		path_pop(p);
	}
	json_object_foreach((json_t *)b, k, v) {
		if (json_object_get(a, k))
			continue;
		path_push_key(p, k);
		diff_at(NULL, v, p, out);
		path_pop(p);
	}
}

void tree_diff(const json_t *from, const json_t *to, struct change_list *out)
{
	struct path p = PATH_INIT;
	diff_at(from, to, &p, out);
	path_release(&p);
}

void variant_changes(const struct variant *v, struct change_list *out)
{
	tree_diff(v->reference, v->tree, out);
}

void change_format(struct strbuf *out, const struct change *c)
{
	strbuf_addf(out, "%s: ", c->path);
	if (c->old)
		pyjson_dump(out, c->old, PYJSON_UNICODE, -1);
	else
		strbuf_addstr(out, "(unset)");
	strbuf_addstr(out, " -> ");
	if (c->new_)
		pyjson_dump(out, c->new_, PYJSON_UNICODE, -1);
	else
		strbuf_addstr(out, "(unset)");
}
