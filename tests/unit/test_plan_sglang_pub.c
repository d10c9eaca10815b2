/* SGLang's event publishers and the standalone sgl-router in the launch
 * plan.  Expected values from srtctl 5bb0467: backends/sglang.py
 * _publisher_args (kv_events over {"publisher": "zmq", "topic":
 * "kv-events"}, the process's endpoint, the replay listener, the load
 * publisher replacing args.load-publish-endpoint) with the ports of
 * ports.py (KV events 5200, load 18000, replay 19000, one per process,
 * job-wide); frontends/sgl_router.py (--host/--port, one --worker-urls
 * list, --model-id unless given, no bash wrapper). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/recipe.h"
#include "lib/util.h"
#include "render/plan.h"
#include "tests/unit/testutil.h"
#include "tests/unit/plan_testutil.h"

#define HEAD "\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", " \
	     "\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, \"engine\": \"sglang\", " \
	     "\"observability\": {\"tachometer\": {\"enabled\": false}}, "

static char *plan_of(const char *json, char **err)
{
	struct strbuf out = STRBUF_INIT;
	struct recipe r;
	int rc;
	tu_recipe_json(&r, json);
	rc = plan_render_snapshot(&out, &r, NULL, err);
	recipe_release(&r);
	if (rc < 0) {
		strbuf_release(&out);
		return NULL;
	}
	return strbuf_detach(&out, NULL);
}

static void test_sgl_router_pd(void **state)
{
	char *err = NULL;
	(void)state;
	char *o = plan_of("{" HEAD "\"frontend\": {\"type\": \"sgl-router\", \"container_image\": \"r\", "
			  "\"enable_multiple_frontends\": false, \"args\": {\"policy\": \"cache_aware\", "
			  "\"dp-aware\": true}}, \"roles\": {\"prefill\": {\"nodes\": 1, \"workers\": 2, "
			  "\"gpus\": 1, \"kv_events\": {\"replay_endpoint\": \"auto\"}, \"args\": "
			  "{\"load-publish-endpoint\": \"auto\"}}, \"decode\": {\"nodes\": 1, \"workers\": 1, "
			  "\"gpus\": 1, \"kv_events\": true}}}", &err);
	if (!o)
		fail_msg("%s", err);
	/* the second prefill: the next KV, replay and load ports; the args' own
	 * load-publish-endpoint is replaced, not repeated */
	tu_has(strstr(o, "## prefill_1_node-01\n"),
	    "--disaggregation-mode prefill --skip-server-warmup --disaggregation-bootstrap-port 7201 "
	    "--kv-events-config '{\"publisher\": \"zmq\", \"topic\": \"kv-events\", \"replay_endpoint\": "
	    "\"tcp://*:19001\", \"endpoint\": \"tcp://*:5201\"}' --load-publish-endpoint 'tcp://*:18001'\n");
	/* kv_events: true, no replay, no load publisher */
	tu_has(strstr(o, "## decode_0_node-02\n"),
	    "--kv-events-config '{\"publisher\": \"zmq\", \"topic\": \"kv-events\", \"endpoint\": "
	    "\"tcp://*:5202\"}'\n");
	tu_has(strstr(o, "## sgl_router_0\n"),
	    "output: <output>/logs/workers/node-01_sgl-router_0.out\ncontainer_image: r\n");
	tu_has(strstr(o, "## sgl_router_0\n"),
	    "use_bash_wrapper: False\ncommand: |\n    /usr/local/bin/sgl-router --host 0.0.0.0 --port 8000 "
	    "--worker-urls http://127.0.0.1:6100 http://127.0.0.1:6132 http://127.0.0.1:6100 "
	    "--model-id model --policy cache_aware --dp-aware\n");
	free(o);
}

static void test_model_id_given(void **state)
{
	char *err = NULL;
	(void)state;
	char *o = plan_of("{" HEAD "\"frontend\": {\"type\": \"sgl-router\", \"enable_multiple_frontends\": "
			  "false, \"args\": {\"model_id\": \"x\"}}, \"roles\": {\"agg\": {\"nodes\": 1, "
			  "\"workers\": 1, \"gpus\": 1}}}", &err);
	if (!o)
		fail_msg("%s", err);
	/* args.model_id (either spelling) is the one the router gets: no managed --model-id */
	assert_null(strstr(strstr(o, "## sgl_router_0\n"), "--model-id model"));
	free(o);
}

static void test_refusals(void **state)
{
	char *err = NULL;
	(void)state;
	/* load publishing without kv_events: srtctl raises */
	assert_null(plan_of("{" HEAD "\"frontend\": {\"type\": \"sglang-router\", \"enable_multiple_frontends\": "
			    "false}, \"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1, \"args\": "
			    "{\"load-publish-endpoint\": \"auto\"}}}}", &err));
	assert_non_null(strstr(err, "requires roles.agg.kv_events"));
	free(err);
}

static void test_kv_port_stride(void **state)
{
	char *err = NULL;
	(void)state;
	/* dp-size 2: each worker publishes for two caches, so every process's
	 * KV-event port is two after the previous one (srtctl's kv_events_size) */
	char *o = plan_of("{" HEAD "\"frontend\": {\"type\": \"sglang-router\", \"enable_multiple_frontends\": "
			  "false}, \"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 2, \"gpus\": 2, "
			  "\"kv_events\": true, \"args\": {\"dp-size\": 2}}}}", &err);
	if (!o)
		fail_msg("%s", err);
	tu_has(strstr(o, "## agg_0_node-01\n"), "\"endpoint\": \"tcp://*:5200\"}'");
	tu_has(strstr(o, "## agg_1_node-01\n"), "\"endpoint\": \"tcp://*:5202\"}'");
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sgl_router_pd),
		cmocka_unit_test(test_model_id_given),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_kv_port_stride),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
