/* The readable plan made with a plan_cache (what the TUI's Plan tab keeps
 * from one edit to the next) and with its note made afterwards is the plan
 * made from nothing, byte for byte, before and after the role args or env
 * change, change back, or another role's change; so is plan_render_text's,
 * whose note's plan takes what its first plan made.  A worker's
 * command, printed from its role's flags joined once (and kept in the
 * cache), is the shlex.join of the argv the JSON steps list. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "model/recipe.h"
#include "lib/json.h"
#include "lib/shell.h"
#include "lib/util.h"
#include "render/envmap.h"
#include "render/plan.h"
#include "tests/unit/testutil.h"

/* The deferred plan with its note put in its place, through cache. */
static char *cached_plan(const struct recipe *r, struct plan_cache *cache)
{
	struct strbuf out = STRBUF_INIT, sb = STRBUF_INIT;
	struct plan_note *note = NULL;
	size_t at = 0;
	char *err = NULL;
	if (plan_render_text_deferred(&out, r, NULL, cache, &at, &note, &err) < 0)
		fail_msg("refused with a cache: %s", err);
	if (note) {
		plan_note_render(&sb, r, note);
		strbuf_splice(&out, at, 0, sb.buf ? sb.buf : "", sb.len);
		plan_note_free(note);
	}
	strbuf_release(&sb);
	return strbuf_detach(&out, NULL);
}

/* The plan made from nothing: no cache for it nor for its note's plan. */
static char *plain_plan(const struct recipe *r)
{
	return cached_plan(r, NULL);
}

/* plan_render_text (whose note's plan takes what the first made) is the
 * plan from nothing too. */
static char *text_plan(const struct recipe *r)
{
	struct strbuf out = STRBUF_INIT;
	char *err = NULL;
	if (plan_render_text(&out, r, NULL, &err) < 0)
		fail_msg("refused: %s", err);
	return strbuf_detach(&out, NULL);
}

static void same(const struct recipe *r, struct plan_cache *cache, const char *what)
{
	char *want = plain_plan(r), *got = cached_plan(r, cache), *text = text_plan(r);
	tu_assert_same_text(want, got, what);
	tu_assert_same_text(want, text, what);
	free(want);
	free(got);
	free(text);
}

#define PD "{\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", " \
	   "\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, " \
	   "\"frontend\": {\"type\": \"dynamo\"}, \"engine\": {\"type\": \"%s\"}, \"roles\": {" \
	   "\"prefill\": {\"nodes\": 1, \"workers\": 2, \"gpus\": 2, \"args\": {%s}}, " \
	   "\"decode\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 4, \"args\": {%s}}}}"

static void check_json(struct plan_cache *cache, const char *engine, const char *pargs,
		       const char *dargs)
{
	char *json = xasprintf(PD, engine, pargs, dargs);
	struct recipe r;
	tu_recipe_json(&r, json);
	same(&r, cache, json);
	recipe_release(&r);
	free(json);
}

static void test_role_args_edits(void **state)
{
	(void)state;
	static const char *const engines[] = { "vllm", "sglang" };
	for (size_t e = 0; e < 2; e++) {
		struct plan_cache *cache = plan_cache_new();
		const char *eng = engines[e];
		const char *d = "\"max-num-seqs\": 64, \"gpu_memory_utilization\": 0.9";
		check_json(cache, eng, "\"max-model-len\": 4096, \"enforce-eager\": true", d);
		/* one value of one role, as an edit makes it */
		check_json(cache, eng, "\"max-model-len\": 5001, \"enforce-eager\": true", d);
		/* back: the first args again */
		check_json(cache, eng, "\"max-model-len\": 4096, \"enforce-eager\": true", d);
		/* the same value, of another type: a string is not the number */
		check_json(cache, eng, "\"max-model-len\": \"4096\", \"enforce-eager\": true", d);
		/* a flag turned off, a list, and the other role */
		check_json(cache, eng, "\"max-model-len\": 4096, \"enforce-eager\": false", d);
		check_json(cache, eng, "\"max-model-len\": 4096, \"cuda-graph-sizes\": [1, 2, 4]", d);
		check_json(cache, eng, "\"max-model-len\": 4096, \"cuda-graph-sizes\": [1, 2, 8]", d);
		check_json(cache, eng, "\"max-model-len\": 4096", "\"max-num-seqs\": 65");
		/* both roles with the same args: one entry serves both */
		check_json(cache, eng, "\"max-num-seqs\": 65", "\"max-num-seqs\": 65");
		/* more distinct args than the cache keeps */
		for (int i = 0; i < 20; i++) {
			char *p = xasprintf("\"max-model-len\": %d", 1000 + i);
			check_json(cache, eng, p, d);
			free(p);
		}
		check_json(cache, eng, "\"max-model-len\": 4096, \"enforce-eager\": true", d);
		plan_cache_free(cache);
	}
}

