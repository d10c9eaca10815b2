/*
 * kinds.h — the one table of what srt-tui knows about service kinds: srtctl's
 * registered kinds (spec §4.2: default command, start phase, criticality,
 * placement, readiness, container, wrapper, options), the ports they and the
 * LMCache connector presets use, and the flags of `lmcache server` (name,
 * value type, default, required or not, allowed values, the LMCache releases
 * that have it, one line of help, whether srtctl owns it, and where the
 * Services form shows it).  Static data; nothing to free.
 *
 * No port number or kind name is written anywhere else in model/, render/
 * or tui/: they read it from here (KIND_NAME(), the *_PORT constants).
 */
#ifndef SRT_KINDS_H
#define SRT_KINDS_H

#include <stddef.h>

/* Indices into svc_kinds[], sorted by type name. */
enum kind_id {
	KIND_DCGM_EXPORTER,
	KIND_ETCD,
	KIND_GENERIC,
	KIND_GMS,
	KIND_LMCACHE_SERVER,
	KIND_MOONCAKE_DONOR,
	KIND_MOONCAKE_MASTER,
	KIND_MOONCAKE_STORE,
	KIND_NATS,
	KIND_NODE_EXPORTER,
	KIND_PROCESS_EXPORTER,
	KIND_RAY,
	KIND_COUNT
};

/* The kind names as string literals, for static tables elsewhere that a C
 * initialiser cannot fill from svc_kinds[] (the schema's allowed values,
 * help texts).  Code compares with svc_kind_is() or reads KIND_NAME(). */
#define KN_DCGM_EXPORTER "dcgm-exporter"
#define KN_ETCD "etcd"
#define KN_GENERIC "generic"
#define KN_GMS "gms"
#define KN_LMCACHE_SERVER "lmcache-server"
#define KN_MOONCAKE_DONOR "mooncake-donor"
#define KN_MOONCAKE_MASTER "mooncake-master"
#define KN_MOONCAKE_STORE "mooncake-store"
#define KN_NATS "nats"
#define KN_NODE_EXPORTER "node-exporter"
#define KN_PROCESS_EXPORTER "process-exporter"
#define KN_RAY "ray"

/* The ports srtctl fixes for the LMCache server and its connector presets
 * (`lmcache server --port`, `--http-port`, `lmcache.mp.port`), and the
 * server's own Prometheus default (LMCache mp_observability/config.py).
 * The _S forms are the same numbers as string literals, for help texts. */
#define LMCACHE_RPC_PORT_N 8750
#define LMCACHE_HTTP_PORT_N 8751
#define LMCACHE_PROMETHEUS_PORT_N 9090
#define KINDS_STR_(x) #x
#define KINDS_STR(x) KINDS_STR_(x)
#define LMCACHE_RPC_PORT_S KINDS_STR(LMCACHE_RPC_PORT_N)
#define LMCACHE_HTTP_PORT_S KINDS_STR(LMCACHE_HTTP_PORT_N)
enum {
	LMCACHE_RPC_PORT = LMCACHE_RPC_PORT_N,
	LMCACHE_HTTP_PORT = LMCACHE_HTTP_PORT_N,
	LMCACHE_PROMETHEUS_PORT = LMCACHE_PROMETHEUS_PORT_N,
};

