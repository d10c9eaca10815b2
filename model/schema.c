/*
 * schema.c — the field table of schema.h and its lookups.
 *
 * The help texts are ours, written from the recipe specification; keep each
 * `help` to one line without a full stop and `long_help` to a few sentences.
 * Keep the table sorted by pattern, then variant (test_schema checks it).
 */
#include "model/schema.h"

#include "model/scalar.h"

#include <ctype.h>
#include <stdio.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "model/images.h"
#include "model/kinds.h"
#include "lib/json_read.h"

#define S_ SCHEMA_STR
#define I_ SCHEMA_INT
#define N_ SCHEMA_NUM
#define B_ SCHEMA_BOOL
#define Z_ SCHEMA_NULL
#define M_ SCHEMA_MAP
#define L_ SCHEMA_LIST
#define A_ SCHEMA_ANY

/* pattern, variant, types, flags, default, allowed, step, ref, help, long help */
#define E(p, v, t, fl, d, a, st, rf, h, lh) { p, v, t, fl, d, a, h, lh, st, rf }

const char *const schema_engine_types[] = {
	"atom", "sglang", "tilert", "tokenspeed", "trtllm", "vllm", "mocker", NULL
};
static const char *const A_schema[] = { "2", NULL };
static const char *const A_precision[] = { "fp4", "fp8", "fp16", "bf16", NULL };
static const char *const A_colocate[] = { "colocate", NULL };
static const char *const A_restart[] = { "never", "on-failure", "always", NULL };
static const char *const A_failover_restart[] = { "always", "never", NULL };
static const char *const A_vllm_connector[] = { "nixl", "lmcache", "lmcache-mp", "kvbm", "moriio",
						 NULL };
static const char *const A_atom_connector[] = { "mooncake", NULL };
static const char *const A_mooncake_proto[] = { "rdma", "tcp", NULL };
static const char *const A_dp_launch[] = { "per_gpu", "per_node", NULL };
static const char *const A_numa_local[] = { "local", NULL };
static const char *const A_frontend[] = { "dynamo", "sglang-router", "vllm-router", "smg", "llm-d",
					  "atomesh", "tilert-router", "sglang", "vllm",
					  "trtllm_serve", "atom", "none", "sgl-router", NULL };
static const char *const A_frontend_node[] = { "head", "first_decode", "dedicated", NULL };
static const char *const A_bench_node[] = { "head", "last_decode", "dedicated", NULL };
static const char *const A_bench_type[] = { "manual", "sa-bench", "custom", "agentperf", NULL };
static const char *const A_request_plane[] = { "nats", "tcp", "http", NULL }; /* kinds-ok: planes */
static const char *const A_event_plane[] = { "nats", "zmq", NULL }; /* kinds-ok: planes */
static const char *const A_sweep_mode[] = { "zip", "grid", NULL };
static const char *const A_host_nodes[] = { "all", "workers", NULL };
static const char *const A_prof_type[] = { "none", "nsys", "nsys-time", "torch", NULL };
static const char *const A_capture_scope[] = { "selected", "all", NULL };
static const char *const A_capture_window[] = { "measured_workload", "including_startup", NULL };
static const char *const A_cpu_sampling[] = { "system-wide", "process-tree", "none", NULL };
static const char *const A_exporter_kind[] = { "dcgm", "custom", NULL };
static const char *const A_power_source[] = { "auto", "acpi", "dcgm", NULL };
/* srtctl's order; the names are the kinds table's (model/kinds.h) */
static const char *const A_svc_type[] = { KN_GENERIC, KN_ETCD, KN_NATS, KN_MOONCAKE_MASTER,
					  KN_MOONCAKE_STORE, KN_MOONCAKE_DONOR, KN_DCGM_EXPORTER,
					  KN_NODE_EXPORTER, KN_PROCESS_EXPORTER, KN_LMCACHE_SERVER, KN_RAY,
					  KN_GMS, NULL };
static const char *const A_svc_node[] = { "head", "infra", "dedicated", "prefill", "decode", "agg",
					  "workers", "compute", "all", NULL };
static const char *const A_svc_per[] = { "node", "worker", NULL };
static const char *const A_svc_start[] = { "infra", "before_workers", "with_workers", "after_frontend", NULL };
static const char *const A_metrics_nodes[] = { "all", "first", NULL };
static const char *const A_atom_kv[] = { "lmcache_offload", "lmcache_mp", NULL };
static const char *const A_atom_kv_role[] = { "kv_both", "offload", "kv_producer", "kv_consumer",
					      NULL };

