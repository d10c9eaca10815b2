/*
 * envmap.h — the environment of one srun step while a plan is built: a
 * small map from variable name to value where a later set wins, printed
 * sorted by name.  Plans have thousands of steps, so this is one array and
 * one byte buffer rather than a jansson object per step.
 *
 * Keys are borrowed (recipe keys, string literals, strings that outlive the
 * map, or keys of the JSON the map keeps a reference on); values are copied
 * into the map.  A map may be shared by several steps: envmap_ref() /
 * envmap_unref() count them, and the last unref frees.
 */
#ifndef SRT_ENVMAP_H
#define SRT_ENVMAP_H

#include <jansson.h>
#include <stddef.h>

#include "lib/util.h"

/* Maps up to this many names are scanned, larger ones hashed; past it a
 * copy of a map (envmap_copy) costs less than setting its names again. */
#define ENVMAP_SCAN 32

struct envmap {
	struct envmap_entry {
		const char *key;
		size_t val; /* offset into vals */
	} *e;
	size_t n, alloc;
	struct strbuf vals; /* NUL-terminated values, back to back */
	int refs;
	/* past a few dozen names (a role env of hundreds), a hash of the keys:
	 * a slot holds 1 + an entry's index (0: free) and the key's hash;
	 * nslot is a power of two */
	struct envmap_slot {
		size_t entry, hash;
	} *slot;
	size_t nslot;
	/* NULL, or the sorted order of the first order->n entries: a copy
	 * shares its original's, so that printing each of many copies sorts
	 * only what was set after the copy */
	struct envmap_order *order;
	json_t *keep; /* NULL, or a reference held on the JSON the keys are in */
};

struct envmap *envmap_new(void);
struct envmap *envmap_ref(struct envmap *m);
void envmap_unref(struct envmap *m); /* NULL is fine */

void envmap_setn(struct envmap *m, const char *key, const char *val, size_t len);
void envmap_set(struct envmap *m, const char *key, const char *val);
void envmap_set_int(struct envmap *m, const char *key, long val);
/* Every string member of obj (keys borrowed from obj). */
void envmap_update(struct envmap *m, json_t *obj);
const char *envmap_get(const struct envmap *m, const char *key); /* NULL when unset */
static inline const char *envmap_value(const struct envmap *m, size_t i)
{
	return m->vals.buf + m->e[i].val;
}

/* A new map of m's entries.  A large m's sorted order is found once, by the
 * first copy, and shared by every copy (a role env of hundreds of names is
 * copied for each of the role's workers). */
struct envmap *envmap_copy(struct envmap *m);

/* Entry indices sorted by key (strcmp), into idx (room for m->n). */
void envmap_sorted(const struct envmap *m, size_t *idx);

#endif
