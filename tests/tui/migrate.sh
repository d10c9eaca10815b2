#!/bin/sh
# edit on a pre-2.0 recipe (no `schema:`): one problem instead of one per
# key; with a stand-in `srtctl` on PATH the editor offers `srtctl migrate -f
# FILE`, shows srtctl's result in the Diff tab and its notes as warnings,
# writes only on save (keeping FILE.bak); u undoes it; without srtctl it says
# how to migrate.
. "$SRCDIR/tests/tui/lib.sh"
cat >"$TMPD/old.yaml" <<'OLD'
name: "old-agg"
backend:
  type: sglang
resources:
  gpu_type: h100
  agg_nodes: 1
  agg_workers: 1
OLD
cp "$TMPD/old.yaml" "$TMPD/orig.yaml"
mkdir -p "$TMPD/bin"
# the stand-in prints a schema 2 recipe on stdout and one note on stderr,
# and records how it was called
cat >"$TMPD/bin/srtctl" <<STUB
#!/bin/sh
echo "\$@" >"$TMPD/srtctl-args"
cat <<'NEW'
schema: 2
name: "old-agg"
engine: sglang
model:
  path: "/models/m"
  container: "/c/sglang.sqsh"
  precision: "bf16"
resources:
  gpu_type: h100
roles:
  agg:
    nodes: 1
    workers: 1
NEW
echo "note: backend.type became engine" >&2
STUB
chmod +x "$TMPD/bin/srtctl"
P="$TMPD/bin:/usr/bin:/bin"

tui_start 100 30 env PATH="$P" "$SRT_TUI" edit old.yaml
wait_for "Migrate the pre-2.0 recipe?"
wait_for "srtctl migrate -f old.yaml"
keys y
wait_for "migrated by srtctl"
[ "$(cat "$TMPD/srtctl-args")" = "migrate -f old.yaml" ] || fail "srtctl got: $(cat "$TMPD/srtctl-args")"
wait_for "[Diff]"
wait_for "+schema: 2"
wait_for "-backend:"
wait_for "[modified]"
cmp -s "$TMPD/old.yaml" "$TMPD/orig.yaml" || fail "the file was written before saving"
# srtctl's note is a warning
wait_for "1 warning"
keys C-s
wait_gone "[modified]"
head -n 1 "$TMPD/old.yaml" | grep -qx "schema: 2" || fail "not saved: $(head -n 2 "$TMPD/old.yaml")"
cmp -s "$TMPD/old.yaml.bak" "$TMPD/orig.yaml" || fail "no .bak of the pre-2.0 file"
keys q
wait_exit

# declined: the file opens as it is, with one problem, not one per key
cp "$TMPD/orig.yaml" "$TMPD/old2.yaml"
tui_start 100 30 env PATH="$P" "$SRT_TUI" edit old2.yaml
wait_for "Migrate the pre-2.0 recipe?"
keys n
wait_for "1 error, 0 warnings"
keys Tab
wait_for "[Problems 1E 0W]"
wait_for "pre-2.0 layout"
keys q
wait_exit

# no srtctl on PATH: the way to migrate is shown
tui_start 100 30 env PATH="/usr/bin:/bin" "$SRT_TUI" edit old2.yaml
wait_for "srtctl is not on PATH here"
wait_for "srtctl migrate -f old2.yaml --in-place"
echo "migrate: all checks passed"
