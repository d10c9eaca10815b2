/*
 * srtctl_schema.h — srtctl's own recipe schema (JSON Schema), found at start.
 *
 * srtctl changes faster than srt-tui's field table (model/schema.c), so when
 * the srtctl a user has publishes its schema, srt-tui reads it: a field that
 * schema knows and the table does not is accepted, typed by that schema and
 * noted ("srt-tui does not preview X yet") instead of refused.  The built-in
 * table stays the default and wins where both know a field.
 *
 * Where it comes from, in order (srtctl_schema_discover):
 *   1. --srtctl-dir DIR (or $SRT_TUI_SRTCTL_DIR): DIR/docs/schema/recipe.schema.json
 *      of an srt-slurm checkout, else the checkout of the cluster file found
 *      from DIR (as in 3); an error when neither has the file;
 *   2. `srtctl schema` when srtctl is on PATH, cached per `srtctl --version`
 *      under $XDG_CACHE_HOME/srt-tui/ (~/.cache/srt-tui/), and --version
 *      asked once per srtctl executable, so later starts run no srtctl; the
 *      cached schema is read on first use (srtctl_schema_root), not at start;
 *   3. the checkout of the cluster file srtctl would use here ($SRTSLURM_CONFIG,
 *      else srtslurm.yaml in the directory or up to two levels up, as
 *      model/cluster.h finds it): its srtctl_root's
 *      docs/schema/recipe.schema.json, else the one beside srtslurm.yaml;
 *   4. none: the built-in table alone.
 *
 * The schema is process-wide and set once at start (main), like a locale:
 * every validation of the process reads the same srtctl.  Nodes returned are
 * borrowed from the loaded schema; nothing to free.
 */
#ifndef SRT_SRTCTL_SCHEMA_H
#define SRT_SRTCTL_SCHEMA_H

#include <jansson.h>

/* Load a JSON Schema file as the schema in use; source labels it for
 * --version ("srtctl 1.4 (srtctl schema)").  Returns 0, or -1 with *err
 * malloc'd (file:line:col of a JSON error).  Replaces any schema loaded. */
int srtctl_schema_load_file(const char *path, const char *source, char **err);
/* The same from JSON text already in memory. */
int srtctl_schema_load_text(const char *text, size_t len, const char *source, char **err);

/* Find and load srtctl's schema (see above).  srtctl_dir may be NULL.
 * Returns 1 when one was loaded, 0 when none was found, -1 on an error
 * (*err malloc'd: a --srtctl-dir without the schema file, a schema that
 * does not parse).  A srtctl on PATH that cannot print a schema is "none". */
int srtctl_schema_discover(const char *srtctl_dir, char **err);

/* Drop the schema in use (tests). */
void srtctl_schema_clear(void);
/* How to say that a schema read on first use (a cache that no longer reads,
 * and `srtctl schema` then failing) does not parse; unset, nothing is said. */
void srtctl_schema_on_error(void (*report)(const char *msg));

/* Where the schema in use came from (also while it waits to be read), or
 * NULL when there is none. */
const char *srtctl_schema_source(void);

/* The node that describes a plain recipe (the schema's `else` branch, or
 * $defs.Recipe), or NULL when no schema is loaded.  Reads a pending one. */
json_t *srtctl_schema_root(void);

/* The sub-schema of key in the mappings node describes (following $ref and
 * anyOf/oneOf branches, then additionalProperties when it is a schema), or
 * NULL when node does not know key.  node may be NULL (returns NULL). */
json_t *srtctl_schema_child(json_t *node, const char *key);
/* The sub-schema of a list item, or NULL. */
json_t *srtctl_schema_item(json_t *node);
/* Non-zero when node's type/enum/const accept value (a node with no type
 * accepts anything). */
int srtctl_schema_accepts(json_t *node, json_t *value);
/* Non-zero when node describes a mapping whose unknown keys are refused
 * (additionalProperties: false on every object branch). */
int srtctl_schema_closed(json_t *node);
/* The node's description (first found through $ref/anyOf), or NULL. */
const char *srtctl_schema_description(json_t *node);
/* The node's default (first found through $ref/anyOf), borrowed, or NULL. */
json_t *srtctl_schema_default(json_t *node);
/* Call fn for each named property of the mapping node describes, in the
 * schema's order, once per key: through $ref and every anyOf/oneOf branch,
 * skipping, when variant is given, a branch whose `type` property is a
 * constant other than variant (the engine blocks of the other engines). */
void srtctl_schema_each_key(json_t *node, const char *variant,
			    void (*fn)(const char *key, json_t *sub, void *ctx), void *ctx);

#endif