struct svc_kind {
	const char *type;
	const char *const *command;  /* default argv, NULL-terminated; NULL = required */
	const char *start;           /* infra, before_workers, after_frontend */
	int critical;
	const char *placement;       /* default placement.node */
	int per_worker;              /* default placement.per is worker */
	const int *ready_ports;      /* default_readiness_ports, 0-terminated; NULL none */
	const char *container;       /* kind fallback image, NULL = job container */
	int bash_wrapper;            /* env exported in a bash wrapper (else srun_export_env) */
	const char *preamble;        /* kind preamble or NULL */
	int discovery;               /* etcd / nats / mooncake-master: `external` allowed */
	int infra_class;             /* placement.node: dedicated allowed */
	const char *const *options;  /* option keys understood, NULL-terminated; NULL none */
	const char *help;            /* one line for the wizard */
	/* The kind's own per-instance readiness hook (lmcache-server: GET
	 * /healthcheck on its HTTP port).  srtctl's dry-run and its port-clash
	 * check do not see it; only the launch does.  http_port 0 = none. */
	int ready_http_port;
	const char *ready_http_path;
	int ready_timeout;           /* seconds, for the kind's probes */
	int ready_interval;
	/* Ports the default command listens on besides its readiness ports
	 * (exporters' metrics ports), 0-terminated; NULL none. */
	const int *listen_ports;
	/* The fixed argv prefix srtctl runs when the service sets no command
	 * (lmcache-server: `lmcache server --host ... --http-port ...`): the
	 * number of leading items of command that are the program and its
	 * subcommand, before the owned flags. */
	int command_words;
};

extern const struct svc_kind svc_kinds[KIND_COUNT];
extern const size_t svc_kinds_count;

#define KIND_NAME(id) (svc_kinds[(id)].type)

const struct svc_kind *svc_kind_find(const char *type);
/* Is type (may be NULL) the kind id? */
int svc_kind_is(const char *type, enum kind_id id);
/* "dcgm-exporter, etcd, ..." sorted, as srtctl lists them in errors; static. */
const char *svc_kind_known_list(void);

/* ---- the TRT-LLM Mooncake pool (model/kinds_mooncake.c) -------------------- */

/* The Mooncake master's ports (srtctl's ports.py): RPC, the HTTP metadata
 * server of the upstream master, metrics. */
#define MOONCAKE_RPC_PORT_N 8700
#define MOONCAKE_METADATA_PORT_N 8701
#define MOONCAKE_METRICS_PORT_N 8702
enum {
	MOONCAKE_RPC_PORT = MOONCAKE_RPC_PORT_N,
	MOONCAKE_METADATA_PORT = MOONCAKE_METADATA_PORT_N,
	MOONCAKE_METRICS_PORT = MOONCAKE_METRICS_PORT_N,
};

/* srtctl's TRT-LLM pool form of the Mooncake services (srtctl 17c4ece:
 * backends/trtllm.py TRTLLMMooncakeKVStoreConfig, services/mooncake_master.py,
 * services/mooncake_donor.py, cli/mixins/worker_stage.py): `trtllm-serve
 * mooncake_master` writes its address to a file in /logs that the donors and
 * the prefill connector read; every pool process runs with the MPI variables
 * of its srun step unset.  docs/decisions.md says when srt-tui takes it. */
struct trtllm_pool {
	const char *const *master_argv;  /* up to the ratio: "trtllm-serve", ... */
	const char *address_file;        /* /logs/mooncake_master.addr */
	const char *address_url;         /* file:// + address_file */
	const char *run_dir;             /* /logs/mooncake: per-process run dirs */
	const char *mpi_prefixes;        /* env prefixes unset: "PMIX_|PMI_|..." */
	const char *dflt_eviction_ratio; /* options.eviction_ratio */
	int dflt_master_timeout_s;       /* options.master_timeout_s */
	const char *dflt_store_role;     /* options.store_role (prefill only) */
	const char *dflt_protocol;       /* donor options.protocol */
	const char *donor_log_level;     /* TLLM_LOG_LEVEL of a donor */
	/* The options only this form knows: a master with one of them (or a
	 * mooncake-donor, or a role's kv_connector_config.mooncake_store) is
	 * the pool form. */
	const char *const *master_options;
	/* dynamo.trtllm builds the LLM without trtllm-serve's pool set-up, so a
	 * role whose connector has a mooncake_store runs it inside the pool's
	 * context: `python3 -c <this> <engine yaml>`. */
	const char *dynamo_entry;
};
extern const struct trtllm_pool trtllm_pool;

/* The Ray cluster of a `type: ray` service (srtctl's ports.py
 * RAY_GCS_PORT, RAY_DASHBOARD_PORT): the defaults of options.port and
 * options.dashboard_port. */
