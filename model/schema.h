/*
 * schema.h — one table of every field a recipe (schema 2) can hold.
 *
 * Each entry names a field by a path pattern and says what it may hold, its
 * default, the values it allows, a one-line and a longer help text, and the
 * wizard step it belongs to.  Validation (unknown keys, types, enums, required
 * fields), the TUI forms, F1 help, search and the tree editor all read this
 * one table, so a field is described exactly once.
 *
 * Pattern syntax: keys joined by '.', "*" for any key of a free-form mapping,
 * "[]" for any item of a list: "roles.*.args", "services[].placement.node".
 * The root (the recipe itself) is the pattern "".
 *
 * Some mappings have one shape per discriminator value: the engine mapping
 * (top-level `engine` and `roles.*.engine`) has different knobs per engine
 * type.  Such entries carry `variant` ("vllm", "atom", ...); entries with a
 * NULL variant apply to every variant.
 *
 * An entry whose `ref` is set takes its children from the entry named by ref
 * (roles.*.engine reuses engine's knobs; a metrics list item reuses the
 * single-mapping form).
 *
 * The table is sorted by pattern (strcmp), then variant, so lookups are a
 * binary search; tests/unit/test_schema.c checks the order.  Everything here
 * is static data: nothing to free.
 */
#ifndef SRT_SCHEMA_H
#define SRT_SCHEMA_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "model/path.h"

/* What a value may be: a set of these bits (unions such as int|"colocate"|null
 * are INT|STR|NULL with allowed = {"colocate"}). */
enum schema_type {
	SCHEMA_STR = 1 << 0,
	SCHEMA_INT = 1 << 1,
	SCHEMA_NUM = 1 << 2,  /* any number, integers included */
	SCHEMA_BOOL = 1 << 3,
	SCHEMA_NULL = 1 << 4,
	SCHEMA_MAP = 1 << 5,
	SCHEMA_LIST = 1 << 6,
	SCHEMA_ANY = (1 << 7) - 1,
};

enum schema_flag {
	SF_REQUIRED = 1 << 0, /* must be present in its parent mapping */
	SF_OPEN = 1 << 1,     /* a mapping that accepts any key ("*" describes them) */
	SF_SUGGEST = 1 << 2,  /* allowed values are suggestions, others pass (connector) */
	SF_IGNORED = 1 << 3,  /* accepted by srtctl and ignored */
	SF_STR_ONLY = 1 << 4, /* allowed applies to strings only (int|"colocate") */
	SF_RULE = 1 << 5,     /* allowed is checked by a rule of validate.c (srtctl's text) */
	SF_WARN = 1 << 6,     /* a value outside allowed is a warning, not an error */
};

enum wizard_step {
	STEP_BASICS,
	STEP_ENGINE,
	STEP_TOPOLOGY,
	STEP_CONNECTORS,
	STEP_SERVICES,
	STEP_FRONTEND,
	STEP_BENCHMARK,
	STEP_ADVANCED,
	STEP_COUNT
};

struct schema_field {
	const char *path;            /* pattern, see above */
	const char *variant;         /* discriminator value, NULL = all */
	unsigned types;              /* enum schema_type bits */
	unsigned flags;              /* enum schema_flag bits */
	const char *dflt;            /* default as YAML flow text; NULL = none/required */
	const char *const *allowed;  /* NULL-terminated allowed values (text), or NULL */
	const char *help;            /* one line, no full stop */
	const char *long_help;       /* a few sentences */
	enum wizard_step step;
	const char *ref;             /* take children from this pattern, or NULL */
};

extern const struct schema_field schema_fields[];
extern const size_t schema_fields_count;

/* The engine types srtctl knows, in the order srtctl's loader tries them. */
extern const char *const schema_engine_types[];

const char *schema_step_name(enum wizard_step step); /* "basics", "engine", ... */

/* The root entry (pattern ""). */
const struct schema_field *schema_root(void);

/* The default frontend: written here once, for the table entry and the
 * typed view (a string default cannot be returned without allocating). */
#define SCHEMA_FRONTEND_DEFAULT "dynamo"

/* The table's default of an exact pattern, read as an integer or a bool
 * (dflt text "4", "true"); fallback when the entry has no such default.
 * Code that needs a default asks here, so each is written once. */
