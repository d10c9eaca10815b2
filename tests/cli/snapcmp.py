#!/usr/bin/env python3
"""snapcmp.py — compare two srtctl launch snapshots step by step.

Used by upstream_examples.sh for srtctl's older-layout snapshots (flat
logs/), where a byte comparison with srt-tui's current-layout output cannot
hold: the log folders moved (logs/workers/, logs/services/logs/) and the
mounts were listed in another order.  What must still agree per step is what
runs: the step's name, its nodes, its environment (env_to_set and
srun_export_env) and its command.  Paths are compared with the layout change
undone (logs/workers/X, logs/services/logs/X and logs/telemetry/X are logs/X in the
old one).

One change between srtctl versions is undone on WANT whenever it shows:
older srtctl ran dcgm-exporter as one telemetry step over every node
(output logs/telemetry_dcgm_exporter.out) and gave the benchmark
SRT_MEASUREMENT_WINDOW_DIR; the current one (every current-layout
snapshot) runs it as the per-node services service_dcgm-exporter_<node>,
before the node exporters.  The per-node steps are compared in name, node
and command; the caller reports each file where this was needed.

usage: snapcmp.py [--skew-env K1,K2] WANT GOT
    exit 0 when equal; else prints the first differences (at most 12) and
    exits 1.  --skew-env leaves out environment variables the caller has
    shown to come from a different srtctl version (upstream_examples.sh
    lists each with its evidence); everything else must still agree.
usage: snapcmp.py --without OUTPUT FILE
    prints FILE, a snapshot, without its steps whose output is OUTPUT and
    with its "# srun calls:" count lowered to match, so that a snapshot of
    an example that gained a step since can still be compared byte for byte.
"""
import re
import sys


def steps(path):
    out = []
    cur = None
    key = None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("## "):
            cur = {"name": line[3:]}
            out.append(cur)
            key = None
            continue
        if cur is None or not line:
            continue
        if not line.startswith(" "):
            k, _, v = line.partition(":")
            key = k
            v = v.strip()
            cur[k] = {} if v in ("", "|") else v
            if v == "|":
                cur[k] = ""
            continue
        if key is None:
            continue
        if isinstance(cur[key], dict):
            k, _, v = line.strip().partition(": ")
            cur[key][k] = v
        else:
            cur[key] = (cur[key] + "\n" if cur[key] else "") + line[4:]
    return out


FLAT = [(re.compile(r"/logs/(services/logs|workers|telemetry)/"), "/logs/")]


def flat(v):
    if isinstance(v, dict):
        return {flat(k): flat(x) for k, x in v.items()}
    for rx, rep in FLAT:
        v = rx.sub(rep, v)
    return v


FIELDS = ("nodelist", "env_to_set", "srun_export_env", "command")


def undo_telemetry(want):
    old = [st for st in want if st["name"] == "<unnamed>"
           and str(st.get("output", "")).endswith("/logs/telemetry_dcgm_exporter.out")]
    if not old:
        return want
    print("note: telemetry dcgm-exporter step of an older srtctl read as per-node services")
    st = old[0]
    per = [{"name": "service_dcgm-exporter_" + n, "nodelist": n, "command": st.get("command", ""),
            "_loose": True} for n in str(st.get("nodelist", "")).split()]
    out = []
    for x in want:
        if x is st:
            continue
        if per and x["name"].startswith("service_node-exporter_"):
            out.extend(per)
            per = []
        for f in ("env_to_set",):
            if isinstance(x.get(f), dict):
                x[f].pop("SRT_MEASUREMENT_WINDOW_DIR", None)
                if not x[f]:
                    x[f] = ""
        out.append(x)
    return out + per


def without(output, path):
    text = open(path, encoding="utf-8").read()
    head, _, body = text.partition("\n\n")
    kept = [st for st in body.split("\n\n## ")]
    kept[0] = kept[0][3:] if kept[0].startswith("## ") else kept[0]
    kept = [st for st in kept if ("\noutput: " + output + "\n") not in st]
    n = len(kept)
    head = re.sub(r"(?m)^# srun calls: \d+$", "# srun calls: %d" % n, head)
    body = "\n\n".join("## " + st for st in kept)
    sys.stdout.write(head + "\n\n" + body + ("" if body.endswith("\n") else "\n"))
    return 0


def main():
    args = sys.argv[1:]
    if args and args[0] == "--without":
        return without(args[1], args[2])
    skew = set()
    if args and args[0] == "--skew-env":
        skew = set(args[1].split(","))
        args = args[2:]
    want, got = steps(args[0]), steps(args[1])
    want = undo_telemetry(want)
    for st in want + got:
        for f in ("env_to_set", "srun_export_env"):
            if isinstance(st.get(f), dict):
                for k in skew:
                    st[f].pop(k, None)
    diffs = []
    wn = [s["name"] for s in want]
    gn = [s["name"] for s in got]
    if wn != gn:
        diffs.append("steps: want %s\n       got  %s" % (wn, gn))
    # steps pair by name and occurrence: the k-th "<unnamed>" of WANT with
    # the k-th of GOT (host_setup, the benchmark and teardown share it)
    gmap = {}
    for s in got:
        gmap.setdefault(s["name"], []).append(s)
    seen = {}
    for w in want:
        k = seen.get(w["name"], 0)
        seen[w["name"]] = k + 1
        gl = gmap.get(w["name"], [])
        g = gl[k] if k < len(gl) else None
        if g is None:
            continue
        for f in FIELDS:
            if w.get("_loose") and f not in ("nodelist", "command"):
                continue
            a, b = flat(w.get(f, "")), flat(g.get(f, ""))
            if a != b:
                diffs.append("%s %s:\n  want %r\n  got  %r" % (w["name"], f, a, b))
    for d in diffs[:12]:
        print(d)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
