#!/bin/sh
# srtctl's own published examples (../shared/reference/upstream/examples) and
# launch snapshots: every example in the schema 2 layout validates with no
# errors and renders; a snapshot in srtctl's current log layout (logs/workers/,
# logs/services/logs/; the MANIFEST files' layout column says "new") must equal
# `render --format snapshot` byte for byte; an older-layout one (flat logs/)
# must agree per step in name, nodes, environment and command (snapcmp.py).
# Prints the counts.  Files whose example and snapshot come from different
# srtctl versions (the MANIFEST's commit column) and the evidence are listed
# in SKEW below; the ones not rendered yet are in PENDING: a file that starts
# to pass must leave that list, and one that passes must keep passing.
set -u
if [ -z "${SHARED:-}" ] || [ ! -d "$SHARED/reference/upstream/examples" ]; then
	echo "skip: srtctl's upstream examples are not available (../shared/reference/upstream)"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	echo "skip: python3 is not installed (mk/deps.sh installs it)"
	exit 0
fi
U=$SHARED/reference/upstream
T=$(mktemp -d "${TMPDIR:-/tmp}/srt-tui-upstream.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0

# Written before schema 2 took its present form: srtctl's current loader
# refuses them (pre-2.0 keys; `srtctl migrate` rewrites them), so they are
# not "current layout" examples.  Evidence: the key, printed per file below.
PRE2='^backend:|^  (agg|prefill|decode)_(nodes|workers):|^  gpus_per_(agg|prefill|decode):'

# Schema 2 copies in ../shared/reference that keep the pre-2.0 spelling of the
# SGLang router, frontend.type: sglang.  In schema 2 that names the direct
# frontend, which serves one worker; srtctl migrate renames the old router
# spelling to sglang-router (srtctl's documentation of frontend.type), and
# their snapshots run sglang_router.launch_router.  They are read as renamed.
ROUTER_SPELLING="features__services sglang__sglang-router-agg"

# Not rendered, or not equal yet (what is missing, per file).
PENDING="
"
# Skewed: the snapshot was made by an older srtctl than the example (MANIFEST
# commit column), and it differs from what the current-layout snapshots of the
# same shape show.  name|environment variables left out of the comparison|evidence
# and, for an example that gained a step since its snapshot was made, a fourth
# field: the output of the steps left out of the render before a byte-for-byte
# comparison (current layout) or a per-step one.
SKEW="
trtllm__trtllm-serve-agg-numa-local|DYN_LOG,DYN_REQUEST_PLANE,DYN_SKIP_SGLANG_LOG_FORMATTING,DYN_SYSTEM_PORT,ETCD_ENDPOINTS|snapshot at 17c4ece gives a trtllm_serve worker Dynamo's env; the current-layout trtllm__trtllm-serve-agg snapshot (8633852) gives it none
trtllm__trtllm-serve-agg-numa-memory-local|DYN_LOG,DYN_REQUEST_PLANE,DYN_SKIP_SGLANG_LOG_FORMATTING,DYN_SYSTEM_PORT,ETCD_ENDPOINTS|same srtctl (17c4ece) and the same Dynamo env on a trtllm_serve worker as trtllm__trtllm-serve-agg-numa-local
trtllm__trtllm-serve-mooncake|DYN_LOG,DYN_REQUEST_PLANE,DYN_SKIP_SGLANG_LOG_FORMATTING,DYN_SYSTEM_PORT,ETCD_ENDPOINTS|same srtctl (17c4ece) and the same Dynamo env on a trtllm_serve worker as trtllm__trtllm-serve-agg-numa-local; the trtllm_serve workers of trtllm__trtllm-serve-disagg-mooncake (76d3c64) have none either
features__pools|SRT_SERVICE_DCGM_EXPORTER_IPS,SRT_SERVICE_DCGM_EXPORTER_NODES,SRT_SERVICE_DCGM_EXPORTER_NODE_COUNT|snapshot at 73e0061 runs dcgm-exporter as a telemetry step, so its custom benchmark is told of no such service; every current-layout snapshot (8633852) runs it as a per-node service, and a custom benchmark lists it with the others (features__hle at 86cd474)
features__status-reporting|DYN_LOG,DYN_REQUEST_PLANE,DYN_SKIP_SGLANG_LOG_FORMATTING,DYN_SYSTEM_PORT,ETCD_ENDPOINTS|snapshot at ab64c4e gives a direct-sglang worker Dynamo's env; the current-layout snapshots with a non-Dynamo frontend (trtllm-serve-agg, vllm-direct-agg, tilert glm5-rocm, all 8633852) give none
sglang__sglang-router-disagg|DYN_LOG,DYN_REQUEST_PLANE,DYN_SKIP_SGLANG_LOG_FORMATTING,DYN_SYSTEM_PORT,ETCD_ENDPOINTS|snapshot at 74a93f8 gives sglang-router workers Dynamo's env; the current-layout non-Dynamo snapshots (8633852) give none
vllm__vllm-router-disagg|DYN_LOG,DYN_REQUEST_PLANE,DYN_SKIP_SGLANG_LOG_FORMATTING,DYN_SYSTEM_PORT,ETCD_ENDPOINTS|snapshot at ce99ed2 gives vllm-router workers Dynamo's env; the current-layout non-Dynamo snapshots (8633852) give none
features__services|DYN_LOG,DYN_REQUEST_PLANE,DYN_SKIP_SGLANG_LOG_FORMATTING,DYN_SYSTEM_PORT,ETCD_ENDPOINTS|snapshot at 74a93f8 gives sglang-router workers Dynamo's env, as sglang__sglang-router-disagg's at the same commit; the current-layout non-Dynamo snapshots (8633852) give none
vllm__vllm-router-moriio-disagg|DYN_LOG,DYN_REQUEST_PLANE,DYN_SKIP_SGLANG_LOG_FORMATTING,DYN_SYSTEM_PORT,ETCD_ENDPOINTS|snapshot at ce99ed2 gives vllm-router workers Dynamo's env, as vllm__vllm-router-disagg's at the same commit; SemiAnalysisAI/srt-slurm's snapshot of the same example (e29d2d9) gives them none
vllm__vllm-router-agg|DYN_LOG,DYN_REQUEST_PLANE,DYN_SKIP_SGLANG_LOG_FORMATTING,DYN_SYSTEM_PORT,ETCD_ENDPOINTS|snapshot at 74a93f8 gives vllm-router workers Dynamo's env, as vllm__vllm-router-disagg's at ce99ed2; the current-layout non-Dynamo snapshots (8633852) give none
miles__qwen3-4b-grpo|MILES_SCRIPT_EXTRA_ARGS,SRT_SERVICE_DCGM_EXPORTER_IPS,SRT_SERVICE_DCGM_EXPORTER_NODES,SRT_SERVICE_DCGM_EXPORTER_NODE_COUNT|snapshot at b37bf8c runs dcgm-exporter as a telemetry step (as features__pools at 73e0061), and its recipe's EXTRA_ARGS ended in --sglang-router-port 31000 --use-prometheus ..., which the example at 58b5fa6 no longer has (docs/miles.md at f4064fe still shows them); the same recipe's snapshot at 8633852 differs from this render in those args only
features__torchrun-pool||snapshot at 8633852 has no benchmark step, yet srtctl at 8633852 runs a custom benchmark under frontend.type none (miles__qwen3-4b-grpo's snapshot at 8633852 has it; benchmark_stage.py at b37bf8c has no rule against it) and the example at 8d54dcf says 'the benchmark step waits until every rank has reported in': the example got its benchmark after the snapshot|<output>/logs/benchmark.out
"
skew_env() { echo "$SKEW" | awk -F'|' -v n="$1" '$1 == n { print $2 }'; }
skew_why() { echo "$SKEW" | awk -F'|' -v n="$1" '$1 == n { print $3 }'; }
skew_steps() { echo "$SKEW" | awk -F'|' -v n="$1" '$1 == n { print $4 }'; }
is_skewed() { echo "$SKEW" | awk -F'|' -v n="$1" '$1 == n { f = 1 } END { exit !f }'; }
# the render without the steps the skew names (a new example's step)
skew_render() {
	cp "$1" "$2"
	for o in $(skew_steps "$3" | tr ',' ' '); do
		python3 "$SRCDIR/tests/cli/snapcmp.py" --without "$o" "$2" >"$2.x" && mv "$2.x" "$2"
	done
}

pending() { case " $(echo $PENDING) " in *" $1 "*) return 0 ;; esac; return 1; }
router_spelling() { case " $ROUTER_SPELLING " in *" $1 "*) return 0 ;; esac; return 1; }

