/*
 * dryrun.c — srtctl's dry-run output for a recipe (see dryrun.h).  The order
 * and the rows follow srtctl's submit_with_orchestrator (dry_run) and
 * show_config_details; each block says which of srtctl's rules it follows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/schema.h"
#include "model/kinds.h"
#include "render/dryrun.h"
#include "render/dryrun_engine.h"
#include "lib/json.h"
#include "lib/rich.h"
#include "lib/shell.h"
#include "render/engine_yaml.h"
#include "render/hetjob.h"
#include "render/plan.h"
#include "render/plan_observability.h"
#include "render/topology.h"
#include "render/service.h"

static void row3(json_t *rows, const char *ka, const char *a, const char *kb, const char *b,
		 const char *kc, const char *c)
{
	json_t *o = json_object();
	json_object_set_new(o, ka, json_string(a));
	json_object_set_new(o, kb, json_string(b));
	json_object_set_new(o, kc, json_string(c));
	json_array_append_new(rows, o);
}

json_t *dryrun_mounts(const struct recipe *r, const struct cluster *c)
{
	json_t *rows = json_array(), *v;
	const char *mp = jget_str(jget_obj(r->root, "model"), "path"), *k;
	char *e;
	size_t i;

	/* built-in: the model (expandvars) and the log directory */
	e = py_expandvars(mp ? mp : "", 0);
	row3(rows, "source", "built-in", "host", e, "container", CONTAINER_MODEL_DIR);
	free(e);
	row3(rows, "source", "built-in", "host", "<log_dir>", "container", "/logs");
	/* srtslurm.yaml default_mounts: host path expandvars'd */
	json_object_foreach(cluster_get(c, "default_mounts"), k, v) {
		char *cv = py_str_dup(v);
		e = py_expandvars(k, 0);
		row3(rows, "source", "srtslurm.yaml", "host", e, "container", cv);
		free(e);
		free(cv);
	}
	/* recipe extra_mount: split once at ':', host expandvars + expanduser */
	json_array_foreach(jget_arr(r->root, "extra_mount"), i, v) {
		char *spec = py_str_dup(v), *colon = strchr(spec, ':');
		if (colon) {
			*colon = '\0';
			e = py_expandvars(spec, 1);
			row3(rows, "source", "recipe", "host", e, "container", colon + 1);
		} else {
			e = py_expandvars(spec, 1);
			row3(rows, "source", "recipe", "host", e, "container", spec);
		}
		free(e);
		free(spec);
	}
	/* recipe container_mounts: as written */
	json_object_foreach(jget_obj(r->root, "container_mounts"), k, v) {
		char *cv = py_str_dup(v);
		row3(rows, "source", "recipe", "host", k, "container", cv);
		free(cv);
	}
	/* the InferenceX workspace comes from the submitting environment */
	{
		const char *ws = getenv("INFMAX_WORKSPACE");
		const char *cmd = jget_str(jget_obj(r->root, "benchmark"), "command");
		if (ws && *ws)
			row3(rows, "source", "INFMAX_WORKSPACE", "host", ws, "container", "/infmax-workspace");
		else if (cmd && strstr(cmd, "/infmax-workspace"))
			row3(rows, "source", "MISSING", "host",
			     "INFMAX_WORKSPACE is not set in this environment", "container",
			     "/infmax-workspace");
	}
	return rows;
}

static void env_rows(json_t *rows, const char *scope, json_t *env)
{
	size_t n;
	const char **keys = json_sorted_keys(env, &n);
	for (size_t i = 0; i < n; i++) {
		char *s = py_str_dup(json_object_get(env, keys[i]));
		row3(rows, "scope", scope, "name", keys[i], "value", s);
		free(s);
	}
	free(keys);
}

json_t *dryrun_env(const struct recipe *r)
{
	json_t *rows = json_array();
	json_t *wheel = sbatch_dynamo_wheel_env(r);
	static const char *const modes[][2] = {
		{ "prefill", "prefill" }, { "decode", "decode" }, { "aggregated", "agg" },
	};

	env_rows(rows, "dynamo", wheel);
	json_decref(wheel);
	env_rows(rows, "global", jget_obj(r->root, "environment"));
	for (size_t i = 0; i < 3; i++)
		env_rows(rows, modes[i][0],
			 jget_obj(jget_obj(jget_obj(r->root, "roles"), modes[i][1]), "env"));
	env_rows(rows, "benchmark", jget_obj(jget_obj(r->root, "benchmark"), "env"));
	env_rows(rows, "mooncake", jget_obj(jget_obj(r->engine_cfg, "mooncake_kv_store"), "env"));
	return rows;
}

/* The schema default of a field as text ("tachometer"), "" when none. */
static char *schema_default(const char *path)
{
	const struct schema_field *f = schema_find_text(path);
	const char *d = f ? f->dflt : NULL;
	if (!d)
		return xstrdup("");
	if (d[0] == '"')
		return xstrndup(d + 1, strlen(d) - 2);
	return xstrdup(d);
}

static char *field_text(json_t *obj, const char *key, const char *schema_path)
{
	json_t *v = json_object_get(obj, key);
	if (v && !json_is_null(v))
		return py_str_dup(v);
	return schema_default(schema_path);
}

/* A row of an extension's setting that shows its value as the recipe has it
 * (or the schema's default), under the setting's own name. */
static void field_row(json_t *rows, const char *area, json_t *obj, const char *key,
		      const char *schema_path)
{
	char *s = field_text(obj, key, schema_path);
	row3(rows, "area", area, "setting", key, "value", s);
	free(s);
}

