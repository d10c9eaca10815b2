#!/bin/sh
# srtctl's own schema at run time (model/srtctl_schema.h): a stand-in
# `srtctl` on PATH whose `schema` prints a schema with fields srt-tui's
# table does not know is found, cached per `srtctl --version` under
# $XDG_CACHE_HOME/srt-tui/, named by --version and validate -v; --version
# itself is asked once per srtctl executable, again when PATH leads to
# another file or that file is rewritten; the cached schema is read only
# when a recipe needs it, and made again then when damaged; a recipe
# using those fields validates clean (a not-previewed warning each), and
# values that schema refuses are errors.  --srtctl-dir reads a checkout's
# docs/schema/recipe.schema.json, and so does the cluster file's checkout
# (its srtctl_root, else the folder holding srtslurm.yaml) when neither names
# a schema.  TRT-LLM's nested args are free.
set -u
fail=0
T=$(mktemp -d "${TMPDIR:-/tmp}/srt-tui-srtctl.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$SRCDIR/tests/cli/lib.sh"
FX=$SRCDIR/tests/fixtures/srtctl

mkdir -p "$T/bin" "$T/cache"
# The stand-in srtctl: a version line, the schema, and a count of how many
# times each ran (the cache must spare the second start from both).
cat >"$T/bin/srtctl" <<STUB
#!/bin/sh
case "\$1" in
--version) echo run >>"$T/version-calls"; echo "srtctl 9.9.9+test" ;;
schema) echo run >>"$T/schema-calls"
	if [ -n "\${STUB_BAD_SCHEMA:-}" ]; then echo '{"properties": '; else cat "$FX/mini.schema.json"; fi ;;
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
[ "$(wc -l <"$T/version-calls")" -eq 1 ] || { echo "FAIL cache: srtctl --version ran again"; fail=1; }
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

# the cached schema is read only when a recipe needs it: damaged, it goes
# unnoticed by a recipe whose fields the built-in table knows
printf '{"not json' >"$cache"
run "lazy: a known recipe" 0 env PATH="$P" XDG_CACHE_HOME="$T/cache" "$SRT_TUI" validate \
	"$SRCDIR/examples/vllm-agg.yaml"
[ -s "$T/err" ] && { echo "FAIL lazy: the schema was read for a known recipe"; cat "$T/err"; fail=1; }
[ "$(wc -l <"$T/schema-calls")" -eq 1 ] || { echo "FAIL lazy: srtctl schema asked for a known recipe"; fail=1; }
# a damaged cache: made again from `srtctl schema` when first needed
run "damaged cache" 0 env PATH="$P" XDG_CACHE_HOME="$T/cache" "$SRT_TUI" validate "$FX/uses-new-fields.yaml"
grep -q "srt-tui does not preview tuning yet" "$T/out" || { echo "FAIL damaged cache: schema not used"; cat "$T/out" "$T/err"; fail=1; }
[ "$(wc -l <"$T/schema-calls")" -eq 2 ] || { echo "FAIL damaged cache: srtctl schema not asked again"; fail=1; }
cmp -s "$cache" "$FX/mini.schema.json" || { echo "FAIL damaged cache: not made again"; fail=1; }
# ... and when srtctl then prints no schema either: said, and the table alone used
printf '{"not json' >"$cache"
run "damaged cache, bad srtctl" 1 env PATH="$P" XDG_CACHE_HOME="$T/cache" STUB_BAD_SCHEMA=1 \
	"$SRT_TUI" validate "$FX/uses-new-fields.yaml"
grep -q "^srt-tui: srtctl schema: .*(srtctl schema)" "$T/err" ||
	{ echo "FAIL damaged cache, bad srtctl: not said"; cat "$T/err"; fail=1; }
grep -q "unknown field 'tuning' in the top level" "$T/out" ||
	{ echo "FAIL damaged cache, bad srtctl: not the table alone"; cat "$T/out"; fail=1; }
cp "$FX/mini.schema.json" "$cache"

