/*
 * validate_int.h — helpers shared by validate.c and the validate_*.c rule
 * files; not part of the public API.  Returned strings are malloc'd by the
 * caller-visible functions that say so.
 */
#ifndef SRT_VALIDATE_INT_H
#define SRT_VALIDATE_INT_H

#include <jansson.h>

#include "model/diag.h"
#include "model/recipe.h"
#include "lib/util.h"

struct schema_field;

/* Path of item i of the list services (or any list of named mappings):
 * "services[<name>]" when the item has a unique, plain name (so doc_locate
 * finds it and the path survives reordering), else "services[<i>]".  Appends
 * to sb after prefix. */
void vpath_item(struct strbuf *sb, const char *prefix, json_t *list, size_t i);
/* The names of a list of named mappings, measured once for loops over long
 * lists: per item, its name (NULL: none; borrowed from the list), whether it
 * is plain and unique (vpath_item's rule) and the first item with the same
 * name (itself when none is earlier, or when it has no name). */
struct vnames {
	size_t n;
	const char **name;
	unsigned char *unique;
	size_t *first;
};
void vnames_init(struct vnames *v, json_t *list);
void vnames_release(struct vnames *v);
/* vpath_item with the names measured: v = vnames_init(list). */
void vpath_item_named(struct strbuf *sb, const char *prefix, const struct vnames *v, size_t i);

/* "services[<name>]" for messages: srtctl's label, the declared name as
 * written ("" when absent). */
const char *vsvc_name(json_t *svc);

/* A hint for a value outside cands: "did you mean '<closest>'?" when one is
 * close (schema_suggest), else fallback.  Written into buf, which is returned. */
const char *vsuggest_hint(char *buf, size_t size, const char *value, const char *const *cands,
			  size_t n, const char *fallback);
/* The same for a suggestion already found (NULL: none), e.g. by
 * schema_suggest_in over a list prepared for many words. */
const char *vsuggest_hint_of(char *buf, size_t size, const char *suggestion, const char *fallback);

/* An example value of a field, as YAML flow text, for hints ("bf16"); NULL
 * when there is none. */
const char *vschema_example(const struct schema_field *f);

/* The file's own checks on its tree as written: the schema, then the recipe
 * rules unless it is an override file (validate_doc, validate_doc_variants). */
void validate_tree(json_t *root, const struct recipe *built, struct diag_list *out);

/* Rules over the typed recipe, split by subject. */
void validate_roles(const struct recipe *r, struct diag_list *out);
void validate_connectors(const struct recipe *r, struct diag_list *out);
void validate_services(const struct recipe *r, struct diag_list *out);
/* lmcache-server argv and placement (validate_lmcache.c), run by validate_services. */
void validate_lmcache(const struct recipe *r, struct diag_list *out);
/* GPUs per worker against the parallel sizes in the role's args (warnings). */
void validate_engine_args(const struct recipe *r, struct diag_list *out);
/* Role args keys that are not flags of the role's engine (warnings). */
void validate_engine_flags(const struct recipe *r, struct diag_list *out);

/* A service instance launches something (not external, not per a pool we
 * cannot see). */
int vsvc_launches(const struct service *s);

/* Path of an effective service: the declared entry, or "" for an implied one. */
char *vsvc_path(const struct recipe *r, const struct service *s);

/* Non-zero when a vLLM connector text names a preset (case-insensitive). */
int vconnector_is_preset(const char *c);

#endif
