#!/bin/sh
# Run srt-tui's test suites and print one closing line
# "N passed, N failed, K skipped".
#   tests/run.sh BUILD_DIR [unit|unit-san|cli|tui|memcheck]...   (default: all)
# Each suite is a set of executables; a suite file passes when it exits 0 and
# fails on any other status, except 77: it could not run at all (no tmux, no
# ../shared/reference...) and counts as skipped, never as passed.  A file that
# ran but left a part out says so with a line "skip: reason" (or
# "skip WHAT: reason", "skipped: reason") on its output: each such line counts
# one skipped check besides the file's pass, and is shown under its name.
# Scripts in tests/cli and tests/tui get SRT_TUI (release binary), SRT_TUI_SAN
# (sanitizer binary), SRCDIR and SHARED (../shared when present, else empty).
set -u
B=${1:?usage: tests/run.sh BUILD_DIR [suite...]}
shift
[ $# -eq 0 ] && set -- unit unit-san cli tui memcheck
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "$B" && pwd)
SHARED=""
[ -d "$SRCDIR/../shared/reference" ] && SHARED=$(cd "$SRCDIR/../shared" && pwd)
export SRCDIR SHARED BUILD_DIR="$B" SRT_TUI="$B/srt-tui" SRT_TUI_SAN="$B/srt-tui-san"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
export LC_ALL=C.UTF-8 TERM=${TERM:-xterm-256color}
unset NO_COLOR SRT_TUI_THEME SRT_TUI_SUBMIT
pass=0 fail=0 skip=0 failed=""
log=$B/test-logs
mkdir -p "$log"

SKIP_RE='^(skip|skipped)( [^:]*)?: '

run_one() { # name, command...
	name=$1; shift
	out="$log/$(echo "$name" | tr '/ ' '__').log"
	start=$(date +%s)
	"$@" >"$out" 2>&1
	rc=$?
	ns=$(grep -cE "$SKIP_RE" "$out")
	note=""
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1)); st=ok
		skip=$((skip + ns))
		[ "$ns" -gt 0 ] && note=" ($ns skipped)"
	elif [ "$rc" -eq 77 ]; then
		st=skip
		[ "$ns" -gt 0 ] || ns=1
		skip=$((skip + ns))
	else
		fail=$((fail + 1)); st=FAIL; failed="$failed $name"
	fi
	printf '%-4s %-48s %3ss%s\n' "$st" "$name" "$(( $(date +%s) - start ))" "$note"
	[ "$st" != FAIL ] && grep -E "$SKIP_RE" "$out" | sed 's/^/    | /'
	[ "$st" = FAIL ] && sed 's/^/    | /' "$out" | tail -n 40
	return 0
}

for suite in "$@"; do
	case $suite in
	unit)     for t in "$B"/rel/tests/test_*; do [ -x "$t" ] && run_one "unit/${t##*/}" "$t"; done ;;
	unit-san) for t in "$B"/san/tests/test_*; do [ -x "$t" ] && run_one "san/${t##*/}" "$t"; done ;;
	memcheck)
		if command -v valgrind >/dev/null 2>&1; then
			for t in "$B"/rel/tests/test_*; do
				[ -x "$t" ] || continue
				case ${t##*/} in test_tui_*) continue ;; esac
				run_one "valgrind/${t##*/}" valgrind -q --error-exitcode=99 --leak-check=full \
					--errors-for-leak-kinds=definite,indirect "$t"
			done
		else
			echo "skip memcheck: valgrind is not installed (mk/deps.sh installs it)"
			skip=$((skip + 1))
		fi ;;
	cli|tui)
		# lib*.sh are helpers the scripts source, not tests.
		for t in "$SRCDIR"/tests/$suite/*.sh; do
			case ${t##*/} in lib*.sh) continue ;; esac
			[ -f "$t" ] && run_one "$suite/${t##*/}" sh "$t"
		done ;;
	*) echo "tests/run.sh: unknown suite '$suite'" >&2; exit 2 ;;
	esac
done
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
