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
rich_rows() { # file, table title: the body rows of that Rich table in its
	# panel (lib/rich), cells one space apart (a wrapped cell's next line is
	# a row of its own: give the render a wide COLUMNS when that matters)
	awk -v t="$2" '
		!on && index($0, "│ ") == 1 && index($0, t) && !index($0, "┃") && !index($0, "│ │") { on = 1; next }
		on && index($0, "╰") == 1 { exit }
		on && index($0, "│ │") == 1 { print }' "$1" |
		sed 's/^│ │//; s/│ *│$//; s/│/ /g; s/  */ /g; s/^ //; s/ $//'
}
unpanel() { # file: a dry-run with its "Generated sbatch Script" panel
	# (Panel(Syntax(line_numbers=True)), lib/rich) turned back into the
	# script's lines: borders, padding and the number column taken off.  A
	# line's own trailing spaces cannot be told from the padding and go too;
	# render with a COLUMNS wide enough that no line is cut.
	sed '/^╭.* Generated sbatch Script .*╮$/,/^╰/{
		/^[╭╰]/d
		s/^│ *[0-9][0-9]* //
		s/ *│$//
	}' "$1" >"$1.unpanel" && mv "$1.unpanel" "$1"
}
