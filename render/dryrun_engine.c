/*
 * dryrun_engine.c — srtctl's dry-run lines about the engine and the worker
 * roles (see dryrun_engine.h).  The rules are show_config_details's in
 * NVIDIA/srt-slurm src/srtctl/cli/submit.py at 666f09d1, with the config
 * properties it reads (SrtConfig.role_backends, active_role_backends,
 * worker_container_for_role, RestartPolicy, the TRT-LLM and vLLM backends)
 * as the SemiAnalysisAI/srt-slurm fork at 0fde9260 defines them; each block
 * names its gate.
 */
#include "render/dryrun_engine.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/rich.h"
#include "lib/shell.h"
#include "model/schema.h"
#include "render/engine_yaml.h"
#include "render/plan_sidecar.h"

/* srtctl's config.backend: the shared engine, or with per-role engines (no
 * top-level engine) the serving role's (decode, else agg, else prefill),
 * with the roles it is bound to (it reads their args). */
struct engine_view {
	const char *type;      /* "sglang" when none is declared */
	json_t *cfg;           /* the engine mapping; NULL for the string form */
	int role_backends;     /* SrtConfig.role_backends is not empty */
	int bound[ROLE_COUNT];
};

static int role_has_engine(const struct role *ro)
{
	json_t *e = json_is_object(ro->cfg) ? json_object_get(ro->cfg, "engine") : NULL;
	return ro->present && e && !json_is_null(e);
}

static void engine_view(const struct recipe *r, struct engine_view *v)
{
	static const enum role_id serving[] = { ROLE_DECODE, ROLE_AGG, ROLE_PREFILL };
	json_t *top = json_object_get(r->root, "engine");

	memset(v, 0, sizeof(*v));
	if (!top || json_is_null(top))
		for (int i = 0; i < ROLE_COUNT; i++)
			v->role_backends |= role_has_engine(&r->role[i]);
	if (v->role_backends) {
		for (size_t k = 0; k < sizeof(serving) / sizeof(serving[0]); k++) {
			const struct role *ro = &r->role[serving[k]];
			if (!role_has_engine(ro))
				continue;
			v->type = ro->engine;
			v->cfg = ro->engine_cfg;
			v->bound[serving[k]] = 1;
			break;
		}
	} else {
		v->type = r->engine;
		v->cfg = r->engine_cfg;
		for (int i = 0; i < ROLE_COUNT; i++)
			v->bound[i] = r->role[i].present;
	}
	if (!v->type)
		v->type = "sglang";
}

/* backend_for_role(role).type */
static const char *role_engine_type(const struct recipe *r, const struct engine_view *v,
				    enum role_id role)
{
	const struct role *ro = &r->role[role];
	if (v->role_backends && role_has_engine(ro))
		return ro->engine ? ro->engine : "sglang";
	return v->type;
}

/* The role a roles: key names; -1 for a key srtctl refuses. */
static int role_of(const char *key)
{
	for (int i = 0; i < ROLE_COUNT; i++)
		if (!strcmp(key, role_names[i]))
			return i;
	return -1;
}

char *dryrun_worker_container(const struct recipe *r, enum role_id role)
{
	const char *img = jget_str(r->role[role].cfg, "container");
	char *e;

	if (!img)
		img = jget_str(jget_obj(r->root, "model"), "container");
	if (!img)
		return xstrdup("None");
	e = py_expandvars(img, 0);
	if (e[0] == '/' || !strncmp(e, "./", 2)) {
		char *p = py_path_resolve(e);
		free(e);
		return p;
	}
	return e;
}

/* f"{x:g}" of a restart policy number, the schema's default when unset. */
static char *num_g(json_t *v, const char *pattern)
{
	const struct schema_field *f = schema_lookup(pattern, NULL);
	double d = f && f->dflt ? strtod(f->dflt, NULL) : 0.0;
	if (json_is_number(v))
		d = json_number_value(v);
	return xasprintf("%g", d);
}

/* "<role>: restart=..." for each role whose restart policy is not never
 * (RestartPolicy.enabled), in the recipe's order of roles; a string is the
 * policy with the other fields at their defaults. */
static void restart_lines(struct strbuf *out, const struct recipe *r, int width)
{
	const char *k;
	json_t *spec;

	json_object_foreach(jget_obj(r->root, "roles"), k, spec) {
		json_t *rs = json_is_object(spec) ? json_object_get(spec, "restart") : NULL;
		json_t *m = json_is_object(rs) ? rs : NULL;
		const char *policy = json_is_string(rs) ? json_string_value(rs) : jget_str(m, "policy");
		char *b, *mb, *line;

		if (role_of(k) < 0 || !policy || !strcmp(policy, "never"))
			continue;
		b = num_g(json_object_get(m, "backoff_seconds"), "roles.*.restart.backoff_seconds");
		mb = num_g(json_object_get(m, "max_backoff_seconds"), "roles.*.restart.max_backoff_seconds");
		line = xasprintf("%s: restart=%s, max_restarts=%d, backoff_seconds=%s, max_backoff_seconds=%s",
				 k, policy,
				 jget_int(m, "max_restarts", schema_default_int("roles.*.restart.max_restarts", 3)),
				 b, mb);
		rich_print(out, line, width);
		free(line);
		free(b);
		free(mb);
	}
}

