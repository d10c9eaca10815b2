#!/bin/sh
# Cross-check lib/json.c and lib/shell.c against CPython: the unit-test
# binary prints random floats (all powers of two and their neighbours, random
# bit patterns, decimal-looking values), random documents in every json.dumps
# mode plus repr()/str(), and shell words; python3 recomputes each one.
set -u
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 not installed"; exit 77; }
B=$(dirname "$SRT_TUI")
T=$B/rel/tests/test_json
[ -x "$T" ] || { echo "missing $T (build the unit tests first)"; exit 1; }
N=${JSON_CROSSCHECK_N:-100000}
"$T" --emit "$N" | python3 -c '
import json, shlex, struct, sys
bad = 0
counts = {"F": 0, "D": 0, "S": 0}
doc = None
def fail(msg):
    global bad
    bad += 1
    if bad <= 20:
        print(msg)
for line in sys.stdin:
    kind, rest = line.rstrip("\n").split(" ", 1)
    counts[kind] += 1
    if kind == "F":
        bits, ours = rest.split(" ")
        want = repr(struct.unpack("<d", bytes.fromhex(bits)[::-1])[0])
        if ours != want:
            fail("float %s: ours %s, python %s" % (bits, ours, want))
    elif kind == "D":
        mode, hexed = rest.split(" ")
        ours = bytes.fromhex(hexed).decode("utf-8")
        mode = int(mode)
        if mode == 0:
            doc = json.loads(ours)
        want = [lambda v: json.dumps(v),
                lambda v: json.dumps(v, separators=(",", ":")),
                lambda v: json.dumps(v, sort_keys=True),
                lambda v: json.dumps(v, indent=2),
                lambda v: json.dumps(v, ensure_ascii=False),
                repr, str][mode](doc)
        if ours != want:
            fail("doc mode %d: ours %r, python %r" % (mode, ours, want))
    else:
        word, quoted = rest.split(" ")
        word = bytes.fromhex(word).decode("utf-8")
        ours = bytes.fromhex(quoted).decode("utf-8")
        if ours != shlex.quote(word):
            fail("shlex %r: ours %r, python %r" % (word, ours, shlex.quote(word)))
print("checked %d floats, %d document dumps, %d shell words: %d mismatches"
      % (counts["F"], counts["D"], counts["S"], bad))
if counts["F"] < 100000 or counts["D"] < 1000:
    print("too few cases"); sys.exit(1)
sys.exit(1 if bad else 0)
'
