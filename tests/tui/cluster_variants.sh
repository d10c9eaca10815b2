#!/bin/sh
# The editor's override variants are sized with the cluster file's GPUs per
# node, as srtctl loads each job (resolve_config_with_defaults fills
# resources.gpus_per_node from srtslurm.yaml when the recipe has none).  The
# same override file is opened in two cluster folders found the real way
# (srtslurm.yaml in the directory srt-tui runs in): with the aliases fixture's
# 8 GPUs per node the 8-GPU variant fits; with 6 GPUs per node it needs two
# nodes and the problem names the variant and the cluster's 6.  Raising the
# variant to 16 GPUs in the 8-GPU folder brings the problem with 8, and undo
# takes it away again.
. "$SRCDIR/tests/tui/lib.sh"
unset SRTSLURM_CONFIG SRT_TUI_SRTCTL_DIR
mkdir "$TMPD/cl8" "$TMPD/cl6"
cp "$SRCDIR/tests/fixtures/cluster/aliases/srtslurm.yaml" "$TMPD/cl8/"
grep -q '^gpus_per_node: 8$' "$TMPD/cl8/srtslurm.yaml" || fail "the aliases fixture no longer has 8 GPUs per node"
sed 's/^gpus_per_node: 8$/gpus_per_node: 6/' "$TMPD/cl8/srtslurm.yaml" >"$TMPD/cl6/srtslurm.yaml"
# base: 4 GPUs (fits 6 and 8); override_wide: 8 GPUs on one node
cat >"$TMPD/o.yaml" <<'YAML'
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
YAML
cp "$TMPD/o.yaml" "$TMPD/cl8/o.yaml"
cp "$TMPD/o.yaml" "$TMPD/cl6/o.yaml"

# 6 GPUs per node: the variant's worker needs two nodes
tui_start 140 40 sh -c 'cd cl6 && exec "$0" edit o.yaml' "$SRT_TUI"
wait_for "Override file: 1 job"
wait_for "1 error"
wait_for "[override_wide] roles.agg: 1 worker x 8 GPUs"
wait_for "need 2 nodes of 6 GPUs; nodes is 1 [role-fit]"
screen | grep -qF "nodes of 4 GPUs" && fail "sized with the schema default, not the cluster's 6"
keys q
wait_exit
[ "$(exit_status)" = 0 ] || fail "exit status $(exit_status)"

# 8 GPUs per node: the same file has no problem
tui_start 140 40 sh -c 'cd cl8 && exec "$0" edit o.yaml' "$SRT_TUI"
wait_for "Override file: 1 job"
wait_for "no problems"
screen | grep -qF "need 2 nodes" && fail "a fit problem with the cluster's 8 GPUs per node"
# 16 GPUs in the variant: two nodes of the cluster's 8
find_field 'variant:override_wide'
keys Enter
wait_for "variant: override_wide"
find_field roles.agg.gpus
keys Enter
wait_for "Now set in: override_wide (override_wide.roles.agg.gpus)"
keys s
wait_for "Enter: accept"
keys C-u
text '16'
keys Enter
wait_for "1 error"
wait_for "[override_wide] roles.agg: 1 worker x 16 GPUs"
wait_for "need 2 nodes of 8 GPUs; nodes is 1 [role-fit]"
keys u
wait_for "no problems"
wait_gone "[modified]"
keys q
wait_exit
[ "$(exit_status)" = 0 ] || fail "exit status $(exit_status)"
cmp -s "$TMPD/o.yaml" "$TMPD/cl8/o.yaml" || fail "the file changed"
echo ok
