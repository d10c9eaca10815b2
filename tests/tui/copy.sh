#!/bin/sh
# Item: copy a command over SSH.  In the Plan (and Workers) tab, c puts the
# command of the step at the top of the view on the clipboard through the
# terminal (OSC 52: tmux with set-clipboard on keeps it as a paste buffer)
# and prints it on one plain-terminal line, so selecting it gives the whole
# command.  The expected commands are the plan's own `$` lines
# (srt-tui render --format plan), scrolled to the third step (80x24).
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"
"$SRT_TUI" render "$TMPD/r.yaml" --format plan | sed -n 's/^ *\$ //p' >"$TMPD/cmds"
[ -s "$TMPD/cmds" ] || fail "the plan has no commands"
tui_start 80 24 "$SRT_TUI" edit r.yaml
T set-option -s set-clipboard on
wait_for "[Fields]"
i=0
while ! screen | sed -n 3p | grep -qF "[Plan]" && [ $i -lt 12 ]; do
	keys Tab
	sleep 0.1
	i=$((i + 1))
done
wait_for "job: 1 node"
keys c
wait_for "(copied to the clipboard through the terminal, OSC 52"
cmd=$(sed -n 1p "$TMPD/cmds")
T capture-pane -p -J -t t | grep -qxF -- "$cmd" || fail "the first command is not shown on one line"
got=$(T show-buffer 2>/dev/null)
[ "$got" = "$cmd" ] || fail "clipboard has '$got', not '$cmd'"
keys Enter
wait_for "copied command 1 of the Plan tab"
# scroll until the first command on screen is the third step's
cmd=$(sed -n 3p "$TMPD/cmds")
n=0
while [ $n -lt 40 ]; do
	first=$(screen | sed -n '4,22p' | grep -m1 '^ *\$ ' | sed 's/^ *\$ //')
	case $cmd in "$first"*) break ;; esac
	keys Down
	sleep 0.05
	n=$((n + 1))
done
keys c
wait_for "(copied to the clipboard through the terminal, OSC 52"
got=$(T show-buffer 2>/dev/null)
[ "$got" = "$cmd" ] || fail "clipboard has '$got', not the third command '$cmd'"
T capture-pane -p -J -t t | grep -qxF -- "$cmd" || fail "the third command is not shown on one line"
keys Enter
wait_for "copied command 3 of the Plan tab"
# the Workers tab: its first worker command
i=0
while ! screen | sed -n 3p | grep -qF "[Workers]" && [ $i -lt 12 ]; do
	keys BTab
	sleep 0.1
	i=$((i + 1))
done
wait_for "[Workers]"
keys c
wait_for "(copied to the clipboard through the terminal, OSC 52"
got=$(T show-buffer 2>/dev/null)
case $got in
"python3 -m dynamo.vllm --model /model "*"--kv-transfer-config"*) ;;
*) fail "the Workers tab copied '$got'" ;;
esac
keys Enter
wait_for "copied command 1 of the Workers tab"
echo ok