/* profiling.type other than "none" (srtctl's ProfilingConfig.enabled). */
static const char *profiling_type(const struct recipe *r)
{
	const char *t = jget_str(jget_obj(r->root, "profiling"), "type");
	return t && strcmp(t, "none") ? t : NULL;
}

/* srtctl's profiling rows: the type; for nsys and nsys-time the trace
 * domains, what ends a capture range, fork tracing, the library paths, and
 * (nsys only) which processes each configured phase captures. */
static void profiling_rows(json_t *rows, const struct recipe *r)
{
	json_t *prof = jget_obj(r->root, "profiling"), *v;
	const char *type = profiling_type(r);
	static const char *const phases[][2] = {
		{ "prefill", "prefill" }, { "decode", "decode" }, { "aggregated", "aggregated" },
	};

	if (!type)
		return;
	row3(rows, "area", "profiling", "setting", "type", "value", type);
	if (strcmp(type, "nsys") && strcmp(type, "nsys-time"))
		return;
	field_row(rows, "profiling", prof, "nsys_trace", "profiling.nsys_trace");
	field_row(rows, "profiling", prof, "capture_range_end", "profiling.capture_range_end");
	/* null keeps the Dynamo-specific default; a bool prints lower-case */
	v = json_object_get(prof, "trace_fork_before_exec");
	row3(rows, "area", "profiling", "setting", "trace_fork_before_exec", "value",
	     json_is_boolean(v) ? (json_is_true(v) ? "true" : "false") : "dynamo default");
	if (json_array_size(jget_arr(prof, "nsys_library_paths"))) {
		struct strbuf sb = STRBUF_INIT;
		size_t i;
		json_array_foreach(jget_arr(prof, "nsys_library_paths"), i, v) {
			char *p = py_str_dup(v);
			strbuf_addf(&sb, "%s%s", i ? ":" : "", p);
			free(p);
		}
		row3(rows, "area", "profiling", "setting", "nsys_library_paths", "value", sb_str(&sb));
		strbuf_release(&sb);
	}
	if (!strcmp(type, "nsys-time")) /* one time window for every worker */
		return;
	for (size_t i = 0; i < 3; i++) {
		json_t *ph = jget_obj(prof, phases[i][1]);
		const char *scope = jget_str(ph, "capture_scope");
		char *setting, *target;
		if (!ph)
			continue;
		if (!scope || !strcmp(scope, "all"))
			target = xstrdup("all physical processes");
		else
			target = xasprintf("worker %d, rank %d", jget_int(ph, "worker_index", 0),
					   jget_int(ph, "worker_rank", 0));
		setting = xasprintf("%s target", phases[i][0]);
		row3(rows, "area", "profiling", "setting", setting, "value", target);
		free(setting);
		free(target);
	}
}

/* srtctl's observability rows: whether the automatic nsys capture runs
 * (observability.enabled and nsys.enabled, and no explicit profiling, which
 * takes precedence), and when it does, what it captures and where. */
static void observability_rows(json_t *rows, const struct recipe *r)
{
	json_t *obs = jget_obj(r->root, "observability");
	json_t *nsys = jget_obj(obs, "nsys");
	char *win, *cpu, *s;
	int on;

	if (!jget_bool(obs, "enabled", 0))
		return;
	on = obs_nsys_enabled(r);
	row3(rows, "area", "observability", "setting", "nsys", "value",
	     on ? "enabled" : profiling_type(r) ? "superseded by profiling" : "disabled");
	if (!on)
		return;
	row3(rows, "area", "observability", "setting", "nsys targets", "value",
	     !strcmp(r->frontend, "dynamo") ? "all worker processes/ranks + Dynamo frontends"
					   : "all worker processes/ranks");
	row3(rows, "area", "observability", "setting", "nsys binary", "value", obs_nsys_binary());
	row3(rows, "area", "observability", "setting", "nsys trace", "value", "NVTX (no CUDA tracing)");
	win = field_text(nsys, "capture_window", "observability.nsys.capture_window");
	row3(rows, "area", "observability", "setting", "nsys capture_window", "value", win);
	row3(rows, "area", "observability", "setting", "nsys capture", "value",
	     !strcmp(win, "measured_workload")
		     ? "after warmup until workload completes (client start/stop hooks)"
		     : "process launch until teardown");
	if (!strcmp(win, "measured_workload")) {
		row3(rows, "area", "observability", "setting", "SRT_NSYS_CONTROL_SCRIPT", "value",
		     "/srtctl-runtime/nsys_window.py");
		row3(rows, "area", "observability", "setting", "SRT_NSYS_CONTROL_DIR", "value",
		     "/logs/profiles/.control");
	}
	free(win);
	cpu = field_text(nsys, "cpu_sampling", "observability.nsys.cpu_sampling");
	s = !strcmp(cpu, "none") ? xstrdup("disabled") : xasprintf("%s (every target)", cpu);
	row3(rows, "area", "observability", "setting", "nsys CPU sampling", "value", s);
	free(s);
	free(cpu);
	cpu = field_text(nsys, "report_timeout_secs", "observability.nsys.report_timeout_secs");
	s = xasprintf("%ss", cpu);
	row3(rows, "area", "observability", "setting", "nsys report timeout", "value", s);
	free(s);
	free(cpu);
	row3(rows, "area", "observability", "setting", "nsys reports", "value",
	     "<log_dir>/profiles/{prefill,decode,agg,frontend}/");
	row3(rows, "area", "observability", "setting", "nsys env", "value",
	     "DYN_ENABLE_RUST_NVTX=1; DYN_NVTX=1");
	if (r->engine && !strcmp(r->engine, "trtllm"))
		row3(rows, "area", "observability", "setting", "nsys TRT-LLM env", "value",
		     "TLLM_PROFILE_LOG_RANKS=all; TLLM_LLMAPI_ENABLE_NVTX=1");
	else if (r->engine && !strcmp(r->engine, "sglang"))
		row3(rows, "area", "observability", "setting", "nsys SGLang env", "value",
		     "SGLANG_ENABLE_NVTX_SCHEDULER=1");
	if (jget_str(nsys, "nvtx_injection_path") && *jget_str(nsys, "nvtx_injection_path"))
		row3(rows, "area", "observability", "setting", "NVTX_INJECTION64_PATH", "value",
		     jget_str(nsys, "nvtx_injection_path"));
}

