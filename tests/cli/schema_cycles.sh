#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A srtctl schema whose $ref / anyOf / oneOf lead back to themselves (a
# recursive type, or a hostile file) must be walked to an answer, not
# followed until the stack runs out.  The schema reaches srt-tui four
# ways, and each is tried with each looping schema: `srtctl schema` of a
# stand-in on PATH, --srtctl-dir, the cluster file's srtctl_root two
# folders up, and the cache a first run leaves.  Every run must end within
# the timeout with srt-tui's own verdict: the recipe's unknown field is
# still an error (exit 1), nothing dies of a signal.
set -u
fail=0
T=$(mktemp -d "${TMPDIR:-/tmp}/srt-tui-cycles.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$SRCDIR/tests/cli/lib.sh"
FX=$SRCDIR/tests/fixtures/srtctl-cycles

# one field no schema knows, so that validation asks the loaded schema
cp "$SRCDIR/examples/vllm-agg.yaml" "$T/r.yaml"
echo "zz_not_a_field: 1" >>"$T/r.yaml"

verdict() { # name, command...
	name=$1; shift
	timeout 20 "$@" >"$T/out" 2>"$T/err"; rc=$?
	if [ "$rc" != 1 ]; then
		echo "FAIL $name: exit $rc, want 1 (124: hung; 128+N: signal N)"
		head -5 "$T/err"; fail=1
	elif ! grep -q "unknown field 'zz_not_a_field'" "$T/out"; then
		echo "FAIL $name: the unknown field was not reported"
		head -5 "$T/out"; fail=1
	fi
}

for s in "$FX"/*.schema.json; do
	n=$(basename "$s" .schema.json)

	mkdir -p "$T/$n/co/docs/schema" "$T/$n/site/a/b" "$T/$n/bin" \
		"$T/$n/cache"
	cp "$s" "$T/$n/co/docs/schema/recipe.schema.json"
	verdict "$n: --srtctl-dir" env PATH=/usr/bin:/bin \
		XDG_CACHE_HOME="$T/$n/cache" \
		"$SRT_TUI" validate --srtctl-dir "$T/$n/co" "$T/r.yaml"

	printf 'srtctl_root: %s\n' "$T/$n/co" >"$T/$n/site/srtslurm.yaml"
	cp "$T/r.yaml" "$T/$n/site/a/b/r.yaml"
	(cd "$T/$n/site/a/b" && verdict "$n: srtctl_root two folders up" \
		env PATH=/usr/bin:/bin XDG_CACHE_HOME="$T/$n/cache" \
		"$SRT_TUI" validate r.yaml)

	cat >"$T/$n/bin/srtctl" <<STUB
#!/bin/sh
case "\$1" in
--version) echo "srtctl 0.0.0+$n" ;;
schema) cat "$s" ;;
*) exit 2 ;;
esac
STUB
	chmod +x "$T/$n/bin/srtctl"
	verdict "$n: srtctl schema" env PATH="$T/$n/bin:/usr/bin:/bin" \
		XDG_CACHE_HOME="$T/$n/cache" "$SRT_TUI" validate "$T/r.yaml"
	# the second run reads the schema the first one cached
	verdict "$n: cached" env PATH="$T/$n/bin:/usr/bin:/bin" \
		XDG_CACHE_HOME="$T/$n/cache" "$SRT_TUI" validate "$T/r.yaml"
	# the sanitizer build catches an overrun the release build survives
	verdict "$n: --srtctl-dir (ASan)" env PATH=/usr/bin:/bin \
		XDG_CACHE_HOME="$T/$n/cache" \
		"$SRT_TUI_SAN" validate --srtctl-dir "$T/$n/co" "$T/r.yaml"
done

[ "$fail" = 0 ] && echo "schema cycles: every way in, every loop: answered"
exit "$fail"
