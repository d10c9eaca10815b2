#!/usr/bin/env python3
"""Refresh an engine's flag table (model/engine_flags_vllm.c, _sglang.c) from
the engine release a user runs: its argparse help lists every flag it takes.

    vllm serve --help=all > vllm.help
    python3 mk/gen_engine_flags.py vllm.help                 # the sorted array body
    python3 mk/gen_engine_flags.py --check vllm.help model/engine_flags_vllm.c
    python3 -m sglang.launch_server --help > sglang.help      # likewise

The body goes between the braces of the table's first array (vllm_flags,
sglang_flags); update the commit named in the file's comment and `.source`.
--check prints the flags the release has and the table lacks (+) and the
other way round (-), and exits 1 when they differ.

What counts as a flag: every "--name" that starts an option in the help (an
option line, or the option list of a usage line), dashes kept as written;
single-dash aliases (-tp) are left out, since srtctl always writes "--key".  A
flag whose "--no-name" form is listed too is negatable (argparse's
BooleanOptionalAction prints "--name, --no-name"), and "no-name" itself is not
listed.  Prose is told from options by where argparse puts them: options
at the start of a line indented less than its help column, and in usage."""
import re
import sys

OPT = re.compile(r"(?<![\w-])--([A-Za-z0-9][A-Za-z0-9._-]*)")
ROW = re.compile(r'^\t\{ "([^"]+)", ([01]) \},$')


def flags_of_help(text):
    """{name: negatable} from argparse help text."""
    names = []
    for line in text.splitlines():
        s = line.lstrip()
        indent = len(line) - len(s)
        if s.startswith("usage:"):
            s = s[len("usage:"):]
        elif s.startswith("["):
            pass  # a usage line's continuation
        elif s.startswith("-") and indent < 8:
            # argparse indents an option by 2 a group level and its wrapped
            # help to the help column (24 unless the engine widens it): a
            # deeper line starting with "--x" is the help's prose
            # an option line: "--name NAME, -n NAME  help"; a flag named in
            # the help after the gap is prose, not an option of this line
            s = re.split(r"\s{2,}", s)[0]
        else:
            continue  # a description line
        for m in OPT.finditer(s):
            n = m.group(1).rstrip(".")
            if n != "help":
                names.append(n)
    seen = set(names)
    out = {}
    for n in names:
        if n.startswith("no-") and n[3:] in seen:
            continue
        out[n] = ("no-" + n) in seen
    return out


def flags_of_table(path):
    """{name: negatable} of the first array in a table file."""
    out, inside = {}, False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not inside:
                inside = line.startswith("static const struct engine_flag ")
                continue
            if line.startswith("};"):
                break
            m = ROW.match(line.rstrip("\n"))
            if not m:
                sys.exit("%s: not a table row: %r" % (path, line.rstrip("\n")))
            out[m.group(1)] = m.group(2) == "1"
    if not out:
        sys.exit("%s: no engine_flag array" % path)
    return out


def body(flags):
    # byte order, as strcmp sorts: the table is searched with bsearch
    return "".join('\t{ "%s", %d },\n' % (n, flags[n]) for n in sorted(flags, key=lambda s: s.encode()))


def main(argv):
    if len(argv) == 1:
        with open(argv[0], encoding="utf-8") as f:
            sys.stdout.write(body(flags_of_help(f.read())))
        return 0
    if len(argv) == 3 and argv[0] == "--check":
        with open(argv[1], encoding="utf-8") as f:
            rel = flags_of_help(f.read())
        tab = flags_of_table(argv[2])
        diff = 0
        for n in sorted(set(rel) | set(tab), key=lambda s: s.encode()):
            if n not in tab:
                print("+ %s%s" % (n, " (negatable)" if rel[n] else ""))
            elif n not in rel:
                print("- %s" % n)
            elif rel[n] != tab[n]:
                print("~ %s: negatable %s in the release, %s in the table" %
                      (n, "yes" if rel[n] else "no", "yes" if tab[n] else "no"))
            else:
                continue
            diff = 1
        return diff
    sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
