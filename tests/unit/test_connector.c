/* KV connector rendering: vLLM presets (spec §3), ATOM extra-kv-connectors
 * (§5.4), SGLang enable-lmcache env (§5.3), worked examples §7.1-§7.4. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "render/connector.h"
#include "lib/json.h"
#include "render/topology.h"
#include "render/workers.h"
#include "tests/unit/testutil.h"

static const char NIXL[] = "{\"kv_connector\": \"NixlConnector\", \"kv_role\": \"kv_both\"}";
static const char LMCACHE_MP[] =
	"{\"kv_connector\": \"LMCacheMPConnector\", \"kv_connector_module_path\": "
	"\"lmcache.integration.vllm.lmcache_mp_connector\", \"kv_role\": \"kv_both\", "
	"\"kv_connector_extra_config\": {\"lmcache.mp.host\": \"tcp://localhost\", "
	"\"lmcache.mp.port\": 8750}}";
static const char MULTI_RAW[] =
	"{\"kv_connector\":\"MultiConnector\",\"kv_role\":\"kv_both\",\"kv_connector_extra_config\":"
	"{\"connectors\":[{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"},"
	"{\"kv_connector\":\"LMCacheMPConnector\",\"kv_connector_module_path\":"
	"\"lmcache.integration.vllm.lmcache_mp_connector\",\"kv_role\":\"kv_both\","
	"\"kv_connector_extra_config\":{\"lmcache.mp.host\":\"tcp://localhost\",\"lmcache.mp.port\":8750}}]}}";

/* The config of role for a recipe given as JSON, with ctx. */
static void expect_kv(const char *recipe, enum role_id role, const struct worker_ctx *ctx,
		      const char *want)
{
	struct recipe r;
	char *err = NULL;
	tu_recipe_json(&r, recipe);
	char *got = connector_kv_config(&r, role, ctx, &err);
	if (err)
		fail_msg("unexpected error: %s", err);
	if (!want) {
		if (got)
			fail_msg("expected no config, got %s", got);
	} else {
		assert_non_null(got);
		assert_string_equal(got, want);
	}
	free(got);
	recipe_release(&r);
}

static void expect_kv_err(const char *recipe, enum role_id role, const struct worker_ctx *ctx,
			  const char *want_err)
{
	struct recipe r;
	char *err = NULL;
	tu_recipe_json(&r, recipe);
	char *got = connector_kv_config(&r, role, ctx, &err);
	assert_null(got);
	assert_non_null(err);
	assert_string_equal(err, want_err);
	free(err);
	recipe_release(&r);
}

static const struct worker_ctx ctx0 = { "10.0.0.1", "10.0.0.9", 6100, 5400, 5500, 5555, 26000 };
static const struct worker_ctx ctx1 = { "10.0.0.1", "10.0.0.9", 6100, 5401, 5501, 5555, 26001 };

#define AGG_VLLM(conn) "{\"engine\": {\"type\": \"vllm\"" conn "}, \"roles\": {\"agg\": {}}}"

static void test_vllm_presets(void **state)
{
	(void)state;
	expect_kv("{\"engine\": \"vllm\", \"roles\": {\"agg\": {}}}", ROLE_AGG, NULL, NIXL);
	expect_kv(AGG_VLLM(", \"connector\": \"nixl\""), ROLE_AGG, NULL, NIXL);
	expect_kv(AGG_VLLM(", \"connector\": \"lmcache\""), ROLE_AGG, NULL,
		  "{\"kv_connector\": \"LMCacheConnectorV1\", \"kv_role\": \"kv_both\"}");
	expect_kv(AGG_VLLM(", \"connector\": \"lmcache-mp\""), ROLE_AGG, NULL, LMCACHE_MP);
	expect_kv(AGG_VLLM(", \"connector\": \"LMCache-MP\""), ROLE_AGG, NULL, LMCACHE_MP);
	expect_kv(AGG_VLLM(", \"connector\": \"kvbm\""), ROLE_AGG, NULL,
		  "{\"kv_connector\": \"DynamoConnector\", \"kv_connector_module_path\": "
		  "\"kvbm.vllm_integration.connector\", \"kv_role\": \"kv_both\"}");
	/* lmcache-mp keeps kv_both on P/D roles too */
	expect_kv("{\"engine\": {\"type\": \"vllm\", \"connector\": \"lmcache-mp\"},"
		  " \"roles\": {\"prefill\": {}, \"decode\": {}}}", ROLE_PREFILL, NULL, LMCACHE_MP);
	assert_string_equal(connector_preset("KVBM"), "kvbm");
	assert_null(connector_preset("mooncake"));
	assert_null(connector_preset(MULTI_RAW));
}

