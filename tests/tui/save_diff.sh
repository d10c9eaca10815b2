#!/bin/sh
# edit + save: the saved file differs from the original by exactly the edited
# lines (diff -u), FILE.bak holds the original, and the quit prompt appears
# while there are unsaved changes.
. "$SRCDIR/tests/tui/lib.sh"
orig="$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml"
cp "$orig" "$TMPD/r.yaml"
tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "no problems"

find_field model.container
# F1: the field's help from the schema table, with its type.
keys F1
wait_for "Type: "
wait_for "F2, Ctrl-S, Alt-2"
keys Escape
wait_gone "Type: "
keys Enter
wait_for "Enter: accept"
keys C-u
text 'vllm-lmcache-2'
keys Enter
wait_for "[modified]"

set_field agg.workers 2
wait_gone "Enter: accept"

# Dirty: q asks; c cancels and keeps the session.  Ctrl-C asks the same.
keys q
wait_for "The recipe has unsaved changes."
keys c
wait_gone "The recipe has unsaved changes."
keys C-c
wait_for "The recipe has unsaved changes."
keys c
wait_gone "The recipe has unsaved changes."
wait_for "[modified]"

# Changed on disk behind our back: saving asks first; c cancels.
cp "$TMPD/r.yaml" "$TMPD/r.before"
echo "# touched elsewhere" >>"$TMPD/r.yaml"
keys C-s
wait_for "The file changed on disk since it was opened"
keys c
wait_for "not saved"
grep -q "touched elsewhere" "$TMPD/r.yaml" || fail "cancel overwrote the file"
cp "$TMPD/r.before" "$TMPD/r.yaml"
keys C-s
wait_for "saved 'r.yaml'"
screen | grep -qF "[modified]" && fail "still marked modified after saving"
cmp -s "$orig" "$TMPD/r.yaml.bak" || fail "r.yaml.bak is not the original"
diff -u "$orig" "$TMPD/r.yaml" | grep '^[-+]' | grep -v '^---\|^+++' >"$TMPD/changed"
cat >"$TMPD/want" <<'WANT'
-  container: "vllm-with-lmcache"
+  container: "vllm-lmcache-2"
-    workers: 4
+    workers: 2
WANT
diff "$TMPD/want" "$TMPD/changed" || fail "the saved diff is not exactly the edited lines"

# Clean again: q quits at once.
keys q
wait_exit
[ "$(exit_status)" = 0 ] || fail "exit status $(exit_status)"

# Dirty again, then quit and discard: the file stays as saved.
cp "$TMPD/r.yaml" "$TMPD/saved"
T kill-server
tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "no problems"
set_field agg.workers 3
wait_for "[modified]"
keys F10
wait_for "s: save and quit   d: discard them and quit   c: cancel"
keys d
wait_exit
cmp -s "$TMPD/saved" "$TMPD/r.yaml" || fail "discard changed the file"
echo ok
