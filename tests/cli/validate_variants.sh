#!/bin/sh
# srt-tui validate on files that are many jobs (spec 9): every override
# variant and sweep job checked as a recipe, each message naming its
# variants and pointing at the line of base, of the section or of the zip
# element that causes it; FILE:SELECTOR, --set/--unset, srtctl's errors and
# exit codes, under the release and sanitizer binaries.
set -u
fail=0
G=$SRCDIR/tests/golden/variants
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
cd "$SRCDIR/tests/fixtures/variants" || exit 1

. "$SRCDIR/tests/cli/lib.sh"

for bin in "$SRT_TUI" "$SRT_TUI_SAN"; do
	tag=${bin##*/}
	# every variant: base's problem once, a section's at its line, the zip
	# element's at its own line
	run "$tag all variants" 1 "$bin" validate ovr.yaml
	check "$tag all variants" "$G/ovr.txt" "$T/out"
	[ -s "$T/err" ] && { echo "FAIL $tag: stderr"; cat "$T/err"; fail=1; }
	# one variant: base's problem names it
	run "$tag :override_bad" 1 "$bin" validate ovr.yaml:override_bad
	check "$tag :override_bad" "$G/ovr-bad.txt" "$T/out"
	# JSON: the variant field
	run "$tag json zip group" 1 "$bin" validate --format json 'ovr.yaml:zip_override_ctx'
	check "$tag json zip group" "$G/ovr-zip.json" "$T/out"
	# a clean variant
	# (removing only its args would leave a server without the flags it
	# needs: --unset takes the whole service)
	run "$tag :override_good --set" 0 "$bin" validate 'ovr.yaml:override_good' \
		--unset 'services[0]'
	[ -s "$T/out" ] && { echo "FAIL $tag: override_good not clean"; cat "$T/out"; fail=1; }
	# a value from --set has no line: the flag is named; it fans out to every
	# section, so it is one entry; --set gpus=3 repairs override_bad
	run "$tag --set" 1 "$bin" validate ovr.yaml --set roles.agg.nodes=x --set roles.agg.gpus=3
	check "$tag --set" "$G/ovr-set.txt" "$T/out"
	# a sweep file: every job (a typed placeholder srtctl's schema does not list)
	run "$tag sweep" 0 "$bin" validate ../override/sweep-agg.yaml
	check "$tag sweep" "$G/sweep-agg.txt" "$T/out"

	# Errors.  Selectors that do not resolve are the file's problem (exit 1),
	# srtctl's text; a malformed selector or --set is a usage error (exit 2).
	run "$tag missing override" 1 "$bin" validate ovr.yaml:override_x
	printf '%s\n' "ovr.yaml: error: failed to expand overrides: Override 'override_x' not found in config. Available: override_bad, override_good, zip_override_ctx[i] [override-expand]" \
		"  hint: pick a variant the file has: 'srt-tui expand FILE' lists them" >"$T/want"
	check "$tag missing override" "$T/want" "$T/out"
	run "$tag index out of range" 1 "$bin" validate 'ovr.yaml:zip_override_ctx[2]'
	printf '%s\n' "ovr.yaml:41:1: error: failed to expand overrides: Index [2] out of range for 'zip_override_ctx' (has 2 variants, valid: 0–1) [override-expand]" \
		"  hint: pick a variant the file has: 'srt-tui expand FILE' lists them" >"$T/want"
	check "$tag index out of range" "$T/want" "$T/out"
	expect_err "$tag bad selector" 2 \
		"srt-tui: validate: Invalid selector 'tp2'. Must be 'base', 'override_<name>', 'zip_override_<name>', 'zip_override_<name>[N]', or a glob pattern like '*mtp*'." \
		"$bin" validate ovr.yaml:tp2
	expect_err "$tag bad --set path" 2 "srt-tui: ovr.yaml: empty segment in override path 'a..b'" \
		"$bin" validate ovr.yaml --set a..b=1
	expect_err "$tag --set without =" 2 "srt-tui: ovr.yaml: --set expects KEY=VALUE, got 'roles.agg'" \
		"$bin" validate ovr.yaml --set roles.agg
	expect_err "$tag --set the sections refuse" 1 "srt-tui: ovr.yaml: services[0]: cannot index a non-list with [0]" \
		"$bin" validate ovr.yaml --set 'services[0].args[1]=9001'
	expect_err "$tag --set needs a value" 2 "srt-tui: validate: --set needs a value; see 'srt-tui validate --help'" \
		"$bin" validate ovr.yaml --set
	# a selector on a plain recipe: srtctl's warning, then the recipe
	run "$tag selector on a plain file" 0 "$bin" validate "$SRCDIR/tests/fixtures/validate/clean.yaml:override_x"
	printf '%s\n' "srt-tui: $SRCDIR/tests/fixtures/validate/clean.yaml: Selector ':override_x' ignored — config is not an override file" >"$T/want"
	check "$tag selector on a plain file" "$T/want" "$T/err"
done

# srtctl's own override and sweep examples.  The schema 2 ones have no errors
# (only the warnings of spec 9.13); the pre-2.0 ones are reported, and every
# message names variants the file has.
if [ -n "${SHARED:-}" ] && [ -d "$SHARED/reference" ]; then
	R=$SHARED/reference
	for f in features__override.yaml features__sweep.yaml; do
		[ -f "$R/$f" ] || continue
		"$SRT_TUI_SAN" validate "$R/$f" >"$T/out" 2>&1 || { echo "FAIL: $f has errors"; cat "$T/out"; fail=1; }
	done
	if [ -f "$R/features__override.yaml" ]; then
		"$SRT_TUI" validate "$R/features__override.yaml" | grep -o '^[^ ]* warning: \[[^]]*\]' |
			sed 's/.* warning: //' >"$T/got"
		printf '%s\n' '[override_context_0]' '[override_context_1]' '[override_context_1]' >"$T/want"
		check "features__override labels" "$T/want" "$T/got"
	fi
	for f in example-override.yaml features__override.nvidia-b9947a0a.yaml; do
		[ -f "$R/$f" ] || continue
		"$SRT_TUI" validate "$R/$f" >"$T/out" 2>&1; rc=$?
		[ $rc = 1 ] || { echo "FAIL: $f (pre-2.0) exit $rc"; fail=1; }
		# the variant names srtctl gives (spec 9.11 A and C)
		sed -n 's/^[^ ]*: error: \[\([^]]*\)\].*/\1/p' "$T/out" | tr ',' '\n' | sed 's/^ *//; s/ and [0-9]* more$//' |
			sort -u >"$T/got"
		case $f in
		example-*) printf '%s\n' 'all variants' override_small override_tp64 override_tp_sweep_0 \
			override_tp_sweep_1 override_tp_sweep_2 ;;
		*) printf '%s\n' 'all variants' override_context_0 override_context_1 override_tp2 ;;
		esac | sort >"$T/all"
		if [ ! -s "$T/got" ] || [ -n "$(comm -23 "$T/got" "$T/all")" ]; then
			echo "FAIL: $f labels not among its variants:"; comm -23 "$T/got" "$T/all"; fail=1
		fi
	done
else
	echo "skip: shared reference recipes not available"
fi
[ $fail = 0 ] && echo "validate_variants: all checks passed"
exit $fail
