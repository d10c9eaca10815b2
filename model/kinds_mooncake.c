/*
 * kinds_mooncake.c — the TRT-LLM Mooncake pool's half of the kinds table
 * (see struct trtllm_pool in kinds.h).
 *
 * Values are srtctl's at 17c4ece (backends/trtllm.py: the pool config
 * defaults and the Dynamo entry point; services/mooncake_master.py: the
 * master command and the MPI scrub; services/mooncake_donor.py: the donor's
 * address, protocol and log level).
 */
#include "model/kinds.h"

static const char *const master_argv[] = {
	"trtllm-serve", "mooncake_master", "--rpc_port", KINDS_STR(MOONCAKE_RPC_PORT_N), "--metrics_port",
	KINDS_STR(MOONCAKE_METRICS_PORT_N), "--eviction_ratio", NULL
};
static const char *const master_options[] = { "eviction_ratio", "master_timeout_s", "store_role",
					      NULL };

/* Rank zero reads the engine YAML (its path is the first argument, popped),
 * builds the connector config from it, provisions the pool around
 * dynamo.trtllm and runs that module as __main__. */
static const char dynamo_entry[] =
	"import runpy\n"
	"import sys\n"
	"import yaml\n"
	"from tensorrt_llm.llmapi.llm_args import KvCacheConnectorConfig\n"
	"from tensorrt_llm._torch.pyexecutor.connectors.mooncake_store import maybe_provision_pool\n"
	"\n"
	"with open(sys.argv.pop(1)) as handle:\n"
	"    config = yaml.safe_load(handle)\n"
	"connector = KvCacheConnectorConfig(**config[\"kv_connector_config\"])\n"
	"with maybe_provision_pool(connector):\n"
	"    runpy.run_module(\"dynamo.trtllm\", run_name=\"__main__\", alter_sys=True)\n";

const struct trtllm_pool trtllm_pool = {
	.master_argv = master_argv,
	.address_file = "/logs/mooncake_master.addr",
	.address_url = "file:///logs/mooncake_master.addr",
	.run_dir = "/logs/mooncake",
	.mpi_prefixes = "PMIX_|PMI_|OMPI_|SLURM_|SLURMD_|MPI_|OPAL_|PRTE_|HYDRA_|I_MPI_",
	.dflt_eviction_ratio = "0.05",
	.dflt_master_timeout_s = 60,
	.dflt_store_role = "both",
	.dflt_protocol = "rdma",
	.donor_log_level = "INFO",
	.master_options = master_options,
	.dynamo_entry = dynamo_entry,
};
