#!/bin/sh
# Edited recipes must read back in PyYAML (what srtctl uses) exactly as
# srt-tui's typed view says.  The corpus unit test writes each edited text
# and its JSON to a temp folder; PyYAML loads them and compares.
set -u
if ! python3 -c 'import yaml' 2>/dev/null; then
	echo "skipped: PyYAML is not installed"
	exit 77
fi
B=$(dirname "${SRT_TUI:?}")
T="$B/rel/tests/test_doc_corpus"
[ -x "$T" ] || { echo "missing $T: build the unit tests first"; exit 1; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
DOC_DUMP_DIR=$dir "$T" >"$dir.log" 2>&1 || { cat "$dir.log"; rm -f "$dir.log"; exit 1; }
rm -f "$dir.log"
python3 "$SRCDIR/tests/cli/pyyaml_load.py" "$dir"
