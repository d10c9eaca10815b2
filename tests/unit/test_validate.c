/*
 * Validation rules: for every rule a recipe that breaks it (the code, the
 * exact message, the path and, where the layout makes it certain, the line)
 * and recipes that pass.  Recipes are inline YAML loaded with doc_load, so
 * the whole pipeline (doc_json, schema, recipe_init, rules, doc_locate) runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "model/schema.h"
#include "model/validate.h"
#include "model/validate_int.h"

/* Lines 1-8 of every recipe below. */
#define HEAD                                                                                     \
	"schema: 2\n"                                                                            \
	"name: t\n"                                                                              \
	"model:\n"                                                                               \
	"  path: m\n"                                                                            \
	"  container: c\n"                                                                       \
	"  precision: bf16\n"                                                                    \
	"resources:\n"                                                                           \
	"  gpus_per_node: 8\n"
/* Lines 9-14: a one-worker vLLM aggregate. */
#define AGG(engine)                                                                              \
	"engine: " engine "\n"                                                                   \
	"roles:\n"                                                                               \
	"  agg:\n"                                                                               \
	"    nodes: 1\n"                                                                         \
	"    workers: 1\n"                                                                       \
	"    gpus: 1\n"
/* Lines 9-20: a vLLM prefill/decode pair, one node each. */
#define PD(engine)                                                                               \
	"engine: " engine "\n"                                                                   \
	"roles:\n"                                                                               \
	"  prefill:\n"                                                                           \
	"    nodes: 1\n"                                                                         \
	"    workers: 1\n"                                                                       \
	"    gpus: 1\n"                                                                          \
	"  decode:\n"                                                                            \
	"    nodes: 1\n"                                                                         \
	"    workers: 1\n"                                                                       \
	"    gpus: 1\n"

static void run(const char *yaml, struct diag_list *out)
{
	struct diag_list load = DIAG_LIST_INIT;
	struct doc *d = doc_load("t.yaml", yaml, strlen(yaml), &load);
	if (!d) {
		for (size_t i = 0; i < load.n; i++)
			print_error("load: %s\n", load.v[i].message);
		fail_msg("recipe did not load");
	}
	if (load.n)
		diag_list_move(out, &load);
	diag_list_release(&load);
	validate_doc(d, out);
	doc_free(d);
}

static void dump(const struct diag_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		print_error("  %d:%d %s [%s] %s | %s\n", l->v[i].line, l->v[i].col,
			    l->v[i].severity == DIAG_ERROR ? "error" : "warning", l->v[i].code,
			    l->v[i].message, l->v[i].path);
}

/* Exactly one diagnostic with code; its fields as given (line 0: not checked;
 * msg ending in '*': prefix match). Returns its hint (static copy). */
static const char *expect(const char *yaml, const char *code, enum diag_severity sev,
			  const char *msg, const char *path, int line)
{
	static char hint[512];
	struct diag_list l = DIAG_LIST_INIT;
	run(yaml, &l);
	const struct diag *hit = NULL;
	size_t n = 0;
	for (size_t i = 0; i < l.n; i++)
		if (!strcmp(l.v[i].code, code)) {
			hit = &l.v[i];
			n++;
		}
	if (n != 1) {
		dump(&l);
		fail_msg("expected one [%s], got %zu", code, n);
	}
	size_t ml = strlen(msg);
	if (ml && msg[ml - 1] == '*') {
		if (strncmp(hit->message, msg, ml - 1))
			fail_msg("message '%s' does not start with '%.*s'", hit->message, (int)ml - 1, msg);
	} else {
		assert_string_equal(hit->message, msg);
	}
	assert_int_equal(hit->severity, sev);
	assert_string_equal(hit->path, path);
	if (line && hit->line != line)
		fail_msg("[%s] %s: line %d, expected %d", code, hit->path, hit->line, line);
	snprintf(hint, sizeof(hint), "%s", hit->hint ? hit->hint : "");
	assert_true(hit->hint && *hit->hint); /* every diagnostic says how to fix it */
	diag_list_release(&l);
	return hint;
}

static void expect_clean(const char *yaml)
{
	struct diag_list l = DIAG_LIST_INIT;
	run(yaml, &l);
	if (l.n) {
		dump(&l);
		fail_msg("expected no diagnostics, got %zu", l.n);
	}
	diag_list_release(&l);
}

static void expect_no(const char *yaml, const char *code)
{
	struct diag_list l = DIAG_LIST_INIT;
	run(yaml, &l);
	for (size_t i = 0; i < l.n; i++)
		if (!strcmp(l.v[i].code, code)) {
			dump(&l);
			fail_msg("unexpected [%s]", code);
		}
	diag_list_release(&l);
}

/* ---- clean recipes: every rule passes ------------------------------------ */

