#!/bin/sh
# `set` and `unset` say on stderr, in `srt-tui validate`'s text format, the
# problems their edit introduced, and only those: srtctl's --set typing keeps
# `[unclosed` as the string '[unclosed' (not YAML: a string), which the
# schema refuses for roles.agg.workers (an integer), so writing it is no
# longer silent.  Problems the file had before are not repeated; the exit
# status stays 0 (the edit was asked for and applied, as srtctl would take
# the file).  Release and ASan/UBSan binaries.
set -u
: "${SRT_TUI:?}" "${SRCDIR:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/srt-setreport.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL ($tag): $*"; fail=1; }

for BIN in "$SRT_TUI" ${SRT_TUI_SAN:+"$SRT_TUI_SAN"}; do
	tag=${BIN##*/}
	cd "$T" || exit 1
	cp "$SRCDIR/examples/vllm-agg.yaml" r.yaml
	"$BIN" validate r.yaml >/dev/null 2>&1 || bad "the example is not clean to start with"

	# 1. a value the schema refuses: reported, written, exit 0
	"$BIN" set r.yaml 'roles.agg.workers=[unclosed' >out 2>err; rc=$?
	[ $rc -eq 0 ] || bad "set exit $rc, want 0"
	[ -s out ] && bad "set printed on stdout: $(cat out)"
	[ "$("$BIN" get r.yaml roles.agg.workers)" = "[unclosed" ] || bad "the string was not written"
	line=$(grep -n '^    workers:' r.yaml | head -n 1 | cut -d: -f1)
	head -n 1 err | grep -qxF "r.yaml:$line:5: error: roles.agg.workers must be an integer or null; got the string '[unclosed' [wrong-type]" ||
		{ bad "first line of the report:"; cat err; }
	"$BIN" validate r.yaml >want 2>/dev/null
	cmp -s want err || { bad "the report is not validate's text"; diff want err; }

	# 2. an edit elsewhere does not repeat what the file already had
	"$BIN" set r.yaml name=other >out 2>err || bad "set name exit $?"
	[ -s err ] && { bad "a problem the file had was reported again:"; cat err; }
	"$BIN" validate r.yaml >/dev/null 2>&1 && bad "the file's error went away"

	# 3. fixing it reports nothing
	"$BIN" set r.yaml roles.agg.workers=2 >out 2>err || bad "set workers=2 exit $?"
	[ -s err ] && { bad "a fix was reported:"; cat err; }
	"$BIN" validate r.yaml >/dev/null 2>&1 || bad "not clean after the fix"

	# 4. unset: removing a required key (the schema's model.path)
	"$BIN" unset r.yaml model.path >out 2>err; rc=$?
	[ $rc -eq 0 ] || bad "unset exit $rc, want 0"
	grep -q 'error: model.path is required \[missing-field\]$' err || { bad "unset report:"; cat err; }
	"$BIN" validate r.yaml >want 2>/dev/null
	cmp -s want err || { bad "the unset report is not validate's text"; diff want err; }

	# 5. --dry-run: the diff on stdout, the report on stderr, nothing written
	cp "$SRCDIR/examples/vllm-agg.yaml" r.yaml
	"$BIN" set -n r.yaml 'roles.agg.gpus=many' >out 2>err || bad "dry-run exit $?"
	grep -q '^+    gpus: many' out || { bad "dry-run diff:"; cat out; }
	grep -q "roles.agg.gpus must be an integer or null; got the string 'many' \[wrong-type\]" err ||
		{ bad "dry-run report:"; cat err; }
	cmp -s r.yaml "$SRCDIR/examples/vllm-agg.yaml" || bad "dry-run wrote the file"

	# 6. a refused edit writes nothing and reports no problems, only why
	"$BIN" set r.yaml 'roles.agg.workers[3]=1' >out 2>err && bad "an impossible path was accepted"
	grep -q 'was not changed' err || { bad "refusal:"; cat err; }
	grep -q '\[wrong-type\]\|\[missing-field\]' err && bad "problems reported for an edit that was not made"
done
exit $fail
