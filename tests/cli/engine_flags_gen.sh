#!/bin/sh
# mk/gen_engine_flags.py, which refreshes an engine's flag table from the
# release's argparse help.  The help is made here by python3's own argparse
# (the library both engines print their help with), so the parsing is checked
# against real argparse layout: wrapped usage lines, "--x, --no-x" pairs,
# aliases, metavars, flags named in help prose.  And each committed table
# reads back as itself: --check of a help listing exactly its flags is clean.
set -u
if ! command -v python3 >/dev/null; then
	echo "skip: python3 is not installed (mk/deps.sh installs it)"
	exit 77
fi
cd "$SRCDIR" || exit 1
T=$(mktemp -d "${TMPDIR:-/tmp}/srt-tui-eflags.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
. "$SRCDIR/tests/cli/lib.sh"
GEN="python3 $SRCDIR/mk/gen_engine_flags.py"

python3 - >"$T/help" <<'EOF'
import argparse
p = argparse.ArgumentParser(prog="engine serve", formatter_class=argparse.ArgumentDefaultsHelpFormatter)
p.add_argument("model_tag", nargs="?")
g = p.add_argument_group("ModelConfig", "Configuration for the model; see also --not-an-option-here.")
g.add_argument("--tensor-parallel-size", "-tp", type=int, default=1,
               help="Number of tensor parallel groups. Deprecated spelling: --tp-size.")
g.add_argument("--enable-prefix-caching", action=argparse.BooleanOptionalAction,
               help="Enable prefix caching.")
g.add_argument("--max-model-len", "--max_model_len", type=str, metavar="MAX_MODEL_LEN")
g.add_argument("--kv-cache-dtype", choices=["auto", "fp8"], default="auto")
g.add_argument("--no-mm-cache", action="store_true", help="A flag whose own name starts with no-.")
g.add_argument("--quantization", "-q", type=str)
p.add_argument("--a-very-long-flag-name-that-pushes-help-to-the-next-line-of-the-listing", type=int)
print(p.format_help(), end="")
EOF

# Every option once, its own name and aliases (never -tp, -q, --help);
# BooleanOptionalAction's pair is one negatable flag; --no-mm-cache has no
# "mm-cache" partner, so it is a flag of its own; prose flags are not flags.
cat >"$T/want" <<'EOF'
	{ "a-very-long-flag-name-that-pushes-help-to-the-next-line-of-the-listing", 0 },
	{ "enable-prefix-caching", 1 },
	{ "kv-cache-dtype", 0 },
	{ "max-model-len", 0 },
	{ "max_model_len", 0 },
	{ "no-mm-cache", 0 },
	{ "quantization", 0 },
	{ "tensor-parallel-size", 0 },
EOF
run "body from argparse help" 0 $GEN "$T/help"
check "body from argparse help" "$T/want" "$T/out"

# --check against a table: one flag more in the release, one fewer, one
# that became negatable; exit 1 and one line each.
{
	echo 'static const struct engine_flag engine_flags[] = {'
	grep -v 'kv-cache-dtype' "$T/want" | sed 's/"enable-prefix-caching", 1/"enable-prefix-caching", 0/'
	echo '	{ "removed-flag", 0 },'
	echo '};'
} >"$T/table.c"
cat >"$T/want" <<'EOF'
~ enable-prefix-caching: negatable yes in the release, no in the table
+ kv-cache-dtype
- removed-flag
EOF
run "--check finds the differences" 1 $GEN --check "$T/help" "$T/table.c"
check "--check finds the differences" "$T/want" "$T/out"

# The committed tables read back: a help that lists exactly a table's flags
# (negatable ones with their --no- form) checks clean.
for f in model/engine_flags_vllm.c model/engine_flags_sglang.c; do
	awk '/^static const struct engine_flag /{on=1; next} on && /^};/{exit} on' "$f" |
		sed -n 's/^	{ "\([^"]*\)", \([01]\) },$/\1 \2/p' >"$T/rows"
	[ -s "$T/rows" ] || { echo "FAIL $f: no rows read"; fail=1; continue; }
	awk '{ if ($2 == 1) printf "  --%s, --no-%s\n", $1, $1; else printf "  --%s X\n", $1 }' \
		"$T/rows" >"$T/help2"
	run "$f reads back" 0 $GEN --check "$T/help2" "$f"
	[ -s "$T/out" ] && { echo "FAIL $f reads back:"; head "$T/out"; fail=1; }
	n=$(wc -l <"$T/rows")
	$GEN "$T/help2" >"$T/body"
	awk '/^static const struct engine_flag /{on=1; next} on && /^};/{exit} on' "$f" >"$T/table_body"
	check "$f: the generated body is the committed one ($n flags)" "$T/table_body" "$T/body"
done
exit $fail
