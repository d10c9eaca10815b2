#!/bin/sh
# Submit (F5) on an override file offers srtctl apply's own options: the
# variant the previews follow is submitted as FILE:SELECTOR, 'o' opens the
# options (--serve-only, --tags, another variant or every variant), the
# command is shown before it runs, and the stand-in srtctl gets exactly those
# words (no shell).
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/override.yaml" "$TMPD/ovr.yaml"
mkdir -p "$TMPD/bin"
cat >"$TMPD/bin/srtctl" <<STUB
#!/bin/sh
for a in "\$@"; do printf '[%s]' "\$a"; done >"$TMPD/srtctl-args"
echo "submitted job 77"
STUB
chmod +x "$TMPD/bin/srtctl"
P="$TMPD/bin:/usr/bin:/bin"

tui_start 100 30 env PATH="$P" "$SRT_TUI" edit ovr.yaml
wait_for "no problems"
keys F5
wait_for "srtctl apply -f ovr.yaml:override_tp2"
wait_for "o: options (variant, --serve-only, --tags)"
keys o
wait_for "srtctl apply options"
wait_for "Serve only (--serve-only, no benchmark): no"
keys Down Enter
wait_for "Serve only (--serve-only, no benchmark): yes"
keys Down Enter
wait_for "--tags (comma-separated"
keys C-u
text "nightly,tp2 run"
keys Enter
wait_for "Tags (--tags a,b): nightly,tp2 run"
# another variant: the second zip element
keys Down Enter
wait_for "Submit which variant?"
wait_for "ovr.yaml:zip_override_ctx[1]"
keys Down Down Enter
wait_for "Variant: zip_override_ctx[1]"
keys Up Up Up Enter
wait_for "srtctl apply -f 'ovr.yaml:zip_override_ctx[1]' --serve-only --tags 'nightly,tp2 run'"
keys y
wait_for "submitted job 77"
[ "$(cat "$TMPD/srtctl-args")" = "[apply][-f][ovr.yaml:zip_override_ctx[1]][--serve-only][--tags][nightly,tp2 run]" ] ||
	fail "srtctl got: $(cat "$TMPD/srtctl-args")"
keys Escape
wait_gone "submitted job 77"

# every variant: no selector
keys F5
wait_for "o: options"
keys o
wait_for "srtctl apply options"
keys Down Down Down Enter
wait_for "Submit which variant?"
keys Down Down Down Down Enter
wait_for "Variant: every variant"
keys Up Up Up Enter
wait_for "srtctl apply -f ovr.yaml"
keys y
wait_for "submitted job 77"
[ "$(cat "$TMPD/srtctl-args")" = "[apply][-f][ovr.yaml]" ] || fail "srtctl got: $(cat "$TMPD/srtctl-args")"
echo "submit_options: all checks passed"
