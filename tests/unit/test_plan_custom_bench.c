/* benchmark.type custom in the launch plan.  Expected values from srtctl's
 * benchmarks/custom.py (`bash -lc <command>` in benchmark.container_image,
 * benchmark.env on top) and the benchmark stage's _get_benchmark_env (each
 * role's leaders as SRT_<ROLE>_IPS / _ENDPOINTS, every launched service as
 * SRT_SERVICE_<NAME>_NODES / _IPS / _NODE_COUNT, tachometer's process
 * exporter included, SRT_GPUS_PER_NODE, SRT_WORKER_NODES, the logical
 * workers' metrics URLs once each).  A job without a frontend runs it too
 * (srtctl b37bf8c, cli/mixins/benchmark_stage.py: frontend.type none skips
 * only the worker-count health gate; _get_benchmark_env leaves out
 * SRT_FRONTEND_HOST / _PORT and the metrics URLs, there being no endpoint
 * and no worker). */
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
	     "\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, \"engine\": \"sglang\", "

static void test_custom_step(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD "\"frontend\": {\"type\": \"sglang-router\", \"enable_multiple_frontends\": "
			  "false}, \"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 2, \"gpus\": 1}}, "
			  "\"services\": [{\"name\": \"side.car\", \"command\": [\"sleep\", \"1\"], "
			  "\"placement\": {\"node\": \"workers\"}}], "
			  "\"benchmark\": {\"type\": \"custom\", \"container_image\": \"bench\", "
			  "\"env\": {\"MODEL\": \"x\"}, \"command\": \"run it\"}}");
	const char *b = strstr(o, "## <unnamed>\n");
	tu_has(b, "container_image: bench\n");
	tu_has(b, "    AIPERF_SERVER_METRICS_URLS: http://127.0.0.1:6100/metrics,http://127.0.0.1:6132/metrics\n"
	       "    MODEL: x\n");
	tu_has(b, "    SRT_AGG_ENDPOINTS: 127.0.0.1:6100,127.0.0.1:6132\n    SRT_AGG_IPS: 127.0.0.1,127.0.0.1\n");
	tu_has(b, "    SRT_GPUS_PER_NODE: 8\n");
	/* the name upper-cased, the dot as _; on the three mock worker nodes */
	tu_has(b, "    SRT_SERVICE_SIDE_CAR_IPS: 127.0.0.1,127.0.0.1,127.0.0.1\n"
	       "    SRT_SERVICE_SIDE_CAR_NODES: node-01,node-02,node-03\n    SRT_SERVICE_SIDE_CAR_NODE_COUNT: 3\n");
	tu_has(b, "    SRT_SERVICE_PROCESS_EXPORTER_NODES: node-01,node-02,node-03\n");
	tu_has(b, "    SRT_WORKER_NODES: node-01,node-02,node-03\n");
	tu_has(b, "command: |\n    bash -lc 'run it'\n");
	free(o);
}

static void test_no_frontend_step(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD "\"frontend\": {\"type\": \"none\"}, \"services\": [{\"name\": \"train\", "
			  "\"command\": [\"sleep\", \"1\"], \"nodes\": 1}], "
			  "\"benchmark\": {\"type\": \"custom\", \"command\": \"run it\"}, "
			  "\"observability\": {\"tachometer\": {\"enabled\": false}}}");
	const char *b = strstr(o, "## <unnamed>\n");
	/* the job's container, on the head node, told where the service runs */
	tu_has(b, "nodelist: node-01\noutput: <output>/logs/benchmark.out\ncontainer_image: c\n");
	tu_has(b, "env_to_set:\n    SRTCTL_FRONTEND_TYPE: none\n    SRT_GPUS_PER_NODE: 8\n"
	       "    SRT_SERVICE_TRAIN_IPS: 127.0.0.1\n    SRT_SERVICE_TRAIN_NODES: node-01\n"
	       "    SRT_SERVICE_TRAIN_NODE_COUNT: 1\n    SRT_WORKER_NODES:\ncommand: |\n    bash -lc 'run it'\n");
	tu_lacks(b, "SRT_FRONTEND_HOST");
	tu_lacks(b, "AIPERF_SERVER_METRICS_URLS");
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_custom_step),
		cmocka_unit_test(test_no_frontend_step),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