static void test_vllm_none_and_raw(void **state)
{
	(void)state;
	expect_kv(AGG_VLLM(", \"connector\": \"none\""), ROLE_AGG, NULL, NULL);
	expect_kv(AGG_VLLM(", \"connector\": \"NONE\""), ROLE_AGG, NULL, NULL);
	expect_kv(AGG_VLLM(", \"connector\": \"null\""), ROLE_AGG, NULL, NULL);
	expect_kv(AGG_VLLM(", \"connector\": \"\""), ROLE_AGG, NULL, NULL);
	expect_kv(AGG_VLLM(", \"connector\": null"), ROLE_AGG, NULL, NULL);
	/* anything else passes through verbatim, spacing and all */
	expect_kv(AGG_VLLM(", \"connector\": \"mooncake\""), ROLE_AGG, NULL, "mooncake");
	expect_kv("{\"engine\": \"vllm\", \"roles\": {\"agg\": {\"args\": {\"connector\": "
		  "\"{\\\"kv_connector\\\":\\\"NixlConnector\\\",  \\\"kv_role\\\":\\\"kv_both\\\"}\"}}}}",
		  ROLE_AGG, NULL, "{\"kv_connector\":\"NixlConnector\",  \"kv_role\":\"kv_both\"}");
	/* a role value overrides the engine's; a role null falls back to it */
	expect_kv("{\"engine\": {\"type\": \"vllm\", \"connector\": \"lmcache-mp\"},"
		  " \"roles\": {\"agg\": {\"args\": {\"connector\": \"nixl\"}}}}", ROLE_AGG, NULL, NIXL);
	expect_kv("{\"engine\": {\"type\": \"vllm\", \"connector\": \"lmcache-mp\"},"
		  " \"roles\": {\"agg\": {\"args\": {\"connector\": null}}}}", ROLE_AGG, NULL, LMCACHE_MP);
	expect_kv("{\"engine\": \"vllm\", \"roles\": {\"agg\": {\"args\": {\"connector\": \"none\"}}}}",
		  ROLE_AGG, NULL, NULL);
}

static void test_vllm_frontends(void **state)
{
	(void)state;
	/* direct vllm agg drops the connector; dynamo agg keeps it */
	expect_kv("{\"engine\": \"vllm\", \"frontend\": {\"type\": \"vllm\"}, \"roles\": {\"agg\": {}}}",
		  ROLE_AGG, NULL, NULL);
	expect_kv("{\"engine\": \"vllm\", \"frontend\": {\"type\": \"dynamo\"}, \"roles\": {\"agg\": {}}}",
		  ROLE_AGG, NULL, NIXL);
	const char *router = "{\"engine\": \"vllm\", \"frontend\": {\"type\": \"vllm-router\"},"
			     " \"roles\": {\"prefill\": {}, \"decode\": {}}}";
	expect_kv(router, ROLE_PREFILL, NULL, NIXL);
	expect_kv(router, ROLE_DECODE, NULL, NIXL);
	expect_kv("{\"engine\": \"vllm\", \"frontend\": {\"type\": \"vllm-router\"},"
		  " \"roles\": {\"agg\": {}}}", ROLE_AGG, NULL, NULL);
	/* an absent role has nothing */
	expect_kv(router, ROLE_AGG, NULL, NULL);
}

