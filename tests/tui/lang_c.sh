#!/bin/sh
# Item: LANG=C.  A terminal that is not UTF-8 cannot show × or —; they are
# drawn as "x" and "--" (as the box drawing falls back to + - |), never as
# '?', and lines still fit (the fallback's width is counted).
. "$SRCDIR/tests/tui/lib.sh"
TUI_LC_ALL=C
export TUI_LC_ALL
tui_start 80 24 env LANG=C "$SRT_TUI" new n.yaml
wait_for "[Basics]"
keys ']' ']'
wait_for "[Topology]"
wait_for "~ 2 workers x 1 GPU on 1 node of 8 -- 2 of 8 GPUs used, 6 idle"
screen | sed '$d' | grep -q '?' && fail "a character was drawn as '?'"
# the wide layout: boxes in ASCII, the Plan's node line with "--"
resize 120 40
wait_for "+- Problems"
keys Tab Tab
wait_for "+-[Services]"
i=0
while ! screen | grep -qF "[Plan]" && [ $i -lt 10 ]; do
	keys Right
	sleep 0.1
	i=$((i + 1))
done
wait_for "[Plan]"
wait_for "node-01 -- head"
screen | sed '$d' | grep -q '?' && fail "a character was drawn as '?' in the wide layout"
echo ok
