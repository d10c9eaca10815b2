#!/bin/sh
# TRT-LLM's engine YAML in the launch plan (render/engine_yaml.c) must be what
# srtctl writes: yaml.safe_dump of the role's args with srtctl's load-time
# defaults (enable_iter_perf_stats: false, observability's statistics,
# trtllm-serve's return_perf_metrics), byte for byte as PyYAML prints it.  Checked over our fixture and every TRT-LLM example of srtctl's.
set -u
if ! python3 -c 'import yaml' 2>/dev/null; then
	echo "skip: PyYAML is not installed (mk/deps.sh installs python3-yaml)"
	exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/srt-tui-engine-yaml.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0 n=0
files="$SRCDIR/tests/fixtures/srtctl/trtllm-nested-args.yaml"
if [ -n "${SHARED:-}" ] && [ -d "$SHARED/reference/upstream/examples" ]; then
	for f in "$SHARED"/reference/upstream/examples/trtllm__*.yaml; do
		grep -q '^roles:' "$f" && files="$files $f"
	done
fi
for f in $files; do
	"$SRT_TUI" render "$f" --format plan >"$T/plan" 2>"$T/err" ||
		{ echo "FAIL $f: render: $(cat "$T/err")"; fail=1; continue; }
	python3 - "$f" "$T/plan" >"$T/diff" <<'PY' || { echo "FAIL $f:"; cat "$T/diff"; fail=1; }
import sys, yaml
recipe = yaml.safe_load(open(sys.argv[1]))
plan = open(sys.argv[2]).read().split("\n")
bad = 0
for role, cfg in (recipe.get("roles") or {}).items():
    args = dict(cfg.get("args") or {})
    # srtctl's load-time defaults, each a setdefault, in its order:
    # observability's statistics, then trtllm-serve's perf metrics (its
    # /perf_metrics route needs them: core/schema.py TRTLLM_SERVE_ENGINE_DEFAULTS),
    # then iteration statistics off (TRTLLM_ENGINE_DEFAULTS)
    if (recipe.get("observability") or {}).get("enabled"):
        args.setdefault("enable_iter_perf_stats", True)
        args.setdefault("return_perf_metrics", True)
    if (recipe.get("frontend") or {}).get("type") == "trtllm_serve":
        args.setdefault("return_perf_metrics", True)
    if str(args.get("backend", "pytorch")).lower() not in ("tensorrt", "trt"):
        args.setdefault("enable_iter_perf_stats", False)
    want = yaml.safe_dump(args).splitlines()
    head = "file /logs/trtllm_config_%s.yaml (srtctl writes it from roles.%s.args):" % (role, role)
    if head not in plan:
        print("no %r in the plan" % head); bad = 1; continue
    i = plan.index(head) + 1
    got = []
    while i < len(plan) and plan[i].startswith("  "):
        got.append(plan[i][2:]); i += 1
    if got != want:
        print("%s: want %r\n  got %r" % (role, want, got)); bad = 1
sys.exit(bad)
PY
	n=$((n + 1))
done
[ $fail -eq 0 ] && echo "ok   engine YAML equals PyYAML's safe_dump for $n TRT-LLM recipes"
exit $fail
