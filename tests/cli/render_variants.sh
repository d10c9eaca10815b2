#!/bin/sh
# srt-tui render on files that are many jobs (spec 9.6, 9.8): FILE:SELECTOR
# previews one override variant, --job one job of a sweep; without a pick the
# dry-run format lists them (exit 0) and the machine formats refuse with
# srtctl's messages; every format renders the picked variant exactly as the
# resolved file `expand --write` gives; --set/--unset; errors and exit codes.
set -u
fail=0
G=$SRCDIR/tests/golden/variants
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
cd "$SRCDIR/tests/fixtures/variants" || exit 1
SW=../override/sweep-agg.yaml

. "$SRCDIR/tests/cli/lib.sh"

for bin in "$SRT_TUI" "$SRT_TUI_SAN"; do
	tag=${bin##*/}
	# listings
	run "$tag list variants" 0 "$bin" render ovr.yaml
	check "$tag list variants" "$G/render-list.txt" "$T/out"
	[ -s "$T/err" ] && { echo "FAIL $tag: stderr"; cat "$T/err"; fail=1; }
	run "$tag list glob" 0 "$bin" render 'ovr.yaml:override_*'
	printf '%s\n' "Override Config: mini (2 variants, selector: override_*)" \
		"[1/2] override_bad: mini_bad  (ovr.yaml:override_bad)" \
		"[2/2] override_good: mini_good  (ovr.yaml:override_good)" \
		"render previews one variant: srt-tui render 'ovr.yaml:override_bad'" >"$T/want"
	check "$tag list glob" "$T/want" "$T/out"
	run "$tag list jobs" 0 "$bin" render "$SW"
	check "$tag list jobs" "$G/render-sweep-list.txt" "$T/out"

	# one variant, one job
	run "$tag variant" 0 "$bin" render ovr.yaml:override_good --format summary
	check "$tag variant" "$G/render-good.txt" "$T/out"
	run "$tag job by index" 0 "$bin" render "$SW" --job 2
	[ "$(head -n 1 "$T/out")" = "[2/4] tiny-sweep_concurrency4_max_running_requests64" ] ||
		{ echo "FAIL $tag: job header: $(head -n 1 "$T/out")"; fail=1; }
	run "$tag job by name" 0 "$bin" render "$SW" --job tiny-sweep_concurrency8_max_running_requests16
	[ "$(head -n 1 "$T/out")" = "[3/4] tiny-sweep_concurrency8_max_running_requests16" ] ||
		{ echo "FAIL $tag: job by name: $(head -n 1 "$T/out")"; fail=1; }

	# --set/--unset reach the variant (fanned out into every section)
	run "$tag --set" 0 "$bin" render ovr.yaml:override_good --format json --set roles.agg.workers=3
	grep -q '^      "workers": 3,$' "$T/out" || { echo "FAIL $tag: --set not in the preview"; fail=1; }
	run "$tag --unset" 0 "$bin" render ovr.yaml:override_good --format json --unset 'services[0].args'
	grep -q '"--port",' "$T/out" && grep -q '"9000"' "$T/out" && { echo "FAIL $tag: --unset ignored"; fail=1; }

	# refusals: srtctl's words for the machine formats
	expect_err "$tag json of many" 1 \
		"srt-tui: ovr.yaml: render needs exactly one variant: pass a selector (-f config.yaml:base or -f config.yaml:override_name) instead of rendering 4 variants into one directory
  hint: 'srt-tui render ovr.yaml' lists them; pick one with ovr.yaml:SELECTOR" \
		"$bin" render ovr.yaml --format json
	expect_err "$tag snapshot of a sweep" 1 \
		"srt-tui: $SW: render does not support sweep configs; render one variant at a time
  hint: pick one job with --job N or --job NAME ('srt-tui render $SW' lists them)" \
		"$bin" render "$SW" --format snapshot
	expect_err "$tag no such job" 1 \
		"srt-tui: $SW: no job '9' in the sweep: give 1 to 4 or a job name ('srt-tui render $SW' lists them)" \
		"$bin" render "$SW" --job 9
	expect_err "$tag --job without a sweep" 2 \
		"srt-tui: render: --job picks a job of a sweep, and ovr.yaml:override_good has no sweep block" \
		"$bin" render ovr.yaml:override_good --job 1
	expect_err "$tag missing override" 1 \
		"srt-tui: ovr.yaml: Override 'override_x' not found in config. Available: override_bad, override_good, zip_override_ctx[i]" \
		"$bin" render ovr.yaml:override_x
	expect_err "$tag index out of range" 1 \
		"srt-tui: ovr.yaml: Index [5] out of range for 'zip_override_ctx' (has 2 variants, valid: 0–1)" \
		"$bin" render 'ovr.yaml:zip_override_ctx[5]'
	expect_err "$tag bad selector" 2 \
		"srt-tui: render: Invalid selector 'good'. Must be 'base', 'override_<name>', 'zip_override_<name>', 'zip_override_<name>[N]', or a glob pattern like '*mtp*'." \
		"$bin" render ovr.yaml:good
	expect_err "$tag bad --set path" 2 "srt-tui: ovr.yaml: override path '[0]' must start with a key, not an index" \
		"$bin" render ovr.yaml:override_good --set '[0]=1'
	run "$tag selector on a plain file" 0 "$bin" render --format summary "$SRCDIR/examples/vllm-agg.yaml:base"
	printf '%s\n' "srt-tui: $SRCDIR/examples/vllm-agg.yaml: Selector ':base' ignored — config is not an override file" >"$T/want"
	check "$tag selector on a plain file" "$T/want" "$T/err"
	check "$tag selector on a plain file: output" "$SRCDIR/tests/golden/summary/vllm-agg.txt" "$T/out"
done

# Every format renders the picked variant as srtctl would render the
# resolved variant file (expand --write writes it, comments kept); in json
# the sbatch script names the file it was given, so that line is left out.
mkdir "$T/w" "$T/s"
"$SRT_TUI" expand ovr.yaml:override_good --write "$T/w" >/dev/null || { echo "FAIL: expand --write"; fail=1; }
"$SRT_TUI" expand "$SW" --write "$T/s" >/dev/null || { echo "FAIL: expand --write sweep"; fail=1; }
for f in json plan snapshot; do
	"$SRT_TUI_SAN" render ovr.yaml:override_good --format $f --snapshot-name x.yaml >"$T/a" 2>"$T/e" ||
		{ echo "FAIL: --format $f of a variant"; cat "$T/e"; fail=1; }
	"$SRT_TUI" render "$T/w/ovr_good.yaml" --format $f --snapshot-name x.yaml >"$T/b"
	sed -i '/^    "script": /d' "$T/a" "$T/b"
	check "--format $f of a variant = of its resolved file" "$T/b" "$T/a"
	"$SRT_TUI_SAN" render "$SW" --job 4 --format $f --snapshot-name x.yaml >"$T/a" 2>"$T/e" ||
		{ echo "FAIL: --format $f of a sweep job"; cat "$T/e"; fail=1; }
	"$SRT_TUI" render "$T/s/sweep-agg_concurrency8_max_running_requests64.yaml" --format $f \
		--snapshot-name x.yaml >"$T/b"
	sed -i '/^    "script": /d' "$T/a" "$T/b"
	check "--format $f of a sweep job = of its resolved file" "$T/b" "$T/a"
done

# srtctl's override and sweep examples: the variant and job names of spec
# 9.11 A, C and D (pre-2.0 layouts included: names do not depend on them).
if [ -n "${SHARED:-}" ] && [ -d "$SHARED/reference" ]; then
	R=$SHARED/reference
	names() { "$SRT_TUI" render "$R/$1" | sed -n 's/^\[[0-9]*\/[0-9]*\] \([^ ]*\).*/\1/p' | tr '\n' ' '; }
	for t in "features__override.yaml|override_tp2: override_context_0: override_context_1: " \
		"features__override.nvidia-b9947a0a.yaml|override_tp2: override_context_0: override_context_1: " \
		"example-override.yaml|override_small: override_tp64: override_tp_sweep_0: override_tp_sweep_1: override_tp_sweep_2: " \
		"features__sweep.yaml|qwen3-0.6b-sweep_concurrency4_max_running_requests16 qwen3-0.6b-sweep_concurrency4_max_running_requests64 qwen3-0.6b-sweep_concurrency8_max_running_requests16 qwen3-0.6b-sweep_concurrency8_max_running_requests64 " \
		"example-sweep.yaml|example-sweep_chunked_prefill_size4096_max_total_tokens8192 example-sweep_chunked_prefill_size4096_max_total_tokens16384 example-sweep_chunked_prefill_size8192_max_total_tokens8192 example-sweep_chunked_prefill_size8192_max_total_tokens16384 "; do
		f=${t%%|*} want=${t#*|}
		[ -f "$R/$f" ] || continue
		got=$(names "$f")
		[ "$got" = "$want" ] || { echo "FAIL: $f names: $got"; fail=1; }
	done
	# job names of the zip variants (spec 9.11 C)
	got=$("$SRT_TUI" render "$R/example-override.yaml:zip_override_tp_sweep" | sed -n 's/^\[.*\] [^ ]*: \([^ ]*\) .*/\1/p' | tr '\n' ' ')
	[ "$got" = "disagg-fp8-benchmark-tp16 disagg-fp8-benchmark-tp32 disagg-fp8-benchmark-tp64 " ] ||
		{ echo "FAIL: zip job names: $got"; fail=1; }
	# schema 2 variants render in every format (the launch plan needs one
	# worker for a direct sglang frontend: override_tp2 has one)
	for f in dry-run json plan snapshot; do
		for s in override_tp2 'zip_override_context[1]'; do
			case $f/$s in plan/zip*|snapshot/zip*) continue ;; esac
			"$SRT_TUI_SAN" render "$R/features__override.yaml:$s" --format $f >/dev/null 2>"$T/e" ||
				{ echo "FAIL: features__override:$s --format $f"; cat "$T/e"; fail=1; }
		done
	done
else
	echo "skip: shared reference recipes not available"
fi
[ $fail = 0 ] && echo "render_variants: all checks passed"
exit $fail
