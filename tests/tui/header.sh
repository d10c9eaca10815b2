#!/bin/sh
# Item: the header at 80 columns.  A long path gives up its folder part
# first ("…/and/ever/"), never the file name nor [modified]; the selected
# variant's name is shown whole (it was cut to "variant: ove"); the problem
# counts shorten ("0E 0W") before any of that.  When even then it does not
# fit, the variant name is cut last, after the folder and the program name.
. "$SRCDIR/tests/tui/lib.sh"
d="$TMPD/very/long/folder/names/that/go/on/and/on/for/ever/and/ever"
mkdir -p "$d"
cat >"$d/override-recipe-name.yaml" <<'YAML'
schema: 2
base:
  name: "hdr"
  model: {path: "qwen3-0.6b", container: "vllm-image", precision: "bf16"}
  resources: {gpu_type: "h100", gpus_per_node: 8}
  engine: {type: vllm}
  roles:
    agg: {nodes: 1, workers: 2, gpus: 1}
override_longer_variant_name:
  roles:
    agg: {workers: 1}
YAML
tui_start 80 24 "$SRT_TUI" edit "$d/override-recipe-name.yaml"
wait_for "[Variants]"
h=$(screen | head -1)
case $h in
*"/override-recipe-name.yaml  variant: override_longer_variant_name"*) ;;
*) fail "the header cut the name or the variant: '$h'" ;;
esac
case $h in *"$d"*) fail "the whole folder fits in 80 columns? '$h'" ;; esac
keys ']'
wait_for "[Fields]"
set_field override_longer_variant_name.roles.agg.workers 3
wait_for "[modified]"
h=$(screen | head -1)
case $h in
*"override-recipe-name.yaml  [modified]  variant: override_longer_va"*) ;; # cut last, and little
*) fail "the header lost the name, the state or the variant: '$h'" ;;
esac
echo ok
