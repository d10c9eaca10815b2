#!/bin/sh
# The layers, from the bottom: lib/ (printers, quoting, buffers: knows no
# recipe), model/ (the recipe), render/ (what srtctl runs), tui/ (screens),
# cli/ (commands and main).  A file may include its own layer and the ones
# below, never one above; nothing below tui/ includes curses, so the library
# (lib/ + model/ + render/) builds and runs without a terminal.  Grep-based:
# every #include line of every .c and .h file.
set -u
cd "${SRCDIR:?}" || exit 1
fail=0

# layer, the layers (directories) it must not include, "curses" when it must
# not include curses either
check_layer() {
	dir=$1 banned=$2 nocurses=$3
	for f in "$dir"/*.c "$dir"/*.h; do
		[ -f "$f" ] || continue
		for b in $banned; do
			grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$b/" "$f" |
				sed "s|^|$f:|; s|\$|   <- $dir/ must not include $b/|"
		done
		[ "$nocurses" = curses ] &&
			grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(n?curses|ncursesw/|term\.h|panel\.h|menu\.h|form\.h)' "$f" |
				sed "s|^|$f:|; s|\$|   <- $dir/ must not include curses|"
	done
}

check_layer lib    "model render tui cli" curses >"${TMPDIR:-/tmp}/layers.$$"
check_layer model  "render tui cli"       curses >>"${TMPDIR:-/tmp}/layers.$$"
check_layer render "tui cli"              curses >>"${TMPDIR:-/tmp}/layers.$$"
check_layer tui    "cli"                  ""     >>"${TMPDIR:-/tmp}/layers.$$"
if [ -s "${TMPDIR:-/tmp}/layers.$$" ]; then
	echo "FAIL: includes that reach up a layer:"
	cat "${TMPDIR:-/tmp}/layers.$$"
	fail=1
fi
rm -f "${TMPDIR:-/tmp}/layers.$$"

# The check itself must see the includes it is about: each layer has files,
# and tui/ does include curses (else the patterns above match nothing).
for d in lib model render tui cli; do
	ls "$d"/*.c >/dev/null 2>&1 || { echo "FAIL: no $d/*.c: the layers moved, update this test"; fail=1; }
done
grep -qE '^#include <curses.h>' tui/*.h || { echo "FAIL: the curses pattern matches nothing in tui/"; fail=1; }
grep -qE '^#include "model/' render/*.[ch] || { echo "FAIL: the include pattern matches nothing in render/"; fail=1; }
exit $fail
