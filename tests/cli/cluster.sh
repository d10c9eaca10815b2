#!/bin/sh
# The real cluster: srt-tui run from inside cluster folders (tests/fixtures/
# cluster/*, each with its own srtslurm.yaml) finds the file as srtctl does,
# lints it, applies it, and prints srtctl's dry-run.  Every expected #SBATCH
# line below is derived by hand from srtctl's job_script_minimal template and
# generate_minimal_sbatch_script; the comment beside it names the rule.
# Jinja renders that template with its defaults (no trim_blocks), so the
# newline after each {% if %} / {% endif %} / {% for %} tag stays: the blank
# lines in the expected headers are those newlines.
set -u
fail=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
. "$SRCDIR/tests/cli/lib.sh"
F=$SRCDIR/tests/fixtures/cluster
# nothing of the caller's shell may leak into srtctl's fallbacks
unset SRTSLURM_CONFIG SRT_TUI_SRTCTL_DIR SLURM_ACCOUNT SLURM_PARTITION RUNNER_NAME INFMAX_WORKSPACE
# wide enough that no line of the sbatch script panel is cut (unpanel)
export COLUMNS=1000
export SOURCE_DATE_EPOCH=0 SRT_TUI_FIXTURE_USER=ann
A=$(cd "$F/aliases" && pwd -P)
S=$(cd "$F/switches" && pwd -P)

# the header of a dry-run: from "#SBATCH --job-name" to the line before the
# script body (our body starts with "# srt-tui:")
header() { sed -n '/^#SBATCH --job-name=/,/^# srt-tui:/p' "$1" | sed '$d'; }

