/* observability.enabled in the launch plan.  Expected lines derived from
 * srtctl's rules: core/config.py@020fbc6 expand_observability (the span env
 * setdefault under every role's env and frontend.env, the request-trace env
 * under frontend.env only); core/schema.py@020fbc6 ANALYTICS_SPAN_ENV
 * (DYN_LOGGING_SPAN_EVENTS=true, DYN_LOGGING_JSONL=true, DYN_LOG=debug),
 * ANALYTICS_REQUEST_TRACE_ENV (DYN_REQUEST_TRACE=1, the file under /logs)
 * and build_otel_env; core/observability_nsys.py@1007441
 * wrap_observability_nsys (python3 /srtctl-runtime/nsys_window.py worker
 * --spec <json.dumps(spec)> -- <command>, spec keys control_dir, step,
 * ranks, nsys, start_args, output, timeout; DYN_ENABLE_RUST_NVTX, the report
 * barrier env; TLLM_* for TRT-LLM workers) and benchmark_nsys_env
 * (SRT_NSYS_CONTROL_*), and its later stored version (start_args from
 * nsys.cpu_sampling, DYN_NVTX, SGLANG_ENABLE_NVTX_SCHEDULER); the worker
 * stage's report name <mode>/<node>_<mode>_w<i>_profile_gpu<gpus, '-'>
 * (_profile_rank%q{SLURM_PROCID} over an MPI launch, ranks = its tasks);
 * backends/vllm.py@009a4fa nvtx_environment; the Dynamo frontend's report
 * frontend/<node>_frontend_<i>; SrtConfig.observability_nsys_enabled (nsys
 * on by default, explicit profiling takes precedence). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/recipe.h"
#include "lib/util.h"
#include "render/plan.h"
#include "tests/unit/testutil.h"
#include "tests/unit/plan_testutil.h"

#define HEAD "\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", " \
	     "\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, " \
	     "\"dynamo\": {\"install\": false}, "
#define BENCH "\"benchmark\": {\"type\": \"sa-bench\", \"isl\": 8, \"osl\": 8, \"concurrencies\": \"4\"}, "
#define AGG(ENV) "\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 2" ENV "}}"
#define OBS(X) "\"observability\": {\"enabled\": true, \"tachometer\": {\"enabled\": false}" X "}, "
#define FE "\"frontend\": {\"enable_multiple_frontends\": false}, "

/* The default window around a vLLM worker and the Dynamo frontend. */
#define SPEC_HEAD "python3 /srtctl-runtime/nsys_window.py worker --spec '{\"control_dir\": " \
		  "\"/logs/profiles/.control\", \"step\": \"<random>\", \"ranks\": 1, \"nsys\": \"nsys\", "
#define SYSWIDE "\"start_args\": [\"--gpu-metrics-devices=none\", \"--sample=system-wide\", " \
		"\"--cpuctxsw=system-wide\", \"--sampling-period=26000000\", " \
		"\"--samples-per-backtrace=32\"], "

static void test_vllm_worker_and_frontend(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD OBS("") FE BENCH "\"engine\": \"vllm\", "
			     AGG(", \"env\": {\"DYN_LOGGING_JSONL\": \"false\"}") "}");
	char *w = tu_step_of(o, "agg_0_node-01"), *f = tu_step_of(o, "frontend_0");
	char *b = tu_step_of(o, "<unnamed>");
	tu_has(w, "command: |\n    " SPEC_HEAD SYSWIDE
		  "\"output\": \"/logs/profiles/agg/node-01_agg_w0_profile_gpu0-1\", \"timeout\": 1800}' "
		  "-- python3 -m dynamo.vllm --model /model ");
	/* the span env replaces the worker's default DYN_LOG; the role's own
	 * value wins over the setdefault */
	tu_has(w, "    DYN_ENABLE_RUST_NVTX: 1\n    DYN_LOG: debug\n    DYN_LOGGING_JSONL: false\n"
		  "    DYN_LOGGING_SPAN_EVENTS: true\n    DYN_NVTX: 1\n");
	tu_has(w, "    SRT_NSYS_REPORT_BARRIER_DIR: /logs/profiles/.stopped/<random>\n"
		  "    SRT_NSYS_REPORT_EXPECTED: 1\n    SRT_NSYS_REPORT_STOP_TIMEOUT: 1800\n");
	tu_has(w, "    VLLM_NVTX_SCOPES_FOR_PROFILING: 1\n");
	tu_has(w, "    VLLM_WORKER_MULTIPROC_METHOD: spawn\n");
	tu_lacks(w, "DYN_REQUEST_TRACE"); /* frontend only */
	tu_has(f, "command: |\n    " SPEC_HEAD SYSWIDE
		  "\"output\": \"/logs/profiles/frontend/node-01_frontend_0\", \"timeout\": 1800}' "
		  "-- python3 -m dynamo.frontend --http-port=8000\n");
	tu_has(f, "    DYN_REQUEST_TRACE: 1\n    DYN_REQUEST_TRACE_FILE_PATH: /logs/dynamo-request-trace\n");
	tu_has(f, "    DYN_LOG: debug\n    DYN_LOGGING_JSONL: true\n    DYN_LOGGING_SPAN_EVENTS: true\n");
	tu_lacks(f, "VLLM_NVTX"); /* the engine's switches are a worker's */
	tu_has(b, "    SRT_NSYS_CONTROL_DIR: /logs/profiles/.control\n"
		  "    SRT_NSYS_CONTROL_SCRIPT: /srtctl-runtime/nsys_window.py\n"
		  "    SRT_NSYS_CONTROL_TIMEOUT: 1800\n");
	free(w);
	free(f);
	free(b);
	free(o);
}

