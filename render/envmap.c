/*
 * envmap.c — see envmap.h.  Sets are linear scans: a step's env has a few
 * dozen names at most, and a scan beats hashing at that size.
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
	strbuf_release(&m->vals);
	free(m);
}

void envmap_setn(struct envmap *m, const char *key, const char *val, size_t len)
{
	size_t off = m->vals.len, i;

	strbuf_add(&m->vals, val, len);
	strbuf_addch(&m->vals, '\0');
	for (i = 0; i < m->n; i++)
		if (!strcmp(m->e[i].key, key)) {
			m->e[i].val = off; /* the old bytes stay unused: maps are short-lived */
			return;
		}
	ALLOC_GROW(m->e, m->n + 1, m->alloc);
	m->e[m->n].key = key;
	m->e[m->n].val = off;
	m->n++;
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
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->e[i].key, key))
			return envmap_value(m, i);
	return NULL;
}

void envmap_sorted(const struct envmap *m, size_t *idx)
{
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
