#!/bin/sh
# Text from a recipe never reaches the terminal as control characters: a name
# "\e]2;X\a" (set the window title), a CSI colour, a C1 control (U+009B is a
# CSI of its own on some terminals) and a carriage return are printed as
# \u001b, \u0007, \u009b, \u000d by validate, render and get when stdout or
# stderr is a terminal (run under script(1) for a pty).  To a pipe the bytes
# stay exact (get is data), and JSON output is exact JSON either way: the
# escape is JSON's own spelling of the same character.
set -u
: "${SRT_TUI:?}" "${SRCDIR:?}"
command -v script >/dev/null 2>&1 || { echo "skip: script(1) is not installed"; exit 0; }
T=$(mktemp -d "${TMPDIR:-/tmp}/srt-escape.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
printf '%s\n' 'schema: 2' 'name: "t\e]2;PWNED\a-\x9b31m-\rX"' 'model:' '  path: "a\e[31mred"' \
	>"$T/r.yaml"
# pty CMD...: run in a terminal, output (stdout and stderr, as the terminal
# shows them) in $T/tty
pty() {
	script -qec "$*" /dev/null </dev/null >"$T/tty" 2>&1
}
raw_controls() { # FILE: does it hold ESC, BEL, CSI (C2 9B) or a CR not before LF?
	LC_ALL=C grep -q "$(printf '[\033\007]')" "$1" && return 0
	LC_ALL=C grep -q "$(printf '\302\233')" "$1" && return 0
	sed 's/\r$//' "$1" | LC_ALL=C grep -q "$(printf '\r')" && return 0
	return 1
}
for cmd in "get $T/r.yaml name" "get $T/r.yaml model" "validate $T/r.yaml" "render $T/r.yaml" \
	"get $T/nonexistent$(printf '\033')x name"; do
	pty "$SRT_TUI" $cmd
	raw_controls "$T/tty" && { bad "'srt-tui $cmd' printed raw control characters:"; od -c "$T/tty" | head -5; }
done
pty "$SRT_TUI" get "$T/r.yaml" name
grep -qF 't\u001b]2;PWNED\u0007-\u009b31m-\u000dX' "$T/tty" || { bad "get name on a terminal:"; cat -v "$T/tty"; }
pty "$SRT_TUI" validate "$T/r.yaml"
grep -qF 'model.container' "$T/tty" || bad "validate on a terminal lost its text"
# the escaping streams stay until exit: not a leak (LeakSanitizer said so)
if [ -n "${SRT_TUI_SAN:-}" ]; then
	pty "$SRT_TUI_SAN" get "$T/r.yaml" name
	grep -q 'LeakSanitizer' "$T/tty" && { bad "the sanitizer build leaks on a terminal:"; head -n 5 "$T/tty"; }
fi

# to a pipe, get prints the value byte for byte
"$SRT_TUI" get "$T/r.yaml" name >"$T/out"
printf 't\033]2;PWNED\007-\302\23331m-\rX\n' >"$T/want"
cmp -s "$T/want" "$T/out" || bad "get to a pipe changed the bytes"
# JSON: the same value, on a terminal or not
pty "$SRT_TUI" get --json "$T/r.yaml" name
tr -d '\r' <"$T/tty" >"$T/json.tty"
"$SRT_TUI" get --json "$T/r.yaml" name >"$T/json.pipe"
if command -v python3 >/dev/null 2>&1; then
	for f in json.tty json.pipe; do
		python3 -c 'import json,sys; v=json.load(open(sys.argv[1])); sys.exit(v != "t\x1b]2;PWNED\x07-\x9b31m-\rX")' \
			"$T/$f" || bad "$f is not the exact JSON value"
	done
else
	echo "skip: python3 is not installed; the JSON values are not parsed"
fi
exit $fail
