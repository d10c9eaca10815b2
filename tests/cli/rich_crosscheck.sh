#!/bin/sh
# lib/rich against python3-rich byte for byte: random tables (cell texts
# with long paths, wide and combining characters, markup, tabs, newlines;
# fixed widths, right-justified columns; consoles 20 to 160 wide) and the
# real Container Mounts and Environment Variables tables of the dry-run
# fixtures, laid out by test_rich's spec mode and by Rich with srtctl's
# Table arguments (tests/cli/rich_render.py), then the tables in
# `render --format dry-run` itself, and the whole dry-run (the lines srtctl
# prints with console.print wrapped, the sbatch script's Syntax panel) at
# 60, 80 and 120 columns.
set -u
# the Python that has Rich: the one on PATH, else Debian's
PY=""
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import rich' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
	echo "skip: python3-rich is not installed"
	exit 77
fi
B=$(dirname "${SRT_TUI:?}")
TR="$B/rel/tests/test_rich"
[ -x "$TR" ] || { echo "missing $TR: build the unit tests first"; exit 1; }
fail=0
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
unset COLUMNS SRTSLURM_CONFIG SRT_TUI_SRTCTL_DIR INFMAX_WORKSPACE
export SOURCE_DATE_EPOCH=0 SRT_TUI_FIXTURE_USER=ann
F=$SRCDIR/tests/fixtures/cluster

mkdir "$T/s"
docs=""
for d in aliases hetjobs; do
	(cd "$F/$d" && "$SRT_TUI" render --format json recipe.yaml) >"$T/$d.json" 2>/dev/null &&
		docs="$docs $T/$d.json"
done
for e in "$SRCDIR"/examples/*.yaml; do
	n=${e##*/}
	"$SRT_TUI" render --format json "$e" >"$T/ex_$n.json" 2>/dev/null && docs="$docs $T/ex_$n.json"
done
# shellcheck disable=SC2086
"$PY" "$SRCDIR/tests/cli/rich_specs.py" "$T/s" 400 --from-json $docs || exit 1
"$PY" "$SRCDIR/tests/cli/rich_render.py" "$T/s" || exit 1
RICH_SPEC_DIR="$T/s" "$TR" || { echo "FAIL: test_rich spec mode"; exit 1; }
n=0 bad=0
for j in "$T"/s/*.json; do
	b=${j%.json}
	n=$((n + 1))
	if ! cmp -s "$b.rich" "$b.c"; then
		bad=$((bad + 1))
		[ "$bad" -le 3 ] && { echo "FAIL ${b##*/}: $(cat "$j")"; diff "$b.rich" "$b.c" | head -20; }
	fi
done
[ "$bad" -eq 0 ] || { echo "FAIL: $bad of $n tables differ from Rich"; fail=1; }
echo "tables compared with Rich: $n, differing: $bad"

# the dry-run's own panels, at 80 columns and at COLUMNS=100: each Rich table
# of the output equals Rich's layout of the same rows
for cols in 80 100; do
	(cd "$F/aliases" && COLUMNS=$cols "$SRT_TUI" render recipe.yaml) >"$T/dry" 2>/dev/null
	COLUMNS=$cols "$PY" - "$T/aliases.json" "$T/dry" <<'PY' || fail=1
import io, json, sys
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
doc = json.load(open(sys.argv[1], encoding="utf-8"))
text = open(sys.argv[2], encoding="utf-8").read()
import os
w = int(os.environ["COLUMNS"])
def table(title, heads, keys, rows):
    t = Table(title=title, show_lines=False, pad_edge=False)
    t.add_column(heads[0], style="dim", width=14)
    t.add_column(heads[1], style="green")
    t.add_column(heads[2], style="cyan")
    for r in rows:
        t.add_row(*[r[k] for k in keys])
    buf = io.StringIO()
    Console(file=buf, width=w, no_color=True, force_terminal=False, color_system=None).print(Panel(t, border_style="green"))
    return buf.getvalue()
ok = True
for title, heads, keys, rows in (
        ("Container Mounts", ("Source", "Host Path", "Container Path"), ("source", "host", "container"), doc["mounts"]),
        ("Environment Variables", ("Scope", "Variable", "Value"), ("scope", "name", "value"), doc["env"])):
    want = table(title, heads, keys, rows)
    if want not in text:
        print("FAIL: the dry-run's %s panel at %d columns is not Rich's:\n%s" % (title, w, want))
        ok = False
