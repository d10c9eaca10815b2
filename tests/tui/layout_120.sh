#!/bin/sh
# Item: layout at 120x40.  The form keeps 80 columns (it had 60, less than
# at 80x24): the wizard's eight steps all show in the step bar, the GPU line
# of the Topology step fits on one row, and the side panels take the rest.
# At 200x60 the halves are wider than 80 and stay halves.
. "$SRCDIR/tests/tui/lib.sh"
tui_start 120 40 "$SRT_TUI" new n.yaml
wait_for "[ Template: vllm-lmcache-agg ]"
screen | sed -n 2p | grep -q "\[Basics\]  Engine   Topology   Connectors   Services   Frontend   Review   Write " ||
	fail "the step bar is cut: $(screen | sed -n 2p)"
keys ']' ']'
wait_for "[Topology]"
wait_for "~ 2 workers × 1 GPU on 1 node of 8 — 2 of 8 GPUs used, 6 idle "
# the side panels start right of the form's 80 columns; their preview tabs
# scroll so the active one (Plan, the last) shows
keys Tab Tab
i=0
while ! screen | grep -qF "[Plan]" && [ $i -lt 10 ]; do
	keys Right
	sleep 0.1
	i=$((i + 1))
done
wait_for "[Plan]"
keys Tab
col=$(screen | sed -n 2p | awk '{ print index($0, "┌") }')
[ "$col" -ge 81 ] || fail "the side panel starts at column $col"
resize 200 60
wait_for "┌─ Problems"
# the box was there at 120 columns too: poll until the redraw at 200 is in
i=0
while :; do
	col=$(screen | sed -n 2p | awk '{ print index($0, "┌") }')
	[ "$col" -ge 100 ] && break
	i=$((i + 1))
	[ $i -gt 100 ] && fail "at 200 columns the side panel starts at column $col"
	sleep 0.05
done
echo ok
