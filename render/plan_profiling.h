/*
 * plan_profiling.h — the launch plan's part for `profiling:` (srtctl's
 * ProfilingConfig in core/schema.py, the worker stage and the benchmark
 * stage): the env a profiled worker and the benchmark client get.  Torch
 * profiling only: Nsight's wrapper around the worker is not rendered yet.
 */
#ifndef SRT_PLAN_PROFILING_H
#define SRT_PLAN_PROFILING_H

#include "model/recipe.h"
#include "render/envmap.h"

/* profiling.type when the job profiles ("torch", "nsys", ...), else NULL. */
const char *profiling_type(const struct recipe *r);
/* Whether the plan renders that type. */
int profiling_rendered(const char *type);

/* A worker of role: PROFILING_MODE, PROFILE_TYPE, the role's start/stop
 * steps, the torch trace folder (srtctl's get_env_vars); set last, over
 * the worker's other env. */
void profiling_worker_env(const struct recipe *r, enum role_id role, struct envmap *env);

/* One routable worker endpoint the client drives the profiler through. */
struct prof_endpoint {
	enum role_id role;
	const char *ip;
	int port;
};
/* The benchmark client's profiling env (srtctl's
 * _get_benchmark_profiling_env) for a benchmark of type bench; engine is
 * the job's engine type. */
void profiling_bench_env(const struct recipe *r, const char *engine, const char *bench,
			 const char *served, const char *head_node, const struct prof_endpoint *ep, size_t nep,
			 struct envmap *env);

#endif