static void test_vllm_moriio(void **state)
{
	(void)state;
	const char *ok = "{\"engine\": {\"type\": \"vllm\", \"connector\": \"moriio\"},"
			 " \"frontend\": {\"type\": \"vllm-router\"},"
			 " \"roles\": {\"prefill\": {}, \"decode\": {}}}";
	expect_kv(ok, ROLE_PREFILL, &ctx0,
		  "{\"kv_connector\": \"MoRIIOConnector\", \"kv_role\": \"kv_producer\", "
		  "\"kv_connector_extra_config\": {\"proxy_ip\": \"10.0.0.9\", \"proxy_ping_port\": "
		  "\"5555\", \"http_port\": \"6100\", \"host_ip\": \"10.0.0.1\", \"handshake_port\": "
		  "\"26000\", \"notify_port\": \"5500\", \"read_mode\": true}}");
	expect_kv(ok, ROLE_DECODE, &ctx1,
		  "{\"kv_connector\": \"MoRIIOConnector\", \"kv_role\": \"kv_consumer\", "
		  "\"kv_connector_extra_config\": {\"proxy_ip\": \"10.0.0.9\", \"proxy_ping_port\": "
		  "\"5555\", \"http_port\": \"6100\", \"host_ip\": \"10.0.0.1\", \"handshake_port\": "
		  "\"26001\", \"notify_port\": \"5501\", \"read_mode\": true}}");
	expect_kv_err("{\"engine\": {\"type\": \"vllm\", \"connector\": \"moriio\"},"
		      " \"roles\": {\"prefill\": {}, \"decode\": {}}}", ROLE_PREFILL, &ctx0,
		      "connector 'moriio' registers workers with the vLLM Router and needs the worker "
		      "topology; it is only available with frontend.type: vllm-router");
}

static void test_sglang_has_no_flag(void **state)
{
	(void)state;
	expect_kv("{\"engine\": \"sglang\", \"roles\": {\"agg\": {\"args\": {\"enable-lmcache\": true}}}}",
		  ROLE_AGG, &ctx0, NULL);
	expect_kv("{\"engine\": \"trtllm\", \"roles\": {\"agg\": {}}}", ROLE_AGG, &ctx0, NULL);
}

/* ---- ATOM (§5.4) ---- */

#define ATOM_PD(proto, pargs, dargs)                                                          \
	"{\"engine\": {\"type\": \"atom\"" proto "}, \"frontend\": {\"type\": \"atomesh\"},"      \
	" \"roles\": {\"prefill\": {\"args\": " pargs "}, \"decode\": {\"args\": " dargs "}}}"
#define ATOM_AGG(args)                                                                        \
	"{\"engine\": \"atom\", \"frontend\": {\"type\": \"atomesh\"}, \"roles\": {\"agg\": {\"args\": " args "}}}"

#define OFFLOAD_YAML                                                                          \
	"{\"kv_connector\": \"lmcache_offload\", \"kv_role\": \"offload\", \"lmcache.local_cpu\": true,"\
	" \"lmcache.max_local_cpu_size\": 180, \"lmcache.chunk_size\": 256}"
#define OFFLOAD_JSON                                                                          \
	"{\"kv_connector\":\"lmcache_offload\",\"kv_role\":\"offload\",\"lmcache.local_cpu\":true,"  \
	"\"lmcache.max_local_cpu_size\":180,\"lmcache.chunk_size\":256}"
#define MP_JSON                                                                               \
	"{\"kv_connector\":\"lmcache_mp\",\"kv_role\":\"kv_both\",\"kv_connector_extra_config\":"    \
	"{\"lmcache.mp.port\":8750}}"

