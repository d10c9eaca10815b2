#!/bin/sh
# Heterogeneous SLURM jobs (resources.het_jobs, else the cluster's
# use_het_jobs): srt-tui run from inside tests/fixtures/cluster/hetjobs
# prints the #SBATCH groups srtctl submits, one per component.  The
# reference template in ../shared has no het branch; the expected lines are
# derived by hand from the srtctl template that added it (job name and the
# job-wide --output first, then per component: an "#SBATCH hetjob"
# separator after the first, --nodes, --ntasks, --gpus-per-node, --segment,
# --exclusive, account, time, partition, sbatch_directives) and from
# ResourceConfig.het_components (group 0 prefill + a dedicated infra node,
# group 1 decode, segment = the component's nodes, the recipe's
# gpus_per_node on both).  Jinja keeps the newline after every block tag
# (no trim_blocks): each blank line below is one, named beside it.
set -u
fail=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
. "$SRCDIR/tests/cli/lib.sh"
unset SRTSLURM_CONFIG SRT_TUI_SRTCTL_DIR SLURM_ACCOUNT SLURM_PARTITION RUNNER_NAME INFMAX_WORKSPACE
# wide enough that no line of the sbatch script panel is cut (unpanel)
export COLUMNS=1000
export SOURCE_DATE_EPOCH=0
H=$(cd "$SRCDIR/tests/fixtures/cluster/hetjobs" && pwd -P)
header() { sed -n '/^#SBATCH --job-name=/,/^# srt-tui:/p' "$1" | sed '$d'; }

# one component's group; $1 nodes, $2 first (1) or not (0)
group() {
	echo ''                                   # after {% for c in het_components %}
	if [ "$2" = 0 ]; then
		echo ''                           # after {% if not loop.first %}
		echo '#SBATCH hetjob'             # the separator before every group but the first
	fi
	echo ''                                   # after {% endif %} (loop.first)
	echo "#SBATCH --nodes=$1"                 # c.nodes
	echo ''                                   # after {% else %} (not trtllm)
	echo "#SBATCH --ntasks=$1"                # not trtllm: c.nodes
	echo '#SBATCH --ntasks-per-node=1'
	echo ''                                   # after {% endif %}
	echo ''                                   # after {% if use_gpus_per_node_directive %}
	echo '#SBATCH --gpus-per-node=4'          # c.gpus_per_node: the cluster's gpus_per_node
	echo ''                                   # after {% endif %}
	echo ''                                   # after {% if use_segment_sbatch_directive %}
	echo "#SBATCH --segment=$1"               # c.segment = c.nodes
	echo ''                                   # after {% endif %}
	echo ''                                   # after {% if use_exclusive_sbatch_directive %}
	echo '#SBATCH --exclusive'                # cluster use_exclusive_sbatch_directive: true
	echo ''                                   # after {% endif %}
	echo '#SBATCH --account=nvl72'            # cluster default_account, in every group
	echo '#SBATCH --time=02:00:00'            # the recipe's slurm.time_limit
	echo '#SBATCH --partition=gb200'          # cluster default_partition
	echo ''                                   # after {% for key, value in sbatch_directives.items() %}
	echo ''                                   # after {% if value %}
	echo '#SBATCH --constraint=nvl72'         # cluster default_sbatch_directives
	echo ''                                   # after {% endif %}
	echo ''                                   # after the inner {% endfor %}
}

