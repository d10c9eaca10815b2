#!/bin/sh
# Enter on model.path in a cluster folder (a copy of tests/fixtures/cluster/
# aliases with a second model alias) offers srtslurm.yaml's model_paths
# aliases with the weights directory each resolves to; picking one writes
# the alias, the Mounts tab mounts the resolved path at /model, and free
# text (an absolute path) stays allowed.
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/cluster/aliases/recipe.yaml" "$TMPD/"
sed 's|^  qwen3-0.6b: "/lustre/models/Qwen3-0.6B"$|  qwen3-0.6b: "/lustre/models/Qwen3-0.6B"\n  llama-8b: "/lustre/models/Llama-3.1-8B"|' \
	"$SRCDIR/tests/fixtures/cluster/aliases/srtslurm.yaml" >"$TMPD/srtslurm.yaml"
grep -q 'llama-8b' "$TMPD/srtslurm.yaml" || fail "fixture copy lacks the second alias"
unset SRTSLURM_CONFIG SRT_TUI_SRTCTL_DIR SLURM_PARTITION

tui_start 100 30 "$SRT_TUI" edit recipe.yaml
wait_for "srtslurm.yaml  no problems"
find_field model.path
keys Enter
wait_for "model.path: an alias of srtslurm.yaml model_paths"
wait_for "qwen3-0.6b  -> /lustre/models/Qwen3-0.6B"
wait_for "llama-8b    -> /lustre/models/Llama-3.1-8B"
wait_for "(type another value"
keys Down Enter
wait_gone "an alias of srtslurm.yaml model_paths"
wait_for "[modified]"
keys C-s
wait_gone "[modified]"
grep -q '^  path: "llama-8b"$' "$TMPD/recipe.yaml" || fail "the alias was not written: $(grep '  path:' "$TMPD/recipe.yaml")"

# the Mounts tab: the alias resolved, mounted at /model
i=0
while [ $i -lt 12 ] && ! screen | grep -qF "[Mounts]"; do keys Tab; i=$((i + 1)); sleep 0.05; done
wait_for "[Mounts]"
wait_for "/lustre/models/Llama-3.1-8B"
i=0
while [ $i -lt 12 ] && ! screen | grep -qF "[Form]"; do keys Tab; i=$((i + 1)); sleep 0.05; done
wait_for "[Form]"

# free text: the last entry opens the prompt
find_field model.path
keys Enter
wait_for "an alias of srtslurm.yaml model_paths"
keys Down Down Enter
wait_for "Enter: accept"
keys C-u
text "/scratch/weights/mine"
keys Enter
wait_for "[modified]"
keys C-s
wait_gone "[modified]"
grep -q 'path: "*/scratch/weights/mine' "$TMPD/recipe.yaml" || fail "free text not written: $(grep '  path:' "$TMPD/recipe.yaml")"
keys q
wait_exit
echo "cluster_model_path: all checks passed"