/* frontend.worker_selection, when not null: srtctl writes it into the router
 * policy file it passes to the Dynamo frontend, and shows the file's path and
 * the mapping as yaml.safe_dump(sort_keys=False) prints it, trailing newline
 * stripped (a multi-line value). */
static void worker_selection_rows(json_t *rows, const struct recipe *r)
{
	json_t *ws = json_object_get(jget_obj(r->root, "frontend"), "worker_selection");
	struct strbuf sb = STRBUF_INIT;

	if (!ws || json_is_null(ws))
		return;
	row3(rows, "area", "frontend", "setting", "router_policy_config", "value",
	     "/logs/router_policy_config.yaml (auto)");
	yaml_dump_unsorted(&sb, ws, "");
	while (sb.len && sb.buf[sb.len - 1] == '\n')
		sb.buf[--sb.len] = 0;
	row3(rows, "area", "frontend", "setting", "worker_selection", "value", sb.buf ? sb.buf : "");
	strbuf_release(&sb);
}

/* engine.mooncake_kv_store: the master's container, for vLLM the per-GPU
 * device map and the store JSON the workers read (the recipe's store_config
 * with master_server_address set to the infra node's address, shown as the
 * <infra_ip> placeholder srtctl uses), the master port and its extra args. */
static void mooncake_rows(json_t *rows, const struct recipe *r, json_t *mc)
{
	const struct svc_kind *master = svc_kind_find(KN_MOONCAKE_MASTER);
	int port = master && master->ready_ports ? master->ready_ports[0] : 0;
	int vllm = r->engine && !strcmp(r->engine, "vllm");
	const char *img = jget_str(mc, "container");
	json_t *devs = json_object_get(mc, "device_names_by_gpu");
	json_t *extra = json_object_get(mc, "master_extra_args");
	struct strbuf sb = STRBUF_INIT;
	char *s;

	row3(rows, "area", "mooncake", "setting", "container", "value", img && *img ? img : "<job container>");
	if (vllm && json_is_array(devs) && json_array_size(devs)) {
		py_str(&sb, devs);
		row3(rows, "area", "mooncake", "setting", "device_names_by_gpu", "value", sb.buf);
		row3(rows, "area", "mooncake", "setting", "process config", "value",
		     "/logs/mooncake_store_config_gpu<physical-ids>.json");
		strbuf_reset(&sb);
	}
	s = xasprintf("%d (auto)", port);
	row3(rows, "area", "mooncake", "setting", "master_port", "value", s);
	free(s);
	if (json_is_array(extra) && json_array_size(extra)) {
		size_t n = json_array_size(extra);
		char **argv = xcalloc(n + 1, sizeof(*argv));
		for (size_t i = 0; i < n; i++)
			argv[i] = py_str_dup(json_array_get(extra, i));
		shell_join(&sb, argv, n);
		row3(rows, "area", "mooncake", "setting", "master_extra_args", "value", sb.buf);
		for (size_t i = 0; i < n; i++)
			free(argv[i]);
		free(argv);
		strbuf_reset(&sb);
	}
	if (vllm) {
		json_t *sc = json_object_get(mc, "store_config");
		json_t *cfg = json_is_object(sc) ? json_deep_copy(sc) : json_object();
		s = xasprintf("<infra_ip>:%d", port);
		json_object_set_new(cfg, "master_server_address", json_string(s));
		free(s);
		pyjson_dump(&sb, cfg, 0, 2);
		json_decref(cfg);
		row3(rows, "area", "mooncake", "setting", "store_config", "value", sb.buf);
		row3(rows, "area", "mooncake", "setting", "MOONCAKE_CONFIG_PATH", "value",
		     "/logs/mooncake_store_config.json (auto)");
	}
	strbuf_release(&sb);
}

/* The telemetry legs a recipe configures, after provider/required/artifacts:
 * the DCGM exporter's image and port, the CPU power exporter's port and
 * source, and the host CPU power collector when enabled (NVIDIA/srt-slurm
 * show_config_details at 666f09d1; the fork at 0fde9260 adds a
 * power_profile row NVIDIA does not print). */
