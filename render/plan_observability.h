/*
 * plan_observability.h — the launch plan's part for `observability:`: what
 * `observability.enabled` adds to the workers, the frontend and the
 * benchmark client (srtctl's expand_observability in core/config.py, the
 * ANALYTICS_* env and build_otel_env in core/schema.py), and the automatic
 * Nsight capture that wraps every worker and the Dynamo frontend
 * (core/observability_nsys.py).  Only the measured_workload window is
 * rendered; obs_unrendered() names what is not.
 */
#ifndef SRT_PLAN_OBSERVABILITY_H
#define SRT_PLAN_OBSERVABILITY_H

#include "lib/util.h"
#include "model/recipe.h"
#include "render/envmap.h"

/* Whether the automatic capture runs: observability.enabled and
 * observability.nsys.enabled (default true), and no profiling: an explicit
 * profiling block takes precedence (srtctl's observability_nsys_enabled). */
int obs_nsys_enabled(const struct recipe *r);
/* observability.enabled: the span env, the request trace and the engine
 * statistics srtctl bakes in. */
int obs_enabled(const struct recipe *r);
/* The nsys binary srtctl runs: $SRTCTL_NSYS_BIN, else "nsys". */
const char *obs_nsys_binary(void);
/* NULL when the plan renders r's observability; else what it does not
 * render, for a "not rendered yet" message. */
const char *obs_unrendered(const struct recipe *r);

/* What a worker of role gets before its role env, in srtctl's order: the
 * OpenTelemetry env, the capture's env (ranks: the MPI tasks of one launch;
 * engine: the process's engine, for its NVTX switches), then the span env
 * that expand_observability puts under every role's env (so the role's own
 * values win). */
void obs_worker_env(const struct recipe *r, enum role_id role, const char *engine, int ranks,
		    struct envmap *env);
/* The Dynamo frontend's OpenTelemetry and capture env, set before the
 * recipe's environment. */
void obs_dynamo_frontend_env(const struct recipe *r, struct envmap *env);
/* The span and request-trace env expand_observability puts under
 * frontend.env: layered just before frontend.env, which wins. */
void obs_frontend_env(const struct recipe *r, struct envmap *env);
/* The benchmark client's view of the capture window (benchmark_nsys_env). */
void obs_bench_env(const struct recipe *r, struct envmap *env);

/* The report name of a launch whose log is log_path (".../<stem>.out"):
 * "<dir>/<stem><tail>"; malloc'd. */
char *obs_report_name(const char *dir, const char *log_path, const char *tail);
/* Wrap argv (from word keep on: the words before it, a numactl prefix, stay
 * outside) in nsys_window.py's worker window for report (relative to
 * /logs/profiles/) over ranks MPI tasks. */
void obs_nsys_wrap(const struct recipe *r, struct strvec *argv, size_t keep, const char *report,
		   int ranks);

#endif
