#!/bin/sh
# The man page agrees with the command table (cli/cmd.h): every command of
# `srt-tui --help` has its SYNOPSIS lines and its COMMANDS item, and every
# option a command's --help lists (both are printed from the table) is in
# that command's SYNOPSIS or COMMANDS item (the options new and edit share:
# in the list "The interactive commands also take"); and the other way, an
# option the man page gives a command is one the command takes.
set -u
: "${SRT_TUI:?}" "${SRCDIR:?}"
man=$SRCDIR/docs/srt-tui.1
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

"$SRT_TUI" --help >"$T/overview" || bad "--help exit $?"
cmds=$(sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' "$T/overview" | sort -u)
[ -n "$cmds" ] || bad "no command in the overview"

# The man page's pieces for one command: its SYNOPSIS lines (from '.Cm CMD'
# to the next '.Nm') and its COMMANDS item (from '.It Cm CMD' to the next
# item of the list or its end), plus the shared list of the screens.  mdoc
# spells an option "Fl -name", or "Fl x , -name" beside its short form.
awk '/^\.Sh SYNOPSIS/ { s = 1; next } /^\.Sh / { s = 0 } s' "$man" >"$T/synopsis"
awk '/^\.Sh COMMANDS/ { s = 1; next } /^\.Sh / { s = 0 } s' "$man" >"$T/commands"
awk '/^The interactive commands also take/ { s = 1; next } s && /^\.El/ { exit } s' "$T/commands" >"$T/shared"
piece() { # CMD
	awk -v c="$1" '$0 == ".Cm " c { s = 1; next } /^\.Nm/ { s = 0 } s' "$T/synopsis"
	awk -v c="$1" '
		/^\.Bl/ { d++ }
		/^\.El/ { d--; if (d == 0) s = 0 }
		d == 1 && /^\.It / { s = ($0 == ".It Cm " c || index($0, ".It Cm " c " ") == 1) }
		s' "$T/commands"
}

for c in $cmds; do
	grep -q "^\.Cm $c\$" "$T/synopsis" || bad "SYNOPSIS lacks '$c'"
	grep -q "^\.It Cm $c\\b" "$T/commands" || bad "COMMANDS lacks '$c'"
	piece "$c" >"$T/piece.$c"
	"$SRT_TUI" "$c" --help >"$T/help.$c" 2>&1 || bad "$c --help exit $?"
	# the table's options: "  -n, --dry-run  ..." or "  --format FMT  ..."
	sed -n 's/^  \(-[a-zA-Z], \)\{0,1\}--\([a-z][a-z-]*\).*/\2/p' "$T/help.$c" | sort -u >"$T/opts.$c"
	[ -s "$T/opts.$c" ] || [ "$c" = get ] || bad "'$c --help' lists no options"
	while read -r o; do
		if grep -Eq "(Fl |, )-$o( |\$)" "$T/piece.$c"; then
			continue
		fi
		case $c in new | edit) grep -Eq "(Fl |, )-$o( |\$)" "$T/shared" && continue ;; esac
		bad "man page: '$c' does not document --$o"
	done <"$T/opts.$c"
	# what the page gives the command must exist
	grep -Eo '(Fl |, )-[a-z][a-z-]*' "$T/piece.$c" | sed 's/^.* -//' | sort -u | while read -r o; do
		grep -qx "$o" "$T/opts.$c" || echo "man page gives '$c' the option --$o, which it does not take"
	done >"$T/extra.$c"
	[ -s "$T/extra.$c" ] && { cat "$T/extra.$c" | sed 's/^/FAIL: /'; fail=1; }
done
# the shared options are options of both screens' commands
grep -Eo '(Fl |, )-[a-z][a-z-]*' "$T/shared" | sed 's/^.* -//' | sort -u | while read -r o; do
	for c in new edit; do
		grep -qx "$o" "$T/opts.$c" || echo "FAIL: the shared list has --$o, which '$c' does not take"
	done
done | grep . && fail=1
exit $fail