const struct schema_field schema_fields[] = {
/* BEGIN TABLE */
	E("", NULL, M_, 0, NULL, NULL, STEP_BASICS, NULL,
	  "An srtctl recipe (schema 2)",
	  "One Slurm job: the model, the resources, the engine and its roles, the frontend, services and the benchmark. Override files wrap a recipe in `base` plus `override_*` sections."),
	E("benchmark", NULL, M_, 0, NULL, NULL, STEP_BENCHMARK, NULL,
	  "The load generator run once the frontend is healthy",
	  "type selects the runner; each runner reads its own subset of the keys below. A recipe with a terminal service has no benchmark step."),
	E("benchmark.agentperf_client_dir", NULL, S_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "agentperf: client directory",
	  "Trajectory replay client location."),
	E("benchmark.agentperf_config", NULL, S_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "agentperf: workload file inside the container",
	  "The endpoint, model and concurrency are filled in by srtctl."),
	E("benchmark.aiperf_args", NULL, M_, SF_OPEN, "{}", NULL, STEP_BENCHMARK, NULL,
	  "Extra aiperf flags",
	  "Each key: value becomes an aiperf flag."),
	E("benchmark.aiperf_package", NULL, S_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "pip spec of aiperf to install first",
	  "For example \"aiperf>=0.7.0\"."),
	E("benchmark.categories", NULL, L_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "LongBench v2: task categories to run",
	  "Unset runs every category."),
	E("benchmark.categories[]", NULL, S_, 0, NULL, NULL, STEP_BENCHMARK, NULL,
	  "One category",
	  "A LongBench v2 category name."),
	E("benchmark.colocate_with_frontend", NULL, B_, 0, "true", NULL, STEP_BENCHMARK, NULL,
	  "Dedicated client and frontend share one reserved node",
	  "When several components ask for a dedicated node, true gives them one node together; false gives each its own."),
	E("benchmark.command", NULL, S_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "custom: shell command run with bash -lc",
	  "Passed verbatim: srtctl substitutes no placeholders in it."),
	E("benchmark.concurrencies", NULL, L_ | S_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Concurrency levels: a list or an x-separated string such as \"4x8\"",
	  "One benchmark phase per level; telemetry measures each phase separately."),
	E("benchmark.concurrencies[]", NULL, I_, 0, NULL, NULL, STEP_BENCHMARK, NULL,
	  "One concurrency level",
	  "Concurrent requests kept in flight."),
	E("benchmark.concurrency", NULL, I_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Router and agentperf runners: one concurrency level",
	  "Use concurrencies for runners that sweep levels."),
	E("benchmark.container_image", NULL, S_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Image of the client (custom, agentperf)",
	  "Unset uses model.container."),
	E("benchmark.custom_tokenizer", NULL, S_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Tokenizer class as module.path.ClassName",
	  "Unset uses the model's tokenizer."),
	E("benchmark.dataset_name", NULL, S_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "sa-bench: dataset name",
	  "Unset uses synthetic random requests."),
	E("benchmark.dataset_path", NULL, S_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "sa-bench: dataset file inside the container",
	  "Mount it with extra_mount."),
	E("benchmark.env", NULL, M_, SF_OPEN, "{}", NULL, STEP_BENCHMARK, NULL,
	  "Extra environment of the client (custom, agentperf)",
	  "On top of the top-level environment."),
	E("benchmark.env.*", NULL, S_, 0, NULL, NULL, STEP_BENCHMARK, NULL,
	  "One environment variable (a string)",
	  "Quote numbers and booleans."),
	E("benchmark.isl", NULL, I_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Input length of synthetic requests, in tokens",
	  "Read by sa-bench and similar runners."),
	E("benchmark.itl_threshold_ms", NULL, I_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Goodput: inter-token latency limit in ms",
	  "Unset uses 25."),
	E("benchmark.max_context_length", NULL, I_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "LongBench v2: skip longer examples (tokens)",
	  "Unset keeps all examples."),
	E("benchmark.max_tokens", NULL, I_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Accuracy runners: most generated tokens per answer",
	  "Unset uses the runner's default."),
	E("benchmark.mooncake_workload", NULL, S_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Mooncake router runner: workload name",
	  "Replays a Mooncake trace with aiperf."),
	E("benchmark.num_examples", NULL, I_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Accuracy runners: number of examples",
	  "Unset uses the runner's default."),
	E("benchmark.num_prompts_mult", NULL, I_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Prompts per phase as a multiple of the concurrency",
	  "Unset uses 10."),
	E("benchmark.num_requests", NULL, I_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Router runners: number of requests",
	  "Unset uses the runner's default."),
	E("benchmark.num_shots", NULL, I_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "GSM8K: few-shot examples per prompt",
	  "Unset uses the runner's default."),
	E("benchmark.num_threads", NULL, I_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Accuracy runners: concurrent evaluation requests",
	  "Unset uses the runner's default."),
	E("benchmark.num_warmup_mult", NULL, I_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Warm-up prompts as a multiple of the concurrency",
	  "Unset uses 2."),
	E("benchmark.osl", NULL, I_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Output length of synthetic requests, in tokens",
	  "Read by sa-bench and similar runners."),
	E("benchmark.placement", NULL, M_, 0, NULL, NULL, STEP_BENCHMARK, NULL,
	  "Where the benchmark client runs",
	  "See placement.node."),
	E("benchmark.placement.node", NULL, S_, SF_WARN, "\"head\"", A_bench_node, STEP_BENCHMARK, NULL,
	  "head, last_decode or dedicated",
	  "head is the orchestrator's node; last_decode keeps the client off the prefill node; dedicated reserves a node."),
	E("benchmark.prefix_ratios", NULL, L_ | S_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Router runner: shared-prefix ratios (list or space-separated string)",
	  "One phase per ratio."),
	E("benchmark.prefix_ratios[]", NULL, N_, 0, NULL, NULL, STEP_BENCHMARK, NULL,
	  "One prefix ratio",
	  "Between 0 and 1."),
	E("benchmark.random_range_ratio", NULL, N_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Spread of random input/output lengths",
	  "Unset uses 0.8."),
	E("benchmark.repeat", NULL, I_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Accuracy runners: times each example is evaluated",
	  "Scores are averaged over the repeats."),
	E("benchmark.req_rate", NULL, S_ | I_ | Z_, 0, "\"inf\"", NULL, STEP_BENCHMARK, NULL,
	  "Request arrival rate per second (inf: as fast as concurrency allows)",
	  "A number, or the string inf."),
	E("benchmark.reuse_http_connections", NULL, B_, 0, "false", NULL, STEP_BENCHMARK, NULL,
	  "sa-bench: reuse one HTTP connection pool",
	  "Off keeps one connection per request."),
	E("benchmark.slow_down_sleep_time", NULL, N_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "sa-bench with SGLang: slow_down sleep on decode workers",
	  "Unset turns the feature off."),
	E("benchmark.slow_down_wait_time", NULL, N_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "sa-bench with SGLang: seconds until slow_down is cleared",
	  "Unset turns the feature off."),
	E("benchmark.stream_output", NULL, B_, 0, "false", NULL, STEP_BENCHMARK, NULL,
	  "Mirror the benchmark log to the job's output while it runs",
	  "The log file is kept either way."),
	E("benchmark.sweep", NULL, M_ | Z_, SF_IGNORED, "null", NULL, STEP_BENCHMARK, NULL,
	  "Accepted and ignored; use the top-level sweep block",
	  "No runner reads it."),
	E("benchmark.sweep.mode", NULL, S_, 0, "\"zip\"", A_sweep_mode, STEP_BENCHMARK, NULL,
	  "zip or grid",
	  "Ignored with the rest of benchmark.sweep."),
	E("benchmark.sweep.parameters", NULL, M_, SF_OPEN, "{}", NULL, STEP_BENCHMARK, NULL,
	  "Parameter name to list of values",
	  "Ignored with the rest of benchmark.sweep."),
	E("benchmark.sweep.parameters.*", NULL, L_, 0, NULL, NULL, STEP_BENCHMARK, NULL,
	  "Values of one parameter",
	  "A list; ignored with the rest of benchmark.sweep."),
	E("benchmark.temperature", NULL, N_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Sampling temperature",
	  "Unset uses the runner's default."),
	E("benchmark.top_k", NULL, I_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Top-k sampling cutoff",
	  "Unset uses the runner's default."),
	E("benchmark.top_p", NULL, N_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Nucleus sampling threshold",
	  "Unset uses the runner's default."),
	E("benchmark.trace_file", NULL, S_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Trace replay: trace file",
	  "Replayed with aiperf."),
	E("benchmark.ttft_threshold_ms", NULL, I_ | Z_, 0, "null", NULL, STEP_BENCHMARK, NULL,
	  "Goodput: time-to-first-token limit in ms",
	  "Unset uses 2000."),
	E("benchmark.type", NULL, S_, SF_SUGGEST, "\"manual\"", A_bench_type, STEP_BENCHMARK, NULL,
	  "Runner: manual (none), sa-bench, custom, agentperf, or an accuracy/router runner",
	  "manual starts no client: the job serves until its time limit."),
	E("benchmark.use_chat_template", NULL, B_, 0, "true", NULL, STEP_BENCHMARK, NULL,
	  "Pass --use-chat-template to the client",
	  "Wraps prompts in the model's chat template."),
	E("container_mounts", NULL, M_, SF_OPEN, "{}", NULL, STEP_ADVANCED, NULL,
	  "Extra mounts: host path to container path",
	  "Both sides may use placeholders."),
	E("container_mounts.*", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "Container path for this host path",
	  "Where the host path appears inside every container."),
	E("dynamo", NULL, M_, 0, NULL, NULL, STEP_FRONTEND, NULL,
	  "Which Dynamo to install and how its planes talk",
	  "Read when the frontend is dynamo or sidecars are used."),
	E("dynamo.event_plane", NULL, S_ | Z_, SF_STR_ONLY, "null", A_event_plane, STEP_FRONTEND, NULL,
	  "KV and worker event transport: nats or zmq (null: image default)",
	  "nats also starts a NATS service."),
	E("dynamo.install", NULL, B_, 0, "true", NULL, STEP_FRONTEND, NULL,
	  "Install Dynamo in the container before workers start",
	  "false when the image already has it."),
	E("dynamo.request_plane", NULL, S_, 0, "\"tcp\"", A_request_plane, STEP_FRONTEND, NULL,
	  "How frontends send requests to workers: tcp, nats or http",
	  "nats also starts a NATS service."),
	E("dynamo.sidecar", NULL, B_, 0, "false", NULL, STEP_ADVANCED, NULL,
	  "Job-wide native sidecar mode",
	  "Prefer roles.<role>.sidecar: true."),
	E("dynamo.sidecar_args", NULL, L_, 0, "[]", NULL, STEP_ADVANCED, NULL,
	  "Extra arguments for the sidecar",
	  "Appended to the sidecar command."),
	E("dynamo.sidecar_args[]", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One sidecar argument",
	  "Passed verbatim."),
	E("dynamo.sidecar_binary", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Standalone sidecar executable",
	  "Unset runs the Python sidecar module of the engine."),
	E("dynamo.sidecar_context_length", NULL, I_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Context length the sidecar advertises (TRT-LLM)",
	  "Unset reads it from the engine."),
	E("dynamo.sidecar_port", NULL, I_, 0, "50051", NULL, STEP_ADVANCED, NULL,
	  "Base gRPC port between engine and sidecar",
	  "Workers on one node get fixed offsets from it."),
	E("dynamo.sidecar_startup_timeout", NULL, I_, 0, "3600", NULL, STEP_ADVANCED, NULL,
	  "Seconds to wait for the engine's gRPC endpoint",
	  "Raise it for very large models."),
	E("dynamo.source", NULL, M_ | Z_, 0, "null", NULL, STEP_FRONTEND, NULL,
	  "Dynamo version: exactly one of git+rev, pypi or wheel",
	  "Unset installs the release srtctl pins. pypi: \"1.4.2\" installs ai-dynamo-runtime and ai-dynamo 1.4.2."),
	E("dynamo.source.git", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Repository to build Dynamo from",
	  "Needs rev. Defaults to the upstream repository when only rev is given."),
	E("dynamo.source.patches", NULL, L_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Cargo dependency replacements applied before the build",
	  "Only with git."),
	E("dynamo.source.patches[]", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One dependency replacement",
	  "Applied tree-wide."),
	E("dynamo.source.pypi", NULL, S_ | Z_, 0, "null", NULL, STEP_FRONTEND, NULL,
	  "Dynamo release from PyPI, e.g. \"1.4.2\"",
	  "Quote it so YAML keeps it a string."),
	E("dynamo.source.rev", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Commit, tag or refs/pull/<n>/head to build",
	  "Use an immutable ref."),
	E("dynamo.source.sha", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "The commit rev resolved to (filled in by srtctl apply)",
	  "Write it only to pin an exact commit."),
	E("dynamo.source.wheel", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Staged nightly ai-dynamo version",
	  "Installs a pre-built wheel."),
	E("dynamo.top_of_tree", NULL, B_, 0, "false", NULL, STEP_ADVANCED, NULL,
	  "Build Dynamo from its latest commit",
	  "Unpinned; prefer source.git with a fixed rev."),
	E("enable_config_dump", NULL, B_, SF_IGNORED, "true", NULL, STEP_ADVANCED, NULL,
	  "Accepted and ignored",
	  "Kept so older recipes still load."),
	E("engine", NULL, S_ | M_ | Z_, SF_STR_ONLY, "null", schema_engine_types, STEP_ENGINE, NULL,
	  "Inference engine: a name, or a mapping with type and engine-wide options",
	  "Either `engine: vllm` or `engine: {type: vllm, connector: nixl, ...}`. Set it here for every role, or set an engine on every role instead; the two forms cannot be mixed."),
	E("engine.allow_prefill_decode_colocation", "vllm", B_, 0, "false", NULL, STEP_TOPOLOGY, NULL,
	  "Let prefill and decode workers share a node",
	  "When the combined GPUs fit on one node, decode may start on the node prefill left partly used."),
	E("engine.allow_prefill_decode_colocation_across_nodes", "vllm", B_, 0, "false", NULL, STEP_TOPOLOGY, NULL,
	  "Pack prefill and decode contiguously across several nodes",
	  "Together with allow_prefill_decode_colocation, packs workers over the fewest nodes instead of separate prefill and decode node pools."),
	E("engine.block_size", "mocker", I_ | Z_, 0, "null", NULL, STEP_ENGINE, NULL,
	  "KV-cache block size in tokens (null: mocker default)",
	  "Tokens per simulated KV block."),
	E("engine.connector", "atom", S_, 0, "\"mooncake\"", A_atom_connector, STEP_ENGINE, NULL,
	  "ATOM prefill/decode KV transfer (only mooncake)",
	  "ATOM moves KV between prefill and decode with Mooncake; srtctl adds the Mooncake entry to each P/D worker's --kv-transfer-config."),
	E("engine.connector", "vllm", S_ | Z_, SF_SUGGEST, "\"nixl\"", A_vllm_connector, STEP_CONNECTORS, NULL,
	  "Default KV connector: a preset name or raw kv-transfer-config JSON",
	  "Presets: nixl (NIXL P/D transfer), lmcache (in-process LMCache), lmcache-mp (LMCache multi-process: talks to an lmcache-server on the same node, which srtctl adds), kvbm (Dynamo KV block manager), moriio (needs frontend.type: vllm-router). Anything else is passed verbatim as --kv-transfer-config, so it must be JSON. null or none means no connector. roles.<role>.args.connector overrides it per role."),
	E("engine.data_parallel_size", "mocker", I_, 0, "1", NULL, STEP_ENGINE, NULL,
	  "Simulated data-parallel ranks per worker",
	  "How many data-parallel ranks each simulated worker has."),
	E("engine.decode_speedup_ratio", "mocker", N_, 0, "1.0", NULL, STEP_ENGINE, NULL,
	  "Extra speed-up for decode steps only",
	  "Multiplies speedup_ratio for decode steps."),
	E("engine.dp_launch_mode", "vllm", S_, 0, "\"per_node\"", A_dp_launch, STEP_ENGINE, NULL,
	  "Data-parallel process layout: per_node or per_gpu",
	  "per_node lets vLLM manage the node-local part of a DP x TP x PP topology in one process group; per_gpu starts one process per GPU."),
	E("engine.enable_chunked_prefill", "mocker", B_, 0, "true", NULL, STEP_ENGINE, NULL,
	  "Simulate chunked prefill",
	  "false passes --no-enable-chunked-prefill to the mocker."),
	E("engine.enable_prefix_caching", "mocker", B_, 0, "true", NULL, STEP_ENGINE, NULL,
	  "Simulate prefix caching",
	  "false passes --no-enable-prefix-caching to the mocker."),
	E("engine.engine_type", "mocker", S_, 0, "\"vllm\"", NULL, STEP_ENGINE, NULL,
	  "Engine whose scheduler the mocker imitates",
	  "The simulator copies this engine's scheduling and KV-cache behaviour."),
	E("engine.failover", "vllm", M_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Shadow engines for fast recovery (Dynamo frontend only)",
	  "When set, each worker keeps standby engines on its GPUs and srtctl adds a gms service that holds the weights."),
	E("engine.failover.restart", NULL, S_, 0, "\"always\"", A_failover_restart, STEP_ADVANCED, NULL,
	  "What happens when an engine exits: always relaunch it in place, or never",
	  "From srtctl's features/vllm-failover example: always (the default) relaunches an exited engine, never leaves it down."),
	E("engine.failover.restart_backoff_seconds", NULL, N_, 0, "5", NULL, STEP_ADVANCED, NULL,
	  "Seconds to wait before relaunching an exited engine",
	  "Default 5."),
	E("engine.failover.shadow_engines", NULL, I_, 0, "1", NULL, STEP_ADVANCED, NULL,
	  "Standby engines per worker",
	  "How many shadow engines each worker keeps ready."),
	E("engine.failover.shared_dir", NULL, S_, 0, "\"/dev/shm\"", NULL, STEP_ADVANCED, NULL,
	  "Node-local directory every container on a node sees",
	  "Holds the GMS sockets and lock files of each worker."),
	E("engine.gpu_type", "sglang", S_ | Z_, SF_IGNORED, "null", NULL, STEP_ENGINE, NULL,
	  "Accepted and ignored; set resources.gpu_type",
	  "Kept only so old recipes still load: srtctl does not read it."),
	E("engine.kv_cache_dtype", "mocker", S_ | Z_, 0, "null", NULL, STEP_ENGINE, NULL,
	  "KV-cache dtype the simulation sizes blocks for",
	  "Changes the simulated bytes per block."),
	E("engine.kv_transfer_bandwidth", "mocker", N_ | Z_, 0, "null", NULL, STEP_ENGINE, NULL,
	  "Simulated prefill-to-decode KV bandwidth",
	  "Used to simulate the cost of moving KV between roles."),
	E("engine.max_num_batched_tokens", "mocker", I_, 0, "8192", NULL, STEP_ENGINE, NULL,
	  "Most tokens scheduled in one step",
	  "Scheduler limit of the simulated engine."),
	E("engine.max_num_seqs", "mocker", I_, 0, "256", NULL, STEP_ENGINE, NULL,
	  "Most sequences scheduled in one step",
	  "Scheduler limit of the simulated engine."),
	E("engine.mooncake_protocol", "atom", S_ | Z_, SF_STR_ONLY, "null", A_mooncake_proto, STEP_ENGINE, NULL,
	  "Mooncake transport: rdma or tcp (null: ATOM decides)",
	  "When set, the generated Mooncake connector entry carries \"protocol\": <value>."),
	E("engine.num_gpu_blocks_override", "mocker", I_, 0, "16384", NULL, STEP_ENGINE, NULL,
	  "KV-cache blocks of the simulated engine",
	  "The simulated KV cache size in blocks."),
	E("engine.num_workers", "mocker", I_, 0, "1", NULL, STEP_ENGINE, NULL,
	  "Mocker engines per worker process",
	  "How many simulated engines one worker process runs."),
	E("engine.numa_cpu_bind", "trtllm", B_, 0, "false", NULL, STEP_ENGINE, NULL,
	  "Also pin worker CPUs to their NUMA node",
	  "A stricter CPU affinity applied at launch, in addition to numa_memory_bind."),
	E("engine.numa_memory_bind", "trtllm", B_ | S_ | Z_, SF_STR_ONLY, "null", A_numa_local, STEP_ENGINE, NULL,
	  "Worker memory NUMA policy: true, false, \"local\" or null",
	  "null binds memory to NUMA nodes 0,1 only for gb200/gb300 class prefill and decode workers; true always does; false never; local binds to the local node."),
	E("engine.preemption_mode", "mocker", S_ | Z_, 0, "null", NULL, STEP_ENGINE, NULL,
	  "Scheduler preemption policy (null: mocker default)",
	  "Passed to the simulated scheduler."),
	E("engine.publish_events_and_metrics", "trtllm", B_ | Z_, 0, "null", NULL, STEP_ENGINE, NULL,
	  "Legacy --publish-events-and-metrics switch",
	  "true emits only the legacy flag whatever publish_metrics says; false or null uses publish_metrics."),
	E("engine.publish_metrics", "trtllm", B_, 0, "true", NULL, STEP_ENGINE, NULL,
	  "Pass --publish-metrics to the Dynamo TRT-LLM worker",
	  "Publishes engine metrics without KV events; set false for Dynamo builds that lack the flag."),
	E("engine.sequential_node_start", "trtllm", I_, 0, "0", NULL, STEP_ENGINE, NULL,
	  "Workers of one node started at a time (0: all at once)",
	  "1 starts them one by one, each ready before the next; N > 1 starts N at a time."),
	E("engine.served_model_name", "tilert", S_ | Z_, 0, "null", NULL, STEP_ENGINE, NULL,
	  "Model name reported to clients (null: default)",
	  "The name clients put in the request's model field."),
	E("engine.served_model_name", "trtllm", S_ | Z_, 0, "null", NULL, STEP_ENGINE, NULL,
	  "Model name clients must request (null: checkpoint directory name)",
	  "Set it when the client cannot be told the directory name."),
	E("engine.set_visible_devices", "vllm", B_, 0, "false", NULL, STEP_ENGINE, NULL,
	  "Restrict GPUs with an environment mask instead of --device-ids",
	  "false passes --device-ids to each worker; true sets the visible-devices variable instead."),
	E("engine.speedup_ratio", "mocker", N_, 0, "100.0", NULL, STEP_ENGINE, NULL,
	  "How much faster than real time the simulation runs",
	  "A ratio of 100 runs the simulated engine a hundred times faster than real hardware would."),
	E("engine.startup_time", "mocker", N_ | Z_, 0, "null", NULL, STEP_ENGINE, NULL,
	  "Simulated model load time in seconds",
	  "Delay before the simulated engine reports ready."),
	E("engine.type", NULL, S_, 0, NULL, schema_engine_types, STEP_ENGINE, NULL,
	  "Engine type: vllm, sglang, trtllm, atom, tilert, tokenspeed or mocker",
	  "Selects which engine-wide options the mapping accepts and which worker command is launched."),
	E("engine.vllm_serve_binary", "vllm", S_, 0, "\"vllm\"", NULL, STEP_ENGINE, NULL,
	  "Executable used by the direct vllm frontend",
	  "Replaces `vllm` in `vllm serve` (for example vllm-rs)."),
	E("environment", NULL, M_, SF_OPEN, "{}", NULL, STEP_ENGINE, NULL,
	  "Environment for every worker, frontend and benchmark step",
	  "Applied after roles.<role>.env and wins over it. Values may use {node} and {node_id}. Services do not inherit it: repeat what they need (for LMCache, PYTHONHASHSEED) in the service's env."),
	E("environment.*", NULL, S_, 0, NULL, NULL, STEP_ENGINE, NULL,
	  "One environment variable (a string)",
	  "Quote numbers and booleans (\"0\", \"true\") so they stay strings."),
	E("extra_mount", NULL, L_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Extra mounts as host:container[:ro] strings",
	  "$VARS expand; {placeholders} do not."),
	E("extra_mount[]", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One mount, host:container[:ro]",
	  "Add :ro for a read-only mount."),
	E("frontend", NULL, M_, 0, NULL, NULL, STEP_FRONTEND, NULL,
	  "The public HTTP endpoint: Dynamo, a router, or a direct worker",
	  "Decides how requests reach the workers and how workers are registered."),
	E("frontend.args", NULL, M_ | Z_, SF_OPEN, "null", NULL, STEP_FRONTEND, NULL,
	  "Router command-line arguments",
	  "Each key: value becomes --key value (router-mode: kv gives --router-mode kv)."),
	E("frontend.container_image", NULL, S_ | Z_, 0, "null", NULL, STEP_FRONTEND, NULL,
	  "Router image (default: the engine image)",
	  "Static routers use the model container when unset."),
	E("frontend.ctx_router", NULL, M_ | Z_, SF_OPEN, "null", NULL, STEP_FRONTEND, NULL,
	  "trtllm_serve: context router options",
	  "Ignored by other frontends."),
	E("frontend.enable_multiple_frontends", NULL, B_, 0, "true", NULL, STEP_FRONTEND, NULL,
	  "Put nginx in front of several router replicas",
	  "true starts nginx and num_additional_frontends + 1 routers; false starts one router and no nginx."),
	E("frontend.env", NULL, M_ | Z_, SF_OPEN, "null", NULL, STEP_FRONTEND, NULL,
	  "Environment for the frontend processes",
	  "The top-level environment is applied to frontends too."),
	E("frontend.env.*", NULL, S_, 0, NULL, NULL, STEP_FRONTEND, NULL,
	  "One environment variable (a string)",
	  "Quote numbers and booleans."),
	E("frontend.epp_config", NULL, M_ | Z_, SF_OPEN, "null", NULL, STEP_FRONTEND, NULL,
	  "llm-d Endpoint Picker configuration",
	  "Only for frontend.type: llm-d."),
	E("frontend.gen_router", NULL, M_ | Z_, SF_OPEN, "null", NULL, STEP_FRONTEND, NULL,
	  "trtllm_serve: generation router options",
	  "Ignored by other frontends."),
	E("frontend.nginx_container", NULL, S_, 0, "\"nginx:1.27.4\"", NULL, STEP_FRONTEND, NULL,
	  "nginx image",
	  "Used only with enable_multiple_frontends."),
	E("frontend.nginx_keepalive_timeout", NULL, S_, 0, "\"600s\"", NULL, STEP_FRONTEND, NULL,
	  "Idle keepalive timeout in nginx",
	  "Long enough for agentic sessions with long think time."),
	E("frontend.nginx_raise_ulimit", NULL, B_, 0, "false", NULL, STEP_FRONTEND, NULL,
	  "Raise the open-file limit for nginx",
	  "Enable on clusters that allow it; also sets worker_rlimit_nofile."),
	E("frontend.nginx_session_affinity", NULL, B_, 0, "false", NULL, STEP_FRONTEND, NULL,
	  "Route one session to one frontend",
	  "Hashes nginx_session_affinity_header to pick the frontend."),
	E("frontend.nginx_session_affinity_header", NULL, S_, 0, "\"X-Dynamo-Session-ID\"", NULL, STEP_FRONTEND, NULL,
	  "Header hashed for session affinity",
	  "Set X-Correlation-ID for clients that carry the session there."),
	E("frontend.num_additional_frontends", NULL, I_, 0, "9", NULL, STEP_FRONTEND, NULL,
	  "Router replicas beyond the first",
	  "Used only with enable_multiple_frontends."),
	E("frontend.numa_bind", NULL, B_, 0, "false", NULL, STEP_FRONTEND, NULL,
	  "Run the frontend under numactl on NUMA node 0",
	  "No effect on direct frontends, which start no separate process."),
	E("frontend.placement", NULL, M_, 0, NULL, NULL, STEP_FRONTEND, NULL,
	  "Where the frontend runs",
	  "See placement.node."),
	E("frontend.placement.node", NULL, S_, SF_WARN, "\"head\"", A_frontend_node, STEP_FRONTEND, NULL,
	  "head, first_decode or dedicated",
	  "head is the first node; first_decode the first decode node; dedicated reserves a node of its own (needs at least two nodes, not with heterogeneous jobs)."),
	E("frontend.server_config_extra", NULL, M_ | Z_, SF_OPEN, "null", NULL, STEP_FRONTEND, NULL,
	  "trtllm_serve: extra top-level server configuration keys",
	  "Ignored by other frontends."),
	E("frontend.type", NULL, S_, SF_WARN, "\"" SCHEMA_FRONTEND_DEFAULT "\"", A_frontend, STEP_FRONTEND, NULL,
	  "dynamo, a router (sglang-router, vllm-router, smg, llm-d, atomesh, tilert-router), a direct worker (sglang, vllm, trtllm_serve) or none",
	  "dynamo runs the Dynamo frontend with etcd discovery. Routers are static and get the worker list from srtctl. Direct types let a single aggregated worker serve the public port. none runs services only and needs no roles. ATOM needs atomesh; the vLLM moriio connector needs vllm-router."),
	E("frontend.worker_selection", NULL, M_ | Z_, SF_OPEN, "null", NULL, STEP_FRONTEND, NULL,
	  "Dynamo worker-selection policy",
	  "Written to a router policy file passed with --router-policy-config."),
	E("health_check", NULL, M_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "How long to wait for the frontend and what counts as fatal",
	  "180 polls 10 s apart by default: 30 minutes."),
	E("health_check.extra_fatal_log_patterns", NULL, L_, 0, "[]", NULL, STEP_ADVANCED, NULL,
	  "More regular expressions that fail the run",
	  "Matched against every new worker log line."),
	E("health_check.extra_fatal_log_patterns[]", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One regular expression",
	  "Python syntax."),
	E("health_check.fatal_log_markers", NULL, B_, 0, "true", NULL, STEP_ADVANCED, NULL,
	  "Fail as soon as a worker log shows a fatal line",
	  "Without waiting for the worker step to exit."),
	E("health_check.interval_seconds", NULL, I_, 0, "10", NULL, STEP_ADVANCED, NULL,
	  "Seconds between readiness polls",
	  "Together with max_attempts sets the total wait."),
	E("health_check.max_attempts", NULL, I_, 0, "180", NULL, STEP_ADVANCED, NULL,
	  "Readiness polls of the frontend before the run fails",
	  "Raise it for models that load slowly."),
	E("host_setup", NULL, M_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "Commands run on the bare hosts before workers start",
	  "For host state such as locked clocks; teardown runs after the workers stop."),
	E("host_setup.commands", NULL, L_, 0, "[]", NULL, STEP_ADVANCED, NULL,
	  "Shell commands run in order on each node",
	  "Joined with &&."),
	E("host_setup.commands[]", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One shell command",
	  "Runs on the host, outside the container."),
	E("host_setup.ignore_failure", NULL, B_, 0, "false", NULL, STEP_ADVANCED, NULL,
	  "A failing node only logs a warning",
	  "Otherwise a failure fails the job."),
	E("host_setup.nodes", NULL, S_, 0, "\"all\"", A_host_nodes, STEP_ADVANCED, NULL,
	  "all or workers",
	  "all covers head, infra and worker nodes; workers only the engine worker nodes."),
	E("host_setup.teardown", NULL, L_, 0, "[]", NULL, STEP_ADVANCED, NULL,
	  "Shell commands run after the workers stop",
	  "Also runs when the job fails."),
	E("host_setup.teardown[]", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One shell command",
	  "Runs on the host, outside the container."),
	E("host_setup.timeout_seconds", NULL, I_, 0, "300", NULL, STEP_ADVANCED, NULL,
	  "Time limit per node for commands and for teardown",
	  "In seconds."),
	E("identity", NULL, M_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "Provenance checked or recorded at run time",
	  "Expected model revision, image and framework versions."),
	E("identity.container", NULL, M_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "Image recorded for reproduction",
	  "Not checked."),
	E("identity.container.image", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Image URI",
	  "Recorded only."),
	E("identity.frameworks", NULL, M_, SF_OPEN, "{}", NULL, STEP_ADVANCED, NULL,
	  "Package to expected version",
	  "Checked in the container at run time."),
	E("identity.frameworks.*", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "Expected version",
	  "A string."),
	E("identity.model", NULL, M_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "Expected Hugging Face repository and revision",
	  "Checked against the download metadata."),
	E("identity.model.repo", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Hugging Face model id",
	  "org/name."),
	E("identity.model.revision", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Hugging Face commit",
	  "A full commit id."),
	E("model", NULL, M_, SF_REQUIRED, NULL, NULL, STEP_BASICS, NULL,
	  "Model weights, container image and precision",
	  "Where the weights come from (mounted at /model in every container), which image runs the engine, and the precision recorded with the results."),
	E("model.container", NULL, S_, SF_REQUIRED, NULL, NULL, STEP_BASICS, NULL,
	  "Engine image: a .sqsh file, a registry URI or a containers alias",
	  "The image every worker runs in unless a role sets its own container. An alias is resolved through the containers section of srtslurm.yaml. For LMCache the image must have LMCache installed."),
	E("model.path", NULL, S_, SF_REQUIRED, NULL, NULL, STEP_BASICS, NULL,
	  "Weights directory, a model_paths alias, or hf:<org>/<name>",
	  "A directory on shared storage holding the checkpoint, or an alias defined under model_paths in the cluster's srtslurm.yaml. ATOM recipes may name a Hugging Face model as hf:<org>/<name>. The directory is mounted at /model."),
	E("model.precision", NULL, S_, SF_REQUIRED | SF_SUGGEST, NULL, A_precision, STEP_BASICS, NULL,
	  "Weight precision, recorded with the results (fp4, fp8, fp16, bf16)",
	  "Only recorded: the engine's own flags decide the dtype actually used."),
	E("model.stage_dir", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Node-local directory to copy the model to before workers start",
	  "When set, the weights are staged from shared storage to this directory on each node (for example /raid/scratch/models) and loaded from there. Unset loads from model.path directly."),
	E("name", NULL, S_, SF_REQUIRED, NULL, NULL, STEP_BASICS, NULL,
	  "Job name: the Slurm job name and the label of the results",
	  "Used as the Slurm --job-name (unless the RUNNER_NAME environment variable overrides it) and to name the result directory. Keep it short and free of spaces."),
	E("observability", NULL, M_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "Tracing, metrics capture and nsys",
	  "Tachometer collects on every run unless turned off; the rest needs enabled: true."),
	E("observability.enable_otel", NULL, B_, 0, "false", NULL, STEP_ADVANCED, NULL,
	  "Send OpenTelemetry data from workers and frontends",
	  "Needs otel_endpoint."),
	E("observability.enabled", NULL, B_, 0, "false", NULL, STEP_ADVANCED, NULL,
	  "Master switch for analytics",
	  "Turns on the optional signals, nsys included."),
	E("observability.nsys", NULL, M_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "Automatic Nsight Systems capture",
	  "Runs when observability.enabled is true."),
	E("observability.nsys.capture_window", NULL, S_, 0, "\"measured_workload\"", A_capture_window, STEP_ADVANCED, NULL,
	  "measured_workload or including_startup",
	  "measured_workload skips warm-up; including_startup covers launch to teardown."),
	E("observability.nsys.cpu_sampling", NULL, S_, 0, "\"system-wide\"", A_cpu_sampling, STEP_ADVANCED, NULL,
	  "system-wide, process-tree or none",
	  "process-tree can fail on engines with many threads."),
	E("observability.nsys.enabled", NULL, B_, 0, "true", NULL, STEP_ADVANCED, NULL,
	  "Capture with nsys when observability is on",
	  "false keeps the other signals without nsys."),
	E("observability.nsys.nvtx_injection_path", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Container path of the NVTX injection library",
	  "Optional."),
	E("observability.nsys.report_timeout_secs", NULL, I_, 0, "1800", NULL, STEP_ADVANCED, NULL,
	  "Longest wait for a report to be written",
	  "In seconds."),
	E("observability.otel_endpoint", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "OpenTelemetry collector, e.g. http://10.0.0.1:4317",
	  "Required when enable_otel is true."),
	E("observability.tachometer", NULL, M_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "Prometheus scraping of exporters into Parquet",
	  "On by default; it implies the dcgm-exporter, node-exporter and process-exporter services."),
	E("observability.tachometer.binary_path", NULL, S_, 0, "\"tachometer-scraper\"", NULL, STEP_ADVANCED, NULL,
	  "Scraper command on the compute nodes",
	  "A name on PATH or a path."),
	E("observability.tachometer.collect_interval_ms", NULL, I_, 0, "1000", NULL, STEP_ADVANCED, NULL,
	  "Milliseconds between scrapes",
	  "Also passed to dcgm-exporter as its collect interval."),
	E("observability.tachometer.compaction_threads", NULL, I_, 0, "4", NULL, STEP_ADVANCED, NULL,
	  "Threads for Parquet compaction",
	  "Sets POLARS_MAX_THREADS."),
	E("observability.tachometer.dcgm_exporter", NULL, M_ | Z_, 0, "null", NULL, STEP_ADVANCED, "telemetry.dcgm_exporter",
	  "GPU exporter (null: the cluster default on port 9401)",
	  "Same keys as telemetry.dcgm_exporter."),
	E("observability.tachometer.default_exporters", NULL, B_, 0, "true", NULL, STEP_ADVANCED, NULL,
	  "Run the built-in exporters when their blocks are unset",
	  "false starts no default exporter."),
	E("observability.tachometer.default_gpu_exporter", NULL, M_ | Z_, 0, NULL, NULL, STEP_ADVANCED, "telemetry.dcgm_exporter",
	  "Filled from srtslurm.yaml; do not set",
	  "Resolved from the cluster configuration at load time."),
	E("observability.tachometer.enabled", NULL, B_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "null collects on every run; false turns it off",
	  "false also drops the default exporter services."),
	E("observability.tachometer.extra_metadata", NULL, M_, SF_OPEN, "{}", NULL, STEP_ADVANCED, NULL,
	  "Static key/value metadata on every endpoint",
	  "Strings only."),
	E("observability.tachometer.extra_metadata.*", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One metadata value",
	  "A string."),
	E("observability.tachometer.node_exporter", NULL, M_ | Z_, 0, "null", NULL, STEP_ADVANCED, "telemetry.dcgm_exporter",
	  "Host metrics exporter (null: node-exporter on port 9101)",
	  "Same keys as telemetry.dcgm_exporter."),
	E("observability.tachometer.process_exporter", NULL, M_ | Z_, 0, "null", NULL, STEP_ADVANCED, "telemetry.dcgm_exporter",
	  "Per-process exporter (null: the host's process-exporter on port 9256)",
	  "Same keys as telemetry.dcgm_exporter."),
	E("observability.tachometer.shutdown_grace_secs", NULL, N_, 0, "120.0", NULL, STEP_ADVANCED, NULL,
	  "Time to flush after SIGTERM",
	  "Then the scraper is killed."),
	E("observability.tachometer.storage_subdir", NULL, S_, 0, "\"tachometer\"", NULL, STEP_ADVANCED, NULL,
	  "Output directory below the log directory",
	  "Relative path."),
	E("observability.tachometer.sync_interval_secs", NULL, I_, 0, "120", NULL, STEP_ADVANCED, NULL,
	  "Seconds between Parquet compactions (0: only at the end)",
	  "Intermediate compactions bound the data lost on a crash."),
	E("output", NULL, M_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "Where logs and results go",
	  "See log_dir."),
	E("output.log_dir", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "Directory for logs and results ({job_id} and $VARS expand)",
	  "Unset uses srtctl's default output directory."),
	E("output.record_launch_plan", NULL, B_, 0, "false", NULL, STEP_ADVANCED, NULL,
	  "Save the srun scripts and a manifest under logs/launch-plan/",
	  "Useful to compare what ran with what was planned."),
	E("post_eval", NULL, M_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "Evaluation run after the benchmark",
	  "Replaces or feeds the built-in lm-eval runner."),
	E("post_eval.command", NULL, L_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Argv replacing the built-in eval command",
	  "May use {endpoint}."),
	E("post_eval.command[]", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One argument",
	  "Passed verbatim after placeholders."),
	E("post_eval.passthrough_env", NULL, L_, 0, "[]", NULL, STEP_ADVANCED, NULL,
	  "Variables forwarded from the orchestrator into the eval process",
	  "Names only; forwarded when set."),
	E("post_eval.passthrough_env[]", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One variable name",
	  "Forwarded when set."),
	E("profiling", NULL, M_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "Profile workers with nsys or torch",
	  "type none (default) profiles nothing."),
	E("profiling.aggregated", NULL, M_ | Z_, 0, "null", NULL, STEP_ADVANCED, "profiling.prefill",
	  "Step window for agg workers",
	  "Same keys as profiling.prefill."),
	E("profiling.benchmark_duration_secs", NULL, I_, 0, "300", NULL, STEP_ADVANCED, NULL,
	  "nsys-time: total traffic duration",
	  "Must cover delay_secs + duration_secs."),
	E("profiling.capture_range_end", NULL, S_, 0, "\"stop\"", NULL, STEP_ADVANCED, NULL,
	  "What nsys does when a capture range closes",
	  "Not used for TRT-LLM."),
	E("profiling.decode", NULL, M_ | Z_, 0, "null", NULL, STEP_ADVANCED, "profiling.prefill",
	  "Step window for decode workers",
	  "Same keys as profiling.prefill."),
	E("profiling.delay_secs", NULL, I_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "nsys-time: seconds before capture starts",
	  "Same on every worker."),
	E("profiling.duration_secs", NULL, I_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "nsys-time: seconds captured",
	  "Passed as nsys --duration."),
	E("profiling.extra_nsys_args", NULL, L_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Extra nsys profile arguments",
	  "Placed before -o."),
	E("profiling.extra_nsys_args[]", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One nsys argument",
	  "Passed verbatim."),
	E("profiling.nsys_library_paths", NULL, L_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Paths prepended to LD_LIBRARY_PATH for nsys",
	  "For images that do not find the host libcuda."),
	E("profiling.nsys_library_paths[]", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One library directory",
	  "A container path."),
	E("profiling.nsys_trace", NULL, S_, 0, "\"cuda,nvtx\"", NULL, STEP_ADVANCED, NULL,
	  "nsys trace domains",
	  "Not used for TRT-LLM."),
	E("profiling.prefill", NULL, M_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Step window for prefill workers",
	  "Not used for nsys-time."),
	E("profiling.prefill.capture_scope", NULL, S_, 0, "\"all\"", A_capture_scope, STEP_ADVANCED, NULL,
	  "all or selected",
	  "selected profiles only worker_index / worker_rank."),
	E("profiling.prefill.start_step", NULL, I_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Step at which profiling starts",
	  "Engine steps counted from startup."),
	E("profiling.prefill.stop_step", NULL, I_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Step at which profiling stops",
	  "Engine steps counted from startup."),
	E("profiling.prefill.worker_index", NULL, I_, 0, "0", NULL, STEP_ADVANCED, NULL,
	  "Worker profiled with capture_scope: selected",
	  "Index within the role."),
	E("profiling.prefill.worker_rank", NULL, I_, 0, "0", NULL, STEP_ADVANCED, NULL,
	  "Process rank profiled with capture_scope: selected",
	  "Rank within the worker."),
	E("profiling.trace_fork_before_exec", NULL, B_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Trace child processes (null: srtctl's default)",
	  "Set it for launchers that need or cannot stand child-process injection."),
	E("profiling.type", NULL, S_, 0, "\"none\"", A_prof_type, STEP_ADVANCED, NULL,
	  "none, nsys, nsys-time or torch",
	  "nsys and torch capture a step window per phase; nsys-time a time window."),
	E("reporting", NULL, M_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Status events, failure analysis and S3 upload",
	  "Unset reports nothing."),
	E("reporting.ai_analysis", NULL, M_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Automatic analysis of a failed job",
	  "Unset disables it."),
	E("reporting.ai_analysis.enabled", NULL, B_, 0, "false", NULL, STEP_ADVANCED, NULL,
	  "Analyse failed benchmarks",
	  "Off by default."),
	E("reporting.ai_analysis.gh_token", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "GitHub token (null: GH_TOKEN)",
	  "Prefer the environment variable to a token in the file."),
	E("reporting.ai_analysis.openrouter_api_key", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "OpenRouter key (null: OPENROUTER_API_KEY)",
	  "Prefer the environment variable to a key in the file."),
	E("reporting.ai_analysis.pr_search_days", NULL, I_, 0, "14", NULL, STEP_ADVANCED, NULL,
	  "Days of pull requests to look at",
	  "Counted back from the run."),
	E("reporting.ai_analysis.prompt", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Custom prompt template",
	  "May use {log_dir}, {repos}, {pr_days}."),
	E("reporting.ai_analysis.repos_to_search", NULL, L_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "Repositories searched for related pull requests",
	  "owner/name entries."),
	E("reporting.ai_analysis.repos_to_search[]", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One repository",
	  "owner/name."),
	E("reporting.publishers", NULL, L_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Commands that publish the results once the run ends",
	  "Each entry runs a command (a list of words) with a timeout; srtctl's features/result-publishers example."),
	E("reporting.publishers[]", NULL, M_, SF_OPEN, NULL, NULL, STEP_ADVANCED, NULL,
	  "One result publisher: name, command, timeout_seconds",
	  "Keys beyond these are passed to srtctl as written."),
	E("reporting.publishers[].command", NULL, L_ | S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "The publisher's command, as a list of words",
	  "Run after the benchmark with the results folder at hand."),
	E("reporting.publishers[].name", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "The publisher's name, used in logs",
	  "Unique among the publishers."),
	E("reporting.publishers[].timeout_seconds", NULL, N_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Seconds the publisher may run",
	  "A publisher that runs longer is stopped."),
	E("reporting.s3", NULL, M_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Upload the log directory to S3-compatible storage",
	  "bucket is required."),
	E("reporting.s3.access_key_id", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Access key (null: AWS_ACCESS_KEY_ID)",
	  "Prefer the environment variable."),
	E("reporting.s3.archive", NULL, L_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Patterns packed into one bundle.tar.zst",
	  "[] for no archive."),
	E("reporting.s3.archive[]", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One glob",
	  "** allowed."),
	E("reporting.s3.bucket", NULL, S_, SF_REQUIRED, NULL, NULL, STEP_ADVANCED, NULL,
	  "Bucket name",
	  "Required."),
	E("reporting.s3.endpoint_url", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Endpoint of a non-AWS store",
	  "Optional."),
	E("reporting.s3.exclude", NULL, L_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Patterns the sync skips",
	  "Relative to the log directory."),
	E("reporting.s3.exclude[]", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One pattern",
	  "* matches across directories."),
	E("reporting.s3.prefix", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Path within the bucket",
	  "Optional."),
	E("reporting.s3.region", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Region, e.g. us-west-2",
	  "Optional."),
	E("reporting.s3.secret_access_key", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Secret key (null: AWS_SECRET_ACCESS_KEY)",
	  "Prefer the environment variable."),
	E("reporting.status", NULL, M_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Collectors that receive job lifecycle events",
	  "Unset sends nothing."),
	E("reporting.status.endpoint", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Base URL of one status collector",
	  "Merged with endpoints."),
	E("reporting.status.endpoints", NULL, L_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Several collectors",
	  "Each receives every event."),
	E("reporting.status.endpoints[]", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One collector URL",
	  "A trailing slash is dropped."),
	E("reporting.status.job_id_prefix", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Text put before the Slurm job id in every status event",
	  "Tells apart jobs of several clusters reporting to one collector (\"cluster-a:\")."),
	E("reporting.status.logging-stream-interval", NULL, N_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Seconds between log uploads (null: no streaming)",
	  "Lifecycle events are sent either way."),
	E("reporting.status.token_env", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Variable holding the bearer token",
	  "Default SRTCTL_STATUS_TOKEN."),
	E("resources", NULL, M_, SF_REQUIRED, NULL, NULL, STEP_BASICS, NULL,
	  "Cluster facts: GPU type and GPUs per node",
	  "How many GPUs each node has and of which type; the node counts come from the roles."),
	E("resources.gpu_type", NULL, S_ | Z_, 0, "null", NULL, STEP_BASICS, NULL,
	  "GPU type, e.g. h100, gb200, mi300x",
	  "A fact about the cluster, not a topology choice. Unset inherits default_gpu_type from srtslurm.yaml."),
	E("resources.gpus_per_node", NULL, I_, 0, "4", NULL, STEP_BASICS, NULL,
	  "GPUs on each node",
	  "Used to pack workers onto nodes and to compute a role's default GPUs per worker. Unset inherits the cluster's value, else 4."),
	E("resources.het_jobs", NULL, B_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Use a Slurm heterogeneous job (null: cluster default)",
	  "Tri-state: null follows use_het_jobs of the cluster configuration; true or false overrides it for this recipe."),
	E("resources.spread_workers", NULL, B_, 0, "false", NULL, STEP_TOPOLOGY, NULL,
	  "Give every partial-node worker a node of its own",
	  "Normally workers smaller than a node are packed together. With true each such worker starts on a fresh node, so the role needs as many nodes as workers."),
	E("roles", NULL, M_, SF_OPEN, "{}", NULL, STEP_TOPOLOGY, NULL,
	  "Worker roles: prefill and decode, or agg",
	  "A disaggregated recipe has prefill and decode; an aggregated one has agg only. A services-only job (frontend.type: none) has no roles."),
	E("roles.*", NULL, M_, 0, NULL, NULL, STEP_TOPOLOGY, NULL,
	  "One worker role: its nodes, workers, GPUs, flags and environment",
	  "The role name must be prefill, decode or agg."),
	E("roles.*.args", NULL, M_, SF_OPEN, "{}", NULL, STEP_ENGINE, NULL,
	  "The engine's own command-line flags for this role",
	  "Each key becomes --key (vLLM and SGLang turn _ into -); true gives a bare flag, false and null drop it, a list repeats the values. A few keys are read by srtctl instead: connector (vLLM), extra-kv-connectors (ATOM)."),
	E("roles.*.args.*", NULL, A_, SF_OPEN, NULL, NULL, STEP_ENGINE, NULL,
	  "One engine flag, or a section of the engine's own config (TRT-LLM)",
	  "Rendered as --key value (sorted by key). A nested mapping is the engine's own vocabulary (TRT-LLM's kv_cache_config, moe_config, ...): srt-tui does not know those schemas, so their keys are free."),
	E("roles.*.args.connector", NULL, S_ | Z_, SF_SUGGEST, NULL, A_vllm_connector, STEP_CONNECTORS, NULL,
	  "vLLM: this role's KV connector (overrides engine.connector)",
	  "A preset (nixl, lmcache, lmcache-mp, kvbm, moriio) or raw kv-transfer-config JSON such as a MultiConnector combining NIXL with LMCache MP. srtctl removes the key from the flags. Only vLLM reads it."),
	E("roles.*.args.enable-lmcache", NULL, B_, 0, "false", NULL, STEP_CONNECTORS, NULL,
	  "SGLang: use LMCache through an lmcache-server on the worker's node",
	  "Renders --enable-lmcache and sets LMCACHE_MP_HOST=127.0.0.1 and LMCACHE_MP_PORT=" LMCACHE_RPC_PORT_S " unless lmcache-config-file is set or the role env sets LMCACHE_MP_HOST. Declare an lmcache-server service placed on this role's nodes."),
	E("roles.*.args.extra-kv-connectors", NULL, L_, 0, "[]", NULL, STEP_CONNECTORS, NULL,
	  "ATOM: extra KV connectors (lmcache_offload, lmcache_mp)",
	  "A list of connector mappings. srtctl puts its Mooncake entry first on prefill and decode and wraps several entries in {\"kv_connector\": \"multi\"}. Spell the key with hyphens: extra_kv_connectors would be passed on as an ordinary flag."),
	E("roles.*.args.extra-kv-connectors[]", NULL, M_, SF_OPEN, NULL, NULL, STEP_CONNECTORS, NULL,
	  "One ATOM KV connector entry",
	  "Flat keys: kv_connector, kv_role, and the connector's own settings (lmcache.local_cpu, lmcache.max_local_cpu_size, ...)."),
	E("roles.*.args.extra-kv-connectors[].kv_connector", NULL, S_, SF_SUGGEST, NULL, A_atom_kv, STEP_CONNECTORS, NULL,
	  "Connector name: lmcache_offload or lmcache_mp",
	  "lmcache_offload keeps an LMCache CPU tier inside the worker; lmcache_mp talks to an lmcache-server on the node (port " LMCACHE_RPC_PORT_S " unless kv_connector_extra_config sets lmcache.mp.port)."),
	E("roles.*.args.extra-kv-connectors[].kv_connector_extra_config", NULL, M_, SF_OPEN, NULL, NULL, STEP_CONNECTORS, NULL,
	  "Connector settings (lmcache_mp: lmcache.mp.port, lmcache.mp.host)",
	  "For lmcache_mp srtctl puts lmcache.mp.port: " LMCACHE_RPC_PORT_S " first unless you set it."),
	E("roles.*.args.extra-kv-connectors[].kv_role", NULL, S_, SF_SUGGEST, NULL, A_atom_kv_role, STEP_CONNECTORS, NULL,
	  "Connector role, e.g. kv_both or offload",
	  "Passed through as written."),
	E("roles.*.args.lmcache-config-file", NULL, S_, 0, NULL, NULL, STEP_CONNECTORS, NULL,
	  "SGLang: LMCache configuration file (the file carries the server address)",
	  "When set, srtctl does not add LMCACHE_MP_HOST / LMCACHE_MP_PORT."),
	E("roles.*.args.served-model-name", NULL, S_, 0, NULL, NULL, STEP_ENGINE, NULL,
	  "Model name clients request",
	  "The first role that sets it names the model for the frontend and the benchmark; otherwise the model directory name is used."),
	E("roles.*.container", NULL, S_ | Z_, 0, "null", NULL, STEP_ENGINE, NULL,
	  "Image for this role (default model.container)",
	  "A registry URI, .sqsh file or containers alias."),
	E("roles.*.critical", NULL, B_, 0, "true", NULL, STEP_ADVANCED, NULL,
	  "A worker exit fails the run",
	  "false keeps the run alive when a worker dies (for fault-injection tests)."),
	E("roles.*.engine", NULL, S_ | M_ | Z_, SF_STR_ONLY, "null", schema_engine_types, STEP_ENGINE, "engine",
	  "Per-role engine (only when there is no top-level engine)",
	  "Same forms as the top-level engine. Set it on every role or on none; role engines do not share options."),
	E("roles.*.env", NULL, M_, SF_OPEN, "{}", NULL, STEP_ENGINE, NULL,
	  "Environment for every worker of the role",
	  "The top-level environment is applied after it and wins on conflicts. Services do not see it."),
	E("roles.*.env.*", NULL, S_, 0, NULL, NULL, STEP_ENGINE, NULL,
	  "One environment variable (a string)",
	  "Quote numbers and booleans (\"0\", \"true\") so they stay strings."),
	E("roles.*.extra_args", NULL, L_, 0, "[]", NULL, STEP_ENGINE, NULL,
	  "TRT-LLM: raw extra command-line arguments",
	  "Only TRT-LLM reads them; its role args go into the engine YAML instead of flags."),
	E("roles.*.extra_args[]", NULL, S_, 0, NULL, NULL, STEP_ENGINE, NULL,
	  "One raw argument",
	  "Passed verbatim."),
	E("roles.*.gpus", NULL, I_ | Z_, 0, "null", NULL, STEP_TOPOLOGY, NULL,
	  "GPUs per worker",
	  "Defaults to nodes x gpus_per_node / workers. Required on both roles when decode colocates. A worker needing a node or more takes whole nodes."),
	E("roles.*.kv_events", NULL, B_ | M_ | Z_, SF_OPEN, "null", NULL, STEP_ADVANCED, NULL,
	  "Publish KV-cache events: true, or a mapping with publisher and topic",
	  "true uses the default ZMQ publisher."),
	E("roles.*.kv_events.publisher", NULL, A_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "KV event publisher",
	  "Publisher settings passed to the engine."),
	E("roles.*.kv_events.topic", NULL, A_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "KV event topic",
	  "Topic the events are published on."),
	E("roles.*.mooncake_store_config", NULL, M_ | Z_, SF_OPEN, "null", NULL, STEP_CONNECTORS, NULL,
	  "TRT-LLM: this role's Mooncake store settings (protocol, global_segment_size, ...)",
	  "Used with kv_connector_config.connector: mooncake-store; srtctl writes it for the role's workers. Its keys are Mooncake's own (srtctl's trtllm-dynamo-disagg-mooncake example)."),
	E("roles.*.nodes", NULL, I_ | S_ | Z_, SF_STR_ONLY, "null", A_colocate, STEP_TOPOLOGY, NULL,
	  "Nodes reserved for the role, or colocate (decode only)",
	  "An integer reserves that many whole nodes. `colocate` on decode reserves none and packs the decode workers onto the prefill nodes' free GPUs; then gpus is required on both roles and the two must fit together."),
	E("roles.*.restart", NULL, S_ | M_, SF_STR_ONLY, "\"never\"", A_restart, STEP_ADVANCED, NULL,
	  "Relaunch exited workers: never, on-failure, always, or a policy mapping",
	  "The mapping form sets policy, max_restarts, backoff_seconds and max_backoff_seconds; the delay doubles on every relaunch."),
	E("roles.*.restart.backoff_seconds", NULL, N_, 0, "10.0", NULL, STEP_ADVANCED, NULL,
	  "Delay before the first relaunch",
	  "Doubles on each further relaunch of the same worker."),
	E("roles.*.restart.max_backoff_seconds", NULL, N_, 0, "300.0", NULL, STEP_ADVANCED, NULL,
	  "Longest delay between relaunches",
	  "Caps the doubling backoff."),
	E("roles.*.restart.max_restarts", NULL, I_, 0, "3", NULL, STEP_ADVANCED, NULL,
	  "Relaunches allowed per worker over the job",
	  "After this many the worker stays down."),
	E("roles.*.restart.policy", NULL, S_, 0, "\"never\"", A_restart, STEP_ADVANCED, NULL,
	  "never, on-failure or always",
	  "never leaves an exit to critical; on-failure relaunches after a non-zero exit; always after any exit."),
	E("roles.*.sidecar", NULL, B_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Run the native engine with a Dynamo sidecar",
	  "Turns on dynamo.sidecar; every role must agree. ATOM does not support sidecars."),
	E("roles.*.srun_options", NULL, M_, SF_OPEN, "{}", NULL, STEP_ADVANCED, NULL,
	  "Extra srun options for this role's worker steps",
	  "Merged over the recipe's srun_options; key: value becomes --key=value, an empty value --key."),
	E("roles.*.srun_options.*", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One srun option (key: value gives --key=value)",
	  "Write the value as a string; an empty string gives a bare --key."),
	E("roles.*.workers", NULL, I_ | Z_, 0, "null", NULL, STEP_TOPOLOGY, NULL,
	  "Number of workers (endpoints) of the role",
	  "Each worker is one engine instance with its own HTTP port. Unset means one."),
	E("sbatch_directives", NULL, M_, SF_OPEN, "{}", NULL, STEP_ADVANCED, NULL,
	  "Extra #SBATCH directives",
	  "key: value becomes #SBATCH --key=value and wins over the cluster defaults."),
	E("sbatch_directives.*", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One #SBATCH directive",
	  "An empty value gives a bare --key."),
	E("schema", NULL, I_, SF_REQUIRED, NULL, A_schema, STEP_BASICS, NULL,
	  "Recipe layout version; always 2",
	  "Every current recipe starts with `schema: 2`. A file without it uses the pre-2.0 layout, which srtctl refuses; `srtctl migrate` rewrites such a file."),
	E("services", NULL, L_, 0, "[]", NULL, STEP_SERVICES, NULL,
	  "Long-running processes launched next to the workers",
	  "Each entry names a kind (lmcache-server, etcd, generic, ...), where it runs and when it starts. srtctl adds implied services (etcd for Dynamo, lmcache-server for lmcache-mp, exporters); declare one with the same name to change it."),
	E("services[]", NULL, M_, 0, NULL, NULL, STEP_SERVICES, NULL,
	  "One service",
	  "name is required and unique; type defaults to generic."),
	E("services[].args", NULL, L_, 0, "[]", NULL, STEP_SERVICES, NULL,
	  "Extra argv appended to the command",
	  "lmcache-server: e.g. --l1-size-gb 16 --chunk-size 256 --max-workers 1. Do not set --host, --port or --http-port: srtctl owns them."),
	E("services[].args[]", NULL, S_, 0, NULL, NULL, STEP_SERVICES, NULL,
	  "One argument",
	  "Quote numbers so they stay strings (\"16\")."),
	E("services[].build_command", NULL, L_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "Argv run once from the clone inside the container",
	  "Only meaningful with source."),
	E("services[].build_command[]", NULL, S_, 0, NULL, NULL, STEP_SERVICES, NULL,
	  "One argument",
	  "Passed verbatim."),
	E("services[].build_timeout_seconds", NULL, I_, 0, "1800", NULL, STEP_SERVICES, NULL,
	  "Kill build_command after this many seconds",
	  "Must be positive."),
	E("services[].command", NULL, L_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "Argv to run (not through a shell); null uses the kind's command",
	  "Required for generic. For lmcache-server, setting it drops the fixed `lmcache server --host ... --port " LMCACHE_RPC_PORT_S " ...` prefix."),
	E("services[].command[]", NULL, S_, 0, NULL, NULL, STEP_SERVICES, NULL,
	  "One argument",
	  "Placeholders such as {node} and {head_ip} are substituted."),
	E("services[].container", NULL, S_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "Image or alias (null: the kind's image, else the job's)",
	  "lmcache-server runs in the job container unless set."),
	E("services[].cpu_bind", NULL, S_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "srun --cpu-bind",
	  "Optional."),
	E("services[].cpus_per_task", NULL, I_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "srun --cpus-per-task",
	  "Must be positive."),
	E("services[].critical", NULL, B_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "A crash fails the run (null: the kind's default)",
	  "lmcache-server is critical by default; generic is not."),
	E("services[].enabled", NULL, B_, 0, "true", NULL, STEP_SERVICES, NULL,
	  "false drops the service, also an implied one of that name",
	  "e.g. {name: etcd, enabled: false}."),
	E("services[].env", NULL, M_, SF_OPEN, "{}", NULL, STEP_SERVICES, NULL,
	  "Environment of the service",
	  "Services do not inherit the top-level environment or role env: repeat what they need, e.g. PYTHONHASHSEED for LMCache."),
	E("services[].env.*", NULL, S_, 0, NULL, NULL, STEP_SERVICES, NULL,
	  "One environment variable (a string)",
	  "Placeholders are substituted; quote numbers."),
	E("services[].external", NULL, S_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "Use this running endpoint instead of launching (etcd, nats, mooncake-master)",
	  "The job's processes are pointed at it; nothing is launched."),
	E("services[].inherit_discovery_env", NULL, B_, 0, "true", NULL, STEP_SERVICES, NULL,
	  "Inject ETCD_ENDPOINTS and NATS_SERVER",
	  "So the service can register with Dynamo's discovery plane."),
	E("services[].metrics", NULL, M_ | L_, 0, "[]", NULL, STEP_SERVICES, NULL,
	  "Prometheus endpoints the service serves",
	  "One mapping or a list of {port, path, nodes, name}; Tachometer scrapes them."),
	E("services[].metrics.name", NULL, S_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "Endpoint name (null: the service name)",
	  "Recorded as <name>_<node>."),
	E("services[].metrics.nodes", NULL, S_, 0, "\"all\"", A_metrics_nodes, STEP_SERVICES, NULL,
	  "all or first",
	  "first scrapes only the service's first node."),
	E("services[].metrics.path", NULL, S_, 0, "\"/metrics\"", NULL, STEP_SERVICES, NULL,
	  "URL path of the endpoint",
	  "Default /metrics."),
	E("services[].metrics.port", NULL, I_, SF_REQUIRED, NULL, NULL, STEP_SERVICES, NULL,
	  "Port of the endpoint",
	  "On each service node."),
	E("services[].metrics[]", NULL, M_, 0, NULL, NULL, STEP_SERVICES, "services[].metrics",
	  "One metrics endpoint",
	  "port, path, nodes, name."),
	E("services[].name", NULL, S_, SF_RULE, NULL, NULL, STEP_SERVICES, NULL,
	  "Unique service name (names its step and log)",
	  "Logs go to service_<name>.out. A declared service named like an implied one replaces it."),
	E("services[].nodes", NULL, I_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "Whole nodes this service owns (a pool)",
	  "Adds nodes to the job after the roles' nodes."),
	E("services[].options", NULL, M_, SF_OPEN, "{}", NULL, STEP_SERVICES, NULL,
	  "Kind-specific settings",
	  "nats: max_payload_mb; mooncake-master: store_config, device_names_by_gpu. Unknown keys are refused by the kind."),
	E("services[].placement", NULL, M_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "Where instances run (null: the kind's placement)",
	  "A block without node means node: head."),
	E("services[].placement.node", NULL, S_, SF_RULE, "\"head\"", A_svc_node, STEP_SERVICES, NULL,
	  "head, infra, dedicated, prefill, decode, agg, workers, compute or all",
	  "head and infra run one instance; prefill, decode and agg one per node of that role; workers one per engine worker node; compute adds service pools; all adds the head, infra and benchmark nodes. dedicated reserves a node (etcd, nats, mooncake-master only)."),
	E("services[].placement.per", NULL, S_, SF_RULE, "\"node\"", A_svc_per, STEP_SERVICES, NULL,
	  "node (one instance per node) or worker (one per engine worker)",
	  "worker needs node prefill, decode, agg or workers, and a log readiness probe. Not for lmcache-server: one server per node."),
	E("services[].placement.pool", NULL, S_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "Run on the nodes another service owns (replaces node)",
	  "Names a service with nodes: N; one instance per pool node."),
	E("services[].preamble", NULL, S_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "Shell run in the container before the command",
	  "e.g. ulimit -l unlimited for lmcache-server."),
	E("services[].readiness", NULL, M_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "Probe that must pass before the job continues",
	  "Exactly one of port, tcp, http or log, plus timing. null uses the kind's probe (lmcache-server: GET /healthcheck on " LMCACHE_HTTP_PORT_S ")."),
	E("services[].readiness.file", NULL, M_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "Ready once the service has written this file",
	  "path is relative to the job's log folder; {node} stands for the node (the mooncake donor's marker)."),
	E("services[].readiness.file.path", NULL, S_, SF_REQUIRED, NULL, NULL, STEP_SERVICES, NULL,
	  "The marker file, under the job's log folder",
	  "For example mooncake/donor-{node}.ready."),
	E("services[].readiness.http", NULL, M_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "HTTP GET probe",
	  "Ready when GET http://<node>:<port><path> returns status."),
	E("services[].readiness.http.path", NULL, S_, 0, "\"/health\"", NULL, STEP_SERVICES, NULL,
	  "URL path, starting with /",
	  "Requested on every probe."),
	E("services[].readiness.http.port", NULL, I_, SF_REQUIRED, NULL, NULL, STEP_SERVICES, NULL,
	  "Port probed (1-65535)",
	  "On the service node."),
	E("services[].readiness.http.status", NULL, I_, 0, "200", NULL, STEP_SERVICES, NULL,
	  "HTTP status that counts as ready (100-599)",
	  "Any other status keeps waiting."),
	E("services[].readiness.interval_seconds", NULL, I_, 0, "2", NULL, STEP_SERVICES, NULL,
	  "Seconds between probe attempts",
	  "Must be positive."),
	E("services[].readiness.log", NULL, M_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "Log pattern probe",
	  "Ready when the pattern appears in the service log. The only probe allowed with per: worker."),
	E("services[].readiness.log.pattern", NULL, S_, SF_REQUIRED, NULL, NULL, STEP_SERVICES, NULL,
	  "Regular expression searched in the log",
	  "Python syntax."),
	E("services[].readiness.port", NULL, I_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "Shorthand for tcp: {port: N}",
	  "Do not give both port and tcp."),
	E("services[].readiness.tcp", NULL, M_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "TCP connect probe",
	  "Ready when the port accepts a connection on each service node."),
	E("services[].readiness.tcp.port", NULL, I_, SF_REQUIRED, NULL, NULL, STEP_SERVICES, NULL,
	  "Port probed (1-65535)",
	  "On the service node."),
	E("services[].readiness.timeout_seconds", NULL, I_, 0, "120", NULL, STEP_SERVICES, NULL,
	  "Wait per node before failing the job",
	  "Must be positive."),
	E("services[].source", NULL, M_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "Git source cloned once on the host before the service starts",
	  "Single-node placements only (head or infra). Use build_command to build it."),
	E("services[].source.git", NULL, S_, SF_REQUIRED, NULL, NULL, STEP_SERVICES, NULL,
	  "Repository URL",
	  "Cloned on the bare host."),
	E("services[].source.path", NULL, S_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "Subdirectory of the clone to build and run from",
	  "Optional."),
	E("services[].source.rev", NULL, S_, SF_REQUIRED, NULL, NULL, STEP_SERVICES, NULL,
	  "Commit, tag or refs/pull/<n>/head",
	  "Branch names are refused because they move."),
	E("services[].source.sha", NULL, S_ | Z_, 0, "null", NULL, STEP_SERVICES, NULL,
	  "Commit the rev resolved to (filled in by srtctl apply)",
	  "Write it only to pin an exact commit."),
	E("services[].srun_options", NULL, M_, SF_OPEN, "{}", NULL, STEP_SERVICES, NULL,
	  "Extra srun options for this service",
	  "Merged over the recipe's srun_options."),
	E("services[].srun_options.*", NULL, S_, 0, NULL, NULL, STEP_SERVICES, NULL,
	  "One srun option",
	  "Write the value as a string."),
	E("services[].start", NULL, S_ | Z_, SF_RULE, "null", A_svc_start, STEP_SERVICES, NULL,
	  "infra, before_workers or after_frontend (null: the kind's phase)",
	  "lmcache-server starts before_workers so workers find it; generic after_frontend."),
	E("services[].terminal", NULL, B_, 0, "false", NULL, STEP_SERVICES, NULL,
	  "This service is the run: the job ends when it exits",
	  "A recipe with a terminal service has no benchmark step."),
	E("services[].type", NULL, S_, SF_RULE, "\"generic\"", A_svc_type, STEP_SERVICES, NULL,
	  "Kind: lmcache-server, etcd, nats, mooncake-master, generic and others",
	  "The kind gives the default command, start phase, placement and readiness probe. generic runs exactly the command you give."),
	E("setup_script", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Script under /configs run before workers start",
	  "\"custom-setup.sh\" runs /configs/custom-setup.sh before Dynamo is installed and workers start."),
	E("slurm", NULL, M_, 0, NULL, NULL, STEP_BASICS, NULL,
	  "Slurm account, partition and time limit",
	  "Each unset field falls back to the default_* value of the cluster's srtslurm.yaml."),
	E("slurm.account", NULL, S_ | Z_, 0, "null", NULL, STEP_BASICS, NULL,
	  "Slurm account to charge",
	  "Unset uses default_account from srtslurm.yaml."),
	E("slurm.partition", NULL, S_ | Z_, 0, "null", NULL, STEP_BASICS, NULL,
	  "Slurm partition",
	  "Unset uses default_partition from srtslurm.yaml."),
	E("slurm.time_limit", NULL, S_ | Z_, 0, "null", NULL, STEP_BASICS, NULL,
	  "Job time limit as HH:MM:SS",
	  "Write it quoted (\"00:30:00\"): unquoted, YAML 1.1 reads 30:00 as a number of seconds. Unset uses default_time_limit from srtslurm.yaml."),
	E("srun_options", NULL, M_, SF_OPEN, "{}", NULL, STEP_ADVANCED, NULL,
	  "Extra srun options for every step",
	  "key: value becomes --key=value; an empty value gives --key."),
	E("srun_options.*", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One srun option",
	  "Write the value as a string."),
	E("sweep", NULL, M_, SF_OPEN, NULL, NULL, STEP_ADVANCED, NULL,
	  "Parameter sweep: one job per combination of the listed values",
	  "Each key names a {key} placeholder used elsewhere in the recipe; srtctl submits one job per combination and drops this block from each."),
	E("sweep.*", NULL, L_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "Values substituted for {key}",
	  "A list; a placeholder that is a whole value keeps the value's type."),
	E("telemetry", NULL, M_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "GPU and CPU power over each benchmark phase",
	  "Off by default."),
	E("telemetry.clock_sync_check", NULL, B_, 0, "true", NULL, STEP_ADVANCED, NULL,
	  "Check every node's clock is NTP-synchronised first",
	  "Samples and windows are compared across hosts."),
	E("telemetry.collect_interval_ms", NULL, I_, 0, "1000", NULL, STEP_ADVANCED, NULL,
	  "Milliseconds between collector cycles",
	  "Replaces the old default_frequency."),
	E("telemetry.collector_join_timeout_seconds", NULL, N_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Shutdown budget of the collector (null: derived)",
	  "Derived from request_timeout_seconds when unset."),
	E("telemetry.cpu_power", NULL, M_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "In-job CPU power collector on each node",
	  "Independent of cpu_power_exporter."),
	E("telemetry.cpu_power.enabled", NULL, B_, 0, "false", NULL, STEP_ADVANCED, NULL,
	  "Collect CPU power",
	  "Off by default."),
	E("telemetry.cpu_power.required", NULL, B_, 0, "false", NULL, STEP_ADVANCED, NULL,
	  "Fail the job without valid CPU power data",
	  "Off by default."),
	E("telemetry.cpu_power.sample_interval_seconds", NULL, N_, 0, "0.1", NULL, STEP_ADVANCED, NULL,
	  "Read period on each node",
	  "In seconds."),
	E("telemetry.cpu_power.source", NULL, S_, 0, "\"auto\"", A_power_source, STEP_ADVANCED, NULL,
	  "auto, acpi or dcgm",
	  "Naming a source makes it mandatory; auto is best-effort."),
	E("telemetry.cpu_power.startup_timeout_seconds", NULL, N_, 0, "30.0", NULL, STEP_ADVANCED, NULL,
	  "Wait for every node's collector",
	  "In seconds."),
	E("telemetry.cpu_power.storage_subdir", NULL, S_, 0, "\"cpu_power\"", NULL, STEP_ADVANCED, NULL,
	  "Output directory below the log directory",
	  "Must differ from telemetry.storage_subdir."),
	E("telemetry.cpu_power_exporter", NULL, M_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Scrape a per-node CPU power exporter",
	  "Setting the block enables it."),
	E("telemetry.cpu_power_exporter.port", NULL, I_, 0, "9405", NULL, STEP_ADVANCED, NULL,
	  "Exporter port",
	  "Scraped from the head node."),
	E("telemetry.cpu_power_exporter.source", NULL, S_, 0, "\"auto\"", A_power_source, STEP_ADVANCED, NULL,
	  "auto, acpi or dcgm",
	  "auto tries DCGM, then ACPI."),
	E("telemetry.dcgm_exporter", NULL, M_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "GPU power exporter: image, port, command, labels, metrics",
	  "Unset uses the cluster default_gpu_exporter."),
	E("telemetry.dcgm_exporter.binary", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Host executable run without a container",
	  "Relative paths are taken from the srtctl checkout."),
	E("telemetry.dcgm_exporter.command", NULL, S_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Command line replacing the image's default arguments",
	  "Optional."),
	E("telemetry.dcgm_exporter.container_image", NULL, S_, SF_REQUIRED, NULL, NULL, STEP_ADVANCED, NULL,
	  "Exporter image (ignored when binary is set)",
	  "Registry URI or containers alias; may be \"\" with binary."),
	E("telemetry.dcgm_exporter.gpu_labels", NULL, M_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Labels that identify a GPU in the scrape (null: DCGM's)",
	  "index and identity are required."),
	E("telemetry.dcgm_exporter.gpu_labels.identity", NULL, S_, SF_REQUIRED, NULL, NULL, STEP_ADVANCED, NULL,
	  "Label stable for one physical GPU",
	  "Recorded as gpu_uuid."),
	E("telemetry.dcgm_exporter.gpu_labels.index", NULL, S_, SF_REQUIRED, NULL, NULL, STEP_ADVANCED, NULL,
	  "Label holding the node-local GPU index",
	  "Matches the GPU numbering srtctl allocates by."),
	E("telemetry.dcgm_exporter.gpu_labels.instance", NULL, L_, 0, "[]", NULL, STEP_ADVANCED, NULL,
	  "Labels marking sub-device samples, which are dropped",
	  "MIG instances and partitions."),
	E("telemetry.dcgm_exporter.gpu_labels.instance[]", NULL, S_, 0, NULL, NULL, STEP_ADVANCED, NULL,
	  "One label name",
	  "A Prometheus label."),
	E("telemetry.dcgm_exporter.gpu_metrics", NULL, M_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "Per-GPU metrics to record (null: DCGM's)",
	  "power is required."),
	E("telemetry.dcgm_exporter.gpu_metrics.gpu_util", NULL, M_ | Z_, 0, "null", NULL, STEP_ADVANCED, NULL,
	  "GPU utilisation metric (percent)",
	  "Optional."),
	E("telemetry.dcgm_exporter.gpu_metrics.gpu_util.metric", NULL, S_, SF_REQUIRED, NULL, NULL, STEP_ADVANCED, NULL,
	  "Prometheus metric name",
	  "The series to record."),
	E("telemetry.dcgm_exporter.gpu_metrics.power", NULL, M_, SF_REQUIRED, NULL, NULL, STEP_ADVANCED, NULL,
	  "Power draw metric in watts",
	  "metric and scope are required."),
	E("telemetry.dcgm_exporter.gpu_metrics.power.metric", NULL, S_, SF_REQUIRED, NULL, NULL, STEP_ADVANCED, NULL,
	  "Prometheus metric name",
	  "A gauge in watts."),
	E("telemetry.dcgm_exporter.gpu_metrics.power.scope", NULL, S_, SF_REQUIRED, NULL, NULL, STEP_ADVANCED, NULL,
	  "What the watts cover",
	  "Recorded as power_scope."),
	E("telemetry.dcgm_exporter.gpu_metrics.sm_active", NULL, M_ | Z_, 0, "null", NULL, STEP_ADVANCED, "telemetry.dcgm_exporter.gpu_metrics.gpu_util",
	  "SM-active fraction metric (0-1)",
	  "Map only a metric with that meaning and range."),
	E("telemetry.dcgm_exporter.gpu_metrics.temperature", NULL, M_ | Z_, 0, "null", NULL, STEP_ADVANCED, "telemetry.dcgm_exporter.gpu_metrics.gpu_util",
	  "GPU temperature metric (Celsius)",
	  "Optional."),
	E("telemetry.dcgm_exporter.kind", NULL, S_, 0, "\"dcgm\"", A_exporter_kind, STEP_ADVANCED, NULL,
	  "dcgm or custom",
	  "custom needs command, gpu_labels and gpu_metrics."),
	E("telemetry.dcgm_exporter.port", NULL, I_, SF_REQUIRED, NULL, NULL, STEP_ADVANCED, NULL,
	  "Port the exporter serves /metrics on",
	  "On every worker node."),
	E("telemetry.enabled", NULL, B_, 0, "false", NULL, STEP_ADVANCED, NULL,
	  "Collect power per benchmark concurrency window",
	  "Without an exporter block the cluster's default GPU exporter is used."),
	E("telemetry.request_timeout_seconds", NULL, N_, 0, "2.0", NULL, STEP_ADVANCED, NULL,
	  "Timeout of one exporter request",
	  "In seconds."),
	E("telemetry.required", NULL, B_, 0, "false", NULL, STEP_ADVANCED, NULL,
	  "Fail the benchmark when no GPU power data can be produced",
	  "CPU power stays best-effort."),
	E("telemetry.startup_timeout_seconds", NULL, N_, 0, "30.0", NULL, STEP_ADVANCED, NULL,
	  "Wait for the exporters to answer",
	  "In seconds."),
	E("telemetry.storage_subdir", NULL, S_, 0, "\"power\"", NULL, STEP_ADVANCED, NULL,
	  "Output directory below the log directory",
	  "Must differ from cpu_power.storage_subdir."),
/* END TABLE */
};
const size_t schema_fields_count = sizeof(schema_fields) / sizeof(schema_fields[0]);

static const char *const step_names[STEP_COUNT] = {
	"basics", "engine", "topology", "connectors", "services", "frontend", "benchmark", "advanced",
};

const char *schema_step_name(enum wizard_step step)
{
	return (unsigned)step < STEP_COUNT ? step_names[step] : "advanced";
}

const struct schema_field *schema_root(void)
{
	return &schema_fields[0];
}

/* The tree in use (images.h): the build's image when linked, else derived
 * here on first use; NULL until then. */
static const struct schema_tree *tree;

static size_t plen(const struct schema_tree *t, size_t i)
{
	return t ? t->path_len[i] : strlen(schema_fields[i].path);
}

static const struct schema_tree *derive(void);

/* The tree without deriving it: lookups before it exists search the table. */
static const struct schema_tree *tree_now(void)
{
	if (!tree && &schema_tree_image)
		tree = &schema_tree_image;
	return tree;
}

static const struct schema_tree *tree_ready(void)
{
	return tree_now() ? tree : (tree = derive());
}

/* First index whose pattern is >= pattern (length n, not NUL-terminated). */
static size_t lower_bound(const struct schema_tree *t, const char *pattern, size_t n)
{
	size_t lo = 0, hi = schema_fields_count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *p = schema_fields[mid].path;
		size_t pl = plen(t, mid);
		int c = memcmp(p, pattern, pl < n ? pl : n);
		if (c < 0 || (c == 0 && pl < n))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Among the entries of one path: f answers for variant (any entry when no
 * variant is asked, else the variant's own); an entry for every variant is
 * kept in *any as the fallback. */
static int variant_pick(const struct schema_field *f, const char *variant,
			const struct schema_field **any)
{
	if (!variant)
		return 1;
	if (!f->variant)
		*any = f;
	return f->variant && !strcmp(f->variant, variant);
}

/* The first entry of pattern (n bytes), or where it would be: by the hash
 * of patterns once t has one, since the defaults the typed view reads are
 * looked up by pattern for every recipe. */
static size_t first_of(const struct schema_tree *t, const char *pattern, size_t n)
{
	if (!t || !t->by_path)
		return lower_bound(t, pattern, n);
	for (size_t h = mem_hash(pattern, n, 0) & t->by_path_mask;; h = (h + 1) & t->by_path_mask) {
		unsigned i = t->by_path[h];
		if (i == (unsigned)-1)
			return schema_fields_count; /* none */
		if (plen(t, i) == n && !memcmp(schema_fields[i].path, pattern, n))
			return i;
	}
}

static const struct schema_field *lookup_n(const struct schema_tree *t, const char *pattern, size_t n,
					   const char *variant)
{
	const struct schema_field *any = NULL;
	for (size_t i = first_of(t, pattern, n); i < schema_fields_count; i++) {
		const struct schema_field *f = &schema_fields[i];
		if (plen(t, i) != n || memcmp(f->path, pattern, n))
			break;
		if (variant_pick(f, variant, &any))
			return f;
	}
	return any;
}

const struct schema_field *schema_lookup(const char *pattern, const char *variant)
{
	return lookup_n(tree_now(), pattern, strlen(pattern), variant);
}

/* The field of a default: the typed view asks for some once per service of
 * every recipe validated.  Callers name a pattern by a literal, so its
 * address finds the last answer; the path is compared, so a pattern that
 * merely reuses an address is looked up afresh. */
static const struct schema_field *default_field(const char *pattern)
{
	static struct {
		const char *pattern;
		const struct schema_field *f;
	} memo[32];
	size_t h = ((uintptr_t)pattern >> 3) % (sizeof(memo) / sizeof(memo[0]));
	if (memo[h].pattern == pattern && memo[h].f && !strcmp(memo[h].f->path, pattern))
		return memo[h].f;
	memo[h].pattern = pattern;
	memo[h].f = lookup_n(tree_ready(), pattern, strlen(pattern), NULL);
	return memo[h].f;
}

int schema_default_int(const char *pattern, int fallback)
{
	const struct schema_field *f = default_field(pattern);
	char *end;
	if (!f || !f->dflt)
		return fallback;
	long v = strtol(f->dflt, &end, 10);
	return end != f->dflt && !*end && v >= INT_MIN && v <= INT_MAX ? (int)v : fallback;
}

int schema_default_bool(const char *pattern, int fallback)
{
	const struct schema_field *f = default_field(pattern);
	if (!f || !f->dflt)
		return fallback;
	return !strcmp(f->dflt, "true") ? 1 : !strcmp(f->dflt, "false") ? 0 : fallback;
}

json_t *schema_default_json(const char *pattern, const char *variant)
{
	const struct schema_field *f = schema_lookup(pattern, variant);
	json_error_t jerr;
	if (!f || !f->dflt)
		return NULL;
	return json_read(f->dflt, JSON_DECODE_ANY, &jerr);
}

static const struct schema_field *deref(const struct schema_tree *t, const struct schema_field *f)
{
	if (f && f->ref) {
		const struct schema_field *r = lookup_n(t, f->ref, strlen(f->ref), NULL);
		if (r)
			return r;
	}
	return f;
}

/* ---- the table's tree ------------------------------------------------------
 *
 * Validation asks for the children of a field for every mapping of a recipe
 * and for one child by key for every key: each pattern (the run of entries
 * with one path) knows its direct children, in table order: the keyed ones
 * first, sorted by key (the table is sorted by path, so its children are
 * sorted by key), then the list item ("[]").  images.h says where the tree
 * comes from.
 */

static const char *key_of(const struct schema_tree *t, unsigned i)
{
	return schema_fields[i].path + t->key_off[i];
}

/* The first place among ks's (group g's) keyed children holding key (len
 * bytes), or SCHEMA_NO_ENTRY; *n how many do. */
static unsigned key_pos(const struct schema_tree *t, unsigned g, const struct schema_kids *ks,
			const char *key, size_t len, unsigned *n)
{
	for (size_t h = mem_hash(key, len, g) & t->mask;; h = (h + 1) & t->mask) {
		const struct schema_key_slot *sl = &t->slot[h];
		if (sl->group == SCHEMA_NO_ENTRY)
			return SCHEMA_NO_ENTRY;
		if (sl->group == g && sl->len == len && !memcmp(key_of(t, t->kid[ks->first + sl->pos]), key, len)) {
			*n = sl->n;
			return sl->pos;
		}
	}
}

/* The tree being derived: the arrays schema_tree points to, writable. */
struct tree_build {
	struct schema_tree t;
	size_t *path_len;
	unsigned short *key_off;
	unsigned *group, *pos, *parent, *target, *kid, *by_path;
	struct schema_kids *kids;
	const struct schema_field **req;
	struct schema_key_slot *slot;
};

static size_t hash_size(size_t n)
{
	size_t size = 16;
	while (size < 2 * n)
		size *= 2;
	return size;
}

static void index_paths(struct tree_build *b)
{
	size_t size = hash_size(schema_fields_count);
	b->by_path = xmalloc(size * sizeof(*b->by_path));
	for (size_t h = 0; h < size; h++)
		b->by_path[h] = (unsigned)-1;
	for (size_t i = 0; i < schema_fields_count; i++) {
		if (i && !strcmp(schema_fields[i].path, schema_fields[i - 1].path))
			continue;
		size_t h = mem_hash(schema_fields[i].path, b->path_len[i], 0) & (size - 1);
		while (b->by_path[h] != (unsigned)-1)
			h = (h + 1) & (size - 1);
		b->by_path[h] = (unsigned)i;
	}
	b->t.by_path = b->by_path;
	b->t.by_path_mask = size - 1;
}

static void index_keys(struct tree_build *b)
{
	size_t n = schema_fields_count, size = hash_size(n);
	b->slot = xmalloc(size * sizeof(*b->slot));
	for (size_t h = 0; h < size; h++) /* whole: the image is compared as bytes */
		b->slot[h] = (struct schema_key_slot){ SCHEMA_NO_ENTRY, 0, 0, 0 };
	b->t.slot = b->slot;
	b->t.mask = size - 1;
	for (size_t g = 0; g < n; g++) {
		const struct schema_kids *ks = &b->kids[g];
		for (unsigned k = 0; k < ks->nkeyed; k++) {
			const char *key = key_of(&b->t, b->kid[ks->first + k]);
			if (k && !strcmp(key, key_of(&b->t, b->kid[ks->first + k - 1])))
				continue; /* the run's first only */
			unsigned run = 1;
			while (k + run < ks->nkeyed && !strcmp(key, key_of(&b->t, b->kid[ks->first + k + run])))
				run++;
			size_t len = strlen(key), h = mem_hash(key, len, (size_t)g) & b->t.mask;
			while (b->slot[h].group != SCHEMA_NO_ENTRY)
				h = (h + 1) & b->t.mask;
			b->slot[h].group = (unsigned)g;
			b->slot[h].pos = k;
			b->slot[h].n = run;
			b->slot[h].len = (unsigned)len;
		}
	}
	for (size_t g = 0; g < n; g++)
		b->kids[g].star = key_pos(&b->t, (unsigned)g, &b->kids[g], "*", 1, &b->kids[g].nstar);
}

/* Is f a direct child of the pattern prefix (length pl)? */
static int is_child(const struct schema_field *f, const char *prefix, size_t pl)
{
	const char *r = f->path + pl;
	if (strncmp(f->path, prefix, pl) || !*r)
		return 0;
	if (!strcmp(r, "[]"))
		return 1;
	if (pl) {
		if (*r != '.')
			return 0;
		r++;
	}
	return *r && !strchr(r, '.') && !strstr(r, "[]");
}

static void build_tree(struct tree_build *b)
{
	size_t n = schema_fields_count;
	memset(b, 0, sizeof(*b));
	b->t.nfields = n;
	b->group = xcalloc(n, sizeof(*b->group));
	b->pos = xcalloc(n, sizeof(*b->pos));
	b->parent = xcalloc(n, sizeof(*b->parent));
	b->kids = xcalloc(n, sizeof(*b->kids));
	b->kid = xcalloc(n, sizeof(*b->kid));
	b->req = xcalloc(n, sizeof(*b->req));
	b->key_off = xcalloc(n, sizeof(*b->key_off));
	b->path_len = xcalloc(n, sizeof(*b->path_len));
	for (size_t i = 0; i < n; i++) {
		b->group[i] = i && !strcmp(schema_fields[i].path, schema_fields[i - 1].path) ? b->group[i - 1]
											 : (unsigned)i;
		b->pos[i] = b->parent[i] = SCHEMA_NO_ENTRY;
		b->kids[i].item = SCHEMA_NO_ENTRY;
		b->key_off[i] = (unsigned short)(schema_field_key(&schema_fields[i]) - schema_fields[i].path);
		b->path_len[i] = strlen(schema_fields[i].path);
	}
	b->t.path_len = b->path_len;
	b->t.key_off = b->key_off;
	/* the path index first: every parent below is looked up */
	index_paths(b);
	/* The parent pattern: without a final "[]", else up to the last '.'. */
	for (size_t i = 1; i < n; i++) {
		const char *p = schema_fields[i].path;
		size_t l = b->path_len[i], pl;
		if (l >= 2 && !strcmp(p + l - 2, "[]"))
			pl = l - 2;
		else
			pl = strrchr(p, '.') ? (size_t)(strrchr(p, '.') - p) : 0;
		const struct schema_field *par = lookup_n(&b->t, p, pl, NULL);
		if (par && is_child(&schema_fields[i], par->path, pl))
			b->parent[i] = b->group[par - schema_fields];
	}
	/* Children in table order, counted then placed: keyed, then items. */
	for (size_t i = 0; i < n; i++)
		if (b->parent[i] != SCHEMA_NO_ENTRY)
			b->kids[b->parent[i]].n++;
	unsigned at = 0;
	for (size_t i = 0; i < n; i++) {
		b->kids[i].first = at;
		at += b->kids[i].n;
		b->kids[i].n = 0;
	}
	b->t.nkid = at;
	for (int items = 0; items < 2; items++)
		for (size_t i = 0; i < n; i++) {
			unsigned g = b->parent[i];
			if (g == SCHEMA_NO_ENTRY)
				continue;
			const char *k = schema_fields[i].path + b->path_len[g];
			if (items != !strcmp(k, "[]"))
				continue;
			struct schema_kids *ks = &b->kids[g];
			if (items && ks->item == SCHEMA_NO_ENTRY)
				ks->item = (unsigned)i;
			b->pos[i] = ks->n;
			b->kid[ks->first + ks->n++] = (unsigned)i;
			if (!items)
				ks->nkeyed = ks->n;
		}
	b->t.kids = b->kids;
	b->t.kid = b->kid;
	b->t.pos = b->pos;
	/* the required ones of each, in the same order */
	unsigned nreq = 0;
	for (size_t g = 0; g < n; g++) {
		struct schema_kids *ks = &b->kids[g];
		ks->req = nreq;
		for (unsigned k = 0; k < ks->n; k++)
			if (schema_fields[b->kid[ks->first + k]].flags & SF_REQUIRED)
				b->req[nreq++] = &schema_fields[b->kid[ks->first + k]];
		ks->nreq = nreq - ks->req;
	}
	b->t.req = b->req;
	b->t.nreq = nreq;
	index_keys(b);
	b->target = xcalloc(n, sizeof(*b->target));
	for (size_t i = 0; i < n; i++)
		b->target[i] = b->group[deref(&b->t, &schema_fields[i]) - schema_fields];
	b->t.target = b->target;
}

static void tree_build_release(struct tree_build *b)
{
	free(b->path_len);
	free(b->key_off);
	free(b->group);
	free(b->pos);
	free(b->parent);
	free(b->target);
	free(b->kid);
	free(b->by_path);
	free(b->kids);
	free(b->req);
	free(b->slot);
}

/* The process's own tree, for a program linked without the image: kept
 * until exit, as the image would be. */
static const struct schema_tree *derive(void)
{
	static struct tree_build b;
	build_tree(&b);
	return &b.t;
}

/* ---- the image: written by the build, checked by the tests ---- */

static void write_uints(FILE *out, const char *name, const unsigned *v, size_t n)
{
	fprintf(out, "static const unsigned %s[] = {", name);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%u,", i % 12 ? " " : "\n\t", v[i]);
	fprintf(out, "\n};\n");
}

void schema_tree_write(FILE *out)
{
	struct tree_build b;
	build_tree(&b);
	size_t n = b.t.nfields;
	fprintf(out, "/* the field table's tree: model/images.h */\n");
	fprintf(out, "static const size_t st_path_len[] = {");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%zu,", i % 12 ? " " : "\n\t", b.path_len[i]);
	fprintf(out, "\n};\nstatic const unsigned short st_key_off[] = {");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%u,", i % 12 ? " " : "\n\t", (unsigned)b.key_off[i]);
	fprintf(out, "\n};\n");
	write_uints(out, "st_pos", b.pos, n);
	write_uints(out, "st_target", b.target, n);
	write_uints(out, "st_kid", b.kid, b.t.nkid ? b.t.nkid : 1);
	write_uints(out, "st_by_path", b.by_path, b.t.by_path_mask + 1);
	fprintf(out, "static const struct schema_kids st_kids[] = {\n");
	for (size_t i = 0; i < n; i++) {
		const struct schema_kids *k = &b.kids[i];
		fprintf(out, "\t{ %u, %u, %u, %u, %u, %u, %u, %u },\n", k->first, k->nkeyed, k->n, k->item,
			k->req, k->nreq, k->star, k->nstar);
	}
	fprintf(out, "};\nstatic const struct schema_field *const st_req[] = {");
	for (size_t i = 0; i < b.t.nreq; i++)
		fprintf(out, "%s&schema_fields[%td],", i % 6 ? " " : "\n\t", b.req[i] - schema_fields);
	fprintf(out, "%s\n};\nstatic const struct schema_key_slot st_slot[] = {\n", b.t.nreq ? "" : " NULL");
	for (size_t h = 0; h <= b.t.mask; h++)
		fprintf(out, "\t{ %u, %u, %u, %u },\n", b.slot[h].group, b.slot[h].pos, b.slot[h].n,
			b.slot[h].len);
	fprintf(out, "};\n"
		"const struct schema_tree schema_tree_image = {\n"
		"\t.nfields = %zu, .path_len = st_path_len, .key_off = st_key_off, .pos = st_pos,\n"
		"\t.target = st_target, .kids = st_kids, .kid = st_kid, .nkid = %zu, .req = st_req,\n"
		"\t.nreq = %zu, .slot = st_slot, .mask = %zu, .by_path = st_by_path, .by_path_mask = %zu,\n"
		"};\n", n, b.t.nkid, b.t.nreq, b.t.mask, b.t.by_path_mask);
	tree_build_release(&b);
}

static int differs(struct strbuf *why, const char *what, const void *a, const void *b, size_t size)
{
	if (!memcmp(a, b, size))
		return 0;
	strbuf_addf(why, "%s%s", why->len ? ", " : "", what);
	return 1;
}

int schema_tree_image_check(char **why)
{
	struct strbuf sb = STRBUF_INIT;
	const struct schema_tree *im = &schema_tree_image;
	if (!im) {
		*why = xstrdup("no image is linked");
		return -1;
	}
	struct tree_build b;
	build_tree(&b);
	const struct schema_tree *t = &b.t;
	size_t n = t->nfields;
	if (im->nfields != n || im->nkid != t->nkid || im->nreq != t->nreq || im->mask != t->mask ||
	    im->by_path_mask != t->by_path_mask) {
		strbuf_addf(&sb, "sizes (fields %zu/%zu, kids %zu/%zu, required %zu/%zu)", im->nfields, n,
			    im->nkid, t->nkid, im->nreq, t->nreq);
	} else {
		differs(&sb, "path lengths", im->path_len, t->path_len, n * sizeof(*t->path_len));
		differs(&sb, "keys", im->key_off, t->key_off, n * sizeof(*t->key_off));
		differs(&sb, "places", im->pos, t->pos, n * sizeof(*t->pos));
		differs(&sb, "targets", im->target, t->target, n * sizeof(*t->target));
		differs(&sb, "children", im->kids, t->kids, n * sizeof(*t->kids));
		differs(&sb, "child list", im->kid, t->kid, t->nkid * sizeof(*t->kid));
		differs(&sb, "required", im->req, t->req, t->nreq * sizeof(*t->req));
		differs(&sb, "key hash", im->slot, t->slot, (t->mask + 1) * sizeof(*t->slot));
		differs(&sb, "pattern hash", im->by_path, t->by_path, (t->by_path_mask + 1) * sizeof(*t->by_path));
	}
	tree_build_release(&b);
	if (!sb.len) {
		strbuf_release(&sb);
		return 0;
	}
	*why = strbuf_detach(&sb, NULL);
	return -1;
}

/* The pattern whose children f has: its own, or its ref's. */
static const struct schema_kids *kids_of(const struct schema_field *f)
{
	const struct schema_tree *t = tree_ready();
	return f ? &t->kids[t->target[f - schema_fields]] : NULL;
}

/* The child of ks for a key (lookup_n's choice among its variants): the n
 * entries of the key from pos among the keyed children. */
static const struct schema_field *keyed_child_at(const struct schema_kids *ks, unsigned pos, unsigned n,
						 const char *variant)
{
	const struct schema_field *any = NULL;
	for (unsigned i = 0; pos != SCHEMA_NO_ENTRY && i < n; i++) {
		const struct schema_field *f = &schema_fields[tree->kid[ks->first + pos + i]];
		if (variant_pick(f, variant, &any))
			return f;
	}
	return any;
}

const struct schema_field *schema_childn(const struct schema_field *parent, const char *key, size_t len,
					 const char *variant, int *own)
{
	const struct schema_kids *ks = parent ? kids_of(parent) : NULL;
	if (own)
		*own = 0;
	if (!ks)
		return NULL;
	if (!key)
		return ks->item == SCHEMA_NO_ENTRY ? NULL : &schema_fields[ks->item];
	unsigned n = 0, pos = key_pos(tree, (unsigned)(ks - tree->kids), ks, key, len, &n);
	const struct schema_field *f = keyed_child_at(ks, pos, n, variant);
	if (own)
		*own = f != NULL;
	return f ? f : keyed_child_at(ks, ks->star, ks->nstar, NULL);
}

const struct schema_field *schema_child(const struct schema_field *parent, const char *key,
					const char *variant)
{
	return schema_childn(parent, key, key ? strlen(key) : 0, variant, NULL);
}

const struct schema_field *schema_find(const struct path *p)
{
	const struct schema_field *f = schema_root();
	for (size_t i = 0; f && i < p->n; i++)
		f = schema_child(f, p->seg[i].kind == PATH_KEY ? p->seg[i].key : NULL, NULL);
	return f;
}

const struct schema_field *schema_find_text(const char *text)
{
	struct path p = PATH_INIT;
	char *err = NULL;
	const struct schema_field *f = NULL;
	if (!*text)
		f = schema_root();
	else if (!path_parse(&p, text, PATH_NAMES, &err))
		f = schema_find(&p);
	free(err);
	path_release(&p);
	return f;
}

const struct schema_field *const *schema_required(const struct schema_field *parent, size_t *n)
{
	const struct schema_kids *ks = parent ? kids_of(parent) : NULL;
	*n = ks ? ks->nreq : 0;
	return ks ? tree->req + ks->req : NULL;
}

const struct schema_field *schema_children(const struct schema_field *parent,
					   const struct schema_field *prev)
{
	const struct schema_kids *ks = parent ? kids_of(parent) : NULL;
	if (!ks)
		return NULL;
	size_t i = 0;
	if (prev) {
		unsigned p = tree->pos[prev - schema_fields];
		if (p == SCHEMA_NO_ENTRY || p >= ks->n || tree->kid[ks->first + p] != (unsigned)(prev - schema_fields))
			return NULL; /* prev is no child of parent */
		i = p + 1;
	}
	return i < ks->n ? &schema_fields[tree->kid[ks->first + i]] : NULL;
}

const char *schema_field_key(const struct schema_field *f)
{
	const char *dot = strrchr(f->path, '.');
	return dot ? dot + 1 : f->path;
}

const char *schema_type_text(const struct schema_field *f, char *buf, size_t size)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ SCHEMA_INT, "an integer" }, { SCHEMA_NUM, "a number" }, { SCHEMA_BOOL, "true or false" },
		{ SCHEMA_STR, "a string" },   { SCHEMA_MAP, "a mapping" }, { SCHEMA_LIST, "a list" },
		{ SCHEMA_NULL, "null" },
	};
	const char *part[8];
	size_t n = 0;
	char alt[96];
	if (f->types == SCHEMA_ANY) {
		snprintf(buf, size, "any value");
		return buf;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(f->types & names[i].bit))
			continue;
		if (names[i].bit == SCHEMA_INT && (f->types & SCHEMA_NUM))
			continue;
		if (names[i].bit == SCHEMA_STR && (f->flags & SF_STR_ONLY) && f->allowed &&
		    f->allowed[0]) {
			size_t k = 0;
			alt[0] = 0;
			for (const char *const *a = f->allowed; *a && k + 1 < sizeof(alt); a++)
				k += (size_t)snprintf(alt + k, sizeof(alt) - k, "%s'%s'",
						      a == f->allowed ? "" : " or ", *a);
			part[n++] = alt;
			continue;
		}
		part[n++] = names[i].name;
	}
	size_t k = 0;
	buf[0] = 0;
	for (size_t i = 0; i < n && k < size; i++)
		k += (size_t)snprintf(buf + k, size - k, "%s%s",
				      i == 0 ? "" : i + 1 == n ? " or " : ", ", part[i]);
	return buf;
}

