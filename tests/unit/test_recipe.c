/* The typed recipe view: roles, engines, connectors, and the effective
 * service list of spec §4.8 (implied services, takeover, enabled: false). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/recipe.h"
#include "lib/util.h"

static void load(struct recipe *r, const char *text)
{
	json_error_t e;
	json_t *root = json_loads(text, 0, &e);
	if (!root)
		fail_msg("bad test JSON: %s: %s", e.text, text);
	recipe_init(r, root);
	json_decref(root);
}

/* "name:placement:start:critical[:implied reason]" per service, joined by "|". */
static char *summary(const struct recipe *r)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < r->nsvc; i++) {
		const struct service *s = &r->svc[i];
		strbuf_addf(&sb, "%s%s=%s:%s%s:%s:%d", i ? "|" : "", s->name, s->type, s->placement,
			    s->per_worker ? "/worker" : "", s->start, s->critical);
		if (s->implied_by)
			strbuf_addf(&sb, ":<%s>", s->implied_by);
		else
			strbuf_addf(&sb, ":#%d", s->index);
	}
	return sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
}

static void expect_services(const char *recipe, const char *want)
{
	struct recipe r;
	load(&r, recipe);
	char *got = summary(&r);
	assert_string_equal(got, want);
	free(got);
	recipe_release(&r);
}

#define ETCD "etcd=etcd:infra:infra:1:<frontend.type dynamo>"
#define EXPORTERS                                                                               \
	"|dcgm-exporter=dcgm-exporter:compute:after_frontend:0:<observability.tachometer default exporters>" \
	"|node-exporter=node-exporter:compute:after_frontend:0:<observability.tachometer default exporters>"

static void test_roles(void **state)
{
	(void)state;
	struct recipe r;
	load(&r, "{\"engine\": \"vllm\", \"roles\": {\"prefill\": {\"nodes\": 2, \"workers\": 4},"
		 " \"decode\": {\"nodes\": \"colocate\", \"workers\": 2, \"gpus\": 1}}}");
	assert_int_equal(r.gpus_per_node, 4);
	assert_string_equal(r.frontend, "dynamo");
	assert_true(r.disagg);
	assert_int_equal(r.role[ROLE_PREFILL].nodes, 2);
	assert_int_equal(r.role[ROLE_PREFILL].eff_gpus, 2);
	assert_int_equal(r.role[ROLE_PREFILL].gpus, -1);
	assert_true(r.role[ROLE_DECODE].colocate);
	assert_int_equal(r.role[ROLE_DECODE].nodes, 0);
	assert_int_equal(r.role[ROLE_DECODE].eff_gpus, 1);
	assert_false(r.role[ROLE_AGG].present);
	assert_string_equal(r.role[ROLE_PREFILL].connector, "nixl");
	assert_string_equal(r.role[ROLE_PREFILL].engine, "vllm");
	recipe_release(&r);

	load(&r, "{\"resources\": {\"gpus_per_node\": 8}, \"frontend\": {\"type\": \"sglang\"},"
		 " \"roles\": {\"agg\": {\"nodes\": 1, \"engine\": {\"type\": \"sglang\"}}}}");
	assert_int_equal(r.gpus_per_node, 8);
	assert_int_equal(r.role[ROLE_AGG].eff_workers, 1);
	assert_int_equal(r.role[ROLE_AGG].eff_gpus, 8);
	assert_string_equal(r.role[ROLE_AGG].engine, "sglang");
	assert_null(r.role[ROLE_AGG].connector);
	assert_null(r.engine);
	assert_false(r.disagg);
	recipe_release(&r);

	/* wrong types read as defaults, never crash */
	load(&r, "{\"engine\": 3, \"roles\": {\"agg\": \"x\"}, \"resources\": []}");
	assert_true(r.role[ROLE_AGG].present);
	assert_null(r.role[ROLE_AGG].args);
	assert_int_equal(r.gpus_per_node, 4);
	recipe_release(&r);
	load(&r, "[]");
	assert_int_equal(r.nsvc, 0);
	recipe_release(&r);
}

