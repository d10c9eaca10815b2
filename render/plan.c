/*
 * plan.c — the launch plan of a recipe (see plan.h): every srun step in
 * launch order, built on render/topology and printed either as srtctl's
 * launch snapshot (spec §6.3) or as a readable per-node listing.
 *
 * What is not rendered (other engines, ...) is refused with a message
 * rather than guessed: a preview that is wrong is worse than none.
 */
#include "render/plan.h"
#include "render/plan_spare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/kinds.h"
#include "render/connector.h"
#include "render/engine_yaml.h"
#include "render/hetjob.h"
#include "render/plan_atom_direct.h"
#include "render/plan_host.h"
#include "render/plan_failover.h"
#include "render/plan_mocker.h"
#include "render/plan_postprocess.h"
#include "render/plan_mooncake.h"
#include "render/plan_moriio.h"
#include "render/plan_observability.h"
#include "render/plan_profiling.h"
#include "render/plan_sglang_pub.h"
#include "render/plan_sidecar.h"
#include "render/envmap.h"
#include "render/role_flags.h"
#include "lib/json.h"
#include "render/service.h"
#include "lib/shell.h"
#include "render/topology.h"
#include "render/vllm_dp.h"

/* One srun call.  Maps are objects of strings; NULL when unset. */
struct step {
	char *name;        /* NULL prints as <unnamed> */
	const char *label; /* static; the plan text's name of an unnamed step
			    * (NULL: "benchmark") */
	size_t node;
	char *output;
	char *image;       /* NULL: no container */
	struct envmap *env_set, *export_env; /* NULL when unset */
	json_t *srun_opts;
	const char *env_unset; /* static; printed as env_to_unset */
	int wrapper;       /* -1 unset, else use_bash_wrapper */
	const char *mounts; /* static container_mounts block; NULL: the job's */
	const char *mpi;
	int oversubscribe; /* MPI launch (TRT-LLM): printed as oversubscribe: True */
	int nodes, ntasks; /* an MPI step over several tasks (TRT-LLM); 0 unset */
	char *nodelist;    /* one name per task when set; NULL: the step's node */
	int cpus_per_task; /* 0 unset */
	char *cpu_bind;
	char *preamble, *command;
	char *detail;      /* plan text only: GPUs / ports */
	int role;          /* a worker's role (enum role_id), else -1 */
	struct strvec argv; /* a worker's command as argv, when the plan keeps them (JSON) */
};

struct plan {
	const struct recipe *r;
	struct topology t;
	struct step *st;
	size_t n, alloc;
	json_t *mounts;    /* container path by host path */
	struct strbuf mounts_text; /* the container_mounts block, printed once */
	char *served;      /* served model name */
	char *dynamo_pre;  /* dynamo install preamble, NULL when none */
	struct envmap *remap_root; /* ENROOT_REMAP_ROOT=yes, shared by every step
				    * that runs dynamo_pre; NULL without one */
	const char *job_image;
	const char *engine;
	const char *frontend;
	int dynamo;        /* Dynamo frontend */
	const struct service *pool; /* the TRT-LLM Mooncake pool's master, else NULL */
	int sidecar;       /* workers run with Dynamo sidecars (plan_sidecar.h) */
	struct strvec keys; /* env names built at run time (envmaps borrow keys) */
	size_t *fe_node;   /* frontend replica nodes (srtctl's frontend stage) */
	size_t nfe;
	int nginx;         /* nginx on the head node fronts the replicas */
	char *worker_pre;  /* a worker's bash_preamble, the same for every worker */
	char *etcd_endpoints, *nats_server; /* the discovery env of the plan */
	/* What every worker of a role shares, built by its first worker: the
	 * sorted role args as flags, the connector env and the srun options;
	 * for vLLM also the --kv-transfer-config value (it names no topology),
	 * for ATOM not. */
	struct role_cache {
		int ready;
		struct role_flags *args; /* NULL until ready */
		char *kv;
		json_t *extra_env;
		json_t *srun_opts;
		/* the role's env when no value of it names a placeholder (the
		 * same on every worker); NULL until the first worker, or when
		 * it does */
		struct envmap *env;
		int env_known;
	} rc[ROLE_COUNT];
	struct plan_cache *cache; /* NULL when none */
	struct service_ctx svc_ctx; /* looked up once: plans have thousands of instances */
	int want_argv;     /* keep each worker's argv (the JSON steps only) */
};

/* What a view that plans after every edit keeps from one plan to the next:
 * the flags of role args (role_flags.h), and large role envs. */
#define PLAN_CACHE_N 8
struct plan_cache {
	struct flags_cache *flags;
	/* large role envs that name no placeholder, as the maps every worker's
	 * env is copied from (role_env_over), by a copy of the env they were
	 * made from, whose keys they borrow */
	struct plan_cache_env {
		json_t *src;
		struct envmap *env;
		unsigned long used;
	} env[PLAN_CACHE_N];
	unsigned long clock;
};

static const char fingerprint[] =
	"( python3 <(cat <<'__FINGERPRINT_EOF__'\n<fingerprint script>\n__FINGERPRINT_EOF__\n) || true )";

/* ---- small helpers ------------------------------------------------------- */

