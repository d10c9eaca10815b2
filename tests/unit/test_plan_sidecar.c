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
#include "tests/unit/plan_testutil.h"

#define HEAD "\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", " \
	     "\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 1}, \"engine\": \"sglang\", " \
	     "\"observability\": {\"tachometer\": {\"enabled\": false}}, " \
	     "\"frontend\": {\"enable_multiple_frontends\": false}, "

static void test_sidecar_dp_attention(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD "\"dynamo\": {\"install\": false, \"event_plane\": \"nats\"}, "
			  "\"roles\": {\"prefill\": {\"nodes\": 2, \"workers\": 1, \"gpus\": 2, \"sidecar\": true, "
			  "\"kv_events\": true, \"args\": {\"tensor-parallel-size\": 2, \"data-parallel-size\": 2, "
			  "\"enable-dp-attention\": true}}, \"decode\": {\"nodes\": 2, \"workers\": 1, \"gpus\": 2, "
			  "\"sidecar\": true, \"args\": {\"tensor-parallel-size\": 2}}}}");
	char *p0 = tu_step_of(o, "prefill_0_node-01"), *p1 = tu_step_of(o, "prefill_0_node-02");
	char *d1 = tu_step_of(o, "decode_0_node-04");
	tu_has(p0, "    DYN_EVENT_PLANE: nats\n");
	tu_has(p0, "    SGLANG_RUST_BUILD_MODE: never\n");
	assert_null(strstr(p0, "CUDA_VISIBLE_DEVICES")); /* one GPU per node: the whole node */
	tu_has(p0, "command: |\n    bash -lc 'set -euo pipefail\n");
	tu_has(p0, "--port 6100 --nccl-port 17500 --disaggregation-mode prefill --skip-server-warmup "
		"--disaggregation-bootstrap-port 7200 --dist-init-addr 127.0.0.1:8300 --nnodes 2 --node-rank 0 "
		"--grpc-port 50051 --kv-events-config '\"'\"'{\"publisher\": \"zmq\", \"topic\": \"kv-events\", "
		"\"endpoint\": \"tcp://*:5200\"}'\"'\"' --incremental-streaming-output --data-parallel-size 2 ");
	tu_has(p0, "    python3 -m dynamo.sglang.sidecar --grpc-endpoint 127.0.0.1:50051 --bootstrap-host 127.0.0.1 &\n");
	tu_has(p0, "    exit \"${status}\"\n    \n    '\n");
	/* the follower holds attention-DP rank 1, which publishes: it relays, on
	 * its own gRPC port, with the KV port two on (two caches per worker) */
	tu_has(p1, "--port 0 ");
	tu_has(p1, "--grpc-port 50052 --kv-events-config '\"'\"'{\"publisher\": \"zmq\", \"topic\": \"kv-events\", "
		"\"endpoint\": \"tcp://*:5202\"}'\"'\"'");
	tu_has(p1, "    python3 -m dynamo.sglang.sidecar --grpc-endpoint 127.0.0.1:50052 &\n");
	/* a decode follower with no KV events: the engine alone */
	tu_has(d1, "command: |\n    python3 -m sglang.launch_server ");
	assert_null(strstr(d1, "--grpc-port"));
	free(p0);
	free(p1);
	free(d1);
	free(o);
}

static void test_nats(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD "\"dynamo\": {\"request_plane\": \"nats\"}, \"roles\": {\"agg\": {\"nodes\": 1, "
			  "\"workers\": 1, \"gpus\": 1}}}");
	char *n = tu_step_of(o, "service_nats");
	tu_has(n, "bash_preamble: |\n    rm -rf /tmp/nats && mkdir -p /tmp/nats\ncommand: |\n"
	       "    /configs/nats-server -js -sd /tmp/nats\n");
	free(n);
	free(o);
	o = tu_plan_of("{" HEAD "\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1}}, \"services\": "
		    "[{\"name\": \"nats\", \"type\": \"nats\", \"options\": {\"max_payload_mb\": 24}}]}");
	n = tu_step_of(o, "service_nats");
	/* 24 MiB in bytes */
	tu_has(n, "    rm -rf /tmp/nats && mkdir -p /tmp/nats && printf %s 'max_payload: 25165824\n"
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