static void test_atom_spec_examples(void **state)
{
	(void)state;
	/* prefill with the docs' offload entry */
	expect_kv(ATOM_PD("", "{\"extra-kv-connectors\": [" OFFLOAD_YAML "]}", "{}"), ROLE_PREFILL, &ctx0,
		  "{\"kv_connector\":\"multi\",\"connectors\":[{\"kv_role\":\"kv_producer\","
		  "\"kv_connector\":\"mooncake\",\"proxy_ip\":\"10.0.0.1\",\"handshake_port\":5400},"
		  OFFLOAD_JSON "]}");
	/* agg with one lmcache_mp entry */
	expect_kv(ATOM_AGG("{\"extra-kv-connectors\": [{\"kv_connector\": \"lmcache_mp\","
			   " \"kv_role\": \"kv_both\"}]}"), ROLE_AGG, &ctx0, MP_JSON);
	/* agg with offload and mp: multi, no Mooncake entry */
	expect_kv(ATOM_AGG("{\"extra-kv-connectors\": [" OFFLOAD_YAML ", {\"kv_connector\":"
			   " \"lmcache_mp\", \"kv_role\": \"kv_both\"}]}"), ROLE_AGG, &ctx0,
		  "{\"kv_connector\":\"multi\",\"connectors\":[" OFFLOAD_JSON "," MP_JSON "]}");
	/* decode with no extras: the Mooncake entry alone */
	expect_kv(ATOM_PD("", "{}", "{}"), ROLE_DECODE, &ctx1,
		  "{\"kv_role\":\"kv_consumer\",\"kv_connector\":\"mooncake\",\"proxy_ip\":\"10.0.0.1\","
		  "\"handshake_port\":5401}");
	expect_kv(ATOM_PD(", \"mooncake_protocol\": \"tcp\"", "{}", "{}"), ROLE_DECODE, &ctx1,
		  "{\"kv_role\":\"kv_consumer\",\"kv_connector\":\"mooncake\",\"proxy_ip\":\"10.0.0.1\","
		  "\"handshake_port\":5401,\"protocol\":\"tcp\"}");
	/* agg without extras: no flag at all */
	expect_kv(ATOM_AGG("{}"), ROLE_AGG, &ctx0, NULL);
	expect_kv(ATOM_AGG("{\"extra-kv-connectors\": []}"), ROLE_AGG, &ctx0, NULL);
}

static void test_atom_lmcache_mp_extra_config(void **state)
{
	(void)state;
	/* a recipe port overrides the value but stays first; other keys follow in order */
	expect_kv(ATOM_AGG("{\"extra-kv-connectors\": [{\"kv_connector\": \"lmcache_mp\","
			   " \"kv_connector_extra_config\": {\"lmcache.mp.host\": \"tcp://h\","
			   " \"lmcache.mp.port\": 9000}, \"kv_role\": \"kv_both\"}]}"), ROLE_AGG, &ctx0,
		  "{\"kv_connector\":\"lmcache_mp\",\"kv_connector_extra_config\":{\"lmcache.mp.port\":9000,"
		  "\"lmcache.mp.host\":\"tcp://h\"},\"kv_role\":\"kv_both\"}");
	/* server_urls alone still gets the default port (code, not docs: spec §8.10) */
	expect_kv(ATOM_AGG("{\"extra-kv-connectors\": [{\"kv_connector\": \"lmcache_mp\","
			   " \"kv_connector_extra_config\": {\"lmcache.mp.server_urls\": \"tcp://a:1\"}}]}"),
		  ROLE_AGG, &ctx0,
		  "{\"kv_connector\":\"lmcache_mp\",\"kv_connector_extra_config\":{\"lmcache.mp.port\":8750,"
		  "\"lmcache.mp.server_urls\":\"tcp://a:1\"}}");
	/* the underscore spelling is not popped: not a connector list */
	expect_kv(ATOM_AGG("{\"extra_kv_connectors\": [{\"kv_connector\": \"lmcache_mp\"}]}"),
		  ROLE_AGG, &ctx0, NULL);
	/* decode with lmcache_mp: Mooncake first, then the entry */
	expect_kv(ATOM_PD(", \"mooncake_protocol\": \"rdma\"", "{}",
			  "{\"extra-kv-connectors\": [{\"kv_connector\": \"lmcache_mp\", \"kv_role\": \"kv_both\"}]}"),
		  ROLE_DECODE, &ctx1,
		  "{\"kv_connector\":\"multi\",\"connectors\":[{\"kv_role\":\"kv_consumer\","
		  "\"kv_connector\":\"mooncake\",\"proxy_ip\":\"10.0.0.1\",\"handshake_port\":5401,"
		  "\"protocol\":\"rdma\"}," MP_JSON "]}");
}

