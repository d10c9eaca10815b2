#!/bin/sh
# Item: copy a command over SSH.  In the Plan (and Workers) tab a step
# cursor marks the focused step's command (">" before it, in the focus
# colour: reverse in the mono theme); Up and Down move it a step at a time,
# and c puts that command on the clipboard through the terminal (OSC 52:
# tmux with set-clipboard on keeps it as a paste buffer) and prints it on one
# plain-terminal line, so selecting it gives the whole command.  (c used to
# copy the first step in view, hard to aim at by scrolling lines.)  The
# expected commands are the plan's own `$` lines (srt-tui render --format
# plan), 80x24.
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"
"$SRT_TUI" render "$TMPD/r.yaml" --format plan | sed -n 's/^ *\$ //p' >"$TMPD/cmds"
[ -s "$TMPD/cmds" ] || fail "the plan has no commands"
AWK="$SRCDIR/tests/tui/attrs.awk"
tui_start 80 24 "$SRT_TUI" edit --theme mono r.yaml
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
# Down twice: the third step is the focused one, marked, and in view
cmd=$(sed -n 3p "$TMPD/cmds")
keys Down Down
marked() { # the text of the row drawn with ">" in column 0, and whether it is reverse
	T capture-pane -p -e -t t | awk -f "$AWK" | awk -F '\t' '$1 >= 4 && $1 <= 22 && substr($2, 1, 1) == ">" { print $1 "\t" $3; exit }'
}
i=0
while [ $i -lt 100 ]; do
	m=$(marked)
	row=${m%%	*}
	if [ -n "$m" ]; then
		first=$(screen | sed -n "${row}p" | sed 's/^> *\$ //')
		case $cmd in "$first"*) break ;; esac
	fi
	sleep 0.05
	i=$((i + 1))
done
[ $i -lt 100 ] || fail "the third step is not the marked one: '$(marked)'"
case ${m#*	} in *reverse*) ;; *) fail "the focused step is not in the focus colour: $m" ;; esac
# only one step is marked: no other command row starts with ">"
[ "$(screen | grep -c '^>')" = 1 ] || fail "more than one step is marked"
keys c
wait_for "(copied to the clipboard through the terminal, OSC 52"
got=$(T show-buffer 2>/dev/null)
[ "$got" = "$cmd" ] || fail "clipboard has '$got', not the third command '$cmd'"
T capture-pane -p -J -t t | grep -qxF -- "$cmd" || fail "the third command is not shown on one line"
keys Enter
wait_for "copied command 3 of the Plan tab"
# Up goes back a step; c copies the second
keys Up
cmd=$(sed -n 2p "$TMPD/cmds")
keys c
wait_for "(copied to the clipboard through the terminal, OSC 52"
got=$(T show-buffer 2>/dev/null)
[ "$got" = "$cmd" ] || fail "after Up, clipboard has '$got', not the second command '$cmd'"
keys Enter
wait_for "copied command 2 of the Plan tab"
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