enum { RAY_GCS_PORT = 6379, RAY_DASHBOARD_PORT = 8265 };

/* ---- the ports srtctl gives engine workers and the frontend ---------------- */

/* srtctl's ports.py: the bases and strides its port allocator hands each
 * worker process (job-wide counters advance per process in launch order:
 * prefill, decode, agg; per-node counters per worker leader on the node),
 * and the frontend's fixed ports.  render/topology.h assigns them. */
enum {
	WORKER_HTTP_PORT_BASE = 6100,      /* per node, +32 per worker leader */
	WORKER_HTTP_PORT_STRIDE = 32,
	SGLANG_BOOTSTRAP_PORT_BASE = 7200, /* per node, prefill leaders, +1 */
	KV_EVENTS_PORT_BASE = 5200,        /* job-wide, +1 per process */
	NIXL_PORT_BASE = 5400,             /* job-wide, +1 per process */
	DYN_SYSTEM_PORT_BASE = 7500,       /* job-wide, +1 per process */
	VLLM_PORT_BASE = 20000,            /* job-wide, +50 per process */
	VLLM_PORT_STRIDE = 50,
	SGLANG_NCCL_PORT_BASE = 17500,     /* + the process's DYN_SYSTEM_PORT - 7500 */
	FRONTEND_PUBLIC_PORT = 8000,
	FRONTEND_INTERNAL_PORT = 8180,     /* router replicas behind nginx */
	SGLANG_DIST_INIT_PORT = 8300,
	SGLANG_LOAD_PORT_BASE = 18000,     /* job-wide, per publishing process */
	SGLANG_KV_REPLAY_PORT_BASE = 19000, /* job-wide, per replaying process */
	VLLM_DP_RPC_PORT_BASE = 8400,      /* per leader node, +1 per vLLM DP worker */
};

/* Where srtctl mounts model.path in every container: the worker's --model,
 * and the name an engine serves under when nothing names it otherwise. */
#define CONTAINER_MODEL_DIR "/model"

/* How a worker port is numbered: one per process from a job-wide counter,
 * one per worker leader on a node, one per prefill leader on a node. */
enum wport_scope { WP_PROCESS, WP_NODE_LEADER, WP_NODE_PREFILL_LEADER };
/* Which engines bind it, under which frontends (the worker step's shape). */
enum { WP_VLLM = 1, WP_SGLANG = 2 };
enum { WP_FE_DYNAMO = 1, WP_FE_ROUTER = 2, WP_FE_DIRECT = 4, WP_FE_ANY = 7 };

/* A port an engine worker listens on, as the port-clash check reads it. */
struct worker_port {
	const char *what;       /* "DYN_SYSTEM_PORT", "--port (worker HTTP)" */
	int base, stride;       /* port = base + stride * counter */
	enum wport_scope scope;
	unsigned engines;       /* WP_VLLM | WP_SGLANG */
	unsigned frontends;     /* WP_FE_* */
	int not_moriio;         /* vLLM's MoRI-IO connector brings its own ports */
};
extern const struct worker_port worker_ports[];
extern const size_t worker_ports_count;

/* ---- `lmcache server` flags ------------------------------------------------ */

/* When LMCache gained a flag or an allowed value, as far as the stored
 * sources establish it (docs/decisions.md "LMCache server flags" gives the
 * evidence of each): */
enum lmc_since_kind {
	LMC_SINCE_FIRST,   /* in the first `lmcache server` (LMC_SERVER_FIRST_RELEASE) */
	LMC_SINCE_RELEASE, /* first in release (inferred from merge and release dates) */
	LMC_SINCE_UNKNOWN, /* in current main; the first release is not established */
	LMC_SINCE_MAIN,    /* only in main: in no release the sources establish */
};
struct lmc_since {
	enum lmc_since_kind kind;
	const char *release; /* LMC_SINCE_RELEASE: "v0.4.5" */
	const char *change;  /* the LMCache change that added it ("PR #3137"), or NULL */
};
/* `lmcache server` arrived with LMCache PR #2836 (March 2026); before it the
 * same flags went to `python -m lmcache.v1.multiprocess.http_server`. */
