/* Services as srtctl launches and previews them: argv with placeholders,
 * env layering (spec §4.6), container fallback, and the dry-run block (§6.2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "render/service.h"
#include "lib/shell.h"
#include "tests/unit/testutil.h"

static void expect_block(const char *recipe, const char *want)
{
	struct recipe r;
	struct strbuf sb = STRBUF_INIT;
	tu_recipe_json(&r, recipe);
	render_services_block(&sb, &r);
	assert_string_equal(sb_str(&sb), want);
	strbuf_release(&sb);
	recipe_release(&r);
}

#define NO_TACH "\"observability\": {\"tachometer\": {\"enabled\": false}}"
#define LMC_CMD "lmcache server --host 0.0.0.0 --port 8750 --http-host 0.0.0.0 --http-port 8751"

static void test_block_spec_examples(void **state)
{
	(void)state;
	/* §6.2, the SGLang example's service (direct frontend: no etcd) */
	expect_block("{\"engine\": \"sglang\", \"frontend\": {\"type\": \"sglang\"}, " NO_TACH ","
		     " \"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1,"
		     " \"args\": {\"enable-lmcache\": true}}},"
		     " \"services\": [{\"name\": \"lmcache\", \"type\": \"lmcache-server\", \"args\":"
		     " [\"--l1-size-gb\", \"16\", \"--chunk-size\", \"256\", \"--eviction-policy\", \"LRU\"],"
		     " \"preamble\": \"ulimit -l unlimited\\n\"}]}",
		     "Services:\n"
		     "  lmcache type=lmcache-server placement=workers start=before_workers critical=true\n"
		     "    command: " LMC_CMD " --l1-size-gb 16 --chunk-size 256 --eviction-policy LRU\n"
		     "    container: <job container>\n"
		     "    preamble: ulimit -l unlimited\n"
		     "    inherit_discovery_env: true\n");
	/* §6.2, an implied server, with the etcd Dynamo implies before it */
	expect_block("{\"engine\": {\"type\": \"vllm\", \"connector\": \"lmcache-mp\"}, " NO_TACH ","
		     " \"roles\": {\"agg\": {}}}",
		     "Services:\n"
		     "  etcd type=etcd placement=infra start=infra critical=true\n"
		     "    implied by: frontend.type dynamo (declare a service named etcd to change it)\n"
		     "    command: /configs/etcd --data-dir /tmp/etcd --listen-client-urls http://0.0.0.0:2379"
		     " --advertise-client-urls 'http://<infra_ip>:2379'\n"
		     "    container: <job container>\n"
		     "    readiness: tcp/2379 (kind default)\n"
		     "  lmcache-server type=lmcache-server placement=agg start=before_workers critical=true\n"
		     "    implied by: agg connector lmcache-mp (declare a service named lmcache-server to change it)\n"
		     "    command: " LMC_CMD "\n"
		     "    container: <job container>\n"
		     "    inherit_discovery_env: true\n");
	/* §7.1: declared by name, no implied-by line; env sorted */
	expect_block("{\"engine\": {\"type\": \"vllm\", \"connector\": \"lmcache-mp\"}, " NO_TACH ","
		     " \"environment\": {\"PYTHONHASHSEED\": \"0\"},"
		     " \"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 2, \"gpus\": 1}},"
		     " \"services\": [{\"name\": \"lmcache-server\", \"type\": \"lmcache-server\", \"args\":"
		     " [\"--l1-size-gb\", \"16\", \"--chunk-size\", \"256\", \"--max-workers\", \"2\","
		     " \"--eviction-policy\", \"LRU\"], \"env\": {\"ZZ\": \"1\", \"PYTHONHASHSEED\": \"0\"},"
		     " \"preamble\": \"ulimit -l unlimited\\n\"}]}",
		     "Services:\n"
		     "  etcd type=etcd placement=infra start=infra critical=true\n"
		     "    implied by: frontend.type dynamo (declare a service named etcd to change it)\n"
		     "    command: /configs/etcd --data-dir /tmp/etcd --listen-client-urls http://0.0.0.0:2379"
		     " --advertise-client-urls 'http://<infra_ip>:2379'\n"
		     "    container: <job container>\n"
		     "    readiness: tcp/2379 (kind default)\n"
		     "  lmcache-server type=lmcache-server placement=workers start=before_workers critical=true\n"
		     "    command: " LMC_CMD " --l1-size-gb 16 --chunk-size 256 --max-workers 2 --eviction-policy LRU\n"
		     "    container: <job container>\n"
		     "    preamble: ulimit -l unlimited\n"
		     "    inherit_discovery_env: true\n"
		     "    env.PYTHONHASHSEED: 0\n"
		     "    env.ZZ: 1\n");
	/* nothing effective: nothing printed */
	expect_block("{\"engine\": \"sglang\", \"frontend\": {\"type\": \"sglang\"}, " NO_TACH ","
		     " \"roles\": {\"agg\": {}}}", "");
}