layout() { # snapshot base name -> new|old (MANIFEST layout column)
	awk -F'\t' -v f="snapshots/$1.txt" '$1 == "snapshot" && $2 == f { print $6 }' "$U"/MANIFEST-*.tsv
}

n_alt=0 n_alt_exact=0 n_alt_skew=0 n_skew=0 n_skew_new=0 n_ex=0 n_cur=0 n_clean=0 n_rend=0 n_new=0 n_exact=0 n_old=0 n_equal=0
for f in "$U"/examples/*.yaml; do
	b=$(basename "$f" .yaml)
	n_ex=$((n_ex + 1))
	old=$(grep -nE "$PRE2" "$f" | head -1)
	if [ -n "$old" ]; then
		echo "pre-2.0 $b: line ${old%%:*}: '${old#*:}' (srtctl's loader refuses it; run srtctl migrate)"
		# the schema 2 copy of the same example in ../shared/reference, when
		# there is one, stands in for it against the snapshot
		alt=$SHARED/reference/$b.yaml
		if [ -f "$alt" ] && [ -f "$U/snapshots/$b.txt" ] && ! grep -qE "$PRE2" "$alt"; then
			n_alt=$((n_alt + 1))
			name=$(head -n 1 "$U/snapshots/$b.txt" | sed 's/^# //')
			if router_spelling "$b"; then
				awk '/^[^ #]/ { fe = ($0 ~ /^frontend:/) }
				     fe && /^  type: "?sglang"?[ ]*(#.*)?$/ { sub(/sglang/, "sglang-router") } { print }' \
					"$alt" >"$T/alt.yaml"
				alt=$T/alt.yaml
				echo "    reference/$b.yaml keeps the pre-2.0 router spelling frontend.type: sglang; read as srtctl migrate renames it, sglang-router"
			fi
			"$SRT_TUI" render "$alt" --format snapshot --snapshot-name "$name" >"$T/s" 2>/dev/null
			sk=$(skew_env "$b")
			if [ "$(layout "$b")" = new ] && cmp -s "$T/s" "$U/snapshots/$b.txt"; then
				n_alt_exact=$((n_alt_exact + 1))
				echo "    reference/$b.yaml (its schema 2 form) matches the current-layout snapshot byte for byte"
			elif [ "$(layout "$b")" = old ] &&
				python3 "$SRCDIR/tests/cli/snapcmp.py" "$U/snapshots/$b.txt" "$T/s" >/dev/null; then
				n_alt_exact=$((n_alt_exact + 1))
				echo "    reference/$b.yaml (its schema 2 form) equals the older-layout snapshot per step"
			elif [ "$(layout "$b")" = old ] && is_skewed "$b" &&
				python3 "$SRCDIR/tests/cli/snapcmp.py" --skew-env "$sk" "$U/snapshots/$b.txt" "$T/s" >/dev/null; then
				n_alt_skew=$((n_alt_skew + 1))
				echo "    reference/$b.yaml (its schema 2 form) is skewed: $(skew_why "$b"); equal without $sk"
			else
				echo "    reference/$b.yaml (its schema 2 form) does not match the snapshot"
				# this one matched byte for byte: it must keep doing so
				[ "$b" = vllm__vllm-direct-agg ] && { echo "FAIL $b: reference copy no longer exact"; fail=1; }
			fi
		fi
		continue
	fi
	n_cur=$((n_cur + 1))
	# validate: no errors; a warning is printed so the note can say why it is right
	"$SRT_TUI" validate "$f" >"$T/v" 2>&1
	if grep -q ': error: ' "$T/v"; then
		echo "FAIL validate $b:"; grep ': error: ' "$T/v" | head -5; fail=1
	else
		n_clean=$((n_clean + 1))
		grep ': warning: ' "$T/v" | sed "s|^$U/examples/|warning |"
	fi
	snap=$U/snapshots/$b.txt
	name=$b.yaml
	[ -f "$snap" ] && name=$(head -n 1 "$snap" | sed 's/^# //')
	lay=none
	[ -f "$snap" ] && lay=$(layout "$b")
	case $lay in new) n_new=$((n_new + 1)) ;; old) n_old=$((n_old + 1)) ;; esac
	if ! "$SRT_TUI" render "$f" --format snapshot --snapshot-name "$name" >"$T/s" 2>"$T/e"; then
		pending "$b" || { echo "FAIL render $b: $(head -c 300 "$T/e")"; fail=1; }
		continue
	fi
	n_rend=$((n_rend + 1))
	[ "$lay" = none ] && continue
	if [ "$lay" = new ]; then
		if cmp -s "$snap" "$T/s"; then
			n_exact=$((n_exact + 1))
			pending "$b" && { echo "FAIL $b: exact now; take it out of PENDING"; fail=1; }
			is_skewed "$b" && { echo "FAIL $b: exact now; take it out of SKEW"; fail=1; }
		elif is_skewed "$b" && skew_render "$T/s" "$T/k" "$b" && cmp -s "$snap" "$T/k"; then
			n_skew_new=$((n_skew_new + 1))
			echo "skewed $b: $(skew_why "$b"); exact without the steps logged to $(skew_steps "$b")"
		elif ! pending "$b"; then
			echo "FAIL snapshot $b: not byte-exact"; diff "$snap" "$T/s" | head -20; fail=1
		fi
	else
		sk=$(skew_env "$b")
		if is_skewed "$b" && skew_render "$T/s" "$T/k" "$b" &&
			python3 "$SRCDIR/tests/cli/snapcmp.py" --skew-env "$sk" "$snap" "$T/k" >"$T/d"; then
			n_skew=$((n_skew + 1))
			echo "skewed $b: $(skew_why "$b"); equal without $sk"
		elif python3 "$SRCDIR/tests/cli/snapcmp.py" "$snap" "$T/s" >"$T/d"; then
			n_equal=$((n_equal + 1))
			pending "$b" && { echo "FAIL $b: equal now; take it out of PENDING"; fail=1; }
		elif ! pending "$b"; then
			echo "FAIL snapshot $b (older layout): steps differ"; head -20 "$T/d"; fail=1
		fi
	fi
done
# the snapshots whose example is not stored: the schema 2 copy in
# ../shared/reference stands in for it when there is one (as for a pre-2.0
# example); the others are counted as not compared
n_ref=0 n_ref_equal=0 n_ref_skew=0
for s in "$U"/snapshots/*.txt; do
	b=$(basename "$s" .txt)
	[ -f "$U/examples/$b.yaml" ] && continue
	alt=$SHARED/reference/$b.yaml
	if [ ! -f "$alt" ]; then
		echo "no example for snapshot $b (not in the stored index)"
		continue
	fi
	n_ref=$((n_ref + 1))
	name=$(head -n 1 "$s" | sed 's/^# //')
	if ! "$SRT_TUI" render "$alt" --format snapshot --snapshot-name "$name" >"$T/s" 2>"$T/e"; then
		pending "$b" || { echo "FAIL render reference/$b.yaml: $(head -c 300 "$T/e")"; fail=1; }
		continue
	fi
	sk=$(skew_env "$b")
	if { [ "$(layout "$b")" = new ] && cmp -s "$T/s" "$s"; } ||
		{ [ "$(layout "$b")" = old ] && python3 "$SRCDIR/tests/cli/snapcmp.py" "$s" "$T/s" >/dev/null; }; then
		n_ref_equal=$((n_ref_equal + 1))
		echo "reference/$b.yaml (its example is not stored) matches the snapshot"
		pending "$b" && { echo "FAIL $b: equal now; take it out of PENDING"; fail=1; }
		is_skewed "$b" && { echo "FAIL $b: equal now; take it out of SKEW"; fail=1; }
	elif [ "$(layout "$b")" = old ] && is_skewed "$b" &&
		python3 "$SRCDIR/tests/cli/snapcmp.py" --skew-env "$sk" "$s" "$T/s" >"$T/d"; then
		n_ref_skew=$((n_ref_skew + 1))
		echo "skewed reference/$b.yaml (its example is not stored): $(skew_why "$b"); equal without $sk"
	elif pending "$b"; then
		echo "pending reference/$b.yaml (its example is not stored): does not match the snapshot yet"
	else
		echo "FAIL reference/$b.yaml against snapshot $b:"
		python3 "$SRCDIR/tests/cli/snapcmp.py" --skew-env "$sk" "$s" "$T/s" | head -20
		fail=1
	fi
done
echo "examples: $n_cur/$n_ex in the schema 2 layout; $n_clean/$n_cur validate with no errors; $n_rend/$n_cur render"
echo "current-layout snapshots: $n_exact/$n_new exact; $n_skew_new more once the skew shown is left out"
echo "pre-2.0 examples through their schema 2 copy in ../shared/reference: $n_alt_exact/$n_alt match their snapshot; $n_alt_skew more once the skew shown is left out"
echo "older-layout snapshots: $n_equal/$n_old equal in steps, nodes, env and commands; $n_skew more equal once the skew shown is left out"
echo "snapshots without a stored example, through their schema 2 copy in ../shared/reference: $n_ref_equal/$n_ref match; $n_ref_skew more once the skew shown is left out"
exit $fail