static void test_clean(void **state)
{
	(void)state;
	expect_clean(HEAD AGG("vllm"));
	/* vLLM + lmcache-mp: the server srtctl would imply, declared with the
	 * flags it needs (the implied one passes none: test_lmcache_table.c) */
	expect_clean(HEAD "engine:\n  type: vllm\n  connector: lmcache-mp\n"
		     "roles:\n  agg:\n    nodes: 1\n    workers: 2\n    gpus: 4\n"
		     "services:\n  - name: lmcache-server\n    type: lmcache-server\n"
		     "    args: [--l1-size-gb, \"8\", --eviction-policy, LRU]\n");
	/* vLLM P/D: MultiConnector on prefill, declared server on prefill, seed repeated */
	expect_clean(HEAD "environment:\n  PYTHONHASHSEED: \"0\"\n"
		     "engine: {type: vllm, connector: nixl}\n"
		     "roles:\n"
		     "  prefill:\n    nodes: 1\n    workers: 1\n    gpus: 1\n    args:\n"
		     "      connector: '{\"kv_connector\":\"MultiConnector\",\"kv_role\":\"kv_both\",\"kv_connector_extra_config\":{\"connectors\":[{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"},{\"kv_connector\":\"LMCacheMPConnector\",\"kv_connector_module_path\":\"lmcache.integration.vllm.lmcache_mp_connector\",\"kv_role\":\"kv_both\",\"kv_connector_extra_config\":{\"lmcache.mp.host\":\"tcp://localhost\",\"lmcache.mp.port\":8750}}]}}'\n"
		     "  decode:\n    nodes: colocate\n    workers: 1\n    gpus: 1\n"
		     "services:\n  - name: lmcache\n    type: lmcache-server\n"
		     "    placement: {node: prefill}\n    env: {PYTHONHASHSEED: \"0\"}\n"
		     "    args: [--l1-size-gb, \"16\", --chunk-size, \"256\", --eviction-policy, LRU]\n"
		     "    preamble: |\n      ulimit -l unlimited\n"
		     "benchmark: {type: sa-bench, isl: 128, osl: 128, concurrencies: \"4x8\"}\n");
	/* SGLang + enable-lmcache with a server on the agg nodes */
	expect_clean(HEAD "frontend: {type: sglang, enable_multiple_frontends: false}\n"
		     "engine: sglang\nroles:\n  agg:\n    nodes: 1\n    workers: 1\n    gpus: 1\n"
		     "    args: {enable-lmcache: true, served-model-name: q}\n"
		     "services:\n  - {name: lmcache-server, type: lmcache-server, placement: {node: agg},\n"
		     "     args: [--l1-size-gb, \"8\", --eviction-policy, LRU]}\n");
	/* ATOM P/D with lmcache_offload and lmcache_mp, server on every worker node */
	expect_clean(HEAD "engine: {type: atom, mooncake_protocol: tcp}\n"
		     "frontend: {type: atomesh}\n"
		     "roles:\n  prefill:\n    nodes: 1\n    workers: 1\n    gpus: 8\n    args:\n"
		     "      extra-kv-connectors:\n"
		     "        - {kv_connector: lmcache_offload, kv_role: offload, lmcache.local_cpu: true}\n"
		     "        - {kv_connector: lmcache_mp, kv_role: kv_both}\n"
		     "  decode:\n    nodes: 1\n    workers: 1\n    gpus: 8\n"
		     "services:\n  - {name: cache, type: lmcache-server, args: [--l1-size-gb, \"8\", --eviction-policy, LRU]}\n");
	/* generic services: readiness forms, per: worker with a log probe, a pool */
	expect_clean(HEAD AGG("vllm")
		     "services:\n"
		     "  - name: web\n    command: [python3, -m, http.server, \"9911\"]\n"
		     "    readiness: {http: {port: 9911, path: /}, timeout_seconds: 60}\n"
		     "  - name: tail\n    command: [sleep, inf]\n"
		     "    placement: {node: agg, per: worker}\n"
		     "    readiness: {log: {pattern: 'ready \\(\\d+\\)'}}\n"
		     "  - {name: ray, type: ray, nodes: 2, options: {port: 7000, num_gpus: 4}}\n"
		     "  - {name: sandbox, command: [run], placement: {pool: ray}}\n"
		     "  - {name: etcd, enabled: false}\n"
		     "  - {name: my-etcd, type: etcd, external: http://10.0.0.5:2379}\n");
	/* colocate that fits exactly; whole-node workers that fit */
	expect_clean(HEAD "engine: vllm\nroles:\n  prefill: {nodes: 1, workers: 1, gpus: 4}\n"
		     "  decode: {nodes: colocate, workers: 2, gpus: 2}\n");
	expect_clean(HEAD "engine: vllm\nroles:\n  agg: {nodes: 4, workers: 2, gpus: 16}\n");
	/* a sweep placeholder stands for any type */
	expect_clean(HEAD "sweep:\n  tp: [1, 2]\n" "engine: vllm\nroles:\n  agg:\n    nodes: 1\n"
		     "    workers: 1\n    gpus: \"{tp}\"\n");
}

/* ---- schema --------------------------------------------------------------- */

static void test_schema_rules(void **state)
{
	(void)state;
	const char *h = expect(HEAD "engine: vllm\nroles:\n  agg:\n    nodse: 1\n", "unknown-field",
			       DIAG_ERROR, "unknown field 'nodse' in roles.agg", "roles.agg.nodse", 12);
	assert_string_equal(h, "did you mean 'nodes'?");
	h = expect(HEAD AGG("vllm") "servics: []\n", "unknown-field", DIAG_ERROR,
		   "unknown field 'servics' in the top level", "servics", 15);
	assert_string_equal(h, "did you mean 'services'?");
	/* a misspelt section prefix of an override file */
	h = expect("base: {name: b}\noverride-tp2: {}\n", "unknown-field", DIAG_ERROR,
		   "unknown field 'override-tp2' in the top level of an override file", "override-tp2", 2);
	assert_string_equal(h, "did you mean 'override_tp2'?");
	h = expect("base: {name: b}\nzip_overide_ctx: {}\n", "unknown-field", DIAG_ERROR,
		   "unknown field 'zip_overide_ctx' in the top level of an override file",
		   "zip_overide_ctx", 2);
	assert_string_equal(h, "did you mean 'zip_override_ctx'?");
	h = expect(HEAD "engine:\n  type: sglang\n  connector: nixl\nroles:\n  agg: {nodes: 1}\n",
		   "unknown-field", DIAG_ERROR,
		   "unknown field 'connector' in engine (engine type 'sglang')", "engine.connector", 11);
	assert_string_equal(h, "'connector' is an option of another engine type, not of sglang");
	expect(HEAD "engine: vllm\nroles:\n  agg:\n    nodes: 1\n    workers: 1\n    gpus: two\n",
	       "wrong-type", DIAG_ERROR,
	       "roles.agg.gpus must be an integer or null; got the string 'two'", "roles.agg.gpus", 14);
	expect(HEAD "engine: vllm\nroles:\n  agg:\n    nodes: many\n", "wrong-type", DIAG_ERROR,
	       "roles.agg.nodes must be an integer, 'colocate' or null; got the string 'many'",
	       "roles.agg.nodes", 12);
	h = expect(HEAD AGG("vllm") "environment:\n  PYTHONUNBUFFERED: 1\n", "wrong-type", DIAG_ERROR,
		   "environment.PYTHONUNBUFFERED must be a string; got 1",
		   "environment.PYTHONUNBUFFERED", 16);
	assert_string_equal(h, "write it in quotes so YAML reads a string, e.g. \"1\" or \"true\"");
	h = expect(HEAD AGG("vllm") "dynamo:\n  request_plane: tpc\n", "bad-value", DIAG_ERROR,
		   "dynamo.request_plane must be one of nats, tcp, http; got 'tpc'",
		   "dynamo.request_plane", 16);
	assert_string_equal(h, "did you mean 'tcp'?");
	expect(HEAD AGG("vlm"), "wrong-type", DIAG_ERROR,
	       "engine must be 'atom' or 'sglang' or 'tilert' or 'tokenspeed' or 'trtllm' or 'vllm' or 'mocker', a mapping or null; got the string 'vlm'",
	       "engine", 9);
	expect(HEAD AGG("vllm") "frontend:\n  type: dynamoo\n", "unknown-value", DIAG_WARNING,
	       "frontend.type must be one of dynamo, sglang-router, vllm-router, smg, llm-d, atomesh, tilert-router, sglang, vllm, trtllm_serve, atom, none, sgl-router; got 'dynamoo'",
	       "frontend.type", 16);
	/* the hint names the full path and a value to give, not a YAML line */
	h = expect("schema: 2\nname: t\nmodel:\n  path: m\n  container: c\nresources: {}\n" AGG("vllm"),
		   "missing-field", DIAG_ERROR, "model.precision is required", "model", 0);
	assert_string_equal(h, "add model.precision (e.g. bf16)");
	h = expect("schema: 2\nmodel: {path: m, container: c, precision: bf16}\nresources: {}\n" AGG("vllm"),
		   "missing-field", DIAG_ERROR, "name is required", "", 0);
	assert_string_equal(h, "add name (e.g. my-job)");
	h = expect(HEAD AGG("vllm") "services:\n  - name: a\n    type: generic\n    command: x\n"
		   "    readiness: {tcp: {}}\n",
		   "missing-field", DIAG_ERROR, "services[a].readiness.tcp.port is required",
		   "services[a].readiness.tcp", 0);
	assert_string_equal(h, "add services[a].readiness.tcp.port (e.g. 8080)");
	h = expect("name: t\nmodel: {path: m, container: c, precision: bf16}\nresources: {}\n" AGG("vllm"),
		   "schema-missing", DIAG_ERROR,
		   "no 'schema: 2': this is a pre-2.0 recipe, which srtctl refuses", "", 0);
	assert_non_null(strstr(h, "srtctl migrate"));
	expect("schema: 3\nname: t\nmodel: {path: m, container: c, precision: bf16}\nresources: {}\n" AGG("vllm"),
	       "schema-version", DIAG_ERROR, "schema must be 2; got 3", "schema", 1);
	h = expect(HEAD AGG("vllm") "backend:\n  type: vllm\n", "unknown-field", DIAG_ERROR,
		   "unknown field 'backend' in the top level", "backend", 15);
	assert_non_null(strstr(h, "pre-2.0"));
	/* override files: base is checked without required keys; sections are mappings */
	expect("base:\n  name: t\n  roles:\n    agg:\n      nodse: 1\noverride_a:\n  name: u\n",
	       "unknown-field", DIAG_ERROR, "unknown field 'nodse' in base.roles.agg",
	       "base.roles.agg.nodse", 5);
	expect("base:\n  name: t\noverride_a: 5\n", "wrong-type", DIAG_ERROR,
	       "override_a must be a mapping", "override_a", 3);
	expect("base:\n  name: t\nbsae: {}\n", "unknown-field", DIAG_ERROR,
	       "unknown field 'bsae' in the top level of an override file", "bsae", 3);
	expect_clean("schema: 2\nbase:\n  name: t\n  engine: vllm\nzip_override_g:\n  name: [a, b]\n");
}

