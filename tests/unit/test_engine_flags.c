/*
 * A role's args keys against its engine's flag table (model/engine_flags.c,
 * model/validate_engine_flags.c): a typo gets a warning with the flag it is
 * closest to, at the key's recipe path; keys the engine's argparse takes as
 * srtctl writes them (dashes or underscores, "no-" of a BooleanOptionalAction
 * flag), Dynamo's worker flags and the keys srtctl handles itself pass.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/engine_flags.h"
#include "model/schema.h"
#include "model/validate.h"
#include "model/validate_int.h"
#include "tests/unit/testutil.h"

/* Warnings of code engine-unknown-flag for one agg role of engine e. */
static size_t warn(const char *e, const char *args, struct diag_list *l)
{
	char json[1024];
	struct recipe r;
	diag_list_release(l);
	snprintf(json, sizeof(json),
		 "{\"schema\":2,\"name\":\"t\",\"resources\":{\"gpus_per_node\":8},\"engine\":\"%s\","
		 "\"roles\":{\"agg\":{\"nodes\":1,\"workers\":1,\"gpus\":1,\"args\":%s}}}",
		 e, args);
	tu_recipe_json(&r, json);
	validate_engine_flags(&r, l);
	recipe_release(&r);
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++)
		n += !strcmp(l->v[i].code, "engine-unknown-flag");
	return n;
}

/* bsearch needs each table sorted, each name once, in the form srtctl
 * writes (dashes, no leading "--") */
