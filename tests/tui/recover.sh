#!/bin/sh
# Never lose work: every fatal signal that can be caught (HUP, TERM, QUIT,
# USR1, USR2, ALRM, XCPU, XFSZ) with unsaved edits writes this session's
# recovery file .r.yaml.srt-tui-recover-SESSION beside the recipe, leaves the
# recipe untouched and the terminal as it was (cooked, out of the alternate
# screen); a crash (SEGV) rescues the text too; the next `edit` offers each
# file; saving removes it.  Two sessions keep two files.  The idle autosave
# means a kill -9 loses at most a few seconds.
. "$SRCDIR/tests/tui/lib.sh"
orig="$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml"
cp "$orig" "$TMPD/r.yaml"
recs() { ls "$TMPD"/.r.yaml.srt-tui-recover-* 2>/dev/null; }
nrecs() { recs | grep -c . ; }

edit_workers() { # value
	set_field agg.workers "$1"
	wait_for "[modified]"
}
tui_pid() { # the srt-tui process inside the pane (never empty: kill "" is kill 0)
	sh_pid=$(T list-panes -t t -F '#{pane_pid}')
	[ -n "$sh_pid" ] || fail "no pane"
	for p in $(pgrep -P "$sh_pid"); do
		[ "$(ps -o comm= -p "$p")" = srt-tui ] && { echo "$p"; return; }
		c=$(pgrep -P "$p" | head -n 1)
		[ -n "$c" ] && [ "$(ps -o comm= -p "$c")" = srt-tui ] && { echo "$c"; return; }
	done
	echo 999999999
}
# start srt-tui edit r.yaml; after it ends the terminal settings go to stty.out
start_edit() {
	rm -f "$TMPD/stty.out"
	tui_start 100 30 sh -c '"$0" edit r.yaml; rc=$?; stty -a >stty.out; exit $rc' "$SRT_TUI"
	wait_for "no problems"
}

