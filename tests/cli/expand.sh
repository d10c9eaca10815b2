#!/bin/sh
# srt-tui expand: variant listings, sweeps, --set/--unset, --write with base's
# comments kept, srtctl's error messages and exit codes (spec 9).
set -u
fail=0
G=$SRCDIR/tests/golden/expand
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$SRCDIR/tests/fixtures/override" || exit 1

check() { # name, expected file, actual file
	if ! cmp -s "$2" "$3"; then
		echo "FAIL $1:"; diff -u "$2" "$3" | head -40; fail=1
	fi
}
expect_err() { # name, want exit, want stderr, command...
	name=$1 want_rc=$2 want=$3; shift 3
	"$@" >"$T/out" 2>"$T/err"; rc=$?
	if [ "$rc" != "$want_rc" ]; then echo "FAIL $name: exit $rc, want $want_rc"; cat "$T/err"; fail=1; fi
	printf '%s\n' "$want" >"$T/want"
	check "$name" "$T/want" "$T/err"
}

for bin in "$SRT_TUI" "$SRT_TUI_SAN"; do
	"$bin" expand agg-variants.yaml >"$T/a" 2>"$T/e" || { echo "FAIL agg: exit $?"; cat "$T/e"; fail=1; }
	check "agg listing ($bin)" "$G/agg-variants.txt" "$T/a"
	[ -s "$T/e" ] && { echo "FAIL agg: unexpected stderr"; cat "$T/e"; fail=1; }
done
"$SRT_TUI" expand 'disagg-variants.yaml:*tp*' >"$T/a"
check "glob selector" "$G/disagg-tp.txt" "$T/a"
"$SRT_TUI_SAN" expand sweep-agg.yaml >"$T/a" 2>"$T/e" || { echo "FAIL sweep: exit"; cat "$T/e"; fail=1; }
check "sweep listing" "$G/sweep-agg.txt" "$T/a"

# --set reaches base and every section (zip: wrapped), so no variant differs there.
"$SRT_TUI" expand agg-variants.yaml --set roles.agg.args.context-length=16384 >"$T/a"
if grep -q 'context-length' "$T/a" || [ "$(grep -c '^\[' "$T/a")" != 3 ]; then
	echo "FAIL --set fan-out:"; cat "$T/a"; fail=1
fi
# --unset too: gpus is gone from base and the section, so tp2 no longer changes it.
"$SRT_TUI" expand agg-variants.yaml:override_tp2 --unset roles.agg.gpus >"$T/a"
printf '%s\n' "  roles.agg.workers: 2 -> 1" "  roles.agg.args.tensor-parallel-size: 1 -> 2" >"$T/want"
grep '^  ' "$T/a" >"$T/got"
check "--unset" "$T/want" "$T/got"

# --write: base's text edited into each variant; comments and quotes kept.
mkdir "$T/w"
"$SRT_TUI_SAN" expand agg-variants.yaml --write "$T/w" >"$T/a" 2>"$T/e" || { echo "FAIL --write"; cat "$T/e"; fail=1; }
printf 'Wrote: %s\n' "$T/w/agg-variants_tp2.yaml" "$T/w/agg-variants_ctx_0.yaml" \
	"$T/w/agg-variants_ctx_1.yaml" >"$T/want"
tail -n 3 "$T/a" >"$T/got"
check "--write lines" "$T/want" "$T/got"
check "--write tp2 file" "$G/agg-variants_tp2.yaml" "$T/w/agg-variants_tp2.yaml"
grep -q '# two single-GPU workers' "$T/w/agg-variants_ctx_1.yaml" || { echo "FAIL: comment lost"; fail=1; }
# zip variants: schema arrives last, the element of each list is written
[ "$(tail -n 1 "$T/w/agg-variants_ctx_1.yaml")" = "schema: 2" ] || { echo "FAIL: zip schema"; fail=1; }
grep -q '^  concurrencies: \[.4., .8.\]$' "$T/w/agg-variants_ctx_1.yaml" || { echo "FAIL: zip list"; cat "$T/w/agg-variants_ctx_1.yaml"; fail=1; }
# the written variant expands to itself: a plain recipe now
"$SRT_TUI" expand "$T/w/agg-variants_tp2.yaml" >"$T/a"
[ "$(cat "$T/a")" = "$T/w/agg-variants_tp2.yaml: one job (no override sections, no sweep)" ] ||
	{ echo "FAIL: written file"; cat "$T/a"; fail=1; }

