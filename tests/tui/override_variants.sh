#!/bin/sh
# An override file in the editor: the Variants screen lists every job, the
# previews follow the variant picked, a bad value in one section is reported
# for that variant at the section's line, and an edit of one variant's value
# goes to its element of the zip list: the saved diff is exactly that line.
. "$SRCDIR/tests/tui/lib.sh"
orig="$SRCDIR/tests/fixtures/tui/override.yaml"
cp "$orig" "$TMPD/o.yaml"
tui_start 140 40 "$SRT_TUI" edit o.yaml
wait_for "Override file: 3 jobs"
wait_for "[1/3] override_tp2   :override_tp2   job tui-ovr_tp2"
wait_for "[2/3] override_ctx_0   :zip_override_ctx[0]   job tui-ovr-2k"
wait_for "roles.agg.args.max-model-len: 4096 -> 8192"
wait_for "variant: override_tp2"
wait_for "no problems"
# The Workers preview follows the variant: override_tp2 runs 1 worker on 2 GPUs.
keys Tab Tab Right
wait_for "agg: 1 worker x 2 GPUs, engine vllm"
wait_for "Variant override_tp2: job tui-ovr_tp2"
keys Tab
keys Down Down Enter # base (first in the file), override_tp2, then override_ctx_0
wait_for "variant: override_ctx_0"
wait_for "Variant override_ctx_0: job tui-ovr-2k"
wait_for "agg: 2 workers x 1 GPU, engine vllm"
screen | grep -qF "agg: 1 worker x 2 GPUs" && fail "the preview did not follow the variant"
wait_for "roles.agg.args.max-model-len         2048   [zip_override_ctx[0]]"

# Edit the value for this variant: asked where, told who sets it now.
find_field max-model-len
keys Enter
wait_for "Now set in: zip_override_ctx[0] (zip_override_ctx.roles.agg.args.max-model-len[0])"
wait_for "s: in zip_override_ctx[0] (this variant)"
keys s
wait_for "Enter: accept"
keys C-u
text '3072'
keys Enter
wait_for "[modified]"
wait_for "roles.agg.args.max-model-len: 4096 -> 3072"
keys C-s
wait_for "saved 'o.yaml'"
diff -u "$orig" "$TMPD/o.yaml" | grep '^[-+]' | grep -v '^---\|^+++' >"$TMPD/changed"
cat >"$TMPD/want" <<'WANT'
-        max-model-len: [2048, 8192]
+        max-model-len: [3072, 8192]
WANT
diff "$TMPD/want" "$TMPD/changed" || fail "the saved diff is not exactly the edited line"

# A bad value in one section: the problem names its variant and points at
# the section's line (override_tp2's gpus is on line 33 of the fixture).
find_field 'variant:override_tp2'
keys Enter
wait_for "variant: override_tp2"
find_field roles.agg.gpus
keys Enter
wait_for "Now set in: override_tp2 (override_tp2.roles.agg.gpus)"
keys s
wait_for "Enter: accept"
keys C-u
text 'lots'
keys Enter
wait_for "1 error"
wait_for "[override_tp2]"
screen | grep -F "[override_tp2]" | grep -qF "33:7" || fail "the problem is not at override_tp2 line 33"
# u undoes it and the problem goes; the text is the saved one again.
keys u
wait_for "no problems"
wait_gone "[modified]"
keys q
wait_exit
[ "$(exit_status)" = 0 ] || fail "exit status $(exit_status)"
diff "$TMPD/o.yaml.bak" "$orig" >/dev/null || fail "o.yaml.bak is not the original"
echo ok