int schema_allows(const struct schema_field *f, const char *value)
{
	if (!f->allowed)
		return 1;
	for (const char *const *a = f->allowed; *a; a++)
		if (!strcmp(*a, value))
			return 1;
	return 0;
}

size_t schema_edit_distance_max(const char *a, const char *b, size_t max)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return la > lb ? la : lb;
	/* The distance is at least the difference in length. */
	if ((la > lb ? la - lb : lb - la) > max)
		return max + 1;
	/* Three rows of the optimal-string-alignment table. */
	size_t r0[65], r1[65], r2[65];
	size_t *pp = r0, *p = r1, *c = r2;
	size_t prev_min = 0;
	for (size_t j = 0; j <= lb; j++)
		p[j] = j;
	for (size_t i = 1; i <= la; i++) {
		c[0] = i;
		size_t row_min = i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			size_t cost = ca != cb;
			size_t v = p[j] + 1;
			if (c[j - 1] + 1 < v)
				v = c[j - 1] + 1;
			if (p[j - 1] + cost < v)
				v = p[j - 1] + cost;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			c[j] = v;
			if (v < row_min)
				row_min = v;
		}
		/* Every later cell comes from this row or, by a transposition, from
		 * the one before it plus one: past max in both, it stays past max. */
		if (row_min > max && prev_min >= max)
			return max + 1;
		prev_min = row_min;
		size_t *t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return p[lb] > max ? max + 1 : p[lb];
}