/* ---- roles, topology, engines ------------------------------------------------ */

static void test_role_rules(void **state)
{
	(void)state;
	const char *h = expect(HEAD "engine: vllm\nroles:\n  aggregate:\n    nodes: 1\n", "role-name",
			       DIAG_ERROR, "roles.aggregate: role names are prefill, decode and agg",
			       "roles.aggregate", 11);
	assert_string_equal(h, "did you mean 'agg'?");
	expect(HEAD PD("vllm") "  agg: {nodes: 1}\n", "role-mix", DIAG_ERROR,
	       "roles has both agg and prefill/decode: a recipe is either aggregated or disaggregated",
	       "roles.agg", 19);
	expect(HEAD "engine: vllm\nroles:\n  prefill:\n    nodes: 1\n", "role-pair", DIAG_ERROR,
	       "roles.prefill needs roles.decode: a disaggregated recipe has both", "roles.prefill", 11);
	expect(HEAD "engine: vllm\n", "no-roles", DIAG_ERROR, "the recipe has no worker roles", "", 0);
	expect(HEAD AGG("vllm") "frontend: {type: none}\n", "frontend-none-roles", DIAG_ERROR,
	       "frontend.type: none runs services only and takes no engine roles", "frontend.type", 15);
	expect_no(HEAD "frontend: {type: none}\nservices:\n  - {name: job, command: [run], terminal: true}\n",
		  "no-roles");
	expect(HEAD "engine: vllm\nroles:\n  agg:\n    nodes: colocate\n", "colocate-role", DIAG_ERROR,
	       "roles.agg.nodes: colocate is only valid on decode", "roles.agg.nodes", 12);
	expect(HEAD "engine: vllm\nroles:\n  prefill: {nodes: 1, workers: 1}\n"
		    "  decode: {nodes: colocate, workers: 1, gpus: 2}\n",
	       "colocate-gpus", DIAG_ERROR,
	       "roles.decode.nodes: colocate requires gpus on both prefill and decode; roles.prefill has none",
	       "roles.prefill", 11);
	expect(HEAD "engine: vllm\nroles:\n  prefill: {nodes: 1, workers: 1, gpus: 6}\n"
		    "  decode: {nodes: colocate, workers: 1, gpus: 4}\n",
	       "colocate-fit", DIAG_ERROR,
	       "roles.decode: colocated decode needs 4 GPUs (1 x 4) but the prefill nodes have 2 free (1 x 8 - 1 x 6)",
	       "roles.decode.nodes", 12);
	h = expect(HEAD "engine: vllm\nroles:\n  agg:\n    nodes: 1\n    workers: 3\n    gpus: 4\n",
		   "role-fit", DIAG_ERROR, "roles.agg: 3 workers x 4 GPUs need 2 nodes of 8 GPUs; nodes is 1",
		   "roles.agg.nodes", 12);
	assert_string_equal(h, "raise roles.agg.nodes to 2, or lower workers or gpus");
	expect("schema: 2\nname: t\nmodel: {path: m, container: c, precision: bf16}\n"
	       "resources:\n  gpus_per_node: 8\n  spread_workers: true\n" "engine: vllm\nroles:\n  agg: {nodes: 1, workers: 2, gpus: 1}\n",
	       "role-fit", DIAG_ERROR, "roles.agg: 2 workers x 1 GPU need 2 nodes of 8 GPUs; nodes is 1",
	       "roles.agg.nodes", 0);
	expect(HEAD "engine: vllm\nroles:\n  agg:\n    engine: vllm\n    nodes: 1\n", "engine-mixed",
	       DIAG_ERROR, "roles.agg.engine cannot be combined with a top-level engine",
	       "roles.agg.engine", 12);
	expect(HEAD "roles:\n  prefill:\n    engine: vllm\n    nodes: 1\n  decode:\n    nodes: 1\n",
	       "engine-missing", DIAG_ERROR,
	       "roles.decode has no engine: without a top-level engine every role sets its own",
	       "roles.decode", 13);
	expect(HEAD "roles:\n  agg:\n    nodes: 1\n", "engine-missing", DIAG_ERROR,
	       "the recipe names no engine", "roles", 9);
	expect_clean(HEAD "roles:\n  prefill:\n    engine: vllm\n    nodes: 1\n"
		     "  decode:\n    engine: {type: vllm, connector: nixl}\n    nodes: 1\n");
}

