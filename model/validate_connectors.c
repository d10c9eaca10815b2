/*
 * validate_connectors.c — KV connectors and LMCache (spec §3, §5): moriio's
 * frontend, raw kv-transfer-config JSON, MultiConnector entries, lmcache-mp
 * where it cannot work, ATOM extra-kv-connectors spelling and entries, and
 * an LMCache MP client on nodes where no lmcache-server runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/schema.h"
#include "model/validate.h"
#include "model/kinds.h"
#include "model/validate_int.h"
#include "model/connector_preset.h"
#include "model/facts.h"
#include "lib/json_read.h"

int vconnector_is_preset(const char *c)
{
	return connector_preset(c) != NULL;
}

/* Where a vLLM role's connector text is written (spec §3.1). */
static void connector_path(const struct recipe *r, enum role_id id, char *buf, size_t size)
{
	const struct role *ro = &r->role[id];
	json_t *v = json_is_object(ro->args) ? json_object_get(ro->args, "connector") : NULL;
	if (json_is_string(v))
		snprintf(buf, size, "roles.%s.args.connector", role_names[id]);
	else if (ro->engine_cfg && ro->engine_cfg == r->engine_cfg)
		snprintf(buf, size, "engine.connector");
	else if (ro->engine_cfg)
		snprintf(buf, size, "roles.%s.engine.connector", role_names[id]);
	else
		snprintf(buf, size, "%s", r->engine_cfg || jget_str(r->root, "engine") ? "engine" : "roles");
}

/* Check a raw kv-transfer-config; returns the parsed tree (new reference) or
 * NULL after reporting. */
static json_t *check_raw_json(const char *text, const char *path, struct diag_list *out)
{
	json_error_t err;
	json_t *j = json_read(text, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &err);
	if (!j) {
		const char *names[16];
		size_t n = 0;
		struct strbuf list = STRBUF_INIT;
		for (; connector_presets[n].name && n < 16; n++) {
			names[n] = connector_presets[n].name;
			strbuf_addf(&list, "%s%s", n ? ", " : "", names[n]);
		}
		const char *s = schema_suggest(text, names, n);
		char hint[256];
		if (s)
			snprintf(hint, sizeof(hint), "did you mean the preset '%s'?", s);
		else
			snprintf(hint, sizeof(hint),
				 "use a preset (%s) or a JSON object such as {\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}",
				 sb_str(&list));
		strbuf_release(&list);
		diag_add(out, DIAG_ERROR, "kv-json", path, hint,
			 "%s is neither a connector preset nor valid JSON: %s (column %d)", path, err.text,
			 err.column);
		return NULL;
	}
	if (!json_is_object(j) || !jget_str(j, "kv_connector")) {
		diag_add(out, DIAG_ERROR, "kv-json", path,
			 "vLLM reads --kv-transfer-config as an object with at least kv_connector and kv_role",
			 "%s is JSON but not a kv-transfer-config object with a \"kv_connector\"", path);
		json_decref(j);
		return NULL;
	}
	if (!strcmp(jget_str(j, "kv_connector"), "MultiConnector")) {
		json_t *list = jget_arr(jget_obj(j, "kv_connector_extra_config"), "connectors");
		int bad = !list || !json_array_size(list);
		size_t i;
		json_t *e;
		json_array_foreach(list, i, e)
			bad |= !jget_str(e, "kv_connector");
		if (bad) {
			diag_add(out, DIAG_ERROR, "kv-multi-connector", path,
				 "write {\"kv_connector\":\"MultiConnector\",\"kv_role\":\"kv_both\",\"kv_connector_extra_config\":{\"connectors\":[{...},{...}]}} with a kv_connector in every entry",
				 "%s: a MultiConnector needs kv_connector_extra_config.connectors, a non-empty list of connector objects each with a \"kv_connector\"",
				 path);
			json_decref(j);
			return NULL;
		}
	}
	return j;
}