static void test_implied_basics(void **state)
{
	(void)state;
	expect_services("{\"engine\": \"vllm\", \"roles\": {\"agg\": {}}}", ETCD EXPORTERS);
	/* direct frontends bring no etcd */
	expect_services("{\"engine\": \"sglang\", \"frontend\": {\"type\": \"sglang\"}, \"roles\": {\"agg\": {}}}",
			EXPORTERS + 1);
	/* tachometer off: no exporters */
	expect_services("{\"engine\": \"vllm\", \"observability\": {\"tachometer\": {\"enabled\": false}},"
			" \"roles\": {\"agg\": {}}}", ETCD);
	expect_services("{\"engine\": \"vllm\", \"observability\": {\"tachometer\": {\"default_exporters\": false}},"
			" \"roles\": {\"agg\": {}}}", ETCD);
	/* nats from a Dynamo plane */
	struct recipe r;
	load(&r, "{\"engine\": \"vllm\", \"dynamo\": {\"request_plane\": \"nats\", \"event_plane\": \"nats\"},"
		 " \"observability\": {\"tachometer\": {\"enabled\": false}}, \"roles\": {\"agg\": {}}}");
	char *got = summary(&r);
	assert_string_equal(got, ETCD "|nats=nats:infra:infra:1:<dynamo.request_plane nats, dynamo.event_plane nats>");
	assert_true(r.runs_nats);
	free(got);
	recipe_release(&r);
	/* a declared, disabled nats means NATS does not run */
	load(&r, "{\"engine\": \"vllm\", \"dynamo\": {\"request_plane\": \"nats\"}, \"services\": "
		 "[{\"name\": \"nats\", \"type\": \"nats\", \"enabled\": false}], \"roles\": {\"agg\": {}}}");
	assert_false(r.runs_nats);
	recipe_release(&r);
	/* failover: gms, per worker */
	expect_services("{\"engine\": {\"type\": \"vllm\", \"failover\": {\"shadow_engines\": 1}},"
			" \"observability\": {\"tachometer\": {\"enabled\": false}}, \"roles\": {\"agg\": {}}}",
			ETCD "|gms=gms:workers/worker:before_workers:1:<engine.failover>");
}

/* The implied entries that never vary are one object for the process
 * (recipe.c synth_shared): the same for two recipes, with the keys srtctl
 * synthesises, and the node exporter's with its container and port. */
static void test_implied_shared(void **state)
{
	(void)state;
	const char *text = "{\"engine\": \"vllm\", \"roles\": {\"agg\": {}}}";
	struct recipe a, b;
	load(&a, text);
	load(&b, text);
	const struct svc_kind *ek = &svc_kinds[KIND_ETCD], *nk = &svc_kinds[KIND_NODE_EXPORTER];
	const struct service *ea = recipe_service(&a, ek->type), *eb = recipe_service(&b, ek->type);
	const struct service *na = recipe_service(&a, nk->type), *nb = recipe_service(&b, nk->type);
	assert_non_null(ea);
	assert_non_null(na);
	assert_ptr_equal(service_config(ea), service_config(eb));
	assert_ptr_equal(service_config(na), service_config(nb));
	char *want = xasprintf("{\"name\":\"%s\",\"type\":\"%s\",\"placement\":{\"node\":\"infra\"}}",
			       ek->type, ek->type);
	char *got = json_dumps(service_config(ea), JSON_COMPACT | JSON_PRESERVE_ORDER);
	assert_string_equal(got, want);
	free(got);
	free(want);
	want = xasprintf("{\"name\":\"%s\",\"type\":\"%s\",\"placement\":{\"node\":\"compute\"},"
			 "\"container\":\"%s\",\"options\":{\"port\":%d}}",
			 nk->type, nk->type, nk->container, nk->listen_ports[0]);
	got = json_dumps(service_config(na), JSON_COMPACT | JSON_PRESERVE_ORDER);
	assert_string_equal(got, want);
	free(got);
	free(want);
	recipe_release(&a);
	recipe_release(&b);
	/* the dcgm exporter's entry is shared for one collect interval, and
	 * another interval gets its own */
	const struct svc_kind *dk = &svc_kinds[KIND_DCGM_EXPORTER];
	const char *ms250 = "{\"engine\": \"vllm\", \"roles\": {\"agg\": {}},"
			    " \"observability\": {\"tachometer\": {\"collect_interval_ms\": 250}}}";
	struct recipe c;
	load(&a, text);
	load(&b, text);
	load(&c, ms250);
	const struct service *da = recipe_service(&a, dk->type), *db = recipe_service(&b, dk->type),
			     *dc = recipe_service(&c, dk->type);
	assert_ptr_equal(service_config(da), service_config(db));
	assert_ptr_not_equal(service_config(da), service_config(dc));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(service_config(da), "options"),
							    "collect_interval_ms")), 1000);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(service_config(dc), "options"),
							    "collect_interval_ms")), 250);
	recipe_release(&a);
	recipe_release(&b);
	recipe_release(&c);
}

