#!/bin/sh
# `srt-tui render FILE --format snapshot` must equal srtctl's saved launch
# snapshot byte for byte, for every snapshot we have a recipe for; and the
# golden plans of our own fixtures and of every example must hold through
# the CLI too.
set -u
fail=0
if "$SRT_TUI" render 2>&1 | grep -q 'not built yet'; then
	echo "skipped: the render command is not built yet"
	exit 77
fi

check() { # label, expected file, command...
	label=$1 want=$2
	shift 2
	out=${TMPDIR:-/tmp}/srt-tui-snapshot.$$
	"$@" >"$out" 2>"$out.err"
	rc=$?
	if [ $rc -ne 0 ] || ! cmp -s "$out" "$want"; then
		echo "FAIL $label: exit $rc, or output differs from $want"
		sed 's/^/    stderr: /' "$out.err" | head -5
		diff "$want" "$out" | head -20
		fail=1
	else
		echo "ok   $label"
	fi
	rm -f "$out" "$out.err"
}

for fx in vllm-pd-multiconnector atom-pd atom-pd-lmcache; do
	check "fixture $fx" "$SRCDIR/tests/golden/plan/$fx.snapshot" \
		"$SRT_TUI" render "$SRCDIR/tests/fixtures/plan/$fx.yaml" --format snapshot \
		--snapshot-name "tests/fixtures/plan/$fx.yaml"
done

check "fixture vllm-pd-multiconnector --format plan" \
	"$SRCDIR/tests/golden/plan/vllm-pd-multiconnector.plan" \
	"$SRT_TUI" render "$SRCDIR/tests/fixtures/plan/vllm-pd-multiconnector.yaml" --format plan

# every example has a golden launch snapshot (reasoned from the spec, as the
# fixtures' are): a new example without one fails here
for f in "$SRCDIR"/examples/*.yaml; do
	[ -f "$f" ] || continue
	n=$(basename "$f" .yaml)
	want=$SRCDIR/tests/golden/plan/example-$n.snapshot
	if [ ! -f "$want" ]; then
		echo "FAIL example $n: no golden plan tests/golden/plan/example-$n.snapshot"
		fail=1
		continue
	fi
	check "example $n" "$want" "$SRT_TUI" render "$f" --format snapshot --snapshot-name "examples/$n.yaml"
done

if [ -z "${SHARED:-}" ]; then
	echo "skipped: SHARED is empty, srtctl's launch snapshots are not available"
	exit $fail
fi
for n in features__lmcache-server features__lmcache-server-sglang sglang__dynamo-agg \
	sglang__sglang-direct-agg vllm__dynamo-agg vllm__dynamo-disagg; do
	snap="$SHARED/reference/snapshots/$n.txt"
	name=$(head -n 1 "$snap" | sed 's/^# //')
	check "snapshot $n" "$snap" \
		"$SRT_TUI" render "$SHARED/reference/$n.yaml" --format snapshot --snapshot-name "$name"
	# the sanitizer build must agree and stay clean
	check "snapshot $n (san)" "$snap" \
		"$SRT_TUI_SAN" render "$SHARED/reference/$n.yaml" --format snapshot --snapshot-name "$name"
done
exit $fail
