#include "model/path.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

static void push(struct path *p, enum path_kind kind, char *key, size_t index)
{
	ALLOC_GROW(p->seg, p->n + 1, p->alloc);
	p->seg[p->n].kind = kind;
	p->seg[p->n].key = key;
	p->seg[p->n].index = index;
	p->n++;
}

void path_push_keyn(struct path *p, const char *key, size_t len)
{
	push(p, PATH_KEY, xstrndup(key, len), 0);
}

void path_push_key(struct path *p, const char *key)
{
	push(p, PATH_KEY, xstrdup(key), 0);
}

void path_push_index(struct path *p, size_t index)
{
	push(p, PATH_INDEX, NULL, index);
}

void path_push_name(struct path *p, const char *name)
{
	push(p, PATH_NAME, xstrdup(name), 0);
}

void path_pop(struct path *p)
{
	if (!p->n)
		return;
	p->n--;
	free(p->seg[p->n].key);
}

void path_clear(struct path *p)
{
	while (p->n)
		path_pop(p);
}

void path_release(struct path *p)
{
	path_clear(p);
	free(p->seg);
	p->seg = NULL;
	p->alloc = 0;
}

void path_copy(struct path *dst, const struct path *src)
{
	path_clear(dst);
	for (size_t i = 0; i < src->n; i++)
		path_push_seg(dst, &src->seg[i]);
}

void path_push_seg(struct path *p, const struct path_seg *s)
{
	push(p, s->kind, s->key ? xstrdup(s->key) : NULL, s->index);
}

int path_seg_equal(const struct path_seg *a, const struct path_seg *b)
{
	if (a->kind != b->kind)
		return 0;
	return a->kind == PATH_INDEX ? a->index == b->index : !strcmp(a->key, b->key);
}

int path_equal(const struct path *a, const struct path *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (!path_seg_equal(&a->seg[i], &b->seg[i]))
			return 0;
	return 1;
}

static int fail(char **err, unsigned flags, const char *text, const char *what, size_t pos)
{
	const char *noun = (flags & PATH_OVERRIDE) ? "override path" : "path";
	if (!strcmp(what, "empty"))
		*err = xasprintf("%s must not be empty", noun);
	else if (!strcmp(what, "segment"))
		*err = xasprintf("empty segment in %s '%s'", noun, text);
	else if (!strcmp(what, "start"))
		*err = xasprintf("%s '%s' must start with a key, not an index", noun, text);
	else if (!strcmp(what, "index"))
		*err = xasprintf("bad list index in %s '%s'", noun, text);
	else if (!strcmp(what, "quote"))
		*err = xasprintf("unterminated quote in %s '%s'", noun, text);
	else if (!strcmp(what, "end"))
		*err = xasprintf("%s '%s' ends with a separator", noun, text);
	else
		*err = xasprintf("expected '.' or '[' at position %zu in %s '%s'", pos, noun, text);
	return -1;
}

int path_parse(struct path *out, const char *text, unsigned flags, char **err)
{
	path_clear(out);
	/* srtctl trims surrounding whitespace. */
	while (isspace((unsigned char)*text))
		text++;
	size_t len = strlen(text);
	while (len && isspace((unsigned char)text[len - 1]))
		len--;
	char *t = xstrndup(text, len);
	int rc = 0;
	size_t i = 0;

	if (!len) {
		rc = fail(err, flags, t, "empty", 0);
		goto out;
	}
	if (t[0] == '[') {
		rc = fail(err, flags, t, "start", 0);
		goto out;
	}
	for (;;) {
		/* A key: quoted or bare. */
		if (t[i] == '"' || t[i] == '\'') {
			char q = t[i];
			const char *end = strchr(t + i + 1, q);
			if (!end) {
				rc = fail(err, flags, t, "quote", i);
				goto out;
			}
			path_push_keyn(out, t + i + 1, (size_t)(end - t - i - 1));
			i = (size_t)(end - t) + 1;
		} else {
			size_t s = i;
			while (t[i] && t[i] != '.' && t[i] != '[')
				i++;
			if (i == s) {
				rc = fail(err, flags, t, t[i] ? "segment" : "end", i);
				goto out;
			}
			path_push_keyn(out, t + s, i - s);
		}
		/* Any number of [N] / [name] after it. */
		while (t[i] == '[') {
			const char *close = strchr(t + i + 1, ']');
			if (!close || close == t + i + 1) {
				rc = fail(err, flags, t, "index", i);
				goto out;
			}
			size_t s = i + 1, e = (size_t)(close - t);
			int digits = 1;
			for (size_t k = s; k < e; k++)
				if (!isdigit((unsigned char)t[k]))
					digits = 0;
			if (digits) {
				if (e - s > 18) {
					rc = fail(err, flags, t, "index", i);
					goto out;
				}
				path_push_index(out, strtoul(t + s, NULL, 10));
			} else if (flags & PATH_NAMES) {
				char *name;
				if ((t[s] == '"' || t[s] == '\'') && e - s >= 2 && t[e - 1] == t[s])
					name = xstrndup(t + s + 1, e - s - 2);
				else
					name = xstrndup(t + s, e - s);
				push(out, PATH_NAME, name, 0);
			} else {
				rc = fail(err, flags, t, "index", i);
				goto out;
			}
			i = e + 1;
		}
		if (!t[i])
			break;
		if (t[i] != '.') {
			rc = fail(err, flags, t, "pos", i);
			goto out;
		}
		i++;
		if (!t[i]) {
			rc = fail(err, flags, t, "end", i);
			goto out;
		}
		if (t[i] == '.' || t[i] == '[') {
			rc = fail(err, flags, t, "segment", i);
			goto out;
		}
	}
out:
	if (rc)
		path_clear(out);
	free(t);
	return rc;
}

static int needs_quotes(const char *k)
{
	if (!*k || isspace((unsigned char)k[0]) || isspace((unsigned char)k[strlen(k) - 1]))
		return 1;
	return strpbrk(k, ".[]\"'") != NULL;
}

char *path_format(const struct path *p, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	if (n > p->n)
		n = p->n;
	for (size_t i = 0; i < n; i++) {
		const struct path_seg *s = &p->seg[i];
		if (s->kind == PATH_INDEX) {
			strbuf_addf(&sb, "[%zu]", s->index);
		} else if (s->kind == PATH_NAME) {
			strbuf_addf(&sb, "[%s]", s->key);
		} else {
			if (i)
				strbuf_addch(&sb, '.');
			if (needs_quotes(s->key))
				strbuf_addf(&sb, strchr(s->key, '"') ? "'%s'" : "\"%s\"", s->key);
			else
				strbuf_addstr(&sb, s->key);
		}
	}
	return strbuf_detach(&sb, NULL);
}
