#!/bin/sh
# A full `srt-tui new` walk-through in a real terminal (tmux, 100x30): from
# the default template (vLLM + lmcache-mp) change the job name, the worker
# count (the GPU arithmetic follows live) and the LMCache L1 size, write the
# recipe at the Write step; it validates clean and differs from the template
# in exactly those three lines.  Writing again asks before overwriting.
set -u
command -v tmux >/dev/null 2>&1 || { echo "skip: tmux is not installed"; exit 77; }
. "$SRCDIR/tests/tui/lib_wiz.sh"
tmp=$(mktemp -d)
trap 'tw_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
out=$tmp/out.yaml
fail() { echo "FAIL: $*"; exit 1; }

tw_start 100 30 "$SRT_TUI new $out"
tw_wait "Job name" || fail "the wizard did not open on Basics"
tw_wait "qwen3-0.6b-vllm-lmcache-agg" || fail "the default template is not vllm-lmcache-agg"

# Basics: the first field is the template, then the job name.
tw_keys Down Enter; tw_keys C-u; tw_type "wizard-walk"; tw_keys Enter
tw_wait "wizard-walk" || fail "name not changed"

# Engine: vLLM with the lmcache-mp preset, explained.
tw_keys "]"
tw_wait "Engine type: vllm" || fail "Engine step"
tw_wait "Connector: lmcache-mp" || fail "engine connector not shown"

# Topology: 2 workers x 1 GPU; make it 4 and watch the arithmetic.
tw_keys "]"
tw_wait "2 workers × 1 GPU on 1 node of 8 — 2 of 8 GPUs used, 6 idle" || fail "GPU arithmetic"
tw_keys Down Down Down Down   # Layout, GPUs per node, spread, nodes -> workers
tw_keys Enter; tw_keys C-u; tw_type "4"; tw_keys Enter
tw_wait "4 workers × 1 GPU on 1 node of 8 — 4 of 8 GPUs used, 4 idle" || fail "arithmetic did not follow"

# Connectors: the agg role follows the engine; its JSON is shown.
tw_keys "]"
tw_wait "Connector: follows the engine (lmcache-mp" || fail "Connectors step"
tw_wait '"kv_connector": "LMCacheMPConnector"' || fail "kv-transfer-config not shown"

# Services: the declared lmcache-server, its L1 size from 16 to 32.
tw_keys "]"
tw_wait "L1 size (GB)           16" || fail "lmcache form"
tw_keys Down Down Down Down   # row, + Add, Name, Type -> L1 size
tw_keys Enter
tw_wait "L1 size (GB)" || fail "L1 prompt"
tw_keys C-u; tw_type "32"; tw_keys Enter
tw_wait "L1 size (GB)           32" || fail "L1 size not changed"

# Frontend, Review (no errors), Write.
tw_keys "]"
tw_wait "Frontend type" || fail "Frontend step"
tw_keys "]"
tw_wait "0 errors" || fail "Review shows errors"
tw_keys "]"
tw_wait "Write the recipe" || fail "Write step"
tw_keys Down Enter
tw_wait "wrote $out" || fail "no 'wrote' message"
tw_keys q
tw_wait "[exited 0]" || fail "did not quit cleanly"

[ -f "$out" ] || fail "no file written"
"$SRT_TUI" validate "$out" >"$tmp/v" 2>&1 || fail "validate: $(cat "$tmp/v")"
diff "$SRCDIR/examples/vllm-lmcache-agg.yaml" "$out" >"$tmp/diff"
[ "$(grep -c '^<' "$tmp/diff")" -eq 3 ] && [ "$(grep -c '^>' "$tmp/diff")" -eq 3 ] ||
	fail "diff is not exactly the three edited lines: $(cat "$tmp/diff")"
grep -q '^name: "wizard-walk"$' "$out" || fail "name line: $(grep '^name' "$out")"
grep -q '^    workers: 4$' "$out" || fail "workers line"
grep -q '^      - "32"$' "$out" || fail "L1 value line"
[ "$("$SRT_TUI" get "$out" 'services[0].args[1]')" = 32 ] || fail "get services[0].args[1]"

# Again, onto the existing file: the wizard asks, 'n' leaves it alone.
cp "$out" "$tmp/before"
tw_start 100 30 "$SRT_TUI new $out"
tw_wait "Job name" || fail "second run"
for s in 1 2 3 4 5 6 7; do tw_keys "]"; done
tw_wait "Write the recipe" || fail "second Write step"
tw_keys Down Enter
tw_wait "Overwrite" || fail "no overwrite question"
tw_keys n
tw_wait_gone "Overwrite" || fail "question stayed"
tw_keys q
tw_wait "[exited 0]" || fail "second run did not quit"
cmp -s "$out" "$tmp/before" || fail "the file changed although the answer was no"
echo "wizard walk-through: ok"
