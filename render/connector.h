/*
 * connector.h — what each worker gets for KV transfer: the
 * --kv-transfer-config value (vLLM presets as spaced json.dumps, raw JSON
 * verbatim, ATOM extra-kv-connectors merged with the generated Mooncake entry
 * in compact JSON; spec §3, §5.2, §5.4) and the extra environment (SGLang
 * LMCACHE_MP_HOST/PORT, spec §5.3).
 */
#ifndef SRT_CONNECTOR_H
#define SRT_CONNECTOR_H

#include <jansson.h>

#include "model/connector_preset.h"
#include "model/recipe.h"

/* Where one worker runs, for connectors that embed topology (moriio, ATOM). */
struct worker_ctx {
	const char *node_ip;  /* the worker's node IP */
	const char *head_ip;  /* head node IP */
	int http_port;        /* the worker's HTTP port */
	int nixl_port;        /* NIXL side channel / ATOM Mooncake handshake port */
	int notify_port;      /* moriio (27000 range) */
	int discovery_port;   /* moriio VLLM_DISCOVERY_PORT (36367) */
	int moriio_handshake_port; /* moriio (26000 range); not the NIXL port */
};

/* The --kv-transfer-config value for a worker of role, malloc'd; NULL when
 * the worker gets no such flag (no connector, direct vLLM agg, ATOM agg
 * without extras).  On an error (e.g. ATOM P/D without a handshake port)
 * returns NULL and sets *err (malloc'd). */
char *connector_kv_config(const struct recipe *r, enum role_id role,
			  const struct worker_ctx *ctx, char **err);

/* A preset's payload as srtctl builds it (key order of spec §3.2) with the
 * given kv_role; mp_host/mp_port apply to lmcache-mp (NULL/0:
 * tcp://localhost, LMCACHE_RPC_PORT).  NULL for moriio (its payload needs the worker
 * topology) and for a name that is no preset.  New reference. */
json_t *connector_preset_payload(const char *preset, const char *kv_role, const char *mp_host,
				 int mp_port);

/* Env the engine adds for KV connectors on this role (object, new reference;
 * empty object when none). */
json_t *connector_extra_env(const struct recipe *r, enum role_id role);

#endif
