#!/bin/sh
# The wizard at 80x24, as a user on a login node meets it:
# - the key bar shows every key, [ ] Screen included;
# - an explanation longer than the line wraps (the connector's port);
# - Nodes (a number or "colocate") can still be typed as a number;
# - F1 help wraps its long sentences;
# - F5 right after the Write step submits (it used to say "save first");
# - a `new` without a FILE that is hung up offers its edits on the next `new`.
. "$SRCDIR/tests/tui/lib.sh"
mkdir -p "$TMPD/bin"
cat >"$TMPD/bin/srtctl" <<STUB
#!/bin/sh
echo "\$@" >"$TMPD/srtctl-args"
echo "submitted job 77"
STUB
chmod +x "$TMPD/bin/srtctl"
P="$TMPD/bin:/usr/bin:/bin"

tui_start 80 24 env PATH="$P" "$SRT_TUI" new w.yaml
wait_for "[Basics]"
wait_for "? Help ^S Save q Quit / Find u Undo ^Y Redo ! Submit Tab Pane [ ] Screen"

keys ]
wait_for "[Engine]"
# the preset's explanation wraps instead of stopping at "(port"
wait_for "Implies an lmcache-server service."

keys ]
wait_for "[Topology]"
find_field agg.nodes
keys Enter
wait_for "(type another value)"
keys Down
keys Enter
wait_for "Enter: accept"
keys C-u
text 2
keys Enter
wait_gone "Enter: accept"
screen | grep -q "^  Nodes  *2 *$" || fail "nodes was not set to 2"
wait_for "on 2 nodes of 8"

# F1: the help's long sentence ends on screen
keys F1
wait_for "Esc or q: close"
wait_for "the two must fit together."
keys Escape
wait_gone "Esc or q: close"

# Write, then F5 at once: the file is saved, so it submits
keys ] ] ] ] ]
wait_for "[Write]"
wait_for "[ Write the recipe ]"
keys Down
keys Enter
wait_for "wrote w.yaml"
keys F5
wait_for "srtctl apply -f w.yaml"
screen | grep -qF "save the recipe first" && fail "submit refused a file just written"
keys y
wait_for "submitted job 77"
keys Escape
wait_gone "submitted job 77"
[ "$(cat "$TMPD/srtctl-args")" = "apply -f w.yaml" ] || fail "srtctl got: $(cat "$TMPD/srtctl-args")"
keys q
wait_exit

# A path-less `new` hung up with edits: the next `new` here offers them.
tui_start 80 24 "$SRT_TUI" new
wait_for "[Basics]"
keys Down Enter # past the template, to the job name
wait_for "Enter: accept"
keys C-u
text rescued-job
keys Enter
wait_for "[modified]"
sh_pid=$(T list-panes -t t -F '#{pane_pid}')
kill -HUP "$(pgrep -P "$sh_pid" | head -n 1)"
wait_exit
ls "$TMPD"/.srt-tui-new.yaml.srt-tui-recover-* >/dev/null 2>&1 || fail "no rescue file for a path-less new"
tui_start 80 24 "$SRT_TUI" new
wait_for "Restore unsaved edits?"
keys y
wait_for "rescued-job"
keys q
wait_for "Unsaved changes"
keys d
wait_exit
echo ok
