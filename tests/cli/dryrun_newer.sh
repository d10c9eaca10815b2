#!/bin/sh
# The lines and panels newer srtctl versions add to the dry-run, each with
# its gate: the GPU visibility variable, role restart policies and engines,
# the TRT-LLM publication / NUMA / engine-statistics output, vLLM flags
# srtctl overrides, the Shadow Engine Recovery panel, post_eval, per-role
# srun options, the telemetry legs and the INFMAX_WORKSPACE error, as text
# and as the fields of `render --format json`.  Every
# expected line is derived by hand from show_config_details in
# NVIDIA/srt-slurm src/srtctl/cli/submit.py at 666f09d1 (the rule beside
# it; the config properties it reads as the SemiAnalysisAI/srt-slurm fork
# defines them at 0fde9260: RestartPolicy, Topology, SrtConfig.role_backends,
# worker_container_for_role, backends/vllm.py, core/config.py).  A recipe
# that uses none of these prints only the GPU line more than before.  Where
# python3-rich is installed, the new panels are also compared with Rich's.
set -u
fail=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
T=$(cd "$T" && pwd -P)
. "$SRCDIR/tests/cli/lib.sh"
unset SRTSLURM_CONFIG SRT_TUI_SRTCTL_DIR INFMAX_WORKSPACE
export SOURCE_DATE_EPOCH=0 COLUMNS=400

# a recipe: engine $1, then the roles block and whatever else $2 adds
recipe() {
	printf 'schema: 2\nname: "newer"\nmodel:\n  path: "/models/qwen"\n'
	printf '  container: "/containers/engine.sqsh"\n  precision: "bf16"\n'
	printf 'resources:\n  gpus_per_node: 4\n'
	[ -n "$1" ] && printf 'engine: %s\n' "$1"
	cat
}
disagg() { printf 'roles:\n  prefill:\n    nodes: 1\n    workers: 1\n  decode:\n    nodes: 1\n    workers: 1\n'; }
agg() { printf 'roles:\n  agg:\n    nodes: 1\n    workers: 1\n'; }
# the body of the text panel titled $2 (borders, padding and the trailing
# spaces of each line taken off)
body() {
	awk -v t=" $2 " '
		!on && index($0, "╭") == 1 && index($0, t) { on = 1; next }
		on && index($0, "╰") == 1 { exit }
		on { sub(/^│ /, ""); sub(/ *│$/, ""); print }' "$1"
}
# the console.print lines of the dry-run between the sbatch panel and the
# Container Mounts panel, panels shown by their top border only
head_lines() {
	awk '
		index($0, "╭") == 1 && index($0, " Generated sbatch Script ") { sb = 1; next }
		sb == 1 && index($0, "╰") == 1 { sb = 2; next }
		sb != 2 { next }
		top && index($0, "Container Mounts") { exit }
		top { print "[panel]"; top = 0 }
		index($0, "╭") == 1 { top = 1; inp = 1; next }
		inp && index($0, "╰") == 1 { inp = 0; next }
		!inp { print }' "$1"
}
render() { # binary, recipe file (in $T), output file
	(cd "$T" && "$1" render "$2") >"$3" 2>"$T/err" || { echo "FAIL $tag: render $2"; cat "$T/err"; fail=1; }
}

