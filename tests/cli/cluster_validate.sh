#!/bin/sh
# validate sizes nodes with the cluster's gpus_per_node, as srtctl loads the
# recipe (resolve_config_with_defaults fills resources.gpus_per_node from
# srtslurm.yaml when the recipe's resources block has none): run from inside
# tests/fixtures/cluster/aliases (gpus_per_node: 8) a role of 8-GPU workers
# on one node fits; run where no cluster file is found, the schema default
# of 4 GPUs per node makes it need 2 nodes.  The same for every variant of
# an override file.
set -u
fail=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
. "$SRCDIR/tests/cli/lib.sh"
unset SRTSLURM_CONFIG SRT_TUI_SRTCTL_DIR
A=$(cd "$SRCDIR/tests/fixtures/cluster/aliases" && pwd -P)
mkdir -p "$T/nocluster"

cat >"$T/r.yaml" <<'EOF'
schema: 2
name: "fit"
model:
  path: "/lustre/models/Qwen3-0.6B"
  container: "/lustre/containers/vllm.sqsh"
  precision: "bf16"
resources:
  gpu_type: "h100"
engine: vllm
roles:
  agg:
    nodes: 1
    workers: 1
    gpus: 8
EOF
cat >"$T/o.yaml" <<'EOF'
base:
  schema: 2
  name: "fit"
  model:
    path: "/lustre/models/Qwen3-0.6B"
    container: "/lustre/containers/vllm.sqsh"
    precision: "bf16"
  resources:
    gpu_type: "h100"
  engine: vllm
  roles:
    agg:
      nodes: 1
      workers: 1
      gpus: 4
override_wide:
  roles:
    agg:
      gpus: 8
EOF
fit="roles.agg: 1 worker x 8 GPUs need 2 nodes of 4 GPUs; nodes is 1"

for bin in "$SRT_TUI" "$SRT_TUI_SAN"; do
	tag=${bin##*/}
	# inside the cluster folder: 8 GPUs per node, the worker fits
	(cd "$A" && "$bin" validate "$T/r.yaml") >"$T/out" 2>&1; rc=$?
	[ $rc -eq 0 ] || { echo "FAIL $tag: plain recipe in the cluster folder: exit $rc"; cat "$T/out"; fail=1; }
	grep -q 'role-fit\|need 2 nodes' "$T/out" && { echo "FAIL $tag: fit error with the cluster's 8 GPUs"; fail=1; }
	# no cluster file: the default 4 GPUs per node, the fit error
	(cd "$T/nocluster" && "$bin" validate "$T/r.yaml") >"$T/out" 2>&1; rc=$?
	[ $rc -eq 1 ] || { echo "FAIL $tag: plain recipe without a cluster: exit $rc"; fail=1; }
	grep -q "$fit" "$T/out" || { echo "FAIL $tag: no fit error without the cluster"; cat "$T/out"; fail=1; }
	# the override variant: the same rule, per variant
	(cd "$A" && "$bin" validate "$T/o.yaml") >"$T/out" 2>&1; rc=$?
	[ $rc -eq 0 ] || { echo "FAIL $tag: override in the cluster folder: exit $rc"; cat "$T/out"; fail=1; }
	(cd "$T/nocluster" && "$bin" validate "$T/o.yaml") >"$T/out" 2>&1; rc=$?
	[ $rc -eq 1 ] || { echo "FAIL $tag: override without a cluster: exit $rc"; fail=1; }
	grep -q "\[override_wide\] $fit" "$T/out" || { echo "FAIL $tag: the variant's fit error"; cat "$T/out"; fail=1; }
	# the recipe's own gpus_per_node wins over the cluster's (srtctl fills it only when absent)
	sed 's/^  gpu_type: "h100"$/  gpu_type: "h100"\n  gpus_per_node: 4/' "$T/r.yaml" >"$T/r4.yaml"
	(cd "$A" && "$bin" validate "$T/r4.yaml") >"$T/out" 2>&1
	grep -q "$fit" "$T/out" || { echo "FAIL $tag: recipe gpus_per_node 4 in the cluster folder"; cat "$T/out"; fail=1; }
done
[ $fail -eq 0 ] && echo "cluster_validate: all checks passed"
exit $fail
