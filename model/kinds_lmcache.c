/*
 * kinds_lmcache.c — the lmcache-server kind's half of the kinds table: every
 * flag `lmcache server` accepts, and the L2 adapter types of --l2-adapter.
 *
 * Read from LMCache's own argparse definitions (lmcache/cli/commands/server.py
 * composes lmcache/v1/multiprocess/config.py, lmcache/v1/distributed/config.py
 * and lmcache/v1/mp_observability/config.py); docs/decisions.md "LMCache
 * server flags" gives the commit of each file and what differs between the
 * releases.  Values are LMCache's; the help lines are ours.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "model/images.h"
#include "model/kinds.h"

const char *const lmc_group_names[LMC_G_COUNT] = {
	[LMC_G_NONE] = "Other", [LMC_G_L1] = "L1 (CPU memory tier)",
	[LMC_G_EVICTION] = "Eviction", [LMC_G_L2] = "L2 tier",
	[LMC_G_WORKERS] = "Workers", [LMC_G_OBS] = "Observability",
};

static const char *const ev_current[] = { "LRU", "ARC", "IsolatedLRU", "noop", NULL };
static const char *const hash_algos[] = { "blake3", "sha256_cbor", "builtin", NULL };
static const char *const engine_types[] = { "default", "blend", "blend_legacy", NULL };
static const char *const transfer_modes[] = { "auto", "lmcache_driven", "engine_driven", NULL };
static const char *const trace_levels[] = { "storage", NULL };

/* The releases of each flag: in the first `lmcache server`, or read only at
 * current main (its first release is not established). */
#define FIRST { LMC_SINCE_FIRST, NULL, NULL }
#define CUR { LMC_SINCE_UNKNOWN, NULL, NULL }

