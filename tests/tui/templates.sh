#!/bin/sh
# Item: templates.  The wizard's first step names the template it starts
# from, with its one-line description, and offers every template (Enter);
# choosing vllm-lmcache-disagg loads it (u goes back).  `edit` on a path
# that does not exist offers the wizard.  After switching the aggregated
# template to prefill/decode, the written file no longer carries the
# template's header ("vLLM aggregated ... on every worker node"), while the
# comments whose values did not change stay; the same when saved with Ctrl-S.
# The YAML tab shows it before any save (the document changes as the
# layout does), and one u undoes both.
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

# The YAML tab shows the truth as the change happens, not only the saved
# file: after the switch, before any save, the template's header is gone
# from the document; one u undoes the switch and the header's removal
# together, Ctrl-Y redoes both.
tui_start 80 24 "$SRT_TUI" new y.yaml
wait_for "[ Template: vllm-lmcache-agg ]"
keys ']' ']'
wait_for "[ Layout: aggregated ]"
keys Enter
wait_for "> aggregated"
keys Down Enter
wait_for "[ Layout: prefill/decode ]"
i=0
while ! screen | sed -n 3p | grep -qF "[YAML]" && [ $i -lt 12 ]; do
	keys Tab
	sleep 0.1
	i=$((i + 1))
done
wait_for "# Started from the srt-tui template vllm-lmcache-agg"
screen | grep -qF "# vLLM aggregated" && fail "the YAML tab still shows the template's header"
[ -e "$TMPD/y.yaml" ] && fail "nothing was to be written yet"
keys u
wait_for "# vLLM aggregated with LMCache MP"
wait_gone "# Started from the srt-tui template"
keys C-y
wait_for "# Started from the srt-tui template vllm-lmcache-agg"
keys BTab
i=0
while ! screen | sed -n 3p | grep -qF "[Form]" && [ $i -lt 12 ]; do
	keys BTab
	sleep 0.1
	i=$((i + 1))
done
wait_for "[ Layout: prefill/decode ]"
keys q
wait_for "Save"
keys d
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
