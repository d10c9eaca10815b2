/*
 * setpath.c — `--set KEY=VALUE` / `--unset KEY` on a raw recipe tree, as
 * srtctl's overrides.py does it (spec §9.9), including its fan-out into every
 * section of an override file.
 */
#include "model/override.h"

#include <stdlib.h>
#include <string.h>

#include "model/scalar.h"
#include "lib/json.h"

json_t *setflag_parse_value(const char *text)
{
	if (!*text)
		return json_string("");
	char *err = NULL;
	json_t *v = scalar_parse_value(text, &err);
	free(err);
	/* A mapping stays the text: engine flags take JSON this way, and a
	 * "{param}" sweep placeholder survives. */
	/* A date, .inf or .nan has no JSON form: keep the text as written
	 * (".NaN", not the normalised ".nan"). */
	if (json_is_string(v) && scalar_is_special(text, strlen(text))) {
		json_decref(v);
		v = NULL;
	}
	if (!v || json_is_object(v)) {
		json_decref(v);
		v = json_string(text);
		if (!v)
			v = json_stringn_nocheck(text, strlen(text));
	}
	return v;
}

/* srtctl's format_path: only '.', '[' and ']' force (double) quotes. */
static char *format_path(const struct path *p, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n && i < p->n; i++) {
		const struct path_seg *s = &p->seg[i];
		if (s->kind == PATH_INDEX) {
			strbuf_addf(&sb, "[%zu]", s->index);
			continue;
		}
		if (sb.len)
			strbuf_addch(&sb, '.');
		if (strpbrk(s->key, ".[]"))
			strbuf_addf(&sb, "\"%s\"", s->key);
		else
			strbuf_addstr(&sb, s->key);
	}
	return strbuf_detach(&sb, NULL);
}

static int fail(char **err, const struct path *p, size_t n, const char *fmt, const char *arg,
		size_t a, size_t b)
{
	char *ps = format_path(p, n);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s: ", ps);
	if (arg) {
		/* "at '<segment>'": Python repr of the key */
		json_t *s = json_string(arg);
		strbuf_addstr(&sb, fmt);
		if (s)
			py_repr(&sb, s);
		else
			strbuf_addf(&sb, "'%s'", arg);
		json_decref(s);
	} else {
		strbuf_addf(&sb, fmt, a, b);
	}
	free(ps);
	*err = strbuf_detach(&sb, NULL);
	return -1;
}

/* apply_override: 1 when something changed, 0 when not, -1 on error.
 * value NULL means --unset. */
static int apply_one(json_t *doc, const struct path *p, const json_t *value, char **err)
{
	int unset = value == NULL;
	json_t *c = doc;
	for (size_t d = 0; d + 1 < p->n; d++) {
		const struct path_seg *s = &p->seg[d];
		if (s->kind == PATH_INDEX) {
			if (!json_is_array(c))
				return fail(err, p, d + 1, "cannot index a non-list with [%zu]", NULL,
					    s->index, 0);
			if (s->index >= json_array_size(c))
				return fail(err, p, d + 1, "index [%zu] is out of range (length %zu)",
					    NULL, s->index, json_array_size(c));
			c = json_array_get(c, s->index);
		} else {
			if (!json_is_object(c))
				return fail(err, p, d + 1, "cannot descend into a non-mapping at ",
					    s->key, 0, 0);
			json_t *next = json_object_get(c, s->key);
			if (!next) {
				if (unset)
					return 0;
				next = json_object();
				json_object_set_new(c, s->key, next);
			}
			c = next;
		}
		/* srtctl stops silently at a null on the way, for --set too. */
		if (json_is_null(c))
			return 0;
	}
	const struct path_seg *last = &p->seg[p->n - 1];
	if (unset) {
		if (last->kind == PATH_INDEX) {
			if (json_is_array(c) && last->index < json_array_size(c)) {
				json_array_remove(c, last->index);
				return 1;
			}
			return 0;
		}
		if (json_is_object(c) && json_object_get(c, last->key)) {
			json_object_del(c, last->key);
			return 1;
		}
		return 0;
	}
	if (last->kind == PATH_INDEX) {
		if (!json_is_array(c) || last->index >= json_array_size(c))
			return fail(err, p, p->n, "index out of range", NULL, 0, 0);
		json_array_set_new(c, last->index, json_deep_copy(value));
		return 1;
	}
	if (!json_is_object(c))
		return fail(err, p, p->n, "cannot set a key on a non-mapping", NULL, 0, 0);
	json_object_set_new(c, last->key, json_deep_copy(value));
	return 1;
}