const struct lmc_flag lmc_flags[] = {
	/* MP server (multiprocess/config.py, add_mp_server_args) */
	{ "--host", LMC_STR, "localhost", 0, NULL, NULL, FIRST, 1, 0, LMC_G_NONE, NULL,
	  "address the ZMQ server binds; srtctl passes 0.0.0.0" },
	{ "--port", LMC_INT, "5555", 0, NULL, NULL, FIRST, 1, 0, LMC_G_NONE, NULL,
	  "ZMQ RPC port; srtctl passes the port workers dial" },
	{ "--instance-id", LMC_STR, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "stable server identity for the coordinator and metrics (default: a random UUID)" },
	{ "--max-workers", LMC_INT, "1", 0, NULL, NULL, FIRST, 0, 0, LMC_G_WORKERS, "Max workers",
	  "server worker threads for the GPU and CPU pools; one per engine worker on the node is typical" },
	{ "--max-gpu-workers", LMC_INT, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_WORKERS,
	  "GPU pool workers", "threads for STORE/RETRIEVE (default: --max-workers)" },
	{ "--max-cpu-workers", LMC_INT, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_WORKERS,
	  "CPU pool workers", "threads for LOOKUP and other CPU work (default: --max-workers)" },
	{ "--hash-algorithm", LMC_STR, "blake3", 0, NULL, hash_algos, FIRST, 0, 0, LMC_G_WORKERS,
	  "Hash algorithm", "token hash for chunk keys; the engine side must hash the same way" },
	{ "--engine-type", LMC_CHOICE, "default", 0, NULL, engine_types, CUR, 0, 0, LMC_G_NONE,
	  NULL, "cache engine: default prefix caching, or CacheBlend" },
	{ "--supported-transfer-mode", LMC_CHOICE, "auto", 0, NULL, transfer_modes, CUR, 0, 0,
	  LMC_G_NONE, NULL, "server-driven, engine-driven or both transfer paths" },
	{ "--runtime-plugin-locations", LMC_LIST, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE,
	  NULL, "plugin scripts or directories launched with the server" },
	{ "--runtime-plugin-config", LMC_JSON, "{}", 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "JSON object forwarded to runtime plugins" },
	{ "--shm-name", LMC_STR, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "shared-memory segment for engine-driven transfer (\"\" forces pickle)" },
	{ "--script-allowed-imports", LMC_LIST, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "modules the /run_script endpoint may import" },
	{ "--separate-object-groups", LMC_BOOLOPT, "true", 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE,
	  NULL, "one object group per sliding-window size (hybrid models)" },
	{ "--worker-reap-timeout-seconds", LMC_FLOAT, "120", 0, NULL, NULL, CUR, 0, 0,
	  LMC_G_NONE, NULL, "silence before a worker's registration is reaped (0 disables, else >= 30)" },
	{ "--worker-registration-grace-seconds", LMC_FLOAT, "3600", 0, NULL, NULL, CUR, 0, 0,
	  LMC_G_NONE, NULL, "silence allowed before a registered worker's first ping" },
	{ "--enable-segmented-prefix", LMC_SWITCH, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE,
	  NULL, "CacheBlend only: keep the gapped prefix after an L2 miss" },
	/* HTTP frontend (multiprocess/config.py, add_http_frontend_args) */
	{ "--http-host", LMC_STR, "0.0.0.0", 0, NULL, NULL, FIRST, 1, 0, LMC_G_NONE, NULL,
	  "address the HTTP frontend binds; srtctl passes 0.0.0.0" },
	{ "--http-port", LMC_INT, "8080", 0, NULL, NULL, FIRST, 1, 0, LMC_G_NONE, NULL,
	  "HTTP port (/healthcheck); srtctl passes the port its readiness probe polls" },
	/* Storage manager (distributed/config.py, add_storage_manager_args) */
	{ "--l1-manager", LMC_JSON, NULL, 0, NULL, NULL, CUR, 0, 1, LMC_G_NONE, NULL,
	  "tagged L1 JSON (DRAM, DEVDAX, GDS); replaces the --l1-* flags" },
	{ "--l1-size-gb", LMC_FLOAT, NULL, 1, "--l1-manager", NULL, FIRST, 0, 0, LMC_G_L1,
	  "L1 size (GB)", "CPU memory (GB) each server keeps for KV chunks" },
	{ "--l1-init-size-gb", LMC_INT, "20", 0, NULL, NULL, FIRST, 0, 0, LMC_G_L1,
	  "L1 initial size (GB)", "what lazy allocation starts with (whole GB)" },
	{ "--l1-use-lazy", LMC_BOOLOPT, "true", 0, NULL, NULL, FIRST, 0, 0, LMC_G_L1,
	  "Lazy L1 allocation", "grow L1 from --l1-init-size-gb on demand (--no-l1-use-lazy pins it all at start)" },
	{ "--chunk-size", LMC_INT, "256", 0, NULL, NULL, FIRST, 0, 0, LMC_G_L1, "Chunk size",
	  "tokens per KV chunk; the engine's LMCache connector must use the same size (srtctl sets neither)" },
	{ "--l1-align-bytes", LMC_INT, "4096", 0, NULL, NULL, FIRST, 0, 0, LMC_G_NONE, NULL,
	  "L1 allocation alignment in bytes" },
	{ "--l1-use-hugepages", LMC_BOOLOPT, "false", 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "L1 from the 2 MiB hugepage pool (needs --no-l1-use-lazy and --shm-name \"\")" },
	{ "--l1-devdax-path", LMC_STR, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "a /dev/dax device or file as the L1 arena" },
	{ "--gds-l1-path", LMC_STR, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "NVMe directory (or uGDS device) that makes L1 a GPUDirect Storage slab" },
	{ "--gds-l1-use-direct-io", LMC_BOOLOPT, "true", 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE,
	  NULL, "open the GDS slab with O_DIRECT" },
	{ "--gds-l1-backend", LMC_STR, "auto", 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "GDS backend (choices depend on the installed libraries)" },
	{ "--l1-write-ttl-seconds", LMC_INT, "600", 0, NULL, NULL, FIRST, 0, 0, LMC_G_NONE, NULL,
	  "lifetime of an object's write lock" },
	{ "--l1-read-ttl-seconds", LMC_INT, "300", 0, NULL, NULL, FIRST, 0, 0, LMC_G_NONE, NULL,
	  "lifetime of an object's read lock" },
	{ "--eviction-policy", LMC_CHOICE, NULL, 1, "--l1-manager", ev_current, FIRST, 0, 0,
	  LMC_G_EVICTION, "Eviction policy",
	  "which chunks leave L1 when it fills; LRU is in every `lmcache server` release" },
	{ "--eviction-trigger-watermark", LMC_FLOAT, "0.8", 0, NULL, NULL, FIRST, 0, 0,
	  LMC_G_EVICTION, "Trigger watermark", "L1 usage (0 to 1) that starts eviction" },
	{ "--eviction-ratio", LMC_FLOAT, "0.2", 0, NULL, NULL, FIRST, 0, 0, LMC_G_EVICTION,
	  "Eviction ratio", "fraction of L1 (0 to 1) freed each time eviction runs" },
	{ "--l2-store-policy", LMC_STR, "default", 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "which L2 adapters receive each key (registered policies)" },
	{ "--l2-prefetch-policy", LMC_STR, "default", 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "which L2 adapter loads a key several have" },
	{ "--l2-prefetch-max-in-flight", LMC_INT, "8", 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "concurrent L2 prefetches" },
	{ "--l2-prefetch-load-timeout", LMC_FLOAT, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE,
	  NULL, "deadline in seconds for a locked L2 prefetch (default: none)" },
	{ "--periodic-notifier-interval-ms", LMC_INT, "5", 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE,
	  NULL, "event notifier heartbeat" },
	{ "--l2-adapter", LMC_JSON, NULL, 0, NULL, NULL, FIRST, 0, 1, LMC_G_L2, "L2 adapters",
	  "a JSON object with \"type\" and the adapter's keys; repeat for several tiers" },
	/* Observability (mp_observability/config.py, add_observability_args) */
	{ "--disable-observability", LMC_SWITCH, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_OBS,
	  "Disable observability", "turn the event bus off: no metrics, no Prometheus port" },
	{ "--disable-metrics", LMC_SWITCH, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "no metrics subscribers (and no Prometheus port)" },
	{ "--disable-logging", LMC_SWITCH, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "no logging subscribers" },
	{ "--enable-tracing", LMC_SWITCH, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "OTel spans (needs --otlp-endpoint)" },
	{ "--otlp-endpoint", LMC_STR, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "push metrics and traces to this OTLP gRPC endpoint instead of serving Prometheus" },
	{ "--event-bus-queue-size", LMC_INT, "10000", 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "events queued before tail-drop" },
	{ "--prometheus-port", LMC_INT, "9090", 0, NULL, NULL, CUR, 0, 0, LMC_G_OBS,
	  "Prometheus port", "the /metrics port bound on every node that runs a server" },
	{ "--metrics-sample-rate", LMC_FLOAT, "0.01", 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "fraction of chunks tracked for lifecycle histograms" },
	{ "--lookup-hash-log-dir", LMC_STR, "", 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "directory for lookup hash JSONL logs (empty: off)" },
	{ "--lookup-hash-log-rotation-interval", LMC_INT, "21600", 0, NULL, NULL, CUR, 0, 0,
	  LMC_G_NONE, NULL, "seconds before a new lookup hash log" },
	{ "--lookup-hash-log-rotation-max-size", LMC_INT, "104857600", 0, NULL, NULL, CUR, 0, 0,
	  LMC_G_NONE, NULL, "bytes before a new lookup hash log" },
	{ "--lookup-hash-log-max-files", LMC_INT, "100", 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE,
	  NULL, "lookup hash logs kept" },
	{ "--enable-gc-monitor", LMC_SWITCH, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "log slow CPython garbage collections" },
	{ "--gc-monitor-min-pause-ms", LMC_FLOAT, "1.0", 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE,
	  NULL, "shortest collection logged" },
	{ "--gc-monitor-top-objects", LMC_INT, "0", 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "object types listed per logged collection (costly)" },
	{ "--enable-extra-logging", LMC_SWITCH, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "periodic per-GPU throughput and L1 usage logs" },
	{ "--extra-logging-interval", LMC_FLOAT, "10.0", 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE,
	  NULL, "seconds between extra logs" },
	{ "--trace-level", LMC_CHOICE, NULL, 0, NULL, trace_levels, CUR, 0, 0, LMC_G_NONE, NULL,
	  "record a replayable trace at this level" },
	{ "--trace-output", LMC_STR, NULL, 0, NULL, NULL, CUR, 0, 0, LMC_G_NONE, NULL,
	  "trace file (default: under $TMPDIR)" },
};
const size_t lmc_flags_count = sizeof(lmc_flags) / sizeof(lmc_flags[0]);