size_t schema_edit_distance(const char *a, const char *b)
{
	return schema_edit_distance_max(a, b, (size_t)-2);
}

static int prefix_ci(const char *pre, const char *s)
{
	for (; *pre; pre++, s++)
		if (tolower((unsigned char)*pre) != tolower((unsigned char)*s))
			return 0;
	return 1;
}

/* The characters of s, folded as the edit distance folds them, as bits
 * (several characters to a bit). */
static uint64_t char_bits(const char *s)
{
	uint64_t m = 0;
	for (; *s; s++)
		m |= (uint64_t)1 << (tolower((unsigned char)*s) % 64);
	return m;
}

static int bit_count(uint64_t x)
{
	int n = 0;
	for (; x; x &= x - 1)
		n++;
	return n;
}

/* One candidate c (length cl, char_bits cb, 0 when not computed yet) for
 * word (wl, wb): keeps the closest in *best. */
static void consider(const char *word, size_t wl, uint64_t wb, const char *c, size_t cl, uint64_t cb,
		     const char **best, size_t *best_d)
{
	/* Only a distance of 2 or less counts, so the table stops there.  It
	 * is at least the difference in length; and each edit takes at most
	 * one character of word out of it and brings at most one of c in, so
	 * more than two characters on either side that the other lacks are
	 * more than two edits: most of a table of flags needs no table. */
	size_t d = 3;
	if ((wl > cl ? wl - cl : cl - wl) <= 2) {
		if (!cb)
			cb = char_bits(c);
		if (bit_count(wb & ~cb) <= 2 && bit_count(cb & ~wb) <= 2)
			d = schema_edit_distance_max(word, c, 2);
	}
	int close = d <= 2 && d < wl && d < cl;
	/* A prefix either way counts as close ("gpus" -> "gpus_per_node"). */
	if (!close && wl >= 3 && cl >= 3 && (prefix_ci(word, c) || prefix_ci(c, word))) {
		close = 1;
		d = 3 + (wl > cl ? wl - cl : cl - wl);
	}
	if (close && d < *best_d) {
		*best = c;
		*best_d = d;
	}
}