/* "<role>: engine=..., container=..." for every role with workers, when
 * some role has its own engine or image (role_backends or role_containers). */
static void role_engine_lines(struct strbuf *out, const struct recipe *r,
			      const struct engine_view *v, int width)
{
	int containers = 0;

	for (int i = 0; i < ROLE_COUNT; i++)
		containers |= r->role[i].present && jget_str(r->role[i].cfg, "container") != NULL;
	if (!v->role_backends && !containers)
		return;
	for (int i = 0; i < ROLE_COUNT; i++) {
		char *img, *line;
		if (!r->role[i].present || r->role[i].eff_workers <= 0)
			continue;
		img = dryrun_worker_container(r, (enum role_id)i);
		line = xasprintf("%s: engine=%s, container=%s", role_names[i],
				 role_engine_type(r, v, (enum role_id)i), img);
		rich_print(out, line, width);
		free(line);
		free(img);
	}
}

/* _engine_bool: "unset" for a missing key, else str(value).lower(). */
static char *engine_bool(json_t *v)
{
	char *s;
	if (!v)
		return xstrdup("unset");
	s = py_str_dup(v);
	for (char *p = s; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return s;
}

/* The Dynamo TRT-LLM Metrics panel (Dynamo frontend without sidecars), the
 * NUMA line, then the engine-statistics keys of each serving mode as the
 * engine YAML will carry them. */
static void trtllm_text(struct strbuf *out, const struct recipe *r, const struct engine_view *v,
			int width)
{
	static const enum role_id disagg[] = { ROLE_PREFILL, ROLE_DECODE }, agg[] = { ROLE_AGG };
	const enum role_id *modes = r->disagg ? disagg : agg;
	size_t nmodes = r->disagg ? 2 : 1;
	json_t *root = r->root;
	unsigned with = 0;
	struct strbuf sb = STRBUF_INIT;

	if (!strcmp(r->frontend, "dynamo") && !sidecar_mode(r)) {
		/* dynamo_metrics_flags: the legacy combined flag alone when set
		 * true, else --publish-metrics unless publish_metrics is false */
		const char *text = "No publication flag (backend.publish_metrics: false)";
		if (json_is_true(json_object_get(v->cfg, "publish_events_and_metrics")))
			text = "--publish-events-and-metrics (metrics and KV events)";
		else if (jget_bool(v->cfg, "publish_metrics", schema_default_bool("engine.publish_metrics", 1)))
			text = "--publish-metrics (metrics only)";
		rich_panel_text(out, text, "Dynamo TRT-LLM Metrics", width);
	}
	if (jget_str(v->cfg, "numa_memory_bind") && !strcmp(jget_str(v->cfg, "numa_memory_bind"), "local"))
		rich_print(out, "TRT-LLM NUMA: GPU-local CPU binding and strict GPU-local memory binding "
				"(--bind-memory)", width);
	with |= engine_yaml_defaults(root);
	for (size_t i = 0; i < nmodes; i++) {
		const struct role *ro = &r->role[modes[i]];
		/* get_config_for_mode: the bound role's args with srtctl's load-time
		 * defaults; an unbound or absent role has none */
		json_t *sec = v->bound[modes[i]] ? engine_yaml_config_with(ro->args, with) : json_object();
		char *it = engine_bool(json_object_get(sec, "enable_iter_perf_stats"));
		char *pm = engine_bool(json_object_get(sec, "return_perf_metrics"));
		strbuf_addf(&sb, "%s: enable_iter_perf_stats=%s, return_perf_metrics=%s\n", role_names[modes[i]],
			    it, pm);
		free(it);
		free(pm);
		json_decref(sec);
	}
	strbuf_addstr(&sb, "(engine yaml; the iteration-level trtllm_* gauges and the dashboard's "
			   "KV-utilisation panels need enable_iter_perf_stats: true)");
	{
		char *plain = rich_markup_plain(sb.buf);
		rich_panel_text(out, plain, "TRT-LLM Engine Statistics", width);
		free(plain);
	}
	strbuf_release(&sb);
}

/* find_vllm_orchestration_recipe_flags: the flags srtctl derives from the
 * topology, found (underscores read as dashes) in the bound roles' args. */
static void vllm_warnings(struct strbuf *out, const struct recipe *r, const struct engine_view *v,
			  int width)
{
	static const char *const derived[] = { "headless", "host", "port", "master-addr", "nnodes",
					       "node-rank", NULL };
	const char *k, *ak;
	json_t *spec, *av;

	json_object_foreach(jget_obj(r->root, "roles"), k, spec) {
		int i = role_of(k);
		if (i < 0 || !v->bound[i])
			continue;
		json_object_foreach(jget_obj(spec, "args"), ak, av) {
			char *flag = xstrdup(ak), *line;
			int hit = 0;
			for (char *p = flag; *p; p++)
				if (*p == '_')
					*p = '-';
			for (size_t d = 0; derived[d]; d++)
				hit |= !strcmp(flag, derived[d]);
			if (hit) {
				line = xasprintf("WARNING: roles.%s.args.%s is set in the recipe but srtslurm derives "
						 "this from the job topology at runtime; remove it from the recipe to "
						 "avoid confusion (the configured value is ignored).",
						 k, flag);
				rich_print(out, line, width);
				free(line);
			}
			free(flag);
		}
	}
}

void dryrun_engine_text(struct strbuf *out, const struct recipe *r, int width)
{
	struct engine_view v;
	char *line;

	engine_view(r, &v);
	/* the cluster's visible_devices_env, always */
	line = xasprintf("GPU subset visibility variable: %s", r->visible_devices_env);
	rich_print(out, line, width);
	free(line);
	restart_lines(out, r, width);
	role_engine_lines(out, r, &v, width);
	if (!strcmp(v.type, "trtllm"))
		trtllm_text(out, r, &v, width);
	if (!strcmp(r->frontend, "vllm") && !strcmp(v.type, "vllm"))
		vllm_warnings(out, r, &v, width);
}

void dryrun_failover_text(struct strbuf *out, const struct recipe *r, int width)
{
	struct engine_view v;
	json_t *fo;
	struct strbuf sb = STRBUF_INIT;
	const char *dir;
	size_t dl;
	int shadow;
	char *plain;

	engine_view(r, &v);
	fo = strcmp(v.type, "vllm") ? NULL : json_object_get(v.cfg, "failover");
	if (!fo || json_is_null(fo))
		return;
	shadow = jget_int(fo, "shadow_engines", schema_default_int("engine.failover.shadow_engines", 1));
	dir = jget_str(fo, "shared_dir") ? jget_str(fo, "shared_dir") : "/dev/shm";
	/* failover_root(shared_dir, "<job_id>"): the dir without trailing slashes */
	for (dl = strlen(dir); dl && dir[dl - 1] == '/'; dl--)
		;
	strbuf_addf(&sb, "engines per worker: %d (engine 0 + %d shadow)\n", 1 + shadow, shadow);
	strbuf_addf(&sb, "shared dir: %.*s/srtctl-<job_id>/<role>_<index>/  (gms_*.sock, failover.lock; "
			 "node-local, every container on the node)\n", (int)dl, dir);
	strbuf_addstr(&sb, "per worker and node: the gms service (one instance per worker, listed under "
			   "Services) then steps <role>_<index>_<node> and <role>_<index>_<node>_e<k>\n");
	strbuf_addstr(&sb, "engine flags: --load-format gms --gms-shadow-mode (no --device-ids; "
			   "CUDA_VISIBLE_DEVICES is pinned)\n");
	strbuf_addstr(&sb, "engine env: ENGINE_ID, GMS_SOCKET_DIR, FAILOVER_LOCK_PATH, "
			   "DYN_VLLM_GMS_SHADOW_MODE=true, DYN_SYSTEM_STARTING_HEALTH_STATUS=notready\n");
	/* srtctl looks for config.resources.<role>_restart, which its
	 * ResourceConfig no longer has: the relaunch line is always this one */
	strbuf_addstr(&sb, "engine relaunch: none: an exited engine's step ends and roles.<role>.critical "
			   "decides (add roles.<role>.restart)");
	plain = rich_markup_plain(sb.buf);
	rich_panel_text(out, plain, "Shadow Engine Recovery (engine.failover)", width);
	free(plain);
	strbuf_release(&sb);
	rich_print(out, "NOTE: two engines share each GPU: size gpu-memory-utilization so the active "
			"engine's KV cache leaves room for the shadow's CUDA context, graphs and "
			"communicator buffers. To test a failover kill the engine process, not its step "
			"(see docs/shadow-engine-recovery.md).", width);
}

void dryrun_post_eval_lines(struct strbuf *out, const struct recipe *r)
{
	json_t *pe = jget_obj(r->root, "post_eval");
	json_t *cmd = jget_arr(pe, "command"), *pass = jget_arr(pe, "passthrough_env"), *v;
	size_t i;

	if (!json_array_size(cmd) && !json_array_size(pass))
		return;
	strbuf_addstr(out, "Post-eval dispatch:\n");
	if (json_array_size(cmd)) {
		size_t n = json_array_size(cmd);
		char **argv = xcalloc(n + 1, sizeof(*argv));
		for (i = 0; i < n; i++)
			argv[i] = py_str_dup(json_array_get(cmd, i));
		strbuf_addstr(out, "    command: ");
		shell_join(out, argv, n);
		strbuf_addch(out, '\n');
		for (i = 0; i < n; i++)
			free(argv[i]);
		free(argv);
	}
	if (json_array_size(pass)) {
		strbuf_addstr(out, "    passthrough_env: ");
		json_array_foreach(pass, i, v) {
			char *s = py_str_dup(v);
			strbuf_addf(out, "%s%s", i ? ", " : "", s);
			free(s);
		}
		strbuf_addch(out, '\n');
	}
}