static void test_atom_missing_port(void **state)
{
	(void)state;
	struct worker_ctx noport = ctx0;
	noport.nixl_port = 0;
	expect_kv_err(ATOM_PD("", "{}", "{}"), ROLE_PREFILL, &noport,
		      "ATOM P/D worker is missing its Mooncake handshake port");
	expect_kv_err(ATOM_PD("", "{}", "{}"), ROLE_DECODE, NULL,
		      "ATOM P/D worker is missing its Mooncake handshake port");
}

/* ---- SGLang env (§5.3) ---- */

static void expect_env(const char *recipe, enum role_id role, const char *want_json)
{
	struct recipe r;
	tu_recipe_json(&r, recipe);
	json_t *env = connector_extra_env(&r, role);
	char *got = pyjson_dumps(env, PYJSON_SORT_KEYS);
	assert_string_equal(got, want_json);
	free(got);
	json_decref(env);
	recipe_release(&r);
}

#define SGL(args, env) \
	"{\"engine\": \"sglang\", \"roles\": {\"agg\": {\"args\": " args ", \"env\": " env "}}}"
#define LMENV "{\"LMCACHE_MP_HOST\": \"127.0.0.1\", \"LMCACHE_MP_PORT\": \"8750\"}"

static void test_sglang_env(void **state)
{
	(void)state;
	expect_env(SGL("{\"enable-lmcache\": true}", "{}"), ROLE_AGG, LMENV);
	expect_env(SGL("{\"enable_lmcache\": true}", "{}"), ROLE_AGG, LMENV);
	expect_env(SGL("{\"enable-lmcache\": false}", "{}"), ROLE_AGG, "{}");
	expect_env(SGL("{}", "{}"), ROLE_AGG, "{}");
	/* Python truthiness: a non-empty string is true */
	expect_env(SGL("{\"enable-lmcache\": \"false\"}", "{}"), ROLE_AGG, LMENV);
	expect_env(SGL("{\"enable-lmcache\": 0}", "{}"), ROLE_AGG, "{}");
	/* a config file carries the address */
	expect_env(SGL("{\"enable-lmcache\": true, \"lmcache-config-file\": \"/c.yaml\"}", "{}"),
		   ROLE_AGG, "{}");
	expect_env(SGL("{\"enable-lmcache\": true, \"lmcache_config_file\": \"/c.yaml\"}", "{}"),
		   ROLE_AGG, "{}");
	expect_env(SGL("{\"enable-lmcache\": true, \"lmcache-config-file\": \"\"}", "{}"),
		   ROLE_AGG, LMENV);
	/* the role env keeps its own address; the port is then not added either */
	expect_env(SGL("{\"enable-lmcache\": true}", "{\"LMCACHE_MP_HOST\": \"10.1.1.1\"}"),
		   ROLE_AGG, "{}");
	expect_env(SGL("{\"enable-lmcache\": true}", "{\"LMCACHE_MP_PORT\": \"9000\"}"),
		   ROLE_AGG, LMENV);
	/* decision (spec §8.1): the top-level environment does not suppress */
	expect_env("{\"engine\": \"sglang\", \"environment\": {\"LMCACHE_MP_HOST\": \"x\"},"
		   " \"roles\": {\"agg\": {\"args\": {\"enable-lmcache\": true}}}}", ROLE_AGG, LMENV);
	/* only SGLang does this */
	expect_env("{\"engine\": \"vllm\", \"roles\": {\"agg\": {\"args\": {\"enable-lmcache\": true}}}}",
		   ROLE_AGG, "{}");
	/* per role: prefill on, decode off */
	expect_env("{\"engine\": \"sglang\", \"roles\": {\"prefill\": {\"args\": {\"enable-lmcache\": true}},"
		   " \"decode\": {}}}", ROLE_DECODE, "{}");
	expect_env("{\"engine\": \"sglang\", \"roles\": {\"prefill\": {\"args\": {\"enable-lmcache\": true}},"
		   " \"decode\": {}}}", ROLE_PREFILL, LMENV);
}

