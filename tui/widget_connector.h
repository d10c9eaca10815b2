/*
 * widget_connector.h — the per-role KV connector editor of the wizard and the
 * editor: a vLLM preset chosen from a list that explains each one, raw JSON,
 * or a MultiConnector built from presets (NIXL + LMCache MP gives the compact
 * JSON of spec §3.3); the SGLang enable-lmcache toggle; the ATOM
 * extra-kv-connectors list (lmcache_offload / lmcache_mp entries).
 *
 * The model half (this header's first part) is pure and testable without a
 * terminal: strings returned are malloc'd and owned by the caller; json_t
 * results are new references.  Edits go to the recipe through model/doc, so
 * the file keeps its comments and layout.
 */
#ifndef SRT_WIDGET_CONNECTOR_H
#define SRT_WIDGET_CONNECTOR_H

#include <jansson.h>
#include <stddef.h>

#include "render/connector.h"

struct doc;

/* The choices of the preset list: render/connector's presets (the one list
 * of them, with their labels and explanations), then "none" (no connector);
 * NULL past the end. */
const struct connector_preset_info *conn_preset_at(size_t i);
/* Case-insensitive; "", "null" and "none" give the "none" entry. */
const struct connector_preset_info *conn_preset_find(const char *name);

/* A MultiConnector made of presets, in order. */
struct conn_multi {
	const char *member[4]; /* preset names (nixl, lmcache-mp, lmcache, kvbm) */
	size_t n;
	char *mp_host;         /* NULL = tcp://localhost */
	int mp_port;           /* 0 = LMCACHE_RPC_PORT */
};
#define CONN_MULTI_INIT { { NULL, NULL, NULL, NULL }, 0, NULL, 0 }
void conn_multi_release(struct conn_multi *m);
/* NIXL + LMCache MP, the shape of the disaggregated LMCache example. */
void conn_multi_default(struct conn_multi *m);
/* The raw JSON, compact (separators "," and ":"), e.g. spec §3.3; NULL when
 * there are no members or a member is not a multi_member preset.  Payloads
 * come from connector_preset_payload(). */
char *conn_multi_json(const struct conn_multi *m);
/* Recognise a raw JSON connector as a MultiConnector of known presets (so the
 * builder can edit it again); 0 on success, -1 when it is something else. */
int conn_multi_parse(struct conn_multi *m, const char *text);

/* How the connector text of a role reads: a preset, a MultiConnector the
 * builder understands, other raw JSON, or no connector. */
enum conn_form { CONN_PRESET, CONN_MULTI, CONN_RAW, CONN_NONE };
enum conn_form conn_classify(const char *connector);
/* Non-zero when text parses as a JSON object (raw connectors must). */
int conn_raw_valid(const char *text, char **err);

/* One line summarising a role's connector for lists, malloc'd:
 * "lmcache-mp (LMCache MP server on the node)", "MultiConnector: nixl + lmcache-mp",
 * "raw JSON (123 bytes)", "none". */
char *conn_summary(const char *connector);

/* ATOM extra-kv-connectors entries (spec §5.4). */
enum atom_kv_kind { ATOM_KV_OFFLOAD, ATOM_KV_MP, ATOM_KV_OTHER };
enum atom_kv_kind atom_kv_kind_of(const json_t *entry);
/* A new entry with the documented keys: lmcache_offload {kv_role: offload,
 * lmcache.local_cpu: true, lmcache.max_local_cpu_size: 180,
 * lmcache.chunk_size: 256}; lmcache_mp {kv_role: kv_both}. */
json_t *atom_kv_new_entry(enum atom_kv_kind kind);
/* The keys an entry of that kind offers in the form, with one-line help. */
struct atom_kv_key {
	const char *key;  /* entry key; "kv_connector_extra_config.X" for mp extras */
	const char *type; /* "bool", "int", "string" */
	const char *help;
	const char *absent; /* what the worker gets when the key is absent, or NULL */
};
extern const struct atom_kv_key atom_kv_offload_keys[];
extern const struct atom_kv_key atom_kv_mp_keys[];
/* One-line summary "lmcache_offload cpu=180 GB chunk=256" for the list. */
char *atom_kv_summary(const json_t *entry);

/*
 * Doc-level operations, each one patch (or a few) on the document; 0 on
 * success, -1 with *err (malloc'd) and the document untouched otherwise.
 * role is "prefill", "decode" or "agg".
 */
/* vLLM: set roles.<role>.args.connector; NULL or "" removes the override so
 * the role follows engine.connector. */
int conn_set_role(struct doc *d, const char *role, const char *connector, char **err);
/* vLLM engine-wide connector (engine.connector; turns `engine: vllm` into a
 * mapping when needed). */
int conn_set_engine(struct doc *d, const char *connector, char **err);
/* SGLang: roles.<role>.args.enable-lmcache true/false (false removes it). */
int conn_set_sglang_lmcache(struct doc *d, const char *role, int on, char **err);
/* ATOM: append / delete / move entries of roles.<role>.args.extra-kv-connectors. */
int atom_kv_add(struct doc *d, const char *role, enum atom_kv_kind kind, char **err);
int atom_kv_delete(struct doc *d, const char *role, size_t index, char **err);
/* Set one key of an entry (key as in atom_kv_key; value parsed by its type;
 * "" removes the key). */
int atom_kv_set(struct doc *d, const char *role, size_t index, const char *key,
		const char *value, char **err);

#endif
