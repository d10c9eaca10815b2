#!/bin/sh
# Time and memory stay bounded by the input, whatever it is:
# - 100,000 nested flow lists and 100,000 nested block lists are refused at
#   the first level past 1000, in under 1 s (the depth check is one linear
#   pass before anything walks the tree; it took 31 s).
# - Peak memory (VmHWM, GNU time's %M) of validate, get and set stays under
#   8 x the file size + 80 MB for a 15.8 MB flow list of 1.88 million values
#   (refused past 100,000 values: recipes hold hundreds), a 0.6 MB flow list
#   of 99,000 values (accepted: the densest text at the limit, so the constant)
#   and a 15.4 MB block scalar.  They needed 1.9 GB to validate and over 4 GB
#   to set.
# Inputs are made at test time and deleted after.
set -u
: "${SRT_TUI:?}" "${SRCDIR:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/srt-limits.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ms() { date +%s%N | cut -c1-13; }

awk 'BEGIN { n = 100000; printf "a: "; for (i = 0; i < n; i++) printf "["; for (i = 0; i < n; i++) printf "]"; print "" }' >"$T/deepflow.yaml"
# 100,000 nested block lists on one line ("- - - ... 1"): indentation for
# each on its own line would be 10 GB
awk 'BEGIN { n = 100000; printf "a:\n  "; for (i = 0; i < n; i++) printf "- "; print "1" }' >"$T/deepblock.yaml"
for f in deepflow deepblock; do
	for cmd in validate get; do
		t0=$(ms)
		if [ $cmd = get ]; then "$SRT_TUI" get "$T/$f.yaml" a >/dev/null 2>"$T/err"; rc=$?
		else "$SRT_TUI" validate "$T/$f.yaml" >"$T/err" 2>&1; rc=$?; fi
		t=$(( $(ms) - t0 ))
		echo "$cmd $f: exit $rc in $t ms"
		[ $rc = 2 ] || [ $rc = 1 ] || bad "$cmd $f: exit $rc"
		grep -q "nests more than 1000 levels deep" "$T/err" || { bad "$cmd $f: no depth error"; head -3 "$T/err"; }
		[ "$t" -lt 1000 ] || bad "$cmd $f took $t ms, want < 1000"
	done
done

if [ ! -x /usr/bin/time ]; then
	echo "skip: GNU time (/usr/bin/time) is not installed; memory not measured"
	exit $fail
fi
awk 'BEGIN { n = 1880000; printf "a: ["; for (i = 0; i < n; i++) printf "%s%d", (i ? ", " : ""), i; print "]" }' >"$T/flow.yaml"
awk 'BEGIN { n = 99000; printf "a: ["; for (i = 0; i < n; i++) printf "%s%d", (i ? ", " : ""), i; print "]" }' >"$T/flow100.yaml"
awk 'BEGIN { print "a: |"; x = sprintf("%78s", ""); gsub(/ /, "x", x); for (i = 0; i < 190000; i++) print "  " x }' >"$T/scalar.yaml"
for f in flow flow100 scalar; do
	size=$(( $(stat -c %s "$T/$f.yaml") / 1024 ))
	limit=$(( 8 * size + 81920 ))
	for cmd in validate get set; do
		cp "$T/$f.yaml" "$T/w.yaml"
		case $cmd in
		validate) /usr/bin/time -f %M -o "$T/kb" "$SRT_TUI" validate "$T/w.yaml" >/dev/null 2>&1 ;;
		get) /usr/bin/time -f %M -o "$T/kb" "$SRT_TUI" get "$T/w.yaml" a >/dev/null 2>&1 ;;
		set) /usr/bin/time -f %M -o "$T/kb" "$SRT_TUI" set "$T/w.yaml" b=1 >/dev/null 2>&1 ;;
		esac
		kb=$(tail -n 1 "$T/kb")
		echo "$cmd $f ($size KB): peak $kb KB (limit $limit KB, $((kb / (size > 0 ? size : 1)))x the size)"
		[ "$kb" -le "$limit" ] || bad "$cmd $f: peak $kb KB, over $limit KB"
	done
	"$SRT_TUI" validate "$T/$f.yaml" >"$T/err" 2>&1
	case $f in
	flow) grep -q "holds more than 100000 values" "$T/err" || bad "the 1.88-million-value list was not refused" ;;
	*) grep -q "holds more than" "$T/err" && bad "$f was refused as too big" ;;
	esac
done
exit $fail
