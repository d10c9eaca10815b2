/*
 * recipe.c — the typed view of a recipe and its effective service list.
 *
 * Everything here is lenient: a field of the wrong type reads as absent and
 * gets its default, because validate.c is the one that reports it.  The
 * implied services follow srtctl's implication order (frontend discovery
 * plane, engine failover, connector services, then tachometer's exporters),
 * which is also the order dry-run prints them in.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/recipe.h"
#include "model/schema.h"
#include "lib/util.h"

const char *const role_names[ROLE_COUNT] = { "prefill", "decode", "agg" };

/* engine: as a string, or engine.type of the mapping form. */
static const char *engine_type(json_t *engine, json_t **cfg)
{
	*cfg = NULL;
	if (json_is_string(engine))
		return json_string_value(engine);
	if (json_is_object(engine)) {
		*cfg = engine;
		return jget_str(engine, "type");
	}
	return NULL;
}

/* "", "none" and "null" (any case) mean no connector (spec §3.1). */
static const char *normalise_connector(const char *c)
{
	if (!c || !*c || !strcasecmp(c, "none") || !strcasecmp(c, "null"))
		return NULL;
	return c;
}

static const char *vllm_connector(const struct role *ro)
{
	json_t *v = json_is_object(ro->args) ? json_object_get(ro->args, "connector") : NULL;
	if (json_is_string(v))
		return normalise_connector(json_string_value(v));
	/* a role value of null (or of another type) falls back to the engine's */
	if (ro->engine_cfg && json_object_get(ro->engine_cfg, "connector")) {
		json_t *e = json_object_get(ro->engine_cfg, "connector");
		return json_is_string(e) ? normalise_connector(json_string_value(e)) : NULL;
	}
	return "nixl";
}

static void read_role(struct recipe *r, enum role_id id, json_t *roles)
{
	struct role *ro = &r->role[id];
	json_t *cfg = json_is_object(roles) ? json_object_get(roles, role_names[id]) : NULL;

	memset(ro, 0, sizeof(*ro));
	ro->nodes = ro->workers = ro->gpus = -1;
	if (!cfg)
		return;
	ro->present = 1;
	ro->cfg = cfg;
	json_t *nodes = json_is_object(cfg) ? json_object_get(cfg, "nodes") : NULL;
	if (json_is_integer(nodes)) {
		ro->nodes = (int)json_integer_value(nodes);
	} else if (json_is_string(nodes) && !strcmp(json_string_value(nodes), "colocate")) {
		ro->nodes = 0;
		ro->colocate = 1;
	}
	ro->workers = jget_int(cfg, "workers", -1);
	ro->gpus = jget_int(cfg, "gpus", -1);
	ro->eff_workers = ro->workers >= 1 ? ro->workers : 1;
	if (ro->gpus >= 1) {
		ro->eff_gpus = ro->gpus;
	} else {
		int n = ro->nodes > 0 ? ro->nodes : 0;
		long g = (long)n * r->gpus_per_node / ro->eff_workers;
		ro->eff_gpus = g >= 1 ? (int)g : 1;
	}
	ro->args = jget_obj(cfg, "args");
	ro->env = jget_obj(cfg, "env");

	json_t *ecfg = NULL;
	const char *e = json_is_object(cfg) ? engine_type(json_object_get(cfg, "engine"), &ecfg) : NULL;
	if (e || ecfg) {
		ro->engine = e;
		ro->engine_cfg = ecfg;
	} else {
		ro->engine = r->engine;
		ro->engine_cfg = r->engine_cfg;
	}
	ro->eng = engine_find(ro->engine);
	if (ro->eng && ro->eng->id == ENG_VLLM)
		ro->connector = vllm_connector(ro);
}

/* ---- services ---------------------------------------------------------- */

struct svc_list {
	struct service *v;
	size_t n, alloc;
};

/* Each wanted key's value in obj (NULL when absent), found in one pass:
 * for a small entry asked for most of what it may hold, cheaper than a
 * lookup per key.  (A key's length is compared too: a key may hold a NUL.) */
struct want {
	const char *key;
	json_t *v;
};

static void get_wanted(json_t *obj, struct want *w, size_t n)
{
	const char *k;
	size_t klen;
	json_t *v;
	json_object_keylen_foreach(obj, k, klen, v)
		for (size_t i = 0; i < n; i++)
			if (k[0] == w[i].key[0] && !strcmp(k, w[i].key) && klen == strlen(w[i].key)) {
				w[i].v = v;
				break;
			}
}