static void telemetry_leg_rows(json_t *rows, json_t *tel)
{
	/* an exporter leg's row: two of its fields, each as written or its
	 * default (telemetry.<leg>.<key> in the field table) */
	static const struct { const char *leg, *k1, *k2, *fmt; } legs[] = {
		{ "dcgm_exporter", "container_image", "port", "%s (port %s)" },
		{ "cpu_power_exporter", "port", "source", "%s (source %s)" },
	};
	for (size_t i = 0; i < sizeof(legs) / sizeof(legs[0]); i++) {
		json_t *o = json_object_get(tel, legs[i].leg);
		if (!json_is_object(o))
			continue;
		char *p1 = xasprintf("telemetry.%s.%s", legs[i].leg, legs[i].k1);
		char *p2 = xasprintf("telemetry.%s.%s", legs[i].leg, legs[i].k2);
		char *a = field_text(o, legs[i].k1, p1), *b = field_text(o, legs[i].k2, p2);
		char *s = xasprintf(legs[i].fmt, a, b);
		row3(rows, "area", "telemetry", "setting", legs[i].leg, "value", s);
		free(p1);
		free(p2);
		free(a);
		free(b);
		free(s);
	}
	json_t *cp = jget_obj(tel, "cpu_power");
	if (jget_bool(cp, "enabled", 0)) {
		char *a = field_text(cp, "source", "telemetry.cpu_power.source");
		char *b = field_text(cp, "storage_subdir", "telemetry.cpu_power.storage_subdir");
		char *s = xasprintf("host collector (source %s, <log_dir>/%s%s)", a, b,
				    jget_bool(cp, "required", 0) ? ", required" : "");
		row3(rows, "area", "telemetry", "setting", "cpu_power", "value", s);
		free(a);
		free(b);
		free(s);
	}
}

json_t *dryrun_extensions(const struct recipe *r)
{
	json_t *rows = json_array();
	json_t *bench = jget_obj(r->root, "benchmark");
	json_t *tel = jget_obj(r->root, "telemetry");
	json_t *tach = jget_obj(jget_obj(r->root, "observability"), "tachometer");
	const char *btype = jget_str(bench, "type");
	const char *bimg = jget_str(bench, "container_image");
	json_t *mooncake = jget_obj(r->engine_cfg, "mooncake_kv_store");

	if (btype && !strcmp(btype, "custom")) {
		row3(rows, "area", "benchmark", "setting", "type", "value", "custom");
		if (jget_str(bench, "command") && *jget_str(bench, "command"))
			row3(rows, "area", "benchmark", "setting", "command", "value",
			     jget_str(bench, "command"));
	}
	if (bimg && *bimg)
		row3(rows, "area", "benchmark", "setting", "container_image", "value", bimg);
	profiling_rows(rows, r);
	observability_rows(rows, r);
	if (r->tachometer) {
		row3(rows, "area", "observability", "setting", "tachometer", "value", "enabled");
		field_row(rows, "observability", tach, "storage_subdir",
			  "observability.tachometer.storage_subdir");
		field_row(rows, "observability", tach, "collect_interval_ms",
			  "observability.tachometer.collect_interval_ms");
		field_row(rows, "observability", tach, "binary_path",
			  "observability.tachometer.binary_path");
		if (jget_bool(tel, "enabled", 0))
			row3(rows, "area", "observability", "setting", "dcgm_exporter", "value",
			     "shared with power telemetry");
		for (size_t i = 0; i < r->nsvc; i++) {
			const struct service *sv = &r->svc[i];
			const char *setting = !strcmp(sv->type, KN_DCGM_EXPORTER) ? "dcgm_exporter"
					      : !strcmp(sv->type, KN_NODE_EXPORTER) ? "node_exporter"
					      : NULL;
			if (!setting || !sv->implied_by || (jget_bool(tel, "enabled", 0) &&
							   !strcmp(setting, "dcgm_exporter")))
				continue;
			json_t *cfg = service_config(sv);
			const char *img = jget_str(cfg, "container");
			if (!img && sv->kind)
				img = sv->kind->container;
			int port = jget_int(jget_obj(cfg, "options"), "port",
					    !strcmp(setting, "dcgm_exporter") ? 9401 : 9100);
			char *val = xasprintf("%s :%d", img ? img : "", port);
			row3(rows, "area", "observability", "setting", setting, "value", val);
			free(val);
		}
	}
	if (jget_bool(tel, "enabled", 0)) {
		char *s = field_text(tel, "storage_subdir", "telemetry.storage_subdir");
		char *art = xasprintf("<log_dir>/%s", s);
		row3(rows, "area", "telemetry", "setting", "provider", "value", "dcgm-power");
		row3(rows, "area", "telemetry", "setting", "required", "value",
		     jget_bool(tel, "required", 0) ? "True" : "False");
		row3(rows, "area", "telemetry", "setting", "artifacts", "value", art);
		free(art);
		free(s);
		telemetry_leg_rows(rows, tel);
	}
	worker_selection_rows(rows, r);
	if (mooncake)
		mooncake_rows(rows, r, mooncake);
	return rows;
}

/* The benchmark runs from /infmax-workspace but INFMAX_WORKSPACE is unset:
 * srtctl's ERROR line after the Container Mounts panel (NVIDIA/srt-slurm
 * show_config_details at 284aa918 and 666f09d1), under the MISSING row;
 * NULL otherwise. */
static const char *infmax_error(const struct recipe *r)
{
	const char *ws = getenv("INFMAX_WORKSPACE");
	const char *cmd = jget_str(jget_obj(r->root, "benchmark"), "command");

	if ((ws && *ws) || !cmd || !strstr(cmd, "/infmax-workspace"))
		return NULL;
	return "ERROR: this recipe runs its benchmark from /infmax-workspace, but INFMAX_WORKSPACE "
	       "is not set, so that mount will be absent and the benchmark command will fail with "
	       "exit 127 after the workers have loaded. Export INFMAX_WORKSPACE=<path to the "
	       "InferenceX checkout> before submitting.";
}

