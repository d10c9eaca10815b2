#!/bin/sh
# srtctl's own schema at run time (model/srtctl_schema.h): a stand-in
# `srtctl` on PATH whose `schema` prints a schema with fields srt-tui's
# table does not know is found, cached per `srtctl --version` under
# $XDG_CACHE_HOME/srt-tui/, named by --version and validate -v; a recipe
# using those fields validates clean (a not-previewed warning each), and
# values that schema refuses are errors.  --srtctl-dir reads a checkout's
# docs/schema/recipe.schema.json.  TRT-LLM's nested args are free.
set -u
fail=0
T=$(mktemp -d "${TMPDIR:-/tmp}/srt-tui-srtctl.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$SRCDIR/tests/cli/lib.sh"
FX=$SRCDIR/tests/fixtures/srtctl

mkdir -p "$T/bin" "$T/cache"
# The stand-in srtctl: a version line, the schema, and a count of how many
# times `schema` ran (the cache must spare the second start from it).
cat >"$T/bin/srtctl" <<STUB
#!/bin/sh
case "\$1" in
--version) echo "srtctl 9.9.9+test" ;;
schema) echo run >>"$T/schema-calls"; cat "$FX/mini.schema.json" ;;
*) exit 2 ;;
esac
STUB
chmod +x "$T/bin/srtctl"
P="$T/bin:$PATH"

# no srtctl anywhere: the built-in table alone refuses the new fields
run "no srtctl: validate" 1 env PATH="/usr/bin:/bin" XDG_CACHE_HOME="$T/cache" \
	"$SRT_TUI" validate "$FX/uses-new-fields.yaml"
grep -q "unknown field 'tuning' in the top level" "$T/out" ||
	{ echo "FAIL no srtctl: tuning not refused"; cat "$T/out"; fail=1; }
run "no srtctl: --version" 0 env PATH="/usr/bin:/bin" "$SRT_TUI" --version
grep -qx "srtctl schema: none found (built-in field table only)" "$T/out" ||
	{ echo "FAIL no srtctl: --version"; cat "$T/out"; fail=1; }

# first start: `srtctl schema` runs and its output is cached
run "stand-in: --version" 0 env PATH="$P" XDG_CACHE_HOME="$T/cache" "$SRT_TUI" --version
grep -qx "srtctl schema: srtctl 9.9.9+test (srtctl schema)" "$T/out" ||
	{ echo "FAIL stand-in: --version"; cat "$T/out"; fail=1; }
cache="$T/cache/srt-tui/srtctl-schema-srtctl_9.9.9_test.json"
cmp -s "$cache" "$FX/mini.schema.json" || { echo "FAIL stand-in: no cache at $cache"; ls -R "$T/cache"; fail=1; }

# second start: from the cache, `srtctl schema` not run again
run "stand-in: validate -v" 0 env PATH="$P" XDG_CACHE_HOME="$T/cache" \
	"$SRT_TUI" validate -v "$FX/uses-new-fields.yaml"
[ "$(wc -l <"$T/schema-calls")" -eq 1 ] || { echo "FAIL cache: srtctl schema ran again"; fail=1; }
cat >"$T/want" <<WANT
srtctl schema: srtctl 9.9.9+test (srtctl schema, cached in $cache)
$FX/uses-new-fields.yaml:23:3: warning: srt-tui does not preview benchmark.pacing yet; srtctl's schema accepts it [not-previewed]
  hint: srtctl's schema (srtctl 9.9.9+test (srtctl schema, cached in $cache)): How the benchmark client paces requests.
$FX/uses-new-fields.yaml:24:1: warning: srt-tui does not preview tuning yet; srtctl's schema accepts it [not-previewed]
  hint: srtctl's schema (srtctl 9.9.9+test (srtctl schema, cached in $cache)): A section only this stand-in srtctl knows.
$FX/uses-new-fields.yaml: ok
WANT
# (the cluster file lines -v adds depend on where this runs; cluster.sh checks them)
grep -v '^cluster: \|^note: no cluster file' "$T/out" >"$T/out.noclust"
check "stand-in: validate -v" "$T/want" "$T/out.noclust"

# values srtctl's schema refuses stay errors: enum, type, closed mapping
run "stand-in: bad values" 1 env PATH="$P" XDG_CACHE_HOME="$T/cache" \
	"$SRT_TUI" validate "$FX/bad-new-fields.yaml"
for want in "benchmark.pacing does not match srtctl's schema" \
	"tuning.level does not match srtctl's schema" \
	"unknown field 'speed' in tuning"; do
	grep -q "$want" "$T/out" || { echo "FAIL bad values: no '$want'"; cat "$T/out"; fail=1; }
done

# a checkout named by --srtctl-dir wins over srtctl on PATH
mkdir -p "$T/checkout/docs/schema"
cp "$FX/mini.schema.json" "$T/checkout/docs/schema/recipe.schema.json"
run "--srtctl-dir" 0 env PATH="/usr/bin:/bin" "$SRT_TUI" validate --srtctl-dir "$T/checkout" \
	-v "$FX/uses-new-fields.yaml"
grep -qx "srtctl schema: $T/checkout/docs/schema/recipe.schema.json (srt-slurm checkout)" "$T/out" ||
	{ echo "FAIL --srtctl-dir: source line"; cat "$T/out"; fail=1; }
expect_err "--srtctl-dir without a schema" 2 \
	"srt-tui: srtctl schema: $T/docs/schema/recipe.schema.json: No such file or directory; --srtctl-dir names an srt-slurm checkout, which holds docs/schema/recipe.schema.json" \
	"$SRT_TUI" --srtctl-dir "$T" --version

# TRT-LLM's nested args sections are the engine's own config: free keys
run "trtllm nested args" 0 env PATH="/usr/bin:/bin" "$SRT_TUI" validate "$FX/trtllm-nested-args.yaml"
[ -s "$T/out" ] && { echo "FAIL trtllm nested args: diagnostics"; cat "$T/out"; fail=1; }

[ $fail -eq 0 ] && echo "ok   srtctl schema: stand-in found, cached, used; checkout; free TRT-LLM args"
exit $fail