/* cpu_sampling none: neither sampling nor context switches; the report
 * timeout reaches the spec, the barrier and the client. */
static void test_settings(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD OBS(", \"nsys\": {\"cpu_sampling\": \"none\", \"report_timeout_secs\": 60, "
					  "\"nvtx_injection_path\": \"/opt/nvtx.so\"}") FE BENCH
			     "\"engine\": \"sglang\", " AGG("") "}");
	char *w = tu_step_of(o, "agg_0_node-01"), *b = tu_step_of(o, "<unnamed>");
	tu_has(w, "\"start_args\": [\"--gpu-metrics-devices=none\", \"--sample=none\", \"--cpuctxsw=none\"], "
		  "\"output\": \"/logs/profiles/agg/node-01_agg_w0_profile_gpu0-1\", \"timeout\": 60}' "
		  "-- python3 -m dynamo.sglang ");
	tu_has(w, "    NVTX_INJECTION64_PATH: /opt/nvtx.so\n");
	tu_has(w, "    SGLANG_ENABLE_NVTX_SCHEDULER: 1\n");
	tu_has(w, "    SRT_NSYS_REPORT_STOP_TIMEOUT: 60\n");
	tu_lacks(w, "VLLM_");
	tu_has(b, "    SRT_NSYS_CONTROL_TIMEOUT: 60\n");
	free(w);
	free(b);
	free(o);
}

/* nsys off, or superseded by an explicit profiling block: no window, the
 * span and trace env stay. */
static void test_no_capture(void **state)
{
	(void)state;
	static const char *const extra[] = {
		OBS(", \"nsys\": {\"enabled\": false}"),
		OBS("") "\"profiling\": {\"type\": \"torch\"}, ",
	};
	for (size_t i = 0; i < sizeof(extra) / sizeof(*extra); i++) {
		char *json = xasprintf("{" HEAD "%s" FE BENCH "\"engine\": \"vllm\", " AGG("") "}", extra[i]);
		char *o = tu_plan_of(json);
		char *w = tu_step_of(o, "agg_0_node-01"), *f = tu_step_of(o, "frontend_0");
		char *b = tu_step_of(o, "<unnamed>");
		tu_has(w, "command: |\n    python3 -m dynamo.vllm ");
		tu_has(w, "    DYN_LOG: debug\n");
		tu_lacks(w, "SRT_NSYS");
		tu_lacks(w, "NVTX");
		tu_has(f, "command: |\n    python3 -m dynamo.frontend ");
		tu_has(f, "    DYN_REQUEST_TRACE: 1\n");
		tu_lacks(b, "SRT_NSYS");
		free(w);
		free(f);
		free(b);
		free(o);
		free(json);
	}
}

/* One MPI launch of TRT-LLM over 16 tasks: one window for all, a report
 * per rank, and TensorRT-LLM's NVTX switches. */
static void test_trtllm_mpi(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD OBS("") FE "\"benchmark\": {\"type\": \"manual\"}, \"engine\": \"trtllm\", "
			     "\"roles\": {\"agg\": {\"nodes\": 2, \"workers\": 1, \"gpus\": 16}}}");
	char *w = tu_step_of(o, "agg_0_node-01");
	tu_has(w, "command: |\n    python3 /srtctl-runtime/nsys_window.py worker --spec '{\"control_dir\": "
		  "\"/logs/profiles/.control\", \"step\": \"<random>\", \"ranks\": 16, \"nsys\": \"nsys\", " SYSWIDE
		  "\"output\": \"/logs/profiles/agg/node-01_agg_w0_profile_rank%q{SLURM_PROCID}\", "
		  "\"timeout\": 1800}' -- trtllm-llmapi-launch ");
	tu_has(w, "    SRT_NSYS_REPORT_EXPECTED: 16\n");
	tu_has(w, "    TLLM_LLMAPI_ENABLE_NVTX: 1\n    TLLM_PROFILE_LOG_RANKS: all\n");
	free(w);
	free(o);
}

