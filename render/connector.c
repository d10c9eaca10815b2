/*
 * connector.c — the --kv-transfer-config value and connector env of a worker.
 *
 * vLLM presets are built as ordered objects and printed with Python's default
 * json.dumps separators (spaced), because that is what srtctl passes; a
 * connector that is not a preset name is handed through byte for byte.  ATOM
 * builds its payload from the role's extra-kv-connectors plus a generated
 * Mooncake entry and prints it compactly (spec §5.4).  Returned strings are
 * malloc'd and owned by the caller.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "model/kinds.h"
#include "render/connector.h"
#include "lib/json.h"

static char *set_err(char **err, const char *msg)
{
	if (err)
		*err = xstrdup(msg);
	return NULL;
}

static json_t *preset_payload(const char *preset, const char *kv_role, const char *mp_host,
			      int mp_port)
{
	json_t *o = json_object();

	if (!strcmp(preset, "nixl")) {
		json_object_set_new(o, "kv_connector", json_string("NixlConnector"));
	} else if (!strcmp(preset, "lmcache")) {
		json_object_set_new(o, "kv_connector", json_string("LMCacheConnectorV1"));
	} else if (!strcmp(preset, "lmcache-mp")) {
		json_object_set_new(o, "kv_connector", json_string("LMCacheMPConnector"));
		json_object_set_new(o, "kv_connector_module_path",
				    json_string("lmcache.integration.vllm.lmcache_mp_connector"));
	} else if (!strcmp(preset, "kvbm")) {
		json_object_set_new(o, "kv_connector", json_string("DynamoConnector"));
		json_object_set_new(o, "kv_connector_module_path",
				    json_string("kvbm.vllm_integration.connector"));
	} else { /* moriio */
		json_object_set_new(o, "kv_connector", json_string("MoRIIOConnector"));
	}
	json_object_set_new(o, "kv_role", json_string(kv_role));
	if (!strcmp(preset, "lmcache-mp"))
		json_object_set_new(o, "kv_connector_extra_config",
				    json_pack("{sssi}", "lmcache.mp.host",
					      mp_host && *mp_host ? mp_host : "tcp://localhost",
					      "lmcache.mp.port", mp_port > 0 ? mp_port : LMCACHE_RPC_PORT));
	return o;
}

json_t *connector_preset_payload(const char *preset, const char *kv_role, const char *mp_host,
				 int mp_port)
{
	preset = connector_preset(preset);
	if (!preset || !strcmp(preset, "moriio"))
		return NULL;
	return preset_payload(preset, kv_role, mp_host, mp_port);
}

static char *dump_and_free(json_t *v, unsigned flags)
{
	char *s = pyjson_dumps(v, flags);
	json_decref(v);
	return s;
}

static char *vllm_kv_config(const struct recipe *r, enum role_id role,
			    const struct worker_ctx *ctx, char **err)
{
	const char *conn = r->role[role].connector;
	const char *preset;

	if (!conn)
		return NULL;
	/* only Dynamo hands a connector to an aggregate worker */
	if (role == ROLE_AGG && strcmp(r->frontend, "dynamo"))
		return NULL;
	preset = connector_preset(conn);
	if (!preset)
		return xstrdup(conn);
	if (strcmp(preset, "moriio"))
		return dump_and_free(preset_payload(preset, "kv_both", NULL, 0), 0);

	if (strcmp(r->frontend, "vllm-router"))
		return set_err(err, "connector 'moriio' registers workers with the vLLM Router and "
				    "needs the worker topology; it is only available with "
				    "frontend.type: vllm-router");
	if (!ctx)
		return set_err(err, "connector 'moriio' needs the worker topology");
	json_t *o = preset_payload(preset, role == ROLE_PREFILL ? "kv_producer" : "kv_consumer",
				   NULL, 0);
	char buf[4][16];
	snprintf(buf[0], sizeof(buf[0]), "%d", ctx->discovery_port);
	snprintf(buf[1], sizeof(buf[1]), "%d", ctx->http_port);
	snprintf(buf[2], sizeof(buf[2]), "%d", ctx->moriio_handshake_port);
	snprintf(buf[3], sizeof(buf[3]), "%d", ctx->notify_port);
	json_object_set_new(o, "kv_connector_extra_config",
			    json_pack("{ss ss ss ss ss ss sb}", "proxy_ip", ctx->head_ip ? ctx->head_ip : "",
				      "proxy_ping_port", buf[0], "http_port", buf[1], "host_ip",
				      ctx->node_ip ? ctx->node_ip : "", "handshake_port", buf[2],
				      "notify_port", buf[3], "read_mode", 1));
	return dump_and_free(o, 0);
}

