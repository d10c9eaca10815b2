#!/bin/sh
# The Execution Extensions table of the dry-run for profiling, the
# automatic nsys capture, the Dynamo worker-selection policy and the Mooncake
# store: each expected row is derived by hand from srtctl's
# show_config_details (the rule is beside it).  Rows are "Area Setting
# Value", read from the Rich table the dry-run prints (docs/decisions.md).
set -u
fail=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
. "$SRCDIR/tests/cli/lib.sh"
unset SRTSLURM_CONFIG SRT_TUI_SRTCTL_DIR SRTCTL_NSYS_BIN INFMAX_WORKSPACE
export SOURCE_DATE_EPOCH=0 COLUMNS=400

base() {
	cat <<EOF
schema: 2
name: "prof"
model:
  path: "/models/qwen"
  container: "/containers/sglang.sqsh"
  precision: "bf16"
engine: $1
resources:
  gpus_per_node: 4
roles:
  prefill:
    nodes: 1
    workers: 1
  decode:
    nodes: 1
    workers: 1
EOF
}
# the rows (area setting value, one space apart) of Execution Extensions;
# the tachometer rows (observability.tachometer is on by default) follow the
# profiling and nsys ones, so each check keeps its own area
# (the table is Rich's, in its panel: at COLUMNS=400 no cell wraps, so each
# row is one line; the layout itself is checked in rich_crosscheck.sh)
rows() {
	rich_rows "$1" "Execution Extensions"
}

