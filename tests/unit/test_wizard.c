/* The wizard's pure parts: the MultiConnector builder (spec §3.3), the
 * topology step's GPU text (the lmcache-server args are in test_lmc_args.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "tui/widget_connector.h"
#include "tui/widget_services.h"
#include "tui/wizard.h"

/* Spec §3.3, byte for byte. */
static const char multi_33[] =
	"{\"kv_connector\":\"MultiConnector\",\"kv_role\":\"kv_both\",\"kv_connector_extra_config\":"
	"{\"connectors\":[{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"},"
	"{\"kv_connector\":\"LMCacheMPConnector\",\"kv_connector_module_path\":"
	"\"lmcache.integration.vllm.lmcache_mp_connector\",\"kv_role\":\"kv_both\","
	"\"kv_connector_extra_config\":{\"lmcache.mp.host\":\"tcp://localhost\","
	"\"lmcache.mp.port\":8750}}]}}";

static void test_multi_default_is_spec(void **state)
{
	struct conn_multi m = CONN_MULTI_INIT;
	char *s;

	(void)state;
	conn_multi_default(&m);
	s = conn_multi_json(&m);
	assert_string_equal(s, multi_33);
	free(s);
	conn_multi_release(&m);
}

static void test_multi_round_trip(void **state)
{
	struct conn_multi m = CONN_MULTI_INIT;
	char *s;

	(void)state;
	assert_int_equal(conn_multi_parse(&m, multi_33), 0);
	assert_int_equal(m.n, 2);
	assert_string_equal(m.member[0], "nixl");
	assert_string_equal(m.member[1], "lmcache-mp");
	assert_null(m.mp_host);
	assert_int_equal(m.mp_port, 0);
	s = conn_multi_json(&m);
	assert_string_equal(s, multi_33);
	free(s);

	/* A changed port survives the builder. */
	m.mp_port = 9750;
	s = conn_multi_json(&m);
	assert_non_null(strstr(s, "\"lmcache.mp.port\":9750}}]}}"));
	conn_multi_release(&m);
	assert_int_equal(conn_multi_parse(&m, s), 0);
	assert_int_equal(m.mp_port, 9750);
	free(s);
	conn_multi_release(&m);

	/* Other shapes are raw JSON to the builder. */
	assert_int_equal(conn_multi_parse(&m, "{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}"), -1);
	assert_int_equal(conn_multi_parse(&m, "not json"), -1);
	assert_int_equal(conn_multi_parse(&m,
		"{\"kv_connector\":\"MultiConnector\",\"kv_role\":\"kv_both\",\"kv_connector_extra_config\":"
		"{\"connectors\":[{\"kv_connector\":\"Odd\",\"kv_role\":\"kv_both\"}]}}"), -1);
	assert_int_equal(m.n, 0);
}

static void test_multi_refuses_non_members(void **state)
{
	struct conn_multi m = CONN_MULTI_INIT;

	(void)state;
	assert_null(conn_multi_json(&m));
	m.member[0] = "moriio";
	m.n = 1;
	assert_null(conn_multi_json(&m));
}

static void test_classify_and_summary(void **state)
{
	char *s;

	(void)state;
	assert_int_equal(conn_classify("lmcache-mp"), CONN_PRESET);
	assert_int_equal(conn_classify("NIXL"), CONN_PRESET);
	assert_int_equal(conn_classify("none"), CONN_NONE);
	assert_int_equal(conn_classify(""), CONN_NONE);
	assert_int_equal(conn_classify(NULL), CONN_NONE);
	assert_int_equal(conn_classify(multi_33), CONN_MULTI);
	assert_int_equal(conn_classify("{\"kv_connector\":\"X\"}"), CONN_RAW);
	s = conn_summary(multi_33);
	assert_string_equal(s, "MultiConnector: nixl + lmcache-mp");
	free(s);
	s = conn_summary("lmcache-mp");
	assert_string_equal(s, "lmcache-mp (LMCache MP server)");
	free(s);
	assert_int_equal(conn_raw_valid("{\"a\":1}", NULL), 1);
	s = NULL;
	assert_int_equal(conn_raw_valid("{\"a\":", &s), 0);
	assert_non_null(s);
	assert_non_null(strstr(s, "connector is not valid JSON"));
	free(s);
}

static void test_preset_payloads(void **state)
{
	json_t *p = connector_preset_payload("lmcache-mp", "kv_both", NULL, 0);
	char *s = json_dumps(p, JSON_PRESERVE_ORDER);

	(void)state;
	/* Key order of srtctl's preset (spec §3.2). */
	assert_string_equal(s, "{\"kv_connector\": \"LMCacheMPConnector\", \"kv_connector_module_path\": "
			       "\"lmcache.integration.vllm.lmcache_mp_connector\", \"kv_role\": \"kv_both\", "
			       "\"kv_connector_extra_config\": {\"lmcache.mp.host\": \"tcp://localhost\", "
			       "\"lmcache.mp.port\": 8750}}");
	free(s);
	json_decref(p);
	assert_null(connector_preset_payload("moriio", "kv_both", NULL, 0));
	assert_null(connector_preset_payload("none", "kv_both", NULL, 0));
	assert_null(connector_preset_payload("bogus", "kv_both", NULL, 0));
	/* the editor lists render's presets, in their order, then "none" */
	struct strbuf names = STRBUF_INIT;
	const struct connector_preset_info *q;
	for (size_t i = 0; (q = conn_preset_at(i)); i++) {
		strbuf_addf(&names, "%s%s", i ? " " : "", q->name);
		assert_non_null(q->explain);
		assert_true(strlen(q->explain) > 20);
	}
	assert_string_equal(sb_str(&names), "nixl lmcache-mp lmcache kvbm moriio none");
	strbuf_release(&names);
	assert_ptr_equal(conn_preset_find("LMCache-MP"), &connector_presets[1]);
	assert_string_equal(conn_preset_find("")->name, "none");
}

