#!/bin/sh
# The man page is clean under mandoc -Tlint and documents every command; the
# bash completion offers subcommands, options, template names and recipe
# files; --help and --version print to stdout and exit 0.
set -u
fail=0
bad() { echo "FAIL: $*"; fail=1; }
man=$SRCDIR/docs/srt-tui.1
comp=$SRCDIR/docs/srt-tui.bash-completion
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- man page ---
if command -v mandoc >/dev/null 2>&1; then
	out=$(mandoc -Tlint "$man" 2>&1); rc=$?
	# The only tolerated line: a stale system man database (not our page).
	out=$(printf '%s\n' "$out" | grep -v 'outdated mandoc.db' | sed '/^$/d')
	[ -z "$out" ] || bad "mandoc -Tlint: $out"
	[ "$rc" -le 1 ] || bad "mandoc -Tlint exit $rc"
	mandoc -Tascii "$man" >/dev/null 2>&1 || bad "mandoc cannot format the page"
else
	echo "skip mandoc lint: mandoc is not installed (make check installs it)"
fi
for sec in NAME SYNOPSIS DESCRIPTION COMMANDS KEYS ENVIRONMENT FILES "EXIT STATUS" EXAMPLES "SEE ALSO"; do
	grep -q "^\.Sh $sec\$" "$man" || bad "man page lacks section $sec"
done
for v in SRT_TUI_THEME SRT_TUI_SUBMIT NO_COLOR EDITOR XDG_CONFIG_HOME; do
	grep -q "^\.It Ev $v" "$man" || bad "man page ENVIRONMENT lacks $v"
done
for c in new edit validate render expand get set unset; do
	grep -q "^\.It Cm $c" "$man" || bad "man page COMMANDS lacks '$c'"
	grep -q "^Cm $c\$\|^\.Cm $c\$" "$man" || bad "man page SYNOPSIS lacks '$c'"
done
# Every command in --help is documented and completed.
"$SRT_TUI" --help >"$tmp/help" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 0 ] || bad "--help exit $rc"
[ -s "$tmp/help" ] || bad "--help printed nothing on stdout"
[ -s "$tmp/err" ] && bad "--help wrote to stderr: $(cat "$tmp/err")"
for c in $(sed -n 's/^  \([a-z]*\) .*/\1/p' "$tmp/help" | sort -u); do
	grep -q "^\.It Cm $c" "$man" || bad "'$c' from --help is not in the man page"
	grep -q "cmds=.*\\b$c\\b" "$comp" || bad "'$c' from --help is not completed"
done
v=$("$SRT_TUI" --version 2>"$tmp/err"); rc=$?
[ "$rc" -eq 0 ] || bad "--version exit $rc"
echo "$v" | grep -Eq '^srt-tui [0-9]+\.[0-9]+\.[0-9]+$' || bad "--version printed '$v'"
[ -s "$tmp/err" ] && bad "--version wrote to stderr"
"$SRT_TUI" new --help >"$tmp/nh" 2>&1 || bad "new --help exit non-zero"
grep -q -- '--list-templates' "$tmp/nh" || bad "new --help does not mention --list-templates"

# --- bash completion ---
if command -v bash >/dev/null 2>&1; then
	mkdir -p "$tmp/d/sub"
	: >"$tmp/d/a.yaml"; : >"$tmp/d/b.txt"; : >"$tmp/d/c.yml"
	complete_words() { # words... (the last one is being completed)
		bash -c '
			. "$1"; shift
			COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
			_srt_tui
			printf "%s\n" "${COMPREPLY[@]}" | sort
		' sh "$comp" "$@" 2>&1
	}
	got=$(complete_words "$SRT_TUI" "" | tr '\n' ' ')
	[ "$got" = "--help --version edit expand get new render set unset validate " ] ||
		bad "subcommands: got '$got'"
	got=$(complete_words "$SRT_TUI" render --format "" | tr '\n' ' ')
	[ "$got" = "dry-run json plan snapshot " ] || bad "render --format: got '$got'"
	got=$(complete_words "$SRT_TUI" new --th | tr '\n' ' ')
	[ "$got" = "--theme " ] || bad "new --th: got '$got'"
	want=$("$SRT_TUI" new --list-templates | awk '{print $1}' | sort | tr '\n' ' ')
	got=$(complete_words "$SRT_TUI" new --template "" | sed '/^$/d' | tr '\n' ' ')
	[ "$got" = "$want" ] || bad "new --template: got '$got', want '$want'"
	[ -n "$want" ] || echo "note: no templates compiled in; template completion checked empty"
	got=$(cd "$tmp/d" && complete_words "$SRT_TUI" validate "" | tr '\n' ' ')
	[ "$got" = "a.yaml c.yml sub " ] || bad "validate FILE: got '$got'"
	bash -n "$comp" || bad "completion file has a syntax error"
else
	echo "skip completion: bash not found"
fi
[ "$fail" -eq 0 ] && echo "docs: ok"
exit "$fail"
