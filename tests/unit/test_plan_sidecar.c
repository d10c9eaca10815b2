/* Dynamo sidecars with SGLang, and the NATS service, in the launch plan.
 * Expected values from srtctl c285a29 (backends/sglang.py
 * _build_sidecar_command and needs_telemetry_sidecar: the native server
 * with --grpc-port on the leader and on a follower whose node holds a
 * publishing attention-DP rank, --incremental-streaming-output, no
 * --enable-metrics; backends/sidecar.py: the supervisor script; the worker
 * stage: SGLANG_RUST_BUILD_MODE=never, DYN_EVENT_PLANE, no GPU mask on a
 * process owning its node) and services/infra.py (NATS: -js -sd /tmp/nats
 * after a fresh /tmp/nats; options.max_payload_mb: a config file). */
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

#define HEAD "\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", " \
	     "\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 1}, \"engine\": \"sglang\", " \
	     "\"observability\": {\"tachometer\": {\"enabled\": false}}, " \
	     "\"frontend\": {\"enable_multiple_frontends\": false}, "

static void has(const char *text, const char *what)
{
	if (!text || !strstr(text, what))
		fail_msg("want %s in:\n%s", what, text ? text : "(no such step)");
}

static char *plan_of(const char *json)
{
	struct strbuf out = STRBUF_INIT;
	struct recipe r;
	char *err = NULL;
	tu_recipe_json(&r, json);
	if (plan_render_snapshot(&out, &r, NULL, &err) < 0)
		fail_msg("%s", err);
	recipe_release(&r);
	return strbuf_detach(&out, NULL);
}

/* The text of step name, up to the next step. */
static char *step_of(const char *plan, const char *name)
{
	char *hdr = xasprintf("\n## %s\n", name);
	const char *a = strstr(plan, hdr), *b;
	free(hdr);
	if (!a) {
		fail_msg("no step %s in:\n%s", name, plan);
		return xstrdup(""); /* not reached: fail_msg does not return */
	}
	b = strstr(a + 4, "\n## ");
	return xstrndup(a, b ? (size_t)(b - a) : strlen(a));
}

static void test_sidecar_dp_attention(void **state)
{
	(void)state;
	char *o = plan_of("{" HEAD "\"dynamo\": {\"install\": false, \"event_plane\": \"nats\"}, "
			  "\"roles\": {\"prefill\": {\"nodes\": 2, \"workers\": 1, \"gpus\": 2, \"sidecar\": true, "
			  "\"kv_events\": true, \"args\": {\"tensor-parallel-size\": 2, \"data-parallel-size\": 2, "
			  "\"enable-dp-attention\": true}}, \"decode\": {\"nodes\": 2, \"workers\": 1, \"gpus\": 2, "
			  "\"sidecar\": true, \"args\": {\"tensor-parallel-size\": 2}}}}");
	char *p0 = step_of(o, "prefill_0_node-01"), *p1 = step_of(o, "prefill_0_node-02");
	char *d1 = step_of(o, "decode_0_node-04");
	has(p0, "    DYN_EVENT_PLANE: nats\n");
	has(p0, "    SGLANG_RUST_BUILD_MODE: never\n");
	assert_null(strstr(p0, "CUDA_VISIBLE_DEVICES")); /* one GPU per node: the whole node */
	has(p0, "command: |\n    bash -lc 'set -euo pipefail\n");
	has(p0, "--port 6100 --nccl-port 17500 --disaggregation-mode prefill --skip-server-warmup "
		"--disaggregation-bootstrap-port 7200 --dist-init-addr 127.0.0.1:8300 --nnodes 2 --node-rank 0 "
		"--grpc-port 50051 --kv-events-config '\"'\"'{\"publisher\": \"zmq\", \"topic\": \"kv-events\", "
		"\"endpoint\": \"tcp://*:5200\"}'\"'\"' --incremental-streaming-output --data-parallel-size 2 ");
	has(p0, "    python3 -m dynamo.sglang.sidecar --grpc-endpoint 127.0.0.1:50051 --bootstrap-host 127.0.0.1 &\n");
	has(p0, "    exit \"${status}\"\n    \n    '\n");
	/* the follower holds attention-DP rank 1, which publishes: it relays, on
	 * its own gRPC port, with the KV port two on (two caches per worker) */
	has(p1, "--port 0 ");
	has(p1, "--grpc-port 50052 --kv-events-config '\"'\"'{\"publisher\": \"zmq\", \"topic\": \"kv-events\", "
		"\"endpoint\": \"tcp://*:5202\"}'\"'\"'");
	has(p1, "    python3 -m dynamo.sglang.sidecar --grpc-endpoint 127.0.0.1:50052 &\n");
	/* a decode follower with no KV events: the engine alone */
	has(d1, "command: |\n    python3 -m sglang.launch_server ");
	assert_null(strstr(d1, "--grpc-port"));
	free(p0);
	free(p1);
	free(d1);
	free(o);
}

static void test_nats(void **state)
{
	(void)state;
	char *o = plan_of("{" HEAD "\"dynamo\": {\"request_plane\": \"nats\"}, \"roles\": {\"agg\": {\"nodes\": 1, "
			  "\"workers\": 1, \"gpus\": 1}}}");
	char *n = step_of(o, "service_nats");
	has(n, "bash_preamble: |\n    rm -rf /tmp/nats && mkdir -p /tmp/nats\ncommand: |\n"
	       "    /configs/nats-server -js -sd /tmp/nats\n");
	free(n);
	free(o);
	o = plan_of("{" HEAD "\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1}}, \"services\": "
		    "[{\"name\": \"nats\", \"type\": \"nats\", \"options\": {\"max_payload_mb\": 24}}]}");
	n = step_of(o, "service_nats");
	/* 24 MiB in bytes */
	has(n, "    rm -rf /tmp/nats && mkdir -p /tmp/nats && printf %s 'max_payload: 25165824\n"
	       "    jetstream { store_dir: \"/tmp/nats\" }\n    ' > /tmp/nats.conf\ncommand: |\n"
	       "    /configs/nats-server -c /tmp/nats.conf\n");
	free(n);
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sidecar_dp_attention),
		cmocka_unit_test(test_nats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
