#!/bin/sh
# One command table (cli/cmd.h), so one form for every command: the command
# line's errors ("srt-tui: CMD: unknown option '--x'; see 'srt-tui CMD
# --help'", "--x needs a value", "--x takes no value"), --help starting with
# "usage: srt-tui CMD", and one loader, so a file that does not parse gives
# the same validate-style line ("FILE:LINE:COL: error: ... [yaml-syntax]")
# whichever command read it.  Release and ASan/UBSan binaries.
set -u
: "${SRT_TUI:?}" "${SRCDIR:?}"
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL ($tag): $*"; fail=1; }

for BIN in "$SRT_TUI" ${SRT_TUI_SAN:+"$SRT_TUI_SAN"}; do
	cd "$T" || exit 1
	cmds=$("$BIN" --help | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' | sort -u)
	for c in $cmds; do
		tag="${BIN##*/} $c"
		"$BIN" "$c" --bogus x.yaml >out 2>err; rc=$?
		[ $rc -eq 2 ] || bad "unknown option: exit $rc"
		[ "$(cat err)" = "srt-tui: $c: unknown option '--bogus'; see 'srt-tui $c --help'" ] ||
			bad "unknown option: '$(cat err)'"
		"$BIN" "$c" --help >help 2>err || bad "--help exit $?"
		head -n 1 help | grep -q "^usage: srt-tui $c " || bad "--help: $(head -n 1 help)"
		[ -s err ] && bad "--help wrote to stderr"
		# each option of the help: a valued one without its value, a flag
		# with one
		sed -n 's/^  \(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z-]*\)\( [^ ]*\)\{0,1\}  .*/\2\3/p' help >opts
		while read -r o arg; do
			if [ -n "$arg" ]; then
				"$BIN" "$c" x.yaml "$o" >out 2>err; rc=$?
				want="srt-tui: $c: $o needs a value; see 'srt-tui $c --help'"
			else
				"$BIN" "$c" x.yaml "$o=1" >out 2>err; rc=$?
				want="srt-tui: $c: $o takes no value; see 'srt-tui $c --help'"
			fi
			[ $rc -eq 2 ] && [ "$(cat err)" = "$want" ] || bad "$o: exit $rc, '$(cat err)', want '$want'"
		done <opts
	done

	# one loader, one form of a parse error
	printf 'schema: 2\nname: x\nmodel: [unclosed\n' >broken.yaml
	for args in "get broken.yaml name" "set broken.yaml name=y" "unset broken.yaml name" \
		"render broken.yaml" "expand broken.yaml" "edit broken.yaml"; do
		tag="${BIN##*/} $args"
		# shellcheck disable=SC2086
		"$BIN" $args >out 2>err </dev/null; rc=$?
		[ $rc -eq 2 ] || bad "exit $rc, want 2"
		head -n 1 err | grep -Eq "^broken\.yaml:[0-9]+:[0-9]+: error: .*\[yaml-syntax\]\$" ||
			bad "not the one load-error form: $(cat err)"
		[ -s out ] && bad "printed on stdout"
	done
	# and validate reports the same line as its own output
	tag="${BIN##*/} validate"
	"$BIN" render broken.yaml 2>err >/dev/null
	"$BIN" validate broken.yaml >out 2>/dev/null
	[ "$(head -n 1 out)" = "$(head -n 1 err)" ] || bad "validate '$(head -n 1 out)' vs render '$(head -n 1 err)'"
done
exit $fail
