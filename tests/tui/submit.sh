#!/bin/sh
# Submit (F5 / !): refused while the recipe is unsaved or has errors; runs
# the stand-in `srtctl` from PATH with `apply -f FILE` and shows its output;
# --submit-cmd and SRT_TUI_SUBMIT replace the command; when the program is
# not on PATH the command to run is shown instead.
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"
mkdir -p "$TMPD/bin"
cat >"$TMPD/bin/srtctl" <<STUB
#!/bin/sh
echo "\$@" >"$TMPD/srtctl-args"
echo "submitted job 4242"
echo "a warning on stderr" >&2
STUB
chmod +x "$TMPD/bin/srtctl"
cat >"$TMPD/bin/mysubmit" <<STUB
#!/bin/sh
echo "\$@" >"$TMPD/mysubmit-args"
exit 3
STUB
chmod +x "$TMPD/bin/mysubmit"
P="$TMPD/bin:/usr/bin:/bin"

tui_start 100 30 env PATH="$P" "$SRT_TUI" edit r.yaml
wait_for "no problems"
keys F5
wait_for "Submit"
wait_for "srtctl apply -f r.yaml"
keys y
wait_for "submitted job 4242"
wait_for "a warning on stderr"
wait_for "[exit status 0]"
[ "$(cat "$TMPD/srtctl-args")" = "apply -f r.yaml" ] || fail "srtctl got: $(cat "$TMPD/srtctl-args")"
keys Escape
wait_gone "[exit status 0]"

# Unsaved: refused.
set_field agg.workers 3
wait_for "[modified]"
rm -f "$TMPD/srtctl-args"
keys '!'
wait_for "save the recipe first"
# An error (workers: "x" is not a number): refused even when saved.
keys Enter
wait_for "Enter: accept"
keys C-u
text 'many'
keys Enter
wait_for "1 error"
# saving with errors asks first, as the Write button does
keys C-s
wait_for "The recipe has 1 error (see Problems). Save it anyway?"
keys y
wait_for "saved 'r.yaml'"
keys F5
wait_for "fix them before submitting"
[ -f "$TMPD/srtctl-args" ] && fail "srtctl ran although the recipe was not ready"
keys u
wait_for "no problems"
keys C-s
wait_for "saved 'r.yaml'"
keys q
wait_exit

# --submit-cmd with {file}, non-zero exit shown.
tui_start 100 30 env PATH="$P" "$SRT_TUI" edit --submit-cmd 'mysubmit --queue "gpu a" {file}' r.yaml
wait_for "no problems"
keys M-5
wait_for "mysubmit --queue 'gpu a' r.yaml"
keys y
wait_for "[exit status 3]"
[ "$(cat "$TMPD/mysubmit-args")" = "--queue gpu a r.yaml" ] || fail "mysubmit got: $(cat "$TMPD/mysubmit-args")"
keys q
wait_gone "[exit status 3]"
keys q
wait_exit

# Not on PATH: the command is shown, nothing runs.
tui_start 100 30 env PATH="/usr/bin:/bin" SRT_TUI_SUBMIT="srtctl apply -f" "$SRT_TUI" edit r.yaml
wait_for "no problems"
keys F5
wait_for "'srtctl' is not on PATH"
wait_for "srtctl apply -f r.yaml"
keys Escape
wait_gone "is not on PATH"
keys q
wait_exit
echo ok