for bin in "$SRT_TUI" "$SRT_TUI_SAN"; do
	tag=${bin##*/}

	# --- het from the cluster: 3 prefill + dedicated infra, 2 decode ----------
	(cd "$H" && "$bin" render recipe.yaml) >"$T/out" 2>"$T/err" || { echo "FAIL $tag: render"; cat "$T/err"; fail=1; }; unpanel "$T/out"
	{
		echo '#SBATCH --job-name=het-disagg'      # name: (no RUNNER_NAME)
		echo "#SBATCH --output=$H/outputs/%j/logs/sweep_%j.log" # job-wide, once, before the groups
		echo ''                                   # after {% if het_components %}
		echo ''                                   # after the {# ... #} comment
		group 4 1                                 # prefill: roles.prefill.nodes 3 + the dedicated etcd/NATS node
		group 2 0                                 # decode: roles.decode.nodes
		echo ''                                   # between the outer {% endfor %} and {% else %}
		echo ''                                   # after {% endif %}
		echo ''                                   # the template's empty line
	} >"$T/want"
	header "$T/out" >"$T/got"
	check "$tag het header" "$T/want" "$T/got"
	grep -q '^#SBATCH --nodes=6$' "$T/out" && { echo "FAIL $tag: a single-allocation --nodes in a het job"; fail=1; }
	# the dry-run's "SLURM Heterogeneous Job" table (show_config_details) in
	# its Panel, derived from Rich's rules (lib/rich.c) and checked against
	# python3-rich 13.3.1: the panel is the console's 80 cells with one space
	# of padding; a fixed-width column is its width + 2 (Group 5+2, Side 8+2,
	# Nodes 6+2, Segment 8+2, GPUs/node 10+2), Infra its widest cell
	# ("first node") + 1 (pad_edge=False: no padding at the outer edges);
	# with the 7 borders the table is 65 wide, the title centred over it
	# ((65-23)//2 = 21 spaces before); Nodes, Segment, GPUs/node are
	# justify="right", header included.
	{
		echo '╭──────────────────────────────────────────────────────────────────────────────╮'
		echo '│                      SLURM Heterogeneous Job                                 │'
		echo '│ ┏━━━━━━━┳━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━┓            │'
		echo '│ ┃Group  ┃ Side     ┃  Nodes ┃  Segment ┃  GPUs/node ┃ Infra     ┃            │'
		echo '│ ┡━━━━━━━╇━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━┩            │'
		echo '│ │0      │ prefill  │      4 │        4 │          4 │ first node│            │' # infra_dedicated: "first node" on prefill
		echo '│ │1      │ decode   │      2 │        2 │          4 │           │            │'
		echo '│ └───────┴──────────┴────────┴──────────┴────────────┴───────────┘            │'
		echo '╰──────────────────────────────────────────────────────────────────────────────╯'
	} >"$T/want"
	(cd "$H" && COLUMNS=80 "$bin" render recipe.yaml) >"$T/out80" 2>&1
	grep -B1 -A7 '^│ *SLURM Heterogeneous Job *│$' "$T/out80" >"$T/got"
	check "$tag het table" "$T/want" "$T/got"

	# --- the recipe's het_jobs: false beats the cluster: one allocation -------
	sed 's/^slurm:/resources:\n  het_jobs: false\nslurm:/' "$H/recipe.yaml" >"$H/.off.yaml"
	(cd "$H" && "$bin" render .off.yaml) >"$T/out" 2>&1; unpanel "$T/out"
	grep -q '^#SBATCH hetjob$' "$T/out" && { echo "FAIL $tag: het_jobs: false still het"; fail=1; }
	grep -qx '#SBATCH --nodes=6' "$T/out" || { echo "FAIL $tag: het off: nodes 3+2+dedicated"; fail=1; }
	grep -qx '#SBATCH --segment=6' "$T/out" || { echo "FAIL $tag: het off: one segment"; fail=1; }

	# --- the launch plan: srtctl starts every step of a het job with
	# --het-group of its node's component (Nodes.het_group_for) and splits
	# multi-node steps per component; srt-tui does not render that plan and
	# says so, whichever of the recipe and the cluster made the job het ------
	why='the launch plan of a heterogeneous SLURM job (the cluster'"'"'s use_het_jobs: true) is not rendered'
	for fmt in plan snapshot; do
		(cd "$H" && "$bin" render --format $fmt recipe.yaml) >"$T/out" 2>"$T/err"; rc=$?
		[ $rc -eq 1 ] || { echo "FAIL $tag: $fmt of a het job from the cluster: exit $rc"; fail=1; }
		grep -qF "recipe.yaml: $why" "$T/err" || { echo "FAIL $tag: $fmt refusal"; cat "$T/err"; fail=1; }
		grep -qF 'set resources.het_jobs: false' "$T/err" || { echo "FAIL $tag: $fmt refusal says how"; fail=1; }
		[ -s "$T/out" ] && { echo "FAIL $tag: $fmt printed a plan for a het job"; fail=1; }
	done
	sed 's/^slurm:/resources:\n  het_jobs: true\nslurm:/' "$H/recipe.yaml" >"$T/on.yaml"
	(cd "$T" && "$bin" render --format plan on.yaml) >"$T/out" 2>"$T/err"; rc=$?
	[ $rc -eq 1 ] && grep -qF '(resources.het_jobs: true) is not rendered' "$T/err" ||
		{ echo "FAIL $tag: plan of resources.het_jobs: true without a cluster: exit $rc"; cat "$T/err"; fail=1; }
	# the same job as one allocation (the recipe's false beats the cluster) is planned
	(cd "$H" && "$bin" render --format plan .off.yaml) >"$T/out" 2>"$T/err" ||
		{ echo "FAIL $tag: plan with het_jobs: false"; cat "$T/err"; fail=1; }
	grep -q '^job: 6 nodes' "$T/out" || { echo "FAIL $tag: het off plan: 6 nodes"; head -3 "$T/out"; fail=1; }
	(cd "$H" && "$bin" render --format json recipe.yaml) >"$T/j" 2>&1
	grep -qF "\"steps_error\": \"$why" "$T/j" || { echo "FAIL $tag: json steps_error"; fail=1; }

	# --- trtllm: one task per GPU in each group ---------------------------------
	sed 's/^engine: sglang/engine: trtllm/' "$H/recipe.yaml" >"$H/.trt.yaml"
	(cd "$H" && "$bin" render .trt.yaml) >"$T/out" 2>&1; unpanel "$T/out"
	sed -n '/^#SBATCH --nodes=4$/,/^#SBATCH --ntasks-per-node/p' "$T/out" >"$T/got"
	printf '#SBATCH --nodes=4\n\n#SBATCH --ntasks=16\n#SBATCH --ntasks-per-node=4\n' >"$T/want" # gpus_per_node * nodes
	check "$tag het trtllm prefill group" "$T/want" "$T/got"
	grep -qx '#SBATCH --ntasks=8' "$T/out" || { echo "FAIL $tag: het trtllm decode ntasks 4*2"; fail=1; }

	# --- srtctl refuses: a role engine override, a dedicated frontend ----------
	sed 's/^    workers: 1$/    workers: 1\n    engine: vllm/' "$H/recipe.yaml" >"$H/.role.yaml"
	(cd "$H" && "$bin" render .role.yaml) >"$T/out" 2>&1; unpanel "$T/out"
	grep -qx '# ValueError: Role engine overrides require resources.het_jobs: false' "$T/out" ||
		{ echo "FAIL $tag: role engine refusal"; sed -n 1,12p "$T/out"; fail=1; }
	grep -q '^#SBATCH' "$T/out" && { echo "FAIL $tag: a refused het job has directives"; fail=1; }
	printf 'frontend:\n  type: dynamo\n  placement:\n    node: dedicated\n' | cat "$H/recipe.yaml" - >"$H/.fe.yaml"
	(cd "$H" && "$bin" render .fe.yaml) >"$T/out" 2>&1; unpanel "$T/out"
	grep -q '^# ValueError: frontend.placement.node: dedicated / benchmark.placement.node: dedicated are not supported with heterogeneous SLURM jobs' "$T/out" ||
		{ echo "FAIL $tag: dedicated frontend refusal"; fail=1; }

	# --- json: the components -------------------------------------------------
	(cd "$H" && "$bin" render --format json recipe.yaml) >"$T/j" 2>&1
	if command -v python3 >/dev/null 2>&1; then
		python3 - "$T/j" <<'EOF' || { echo "FAIL $tag: json het_components"; fail=1; }
import json, sys
d = json.load(open(sys.argv[1]))
h = d["sbatch"]["het_components"]
assert [(c["group"], c["side"], c["nodes"], c["segment"]) for c in h] == [(0, "prefill", 4, 4), (1, "decode", 2, 2)], h
assert d["sbatch"]["directives"].count("#SBATCH hetjob") == 1, d["sbatch"]["directives"]
EOF
	else
		echo "skip: python3 not installed, JSON not checked"
	fi
	rm -f "$H/.off.yaml" "$H/.trt.yaml" "$H/.role.yaml" "$H/.fe.yaml"
done
[ $fail -eq 0 ] && echo "cluster_het: all checks passed"
exit $fail
