/*
 * dryrun_engine.c — srtctl's dry-run lines about the engine and the worker
 * roles (see dryrun_engine.h).  The rules are show_config_details's in
 * NVIDIA/srt-slurm src/srtctl/cli/submit.py at 666f09d1, with the config
 * properties it reads (SrtConfig.role_backends, active_role_backends,
 * worker_container_for_role, RestartPolicy, the TRT-LLM and vLLM backends)
 * as the SemiAnalysisAI/srt-slurm fork at 0fde9260 defines them; each block
 * names its gate.  Each block's facts are worked out once, as the JSON
 * `render --format json` carries, and its text is printed from them.
 */
#include "render/dryrun_engine.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/rich.h"
#include "lib/shell.h"
#include "model/kinds.h"
#include "model/schema.h"
#include "render/engine_yaml.h"
#include "render/envmap.h"
#include "render/plan_failover.h"
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

/* worker_container_for_role; NULL when neither names a string. */
static char *worker_container(const struct recipe *r, enum role_id role)
{
	const char *img = jget_str(r->role[role].cfg, "container");
	char *e;

	if (!img)
		img = jget_str(jget_obj(r->root, "model"), "container");
	if (!img)
		return NULL;
	e = py_expandvars(img, 0);
	if (e[0] == '/' || !strncmp(e, "./", 2)) {
		char *p = py_path_resolve(e);
		free(e);
		return p;
	}
	return e;
}

char *dryrun_worker_container(const struct recipe *r, enum role_id role)
{
	char *img = worker_container(r, role);
	return img ? img : xstrdup("None");
}

/* A restart policy number as RestartPolicy holds it (a float), the
 * schema's default when unset. */
static json_t *num_real(json_t *v, const char *pattern)
{
	const struct schema_field *f = schema_lookup(pattern, NULL);
	double d = f && f->dflt ? strtod(f->dflt, NULL) : 0.0;
	if (json_is_number(v))
		d = json_number_value(v);
	return json_real(d);
}

json_t *dryrun_restarts(const struct recipe *r)
{
	json_t *out = json_object(), *spec;
	const char *k;

	json_object_foreach(jget_obj(r->root, "roles"), k, spec) {
		json_t *rs = json_is_object(spec) ? json_object_get(spec, "restart") : NULL;
		json_t *m = json_is_object(rs) ? rs : NULL;
		const char *policy = json_is_string(rs) ? json_string_value(rs) : jget_str(m, "policy");
		json_t *o;

		/* RestartPolicy.enabled; a string is the policy with the other
		 * fields at their defaults */
		if (role_of(k) < 0 || !policy || !strcmp(policy, "never"))
			continue;
		o = json_object();
		json_object_set_new(o, "policy", json_string(policy));
		json_object_set_new(o, "max_restarts",
				    json_integer(jget_int(m, "max_restarts",
							  schema_default_int("roles.*.restart.max_restarts", 3))));
		json_object_set_new(o, "backoff_seconds", num_real(json_object_get(m, "backoff_seconds"),
								   "roles.*.restart.backoff_seconds"));
		json_object_set_new(o, "max_backoff_seconds",
				    num_real(json_object_get(m, "max_backoff_seconds"),
					     "roles.*.restart.max_backoff_seconds"));
		json_object_set_new(out, k, o);
	}
	return out;
}

/* "<role>: restart=..." per entry, f"{x:g}" for the seconds. */
static void restart_lines(struct strbuf *out, json_t *restarts, int width)
{
	const char *k;
	json_t *o;

	json_object_foreach(restarts, k, o) {
		char *line = xasprintf("%s: restart=%s, max_restarts=%lld, backoff_seconds=%g, "
				       "max_backoff_seconds=%g",
				       k, jget_str(o, "policy"),
				       (long long)json_integer_value(json_object_get(o, "max_restarts")),
				       json_number_value(json_object_get(o, "backoff_seconds")),
				       json_number_value(json_object_get(o, "max_backoff_seconds")));
		rich_print(out, line, width);
		free(line);
	}
}

