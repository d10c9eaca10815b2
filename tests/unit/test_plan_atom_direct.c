/* ATOM's direct frontend (frontend.type: atom) in the launch plan.
 * Expected lines derived by hand from SemiAnalysisAI/srt-slurm@92453cd,
 * where the frontend is registered: frontends/atom.py (AtomFrontend, a
 * DirectServerFrontend for engine atom) and frontends/direct.py
 * (worker_launch direct, worker_api_port "public": the worker binds the
 * public port 8000; start_frontends launches nothing; validate refuses
 * nginx replicas, a prefill/decode layout and other than one aggregate
 * worker, in that order, with the hint to use atomesh).  The worker
 * command is srtctl's ATOM one (backends/atom.py@1a749ed
 * build_worker_command: env ATOM_HOST_IP=<node> python3 -m
 * atom.entrypoints.openai_server --model /model --host 0.0.0.0
 * --server-port <port> -tp <GPUs>, no --kv-transfer-config on an aggregate
 * worker without extra connectors, then the role args sorted with their
 * keys verbatim, true as a bare flag), with the GPU mask of a process that
 * owns part of its node (should_set_visible_devices). */
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
	     "\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, " \
	     "\"observability\": {\"tachometer\": {\"enabled\": false}}, \"engine\": \"atom\", "
#define DIRECT "\"frontend\": {\"type\": \"atom\", \"enable_multiple_frontends\": false}, "
#define BENCH "\"benchmark\": {\"type\": \"sa-bench\", \"isl\": 128, \"osl\": 128, \"concurrencies\": \"4\"}, "

static void test_worker_owns_the_port(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD DIRECT BENCH "\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, "
			     "\"gpus\": 2, \"args\": {\"trust-remote-code\": true, \"block_size\": 16, "
			     "\"enforce-eager\": false}}}}");
	char *w = tu_step_of(o, "agg_0_node-01"), *b = tu_step_of(o, "<unnamed>");
	tu_has(w, "command: |\n    env ATOM_HOST_IP=127.0.0.1 python3 -m atom.entrypoints.openai_server "
		  "--model /model --host 0.0.0.0 --server-port 8000 -tp 2 --block_size 16 "
		  "--trust-remote-code\n");
	tu_has(w, "env_to_set:\n    CUDA_VISIBLE_DEVICES: 0,1\n    HEAD_NODE_IP: 127.0.0.1\n");
	tu_lacks(w, "--kv-transfer-config");
	tu_lacks(w, "DYN_");
	/* no router, no frontend process: the benchmark talks to the worker */
	tu_lacks(o, "## atomesh_0");
	tu_lacks(o, "## frontend_0");
	tu_has(b, "    SRTCTL_FRONTEND_TYPE: atom\n    SRT_FRONTEND_HOST: 127.0.0.1\n    SRT_FRONTEND_PORT: 8000\n");
	tu_has(b, "bash /srtctl-benchmarks/sa-bench/bench.sh http://localhost:8000 128 128 4 ");
	free(w);
	free(b);
	free(o);
}

#define ONE "\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1}}"

static void test_refusals(void **state)
{
	(void)state;
	tu_refused("{" HEAD "\"frontend\": {\"type\": \"atom\"}, " ONE "}",
		       "frontend.type: atom binds atom.entrypoints.openai_server directly; set "
		       "frontend.enable_multiple_frontends: false");
	tu_refused("{" HEAD DIRECT "\"roles\": {\"prefill\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1}, "
		       "\"decode\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1}}}",
		       "frontend.type: atom supports one aggregate worker only, not a prefill/decode layout. "
		       "Use frontend.type: atomesh for replicas or prefill/decode.");
	tu_refused("{" HEAD DIRECT "\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 2, \"gpus\": 1}}}",
		       "frontend.type: atom supports exactly one aggregate worker, got 2. "
		       "Use frontend.type: atomesh for replicas or prefill/decode.");
	/* the direct ATOM frontend serves the ATOM engine only */
	tu_refused("{\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", "
		       "\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, \"engine\": \"vllm\", "
		       DIRECT ONE "}",
		       "the launch plan for engine 'vllm' with frontend 'atom' is not rendered yet");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worker_owns_the_port),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