int schema_default_int(const char *pattern, int fallback);
int schema_default_bool(const char *pattern, int fallback);
/* The default of (pattern, variant) as a JSON value (the flow text parsed:
 * "100.0", "\"vllm\"", "null"); NULL when the entry has none.  New reference. */
json_t *schema_default_json(const char *pattern, const char *variant);

/* Exact pattern lookup; variant NULL returns the first entry of that pattern. */
const struct schema_field *schema_lookup(const char *pattern, const char *variant);

/*
 * The child of parent for one mapping key (key != NULL) or a list item
 * (key == NULL).  An exact key wins over "*".  variant selects among
 * per-variant entries (NULL: the first one that matches).  Follows ref.
 * Returns NULL when the parent has no such child (an unknown key).
 */
const struct schema_field *schema_child(const struct schema_field *parent, const char *key,
					const char *variant);
/* The same for a key of len bytes, as jansson's iterators give it.  *own
 * (when own is not NULL) says whether the child is the key's own entry, not
 * the parent's "*": such a key is the table's, which path syntax writes as
 * is (test_schema checks every one). */
const struct schema_field *schema_childn(const struct schema_field *parent, const char *key, size_t len,
					 const char *variant, int *own);

/* The field a concrete path addresses ("roles.agg.args.connector",
 * "services[lmcache].placement.node"); NULL when unknown.  Engine knobs are
 * resolved to the first variant that has the key; use schema_child with a
 * variant when the engine type is known. */
const struct schema_field *schema_find(const struct path *p);
const struct schema_field *schema_find_text(const char *path);

/* The value a user typed for field s (NULL: a key the table does not know):
 * `{k: v}` becomes a mapping only where the field holds mappings (placement,
 * readiness, env...).  Free-form values such as roles.*.args.* keep such text
 * as a string, as srtctl's --set does: engine flags take JSON text, and a
 * mapping would reach the command line as a Python dict repr. */
json_t *schema_parse_text(const struct schema_field *s, const char *text, char **err);

/* The direct children of parent (following ref) that are SF_REQUIRED, in
 * table order: *n of them (NULL when none). */
const struct schema_field *const *schema_required(const struct schema_field *parent, size_t *n);

/*
 * Iterate over the direct children of parent (following ref), in table order:
 *   for (f = schema_children(parent, NULL); f; f = schema_children(parent, f))
 * Per-variant entries are all returned; filter on f->variant when needed.
 */
const struct schema_field *schema_children(const struct schema_field *parent,
					   const struct schema_field *prev);

/* The last segment of a pattern: "node" for "services[].placement.node". */
const char *schema_field_key(const struct schema_field *f);

/* Human text of the accepted types: "integer, 'colocate' or null".  Static
 * storage is not used: writes into buf (size at least 128) and returns it. */
const char *schema_type_text(const struct schema_field *f, char *buf, size_t size);

/* Non-zero when value (a string) is one of f->allowed. */
int schema_allows(const struct schema_field *f, const char *value);

/*
 * "Did you mean": the candidate closest to word by Damerau-Levenshtein
 * distance (at most 2, and less than the word's length), or one that word is a
 * prefix of (or that is a prefix of word), compared case-insensitively.
 * Returns NULL when nothing is close.  The result points into cands.
 */
const char *schema_suggest(const char *word, const char *const *cands, size_t n);
/* The same over one list for many words: what each candidate's test needs
 * is measured once.  The list is borrowed (it must outlive s). */
struct schema_suggestions {
	const char *const *cands;
	size_t n;
	size_t *len;
	uint64_t *bits;
};
void schema_suggestions_init(struct schema_suggestions *s, const char *const *cands, size_t n);
const char *schema_suggest_in(const struct schema_suggestions *s, const char *word);
void schema_suggestions_release(struct schema_suggestions *s);
/* The same over the child keys of parent (variant as in schema_child). */
const char *schema_suggest_key(const struct schema_field *parent, const char *key,
			       const char *variant);
/* Edit distance with adjacent transpositions (optimal string alignment). */
size_t schema_edit_distance(const char *a, const char *b);
/* The same, but any distance past max is returned as max + 1: cheap for the
 * did-you-mean, which only wants near words. */
size_t schema_edit_distance_max(const char *a, const char *b, size_t max);

#endif
