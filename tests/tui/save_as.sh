#!/bin/sh
# Item: edit has a Write step and save-as; a read-only file is marked [RO]
# and a failed save offers another path instead of leaving only "discard";
# saving with errors asks first (Ctrl-S and the Write step agree); the first
# save of a new file does not claim a .bak it never made (80x24).
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/ro.yaml"

# Review's "Next step: Write" goes to the Write step, which saves as
tui_start 80 24 "$SRT_TUI" edit r.yaml
wait_for "[Fields]"
keys '[' '[' '['
wait_for "[Review]"
wait_for "[ Next step: Write > ]"
keys Enter
wait_for "[Write]"
wait_for "[ Save as another file... ]"
screen | head -1 | grep -q "\[RO\]" && fail "r.yaml is not read-only"
T kill-server

# a read-only file: immutable as root (root writes through modes), else no
# write permission on the file and its folder
if [ "$(id -u)" = 0 ]; then
	if ! chattr +i "$TMPD/ro.yaml" 2>/dev/null; then
		echo "skip: cannot make a read-only file (no chattr +i here)"
		exit 0
	fi
	trap 'chattr -i "$TMPD/ro.yaml" 2>/dev/null; tui_cleanup' EXIT
else
	chmod a-w "$TMPD/ro.yaml"
fi
tui_start 80 24 "$SRT_TUI" edit ro.yaml
wait_for "[Fields]"
screen | head -1 | grep -q "ro.yaml  \[RO\]" || fail "no [RO] in the header"
# an error, then an edit saved: asks about the error first
set_field roles.agg.workers many
wait_for "[modified]"
wait_for "1 error"
keys C-s
wait_for "The recipe has 1 error (see Problems). Save it anyway?"
keys y
wait_for "a: save as another file"
keys a
wait_for "Save as (a new path, or replace a file)"
keys C-u
text copy.yaml
keys Enter
wait_for "saved 'copy.yaml' (a new file)"
screen | grep -q "copy.yaml.bak" && fail "the first save of a new file speaks of a .bak"
[ -f "$TMPD/copy.yaml" ] || fail "copy.yaml was not written"
grep -q "workers: many" "$TMPD/copy.yaml" || fail "copy.yaml lacks the edit"
grep -q "workers: 4" "$TMPD/ro.yaml" || fail "the read-only file changed"
screen | head -1 | grep -q "copy.yaml" || fail "the session does not edit copy.yaml now"
screen | head -1 | grep -q "\[RO\]\|\[modified\]" && fail "copy.yaml is shown read-only or modified"
keys q
wait_exit
echo ok
