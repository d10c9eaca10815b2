/* The facts of model/facts.h agree with the launch plan, over a grid of
 * shapes (workers, GPUs, nodes, gpus_per_node, colocate, spread):
 *   - validate reports no error exactly when the launch plan places the job
 *     (render --format plan, on the job's own nodes);
 *   - the facts' allocation is the plan's (same node and GPUs per process);
 *   - facts_service_covers_role says yes exactly when the service's
 *     instances (topology) include every node of the role's workers.
 * The packing rule itself is srtctl's allocate_endpoints (spec §2.3); the
 * per-shape expectations come from the plan, not from a second formula. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "model/facts.h"
#include "model/recipe.h"
#include "model/schema.h"
#include "model/validate.h"
#include "render/plan.h"
#include "render/topology.h"
#include "tests/unit/testutil.h"

/* -1: the key is not written */
struct role_shape {
	int workers, gpus, nodes; /* nodes -2: colocate */
};

struct shape {
	int gpn, spread, disagg;
	struct role_shape a, b; /* agg, or prefill and decode */
};

static void role_json(struct strbuf *sb, const char *name, const struct role_shape *s)
{
	strbuf_addf(sb, "\"%s\": {", name);
	const char *sep = "";
	if (s->workers >= 0) {
		strbuf_addf(sb, "\"workers\": %d", s->workers);
		sep = ", ";
	}
	if (s->gpus >= 0) {
		strbuf_addf(sb, "%s\"gpus\": %d", sep, s->gpus);
		sep = ", ";
	}
	if (s->nodes == -2)
		strbuf_addf(sb, "%s\"nodes\": \"colocate\"", sep);
	else if (s->nodes >= 0)
		strbuf_addf(sb, "%s\"nodes\": %d", sep, s->nodes);
	strbuf_addch(sb, '}');
}

/* A recipe the plan renders when its topology places (vLLM + Dynamo), with
 * one lmcache-server per placement class to check the placement fact. */
static char *shape_json(const struct shape *s)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb,
		    "{\"schema\": 2, \"name\": \"grid\","
		    " \"model\": {\"path\": \"m\", \"container\": \"c\", \"precision\": \"bf16\"},"
		    " \"resources\": {\"gpu_type\": \"h100\", \"gpus_per_node\": %d%s},"
		    " \"engine\": {\"type\": \"vllm\"}, \"frontend\": {\"type\": \"dynamo\"},"
		    " \"roles\": {",
		    s->gpn, s->spread ? ", \"spread_workers\": true" : "");
	if (s->disagg) {
		role_json(&sb, "prefill", &s->a);
		strbuf_addstr(&sb, ", ");
		role_json(&sb, "decode", &s->b);
	} else {
		role_json(&sb, "agg", &s->a);
	}
	strbuf_addstr(&sb, "}}");
	return strbuf_detach(&sb, NULL);
}

static int errors_of(const struct recipe *r, struct strbuf *why)
{
	struct diag_list dl = DIAG_LIST_INIT;
	validate_schema(r->root, &dl);
	validate_recipe(r, &dl);
	int n = 0;
	for (size_t i = 0; i < dl.n; i++)
		if (dl.v[i].severity == DIAG_ERROR) {
			n++;
			strbuf_addf(why, "%s; ", dl.v[i].message);
		}
	diag_list_release(&dl);
	return n;
}

/* Placement classes checked against the topology's instances. */
static const char *const placements[] = { "head", "prefill", "decode", "agg", "workers", "compute" };

static void check_service_facts(const struct recipe *r, const char *json, size_t *checked)
{
	int njob = plan_job_nodes(r);
	struct strvec names = STRVEC_INIT;
	for (int i = 0; i < njob; i++)
		strvec_pushf(&names, "node-%02d", i + 1);
	struct topology t;
	char *err = NULL;
	if (topo_build(&t, r, (const char *const *)names.v, names.n, &err) < 0)
		fail_msg("%s: topology refused what the plan placed: %s", json, err);

	/* the facts' allocation is the plan's */
	struct facts_slot *v;
	size_t n;
	assert_int_equal(facts_place_workers(r, t.nworker, &v, &n, NULL), 0);
	assert_int_equal(n, t.nproc);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(v[i].role, t.proc[i].role);
		assert_int_equal(v[i].node + t.worker_first, t.proc[i].node);
		assert_int_equal(v[i].gpu_first, t.proc[i].gpu_first);
		assert_int_equal(v[i].ngpus, t.proc[i].ngpus);
	}
	free(v);

	size_t *rn = xcalloc(t.nnodes + 1, sizeof(size_t));
	for (size_t p = 0; p < sizeof(placements) / sizeof(*placements); p++) {
		struct service s = { 0 };
		s.name = "probe";
		s.type = "lmcache-server";
		s.placement = (char *)placements[p];
		struct topo_inst *inst;
		size_t ni;
		topo_service_instances(&t, &s, &inst, &ni);
		for (int role = 0; role < ROLE_COUNT; role++) {
			if (!r->role[role].present)
				continue;
			size_t nr = topo_role_nodes(&t, (enum role_id)role, rn);
			int covered = nr > 0;
			for (size_t k = 0; k < nr; k++) {
				int found = 0;
				for (size_t j = 0; j < ni; j++)
					found |= inst[j].node == rn[k];
				covered &= found;
			}
			int fact = facts_service_covers_role(r, &s, (enum role_id)role);
			if (fact != covered)
				fail_msg("%s: placement %s on %s: facts say %d, the topology %d", json,
					 placements[p], role_names[role], fact, covered);
			(*checked)++;
		}
		topo_insts_free(inst, ni);
	}
	free(rn);
	topo_release(&t);
	strvec_release(&names);
}