/* One of srtctl's three-column tables (Table(title=..., show_lines=False,
 * pad_edge=False), the first column width=14, the others sized by their
 * cells) inside its Panel, as Rich prints them at width cells. */
static void table(struct strbuf *out, const char *title, const char *const *heads,
		  const char *const *keys, json_t *rows, int width)
{
	struct rich_table *t = rich_table_new(title);
	json_t *row;
	size_t i;

	rich_table_add_column(t, heads[0], 14, RICH_LEFT);
	rich_table_add_column(t, heads[1], 0, RICH_LEFT);
	rich_table_add_column(t, heads[2], 0, RICH_LEFT);
	json_array_foreach(rows, i, row) {
		const char *cells[3];
		for (int c = 0; c < 3; c++)
			cells[c] = json_string_value(json_object_get(row, keys[c]));
		rich_table_add_row(t, cells);
	}
	rich_panel_table(out, t, NULL, width);
	rich_table_free(t);
}

void dryrun_mounts_text(struct strbuf *out, const struct recipe *r, const struct cluster *c,
			int width)
{
	static const char *const heads[] = { "Source", "Host Path", "Container Path" };
	static const char *const keys[] = { "source", "host", "container" };
	json_t *rows = dryrun_mounts(r, c);
	table(out, "Container Mounts", heads, keys, rows, width);
	json_decref(rows);
}

void dryrun_env_text(struct strbuf *out, const struct recipe *r, int width)
{
	static const char *const heads[] = { "Scope", "Variable", "Value" };
	static const char *const keys[] = { "scope", "name", "value" };
	json_t *rows = dryrun_env(r);
	if (json_array_size(rows))
		table(out, "Environment Variables", heads, keys, rows, width);
	else
		rich_print(out, "No custom environment variables configured.", width);
	json_decref(rows);
}

/* srtctl's "SLURM Heterogeneous Job" table in its Panel: one row per
 * component, the widths srtctl gives its columns (Nodes, Segment and
 * GPUs/node right-justified); Infra says where a dedicated etcd/NATS node
 * went. */
static void het_text(struct strbuf *out, const struct recipe *r, const struct cluster *c,
		     int width)
{
	static const struct { const char *head; int width; enum rich_justify j; } cols[] = {
		{ "Group", 5, RICH_LEFT },   { "Side", 8, RICH_LEFT },       { "Nodes", 6, RICH_RIGHT },
		{ "Segment", 8, RICH_RIGHT }, { "GPUs/node", 10, RICH_RIGHT }, { "Infra", 0, RICH_LEFT },
	};
	struct het_component h[2];
	struct rich_table *t;
	int infra = topo_infra_dedicated(r);

	if (!het_components(r, c, h))
		return;
	t = rich_table_new("SLURM Heterogeneous Job");
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		rich_table_add_column(t, cols[i].head, cols[i].width, cols[i].j);
	for (int i = 0; i < 2; i++) {
		char g[16], n[16], s[16], gp[16];
		const char *cells[6] = { g, h[i].name, n, s, gp,
					 !strcmp(h[i].name, "prefill") && infra ? "first node" : "" };
		snprintf(g, sizeof(g), "%d", h[i].group);
		snprintf(n, sizeof(n), "%d", h[i].nodes);
		snprintf(s, sizeof(s), "%d", h[i].segment);
		snprintf(gp, sizeof(gp), "%d", h[i].gpus_per_node);
		rich_table_add_row(t, cells);
	}
	rich_panel_table(out, t, NULL, width);
	rich_table_free(t);
}

static void host_setup_text(struct strbuf *out, const struct recipe *r, const struct cluster *c,
			    int width)
{
	struct rich_table *t;
	json_t *hs = jget_obj(r->root, "host_setup"), *v;
	json_t *cmds = jget_arr(hs, "commands"), *down = jget_arr(hs, "teardown");
	size_t i;
	int sudo = 0;
	struct strbuf lines = STRBUF_INIT, *dest = out;

	if (!json_array_size(cmds) && !json_array_size(down))
		return;
	/* srtctl's Table(title="Host Setup (outside container)"), Phase width=10,
	 * in its Panel */
	t = rich_table_new("Host Setup (outside container)");
	rich_table_add_column(t, "Phase", 10, RICH_LEFT);
	rich_table_add_column(t, "Command", 0, RICH_LEFT);
	json_array_foreach(cmds, i, v) {
		const char *cells[2] = { "setup", json_string_value(v) ? json_string_value(v) : "" };
		rich_table_add_row(t, cells);
		sudo |= json_string_value(v) && strstr(json_string_value(v), "sudo");
	}
	json_array_foreach(down, i, v) {
		const char *cells[2] = { "teardown", json_string_value(v) ? json_string_value(v) : "" };
		rich_table_add_row(t, cells);
		sudo |= json_string_value(v) && strstr(json_string_value(v), "sudo");
	}
	rich_panel_table(out, t, NULL, width);
	rich_table_free(t);
	/* the lines after the table are console.print calls: wrapped at width */
	out = &lines;
	{
		json_t *from = cluster_get(c, "default_host_setup");
		int cl = from && json_equal(from, hs);
		strbuf_addf(out, "host_setup: nodes=%s ignore_failure=%s timeout_seconds=%d source: %s\n",
			    jget_str(hs, "nodes") ? jget_str(hs, "nodes") : "all",
			    jget_bool(hs, "ignore_failure", 0) ? "true" : "false",
			    jget_int(hs, "timeout_seconds", 300),
			    cl ? "srtslurm.yaml default_host_setup" : "recipe");
	}
	if (sudo)
		strbuf_addstr(out, "NOTE: host_setup runs as you, not root. Confirm passwordless sudo on a "
				   "compute node first (`srun --jobid <job> --overlap -w <node> sudo -n "
				   "true`); a sudo that prompts will hang until timeout_seconds and fail "
				   "the job.\n");
	if (json_array_size(cmds) && !json_array_size(down))
		strbuf_addstr(out, "NOTE: no host_setup.teardown configured — any node state set here "
				   "outlives this allocation and is inherited by the next job on these "
				   "nodes.\n");
	rich_print_lines(dest, sb_str(&lines), width);
	strbuf_release(&lines);
}

