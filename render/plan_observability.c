/*
 * plan_observability.c — observability in the launch plan (see
 * plan_observability.h).  Rules from srtctl: core/config.py
 * expand_observability and core/schema.py ANALYTICS_SPAN_ENV,
 * ANALYTICS_REQUEST_TRACE_ENV, build_otel_env (020fbc6);
 * core/observability_nsys.py wrap_observability_nsys and benchmark_nsys_env
 * (1007441, and the later stored version whose start arguments follow
 * nsys.cpu_sampling); the engines' nvtx_environment (backends/vllm.py
 * 009a4fa, backends/trtllm.py); the worker and Dynamo frontend stages that
 * call them.  srtctl's features/observability-vllm snapshot (7445497) shows
 * the whole result.
 */
#include "render/plan_observability.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "model/schema.h"

/* Where the reports and the window's control files live in the container. */
static const char profiles[] = "/logs/profiles";

static json_t *obs(const struct recipe *r)
{
	return jget_obj(r->root, "observability");
}

static json_t *nsys(const struct recipe *r)
{
	return jget_obj(obs(r), "nsys");
}

int obs_enabled(const struct recipe *r)
{
	return jget_bool(obs(r), "enabled", 0);
}

/* observability.nsys.<key> as text, else the schema's default. */
static const char *nsys_str(const struct recipe *r, const char *key, char *buf, size_t len)
{
	const char *v = jget_str(nsys(r), key);
	const struct schema_field *f;
	char path[64];
	if (v)
		return v;
	snprintf(path, sizeof(path), "observability.nsys.%s", key);
	f = schema_lookup(path, NULL);
	if (!f || !f->dflt)
		return "";
	snprintf(buf, len, "%.*s", (int)strlen(f->dflt) - 2, f->dflt + 1); /* "..." */
	return buf;
}

static int report_timeout(const struct recipe *r)
{
	return jget_int(nsys(r), "report_timeout_secs",
			schema_default_int("observability.nsys.report_timeout_secs", 1800));
}

int obs_nsys_enabled(const struct recipe *r)
{
	const char *pt = jget_str(jget_obj(r->root, "profiling"), "type");
	return obs_enabled(r) &&
	       jget_bool(nsys(r), "enabled", schema_default_bool("observability.nsys.enabled", 1)) &&
	       !(pt && strcmp(pt, "none"));
}

const char *obs_nsys_binary(void)
{
	const char *b = getenv("SRTCTL_NSYS_BIN");
	return b && *b ? b : "nsys";
}

const char *obs_unrendered(const struct recipe *r)
{
	char buf[64];
	/* the other window runs nsys from launch under a keep-alive shell
	 * script (core/nsys_keepalive.py) that no snapshot shows */
	if (obs_nsys_enabled(r) &&
	    strcmp(nsys_str(r, "capture_window", buf, sizeof(buf)), "measured_workload"))
		return "observability.nsys.capture_window other than measured_workload";
	return NULL;
}