#define LMC_SERVER_FIRST_RELEASE "v0.4.3 or v0.4.4"
#define LMC_SERVER_CHANGE "PR #2836"

/* "every `lmcache server` release (from ...)", "LMCache v0.4.5 and later,
 * PR #3137", "current LMCache main, PR #2760 (first release not
 * established", "LMCache main only, PR #4994, in no release yet"; written
 * into buf, which is returned. */
const char *lmc_since_text(const struct lmc_since *s, char *buf, size_t size);

enum lmc_type {
	LMC_INT,      /* argparse type=int */
	LMC_FLOAT,    /* type=float */
	LMC_STR,      /* type=str */
	LMC_CHOICE,   /* choices=[...]: anything else makes argparse exit */
	LMC_JSON,     /* a JSON object in one argument */
	LMC_SWITCH,   /* store_true: the flag alone */
	LMC_BOOLOPT,  /* BooleanOptionalAction: --x or --no-x */
	LMC_LIST,     /* nargs="*": words up to the next flag */
};

/* Where the Services form shows a flag; LMC_G_NONE: extra args only. */
enum lmc_group { LMC_G_NONE, LMC_G_L1, LMC_G_EVICTION, LMC_G_L2, LMC_G_WORKERS, LMC_G_OBS,
		 LMC_G_COUNT };
extern const char *const lmc_group_names[LMC_G_COUNT]; /* "L1", "Eviction", ... */

struct lmc_flag {
	const char *name;            /* "--l1-size-gb" */
	enum lmc_type type;
	const char *dflt;            /* LMCache's default as text; NULL: none (None) */
	int required;                /* the server refuses to start without it */
	const char *required_unless; /* ...unless this flag is given ("--l1-manager") */
	const char *const *choices;  /* LMC_CHOICE: accepted by current main; else offered values */
	struct lmc_since since;      /* the releases that have it */
	int owned;                   /* srtctl writes it: never in services[].args */
	int repeatable;              /* action="append" */
	enum lmc_group group;
	const char *label;           /* form label; NULL when not on the form */
	const char *help;            /* one line */
};

extern const struct lmc_flag lmc_flags[];
extern const size_t lmc_flags_count;

/* The values of --eviction-policy current main accepts, each with the
 * releases that have it and one line of help. */
struct lmc_choice {
	const char *value;
	struct lmc_since since;
	const char *help;
};
extern const struct lmc_choice lmc_eviction_policies[];
extern const size_t lmc_eviction_policies_count;
const struct lmc_choice *lmc_eviction_policy(const char *value);

/* The flag named name ("--l1-size-gb"; "--no-l1-use-lazy" finds the BOOLOPT
 * with *neg = 1).  NULL when LMCache's server has no such flag. */
const struct lmc_flag *lmc_flag_find(const char *name, int *neg);
/* The srtctl-owned flag whose value is a port, with that port (--port:
 * LMCACHE_RPC_PORT, --http-port: LMCACHE_HTTP_PORT); 0 for the hosts. */
int lmc_flag_owned_port(const struct lmc_flag *f);

/* ---- L2 adapters (--l2-adapter JSON) --------------------------------------- */

enum l2_key_type { L2K_STR, L2K_INT, L2K_NUMBER, L2K_BOOL, L2K_CHOICE };

struct l2_key {
	const char *key;             /* "base_path"; "backend_params.file_path" nests */
	enum l2_key_type type;
	int required;                /* LMCache refuses the adapter without it */
	const char *const *choices;  /* L2K_CHOICE */
	const char *example;         /* offered in the form */
	const char *help;
	/* Required only when backend (a sibling key) is one of these. */
	const char *const *when_backend;
};

struct l2_adapter_type {
	const char *type;            /* "fs" */
	const char *help;
	const struct l2_key *keys;   /* terminated by key == NULL */
};

extern const struct l2_adapter_type l2_adapter_types[];
extern const size_t l2_adapter_types_count;
const struct l2_adapter_type *l2_adapter_find(const char *type);

#endif