# Errors: srtctl's messages, exit 1; usage errors exit 2.
expect_err "bad index" 1 \
	"srt-tui: disagg-variants.yaml: Index [3] out of range for 'zip_override_tp_sweep' (has 3 variants, valid: 0–2)" \
	"$SRT_TUI" expand 'disagg-variants.yaml:zip_override_tp_sweep[3]'
expect_err "missing override" 1 \
	"srt-tui: disagg-variants.yaml: Override 'override_x' not found in config. Available: override_small, override_tp64, zip_override_tp_sweep[i]" \
	"$SRT_TUI_SAN" expand disagg-variants.yaml:override_x
expect_err "no glob match" 1 \
	"srt-tui: disagg-variants.yaml: No variants match '*zz*'. Available: override_small, override_tp64, zip_override_tp_sweep[i]" \
	"$SRT_TUI" expand 'disagg-variants.yaml:*zz*'
expect_err "bad selector" 2 \
	"srt-tui: expand: Invalid selector 'tp2'. Must be 'base', 'override_<name>', 'zip_override_<name>', 'zip_override_<name>[N]', or a glob pattern like '*mtp*'." \
	"$SRT_TUI" expand disagg-variants.yaml:tp2
expect_err "empty path" 2 "srt-tui: expand: Invalid config path in selector syntax." \
	"$SRT_TUI" expand :base
expect_err "bad set path" 2 "srt-tui: agg-variants.yaml: empty segment in override path 'a..b'" \
	"$SRT_TUI" expand agg-variants.yaml --set a..b=1
expect_err "set without =" 2 "srt-tui: agg-variants.yaml: --set expects KEY=VALUE, got 'a.b'" \
	"$SRT_TUI" expand agg-variants.yaml --set a.b
expect_err "set on a string" 1 "srt-tui: agg-variants.yaml: name.child: cannot set a key on a non-mapping" \
	"$SRT_TUI_SAN" expand agg-variants.yaml --set name.child=1
expect_err "sweep param" 1 "srt-tui: sweep-bad.yaml: Sweep parameter 'b' must be a list" \
	sh -c 'cd "$1" && printf "name: x\nsweep:\n  b: 5\n" >sweep-bad.yaml && "$2" expand sweep-bad.yaml' _ "$T" "$SRT_TUI"
expect_err "zip lengths" 1 "srt-tui: zip.yaml: Incompatible zip lengths [2, 3]. All lists must have the same length or length 1 (broadcast)." \
	sh -c 'cd "$1" && printf "base: {name: x}\nzip_override_g:\n  a: [1, 2]\n  b: [1, 2, 3]\n" >zip.yaml && "$2" expand zip.yaml' _ "$T" "$SRT_TUI"
expect_err "unknown option" 2 "srt-tui: expand: unknown option '--nope'; see 'srt-tui expand --help'" \
	"$SRT_TUI" expand agg-variants.yaml --nope

# Spec 9.11 A on the published example, when the reference folder exists.
if [ -n "${SHARED:-}" ]; then
	"$SRT_TUI" expand "$SHARED/reference/features__override.yaml" | grep -v '^  ' |
		sed 's/  (.*)$//' >"$T/a"
	printf '%s\n' "Override Config: qwen3-0.6b-override (3 variants)" \
		"[1/3] override_tp2: qwen3-0.6b-override_tp2" \
		"[2/3] override_context_0: qwen3-0.6b-override-ctx2k" \
		"[3/3] override_context_1: qwen3-0.6b-override-ctx8k" >"$T/want"
	check "spec 9.11 A" "$T/want" "$T/a"
	"$SRT_TUI" expand "$SHARED/reference/features__sweep.yaml" | grep '^\[' >"$T/a"
	printf '%s\n' "[1/4] qwen3-0.6b-sweep_concurrency4_max_running_requests16" \
		"[2/4] qwen3-0.6b-sweep_concurrency4_max_running_requests64" \
		"[3/4] qwen3-0.6b-sweep_concurrency8_max_running_requests16" \
		"[4/4] qwen3-0.6b-sweep_concurrency8_max_running_requests64" >"$T/want"
	check "spec 9.11 B" "$T/want" "$T/a"
else
	echo "skip: SHARED not set, published examples not checked"
fi
[ "$fail" = 0 ] && echo "expand: all checks passed"
exit "$fail"
