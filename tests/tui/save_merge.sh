#!/bin/sh
# A save that finds the recipe changed on disk by another writer (here
# `srt-tui set`, run while the editor is open) offers to merge: the Diff tab
# shows the three versions, `m` keeps both changes, .bak holds the other
# writer's version, and one `u` undoes the merge.  When both changed the same
# line, nothing is written and the message names the line.
. "$SRCDIR/tests/tui/lib.sh"
orig="$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml"
cp "$orig" "$TMPD/r.yaml"
tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "no problems"
set_field agg.workers 2
wait_for "[modified]"

# another writer changes another key meanwhile
"$SRT_TUI" set "$TMPD/r.yaml" model.precision=fp8 >/dev/null 2>&1 || fail "set failed"
cp "$TMPD/r.yaml" "$TMPD/theirs"

# the Diff tab: the change on disk, the edits, and what a save would write
i=0
until screen | grep -qF "[Diff]"; do
	i=$((i + 1)); [ $i -gt 12 ] && fail "no Diff tab"
	keys Tab; sleep 0.1
done
wait_for "The file changed on disk since the edits began"
wait_for '+  precision: "fp8"'
wait_for "+    workers: 2"
until screen | grep -qF "[Form]"; do
	i=$((i + 1)); [ $i -gt 24 ] && fail "no way back to the form"
	keys Tab; sleep 0.1
done

keys C-s
wait_for "The file changed on disk since it was opened"
wait_for "m: merge (keep that change and the edits)"
keys m
wait_for "merged the change on disk with the edits and saved 'r.yaml'"
wait_gone "[modified]"
"$SRT_TUI" get "$TMPD/r.yaml" roles.agg.workers | grep -qx 2 || fail "the edit was lost"
"$SRT_TUI" get "$TMPD/r.yaml" model.precision | grep -qx fp8 || fail "the other writer's change was lost"
cmp -s "$TMPD/theirs" "$TMPD/r.yaml.bak" || fail "r.yaml.bak is not the version on disk before the save"
diff -u "$orig" "$TMPD/r.yaml" | grep '^[-+]' | grep -v '^---\|^+++' >"$TMPD/changed"
cat >"$TMPD/want" <<'WANT'
-  precision: "bf16"
+  precision: "fp8"
-    workers: 4
+    workers: 2
WANT
diff "$TMPD/want" "$TMPD/changed" || fail "the merged file is not exactly both changes"
# one u takes the merge back out of the editor (the file stays as saved)
keys u
wait_for "[modified]"
keys C-r
wait_gone "[modified]"

# Both change the same line: refused at that line, the file untouched.
set_field agg.workers 3
wait_for "[modified]"
"$SRT_TUI" set "$TMPD/r.yaml" roles.agg.workers=1 >/dev/null 2>&1 || fail "set failed"
cp "$TMPD/r.yaml" "$TMPD/theirs"
line=$(grep -n '^    workers: 1' "$TMPD/r.yaml" | cut -d: -f1)
keys C-s
wait_for "m: merge (keep that change and the edits)"
keys m
wait_for "not merged: line $line was changed both on disk and here; nothing was saved"
wait_for "[modified]"
cmp -s "$TMPD/theirs" "$TMPD/r.yaml" || fail "a refused merge changed the file"
echo ok