for sig in HUP TERM QUIT USR1 USR2 ALRM XCPU XFSZ; do
	rm -f "$TMPD"/.r.yaml.srt-tui-recover-*
	start_edit
	edit_workers 3
	pid=$(tui_pid)
	[ -n "$pid" ] || fail "cannot find the srt-tui process"
	kill -"$sig" "$pid"
	wait_exit
	[ "$(exit_status)" = 1 ] || fail "SIG$sig: exit status $(exit_status), want 1"
	wait_for "srt-tui: terminated; unsaved edits kept in './.r.yaml.srt-tui-recover-$pid-"
	screen | grep -q "no problems" && fail "SIG$sig: the editor's screen was left on the terminal"
	[ "$(nrecs)" = 1 ] || fail "SIG$sig: $(nrecs) recovery files, want 1"
	rec=$(recs)
	[ "$(stat -c %a "$rec")" = 600 ] || fail "SIG$sig: recovery file mode $(stat -c %a "$rec")"
	cmp -s "$orig" "$TMPD/r.yaml" || fail "SIG$sig changed the recipe"
	grep -q '^    workers: 3$' "$rec" || fail "SIG$sig: the recovery file lacks the edit"
	i=0; while [ ! -s "$TMPD/stty.out" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	grep -qw -- "-icanon" "$TMPD/stty.out" && fail "SIG$sig left the terminal in raw mode"
	grep -qw "icanon" "$TMPD/stty.out" || fail "SIG$sig: no terminal settings read"
	grep -qw "echo" "$TMPD/stty.out" || fail "SIG$sig left echo off"
done

# Next session: offered; n keeps the file, opens the recipe as it is.
tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "Restore unsaved edits?"
wait_for "y: restore them   n: not now (keep the file)   d: delete them"
keys n
wait_gone "Restore unsaved edits?"
screen | grep -qF "[modified]" && fail "n restored the edits"
keys q
wait_exit
[ "$(nrecs)" = 1 ] || fail "n removed the recovery file"

# y restores them (as an edit: the recipe is modified), saving removes the file.
tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "Restore unsaved edits?"
keys y
wait_for "[modified]"
wait_for "restored the unsaved edits"
keys C-s
wait_for "saved 'r.yaml'"
[ "$(nrecs)" = 0 ] || fail "the recovery file outlived the save"
grep -q '^    workers: 3$' "$TMPD/r.yaml" || fail "the restored edit was not saved"
keys q
wait_exit
cp "$orig" "$TMPD/r.yaml"

# d in the next session deletes the file.
start_edit
edit_workers 5
kill -TERM "$(tui_pid)"
wait_exit
[ "$(nrecs)" = 1 ] || fail "no recovery file after SIGTERM"
tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "Restore unsaved edits?"
keys d
wait_gone "Restore unsaved edits?"
[ "$(nrecs)" = 0 ] && [ "$(ls -a "$TMPD" | grep -c 'recover.*tmp')" = 0 ] ||
	fail "d did not delete the recovery file"
keys q
wait_exit

# A crash (SIGSEGV) with unsaved edits: the text is rescued, the terminal reset.
start_edit
edit_workers 7
kill -SEGV "$(tui_pid)"
wait_exit
wait_for "crashed; unsaved edits kept in"
[ "$(nrecs)" = 1 ] || fail "no recovery file after a crash"
grep -q '^    workers: 7$' "$(recs)" || fail "the crash recovery file lacks the edit"
i=0; while [ ! -s "$TMPD/stty.out" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
grep -qw -- "-icanon" "$TMPD/stty.out" && fail "a crash left the terminal in raw mode"
rm -f "$TMPD"/.r.yaml.srt-tui-recover-*

# Two sessions on one file keep two files; the next session offers both.
start_edit
edit_workers 11
p1=$(tui_pid)
sock1=$TMUX_SOCK
start_edit
edit_workers 12
p2=$(tui_pid)
sock2=$TMUX_SOCK
kill -HUP "$p1" "$p2"
wait_exit
TMUX_SOCK=$sock1
wait_exit
TMUX_SOCK=$sock2
[ "$(nrecs)" = 2 ] || fail "two sessions: $(nrecs) recovery files, want 2"
grep -l '^    workers: 11$' $(recs) >/dev/null || fail "the first session's edits are gone"
grep -l '^    workers: 12$' $(recs) >/dev/null || fail "the second session's edits are gone"
tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "(1 of 2 recovery files of this recipe)"
keys n
wait_for "(2 of 2 recovery files of this recipe)"
keys n
wait_gone "Restore unsaved edits?"
keys q
wait_exit
[ "$(nrecs)" = 2 ] || fail "not now removed a recovery file"
rm -f "$TMPD"/.r.yaml.srt-tui-recover-*

# kill -9 cannot be caught: the idle autosave has written the edits already.
start_edit
edit_workers 9
pid=$(tui_pid)
i=0
while [ "$(nrecs)" = 0 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
[ "$(nrecs)" = 1 ] || fail "no autosave within 5 s of the edit"
grep -q '^    workers: 9$' "$(recs)" || fail "the autosave lacks the edit"
kill -KILL "$pid"
i=0; while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "Restore unsaved edits?"
keys y
wait_for "restored the unsaved edits"
keys q
wait_for "Unsaved changes"
keys d
wait_exit
rm -f "$TMPD"/.r.yaml.srt-tui-recover-*

# The recipe changed on disk after the edits were kept: the restore says so,
# v shows the three versions (both diffs against the recorded base).
start_edit
edit_workers 14
kill -HUP "$(tui_pid)"
wait_exit
"$SRT_TUI" set "$TMPD/r.yaml" name=changed-outside || fail "set"
tui_start 100 40 "$SRT_TUI" edit r.yaml
wait_for "The recipe changed on disk since these edits began."
wait_for "v: view the three versions"
keys v
wait_for "Changed on disk since the unsaved edits began"
wait_for '+name: "changed-outside"'
wait_for "+    workers: 14"
keys q
wait_for "Restore unsaved edits? The file changed since"
keys n
wait_gone "Restore unsaved edits?"
keys q
wait_exit

# m merges the kept edits with the change on disk: both are in the editor,
# and the save writes both.
tui_start 100 40 "$SRT_TUI" edit r.yaml
wait_for "m: merge them with that change"
keys m
wait_for ", merged with the"
wait_for "[modified]"
keys C-s
wait_for "Save it anyway?" # 14 workers do not fit: an error, saved on purpose
keys y
wait_gone "[modified]"
"$SRT_TUI" get "$TMPD/r.yaml" name | grep -qx changed-outside || fail "merge lost the change on disk"
"$SRT_TUI" get "$TMPD/r.yaml" roles.agg.workers | grep -qx 14 || fail "merge lost the kept edit"
keys q
wait_exit
[ "$(nrecs)" = 0 ] || fail "a recovery file left after the merged save"

# y restores them as they were: the Diff tab shows the three versions and the
# save asks, since the edits would undo the change on disk.
cp "$orig" "$TMPD/r.yaml"
start_edit
edit_workers 12
kill -HUP "$(tui_pid)"
wait_exit
"$SRT_TUI" set "$TMPD/r.yaml" name=changed-again || fail "set"
tui_start 100 40 "$SRT_TUI" edit r.yaml
wait_for "v: view the three versions"
keys y
wait_for "(u undoes); the Diff tab"
i=0
until screen | grep -qF "[Diff]"; do
	i=$((i + 1)); [ $i -gt 12 ] && fail "no Diff tab"
	keys Tab; sleep 0.1
done
wait_for "The file changed on disk since the edits began"
wait_for '+name: "changed-again"'
wait_for "+    workers: 12"
keys C-s
wait_for "Save it anyway?"
keys y
wait_for "m: merge (keep that change and the edits)"
keys m
wait_for "merged the change on disk with the edits"
"$SRT_TUI" get "$TMPD/r.yaml" name | grep -qx changed-again || fail "the save undid the change on disk"
"$SRT_TUI" get "$TMPD/r.yaml" roles.agg.workers | grep -qx 12 || fail "the save lost the restored edit"
keys q
wait_exit
rm -f "$TMPD"/.r.yaml.srt-tui-recover-*
cp "$orig" "$TMPD/r.yaml"

# No unsaved edits: SIGHUP leaves nothing behind.
tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "no problems"
kill -HUP "$(tui_pid)"
wait_exit
[ "$(nrecs)" = 0 ] || fail "a recovery file without unsaved edits"
echo ok
