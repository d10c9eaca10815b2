/*
 * role_flags.h — the flags a role's args give its workers' command line
 * (spec §2.2: `--key value` sorted by key, `--key` for true, nothing for
 * false or null, a list's items after one `--key`), as one list shared by
 * reference with its shlex.join made once, and a cache of them that a view
 * planning after every edit keeps from one plan to the next.
 *
 * A role of a thousand args formats a thousand numbers, and each of its
 * workers would copy and quote them all again; an edit changes one value
 * of one role, and the flags of the other args are taken from the list it
 * was made from.
 */
#ifndef SRT_ROLE_FLAGS_H
#define SRT_ROLE_FLAGS_H

#include <jansson.h>

#include "lib/util.h"

struct role_flags {
	struct strvec v;
	char *joined; /* their shlex.join; NULL until role_flags_joined */
	int refs;
};

struct role_flags *role_flags_new(void);
struct role_flags *role_flags_ref(struct role_flags *f);
void role_flags_unref(struct role_flags *f); /* NULL is fine */
const char *role_flags_joined(struct role_flags *f);

/* One arg's words into out; dash maps '_' to '-' in the name (vLLM,
 * SGLang), else it is verbatim. */
void render_arg(struct strvec *out, const char *key, json_t *v, int dash);
/* Every arg of args but those named in skip (NULL-terminated), sorted. */
void render_args(struct strvec *out, json_t *args, const char *const *skip, int dash);

/* render_args of args as role_flags (a new reference) through cache c
 * (NULL: made afresh).  The same args, skip and dash give the same flags;
 * skip is compared by address. */
struct flags_cache;
struct flags_cache *flags_cache_new(void);
void flags_cache_free(struct flags_cache *c);
struct role_flags *flags_cache_get(struct flags_cache *c, json_t *args, const char *const *skip,
				   int dash);

#endif