for bin in "$SRT_TUI" "$SRT_TUI_SAN"; do
	tag=${bin##*/}

	# --- nsys with a selected prefill worker and a default decode phase -------
	{ base sglang; cat <<'EOF'
profiling:
  type: nsys
  trace_fork_before_exec: false
  nsys_library_paths: ["/usr/lib64", "/opt/cuda/lib"]
  prefill:
    start_step: 10
    stop_step: 20
    capture_scope: selected
    worker_index: 1
    worker_rank: 2
  decode:
    start_step: 10
    stop_step: 20
EOF
	} >"$T/nsys.yaml"
	(cd "$T" && "$bin" render nsys.yaml) >"$T/out" 2>"$T/err"
	{
		echo 'profiling type nsys'                                # profiling.enabled: type != none
		echo 'profiling nsys_trace cuda,nvtx'                     # is_nsys: nsys_trace, default "cuda,nvtx"
		echo 'profiling capture_range_end stop'                   # default "stop"
		echo 'profiling trace_fork_before_exec false'             # str(False).lower()
		echo 'profiling nsys_library_paths /usr/lib64:/opt/cuda/lib' # ":".join(nsys_library_paths)
		echo 'profiling prefill target worker 1, rank 2'          # capture_scope selected: worker_index, worker_rank
		echo 'profiling decode target all physical processes'     # capture_scope default "all"
	} >"$T/want"                                                      # (no aggregated phase: no row)
	rows "$T/out" | grep '^profiling' >"$T/got"
	check "$tag nsys rows" "$T/want" "$T/got"
	# srtctl's order: benchmark, profiling, observability nsys, tachometer, telemetry
	[ "$(rows "$T/out" | sed -n 1p)" = 'profiling type nsys' ] || { echo "FAIL $tag: profiling rows first"; fail=1; }

	# --- nsys-time: no per-phase targets; fork tracing left to dynamo ---------
	{ base sglang; printf 'profiling:\n  type: nsys-time\n  delay_secs: 30\n  duration_secs: 60\n  prefill: {}\n'; } >"$T/time.yaml"
	(cd "$T" && "$bin" render time.yaml) >"$T/out" 2>&1
	{
		echo 'profiling type nsys-time'
		echo 'profiling nsys_trace cuda,nvtx'
		echo 'profiling capture_range_end stop'
		echo 'profiling trace_fork_before_exec dynamo default'    # None: "dynamo default"
	} >"$T/want"                                                      # is_nsys_time: no "<mode> target"
	rows "$T/out" | grep '^profiling' >"$T/got"
	check "$tag nsys-time rows" "$T/want" "$T/got"

	# --- torch: the type only ---------------------------------------------------
	{ base sglang; printf 'profiling:\n  type: torch\n  prefill: {start_step: 1, stop_step: 3}\n'; } >"$T/torch.yaml"
	(cd "$T" && "$bin" render torch.yaml) >"$T/out" 2>&1
	echo 'profiling type torch' >"$T/want"                            # not is_nsys: nothing else
	rows "$T/out" | grep '^profiling' >"$T/got"
	check "$tag torch rows" "$T/want" "$T/got"

	# --- observability on: the automatic nsys capture -------------------------
	{ base trtllm; printf 'observability:\n  enabled: true\n  nsys:\n    cpu_sampling: none\n    nvtx_injection_path: /opt/nvtx/libinj.so\n'; } >"$T/obs.yaml"
	(cd "$T" && SRTCTL_NSYS_BIN=/opt/nsys/bin/nsys "$bin" render obs.yaml) >"$T/out" 2>&1
	{
		echo 'observability nsys enabled'                         # observability.enabled and nsys.enabled, no profiling
		echo 'observability nsys targets all worker processes/ranks + Dynamo frontends' # frontend dynamo (default)
		echo 'observability nsys binary /opt/nsys/bin/nsys'       # $SRTCTL_NSYS_BIN, else "nsys"
		echo 'observability nsys trace NVTX (no CUDA tracing)'
		echo 'observability nsys capture_window measured_workload' # default
		echo 'observability nsys capture after warmup until workload completes (client start/stop hooks)'
		echo 'observability SRT_NSYS_CONTROL_SCRIPT /srtctl-runtime/nsys_window.py' # measured_workload only
		echo 'observability SRT_NSYS_CONTROL_DIR /logs/profiles/.control'
		echo 'observability nsys CPU sampling disabled'           # cpu_sampling none
		echo 'observability nsys report timeout 1800s'            # report_timeout_secs default 1800
		echo 'observability nsys reports <log_dir>/profiles/{prefill,decode,agg,frontend}/'
		echo 'observability nsys env DYN_ENABLE_RUST_NVTX=1; DYN_NVTX=1'
		echo 'observability nsys TRT-LLM env TLLM_PROFILE_LOG_RANKS=all; TLLM_LLMAPI_ENABLE_NVTX=1' # backend trtllm
		echo 'observability NVTX_INJECTION64_PATH /opt/nvtx/libinj.so'
	} >"$T/want"
	rows "$T/out" | grep '^observability nsys\|^observability SRT_\|^observability NVTX' >"$T/got"
	check "$tag observability nsys rows" "$T/want" "$T/got"

	# --- explicit profiling supersedes it; process launch window --------------
	{ base sglang; printf 'observability:\n  enabled: true\nprofiling:\n  type: torch\n'; } >"$T/sup.yaml"
	(cd "$T" && "$bin" render sup.yaml) >"$T/out" 2>&1
	rows "$T/out" | grep -qx 'observability nsys superseded by profiling' || { echo "FAIL $tag: superseded"; rows "$T/out"; fail=1; }
	{ base sglang; printf 'observability:\n  enabled: true\n  nsys:\n    capture_window: process\n'; } >"$T/proc.yaml"
	(cd "$T" && "$bin" render proc.yaml) >"$T/out" 2>&1
	rows "$T/out" >"$T/got"
	grep -qx 'observability nsys capture process launch until teardown' "$T/got" || { echo "FAIL $tag: process window"; cat "$T/got"; fail=1; }
	grep -q 'SRT_NSYS_CONTROL' "$T/got" && { echo "FAIL $tag: control script outside measured_workload"; fail=1; }
	grep -qx 'observability nsys SGLang env SGLANG_ENABLE_NVTX_SCHEDULER=1' "$T/got" || { echo "FAIL $tag: sglang env row"; fail=1; }
	{ base sglang; printf 'observability:\n  enabled: true\n  nsys:\n    enabled: false\n'; } >"$T/off.yaml"
	(cd "$T" && "$bin" render off.yaml) >"$T/out" 2>&1
	rows "$T/out" | grep '^observability nsys' >"$T/got"
	echo 'observability nsys disabled' >"$T/want"                     # nsys.enabled false, no profiling
	check "$tag nsys disabled" "$T/want" "$T/got"
	# --- frontend.worker_selection and a vLLM Mooncake store ------------------
	{ base vllm | sed '/^engine:/d'; cat <<'EOF'
engine:
  type: vllm
  mooncake_kv_store:
    container: "/containers/mooncake.sqsh"
    master_extra_args: ["--eviction_ratio", "0.1", "--label=a b"]
    device_names_by_gpu: ["mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"]
    store_config:
      metadata_server: "P2PHANDSHAKE"
      global_segment_size: "100GB"
      port: 50
frontend:
  worker_selection:
    policy: kv
    weights: {overlap: 1.0, load: 0.5}
    tiers: [a, b]
EOF
	} >"$T/mc.yaml"
	(cd "$T" && "$bin" render mc.yaml) >"$T/out" 2>&1
	# the table as printed, its cells read back from Rich's box and set out in
	# columns of 14 and 20: a multi-line value keeps its lines in the value
	# column (Rich lays a cell's lines out under each other)
	awk -F'│' '
		index($0, "Execution Extensions") { on = 1; next }
		on && index($0, "╰") == 1 { exit }
		on && NF >= 6 {
			c1 = $3; sub(/ +$/, "", c1)
			c2 = $4; sub(/^ /, "", c2); sub(/ +$/, "", c2)
			c3 = $5; sub(/^ /, "", c3); sub(/ +$/, "", c3)
			if (c1 == "frontend" || c1 == "mooncake") keep = 1
			else if (c1 != "") keep = 0
			if (keep) printf "%-14s %-20s %s\n", c1, c2, c3
		}' "$T/out" >"$T/got"
	{
		# worker_selection is not None: the policy file srtctl writes, "(auto)"
		echo 'frontend       router_policy_config /logs/router_policy_config.yaml (auto)'
		# yaml.safe_dump(worker_selection, sort_keys=False).rstrip(): the
		# recipe's key order, block style, a list not indented under its key,
		# floats as repr
		echo 'frontend       worker_selection     policy: kv'
		echo '                                    weights:'
		echo '                                      overlap: 1.0'
		echo '                                      load: 0.5'
		echo '                                    tiers:'
		echo '                                    - a'
		echo '                                    - b'
		# mooncake_kv_store set: container or "<job container>"
		echo 'mooncake       container            /containers/mooncake.sqsh'
		# vLLM config with device_names_by_gpu: str(list), then the per-process JSON path
		echo "mooncake       device_names_by_gpu  ['mlx5_0', 'mlx5_1', 'mlx5_2', 'mlx5_3']"
		echo 'mooncake       process config       /logs/mooncake_store_config_gpu<physical-ids>.json'
		# MOONCAKE_MASTER_PORT (8700) "(auto)"
		echo 'mooncake       master_port          8700 (auto)'
		# master_extra_args non-empty: shlex.join
		echo "mooncake       master_extra_args    --eviction_ratio 0.1 '--label=a b'"
		# backend vLLM: json.dumps(build_mooncake_store_config("<infra_ip>"), indent=2):
		# store_config in order, master_server_address forced last
		echo 'mooncake       store_config         {'
		echo '                                      "metadata_server": "P2PHANDSHAKE",'
		echo '                                      "global_segment_size": "100GB",'
		echo '                                      "port": 50,'
		echo '                                      "master_server_address": "<infra_ip>:8700"'
		echo '                                    }'
		echo 'mooncake       MOONCAKE_CONFIG_PATH /logs/mooncake_store_config.json (auto)'
	} >"$T/want"
	check "$tag worker_selection and mooncake rows" "$T/want" "$T/got"
	# SGLang's Mooncake store: no device map, no store JSON (vLLM only); an
	# empty worker_selection mapping is still "not None" and dumps as {}
	{ base sglang | sed '/^engine:/d'; printf 'engine:\n  type: sglang\n  mooncake_kv_store: {}\nfrontend:\n  worker_selection: {}\n'; } >"$T/mcs.yaml"
	(cd "$T" && "$bin" render mcs.yaml) >"$T/out" 2>&1
	rows "$T/out" | grep '^frontend\|^mooncake' >"$T/got"
	{
		echo 'frontend router_policy_config /logs/router_policy_config.yaml (auto)'
		echo 'frontend worker_selection {}'
		echo 'mooncake container <job container>'                 # container unset
		echo 'mooncake master_port 8700 (auto)'                   # no master_extra_args: no row
	} >"$T/want"
	check "$tag sglang mooncake rows" "$T/want" "$T/got"

	# json carries the same rows
	(cd "$T" && "$bin" render --format json nsys.yaml) >"$T/j" 2>&1
	if command -v python3 >/dev/null 2>&1; then
		python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["extensions"]; assert {"area":"profiling","setting":"prefill target","value":"worker 1, rank 2"} in e, e' "$T/j" ||
			{ echo "FAIL $tag: json extensions"; fail=1; }
	fi
done
[ $fail -eq 0 ] && echo "dryrun_extensions: all checks passed"
exit $fail
