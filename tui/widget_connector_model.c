/* The pure half of the connector editor: presets, the MultiConnector builder,
 * ATOM extra-kv-connectors entries.  No curses, no document. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/util.h"
#include "model/kinds.h"
#include "render/connector.h"
#include "tui/widget_connector.h"
#include "lib/json.h"

#define MP_HOST_DEFAULT "tcp://localhost"
#define MP_PORT_DEFAULT LMCACHE_RPC_PORT

/* The editor lists render/connector's presets, then this one: no connector. */
static const struct connector_preset_info preset_none = {
	"none", "None", "No --kv-transfer-config: the workers share no KV cache.", 0
};

const struct connector_preset_info *conn_preset_at(size_t i)
{
	size_t n = 0;
	while (connector_presets[n].name)
		n++;
	return i < n ? &connector_presets[i] : i == n ? &preset_none : NULL;
}

const struct connector_preset_info *conn_preset_find(const char *name)
{
	const struct connector_preset_info *p;

	if (!name)
		return NULL;
	for (size_t i = 0; (p = conn_preset_at(i)); i++)
		if (!strcasecmp(p->name, name))
			return p;
	if (!*name || !strcasecmp(name, "null"))
		return &preset_none;
	return NULL;
}

void conn_multi_release(struct conn_multi *m)
{
	free(m->mp_host);
	memset(m, 0, sizeof(*m));
}

void conn_multi_default(struct conn_multi *m)
{
	conn_multi_release(m);
	m->member[0] = "nixl";
	m->member[1] = "lmcache-mp";
	m->n = 2;
}

/* Python json.dumps(separators=(",", ":")) for the ASCII values we build:
 * jansson's compact, order-preserving output is byte-identical. */