/* A prefill env of n names (ENVMAP_SCAN and more take the shared map),
 * one value given, over the job's environment. */
static void check_env(struct plan_cache *cache, int n, const char *extra, const char *denv)
{
	struct strbuf env = STRBUF_INIT;
	for (int i = 0; i < n; i++)
		strbuf_addf(&env, "%s\"VAR_%03d\": \"%d\"", i ? ", " : "", (i * 7) % n, i);
	char *json = xasprintf("{\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", "
			       "\"container\": \"c\", \"precision\": \"bf16\"}, \"resources\": "
			       "{\"gpus_per_node\": 8}, \"environment\": {\"VAR_001\": \"job\", "
			       "\"ZZ\": \"job\"}, \"engine\": {\"type\": \"vllm\"}, \"roles\": {"
			       "\"prefill\": {\"nodes\": 1, \"workers\": 2, \"gpus\": 2, \"env\": {%s%s%s}}, "
			       "\"decode\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 4, \"env\": {%s}}}}",
			       sb_str(&env), n && *extra ? ", " : "", extra, denv);
	struct recipe r;
	tu_recipe_json(&r, json);
	same(&r, cache, json);
	if (n > 1) {
		/* the job's environment over the role's, the role's over the engine's */
		char *plan = cached_plan(&r, cache);
		if (!strstr(plan, " VAR_000=") || !strstr(plan, " VAR_001=job ") ||
		    (strstr(extra, "HEAD_NODE_IP") && !strstr(plan, " HEAD_NODE_IP=x ")))
			fail_msg("%s: the env layers are not in order:\n%s", json, plan);
		free(plan);
	}
	recipe_release(&r);
	free(json);
	strbuf_release(&env);
}

static void test_role_env_edits(void **state)
{
	(void)state;
	struct plan_cache *cache = plan_cache_new();
	/* over the engine's own names (VLLM_PORT, HEAD_NODE_IP) and under the
	 * job's environment; a value edited, the same again, then back */
	const char *over = "\"VLLM_PORT\": \"1\", \"HEAD_NODE_IP\": \"x\", \"N\": 5, \"B\": true";
	check_env(cache, 40, over, "");
	check_env(cache, 40, over, "");
	check_env(cache, 40, "\"VLLM_PORT\": \"2\", \"HEAD_NODE_IP\": \"x\", \"N\": 5, \"B\": true", "");
	check_env(cache, 40, "\"VLLM_PORT\": \"1\", \"HEAD_NODE_IP\": \"x\", \"N\": \"5\", \"B\": true", "");
	check_env(cache, 40, over, "");
	/* a placeholder: built per worker */
	check_env(cache, 40, "\"WHERE\": \"{node}\", \"ID\": \"{node_id}\"", "");
	check_env(cache, 40, "\"LIST\": [\"{node}\"]", "");
	/* both roles with one env, each of them large, or small */
	check_env(cache, 40, "", "\"VAR_000\": \"0\"");
	check_env(cache, 700, "", "");
	check_env(cache, ENVMAP_SCAN, "", "");
	check_env(cache, ENVMAP_SCAN + 1, "", "");
	check_env(cache, 0, "", "");
	/* more distinct envs than the cache keeps */
	for (int i = 0; i < 20; i++) {
		char *x = xasprintf("\"EDIT\": \"%d\"", i);
		check_env(cache, 50, x, "");
		free(x);
	}
	check_env(cache, 40, over, "");
	plan_cache_free(cache);
}

/* The example plans of the render tests, each after the others in one
 * cache: what one recipe left must not show in another's. */