static void test_atom_rules(void **state)
{
	(void)state;
	expect(HEAD AGG("atom"), "atom-frontend", DIAG_ERROR,
	       "backend.type: atom requires frontend.type: atomesh or atom (got 'dynamo')", "frontend.type", 0);
	/* ATOM's direct frontend: one aggregate worker on the public port */
	expect_clean(HEAD AGG("atom") "frontend: {type: atom, enable_multiple_frontends: false}\n");
	expect(HEAD AGG("atom") "    args:\n      tp: 2\n" "frontend: {type: atomesh}\n", "atom-reserved-arg",
	       DIAG_ERROR, "ATOM config cannot override srtctl-managed argument(s): ['tp']",
	       "roles.agg.args", 15);
	expect(HEAD AGG("atom") "    args:\n      --model: x\n      tensor_parallel_size: 2\n      max-model-len: 9\n"
			    "frontend: {type: atomesh}\n",
	       "atom-reserved-arg", DIAG_ERROR,
	       "ATOM config cannot override srtctl-managed argument(s): ['model', 'tensor-parallel-size']",
	       "roles.agg.args", 15);
	expect(HEAD "engine: atom\nfrontend: {type: atomesh}\nroles:\n  agg:\n    nodes: 2\n    gpus: 16\n",
	       "atom-endpoint-fit", DIAG_ERROR,
	       "ATOM currently requires each logical endpoint to fit on one Slurm node", "roles.agg.gpus", 14);
	expect(HEAD AGG("atom") "    sidecar: true\n" "frontend: {type: atomesh}\n", "atom-sidecar",
	       DIAG_ERROR, "ATOM does not support Dynamo sidecars", "roles.agg.sidecar", 15);
}

static void test_misc_rules(void **state)
{
	(void)state;
	expect(HEAD "engine: vllm\nroles:\n  prefill: {nodes: 1, sidecar: true}\n  decode: {nodes: 1}\n",
	       "sidecar-mixed", DIAG_ERROR, "roles.prefill.sidecar: every role must agree on sidecar mode",
	       "roles.prefill.sidecar", 11);
	expect(HEAD "engine: {type: vllm, failover: {shadow_engines: 1}}\nfrontend: {type: vllm-router}\n"
		    "roles:\n  agg: {nodes: 1}\n",
	       "failover-frontend", DIAG_ERROR, "engine.failover needs frontend.type: dynamo (got 'vllm-router')",
	       "engine.failover", 9);
	expect(HEAD AGG("vllm") "dynamo:\n  source:\n    pypi: \"1.4.2\"\n    wheel: x\n", "dynamo-source",
	       DIAG_ERROR, "dynamo.source needs exactly one of git+rev, pypi or wheel; got several",
	       "dynamo.source", 16);
	expect(HEAD AGG("vllm") "dynamo:\n  source:\n    git: https://x\n", "dynamo-source", DIAG_ERROR,
	       "dynamo.source.git needs rev", "dynamo.source.git", 17);
}

/* Every required key's "add ..." hint carries an example value. */
static void test_required_examples(void **state)
{
	(void)state;
	for (size_t i = 0; i < schema_fields_count; i++) {
		const struct schema_field *f = &schema_fields[i];
		if ((f->flags & SF_REQUIRED) && strcmp(f->path, "schema") && !vschema_example(f))
			fail_msg("required field '%s' has no example for its hint", f->path);
	}
}

/* ---- connectors -------------------------------------------------------------- */

