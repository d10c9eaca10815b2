/*
 * role_flags.c — see role_flags.h.  The cache keeps a few lists (the least
 * recently used replaced), each with the args it was made from: sorted by
 * name, a copy of each value, where each arg's words start, and the order
 * the args were written in, so that the args of the next plan are checked
 * in one walk of both (an edit rewrites the recipe, never the order).  A
 * miss starts from the list last used with the same skip and dash: what
 * has the same name and value there gives the same words, and only the
 * rest is formatted.
 */
#include "render/role_flags.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/shell.h"

struct role_flags *role_flags_new(void)
{
	struct role_flags *f = xcalloc(1, sizeof(*f));
	f->refs = 1;
	return f;
}

struct role_flags *role_flags_ref(struct role_flags *f)
{
	f->refs++;
	return f;
}

void role_flags_unref(struct role_flags *f)
{
	if (!f || --f->refs > 0)
		return;
	strvec_release(&f->v);
	free(f->joined);
	free(f);
}

const char *role_flags_joined(struct role_flags *f)
{
	if (!f->joined) {
		struct strbuf sb = STRBUF_INIT;
		shell_join(&sb, f->v.v, f->v.n);
		f->joined = sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
	}
	return f->joined;
}

static int key_in(const char *k, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(k, *list))
			return 1;
	return 0;
}

void render_arg(struct strvec *out, const char *key, json_t *v, int dash)
{
	char *flag;
	if (json_is_false(v) || json_is_null(v))
		return;
	flag = xasprintf("--%s", key);
	if (dash)
		for (char *c = flag; *c; c++)
			if (*c == '_')
				*c = '-';
	strvec_push_nodup(out, flag);
	if (json_is_true(v))
		return;
	if (json_is_array(v)) {
		size_t j;
		json_t *e;
		json_array_foreach(v, j, e)
			strvec_push_nodup(out, py_str_dup(e));
	} else {
		strvec_push_nodup(out, py_str_dup(v));
	}
}

void render_args(struct strvec *out, json_t *args, const char *const *skip, int dash)
{
	size_t n;
	const char **keys = json_sorted_keys(args, &n);
	for (size_t i = 0; i < n; i++)
		if (!key_in(keys[i], skip))
			render_arg(out, keys[i], json_object_get(args, keys[i]), dash);
	free(keys);
}

/* ---- the cache ------------------------------------------------------------ */

#define FLAGS_CACHE_N 8

/* What one list was made from: the args sorted by name (the names as JSON
 * strings, the values copied; both shared with the entries made from this
 * one), where the words of each start in flags (at[n]: after the last),
 * and pos[i], the sorted index of the i-th arg as written. */
struct entry {
	size_t n;
	json_t **keys, **vals;
	size_t *at, *pos;
	const char *const *skip;
	int dash;
	struct role_flags *flags; /* NULL: the entry is free */
	unsigned long used;
};

struct flags_cache {
	struct entry e[FLAGS_CACHE_N];
	unsigned long clock;
};

static const char *entry_key(const struct entry *x, size_t s)
{
	return json_string_value(x->keys[s]);
}

static void entry_release(struct entry *x)
{
	for (size_t i = 0; i < x->n; i++) {
		json_decref(x->keys[i]);
		json_decref(x->vals[i]);
	}
	free(x->keys);
	free(x->vals);
	free(x->at);
	free(x->pos);
	role_flags_unref(x->flags);
	memset(x, 0, sizeof(*x));
}

struct flags_cache *flags_cache_new(void)
{
	return xcalloc(1, sizeof(struct flags_cache));
}

void flags_cache_free(struct flags_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < FLAGS_CACHE_N; i++)
		entry_release(&c->e[i]);
	free(c);
}

/* Whether x was made from args (an object), skip and dash. */
static int entry_is(const struct entry *x, json_t *args, const char *const *skip, int dash)
{
	const char *k;
	json_t *v;
	size_t i = 0;
	if (!x->flags || x->skip != skip || x->dash != dash || json_object_size(args) != x->n)
		return 0;
	json_object_foreach(args, k, v) {
		size_t s = x->pos[i++];
		if (strcmp(k, entry_key(x, s)))
			goto by_name; /* written in another order */
		if (!json_equal(v, x->vals[s]))
			return 0;
	}
	return 1;
by_name:
	for (size_t s = 0; s < x->n; s++) {
		v = json_object_get(args, entry_key(x, s));
		if (!v || !json_equal(v, x->vals[s]))
			return 0;
	}
	return 1;
}

