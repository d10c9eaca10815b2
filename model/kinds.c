/*
 * kinds.c — the table of service kinds (spec §4.2, §5.1, §6.3); the
 * `lmcache server` flags and L2 adapter types are in kinds_lmcache.c.
 *
 * Values mirror srtctl's registered kinds.  Default commands may hold the
 * placeholders of spec §4.6 ({infra_ip}); service.c substitutes them.  The
 * exporters' commands are built from their options (port, interval) by
 * service.c; the argv here is what they are with no options.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/kinds.h"

static const char *const cmd_etcd[] = {
	"/configs/etcd", "--data-dir", "/tmp/etcd", "--listen-client-urls",
	"http://0.0.0.0:2379", "--advertise-client-urls", "http://{infra_ip}:2379", NULL
};
/* JetStream on the node-local /tmp (srtctl's services/infra.py); with
 * options.max_payload_mb service.c writes a config file instead */
static const char *const cmd_nats[] = { "/configs/nats-server", "-js", "-sd", "/tmp/nats", NULL };
static const char *const cmd_mooncake_master[] = {
	"mooncake_master", "--port=8700", "--enable_http_metadata_server=true",
	"--http_metadata_server_port=8701", "--eviction_high_watermark_ratio=0.9",
	"--default_kv_lease_ttl=10000", "--rpc_thread_num=16",
	"--enable_metric_reporting=true", "--metrics_port=8702", NULL
};
static const char *const cmd_mooncake_store[] = {
	"python", "-m", "mooncake.mooncake_store_service", NULL
};
static const char *const cmd_dcgm[] = {
	"dcgm-exporter", "--collect-interval=1000", "--address", ":9401", NULL
};
static const char *const cmd_node_exporter[] = {
	"/bin/node_exporter", "--web.listen-address=:9101", "--collector.disable-defaults",
	"--collector.cpu", "--collector.infiniband", "--collector.meminfo",
	"--collector.processes", "--collector.stat", "--collector.vmstat",
	"--collector.pressure", "--collector.meminfo_numa",
	"--collector.vmstat.fields=^(oom_kill|pgpg|pswp|pgsteal|pg.*fault).*", NULL
};
static const char *const cmd_process_exporter[] = {
	"configs/process-exporter", "-config.path", "<log_dir>/process-exporter.yml",
	"-web.listen-address=:9256", "-threads=true", "-children=false", "-recheck=false", NULL
};
static const char *const cmd_lmcache[] = {
	"lmcache", "server", "--host", "0.0.0.0", "--port", LMCACHE_RPC_PORT_S,
	"--http-host", "0.0.0.0", "--http-port", LMCACHE_HTTP_PORT_S, NULL
};
/* What dry-run shows for gms: the real argv is a script sized per worker. */
static const char *const cmd_gms[] = {
	"python3", "-m", "gpu_memory_service", "--device", "<0..worker_gpu_count-1>", NULL
};

/* srtctl builds these from the service's options and its node (the donor's
 * segment size and protocol, the ray head or worker line); the words here
 * are the start of that argv, which service.c completes. */
static const char *const cmd_mooncake_donor[] = {
	"python3", "/srtctl-runtime/donor_diagnostics.py", "trtllm-serve", "mooncake_donor", NULL
};
static const char *const cmd_ray[] = { "ray", "start", NULL };

static const int ports_etcd[] = { 2379, 0 };
static const int ports_nats[] = { 4222, 0 };
static const int ports_mooncake[] = { 8700, 8701, 8702, 0 };

static const int listen_dcgm[] = { 9401, 0 };
static const int listen_node_exporter[] = { 9101, 0 };
static const int listen_process_exporter[] = { 9256, 0 };

static const char *const opt_nats[] = { "max_payload_mb", NULL };
/* store_config and device_names_by_gpu: vLLM's worker-side Mooncake JSON;
 * eviction_ratio, master_timeout_s, store_role: the TRT-LLM pool master
 * (srtctl's trtllm mooncake examples). */
static const char *const opt_mooncake[] = { "store_config", "device_names_by_gpu", "eviction_ratio",
					    "master_timeout_s", "store_role", NULL };
static const char *const opt_mooncake_donor[] = { "size", "protocol", NULL };
static const char *const opt_dcgm[] = { "port", "collect_interval_ms", "kind", NULL };
static const char *const opt_node_exporter[] = { "port", "collect_interval_ms", NULL };
static const char *const opt_process_exporter[] = { "port", "binary", NULL };
static const char *const opt_ray[] = { "port", "dashboard_port", "num_gpus", NULL };