static void test_connector_rules(void **state)
{
	(void)state;
	expect(HEAD PD("{type: vllm, connector: moriio}"), "moriio-frontend", DIAG_ERROR,
	       "connector 'moriio' registers workers with the vLLM Router and needs the worker topology; it is only available with frontend.type: vllm-router",
	       "engine.connector", 9);
	expect_no(HEAD PD("{type: vllm, connector: moriio}") "frontend: {type: vllm-router}\n",
		  "moriio-frontend");
	const char *h = expect(HEAD AGG("vllm") "    args:\n      connector: lmcache_mp\n", "kv-json",
			       DIAG_ERROR,
			       "roles.agg.args.connector is neither a connector preset nor valid JSON: *",
			       "roles.agg.args.connector", 16);
	assert_string_equal(h, "did you mean the preset 'lmcache-mp'?");
	h = expect(HEAD AGG("vllm") "    args:\n      connector: '{\"kv_connector\": \"NixlConnector\",}'\n",
		   "kv-json", DIAG_ERROR,
		   "roles.agg.args.connector is neither a connector preset nor valid JSON: *",
		   "roles.agg.args.connector", 16);
	/* the presets named are render/connector's list, the one the editor offers */
	assert_string_equal(h, "use a preset (nixl, lmcache-mp, lmcache, kvbm, moriio) or a JSON object "
			       "such as {\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}");
	expect(HEAD AGG("vllm") "    args:\n      connector: '[1]'\n", "kv-json", DIAG_ERROR,
	       "roles.agg.args.connector is JSON but not a kv-transfer-config object with a \"kv_connector\"",
	       "roles.agg.args.connector", 16);
	expect(HEAD AGG("vllm") "    args:\n      connector: '{\"kv_connector\":\"MultiConnector\",\"kv_role\":\"kv_both\"}'\n",
	       "kv-multi-connector", DIAG_ERROR,
	       "roles.agg.args.connector: a MultiConnector needs kv_connector_extra_config.connectors, a non-empty list of connector objects each with a \"kv_connector\"",
	       "roles.agg.args.connector", 16);
	expect_no(HEAD AGG("vllm") "    args:\n      connector: NIXL\n", "kv-json");
	expect_no(HEAD AGG("vllm") "    args:\n      connector: none\n", "kv-json");
	expect(HEAD AGG("vllm") "    args:\n      kv-transfer-config: '{}'\n", "kv-transfer-config-arg",
	       DIAG_WARNING,
	       "roles.agg.args.kv-transfer-config is passed as a second --kv-transfer-config next to the connector's",
	       "roles.agg.args.kv-transfer-config", 16);
	expect(HEAD AGG("{type: vllm, connector: lmcache-mp}") "frontend: {type: vllm}\n",
	       "lmcache-mp-direct-agg", DIAG_WARNING,
	       "frontend.type: vllm drops the connector of an aggregated worker, so the lmcache-server starts but no worker uses it",
	       "engine.connector", 9);
	/* a declared server elsewhere suppresses the implied one: prefill has none */
	h = expect(HEAD "engine: vllm\nroles:\n  prefill:\n    nodes: 1\n    args: {connector: lmcache-mp}\n"
		   "  decode:\n    nodes: 1\n"
		   "services:\n  - {name: cache, type: lmcache-server, placement: {node: decode}}\n",
		   "lmcache-no-server", DIAG_ERROR,
		   "roles.prefill uses LMCache MP (connector lmcache-mp) but no lmcache-server runs on its nodes",
		   "roles.prefill.args.connector", 13);
	assert_non_null(strstr(h, "placement: {node: prefill}"));
	expect_no(HEAD PD("vllm") "    args: {connector: lmcache-mp}\n", "lmcache-no-server");
	/* a generic service that took the implied server's name runs no server */
	h = expect(HEAD AGG("{type: vllm, connector: lmcache-mp}")
		    "services:\n  - {name: lmcache-server, command: [sleep, inf]}\n",
	       "lmcache-no-server", DIAG_ERROR,
	       "roles.agg uses LMCache MP (connector lmcache-mp) but no lmcache-server runs on its nodes",
	       "engine.connector", 9);
	assert_string_equal(h, "services[lmcache-server] is of type 'generic' and took the implied server's place: set type: lmcache-server, or rename it");
	expect(HEAD "engine: sglang\nroles:\n  agg:\n    nodes: 1\n    args:\n      enable-lmcache: true\n",
	       "lmcache-no-server", DIAG_ERROR,
	       "roles.agg uses LMCache MP (enable-lmcache dials 127.0.0.1:8750) but no lmcache-server runs on its nodes",
	       "roles.agg.args.enable-lmcache", 14);
	expect_no(HEAD "engine: sglang\nroles:\n  agg:\n    nodes: 1\n    args:\n      enable-lmcache: true\n"
		  "    env: {LMCACHE_MP_HOST: 10.0.0.9}\n", "lmcache-no-server");
	expect_no(HEAD "engine: sglang\nroles:\n  agg:\n    nodes: 1\n    args:\n      enable_lmcache: true\n"
		  "      lmcache-config-file: /x.yaml\n", "lmcache-no-server");
	/* a loopback LMCACHE_MP_HOST still dials this node: a server must run here */
	expect(HEAD "engine: sglang\nroles:\n  agg:\n    nodes: 1\n    args:\n      enable-lmcache: true\n"
		    "    env: {LMCACHE_MP_HOST: 127.0.0.1}\n",
	       "lmcache-no-server", DIAG_ERROR,
	       "roles.agg uses LMCache MP (enable-lmcache dials 127.0.0.1:8750) but no lmcache-server runs on its nodes",
	       "roles.agg.args.enable-lmcache", 14);
	expect(HEAD "engine: sglang\nroles:\n  agg:\n    nodes: 1\n    args:\n      enable-lmcache: true\n"
		    "environment: {LMCACHE_MP_HOST: localhost}\n",
	       "lmcache-no-server", DIAG_ERROR, "roles.agg uses LMCache MP*",
	       "roles.agg.args.enable-lmcache", 14);
	/* the top-level environment wins over the role's: its remote host counts */
	expect_no(HEAD "engine: sglang\nroles:\n  agg:\n    nodes: 1\n    args:\n      enable-lmcache: true\n"
		  "    env: {LMCACHE_MP_HOST: 127.0.0.1}\n"
		  "environment: {LMCACHE_MP_HOST: cache.example.com}\n", "lmcache-no-server");
	/* a server on prefill only leaves a decode role without one; colocated
	 * decode shares the prefill nodes; workers, compute and all cover both */
	{
		static const char *const covers[] = { "workers", "compute", "all" };
#define SG_PD(decode_nodes, place)                                                                \
	HEAD "engine: sglang\nfrontend: {type: sglang-router, enable_multiple_frontends: false}\n"   \
	     "roles:\n  prefill: {nodes: 1, workers: 1, gpus: 4, args: {enable-lmcache: true}}\n"   \
	     "  decode: {nodes: " decode_nodes ", workers: 1, gpus: 4, args: {enable-lmcache: true}}\n" \
	     "services:\n  - {name: cache, type: lmcache-server, placement: {node: " place "}}\n"
		expect(SG_PD("1", "prefill"), "lmcache-no-server", DIAG_ERROR,
		       "roles.decode uses LMCache MP (enable-lmcache dials 127.0.0.1:8750) but no lmcache-server runs on its nodes",
		       "roles.decode.args.enable-lmcache", 13);
		expect_no(SG_PD("colocate", "prefill"), "lmcache-no-server");
		expect_no(SG_PD("colocate", "decode"), "lmcache-no-server");
		char yaml[2048];
		for (size_t i = 0; i < 3; i++) {
			snprintf(yaml, sizeof(yaml), SG_PD("1", "%s"), covers[i]);
			expect_no(yaml, "lmcache-no-server");
		}
#undef SG_PD
	}
	expect(HEAD "engine: atom\nfrontend: {type: atomesh}\nroles:\n  agg:\n    nodes: 1\n    args:\n"
		    "      extra-kv-connectors:\n        - {kv_connector: lmcache_mp, kv_role: kv_both}\n",
	       "lmcache-no-server", DIAG_ERROR,
	       "roles.agg uses LMCache MP (an extra-kv-connectors entry lmcache_mp) but no lmcache-server runs on its nodes",
	       "roles.agg.args.extra-kv-connectors[0]", 16);
	expect_no(HEAD "engine: atom\nfrontend: {type: atomesh}\nroles:\n  agg:\n    nodes: 1\n    args:\n"
		  "      extra-kv-connectors:\n        - kv_connector: lmcache_mp\n"
		  "          kv_connector_extra_config: {lmcache.mp.server_urls: 'tcp://10.0.0.9:8750'}\n",
		  "lmcache-no-server");
	expect(HEAD "engine: atom\nfrontend: {type: atomesh}\nroles:\n  agg:\n    nodes: 1\n    args:\n"
		    "      extra-kv-connectors:\n        - {kv_role: offload}\n",
	       "atom-kv-entry", DIAG_ERROR, "roles.agg.args.extra-kv-connectors[0] has no kv_connector",
	       "roles.agg.args.extra-kv-connectors[0]", 16);
	h = expect(HEAD "engine: atom\nfrontend: {type: atomesh}\nroles:\n  agg:\n    nodes: 1\n    args:\n"
		   "      extra_kv_connectors:\n        - {kv_connector: lmcache_offload}\n",
		   "atom-kv-spelling", DIAG_ERROR,
		   "roles.agg.args.extra_kv_connectors is not read by srtctl: the key is spelled extra-kv-connectors",
		   "roles.agg.args.extra_kv_connectors", 15);
	assert_non_null(strstr(h, "--extra_kv_connectors"));
	expect(HEAD AGG("vllm") "    args:\n      extra-kv-connectors: []\n", "kv-connectors-engine",
	       DIAG_WARNING,
	       "roles.agg.args.extra-kv-connectors is only read for ATOM; engine 'vllm' gets it as a plain flag",
	       "roles.agg.args.extra-kv-connectors", 16);
	expect(HEAD AGG("sglang") "    args:\n      connector: lmcache-mp\n", "lmcache-mp-engine",
	       DIAG_ERROR, "connector lmcache-mp is a vLLM connector; engine 'sglang' does not read it",
	       "roles.agg.args.connector", 16);
	expect(HEAD AGG("sglang") "    args:\n      connector: nixl\n", "connector-engine", DIAG_WARNING,
	       "roles.agg.args.connector is only read by vLLM; engine 'sglang' gets it as a plain --connector flag",
	       "roles.agg.args.connector", 16);
}