/* ---- worked examples (§7) ---- */

static void test_worked_examples(void **state)
{
	(void)state;
	struct worker_ctx mock = { "127.0.0.1", "127.0.0.1", 6100, 5400, 27000, 36367, 26000 };
	/* 7.1 */
	expect_kv("{\"engine\": {\"type\": \"vllm\", \"connector\": \"lmcache-mp\"},"
		  " \"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 2, \"gpus\": 1}}}",
		  ROLE_AGG, &mock, LMCACHE_MP);
	/* 7.2 */
	expect_env("{\"engine\": \"sglang\", \"frontend\": {\"type\": \"sglang\"}, \"roles\": {\"agg\":"
		   " {\"nodes\": 1, \"workers\": 1, \"gpus\": 1, \"args\": {\"enable-lmcache\": true,"
		   " \"mem-fraction-static\": 0.5, \"context-length\": 4096}}}}", ROLE_AGG, LMENV);
	/* 7.3: prefill raw JSON verbatim (compact), decode the spaced nixl preset */
	json_t *raw = json_string(MULTI_RAW);
	char *q = pyjson_dumps(raw, 0);
	char *rec = xasprintf("{\"engine\": {\"type\": \"vllm\", \"connector\": \"nixl\"}, \"roles\": {"
			      "\"prefill\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1, \"args\": "
			      "{\"connector\": %s}}, \"decode\": {\"nodes\": \"colocate\", \"workers\": 1,"
			      " \"gpus\": 1}}}", q);
	expect_kv(rec, ROLE_PREFILL, &mock, MULTI_RAW);
	mock.nixl_port = 5401;
	expect_kv(rec, ROLE_DECODE, &mock, NIXL);
	free(rec);
	free(q);
	json_decref(raw);
	/* 7.4 */
	const char *atom = "{\"engine\": {\"type\": \"atom\", \"mooncake_protocol\": \"tcp\"},"
			   " \"frontend\": {\"type\": \"atomesh\"}, \"roles\": {"
			   "\"prefill\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1},"
			   " \"decode\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1}}}";
	mock.nixl_port = 5400;
	expect_kv(atom, ROLE_PREFILL, &mock,
		  "{\"kv_role\":\"kv_producer\",\"kv_connector\":\"mooncake\",\"proxy_ip\":\"127.0.0.1\","
		  "\"handshake_port\":5400,\"protocol\":\"tcp\"}");
	mock.nixl_port = 5401;
	expect_kv(atom, ROLE_DECODE, &mock,
		  "{\"kv_role\":\"kv_consumer\",\"kv_connector\":\"mooncake\",\"proxy_ip\":\"127.0.0.1\","
		  "\"handshake_port\":5401,\"protocol\":\"tcp\"}");
}

static void after_role(struct strbuf *out, enum role_id role, void *data)
{
	strbuf_addf(out, "  <%s %s>\n", role_names[role], (const char *)data);
}

