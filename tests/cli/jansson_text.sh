#!/bin/sh
# jansson's values come from its own allocator in the binary (lib/jalloc.h),
# so text json_dumps returns must never reach free(): every caller uses
# json_text() (lib/json.h), which hands back a malloc'd copy.  Grep-based.
set -u
cd "${SRCDIR:?}" || exit 1
hits=$(grep -nE '\bjson_dump(s|b|f|fd|_callback)[[:space:]]*\(' lib/*.c model/*.c render/*.c cli/*.c tui/*.c |
	grep -v '^lib/json\.c:')
if [ -n "$hits" ]; then
	echo "FAIL: json_dumps outside lib/json.c (use json_text):"
	echo "$hits"
	exit 1
fi
# the check must see the one call it allows, else the pattern is wrong
grep -qE '\bjson_dumps[[:space:]]*\(' lib/json.c || { echo "FAIL: lib/json.c has no json_dumps: the pattern matches nothing"; exit 1; }
echo "ok: json_dumps only in lib/json.c"
