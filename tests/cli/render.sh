#!/bin/sh
# srt-tui render: the summary preview (Services + Workers) of every example
# equals its golden file (tests/golden/summary/<example>.txt), under the release
# and sanitizer binaries; the default format is the whole dry-run; the json
# format carries the same facts; usage and load errors exit 2.  The dry-run
# against real cluster files is cluster_dryrun.sh.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

bad() { echo "FAIL: $*"; fail=1; }

for bin in "$SRT_TUI" "$SRT_TUI_SAN"; do
	[ -x "$bin" ] || { bad "missing binary $bin"; continue; }
	tag=${bin##*/}
	for f in "$SRCDIR"/examples/*.yaml; do
		name=$(basename "$f" .yaml)
		golden=$SRCDIR/tests/golden/summary/$name.txt
		[ -f "$golden" ] || { bad "$tag: no golden file for $name"; continue; }
		if ! (cd "$SRCDIR" && "$bin" render --format summary "examples/$name.yaml") >"$tmp/out" 2>"$tmp/err"; then
			bad "$tag: render examples/$name.yaml exited non-zero"; cat "$tmp/err"; continue
		fi
		[ -s "$tmp/err" ] && { bad "$tag: render $name wrote to stderr"; cat "$tmp/err"; }
		if ! cmp -s "$tmp/out" "$golden"; then
			bad "$tag: render $name differs from its golden file"
			diff -u "$golden" "$tmp/out" | head -40
		fi
	done

	# --format dry-run is the default (the clock pinned: the script has a timestamp)
	(cd "$SRCDIR" && SOURCE_DATE_EPOCH=0 "$bin" render examples/vllm-agg.yaml) >"$tmp/d" 2>&1
	(cd "$SRCDIR" && SOURCE_DATE_EPOCH=0 "$bin" render --format dry-run examples/vllm-agg.yaml) >"$tmp/a" 2>&1
	cmp -s "$tmp/a" "$tmp/d" || bad "$tag: --format dry-run differs from the default"
	(cd "$SRCDIR" && SOURCE_DATE_EPOCH=0 "$bin" render --format=dry-run examples/vllm-agg.yaml) >"$tmp/a" 2>&1
	cmp -s "$tmp/a" "$tmp/d" || bad "$tag: --format=dry-run differs from the default"
	grep -qx 'Services:' "$tmp/d" || bad "$tag: the dry-run lacks the Services block"
	# the script is in its line-numbered panel (Panel(Syntax(line_numbers=True)))
	grep -qx '│ *[0-9][0-9]* #SBATCH --job-name=qwen3-0.6b-vllm-agg *│' "$tmp/d" || bad "$tag: the dry-run lacks the sbatch script"

	# json: the exact connector strings and env, as JSON values
	"$bin" render "$SRCDIR/examples/vllm-lmcache-agg.yaml" --format json >"$tmp/j" 2>"$tmp/err" ||
		bad "$tag: --format json failed: $(cat "$tmp/err")"
	grep -qF '"kv_transfer_config": "{\"kv_connector\": \"LMCacheMPConnector\", \"kv_connector_module_path\": \"lmcache.integration.vllm.lmcache_mp_connector\", \"kv_role\": \"kv_both\", \"kv_connector_extra_config\": {\"lmcache.mp.host\": \"tcp://localhost\", \"lmcache.mp.port\": 8750}}"' "$tmp/j" ||
		bad "$tag: json lacks the lmcache-mp config"
	grep -qF '"implied_by": "frontend.type dynamo"' "$tmp/j" || bad "$tag: json lacks etcd's reason"
	"$bin" render "$SRCDIR/examples/sglang-lmcache-agg.yaml" --format json >"$tmp/j2" 2>/dev/null
	grep -qF '"LMCACHE_MP_HOST": "127.0.0.1"' "$tmp/j2" || bad "$tag: json lacks the SGLang LMCache env"
	if command -v python3 >/dev/null 2>&1; then
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["roles"]["agg"]["extra_env"]=={"LMCACHE_MP_HOST":"127.0.0.1","LMCACHE_MP_PORT":"8750"}, d; assert [s["name"] for s in d["services"]]==["dcgm-exporter","node-exporter","lmcache"], d; assert d["services"][2]["argv"][:2]==["lmcache","server"]' "$tmp/j2" ||
			bad "$tag: json document does not hold the expected values"
	else
		echo "skip: python3 not installed, JSON structure not checked"
	fi

	# help and usage errors
	"$bin" render --help >"$tmp/h" 2>&1 || bad "$tag: render --help exit status"
	grep -q '^usage: srt-tui render FILE' "$tmp/h" || bad "$tag: render --help text"
	grep -q 'kv-transfer-config' "$tmp/h" || bad "$tag: render --help does not document the Workers block"
	"$bin" render >/dev/null 2>"$tmp/e"; [ $? -eq 2 ] || bad "$tag: no FILE should exit 2"
	"$bin" render x.yaml --format nope >/dev/null 2>"$tmp/e"; [ $? -eq 2 ] || bad "$tag: bad format should exit 2"
	grep -qF "'nope' is not a format" "$tmp/e" || bad "$tag: bad format message: $(cat "$tmp/e")"
	"$bin" render x.yaml --bogus >/dev/null 2>"$tmp/e"; [ $? -eq 2 ] || bad "$tag: unknown option should exit 2"

	# unreadable or unparsable input: exit 2, FILE:LINE:COL, nothing on stdout
	"$bin" render "$tmp/missing.yaml" >"$tmp/o" 2>"$tmp/e"; rc=$?
	[ $rc -eq 2 ] || bad "$tag: a missing file should exit 2 (got $rc)"
	grep -qF "$tmp/missing.yaml" "$tmp/e" || bad "$tag: missing-file message lacks the name: $(cat "$tmp/e")"
	[ -s "$tmp/o" ] && bad "$tag: a missing file printed to stdout"
	printf 'schema: 2\nname: [unclosed\nmodel: {}\n' >"$tmp/broken.yaml"
	"$bin" render "$tmp/broken.yaml" >"$tmp/o" 2>"$tmp/e"; rc=$?
	[ $rc -eq 2 ] || bad "$tag: unparsable YAML should exit 2 (got $rc)"
	grep -qE "^$tmp/broken.yaml:[0-9]+:[0-9]+: error: " "$tmp/e" || bad "$tag: parse error not as FILE:LINE:COL: $(cat "$tmp/e")"
	printf -- '- a\n- b\n' >"$tmp/list.yaml"
	"$bin" render "$tmp/list.yaml" >/dev/null 2>"$tmp/e"; rc=$?
	[ $rc -eq 2 ] || bad "$tag: a top-level list should exit 2 (got $rc)"
	# override and sweep files (one variant or job at a time): render_variants.sh
done
[ $fail -eq 0 ] && echo "render: all checks passed"
exit $fail