static int installs_dynamo(const struct recipe *r)
{
	return !strcmp(r->frontend, "dynamo") &&
	       jget_bool(jget_obj(r->root, "dynamo"), "install", 1);
}

json_t *dryrun_srun_options(json_t *so)
{
	json_t *out = json_array(), *v;
	const char *k;

	json_object_foreach(so, k, v) {
		char *s = py_str_dup(v), *opt;
		int falsy = json_is_null(v) || json_is_false(v) ||
			    (json_is_string(v) && !json_string_length(v)) ||
			    (json_is_integer(v) && !json_integer_value(v));
		opt = falsy ? xasprintf("--%s", k) : xasprintf("--%s=%s", k, s);
		json_array_append_new(out, json_string(opt));
		free(opt);
		free(s);
	}
	return out;
}

json_t *dryrun_role_srun_options(const struct recipe *r)
{
	json_t *out = json_object(), *spec;
	const char *k;

	/* NVIDIA/srt-slurm show_config_details at 666f09d1: the roles' own, in
	 * the recipe's order of roles */
	json_object_foreach(jget_obj(r->root, "roles"), k, spec) {
		int known = 0;
		for (int i = 0; i < ROLE_COUNT; i++)
			known |= !strcmp(k, role_names[i]);
		if (known && json_object_size(jget_obj(spec, "srun_options")))
			json_object_set_new(out, k, dryrun_srun_options(jget_obj(spec, "srun_options")));
	}
	return out;
}

/* " --k=v ..." of a dryrun_srun_options list */
static void srun_opts(struct strbuf *out, json_t *opts)
{
	json_t *v;
	size_t i;

	json_array_foreach(opts, i, v)
		strbuf_addf(out, " %s", json_string_value(v));
}

void dryrun_srun_text(struct strbuf *out, const struct recipe *r)
{
	json_t *opts = dryrun_srun_options(jget_obj(r->root, "srun_options"));
	json_t *roles = dryrun_role_srun_options(r);
	const char *k;

	if (json_array_size(opts)) {
		strbuf_addstr(out, "srun options:");
		srun_opts(out, opts);
		strbuf_addch(out, '\n');
	}
	json_decref(opts);
	json_object_foreach(roles, k, opts) {
		strbuf_addf(out, "%s worker srun options (override recipe):", k);
		srun_opts(out, opts);
		strbuf_addch(out, '\n');
	}
	json_decref(roles);
	if (installs_dynamo(r)) {
		json_t *src = jget_obj(jget_obj(r->root, "dynamo"), "source");
		strbuf_addstr(out, "srun --export (dynamo install): ALL,ENROOT_REMAP_ROOT=yes "
				   "(workers + dynamo frontend)\n");
		const char *git = jget_str(src, "git"), *rev = jget_str(src, "rev"), *sha = jget_str(src, "sha");
		if (git) {
			strbuf_addf(out, "dynamo source: %s @ %s\n", git, rev ? rev : "None");
			if (sha)
				strbuf_addf(out, "dynamo source sha: %s\n", sha);
			else
				strbuf_addstr(out, "dynamo source sha: resolved from rev at submit "
						   "(srtctl apply)\n");
		} else if (jget_str(src, "pypi")) {
			strbuf_addf(out, "dynamo source: PyPI ai-dynamo==%s\n", jget_str(src, "pypi"));
		} else if (jget_str(src, "wheel")) {
			strbuf_addf(out, "dynamo source: staged wheel ai-dynamo==%s\n", jget_str(src, "wheel"));
		}
	}
}

void dryrun_nodes_text(struct strbuf *out, const struct recipe *r)
{
	int pools = 0, engine = 0;

	for (size_t i = 0; i < r->nsvc; i++)
		pools += r->svc[i].pool_nodes > 0;
	if (!pools)
		return;
	for (int i = 0; i < ROLE_COUNT; i++)
		if (r->role[i].present && r->role[i].nodes > 0)
			engine += r->role[i].nodes;
	strbuf_addf(out, "Nodes:\n  engine roles: %d\n", engine);
	for (size_t i = 0; i < r->nsvc; i++)
		if (r->svc[i].pool_nodes > 0) {
			strbuf_addf(out, "  pool %s (%s): %d\n", r->svc[i].name, r->svc[i].type,
				    r->svc[i].pool_nodes);
			engine += r->svc[i].pool_nodes;
		}
	strbuf_addf(out, "  total: %d\n", engine);
}