/* Does any effective lmcache-server run on role's nodes?  (facts.h: the
 * answer the TUI and the launch plan give too.) */
static int server_on(const struct recipe *r, enum role_id id)
{
	return facts_lmcache_server_on_role(r, id);
}

static void no_server(const struct recipe *r, enum role_id id, const char *path, const char *what,
		      struct diag_list *out)
{
	char hint[256];
	const struct service *named = recipe_service(r, KIND_NAME(KIND_LMCACHE_SERVER));
	if (named && named->cfg && !svc_kind_is(named->type, KIND_LMCACHE_SERVER))
		snprintf(hint, sizeof(hint),
			 "services[lmcache-server] is of type '%s' and took the implied server's place: set type: lmcache-server, or rename it",
			 named->type);
	else
		snprintf(hint, sizeof(hint),
			 "declare a service {name: lmcache-server, type: lmcache-server, placement: {node: %s}} (or node: workers), or move the existing one there",
			 role_names[id]);
	diag_add(out, DIAG_ERROR, "lmcache-no-server", path, hint,
		 "roles.%s uses LMCache MP (%s) but no lmcache-server runs on its nodes", role_names[id],
		 what);
}

static void check_vllm(const struct recipe *r, enum role_id id, int *engine_reported,
		       struct diag_list *out)
{
	const struct role *ro = &r->role[id];
	char path[96];
	const char *c = ro->connector;
	const char *fe = r->frontend;

	/* Behind tilert-router the vLLM prefill runs as plain `vllm serve` with the
	 * recipe's own --kv-transfer-config only (srtctl's tilert launch
	 * snapshots): there is no second one to warn about. */
	if (json_is_object(ro->args) && ro->connector && !(fe && !strcmp(fe, "tilert-router")) &&
	    (json_object_get(ro->args, "kv-transfer-config") ||
	     json_object_get(ro->args, "kv_transfer_config"))) {
		const char *k = json_object_get(ro->args, "kv-transfer-config") ? "kv-transfer-config"
										: "kv_transfer_config";
		snprintf(path, sizeof(path), "roles.%s.args.%s", role_names[id], k);
		char hint[160];
		snprintf(hint, sizeof(hint), "move the JSON into roles.%s.args.connector and remove %s",
			 role_names[id], k);
		diag_add(out, DIAG_WARNING, "kv-transfer-config-arg", path, hint,
			 "roles.%s.args.%s is passed as a second --kv-transfer-config next to the connector's",
			 role_names[id], k);
	}
	if (!c)
		return;
	connector_path(r, id, path, sizeof(path));
	int from_engine = !strncmp(path, "engine", 6);
	if (from_engine && *engine_reported)
		return; /* one diagnostic per written value */

	if (!strcasecmp(c, "moriio") && strcmp(fe, "vllm-router")) {
		diag_add(out, DIAG_ERROR, "moriio-frontend", path, "set frontend.type: vllm-router",
			 "connector 'moriio' registers workers with the vLLM Router and needs the worker topology; it is only available with frontend.type: vllm-router");
	}
	int local_mp = !strcasecmp(c, "lmcache-mp");
	if (!vconnector_is_preset(c)) {
		json_t *j = check_raw_json(c, path, out);
		local_mp = j && facts_connector_json_uses_local_mp(j);
		json_decref(j);
	}
	int direct_agg = id == ROLE_AGG && !strcmp(fe, "vllm");
	if (local_mp && direct_agg)
		diag_add(out, DIAG_WARNING, "lmcache-mp-direct-agg", path,
			 "use frontend.type: dynamo (or vllm-router) to keep the connector, or drop lmcache-mp",
			 "frontend.type: vllm drops the connector of an aggregated worker, so the lmcache-server starts but no worker uses it");
	else if (local_mp && !server_on(r, id))
		no_server(r, id, path, !strcasecmp(c, "lmcache-mp") ? "connector lmcache-mp"
								     : "LMCacheMPConnector in the connector JSON",
			  out);
	if (from_engine)
		*engine_reported = 1;
}

