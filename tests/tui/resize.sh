#!/bin/sh
# Resizing: 120x40 (panels beside the form) -> 80x24 (panels as tabs) ->
# 50x12 (a message, the program waits; keys other than the quit keys do
# nothing there, see min_size.sh) -> back; then 1x1 and back.  The program
# never exits on its own and the screen is whole again afterwards.
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"
tui_start 120 40 "$SRT_TUI" edit r.yaml
wait_for "Problems: 0 E, 0 W"
wait_for "[Services]"

resize 80 24
wait_for "[Form]  Problems 0E 0W"
screen | grep -qF "Problems: 0 E, 0 W" && fail "the wide layout stayed at 80x24"
# every key of the bar fits at 80 columns, the step keys included
wait_for "? Help ^S Save q Quit / Find u Undo ^Y Redo ! Submit Tab Pane [ ] Screen"

resize 50 12
wait_for "Terminal too small (50x12)."
wait_for "srt-tui needs at least 60x16"
keys Down Down d Tab
sleep 0.2
screen | grep -qF "[exited" && fail "exited below the minimum size"

resize 120 40
wait_for "Problems: 0 E, 0 W"
wait_gone "Terminal too small"

resize 1 1
sleep 0.3
resize 1 1
keys Down Up
sleep 0.2
resize 100 30
wait_for "F1/? Help"
wait_for "[Form]  Problems 0E 0W"
screen | grep -qF "[exited" && fail "exited at 1x1"
screen | grep -qF "srt-tui  r.yaml" || fail "no title after 1x1"

# A question hidden by the "too small" message takes no answer: 'd' in the
# quit prompt used to discard the edits and quit while the user saw nothing.
set_field agg.workers 3
wait_for "[modified]"
keys q
wait_for "Unsaved changes"
resize 50 12
wait_for "Terminal too small (50x12)."
keys d
sleep 0.3 # nothing to poll for: the key must do nothing
resize 100 30
wait_for "Unsaved changes"
screen | grep -qF "[exited" && fail "a hidden question was answered"
keys d
wait_exit
[ "$(exit_status)" = 0 ] || fail "exit status $(exit_status)"
cmp -s "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml" || fail "discard wrote the file"
echo ok