static void test_atom_entries(void **state)
{
	json_t *e = atom_kv_new_entry(ATOM_KV_OFFLOAD);
	char *s = json_dumps(e, JSON_COMPACT | JSON_PRESERVE_ORDER);

	(void)state;
	assert_string_equal(s, "{\"kv_connector\":\"lmcache_offload\",\"kv_role\":\"offload\","
			       "\"lmcache.local_cpu\":true,\"lmcache.max_local_cpu_size\":180,"
			       "\"lmcache.chunk_size\":256}");
	free(s);
	assert_int_equal(atom_kv_kind_of(e), ATOM_KV_OFFLOAD);
	s = atom_kv_summary(e);
	assert_string_equal(s, "lmcache_offload cpu=180 GB chunk=256");
	free(s);
	json_decref(e);

	e = atom_kv_new_entry(ATOM_KV_MP);
	assert_int_equal(atom_kv_kind_of(e), ATOM_KV_MP);
	s = atom_kv_summary(e);
	assert_string_equal(s, "lmcache_mp port=8750");
	free(s);
	json_decref(e);
}

static void gpu(int nodes, int colocate, int workers, int gpus, const struct wiz_role_gpus *pre,
		int gpn, int spread, const char *want, enum wiz_fit fit)
{
	struct wiz_role_gpus r = { nodes, colocate, workers, gpus };
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(wiz_gpu_text(&sb, &r, pre, gpn, spread), fit);
	assert_string_equal(sb_str(&sb), want);
	strbuf_release(&sb);
}

static void test_gpu_text(void **state)
{
	struct wiz_role_gpus pre = { 1, 0, 1, 1 };

	(void)state;
	gpu(1, 0, 2, 4, NULL, 8, 0, "2 workers × 4 GPUs on 1 node of 8 — all 8 GPUs used",
	    WIZ_FIT_EXACT);
	gpu(1, 0, 2, 1, NULL, 8, 0, "2 workers × 1 GPU on 1 node of 8 — 2 of 8 GPUs used, 6 idle",
	    WIZ_FIT_IDLE);
	gpu(1, 0, 2, 8, NULL, 8, 0, "2 workers × 8 GPUs on 1 node of 8 — does not fit: needs 2 nodes",
	    WIZ_FIT_NONE);
	gpu(2, 0, 1, 16, NULL, 8, 0, "1 worker × 16 GPUs on 2 nodes of 8 — all 16 GPUs used",
	    WIZ_FIT_EXACT);
	/* gpus absent: srtctl's default nodes * gpus_per_node / workers */
	gpu(1, 0, 2, -1, NULL, 8, 0, "2 workers × 4 GPUs on 1 node of 8 — all 8 GPUs used",
	    WIZ_FIT_EXACT);
	gpu(1, 0, -1, -1, NULL, 4, 0, "1 worker × 4 GPUs on 1 node of 4 — all 4 GPUs used",
	    WIZ_FIT_EXACT);
	/* spread_workers: one node per partial worker */
	gpu(1, 0, 2, 1, NULL, 8, 1, "2 workers × 1 GPU on 1 node of 8 — does not fit: needs 2 nodes",
	    WIZ_FIT_NONE);
	/* 3 workers of 3 GPUs: two per node */
	gpu(1, 0, 3, 3, NULL, 8, 0, "3 workers × 3 GPUs on 1 node of 8 — does not fit: needs 2 nodes",
	    WIZ_FIT_NONE);
	gpu(-1, 0, 2, 1, NULL, 8, 0, "2 workers: set nodes (how many to reserve for this role)",
	    WIZ_FIT_NONE);
	gpu(0, 1, 1, 1, &pre, 8, 0,
	    "1 worker × 1 GPU on the prefill node (colocate) — 2 of 8 GPUs used with prefill",
	    WIZ_FIT_IDLE);
	gpu(0, 1, 1, 8, &pre, 8, 0,
	    "1 worker × 8 GPUs on the prefill node (colocate) — does not fit: prefill and decode "
	    "need 9 GPUs, the prefill node has 8", WIZ_FIT_NONE);
	gpu(0, 1, 1, -1, &pre, 8, 0,
	    "1 worker on the prefill node (colocate) — colocate needs gpus set on both prefill "
	    "and decode", WIZ_FIT_NONE);
	assert_int_equal(wiz_role_nodes_needed(&pre, 8, 0), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_multi_default_is_spec),
		cmocka_unit_test(test_multi_round_trip),
		cmocka_unit_test(test_multi_refuses_non_members),
		cmocka_unit_test(test_classify_and_summary),
		cmocka_unit_test(test_preset_payloads),
		cmocka_unit_test(test_atom_entries),
		cmocka_unit_test(test_gpu_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