buf = io.StringIO()
Console(file=buf, width=w, no_color=True, force_terminal=False, color_system=None).print(
    Panel("[bold]\U0001F50D DRY-RUN[/] [dim](orchestrator mode)[/]", title=doc.get("name") or "alias-agg", border_style="yellow"))
if buf.getvalue() not in text:
    print("FAIL: the DRY-RUN panel at %d columns is not Rich's:\n%s" % (w, buf.getvalue()))
    ok = False
sys.exit(0 if ok else 1)
PY
done
[ "$fail" = 0 ] && echo "the dry-run's Mounts, Env and DRY-RUN panels at 80 and 100 columns are Rich's"

# the whole dry-run at 60, 80 and 120 columns: every line srtctl prints with
# console.print (Services, srun options, Nodes, host-setup notes, Running)
# is Rich's wrapping of that line as an unbounded console prints it
# (COLUMNS=4000), the sbatch script panel is Rich's
# Panel(Syntax(script, "bash", theme="monokai", line_numbers=True)) of the
# JSON's sbatch.script, and the other panels stand where they stood
dry=0
for fx in "$F/aliases" "$F/hetjobs" "$F/switches/study/run" "$F/badkey" \
	"$SRCDIR/examples/vllm-lmcache-disagg.yaml" "$SRCDIR/examples/sglang-lmcache-agg.yaml" \
	"$SRCDIR/examples/atom-lmcache-disagg.yaml" \
	"${SHARED:-$SRCDIR/../shared}/reference/features__services.yaml" \
	"${SHARED:-$SRCDIR/../shared}/reference/features__lmcache-server-disagg.yaml"; do
	if [ -d "$fx" ]; then dir=$fx file=recipe.yaml; else dir=${fx%/*} file=${fx##*/}; fi
	[ -f "$dir/$file" ] || { echo "skip: $fx is absent"; continue; }
	(cd "$dir" && "$SRT_TUI" render --format json "$file") >"$T/fx.json" 2>/dev/null || continue
	(cd "$dir" && COLUMNS=4000 "$SRT_TUI" render "$file") >"$T/wide" 2>/dev/null || continue
	for cols in 60 80 120; do
		(cd "$dir" && COLUMNS=$cols "$SRT_TUI" render "$file") >"$T/narrow" 2>/dev/null
		"$PY" - "$T/fx.json" "$T/wide" "$T/narrow" "$cols" "$fx" <<'PY' || fail=1
import io, json, sys
from rich.console import Console
from rich.panel import Panel
from rich.syntax import Syntax
doc = json.load(open(sys.argv[1], encoding="utf-8"))
wide = open(sys.argv[2], encoding="utf-8").read().split("\n")[:-1]
narrow = open(sys.argv[3], encoding="utf-8").read()
w = int(sys.argv[4])
def con():
    buf = io.StringIO()
    return buf, Console(file=buf, width=w, no_color=True, force_terminal=False, color_system=None)
def blocks(lines):
    out, cur = [], None
    for line in lines:
        if cur is not None:
            cur.append(line)
            if line.startswith("\u2570"):
                out.append(("panel", "".join(l + "\n" for l in cur)))
                cur = None
        elif line.startswith("\u256d"):
            cur = [line]
        else:
            out.append(("text", line))
    return out
panels = [b for k, b in blocks(narrow.split("\n")[:-1]) if k == "panel"]
want, np = [], 0
for kind, b in blocks(wide):
    if kind == "text":
        buf, c = con()
        c.print(b)
        want.append(buf.getvalue())
    else:
        want.append(panels[np] if np < len(panels) else "<missing panel>\n")
        if "Generated sbatch Script" in b.split("\n")[0]:
            buf, c = con()
            c.print(Panel(Syntax(doc["sbatch"]["script"], "bash", theme="monokai", line_numbers=True),
                          title="Generated sbatch Script", border_style="cyan"))
            want[-1] = buf.getvalue()
        np += 1
want = "".join(want)
if want != narrow:
    import difflib
    print("FAIL: the dry-run of %s at %d columns is not Rich's:" % (sys.argv[5], w))
    sys.stdout.writelines(list(difflib.unified_diff(want.splitlines(True), narrow.splitlines(True)))[:30])
    sys.exit(1)
PY
		dry=$((dry + 1))
	done
done
[ "$fail" = 0 ] && echo "whole dry-runs compared with Rich's printing: $dry (60, 80, 120 columns)"
exit $fail
