/*
 * path.h — addresses of nodes in a recipe: roles.agg.args.connector,
 * services[0].args[2], services[lmcache] (the list item whose `name` is
 * "lmcache"), container_mounts."/a/b.c".
 *
 * The syntax is srtctl's --set path syntax (spec §9.9): keys separated by '.',
 * [N] indexes a list, a key holding '.', '[' or ']' is written in single or
 * double quotes (no escapes).  srt-tui adds [name] selectors when PATH_NAMES is
 * given.  A struct path owns its segment strings; release it with path_release().
 */
#ifndef SRT_PATH_H
#define SRT_PATH_H

#include <stddef.h>

enum path_kind {
	PATH_KEY,   /* mapping key */
	PATH_INDEX, /* list position */
	PATH_NAME,  /* list item (a mapping) whose "name" equals key */
};

struct path_seg {
	enum path_kind kind;
	char *key;    /* PATH_KEY, PATH_NAME */
	size_t index; /* PATH_INDEX */
};

struct path {
	struct path_seg *seg;
	size_t n, alloc;
};
#define PATH_INIT { NULL, 0, 0 }

enum {
	PATH_NAMES = 1,    /* accept [name] selectors */
	PATH_OVERRIDE = 2, /* word errors as srtctl does for --set ("override path ...") */
};

/* Parse text into out (which is reset first).  On error returns -1 and sets
 * *err to a malloc'd message (srtctl's wording, spec §9.9). */
int path_parse(struct path *out, const char *text, unsigned flags, char **err);
void path_release(struct path *p);
void path_clear(struct path *p);
void path_copy(struct path *dst, const struct path *src);
void path_push_key(struct path *p, const char *key);
void path_push_keyn(struct path *p, const char *key, size_t len);
void path_push_index(struct path *p, size_t index);
void path_push_name(struct path *p, const char *name);
void path_push_seg(struct path *p, const struct path_seg *s); /* a copy of another path's segment */
void path_pop(struct path *p);

/* The first n segments (n > p->n means all) in path syntax; malloc'd. */
char *path_format(const struct path *p, size_t n);

/* Same kind and same key or index. */
int path_seg_equal(const struct path_seg *a, const struct path_seg *b);
/* Same segments, in the same order. */
int path_equal(const struct path *a, const struct path *b);

#endif