static void test_grid(void **state)
{
	(void)state;
	static const int gpns[] = { 4, 8 };
	static const int workers[] = { -1, 1, 2, 3, 5 };
	static const int gpus[] = { -1, 1, 2, 3, 4, 8, 12 };
	static const int nodes[] = { -1, 1, 2, 3 };
	size_t shapes = 0, placed = 0, refused = 0, service_checks = 0;
	struct shape s;

	/* aggregated: every combination */
	for (size_t g = 0; g < 2; g++)
		for (int sp = 0; sp < 2; sp++)
			for (size_t w = 0; w < 5; w++)
				for (size_t gu = 0; gu < 7; gu++)
					for (size_t nd = 0; nd < 4; nd++) {
						memset(&s, 0, sizeof(s));
						s.gpn = gpns[g];
						s.spread = sp;
						s.a = (struct role_shape){ workers[w], gpus[gu], nodes[nd] };
						char *json = shape_json(&s);
						struct recipe r;
						tu_recipe_json(&r, json);
						struct strbuf why = STRBUF_INIT, out = STRBUF_INIT;
						char *err = NULL;
						int errs = errors_of(&r, &why);
						int rc = plan_render_text(&out, &r, NULL, &err);
						if ((errs == 0) != (rc == 0))
							fail_msg("%s: validate %s (%s) but the plan %s (%s)", json,
								 errs ? "refuses" : "passes", sb_str(&why),
								 rc ? "refuses" : "places", err ? err : "");
						shapes++;
						if (rc == 0) {
							placed++;
							check_service_facts(&r, json, &service_checks);
						} else {
							refused++;
						}
						free(err);
						strbuf_release(&why);
						strbuf_release(&out);
						recipe_release(&r);
						free(json);
					}

	/* disaggregated: prefill x decode (own nodes or colocated) */
	static const int pw[] = { 1, 2, 3 };
	static const int pg[] = { 1, 2, 3, 4, 8 };
	static const int pn[] = { -1, 1, 2 };
	static const int dn[] = { -2, -1, 1, 2 };
	for (size_t g = 0; g < 2; g++)
		for (int sp = 0; sp < 2; sp++)
			for (size_t a = 0; a < 3; a++)
				for (size_t b = 0; b < 5; b++)
					for (size_t c = 0; c < 3; c++)
						for (size_t d = 0; d < 4; d++)
							for (size_t e = 0; e < 3; e += 2) {
								memset(&s, 0, sizeof(s));
								s.gpn = gpns[g];
								s.spread = sp;
								s.disagg = 1;
								s.a = (struct role_shape){ pw[a], pg[b], pn[c] };
								s.b = (struct role_shape){ pw[e], pg[(b + d) % 5], dn[d] };
								char *json = shape_json(&s);
								struct recipe r;
								tu_recipe_json(&r, json);
								struct strbuf why = STRBUF_INIT, out = STRBUF_INIT;
								char *err = NULL;
								int errs = errors_of(&r, &why);
								int rc = plan_render_text(&out, &r, NULL, &err);
								if ((errs == 0) != (rc == 0))
									fail_msg("%s: validate %s (%s) but the plan %s (%s)",
										 json, errs ? "refuses" : "passes",
										 sb_str(&why), rc ? "refuses" : "places",
										 err ? err : "");
								shapes++;
								if (rc == 0) {
									placed++;
									check_service_facts(&r, json, &service_checks);
								} else {
									refused++;
								}
								free(err);
								strbuf_release(&why);
								strbuf_release(&out);
								recipe_release(&r);
								free(json);
							}
	printf("facts agreement: %zu shapes (%zu placed, %zu refused by both), %zu placement checks\n",
	       shapes, placed, refused, service_checks);
	assert_true(shapes >= 500);
	assert_true(placed > 100 && refused > 20);
}