static void check_sorted(const struct engine_flag *v, size_t n)
{
	assert_true(n > 0);
	for (size_t i = 0; i < n; i++) {
		assert_true(strspn(v[i].name, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(v[i].name));
		assert_true(v[i].name[0] != '-');
		if (i)
			assert_true(strcmp(v[i - 1].name, v[i].name) < 0);
	}
}

static void tables_sorted(void **state)
{
	const struct engine_flags *t[] = { &engine_flags_vllm, &engine_flags_sglang };
	for (size_t i = 0; i < 2; i++) {
		check_sorted(t[i]->flags, t[i]->nflags);
		check_sorted(t[i]->wrapper, t[i]->nwrapper);
		assert_ptr_equal(engine_flags_find(t[i]->engine), t[i]);
	}
	/* TRT-LLM's args are its YAML config, ATOM's srtctl's own: no table */
	assert_null(engine_flags_find("trtllm"));
	assert_null(engine_flags_find("atom"));
	assert_null(engine_flags_find(NULL));
}

static void vllm_typo(void **state)
{
	struct diag_list l = DIAG_LIST_INIT;
	/* the case */
	assert_int_equal(warn("vllm", "{\"gpu-memory-utilisation\":0.9}", &l), 1);
	assert_int_equal(l.v[0].severity, DIAG_WARNING);
	assert_string_equal(l.v[0].path, "roles.agg.args.gpu-memory-utilisation");
	assert_string_equal(l.v[0].hint, "did you mean 'gpu-memory-utilization'?");
	assert_string_equal(l.v[0].message,
			    "roles.agg.args: 'gpu-memory-utilisation' is not a vLLM flag (srt-tui's table: "
			    "vllm-project/vllm @99d7eb5d); vLLM exits with 'unrecognized arguments' unless "
			    "your release has it");
	/* nothing close: the command that lists the user's release's flags */
	assert_int_equal(warn("vllm", "{\"zzzz-qqqq-wwww\":1}", &l), 1);
	assert_string_equal(l.v[0].hint,
			    "`vllm serve --help=all` lists your release's flags; srt-tui's table may be "
			    "older than your vLLM");
	diag_list_release(&l);
}

static void vllm_spellings(void **state)
{
	struct diag_list l = DIAG_LIST_INIT;
	/* srtctl writes '_' as '-' (normalize_vllm_config_key) */
	assert_int_equal(warn("vllm", "{\"gpu_memory_utilization\":0.9,\"max_model_len\":4096}", &l), 0);
	/* BooleanOptionalAction flags take --no-X; a value flag does not */
	assert_int_equal(warn("vllm", "{\"no-enable-prefix-caching\":true}", &l), 0);
	assert_int_equal(warn("vllm", "{\"no-max-model-len\":true}", &l), 1);
	/* the frontend's flags (vllm serve) and Dynamo's worker (dynamo.vllm) */
	assert_int_equal(warn("vllm", "{\"return-tokens-as-token-ids\":true,\"api-server-count\":2,"
				      "\"is-prefill-worker\":true,\"dyn-reasoning-parser\":\"x\"}", &l), 0);
	/* keys srtctl reads or derives itself */
	assert_int_equal(warn("vllm", "{\"connector\":\"nixl\",\"grpc\":true,"
				      "\"prefill-context-parallel-size\":2}", &l), 0);
	/* false and null are not passed by srtctl: no flag reaches vLLM */
	assert_int_equal(warn("vllm", "{\"enforce-eagr\":false,\"max-modl-len\":null}", &l), 0);
	assert_int_equal(warn("vllm", "{\"enforce-eagr\":true}", &l), 1);
	assert_string_equal(l.v[0].hint, "did you mean 'enforce-eager'?");
	diag_list_release(&l);
}

static void sglang_keys(void **state)
{
	struct diag_list l = DIAG_LIST_INIT;
	/* srtctl's sglang examples: an alias, a deprecated flag, a srtctl-rewritten one */
	assert_int_equal(warn("sglang", "{\"tensor-parallel-size\":1,\"mem-fraction-static\":0.5,"
					"\"disable-piecewise-cuda-graph\":true,"
					"\"load-publish-endpoint\":\"auto\"}", &l), 0);
	assert_int_equal(warn("sglang", "{\"mem-fraction-statc\":0.5}", &l), 1);
	assert_string_equal(l.v[0].hint, "did you mean 'mem-fraction-static'?");
	assert_string_equal(l.v[0].path, "roles.agg.args.mem-fraction-statc");
	/* vLLM's flag is not SGLang's */
	assert_int_equal(warn("sglang", "{\"gpu-memory-utilization\":0.9}", &l), 1);
	/* a key the path syntax must quote */
	assert_int_equal(warn("sglang", "{\"a.b\":1}", &l), 1);
	assert_string_equal(l.v[0].path, "roles.agg.args.\"a.b\"");
	diag_list_release(&l);
}

static void other_engines_free(void **state)
{
	struct diag_list l = DIAG_LIST_INIT;
	assert_int_equal(warn("trtllm", "{\"free_gpu_memory_fraction\":0.9,\"kv_cache_config\":{}}", &l), 0);
	assert_int_equal(warn("atom", "{\"whatever-flag\":1}", &l), 0);
	diag_list_release(&l);
}

static void names_cover_every_list(void **state)
{
	size_t n;
	const char **v = engine_flags_names(&engine_flags_sglang, &n);
	size_t want = engine_flags_sglang.nflags + engine_flags_sglang.nwrapper;
	assert_true(n > want); /* + Dynamo runtime + srtctl's */
	int seen_srtctl = 0, seen_runtime = 0;
	for (size_t i = 0; i < n; i++) {
		seen_srtctl |= !strcmp(v[i], "load-publish-endpoint");
		seen_runtime |= !strcmp(v[i], "request-plane");
	}
	assert_true(seen_srtctl && seen_runtime);
	free(v);
}

/* Every name of every list reads as its list's kind (the first list in
 * engine, wrapper, Dynamo runtime, srtctl order), "no-" of a negatable one
 * too, whatever index answers. */
static void kinds_of_every_name(void **state)
{
	const struct engine_flags *t[] = { &engine_flags_vllm, &engine_flags_sglang };
	for (size_t i = 0; i < 2; i++) {
		for (size_t k = 0; k < t[i]->nflags; k++) {
			char no[160];
			assert_int_equal(engine_flags_kind(t[i], t[i]->flags[k].name), EFLAG_ENGINE);
			snprintf(no, sizeof(no), "no-%s", t[i]->flags[k].name);
			if (t[i]->flags[k].negatable)
				assert_int_equal(engine_flags_kind(t[i], no), EFLAG_ENGINE);
		}
		for (size_t k = 0; k < t[i]->nwrapper; k++)
			assert_in_set(engine_flags_kind(t[i], t[i]->wrapper[k].name),
				      ((const uintmax_t[]){ EFLAG_ENGINE, EFLAG_WRAPPER }), 2);
		for (const char *const *s = t[i]->srtctl; *s; s++)
			assert_int_not_equal(engine_flags_kind(t[i], *s), EFLAG_UNKNOWN);
		assert_int_equal(engine_flags_kind(t[i], "request-plane"), EFLAG_WRAPPER); /* runtime */
		assert_int_equal(engine_flags_kind(t[i], "no-such-flag-anywhere"), EFLAG_UNKNOWN);
	}
	/* a wrapper flag the engine lacks, and srtctl's own key */
	assert_int_equal(engine_flags_kind(&engine_flags_vllm, "connector"), EFLAG_WRAPPER);
	assert_int_equal(engine_flags_kind(&engine_flags_vllm, "grpc"), EFLAG_SRTCTL);
}

/* What the memo must return: the did-you-mean over the table's names,
 * measured afresh. */
static const char *fresh(const struct engine_flags *t, const char *key)
{
	size_t n;
	const char **names = engine_flags_names(t, &n);
	const char *s = schema_suggest(key, names, n);
	free(names);
	return s;
}

static void suggest_remembered(void **state)
{
	const struct engine_flags *t[] = { &engine_flags_vllm, &engine_flags_sglang };
	const char *keys[] = { "gpu-memory-utilisation", "tensor-paralel-size", "mem-fraction-statc",
			       "bench-flag-0001", "max-model-len", "NO-ENABLE-PREFIX-CACHING", "xy" };
	for (int round = 0; round < 2; round++) /* the second round reads the memo */
		for (size_t i = 0; i < 2; i++)
			for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
				const char *want = fresh(t[i], keys[k]), *got = engine_flags_suggest(t[i], keys[k]);
				if (want)
					assert_string_equal(got, want);
				else
					assert_null(got);
			}
	/* one key, two tables, two answers: the memo is per table */
	assert_string_equal(engine_flags_suggest(&engine_flags_vllm, "gpu-memory-utilisation"),
			    "gpu-memory-utilization");
	assert_string_equal(engine_flags_suggest(&engine_flags_sglang, "mem-fraction-statc"),
			    "mem-fraction-static");
	assert_null(engine_flags_suggest(&engine_flags_vllm, "mem-fraction-statc"));
}