/* ---- services: srtctl's load-time rules ------------------------------------------ */

#define SVC HEAD AGG("vllm") "services:\n" /* services start on line 16 */

static void test_service_rules(void **state)
{
	(void)state;
	expect(SVC "  - command: [x]\n", "service-name", DIAG_ERROR,
	       "services[].name must be a non-empty string", "services[0]", 16);
	expect(SVC "  - {name: \"  \", command: [x]}\n", "service-name", DIAG_ERROR,
	       "services[].name must be a non-empty string", "services[0].name", 16);
	expect(SVC "  - {name: a, command: [x]}\n  - {name: a, command: [y]}\n", "service-name-unique",
	       DIAG_ERROR, "services[a].name must be unique", "services[1].name", 17);
	const char *h = expect(SVC "  - {name: c, type: lmcache_server}\n", "service-type", DIAG_ERROR,
			       "services[c].type 'lmcache_server' is not a known service type (known: dcgm-exporter, etcd, generic, gms, lmcache-server, mooncake-donor, mooncake-master, mooncake-store, nats, node-exporter, process-exporter, ray)",
			       "services[c].type", 16);
	assert_string_equal(h, "did you mean 'lmcache-server'?");
	expect(SVC "  - {name: a, command: []}\n", "service-command", DIAG_ERROR,
	       "services[a].command, if set, must be non-empty (omit it to use the type's default)",
	       "services[a].command", 16);
	expect(SVC "  - name: a\n", "service-command", DIAG_ERROR,
	       "services[a].command is required for type 'generic'", "services[a]", 16);
	expect(SVC "  - {name: a, command: [x, \"\"]}\n", "service-empty-arg", DIAG_ERROR,
	       "services[a].command/args must not contain empty arguments", "services[a].command", 16);
	expect(SVC "  - {name: a, command: [x], build_command: []}\n", "service-build-command", DIAG_ERROR,
	       "services[a].build_command, if set, must be non-empty (omit it entirely instead)",
	       "services[a].build_command", 16);
	expect(SVC "  - name: a\n    command: [x]\n    source: {git: g, rev: r}\n    build_command: [make]\n"
		   "    placement: {node: workers}\n",
	       "service-source-placement", DIAG_ERROR,
	       "services[a].source requires a single-node placement (head or infra); got placement.node='workers'",
	       "services[a].source", 18);
	expect(SVC "  - name: a\n    command: [x]\n    source: {git: g, rev: r}\n", "service-source-build",
	       DIAG_WARNING, "services[a].source is set without build_command", "services[a].source", 18);
	h = expect(SVC "  - {name: a, command: [x], start: before_worker}\n", "service-start", DIAG_ERROR,
		   "services[a].start must be one of infra, before_workers, with_workers, after_frontend; got 'before_worker'",
		   "services[a].start", 16);
	assert_string_equal(h, "did you mean 'before_workers'?");
	expect(SVC "  - {name: a, command: [x], cpus_per_task: 0}\n", "service-positive", DIAG_ERROR,
	       "services[a].cpus_per_task must be positive", "services[a].cpus_per_task", 16);
	expect(SVC "  - {name: a, command: [x], build_timeout_seconds: -1}\n", "service-positive",
	       DIAG_ERROR, "services[a].build_timeout_seconds must be positive",
	       "services[a].build_timeout_seconds", 16);
	expect(SVC "  - {name: e, type: etcd, external: \" \"}\n", "service-external", DIAG_ERROR,
	       "services[e].external must be a non-empty endpoint", "services[e].external", 16);
	expect(SVC "  - {name: a, command: [x], external: http://h:1}\n", "service-external", DIAG_ERROR,
	       "services[a].external is only valid for discovery-plane kinds, not 'generic'",
	       "services[a].external", 16);
	expect(SVC "  - {name: a, command: [x], placement: {node: dedicated}}\n", "placement-dedicated",
	       DIAG_ERROR,
	       "services[a].placement.node: dedicated is only supported for infra-class kinds (etcd, nats, mooncake-master); use head, infra, or workers for type 'generic'",
	       "services[a].placement.node", 16);
	expect(SVC "  - {name: n, type: nats, options: {max_payload: 8, b: 1}}\n", "service-options",
	       DIAG_ERROR, "services[n].options has keys type 'nats' does not understand: b, max_payload",
	       "services[n].options", 16);
	h = expect(SVC "  - {name: a, command: [x], placement: {node: worker}}\n", "placement-node",
		   DIAG_ERROR,
		   "services[].placement.node must be one of head, infra, dedicated, prefill, decode, agg, workers, compute, all; got 'worker'",
		   "services[a].placement.node", 16);
	assert_string_equal(h, "did you mean 'workers'?");
	expect(SVC "  - {name: a, command: [x], placement: {node: agg, per: gpu}}\n", "placement-per",
	       DIAG_ERROR, "services[].placement.per must be one of node, worker; got 'gpu'",
	       "services[a].placement.per", 16);
	expect(SVC "  - name: a\n    command: [x]\n    placement: {per: worker}\n    readiness: {log: {pattern: x}}\n",
	       "placement-per-node", DIAG_ERROR,
	       "services[].placement.per: worker needs placement.node in prefill, decode, agg, workers; got 'head'",
	       "services[a].placement.per", 18);
	expect(SVC "  - name: a\n    command: [x]\n    placement: {node: agg, per: worker}\n    readiness: {port: 9000}\n",
	       "per-worker-probe", DIAG_ERROR,
	       "services[a].placement.per: worker instances share their node's ports, so readiness must be a log probe",
	       "services[a].readiness", 19);
	/* a node outside the list is one error, not also a per: worker one */
	expect_no(SVC "  - name: a\n    command: [x]\n    placement: {node: worker, per: worker}\n"
		      "    readiness: {log: {pattern: x}}\n", "placement-per-node");
	/* a role the recipe lacks: srtctl skips the service with a warning */
	expect(SVC "  - {name: a, command: [x], placement: {node: prefill}}\n", "placement-no-nodes",
	       DIAG_WARNING,
	       "services[a]: placement.node=prefill selects no nodes in this allocation; skipping",
	       "services[a].placement.node", 16);
	expect(SVC "  - name: a\n    command: [x]\n    placement: {node: decode, per: worker}\n"
		   "    readiness: {log: {pattern: x}}\n", "placement-no-nodes", DIAG_WARNING,
	       "services[a]: placement selects no workers in this allocation; skipping",
	       "services[a].placement.node", 18);
	expect_no(SVC "  - {name: a, command: [x], placement: {node: agg}}\n", "placement-no-nodes");
	expect(SVC "  - {name: a, command: [x], placement: {pool: ray}}\n", "placement-pool", DIAG_ERROR,
	       "services[a].placement.pool: no service named 'ray' owns nodes",
	       "services[a].placement.pool", 16);
}