static void fill_effective(struct service *s, json_t *cfg)
{
	const struct svc_kind *k = s->kind;
	enum { PLACEMENT, START, CRITICAL, TERMINAL, NODES };
	struct want c[] = { { "placement", NULL }, { "start", NULL }, { "critical", NULL },
			    { "terminal", NULL }, { "nodes", NULL } };
	enum { NODE, PER, POOL };
	struct want p[] = { { "node", NULL }, { "per", NULL }, { "pool", NULL } };
	get_wanted(cfg, c, sizeof(c) / sizeof(c[0]));
	json_t *pl = json_is_object(c[PLACEMENT].v) ? c[PLACEMENT].v : NULL;
	get_wanted(pl, p, sizeof(p) / sizeof(p[0]));
	const char *node = jval_str(p[NODE].v), *per = jval_str(p[PER].v), *start = jval_str(c[START].v);

	if (pl)
		s->placement = node ? node : "head";
	else
		s->placement = k ? k->placement : "head";
	s->pool = jval_str(p[POOL].v);
	s->per_worker = per ? !strcmp(per, "worker") : (k ? k->per_worker : 0);
	s->start = start ? start : k ? k->start : "after_frontend";
	s->critical = jval_bool(c[CRITICAL].v, k ? k->critical : 0);
	s->terminal = jval_bool(c[TERMINAL].v, schema_default_bool("services[].terminal", 0));
	s->pool_nodes = jval_int(c[NODES].v, 0);
}

static const char *declared_type(json_t *cfg)
{
	const char *t = jget_str(cfg, "type");
	return t ? t : KIND_NAME(KIND_GENERIC);
}

static void push_declared(struct svc_list *l, json_t *cfg, int index, const char *reason)
{
	const char *name = jget_str(cfg, "name");
	struct service *s;

	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	s = &l->v[l->n++];
	memset(s, 0, sizeof(*s));
	s->name = name ? name : "";
	s->type = declared_type(cfg);
	s->kind = svc_kind_find(s->type);
	s->cfg = cfg;
	s->index = index;
	(void)reason; /* a declared override is not implicit: no reason shown */
	fill_effective(s, cfg);
}

static void push_implied(struct svc_list *l, json_t *cfg, const char *reason)
{
	struct service *s;

	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	s = &l->v[l->n++];
	memset(s, 0, sizeof(*s));
	s->name = jget_str(cfg, "name");
	s->type = jget_str(cfg, "type");
	s->kind = svc_kind_find(s->type);
	s->index = -1;
	s->implied_by = xstrdup(reason);
	s->implied_cfg = cfg; /* takes the reference */
	fill_effective(s, cfg);
}

/* {key: v}: built directly, json_pack reads its format on every call and
 * this runs for every recipe validated.  Keys, kinds and placements here are
 * srt-tui's own ASCII: jansson need not check them. */
static json_t *obj1(const char *key, json_t *v)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, key, v);
	return o;
}

/* An implied service srtctl would synthesise: {name, type[, placement]}. */
static json_t *synth(const char *type, const char *placement)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "name", json_string_nocheck(type));
	json_object_set_new_nocheck(o, "type", json_string_nocheck(type));
	if (placement)
		json_object_set_new_nocheck(o, "placement", obj1("node", json_string_nocheck(placement)));
	return o;
}

/* synth's entry as one shared object: the entries that never vary are made
 * once for the process, since readers of a service's configuration never
 * change it and this runs for every recipe validated.  The node exporter's
 * entry, which adds fixed keys, is one of them (extra set). */
static json_t *synth_shared(const char *type, const char *placement, int node_exporter)
{
	static struct {
		const char *type, *placement;
		json_t *o;
	} memo[16];
	static size_t n;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(memo[i].type, type) &&
		    (memo[i].placement == placement ||
		     (memo[i].placement && placement && !strcmp(memo[i].placement, placement))))
			return json_incref(memo[i].o);
	json_t *o = synth(type, placement);
	if (node_exporter) {
		const struct svc_kind *nk = &svc_kinds[KIND_NODE_EXPORTER];
		json_object_set_new_nocheck(o, "container", json_string_nocheck(nk->container));
		json_object_set_new_nocheck(o, "options", obj1("port", json_integer(nk->listen_ports[0])));
	}
	/* placements are string literals or role names, which live as long */
	if (n < sizeof(memo) / sizeof(memo[0])) {
		memo[n].type = type;
		memo[n].placement = placement;
		memo[n++].o = json_incref(o);
	}
	return o;
}

/* The dcgm exporter's entry carries tachometer's collect interval: shared
 * as synth_shared's are, for the last interval asked (nearly always the
 * default). */
