/* The TRT-LLM Mooncake pool in the launch plan (render/plan_mooncake.h),
 * expectations from srtctl 17c4ece: services/mooncake_master.py (the
 * `trtllm-serve mooncake_master` command, its run dir and MPI scrub, mpi:
 * none), services/mooncake_donor.py (address file, segment size, protocol
 * default rdma, ready file per node, TLLM_LOG_LEVEL), backends/trtllm.py
 * (TRTLLM_MOONCAKE_MASTER_TIMEOUT on every worker, default 60; the store
 * role on prefill only; the Dynamo entry point for a mooncake_store
 * connector), cli/mixins/worker_stage.py (the worker's run dir first in its
 * preamble) and cli/mixins/service_stage.py (with_workers launched before
 * the workers).  A recipe without the pool's words keeps the upstream
 * master (srtctl 3a8e6d7, services/mooncake_master.py). */
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
	     "\"frontend\": {\"enable_multiple_frontends\": false}, " \
	     "\"observability\": {\"tachometer\": {\"enabled\": false}}, "
#define ROLES(prefill_args) "\"roles\": {\"prefill\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1, " \
	"\"args\": " prefill_args "}, \"decode\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1}}, "
#define STORE "{\"kv_connector_config\": {\"connector\": \"mooncake-store\", \"mooncake_store\": " \
	"{\"protocol\": \"rdma\"}}}"

static void test_pool_form(void **state)
{
	(void)state;
	char *p = tu_plan_of("{" HEAD "\"engine\": \"trtllm\", " ROLES(STORE)
			  "\"services\": [{\"name\": \"mooncake-master\", \"type\": \"mooncake-master\", "
			  "\"start\": \"with_workers\", \"options\": {\"master_timeout_s\": 900, "
			  "\"store_role\": \"producer\"}}, {\"name\": \"mooncake-donor\", "
			  "\"type\": \"mooncake-donor\", \"start\": \"with_workers\", "
			  "\"placement\": {\"node\": \"decode\"}, \"options\": {\"size\": \"4GiB\"}}]}");
	char *m = tu_step_of(p, "service_mooncake-master"), *d = tu_step_of(p, "service_mooncake-donor");
	char *pf = tu_step_of(p, "prefill_0_node-01"), *dc = tu_step_of(p, "decode_0_node-02");

	/* with_workers: both before the first worker */
	assert_true(strstr(p, "## service_mooncake-donor") < strstr(p, "## prefill_0_node-01"));
	tu_has(m, "    TRTLLM_MOONCAKE_MASTER_TIMEOUT: 900\n    TRTLLM_MOONCAKE_RUN_DIR: /logs/mooncake/master\n");
	tu_has(m, "srun_options:\n    mpi: none\n");
	tu_has(m, "bash_preamble: |\n    mkdir -p /logs/mooncake/master && for var in $(env | grep -oE "
	       "'^(PMIX_|PMI_|OMPI_|SLURM_|SLURMD_|MPI_|OPAL_|PRTE_|HYDRA_|I_MPI_)[A-Za-z0-9_]*=' | "
	       "tr -d =); do unset \"$var\"; done\n");
	/* eviction_ratio unset: srtctl's default 0.05 */
	tu_has(m, "command: |\n    trtllm-serve mooncake_master --rpc_port 8700 --metrics_port 8702 "
	       "--eviction_ratio 0.05 --address_file /logs/mooncake_master.addr\n");
	tu_has(d, "nodelist: node-02\n");
	tu_has(d, "    TLLM_LOG_LEVEL: INFO\n    TRTLLM_MOONCAKE_MASTER_TIMEOUT: 900\n"
	       "    TRTLLM_MOONCAKE_RUN_DIR: /logs/mooncake/donor-node-02\n");
	/* protocol unset: rdma */
	tu_has(d, "--master_server_address file:///logs/mooncake_master.addr --segment_size 4GiB "
	       "--protocol rdma --ready_file /logs/mooncake/donor-node-02.ready\n");
	tu_has(pf, "    TRTLLM_MOONCAKE_MASTER_TIMEOUT: 900\n    TRTLLM_MOONCAKE_STORE_ROLE: producer\n");
	tu_has(dc, "    TRTLLM_MOONCAKE_MASTER_TIMEOUT: 900\n");
	tu_lacks(dc, "STORE_ROLE");
	tu_lacks(pf, "MOONCAKE_MASTER:");
	tu_has(pf, "bash_preamble: |\n    export TRTLLM_MOONCAKE_RUN_DIR=\"/logs/mooncake/prefill-0\"; "
		"mkdir -p \"$TRTLLM_MOONCAKE_RUN_DIR\" && ");
	/* the connector with a mooncake_store runs dynamo.trtllm inside the pool */
	tu_has(pf, "command: |\n    trtllm-llmapi-launch python3 -c 'import runpy\n");
	tu_has(pf, "' /logs/trtllm_config_prefill.yaml --model-path /model ");
	tu_has(dc, "trtllm-llmapi-launch python3 -m dynamo.trtllm ");
	free(m);
	free(d);
	free(pf);
	free(dc);
	free(p);
}

static void test_master_defaults(void **state)
{
	(void)state;
	/* only the pool option eviction_ratio: the timeout is srtctl's default 60 */
	char *p = tu_plan_of("{" HEAD "\"engine\": \"trtllm\", " ROLES("{}")
			  "\"services\": [{\"name\": \"mooncake-master\", \"type\": \"mooncake-master\", "
			  "\"options\": {\"eviction_ratio\": 0.2}}]}");
	char *m = tu_step_of(p, "service_mooncake-master"), *pf = tu_step_of(p, "prefill_0_node-01");
	tu_has(m, "--eviction_ratio 0.2 --address_file");
	tu_has(m, "    TRTLLM_MOONCAKE_MASTER_TIMEOUT: 60\n");
	tu_has(pf, "    TRTLLM_MOONCAKE_STORE_ROLE: both\n");
	/* no mooncake_store connector: the plain module */
	tu_has(pf, "python3 -m dynamo.trtllm ");
	free(m);
	free(pf);
	free(p);
}

static void test_upstream_master_kept(void **state)
{
	(void)state;
	/* no pool word: the upstream master with its HTTP metadata server, and
	 * the workers are told where it is */
	char *p = tu_plan_of("{" HEAD "\"engine\": \"trtllm\", " ROLES("{}")
			  "\"services\": [{\"name\": \"mooncake-master\", \"type\": \"mooncake-master\"}]}");
	char *m = tu_step_of(p, "service_mooncake-master"), *pf = tu_step_of(p, "prefill_0_node-01");
	tu_has(m, "command: |\n    mooncake_master --port=8700 --enable_http_metadata_server=true");
	tu_lacks(m, "mpi: none");
	tu_lacks(m, "TRTLLM_MOONCAKE");
	tu_has(pf, "    MOONCAKE_MASTER: 127.0.0.1:8700\n");
	tu_lacks(pf, "TRTLLM_MOONCAKE");
	free(m);
	free(pf);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_form),
		cmocka_unit_test(test_master_defaults),
		cmocka_unit_test(test_upstream_master_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