static void test_readiness_rules(void **state)
{
	(void)state;
	expect(SVC "  - name: a\n    command: [x]\n    readiness: {port: 1, tcp: {port: 1}}\n",
	       "readiness-probe", DIAG_ERROR,
	       "services[].readiness: give either port (shorthand) or tcp, not both",
	       "services[a].readiness", 18);
	expect(SVC "  - name: a\n    command: [x]\n    readiness: {timeout_seconds: 5}\n", "readiness-probe",
	       DIAG_ERROR, "services[].readiness needs exactly one probe: port, tcp, http, log, or file; got none",
	       "services[a].readiness", 18);
	expect(SVC "  - name: a\n    command: [x]\n    readiness: {http: {port: 8}, log: {pattern: x}}\n",
	       "readiness-probe", DIAG_ERROR,
	       "services[].readiness needs exactly one probe: port, tcp, http, log, or file; got http, log",
	       "services[a].readiness", 18);
	expect(SVC "  - name: a\n    command: [x]\n    readiness: {tcp: {port: 70000}}\n", "readiness-port",
	       DIAG_ERROR, "readiness.tcp.port must be between 1 and 65535", "services[a].readiness.tcp.port",
	       18);
	expect(SVC "  - name: a\n    command: [x]\n    readiness: {http: {port: 0}}\n", "readiness-port",
	       DIAG_ERROR, "readiness.http.port must be between 1 and 65535",
	       "services[a].readiness.http.port", 18);
	expect(SVC "  - name: a\n    command: [x]\n    readiness: {http: {port: 8, path: health}}\n",
	       "readiness-http-path", DIAG_ERROR, "readiness.http.path must start with '/'",
	       "services[a].readiness.http.path", 18);
	expect(SVC "  - name: a\n    command: [x]\n    readiness: {http: {port: 8, status: 700}}\n",
	       "readiness-http-status", DIAG_ERROR, "readiness.http.status must be an HTTP status code",
	       "services[a].readiness.http.status", 18);
	expect(SVC "  - name: a\n    command: [x]\n    readiness: {log: {pattern: 'ready ('}}\n",
	       "readiness-log-pattern", DIAG_ERROR,
	       "readiness.log.pattern is not a valid regular expression: missing ), unterminated subpattern",
	       "services[a].readiness.log.pattern", 18);
	expect(SVC "  - name: a\n    command: [x]\n    readiness: {log: {pattern: '[ab'}}\n",
	       "readiness-log-pattern", DIAG_ERROR,
	       "readiness.log.pattern is not a valid regular expression: unterminated character set",
	       "services[a].readiness.log.pattern", 18);
	expect(SVC "  - name: a\n    command: [x]\n    readiness: {port: 8, timeout_seconds: 0}\n",
	       "readiness-timing", DIAG_ERROR, "services[].readiness.timeout_seconds must be positive",
	       "services[a].readiness.timeout_seconds", 18);
	expect(SVC "  - name: a\n    command: [x]\n    readiness: {port: 8, interval_seconds: -2}\n",
	       "readiness-timing", DIAG_ERROR, "services[].readiness.interval_seconds must be positive",
	       "services[a].readiness.interval_seconds", 18);
}

static void test_port_clash(void **state)
{
	(void)state;
	expect(SVC "  - {name: a, command: [x], readiness: {port: 9000}}\n"
		   "  - {name: b, command: [y], readiness: {http: {port: 9000}}}\n",
	       "service-port-clash", DIAG_ERROR,
	       "services[a] and services[b] both listen on port 9000 on node head; give them disjoint placements or ports",
	       "services[b]", 17);
	/* a second etcd next to the implied one (Dynamo) clashes on 2379 */
	expect(SVC "  - {name: my-etcd, type: etcd}\n", "service-port-clash", DIAG_ERROR,
	       "services[etcd] and services[my-etcd] both listen on port 2379 on node infra; give them disjoint placements or ports",
	       "services[my-etcd]", 16);
	/* different roles' nodes do not overlap; a colocated decode does */
	expect_no(HEAD PD("vllm") "services:\n"
		  "  - {name: a, command: [x], placement: {node: prefill}, readiness: {port: 9000}}\n"
		  "  - {name: b, command: [y], placement: {node: decode}, readiness: {port: 9000}}\n",
		  "service-port-clash");
	expect(HEAD "engine: vllm\nroles:\n  prefill: {nodes: 1, workers: 1, gpus: 1}\n"
		    "  decode: {nodes: colocate, workers: 1, gpus: 1}\nservices:\n"
		    "  - {name: a, command: [x], placement: {node: prefill}, readiness: {port: 9000}}\n"
		    "  - {name: b, command: [y], placement: {node: decode}, readiness: {port: 9000}}\n",
	       "service-port-clash", DIAG_ERROR,
	       "services[a] and services[b] both listen on port 9000 on node prefill; give them disjoint placements or ports",
	       "services[b]", 15);
	/* workers overlaps every role; a log probe listens on nothing */
	expect_no(SVC "  - {name: a, command: [x], placement: {node: workers}, readiness: {port: 9000}}\n"
		  "  - {name: b, command: [y], placement: {node: agg}, readiness: {log: {pattern: x}}}\n",
		  "service-port-clash");
}