static void test_block_exporters_and_fields(void **state)
{
	(void)state;
	expect_block("{\"engine\": \"sglang\", \"frontend\": {\"type\": \"sglang\"}, \"roles\": {\"agg\": {}}}",
		     "Services:\n"
		     "  dcgm-exporter type=dcgm-exporter placement=compute start=after_frontend critical=false\n"
		     "    implied by: observability.tachometer default exporters (declare a service named"
		     " dcgm-exporter to change it)\n"
		     "    command: dcgm-exporter --collect-interval=1000 --address :9401\n"
		     "    container: nvcr.io#nvidia/k8s/dcgm-exporter:3.3.9-3.6.1-ubuntu22.04\n"
		     "    options: {'port': 9401, 'collect_interval_ms': 1000}\n"
		     "    inherit_discovery_env: true\n"
		     "  node-exporter type=node-exporter placement=compute start=after_frontend critical=false\n"
		     "    implied by: observability.tachometer default exporters (declare a service named"
		     " node-exporter to change it)\n"
		     "    command: /bin/node_exporter --web.listen-address=:9101 --collector.disable-defaults"
		     " --collector.cpu --collector.infiniband --collector.meminfo --collector.processes"
		     " --collector.stat --collector.vmstat --collector.pressure --collector.meminfo_numa"
		     " '--collector.vmstat.fields=^(oom_kill|pgpg|pswp|pgsteal|pg.*fault).*'\n"
		     "    container: quay.io#prometheus/node-exporter:v1.8.2\n"
		     "    options: {'port': 9101}\n"
		     "    inherit_discovery_env: true\n");
	/* every optional line, in srtctl's order */
	expect_block("{\"engine\": \"sglang\", \"frontend\": {\"type\": \"sglang\"}, " NO_TACH ","
		     " \"roles\": {\"agg\": {}}, \"services\": ["
		     "{\"name\": \"web\", \"command\": [\"python3\", \"-m\", \"http.server\", \"{node_ip}\"],"
		     " \"args\": [\"--json\", \"{\\\"a\\\": 1}\", \"{master_port}\"], \"container\": \"img:1\","
		     " \"source\": {\"git\": \"https://g/x.git\", \"rev\": \"main\", \"path\": \"sub\"},"
		     " \"build_command\": [\"make\", \"all things\"],"
		     " \"readiness\": {\"http\": {\"port\": 8080, \"path\": \"/ok\"}, \"timeout_seconds\": 30},"
		     " \"options\": {}, \"preamble\": \"  set -e\\n  echo hi\\n\", \"inherit_discovery_env\": false,"
		     " \"placement\": {\"node\": \"workers\", \"per\": \"worker\"}, \"nodes\": 2, \"terminal\": true},"
		     "{\"name\": \"db\", \"type\": \"etcd\", \"external\": \"http://10.0.0.5:2379\"},"
		     "{\"name\": \"lp\", \"command\": [\"tail\"], \"readiness\": {\"log\": {\"pattern\": \"up.*\"}}},"
		     "{\"name\": \"tp\", \"command\": [\"nc\"], \"readiness\": {\"port\": 7000}, \"critical\": true},"
		     "{\"name\": \"mm\", \"type\": \"mooncake-master\", \"options\": {\"store_config\": {\"x\": true}}}]}",
		     "Services:\n"
		     "  web type=generic placement=workers per=worker start=after_frontend critical=false nodes=2 terminal\n"
		     "    command: python3 -m http.server '<node_ip>' --json '{\"a\": 1}' 8700\n"
		     "    container: img:1\n"
		     "    source: https://g/x.git @ main\n"
		     "    source.path: sub\n"
		     "    build_command: make 'all things'\n"
		     "    readiness: http://<node>:8080/ok -> 200, timeout=30s\n"
		     "    preamble: set -e\n  echo hi\n"
		     "    inherit_discovery_env: false\n"
		     "  db type=etcd placement=infra start=infra critical=true\n"
		     "    external: http://10.0.0.5:2379 (not launched)\n"
		     "  lp type=generic placement=head start=after_frontend critical=false\n"
		     "    command: tail\n"
		     "    container: <job container>\n"
		     "    readiness: log matches /up.*/, timeout=120s\n"
		     "    inherit_discovery_env: true\n"
		     "  tp type=generic placement=head start=after_frontend critical=true\n"
		     "    command: nc\n"
		     "    container: <job container>\n"
		     "    readiness: tcp/7000, timeout=120s\n"
		     "    inherit_discovery_env: true\n"
		     "  mm type=mooncake-master placement=infra start=before_workers critical=true\n"
		     "    command: mooncake_master --port=8700 --enable_http_metadata_server=true"
		     " --http_metadata_server_port=8701 --eviction_high_watermark_ratio=0.9"
		     " --default_kv_lease_ttl=10000 --rpc_thread_num=16 --enable_metric_reporting=true"
		     " --metrics_port=8702\n"
		     "    container: <job container>\n"
		     "    readiness: tcp/8700, tcp/8701, tcp/8702 (kind default)\n"
		     "    options: {'store_config': {'x': True}}\n"
		     "    inherit_discovery_env: true\n");
}