#undef CUR
#undef FIRST

/* Same order as ev_current, the argparse choices. */
const struct lmc_choice lmc_eviction_policies[] = {
	{ "LRU", { LMC_SINCE_FIRST, NULL, NULL }, "least recently used chunks leave first" },
	{ "ARC", { LMC_SINCE_MAIN, NULL, "PR #4994" },
	  "adaptive: balances recently and repeatedly used chunks" },
	{ "IsolatedLRU", { LMC_SINCE_RELEASE, "v0.4.5", "PR #3137" },
	  "one LRU per cache_salt for L2 quotas; on L1 it stops eviction (LMCache #4817)" },
	{ "noop", { LMC_SINCE_UNKNOWN, NULL, "PR #2760" },
	  "never evicts: L1 as a write buffer with --l2-store-policy skip_l1" },
};
const size_t lmc_eviction_policies_count =
	sizeof(lmc_eviction_policies) / sizeof(lmc_eviction_policies[0]);

const struct lmc_choice *lmc_eviction_policy(const char *value)
{
	for (size_t i = 0; value && i < lmc_eviction_policies_count; i++)
		if (!strcmp(lmc_eviction_policies[i].value, value))
			return &lmc_eviction_policies[i];
	return NULL;
}

const char *lmc_since_text(const struct lmc_since *s, char *buf, size_t size)
{
	char ch[48] = "";

	if (s->change)
		snprintf(ch, sizeof(ch), ", %s", s->change);
	switch (s->kind) {
	case LMC_SINCE_FIRST:
		snprintf(buf, size, "every `lmcache server` release (from " LMC_SERVER_FIRST_RELEASE ")");
		break;
	case LMC_SINCE_RELEASE:
		snprintf(buf, size, "LMCache %s and later%s", s->release, ch);
		break;
	case LMC_SINCE_UNKNOWN:
		snprintf(buf, size, "current LMCache main%s (first release not established)", ch);
		break;
	case LMC_SINCE_MAIN:
		snprintf(buf, size, "LMCache main only%s, in no release yet", ch);
		break;
	}
	return buf;
}