for bin in "$SRT_TUI" "$SRT_TUI_SAN"; do
	tag=${bin##*/}

	# --- aliases: account, partition, GPUs from the cluster -------------------
	(cd "$A" && "$bin" render recipe.yaml) >"$T/out" 2>"$T/err" || { echo "FAIL $tag: render in aliases/"; cat "$T/err"; fail=1; }; unpanel "$T/out"
	[ -s "$T/err" ] && { echo "FAIL $tag: aliases: stderr"; cat "$T/err"; fail=1; }
	{
		echo '#SBATCH --job-name=alias-agg'           # name: (no RUNNER_NAME)
		echo '#SBATCH --nodes=1'                      # roles.agg.nodes, no dedicated node
		echo ''                                       # newline after the else tag
		echo '#SBATCH --ntasks=1'                     # not trtllm: total_nodes
		echo '#SBATCH --ntasks-per-node=1'            # not trtllm: 1
		echo ''                                       # after endif
		echo ''                                       # after if use_gpus_per_node_directive
		echo '#SBATCH --gpus-per-node=8'              # cluster gpus_per_node (resources has none); switch default true
		echo ''
		echo ''
		echo '#SBATCH --segment=1'                    # switch default true; total_nodes
		echo ''                                       # after endif
		echo ''                                       # exclusive off (default false): only the endif newline
		echo '#SBATCH --account=llm-research'         # cluster default_account: slurm.account absent
		echo '#SBATCH --time=00:30:00'                # slurm.time_limit in the recipe wins
		echo "#SBATCH --output=$A/outputs/%j/logs/sweep_%j.log" # no srtctl_root/output_dir: <srtctl dir>/outputs
		echo '#SBATCH --partition=gpu-batch'          # cluster default_partition: slurm.partition absent
		echo ''                                       # after the for tag
		echo ''                                       # after if value
		echo '#SBATCH --qos=low'                      # recipe sbatch_directives.qos wins per key
		echo ''                                       # after endif
		echo ''                                       # for, next item
		echo ''
		echo '#SBATCH --comment=srt-tui fixture'      # cluster default_sbatch_directives, after the recipe's keys
		echo ''
		echo ''                                       # after endfor
		echo ''                                       # the template's empty line
	} >"$T/want"
	header "$T/out" >"$T/got"
	check "$tag aliases header" "$T/want" "$T/got"
	# exports: environment in file order, shlex.quote'd, each after the for tag's newline
	grep -qx "export PYTHONHASHSEED=0" "$T/out" || { echo "FAIL $tag: export PYTHONHASHSEED"; fail=1; }
	grep -qx "export NOTE='two words'" "$T/out" || { echo "FAIL $tag: export NOTE quoted"; fail=1; }
	# mounts: built-in (model alias resolved), srtslurm.yaml, recipe ($VAR expanded)
	# The Container Mounts Panel(Table) as Rich prints it without colour at
	# 80 columns, derived from Rich's rules (lib/rich.c) and checked against
	# python3-rich 13.3.1: Source is width=14, so 14 + 2 cells; Host Path and
	# Container Path are their widest cell + 2 (25 + 2) and + 1 (14 + 1,
	# pad_edge=False: no padding at the table's outer edges); with 4 borders
	# 62 wide, the title centred over those 62 ((62-16)//2 = 23 spaces), every
	# line padded to the panel's 76 inner cells.
	{
		echo '╭──────────────────────────────────────────────────────────────────────────────╮'
		echo '│                        Container Mounts                                      │'
		echo '│ ┏━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓               │'
		echo '│ ┃Source          ┃ Host Path                 ┃ Container Path┃               │'
		echo '│ ┡━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩               │'
		echo '│ │built-in        │ /lustre/models/Qwen3-0.6B │ /model        │               │' # model alias resolved
		echo '│ │built-in        │ <log_dir>                 │ /logs         │               │'
		echo '│ │srtslurm.yaml   │ /lustre/datasets          │ /datasets     │               │' # default_mounts
		echo '│ │recipe          │ /scratch/ann              │ /scratch      │               │' # extra_mount, $VAR expanded
		echo '│ └────────────────┴───────────────────────────┴───────────────┘               │'
		echo '╰──────────────────────────────────────────────────────────────────────────────╯'
	} >"$T/want"
	(cd "$A" && COLUMNS=80 "$bin" render recipe.yaml) >"$T/out80" 2>&1
	grep -B1 -A9 '^│ *Container Mounts *│$' "$T/out80" >"$T/got"
	check "$tag mounts panel" "$T/want" "$T/got"
	rich_rows "$T/out" "Environment Variables" | grep -qx 'global NOTE two words' || { echo "FAIL $tag: env table"; fail=1; }
	# Running: the resolved aliases, the dynamo lines
	grep -qx '  Container: /lustre/containers/vllm-lmcache-0.3.sqsh' "$T/out" || { echo "FAIL $tag: Running container"; fail=1; }
	grep -qx '  Backend:   vllm' "$T/out" || { echo "FAIL $tag: Running backend"; fail=1; }
	grep -qx 'dynamo source: PyPI ai-dynamo==1.4.2' "$T/out" || { echo "FAIL $tag: dynamo source line"; fail=1; }
	grep -qx 'Services:' "$T/out" || { echo "FAIL $tag: Services block"; fail=1; }
	# --serve-only changes the Running summary
	(cd "$A" && "$bin" render --serve-only recipe.yaml) >"$T/so" 2>&1; unpanel "$T/so"
	grep -qx '  Mode:      Serve only (no benchmark)' "$T/so" || { echo "FAIL $tag: --serve-only"; fail=1; }

	# --- switches, found two levels up ------------------------------------------
	(cd "$S/study/run" && "$bin" render recipe.yaml) >"$T/out" 2>"$T/err" || { echo "FAIL $tag: render in switches/study/run"; cat "$T/err"; fail=1; }; unpanel "$T/out"
	{
		echo '#SBATCH --job-name=switches-agg'
		echo '#SBATCH --nodes=2'                      # roles.agg.nodes
		echo ''
		echo '#SBATCH --ntasks=2'                     # sglang: total_nodes
		echo '#SBATCH --ntasks-per-node=1'
		echo ''                                       # after endif
		echo ''                                       # gpus-per-node off: only its endif newline
		echo ''                                       # segment off: only its endif newline
		echo ''                                       # after if use_exclusive_sbatch_directive
		echo '#SBATCH --exclusive'                    # use_exclusive_sbatch_directive: true
		echo ''                                       # after endif
		echo '#SBATCH --account=default'              # no account anywhere, no $SLURM_ACCOUNT: "default"
		echo '#SBATCH --time=01:00:00'                # no time limit anywhere: "01:00:00"
		echo "#SBATCH --output=$S/study/run/outputs/%j/logs/sweep_%j.log"
		echo '#SBATCH --partition=mi300'              # cluster default_partition
		echo ''                                       # no sbatch_directives: after endfor
		echo ''
	} >"$T/want"
	header "$T/out" >"$T/got"
	check "$tag switches header" "$T/want" "$T/got"
	rich_rows "$T/out" "Container Mounts" | grep -qx 'srtslurm.yaml /data/ann /home' || { echo "FAIL $tag: default_mounts expandvars"; fail=1; }
	grep -qx 'srun options: --cpu-bind=none --overlap' "$T/out" || { echo "FAIL $tag: srun options"; fail=1; }
	rich_rows "$T/out" "Host Setup (outside container)" | grep -qx 'setup sudo -n rocm-smi --setperfdeterminism 1900' || { echo "FAIL $tag: host setup table"; rich_rows "$T/out" "Host Setup (outside container)"; fail=1; }
	grep -q '^host_setup: nodes=all ignore_failure=false timeout_seconds=300' "$T/out" || { echo "FAIL $tag: host_setup line"; fail=1; }
	# the GPU mask variable and the preamble of the cluster reach the plan
	(cd "$S/study/run" && "$bin" render --format plan recipe.yaml) >"$T/p" 2>&1
	grep -q 'ROCR_VISIBLE_DEVICES=0,1' "$T/p" || { echo "FAIL $tag: visible_devices_env in the plan"; fail=1; }
	grep -q 'CUDA_VISIBLE_DEVICES' "$T/p" && { echo "FAIL $tag: CUDA_VISIBLE_DEVICES on a ROCR cluster"; fail=1; }
	grep -q 'cluster preamble: ulimit -n 1048576' "$T/p" || { echo "FAIL $tag: default_bash_preamble in the plan"; fail=1; }
	# $SLURM_ACCOUNT / $RUNNER_NAME are srtctl's fallbacks
	(cd "$S/study/run" && SLURM_ACCOUNT=shell-acct RUNNER_NAME=ci-7 "$bin" render recipe.yaml) >"$T/out" 2>&1; unpanel "$T/out"
	grep -qx '#SBATCH --account=shell-acct' "$T/out" || { echo "FAIL $tag: SLURM_ACCOUNT fallback"; fail=1; }
	grep -qx '#SBATCH --job-name=ci-7' "$T/out" || { echo "FAIL $tag: RUNNER_NAME"; fail=1; }

	# --- a bad key: srtctl drops the whole file (srt-slurm #429) --------------
	(cd "$F/badkey" && "$bin" render recipe.yaml) >"$T/out" 2>"$T/err"; unpanel "$T/out"
	grep -qx '#SBATCH --partition=default' "$T/out" || { echo "FAIL $tag: badkey partition"; fail=1; }
	grep -qx '#SBATCH --account=default' "$T/out" || { echo "FAIL $tag: badkey account"; fail=1; }
	grep -qx '  Container: vllm-lmcache' "$T/out" || { echo "FAIL $tag: badkey: an alias resolved"; fail=1; }
	grep -q "srtslurm.yaml:4:1: error: unknown key 'default_partitions' in the cluster file: srtctl ignores the whole file \[cluster-unknown-key\]" "$T/err" ||
		{ echo "FAIL $tag: badkey lint on stderr"; cat "$T/err"; fail=1; }
	grep -q "did you mean 'default_partition'" "$T/err" || { echo "FAIL $tag: badkey hint"; fail=1; }
	run "$tag validate --cluster" 1 "$bin" validate --cluster "$F/badkey/srtslurm.yaml"
	grep -q "^$F/badkey/srtslurm.yaml:4:1: error: unknown key 'default_partitions'" "$T/out" ||
		{ echo "FAIL $tag: validate --cluster"; cat "$T/out"; fail=1; }
	run "$tag validate --cluster clean" 0 "$bin" validate -v --cluster "$F/aliases/srtslurm.yaml"
	grep -qx "$F/aliases/srtslurm.yaml: ok" "$T/out" || { echo "FAIL $tag: clean cluster"; cat "$T/out"; fail=1; }

	# --- SRTSLURM_CONFIG set to a missing file: no cluster file at all --------
	(cd "$A" && SRTSLURM_CONFIG=$T/nowhere.yaml "$bin" render recipe.yaml) >"$T/out" 2>"$T/err"; unpanel "$T/out"
	grep -qx '#SBATCH --partition=default' "$T/out" || { echo "FAIL $tag: missing SRTSLURM_CONFIG partition"; fail=1; }
	grep -q "SRTSLURM_CONFIG is set to '$T/nowhere.yaml', which does not exist" "$T/err" || { echo "FAIL $tag: missing SRTSLURM_CONFIG message"; cat "$T/err"; fail=1; }
	# ... and pointing at a file, it wins from anywhere
	(cd "$T" && SRTSLURM_CONFIG=$A/srtslurm.yaml "$bin" render "$A/recipe.yaml") >"$T/out" 2>&1; unpanel "$T/out"
	grep -qx '#SBATCH --partition=gpu-batch' "$T/out" || { echo "FAIL $tag: SRTSLURM_CONFIG"; fail=1; }

	# --- --srtctl-dir / SRT_TUI_SRTCTL_DIR: where srtctl runs -------------------
	# (--srtctl-dir names an srt-slurm checkout: srtctl's schema is read there too)
	mkdir -p "$T/ck/docs/schema" && cp "$A/srtslurm.yaml" "$T/ck/" &&
		cp "$SRCDIR/tests/fixtures/srtctl/mini.schema.json" "$T/ck/docs/schema/recipe.schema.json"
	(cd "$T" && "$bin" render --srtctl-dir "$T/ck" "$A/recipe.yaml") >"$T/out" 2>&1; unpanel "$T/out"
	grep -qx '#SBATCH --partition=gpu-batch' "$T/out" || { echo "FAIL $tag: --srtctl-dir"; fail=1; }
	(cd "$T" && SRT_TUI_SRTCTL_DIR=$S/study "$bin" validate -v "$A/recipe.yaml") >"$T/out" 2>&1
	grep -qx "cluster: $S/srtslurm.yaml (1 level up)" "$T/out" || { echo "FAIL $tag: SRT_TUI_SRTCTL_DIR"; cat "$T/out"; fail=1; }
	# three levels down is out of srtctl's reach
	mkdir -p "$T/a/b/c" && cp "$A/srtslurm.yaml" "$T/srtslurm.yaml"
	(cd "$T/a/b/c" && "$bin" validate -v "$A/recipe.yaml") >"$T/out" 2>&1
	grep -q '^cluster: no cluster file' "$T/out" || { echo "FAIL $tag: 3 levels"; cat "$T/out"; fail=1; }
	(cd "$T/a/b" && "$bin" validate -v "$A/recipe.yaml") >"$T/out" 2>&1
	grep -qx "cluster: $T/srtslurm.yaml (2 levels up)" "$T/out" || { echo "FAIL $tag: 2 levels"; cat "$T/out"; fail=1; }
	rm -f "$T/srtslurm.yaml"

	# --- aliases the cluster lacks: srtctl's preflight message ----------------
	sed 's/container: "vllm-lmcache"/container: "vllm-nightly"/' "$A/recipe.yaml" >"$T/r.yaml"
	(cd "$A" && "$bin" validate "$T/r.yaml") >"$T/out" 2>&1; rc=$?
	[ $rc -eq 1 ] || { echo "FAIL $tag: a missing alias should fail validate ($rc)"; fail=1; }
	grep -q "^$T/r.yaml:11:3: error: Container 'vllm-nightly' is not a local container path and is not defined in srtslurm.yaml containers" "$T/out" ||
		{ echo "FAIL $tag: missing alias message"; cat "$T/out"; fail=1; }

	# --- json: everything, each worker's argv and env -------------------------
	(cd "$S/study/run" && "$bin" render --format json recipe.yaml) >"$T/j" 2>&1
	if command -v python3 >/dev/null 2>&1; then
		python3 - "$T/j" "$S" <<'EOF' || { echo "FAIL $tag: json document"; fail=1; }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["cluster"] == {"state": "loaded", "path": sys.argv[2] + "/srtslurm.yaml", "origin": "2 levels up"}, d["cluster"]
assert "#SBATCH --exclusive" in d["sbatch"]["directives"], d["sbatch"]["directives"]
assert d["sbatch"]["script"].startswith("#!/bin/bash\n")
w = d["roles"]["agg"]["worker_commands"]
assert len(w) == 4, len(w)
assert w[0]["argv"][:3] == ["python3", "-m", "dynamo.sglang"], w[0]["argv"]
assert w[1]["env"]["ROCR_VISIBLE_DEVICES"] == "2,3", w[1]["env"]
assert [m["source"] for m in d["mounts"]] == ["built-in", "built-in", "srtslurm.yaml"], d["mounts"]
EOF
	else
		echo "skip: python3 not installed, JSON document not checked"
	fi

	# --- output_dir as Path.resolve() reads it: "." and ".." taken out even
	# where the folders do not exist yet (srtctl: Path(output_dir).resolve())
	mkdir -p "$T/od"
	cp "$A/recipe.yaml" "$T/od/"
	printf 'output_dir: ./not-yet/../results\n' >"$T/od/srtslurm.yaml"
	od=$(cd "$T/od" && pwd -P)
	(cd "$T/od" && "$bin" render recipe.yaml) >"$T/out" 2>"$T/err"
	unpanel "$T/out"
	grep -qxF "#SBATCH --output=$od/results/%j/logs/sweep_%j.log" "$T/out" ||
		{ echo "FAIL $tag: output_dir not resolved as Path.resolve()"; grep -- '--output' "$T/out"; cat "$T/err"; fail=1; }

	# --- pre-2.0 recipes: one line per file -------------------------------------
	mkdir -p "$T/v1"
	printf 'name: old\nbackend:\n  type: sglang\nresources:\n  prefill_nodes: 1\n  decode_nodes: 1\n' >"$T/v1/a.yaml"
	printf 'name: old2\nresources:\n  agg_nodes: 1\n  agg_workers: 1\n' >"$T/v1/b.yml"
	run "$tag validate folder" 1 "$bin" validate "$T/v1"
	[ "$(grep -c ': error: ' "$T/out")" -eq 2 ] || { echo "FAIL $tag: pre-2.0: not one line per file"; cat "$T/out"; fail=1; }
	grep -q "^$T/v1/a.yaml:1:1: error: recipe has no \`schema:\` key, which marks the pre-2.0 layout" "$T/out" ||
		{ echo "FAIL $tag: pre-2.0 message"; cat "$T/out"; fail=1; }
	# a folder whose name ends in .yaml is still a folder: validate takes
	# such names for files without a stat, and expands it in place when
	# reading it fails (its files between the arguments around it)
	mkdir -p "$T/more.yaml"
	cp "$T/v1/a.yaml" "$T/more.yaml/c.yaml"
	run "$tag validate folder named .yaml" 1 "$bin" validate "$T/v1/b.yml" "$T/more.yaml" "$T/v1/a.yaml"
	[ "$(grep ': error: ' "$T/out" | cut -d: -f1 | tr '\n' ' ')" = "$T/v1/b.yml $T/more.yaml/c.yaml $T/v1/a.yaml " ] ||
		{ echo "FAIL $tag: a folder named .yaml not expanded in place"; cat "$T/out"; fail=1; }
	mkdir -p "$T/empty.yml"
	run "$tag validate empty folder named .yml" 0 "$bin" validate "$T/empty.yml"
	[ -s "$T/out" ] && { echo "FAIL $tag: an empty folder printed something"; cat "$T/out"; fail=1; }
done
[ $fail -eq 0 ] && echo "cluster: all checks passed"
exit $fail
