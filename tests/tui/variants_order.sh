#!/bin/sh
# Item: the Variants screen lists the variants in the file's order.  srtctl
# expands override_* sections sorted by name, then zip_override_* ones (its
# [N/M] job numbers keep that order), but the list follows the file:
# base, override_zeta, zip_override_ctx's two jobs, override_alpha.
. "$SRCDIR/tests/tui/lib.sh"
cat >"$TMPD/o.yaml" <<'YAML'
schema: 2
base:
  name: "ord"
  model: {path: "qwen3-0.6b", container: "vllm-image", precision: "bf16"}
  resources: {gpu_type: "h100", gpus_per_node: 8}
  engine: {type: vllm}
  roles:
    agg: {nodes: 1, workers: 2, gpus: 1}
override_zeta:
  roles:
    agg: {workers: 1}
zip_override_ctx:
  name: ["ord-2k", "ord-8k"]
  roles:
    agg:
      args:
        max-model-len: [2048, 8192]
override_alpha:
  roles:
    agg: {gpus: 2}
YAML
tui_start 80 24 "$SRT_TUI" edit o.yaml
wait_for "Override file: 4 jobs"
order=$(screen | grep -E '^ +\*? *\[(base|[0-9]+/[0-9]+)\]' | sed 's/^[ *]*\[[^]]*\] *//; s/ .*//' | tr '\n' ' ')
[ "$order" = "base override_zeta override_ctx_0 override_ctx_1 override_alpha " ] ||
	fail "variants listed as '$order', not in file order"
# srtctl's job numbers are kept: alpha is job 1 of 4
screen | grep -q '\[1/4\] override_alpha' || fail "override_alpha lost its job number"
echo ok