# values srtctl's schema refuses stay errors: enum, type, closed mapping
run "stand-in: bad values" 1 env PATH="$P" XDG_CACHE_HOME="$T/cache" \
	"$SRT_TUI" validate "$FX/bad-new-fields.yaml"
for want in "benchmark.pacing does not match srtctl's schema" \
	"tuning.level does not match srtctl's schema" \
	"unknown field 'speed' in tuning"; do
	grep -q "$want" "$T/out" || { echo "FAIL bad values: no '$want'"; cat "$T/out"; fail=1; }
done

# another srtctl installed in its place (a new file): asked again, and its
# schema cached under its own version
sed 's/9\.9\.9+test/9.9.10/' "$T/bin/srtctl" >"$T/bin/srtctl.new"
chmod +x "$T/bin/srtctl.new"
mv "$T/bin/srtctl.new" "$T/bin/srtctl"
run "reinstalled: --version" 0 env PATH="$P" XDG_CACHE_HOME="$T/cache" "$SRT_TUI" --version
grep -qx "srtctl schema: srtctl 9.9.10 (srtctl schema)" "$T/out" ||
	{ echo "FAIL reinstalled: old version kept"; cat "$T/out"; fail=1; }
[ "$(wc -l <"$T/version-calls")" -eq 2 ] || { echo "FAIL reinstalled: --version not asked again"; fail=1; }
[ -f "$T/cache/srt-tui/srtctl-schema-srtctl_9.9.10.json" ] || { echo "FAIL reinstalled: no cache"; fail=1; }
run "reinstalled: second start" 0 env PATH="$P" XDG_CACHE_HOME="$T/cache" "$SRT_TUI" --version
[ "$(wc -l <"$T/version-calls")" -eq 2 ] || { echo "FAIL reinstalled: --version asked at every start"; fail=1; }
# a damaged memo is asked again, never believed
for m in "$T"/cache/srt-tui/srtctl-version-*; do printf 'garbage' >"$m"; done
run "damaged memo" 0 env PATH="$P" XDG_CACHE_HOME="$T/cache" "$SRT_TUI" --version
grep -qx "srtctl schema: srtctl 9.9.10 (srtctl schema, cached in $T/cache/srt-tui/srtctl-schema-srtctl_9.9.10.json)" "$T/out" ||
	{ echo "FAIL damaged memo"; cat "$T/out"; fail=1; }
[ "$(wc -l <"$T/version-calls")" -eq 3 ] || { echo "FAIL damaged memo: --version not asked"; fail=1; }
sed 's/9\.9\.10/9.9.9+test/' "$T/bin/srtctl" >"$T/bin/srtctl.new"
chmod +x "$T/bin/srtctl.new"
mv "$T/bin/srtctl.new" "$T/bin/srtctl"

# a checkout named by --srtctl-dir wins over srtctl on PATH
mkdir -p "$T/checkout/docs/schema"
cp "$FX/mini.schema.json" "$T/checkout/docs/schema/recipe.schema.json"
run "--srtctl-dir" 0 env PATH="/usr/bin:/bin" "$SRT_TUI" validate --srtctl-dir "$T/checkout" \
	-v "$FX/uses-new-fields.yaml"
grep -qx "srtctl schema: $T/checkout/docs/schema/recipe.schema.json (srt-slurm checkout)" "$T/out" ||
	{ echo "FAIL --srtctl-dir: source line"; cat "$T/out"; fail=1; }
expect_err "--srtctl-dir without a schema" 2 \
	"srt-tui: srtctl schema: $T/docs/schema/recipe.schema.json: No such file or directory; --srtctl-dir names an srt-slurm checkout, which holds docs/schema/recipe.schema.json (or a folder whose srtslurm.yaml, up to two levels up, sits in one)" \
	env SRTSLURM_CONFIG= "$SRT_TUI" --srtctl-dir "$T" --version

