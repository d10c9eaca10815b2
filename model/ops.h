/*
 * ops.h — recipe edits that keep a recipe coherent, as functions over the
 * document.  Each is one transaction (doc_begin .. doc_commit): one undo
 * entry, and on any refusal the document is left exactly as it was.  The
 * TUI's screens, `srt-tui set` and tests call the same functions.
 *
 * Paths are text (`roles.agg.args.connector`, `services[lmcache].env`), as
 * path_parse() reads them with names.  Errors are malloc'd into *err.
 * (Service operations live in ops_services.c.)
 */
#ifndef SRT_OPS_H
#define SRT_OPS_H

#include <jansson.h>

#include "model/doc.h"

/* Path-text helpers over doc_*: single edits, no transaction of their own.
 * ops_get returns a new reference (NULL when absent); ops_get_str a string
 * the doc owns (valid until the next edit).  ops_delete of an absent path
 * succeeds and changes nothing. */
json_t *ops_get(struct doc *d, const char *path);
const char *ops_get_str(struct doc *d, const char *path);
int ops_set(struct doc *d, const char *path, const json_t *v, int block, char **err);
int ops_set_str(struct doc *d, const char *path, const char *s, char **err);
int ops_delete(struct doc *d, const char *path, char **err);
int ops_insert(struct doc *d, const char *path, size_t index, const json_t *v, char **err);
int ops_rename(struct doc *d, const char *path, const char *new_key, char **err);
/* Append key to a path under construction, quoted when it needs it. */
void ops_path_key(struct strbuf *sb, const char *key);

/* Aggregated <-> prefill/decode.  To P/D: roles.agg becomes roles.prefill
 * (its text and comments kept), roles.decode a copy of it, a direct
 * frontend (vllm, sglang) its router, services placed on agg go to workers.
 * Back: decode is dropped, prefill becomes agg, services placed on prefill
 * or decode follow to agg.  Nothing to do when already in that layout. */
int ops_set_layout(struct doc *d, int disagg, char **err);

/* Change the engine type: the old engine's knobs (engine.connector,
 * engine.mooncake_protocol) go, and the frontend follows (ATOM needs
 * atomesh; leaving ATOM leaves atomesh for dynamo).  *frontend (may be
 * NULL) is set to the frontend chosen for it, or NULL. */
int ops_set_engine(struct doc *d, const char *type, const char **frontend, char **err);

/* `engine: vllm` -> `engine: {type: vllm}` (block) so engine knobs can go in. */
int ops_engine_mapping(struct doc *d, char **err);
/* Set engine.connector (NULL: the default, nixl), making engine a mapping. */
int ops_set_engine_connector(struct doc *d, const char *connector, char **err);
/* Set roles.<role>.args.connector; NULL or "" removes it. */
int ops_set_role_connector(struct doc *d, const char *role, const char *connector, char **err);
/* SGLang enable-lmcache on a role: on sets true; off removes both spellings. */
int ops_set_sglang_lmcache(struct doc *d, const char *role, int on, char **err);

/* ATOM roles.<role>.args.extra-kv-connectors: append an entry (the list is
 * created in block style), delete one (the last one drops the key), set
 * or remove (v == NULL) one key of an entry.  key may be
 * "kv_connector_extra_config.X". */
int ops_atom_kv_add(struct doc *d, const char *role, const json_t *entry, char **err);
int ops_atom_kv_delete(struct doc *d, const char *role, size_t index, char **err);
int ops_atom_kv_set(struct doc *d, const char *role, size_t index, const char *key,
		    const json_t *v, char **err);

/* Make `field` a sweep over `values`: field becomes "{param}" and
 * sweep.<param> the list, as one action. */
int ops_add_sweep(struct doc *d, const char *field, const char *param, const json_t *values,
		  char **err);

#endif