/* build_otel_env: only with both enable_otel and an endpoint. */
static void otel_env(const struct recipe *r, const char *component, struct envmap *env)
{
	const char *ep = jget_str(obs(r), "otel_endpoint");
	if (!jget_bool(obs(r), "enable_otel", 0) || !ep || !*ep)
		return;
	envmap_set(env, "DYN_LOGGING_JSONL", "1");
	envmap_set(env, "OTEL_EXPORT_ENABLED", "1");
	envmap_set(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", ep);
	char *name = xasprintf("dynamo-%s", component);
	envmap_set(env, "OTEL_SERVICE_NAME", name);
	free(name);
}

/* The capture's own env.  Every launch gets a fresh report barrier (a uuid,
 * "<random>" as the snapshot harness prints it); a worker also gets its
 * engine's NVTX switches. */
static void nsys_env(const struct recipe *r, const char *engine, int ranks, struct envmap *env)
{
	const char *inj = jget_str(nsys(r), "nvtx_injection_path");
	envmap_set(env, "DYN_ENABLE_RUST_NVTX", "1");
	envmap_set(env, "DYN_NVTX", "1");
	envmap_set(env, "SRT_NSYS_REPORT_BARRIER_DIR", "/logs/profiles/.stopped/<random>");
	envmap_set_int(env, "SRT_NSYS_REPORT_EXPECTED", ranks);
	envmap_set_int(env, "SRT_NSYS_REPORT_STOP_TIMEOUT", report_timeout(r));
	if (engine && !strcmp(engine, "trtllm")) {
		envmap_set(env, "TLLM_LLMAPI_ENABLE_NVTX", "1");
		envmap_set(env, "TLLM_PROFILE_LOG_RANKS", "all");
	} else if (engine && !strcmp(engine, "sglang")) {
		envmap_set(env, "SGLANG_ENABLE_NVTX_SCHEDULER", "1");
	} else if (engine && !strcmp(engine, "vllm")) {
		/* the EngineCore and Worker processes hold vLLM's ranges; nsys
		 * follows them only when they are spawned, not forked */
		envmap_set(env, "VLLM_NVTX_SCOPES_FOR_PROFILING", "1");
		envmap_set(env, "VLLM_WORKER_MULTIPROC_METHOD", "spawn");
	}
	if (inj && *inj)
		envmap_set(env, "NVTX_INJECTION64_PATH", inj);
}

/* ANALYTICS_SPAN_ENV: SPAN_CLOSED lines are logged at debug level. */
static void span_env(struct envmap *env)
{
	envmap_set(env, "DYN_LOGGING_SPAN_EVENTS", "true");
	envmap_set(env, "DYN_LOGGING_JSONL", "true");
	envmap_set(env, "DYN_LOG", "debug");
}

void obs_worker_env(const struct recipe *r, enum role_id role, const char *engine, int ranks,
		    struct envmap *env)
{
	otel_env(r, role_names[role], env);
	if (obs_nsys_enabled(r))
		nsys_env(r, engine, ranks, env);
	if (obs_enabled(r))
		span_env(env);
}

void obs_dynamo_frontend_env(const struct recipe *r, struct envmap *env)
{
	otel_env(r, "frontend", env);
	if (obs_nsys_enabled(r))
		nsys_env(r, NULL, 1, env);
}

void obs_frontend_env(const struct recipe *r, struct envmap *env)
{
	if (!obs_enabled(r))
		return;
	span_env(env);
	/* ANALYTICS_REQUEST_TRACE_ENV: the frontend's per-request records, kept
	 * under the log mount (Dynamo's own default is in /tmp) */
	envmap_set(env, "DYN_REQUEST_TRACE", "1");
	envmap_set(env, "DYN_REQUEST_TRACE_FILE_PATH", "/logs/dynamo-request-trace");
}

void obs_bench_env(const struct recipe *r, struct envmap *env)
{
	if (!obs_nsys_enabled(r) || obs_unrendered(r))
		return;
	envmap_set(env, "SRT_NSYS_CONTROL_DIR", "/logs/profiles/.control");
	envmap_set(env, "SRT_NSYS_CONTROL_SCRIPT", "/srtctl-runtime/nsys_window.py");
	envmap_set_int(env, "SRT_NSYS_CONTROL_TIMEOUT", report_timeout(r));
}

char *obs_report_name(const char *dir, const char *log_path, const char *tail)
{
	const char *base = strrchr(log_path, '/');
	size_t n;
	base = base ? base + 1 : log_path;
	n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".out"))
		n -= 4;
	return xasprintf("%s/%.*s%s", dir, (int)n, base, tail ? tail : "");
}

/* The nsys start arguments: no GPU metrics; CPU sampling and context
 * switches at nsys.cpu_sampling's scope, or neither. */
static json_t *start_args(const struct recipe *r)
{
	char buf[32];
	const char *cpu = nsys_str(r, "cpu_sampling", buf, sizeof(buf));
	json_t *a = json_array();
	json_array_append_new(a, json_string("--gpu-metrics-devices=none"));
	if (!strcmp(cpu, "none")) {
		json_array_append_new(a, json_string("--sample=none"));
		json_array_append_new(a, json_string("--cpuctxsw=none"));
		return a;
	}
	json_array_append_new(a, json_sprintf("--sample=%s", cpu));
	json_array_append_new(a, json_sprintf("--cpuctxsw=%s", cpu));
	json_array_append_new(a, json_string("--sampling-period=26000000"));
	json_array_append_new(a, json_string("--samples-per-backtrace=32"));
	return a;
}

void obs_nsys_wrap(const struct recipe *r, struct strvec *argv, size_t keep, const char *report,
		   int ranks)
{
	struct strvec w = STRVEC_INIT;
	json_t *spec = json_object();
	size_t i;

	if (keep > argv->n)
		keep = argv->n;
	/* json.dumps(spec) of wrap_observability_nsys, keys in its order; the
	 * step is a uuid */
	json_object_set_new(spec, "control_dir", json_string("/logs/profiles/.control"));
	json_object_set_new(spec, "step", json_string("<random>"));
	json_object_set_new(spec, "ranks", json_integer(ranks));
	json_object_set_new(spec, "nsys", json_string(obs_nsys_binary()));
	json_object_set_new(spec, "start_args", start_args(r));
	json_object_set_new(spec, "output", json_sprintf("%s/%s", profiles, report));
	json_object_set_new(spec, "timeout", json_integer(report_timeout(r)));
	for (i = 0; i < keep; i++)
		strvec_push(&w, argv->v[i]);
	strvec_push(&w, "python3");
	strvec_push(&w, "/srtctl-runtime/nsys_window.py");
	strvec_push(&w, "worker");
	strvec_push(&w, "--spec");
	strvec_push_nodup(&w, pyjson_dumps(spec, 0));
	strvec_push(&w, "--");
	for (; i < argv->n; i++)
		strvec_push(&w, argv->v[i]);
	json_decref(spec);
	strvec_release(argv);
	*argv = w;
}
