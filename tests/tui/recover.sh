#!/bin/sh
# Never lose work: SIGHUP (and SIGTERM) with unsaved edits write
# .FILE.srt-tui-recover beside the recipe and leave the recipe untouched; the
# next `edit` offers to restore it; saving removes the recovery file.
. "$SRCDIR/tests/tui/lib.sh"
orig="$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml"
cp "$orig" "$TMPD/r.yaml"
rec="$TMPD/.r.yaml.srt-tui-recover"

edit_workers() { # value
	set_field agg.workers "$1"
	wait_for "[modified]"
}
tui_pid() { # the srt-tui process inside the pane (child of the pane's shell)
	sh_pid=$(T list-panes -t t -F '#{pane_pid}')
	pgrep -P "$sh_pid" | head -n 1
}

tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "no problems"
edit_workers 3
pid=$(tui_pid)
[ -n "$pid" ] || fail "cannot find the srt-tui process"
kill -HUP "$pid"
wait_exit
[ "$(exit_status)" = 1 ] || fail "SIGHUP: exit status $(exit_status), want 1"
wait_for "unsaved edits kept in '.r.yaml.srt-tui-recover'"
[ -f "$rec" ] || fail "no recovery file after SIGHUP"
cmp -s "$orig" "$TMPD/r.yaml" || fail "SIGHUP changed the recipe"
grep -q '^    workers: 3$' "$rec" || fail "the recovery file lacks the edit"

# Next session: offered; n keeps the file, opens the recipe as it is.
tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "Restore unsaved edits?"
wait_for "y: restore them   n: not now (keep the file)   d: delete them"
keys n
wait_gone "Restore unsaved edits?"
screen | grep -qF "[modified]" && fail "n restored the edits"
keys q
wait_exit
[ -f "$rec" ] || fail "n removed the recovery file"

# y restores them (as an edit: the recipe is modified), saving removes the file.
tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "Restore unsaved edits?"
keys y
wait_for "[modified]"
wait_for "restored the unsaved edits"
keys C-s
wait_for "saved 'r.yaml'"
[ -f "$rec" ] && fail "the recovery file outlived the save"
grep -q '^    workers: 3$' "$TMPD/r.yaml" || fail "the restored edit was not saved"
keys q
wait_exit

# SIGTERM: the same; d in the next session deletes the file.
tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "no problems"
edit_workers 5
kill -TERM "$(tui_pid)"
wait_exit
[ -f "$rec" ] || fail "no recovery file after SIGTERM"
tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "Restore unsaved edits?"
keys d
wait_gone "Restore unsaved edits?"
[ -f "$rec" ] && fail "d did not delete the recovery file"
keys q
wait_exit

# A crash (SIGSEGV) with unsaved edits: the text is rescued too.
tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "no problems"
edit_workers 7
kill -SEGV "$(tui_pid)"
wait_exit
[ -f "$rec" ] || fail "no recovery file after a crash"
grep -q '^    workers: 7$' "$rec" || fail "the crash recovery file lacks the edit"
rm -f "$rec"

# No unsaved edits: SIGHUP leaves nothing behind.
tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "no problems"
kill -HUP "$(tui_pid)"
wait_exit
[ -f "$rec" ] && fail "a recovery file without unsaved edits"
echo ok
