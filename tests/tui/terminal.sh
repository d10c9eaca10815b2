#!/bin/sh
# Terminal robustness: TERM=dumb and an unknown TERM give a clear message and
# exit 2; a non-UTF-8 locale draws ASCII boxes; 10,000 keys sent as fast as
# possible leave the program running with a whole screen.
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"

out=$(TERM=dumb "$SRT_TUI" edit "$TMPD/r.yaml" 2>&1 </dev/null)
rc=$?
[ $rc = 2 ] || fail "TERM=dumb: exit $rc, want 2"
echo "$out" | grep -qF "the terminal 'dumb' cannot show the editor" || fail "TERM=dumb: message was: $out"

TUI_TERM=no-such-terminal-xyz tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "unknown terminal type 'no-such-terminal-xyz'"
wait_exit
[ "$(exit_status)" = 2 ] || fail "unknown TERM: exit status $(exit_status)"
T kill-server

TUI_LC_ALL=C tui_start 130 40 "$SRT_TUI" edit r.yaml
wait_for "+- Problems: 0 E, 0 W -"
screen | grep -q "$(printf '\342\224')" && fail "Unicode box drawing in the C locale"
keys q
wait_exit
T kill-server

tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "F1/? Help"
i=0
while [ $i -lt 100 ]; do
	# 100 keys per call: moves, panes, tabs, collapse/expand, screens
	keys Down Down Down Up Tab Right Left BTab PageDown PageUp \
	     Down j k Home End Tab Tab Tab Left Right \
	     BTab BTab BTab Down Up Down Right Left Down Up \
	     ] [ ] [ Down Down Up Up Tab BTab \
	     Down Down Down Up Tab Right Left BTab PageDown PageUp \
	     Down j k Home End Tab Tab Tab Left Right \
	     BTab BTab BTab Down Up Down Right Left Down Up \
	     ] [ ] [ Down Down Up Up Tab BTab \
	     Down Down Down Up Tab Right Left BTab PageDown PageUp \
	     Down j k Home End Tab Tab Tab Left Right
	i=$((i + 1))
done
# The help view opens only after every key before it was handled.
keys '?'
wait_for "Up/Down, PgUp/PgDn, Home/End" 30
keys Escape
wait_gone "Up/Down, PgUp/PgDn, Home/End"
screen | grep -qF "[exited" && fail "exited during the key storm"
screen | head -n 1 | grep -qF "srt-tui  r.yaml" || fail "title line lost"
# The screen is consistent: a full repaint changes nothing.
sleep 0.3
screen >"$TMPD/a"
keys C-l
sleep 0.3
screen >"$TMPD/b"
cmp -s "$TMPD/a" "$TMPD/b" || fail "the screen changed on repaint"
keys q
wait_exit 20
[ "$(exit_status)" = 0 ] || fail "exit status $(exit_status) (the storm must not edit anything)"
cmp -s "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml" || fail "the file changed"
echo ok