for bin in "$SRT_TUI" "$SRT_TUI_SAN"; do
	tag=${bin##*/}

	# --- a recipe using none of it: the GPU line alone, first --------------
	recipe sglang <"/dev/null" >"$T/plain.yaml"; agg >>"$T/plain.yaml"
	render "$bin" plain.yaml "$T/out"
	{
		echo ''                                                     # console.print() after the sbatch panel
		echo 'GPU subset visibility variable: CUDA_VISIBLE_DEVICES' # get_srtslurm_setting("visible_devices_env", "CUDA_VISIBLE_DEVICES"), always
	} >"$T/want"
	head_lines "$T/out" >"$T/got"
	check "$tag plain: lines before the mounts" "$T/want" "$T/got"
	for w in 'restart=' 'engine=' 'TRT-LLM' 'WARNING:' 'Shadow Engine' 'Post-eval' \
		'worker srun options' 'ERROR:' 'NOTE: two engines'; do
		grep -q "$w" "$T/out" && { echo "FAIL $tag plain: prints $w"; fail=1; }
	done

	# --- the cluster's visible_devices_env --------------------------------
	mkdir -p "$T/cl"
	printf 'visible_devices_env: "ROCR_VISIBLE_DEVICES"\n' >"$T/cl/srtslurm.yaml"
	cp "$T/plain.yaml" "$T/cl/plain.yaml"
	(cd "$T/cl" && "$bin" render plain.yaml) >"$T/out" 2>"$T/err"
	grep -qx 'GPU subset visibility variable: ROCR_VISIBLE_DEVICES' "$T/out" ||
		{ echo "FAIL $tag: visible_devices_env from srtslurm.yaml"; cat "$T/err"; fail=1; }

	# --- restart policies, in the recipe's order of roles; role images ------
	recipe sglang >"$T/restart.yaml" <<'EOF'
roles:
  decode:
    nodes: 1
    workers: 1
    container: "./decode.sqsh"
    restart:
      policy: always
      max_restarts: 2
      backoff_seconds: 5
      max_backoff_seconds: 60.5
  prefill:
    nodes: 1
    workers: 1
    restart: on-failure
EOF
	render "$bin" restart.yaml "$T/out"
	{
		echo ''
		echo 'GPU subset visibility variable: CUDA_VISIBLE_DEVICES'
		# for role, spec in config.roles.items(): recipe order, decode first;
		# f"{backoff_seconds:g}": 5 -> 5, 60.5 -> 60.5
		echo 'decode: restart=always, max_restarts=2, backoff_seconds=5, max_backoff_seconds=60.5'
		# a string is RestartPolicy(policy=...): max_restarts 3, backoff 10.0, cap 300.0
		echo 'prefill: restart=on-failure, max_restarts=3, backoff_seconds=10, max_backoff_seconds=300'
		# role_containers not empty: every active role (prefill, decode,
		# agg order) with backend_for_role(role).type and
		# worker_container_for_role: the role image, else model.container;
		# "./decode.sqsh" resolved against the working directory
		echo 'prefill: engine=sglang, container=/containers/engine.sqsh'
		echo "decode: engine=sglang, container=$T/decode.sqsh"
	} >"$T/want"
	head_lines "$T/out" >"$T/got"
	check "$tag restart and role image lines" "$T/want" "$T/got"
	# _print_running_summary: the decode image differs from model.container
	grep -qx "  Decode: sglang in $T/decode.sqsh" "$T/out" || { echo "FAIL $tag: running decode line"; fail=1; }
	grep -q '^  Prefill:' "$T/out" && { echo "FAIL $tag: running prefill line (same image)"; fail=1; }
	# restart: never (the default) prints nothing
	recipe sglang >"$T/never.yaml" <<'EOF'
roles:
  agg:
    nodes: 1
    restart: {policy: never, max_restarts: 9}
EOF
	render "$bin" never.yaml "$T/out"
	grep -q 'restart=' "$T/out" && { echo "FAIL $tag: restart never printed"; fail=1; }

	# --- per-role engines (no top-level engine) ------------------------------
	recipe "" >"$T/roleeng.yaml" <<'EOF'
frontend:
  type: sglang-router
roles:
  prefill:
    nodes: 1
    workers: 1
    engine: sglang
  decode:
    nodes: 1
    workers: 2
    engine: {type: sglang}
EOF
	render "$bin" roleeng.yaml "$T/out"
	{
		echo ''
		echo 'GPU subset visibility variable: CUDA_VISIBLE_DEVICES'
		echo 'prefill: engine=sglang, container=/containers/engine.sqsh' # role_backends not empty
		echo 'decode: engine=sglang, container=/containers/engine.sqsh'
	} >"$T/want"
	head_lines "$T/out" >"$T/got"
	check "$tag role engine lines" "$T/want" "$T/got"

	# --- TRT-LLM behind Dynamo: publication flags, statistics ----------------
	{ recipe trtllm </dev/null; disagg; } >"$T/trt.yaml"
	render "$bin" trt.yaml "$T/out"
	{
		echo ''
		echo 'GPU subset visibility variable: CUDA_VISIBLE_DEVICES'
		echo '[panel]'   # Dynamo TRT-LLM Metrics: frontend dynamo, no sidecar, TRT-LLM backend
		echo '[panel]'   # TRT-LLM Engine Statistics: any TRT-LLM backend
	} >"$T/want"
	head_lines "$T/out" >"$T/got"
	check "$tag trtllm: two panels before the mounts" "$T/want" "$T/got"
	# dynamo_metrics_flags: publish_metrics (default true) -> --publish-metrics
	echo '--publish-metrics (metrics only)' >"$T/want"
	body "$T/out" "Dynamo TRT-LLM Metrics" >"$T/got"
	check "$tag trtllm metrics panel" "$T/want" "$T/got"
	{
		# disaggregated: prefill, decode; expand_trtllm_engine_defaults
		# setdefaults enable_iter_perf_stats: false; nothing sets
		# return_perf_metrics on the dynamo frontend: _engine_bool(None) "unset"
		echo 'prefill: enable_iter_perf_stats=false, return_perf_metrics=unset'
		echo 'decode: enable_iter_perf_stats=false, return_perf_metrics=unset'
		echo "(engine yaml; the iteration-level trtllm_* gauges and the dashboard's KV-utilisation panels need enable_iter_perf_stats: true)"
	} >"$T/want"
	body "$T/out" "TRT-LLM Engine Statistics" >"$T/got"
	check "$tag trtllm statistics panel" "$T/want" "$T/got"

	# the legacy combined flag alone when true; none when publish_metrics is false
	{ recipe '{type: trtllm, publish_events_and_metrics: true}' </dev/null; disagg; } >"$T/pe.yaml"
	render "$bin" pe.yaml "$T/out"
	echo '--publish-events-and-metrics (metrics and KV events)' >"$T/want"
	body "$T/out" "Dynamo TRT-LLM Metrics" >"$T/got"
	check "$tag trtllm legacy flag" "$T/want" "$T/got"
	{ recipe '{type: trtllm, publish_metrics: false}' </dev/null; disagg; } >"$T/pm.yaml"
	render "$bin" pm.yaml "$T/out"
	echo 'No publication flag (backend.publish_metrics: false)' >"$T/want"
	body "$T/out" "Dynamo TRT-LLM Metrics" >"$T/got"
	check "$tag trtllm no flag" "$T/want" "$T/got"

	# trtllm-serve, observability on, NUMA local: no metrics panel (not the
	# dynamo frontend); the NUMA line; expand_observability's true defaults
	# under an explicit false; the legacy tensorrt backend keeps its key unset
	recipe '{type: trtllm, numa_memory_bind: local, numa_cpu_bind: true}' >"$T/serve.yaml" <<'EOF'
frontend:
  type: trtllm_serve
observability:
  enabled: true
roles:
  agg:
    nodes: 1
    workers: 1
    args:
      return_perf_metrics: false
EOF
	render "$bin" serve.yaml "$T/out"
	{
		echo ''
		echo 'GPU subset visibility variable: CUDA_VISIBLE_DEVICES'
		echo 'TRT-LLM NUMA: GPU-local CPU binding and strict GPU-local memory binding (--bind-memory)' # numa_memory_bind == "local"
		echo '[panel]'
	} >"$T/want"
	head_lines "$T/out" >"$T/got"
	check "$tag trtllm-serve lines" "$T/want" "$T/got"
	{
		echo 'agg: enable_iter_perf_stats=true, return_perf_metrics=false' # aggregated: agg only
		echo "(engine yaml; the iteration-level trtllm_* gauges and the dashboard's KV-utilisation panels need enable_iter_perf_stats: true)"
	} >"$T/want"
	body "$T/out" "TRT-LLM Engine Statistics" >"$T/got"
	check "$tag trtllm-serve statistics" "$T/want" "$T/got"
	recipe trtllm >"$T/legacy.yaml" <<'EOF'
frontend:
  type: trtllm_serve
dynamo:
  sidecar: true
roles:
  agg:
    nodes: 1
    workers: 1
    args:
      backend: TensorRT
EOF
	render "$bin" legacy.yaml "$T/out"
	# TRTLLM_SERVE_ENGINE_DEFAULTS return_perf_metrics: true; the tensorrt
	# backend is skipped by expand_trtllm_engine_defaults
	body "$T/out" "TRT-LLM Engine Statistics" | sed -n 1p >"$T/got"
	echo 'agg: enable_iter_perf_stats=unset, return_perf_metrics=true' >"$T/want"
	check "$tag trtllm legacy backend" "$T/want" "$T/got"
	# a Dynamo sidecar: no metrics panel
	{ recipe trtllm </dev/null; printf 'dynamo:\n  sidecar: true\n'; agg; } >"$T/side.yaml"
	render "$bin" side.yaml "$T/out"
	grep -q ' Dynamo TRT-LLM Metrics ' "$T/out" && { echo "FAIL $tag: metrics panel with a sidecar"; fail=1; }
	grep -q ' TRT-LLM Engine Statistics ' "$T/out" || { echo "FAIL $tag: statistics panel with a sidecar"; fail=1; }

	# --- vLLM: flags srtctl derives from the topology -----------------------
	recipe vllm >"$T/vl.yaml" <<'EOF'
frontend:
  type: vllm
roles:
  agg:
    nodes: 1
    workers: 1
    args:
      tensor-parallel-size: 1
      port: 8000
      master_addr: "10.0.0.1"
EOF
	render "$bin" vl.yaml "$T/out"
	{
		echo ''
		echo 'GPU subset visibility variable: CUDA_VISIBLE_DEVICES'
		# frontend.type vllm and a vLLM backend: each roles.<role>.args key
		# whose kebab form is headless, host, port, master-addr, nnodes or
		# node-rank, in the args' order
		echo 'WARNING: roles.agg.args.port is set in the recipe but srtslurm derives this from the job topology at runtime; remove it from the recipe to avoid confusion (the configured value is ignored).'
		echo 'WARNING: roles.agg.args.master-addr is set in the recipe but srtslurm derives this from the job topology at runtime; remove it from the recipe to avoid confusion (the configured value is ignored).'
	} >"$T/want"
	head_lines "$T/out" >"$T/got"
	check "$tag vllm warnings" "$T/want" "$T/got"
	sed 's/type: vllm$/type: dynamo/' "$T/vl.yaml" >"$T/vld.yaml"
	render "$bin" vld.yaml "$T/out"
	grep -q '^WARNING: roles' "$T/out" && { echo "FAIL $tag: vllm warning without the vllm frontend"; fail=1; }

	# --- engine.failover: the Shadow Engine Recovery panel ------------------
	recipe '{type: vllm, failover: {shadow_engines: 2, shared_dir: "/dev/shm/"}}' </dev/null >"$T/fo.yaml"
	agg >>"$T/fo.yaml"
	render "$bin" fo.yaml "$T/out"
	{
		echo 'engines per worker: 3 (engine 0 + 2 shadow)'  # engines_per_worker = 1 + shadow_engines
		# failover_root(shared_dir, "<job_id>"): shared_dir.rstrip("/") + "/srtctl-<job_id>"
		echo 'shared dir: /dev/shm/srtctl-<job_id>/<role>_<index>/  (gms_*.sock, failover.lock; node-local, every container on the node)'
		echo 'per worker and node: the gms service (one instance per worker, listed under Services) then steps <role>_<index>_<node> and <role>_<index>_<node>_e<k>'
		echo 'engine flags: --load-format gms --gms-shadow-mode (no --device-ids; CUDA_VISIBLE_DEVICES is pinned)'
		echo 'engine env: ENGINE_ID, GMS_SOCKET_DIR, FAILOVER_LOCK_PATH, DYN_VLLM_GMS_SHADOW_MODE=true, DYN_SYSTEM_STARTING_HEALTH_STATUS=notready'
		# restart_roles reads config.resources.<role>_restart, which
		# ResourceConfig does not have: always the "none" text
		echo "engine relaunch: none: an exited engine's step ends and roles.<role>.critical decides (add roles.<role>.restart)"
	} >"$T/want"
	body "$T/out" "Shadow Engine Recovery (engine.failover)" >"$T/got"
	check "$tag failover panel" "$T/want" "$T/got"
	# after the environment ("No custom environment variables configured."),
	# the panel, then the NOTE; the Services block follows (no host_setup)
	awk '/^No custom environment variables configured\.$/ { on = 1; next }
	     on && index($0, "╭") == 1 { print "[panel]"; p = 1; next }
	     p && index($0, "╰") == 1 { p = 0; next }
	     on && !p { print; if (++n == 2) exit }' "$T/out" >"$T/got"
	{
		echo '[panel]'
		echo "NOTE: two engines share each GPU: size gpu-memory-utilization so the active engine's KV cache leaves room for the shadow's CUDA context, graphs and communicator buffers. To test a failover kill the engine process, not its step (see docs/shadow-engine-recovery.md)."
		echo 'Services:'
	} >"$T/want"
	check "$tag failover placement" "$T/want" "$T/got"
	recipe '{type: vllm, failover: {}}' </dev/null >"$T/fo0.yaml"
	agg >>"$T/fo0.yaml"
	render "$bin" fo0.yaml "$T/out"
	body "$T/out" "Shadow Engine Recovery (engine.failover)" | sed -n '1,2p' >"$T/got"
	{
		echo 'engines per worker: 2 (engine 0 + 1 shadow)'  # shadow_engines default 1
		echo 'shared dir: /dev/shm/srtctl-<job_id>/<role>_<index>/  (gms_*.sock, failover.lock; node-local, every container on the node)' # shared_dir default /dev/shm
	} >"$T/want"
	check "$tag failover defaults" "$T/want" "$T/got"

	# --- post_eval, srun options per role, the telemetry legs ---------------
	recipe sglang >"$T/misc.yaml" <<'EOF'
srun_options:
  overlap: ""
post_eval:
  command: ["python3", "eval.py", "--name", "a b"]
  passthrough_env: [HF_TOKEN, RUN_EVAL]
telemetry:
  enabled: true
  dcgm_exporter:
    container_image: "nvcr.io/nvidia/k8s/dcgm-exporter:4.1"
    port: 9400
  cpu_power_exporter: {}
  cpu_power:
    enabled: true
    required: true
roles:
  decode:
    nodes: 1
    workers: 1
    srun_options:
      mem: "64G"
      exclusive: ""
  prefill:
    nodes: 1
    workers: 1
EOF
	render "$bin" misc.yaml "$T/out"
	# config.post_eval.passthrough_env or .command: before the Services block
	sed -n '/^Post-eval dispatch:$/,/^Services:$/p' "$T/out" >"$T/got"
	{
		echo 'Post-eval dispatch:'
		echo "    command: python3 eval.py --name 'a b'"     # shlex.join(command)
		echo '    passthrough_env: HF_TOKEN, RUN_EVAL'       # ", ".join(passthrough_env)
		echo 'Services:'
	} >"$T/want"
	check "$tag post_eval lines" "$T/want" "$T/got"
	# after the recipe's srun options, each role's own, in the recipe's order
	grep -A1 '^srun options:' "$T/out" >"$T/got"
	{
		echo 'srun options: --overlap'                                            # "" is falsy: --k
		echo 'decode worker srun options (override recipe): --mem=64G --exclusive' # roles.decode.srun_options
	} >"$T/want"
	check "$tag role srun options" "$T/want" "$T/got"
	rich_rows "$T/out" "Execution Extensions" | grep '^telemetry' >"$T/got"
	{
		echo 'telemetry provider dcgm-power'
		echo 'telemetry required False'
		echo 'telemetry artifacts <log_dir>/power'
		# dcgm_exporter set: f"{container_image} (port {port})"
		echo 'telemetry dcgm_exporter nvcr.io/nvidia/k8s/dcgm-exporter:4.1 (port 9400)'
		# cpu_power_exporter set: f"{port} (source {source})", defaults 9405 and auto
		echo 'telemetry cpu_power_exporter 9405 (source auto)'
		# cpu_power.enabled: source auto, storage_subdir cpu_power, ", required"
		echo 'telemetry cpu_power host collector (source auto, <log_dir>/cpu_power, required)'
	} >"$T/want"
	check "$tag telemetry rows" "$T/want" "$T/got"

	# --- INFMAX_WORKSPACE unset for a benchmark that needs it ---------------
	{ recipe sglang </dev/null; agg; printf 'benchmark:\n  type: custom\n  command: "bash /infmax-workspace/run.sh"\n'; } >"$T/inf.yaml"
	render "$bin" inf.yaml "$T/out"
	# the line after the Container Mounts panel
	awk 'index($0, "│") == 1 && index($0, " Container Mounts ") { m = 1 } m && index($0, "╰") == 1 { getline; print; exit }' "$T/out" >"$T/got"
	echo 'ERROR: this recipe runs its benchmark from /infmax-workspace, but INFMAX_WORKSPACE is not set, so that mount will be absent and the benchmark command will fail with exit 127 after the workers have loaded. Export INFMAX_WORKSPACE=<path to the InferenceX checkout> before submitting.' >"$T/want"
	check "$tag infmax error line" "$T/want" "$T/got"
	(cd "$T" && INFMAX_WORKSPACE=/ws "$bin" render inf.yaml) >"$T/out" 2>&1
	grep -q '^ERROR: this recipe' "$T/out" && { echo "FAIL $tag: infmax error with INFMAX_WORKSPACE set"; fail=1; }
done

# --- the same facts in `render --format json`, for each recipe above ------
# Each value is the one the dry-run line shows (the rule beside it above),
# as data: a field is left out when the dry-run prints nothing of it, null
# where it prints None; an engine statistic the engine YAML lacks (the
# panel's "unset") is left out of its role.
if ! command -v python3 >/dev/null 2>&1; then
	echo "skip: python3 not installed, JSON fields not checked"
else
	for bin in "$SRT_TUI" "$SRT_TUI_SAN"; do
		tag=${bin##*/}
		for f in plain restart never roleeng trt pe pm serve legacy side vl vld fo fo0 misc inf; do
			(cd "$T" && "$bin" render --format json $f.yaml) >"$T/$f.json" 2>"$T/err" ||
				{ echo "FAIL $tag: json $f"; cat "$T/err"; fail=1; }
		done
		(cd "$T/cl" && "$bin" render --format json plain.yaml) >"$T/cl.json" 2>"$T/err" || { echo "FAIL $tag: json cl"; fail=1; }
		(cd "$T" && INFMAX_WORKSPACE=/ws "$bin" render --format json inf.yaml) >"$T/infws.json" 2>"$T/err" ||
			{ echo "FAIL $tag: json infws"; fail=1; }
		python3 - "$T" <<'PY' || { echo "FAIL $tag: json fields"; fail=1; }
import json, sys
T = sys.argv[1]
bad = 0
def load(f):
    return json.load(open("%s/%s.json" % (T, f), encoding="utf-8"))
def eq(what, got, want):
    global bad
    if got != want or type(got) != type(want):
        print("%s: got %r, want %r" % (what, got, want))
        bad += 1
NEW = ("srun_options", "trtllm", "warnings", "failover", "post_eval")
PER_ROLE = ("restart", "backend", "srun_options")
def none_of(f, keep=()):
    d = load(f)
    for k in NEW:
        if k not in keep and k in d:
            eq("%s: %s" % (f, k), d[k], "(absent)")
    for role, o in d["roles"].items():
        for k in PER_ROLE:
            if (role, k) not in keep and k in o:
                eq("%s: roles.%s.%s" % (f, role, k), o[k], "(absent)")
    return d
# the recipe using none of it: only the GPU line
d = none_of("plain")
eq("plain gpu_subset_variable", d["gpu_subset_variable"], "CUDA_VISIBLE_DEVICES")
eq("cl gpu_subset_variable", load("cl")["gpu_subset_variable"], "ROCR_VISIBLE_DEVICES")
# RestartPolicy: a float's seconds; a string takes the defaults 3, 10.0, 300.0
d = none_of("restart", keep=[(r, k) for r in ("prefill", "decode") for k in ("restart", "backend")])
eq("restart decode", d["roles"]["decode"]["restart"],
   {"policy": "always", "max_restarts": 2, "backoff_seconds": 5.0, "max_backoff_seconds": 60.5})
eq("restart prefill", d["roles"]["prefill"]["restart"],
   {"policy": "on-failure", "max_restarts": 3, "backoff_seconds": 10.0, "max_backoff_seconds": 300.0})
# role_containers not empty: backend_for_role(role).type, worker_container_for_role
eq("restart prefill backend", d["roles"]["prefill"]["backend"], {"type": "sglang", "container": "/containers/engine.sqsh"})
eq("restart decode backend", d["roles"]["decode"]["backend"], {"type": "sglang", "container": T + "/decode.sqsh"})
none_of("never")
d = none_of("roleeng", keep=[("prefill", "backend"), ("decode", "backend")])
for role in ("prefill", "decode"):
    eq("roleeng %s backend" % role, d["roles"][role]["backend"], {"type": "sglang", "container": "/containers/engine.sqsh"})
# TRT-LLM: the metrics flags, the NUMA line, engine statistics per mode
d = none_of("trt", keep=["trtllm"])
eq("trt trtllm", d["trtllm"], {
    "metrics": {"flags": ["--publish-metrics"], "text": "--publish-metrics (metrics only)"},
    "engine_statistics": {"prefill": {"enable_iter_perf_stats": False}, "decode": {"enable_iter_perf_stats": False}}})
eq("pe metrics", load("pe")["trtllm"]["metrics"],
   {"flags": ["--publish-events-and-metrics"], "text": "--publish-events-and-metrics (metrics and KV events)"})
eq("pm metrics", load("pm")["trtllm"]["metrics"],
   {"flags": [], "text": "No publication flag (backend.publish_metrics: false)"})
eq("serve trtllm", load("serve")["trtllm"], {
    "numa": "GPU-local CPU binding and strict GPU-local memory binding (--bind-memory)",
    "engine_statistics": {"agg": {"enable_iter_perf_stats": True, "return_perf_metrics": False}}})
eq("legacy trtllm", load("legacy")["trtllm"], {"engine_statistics": {"agg": {"return_perf_metrics": True}}})
eq("side trtllm", load("side")["trtllm"], {"engine_statistics": {"agg": {"enable_iter_perf_stats": False}}})
# vLLM flags srtctl derives, in the args' order
W = ("WARNING: roles.agg.args.%s is set in the recipe but srtslurm derives this from the job topology "
     "at runtime; remove it from the recipe to avoid confusion (the configured value is ignored).")
eq("vl warnings", none_of("vl", keep=["warnings"])["warnings"], [W % "port", W % "master-addr"])
none_of("vld")
# engine.failover
FO = {"service": "gms", "steps": ["<role>_<index>_<node>", "<role>_<index>_<node>_e<k>"],
      "engine_flags": ["--load-format", "gms", "--gms-shadow-mode"],
      "engine_env": ["ENGINE_ID", "GMS_SOCKET_DIR", "FAILOVER_LOCK_PATH", "DYN_VLLM_GMS_SHADOW_MODE=true",
                     "DYN_SYSTEM_STARTING_HEALTH_STATUS=notready"],
      "engine_relaunch": "none",
      "note": "NOTE: two engines share each GPU: size gpu-memory-utilization so the active engine's KV cache "
              "leaves room for the shadow's CUDA context, graphs and communicator buffers. To test a failover "
              "kill the engine process, not its step (see docs/shadow-engine-recovery.md)."}
eq("fo failover", none_of("fo", keep=["failover"])["failover"],
   dict(FO, shadow_engines=2, engines_per_worker=3, worker_dir="/dev/shm/srtctl-<job_id>/<role>_<index>"))
eq("fo0 failover", load("fo0")["failover"],
   dict(FO, shadow_engines=1, engines_per_worker=2, worker_dir="/dev/shm/srtctl-<job_id>/<role>_<index>"))
# post_eval, srun options, the telemetry rows of Execution Extensions
d = none_of("misc", keep=["post_eval", "srun_options", ("decode", "srun_options")])
eq("misc post_eval", d["post_eval"], {"command": ["python3", "eval.py", "--name", "a b"],
                                      "passthrough_env": ["HF_TOKEN", "RUN_EVAL"]})
eq("misc srun_options", d["srun_options"], ["--overlap"])
eq("misc decode srun_options", d["roles"]["decode"]["srun_options"], ["--mem=64G", "--exclusive"])
eq("misc telemetry", [(e["setting"], e["value"]) for e in d["extensions"] if e["area"] == "telemetry"], [
    ("provider", "dcgm-power"), ("required", "False"), ("artifacts", "<log_dir>/power"),
    ("dcgm_exporter", "nvcr.io/nvidia/k8s/dcgm-exporter:4.1 (port 9400)"),
    ("cpu_power_exporter", "9405 (source auto)"),
    ("cpu_power", "host collector (source auto, <log_dir>/cpu_power, required)")])
# INFMAX_WORKSPACE unset: the ERROR line; set: nothing
eq("inf warnings", none_of("inf", keep=["warnings"])["warnings"], [
    "ERROR: this recipe runs its benchmark from /infmax-workspace, but INFMAX_WORKSPACE is not set, so that "
    "mount will be absent and the benchmark command will fail with exit 127 after the workers have loaded. "
    "Export INFMAX_WORKSPACE=<path to the InferenceX checkout> before submitting."])
none_of("infws")
sys.exit(1 if bad else 0)
PY
	done
fi

# the new panels and lines laid out as Rich lays them out, at 60 and 80
# columns: each panel's text is the unwrapped body of the wide render
PY=""
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import rich' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
	echo "skip: python3-rich is not installed (panel layout)"
else
	for f in trt serve fo misc restart; do
		(cd "$T" && COLUMNS=4000 "$SRT_TUI" render $f.yaml) >"$T/wide" 2>/dev/null
		for cols in 60 80; do
			(cd "$T" && COLUMNS=$cols "$SRT_TUI" render $f.yaml) >"$T/narrow" 2>/dev/null
			"$PY" - "$T/wide" "$T/narrow" "$cols" "$f" <<'PY' || { echo "FAIL: $f at $cols columns"; fail=1; }
import io, sys
from rich.console import Console
from rich.panel import Panel
wide = open(sys.argv[1], encoding="utf-8").read().split("\n")
narrow = open(sys.argv[2], encoding="utf-8").read()
w = int(sys.argv[3])
titles = ("Dynamo TRT-LLM Metrics", "TRT-LLM Engine Statistics", "Shadow Engine Recovery (engine.failover)")
def con():
    buf = io.StringIO()
    return buf, Console(file=buf, width=w, no_color=True, force_terminal=False, color_system=None)
ok, i, panels = True, 0, 0
while i < len(wide):
    line = wide[i]
    t = next((t for t in titles if line.startswith("\u256d") and (" %s " % t) in line), None)
    if t:
        body = []
        i += 1
        while not wide[i].startswith("\u2570"):
            body.append(wide[i][2:-1].rstrip())
            i += 1
        panels += 1
        buf, c = con()
        c.print(Panel("\n".join(body), title=t))
        if buf.getvalue() not in narrow:
            print("panel %s at %d columns is not Rich's:\n%s" % (t, w, buf.getvalue()))
            ok = False
    elif line.startswith(("GPU subset", "decode: ", "prefill: ", "TRT-LLM NUMA", "NOTE: two", "Post-eval", "    command:", "decode worker")):
        buf, c = con()
        c.print(line)
        if buf.getvalue() not in narrow:
            print("line %r at %d columns is not Rich's:\n%s" % (line, w, buf.getvalue()))
            ok = False
    i += 1
if sys.argv[4] in ("trt", "serve", "fo") and not panels:
    print("no panel of %s found" % sys.argv[4])
    ok = False
sys.exit(0 if ok else 1)
PY
		done
	done
fi
[ $fail -eq 0 ] && echo "dryrun_newer: all checks passed"
exit $fail