static void set_err(char **err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_err(char **err, const char *fmt, ...)
{
	va_list ap;
	if (!err)
		return;
	va_start(ap, fmt);
	*err = xvasprintf(fmt, ap);
	va_end(ap);
}

/* Decimal n into buf (room for 24) with its NUL; its length.  Without
 * printf: plans format thousands of steps. */
static size_t fmt_int(char *buf, long n)
{
	char tmp[24];
	size_t k = 0, len = 0;
	unsigned long u = n < 0 ? -(unsigned long)n : (unsigned long)n;
	do {
		tmp[k++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (n < 0)
		buf[len++] = '-';
	while (k)
		buf[len++] = tmp[--k];
	buf[len] = '\0';
	return len;
}

static void env_put(json_t *obj, const char *k, const char *v)
{
	json_object_set_new(obj, k, json_string(v));
}

/* Layer a recipe env mapping (role env, environment, frontend env) over m,
 * with {node} and {node_id}, the only worker-env placeholders, substituted
 * (service_subst leaves the other names as written). */
static void env_layer(struct envmap *m, json_t *src, const struct plan *p, size_t node,
		      size_t node_id)
{
	struct service_vars vars = { { NULL }, NULL };
	char id[24];
	if (!json_is_object(src))
		return;
	fmt_int(id, (long)node_id);
	vars.v[SV_NODE] = p->t.node[node];
	vars.v[SV_NODE_ID] = id;
	service_env_layer(m, p->r, &vars, src);
}

/* ENROOT_REMAP_ROOT goes with the Dynamo install preamble. */
static struct envmap *remap_root_env(void)
{
	struct envmap *m = envmap_new();
	envmap_set(m, "ENROOT_REMAP_ROOT", "yes");
	return m;
}

static char *cat3(const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *r = xmalloc(la + lb + lc + 1);
	memcpy(r, a, la);
	memcpy(r + la, b, lb);
	memcpy(r + la + lb, c, lc + 1);
	return r;
}

static struct step *new_step(struct plan *p, char *name, size_t node)
{
	struct step *s;
	ALLOC_GROW(p->st, p->n + 1, p->alloc);
	s = &p->st[p->n++];
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->node = node;
	s->wrapper = -1;
	s->role = -1;
	return s;
}

static void step_release(struct step *s)
{
	free(s->nodelist);
	free(s->name);
	free(s->output);
	free(s->image);
	envmap_unref(s->env_set);
	envmap_unref(s->export_env);
	json_decref(s->srun_opts);
	free(s->cpu_bind);
	free(s->preamble);
	free(s->command);
	free(s->detail);
	strvec_release(&s->argv);
}

static char *join_argv(const struct strvec *sv)
{
	struct strbuf sb = STRBUF_INIT;
	shell_join(&sb, sv->v, sv->n);
	return sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
}

/* join_argv of head followed by the words of tail (NULL: none): shlex.join
 * of two lists is theirs joined by a blank when neither is empty. */
static char *join_argv_tail(const struct strvec *head, struct role_flags *tail)
{
	if (!tail || !tail->v.n)
		return join_argv(head);
	if (!head->n)
		return xstrdup(role_flags_joined(tail));
	struct strbuf sb = STRBUF_INIT;
	const char *t = role_flags_joined(tail);
	shell_join(&sb, head->v, head->n);
	strbuf_addch(&sb, ' ');
	strbuf_addstr(&sb, t);
	return strbuf_detach(&sb, NULL);
}

/* srun_options: recipe-wide, then the role's/service's own over them. */
/* The recipe's srun_options, then a service kind's (kind, may be NULL),
 * then the step's own (over), a later one winning. */
static json_t *srun_options_layered(const struct plan *p, json_t *kind, json_t *over)
{
	json_t *layers[3] = { jget_obj(p->r->root, "srun_options"), kind, over };
	json_t *o, *v;
	const char *k;
	if (!json_object_size(layers[0]) && !json_object_size(layers[1]) && !json_object_size(layers[2]))
		return NULL; /* the common case: nothing to pass */
	o = json_object();
	for (size_t i = 0; i < 3; i++)
		json_object_foreach(layers[i], k, v) {
			char *s = json_is_null(v) ? xstrdup("") : py_str_dup(v);
			env_put(o, k, s);
			free(s);
		}
	if (!json_object_size(o)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *srun_options(const struct plan *p, json_t *over)
{
	return srun_options_layered(p, NULL, over);
}

/* ---- recipe facts --------------------------------------------------------- */

static const char *served_name_arg(json_t *args)
{
	const char *s = jget_str(args, "served-model-name");
	return s ? s : jget_str(args, "served_model_name");
}

static char *served_name(const struct recipe *r, int mock)
{
	static const enum role_id order[] = { ROLE_PREFILL, ROLE_AGG, ROLE_DECODE };
	const char *path;
	/* TRT-LLM names it once for the engine: engine.served_model_name is a
	 * launcher flag, kept out of the role args that become the engine YAML */
	const char *te = jget_str(r->engine_cfg, "served_model_name");
	if (te && *te && r->engine && !strcmp(r->engine, "trtllm"))
		return xstrdup(te);
	/* the mocker serves under the model's name whatever its args say
	 * (srtctl's backends/mocker.py get_served_model_name) */
	for (size_t i = 0; i < 3 && !(r->engine && !strcmp(r->engine, "mocker")); i++) {
		const struct role *ro = &r->role[order[i]];
		const char *s = ro->present ? served_name_arg(ro->args) : NULL;
		if (s && *s)
			return xstrdup(s);
	}
	/* ATOM serves under its literal --model unless a role names it
	 * (backends/atom.py get_served_model_name @1a749ed; the
	 * atom/atomesh-disagg snapshot at 5bb0467 benchmarks "/model") */
	if (r->engine && !strcmp(r->engine, "atom"))
		return xstrdup(CONTAINER_MODEL_DIR);
	/* The harness replaces the weights path with a directory named "model". */
	if (mock)
		return xstrdup("model");
	path = jget_str(jget_obj(r->root, "model"), "path");
	if (!path)
		return xstrdup("model");
	if (!strncmp(path, "hf:", 3))
		return xstrdup(path + 3);
	{
		size_t len = strlen(path);
		while (len > 1 && path[len - 1] == '/')
			len--;
		const char *b = path + len;
		while (b > path && b[-1] != '/')
			b--;
		return xstrndup(b, (size_t)(path + len - b));
	}
}

/* The Dynamo install preamble of workers and frontends; NULL when Dynamo is
 * not installed.  -1 when its source is one we do not render. */
static int dynamo_preamble(const struct recipe *r, char **out, char **err)
{
	json_t *dyn = jget_obj(r->root, "dynamo");
	json_t *src = jget_obj(dyn, "source");
	const char *ver;
	*out = NULL;
	if (!jget_bool(dyn, "install", 1))
		return 0;
	if (jget_bool(dyn, "top_of_tree", 0) || jget_str(src, "git") || jget_str(src, "rev") ||
	    jget_str(src, "wheel")) {
		set_err(err, "the launch plan for a Dynamo built from git or a wheel is not rendered "
			     "yet; use dynamo.source.pypi to preview it");
		return -1;
	}
	ver = jget_str(src, "pypi");
	/* With no source srtctl installs its own pinned release; we do not know
	 * which, so the version is shown as a marker rather than guessed. */
	if (!ver)
		ver = "<srtctl default>";
	*out = xasprintf(
		"DYN_LOCK_DIR=\"$(python3 -c 'import sys; print(sys.prefix)' 2>/dev/null || echo "
		"\"${HOME:-/root}\")\" && ( flock -x 200; if [ -f "
		"\"$DYN_LOCK_DIR/.srtctl_dynamo_install.complete\" ]; then echo 'dynamo install "
		"already completed in this environment, skipping'; else { echo 'Installing dynamo "
		"%s...' && pip install --break-system-packages --quiet --extra-index-url "
		"https://pypi.nvidia.com ai-dynamo-runtime==%s ai-dynamo==%s && echo 'Dynamo %s "
		"installed' ; } && touch \"$DYN_LOCK_DIR/.srtctl_dynamo_install.complete\"; fi ) "
		"200>\"$DYN_LOCK_DIR/.srtctl_dynamo_install.lock\"",
		ver, ver, ver, ver);
	return 0;
}

static json_t *container_mounts(const struct recipe *r)
{
	json_t *m = json_object(), *cm = jget_obj(r->root, "container_mounts"),
	       *extra = jget_arr(r->root, "extra_mount"), *v;
	const char *k;
	size_t i;
	env_put(m, "<model>", CONTAINER_MODEL_DIR);
	env_put(m, "<output>/logs", "/logs");
	env_put(m, "<repo>/src/srtctl/benchmarks/scripts", "/srtctl-benchmarks");
	env_put(m, "<repo>/src/srtctl/runtime_scripts", "/srtctl-runtime");
	if (cm)
		json_object_foreach(cm, k, v) {
			char *s = py_str_dup(v);
			env_put(m, k, s);
			free(s);
		}
	json_array_foreach(extra, i, v) {
		const char *spec = json_string_value(v), *c;
		if (!spec || !(c = strchr(spec, ':')))
			continue;
		char *host = xstrndup(spec, (size_t)(c - spec));
		const char *rest = c + 1, *ro = strchr(rest, ':');
		/* a relative host path is taken from srtctl's working directory,
		 * which the snapshot harness shows as <tmp> (features/torchrun-pool:
		 * "$SRTCTL_SOURCE_DIR/..." is not expanded, so it is relative) */
		if (host[0] != '/' && host[0] != '<' && host[0] != '~') {
			char *abs = cat3("<tmp>/", host, "");
			free(host);
			host = abs;
		}
		char *cont = ro ? xstrndup(rest, (size_t)(ro - rest)) : xstrdup(rest);
		env_put(m, host, cont);
		free(host);
		free(cont);
	}
	return m;
}

/* ---- engine argument rendering (spec §2.2) -------------------------------- */

struct plan_cache *plan_cache_new(void)
{
	struct plan_cache *c = xcalloc(1, sizeof(struct plan_cache));
	c->flags = flags_cache_new();
	return c;
}

void plan_cache_free(struct plan_cache *c)
{
	if (!c)
		return;
	flags_cache_free(c->flags);
	for (size_t i = 0; i < PLAN_CACHE_N; i++) {
		json_decref(c->env[i].src);
		envmap_unref(c->env[i].env);
	}
	free(c);
}

/* The role flags of args through the plan's cache (a new reference). */
static struct role_flags *role_args(struct plan *p, json_t *args, const char *const *skip, int dash)
{
	return flags_cache_get(p->cache ? p->cache->flags : NULL, args, skip, dash);
}

/* Frontend args: --key value, in the order written. */
static void render_frontend_args(struct strvec *out, json_t *args)
{
	const char *k;
	json_t *v;
	if (!json_is_object(args))
		return;
	json_object_foreach(args, k, v) {
		if (json_is_true(v)) {
			strvec_pushf(out, "--%s", k);
		} else if (json_is_false(v) || json_is_null(v)) {
			;
		} else if (json_is_array(v)) {
			size_t j;
			json_t *e;
			json_array_foreach(v, j, e) {
				strvec_pushf(out, "--%s", k);
				strvec_push_nodup(out, py_str_dup(e));
			}
		} else {
			strvec_pushf(out, "--%s", k);
			strvec_push_nodup(out, py_str_dup(v));
		}
	}
}

static const char *const skip_vllm[] = { "connector", NULL };
static const char *const skip_sglang[] = { "model-path", "model_path", "served-model-name",
					   "served_model_name", "nccl-port", "nccl_port", NULL };
/* ...and the load publisher's endpoint when srtctl allocates it */
static const char *const skip_sglang_load[] = { "model-path", "model_path", "served-model-name",
						"served_model_name", "nccl-port", "nccl_port",
						"load-publish-endpoint", "load_publish_endpoint", NULL };
/* ...and under a sidecar the flags srtctl sets itself there */
static const char *const skip_sglang_sidecar[] = { "model-path", "model_path", "served-model-name",
						   "served_model_name", "nccl-port", "nccl_port",
						   "grpc-port", "grpc_port", "disaggregation-mode",
						   "disaggregation_mode", "disaggregation-bootstrap-port",
						   "disaggregation_bootstrap_port", NULL };
static const char *const skip_atom[] = { "extra-kv-connectors", NULL };
/* Direct vllm serve: srtctl derives these from the allocation. */
static const char *const skip_vllm_direct[] = { "connector", "headless", "host", "port",
						"master-addr", "master_addr", "nnodes",
						"node-rank", "node_rank", NULL };

/* ---- workers --------------------------------------------------------------- */

static const char *role_image(const struct plan *p, const struct role *ro)
{
	const char *c = jget_str(ro->cfg, "container");
	return c ? c : p->job_image;
}

static const struct router_shape *find_router(const char *fe);

static int worker_kv(const struct plan *p, const struct topo_proc *pr, char **json, char **err)
{
	struct worker_ctx ctx = { 0 };
	ctx.node_ip = p->t.ip[pr->node];
	ctx.head_ip = p->t.ip[p->t.head];
	ctx.http_port = pr->http_port;
	ctx.nixl_port = pr->nixl_port;
	*json = NULL;
	if (err)
		*err = NULL;
	*json = connector_kv_config(p->r, pr->role, &ctx, err);
	return (!*json && err && *err) ? -1 : 0;
}

/* Nodes of the worker pr belongs to (one process per node, rank order). */
static int worker_span(const struct plan *p, const struct topo_proc *pr, const char **leader_ip)
{
	const struct topo_proc *lead = pr - pr->node_rank;
	int n = 0;
	for (const struct topo_proc *q = lead; q < p->t.proc + p->t.nproc; q++) {
		if (q->role != pr->role || q->index != pr->index)
			break;
		n++;
	}
	*leader_ip = p->t.ip[lead->node];
	return n;
}

/* vLLM's multi-node flags (srtctl's backends/vllm.py, plain TP/PP): the
 * leader's address, node count and this node's rank; followers headless. */
static void vllm_multinode(struct strvec *argv, const char *leader_ip, int nnodes, int rank)
{
	strvec_push(argv, "--master-addr");
	strvec_push(argv, leader_ip);
	strvec_push(argv, "--nnodes");
	strvec_pushf(argv, "%d", nnodes);
	strvec_push(argv, "--node-rank");
	strvec_pushf(argv, "%d", rank);
	if (rank > 0)
		strvec_push(argv, "--headless");
}

/* Direct `vllm serve`: srtctl puts the KV config among the sorted role args,
 * and the served name unless the args spell served-model-name themselves
 * (backends/vllm.py build_worker_command's setdefault: a snake-case key
 * does not count, so both flags follow).  A new reference. */
static struct role_flags *direct_vllm_args(struct plan *p, json_t *args, const char *kv,
					   const char *served)
{
	json_t *a = json_is_object(args) ? json_copy(args) : json_object();
	if (served && !json_object_get(a, "served-model-name"))
		json_object_set_new(a, "served-model-name", json_string(served));
	json_object_del(a, "kv_transfer_config");
	if (kv)
		json_object_set_new(a, "kv-transfer-config", json_string(kv));
	else
		json_object_del(a, "kv-transfer-config");
	struct role_flags *f = role_args(p, a, skip_vllm_direct, 1);
	json_decref(a);
	return f;
}

static void push_all(struct strvec *to, const struct strvec *from)
{
	for (size_t i = 0; i < from->n; i++)
		strvec_push(to, from->v[i]);
}

/* The engine a process runs: its role's (roles may differ: TileRT's vLLM
 * prefill and TileRT decode), else the recipe's. */
static const char *proc_engine(const struct plan *p, const struct topo_proc *pr)
{
	const char *e = p->r->role[pr->role].engine;
	return e ? e : p->engine;
}

static int tilert_router(const struct plan *p)
{
	return !strcmp(p->frontend, "tilert-router");
}

static int role_cache_fill(struct plan *p, const struct topo_proc *pr, char **err)
{
	struct role_cache *c = &p->rc[pr->role];
	const struct role *ro = &p->r->role[pr->role];

	const char *eng = proc_engine(p, pr);
	if (c->ready)
		return 0;
	if (!strcmp(eng, "vllm") && tilert_router(p)) {
		/* the TileRT prefill: the recipe's own --kv-transfer-config only */
		c->args = role_args(p, ro->args, skip_vllm_direct, 1);
	} else if (!strcmp(eng, "vllm") && moriio_role(p->r, pr->role)) {
		/* its --kv-transfer-config names the process: worker_step */
		c->args = role_flags_new();
	} else if (!strcmp(eng, "vllm")) {
		if (worker_kv(p, pr, &c->kv, err) < 0)
			return -1;
		if (p->dynamo)
			c->args = role_args(p, ro->args,
					    failover_on(p->r, pr->role)		     ? failover_skip_vllm
					    : vllm_dp_of(p->r, pr->role, NULL, NULL) ? vllm_dp_skip
										     : skip_vllm,
					    1);
		else
			c->args = direct_vllm_args(p, ro->args, c->kv, p->served);
	} else if (!strcmp(eng, "tilert")) {
		c->args = role_flags_new();
		render_frontend_args(&c->args->v, ro->args); /* as written, not sorted */
	} else if (!strcmp(eng, "mocker")) {
		c->args = role_flags_new();
		render_args(&c->args->v, ro->args, mocker_skip_args, 1);
	} else if (!strcmp(eng, "sglang")) {
		c->args = role_args(p, ro->args,
				    p->sidecar ? skip_sglang_sidecar
					       : sglang_load_publishing(ro) ? skip_sglang_load : skip_sglang, 1);
	} else if (!strcmp(eng, "trtllm")) {
		/* the args go to the engine YAML; extra_args are appended verbatim */
		json_t *xa = jget_arr(ro->cfg, "extra_args");
		size_t i;
		json_t *e;
		c->args = role_flags_new();
		json_array_foreach(xa, i, e)
			strvec_push_nodup(&c->args->v, py_str_dup(e));
	} else {
		c->args = role_args(p, ro->args, skip_atom, 0);
	}
	c->extra_env = connector_extra_env(p->r, pr->role);
	c->srun_opts = srun_options(p, jget_obj(ro->cfg, "srun_options"));
	c->ready = 1;
	return 0;
}

static void role_cache_release(struct role_cache *c)
{
	role_flags_unref(c->args);
	free(c->kv);
	json_decref(c->extra_env);
	json_decref(c->srun_opts);
	envmap_unref(c->env);
	memset(c, 0, sizeof(*c));
}

static void add_int(struct strbuf *sb, long n)
{
	char buf[24];
	strbuf_add(sb, buf, fmt_int(buf, n));
}

/* `--port` value and the like as a word of argv. */
static void push_int(struct strvec *argv, long n)
{
	char buf[24];
	fmt_int(buf, n);
	strvec_push(argv, buf);
}

/* engine: a failover shadow's number ("_e<k>" before .json), else 0 */
static void push_dump_config(struct strvec *argv, const char *node, int engine)
{
	strvec_push(argv, "--dump-config-to");
	if (engine)
		strvec_pushf(argv, "/logs/workers/%s_config_e%d.json", node, engine);
	else
		strvec_push_nodup(argv, cat3("/logs/workers/", node, "_config.json"));
}

static const char *request_plane(const struct recipe *r)
{
	const char *plane = jget_str(jget_obj(r->root, "dynamo"), "request_plane");
	return plane ? plane : "tcp";
}

/* What every worker process gets before its own env: Dynamo's, under a
 * Dynamo frontend, and the head node's address. */
/* dynamo.event_plane, when set, on the workers and the frontend (srtctl's
 * worker and frontend stages, c285a29) */
static void event_plane_env(const struct recipe *r, struct envmap *env)
{
	const char *ep = jget_str(jget_obj(r->root, "dynamo"), "event_plane");
	if (ep && *ep)
		envmap_set(env, "DYN_EVENT_PLANE", ep);
}

static void worker_process_env(struct plan *p, const struct topo_proc *pr, struct envmap *env)
{
	const struct recipe *r = p->r;
	if (p->dynamo) {
		envmap_set(env, "DYN_LOG", "info,dynamo_runtime::pipeline::network::ingress::push_handler=warn");
		envmap_set(env, "DYN_REQUEST_PLANE", request_plane(r));
		envmap_set(env, "DYN_SKIP_SGLANG_LOG_FORMATTING", "1");
		envmap_set_int(env, "DYN_SYSTEM_PORT", pr->sys_port);
		event_plane_env(r, env);
		envmap_set(env, "ETCD_ENDPOINTS", p->etcd_endpoints);
		if (r->runs_nats)
			envmap_set(env, "NATS_SERVER", p->nats_server);
	}
	envmap_set(env, "HEAD_NODE_IP", p->t.ip[p->t.head]);
}

/* engine: which engine of a failover worker pr is (0 otherwise). */
static void vllm_argv(struct plan *p, const struct topo_proc *pr, struct strvec *argv,
		      const char *gpus, int span, const char *leader_ip, int http, int direct,
		      int engine)
{
	const struct recipe *r = p->r;
	const struct role *ro = &r->role[pr->role];
	json_t *ec = ro->engine_cfg ? ro->engine_cfg : r->engine_cfg;
	const char *kv = p->rc[pr->role].kv;
	int failover = failover_on(r, pr->role);

	if (p->dynamo) {
		strvec_push(argv, "python3");
		strvec_push(argv, "-m");
		strvec_push(argv, "dynamo.vllm");
		strvec_push(argv, "--model");
		strvec_push(argv, CONTAINER_MODEL_DIR);
		strvec_push(argv, "--served-model-name");
		strvec_push(argv, p->served);
		if (r->disagg) {
			strvec_push(argv, "--disaggregation-mode");
			strvec_push(argv, role_names[pr->role]);
		}
	} else {
		const char *bin = jget_str(ec, "vllm_serve_binary");
		strvec_push(argv, bin && direct ? bin : "vllm");
		strvec_push(argv, "serve");
		strvec_push(argv, CONTAINER_MODEL_DIR);
		if (pr->node_rank == 0) {
			strvec_push(argv, "--host");
			strvec_push(argv, "0.0.0.0");
			strvec_push(argv, "--port");
			push_int(argv, http);
		}
		if (span > 1)
			vllm_multinode(argv, leader_ip, span, pr->node_rank);
	}
	if (kv && p->dynamo) {
		strvec_push(argv, "--kv-transfer-config");
		strvec_push(argv, kv);
	}
	/* under failover the engines and their gms instance are pinned by the
	 * mask instead, so "device k" is one GPU for all of them */
	if (!jget_bool(ec, "set_visible_devices", 0) && !failover) {
		strvec_push(argv, "--device-ids");
		strvec_push(argv, gpus);
	}
	if (p->dynamo && vllm_dp_of(r, pr->role, NULL, NULL))
		vllm_dp_argv(&p->t, r, pr, span, leader_ip, argv);
	else if (p->dynamo && span > 1)
		vllm_multinode(argv, leader_ip, span, pr->node_rank);
	if (failover)
		failover_engine_flags(argv, ro->args, engine, span > 1);
	if (p->dynamo) {
		strvec_push(argv, "--request-plane");
		strvec_push(argv, request_plane(r));
		push_dump_config(argv, p->t.node[pr->node], engine);
	}
}

/* The KV-event and load publishers of an SGLang process (plan_sglang_pub.h):
 * the replay and load listeners come from job-wide counters over the
 * processes that have one, in launch order, each taking as many ports as
 * it publishes for. */
static void sglang_publishers(const struct plan *p, const struct topo_proc *pr, struct strvec *argv)
{
	const struct role *ro = &p->r->role[pr->role];
	int replay = SGLANG_KV_REPLAY_PORT_BASE, load = SGLANG_LOAD_PORT_BASE, stride = 1;
	/* every process's KV-event port is spaced by the most caches any
	 * publishing role's worker serves (srtctl's kv_events_size) */
	for (int k = 0; k < ROLE_COUNT; k++) {
		json_t *kv = p->r->role[k].present ? sglang_kv_events(&p->r->role[k]) : NULL;
		int n = kv ? sglang_publisher_count(&p->r->role[k]) : 1;
		json_decref(kv);
		if (n > stride)
			stride = n;
	}
	for (const struct topo_proc *q = p->t.proc; q < pr; q++) {
		const struct role *qr = &p->r->role[q->role];
		if (sglang_kv_replay(qr))
			replay += sglang_publisher_count(qr);
		if (sglang_load_publishing(qr))
			load += sglang_publisher_count(qr);
	}
	sglang_publisher_args(ro, KV_EVENTS_PORT_BASE + (pr->kv_events_port - KV_EVENTS_PORT_BASE) * stride,
			      replay, load, argv);
}

static void sglang_argv(struct plan *p, const struct topo_proc *pr, struct strvec *argv,
			int span, const char *leader_ip, int http)
{
	const struct recipe *r = p->r;

	strvec_push(argv, "python3");
	strvec_push(argv, "-m");
	strvec_push(argv, p->dynamo ? "dynamo.sglang" : "sglang.launch_server");
	strvec_push(argv, "--model-path");
	strvec_push(argv, CONTAINER_MODEL_DIR);
	strvec_push(argv, "--served-model-name");
	strvec_push(argv, p->served);
	strvec_push(argv, "--host");
	strvec_push(argv, "0.0.0.0");
	strvec_push(argv, "--port");
	push_int(argv, http);
	strvec_push(argv, "--nccl-port");
	push_int(argv, pr->nccl_port);
	strvec_push(argv, "--enable-metrics");
	if (r->disagg) {
		strvec_push(argv, "--disaggregation-mode");
		strvec_push(argv, role_names[pr->role]);
		/* the natively served P/D workers behind a router (srtctl's
		 * worker_launch direct) skip SGLang's synthetic warmup */
		if (!strcmp(p->frontend, "sglang-router") || !strcmp(p->frontend, "sgl-router"))
			strvec_push(argv, "--skip-server-warmup");
		if (pr->role == ROLE_PREFILL) {
			strvec_push(argv, "--disaggregation-bootstrap-port");
			push_int(argv, pr->bootstrap_port);
		}
	}
	if (span > 1) {
		strvec_push(argv, "--dist-init-addr");
		strvec_pushf(argv, "%s:%d", leader_ip, TOPO_SGLANG_DIST_INIT_PORT);
		strvec_push(argv, "--nnodes");
		push_int(argv, span);
		strvec_push(argv, "--node-rank");
		push_int(argv, pr->node_rank);
	}
	if (p->dynamo)
		push_dump_config(argv, p->t.node[pr->node], 0);
	sglang_publishers(p, pr, argv);
	if (p->dynamo) {
		strvec_push(argv, "--request-plane");
		strvec_push(argv, request_plane(r));
	}
}

/* An SGLang process under a Dynamo sidecar (srtctl c285a29,
 * backends/sglang.py _build_sidecar_command): the native server with its
 * gRPC port, and on the leader (or a follower relaying KV events) the
 * sidecar beside it in srtctl's supervisor script. */
static void sglang_sidecar_argv(struct plan *p, const struct topo_proc *pr, struct strvec *argv,
				int span, const char *leader_ip)
{
	const struct recipe *r = p->r;
	const struct role *ro = &r->role[pr->role];
	int leader = pr->node_rank == 0;
	int relay = sidecar_sglang_relay(ro, span, pr->node_rank);
	int grpc = sidecar_grpc_port(r, pr->sys_port - TOPO_SYS_BASE);
	int dpa = jget_bool(ro->args, "enable-dp-attention", 0) || jget_bool(ro->args, "enable_dp_attention", 0);
	json_t *dps = json_object_get(ro->args, "data-parallel-size");
	struct strvec engine = STRVEC_INIT, side = STRVEC_INIT;

	if (!dps)
		dps = json_object_get(ro->args, "dp-size");
	strvec_push(&engine, "python3");
	strvec_push(&engine, "-m");
	strvec_push(&engine, "sglang.launch_server");
	strvec_push(&engine, "--model-path");
	strvec_push(&engine, CONTAINER_MODEL_DIR);
	strvec_push(&engine, "--served-model-name");
	strvec_push(&engine, p->served);
	strvec_push(&engine, "--host");
	strvec_push(&engine, "0.0.0.0");
	strvec_push(&engine, "--port");
	push_int(&engine, pr->http_port);
	/* plain DP runs several TP groups per node: SGLang picks their NCCL ports */
	if (!(json_is_integer(dps) && json_integer_value(dps) > 1 && !dpa)) {
		strvec_push(&engine, "--nccl-port");
		push_int(&engine, pr->nccl_port);
	}
	if (r->disagg) {
		strvec_push(&engine, "--disaggregation-mode");
		strvec_push(&engine, role_names[pr->role]);
		strvec_push(&engine, "--skip-server-warmup");
		if (pr->role == ROLE_PREFILL) {
			strvec_push(&engine, "--disaggregation-bootstrap-port");
			push_int(&engine, pr->bootstrap_port);
		}
	}
	if (span > 1) {
		strvec_push(&engine, "--dist-init-addr");
		strvec_pushf(&engine, "%s:%d", leader_ip, TOPO_SGLANG_DIST_INIT_PORT);
		strvec_push(&engine, "--nnodes");
		push_int(&engine, span);
		strvec_push(&engine, "--node-rank");
		push_int(&engine, pr->node_rank);
	}
	if (leader || relay) {
		strvec_push(&engine, "--grpc-port");
		push_int(&engine, grpc);
	}
	sglang_publishers(p, pr, &engine);
	/* the sidecar reads each chunk as a delta */
	if (!json_object_get(ro->args, "incremental-streaming-output") &&
	    !json_object_get(ro->args, "incremental_streaming_output"))
		strvec_push(&engine, "--incremental-streaming-output");
	push_all(&engine, &p->rc[pr->role].args->v);
	if (!leader && !relay) {
		push_all(argv, &engine);
		strvec_release(&engine);
		return;
	}
	{
		json_t *dyn = jget_obj(r->root, "dynamo");
		const char *bin = jget_str(dyn, "sidecar_binary");
		size_t i;
		json_t *e;
		if (bin) {
			strvec_push(&side, bin);
		} else {
			strvec_push(&side, "python3");
			strvec_push(&side, "-m");
			strvec_push(&side, "dynamo.sglang.sidecar");
		}
		strvec_push(&side, "--grpc-endpoint");
		strvec_pushf(&side, "127.0.0.1:%d", grpc);
		if (leader && pr->role == ROLE_PREFILL) {
			strvec_push(&side, "--bootstrap-host");
			strvec_push(&side, leader_ip);
		}
		json_array_foreach(jget_arr(dyn, "sidecar_args"), i, e)
			strvec_push_nodup(&side, py_str_dup(e));
	}
	sidecar_launch_argv(r, &engine, &side, grpc, "SGLang", argv);
	strvec_release(&engine);
	strvec_release(&side);
}

static void atom_argv(const struct topo_proc *pr, struct strvec *argv, const char *ip, int http,
		      const char *kv)
{
	strvec_push(argv, "env");
	strvec_push_nodup(argv, cat3("ATOM_HOST_IP=", ip, ""));
	strvec_push(argv, "python3");
	strvec_push(argv, "-m");
	strvec_push(argv, "atom.entrypoints.openai_server");
	strvec_push(argv, "--model");
	strvec_push(argv, CONTAINER_MODEL_DIR);
	strvec_push(argv, "--host");
	strvec_push(argv, "0.0.0.0");
	strvec_push(argv, "--server-port");
	push_int(argv, http);
	strvec_push(argv, "-tp");
	push_int(argv, pr->ngpus);
	if (kv) {
		strvec_push(argv, "--kv-transfer-config");
		strvec_push(argv, kv);
	}
}

/* "<role>_<index>_<node>" and its log path; a failover shadow engine adds
 * "_e<k>" to both. */
static void worker_names(const struct plan *p, const struct topo_proc *pr, int engine,
			 char **name, char **output)
{
	const char *node = p->t.node[pr->node], *mode = role_names[pr->role];
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, mode);
	strbuf_addch(&sb, '_');
	add_int(&sb, pr->index);
	strbuf_addch(&sb, '_');
	strbuf_addstr(&sb, node);
	if (engine) {
		strbuf_addstr(&sb, "_e");
		add_int(&sb, engine);
	}
	*name = strbuf_detach(&sb, NULL);
	strbuf_addstr(&sb, "<output>/logs/workers/");
	strbuf_addstr(&sb, node);
	strbuf_addch(&sb, '_');
	strbuf_addstr(&sb, mode);
	strbuf_addstr(&sb, "_w");
	add_int(&sb, pr->index);
	if (engine) {
		strbuf_addstr(&sb, "_e");
		add_int(&sb, engine);
	}
	strbuf_addstr(&sb, ".out");
	*output = strbuf_detach(&sb, NULL);
}

/* ---- TRT-LLM (srtctl's backends/trtllm.py) --------------------------------- */

/* TRT-LLM's launch: one MPI srun per worker over all of its nodes (pmix,
 * oversubscribed, one task per GPU); the role args are not flags but the
 * engine's YAML config, which srtctl writes to /logs/trtllm_config_<mode>.yaml
 * (plan_render_text shows it).  MASTER_PORT is the torch.distributed
 * rendezvous, taken from the same job-wide counter as DYN_SYSTEM_PORT. */
enum { TRTLLM_DIST_INIT_BASE = 29500 };

static int trtllm_serve(const struct plan *p)
{
	return !strcmp(p->frontend, "trtllm_serve");
}

static void trtllm_argv(struct plan *p, const struct topo_proc *pr, struct strvec *argv, int http)
{
	const struct recipe *r = p->r;
	const struct role *ro = &r->role[pr->role];
	json_t *ec = ro->engine_cfg ? ro->engine_cfg : r->engine_cfg;
	const char *mode = role_names[pr->role];
	json_t *numa_mem = json_object_get(ec, "numa_memory_bind");
	int cpu_bind = jget_bool(ec, "numa_cpu_bind", 0), numactl;
	/* numa_memory_bind: local binds memory strictly to the GPU's NUMA node */
	int local = json_is_string(numa_mem) && !strcmp(json_string_value(numa_mem), "local");
	char *cfg = xasprintf("/logs/trtllm_config_%s.yaml", mode);

	/* numa_memory_bind unset: numactl only for gb200/gb300 prefill/decode */
	if (json_is_boolean(numa_mem)) {
		numactl = json_is_true(numa_mem);
	} else if (local) {
		numactl = 0;
	} else {
		const char *g = jget_str(jget_obj(r->root, "resources"), "gpu_type");
		numactl = g && (!strcmp(g, "gb200") || !strcmp(g, "gb300")) && pr->role != ROLE_AGG;
	}
	if (cpu_bind || local) {
		/* the wrapper finds the task's GPU-local CPUs (and memory) at launch:
		 * the argv is the same for every rank, the GPU is not */
		strvec_push(argv, "bash");
		strvec_push(argv, "/configs/numa_cpu_bind.sh");
		if (local)
			strvec_push(argv, "--bind-memory");
		else if (numactl)
			strvec_push(argv, "--preferred-memory");
		if (!cpu_bind)
			strvec_push(argv, "--no-bind-cpu");
	} else if (numactl) {
		strvec_push(argv, "numactl");
		strvec_push(argv, "-m");
		strvec_push(argv, "0,1");
	}
	strvec_push(argv, "trtllm-llmapi-launch");
	if (trtllm_serve(p)) {
		static const char *const par[][2] = {
			{ "--tensor_parallel_size", "tensor_parallel_size" },
			{ "--moe_expert_parallel_size", "moe_expert_parallel_size" },
			{ "--pipeline_parallel_size", "pipeline_parallel_size" },
		};
		strvec_push(argv, "trtllm-serve");
		strvec_push(argv, CONTAINER_MODEL_DIR);
		strvec_push(argv, "--host");
		strvec_push(argv, "0.0.0.0");
		strvec_push(argv, "--port");
		push_int(argv, http);
		for (size_t i = 0; i < 3; i++) {
			json_t *v = json_object_get(ro->args, par[i][1]);
			if (v && !json_is_null(v)) {
				strvec_push(argv, par[i][0]);
				strvec_push_nodup(argv, py_str_dup(v));
			}
		}
		strvec_push(argv, "--config");
		strvec_push(argv, cfg);
		push_all(argv, &p->rc[pr->role].args->v);
		strvec_push(argv, "--served_model_name");
		strvec_push(argv, p->served);
	} else {
		json_t *pe = json_object_get(ec, "publish_events_and_metrics");
		strvec_push(argv, "python3");
		if (pool_role_provisions(ro)) {
			/* the pool is provisioned around dynamo.trtllm (plan_mooncake.h) */
			strvec_push(argv, "-c");
			strvec_push(argv, trtllm_pool.dynamo_entry);
			strvec_push(argv, cfg);
		} else {
			strvec_push(argv, "-m");
			strvec_push(argv, "dynamo.trtllm");
		}
		strvec_push(argv, "--model-path");
		strvec_push(argv, CONTAINER_MODEL_DIR);
		strvec_push(argv, "--served-model-name");
		strvec_push(argv, p->served);
		if (pr->role != ROLE_AGG) {
			strvec_push(argv, "--disaggregation-mode");
			strvec_push(argv, mode);
		}
		strvec_push(argv, "--extra-engine-args");
		strvec_push(argv, cfg);
		strvec_push(argv, "--request-plane");
		strvec_push(argv, request_plane(r));
		/* publish_events_and_metrics: true emits that one flag (it covers the
		 * metrics), false neither; unset, --publish-metrics unless
		 * publish_metrics is false (srtctl's trtllm-dynamo-agg example) */
		if (json_is_true(pe))
			strvec_push(argv, "--publish-events-and-metrics");
		else if (!json_is_false(pe) && jget_bool(ec, "publish_metrics", 1))
			strvec_push(argv, "--publish-metrics");
		push_all(argv, &p->rc[pr->role].args->v);
	}
	free(cfg);
}

/* Whether some value of an env mapping may name a placeholder: a string
 * with a brace, or a list or mapping, whose str() has them. */
static int env_names_placeholder(json_t *src)
{
	const char *k;
	json_t *v;
	json_object_foreach(src, k, v)
		if ((json_is_string(v) && strchr(json_string_value(v), '{')) || json_is_array(v) ||
		    json_is_object(v))
			return 1;
	return 0;
}

/* json_equal of two objects, walked in the order written first: a copy
 * has its original's order, and the walk makes no lookups. */
static int same_object(json_t *a, json_t *b)
{
	void *i = json_object_iter(a), *j = json_object_iter(b);
	if (json_object_size(a) != json_object_size(b))
		return 0;
	for (; i && j; i = json_object_iter_next(a, i), j = json_object_iter_next(b, j)) {
		if (strcmp(json_object_iter_key(i), json_object_iter_key(j)))
			return json_equal(a, b);
		if (!json_equal(json_object_iter_value(i), json_object_iter_value(j)))
			return 0;
	}
	return 1;
}

/* The map of a role env src that names no placeholder (a new reference),
 * through the plan's cache: the same env gives the same map, whose sorted
 * order is then found once for every plan. */
static struct envmap *role_env_map(struct plan *p, json_t *src)
{
	struct plan_cache *c = p->cache;
	struct envmap *m = envmap_new();
	if (!c) {
		service_env_layer(m, p->r, NULL, src);
		return m;
	}
	struct plan_cache_env *e = &c->env[0];
	for (size_t i = 0; i < PLAN_CACHE_N; i++) {
		struct plan_cache_env *x = &c->env[i];
		if (x->src && same_object(x->src, src)) {
			x->used = ++c->clock;
			envmap_unref(m);
			return envmap_ref(x->env);
		}
		if (x->used < e->used)
			e = x;
	}
	m->keep = json_deep_copy(src);
	service_env_layer(m, p->r, NULL, m->keep);
	json_decref(e->src);
	envmap_unref(e->env);
	e->src = json_incref(m->keep);
	e->env = envmap_ref(m);
	e->used = ++c->clock;
	return m;
}

/* env (taken) with the role's env layered over it.  A large role env that
 * names no placeholder is one map (role_env_map), and each worker's env a
 * copy of it with what was set before put under: for a role env of
 * hundreds of names that is cheaper than setting them all again, and the
 * copies share their sorted order. */
static struct envmap *role_env_over(struct plan *p, const struct topo_proc *pr, struct envmap *env,
				    size_t node_id)
{
	struct role_cache *c = &p->rc[pr->role];
	json_t *src = p->r->role[pr->role].env;
	if (!c->env_known) {
		c->env_known = 1;
		if (json_object_size(src) > ENVMAP_SCAN && !env_names_placeholder(src))
			c->env = role_env_map(p, src);
	}
	if (!c->env) {
		env_layer(env, src, p, pr->node, node_id);
		return env;
	}
	struct envmap *m = envmap_copy(c->env);
	for (size_t i = 0; i < env->n; i++)
		if (!envmap_get(m, env->e[i].key))
			envmap_set(m, env->e[i].key, envmap_value(env, i));
	envmap_unref(env);
	return m;
}

/* The end every worker step shares: the role's env and the job's over what
 * the engine set, profiling last over the rest (srtctl's worker stage), then
 * the step with its name, log, image and env (taken). */
static struct step *worker_step_new(struct plan *p, const struct topo_proc *pr,
				    struct envmap *env, size_t node_id, int engine, int ranks)
{
	const struct recipe *r = p->r;
	const struct role *ro = &r->role[pr->role];
	char *name, *output;
	obs_worker_env(r, pr->role, proc_engine(p, pr), ranks, env);
	env = role_env_over(p, pr, env, node_id);
	env_layer(env, jget_obj(r->root, "environment"), p, pr->node, node_id);
	profiling_worker_env(r, pr->role, env);
	worker_names(p, pr, engine, &name, &output);
	struct step *s = new_step(p, name, pr->node);
	s->output = output;
	s->image = xstrdup(role_image(p, ro));
	s->env_set = env;
	return s;
}

static int trtllm_worker_step(struct plan *p, const struct topo_proc *pr)
{
	const struct recipe *r = p->r;
	const struct role *ro = &r->role[pr->role];
	json_t *ec = ro->engine_cfg ? ro->engine_cfg : r->engine_cfg;
	const char *leader_ip;
	int span = worker_span(p, pr, &leader_ip);
	int http = trtllm_serve(p) && !r->disagg ? TOPO_FRONTEND_PORT : pr->http_port;
	size_t node_id = pr->node >= p->t.worker_first ? pr->node - p->t.worker_first : pr->node;
	struct envmap *env = envmap_new();
	struct strvec argv = STRVEC_INIT;
	char *gpus = topo_gpu_list(pr);
	struct step *s;

	trtllm_argv(p, pr, &argv, http);
	worker_process_env(p, pr, env);
	/* a worker on part of a node sees its GPUs only; a whole node, all */
	if (pr->ngpus < r->gpus_per_node)
		envmap_set(env, r->visible_devices_env, gpus);
	envmap_set(env, "MASTER_ADDR", leader_ip);
	envmap_set_int(env, "MASTER_PORT", TRTLLM_DIST_INIT_BASE + (pr->sys_port - TOPO_SYS_BASE));
	/* srtctl names a fresh shared-memory segment per launch (uuid) */
	envmap_set(env, "TRTLLM_EPLB_SHM_NAME", "<random>");
	if (jget_bool(ec, "numa_cpu_bind", 0))
		envmap_set(env, "TLLM_NUMA_AWARE_WORKER_AFFINITY", "0");
	/* a Mooncake master in the job: every worker is told where it is (its
	 * RPC port 8700, the HTTP metadata server on 8701) and its own address;
	 * a role with a Mooncake store (mooncake_store_config, or the
	 * mooncake-store KV connector) reads the JSON file srtctl writes */
	if (p->pool)
		pool_worker_env(p->pool, pr->role, env);
	for (size_t i = 0; i < r->nsvc && !p->pool; i++) {
		if (strcmp(r->svc[i].type, KN_MOONCAKE_MASTER))
			continue;
		const char *mip = p->t.ip[p->t.infra];
		char buf[160];
		snprintf(buf, sizeof(buf), "%s:8700", mip);
		envmap_set(env, "MOONCAKE_MASTER", buf);
		snprintf(buf, sizeof(buf), "http://%s:8701/metadata", mip);
		envmap_set(env, "MOONCAKE_TE_META_DATA_SERVER", buf);
		envmap_set(env, "MOONCAKE_LOCAL_HOSTNAME", p->t.ip[pr->node]);
		const char *kc = jget_str(jget_obj(ro->args, "kv_connector_config"), "connector");
		if (jget_obj(ro->cfg, "mooncake_store_config") || (kc && !strcmp(kc, KN_MOONCAKE_STORE))) {
			snprintf(buf, sizeof(buf), "/logs/mooncake_store_config_%s.json",
				 role_names[pr->role]);
			envmap_set(env, "MOONCAKE_CONFIG_PATH", buf);
		}
		break;
	}
	envmap_update(env, p->rc[pr->role].extra_env);
	s = worker_step_new(p, pr, env, node_id, 0, span * pr->ngpus);
	s->nodes = span;
	s->ntasks = span * pr->ngpus;
	if (span > 1) {
		/* one entry per task, in rank order: srun's distribution=arbitrary */
		struct strbuf nl = STRBUF_INIT;
		for (int k = 0; k < span; k++)
			for (int g = 0; g < pr[k].ngpus; g++)
				strbuf_addf(&nl, "%s%s", nl.len ? " " : "", p->t.node[pr[k].node]);
		s->nodelist = strbuf_detach(&nl, NULL);
	}
	{
		json_t *o = json_object();
		json_t *rs = p->rc[pr->role].srun_opts;
		const char *k;
		json_t *v;
		if (span > 1)
			json_object_set_new(o, "distribution", json_string("arbitrary"));
		json_object_set_new(o, "kill-on-bad-exit", json_string("1"));
		json_object_set_new(o, "ntasks-per-node", json_sprintf("%d", pr->ngpus));
		json_object_foreach(rs, k, v)
			json_object_set(o, k, v);
		s->srun_opts = o;
	}
	s->mpi = "pmix";
	s->oversubscribe = 1;
	s->cpu_bind = xstrdup("verbose,none");
	if (p->remap_root)
		s->export_env = envmap_ref(p->remap_root);
	s->preamble = p->pool ? pool_worker_preamble(pr->role, pr->index, p->worker_pre)
			      : xstrdup(p->worker_pre);
	if (obs_nsys_enabled(r)) {
		/* one window over every MPI task, a report per rank */
		char *rep = obs_report_name(role_names[pr->role], s->output,
					    "_profile_rank%q{SLURM_PROCID}");
		obs_nsys_wrap(r, &argv, 0, rep, s->ntasks);
		free(rep);
	}
	s->command = join_argv(&argv);
	if (span > 1)
		s->detail = xasprintf("GPUs %s on each of %d nodes, %d MPI tasks, %s", gpus, span,
				      s->ntasks, trtllm_serve(p) ? "trtllm-serve" : "dynamo.trtllm");
	else
		s->detail = xasprintf("GPUs %s, %d MPI task%s, http %d", gpus, s->ntasks,
				      s->ntasks == 1 ? "" : "s", http);
	strvec_release(&argv);
	free(gpus);
	return 0;
}

/* TileRT's router: the vLLM prefill by URL, each decode server as
 * host:ctrl-port:http-port, then the frontend args as written. */
static void tilert_router_step(struct plan *p)
{
	const struct recipe *r = p->r;
	json_t *fe = jget_obj(r->root, "frontend");
	const char *img = jget_str(fe, "container_image");
	size_t node = p->t.head;
	struct strvec argv = STRVEC_INIT;
	struct envmap *env = envmap_new();
	struct step *s;

	strvec_push(&argv, "python");
	strvec_push(&argv, "-m");
	strvec_push(&argv, "tilert.pd_vllm.pd_router");
	for (size_t i = 0; i < p->t.nproc; i++) {
		const struct topo_proc *pr = &p->t.proc[i];
		if (pr->node_rank)
			continue;
		if (pr->role == ROLE_DECODE) {
			strvec_push(&argv, "--decode");
			strvec_pushf(&argv, "%s:%d:%d", p->t.ip[pr->node], pr->nixl_port, pr->http_port);
		} else {
			strvec_push(&argv, "--vllm-url");
			strvec_pushf(&argv, "http://%s:%d", p->t.ip[pr->node], pr->http_port);
		}
	}
	strvec_push(&argv, "--host");
	strvec_push(&argv, "0.0.0.0");
	strvec_push(&argv, "--port");
	push_int(&argv, TOPO_FRONTEND_PORT);
	render_frontend_args(&argv, jget_obj(fe, "args"));
	env_layer(env, jget_obj(r->root, "environment"), p, node, node);
	obs_frontend_env(r, env);
	env_layer(env, jget_obj(fe, "env"), p, node, node);

	s = new_step(p, xstrdup("tilert_router_0"), node);
	s->output = cat3("<output>/logs/workers/", p->t.node[node], "_tilert-router_0.out");
	s->image = xstrdup(img ? img : p->job_image);
	if (env->n)
		s->env_set = env;
	else
		envmap_unref(env);
	s->srun_opts = srun_options(p, NULL);
	s->command = join_argv(&argv);
	s->detail = xasprintf("public port %d", TOPO_FRONTEND_PORT);
	strvec_release(&argv);
}

/* trtllm_serve in front of P/D workers: the orchestrator reads the
 * context/generation server list srtctl writes to /logs/ser.yaml. */
static void trtllm_orchestrator_step(struct plan *p)
{
	size_t node = p->t.head;
	struct step *s = new_step(p, xstrdup("trtllm_serve_orchestrator"), node);
	s->output = cat3("<output>/logs/workers/", p->t.node[node], "_frontend_0.out");
	s->image = xstrdup(p->job_image);
	s->mpi = "pmix";
	s->command = xstrdup("trtllm-serve disaggregated --config /logs/ser.yaml");
	s->detail = xasprintf("public port %d, /logs/ser.yaml lists the workers", TOPO_FRONTEND_PORT);
}

/* One engine step of topology process tp: engine 0, or a failover shadow
 * (its ports from topo_engine; tp itself still tells the worker's span). */
static int worker_step(struct plan *p, const struct topo_proc *tp, int engine, char **err)
{
	struct topo_proc shadow = topo_engine(tp, engine);
	const struct topo_proc *pr = engine ? &shadow : tp;
	const struct recipe *r = p->r;
	const struct role *ro = &r->role[pr->role];
	const char *ip = p->t.ip[pr->node];
	int direct = !p->dynamo && !find_router(p->frontend) && !tilert_router(p);
	const char *eng = proc_engine(p, pr);
	int http = direct ? TOPO_FRONTEND_PORT : pr->http_port;
	struct role_cache *c = &p->rc[pr->role];
	struct envmap *env;
	struct strvec argv = STRVEC_INIT;
	char *gpus, *kv = NULL;
	const char *leader_ip;
	int span = worker_span(p, tp, &leader_ip);
	size_t node_id = pr->node >= p->t.worker_first ? pr->node - p->t.worker_first : pr->node;
	struct step *s;
	int set_visible = 1;
	char *fo_dir = NULL; /* the failover worker's shared directory */
	struct role_flags *tail = NULL; /* the role's flags, after argv */

	if (role_cache_fill(p, pr, err) < 0)
		return -1;
	if (!strcmp(eng, "trtllm"))
		return pr->node_rank ? 0 : trtllm_worker_step(p, pr);
	if (!strcmp(eng, "atom") && worker_kv(p, pr, &kv, err) < 0)
		return -1;
	gpus = topo_gpu_list(pr);
	env = envmap_new();
	if (!strcmp(eng, "tilert")) {
		/* TileRT's decode server: its HTTP port, and the control port the
		 * router reaches it on (the process's NIXL side-channel number) */
		strvec_push(&argv, "python");
		strvec_push(&argv, "-m");
		strvec_push(&argv, "tilert.pd_vllm.decode_server");
		strvec_push(&argv, "--engine");
		strvec_push(&argv, "tilert");
		strvec_push(&argv, "--http-port");
		push_int(&argv, pr->http_port);
		strvec_push(&argv, "--ctrl-port");
		push_int(&argv, pr->nixl_port);
		set_visible = 0;
	} else if (!strcmp(eng, "vllm")) {
		json_t *ec = ro->engine_cfg ? ro->engine_cfg : r->engine_cfg;
		const char *conn = ro->connector;
		int moriio = conn && !strcasecmp(conn, "moriio");
		set_visible = jget_bool(ec, "set_visible_devices", 0);
		if (failover_on(r, pr->role)) {
			set_visible = 1;
			fo_dir = failover_worker_dir(r, pr->role, pr->index, topo_job_id(&p->t));
		}
		vllm_argv(p, pr, &argv, gpus, span, leader_ip, http, direct, engine);
		/* every vLLM worker gets its KV-event port and the NIXL side
		 * channel, whatever the frontend (srtctl's current-layout
		 * vllm-direct-agg and tilert snapshots; moriio brings its own) */
		envmap_set_int(env, "DYN_VLLM_KV_EVENT_PORT", pr->kv_events_port);
		if (!moriio) {
			envmap_set(env, "VLLM_NIXL_SIDE_CHANNEL_HOST", ip);
			envmap_set_int(env, "VLLM_NIXL_SIDE_CHANNEL_PORT", pr->nixl_port);
			envmap_set_int(env, "VLLM_PORT", pr->vllm_port);
		}
	} else if (!strcmp(eng, "sglang")) {
		if (p->sidecar)
			sglang_sidecar_argv(p, pr, &argv, span, leader_ip);
		else
			sglang_argv(p, pr, &argv, span, leader_ip, http);
		envmap_set(env, "SGLANG_CUDA_COREDUMP_BEFORE_CRASH", "0");
		envmap_set(env, "SGLANG_PYSPY_DUMP_BEFORE_CRASH", "0");
		/* the sidecar talks to SGLang's bundled gRPC extension: never rebuild it */
		if (p->sidecar)
			envmap_set(env, "SGLANG_RUST_BUILD_MODE", "never");
	} else if (!strcmp(eng, "mocker")) {
		mocker_argv(r, pr, p->served, &argv);
	} else {
		atom_argv(pr, &argv, ip, http, kv);
	}
	if (!strcmp(eng, "vllm") && moriio_role(r, pr->role)) {
		char *mkv = moriio_kv_config(r, &p->t, (size_t)(tp - p->t.proc), err);
		if (!mkv && err && *err) {
			strvec_release(&argv);
			envmap_unref(env);
			free(gpus);
			free(kv);
			free(fo_dir);
			return -1;
		}
		tail = direct_vllm_args(p, ro->args, mkv, p->served);
		free(mkv);
	} else if (!(p->sidecar && !strcmp(eng, "sglang"))) {
		tail = role_flags_ref(c->args); /* the sidecar's argv has them inside */
	}

	/* Dynamo process env, then the worker's own. */
	worker_process_env(p, pr, env);
	/* a process that owns its whole node needs no mask (srtctl's
	 * _visible_device_environment) */
	if (set_visible && pr->ngpus < r->gpus_per_node)
		envmap_set(env, r->visible_devices_env, gpus);
	if (fo_dir)
		failover_engine_env(env, fo_dir, engine);
	envmap_update(env, c->extra_env);
	s = worker_step_new(p, pr, env, node_id, engine, 1);
	s->srun_opts = json_incref(c->srun_opts);
	/* every rank of a multi-node worker inherits VLLM_PORT; srtctl unsets it
	 * so they do not race for the same rendezvous ports */
	if (span > 1 && !strcmp(eng, "vllm"))
		s->env_unset = "VLLM_PORT";
	if (p->remap_root)
		s->export_env = envmap_ref(p->remap_root);
	s->preamble = fo_dir ? failover_preamble(p->worker_pre, fo_dir) : xstrdup(p->worker_pre);
	if (obs_nsys_enabled(r)) {
		char *label = xstrdup(gpus), *rtail, *rep;
		for (char *q = label; *q; q++)
			if (*q == ',')
				*q = '-';
		rtail = cat3("_profile_gpu", label, "");
		rep = obs_report_name(role_names[pr->role], s->output, rtail);
		if (tail)
			push_all(&argv, &tail->v); /* the wrap goes around every word */
		role_flags_unref(tail);
		tail = NULL;
		obs_nsys_wrap(r, &argv, 0, rep, 1);
		free(rep);
		free(rtail);
		free(label);
	}
	s->command = join_argv_tail(&argv, tail);
	s->role = (int)pr->role;
	if (p->want_argv) {
		if (tail)
			push_all(&argv, &tail->v);
		s->argv = argv;
		argv = (struct strvec)STRVEC_INIT;
	}
	role_flags_unref(tail);
	{
		char rank[96] = "";
		size_t at = 0;
		int dpl = !strcmp(eng, "vllm") && p->dynamo ? vllm_dp_local_ranks(r, pr) : 0;
		if (span > 1)
			at = (size_t)snprintf(rank, sizeof(rank), ", node %d of %d", pr->node_rank + 1, span);
		if (fo_dir)
			snprintf(rank + at, sizeof(rank) - at, ", engine %d of %d%s", engine, pr->engines,
				 engine ? " (shadow)" : "");
		if (dpl) /* every node's runtime registers its own ranks (hybrid LB) */
			s->detail = xasprintf("GPUs %s%s, DP ranks %d-%d, DYN_SYSTEM_PORT %d", gpus, rank,
					      pr->node_rank * dpl, (pr->node_rank + 1) * dpl - 1, pr->sys_port);
		else if (pr->node_rank > 0)
			s->detail = xasprintf("GPUs %s%s, follower (no http)", gpus, rank);
		else if (p->dynamo)
			s->detail = xasprintf("GPUs %s%s, http %d, DYN_SYSTEM_PORT %d", gpus, rank,
					      http, pr->sys_port);
		else
			s->detail = xasprintf("GPUs %s%s, http %d", gpus, rank, http);
	}
	strvec_release(&argv);
	free(gpus);
	free(kv);
	free(fo_dir);
	return 0;
}

/* ---- frontends ------------------------------------------------------------- */

/* The worker leaders' URLs a router is given: --worker-urls for an
 * aggregated job; for P/D every prefill (with its bootstrap number when the
 * router takes one) then every decode. */
static void router_workers(struct plan *p, struct strvec *argv, int pd, int bootstrap_nixl,
			   int bootstrap)
{
	static const enum role_id order[] = { ROLE_PREFILL, ROLE_DECODE };
	if (!pd)
		strvec_push(argv, "--worker-urls");
	for (size_t k = 0; k < (pd ? 2u : 1u); k++) {
		for (size_t i = 0; i < p->t.nproc; i++) {
			const struct topo_proc *pr = &p->t.proc[i];
			if (pr->node_rank || (pd && pr->role != order[k]))
				continue;
			if (pd)
				strvec_push(argv, order[k] == ROLE_PREFILL ? "--prefill" : "--decode");
			strvec_pushf(argv, "http://%s:%d", p->t.ip[pr->node], pr->http_port);
			if (pd && order[k] == ROLE_PREFILL && bootstrap)
				push_int(argv, bootstrap_nixl ? pr->nixl_port : pr->bootstrap_port);
		}
	}
}

/* nginx in front of the router replicas (srtctl's frontend stage): its
 * config is written to the log directory, which containers see as /logs. */
static void nginx_step(struct plan *p)
{
	json_t *fe = jget_obj(p->r->root, "frontend");
	const char *img = jget_str(fe, "nginx_container");
	struct strvec argv = STRVEC_INIT;
	struct strbuf up = STRBUF_INIT;
	struct step *s = new_step(p, xstrdup("nginx"), p->t.head);

	s->output = cat3("<output>/logs/workers/", p->t.node[p->t.head], "_nginx.out");
	s->image = xstrdup(img && *img ? img : "nginx:1.27.4");
	s->srun_opts = json_object();
	env_put(s->srun_opts, "container-remap-root", "");
	s->wrapper = 0;
	strvec_push(&argv, "bash");
	strvec_push(&argv, "-c");
	strvec_push(&argv, jget_bool(fe, "nginx_raise_ulimit", 0)
				   ? "ulimit -n 1048576 && nginx -c /logs/nginx.conf -g 'daemon off;'"
				   : "nginx -c /logs/nginx.conf -g 'daemon off;'");
	s->command = join_argv(&argv);
	for (size_t i = 0; i < p->nfe; i++)
		strbuf_addf(&up, "%s%s:%d", i ? " " : "", p->t.ip[p->fe_node[i]],
			    TOPO_FRONTEND_INTERNAL_PORT);
	s->detail = xasprintf("public port %d, /logs/nginx.conf balances %s", TOPO_FRONTEND_PORT,
			      sb_str(&up));
	strbuf_release(&up);
	strvec_release(&argv);
}

/* The routers' command lines (spec §2.4, docs/decisions.md "Routers"): a
 * head, a P/D flag, the worker URLs, the listen address, fixed tail flags,
 * then frontend.args.  bootstrap: a number follows each --prefill URL, the
 * prefill worker's NIXL port when bootstrap_nixl, else its bootstrap port.
 * proc and label name the step and its log (srtctl's frontends:
 * process_name, log_label; the Dynamo frontend's are "frontend"). */
struct router_shape {
	const char *frontend;
	const char *proc, *label;
	const char *const *head;
	const char *pd_flag;
	int bootstrap, bootstrap_nixl;
	const char *const *tail;
	/* sgl-router (srtctl's frontends/sgl_router.py): --host/--port first, one
	 * --worker-urls list however the job is split (the binary reads each
	 * worker's role itself), --model-id unless the args give one, and no
	 * bash wrapper */
	int standalone;
};

static const char *const sgl_head[] = { "python", "-m", "sglang_router.launch_router", NULL };
static const char *const sgl_tail[] = { "--prometheus-port", "29000", "--prometheus-host",
					"0.0.0.0", NULL };
static const char *const vllm_head[] = { "vllm-router", NULL };
static const char *const vllm_tail[] = { "--worker-startup-timeout-secs", "1800", NULL };
static const char *const atomesh_head[] = { "atomesh", "launch", NULL };
static const char *const sglr_head[] = { "/usr/local/bin/sgl-router", NULL };
static const char *const atomesh_tail[] = { "--backend", "atom", NULL };

static const struct router_shape routers[] = {
	{ "sglang-router", "sglang_router", "router", sgl_head, "--pd-disaggregation", 1, 0,
	  sgl_tail, 0 },
	{ "vllm-router", "vllm_router", "vllm-router", vllm_head, "--vllm-pd-disaggregation", 1, 1,
	  vllm_tail, 0 },
	{ "atomesh", "atomesh", "atomesh", atomesh_head, "--pd-disaggregation", 0, 0, atomesh_tail, 0 },
	{ "sgl-router", "sgl_router", "sgl-router", sglr_head, NULL, 0, 0, NULL, 1 },
};

/* The router frontend fe names; NULL for Dynamo and the direct frontends. */
static const struct router_shape *find_router(const char *fe)
{
	for (size_t i = 0; i < sizeof(routers) / sizeof(*routers); i++)
		if (!strcmp(fe, routers[i].frontend))
			return &routers[i];
	return NULL;
}

static void push_words(struct strvec *argv, const char *const *w)
{
	for (; *w; w++)
		strvec_push(argv, *w);
}

/* Whether frontend.args names key (spelled with - or _). */
static int frontend_arg(json_t *fe, const char *key)
{
	const char *k;
	json_t *v;
	json_object_foreach(jget_obj(fe, "args"), k, v) {
		size_t i = 0;
		while (k[i] && key[i] && (k[i] == key[i] || (k[i] == '_' && key[i] == '-')))
			i++;
		if (!k[i] && !key[i])
			return 1;
	}
	return 0;
}

static void frontend_step(struct plan *p, size_t idx, size_t node, int port)
{
	const struct recipe *r = p->r;
	json_t *fe = jget_obj(r->root, "frontend");
	struct envmap *env = envmap_new();
	const char *img = jget_str(fe, "container_image");
	/* frontend_step runs for Dynamo or a router only */
	const struct router_shape *sh = find_router(p->frontend);
	const char *proc = sh ? sh->proc : "frontend", *label = sh ? sh->label : "frontend";
	char num[24];
	struct strvec argv = STRVEC_INIT;
	struct step *s;

	if (jget_bool(fe, "numa_bind", 0)) {
		strvec_push(&argv, "numactl");
		strvec_push(&argv, "--cpunodebind=0");
		strvec_push(&argv, "--membind=0");
	}
	if (p->dynamo) {
		const char *plane = jget_str(jget_obj(r->root, "dynamo"), "request_plane");
		strvec_push(&argv, "python3");
		strvec_push(&argv, "-m");
		strvec_push(&argv, "dynamo.frontend");
		strvec_pushf(&argv, "--http-port=%d", port);
		render_frontend_args(&argv, jget_obj(fe, "args"));
		envmap_set(env, "DYN_REQUEST_PLANE", plane ? plane : "tcp");
		envmap_set(env, "DYN_SKIP_SGLANG_LOG_FORMATTING", "1");
		event_plane_env(r, env);
		envmap_set(env, "ETCD_ENDPOINTS", p->etcd_endpoints);
		if (r->runs_nats)
			envmap_set(env, "NATS_SERVER", p->nats_server);
	} else if (sh->standalone) {
		push_words(&argv, sh->head);
		strvec_push(&argv, "--host");
		strvec_push(&argv, "0.0.0.0");
		strvec_push(&argv, "--port");
		push_int(&argv, port);
		router_workers(p, &argv, 0, 0, 0);
		if (!frontend_arg(fe, "model-id")) {
			strvec_push(&argv, "--model-id");
			strvec_push(&argv, p->served);
		}
		render_frontend_args(&argv, jget_obj(fe, "args"));
	} else {
		push_words(&argv, sh->head);
		if (r->disagg)
			strvec_push(&argv, sh->pd_flag);
		if (moriio_discovery(r)) /* the workers register themselves */
			moriio_router_argv(r, &argv);
		else
			router_workers(p, &argv, r->disagg, sh->bootstrap_nixl, sh->bootstrap);
		strvec_push(&argv, "--host");
		strvec_push(&argv, "0.0.0.0");
		strvec_push(&argv, "--port");
		push_int(&argv, port);
		push_words(&argv, sh->tail);
		render_frontend_args(&argv, jget_obj(fe, "args"));
	}
	if (p->dynamo)
		obs_dynamo_frontend_env(r, env);
	env_layer(env, jget_obj(r->root, "environment"), p, node, node);
	obs_frontend_env(r, env);
	env_layer(env, jget_obj(fe, "env"), p, node, node);

	snprintf(num, sizeof(num), "_%zu", idx);
	s = new_step(p, cat3(proc, num, ""), node);
	{
		char *tail = cat3("_", label, num);
		s->output = xasprintf("<output>/logs/workers/%s%s.out", p->t.node[node], tail);
		free(tail);
	}
	/* the Dynamo frontend runs in the job image; routers may have their own */
	s->image = xstrdup(img && !p->dynamo ? img : p->job_image);
	if (env->n)
		s->env_set = env;
	else
		envmap_unref(env);
	/* routers forward the recipe's srun_options; the Dynamo frontend passes none */
	if (!p->dynamo)
		s->srun_opts = srun_options(p, NULL);
	if (sh && sh->standalone)
		s->wrapper = 0;
	if (p->dynamo) {
		s->mpi = "pmix";
		if (p->remap_root) {
			s->export_env = envmap_ref(p->remap_root);
			s->preamble = xstrdup(p->dynamo_pre);
		}
	}
	if (p->dynamo && obs_nsys_enabled(r)) {
		/* numactl stays outside the window */
		char *rep = obs_report_name("frontend", s->output, NULL);
		obs_nsys_wrap(r, &argv, jget_bool(fe, "numa_bind", 0) ? 3 : 0, rep, 1);
		free(rep);
	}
	s->command = join_argv(&argv);
	if (p->nginx)
		s->detail = xasprintf("replica %zu of %zu behind nginx, port %d", idx + 1, p->nfe, port);
	else
		s->detail = xasprintf("public port %d", port);
	strvec_release(&argv);
}

/* ---- services ------------------------------------------------------------- */

/* Placeholder values of a service's instances (spec §4.6): the shared ones
 * are set once, the per-instance ones point into this struct's buffers. */
struct inst_vars {
	struct service_vars v;
	char gpn[24], node_id[24], widx[24], wrank[24], wcount[24], pool_count[24];
	char *wgpus;
	struct strbuf pool_nodes, pool_ips;
};

static void inst_vars_init(struct inst_vars *iv, const struct plan *p, const struct service *sv,
			   const struct topo_inst *all, size_t nall)
{
	const struct topology *t = &p->t;
	memset(iv, 0, sizeof(*iv));
	iv->v.v[SV_ROLE] = sv->pool ? "pool" : (sv->placement ? sv->placement : "head");
	iv->v.v[SV_HEAD_NODE] = t->node[t->head];
	iv->v.v[SV_HEAD_IP] = t->ip[t->head];
	iv->v.v[SV_INFRA_NODE] = t->node[t->infra];
	iv->v.v[SV_INFRA_IP] = t->ip[t->infra];
	iv->v.v[SV_MASTER_PORT] = "8700";
	iv->v.v[SV_METADATA_PORT] = "8701";
	fmt_int(iv->gpn, t->gpus_per_node);
	iv->v.v[SV_GPUS_PER_NODE] = iv->gpn;
	/* a Ray head is on the first node of the service's pool or of the
	 * worker nodes, else on the job's head (srtctl's RayService.head_node) */
	if (nall && (sv->pool || sv->pool_nodes > 0 || (sv->placement && !strcmp(sv->placement, "workers"))))
		iv->v.cluster_ip = t->ip[all[0].node];
	else
		iv->v.cluster_ip = t->ip[t->head];
	if (sv->pool || sv->pool_nodes > 0) {
		for (size_t i = 0; i < nall; i++) {
			if (i) {
				strbuf_addch(&iv->pool_nodes, ',');
				strbuf_addch(&iv->pool_ips, ',');
			}
			strbuf_addstr(&iv->pool_nodes, t->node[all[i].node]);
			strbuf_addstr(&iv->pool_ips, t->ip[all[i].node]);
		}
		fmt_int(iv->pool_count, (long)nall);
		/* instance 0 is the rendezvous of a cluster the pool forms itself
		 * (srtctl's ServiceLaunchContext.template_vars: pool_nodes[0]) */
		if (nall) {
			iv->v.v[SV_POOL_NODE] = t->node[all[0].node];
			iv->v.v[SV_POOL_IP] = t->ip[all[0].node];
		}
		iv->v.v[SV_POOL_NODES] = sb_str(&iv->pool_nodes);
		iv->v.v[SV_POOL_IPS] = sb_str(&iv->pool_ips);
		iv->v.v[SV_POOL_NODE_COUNT] = iv->pool_count;
	}
}

/* The per-instance values, written over the shared ones. */
static void inst_vars_set(struct inst_vars *iv, const struct plan *p, const struct service *sv,
			  const struct topo_inst *in, size_t index)
{
	const struct topology *t = &p->t;
	iv->v.v[SV_NODE] = t->node[in->node];
	iv->v.v[SV_NODE_IP] = t->ip[in->node];
	fmt_int(iv->node_id, (long)index);
	iv->v.v[SV_NODE_ID] = iv->v.v[SV_INDEX] = iv->node_id;
	if (in->proc) {
		free(iv->wgpus);
		iv->wgpus = topo_gpu_list(in->proc);
		iv->v.v[SV_WORKER_ROLE] = role_names[in->proc->role];
		fmt_int(iv->widx, in->proc->index);
		iv->v.v[SV_WORKER_INDEX] = iv->widx;
		fmt_int(iv->wrank, in->proc->node_rank);
		iv->v.v[SV_WORKER_NODE_RANK] = iv->wrank;
		iv->v.v[SV_WORKER_GPUS] = iv->wgpus;
		fmt_int(iv->wcount, in->proc->ngpus);
		iv->v.v[SV_WORKER_GPU_COUNT] = iv->wcount;
	}
}

static void inst_vars_release(struct inst_vars *iv)
{
	free(iv->wgpus);
	strbuf_release(&iv->pool_nodes);
	strbuf_release(&iv->pool_ips);
}

/* What every instance of a service shares, built once: its env and command
 * when no instance placeholder appears in them, its srun options, image,
 * preamble text. */
struct svc_shared {
	struct envmap *env; /* NULL: built per instance */
	char *command;     /* NULL: built per instance */
	json_t *srun_opts;
	/* whether env / argv differ between instances, known (_known) from
	 * the first instance that builds them */
	int env_varies, argv_varies, env_known, argv_known;
};

static void service_instance_step(struct plan *p, const struct service *sv,
				  struct topo_inst *in, const struct inst_vars *iv,
				  struct svc_shared *sh, const struct service_ctx *ctx)
{
	const struct recipe *r = p->r;
	json_t *cfg = service_config(sv);
	const char *pre = jget_str(cfg, "preamble");
	const char *img = service_container(r, sv, p->job_image);
	const char *bind = jget_str(cfg, "cpu_bind");
	struct step *s = new_step(p, in->step, in->node);
	struct envmap *env;
	char *pool_cmd = NULL, *pool_pre = NULL;
	in->step = NULL; /* the step's name now */
	/* a failover worker's gms instance: its own directory (plan_failover.h) */
	char *gms_dir = svc_kind_is(sv->type, KIND_GMS) && in->proc && failover_on(r, in->proc->role)
				? failover_worker_dir(r, in->proc->role, in->proc->index, topo_job_id(&p->t))
				: NULL;

	if (p->pool && (sv == p->pool || svc_kind_is(sv->type, KIND_MOONCAKE_DONOR))) {
		/* the pool's master and donors: srtctl's TRT-LLM form (plan_mooncake.h) */
		env = envmap_new();
		service_env_fill(env, r, sv, &iv->v, ctx, NULL);
		pool_service(p->pool, sv, p->t.node[in->node], &pool_cmd, &pool_pre, env);
	} else if (sh->env && !in->cuda_visible && !gms_dir) {
		env = envmap_ref(sh->env);
	} else {
		int varies;
		env = envmap_new();
		service_env_fill(env, r, sv, &iv->v, ctx, &varies);
		if (!sh->env_known) {
			sh->env_known = 1;
			sh->env_varies = varies;
		}
		/* an env the same on every instance is built once */
		if (!sh->env_varies && !in->cuda_visible && !gms_dir)
			sh->env = envmap_ref(env);
		if (in->cuda_visible)
			envmap_set(env, r->visible_devices_env, in->cuda_visible);
		if (gms_dir)
			envmap_set(env, "GMS_SOCKET_DIR", gms_dir);
	}
	if (env->n) {
		if (sv->kind->bash_wrapper)
			s->env_set = envmap_ref(env);
		else
			s->export_env = envmap_ref(env);
	}
	envmap_unref(env);

	s->output = cat3("<output>/logs/services/logs/", s->name, ".out");
	s->image = img ? xstrdup(img) : NULL;
	s->srun_opts = json_incref(sh->srun_opts);
	s->wrapper = sv->kind->bash_wrapper;
	s->cpus_per_task = jget_int(cfg, "cpus_per_task", 0);
	s->cpu_bind = bind ? xstrdup(bind) : NULL;
	{
		/* the kind's preamble, then the recipe's, joined as srtctl's service
		 * stage does; placeholders are substituted like the command's */
		char *kpre = pool_pre ? pool_pre : service_kind_preamble(sv);
		struct strbuf sb = STRBUF_INIT;
		if (kpre && *kpre)
			service_subst(&sb, r, &iv->v, kpre);
		if (pre) {
			if (sb.len)
				strbuf_addstr(&sb, "; ");
			service_subst(&sb, r, &iv->v, pre);
			while (sb.len && strchr(" \t\n\r\f\v", sb.buf[sb.len - 1]))
				sb.buf[--sb.len] = '\0';
		}
		if (sb.len)
			s->preamble = strbuf_detach(&sb, NULL);
		strbuf_release(&sb);
		free(kpre);
	}
	if (pool_cmd) {
		s->command = pool_cmd;
	} else if (gms_dir) {
		s->command = failover_gms_command(gms_dir, in->proc->ngpus, failover_gms_timeout(sv));
	} else if (sh->command) {
		s->command = xstrdup(sh->command);
	} else {
		struct strbuf sb = STRBUF_INIT;
		int varies;
		strbuf_grow(&sb, 100); /* most commands: one allocation, not five */
		service_command(&sb, r, sv, &iv->v, &varies);
		s->command = sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
		if (!sh->argv_known) {
			sh->argv_known = 1;
			sh->argv_varies = varies;
		}
		if (!sh->argv_varies) /* the same on every instance: built once */
			sh->command = xstrdup(s->command);
	}
	if (in->cuda_visible)
		s->detail = xasprintf("GPUs %s (%s %d)", in->cuda_visible,
				      role_names[in->proc->role], in->proc->index);
	free(gms_dir);
}

static int service_steps(struct plan *p, const char *phase, char **err)
{
	const struct recipe *r = p->r;
	for (size_t i = 0; i < r->nsvc; i++) {
		const struct service *sv = &r->svc[i];
		struct topo_inst *in;
		struct inst_vars iv;
		struct svc_shared sh = { NULL, NULL, NULL, 0, 0, 0, 0 };
		size_t n;
		if (!sv->start || strcmp(sv->start, phase))
			continue;
		if (!sv->kind) {
			set_err(err, "services[%s]: type '%s' is unknown, so its launch plan cannot be shown",
				sv->name, sv->type);
			return -1;
		}
		if (jget_str(service_config(sv), "external"))
			continue; /* an external endpoint is not launched */
		topo_service_instances(&p->t, sv, &in, &n);
		inst_vars_init(&iv, p, sv, in, n);
		{
			/* the pool's processes must not join an MPI step (srtctl's
			 * kind srun_options: mpi none) */
			json_t *kind = NULL;
			if (p->pool && (sv == p->pool || svc_kind_is(sv->type, KIND_MOONCAKE_DONOR)))
				kind = json_pack("{s:s}", "mpi", "none");
			sh.srun_opts = srun_options_layered(p, kind,
							    jget_obj(service_config(sv), "srun_options"));
			json_decref(kind);
		}
		for (size_t k = 0; k < n; k++) {
			inst_vars_set(&iv, p, sv, &in[k], k);
			service_instance_step(p, sv, &in[k], &iv, &sh, &p->svc_ctx);
		}
		envmap_unref(sh.env);
		free(sh.command);
		json_decref(sh.srun_opts);
		inst_vars_release(&iv);
		topo_insts_free(in, n);
	}
	return 0;
}

/* ---- tachometer and benchmark -------------------------------------------- */

static void tachometer_step(struct plan *p)
{
	struct step *s = new_step(p, xstrdup("tachometer"), p->t.head);
	s->output = xstrdup("<output>/logs/telemetry/tachometer.out");
	s->export_env = envmap_new();
	envmap_set(s->export_env, "POLARS_MAX_THREADS", "4");
	s->srun_opts = srun_options(p, NULL);
	s->wrapper = 0;
	s->command = xstrdup("tachometer-scraper --config <output>/logs/telemetry/tachometer_config.toml "
			     "--local-dir <output>/logs/tachometer/local --sync-interval 120");
}

static char *bench_value(json_t *b, const char *key, const char *dflt)
{
	json_t *v = json_object_get(b, key);
	if (!v || json_is_null(v))
		return xstrdup(dflt);
	return py_str_dup(v);
}

/* The port a worker leader is reached on by the client (srtctl's
 * worker_endpoint_port): Dynamo's system port, the public port of a worker
 * that is the frontend itself, else the worker's HTTP port. */
static int worker_endpoint_port(const struct plan *p, const struct topo_proc *pr)
{
	int direct = !p->dynamo && !find_router(p->frontend) && !tilert_router(p);
	if (p->dynamo)
		return pr->sys_port;
	if (!strcmp(proc_engine(p, pr), "trtllm"))
		return trtllm_serve(p) && !p->r->disagg ? TOPO_FRONTEND_PORT : pr->http_port;
	return direct ? TOPO_FRONTEND_PORT : pr->http_port;
}

static void bench_profiling_env(struct plan *p, const char *type, struct envmap *env)
{
	struct prof_endpoint *ep = xcalloc(p->t.nproc ? p->t.nproc : 1, sizeof(*ep));
	size_t n = 0;
	for (size_t i = 0; i < p->t.nproc; i++) {
		const struct topo_proc *pr = &p->t.proc[i];
		if (pr->node_rank)
			continue; /* followers serve no endpoint */
		ep[n].role = pr->role;
		ep[n].ip = p->t.ip[pr->node];
		ep[n].port = worker_endpoint_port(p, pr);
		n++;
	}
	profiling_bench_env(p->r, p->engine, type, p->served, p->t.node[p->t.head], ep, n, env);
	free(ep);
}

/* A run-time env name, kept by the plan for the maps that borrow it. */
static const char *plan_key(struct plan *p, char *owned)
{
	strvec_push_nodup(&p->keys, owned);
	return p->keys.v[p->keys.n - 1];
}

/* SRT_SERVICE_<NAME>_NODES / _IPS / _NODE_COUNT of one service's nodes
 * (the name upper-cased, every other character than A-Z0-9 as _). */
static void service_nodes_env(struct plan *p, struct envmap *env, const char *name,
			      const size_t *nodes, size_t n)
{
	struct strbuf key = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	for (const char *c = name; *c; c++) {
		char ch = *c >= 'a' && *c <= 'z' ? (char)(*c - 'a' + 'A') : *c;
		strbuf_addch(&key, (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ? ch : '_');
	}
	for (size_t i = 0; i < n; i++) {
		strbuf_addf(&a, "%s%s", i ? "," : "", p->t.node[nodes[i]]);
		strbuf_addf(&b, "%s%s", i ? "," : "", p->t.ip[nodes[i]]);
	}
	envmap_set(env, plan_key(p, xasprintf("SRT_SERVICE_%s_NODES", key.buf)), a.buf);
	envmap_set(env, plan_key(p, xasprintf("SRT_SERVICE_%s_IPS", key.buf)), b.buf);
	envmap_set_int(env, plan_key(p, xasprintf("SRT_SERVICE_%s_NODE_COUNT", key.buf)), (long)n);
	strbuf_release(&key);
	strbuf_release(&a);
	strbuf_release(&b);
}

/* Append node i to list unless it is there. */
static void node_once(size_t *list, size_t *n, size_t i)
{
	for (size_t k = 0; k < *n; k++)
		if (list[k] == i)
			return;
	list[(*n)++] = i;
}

/* benchmark.type custom (srtctl's benchmarks/custom.py and the benchmark
 * stage's _get_benchmark_env): `bash -lc <command>` on the client node in
 * benchmark.container_image (else the job's), told where every logical
 * worker and every service runs. */
static int custom_benchmark_step(struct plan *p, json_t *b)
{
	const struct recipe *r = p->r;
	const char *cmd = jget_str(b, "command"), *img = jget_str(b, "container_image");
	const char *mpath = !strcmp(p->frontend, "trtllm_serve") ? "/prometheus/metrics" : "/metrics";
	struct envmap *env = envmap_new();
	struct strbuf urls = STRBUF_INIT;
	size_t *nodes = xcalloc(p->t.nnodes + 1, sizeof(*nodes)), nn;
	struct strvec argv = STRVEC_INIT;
	struct step *s;

	if (profiling_type(r))
		bench_profiling_env(p, "custom", env);
	for (int k = 0; k < ROLE_COUNT; k++) {
		static const char *const ips[ROLE_COUNT] = { "SRT_PREFILL_IPS", "SRT_DECODE_IPS", "SRT_AGG_IPS" };
		static const char *const eps[ROLE_COUNT] = { "SRT_PREFILL_ENDPOINTS", "SRT_DECODE_ENDPOINTS",
							     "SRT_AGG_ENDPOINTS" };
		struct strbuf a = STRBUF_INIT, e = STRBUF_INIT;
		for (size_t i = 0; i < p->t.nproc; i++) {
			const struct topo_proc *pr = &p->t.proc[i];
			if (pr->node_rank || pr->role != (enum role_id)k)
				continue;
			strbuf_addf(&a, "%s%s", a.len ? "," : "", p->t.ip[pr->node]);
			strbuf_addf(&e, "%s%s:%d", e.len ? "," : "", p->t.ip[pr->node], worker_endpoint_port(p, pr));
		}
		if (a.len) {
			envmap_set(env, ips[k], a.buf);
			envmap_set(env, eps[k], e.buf);
		}
		strbuf_release(&a);
		strbuf_release(&e);
	}
	/* every effective service that is launched, on the nodes its placement
	 * selects; tachometer's process exporter counts too (srtctl lists it,
	 * then skips launching it where its host binary is absent) */
	for (size_t i = 0; i < r->nsvc; i++) {
		const struct service *sv = &r->svc[i];
		struct topo_inst *in;
		size_t n;
		if (jget_str(service_config(sv), "external"))
			continue;
		topo_service_instances(&p->t, sv, &in, &n);
		nn = 0;
		for (size_t k = 0; k < n; k++)
			node_once(nodes, &nn, in[k].node);
		if (nn)
			service_nodes_env(p, env, sv->name, nodes, nn);
		topo_insts_free(in, n);
	}
	if (r->tachometer && jget_bool(jget_obj(jget_obj(r->root, "observability"), "tachometer"),
				       "default_exporters", 1)) {
		nn = 0;
		node_once(nodes, &nn, p->t.head);
		node_once(nodes, &nn, p->t.infra);
		node_once(nodes, &nn, p->t.bench);
		for (size_t i = 0; i < p->t.nworker; i++)
			node_once(nodes, &nn, p->t.worker_first + i);
		for (size_t i = 0; i < p->t.npool; i++)
			for (size_t k = 0; k < p->t.pool[i].count; k++)
				node_once(nodes, &nn, p->t.pool[i].first + k);
		service_nodes_env(p, env, KIND_NAME(KIND_PROCESS_EXPORTER), nodes, nn);
	}
	envmap_set_int(env, "SRT_GPUS_PER_NODE", r->gpus_per_node);
	{
		struct strbuf w = STRBUF_INIT;
		for (size_t i = 0; i < p->t.nworker; i++)
			strbuf_addf(&w, "%s%s", i ? "," : "", p->t.node[p->t.worker_first + i]);
		envmap_set(env, "SRT_WORKER_NODES", sb_str(&w));
		strbuf_release(&w);
	}
	envmap_set(env, "SRTCTL_FRONTEND_TYPE", p->frontend);
	/* a services-only job has no endpoint to point the command at */
	if (strcmp(p->frontend, "none")) {
		envmap_set(env, "SRT_FRONTEND_HOST", p->t.ip[p->t.head]);
		envmap_set_int(env, "SRT_FRONTEND_PORT", TOPO_FRONTEND_PORT);
	}
	env_layer(env, jget_obj(r->root, "environment"), p, p->t.bench, p->t.bench);
	obs_bench_env(r, env);
	/* the logical workers' metrics, in topology order, once each, unless the
	 * recipe names its own list */
	if (!envmap_get(env, "AIPERF_SERVER_METRICS_URLS")) {
		for (size_t i = 0; i < p->t.nproc; i++) {
			const struct topo_proc *pr = &p->t.proc[i];
			char u[160];
			if (pr->node_rank)
				continue;
			snprintf(u, sizeof(u), "http://%s:%d%s", p->t.ip[pr->node], worker_endpoint_port(p, pr), mpath);
			if (!strstr(sb_str(&urls), u))
				strbuf_addf(&urls, "%s%s", urls.len ? "," : "", u);
		}
		if (urls.len)
			envmap_set(env, "AIPERF_SERVER_METRICS_URLS", urls.buf);
	}
	env_layer(env, jget_obj(b, "env"), p, p->t.bench, p->t.bench);

	strvec_push(&argv, "bash");
	strvec_push(&argv, "-lc");
	if (profiling_type(r))
		strvec_pushf(&argv, "source /srtctl-benchmarks/lib/profiling.sh\nprofiling_init_from_env\n"
				    "start_all_profiling\n( %s )\n_exitcode=$?\nstop_all_profiling\n"
				    "exit $_exitcode\n", cmd ? cmd : "");
	else
		strvec_push(&argv, cmd ? cmd : "");
	s = new_step(p, NULL, p->t.bench);
	s->output = xstrdup("<output>/logs/benchmark.out");
	s->image = xstrdup(img ? img : p->job_image);
	s->env_set = env;
	s->srun_opts = srun_options(p, NULL);
	s->command = join_argv(&argv);
	s->detail = xstrdup("custom benchmark");
	strvec_release(&argv);
	strbuf_release(&urls);
	free(nodes);
	return 0;
}

static int benchmark_step(struct plan *p, char **err)
{
	const struct recipe *r = p->r;
	json_t *b = jget_obj(r->root, "benchmark"), *conc;
	struct envmap *env;
	const char *type = jget_str(b, "type");
	struct strvec argv = STRVEC_INIT;
	struct step *s;
	int total = 0, pg = 0, dg = 0;
	char *v;

	if (!type)
		type = "manual";
	if (!strcmp(type, "manual"))
		return 0;
	if (!strcmp(type, "custom")) {
		for (size_t i = 0; i < r->nsvc; i++)
			if (r->svc[i].terminal)
				return 0; /* a terminal service is the run */
		return custom_benchmark_step(p, b);
	}
	if (strcmp(type, "sa-bench")) {
		set_err(err, "the launch plan for benchmark type '%s' is not rendered yet", type);
		return -1;
	}
	for (size_t i = 0; i < r->nsvc; i++)
		if (r->svc[i].terminal)
			return 0; /* a terminal service is the run */
	if (r->disagg) {
		pg = r->role[ROLE_PREFILL].eff_workers * r->role[ROLE_PREFILL].eff_gpus;
		dg = r->role[ROLE_DECODE].eff_workers * r->role[ROLE_DECODE].eff_gpus;
		total = pg + dg;
	} else {
		int nodes = r->role[ROLE_AGG].nodes;
		total = (nodes > 0 ? nodes : 1) * r->gpus_per_node;
	}
	strvec_push(&argv, "bash");
	strvec_push(&argv, "/srtctl-benchmarks/sa-bench/bench.sh");
	strvec_pushf(&argv, "http://localhost:%d", TOPO_FRONTEND_PORT);
	strvec_push_nodup(&argv, bench_value(b, "isl", "None"));
	strvec_push_nodup(&argv, bench_value(b, "osl", "None"));
	conc = json_object_get(b, "concurrencies");
	if (json_is_array(conc)) {
		struct strbuf sb = STRBUF_INIT;
		size_t i;
		json_t *e;
		json_array_foreach(conc, i, e) {
			char *t = py_str_dup(e);
			strbuf_addf(&sb, "%s%s", i ? "x" : "", t);
			free(t);
		}
		strvec_push(&argv, sb_str(&sb));
		strbuf_release(&sb);
	} else {
		strvec_push_nodup(&argv, conc && !json_is_null(conc) ? py_str_dup(conc) : xstrdup(""));
	}
	v = bench_value(b, "req_rate", "inf");
	strvec_push(&argv, *v ? v : "inf");
	free(v);
	strvec_push(&argv, CONTAINER_MODEL_DIR);
	strvec_push(&argv, p->served);
	strvec_push(&argv, r->disagg ? "true" : "false");
	strvec_pushf(&argv, "%d", total);
	strvec_pushf(&argv, "%d", pg);
	strvec_pushf(&argv, "%d", dg);
	strvec_push_nodup(&argv, bench_value(b, "random_range_ratio", "0.8"));
	strvec_push_nodup(&argv, bench_value(b, "num_prompts_mult", "10"));
	strvec_push_nodup(&argv, bench_value(b, "num_warmup_mult", "2"));
	strvec_push_nodup(&argv, bench_value(b, "custom_tokenizer", ""));
	strvec_push(&argv, jget_bool(b, "use_chat_template", 1) ? "true" : "false");
	/* The remaining positions are constant in every snapshot seen. */
	strvec_push(&argv, "random");
	strvec_push(&argv, "");
	strvec_push(&argv, "false");

	env = envmap_new();
	if (profiling_type(r))
		bench_profiling_env(p, type, env);
	env_layer(env, jget_obj(r->root, "environment"), p, p->t.bench, p->t.bench);
	obs_bench_env(r, env);
	envmap_set(env, "SRTCTL_FRONTEND_TYPE", p->frontend);
	/* a services-only job has no endpoint to point the command at */
	if (strcmp(p->frontend, "none")) {
		envmap_set(env, "SRT_FRONTEND_HOST", p->t.ip[p->t.head]);
		envmap_set_int(env, "SRT_FRONTEND_PORT", TOPO_FRONTEND_PORT);
	}

	s = new_step(p, NULL, p->t.bench);
	s->output = xstrdup("<output>/logs/benchmark.out");
	s->image = xstrdup(p->job_image);
	s->env_set = env;
	s->srun_opts = srun_options(p, NULL);
	s->command = join_argv(&argv);
	s->detail = xstrdup("sa-bench");
	strvec_release(&argv);
	return 0;
}

/* ---- host_setup ------------------------------------------------------------ */

/* One bare-host step per node for the phase ("setup" / "teardown"), see
 * plan_host.h. */
static void host_steps(struct plan *p, const char *phase)
{
	json_t *cmds = host_phase_commands(p->r, phase);
	size_t *nodes, n;
	char *command;
	if (!cmds)
		return;
	nodes = xcalloc(p->t.nnodes, sizeof(*nodes));
	n = host_setup_nodes(&p->t, p->r, nodes);
	command = host_setup_command(cmds);
	for (size_t i = 0; i < n; i++) {
		struct step *s = new_step(p, NULL, nodes[i]);
		s->output = xasprintf("<output>/logs/host_%s_%s.out", phase, p->t.node[nodes[i]]);
		s->command = xstrdup(command);
		s->label = !strcmp(phase, "setup") ? "host_setup" : "host_teardown";
		s->detail = xstrdup("bare host, no container");
	}
	free(command);
	free(nodes);
}

/* reporting.s3: the log directory goes to S3 from the head node once the
 * job is torn down (plan_postprocess.h); the mock's job id is the snapshot
 * harness's, the date srtctl's UTC day at upload. */
static void postprocess_step(struct plan *p)
{
	json_t *s3 = postprocess_s3(p->r);
	struct step *s;
	if (!s3)
		return;
	s = new_step(p, NULL, p->t.head);
	s->output = xstrdup("<output>/logs/postprocess.log");
	s->image = xstrdup("python:3.11");
	s->mounts = postprocess_mounts;
	s->env_set = envmap_new();
	postprocess_env(s3, s->env_set);
	if (!s->env_set->n) {
		envmap_unref(s->env_set);
		s->env_set = NULL;
	}
	s->command = postprocess_command(s3, p->t.mock ? "4242" : "<job_id>", "<date>");
	s->label = "postprocess";
	s->detail = xstrdup("S3 upload of the log directory");
}

/* ---- what we render -------------------------------------------------------- */

static const char *plan_engine(const struct recipe *r)
{
	const char *e = r->engine;
	if (e)
		return e;
	for (int i = 0; i < ROLE_COUNT; i++) {
		if (!r->role[i].present || !r->role[i].engine)
			continue;
		if (e && strcmp(e, r->role[i].engine))
			return "mixed";
		e = r->role[i].engine;
	}
	return e;
}

static int supported(const struct plan *p, char **err)
{
	const struct recipe *r = p->r;
	const char *e = p->engine, *fe = p->frontend;
	json_t *fecfg = jget_obj(r->root, "frontend");
	int ok_fe;

	/* frontend.type none: a services-only job, no engine roles (srtctl
	 * refuses roles there); the services and the benchmark are the job */
	if (!strcmp(fe, "none"))
		return 0;
	if (!e || !*e) {
		set_err(err, "the launch plan needs an engine: set engine (vllm, sglang or atom)");
		return -1;
	}
	/* TileRT: a vLLM prefill and a TileRT decode behind tilert-router */
	if (!strcmp(fe, "tilert-router")) {
		const char *pe = r->role[ROLE_PREFILL].engine, *de = r->role[ROLE_DECODE].engine;
		if (!r->disagg || !pe || !de || strcmp(pe, "vllm") || strcmp(de, "tilert")) {
			set_err(err, "the launch plan for tilert-router is rendered for a vLLM prefill "
				     "and a TileRT decode role only");
			return -1;
		}
		return 0;
	}
	if (!strcmp(e, "mixed")) {
		set_err(err, "the launch plan for roles with different engines is not rendered yet");
		return -1;
	}
	if (strcmp(e, "vllm") && strcmp(e, "sglang") && strcmp(e, "atom") && strcmp(e, "trtllm") &&
	    strcmp(e, "mocker")) {
		set_err(err, "the launch plan for engine '%s' is not rendered yet", e);
		return -1;
	}
	if (!strcmp(e, "vllm"))
		ok_fe = !strcmp(fe, "dynamo") || !strcmp(fe, "vllm") || !strcmp(fe, "vllm-router");
	else if (!strcmp(e, "sglang"))
		ok_fe = !strcmp(fe, "dynamo") || !strcmp(fe, "sglang") || !strcmp(fe, "sglang-router") ||
			!strcmp(fe, "sgl-router");
	else if (!strcmp(e, "trtllm"))
		ok_fe = !strcmp(fe, "dynamo") || !strcmp(fe, "trtllm_serve");
	else if (!strcmp(e, "mocker"))
		ok_fe = !strcmp(fe, "dynamo"); /* it registers through Dynamo's discovery */
	else
		ok_fe = !strcmp(fe, "atomesh") || atom_direct(r);
	if (!ok_fe) {
		set_err(err, "the launch plan for engine '%s' with frontend '%s' is not rendered yet", e, fe);
		return -1;
	}
	{
		char *why = atom_direct_refusal(r);
		if (why) {
			set_err(err, "%s", why);
			free(why);
			return -1;
		}
	}
	if ((!strcmp(fe, "vllm") || !strcmp(fe, "sglang") || !strcmp(fe, "trtllm_serve")) &&
	    !r->disagg && r->role[ROLE_AGG].eff_workers != 1) {
		set_err(err, "frontend.type %s in aggregated mode serves exactly one worker on the "
			     "public port; set roles.agg.workers: 1", fe);
		return -1;
	}
	if ((!strcmp(fe, "vllm") || !strcmp(fe, "sglang")) && r->disagg) {
		set_err(err, "frontend.type %s serves one aggregated worker directly; the launch plan "
			     "for other shapes is not rendered", fe);
		return -1;
	}
	/* srtctl's direct frontends reject nginx outright (frontends/sglang_direct.py) */
	if ((!strcmp(fe, "vllm") || !strcmp(fe, "sglang")) &&
	    jget_bool(fecfg, "enable_multiple_frontends", 1)) {
		set_err(err, "frontend.type: %s binds the worker to the public port directly; set "
			     "frontend.enable_multiple_frontends: false", fe);
		return -1;
	}
	if (jget_str(r->root, "setup_script")) {
		set_err(err, "the launch plan with a setup_script is not rendered yet");
		return -1;
	}
	/* srtctl starts every step of a het job with --het-group of its node's
	 * component and chunks multi-node steps per component; which steps and
	 * names that gives is not certain from its source (docs/decisions.md) */
	if (het_job(r)) {
		json_t *het = json_object_get(jget_obj(r->root, "resources"), "het_jobs");
		set_err(err, "the launch plan of a heterogeneous SLURM job (%s) is not rendered; "
			     "the sbatch script and the dry-run show its components. To preview the "
			     "plan of the same job as one allocation, set resources.het_jobs: false",
			json_is_true(het) ? "resources.het_jobs: true" : "the cluster's use_het_jobs: true");
		return -1;
	}
	if (obs_unrendered(r)) {
		set_err(err, "the launch plan with %s is not rendered yet", obs_unrendered(r));
		return -1;
	}
	{
		const char *pt = profiling_type(r);
		if (pt && !profiling_rendered(pt)) {
			set_err(err, "the launch plan with profiling (type '%s') is not rendered yet", pt);
			return -1;
		}
	}
	if (sidecar_mode(r) && (!r->engine || strcmp(r->engine, "sglang") || strcmp(r->frontend, "dynamo"))) {
		set_err(err, "the launch plan with Dynamo sidecars is not rendered yet for engine '%s'",
			r->engine ? r->engine : "mixed");
		return -1;
	}
	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct role *ro = &r->role[i];
		if (!ro->present)
			continue;
		if (ro->eff_gpus > r->gpus_per_node && !strcmp(e, "atom")) {
			set_err(err, "the launch plan for %s workers spanning several nodes (%d GPUs, %d per "
				     "node) is not rendered yet for engine 'atom'", role_names[i],
				ro->eff_gpus, r->gpus_per_node);
			return -1;
		}
		if (jget_bool(ro->cfg, "sidecar", 0) && (strcmp(e, "sglang") || sidecar_mode(r) < 0)) {
			set_err(err, "the launch plan with Dynamo sidecars is not rendered yet%s",
				sidecar_mode(r) < 0 ? " for some roles only" : "");
			return -1;
		}
		if (!strcmp(e, "sglang")) {
			json_t *kv = sglang_kv_events(ro);
			json_decref(kv);
			if (!kv && sglang_load_publishing(ro)) {
				set_err(err, "roles.%s.args.load-publish-endpoint requires roles.%s.kv_events "
					     "(srtctl refuses it)", role_names[i], role_names[i]);
				return -1;
			}
		} else if (json_is_true(json_object_get(ro->cfg, "kv_events")) ||
			   jget_obj(ro->cfg, "kv_events")) {
			set_err(err, "the launch plan with roles.%s.kv_events is not rendered yet", role_names[i]);
			return -1;
		}
		if (!strcmp(e, "vllm")) {
			const char *why = failover_refusal(r, (enum role_id)i);
			if (why) {
				set_err(err, "%s", why);
				return -1;
			}
		}
	}
	{
		char *why = !strcmp(e, "vllm") ? moriio_refusal(r) : NULL;
		if (why) {
			set_err(err, "%s", why);
			free(why);
			return -1;
		}
	}
	{
		char *dp = vllm_dp_unrendered(r);
		if (dp) {
			set_err(err, "%s", dp);
			free(dp);
			return -1;
		}
	}
	return 0;
}

/* The frontend placement, once the topology says whether nginx runs. */
static int frontend_layer_ok(const struct plan *p, char **err)
{
	const char *pl = topo_block_placement(p->r, "frontend");

	/* Behind nginx srtctl ignores placement.node; a single frontend honours
	 * it, and only the head node is rendered so far. */
	if (!p->nginx && strcmp(pl, "head")) {
		set_err(err, "the launch plan for frontend.placement.node '%s' is not rendered yet", pl);
		return -1;
	}
	return 0;
}

/* ---- building ------------------------------------------------------------- */

static void print_map(struct strbuf *out, const char *key, json_t *m);

static void plan_release(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		step_release(&p->st[i]);
	free(p->st);
	json_decref(p->mounts);
	strbuf_release(&p->mounts_text);
	free(p->served);
	free(p->dynamo_pre);
	envmap_unref(p->remap_root);
	free(p->fe_node);
	free(p->worker_pre);
	free(p->etcd_endpoints);
	free(p->nats_server);
	strvec_release(&p->keys);
	for (int i = 0; i < ROLE_COUNT; i++)
		role_cache_release(&p->rc[i]);
	topo_release(&p->t);
}

/* want_argv: keep each worker step's argv beside its command. */
static int plan_build(struct plan *p, const struct recipe *r, const struct plan_opts *opts,
		      struct plan_cache *cache, int want_argv, char **err)
{
	const char *const *names = opts ? opts->node_names : NULL;
	size_t nn = opts ? opts->nnodes : 0;

	memset(p, 0, sizeof(*p));
	p->r = r;
	p->cache = cache;
	p->want_argv = want_argv;
	p->engine = plan_engine(r);
	p->frontend = r->frontend; /* recipe_init defaults it to dynamo */
	p->dynamo = !strcmp(p->frontend, "dynamo");
	p->pool = pool_master(r, p->engine);
	p->sidecar = sidecar_mode(r) == 1;
	if (err)
		*err = NULL;
	if (supported(p, err) < 0)
		return -1;
	if (topo_build(&p->t, r, names, nn, err) < 0)
		return -1;
	p->fe_node = xcalloc(p->t.nnodes, sizeof(*p->fe_node));
	p->nfe = topo_frontend_nodes(&p->t, r, p->fe_node, &p->nginx);
	if (frontend_layer_ok(p, err) < 0) {
		free(p->fe_node);
		topo_release(&p->t);
		return -1;
	}
	p->job_image = jget_str(jget_obj(r->root, "model"), "container");
	if (!p->job_image)
		p->job_image = "<container>";
	p->mounts = container_mounts(r);
	print_map(&p->mounts_text, "container_mounts", p->mounts);
	p->served = served_name(r, p->t.mock);
	if (p->dynamo && dynamo_preamble(r, &p->dynamo_pre, err) < 0)
		goto fail;
	if (p->dynamo_pre)
		p->remap_root = remap_root_env();
	p->worker_pre = p->dynamo_pre ? cat3(p->dynamo_pre, " && ", fingerprint) : xstrdup(fingerprint);
	p->etcd_endpoints = cat3("http://", p->t.ip[p->t.infra], ":2379");
	p->nats_server = cat3("nats://", p->t.ip[p->t.infra], ":4222");
	service_ctx_init(&p->svc_ctx, r);

	/* with_workers services are launched before the workers with their
	 * readiness probes deferred (srtctl 17c4ece, cli/mixins/service_stage.py
	 * start_services(deferred_readiness=...)) */
	host_steps(p, "setup"); /* before anything containerized */
	if (service_steps(p, "infra", err) < 0 || service_steps(p, "before_workers", err) < 0 ||
	    service_steps(p, "with_workers", err) < 0)
		goto fail;
	for (size_t i = 0; i < p->t.nproc; i++)
		for (int k = 0; k < (p->t.proc[i].engines > 1 ? p->t.proc[i].engines : 1); k++)
			if (worker_step(p, &p->t.proc[i], k, err) < 0)
				goto fail;
	if (trtllm_serve(p) && r->disagg)
		trtllm_orchestrator_step(p);
	if (tilert_router(p))
		tilert_router_step(p);
	if (p->dynamo || find_router(p->frontend)) {
		if (p->nginx)
			nginx_step(p);
		for (size_t i = 0; i < p->nfe; i++)
			frontend_step(p, i, p->fe_node[i],
				      p->nginx ? TOPO_FRONTEND_INTERNAL_PORT : TOPO_FRONTEND_PORT);
	}
	if (service_steps(p, "after_frontend", err) < 0)
		goto fail;
	if (r->tachometer)
		tachometer_step(p);
	if (benchmark_step(p, err) < 0)
		goto fail;
	host_steps(p, "teardown"); /* once the workers are stopped */
	postprocess_step(p); /* after teardown, as srtctl's finally block runs it */
	return 0;
fail:
	if (err && !*err)
		*err = xstrdup("the launch plan could not be built");
	plan_release(p);
	return -1;
}

/* ---- printing -------------------------------------------------------------- */

static void add3(struct strbuf *out, const char *a, const char *b, const char *c)
{
	strbuf_addstr(out, a);
	strbuf_addstr(out, b);
	strbuf_addstr(out, c);
}

/* "key:" then "    k: v" per entry, sorted by key. */
static void print_kv(struct strbuf *out, const char *k, const char *val)
{
	/* srtctl's snapshot strips trailing blanks: an empty value is "k:" */
	add3(out, "    ", k, *val ? ": " : ":");
	add3(out, val, "\n", "");
}

/* The entries of m sorted by key: the snapshot's "    k: v" lines under
 * "key:" (key != NULL), or the readable plan's " K=V" words (key NULL). */
static void print_env_sorted(struct strbuf *out, const char *key, const struct envmap *m)
{
	size_t stack[64], *idx = stack;
	if (!m || !m->n)
		return;
	if (m->n > 64)
		idx = xcalloc(m->n, sizeof(*idx));
	envmap_sorted(m, idx);
	if (key)
		add3(out, key, ":\n", "");
	for (size_t i = 0; i < m->n; i++) {
		const char *k = m->e[idx[i]].key, *v = envmap_value(m, idx[i]);
		if (key) {
			print_kv(out, k, v);
		} else {
			/* " K=V" in one go: a role env prints hundreds per step */
			size_t kl = strlen(k), vl = strlen(v);
			strbuf_grow(out, kl + vl + 2);
			char *d = out->buf + out->len;
			*d++ = ' ';
			memcpy(d, k, kl);
			d[kl] = '=';
			memcpy(d + kl + 1, v, vl + 1);
			out->len += kl + vl + 2;
		}
	}
	if (idx != stack)
		free(idx);
}

static void print_map(struct strbuf *out, const char *key, json_t *m)
{
	size_t n;
	const char **keys;
	if (!json_object_size(m))
		return;
	keys = json_sorted_keys(m, &n);
	add3(out, key, ":\n", "");
	for (size_t i = 0; i < n; i++)
		print_kv(out, keys[i], json_string_value(json_object_get(m, keys[i])));
	free(keys);
}

static void print_block(struct strbuf *out, const char *key, const char *text)
{
	const char *line = text;
	add3(out, key, ": |\n", "");
	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		strbuf_addstr(out, "    ");
		strbuf_add(out, line, len);
		strbuf_addch(out, '\n');
		line += len + (nl ? 1 : 0);
	}
}

static void print_step(struct strbuf *out, const struct plan *p, const struct step *s)
{
	/* keys in the snapshot harness's order (spec §6.3): nodes, ntasks,
	 * cpus_per_task, nodelist, output, container_image, ... */
	add3(out, "## ", s->name ? s->name : "<unnamed>", "\n");
	if (s->nodes > 0)
		strbuf_addf(out, "nodes: %d\n", s->nodes);
	if (s->ntasks > 0)
		strbuf_addf(out, "ntasks: %d\n", s->ntasks);
	if (s->cpus_per_task > 0)
		strbuf_addf(out, "cpus_per_task: %d\n", s->cpus_per_task);
	add3(out, "nodelist: ", s->nodelist ? s->nodelist : p->t.node[s->node], "\n");
	add3(out, "output: ", s->output, "\n");
	if (s->image) {
		add3(out, "container_image: ", s->image, "\n");
		if (s->mounts)
			strbuf_addstr(out, s->mounts);
		else
			strbuf_add(out, p->mounts_text.buf, p->mounts_text.len);
	}
	print_env_sorted(out, "env_to_set", s->env_set);
	if (s->env_unset)
		add3(out, "env_to_unset: ", s->env_unset, "\n");
	print_map(out, "srun_options", s->srun_opts);
	print_env_sorted(out, "srun_export_env", s->export_env);
	if (s->wrapper >= 0)
		add3(out, "use_bash_wrapper: ", s->wrapper ? "True" : "False", "\n");
	if (s->mpi)
		add3(out, "mpi: ", s->mpi, "\n");
	if (s->oversubscribe)
		strbuf_addstr(out, "oversubscribe: True\n");
	if (s->cpu_bind)
		add3(out, "cpu_bind: ", s->cpu_bind, "\n");
	if (s->preamble)
		print_block(out, "bash_preamble", s->preamble);
	print_block(out, "command", s->command);
}

int plan_render_snapshot(struct strbuf *out, const struct recipe *r,
			 const struct plan_opts *opts, char **err)
{
	struct plan p;
	if (plan_build(&p, r, opts, NULL, 0, err) < 0)
		return -1;
	strbuf_addf(out, "# %s\n# exit_code: 0\n# srun calls: %zu\n",
		    opts && opts->snapshot_name ? opts->snapshot_name : "recipe.yaml", p.n);
	for (size_t i = 0; i < p.n; i++) {
		strbuf_addch(out, '\n');
		print_step(out, &p, &p.st[i]);
	}
	plan_release(&p);
	return 0;
}

static const char *node_roles(const struct plan *p, size_t node, struct strbuf *sb)
{
	strbuf_reset(sb);
	if (node == p->t.head)
		strbuf_addstr(sb, "head");
	if (node == p->t.infra && p->t.infra != p->t.head)
		strbuf_addf(sb, "%sinfra", sb->len ? ", " : "");
	if (node == p->t.bench && p->t.bench != p->t.head)
		strbuf_addf(sb, "%sbenchmark", sb->len ? ", " : "");
	if (node >= p->t.worker_first && node < p->t.worker_first + p->t.nworker)
		strbuf_addf(sb, "%sworker node", sb->len ? ", " : "");
	for (size_t i = 0; i < p->t.npool; i++)
		if (node >= p->t.pool[i].first && node < p->t.pool[i].first + p->t.pool[i].count)
			strbuf_addf(sb, "%spool of %s", sb->len ? ", " : "", p->t.pool[i].service);
	return sb_str(sb);
}

/* What the launch-snapshot note needs of the plan it is about. */
struct plan_note {
	/* each step's name (NULL: the benchmark) and node on the job's own
	 * nodes: placement_json's fields, kept as strings until the note is
	 * made (most views never scroll to it) */
	char **name, **node;
	size_t n, own_n;
	struct plan_cache *cache; /* the own plan's, for the second one */
};

int plan_render_text(struct strbuf *out, const struct recipe *r, const struct plan_opts *opts,
		     char **err)
{
	struct plan_note *note = NULL;
	size_t at = 0;
	/* the note's plan takes the role flags and envs of the first */
	struct plan_cache *cache = plan_cache_new();
	if (plan_render_text_deferred(out, r, opts, cache, &at, &note, err) < 0) {
		plan_cache_free(cache);
		return -1;
	}
	if (note) {
		struct strbuf sb = STRBUF_INIT;
		plan_note_render(&sb, r, note);
		if (sb.len)
			strbuf_splice(out, at, 0, sb.buf, sb.len);
		strbuf_release(&sb);
		plan_note_free(note);
	}
	plan_cache_free(cache);
	return 0;
}

int plan_render_text_deferred(struct strbuf *out, const struct recipe *r,
			      const struct plan_opts *opts, struct plan_cache *cache,
			      size_t *note_at, struct plan_note **note, char **err)
{
	struct plan p;
	*note = NULL;
	*note_at = out->len;
	struct strbuf roles = STRBUF_INIT;
	struct strvec own = STRVEC_INIT;
	struct plan_opts o = { NULL, NULL, 0 };
	int njob = plan_job_nodes(r);
	if (opts)
		o = *opts;
	/* The job's own nodes, not the snapshot harness's list with two spare
	 * ones: a service per worker node would show on nodes never given. */
	if (!o.node_names && njob > 0) {
		for (int i = 0; i < njob; i++)
			strvec_pushf(&own, "node-%02d", i + 1);
		o.node_names = (const char *const *)own.v;
		o.nnodes = own.n;
	}
	int rc = plan_build(&p, r, &o, cache, 0, err);
	strvec_release(&own);
	if (rc < 0)
		return -1;
	strbuf_addf(out, "job: %d node%s, %zu srun step%s\n", p.t.job_nodes,
		    p.t.job_nodes == 1 ? "" : "s", p.n, p.n == 1 ? "" : "s");
	if (p.t.mock)
		strbuf_addf(out, "nodes: mock list node-01..%s (as srtctl's launch snapshots; all IPs "
				 "127.0.0.1); --nodes a,b,c names them\n", p.t.node[p.t.nnodes - 1]);
	else if (!opts || !opts->node_names) {
		strbuf_addf(out, "nodes: %s%s%s stand%s for the node%s Slurm allocates\n", p.t.node[0],
			    p.t.nnodes > 1 ? ".." : "", p.t.nnodes > 1 ? p.t.node[p.t.nnodes - 1] : "",
			    p.t.nnodes > 1 ? "" : "s", p.t.nnodes > 1 ? "s" : "");
	}
	/* steps by node, in launch order (a counting sort: plans are large) */
	size_t *first = xcalloc(p.t.nnodes + 1, sizeof(size_t)), *order = xcalloc(p.n + 1, sizeof(size_t));
	for (size_t i = 0; i < p.n; i++)
		first[p.st[i].node + 1]++;
	for (size_t node = 0; node < p.t.nnodes; node++)
		first[node + 1] += first[node];
	{
		size_t *fill = xcalloc(p.t.nnodes + 1, sizeof(size_t));
		for (size_t i = 0; i < p.n; i++)
			order[first[p.st[i].node] + fill[p.st[i].node]++] = i;
		free(fill);
	}
	for (size_t node = 0; node < p.t.nnodes; node++) {
		if (first[node] == first[node + 1])
			continue;
		/* user nodes stand for their own IPs: "a (a)" says nothing */
		strbuf_addf(out, "\n%s", p.t.node[node]);
		if (strcmp(p.t.ip[node], p.t.node[node]))
			strbuf_addf(out, " (%s)", p.t.ip[node]);
		node_roles(&p, node, &roles);
		if (roles.len)
			strbuf_addf(out, " — %s", roles.buf);
		strbuf_addch(out, '\n');
		for (size_t k = first[node]; k < first[node + 1]; k++) {
			size_t i = order[k];
			const struct step *s = &p.st[i];
			strbuf_addstr(out, "  ");
			add_int(out, (long)i + 1);
			strbuf_addstr(out, ". ");
			strbuf_addstr(out, s->name ? s->name : s->label ? s->label : "benchmark");
			if (s->detail)
				add3(out, "  [", s->detail, "]");
			strbuf_addch(out, '\n');
			if (s->image)
				add3(out, "       image: ", s->image, "\n");
			if (s->env_set || s->export_env) {
				strbuf_addstr(out, "       env:");
				print_env_sorted(out, NULL, s->env_set);
				print_env_sorted(out, NULL, s->export_env);
				strbuf_addch(out, '\n');
			}
			if (s->env_unset)
				add3(out, "       unset: ", s->env_unset, "\n");
			/* srtctl prepends the cluster's default_bash_preamble to
			 * every container srun, before the step's own preamble */
			if (s->image && s->wrapper != 0 && r->bash_preamble)
				add3(out, "       cluster preamble: ", r->bash_preamble, "\n");
			add3(out, "       $ ", s->command, "\n");
		}
	}
	free(first);
	free(order);
	strbuf_release(&roles);
	*note_at = out->len;
	if (!p.t.mock && (!opts || !opts->node_names)) {
		struct plan_note *pn = xcalloc(1, sizeof(*pn));
		pn->name = xcalloc(p.n + 1, sizeof(char *));
		pn->node = xcalloc(p.n + 1, sizeof(char *));
		for (size_t i = 0; i < p.n; i++) {
			pn->name[i] = p.st[i].name ? xstrdup(p.st[i].name) : NULL;
			pn->node[i] = xstrdup(p.t.node[p.st[i].node]);
		}
		pn->n = p.n;
		pn->own_n = p.t.nnodes;
		pn->cache = cache;
		*note = pn;
	}
	/* the files the workers read that srtctl writes: TRT-LLM's engine YAML */
	if (p.engine && !strcmp(p.engine, "trtllm"))
		for (int i = 0; i < ROLE_COUNT; i++) {
			if (!r->role[i].present)
				continue;
			json_t *cfg = engine_yaml_config_with(r->role[i].args, engine_yaml_defaults(r));
			strbuf_addf(out, "\nfile /logs/trtllm_config_%s.yaml (srtctl writes it from "
					 "roles.%s.args):\n", role_names[i], role_names[i]);
			engine_yaml_dump(out, cfg, "  ");
			json_decref(cfg);
		}
	plan_release(&p);
	return 0;
}

static json_t *env_json(const struct envmap *m)
{
	json_t *o = json_object();
	size_t *idx;
	if (!m || !m->n)
		return o;
	idx = xcalloc(m->n, sizeof(*idx));
	envmap_sorted(m, idx);
	for (size_t i = 0; i < m->n; i++)
		json_object_set_new(o, m->e[idx[i]].key, json_string(envmap_value(m, idx[i])));
	free(idx);
	return o;
}

static json_t *steps_json(const struct plan *p)
{
	json_t *list = json_array();
	for (size_t i = 0; i < p->n; i++) {
		const struct step *s = &p->st[i];
		json_t *o = json_object(), *argv = json_array();
		json_object_set_new(o, "name", s->name ? json_string(s->name) : json_null());
		json_object_set_new(o, "node", json_string(p->t.node[s->node]));
		json_object_set_new(o, "role", s->role >= 0 ? json_string(role_names[s->role]) : json_null());
		json_object_set_new(o, "image", s->image ? json_string(s->image) : json_null());
		for (size_t k = 0; k < s->argv.n; k++)
			json_array_append_new(argv, json_string(s->argv.v[k]));
		if (s->argv.n)
			json_object_set_new(o, "argv", argv);
		else
			json_decref(argv);
		json_object_set_new(o, "command", json_string(s->command ? s->command : ""));
		json_object_set_new(o, "env", env_json(s->env_set));
		if (s->export_env)
			json_object_set_new(o, "srun_export_env", env_json(s->export_env));
		if (s->env_unset)
			json_object_set_new(o, "env_unset", json_string(s->env_unset));
		json_object_set_new(o, "preamble", s->preamble ? json_string(s->preamble) : json_null());
		if (s->detail)
			json_object_set_new(o, "detail", json_string(s->detail));
		json_array_append_new(list, o);
	}
	return list;
}

json_t *plan_steps_json(const struct recipe *r, const struct plan_opts *opts, char **err)
{
	struct plan p;
	json_t *list;
	if (plan_build(&p, r, opts, NULL, 1, err) < 0)
		return NULL;
	list = steps_json(&p);
	plan_release(&p);
	return list;
}

/* What plan_spare_note compares of each step, its name and node: the whole
 * of steps_json (every env) cost as much as the second plan itself. */
static void placement_add(json_t *list, const char *name, const char *node)
{
	json_t *o = json_object();
	json_object_set_new(o, "name", name ? json_string(name) : json_null());
	json_object_set_new(o, "node", json_string(node));
	json_array_append_new(list, o);
}

static json_t *placement_json(const struct plan *p)
{
	json_t *list = json_array();
	for (size_t i = 0; i < p->n; i++)
		placement_add(list, p->st[i].name, p->t.node[p->st[i].node]);
	return list;
}

/* The job's own nodes against the snapshot harness's list: say which steps
 * the snapshot puts elsewhere (render/plan_spare), so the two views never
 * disagree without a word. */
void plan_note_render(struct strbuf *out, const struct recipe *r, const struct plan_note *note)
{
	struct plan mock;
	char *err = NULL;
	if (plan_build(&mock, r, NULL, note->cache, 0, &err) < 0) {
		free(err); /* the snapshot is refused; `render` says why */
		return;
	}
	json_t *a = json_array(), *b = placement_json(&mock);
	for (size_t i = 0; i < note->n; i++)
		placement_add(a, note->name[i], note->node[i]);
	plan_spare_note(out, a, b, note->own_n, (const char *const *)mock.t.node, mock.t.nnodes);
	json_decref(a);
	json_decref(b);
	plan_release(&mock);
}

void plan_note_free(struct plan_note *note)
{
	if (!note)
		return;
	for (size_t i = 0; i < note->n; i++) {
		free(note->name[i]);
		free(note->node[i]);
	}
	free(note->name);
	free(note->node);
	free(note);
}

int plan_job_nodes(const struct recipe *r)
{
	return topo_job_nodes(r);
}