/* The flags sorted by name (the first in the table among equal names), as
 * indices into lmc_flags: every word of every lmcache service's args is
 * looked up.  The build's image (images.h), else made on first use. */
static const unsigned short *by_name;

static int cmp_flag_index(const void *a, const void *b)
{
	unsigned short x = *(const unsigned short *)a, y = *(const unsigned short *)b;
	int c = strcmp(lmc_flags[x].name, lmc_flags[y].name);
	return c ? c : x < y ? -1 : x > y;
}

static unsigned short *sort_by_name(void)
{
	unsigned short *v = xcalloc(lmc_flags_count, sizeof(*v));
	for (size_t i = 0; i < lmc_flags_count; i++)
		v[i] = (unsigned short)i;
	qsort(v, lmc_flags_count, sizeof(*v), cmp_flag_index);
	return v;
}

/* The first flag named name, or NULL. */
static const struct lmc_flag *named(const char *name)
{
	if (!by_name)
		by_name = lmc_by_name_image ? lmc_by_name_image : sort_by_name();
	size_t lo = 0, hi = lmc_flags_count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(lmc_flags[by_name[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < lmc_flags_count && !strcmp(lmc_flags[by_name[lo]].name, name) ? &lmc_flags[by_name[lo]] : NULL;
}

void lmc_flags_write(FILE *out)
{
	unsigned short *v = sort_by_name();
	fprintf(out, "/* the LMCache server flags by name: model/images.h */\n"
		     "const unsigned short lmc_by_name_image[] = {");
	for (size_t i = 0; i < lmc_flags_count; i++)
		fprintf(out, "%s%u,", i % 12 ? " " : "\n\t", (unsigned)v[i]);
	fprintf(out, "\n};\nconst size_t lmc_by_name_image_count = %zu;\n", lmc_flags_count);
	free(v);
}

int lmc_flags_image_check(char **why)
{
	if (!lmc_by_name_image) {
		*why = xstrdup("no image is linked");
		return -1;
	}
	if (lmc_by_name_image_count != lmc_flags_count) {
		*why = xasprintf("%zu flags in the image, %zu in the table", lmc_by_name_image_count,
				 lmc_flags_count);
		return -1;
	}
	unsigned short *v = sort_by_name();
	int same = !memcmp(v, lmc_by_name_image, lmc_flags_count * sizeof(*v));
	free(v);
	if (!same)
		*why = xstrdup("the order differs from the table's");
	return same ? 0 : -1;
}

const struct lmc_flag *lmc_flag_find(const char *name, int *neg)
{
	if (!name)
		return NULL;
	const struct lmc_flag *f = named(name);
	if (f) {
		if (neg)
			*neg = 0;
		return f;
	}
	/* "--no-x" for a BooleanOptionalAction "--x" (every flag is "--...") */
	char pos[128];
	if (!strncmp(name, "--no-", 5) && strlen(name) < sizeof(pos)) {
		snprintf(pos, sizeof(pos), "--%s", name + 5);
		f = named(pos);
		if (f && f->type == LMC_BOOLOPT) {
			if (neg)
				*neg = 1;
			return f;
		}
	}
	return NULL;
}

int lmc_flag_owned_port(const struct lmc_flag *f)
{
	if (!f || !f->owned)
		return 0;
	if (!strcmp(f->name, "--port"))
		return LMCACHE_RPC_PORT;
	if (!strcmp(f->name, "--http-port"))
		return LMCACHE_HTTP_PORT;
	return 0;
}

/* ---- L2 adapters ------------------------------------------------------------ */

static const char *const nixl_backends[] = { "POSIX", "GDS", "GDS_MT", "HF3FS", "OBJ",
					     "AZURE_BLOB", NULL };
static const char *const nixl_file_backends[] = { "POSIX", "GDS", "GDS_MT", "HF3FS", NULL };
static const char *const mooncake_protocols[] = { "tcp", "rdma", NULL };

static const struct l2_key keys_fs[] = {
	{ "base_path", L2K_STR, 1, NULL, "/raid/lmcache", "directory for the KV files (node-local disk)", NULL },
	{ "max_capacity_gb", L2K_NUMBER, 0, NULL, "0", "capacity for L2 eviction (0: unbounded)", NULL },
	{ "use_odirect", L2K_BOOL, 0, NULL, "false", "bypass the page cache (O_DIRECT)", NULL },
	{ NULL, 0, 0, NULL, NULL, NULL, NULL },
};

/* LMCache forwards these to Mooncake's setup unchecked; Mooncake needs them. */
static const struct l2_key keys_mooncake[] = {
	{ "master_server_address", L2K_STR, 1, NULL, "{infra_ip}:{master_port}",
	  "the mooncake-master RPC address", NULL },
	{ "metadata_server", L2K_STR, 1, NULL, "http://{infra_ip}:{metadata_port}/metadata",
	  "the HTTP metadata server", NULL },
	{ "protocol", L2K_CHOICE, 1, mooncake_protocols, "tcp", "transfer protocol", NULL },
	{ "local_hostname", L2K_STR, 0, NULL, "", "this node's address (default: Mooncake's)", NULL },
	{ "num_workers", L2K_INT, 0, NULL, "4", "LMCache worker threads for the adapter", NULL },
	{ NULL, 0, 0, NULL, NULL, NULL, NULL },
};

static const struct l2_key keys_nixl[] = {
	{ "backend", L2K_CHOICE, 1, nixl_backends, "POSIX", "NIXL storage backend", NULL },
	{ "pool_size", L2K_INT, 1, NULL, "64", "storage descriptors pre-allocated (> 0)", NULL },
	{ "backend_params.file_path", L2K_STR, 1, NULL, "/raid/nixl",
	  "directory for the storage files (file backends)", nixl_file_backends },
	{ "backend_params.use_direct_io", L2K_STR, 1, NULL, "false",
	  "\"true\" or \"false\" (file backends)", nixl_file_backends },
	{ NULL, 0, 0, NULL, NULL, NULL, NULL },
};

const struct l2_adapter_type l2_adapter_types[] = {
	{ "fs", "files under a directory on each node", keys_fs },
	{ "mooncake_store", "a Mooncake store (needs a mooncake-master)", keys_mooncake },
	{ "nixl_store", "NIXL storage: POSIX/GDS files or object stores", keys_nixl },
};
const size_t l2_adapter_types_count = sizeof(l2_adapter_types) / sizeof(l2_adapter_types[0]);

const struct l2_adapter_type *l2_adapter_find(const char *type)
{
	for (size_t i = 0; type && i < l2_adapter_types_count; i++)
		if (!strcmp(l2_adapter_types[i].type, type))
			return &l2_adapter_types[i];
	return NULL;
}