static char *argv_of(const char *recipe, const char *name, const struct service_vars *vars)
{
	struct recipe r;
	struct strvec av = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	tu_recipe_json(&r, recipe);
	const struct service *s = recipe_service(&r, name);
	assert_non_null(s);
	service_argv(&r, s, vars, &av);
	shell_join(&sb, av.v, av.n);
	strvec_release(&av);
	recipe_release(&r);
	return sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
}

static void expect_argv(const char *recipe, const char *name, const struct service_vars *vars,
			const char *want)
{
	char *got = argv_of(recipe, name, vars);
	assert_string_equal(got, want);
	free(got);
}

static void test_argv(void **state)
{
	(void)state;
	const char *rec = "{\"engine\": \"vllm\", " NO_TACH ", \"roles\": {\"agg\": {}}, \"services\": ["
			  "{\"name\": \"s\", \"command\": [\"run\", \"--at={node}:{master_port}\", \"{unknown}\","
			  " \"{\\\"k\\\": \\\"{node}\\\"}\", \"{pool_ips}\", 3, true]},"
			  "{\"name\": \"c\", \"type\": \"lmcache-server\", \"command\": [\"my-lmcache\"],"
			  " \"args\": [\"--node\", \"{node_id}\"]},"
			  "{\"name\": \"d\", \"type\": \"dcgm-exporter\", \"options\": {\"port\": 9500,"
			  " \"collect_interval_ms\": 250}, \"args\": [\"-x\"]}]}";
	expect_argv(rec, "s", NULL,
		    "run '--at=<node>:8700' '{unknown}' '{\"k\": \"<node>\"}' '<pool_ips>' 3 True");
	struct service_vars vars = { { NULL }, NULL };
	assert_int_equal(service_vars_set(&vars, "node", "node-02"), SV_NODE);
	assert_int_equal(service_vars_set(&vars, "infra_ip", "10.0.0.1"), SV_INFRA_IP);
	assert_int_equal(service_vars_set(&vars, "master_port", "8700"), SV_MASTER_PORT);
	assert_int_equal(service_vars_set(&vars, "unknown", "x"), -1);
	/* a name without a value in vars stays as written */
	expect_argv(rec, "s", &vars,
		    "run --at=node-02:8700 '{unknown}' '{\"k\": \"node-02\"}' '{pool_ips}' 3 True");
	expect_argv(rec, "etcd", &vars,
		    "/configs/etcd --data-dir /tmp/etcd --listen-client-urls http://0.0.0.0:2379"
		    " --advertise-client-urls http://10.0.0.1:2379");
	/* a recipe command replaces the fixed lmcache prefix */
	expect_argv(rec, "c", NULL, "my-lmcache --node '<node_id>'");
	expect_argv(rec, "d", NULL, "dcgm-exporter --collect-interval=250 --address :9500 -x");
}