static void test_fixtures_one_cache(void **state)
{
	(void)state;
	static const char *const files[] = {
		"tests/fixtures/plan/vllm-pd-multiconnector.yaml", "tests/fixtures/plan/vllm-multinode.yaml",
		"tests/fixtures/plan/sglang-router-multinode.yaml", "tests/fixtures/plan/dynamo-nginx.yaml",
		"tests/fixtures/plan/atom-pd.yaml",            "tests/fixtures/plan/vllm-router-multinode.yaml",
		"tests/fixtures/plan/vllm-pd-multiconnector.yaml",
	};
	struct plan_cache *cache = plan_cache_new();
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *path = tu_srcpath(files[i]);
		struct recipe r;
		if (tu_recipe_file(&r, path))
			fail_msg("cannot load %s", path);
		same(&r, cache, files[i]);
		recipe_release(&r);
		free(path);
	}
	plan_cache_free(cache);
}

/* The plan of the document as it is now, through cache and from nothing. */
static void same_doc(struct doc *d, struct plan_cache *cache, const char *what)
{
	json_t *root = doc_json(d);
	struct recipe r;
	recipe_init(&r, root);
	json_decref(root);
	same(&r, cache, what);
	recipe_release(&r);
}

static void set_value(struct doc *d, const char *where, json_t *v)
{
	struct path p = PATH_INIT;
	char *err = NULL, *warn = NULL;
	assert_int_equal(path_parse(&p, where, PATH_NAMES, &err), 0);
	if (doc_set(d, &p, v, &err, &warn))
		fail_msg("set %s: %s", where, err);
	assert_non_null(doc_value_edit(d)); /* the tree shares what the edit left */
	json_decref(v);
	free(warn);
	path_release(&p);
}

/* Value edits of a document, whose tree after each edit shares every other
 * value with the one before: the flags of the values that stayed are taken
 * from the cache, the edited one's made again, in the sorted place; a key
 * srtctl leaves out (vLLM's connector) stays out whatever its value. */
static void test_document_edits(void **state)
{
	(void)state;
	static const char text[] =
		"schema: 2\nname: t\nmodel:\n  path: m\n  container: c\n  precision: bf16\n"
		"resources:\n  gpus_per_node: 8\nfrontend:\n  type: dynamo\nengine:\n  type: vllm\n"
		"roles:\n  prefill:\n    nodes: 1\n    workers: 2\n    gpus: 2\n    args:\n"
		"      zz-last: 1\n      max-model-len: 4096\n      connector: nixl\n"
		"      enforce_eager: true\n      aa-first: x\n"
		"  decode:\n    nodes: 1\n    workers: 1\n    gpus: 4\n    args:\n      max-num-seqs: 64\n";
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load("t.yaml", text, strlen(text), &dl);
	assert_non_null(d);
	struct plan_cache *cache = plan_cache_new();
	same_doc(d, cache, "before");
	set_value(d, "roles.prefill.args.max-model-len", json_integer(5001));
	same_doc(d, cache, "a number");
	set_value(d, "roles.prefill.args.zz-last", json_string("two"));
	same_doc(d, cache, "the last key, now a string");
	set_value(d, "roles.prefill.args.connector", json_string("lmcache"));
	same_doc(d, cache, "a key left out");
	set_value(d, "roles.prefill.args.enforce_eager", json_false());
	same_doc(d, cache, "a flag off");
	set_value(d, "roles.decode.args.max-num-seqs", json_integer(65));
	same_doc(d, cache, "the other role");
	assert_int_equal(doc_undo(d), 0);
	same_doc(d, cache, "undone");
	plan_cache_free(cache);
	doc_free(d);
	diag_list_release(&dl);
}

/* Each worker's JSON argv, shlex-joined, is its command; each command is
 * in the text plan made through cache (twice: its flags from the cache the
 * second time), which runs on the job's own nodes. */
static void argv_is_command(const struct recipe *r, struct plan_cache *cache, const char *what)
{
	char *err = NULL;
	struct strvec own = STRVEC_INIT;
	for (int i = 0; i < plan_job_nodes(r); i++)
		strvec_pushf(&own, "node-%02d", i + 1);
	struct plan_opts o = { NULL, (const char *const *)own.v, own.n };
	json_t *steps = plan_steps_json(r, &o, &err);
	size_t i, workers = 0;
	json_t *st;
	if (!steps)
		fail_msg("%s: refused: %s", what, err);
	char *text1 = cached_plan(r, cache), *text2 = cached_plan(r, cache);
	tu_assert_same_text(text1, text2, what);
	json_array_foreach(steps, i, st) {
		json_t *argv = json_object_get(st, "argv");
		const char *cmd = json_string_value(json_object_get(st, "command"));
		if (!json_is_null(json_object_get(st, "role"))) {
			assert_non_null(argv);
			workers++;
		}
		if (!argv)
			continue;
		struct strvec v = STRVEC_INIT;
		struct strbuf sb = STRBUF_INIT;
		size_t k;
		json_t *w;
		json_array_foreach(argv, k, w)
			strvec_push(&v, json_string_value(w));
		shell_join(&sb, v.v, v.n);
		if (strcmp(sb_str(&sb), cmd))
			fail_msg("%s: step %zu: argv joins to\n%s\nnot\n%s", what, i, sb_str(&sb), cmd);
		char *line = xasprintf("\n       $ %s\n", cmd);
		if (!strstr(text1, line))
			fail_msg("%s: the text plan lacks%s", what, line);
		free(line);
		strbuf_release(&sb);
		strvec_release(&v);
	}
	assert_true(workers > 0);
	json_decref(steps);
	strvec_release(&own);
	free(text1);
	free(text2);
}