static json_t *role_backends(const struct recipe *r, const struct engine_view *v)
{
	json_t *out = json_object();
	int containers = 0;

	/* role_backends or role_containers not empty */
	for (int i = 0; i < ROLE_COUNT; i++)
		containers |= r->role[i].present && jget_str(r->role[i].cfg, "container") != NULL;
	if (!v->role_backends && !containers)
		return out;
	for (int i = 0; i < ROLE_COUNT; i++) {
		json_t *o;
		char *img;
		if (!r->role[i].present || r->role[i].eff_workers <= 0)
			continue;
		img = worker_container(r, (enum role_id)i);
		o = json_object();
		json_object_set_new(o, "type", json_string(role_engine_type(r, v, (enum role_id)i)));
		/* srtctl prints None where neither names an image */
		json_object_set_new(o, "container", img ? json_string(img) : json_null());
		json_object_set_new(out, role_names[i], o);
		free(img);
	}
	return out;
}

json_t *dryrun_role_backends(const struct recipe *r)
{
	struct engine_view v;
	engine_view(r, &v);
	return role_backends(r, &v);
}

/* "<role>: engine=..., container=..." per entry. */
static void role_engine_lines(struct strbuf *out, json_t *backends, int width)
{
	const char *k;
	json_t *o;

	json_object_foreach(backends, k, o) {
		const char *img = jget_str(o, "container");
		char *line = xasprintf("%s: engine=%s, container=%s", k, jget_str(o, "type"),
				       img ? img : "None");
		rich_print(out, line, width);
		free(line);
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

/* The engine-statistics keys, in the order the panel names them. */
static const char *const stat_keys[] = { "enable_iter_perf_stats", "return_perf_metrics", NULL };

static const char stats_footer[] = "(engine yaml; the iteration-level trtllm_* gauges and the "
				   "dashboard's KV-utilisation panels need enable_iter_perf_stats: true)";

/* What the Dynamo TRT-LLM Metrics panel, the NUMA line and the engine
 * statistics panel say for a TRT-LLM backend (v->type "trtllm"). */
static json_t *trtllm_facts(const struct recipe *r, const struct engine_view *v)
{
	static const enum role_id disagg[] = { ROLE_PREFILL, ROLE_DECODE }, agg[] = { ROLE_AGG };
	const enum role_id *modes = r->disagg ? disagg : agg;
	size_t nmodes = r->disagg ? 2 : 1;
	json_t *out = json_object(), *stats = json_object();
	unsigned with = engine_yaml_defaults(r);
	const char *numa = jget_str(v->cfg, "numa_memory_bind");

	if (!strcmp(r->frontend, "dynamo") && !sidecar_mode(r)) {
		/* dynamo_metrics_flags: the legacy combined flag alone when set
		 * true, else --publish-metrics unless publish_metrics is false */
		json_t *m = json_object(), *flags = json_array();
		const char *text = "No publication flag (backend.publish_metrics: false)";
		if (json_is_true(json_object_get(v->cfg, "publish_events_and_metrics"))) {
			json_array_append_new(flags, json_string("--publish-events-and-metrics"));
			text = "--publish-events-and-metrics (metrics and KV events)";
		} else if (jget_bool(v->cfg, "publish_metrics", schema_default_bool("engine.publish_metrics", 1))) {
			json_array_append_new(flags, json_string("--publish-metrics"));
			text = "--publish-metrics (metrics only)";
		}
		json_object_set_new(m, "flags", flags);
		json_object_set_new(m, "text", json_string(text));
		json_object_set_new(out, "metrics", m);
	}
	if (numa && !strcmp(numa, "local"))
		json_object_set_new(out, "numa", json_string("GPU-local CPU binding and strict GPU-local "
							     "memory binding (--bind-memory)"));
	for (size_t i = 0; i < nmodes; i++) {
		const struct role *ro = &r->role[modes[i]];
		/* get_config_for_mode: the bound role's args with srtctl's load-time
		 * defaults; an unbound or absent role has none.  A key the engine
		 * YAML lacks is left out (the panel's "unset"). */
		json_t *sec = v->bound[modes[i]] ? engine_yaml_config_with(ro->args, with) : json_object();
		json_t *o = json_object();
		for (size_t k = 0; stat_keys[k]; k++) {
			json_t *val = json_object_get(sec, stat_keys[k]);
			if (val)
				json_object_set(o, stat_keys[k], val);
		}
		json_object_set_new(stats, role_names[modes[i]], o);
		json_decref(sec);
	}
	json_object_set_new(out, "engine_statistics", stats);
	return out;
}

/* The Dynamo TRT-LLM Metrics panel, the NUMA line, then the statistics of
 * each serving mode. */
static void trtllm_text(struct strbuf *out, json_t *t, int width)
{
	json_t *m = json_object_get(t, "metrics"), *o;
	const char *numa = jget_str(t, "numa"), *role;
	struct strbuf sb = STRBUF_INIT;
	char *plain, *line;

	if (m)
		rich_panel_text(out, jget_str(m, "text"), "Dynamo TRT-LLM Metrics", width);
	if (numa) {
		line = xasprintf("TRT-LLM NUMA: %s", numa);
		rich_print(out, line, width);
		free(line);
	}
	json_object_foreach(jget_obj(t, "engine_statistics"), role, o) {
		strbuf_addf(&sb, "%s:", role);
		for (size_t k = 0; stat_keys[k]; k++) {
			char *b = engine_bool(json_object_get(o, stat_keys[k]));
			strbuf_addf(&sb, "%s %s=%s", k ? "," : "", stat_keys[k], b);
			free(b);
		}
		strbuf_addch(&sb, '\n');
	}
	strbuf_addstr(&sb, stats_footer);
	plain = rich_markup_plain(sb.buf);
	rich_panel_text(out, plain, "TRT-LLM Engine Statistics", width);
	free(plain);
	strbuf_release(&sb);
}

json_t *dryrun_trtllm(const struct recipe *r)
{
	struct engine_view v;
	engine_view(r, &v);
	return strcmp(v.type, "trtllm") ? NULL : trtllm_facts(r, &v);
}

/* find_vllm_orchestration_recipe_flags, for the vLLM frontend with a vLLM
 * backend: the flags srtctl derives from the topology, found (underscores
 * read as dashes) in the bound roles' args. */
static json_t *vllm_warnings(const struct recipe *r, const struct engine_view *v)
{
	static const char *const derived[] = { "headless", "host", "port", "master-addr", "nnodes",
					       "node-rank", NULL };
	json_t *out = json_array(), *spec, *av;
	const char *k, *ak;

	if (strcmp(r->frontend, "vllm") || strcmp(v->type, "vllm"))
		return out;
	json_object_foreach(jget_obj(r->root, "roles"), k, spec) {
		int i = role_of(k);
		if (i < 0 || !v->bound[i])
			continue;
		json_object_foreach(jget_obj(spec, "args"), ak, av) {
			char *flag = xstrdup(ak);
			int hit = 0;
			for (char *p = flag; *p; p++)
				if (*p == '_')
					*p = '-';
			for (size_t d = 0; derived[d]; d++)
				hit |= !strcmp(flag, derived[d]);
			if (hit) {
				char *line = xasprintf("WARNING: roles.%s.args.%s is set in the recipe but srtslurm "
						       "derives this from the job topology at runtime; remove it "
						       "from the recipe to avoid confusion (the configured value "
						       "is ignored).",
						       k, flag);
				json_array_append_new(out, json_string(line));
				free(line);
			}
			free(flag);
		}
	}
	return out;
}

json_t *dryrun_engine_warnings(const struct recipe *r)
{
	struct engine_view v;
	engine_view(r, &v);
	return vllm_warnings(r, &v);
}

void dryrun_engine_text(struct strbuf *out, const struct recipe *r, int width)
{
	struct engine_view v;
	json_t *j, *w;
	char *line;
	size_t i;

	engine_view(r, &v);
	/* the cluster's visible_devices_env, always */
	line = xasprintf("GPU subset visibility variable: %s", r->visible_devices_env);
	rich_print(out, line, width);
	free(line);
	j = dryrun_restarts(r);
	restart_lines(out, j, width);
	json_decref(j);
	j = role_backends(r, &v);
	role_engine_lines(out, j, width);
	json_decref(j);
	if (!strcmp(v.type, "trtllm")) {
		j = trtllm_facts(r, &v);
		trtllm_text(out, j, width);
		json_decref(j);
	}
	j = vllm_warnings(r, &v);
	json_array_foreach(j, i, w)
		rich_print(out, json_string_value(w), width);
	json_decref(j);
}

static const char failover_note[] =
	"NOTE: two engines share each GPU: size gpu-memory-utilization so the active engine's KV "
	"cache leaves room for the shadow's CUDA context, graphs and communicator buffers. To test a "
	"failover kill the engine process, not its step (see docs/shadow-engine-recovery.md).";

/* The engine env of failover_engine_env as the panel names it: a variable
 * whose value differs per worker or engine by its name, a fixed one as
 * NAME=value (two engines of two workers tell them apart). */
static json_t *failover_env_names(void)
{
	struct envmap *a = envmap_new(), *b = envmap_new();
	json_t *out = json_array();

	failover_engine_env(a, "a", 0);
	failover_engine_env(b, "b", 1);
	for (size_t i = 0; i < a->n; i++) {
		const char *k = a->e[i].key, *va = envmap_value(a, i), *vb = envmap_get(b, k);
		char *s = vb && !strcmp(va, vb) ? xasprintf("%s=%s", k, va) : xstrdup(k);
		json_array_append_new(out, json_string(s));
		free(s);
	}
	envmap_unref(a);
	envmap_unref(b);
	return out;
}

json_t *dryrun_failover(const struct recipe *r)
{
	struct engine_view v;
	struct strvec flags = STRVEC_INIT;
	json_t *fo, *out, *a;
	const char *dir;
	size_t dl;
	int shadow;
	char *wd;

	engine_view(r, &v);
	fo = strcmp(v.type, "vllm") ? NULL : json_object_get(v.cfg, "failover");
	if (!fo || json_is_null(fo))
		return NULL;
	shadow = jget_int(fo, "shadow_engines", schema_default_int("engine.failover.shadow_engines", 1));
	dir = jget_str(fo, "shared_dir") ? jget_str(fo, "shared_dir") : "/dev/shm";
	/* failover_root(shared_dir, "<job_id>"): the dir without trailing slashes */
	for (dl = strlen(dir); dl && dir[dl - 1] == '/'; dl--)
		;
	wd = xasprintf("%.*s/srtctl-<job_id>/<role>_<index>", (int)dl, dir);
	out = json_object();
	json_object_set_new(out, "shadow_engines", json_integer(shadow));
	json_object_set_new(out, "engines_per_worker", json_integer(1 + shadow));
	json_object_set_new(out, "worker_dir", json_string(wd));
	json_object_set_new(out, "service", json_string(KN_GMS));
	a = json_array();
	json_array_append_new(a, json_string("<role>_<index>_<node>"));
	json_array_append_new(a, json_string("<role>_<index>_<node>_e<k>"));
	json_object_set_new(out, "steps", a);
	/* a single-node worker's engine: the flags every engine gets */
	failover_engine_flags(&flags, NULL, 0, 0);
	a = json_array();
	for (size_t i = 0; i < flags.n; i++)
		json_array_append_new(a, json_string(flags.v[i]));
	json_object_set_new(out, "engine_flags", a);
	json_object_set_new(out, "engine_env", failover_env_names());
	/* srtctl looks for config.resources.<role>_restart, which its
	 * ResourceConfig no longer has: the relaunch is always none */
	json_object_set_new(out, "engine_relaunch", json_string("none"));
	json_object_set_new(out, "note", json_string(failover_note));
	strvec_release(&flags);
	free(wd);
	return out;
}

/* ", "-joined strings of a JSON array */
static void join_strings(struct strbuf *out, json_t *a, const char *sep)
{
	json_t *v;
	size_t i;
	json_array_foreach(a, i, v)
		strbuf_addf(out, "%s%s", i ? sep : "", json_string_value(v));
}

void dryrun_failover_text(struct strbuf *out, const struct recipe *r, int width)
{
	json_t *fo = dryrun_failover(r), *steps;
	struct strbuf sb = STRBUF_INIT;
	int shadow;
	char *plain;

	if (!fo)
		return;
	shadow = (int)json_integer_value(json_object_get(fo, "shadow_engines"));
	steps = json_object_get(fo, "steps");
	strbuf_addf(&sb, "engines per worker: %d (engine 0 + %d shadow)\n",
		    (int)json_integer_value(json_object_get(fo, "engines_per_worker")), shadow);
	strbuf_addf(&sb, "shared dir: %s/  (gms_*.sock, failover.lock; node-local, every container on "
			 "the node)\n", jget_str(fo, "worker_dir"));
	strbuf_addf(&sb, "per worker and node: the %s service (one instance per worker, listed under "
			 "Services) then steps ", jget_str(fo, "service"));
	join_strings(&sb, steps, " and ");
	strbuf_addstr(&sb, "\nengine flags: ");
	join_strings(&sb, json_object_get(fo, "engine_flags"), " ");
	strbuf_addstr(&sb, " (no --device-ids; CUDA_VISIBLE_DEVICES is pinned)\nengine env: ");
	join_strings(&sb, json_object_get(fo, "engine_env"), ", ");
	strbuf_addf(&sb, "\nengine relaunch: %s: an exited engine's step ends and roles.<role>.critical "
			 "decides (add roles.<role>.restart)", jget_str(fo, "engine_relaunch"));
	plain = rich_markup_plain(sb.buf);
	rich_panel_text(out, plain, "Shadow Engine Recovery (engine.failover)", width);
	free(plain);
	strbuf_release(&sb);
	rich_print(out, jget_str(fo, "note"), width);
	json_decref(fo);
}

json_t *dryrun_post_eval(const struct recipe *r)
{
	json_t *pe = jget_obj(r->root, "post_eval");
	json_t *keys[2] = { jget_arr(pe, "command"), jget_arr(pe, "passthrough_env") };
	static const char *const names[2] = { "command", "passthrough_env" };
	json_t *out, *v;
	size_t i;

	if (!json_array_size(keys[0]) && !json_array_size(keys[1]))
		return NULL;
	out = json_object();
	for (int k = 0; k < 2; k++) {
		json_t *a;
		if (!json_array_size(keys[k]))
			continue;
		/* str() of each item, as srtctl joins them */
		a = json_array();
		json_array_foreach(keys[k], i, v) {
			char *str = py_str_dup(v);
			json_array_append_new(a, json_string(str));
			free(str);
		}
		json_object_set_new(out, names[k], a);
	}
	return out;
}

void dryrun_post_eval_lines(struct strbuf *out, const struct recipe *r)
{
	json_t *pe = dryrun_post_eval(r);
	json_t *cmd = json_object_get(pe, "command"), *pass = json_object_get(pe, "passthrough_env");

	if (!pe)
		return;
	strbuf_addstr(out, "Post-eval dispatch:\n");
	if (cmd) {
		size_t n = json_array_size(cmd);
		char **argv = xcalloc(n + 1, sizeof(*argv));
		for (size_t i = 0; i < n; i++)
			argv[i] = (char *)json_string_value(json_array_get(cmd, i));
		strbuf_addstr(out, "    command: ");
		shell_join(out, argv, n);
		strbuf_addch(out, '\n');
		free(argv);
	}
	if (pass) {
		strbuf_addstr(out, "    passthrough_env: ");
		join_strings(out, pass, ", ");
		strbuf_addch(out, '\n');
	}
	json_decref(pe);
}