static json_t *dcgm_entry(json_int_t interval_ms)
{
	static json_t *memo;
	static json_int_t memo_ms;
	if (memo && memo_ms == interval_ms)
		return json_incref(memo);
	const struct svc_kind *dk = &svc_kinds[KIND_DCGM_EXPORTER];
	json_t *o = synth(dk->type, "compute");
	json_object_set_new_nocheck(o, "container", json_string_nocheck(dk->container));
	json_t *opt = obj1("port", json_integer(dk->listen_ports[0]));
	json_object_set_new_nocheck(opt, "collect_interval_ms", json_integer(interval_ms));
	json_object_set_new_nocheck(o, "options", opt);
	json_decref(memo);
	memo = json_incref(o);
	memo_ms = interval_ms;
	return o;
}

struct implied {
	json_t *cfg;
	char *reason;
};

static void add_implied(struct implied *v, size_t *n, json_t *cfg, char *reason)
{
	v[*n].cfg = cfg;
	v[*n].reason = reason;
	(*n)++;
}

static int is_vllm_service_preset(const char *connector)
{
	/* only lmcache-mp among the presets names a service type (spec §3.2) */
	return connector && !strcasecmp(connector, "lmcache-mp");
}

/* The last declared entry with this name (srtctl builds a dict by name). */
static int declared_by_name(json_t *services, const char *name)
{
	int found = -1;
	size_t i;
	json_t *e;

	json_array_foreach(services, i, e) {
		const char *n = jget_str(e, "name");
		if (n && !strcmp(n, name))
			found = (int)i;
	}
	return found;
}

static int declared_has_type(json_t *services, const char *type)
{
	size_t i;
	json_t *e;

	json_array_foreach(services, i, e)
		if (json_is_object(e) && !strcmp(declared_type(e), type))
			return 1;
	return 0;
}

static void build_services(struct recipe *r)
{
	json_t *root = r->root;
	json_t *services = jget_arr(root, "services");
	struct implied imp[8];
	size_t nimp = 0;
	struct svc_list l = { NULL, 0, 0 };

	if (!services)
		services = json_array(); /* empty, freed below */
	else
		json_incref(services);

	/* 1. the frontend's discovery plane */
	int nats_reasons = 0;
	if (!strcmp(r->frontend, "dynamo")) {
		json_t *dyn = jget_obj(root, "dynamo");
		struct strbuf why = STRBUF_INIT;
		const char *rp = jget_str(dyn, "request_plane");
		const char *ep = jget_str(dyn, "event_plane");

		add_implied(imp, &nimp, synth_shared(KIND_NAME(KIND_ETCD), "infra", 0), xstrdup("frontend.type dynamo"));
		if (rp && !strcmp(rp, "nats")) /* kinds-ok: the plane, not the kind */
			strbuf_addstr(&why, "dynamo.request_plane nats");
		if (ep && !strcmp(ep, "nats")) /* kinds-ok: the plane, not the kind */
			strbuf_addf(&why, "%sdynamo.event_plane nats", why.len ? ", " : "");
		if (why.len) {
			nats_reasons = 1;
			add_implied(imp, &nimp, synth_shared(KIND_NAME(KIND_NATS), "infra", 0), strbuf_detach(&why, NULL));
		}
		strbuf_release(&why);
	}

	/* 2. vLLM failover: a GPU memory service per worker (kind placement) */
	if (r->engine && !strcmp(r->engine, "vllm") && r->engine_cfg) {
		json_t *fo = json_object_get(r->engine_cfg, "failover");
		if (fo && !json_is_null(fo))
			add_implied(imp, &nimp, synth_shared(KIND_NAME(KIND_GMS), NULL, 0), xstrdup("engine.failover"));
	}

	/* 3. services a vLLM connector preset needs on its nodes */
	{
		struct strbuf why = STRBUF_INIT;
		int modes = 0;
		enum role_id only = ROLE_AGG;
		for (int i = 0; i < ROLE_COUNT; i++) {
			const struct role *ro = &r->role[i];
			if (!ro->present || !ro->engine || strcmp(ro->engine, "vllm") ||
			    !is_vllm_service_preset(ro->connector))
				continue;
			strbuf_addf(&why, "%s%s connector %s", modes ? ", " : "", role_names[i],
				    ro->connector);
			only = (enum role_id)i;
			modes++;
		}
		if (modes && !declared_has_type(services, KIND_NAME(KIND_LMCACHE_SERVER)))
			add_implied(imp, &nimp,
				    synth_shared(KIND_NAME(KIND_LMCACHE_SERVER), modes == 1 ? role_names[only] : "workers", 0),
				    strbuf_detach(&why, NULL));
		strbuf_release(&why);
	}

	/* 4. tachometer's default exporters (process-exporter left out: it is
	 * skipped when its host binary is absent, as in every mock snapshot) */
	{
		json_t *obs = jget_obj(root, "observability");
		json_t *tach = jget_obj(obs, "tachometer");
		json_t *tel = jget_obj(root, "telemetry");
		r->tachometer = jget_bool(tach, "enabled", 1);
		if (r->tachometer &&
		    jget_bool(tach, "default_exporters",
			      schema_default_bool("observability.tachometer.default_exporters", 1))) {
			int power_dcgm = jget_bool(tel, "enabled", schema_default_bool("telemetry.enabled", 0)) &&
					 jget_obj(tel, "dcgm_exporter");
			const char *why = "observability.tachometer default exporters";
			if (!power_dcgm)
				add_implied(imp, &nimp,
					    dcgm_entry(jget_int(tach, "collect_interval_ms",
								schema_default_int("observability.tachometer.collect_interval_ms", 1000))),
					    xstrdup(why));
			add_implied(imp, &nimp, synth_shared(svc_kinds[KIND_NODE_EXPORTER].type, "compute", 1),
				    xstrdup(why));
		}
	}

	/* implied first; a declared entry of the same name takes the slot */
	int on_dflt = schema_default_bool("services[].enabled", 1);
	size_t nseen = 0;
	const char *seen[8];
	for (size_t i = 0; i < nimp; i++) {
		const char *name = jget_str(imp[i].cfg, "name");
		int d = declared_by_name(services, name);
		seen[nseen++] = name;
		if (d >= 0) {
			json_t *cfg = json_array_get(services, (size_t)d);
			if (jget_bool(cfg, "enabled", on_dflt))
				push_declared(&l, cfg, d, imp[i].reason);
		} else {
			push_implied(&l, json_incref(imp[i].cfg), imp[i].reason);
		}
	}
	size_t i;
	json_t *e;
	json_array_foreach(services, i, e) {
		const char *name = jget_str(e, "name");
		int skip = !json_is_object(e) || !jget_bool(e, "enabled", on_dflt);
		for (size_t k = 0; !skip && name && k < nseen; k++)
			if (!strcmp(seen[k], name))
				skip = 1;
		if (!skip)
			push_declared(&l, e, (int)i, NULL);
	}

	/* NATS runs when the first declared nats entry is enabled, else when implied */
	r->runs_nats = nats_reasons;
	json_array_foreach(services, i, e) {
		if (json_is_object(e) && svc_kind_is(declared_type(e), KIND_NATS)) {
			r->runs_nats = jget_bool(e, "enabled", on_dflt);
			break;
		}
	}

	for (size_t k = 0; k < nimp; k++) {
		json_decref(imp[k].cfg);
		free(imp[k].reason);
	}
	json_decref(services);
	r->svc = l.v;
	r->nsvc = l.n;
}