static char *compact(const json_t *v)
{
	char *s = json_text(v, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	return s ? s : xstrdup("");
}

char *conn_multi_json(const struct conn_multi *m)
{
	json_t *o, *x, *list;
	char *s;

	if (!m->n)
		return NULL;
	list = json_array();
	for (size_t i = 0; i < m->n; i++) {
		const struct connector_preset_info *p = conn_preset_find(m->member[i]);
		json_t *pl;
		if (!p || !p->multi_member ||
		    !(pl = connector_preset_payload(p->name, "kv_both", m->mp_host, m->mp_port))) {
			json_decref(list);
			return NULL;
		}
		json_array_append_new(list, pl);
	}
	o = json_object();
	json_object_set_new(o, "kv_connector", json_string("MultiConnector"));
	json_object_set_new(o, "kv_role", json_string("kv_both"));
	x = json_object();
	json_object_set_new(x, "connectors", list);
	json_object_set_new(o, "kv_connector_extra_config", x);
	s = compact(o);
	json_decref(o);
	return s;
}

/* Which preset a payload is, reading the lmcache-mp host/port out of it. */
static const char *payload_preset(const json_t *pl, const char **host, int *port)
{
	const json_t *x = json_object_get(pl, "kv_connector_extra_config");

	*host = NULL;
	*port = 0;
	if (json_is_object(x)) {
		const json_t *h = json_object_get(x, "lmcache.mp.host");
		const json_t *p = json_object_get(x, "lmcache.mp.port");
		if (json_is_string(h))
			*host = json_string_value(h);
		if (json_is_integer(p))
			*port = (int)json_integer_value(p);
	}
	for (const struct connector_preset_info *p = connector_presets; p->name; p++) {
		json_t *want = p->multi_member
				       ? connector_preset_payload(p->name, "kv_both", *host, *port)
				       : NULL;
		int eq = want && json_equal((json_t *)pl, want);
		json_decref(want);
		if (eq)
			return p->name;
	}
	return NULL;
}

int conn_multi_parse(struct conn_multi *m, const char *text)
{
	json_t *o, *x, *list, *item;
	size_t i;
	int ret = -1;

	conn_multi_release(m);
	if (!text || !(o = json_loads(text, JSON_DECODE_ANY, NULL)))
		return -1;
	x = json_object_get(o, "kv_connector_extra_config");
	list = json_object_get(x, "connectors");
	if (json_object_size(o) != 3 || json_object_size(x) != 1 ||
	    !json_is_string(json_object_get(o, "kv_connector")) ||
	    strcmp(json_string_value(json_object_get(o, "kv_connector")), "MultiConnector") ||
	    !json_is_string(json_object_get(o, "kv_role")) ||
	    strcmp(json_string_value(json_object_get(o, "kv_role")), "kv_both") ||
	    !json_is_array(list) || !json_array_size(list) ||
	    json_array_size(list) > sizeof(m->member) / sizeof(m->member[0]))
		goto out;
	json_array_foreach(list, i, item) {
		const char *host;
		int port;
		const char *name = payload_preset(item, &host, &port);
		if (!name)
			goto out;
		m->member[m->n++] = name;
		if (!strcmp(name, "lmcache-mp")) {
			free(m->mp_host);
			m->mp_host = strcmp(host, MP_HOST_DEFAULT) ? xstrdup(host) : NULL;
			m->mp_port = port == MP_PORT_DEFAULT ? 0 : port;
		}
	}
	ret = 0;
out:
	json_decref(o);
	if (ret)
		conn_multi_release(m);
	return ret;
}

enum conn_form conn_classify(const char *connector)
{
	struct conn_multi m = CONN_MULTI_INIT;
	const struct connector_preset_info *p = conn_preset_find(connector ? connector : "");

	if (p)
		return strcmp(p->name, "none") ? CONN_PRESET : CONN_NONE;
	if (!conn_multi_parse(&m, connector)) {
		conn_multi_release(&m);
		return CONN_MULTI;
	}
	return CONN_RAW;
}

int conn_raw_valid(const char *text, char **err)
{
	json_error_t e;
	json_t *v = json_loads(text ? text : "", JSON_DECODE_ANY, &e);

	if (!v) {
		if (err)
			*err = xasprintf("connector is not valid JSON: %s (column %d)",
					 e.text, e.column);
		return 0;
	}
	if (!json_is_object(v)) {
		json_decref(v);
		if (err)
			*err = xstrdup("connector JSON must be an object {...}");
		return 0;
	}
	json_decref(v);
	return 1;
}

char *conn_summary(const char *connector)
{
	struct conn_multi m = CONN_MULTI_INIT;
	struct strbuf sb = STRBUF_INIT;

	switch (conn_classify(connector)) {
	case CONN_NONE:
		return xstrdup("none");
	case CONN_PRESET: {
		const struct connector_preset_info *p = conn_preset_find(connector);
		return xasprintf("%s (%s)", p->name, p->label);
	}
	case CONN_MULTI:
		conn_multi_parse(&m, connector);
		strbuf_addstr(&sb, "MultiConnector: ");
		for (size_t i = 0; i < m.n; i++)
			strbuf_addf(&sb, "%s%s", i ? " + " : "", m.member[i]);
		conn_multi_release(&m);
		return strbuf_detach(&sb, NULL);
	case CONN_RAW:
		break;
	}
	return xasprintf("raw JSON (%zu bytes)", strlen(connector));
}

/* ---- ATOM extra-kv-connectors ---- */

const struct atom_kv_key atom_kv_offload_keys[] = {
	{ "kv_role", "string", "role of the offload connector (offload)", NULL },
	{ "lmcache.local_cpu", "bool", "keep evicted KV blocks in CPU memory", NULL },
	{ "lmcache.max_local_cpu_size", "int", "CPU memory for the cache, in GB", NULL },
	{ "lmcache.chunk_size", "int", "tokens per cached chunk (256)", NULL },
	{ NULL, NULL, NULL, NULL },
};

/* srtctl puts lmcache.mp.port first in every lmcache_mp entry (spec §5.4),
 * so an absent port is LMCACHE_RPC_PORT, not unset. */
const struct atom_kv_key atom_kv_mp_keys[] = {
	{ "kv_role", "string", "kv_both", NULL },
	{ "kv_connector_extra_config.lmcache.mp.host", "string",
	  "server address; the node's own server when empty", NULL },
	{ "kv_connector_extra_config.lmcache.mp.port", "int",
	  "server RPC port; srtctl puts " LMCACHE_RPC_PORT_S " when empty",
	  LMCACHE_RPC_PORT_S " (filled in by srtctl)" },
	{ "kv_connector_extra_config.lmcache.mp.server_urls", "string",
	  "comma-separated server URLs (instead of host/port)", NULL },
	{ NULL, NULL, NULL, NULL },
};

enum atom_kv_kind atom_kv_kind_of(const json_t *entry)
{
	const char *k = json_string_value(json_object_get(entry, "kv_connector"));

	if (k && !strcmp(k, "lmcache_offload"))
		return ATOM_KV_OFFLOAD;
	if (k && !strcmp(k, "lmcache_mp"))
		return ATOM_KV_MP;
	return ATOM_KV_OTHER;
}

json_t *atom_kv_new_entry(enum atom_kv_kind kind)
{
	json_t *o = json_object();

	if (kind == ATOM_KV_OFFLOAD) {
		json_object_set_new(o, "kv_connector", json_string("lmcache_offload"));
		json_object_set_new(o, "kv_role", json_string("offload"));
		json_object_set_new(o, "lmcache.local_cpu", json_true());
		json_object_set_new(o, "lmcache.max_local_cpu_size", json_integer(180));
		json_object_set_new(o, "lmcache.chunk_size", json_integer(256));
	} else if (kind == ATOM_KV_MP) {
		json_object_set_new(o, "kv_connector", json_string("lmcache_mp"));
		json_object_set_new(o, "kv_role", json_string("kv_both"));
	} else {
		json_object_set_new(o, "kv_connector", json_string(""));
	}
	return o;
}

char *atom_kv_summary(const json_t *entry)
{
	struct strbuf sb = STRBUF_INIT;
	const char *k = json_string_value(json_object_get(entry, "kv_connector"));
	const json_t *x = json_object_get(entry, "kv_connector_extra_config");
	const json_t *v;

	strbuf_addstr(&sb, k && *k ? k : "(no kv_connector)");
	switch (atom_kv_kind_of(entry)) {
	case ATOM_KV_OFFLOAD:
		if (json_is_true(json_object_get(entry, "lmcache.local_cpu")) &&
		    json_is_integer(v = json_object_get(entry, "lmcache.max_local_cpu_size")))
			strbuf_addf(&sb, " cpu=%lld GB", (long long)json_integer_value(v));
		if (json_is_integer(v = json_object_get(entry, "lmcache.chunk_size")))
			strbuf_addf(&sb, " chunk=%lld", (long long)json_integer_value(v));
		break;
	case ATOM_KV_MP:
		if (json_is_string(v = json_object_get(x, "lmcache.mp.server_urls")))
			strbuf_addf(&sb, " servers=%s", json_string_value(v));
		else if (json_is_string(v = json_object_get(x, "lmcache.mp.host")))
			strbuf_addf(&sb, " host=%s", json_string_value(v));
		if (json_is_integer(v = json_object_get(x, "lmcache.mp.port")))
			strbuf_addf(&sb, " port=%lld", (long long)json_integer_value(v));
		else if (!json_object_get(x, "lmcache.mp.server_urls"))
			strbuf_addstr(&sb, " port=" LMCACHE_RPC_PORT_S);
		break;
	case ATOM_KV_OTHER:
		break;
	}
	return strbuf_detach(&sb, NULL);
}
