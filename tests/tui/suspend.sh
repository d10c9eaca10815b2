#!/bin/sh
# Ctrl-Z suspends like any terminal program and the shell's fg brings the
# editor back, redrawn; so do SIGTSTP from outside and SIGSTOP + SIGCONT.
# Undo is u or Ctrl-_ (Ctrl-Z was undo and could not suspend).  Runs in an
# interactive bash, which has job control.
. "$SRCDIR/tests/tui/lib.sh"
command -v bash >/dev/null 2>&1 || { echo "skip: bash is not installed"; exit 0; }
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"
cat >"$TMPD/rc" <<'RC'
PS1='PROMPT$ '
RC
tui_start 100 30 env SRT_TUI="$SRT_TUI" bash --noprofile --rcfile "$TMPD/rc" -i
wait_for 'PROMPT$'
text '"$SRT_TUI" edit r.yaml'
keys Enter
wait_for "no problems"
# pane: sh run.sh > bash > srt-tui
bash_pid=$(pgrep -n -P "$(T list-panes -t t -F '#{pane_pid}')")
pid=$(pgrep -n -x srt-tui -P "${bash_pid:-1}")
[ -n "$pid" ] || fail "cannot find srt-tui"
state() { ps -o stat= -p "$pid" | cut -c1; } # the process state letter
# Each resume is "clear; fg": the next suspend must print its own "Stopped",
# not leave the last one's on the shell's screen to be matched again.
resume() { text 'clear; fg'; keys Enter; wait_for "srt-tui  r.yaml"; }

set_field agg.workers 6
wait_for "[modified]"
keys C-z
wait_for "Stopped" 30
[ "$(state)" = T ] || fail "Ctrl-Z: srt-tui is not stopped (state $(state))"
screen | grep -q "srt-tui  r.yaml" && fail "Ctrl-Z left the editor on the screen"
# the edits were kept before stopping
ls "$TMPD"/.r.yaml.srt-tui-recover-* >/dev/null 2>&1 || fail "no recovery file written on suspend"
resume
wait_for "[modified]"
# Ctrl-_ undoes (and u)
keys C-_
wait_for "undone"
wait_gone "[modified]"

# SIGTSTP from outside: the same
kill -TSTP "$pid"
wait_for "Stopped" 30
[ "$(state)" = T ] || fail "SIGTSTP: srt-tui is not stopped"
resume

# SIGSTOP cannot be caught; SIGCONT (fg) redraws the whole screen, which
# "clear" has wiped.  No key may be pending when it stops: the shell would
# read it (a Ctrl-L there clears the "Stopped" line away).
kill -STOP "$pid"
wait_for "Stopped" 30
[ "$(state)" = T ] || fail "SIGSTOP: srt-tui is not stopped"
resume
wait_for "[Form]"
keys q
wait_for 'PROMPT$'
exit 0
