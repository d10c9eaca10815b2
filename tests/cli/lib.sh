# lib.sh — helpers the variant CLI tests source (not a test: tests/run.sh
# skips lib*.sh).  The caller sets fail=0 and T (a scratch folder); every
# helper sets fail=1 and prints what differed.

check() { # name, expected file, actual file
	if ! cmp -s "$2" "$3"; then
		echo "FAIL $1:"; diff -u "$2" "$3" | head -40; fail=1
	fi
}
run() { # name, want exit, command... (stdout in $T/out, stderr in $T/err)
	name=$1 want=$2; shift 2
	"$@" >"$T/out" 2>"$T/err"; rc=$?
	[ "$rc" = "$want" ] || { echo "FAIL $name: exit $rc, want $want"; cat "$T/err"; fail=1; }
}
expect_err() { # name, want exit, want stderr (lines), command...
	name=$1 want=$2 msg=$3; shift 3
	run "$name" "$want" "$@"
	printf '%s\n' "$msg" >"$T/want"
	check "$name: stderr" "$T/want" "$T/err"
	[ -s "$T/out" ] && { echo "FAIL $name: printed to stdout"; cat "$T/out"; fail=1; }
}