/* The Workers preview of render (dry-run) and of the TUI tab, from one
 * function: the same connector strings, two layouts. */
static void test_workers_block(void **state)
{
	(void)state;
	struct recipe r;
	struct strbuf sb = STRBUF_INIT;
	tu_recipe_json(&r, "{\"engine\": {\"type\": \"vllm\", \"connector\": \"nixl\"},"
			   " \"roles\": {\"prefill\": {\"workers\": 2, \"gpus\": 1, \"args\":"
			   " {\"connector\": \"lmcache-mp\"}}, \"decode\": {\"gpus\": 2}}}");
	render_workers_block(&sb, &r, WORKERS_DRYRUN, NULL, NULL);
	assert_string_equal(sb_str(&sb),
		"Workers:\n"
		"  prefill engine=vllm workers=2 gpus=1 connector=lmcache-mp\n"
		"    kv-transfer-config: " "{\"kv_connector\": \"LMCacheMPConnector\", \"kv_connector_module_path\": "
		"\"lmcache.integration.vllm.lmcache_mp_connector\", \"kv_role\": \"kv_both\", "
		"\"kv_connector_extra_config\": {\"lmcache.mp.host\": \"tcp://localhost\", "
		"\"lmcache.mp.port\": 8750}}\n"
		"  decode engine=vllm workers=1 gpus=2 connector=nixl\n"
		"    kv-transfer-config: {\"kv_connector\": \"NixlConnector\", \"kv_role\": \"kv_both\"}\n");
	strbuf_reset(&sb);
	render_workers_block(&sb, &r, WORKERS_PANEL, after_role, "cmd");
	assert_string_equal(sb_str(&sb),
		"prefill: 2 workers x 1 GPU, engine vllm\n"
		"  connector: lmcache-mp\n"
		"  --kv-transfer-config:\n"
		"    {\n"
		"      \"kv_connector\": \"LMCacheMPConnector\",\n"
		"      \"kv_connector_module_path\": \"lmcache.integration.vllm.lmcache_mp_connector\",\n"
		"      \"kv_role\": \"kv_both\",\n"
		"      \"kv_connector_extra_config\": {\n"
		"        \"lmcache.mp.host\": \"tcp://localhost\",\n"
		"        \"lmcache.mp.port\": 8750\n"
		"      }\n"
		"    }\n"
		"  extra env: (none)\n"
		"  <prefill cmd>\n"
		"decode: 1 worker x 2 GPUs, engine vllm\n"
		"  connector: nixl\n"
		"  --kv-transfer-config:\n"
		"    {\n"
		"      \"kv_connector\": \"NixlConnector\",\n"
		"      \"kv_role\": \"kv_both\"\n"
		"    }\n"
		"  extra env: (none)\n"
		"  <decode cmd>\n");
	/* the first decode worker's NIXL port counts the prefill workers before it */
	struct worker_ctx c = workers_preview_ctx(&r, ROLE_DECODE);
	assert_int_equal(c.nixl_port, 5402);
	assert_int_equal(c.http_port, 6100);
	recipe_release(&r);

	strbuf_reset(&sb);
	tu_recipe_json(&r, "{\"engine\": \"sglang\", \"frontend\": {\"type\": \"sglang\"},"
			   " \"roles\": {\"agg\": {\"args\": {\"enable_lmcache\": true}}}}");
	render_workers_block(&sb, &r, WORKERS_DRYRUN, NULL, NULL);
	assert_string_equal(sb_str(&sb),
		"Workers:\n"
		"  agg engine=sglang workers=1 gpus=1\n"
		"    kv-transfer-config: (none)\n"
		"    env.LMCACHE_MP_HOST: 127.0.0.1\n"
		"    env.LMCACHE_MP_PORT: 8750\n");
	strbuf_reset(&sb);
	render_workers_block(&sb, &r, WORKERS_PANEL, NULL, NULL);
	assert_string_equal(sb_str(&sb),
		"agg: 1 worker x 1 GPU, engine sglang\n"
		"  --kv-transfer-config: (none)\n"
		"  extra env:\n"
		"    LMCACHE_MP_HOST=127.0.0.1\n"
		"    LMCACHE_MP_PORT=8750\n");
	assert_int_equal(workers_preview_ctx(&r, ROLE_AGG).http_port, 8000);
	recipe_release(&r);

	strbuf_reset(&sb);
	tu_recipe_json(&r, "{\"engine\": \"vllm\"}");
	render_workers_block(&sb, &r, WORKERS_DRYRUN, NULL, NULL);
	assert_string_equal(sb_str(&sb), "");
	render_workers_block(&sb, &r, WORKERS_PANEL, NULL, NULL);
	assert_string_equal(sb_str(&sb), "(no roles: add roles.agg, or roles.prefill and roles.decode)\n");
	recipe_release(&r);
	strbuf_release(&sb);
}

