"""Render table specs with python3-rich as srtctl's dry-run does, for
tests/cli/rich_crosscheck.sh.  Each DIR/NAME.json spec:
  {"width": W, "kind": "table" | "text" | "print" | "syntax", "title": str | null,
   "panel_title": str | null, "text": str,
   "columns": [[header, width or 0, "left" | "right"]], "rows": [[cell, ...]]}
is printed to DIR/NAME.rich: Panel(Table(title, show_lines=False,
pad_edge=False) or text, title=panel_title) on
Console(width=W, no_color=True, force_terminal=False, color_system=None);
"print" is console.print(text) alone (srtctl's plain lines), "syntax" is
Panel(Syntax(text, "bash", theme="monokai", line_numbers=True),
title=panel_title), srtctl's sbatch script panel."""
import io
import json
import os
import sys

from rich.console import Console
from rich.panel import Panel
from rich.syntax import Syntax
from rich.table import Table


def render(spec):
    buf = io.StringIO()
    console = Console(file=buf, width=spec["width"], no_color=True, force_terminal=False,
                      color_system=None)
    if spec["kind"] == "print":
        console.print(spec["text"])
        return buf.getvalue()
    if spec["kind"] == "syntax":
        body = Syntax(spec["text"], "bash", theme="monokai", line_numbers=True)
    elif spec["kind"] == "text":
        body = spec["text"]
    else:
        body = Table(title=spec.get("title"), show_lines=False, pad_edge=False)
        for header, width, justify in spec["columns"]:
            body.add_column(header, width=width or None, justify=justify)
        for row in spec["rows"]:
            body.add_row(*row)
    console.print(Panel(body, title=spec.get("panel_title")))
    return buf.getvalue()


def main(d):
    for name in sorted(os.listdir(d)):
        if name.endswith(".json"):
            with open(os.path.join(d, name), encoding="utf-8") as f:
                spec = json.load(f)
            with open(os.path.join(d, name[:-5] + ".rich"), "w", encoding="utf-8") as f:
                f.write(render(spec))


if __name__ == "__main__":
    main(sys.argv[1])
