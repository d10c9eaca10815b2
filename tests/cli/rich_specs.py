"""Write random table specs (tests/cli/rich_render.py's format) for
tests/cli/rich_crosscheck.sh: random cell texts (words, long paths, wide
and combining characters, markup, tabs and newlines), random fixed widths and
justification, console widths from 20 to 160; plus, with --from-json FILE
..., srtctl's Container Mounts and Environment Variables tables built from
the rows of `srt-tui render --format json`; random console.print texts
(words, runs of spaces, long words, markup, tabs, control characters) and
random scripts for the line-numbered Syntax panel (tabs, wide characters,
long lines, 1 to 120 lines, with and without a last newline), and each
document's sbatch script in that panel at 60, 80 and 120 columns."""
import json
import os
import random
import sys

WORDS = ["a", "to", "the", "node", "worker", "prefill", "decode", "--flag=1", "x" * 12,
         "日本語", "テキスト", "é", "e\u0301", "🔍", "[red]x[/]", "[b]", "\\[lit]", "a\tb", "multi\nline"]


def path(rng):
    parts = [rng.choice(["lustre", "fsw", "users", "models", "Qwen3-235B-A22B-FP8", "datasets",
                         "containers", "sqsh", "very_long_component_name_here"]) for _ in range(rng.randint(1, 9))]
    return "/" + "/".join(parts)


def cell(rng):
    k = rng.random()
    if k < 0.15:
        return ""
    if k < 0.45:
        return path(rng)
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))


def random_spec(rng):
    ncol = rng.randint(1, 6)
    cols = []
    for i in range(ncol):
        cols.append([rng.choice(["Source", "Host Path", "Container Path", "Scope", "Variable", "Value",
                                 "GPUs/node", "名前", "A"]),
                     rng.choice([0, 0, 0, 5, 8, 14]), rng.choice(["left", "left", "right"])])
    rows = [[cell(rng) for _ in range(ncol)] for _ in range(rng.randint(0, 6))]
    return {"width": rng.randint(20, 160), "kind": "table",
            "title": rng.choice([None, "Container Mounts", "Environment Variables",
                                 "A title that is rather long for a narrow table"]),
            "panel_title": None, "columns": cols, "rows": rows}


SRTCTL_TABLES = {
    "mounts": ("Container Mounts", [["Source", 14, "left"], ["Host Path", 0, "left"],
                                    ["Container Path", 0, "left"]], ["source", "host", "container"]),
    "env": ("Environment Variables", [["Scope", 14, "left"], ["Variable", 0, "left"],
                                      ["Value", 0, "left"]], ["scope", "name", "value"]),
}


SPACES = [" ", " ", " ", "  ", "   ", "\t", " \t "]
CONTROL = ["\r", "\x07", "\x08", "\x0b", "\x0c"]


def print_spec(rng):
    words = []
    for _ in range(rng.randint(0, 30)):
        k = rng.random()
        if k < 0.1:
            words.append(path(rng) * rng.randint(1, 3))
        elif k < 0.15:
            words.append(rng.choice(CONTROL))
        else:
            words.append(rng.choice(WORDS + ["--served-model-name", "'a b'", "env.X:", "[dim]srun:[/]"]))
        words.append(rng.choice(SPACES))
    text = "".join(words)
    if rng.random() < 0.3:
        text = text.rstrip()
    return {"width": rng.randint(20, 160), "kind": "print", "text": text}


# no combining character in scripts: where Syntax crops a line just after
# one, whether Rich keeps it depends on how Pygments split the line into
# tokens (docs/decisions.md)
SCRIPT_WORDS = [w for w in WORDS if w not in ("e\u0301", "multi\nline")]


def syntax_spec(rng):
    nlines = rng.choice([1, 2, 9, 10, 11, 60, 99, 100, 120])
    lines = []
    for _ in range(nlines):
        k = rng.random()
        if k < 0.2:
            lines.append("")
        elif k < 0.4:
            lines.append("#SBATCH --output=" + path(rng) + "/%j/logs/sweep_%j.log")
        else:
            lines.append(rng.choice(["", "  ", "\t", "  \t"]) +
                         " ".join(rng.choice(SCRIPT_WORDS) for _ in range(rng.randint(1, 14))))
    code = "\n".join(lines) + rng.choice(["\n", "\n", ""])
    return {"width": rng.randint(20, 160), "kind": "syntax", "text": code,
            "panel_title": rng.choice(["Generated sbatch Script", None])}


def main(d, n, docs):
    rng = random.Random(11)
    for i in range(n):
        with open(os.path.join(d, "rand%04d.json" % i), "w", encoding="utf-8") as f:
            json.dump(random_spec(rng), f)
    for i in range(n):
        with open(os.path.join(d, "print%04d.json" % i), "w", encoding="utf-8") as f:
            json.dump(print_spec(rng), f)
    for i in range(n // 4):
        with open(os.path.join(d, "syntax%04d.json" % i), "w", encoding="utf-8") as f:
            json.dump(syntax_spec(rng), f)
    for i, doc_path in enumerate(docs):
        with open(doc_path, encoding="utf-8") as f:
            doc = json.load(f)
        script = (doc.get("sbatch") or {}).get("script")
        for width in (60, 80, 120) if script else ():
            spec = {"width": width, "kind": "syntax", "text": script,
                    "panel_title": "Generated sbatch Script"}
            with open(os.path.join(d, "doc%02d_sbatch_%d.json" % (i, width)), "w",
                      encoding="utf-8") as f:
                json.dump(spec, f)
        for key, (title, cols, keys) in SRTCTL_TABLES.items():
            rows = [[r[k] for k in keys] for r in doc.get(key) or []]
            if not rows:
                continue
            for width in (80, 60, 120):
                spec = {"width": width, "kind": "table", "title": title, "panel_title": None,
                        "columns": cols, "rows": rows}
                with open(os.path.join(d, "doc%02d_%s_%d.json" % (i, key, width)), "w",
                          encoding="utf-8") as f:
                    json.dump(spec, f)


if __name__ == "__main__":
    args = sys.argv[1:]
    docs = args[args.index("--from-json") + 1:] if "--from-json" in args else []
    main(args[0], int(args[1]), docs)