/* A key that only starts like one the typed view reads is not that key
 * (the full way can give a key with a NUL in it). */
static void test_key_with_nul(void **state)
{
	(void)state;
	json_t *root = json_pack("{s:s, s:{s:{}}, s:[{s:s, s:s, s:b}]}", "engine", "sglang", "roles", "agg",
				 "services", "name", "web", "type", "generic", "critical", 1);
	json_t *svc = json_array_get(json_object_get(root, "services"), 0);
	json_object_setn_new(svc, "placement\0x", 11, json_pack("{s:s}", "node", "decode"));
	struct recipe r;
	recipe_init(&r, root);
	const struct service *s = recipe_service(&r, "web");
	assert_non_null(s);
	assert_string_equal(s->placement, svc_kind_find("generic")->placement);
	assert_true(s->critical);
	recipe_release(&r);
	json_decref(root);
}

static void test_implied_lmcache(void **state)
{
	(void)state;
	/* one role uses lmcache-mp: placed on that role; order etcd, lmcache-server, exporters */
	expect_services("{\"engine\": {\"type\": \"vllm\", \"connector\": \"lmcache-mp\"}, \"roles\": {\"agg\": {}}}",
			ETCD "|lmcache-server=lmcache-server:agg:before_workers:1:<agg connector lmcache-mp>"
			EXPORTERS);
	/* several roles: workers, reasons joined */
	expect_services("{\"engine\": {\"type\": \"vllm\", \"connector\": \"lmcache-mp\"},"
			" \"observability\": {\"tachometer\": {\"enabled\": false}},"
			" \"roles\": {\"prefill\": {}, \"decode\": {}}}",
			ETCD "|lmcache-server=lmcache-server:workers:before_workers:1:"
			"<prefill connector lmcache-mp, decode connector lmcache-mp>");
	/* per-role connector, written case kept in the reason */
	expect_services("{\"engine\": \"vllm\", \"observability\": {\"tachometer\": {\"enabled\": false}},"
			" \"roles\": {\"prefill\": {}, \"decode\": {\"args\": {\"connector\": \"LMCache-MP\"}}}}",
			ETCD "|lmcache-server=lmcache-server:decode:before_workers:1:<decode connector LMCache-MP>");
	/* raw JSON naming LMCacheMPConnector implies nothing */
	expect_services("{\"engine\": \"vllm\", \"observability\": {\"tachometer\": {\"enabled\": false}},"
			" \"roles\": {\"agg\": {\"args\": {\"connector\": \"{\\\"kv_connector\\\":\\\"LMCacheMPConnector\\\"}\"}}}}",
			ETCD);
	/* SGLang enable-lmcache implies nothing */
	expect_services("{\"engine\": \"sglang\", \"frontend\": {\"type\": \"sglang\"},"
			" \"observability\": {\"tachometer\": {\"enabled\": false}},"
			" \"roles\": {\"agg\": {\"args\": {\"enable-lmcache\": true}}}}", "");
}

#define LMC_AGG(services)                                                                   \
	"{\"engine\": {\"type\": \"vllm\", \"connector\": \"lmcache-mp\"},"                      \
	" \"observability\": {\"tachometer\": {\"enabled\": false}},"                             \
	" \"roles\": {\"agg\": {}}, \"services\": " services "}"

