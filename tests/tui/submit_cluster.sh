#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Submit under --srtctl-dir: srtctl must read the cluster file the header
# shows, not search the folder srt-tui was started in.  The stand-in srtctl
# logs the folder it runs in and $SRTSLURM_CONFIG: srtctl's
# find_cluster_config_path takes $SRTSLURM_CONFIG first, else srtslurm.yaml
# in its working directory and two parents, so both must point at the
# srtctl directory's file.  The dialog names that file.
. "$SRCDIR/tests/tui/lib.sh"
unset SRTSLURM_CONFIG SRT_TUI_SRTCTL_DIR SLURM_PARTITION
mkdir -p "$TMPD/site" "$TMPD/work" "$TMPD/bin"
cp "$SRCDIR/tests/fixtures/cluster/aliases/srtslurm.yaml" "$TMPD/site/"
# --srtctl-dir names a checkout: it holds srtctl's schema (a stand-in that
# knows the recipe's sections and adds nothing)
mkdir -p "$TMPD/site/docs/schema"
echo '{ "type": "object", "properties": {} }' >"$TMPD/site/docs/schema/recipe.schema.json"
cp "$SRCDIR/tests/fixtures/cluster/aliases/recipe.yaml" "$TMPD/work/r.yaml"
cat >"$TMPD/bin/srtctl" <<STUB
#!/bin/sh
{ echo "cwd=\$(pwd -P)"; echo "config=\${SRTSLURM_CONFIG-unset}"; echo "args=\$*"; } \
	>"$TMPD/log"
echo "submitted job 77"
STUB
chmod +x "$TMPD/bin/srtctl"
SITE=$(cd "$TMPD/site" && pwd -P)
WORK=$(cd "$TMPD/work" && pwd -P)

tui_start 120 40 sh -c "cd work && exec env PATH='$TMPD/bin:/usr/bin:/bin' \
	'$SRT_TUI' edit --srtctl-dir ../site r.yaml"
wait_for "srtslurm.yaml  no problems"
keys F5
wait_for "Submit"
# the dialog says where srtctl runs and which cluster file it reads
wait_for "runs in: $SITE"
wait_for "cluster: $SITE/srtslurm.yaml"
wait_for "apply -f $WORK/r.yaml"
keys y
wait_for "submitted job 77"
wait_for "[exit status 0]"
[ "$(sed -n 1p "$TMPD/log")" = "cwd=$SITE" ] || fail "srtctl ran in: $(cat "$TMPD/log")"
[ "$(sed -n 2p "$TMPD/log")" = "config=$SITE/srtslurm.yaml" ] ||
	fail "SRTSLURM_CONFIG was: $(cat "$TMPD/log")"
[ "$(sed -n 3p "$TMPD/log")" = "args=apply -f $WORK/r.yaml" ] ||
	fail "srtctl got: $(cat "$TMPD/log")"
keys Escape
wait_gone "[exit status 0]"
keys q
wait_exit

# No --srtctl-dir: srtctl runs where srt-tui runs, with the file it found
# there (one level up: srtctl's own search would find the same).
rm -f "$TMPD/log"
cp "$TMPD/site/srtslurm.yaml" "$TMPD/"
tui_start 120 40 sh -c "cd work && exec env PATH='$TMPD/bin:/usr/bin:/bin' '$SRT_TUI' edit r.yaml"
wait_for "srtslurm.yaml  no problems"
keys F5
wait_for "apply -f r.yaml"
keys y
wait_for "[exit status 0]"
TOP=$(cd "$TMPD" && pwd -P)
[ "$(sed -n 1p "$TMPD/log")" = "cwd=$WORK" ] || fail "srtctl ran in: $(cat "$TMPD/log")"
[ "$(sed -n 2p "$TMPD/log")" = "config=$TOP/srtslurm.yaml" ] ||
	fail "SRTSLURM_CONFIG was: $(cat "$TMPD/log")"
keys Escape
wait_gone "[exit status 0]"
keys q
wait_exit
echo "ok: submit runs srtctl against the header's cluster file"