static char *env_of(const char *recipe, const char *name, const struct service_vars *vars)
{
	struct recipe r;
	tu_recipe_json(&r, recipe);
	const struct service *s = recipe_service(&r, name);
	assert_non_null(s);
	json_t *env = service_env(&r, s, vars);
	char *out = pyjson_dumps(env, PYJSON_SORT_KEYS);
	json_decref(env);
	recipe_release(&r);
	return out;
}

static void expect_env(const char *recipe, const char *name, const struct service_vars *vars,
		       const char *want)
{
	char *got = env_of(recipe, name, vars);
	assert_string_equal(got, want);
	free(got);
}

static void test_env(void **state)
{
	(void)state;
	struct service_vars v = { { NULL }, NULL }, *vars = &v;
	service_vars_set(vars, "infra_ip", "127.0.0.1");
	service_vars_set(vars, "node", "node-01");
	/* §7.1: ETCD_ENDPOINTS + the service's own env; no top-level environment */
	const char *lmc = "{\"engine\": {\"type\": \"vllm\", \"connector\": \"lmcache-mp\"},"
			  " \"environment\": {\"PYTHONHASHSEED\": \"0\", \"TOP\": \"x\"},"
			  " \"roles\": {\"agg\": {\"env\": {\"ROLE\": \"y\"}}},"
			  " \"services\": [{\"name\": \"lmcache-server\", \"type\": \"lmcache-server\","
			  " \"env\": {\"PYTHONHASHSEED\": \"0\", \"WHERE\": \"{node}\", \"N\": 5}}]}";
	expect_env(lmc, "lmcache-server", vars,
		   "{\"ETCD_ENDPOINTS\": \"http://127.0.0.1:2379\", \"N\": \"5\","
		   " \"PYTHONHASHSEED\": \"0\", \"WHERE\": \"node-01\"}");
	/* etcd itself gets no discovery env */
	expect_env(lmc, "etcd", vars, "{}");
	/* §7.2: ETCD_ENDPOINTS even under direct SGLang where no etcd runs */
	const char *sgl = "{\"engine\": \"sglang\", \"frontend\": {\"type\": \"sglang\"},"
			  " \"roles\": {\"agg\": {}}, \"services\": [{\"name\": \"lmcache\", \"type\": \"lmcache-server\"}]}";
	expect_env(sgl, "lmcache", vars, "{\"ETCD_ENDPOINTS\": \"http://127.0.0.1:2379\"}");
	expect_env(sgl, "dcgm-exporter", vars, "{\"ETCD_ENDPOINTS\": \"http://127.0.0.1:2379\"}");
	/* NATS_SERVER only when NATS runs; external addresses win; inherit off */
	const char *nats = "{\"engine\": \"vllm\", \"dynamo\": {\"event_plane\": \"nats\"},"
			   " \"roles\": {\"agg\": {}}, \"services\": ["
			   "{\"name\": \"etcd\", \"type\": \"etcd\", \"external\": \"http://e:1\"},"
			   "{\"name\": \"g\", \"command\": [\"x\"]},"
			   "{\"name\": \"h\", \"command\": [\"x\"], \"inherit_discovery_env\": false}]}";
	expect_env(nats, "g", vars, "{\"ETCD_ENDPOINTS\": \"http://e:1\", \"NATS_SERVER\": \"nats://127.0.0.1:4222\"}");
	expect_env(nats, "h", vars, "{}");
	expect_env(nats, "g", NULL, "{\"ETCD_ENDPOINTS\": \"http://e:1\", \"NATS_SERVER\": \"nats://<infra_ip>:4222\"}");
	/* the first enabled declaration of each name gives its address, found
	 * in one pass for both: a disabled one is passed over */
	const char *both = "{\"engine\": \"vllm\", \"dynamo\": {\"event_plane\": \"nats\"},"
			   " \"roles\": {\"agg\": {}}, \"services\": ["
			   "{\"name\": \"nats\", \"type\": \"nats\", \"external\": \"nats://n:1\"},"
			   "{\"name\": \"etcd\", \"type\": \"etcd\", \"external\": \"http://off:1\", \"enabled\": false},"
			   "{\"name\": \"g\", \"command\": [\"x\"]},"
			   "{\"name\": \"etcd\", \"type\": \"etcd\", \"external\": \"http://on:1\"},"
			   "{\"name\": \"nats\", \"type\": \"nats\", \"external\": \"nats://later:1\"}]}";
	expect_env(both, "g", vars, "{\"ETCD_ENDPOINTS\": \"http://on:1\", \"NATS_SERVER\": \"nats://n:1\"}");
}

