#!/bin/sh
# Item: templates.  The wizard's first step names the template it starts
# from, with its one-line description, and offers every template (Enter);
# choosing vllm-lmcache-disagg loads it (u goes back).  `edit` on a path
# that does not exist offers the wizard.  After switching the aggregated
# template to prefill/decode, the written file no longer carries the
# template's header ("vLLM aggregated ... on every worker node"), while the
# comments whose values did not change stay; the same when saved with Ctrl-S.
. "$SRCDIR/tests/tui/lib.sh"

tui_start 80 24 "$SRT_TUI" new n.yaml
wait_for "[ Template: vllm-lmcache-agg ]"
wait_for "vLLM aggregated with LMCache MP"
keys Enter
wait_for "Start from a template"
wait_for "> vllm-lmcache-agg"
for t in $("$SRT_TUI" new --list-templates | awk '{print $1}'); do
	wait_for " $t" 2
done
keys Down Enter
wait_for "[ Template: vllm-lmcache-disagg ]"
wait_for "vLLM prefill/decode with LMCache on prefill"
keys u
wait_for "[ Template: vllm-lmcache-agg ]"
T kill-server

# edit on a missing path
tui_start 80 24 "$SRT_TUI" edit m.yaml
wait_for "'m.yaml' does not exist."
wait_for "(srt-tui new m.yaml)? [Y/n]"
keys y Enter
wait_for "[ Template: vllm-lmcache-agg ]"
# to prefill/decode, then write
keys ']' ']'
wait_for "[ Layout: aggregated ]"
keys Enter
wait_for "> aggregated"
keys Down Enter
wait_for "[ Layout: prefill/decode ]"
keys ']' ']' ']' ']' ']'
wait_for "[ Write the recipe ]"
keys Down Enter
wait_for "wrote m.yaml"
grep -q "aggregated" "$TMPD/m.yaml" && fail "the template's header still says aggregated: $(head -3 "$TMPD/m.yaml")"
head -1 "$TMPD/m.yaml" | grep -q "^# Started from the srt-tui template vllm-lmcache-agg" ||
	fail "no line names the template: $(head -1 "$TMPD/m.yaml")"
grep -q "^# Chunk hashes must agree" "$TMPD/m.yaml" || fail "a comment that still holds was dropped"
grep -q "^  prefill:" "$TMPD/m.yaml" || fail "not prefill/decode"
keys q
wait_exit

# the same through Ctrl-S, not the Write step
tui_start 80 24 "$SRT_TUI" new s.yaml
wait_for "[ Template: vllm-lmcache-agg ]"
keys ']' ']'
wait_for "[ Layout: aggregated ]"
keys Enter
wait_for "> aggregated"
keys Down Enter
wait_for "[ Layout: prefill/decode ]"
keys C-s
wait_for "saved 's.yaml'"
grep -q "aggregated" "$TMPD/s.yaml" && fail "Ctrl-S kept the template's header: $(head -3 "$TMPD/s.yaml")"
grep -q "^# Chunk hashes must agree" "$TMPD/s.yaml" || fail "Ctrl-S dropped a comment that still holds"
keys q
wait_exit
echo ok