const char *schema_suggest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1, wl = strlen(word);
	uint64_t wb = char_bits(word);
	for (size_t i = 0; i < n; i++)
		consider(word, wl, wb, cands[i], strlen(cands[i]), 0, &best, &best_d);
	return best;
}

void schema_suggestions_init(struct schema_suggestions *s, const char *const *cands, size_t n)
{
	s->cands = cands;
	s->n = n;
	s->len = xmalloc((n + 1) * sizeof(*s->len));
	s->bits = xmalloc((n + 1) * sizeof(*s->bits));
	for (size_t i = 0; i < n; i++) {
		s->len[i] = strlen(cands[i]);
		/* a string has at least one bit unless empty: 0 stays "not known" */
		s->bits[i] = char_bits(cands[i]);
	}
}

const char *schema_suggest_in(const struct schema_suggestions *s, const char *word)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1, wl = strlen(word);
	uint64_t wb = char_bits(word);
	for (size_t i = 0; i < s->n; i++)
		consider(word, wl, wb, s->cands[i], s->len[i], s->bits[i], &best, &best_d);
	return best;
}

void schema_suggestions_release(struct schema_suggestions *s)
{
	free(s->len);
	free(s->bits);
	s->len = NULL;
	s->bits = NULL;
	s->n = 0;
}

const char *schema_suggest_key(const struct schema_field *parent, const char *key,
			       const char *variant)
{
	const char *cands[128];
	size_t n = 0;
	for (const struct schema_field *f = schema_children(parent, NULL); f && n < 128;
	     f = schema_children(parent, f)) {
		const char *k = schema_field_key(f);
		if (!strcmp(k, "*") || strstr(k, "[]"))
			continue;
		if (variant && f->variant && strcmp(f->variant, variant))
			continue;
		cands[n++] = k;
	}
	return schema_suggest(key, cands, n);
}

json_t *schema_parse_text(const struct schema_field *s, const char *text, char **err)
{
	if (!s || ((s->types & SCHEMA_MAP) && s->types != SCHEMA_ANY))
		return scalar_parse_flow(text, err);
	return scalar_parse_value(text, err);
}