static void test_container(void **state)
{
	(void)state;
	struct recipe r;
	tu_recipe_json(&r, "{\"engine\": \"sglang\", \"frontend\": {\"type\": \"sglang\"}, \"roles\": {\"agg\": {}},"
		 " \"services\": [{\"name\": \"a\", \"command\": [\"x\"]},"
		 " {\"name\": \"b\", \"command\": [\"x\"], \"container\": \"mine\"},"
		 " {\"name\": \"node-exporter\", \"type\": \"node-exporter\"}]}");
	assert_string_equal(service_container(&r, recipe_service(&r, "a"), NULL), "<job container>");
	assert_string_equal(service_container(&r, recipe_service(&r, "a"), "job.sqsh"), "job.sqsh");
	assert_string_equal(service_container(&r, recipe_service(&r, "b"), "job.sqsh"), "mine");
	/* a declared exporter keeps its kind's image */
	const struct service *ne = recipe_service(&r, "node-exporter");
	assert_null(ne->implied_by);
	assert_string_equal(service_container(&r, ne, "job.sqsh"), "quay.io#prometheus/node-exporter:v1.8.2");
	recipe_release(&r);
}

/* Whether a service's command / env may differ between its instances,
 * as service_command and service_env_fill report it: a string of the
 * recipe's naming a per-instance placeholder ({node}, {node_id},
 * {worker_gpus}, ...), or a Ray line; not a plan-wide one ({head_ip},
 * {infra_ip}, {master_port}), nor a kind's own words without one. */
static void expect_varies(const char *svc, int argv_varies, int env_varies)
{
	char *json = xasprintf("{\"engine\": \"vllm\", " NO_TACH ", \"roles\": {\"agg\": {}}, "
			       "\"services\": [%s]}", svc);
	struct recipe r;
	struct strbuf sb = STRBUF_INIT;
	struct envmap *m = envmap_new();
	struct service_ctx c;
	int av = -1, ev = -1;
	tu_recipe_json(&r, json);
	const struct service *s = &r.svc[r.nsvc - 1];
	service_ctx_init(&c, &r);
	service_command(&sb, &r, s, NULL, &av);
	service_env_fill(m, &r, s, NULL, &c, &ev);
	if (av != argv_varies || ev != env_varies)
		fail_msg("%s: argv varies %d, env %d; want %d, %d", svc, av, ev, argv_varies, env_varies);
	envmap_unref(m);
	strbuf_release(&sb);
	recipe_release(&r);
	free(json);
}

static void test_varies(void **state)
{
	(void)state;
	expect_varies("{\"name\": \"a\", \"command\": [\"x\", \"--peer\", \"{head_ip}:{master_port}\"], "
		      "\"env\": {\"A\": \"{infra_ip}\", \"B\": 1}}", 0, 0);
	expect_varies("{\"name\": \"a\", \"command\": [\"x\", \"--at={node}\"]}", 1, 0);
	expect_varies("{\"name\": \"a\", \"command\": [\"x\"], \"args\": [\"{worker_gpus}\"]}", 1, 0);
	expect_varies("{\"name\": \"a\", \"command\": [\"x\"], \"env\": {\"W\": \"on {node_id}\"}}", 0, 1);
	/* braces that are no placeholder, and a name left as written */
	expect_varies("{\"name\": \"a\", \"command\": [\"x\", \"{\\\"k\\\": 1}\", \"{unknown}\"]}", 0, 0);
	/* a kind's own command: etcd's names {infra_ip} only; Ray's lines differ */
	expect_varies("{\"name\": \"etcd\", \"type\": \"etcd\"}", 0, 0);
	expect_varies("{\"name\": \"ray\", \"type\": \"ray\"}", 1, 0);
	/* an exporter builds its words from its options */
	expect_varies("{\"name\": \"d\", \"type\": \"dcgm-exporter\", \"args\": [\"--n={node}\"]}", 1, 0);
	expect_varies("{\"name\": \"d\", \"type\": \"dcgm-exporter\"}", 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_block_spec_examples),
		cmocka_unit_test(test_block_exporters_and_fields),
		cmocka_unit_test(test_argv),
		cmocka_unit_test(test_env),
		cmocka_unit_test(test_varies),
		cmocka_unit_test(test_container),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