static void test_takeover(void **state)
{
	(void)state;
	/* a declared lmcache-server type under another name suppresses the implied one */
	expect_services(LMC_AGG("[{\"name\": \"cache\", \"type\": \"lmcache-server\", \"placement\": {\"node\": \"decode\"}}]"),
			ETCD "|cache=lmcache-server:decode:before_workers:1:#0");
	/* ... so a declared server named lmcache-server keeps its declaration slot */
	expect_services(LMC_AGG("[{\"name\": \"web\", \"command\": [\"x\"]},"
				" {\"name\": \"lmcache-server\", \"type\": \"lmcache-server\"}]"),
			ETCD "|web=generic:head:after_frontend:0:#0"
			"|lmcache-server=lmcache-server:workers:before_workers:1:#1");
	/* the same name takes the implied slot, is not implicit, uses its own fields */
	expect_services(LMC_AGG("[{\"name\": \"web\", \"command\": [\"x\"]},"
				" {\"name\": \"etcd\", \"type\": \"etcd\", \"placement\": {\"node\": \"dedicated\"}}]"),
			"etcd=etcd:dedicated:infra:1:#1"
			"|lmcache-server=lmcache-server:agg:before_workers:1:<agg connector lmcache-mp>"
			"|web=generic:head:after_frontend:0:#0");
	/* the same name with another type still takes the slot: the implied
	 * kind is gone (a generic "lmcache-server" is no server at all) */
	expect_services(LMC_AGG("[{\"name\": \"lmcache-server\", \"command\": [\"x\"]},"
				" {\"name\": \"etcd\", \"type\": \"nats\"}]"),
			"etcd=nats:infra:infra:1:#1"
			"|lmcache-server=generic:head:after_frontend:0:#0");
	/* enabled: false drops the implied one, by name */
	expect_services(LMC_AGG("[{\"name\": \"lmcache-server\", \"enabled\": false}]"), ETCD);
	expect_services(LMC_AGG("[{\"name\": \"etcd\", \"enabled\": false}]"),
			"lmcache-server=lmcache-server:agg:before_workers:1:<agg connector lmcache-mp>");
	/* a disabled declared server of that type still suppresses (srtctl reads types of all) */
	expect_services(LMC_AGG("[{\"name\": \"c\", \"type\": \"lmcache-server\", \"enabled\": false}]"), ETCD);
	/* declared etcd with external replaces the implied one in place */
	expect_services(LMC_AGG("[{\"name\": \"etcd\", \"type\": \"etcd\", \"external\": \"http://e:2379\"}]"),
			"etcd=etcd:infra:infra:1:#0"
			"|lmcache-server=lmcache-server:agg:before_workers:1:<agg connector lmcache-mp>");
	/* placement block without node means head; start/critical from the recipe */
	expect_services(LMC_AGG("[{\"name\": \"g\", \"command\": [\"x\"], \"placement\": {\"per\": \"worker\"},"
				" \"start\": \"before_workers\", \"critical\": true, \"nodes\": 2, \"terminal\": true}]"),
			ETCD "|lmcache-server=lmcache-server:agg:before_workers:1:<agg connector lmcache-mp>"
			"|g=generic:head/worker:before_workers:1:#0");
	struct recipe r;
	load(&r, LMC_AGG("[{\"name\": \"g\", \"command\": [\"x\"], \"nodes\": 2, \"terminal\": true,"
			 " \"placement\": {\"pool\": \"p\"}}]"));
	const struct service *g = recipe_service(&r, "g");
	assert_non_null(g);
	assert_int_equal(g->pool_nodes, 2);
	assert_true(g->terminal);
	assert_string_equal(g->pool, "p");
	assert_null(recipe_service(&r, "nope"));
	const struct service *imp = recipe_service(&r, "lmcache-server");
	assert_null(imp->cfg);
	assert_non_null(service_config(imp));
	assert_ptr_equal(imp->kind, svc_kind_find("lmcache-server"));
	recipe_release(&r);
}

static void test_kinds(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < svc_kinds_count; i++) {
		if (i)
			assert_true(strcmp(svc_kinds[i - 1].type, svc_kinds[i].type) < 0);
		strbuf_addf(&sb, "%s%s", i ? ", " : "", svc_kinds[i].type);
		assert_non_null(svc_kinds[i].help);
		assert_non_null(svc_kinds[i].start);
		assert_non_null(svc_kinds[i].placement);
	}
	assert_string_equal(sb_str(&sb), svc_kind_known_list());
	strbuf_release(&sb);
	const struct svc_kind *k = svc_kind_find("lmcache-server");
	assert_string_equal(k->start, "before_workers");
	assert_int_equal(k->critical, 1);
	assert_string_equal(k->placement, "workers");
	assert_null(k->ready_ports);
	assert_int_equal(k->ready_http_port, 8751);
	assert_string_equal(k->ready_http_path, "/healthcheck");
	assert_int_equal(k->ready_timeout, 300);
	assert_null(svc_kind_find("lmcache"));
	assert_null(svc_kind_find(NULL));
	assert_null(svc_kind_find("generic")->command);
	assert_true(svc_kind_find("etcd")->discovery);
	assert_false(svc_kind_find("dcgm-exporter")->bash_wrapper);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_implied_basics),
		cmocka_unit_test(test_implied_shared),
		cmocka_unit_test(test_key_with_nul),
		cmocka_unit_test(test_implied_lmcache),
		cmocka_unit_test(test_takeover),
		cmocka_unit_test(test_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
