#!/bin/sh
# Below the minimum size the user can still leave: q, F10 and Ctrl-C quit at
# once when nothing is unsaved; with unsaved edits they are kept in the
# recovery file first (no question can be shown), and the exit says where.
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"
for k in q F10 C-c; do
	tui_start 100 30 "$SRT_TUI" edit r.yaml
	wait_for "no problems"
	resize 40 10
	wait_for "Terminal too small"
	keys "$k"
	wait_exit
	[ "$(exit_status)" = 0 ] || fail "$k below the minimum size: exit $(exit_status), want 0"
done
tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "no problems"
set_field agg.workers 8
wait_for "[modified]"
resize 50 12
wait_for "Terminal too small"
keys q
wait_exit
[ "$(exit_status)" = 1 ] || fail "q with edits below the minimum size: exit $(exit_status), want 1"
wait_for "unsaved edits kept in"
rec=$(ls "$TMPD"/.r.yaml.srt-tui-recover-* 2>/dev/null | head -n 1)
[ -n "$rec" ] || fail "no recovery file"
grep -q '^    workers: 8$' "$rec" || fail "the recovery file lacks the edit"
cmp -s "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml" || fail "the recipe changed"
echo ok
