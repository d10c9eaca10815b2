/*
 * connector_preset.c — the vLLM connector presets (connector_preset.h): the
 * one list render, the validator and the TUI's connector editor read.
 */
#include <stddef.h>
#include <strings.h>

#include "model/connector_preset.h"
#include "model/kinds.h"

const struct connector_preset_info connector_presets[] = {
	{ "nixl", "NIXL (default)",
	  "NixlConnector: moves KV blocks from prefill to decode workers. The default; "
	  "an aggregated role under Dynamo gets it too.", 1 },
	{ "lmcache-mp", "LMCache MP server",
	  "LMCacheMPConnector: each worker uses the lmcache-server on its own node "
	  "(port " LMCACHE_RPC_PORT_S ") as a shared KV cache tier. Implies an " KN_LMCACHE_SERVER " service.", 1 },
	{ "lmcache", "LMCache in-process",
	  "LMCacheConnectorV1: LMCache inside each worker process; no server, no sharing "
	  "between workers.", 1 },
	{ "kvbm", "Dynamo KVBM",
	  "DynamoConnector (kvbm): Dynamo's KV block manager offloads blocks to CPU/disk.", 1 },
	{ "moriio", "MoRI-IO (AMD)",
	  "MoRIIOConnector: P/D transfer over MoRI-IO; prefill produces, decode consumes. "
	  "Needs frontend.type: vllm-router.", 0 },
	{ NULL, NULL, NULL, 0 },
};

const char *connector_preset(const char *connector)
{
	if (!connector)
		return NULL;
	for (size_t i = 0; connector_presets[i].name; i++)
		if (!strcasecmp(connector, connector_presets[i].name))
			return connector_presets[i].name;
	return NULL;
}