struct arg {
	const char *key;
	json_t *v;
	size_t pos; /* as written */
};

static int cmp_arg(const void *a, const void *b)
{
	return strcmp(((const struct arg *)a)->key, ((const struct arg *)b)->key);
}

/* The entry of args into *n and its flags into f, from base (NULL: none)
 * where it has the same arg. */
static void entry_make(struct entry *n, struct role_flags *f, json_t *args,
		       const char *const *skip, int dash, const struct entry *base)
{
	size_t cnt = json_object_size(args), i = 0, b = 0;
	struct arg *a = xmalloc((cnt + 1) * sizeof(*a)), *srt = xmalloc((cnt + 1) * sizeof(*srt));
	const char *k;
	json_t *v;
	int same;

	json_object_foreach(args, k, v) {
		a[i] = (struct arg){ k, v, i };
		i++;
	}
	/* the sorted order is base's when its names were written in the same
	 * order (an edit of a value), else a sort's */
	same = base && base->n == cnt;
	for (i = 0; same && i < cnt; i++)
		same = !strcmp(a[i].key, entry_key(base, base->pos[i]));
	if (same) {
		for (i = 0; i < cnt; i++)
			srt[base->pos[i]] = a[i];
	} else {
		memcpy(srt, a, cnt * sizeof(*a));
		qsort(srt, cnt, sizeof(*srt), cmp_arg);
	}
	n->n = cnt;
	n->keys = xcalloc(cnt + 1, sizeof(*n->keys));
	n->vals = xcalloc(cnt + 1, sizeof(*n->vals));
	n->at = xcalloc(cnt + 1, sizeof(*n->at));
	n->pos = xcalloc(cnt + 1, sizeof(*n->pos));
	for (size_t s = 0; s < cnt; s++) {
		size_t bi = SIZE_MAX; /* base's arg of this name, if any */
		n->pos[srt[s].pos] = s;
		if (same) {
			bi = s;
		} else if (base) {
			/* both are sorted by name */
			while (b < base->n && strcmp(entry_key(base, b), srt[s].key) < 0)
				b++;
			if (b < base->n && !strcmp(entry_key(base, b), srt[s].key))
				bi = b;
		}
		int kept = bi != SIZE_MAX && json_equal(base->vals[bi], srt[s].v);
		n->keys[s] = bi != SIZE_MAX ? json_incref(base->keys[bi])
				       : json_stringn_nocheck(srt[s].key, strlen(srt[s].key));
		n->vals[s] = kept ? json_incref(base->vals[bi]) : json_deep_copy(srt[s].v);
		n->at[s] = f->v.n;
		if (key_in(srt[s].key, skip))
			continue;
		if (kept)
			for (size_t w = base->at[bi]; w < base->at[bi + 1]; w++)
				strvec_push(&f->v, base->flags->v.v[w]);
		else
			render_arg(&f->v, srt[s].key, srt[s].v, dash);
	}
	n->at[cnt] = f->v.n;
	n->skip = skip;
	n->dash = dash;
	n->flags = role_flags_ref(f);
	free(a);
	free(srt);
}

struct role_flags *flags_cache_get(struct flags_cache *c, json_t *args, const char *const *skip,
				   int dash)
{
	struct role_flags *f;
	if (!c || !json_is_object(args)) {
		f = role_flags_new();
		render_args(&f->v, args, skip, dash);
		return f;
	}
	struct entry *victim = &c->e[0], *base = NULL, n = { 0 };
	for (size_t i = 0; i < FLAGS_CACHE_N; i++) {
		struct entry *x = &c->e[i];
		if (entry_is(x, args, skip, dash)) {
			x->used = ++c->clock;
			return role_flags_ref(x->flags);
		}
		if (x->flags && x->skip == skip && x->dash == dash && (!base || x->used > base->used))
			base = x;
		if (x->used < victim->used)
			victim = x;
	}
	f = role_flags_new();
	entry_make(&n, f, args, skip, dash, base);
	n.used = ++c->clock;
	entry_release(victim); /* after: base may be the one replaced */
	*victim = n;
	return f;
}