/* One extra-kv-connectors entry as ATOM passes it: lmcache_mp gets its port
 * first in kv_connector_extra_config (the recipe may override the value, not
 * the position); everything else is copied as written. */
static json_t *atom_entry(json_t *e)
{
	json_t *copy = json_deep_copy(e);
	const char *kind = jget_str(e, "kv_connector");

	if (!json_is_object(copy) || !kind || strcmp(kind, "lmcache_mp"))
		return copy;
	json_t *extra = json_object();
	json_object_set_new(extra, "lmcache.mp.port", json_integer(LMCACHE_RPC_PORT));
	json_t *given = jget_obj(e, "kv_connector_extra_config");
	const char *k;
	json_t *v;
	if (given)
		json_object_foreach(given, k, v)
			json_object_set(extra, k, v);
	/* jansson keeps an existing key's position on set, like a dict */
	json_object_set_new(copy, "kv_connector_extra_config", extra);
	return copy;
}

static char *atom_kv_config(const struct recipe *r, enum role_id role,
			    const struct worker_ctx *ctx, char **err)
{
	const struct role *ro = &r->role[role];
	json_t *list = json_array();
	json_t *extras = jget_arr(ro->args, "extra-kv-connectors");

	if (role == ROLE_PREFILL || role == ROLE_DECODE) {
		if (!ctx || ctx->nixl_port <= 0) {
			json_decref(list);
			return set_err(err, "ATOM P/D worker is missing its Mooncake handshake port");
		}
		const char *kc = jget_str(ro->engine_cfg, "connector");
		const char *proto = jget_str(ro->engine_cfg, "mooncake_protocol");
		json_t *m = json_object();
		json_object_set_new(m, "kv_role",
				    json_string(role == ROLE_PREFILL ? "kv_producer" : "kv_consumer"));
		json_object_set_new(m, "kv_connector", json_string(kc ? kc : "mooncake"));
		json_object_set_new(m, "proxy_ip", json_string(ctx->node_ip ? ctx->node_ip : ""));
		json_object_set_new(m, "handshake_port", json_integer(ctx->nixl_port));
		if (proto)
			json_object_set_new(m, "protocol", json_string(proto));
		json_array_append_new(list, m);
	}
	size_t i;
	json_t *e;
	json_array_foreach(extras, i, e)
		json_array_append_new(list, atom_entry(e));

	json_t *payload;
	switch (json_array_size(list)) {
	case 0:
		json_decref(list);
		return NULL;
	case 1:
		payload = json_incref(json_array_get(list, 0));
		json_decref(list);
		break;
	default:
		payload = json_object();
		json_object_set_new(payload, "kv_connector", json_string("multi"));
		json_object_set_new(payload, "connectors", list);
		break;
	}
	return dump_and_free(payload, PYJSON_COMPACT);
}

char *connector_kv_config(const struct recipe *r, enum role_id role,
			  const struct worker_ctx *ctx, char **err)
{
	const char *engine = r->role[role].engine;

	if (err)
		*err = NULL;
	if (!r->role[role].present || !engine)
		return NULL;
	if (!strcmp(engine, "vllm"))
		return vllm_kv_config(r, role, ctx, err);
	if (!strcmp(engine, "atom"))
		return atom_kv_config(r, role, ctx, err);
	return NULL; /* SGLang and the others take no such flag */
}

/* args[key] after srtctl's `_` -> `-` normalisation: when both spellings are
 * present the later one in the mapping wins, as in a rebuilt dict. */
static json_t *normalised_arg(json_t *args, const char *dashed)
{
	json_t *found = NULL;
	const char *k;
	json_t *v;

	json_object_foreach(args, k, v) {
		size_t n = strlen(k);
		if (n != strlen(dashed))
			continue;
		size_t j = 0;
		while (j < n && (k[j] == '_' ? '-' : k[j]) == dashed[j])
			j++;
		if (j == n)
			found = v;
	}
	return found;
}

json_t *connector_extra_env(const struct recipe *r, enum role_id role)
{
	const struct role *ro = &r->role[role];
	json_t *env = json_object();

	if (!ro->present || !ro->engine || strcmp(ro->engine, "sglang") || !ro->args)
		return env;
	if (!py_truthy(normalised_arg(ro->args, "enable-lmcache")))
		return env;
	if (py_truthy(normalised_arg(ro->args, "lmcache-config-file")))
		return env;
	/* only the role env is consulted, not the top-level environment */
	if (ro->env && json_object_get(ro->env, "LMCACHE_MP_HOST"))
		return env;
	json_object_set_new(env, "LMCACHE_MP_HOST", json_string("127.0.0.1"));
	json_object_set_new(env, "LMCACHE_MP_PORT", json_string(LMCACHE_RPC_PORT_S));
	return env;
}