struct flag {
	struct path path;
	json_t *value; /* NULL for --unset */
};

static void render_flag(struct strvec *applied, const struct flag *f)
{
	char *ps = format_path(&f->path, f->path.n);
	struct strbuf sb = STRBUF_INIT;
	if (!f->value) {
		strbuf_addf(&sb, "--unset %s", ps);
	} else {
		strbuf_addf(&sb, "--set %s=", ps);
		if (json_is_string(f->value))
			strbuf_add(&sb, json_string_value(f->value), json_string_length(f->value));
		else if (json_is_object(f->value) || json_is_array(f->value))
			pyjson_dump(&sb, f->value, 0, -1);
		else if (json_is_null(f->value))
			strbuf_addstr(&sb, "null");
		else if (json_is_boolean(f->value))
			strbuf_addstr(&sb, json_is_true(f->value) ? "true" : "false");
		else
			py_str(&sb, f->value);
	}
	free(ps);
	strvec_push_nodup(applied, strbuf_detach(&sb, NULL));
}

static int apply_flag(json_t *root, const struct flag *f, char **err)
{
	json_t *base = json_is_object(root) ? json_object_get(root, "base") : NULL;
	if (!base)
		return apply_one(root, &f->path, f->value, err);
	int changed = apply_one(base, &f->path, f->value, err);
	if (changed < 0)
		return -1;
	const char *k;
	json_t *section;
	json_object_foreach(root, k, section) {
		if (!json_is_object(section))
			continue;
		int r;
		if (!strncmp(k, "zip_override_", 13)) {
			/* A one-element list broadcasts to every zipped variant. */
			json_t *wrapped = NULL;
			if (f->value) {
				wrapped = json_array();
				json_array_append(wrapped, f->value);
			}
			r = apply_one(section, &f->path, wrapped, err);
			json_decref(wrapped);
		} else if (!strncmp(k, "override_", 9)) {
			r = apply_one(section, &f->path, f->value, err);
		} else {
			continue;
		}
		if (r < 0)
			return -1;
		changed |= r;
	}
	return changed;
}

int setflags_apply(json_t *root, const struct strvec *sets, const struct strvec *unsets,
		   struct strvec *applied, int *usage, char **err)
{
	size_t ns = sets ? sets->n : 0, nu = unsets ? unsets->n : 0, n = 0;
	struct flag *flags = xcalloc(ns + nu + 1, sizeof(*flags));
	int rc = 0;
	if (usage)
		*usage = 0;
	/* Parse everything first: a bad flag changes nothing. */
	for (size_t i = 0; i < ns + nu && !rc; i++) {
		struct flag *f = &flags[n++];
		if (i < ns) {
			const char *arg = sets->v[i];
			const char *eq = strchr(arg, '=');
			if (!eq) {
				json_t *s = json_string(arg);
				struct strbuf sb = STRBUF_INIT;
				strbuf_addstr(&sb, "--set expects KEY=VALUE, got ");
				if (s)
					py_repr(&sb, s);
				else
					strbuf_addf(&sb, "'%s'", arg);
				json_decref(s);
				*err = strbuf_detach(&sb, NULL);
				rc = -1;
				break;
			}
			char *key = xstrndup(arg, (size_t)(eq - arg));
			rc = path_parse(&f->path, key, PATH_OVERRIDE, err);
			free(key);
			if (!rc)
				f->value = setflag_parse_value(eq + 1);
		} else {
			rc = path_parse(&f->path, unsets->v[i - ns], PATH_OVERRIDE, err);
		}
	}
	if (rc) {
		if (usage)
			*usage = 1;
	} else {
		for (size_t i = 0; i < n; i++) {
			int r = apply_flag(root, &flags[i], err);
			if (r < 0) {
				rc = -1;
				break;
			}
			if (r > 0 && applied)
				render_flag(applied, &flags[i]);
		}
	}
	for (size_t i = 0; i < n; i++) {
		path_release(&flags[i].path);
		json_decref(flags[i].value);
	}
	free(flags);
	return rc;
}