static const char *const tip[] = {
	"",
	"Tip: Add an identity: block to your recipe so others can replicate your results.",
	"     Without it, someone reading this recipe can't tell which exact model",
	"     weights or framework versions produced the benchmark numbers.",
	"     At job start, srtctl verifies the runtime matches your declaration.",
	"",
	"     identity:",
	"       model:",
	"         repo: \"nvidia/Kimi-K2.5-NVFP4\"       # HuggingFace model ID",
	"         revision: \"c0285e649c34...\"            # HF commit SHA",
	"       container:",
	"         image: \"gitlab:5005/.../trtllm-arm64\"  # pullable Docker URI",
	"       frameworks:                              # dynamo + one engine",
	"         dynamo: \"1.0.0\"                        # always (ai-dynamo)",
	"         tensorrt_llm: \"1.3.0rc9\"              # OR vllm OR sglang",
	"",
	"     Agent: if you are an AI assistant creating this recipe, you MUST",
	"     include the identity block. Use the container's framework versions",
	"     and the HuggingFace model ID + revision from the download metadata.",
	NULL,
};

void dryrun_running_text(struct strbuf *out, const struct recipe *r, int serve_only)
{
	json_t *model = jget_obj(r->root, "model");
	const char *mc = jget_str(model, "container");
	json_t *id = jget_obj(r->root, "identity");
	json_t *idm = jget_obj(id, "model"), *idc = jget_obj(id, "container");
	json_t *fw = jget_obj(id, "frameworks");
	int role_backends = 0;

	for (int i = 0; i < ROLE_COUNT; i++)
		role_backends |= r->role[i].present && json_object_get(r->role[i].cfg, "engine") != NULL;
	strbuf_addf(out, "\nRunning:\n  Model:     %s\n  Container: %s\n",
		    jget_str(model, "path") ? jget_str(model, "path") : "None", mc ? mc : "None");
	/* a role in another image, or any role engine override, gets its own line */
	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct role *ro = &r->role[i];
		char *img;
		if (!ro->present || ro->eff_workers <= 0)
			continue;
		/* worker_container_for_role against model.container as written */
		img = dryrun_worker_container(r, (enum role_id)i);
		if (strcmp(img, mc ? mc : "None") || role_backends)
			strbuf_addf(out, "  %c%s: %s in %s\n", role_names[i][0] - 32, role_names[i] + 1,
				    ro->engine ? ro->engine : "None", img);
		free(img);
	}
	strbuf_addf(out, "  Backend:   %s\n", r->engine ? r->engine : "None");
	if (serve_only) {
		strbuf_addstr(out, "  Mode:      Serve only (no benchmark)\n");
	} else {
		const char *bt = jget_str(jget_obj(r->root, "benchmark"), "type");
		strbuf_addf(out, "  Benchmark: %s\n", bt ? bt : "manual");
	}
	if ((idm && (jget_str(idm, "repo") || jget_str(idm, "revision"))) ||
	    (idc && jget_str(idc, "image")) || json_object_size(fw)) {
		struct strvec f = STRVEC_INIT;
		const char *k;
		json_t *v;
		const char *repo = jget_str(idm, "repo"), *rev = jget_str(idm, "revision");
		if (repo)
			strvec_pushf(&f, "model=%s", repo);
		if (rev)
			strvec_pushf(&f, "rev=%.12s", rev);
		if (jget_str(idc, "image")) {
			const char *img = jget_str(idc, "image");
			size_t l = strlen(img);
			if (l > 50)
				strvec_pushf(&f, "container=...%s", img + l - 47);
			else
				strvec_pushf(&f, "container=%s", img);
		}
		json_object_foreach(fw, k, v) {
			char *s = py_str_dup(v);
			strvec_pushf(&f, "%s=%s", k, s);
			free(s);
		}
		strbuf_addstr(out, "  Identity:  ");
		for (size_t i = 0; i < f.n; i++)
			strbuf_addf(out, "%s%s", i ? ", " : "", f.v[i]);
		strbuf_addch(out, '\n');
		strvec_release(&f);
	} else {
		for (const char *const *l = tip; *l; l++)
			strbuf_addf(out, "%s\n", *l);
	}
}

void dryrun_render(struct strbuf *out, const struct recipe *r, const struct sbatch_opts *o,
		   int serve_only)
{
	json_t *ext;

	int width = rich_console_width();

	struct strbuf text = STRBUF_INIT;

	/* an empty line, the DRY-RUN panel titled with the job name, an empty
	 * line; then the script in its line-numbered Syntax panel */
	strbuf_addch(out, '\n');
	rich_panel_text(out, "\xF0\x9F\x94\x8D DRY-RUN (orchestrator mode)", r->name, width);
	strbuf_addch(out, '\n');
	sbatch_render(&text, r, o);
	rich_panel_syntax(out, sb_str(&text), "Generated sbatch Script", width);
	strbuf_reset(&text);
	strbuf_addch(out, '\n');
	dryrun_engine_text(out, r, width);
	dryrun_mounts_text(out, r, o->cluster, width);
	if (infmax_error(r))
		rich_print(out, infmax_error(r), width);
	het_text(out, r, o->cluster, width);
	dryrun_env_text(out, r, width);
	dryrun_failover_text(out, r, width);
	host_setup_text(out, r, o->cluster, width);
	/* srtctl prints each of these lines with console.print: Rich wraps
	 * them at the console's width */
	dryrun_post_eval_lines(&text, r);
	render_services_block(&text, r);
	dryrun_srun_text(&text, r);
	dryrun_nodes_text(&text, r);
	rich_print_lines(out, sb_str(&text), width);
	strbuf_reset(&text);
	ext = dryrun_extensions(r);
	if (json_array_size(ext)) {
		static const char *const heads[] = { "Area", "Setting", "Value" };
		static const char *const keys[] = { "area", "setting", "value" };
		table(out, "Execution Extensions", heads, keys, ext, width);
	}
	json_decref(ext);
	dryrun_running_text(&text, r, serve_only);
	rich_print_lines(out, sb_str(&text), width);
	strbuf_release(&text);
}

