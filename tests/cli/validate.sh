#!/bin/sh
# srt-tui validate: exact compiler-style output and JSON for the fixtures in
# tests/fixtures/validate, exit codes 0 (clean or warnings only), 1 (errors),
# 2 (unreadable or unparsable file), under the release and sanitizer
# binaries; every example recipe validates clean; so do the schema 2 recipes
# of the shared reference folder when it is present.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
bad() { echo "FAIL: $*"; fail=1; }

cat >"$tmp/bad.expected" <<'OUT'
tests/fixtures/validate/bad.yaml:16:5: error: unknown field 'wokers' in roles.agg [unknown-field]
  hint: did you mean 'workers'?
tests/fixtures/validate/bad.yaml:21:3: warning: services[lmcache].env does not set PYTHONHASHSEED although the workers do (environment.PYTHONHASHSEED): services do not inherit it, so LMCache chunk hashes would disagree [lmcache-hashseed]
  hint: add PYTHONHASHSEED: "0" to services[lmcache].env
tests/fixtures/validate/bad.yaml:26:7: error: services[lmcache].args must not set --port: srtctl owns the lmcache-server ports (8750 RPC, 8751 HTTP) [lmcache-server-port]
  hint: remove it: workers dial 8750 and the readiness probe polls 8751, so a different port leaves them pointing at the wrong place
tests/fixtures/validate/bad.yaml:29:7: error: services[lmcache].args must not set --http-port: srtctl owns the lmcache-server ports (8750 RPC, 8751 HTTP) [lmcache-server-port]
  hint: remove it: workers dial 8750 and the readiness probe polls 8751, so a different port leaves them pointing at the wrong place
OUT
cat >"$tmp/warn.expected" <<'OUT'
[
  {
    "file": "tests/fixtures/validate/warn.yaml",
    "line": 19,
    "col": 3,
    "severity": "warning",
    "code": "lmcache-hashseed",
    "path": "services[lmcache]",
    "message": "services[lmcache].env does not set PYTHONHASHSEED although the workers do (environment.PYTHONHASHSEED): services do not inherit it, so LMCache chunk hashes would disagree",
    "hint": "add PYTHONHASHSEED: \"0\" to services[lmcache].env"
  }
]
OUT

# run BIN EXPECTED_RC ARGS...: stdout in $tmp/out, stderr in $tmp/err
run() {
	bin=$1 want=$2; shift 2
	(cd "$SRCDIR" && "$bin" validate "$@") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq "$want" ] || { bad "${bin##*/} validate $*: exit $rc, expected $want"; cat "$tmp/err"; }
}

