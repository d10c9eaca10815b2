#!/bin/sh
# The editor in a cluster folder (a copy of tests/fixtures/cluster/aliases,
# found as srtctl finds srtslurm.yaml: in the directory it runs in): the
# header names the cluster file; unset fields show the cluster's value with
# its source; the Sbatch tab shows the cluster's default partition; Enter on
# model.container offers the cluster's aliases with the path each resolves
# to, and picking one writes the alias; Mounts and Env list the cluster's.
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/cluster/aliases/srtslurm.yaml" "$SRCDIR/tests/fixtures/cluster/aliases/recipe.yaml" "$TMPD/"
unset SRTSLURM_CONFIG SRT_TUI_SRTCTL_DIR SLURM_PARTITION

tui_start 100 30 "$SRT_TUI" edit recipe.yaml
wait_for "srtslurm.yaml  no problems"
# provenance: slurm.partition is not in the recipe
find_field slurm.partition
wait_for "(cluster: gpu-batch)"
wait_for "(cluster: llm-research)"

# the Sbatch tab (Tab cycles Form, Problems, then the previews)
keys Escape
i=0
while [ $i -lt 12 ] && ! screen | grep -qF "[Sbatch]"; do keys Tab; i=$((i + 1)); sleep 0.05; done
wait_for "[Sbatch]"
wait_for "#SBATCH --partition=gpu-batch"
keys Tab
wait_for "[Mounts]"
wait_for "/lustre/datasets"
keys Tab
wait_for "[Env]"
wait_for "model.container: vllm-lmcache  (cluster alias vllm-lmcache)"

# the alias picker on model.container
i=0
while [ $i -lt 12 ] && ! screen | grep -qF "[Form]"; do keys Tab; i=$((i + 1)); sleep 0.05; done
wait_for "[Form]"
find_field model.container
keys Enter
wait_for "an alias of srtslurm.yaml containers"
wait_for "vllm-lmcache    -> /lustre/containers/vllm-lmcache-0.3.sqsh"
wait_for "sglang-lmcache  -> /lustre/containers/sglang-lmcache.sqsh"
wait_for "(type another value"
keys Down Enter
wait_gone "an alias of srtslurm.yaml containers"
wait_for "[modified]"
keys C-s
wait_gone "[modified]"
grep -q '^  container: "sglang-lmcache"$' "$TMPD/recipe.yaml" || fail "the alias was not written: $(grep container "$TMPD/recipe.yaml")"

# free text stays allowed: the last entry opens the prompt
keys Enter
wait_for "an alias of srtslurm.yaml containers"
keys Down Down Down Down Enter
wait_for "Enter: accept"
keys C-u
text "/abs/custom.sqsh"
keys Enter
wait_for "[modified]"
keys C-s
wait_gone "[modified]"
grep -q 'container: "*/abs/custom.sqsh' "$TMPD/recipe.yaml" || fail "free text not written: $(grep container "$TMPD/recipe.yaml")"

# an alias the cluster lacks is srtctl's preflight error
keys Enter
wait_for "an alias of srtslurm.yaml containers"
keys Down Down Down Down Enter
wait_for "Enter: accept"
keys C-u
text "vllm-nightly"
keys Enter
wait_for "1 error"
wait_for "Container 'vllm-nightly' is not a local container path"
keys q
wait_for "d: discard them and quit"
keys d
wait_exit
grep -q 'vllm-nightly' "$TMPD/recipe.yaml" && fail "discarded edit was written"
echo "cluster: all checks passed"
