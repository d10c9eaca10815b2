#!/bin/sh
# tests/run.sh counts honestly: a file that exits 77 could not run and is
# skipped, not passed; each "skip: reason" line of a file that passed is one
# skipped check; the closing line is "N passed, N failed, K skipped" (what CI
# reads: "N passed, N failed" optionally followed by ", N skipped").  Run on
# a scratch suite of four made-up test files.
set -u
fail=0
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/src/tests/cli" "$T/build"
cp "$SRCDIR/tests/run.sh" "$T/src/tests/run.sh"
printf '#!/bin/sh\necho all good\n' >"$T/src/tests/cli/a_pass.sh"
printf '#!/bin/sh\necho "skip: no tmux"\nexit 77\n' >"$T/src/tests/cli/b_cannot_run.sh"
printf '#!/bin/sh\necho "skip: no reference"\necho "skip mandoc lint: not installed"\necho "skipping is not a skip line"\n' \
	>"$T/src/tests/cli/c_partial.sh"
printf '#!/bin/sh\necho broken\nexit 1\n' >"$T/src/tests/cli/d_fail.sh"
printf '#!/bin/sh\necho "helper, not a test"\nexit 1\n' >"$T/src/tests/cli/lib.sh"

sh "$T/src/tests/run.sh" "$T/build" cli >"$T/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || { echo "FAIL: exit $rc with a failing test, want 1"; fail=1; }
last=$(tail -n 1 "$T/out")
[ "$last" = "2 passed, 1 failed, 3 skipped" ] ||
	{ echo "FAIL: closing line '$last', want '2 passed, 1 failed, 3 skipped'"; cat "$T/out"; fail=1; }
echo "$last" | grep -Eq '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' ||
	{ echo "FAIL: closing line '$last' is not what CI reads"; fail=1; }
grep -Eq '^skip +cli/b_cannot_run.sh' "$T/out" || { echo "FAIL: exit 77 not shown as skip"; cat "$T/out"; fail=1; }
grep -Eq '^ok +cli/c_partial.sh .*\(2 skipped\)' "$T/out" || { echo "FAIL: partial skips not shown"; cat "$T/out"; fail=1; }
grep -q '    | skip: no reference' "$T/out" || { echo "FAIL: the skip reason is not shown"; fail=1; }
grep -q '^failed: cli/d_fail.sh$' "$T/out" || { echo "FAIL: the failed list"; cat "$T/out"; fail=1; }

# Without failures the status is 0 and skips alone do not fail the run.
rm "$T/src/tests/cli/d_fail.sh"
sh "$T/src/tests/run.sh" "$T/build" cli >"$T/out" 2>&1 || { echo "FAIL: skips made the run fail"; cat "$T/out"; fail=1; }
[ "$(tail -n 1 "$T/out")" = "2 passed, 0 failed, 3 skipped" ] || { echo "FAIL: $(tail -n 1 "$T/out")"; fail=1; }
exit $fail