static json_t *lines_json(const struct strvec *sv)
{
	json_t *a = json_array();
	for (size_t i = 0; i < sv->n; i++)
		json_array_append_new(a, json_string(sv->v[i]));
	return a;
}

/* Set key of doc to v, or leave it out (and drop v) when v is NULL or an
 * empty array or object: the dry-run prints nothing of it. */
static void set_shown(json_t *doc, const char *key, json_t *v)
{
	if (!v || ((json_is_array(v) && !json_array_size(v)) || (json_is_object(v) && !json_object_size(v))))
		json_decref(v);
	else
		json_object_set_new(doc, key, v);
}

/* The engine and role lines of the dry-run (render/dryrun_engine.h) and the
 * srun options, from the functions that print them. */
static void engine_json_add(json_t *doc, const struct recipe *r)
{
	json_t *roles = json_object_get(doc, "roles");
	json_t *per[3] = { dryrun_restarts(r), dryrun_role_backends(r), dryrun_role_srun_options(r) };
	static const char *const per_key[3] = { "restart", "backend", "srun_options" };
	json_t *warn = dryrun_engine_warnings(r);
	const char *k;
	json_t *v;

	json_object_set_new(doc, "gpu_subset_variable", json_string(r->visible_devices_env));
	for (int i = 0; i < 3; i++) {
		json_object_foreach(per[i], k, v)
			if (json_is_object(json_object_get(roles, k)))
				json_object_set(json_object_get(roles, k), per_key[i], v);
		json_decref(per[i]);
	}
	set_shown(doc, "srun_options", dryrun_srun_options(jget_obj(r->root, "srun_options")));
	set_shown(doc, "trtllm", dryrun_trtllm(r));
	/* in the dry-run's order: the vLLM lines before the mounts, the
	 * INFMAX_WORKSPACE error after them */
	if (infmax_error(r))
		json_array_append_new(warn, json_string(infmax_error(r)));
	set_shown(doc, "warnings", warn);
	set_shown(doc, "failover", dryrun_failover(r));
	set_shown(doc, "post_eval", dryrun_post_eval(r));
}

void dryrun_json_add(json_t *doc, const struct recipe *r, const struct sbatch_opts *o,
		     int serve_only)
{
	const struct cluster *c = o->cluster;
	static const char *const states[] = { "none", "loaded", "ignored" };
	json_t *cl = json_object(), *sb = json_object(), *steps, *roles;
	struct strbuf text = STRBUF_INIT;
	struct strvec dirs = STRVEC_INIT, ex = STRVEC_INIT;
	char *err = NULL;

	json_object_set_new(cl, "state", json_string(states[c ? c->state : CLUSTER_NONE]));
	json_object_set_new(cl, "path", c && c->path ? json_string(c->path) : json_null());
	json_object_set_new(cl, "origin", c && c->origin ? json_string(c->origin) : json_null());
	json_object_set_new(doc, "cluster", cl);

	sbatch_render(&text, r, o);
	sbatch_directives(&dirs, r, o);
	sbatch_exports(&ex, r);
	json_object_set_new(sb, "script", json_string(sb_str(&text)));
	json_object_set_new(sb, "directives", lines_json(&dirs));
	json_object_set_new(sb, "exports", lines_json(&ex));
	json_object_set_new(doc, "sbatch", sb);
	strbuf_reset(&text);
	strvec_release(&dirs);
	strvec_release(&ex);

	{
		struct het_component h[2];
		json_t *het = json_null();
		if (het_components(r, c, h)) {
			het = json_array();
			for (int i = 0; i < 2; i++)
				json_array_append_new(het, json_pack("{s:i,s:s,s:i,s:i,s:i}", "group",
								     h[i].group, "side", h[i].name,
								     "nodes", h[i].nodes, "segment",
								     h[i].segment, "gpus_per_node",
								     h[i].gpus_per_node));
		}
		json_object_set_new(sb, "het_components", het);
	}
	json_object_set_new(doc, "mounts", dryrun_mounts(r, c));
	json_object_set_new(doc, "env", dryrun_env(r));
	json_object_set_new(doc, "extensions", dryrun_extensions(r));
	dryrun_srun_text(&text, r);
	json_object_set_new(doc, "srun", json_string(sb_str(&text)));
	strbuf_reset(&text);
	dryrun_running_text(&text, r, serve_only);
	json_object_set_new(doc, "running", json_string(sb_str(&text)));
	strbuf_release(&text);
	engine_json_add(doc, r);

	steps = plan_steps_json(r, NULL, &err);
	if (!steps) {
		json_object_set_new(doc, "steps_error", json_string(err ? err : "not planned"));
		free(err);
		return;
	}
	roles = json_object_get(doc, "roles");
	if (json_is_object(roles)) {
		const char *k;
		json_t *ro;
		json_object_foreach(roles, k, ro) {
			json_t *w = json_array(), *st;
			size_t i;
			json_array_foreach(steps, i, st)
				if (json_is_string(json_object_get(st, "role")) &&
				    !strcmp(json_string_value(json_object_get(st, "role")), k))
					json_array_append(w, st);
			if (json_is_object(ro))
				json_object_set_new(ro, "worker_commands", w);
			else
				json_decref(w);
		}
	}
	json_object_set_new(doc, "steps", steps);
}