/* A worker spanning nodes runs one process, and takes one NIXL port, per
 * node: the decode after a two-node prefill worker gets 5402, in the
 * preview as in the launch plan's topology (not 5401, one per worker). */
static void test_preview_port_after_multinode(void **state)
{
	struct recipe r;
	struct strbuf sb = STRBUF_INIT;
	struct topology t;
	char *err = NULL;
	(void)state;
	tu_recipe_json(&r, "{\"resources\": {\"gpu_type\": \"mi300x\", \"gpus_per_node\": 8},"
			   " \"engine\": {\"type\": \"atom\"}, \"frontend\": {\"type\": \"atomesh\"},"
			   " \"roles\": {\"prefill\": {\"nodes\": 2, \"workers\": 1},"
			   " \"decode\": {\"nodes\": 1, \"workers\": 1}}}");
	assert_int_equal(topo_build(&t, &r, NULL, 0, &err), 0);
	int plan_port = 0;
	for (size_t i = 0; i < t.nproc; i++)
		if (t.proc[i].role == ROLE_DECODE && !plan_port)
			plan_port = t.proc[i].nixl_port;
	topo_release(&t);
	assert_int_equal(plan_port, 5402);
	assert_int_equal(workers_preview_ctx(&r, ROLE_PREFILL).nixl_port, 5400);
	assert_int_equal(workers_preview_ctx(&r, ROLE_DECODE).nixl_port, plan_port);
	render_workers_block(&sb, &r, WORKERS_DRYRUN, NULL, NULL);
	assert_string_equal(sb_str(&sb),
		"Workers:\n"
		"  prefill engine=atom workers=1 gpus=16\n"
		"    kv-transfer-config: {\"kv_role\":\"kv_producer\",\"kv_connector\":\"mooncake\","
		"\"proxy_ip\":\"127.0.0.1\",\"handshake_port\":5400}\n"
		"  decode engine=atom workers=1 gpus=8\n"
		"    kv-transfer-config: {\"kv_role\":\"kv_consumer\",\"kv_connector\":\"mooncake\","
		"\"proxy_ip\":\"127.0.0.1\",\"handshake_port\":5402}\n");
	strbuf_release(&sb);
	recipe_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vllm_presets),
		cmocka_unit_test(test_preview_port_after_multinode),
		cmocka_unit_test(test_vllm_none_and_raw),
		cmocka_unit_test(test_vllm_frontends),
		cmocka_unit_test(test_vllm_moriio),
		cmocka_unit_test(test_sglang_has_no_flag),
		cmocka_unit_test(test_atom_spec_examples),
		cmocka_unit_test(test_atom_lmcache_mp_extra_config),
		cmocka_unit_test(test_atom_missing_port),
		cmocka_unit_test(test_sglang_env),
		cmocka_unit_test(test_worked_examples),
		cmocka_unit_test(test_workers_block),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
