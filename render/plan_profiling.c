/*
 * plan_profiling.c — torch profiling in the launch plan (see
 * plan_profiling.h).  Rules from srtctl's core/schema.py
 * ProfilingConfig.get_env_vars (8e804f0) and
 * cli/mixins/benchmark_stage.py _get_benchmark_profiling_env; the
 * features/profiling snapshot (8e804f0) shows both.
 */
#include "render/plan_profiling.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "model/kinds.h"

/* Where the traces go inside the container (the log mount). */
static const char profiles_dir[] = "/logs/profiles";

/* The phase block of a role: prefill, decode, aggregated. */
static json_t *phase(const struct recipe *r, enum role_id role)
{
	static const char *const key[ROLE_COUNT] = { "prefill", "decode", "aggregated" };
	return jget_obj(jget_obj(r->root, "profiling"), key[role]);
}

/* PROFILE_<PREFILL|DECODE|AGG>_<START|STOP>_STEP of a phase. */
static void phase_steps(const struct recipe *r, enum role_id role, struct envmap *env)
{
	static const char *const names[ROLE_COUNT][2] = {
		{ "PROFILE_PREFILL_START_STEP", "PROFILE_PREFILL_STOP_STEP" },
		{ "PROFILE_DECODE_START_STEP", "PROFILE_DECODE_STOP_STEP" },
		{ "PROFILE_AGG_START_STEP", "PROFILE_AGG_STOP_STEP" },
	};
	static const char *const keys[2] = { "start_step", "stop_step" };
	json_t *ph = phase(r, role);
	for (int i = 0; i < 2; i++) {
		json_t *v = json_object_get(ph, keys[i]);
		if (v && !json_is_null(v)) {
			char *t = py_str_dup(v);
			envmap_set(env, names[role][i], t);
			free(t);
		}
	}
}

const char *profiling_type(const struct recipe *r)
{
	const char *t = jget_str(jget_obj(r->root, "profiling"), "type");
	return t && strcmp(t, "none") ? t : NULL;
}

int profiling_rendered(const char *type)
{
	return type && !strcmp(type, "torch");
}

void profiling_worker_env(const struct recipe *r, enum role_id role, struct envmap *env)
{
	const char *t = profiling_type(r);
	char dir[64];
	if (!t)
		return;
	envmap_set(env, "PROFILING_MODE", role_names[role]);
	envmap_set(env, "PROFILE_TYPE", t);
	phase_steps(r, role, env);
	if (!strcmp(t, "torch")) {
		snprintf(dir, sizeof(dir), "%s/%s", profiles_dir, role_names[role]);
		envmap_set(env, "SGLANG_TORCH_PROFILER_DIR", dir);
	}
}

void profiling_bench_env(const struct recipe *r, const char *engine, const char *bench,
			 const char *served, const char *head_node, const struct prof_endpoint *ep, size_t nep,
			 struct envmap *env)
{
	static const char *const ips[ROLE_COUNT] = { "PROFILE_PREFILL_IPS", "PROFILE_DECODE_IPS",
						     "PROFILE_AGG_IPS" };
	static const char *const eps[ROLE_COUNT] = { "PROFILE_PREFILL_ENDPOINTS",
						     "PROFILE_DECODE_ENDPOINTS", "PROFILE_AGG_ENDPOINTS" };
	const char *t = profiling_type(r);
	if (!t)
		return;
	envmap_set(env, "PROFILE_TYPE", t);
	for (int k = 0; k < ROLE_COUNT; k++)
		phase_steps(r, (enum role_id)k, env);
	if (!strcmp(t, "torch"))
		envmap_set(env, "SGLANG_TORCH_PROFILER_DIR", profiles_dir);
	for (int k = 0; k < ROLE_COUNT; k++) {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		for (size_t i = 0; i < nep; i++) {
			if (ep[i].role != (enum role_id)k)
				continue;
			strbuf_addf(&a, "%s%s", a.len ? "," : "", ep[i].ip);
			strbuf_addf(&b, "%s%s:%d", b.len ? "," : "", ep[i].ip, ep[i].port);
		}
		if (a.len) {
			envmap_set(env, ips[k], a.buf);
			envmap_set(env, eps[k], b.buf);
		}
		strbuf_release(&a);
		strbuf_release(&b);
	}
	/* the runners that drive the profiler themselves (srtctl names SA-Bench,
	 * SGLang-Bench and Trace-Replay-Bench; the plan renders sa-bench) */
	if (bench && !strcmp(bench, "sa-bench")) {
		envmap_set(env, "PROFILE_OUTPUT_DIR", profiles_dir);
		envmap_set(env, "BENCH_MODEL_NAME", served);
		envmap_set(env, "HEAD_NODE", head_node);
		envmap_set_int(env, "HEAD_PORT", FRONTEND_PUBLIC_PORT);
		envmap_set_int(env, "PROFILE_WORKER_PORT", WORKER_HTTP_PORT_BASE);
	}
	if (engine && !strcmp(engine, "trtllm"))
		envmap_set(env, "PROFILING_BACKEND", "trtllm");
}