/* ---- srt-tui's stricter lmcache-server rules ----------------------------------------- */

/* srtctl's ray kind (services/ray.py validate, SemiAnalysisAI/srt-slurm@4c4b3aa):
 * head, workers or all only; no command; positive integer options. */
static void test_ray_rules(void **state)
{
	(void)state;
	expect(SVC "  - {name: r, type: ray, placement: {node: agg}}\n", "ray-placement", DIAG_ERROR,
	       "services[r] (type ray) must be placed on head, workers or all; got 'agg'",
	       "services[r].placement.node", 16);
	expect(SVC "  - {name: r, type: ray, command: [ray, start]}\n", "ray-command", DIAG_ERROR,
	       "services[r] (type ray) writes its own `ray start` commands; it takes no command",
	       "services[r].command", 16);
	expect(SVC "  - {name: r, type: ray, options: {num_gpus: 0}}\n", "ray-option", DIAG_ERROR,
	       "services[r].options.num_gpus must be a positive integer", "services[r].options", 16);
	expect(SVC "  - {name: r, type: ray, options: {port: true}}\n", "ray-option", DIAG_ERROR,
	       "services[r].options.port must be a positive integer", "services[r].options", 16);
	expect_no(SVC "  - {name: r, type: ray, placement: {node: all}, options: {dashboard_port: 9000}}\n",
		  "ray-placement");
	expect_no(SVC "  - {name: r, type: ray, placement: {node: all}, options: {dashboard_port: 9000}}\n",
		  "ray-option");
}

static void test_lmcache_server_rules(void **state)
{
	(void)state;
	expect(SVC "  - {name: lmc, type: lmcache-server, args: [--port, \"9000\"]}\n", "lmcache-server-port",
	       DIAG_ERROR,
	       "services[lmc].args must not set --port: srtctl owns the lmcache-server ports (8750 RPC, 8751 HTTP)",
	       "services[lmc].args[0]", 16);
	expect(SVC "  - name: lmc\n    type: lmcache-server\n    args:\n      - --chunk-size\n      - \"256\"\n"
		   "      - --http-port=9001\n",
	       "lmcache-server-port", DIAG_ERROR,
	       "services[lmc].args must not set --http-port: srtctl owns the lmcache-server ports (8750 RPC, 8751 HTTP)",
	       "services[lmc].args[2]", 21);
	expect(SVC "  - {name: lmc, type: lmcache-server, args: [--host=127.0.0.1]}\n", "lmcache-server-host",
	       DIAG_ERROR,
	       "services[lmc].args must not set --host: srtctl owns the lmcache-server address (0.0.0.0)",
	       "services[lmc].args[0]", 16);
	expect_no(SVC "  - {name: lmc, type: lmcache-server, args: [--ports, --hosts=1, --max-workers, \"1\"]}\n",
		  "lmcache-server-port");
	expect(SVC "  - {name: lmc, type: lmcache-server, placement: {node: agg, per: worker}}\n",
	       "lmcache-server-per-worker", DIAG_ERROR,
	       "services[lmc].placement.per: worker is not supported for type 'lmcache-server' (one server per node)",
	       "services[lmc].placement.per", 16);
	expect(HEAD PD("vllm") "services:\n"
		   "  - {name: l1, type: lmcache-server, placement: {node: prefill}}\n"
		   "  - {name: l2, type: lmcache-server, placement: {node: workers}}\n",
	       "lmcache-server-overlap", DIAG_ERROR,
	       "services[l1] and services[l2] both run an lmcache-server on the prefill nodes; both would bind ports 8750 and 8751",
	       "services[l2]", 21);
	expect_no(HEAD PD("vllm") "services:\n"
		  "  - {name: l1, type: lmcache-server, placement: {node: prefill}}\n"
		  "  - {name: l2, type: lmcache-server, placement: {node: decode}}\n",
		  "lmcache-server-overlap");
	const char *h = expect(SVC "  - {name: lmc, type: lmcache-server}\n" "environment:\n  PYTHONHASHSEED: \"0\"\n",
			       "lmcache-hashseed", DIAG_WARNING,
			       "services[lmc].env does not set PYTHONHASHSEED although the workers do (environment.PYTHONHASHSEED): services do not inherit it, so LMCache chunk hashes would disagree",
			       "services[lmc]", 16);
	assert_string_equal(h, "add PYTHONHASHSEED: \"0\" to services[lmc].env");
	expect(SVC "  - {name: lmc, type: lmcache-server, env: {PYTHONHASHSEED: \"1\"}}\n"
		   "environment:\n  PYTHONHASHSEED: \"0\"\n",
	       "lmcache-hashseed", DIAG_WARNING,
	       "services[lmc].env sets PYTHONHASHSEED to '1' but the workers use '0' (environment.PYTHONHASHSEED): LMCache chunk hashes would disagree",
	       "services[lmc].env", 16);
	/* the implied server cannot inherit the seed: point at where the workers set it */
	expect(HEAD "engine: {type: vllm, connector: lmcache-mp}\nroles:\n  agg:\n    nodes: 1\n"
		    "    env: {PYTHONHASHSEED: \"0\"}\n",
	       "lmcache-hashseed", DIAG_WARNING,
	       "the implied services[lmcache-server] does not get PYTHONHASHSEED (roles.agg.env.PYTHONHASHSEED sets it for the workers): services do not inherit it, so LMCache chunk hashes would disagree",
	       "roles.agg.env.PYTHONHASHSEED", 13);
}

static void test_load_diags_kept(void **state)
{
	(void)state;
	/* duplicate keys and tabs come from doc_load; validate_doc adds no copy */
	struct diag_list l = DIAG_LIST_INIT;
	run(HEAD AGG("vllm") "name: u\n", &l);
	size_t dups = 0;
	for (size_t i = 0; i < l.n; i++)
		dups += strstr(l.v[i].message, "name") != NULL;
	assert_true(dups >= 1);
	diag_list_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),           cmocka_unit_test(test_schema_rules),
		cmocka_unit_test(test_role_rules),      cmocka_unit_test(test_atom_rules),
		cmocka_unit_test(test_misc_rules),      cmocka_unit_test(test_connector_rules),
		cmocka_unit_test(test_service_rules),   cmocka_unit_test(test_readiness_rules),
		cmocka_unit_test(test_port_clash),      cmocka_unit_test(test_lmcache_server_rules),
		cmocka_unit_test(test_load_diags_kept),  cmocka_unit_test(test_required_examples),
		cmocka_unit_test(test_ray_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
