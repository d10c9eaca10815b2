"""Compare edited recipes with what PyYAML's safe_load reads from them.

Usage: pyyaml_load.py DIR -- DIR holds NNNN.yaml (an edited text) and
NNNN.json (the value srt-tui's doc_json() computed for it).  Timestamps are
kept as text and .inf/.nan as the strings srt-tui uses, since JSON has
neither.  Prints each mismatch; exits 1 if there is any.
"""
import json
import math
import os
import sys

import yaml


class Loader(yaml.SafeLoader):
    pass


Loader.add_constructor("tag:yaml.org,2002:timestamp",
                       lambda loader, node: loader.construct_scalar(node))


def norm(v):
    if isinstance(v, float) and math.isinf(v):
        return "-.inf" if v < 0 else ".inf"
    if isinstance(v, float) and math.isnan(v):
        return ".nan"
    if isinstance(v, dict):
        return {str(k): norm(x) for k, x in v.items()}
    if isinstance(v, list):
        return [norm(x) for x in v]
    return v


def main():
    d = sys.argv[1]
    bad = n = 0
    for name in sorted(os.listdir(d)):
        if not name.endswith(".yaml"):
            continue
        n += 1
        with open(os.path.join(d, name), "rb") as f:
            got = norm(yaml.load(f, Loader=Loader))
        with open(os.path.join(d, name[:-5] + ".json")) as f:
            want = json.load(f)
        if got is None:
            got = {}
        if got != want:
            bad += 1
            print("mismatch: %s\n  pyyaml: %s\n  srt-tui: %s" % (name, got, want))
    print("pyyaml: %d edited files checked, %d mismatches" % (n, bad))
    return 1 if bad or n == 0 else 0


sys.exit(main())