/* The shape of the issue: 5 workers of 3 GPUs on 8-GPU nodes, no nodes:
 * srtctl packs two per node, so the role takes 3 nodes (not 15/8 -> 2). */
static void test_five_by_three(void **state)
{
	(void)state;
	struct recipe r;
	tu_recipe_json(&r, "{\"resources\": {\"gpus_per_node\": 8}, \"engine\": \"vllm\","
			   " \"roles\": {\"agg\": {\"workers\": 5, \"gpus\": 3}}}");
	assert_int_equal(facts_role_nodes(&r, ROLE_AGG), 3);
	assert_int_equal(facts_workers_fit(&r, NULL), 1);
	recipe_release(&r);
	assert_int_equal(facts_nodes_needed(5, 3, 8, 0), 3);
	assert_int_equal(facts_nodes_needed(5, 3, 8, 1), 5);
	assert_int_equal(facts_nodes_needed(2, 12, 8, 0), 4);
	assert_int_equal(facts_nodes_needed(1, 0, 8, 0), -1);
}

static void test_local_mp(void **state)
{
	(void)state;
	assert_true(facts_connector_uses_local_mp("lmcache-mp"));
	assert_true(facts_connector_uses_local_mp("LMCache-MP"));
	assert_false(facts_connector_uses_local_mp("nixl"));
	assert_false(facts_connector_uses_local_mp(NULL));
	assert_true(facts_connector_uses_local_mp(
		"{\"kv_connector\": \"LMCacheMPConnector\", \"kv_role\": \"kv_both\"}"));
	assert_true(facts_connector_uses_local_mp(
		"{\"kv_connector\": \"LMCacheMPConnector\", \"kv_connector_extra_config\": "
		"{\"lmcache.mp.host\": \"tcp://127.0.0.1\"}}"));
	/* a remote server is not node-local */
	assert_false(facts_connector_uses_local_mp(
		"{\"kv_connector\": \"LMCacheMPConnector\", \"kv_connector_extra_config\": "
		"{\"lmcache.mp.host\": \"tcp://cache-host\"}}"));
	/* inside a MultiConnector */
	assert_true(facts_connector_uses_local_mp(
		"{\"kv_connector\": \"MultiConnector\", \"kv_connector_extra_config\": {\"connectors\": "
		"[{\"kv_connector\": \"NixlConnector\"}, {\"kv_connector\": \"LMCacheMPConnector\"}]}}"));
	/* the name in a string value is not a use (the TUI once searched the text) */
	assert_false(facts_connector_uses_local_mp(
		"{\"kv_connector\": \"NixlConnector\", \"kv_connector_extra_config\": "
		"{\"note\": \"not LMCacheMPConnector\"}}"));
	assert_false(facts_connector_uses_local_mp("{not json LMCacheMPConnector"));
}

/* The defaults code needs come from the schema table: each lookup finds
 * its entry (the fallback, a value no entry has, is never what is returned),
 * and the typed view uses it. */
static void test_defaults_from_schema(void **state)
{
	(void)state;
	assert_int_equal(schema_default_int("resources.gpus_per_node", -77), 4);
	assert_int_equal(schema_default_int("observability.tachometer.collect_interval_ms", -77), 1000);
	assert_int_equal(schema_default_int("frontend.num_additional_frontends", -77), 9);
	assert_int_equal(schema_default_bool("observability.tachometer.default_exporters", -77), 1);
	assert_int_equal(schema_default_bool("frontend.enable_multiple_frontends", -77), 1);
	assert_int_equal(schema_default_bool("services[].enabled", -77), 1);
	assert_int_equal(schema_default_bool("services[].terminal", -77), 0);
	assert_int_equal(schema_default_bool("telemetry.enabled", -77), 0);
	assert_int_equal(schema_default_int("no.such.field", -77), -77);
	const struct schema_field *f = schema_lookup("frontend.type", NULL);
	assert_non_null(f);
	assert_string_equal(f->dflt, "\"" SCHEMA_FRONTEND_DEFAULT "\"");
	struct recipe r;
	tu_recipe_json(&r, "{}");
	assert_int_equal(r.gpus_per_node, schema_default_int("resources.gpus_per_node", -77));
	assert_string_equal(r.frontend, SCHEMA_FRONTEND_DEFAULT);
	recipe_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_five_by_three),
		cmocka_unit_test(test_local_mp),
		cmocka_unit_test(test_grid),
		cmocka_unit_test(test_defaults_from_schema),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