F=tests/fixtures/validate
for bin in "$SRT_TUI" "$SRT_TUI_SAN"; do
	[ -x "$bin" ] || { bad "missing binary $bin"; continue; }
	tag=${bin##*/}

	run "$bin" 1 $F/bad.yaml
	cmp -s "$tmp/out" "$tmp/bad.expected" || { bad "$tag: text output of bad.yaml"; diff -u "$tmp/bad.expected" "$tmp/out"; }
	[ -s "$tmp/err" ] && { bad "$tag: bad.yaml wrote to stderr"; cat "$tmp/err"; }

	run "$bin" 0 $F/clean.yaml
	[ -s "$tmp/out" ] && { bad "$tag: a clean file printed something"; cat "$tmp/out"; }
	run "$bin" 0 -v $F/clean.yaml
	# -v first names the srtctl schema in use (none on this PATH-less run's machine
	# unless srtctl is installed), then the cluster file (none here), then "FILE: ok"
	[ "$(sed -n '1s/^srtctl schema: .*/SCHEMA/p;3p' "$tmp/out")" = "SCHEMA
$F/clean.yaml: ok" ] || bad "$tag: -v on a clean file: $(cat "$tmp/out")"
	sed -n 2p "$tmp/out" | grep -q '^cluster: no cluster file' || bad "$tag: -v does not name the cluster file: $(cat "$tmp/out")"

	run "$bin" 0 --format json $F/warn.yaml
	cmp -s "$tmp/out" "$tmp/warn.expected" || { bad "$tag: json output of warn.yaml"; diff -u "$tmp/warn.expected" "$tmp/out"; }
	run "$bin" 0 --format=json $F/clean.yaml
	[ "$(cat "$tmp/out")" = "[]" ] || bad "$tag: json of a clean file: $(cat "$tmp/out")"

	# several files: the worst status wins; output in argument order
	run "$bin" 1 $F/clean.yaml $F/warn.yaml $F/bad.yaml
	[ "$(grep -c ': error: ' "$tmp/out")" -eq 3 ] || bad "$tag: three errors expected over three files"
	head -n 1 "$tmp/out" | grep -q '^tests/fixtures/validate/warn.yaml:19:3: warning: ' ||
		bad "$tag: first line should be warn.yaml's warning"

	run "$bin" 2 $F/broken.yaml $F/bad.yaml
	head -n 1 "$tmp/out" | grep -q '^tests/fixtures/validate/broken.yaml:3:1: error: .*\[yaml-syntax\]$' ||
		{ bad "$tag: syntax error line"; cat "$tmp/out"; }
	grep -q 'bad.yaml:26:7: error:' "$tmp/out" || bad "$tag: later files are still checked after a parse error"
	run "$bin" 2 $F/does-not-exist.yaml
	grep -q '^tests/fixtures/validate/does-not-exist.yaml: error: .*\[file-read\]$' "$tmp/out" ||
		{ bad "$tag: unreadable file message"; cat "$tmp/out"; }
	run "$bin" 2 --format yaml $F/clean.yaml
	[ "$(cat "$tmp/err")" = "srt-tui: validate: --format takes text or json, not 'yaml'" ] ||
		bad "$tag: bad --format message: $(cat "$tmp/err")"
	run "$bin" 2 --frmat json $F/clean.yaml
	[ "$(cat "$tmp/err")" = "srt-tui: validate: unknown option '--frmat'; see 'srt-tui validate --help'" ] ||
		bad "$tag: unknown option message: $(cat "$tmp/err")"
	run "$bin" 2
	run "$bin" 0 --help
	grep -q '^usage: srt-tui validate' "$tmp/out" || bad "$tag: --help"

	# every example validates clean
	n=0
	for f in "$SRCDIR"/examples/*.yaml; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		run "$bin" 0 "examples/${f##*/}"
		[ -s "$tmp/out" ] && { bad "$tag: examples/${f##*/} is not clean"; cat "$tmp/out"; }
	done
	[ "$n" -gt 0 ] || echo "skip: no examples/*.yaml yet"
done

# srtctl's own schema 2 examples are clean too (v1-layout files are not recipes
# for schema 2; atom__direct uses the fork's direct 'atom' frontend, which
# srtctl's ATOM backend refuses).
if [ -n "${SHARED:-}" ] && [ -d "$SHARED/reference" ]; then
	for f in "$SHARED"/reference/*.yaml; do
		case ${f##*/} in example-*|*nvidia-*|atom__direct.yaml) continue ;; esac
		# srtctl's disagg LMCache example writes no --eviction-policy, which
		# lmcache server requires (LMCache distributed/config.py): that one
		# error and nothing else.
		if [ "${f##*/}" = features__lmcache-server-disagg.yaml ]; then
			"$SRT_TUI" validate "$f" >"$tmp/out" 2>&1 && bad "reference ${f##*/}: the missing --eviction-policy is not reported"
			[ "$(grep -c ': error: ' "$tmp/out")" = 1 ] && grep -q 'without --eviction-policy.*\[lmcache-server-required-flag\]' "$tmp/out" ||
				{ bad "reference ${f##*/}: expected only the missing --eviction-policy"; cat "$tmp/out"; }
			continue
		fi
		"$SRT_TUI" validate "$f" >"$tmp/out" 2>&1 || { bad "reference ${f##*/} does not validate clean"; cat "$tmp/out"; }
	done
else
	echo "skip: shared reference recipes not available"
fi
exit $fail