static int truthy(json_t *v)
{
	if (!v || json_is_null(v) || json_is_false(v))
		return 0;
	if (json_is_string(v))
		return *json_string_value(v) != 0;
	if (json_is_integer(v))
		return json_integer_value(v) != 0;
	return 1;
}

/* args value under either spelling of a key (SGLang normalises '_' to '-'). */
static json_t *arg_any(json_t *args, const char *dashed, const char **key)
{
	char us[64];
	snprintf(us, sizeof(us), "%s", dashed);
	for (char *p = us; *p; p++)
		if (*p == '-')
			*p = '_';
	json_t *v = json_is_object(args) ? json_object_get(args, dashed) : NULL;
	*key = dashed;
	if (!v && json_is_object(args)) {
		v = json_object_get(args, us);
		if (v)
			*key = json_object_iter_key(json_object_iter_at(args, us));
	}
	return v;
}

static void check_sglang(const struct recipe *r, enum role_id id, struct diag_list *out)
{
	const struct role *ro = &r->role[id];
	const char *key, *cfkey;
	if (!truthy(arg_any(ro->args, "enable-lmcache", &key)))
		return;
	if (truthy(arg_any(ro->args, "lmcache-config-file", &cfkey)))
		return;
	/* an address of the user's own elsewhere needs no server here; a loopback
	 * one does (the top-level environment wins over the role's, spec §1.9) */
	json_t *host = json_object_get(jget_obj(r->root, "environment"), "LMCACHE_MP_HOST");
	if (!host)
		host = json_is_object(ro->env) ? json_object_get(ro->env, "LMCACHE_MP_HOST") : NULL;
	if (host && !(json_is_string(host) && facts_local_host(json_string_value(host))))
		return;
	if (server_on(r, id))
		return;
	char path[96];
	snprintf(path, sizeof(path), "roles.%s.args.%s", role_names[id], key);
	no_server(r, id, path, "enable-lmcache dials 127.0.0.1:" LMCACHE_RPC_PORT_S, out);
}

static void check_atom_kv(const struct recipe *r, enum role_id id, struct diag_list *out)
{
	const struct role *ro = &r->role[id];
	char path[128];
	json_t *list = json_is_object(ro->args) ? json_object_get(ro->args, "extra-kv-connectors") : NULL;
	if (!list)
		return;
	snprintf(path, sizeof(path), "roles.%s.args.extra-kv-connectors", role_names[id]);
	if (!json_is_array(list)) {
		diag_add(out, DIAG_ERROR, "atom-kv-entry", path,
			 "write a list of mappings: [{kv_connector: lmcache_offload, kv_role: offload, ...}]",
			 "%s must be a list of connector mappings", path);
		return;
	}
	size_t i;
	json_t *e;
	json_array_foreach(list, i, e) {
		snprintf(path, sizeof(path), "roles.%s.args.extra-kv-connectors[%zu]", role_names[id], i);
		const char *kc = jget_str(e, "kv_connector");
		if (!kc) {
			diag_add(out, DIAG_ERROR, "atom-kv-entry", path,
				 "give each entry a kv_connector, e.g. lmcache_offload or lmcache_mp",
				 "%s has no kv_connector", path);
			continue;
		}
		if (strcmp(kc, "lmcache_mp"))
			continue;
		json_t *extra = json_object_get(e, "kv_connector_extra_config");
		if (extra && !json_is_object(extra)) {
			diag_add(out, DIAG_ERROR, "atom-kv-entry", path,
				 "write kv_connector_extra_config as a mapping, e.g. {lmcache.mp.port: " LMCACHE_RPC_PORT_S "}",
				 "%s.kv_connector_extra_config must be a mapping", path);
			continue;
		}
		if (json_object_get(extra, "lmcache.mp.server_urls") ||
		    !facts_local_host(jget_str(extra, "lmcache.mp.host")))
			continue; /* a server elsewhere */
		if (!server_on(r, id))
			no_server(r, id, path, "an extra-kv-connectors entry lmcache_mp", out);
	}
}