/* The engine YAML the plan text shows: the statistics observability needs
 * (ANALYTICS_ENGINE_CONFIG) set before srtctl's enable_iter_perf_stats:
 * false default, a role's own value kept. */
static void test_trtllm_engine_stats(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct recipe r;
	char *err = NULL;
	(void)state;
	tu_recipe_json(&r, "{" HEAD OBS("") FE "\"benchmark\": {\"type\": \"manual\"}, \"engine\": \"trtllm\", "
		       "\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 8, "
		       "\"args\": {\"return_perf_metrics\": false}}}}");
	assert_int_equal(plan_render_text(&out, &r, NULL, &err), 0);
	tu_has(sb_str(&out), "  enable_iter_perf_stats: true\n  return_perf_metrics: false\n");
	strbuf_release(&out);
	recipe_release(&r);
}

/* The binary srtctl would run: $SRTCTL_NSYS_BIN (profiling.nsys_binary). */
static void test_nsys_binary(void **state)
{
	(void)state;
	setenv("SRTCTL_NSYS_BIN", "/opt/nsys/bin/nsys", 1);
	char *o = tu_plan_of("{" HEAD OBS("") FE BENCH "\"engine\": \"vllm\", " AGG("") "}");
	unsetenv("SRTCTL_NSYS_BIN");
	char *w = tu_step_of(o, "agg_0_node-01");
	tu_has(w, "\"ranks\": 1, \"nsys\": \"/opt/nsys/bin/nsys\", ");
	free(w);
	free(o);
}

/* OpenTelemetry (build_otel_env) comes before the span env, whose JSONL
 * switch then wins; numactl stays outside the frontend's window; a router
 * frontend gets the span and trace env but no window. */
static void test_otel_numactl_router(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD OBS(", \"enable_otel\": true, \"otel_endpoint\": \"http://c:4317\"")
			     "\"frontend\": {\"enable_multiple_frontends\": false, \"numa_bind\": true}, "
			     "\"benchmark\": {\"type\": \"manual\"}, \"engine\": \"vllm\", " AGG("") "}");
	char *w = tu_step_of(o, "agg_0_node-01"), *f = tu_step_of(o, "frontend_0");
	tu_has(w, "    DYN_LOGGING_JSONL: true\n");
	/* sorted by strcmp: "EXPORTER" before "EXPORT_" */
	tu_has(w, "    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: http://c:4317\n    OTEL_EXPORT_ENABLED: 1\n"
		  "    OTEL_SERVICE_NAME: dynamo-agg\n");
	tu_has(f, "    OTEL_SERVICE_NAME: dynamo-frontend\n");
	tu_has(f, "command: |\n    numactl --cpunodebind=0 --membind=0 python3 /srtctl-runtime/nsys_window.py ");
	tu_has(f, "-- python3 -m dynamo.frontend --http-port=8000\n");
	free(w);
	free(f);
	free(o);

	o = tu_plan_of("{" HEAD OBS("") "\"frontend\": {\"type\": \"sglang-router\", \"enable_multiple_frontends\": "
		       "false}, \"benchmark\": {\"type\": \"manual\"}, \"engine\": \"sglang\", " AGG("") "}");
	f = tu_step_of(o, "sglang_router_0");
	tu_has(f, "    DYN_LOG: debug\n");
	tu_has(f, "    DYN_REQUEST_TRACE: 1\n");
	tu_lacks(f, "nsys_window");
	tu_lacks(f, "SRT_NSYS");
	w = tu_step_of(o, "agg_0_node-01");
	tu_has(w, "command: |\n    " SPEC_HEAD);
	free(w);
	free(f);
	free(o);
}

static void test_startup_window_refused(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct recipe r;
	char *err = NULL;
	(void)state;
	tu_recipe_json(&r, "{" HEAD OBS(", \"nsys\": {\"capture_window\": \"including_startup\"}") FE BENCH
		       "\"engine\": \"vllm\", " AGG("") "}");
	assert_int_equal(plan_render_snapshot(&out, &r, NULL, &err), -1);
	tu_has(err, "observability.nsys.capture_window other than measured_workload is not rendered yet");
	free(err);
	strbuf_release(&out);
	recipe_release(&r);
}

int main(void)
{
	unsetenv("SRTCTL_NSYS_BIN"); /* the expectations name the default binary */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vllm_worker_and_frontend),
		cmocka_unit_test(test_settings),
		cmocka_unit_test(test_no_capture),
		cmocka_unit_test(test_trtllm_mpi),
		cmocka_unit_test(test_trtllm_engine_stats),
		cmocka_unit_test(test_nsys_binary),
		cmocka_unit_test(test_otel_numactl_router),
		cmocka_unit_test(test_startup_window_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