static void memo_bound_evicts(void **state)
{
	const char *cands[] = { "alpha", "bravo", "charlie" };
	struct schema_suggestions sug;
	struct suggest_memo m;
	schema_suggestions_init(&sug, cands, 3);
	suggest_memo_init(&m, &sug, 1, 2); /* one set of two: the third key evicts */
	assert_string_equal(suggest_memo_get(&m, "alpah"), "alpha");
	assert_string_equal(suggest_memo_get(&m, "brav"), "bravo");
	assert_string_equal(suggest_memo_get(&m, "alpah"), "alpha"); /* read: now the newer */
	assert_int_equal(m.hits, 1);
	assert_null(suggest_memo_get(&m, "zzzzzz")); /* "nothing close" is remembered too */
	assert_int_equal(m.misses, 3);
	/* "brav" was the least recently used: gone, and measured again alike */
	assert_string_equal(suggest_memo_get(&m, "brav"), "bravo");
	assert_int_equal(m.misses, 4);
	assert_string_equal(suggest_memo_get(&m, "charle"), "charlie");
	assert_null(suggest_memo_get(&m, "zzzzzz")); /* evicted by charle: measured again */
	assert_int_equal(m.misses, 6);
	assert_null(suggest_memo_get(&m, "zzzzzz"));
	assert_int_equal(m.hits, 2);
	suggest_memo_release(&m);
	schema_suggestions_release(&sug);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tables_sorted),
		cmocka_unit_test(vllm_typo),
		cmocka_unit_test(vllm_spellings),
		cmocka_unit_test(sglang_keys),
		cmocka_unit_test(other_engines_free),
		cmocka_unit_test(names_cover_every_list),
		cmocka_unit_test(kinds_of_every_name),
		cmocka_unit_test(suggest_remembered),
		cmocka_unit_test(memo_bound_evicts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
