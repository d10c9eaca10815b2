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

void envmap_unref(struct envmap *m)
{
	if (!m || --m->refs > 0)
		return;
	free(m->e);
	free(m->slot);
	strbuf_release(&m->vals);
	free(m);
}

/* Maps up to this many names are scanned. */
#define ENVMAP_SCAN 32

static size_t key_hash(const char *k)
{
	size_t h = 5381;
	for (; *k; k++)
		h = h * 33 + (unsigned char)*k;
	return h;
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

static void slot_set(struct envmap *m, size_t entry)
{
	size_t h = key_hash(m->e[entry].key);
	m->slot[slot_of(m, m->e[entry].key, h)] = (struct envmap_slot){ entry + 1, h };
}

/* Keep the table under half full, from the first time it is needed. */
static void rehash(struct envmap *m)
{
	if (m->n <= ENVMAP_SCAN || (m->nslot && 2 * m->n < m->nslot))
		return;
	free(m->slot);
	m->nslot = 128;
	while (m->nslot < 4 * m->n)
		m->nslot *= 2;
	m->slot = xcalloc(m->nslot, sizeof(*m->slot));
	for (size_t i = 0; i < m->n; i++)
		slot_set(m, i);
}

/* The index of key's entry, or m->n when it is not set. */
static size_t find(const struct envmap *m, const char *key)
{
	if (m->nslot) {
		size_t s = m->slot[slot_of(m, key, key_hash(key))].entry;
		return s ? s - 1 : m->n;
	}
	size_t i = 0;
	while (i < m->n && strcmp(m->e[i].key, key))
		i++;
	return i;
}

void envmap_setn(struct envmap *m, const char *key, const char *val, size_t len)
{
	size_t off = m->vals.len, i;

	strbuf_add(&m->vals, val, len);
	strbuf_addch(&m->vals, '\0');
	i = find(m, key);
	if (i < m->n) {
		m->e[i].val = off; /* the old bytes stay unused: maps are short-lived */
		return;
	}
	ALLOC_GROW(m->e, m->n + 1, m->alloc);
	m->e[m->n].key = key;
	m->e[m->n].val = off;
	m->n++;
	if (m->nslot)
		slot_set(m, m->n - 1);
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

void envmap_sorted(const struct envmap *m, size_t *idx)
{
	if (m->n > ENVMAP_SCAN) {
		/* hundreds of names: insertion sort would be quadratic */
		struct keyed *k = xmalloc(m->n * sizeof(*k));
		for (size_t i = 0; i < m->n; i++)
			k[i] = (struct keyed){ m->e[i].key, i };
		qsort(k, m->n, sizeof(*k), cmp_keyed);
		for (size_t i = 0; i < m->n; i++)
			idx[i] = k[i].idx;
		free(k);
		return;
	}
	/* insertion sort: a few dozen names, and qsort would need global state
	 * to reach the keys */
	for (size_t i = 0; i < m->n; i++) {
		size_t j = i;
		while (j > 0 && strcmp(m->e[idx[j - 1]].key, m->e[i].key) > 0) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = i;
	}
}