/* Sorted by type: svc_kind_known_list() relies on it. */
const struct svc_kind svc_kinds[KIND_COUNT] = {
	[KIND_DCGM_EXPORTER] = { .type = KN_DCGM_EXPORTER, .command = cmd_dcgm, .start = "after_frontend",
	  .critical = 0, .placement = "workers",
	  .container = "nvcr.io#nvidia/k8s/dcgm-exporter:3.3.9-3.6.1-ubuntu22.04",
	  .options = opt_dcgm, .listen_ports = listen_dcgm, .ready_timeout = 120, .ready_interval = 2,
	  .help = "NVIDIA DCGM GPU metrics exporter (port 9401), scraped by tachometer" },
	[KIND_ETCD] = { .type = KN_ETCD, .command = cmd_etcd, .start = "infra", .critical = 1,
	  .placement = "infra", .ready_ports = ports_etcd, .bash_wrapper = 1,
	  .preamble = "rm -rf /tmp/etcd && mkdir -p /tmp/etcd", .discovery = 1,
	  .infra_class = 1, .ready_timeout = 120, .ready_interval = 2,
	  .help = "etcd discovery store for Dynamo (client port 2379)" },
	[KIND_GENERIC] = { .type = KN_GENERIC, .command = NULL, .start = "after_frontend", .critical = 0,
	  .placement = "head", .bash_wrapper = 1, .ready_timeout = 120, .ready_interval = 2,
	  .help = "any program: give its command" },
	[KIND_GMS] = { .type = KN_GMS, .command = cmd_gms, .start = "before_workers", .critical = 1,
	  .placement = "workers", .per_worker = 1, .bash_wrapper = 1,
	  .ready_timeout = 120, .ready_interval = 1,
	  .help = "Dynamo GPU Memory Service, one per vLLM worker (engine.failover)" },
	[KIND_LMCACHE_SERVER] = { .type = KN_LMCACHE_SERVER, .command = cmd_lmcache, .start = "before_workers",
	  .critical = 1, .placement = "workers", .bash_wrapper = 1,
	  .ready_http_port = LMCACHE_HTTP_PORT, .ready_http_path = "/healthcheck",
	  .ready_timeout = 300, .ready_interval = 2, .command_words = 2,
	  .help = "LMCache multiprocess server on each node (RPC " LMCACHE_RPC_PORT_S ", HTTP " LMCACHE_HTTP_PORT_S ")" },
	[KIND_MOONCAKE_DONOR] = { .type = KN_MOONCAKE_DONOR, .command = cmd_mooncake_donor, .start = "before_workers",
	  .critical = 1, .placement = "decode", .bash_wrapper = 1, .options = opt_mooncake_donor,
	  .ready_timeout = 120, .ready_interval = 2,
	  .help = "TRT-LLM Mooncake memory donor on each decode node (options.size)" },
	[KIND_MOONCAKE_MASTER] = { .type = KN_MOONCAKE_MASTER, .command = cmd_mooncake_master,
	  .start = "before_workers", .critical = 1, .placement = "infra",
	  .ready_ports = ports_mooncake, .bash_wrapper = 1, .discovery = 1,
	  .infra_class = 1, .options = opt_mooncake, .ready_timeout = 120,
	  .ready_interval = 2,
	  .help = "Mooncake master (RPC 8700, HTTP metadata 8701, metrics 8702)" },
	[KIND_MOONCAKE_STORE] = { .type = KN_MOONCAKE_STORE, .command = cmd_mooncake_store, .start = "before_workers",
	  .critical = 1, .placement = "workers", .bash_wrapper = 1,
	  .ready_timeout = 120, .ready_interval = 2,
	  .help = "Mooncake store service" },
	[KIND_NATS] = { .type = KN_NATS, .command = cmd_nats, .start = "infra", .critical = 1,
	  .placement = "infra", .ready_ports = ports_nats, .bash_wrapper = 1,
	  .preamble = "rm -rf /tmp/nats && mkdir -p /tmp/nats", .discovery = 1, .infra_class = 1,
	  .options = opt_nats, .ready_timeout = 120, .ready_interval = 2,
	  .help = "NATS message bus for Dynamo request/event planes (port 4222)" },
	[KIND_NODE_EXPORTER] = { .type = KN_NODE_EXPORTER, .command = cmd_node_exporter, .start = "after_frontend",
	  .critical = 0, .placement = "workers",
	  .container = "quay.io#prometheus/node-exporter:v1.8.2",
	  .options = opt_node_exporter, .listen_ports = listen_node_exporter, .ready_timeout = 120, .ready_interval = 2,
	  .help = "Prometheus node exporter (port 9101), scraped by tachometer" },
	[KIND_PROCESS_EXPORTER] = { .type = KN_PROCESS_EXPORTER, .command = cmd_process_exporter,
	  .start = "after_frontend", .critical = 0, .placement = "all",
	  .options = opt_process_exporter, .listen_ports = listen_process_exporter, .ready_timeout = 120, .ready_interval = 2,
	  .help = "per-process CPU and thread metrics (port 9256), host-native" },
	/* the first `ray start` in a fresh container imports torch: ten minutes
	 * per node (srtctl's services/ray.py RAY_READINESS_TIMEOUT) */
	[KIND_RAY] = { .type = KN_RAY, .command = cmd_ray, .start = "before_workers", .critical = 1,
	  .placement = "workers", .bash_wrapper = 1, .options = opt_ray, .ready_timeout = 600,
	  .ready_interval = 5,
	  .help = "a Ray cluster over the service's nodes: head on the first, workers on the rest" },
};
const size_t svc_kinds_count = KIND_COUNT;