static void test_worker_command_from_flags(void **state)
{
	(void)state;
	static const char *const engines[] = { "vllm", "sglang" };
	/* role args none, one, a list; a quoted word; both roles alike */
	static const char *const args[][2] = {
		{ "", "" },
		{ "\"max-model-len\": 4096", "" },
		{ "", "\"max-num-seqs\": 64" },
		{ "\"cuda-graph-sizes\": [1, 2, 4], \"enforce-eager\": true",
		  "\"chat-template\": \"a b's\", \"max-num-seqs\": 64" },
		{ "\"max-num-seqs\": 64", "\"max-num-seqs\": 64" },
	};
	struct plan_cache *cache = plan_cache_new();
	for (size_t e = 0; e < 2; e++)
		for (size_t a = 0; a < sizeof(args) / sizeof(args[0]); a++) {
			char *json = xasprintf(PD, engines[e], args[a][0], args[a][1]);
			struct recipe r;
			tu_recipe_json(&r, json);
			argv_is_command(&r, cache, json);
			recipe_release(&r);
			free(json);
		}
	/* under nsys the window wraps the flags too; vLLM's direct serve puts
	 * its own among them; MoRI-IO's name the process */
	static const char *const whole[] = {
		"{\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", "
		"\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, \"dynamo\": {\"install\": false}, "
		"\"observability\": {\"enabled\": true, \"tachometer\": {\"enabled\": false}}, "
		"\"frontend\": {\"enable_multiple_frontends\": false}, \"engine\": \"vllm\", "
		"\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 2, \"args\": {\"max-model-len\": 8}}}}",
		"{\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", "
		"\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, "
		"\"frontend\": {\"type\": \"vllm\", \"enable_multiple_frontends\": false}, \"engine\": \"vllm\", "
		"\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 2, \"args\": {\"max-model-len\": 8}}}}",
		"{\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", "
		"\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, "
		"\"frontend\": {\"type\": \"vllm-router\", \"enable_multiple_frontends\": false}, "
		"\"engine\": {\"type\": \"vllm\", \"connector\": \"moriio\"}, \"roles\": {"
		"\"prefill\": {\"nodes\": 1, \"workers\": 2, \"gpus\": 2, \"args\": {\"tensor-parallel-size\": 2}}, "
		"\"decode\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 4, \"args\": {\"tensor-parallel-size\": 4}}}}",
	};
	for (size_t i = 0; i < sizeof(whole) / sizeof(whole[0]); i++) {
		struct recipe r;
		tu_recipe_json(&r, whole[i]);
		argv_is_command(&r, cache, whole[i]);
		recipe_release(&r);
	}
	static const char *const files[] = {
		"tests/fixtures/plan/vllm-pd-multiconnector.yaml", "tests/fixtures/plan/vllm-multinode.yaml",
		"tests/fixtures/plan/sglang-router-multinode.yaml", "tests/fixtures/plan/atom-pd.yaml",
		"tests/fixtures/plan/vllm-router-multinode.yaml",
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *path = tu_srcpath(files[i]);
		struct recipe r;
		if (tu_recipe_file(&r, path))
			fail_msg("cannot load %s", path);
		argv_is_command(&r, cache, files[i]);
		recipe_release(&r);
		free(path);
	}
	plan_cache_free(cache);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_role_args_edits),
		cmocka_unit_test(test_role_env_edits),
		cmocka_unit_test(test_fixtures_one_cache),
		cmocka_unit_test(test_document_edits),
		cmocka_unit_test(test_worker_command_from_flags),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