# Through the cluster file (docs/decisions.md: --srtctl-dir, srtctl on PATH,
# then the checkout of the cluster file srtctl would use).  The fixture
# folder is a stand-in checkout: srtslurm.yaml at its root, its schema in
# docs/schema/, a recipe two levels down.
CO=$FX/checkout
RUN=$CO/recipes/run
co_src="srtctl schema: $CO/docs/schema/recipe.schema.json (the srt-slurm checkout holding $CO/srtslurm.yaml)"
# run where srtctl would be run: its srtslurm.yaml two levels up leads to the checkout
run "cluster: from the recipe's folder" 0 sh -c "cd '$RUN' && exec env PATH=/usr/bin:/bin SRTSLURM_CONFIG= '$SRT_TUI' validate -v recipe.yaml"
grep -qxF "$co_src" "$T/out" || { echo "FAIL cluster: source line"; cat "$T/out"; fail=1; }
grep -q "srt-tui does not preview checkout_only yet" "$T/out" ||
	{ echo "FAIL cluster: the checkout's schema not used"; cat "$T/out"; fail=1; }
# --srtctl-dir naming a folder of the checkout, not its root
run "cluster: --srtctl-dir below the root" 0 env PATH=/usr/bin:/bin SRTSLURM_CONFIG= \
	"$SRT_TUI" --srtctl-dir "$CO/recipes" --version
grep -qxF "$co_src" "$T/out" || { echo "FAIL cluster --srtctl-dir: source line"; cat "$T/out"; fail=1; }
# $SRTSLURM_CONFIG names the cluster file from anywhere
run "cluster: SRTSLURM_CONFIG" 0 sh -c "cd '$T' && exec env PATH=/usr/bin:/bin SRTSLURM_CONFIG='$CO/srtslurm.yaml' '$SRT_TUI' --version"
grep -qxF "$co_src" "$T/out" || { echo "FAIL cluster SRTSLURM_CONFIG: source line"; cat "$T/out"; fail=1; }
# srtctl on PATH comes first: the srtctl that `srtctl apply` runs
run "cluster: srtctl on PATH wins" 0 sh -c "cd '$RUN' && exec env PATH='$P' XDG_CACHE_HOME='$T/cache' SRTSLURM_CONFIG= '$SRT_TUI' --version"
grep -q "^srtctl schema: srtctl 9.9.9+test" "$T/out" || { echo "FAIL cluster: PATH srtctl not first"; cat "$T/out"; fail=1; }
# the cluster file's srtctl_root names the checkout
mkdir -p "$T/c2/run" "$T/other/docs/schema"
cp "$CO/docs/schema/recipe.schema.json" "$T/other/docs/schema/"
printf 'srtctl_root: %s/other\n' "$T" >"$T/c2/srtslurm.yaml"
run "cluster: srtctl_root" 0 sh -c "cd '$T/c2/run' && exec env PATH=/usr/bin:/bin SRTSLURM_CONFIG= '$SRT_TUI' --version"
grep -qxF "srtctl schema: $T/other/docs/schema/recipe.schema.json (srtctl_root of $T/c2/srtslurm.yaml)" "$T/out" ||
	{ echo "FAIL cluster srtctl_root: source line"; cat "$T/out"; fail=1; }
# a cluster file whose checkout has no schema: none, as before
printf 'default_partition: batch\n' >"$T/c2/srtslurm.yaml"
run "cluster: no schema beside it" 0 sh -c "cd '$T/c2/run' && exec env PATH=/usr/bin:/bin SRTSLURM_CONFIG= '$SRT_TUI' --version"
grep -qx "srtctl schema: none found (built-in field table only)" "$T/out" ||
	{ echo "FAIL cluster without schema"; cat "$T/out"; fail=1; }

# TRT-LLM's nested args sections are the engine's own config: free keys
run "trtllm nested args" 0 env PATH="/usr/bin:/bin" "$SRT_TUI" validate "$FX/trtllm-nested-args.yaml"
[ -s "$T/out" ] && { echo "FAIL trtllm nested args: diagnostics"; cat "$T/out"; fail=1; }

[ $fail -eq 0 ] && echo "ok   srtctl schema: stand-in found, cached, used; checkout, also through the cluster file; free TRT-LLM args"
exit $fail