/* The ports a worker step binds (srtctl's worker stage: vLLM's env
 * DYN_VLLM_KV_EVENT_PORT, VLLM_NIXL_SIDE_CHANNEL_PORT and VLLM_PORT, the
 * router layouts' `vllm serve --port`; SGLang's --port, --nccl-port and
 * --disaggregation-bootstrap-port; Dynamo's DYN_SYSTEM_PORT).  A direct
 * frontend makes the worker bind the public port itself. */
const struct worker_port worker_ports[] = {
	{ "--port (worker HTTP)", WORKER_HTTP_PORT_BASE, WORKER_HTTP_PORT_STRIDE, WP_NODE_LEADER,
	  WP_SGLANG, WP_FE_DYNAMO | WP_FE_ROUTER, 0 },
	{ "--port (worker HTTP)", WORKER_HTTP_PORT_BASE, WORKER_HTTP_PORT_STRIDE, WP_NODE_LEADER,
	  WP_VLLM, WP_FE_ROUTER, 0 },
	{ "--port (the public port: direct frontend)", FRONTEND_PUBLIC_PORT, 0, WP_NODE_LEADER,
	  WP_VLLM | WP_SGLANG, WP_FE_DIRECT, 0 },
	{ "--disaggregation-bootstrap-port", SGLANG_BOOTSTRAP_PORT_BASE, 1, WP_NODE_PREFILL_LEADER,
	  WP_SGLANG, WP_FE_ANY, 0 },
	{ "DYN_VLLM_KV_EVENT_PORT", KV_EVENTS_PORT_BASE, 1, WP_PROCESS, WP_VLLM, WP_FE_ANY, 0 },
	{ "VLLM_NIXL_SIDE_CHANNEL_PORT", NIXL_PORT_BASE, 1, WP_PROCESS, WP_VLLM, WP_FE_ANY, 1 },
	{ "VLLM_PORT", VLLM_PORT_BASE, VLLM_PORT_STRIDE, WP_PROCESS, WP_VLLM, WP_FE_ANY, 1 },
	{ "DYN_SYSTEM_PORT", DYN_SYSTEM_PORT_BASE, 1, WP_PROCESS, WP_VLLM | WP_SGLANG, WP_FE_DYNAMO, 0 },
	{ "--nccl-port", SGLANG_NCCL_PORT_BASE, 1, WP_PROCESS, WP_SGLANG, WP_FE_ANY, 0 },
};
const size_t worker_ports_count = sizeof(worker_ports) / sizeof(worker_ports[0]);

const struct svc_kind *svc_kind_find(const char *type)
{
	if (!type)
		return NULL;
	for (size_t i = 0; i < svc_kinds_count; i++)
		if (!strcmp(svc_kinds[i].type, type))
			return &svc_kinds[i];
	return NULL;
}

int svc_kind_is(const char *type, enum kind_id id)
{
	return type && !strcmp(type, svc_kinds[id].type);
}

const char *svc_kind_known_list(void)
{
	/* built from the table (sorted by type), as srtctl lists them */
	static char buf[256];
	if (!buf[0]) {
		size_t n = 0;
		for (size_t i = 0; i < KIND_COUNT; i++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? ", " : "",
					      svc_kinds[i].type);
	}
	return buf;
}