/* extra-kv-connectors spelled otherwise, or on an engine that ignores it. */
static void check_extra_spelling(const struct recipe *r, enum role_id id, struct diag_list *out)
{
	const struct role *ro = &r->role[id];
	int atom = ro->engine && !strcmp(ro->engine, "atom");
	const char *k;
	json_t *v;
	json_object_foreach(ro->args, k, v) {
		/* the key read with '_' as '-' (without a copy: this runs for
		 * every arg of every role) */
		const char *want = "extra-kv-connectors", *a = k;
		while (*a && *want && (*a == *want || (*a == '_' && *want == '-'))) {
			a++;
			want++;
		}
		if (*a || *want)
			continue;
		char path[128], hint[200];
		snprintf(path, sizeof(path), "roles.%s.args.%s", role_names[id], k);
		if (atom && strcmp(k, "extra-kv-connectors")) {
			snprintf(hint, sizeof(hint),
				 "rename it to extra-kv-connectors; spelled '%s' it is passed on as a plain --%s flag",
				 k, k);
			diag_add(out, DIAG_ERROR, "atom-kv-spelling", path, hint,
				 "roles.%s.args.%s is not read by srtctl: the key is spelled extra-kv-connectors",
				 role_names[id], k);
		} else if (!atom && ro->engine) {
			diag_add(out, DIAG_WARNING, "kv-connectors-engine", path,
				 "extra-kv-connectors is an ATOM option; vLLM uses args.connector, SGLang enable-lmcache",
				 "roles.%s.args.%s is only read for ATOM; engine '%s' gets it as a plain flag",
				 role_names[id], k, ro->engine);
		}
	}
}

/* args.connector on an engine that does not read it. */
static void check_foreign_connector(const struct recipe *r, enum role_id id, struct diag_list *out)
{
	const struct role *ro = &r->role[id];
	if (!ro->engine || !strcmp(ro->engine, "vllm"))
		return;
	const char *c = jget_str(ro->args, "connector");
	if (!c)
		return;
	char path[96];
	snprintf(path, sizeof(path), "roles.%s.args.connector", role_names[id]);
	if (!strcasecmp(c, "lmcache-mp")) {
		const char *how = !strcmp(ro->engine, "sglang")
					  ? "for SGLang set enable-lmcache: true and declare an lmcache-server"
				  : !strcmp(ro->engine, "atom")
					  ? "for ATOM add {kv_connector: lmcache_mp, kv_role: kv_both} to extra-kv-connectors and declare an lmcache-server"
					  : "LMCache MP is available with vLLM, SGLang (enable-lmcache) and ATOM (extra-kv-connectors)";
		diag_add(out, DIAG_ERROR, "lmcache-mp-engine", path, how,
			 "connector lmcache-mp is a vLLM connector; engine '%s' does not read it", ro->engine);
	} else {
		diag_add(out, DIAG_WARNING, "connector-engine", path,
			 "remove it: only vLLM reads args.connector",
			 "roles.%s.args.connector is only read by vLLM; engine '%s' gets it as a plain --connector flag",
			 role_names[id], ro->engine);
	}
}

void validate_connectors(const struct recipe *r, struct diag_list *out)
{
	int engine_reported = 0;
	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct role *ro = &r->role[i];
		if (!ro->present || !ro->engine)
			continue;
		if (!strcmp(ro->engine, "vllm"))
			check_vllm(r, i, &engine_reported, out);
		else if (!strcmp(ro->engine, "sglang"))
			check_sglang(r, i, out);
		else if (!strcmp(ro->engine, "atom"))
			check_atom_kv(r, i, out);
		check_extra_spelling(r, i, out);
		check_foreign_connector(r, i, out);
	}
}