void recipe_init(struct recipe *r, json_t *root)
{
	memset(r, 0, sizeof(*r));
	r->root = root ? json_incref(root) : json_object();
	root = r->root;
	r->name = jget_str(root, "name");
	r->visible_devices_env = "CUDA_VISIBLE_DEVICES";
	r->engine = engine_type(json_is_object(root) ? json_object_get(root, "engine") : NULL,
				&r->engine_cfg);
	r->frontend = jget_str(jget_obj(root, "frontend"), "type");
	if (!r->frontend)
		r->frontend = SCHEMA_FRONTEND_DEFAULT;
	r->eng = engine_find(r->engine);
	r->fe = frontend_find(r->frontend);
	int gpn = schema_default_int("resources.gpus_per_node", 4);
	r->gpus_per_node = jget_int(jget_obj(root, "resources"), "gpus_per_node", gpn);
	if (r->gpus_per_node < 1)
		r->gpus_per_node = gpn;
	json_t *roles = jget_obj(root, "roles");
	for (int i = 0; i < ROLE_COUNT; i++)
		read_role(r, (enum role_id)i, roles);
	r->disagg = r->role[ROLE_PREFILL].present || r->role[ROLE_DECODE].present;
	if (json_is_object(root)) /* a top level that is not a mapping implies nothing */
		build_services(r);
}

void recipe_release(struct recipe *r)
{
	for (size_t i = 0; i < r->nsvc; i++) {
		struct service *s = &r->svc[i];
		free(s->implied_by);
		json_decref(s->implied_cfg);
	}
	free(r->svc);
	json_decref(r->root);
	memset(r, 0, sizeof(*r));
}

const struct service *recipe_service(const struct recipe *r, const char *name)
{
	for (size_t i = 0; i < r->nsvc; i++)
		if (name && !strcmp(r->svc[i].name, name))
			return &r->svc[i];
	return NULL;
}
