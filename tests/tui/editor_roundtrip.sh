#!/bin/sh
# The $EDITOR round trip (E on the Fields screen) never loses what was typed:
# text with a YAML error is offered back ("e: edit it again" re-opens the
# editor on the same text), or kept as a file; a NUL byte is an error, not a
# place to cut the recipe short (the text after it was dropped and saved).
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"
cp "$TMPD/r.yaml" "$TMPD/orig.yaml"
# The fake editor: run N copies the file it is given to in.N, then writes
# step.N over it (a missing step leaves the file as it is).
cat >"$TMPD/ed.sh" <<'ED'
#!/bin/sh
d=$(dirname "$0")
n=$(cat "$d/count" 2>/dev/null || echo 0); n=$((n + 1)); echo $n >"$d/count"
cp "$1" "$d/in.$n"
[ -f "$d/step.$n" ] && cat "$d/step.$n" >"$1"
exit 0
ED
chmod +x "$TMPD/ed.sh"
printf 'name: [unclosed\n' >"$TMPD/step.1"
sed 's/^name: .*/name: "re-edited"/' "$TMPD/orig.yaml" >"$TMPD/step.2"
printf 'name: "cut"\000\nroles: {}\n' >"$TMPD/step.3"

tui_start 100 30 env VISUAL="$TMPD/ed.sh" "$SRT_TUI" edit r.yaml
wait_for "no problems"
keys ']'
wait_for "Fields"
# find the Fields screen by its tab being current: press ] until E works
n=0
while [ $n -lt 8 ]; do
	keys E
	sleep 0.3
	[ -f "$TMPD/in.1" ] && break
	keys ']'
	n=$((n + 1))
done
[ -f "$TMPD/in.1" ] || fail "E never ran the editor"
cmp -s "$TMPD/in.1" "$TMPD/orig.yaml" || fail "the editor did not get the recipe"
wait_for "Edited text not used"
wait_for "e: edit it again   k: keep it as a file   d: discard it"
keys e
wait_for "replaced the recipe with the edited text"
cmp -s "$TMPD/in.2" "$TMPD/step.1" || fail "'e' did not re-open the editor on the text with the error"
wait_for "[modified]"

# a NUL byte: refused with where it is; k keeps the bytes as a file
keys E
wait_for "Edited text not used"
wait_for "NUL byte at byte 11"
keys k
wait_for "kept the edited text in"
kept=$(ls "$TMPD"/r.yaml.edited-*.yaml 2>/dev/null | head -n 1)
[ -n "$kept" ] || fail "no kept file"
cmp -s "$kept" "$TMPD/step.3" || fail "the kept file is not the edited text byte for byte"
[ "$(stat -c %a "$kept")" = 600 ] || fail "the kept file is mode $(stat -c %a "$kept"), want 600"
keys C-s
wait_for "saved 'r.yaml'"
cmp -s "$TMPD/r.yaml" "$TMPD/step.2" || fail "the saved recipe is not the re-edited text"
keys q
wait_exit
exit 0
