/*
 * envmap.c — see envmap.h.  Sets are linear scans while a step's env has a
 * few dozen names, where a scan beats hashing; a larger one (a role env of
 * hundreds of variables made every set a scan of them all) gets a hash of
 * its keys.
 */
#include "render/envmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct envmap *envmap_new(void)
{
	struct envmap *m = xcalloc(1, sizeof(*m));
	m->refs = 1;
	return m;
}

struct envmap *envmap_ref(struct envmap *m)
{
	if (m)
		m->refs++;
	return m;
}

/* The sorted order of a map's first n entries, shared by its copies. */
struct envmap_order {
	int refs;
	size_t n;
	size_t idx[];
};

static void order_unref(struct envmap_order *o)
{
	if (o && --o->refs == 0)
		free(o);
}

void envmap_unref(struct envmap *m)
{
	if (!m || --m->refs > 0)
		return;
	free(m->e);
	free(m->slot);
	strbuf_release(&m->vals);
	order_unref(m->order);
	json_decref(m->keep);
	free(m);
}


/* The slot of key (hash h): where it is, else the free one it would take. */
static size_t slot_of(const struct envmap *m, const char *key, size_t h)
{
	size_t i = h & (m->nslot - 1);
	while (m->slot[i].entry &&
	       (m->slot[i].hash != h || strcmp(m->e[m->slot[i].entry - 1].key, key)))
		i = (i + 1) & (m->nslot - 1);
	return i;
}

/* A free slot for a key of hash h that is not in the table. */
static size_t free_slot(const struct envmap *m, size_t h)
{
	size_t i = h & (m->nslot - 1);
	while (m->slot[i].entry)
		i = (i + 1) & (m->nslot - 1);
	return i;
}

/* Keep the table under half full, from the first time it is needed; the
 * keys are hashed once, their hashes moved with them. */
static void rehash(struct envmap *m)
{
	if (m->n <= ENVMAP_SCAN || (m->nslot && 2 * m->n < m->nslot))
		return;
	struct envmap_slot *old = m->slot;
	size_t nold = m->nslot;
	m->nslot = 128;
	while (m->nslot < 4 * m->n)
		m->nslot *= 2;
	m->slot = xcalloc(m->nslot, sizeof(*m->slot));
	if (old) {
		for (size_t i = 0; i < nold; i++)
			if (old[i].entry)
				m->slot[free_slot(m, old[i].hash)] = old[i];
		free(old);
		return;
	}
	for (size_t i = 0; i < m->n; i++) {
		size_t h = str_hash(m->e[i].key, 0);
		m->slot[free_slot(m, h)] = (struct envmap_slot){ i + 1, h };
	}
}

/* The index of key's entry, or m->n when it is not set. */
static size_t find(const struct envmap *m, const char *key)
{
	if (m->nslot) {
		size_t s = m->slot[slot_of(m, key, str_hash(key, 0))].entry;
		return s ? s - 1 : m->n;
	}
	size_t i = 0;
	while (i < m->n && strcmp(m->e[i].key, key))
		i++;
	return i;
}

void envmap_setn(struct envmap *m, const char *key, const char *val, size_t len)
{
	size_t off = m->vals.len, i, h = 0, s = 0;

	/* the value and its NUL; room for a few short ones from the first */
	strbuf_grow(&m->vals, m->vals.alloc || len >= 63 ? len + 1 : 63);
	memcpy(m->vals.buf + off, val, len);
	m->vals.buf[off + len] = '\0';
	m->vals.len += len + 1;
	m->vals.buf[m->vals.len] = '\0';
	if (m->nslot) {
		h = str_hash(key, 0);
		s = slot_of(m, key, h);
		i = m->slot[s].entry ? m->slot[s].entry - 1 : m->n;
	} else {
		i = find(m, key);
	}
	if (i < m->n) {
		m->e[i].val = off; /* the old bytes stay unused: maps are short-lived */
		return;
	}
	ALLOC_GROW(m->e, m->n + 1, m->alloc);
	m->e[m->n].key = key;
	m->e[m->n].val = off;
	m->n++;
	if (m->nslot)
		m->slot[s] = (struct envmap_slot){ m->n, h };
	rehash(m);
}

void envmap_set(struct envmap *m, const char *key, const char *val)
{
	envmap_setn(m, key, val, strlen(val));
}

void envmap_set_int(struct envmap *m, const char *key, long val)
{
	char buf[24];
	int n = snprintf(buf, sizeof(buf), "%ld", val);
	envmap_setn(m, key, buf, (size_t)n);
}

void envmap_update(struct envmap *m, json_t *obj)
{
	const char *k;
	json_t *v;
	json_object_foreach(obj, k, v)
		if (json_is_string(v))
			envmap_setn(m, k, json_string_value(v), json_string_length(v));
}

const char *envmap_get(const struct envmap *m, const char *key)
{
	size_t i = find(m, key);
	return i < m->n ? envmap_value(m, i) : NULL;
}

struct keyed {
	const char *key;
	size_t idx;
};

static int cmp_keyed(const void *x, const void *y)
{
	return strcmp(((const struct keyed *)x)->key, ((const struct keyed *)y)->key);
}

/* The indices from..to-1 sorted by key, into idx. */
static void sort_range(const struct envmap *m, size_t from, size_t to, size_t *idx)
{
	size_t n = to - from;
	if (n > ENVMAP_SCAN) {
		/* hundreds of names: insertion sort would be quadratic */
		struct keyed *k = xmalloc(n * sizeof(*k));
		for (size_t i = 0; i < n; i++)
			k[i] = (struct keyed){ m->e[from + i].key, from + i };
		qsort(k, n, sizeof(*k), cmp_keyed);
		for (size_t i = 0; i < n; i++)
			idx[i] = k[i].idx;
		free(k);
		return;
	}
	/* insertion sort: a few dozen names, and qsort would need global state
	 * to reach the keys */
	for (size_t i = 0; i < n; i++) {
		size_t j = i;
		while (j > 0 && strcmp(m->e[idx[j - 1]].key, m->e[from + i].key) > 0) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = from + i;
	}
}

void envmap_sorted(const struct envmap *m, size_t *idx)
{
	size_t k = m->order ? m->order->n : 0, rest = m->n - k, stack[ENVMAP_SCAN];
	if (!k) {
		sort_range(m, 0, m->n, idx);
		return;
	}
	/* the shared order of the first k, merged with the rest sorted (keys
	 * are unique: no ties) */
	size_t *b = rest <= ENVMAP_SCAN ? stack : xmalloc(rest * sizeof(*b));
	const size_t *a = m->order->idx;
	size_t i = 0, j = 0, o = 0;
	sort_range(m, k, m->n, b);
	while (i < k && j < rest)
		idx[o++] = strcmp(m->e[a[i]].key, m->e[b[j]].key) < 0 ? a[i++] : b[j++];
	while (i < k)
		idx[o++] = a[i++];
	while (j < rest)
		idx[o++] = b[j++];
	if (b != stack)
		free(b);
}

struct envmap *envmap_copy(struct envmap *m)
{
	struct envmap *c = envmap_new();
	if (m->n > ENVMAP_SCAN && (!m->order || m->order->n != m->n)) {
		struct envmap_order *o = xmalloc(sizeof(*o) + m->n * sizeof(size_t));
		o->refs = 1;
		o->n = m->n;
		envmap_sorted(m, o->idx);
		order_unref(m->order);
		m->order = o;
	}
	if (m->n) {
		c->e = xmalloc(m->n * sizeof(*c->e));
		memcpy(c->e, m->e, m->n * sizeof(*c->e));
		c->n = c->alloc = m->n;
	}
	strbuf_add(&c->vals, m->vals.buf, m->vals.len);
	if (m->nslot) {
		c->slot = xmalloc(m->nslot * sizeof(*c->slot));
		memcpy(c->slot, m->slot, m->nslot * sizeof(*c->slot));
		c->nslot = m->nslot;
	}
	if (m->order && m->order->n == m->n) {
		c->order = m->order;
		c->order->refs++;
	}
	c->keep = json_incref(m->keep);
	return c;
}
