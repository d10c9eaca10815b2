#!/bin/sh
# Mouse: a click on a tab switches to it; a click on a field focuses it.
# The clicks are X10 mouse reports typed into the terminal (ESC [ M b x y).
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"
click() { # x y, 0-based
	b=$(printf "\\$(printf '%03o' 32)")
	cx=$(printf "\\$(printf '%03o' $(($1 + 33)))")
	cy=$(printf "\\$(printf '%03o' $(($2 + 33)))")
	r=$(printf "\\$(printf '%03o' 35)")
	T send-keys -t t -l "$(printf '\033[M')$b$cx$cy"
	T send-keys -t t -l "$(printf '\033[M')$r$cx$cy"
}
col_of() { # text on row y (0-based): its column
	screen | sed -n "$(($2 + 1))p" | awk -v s="$1" '{ print index($0, s) - 1 }'
}
tui_start 100 30 "$SRT_TUI" edit r.yaml
wait_for "[Form]  Problems 0E 0W"
x=$(col_of " Plan" 2)
[ "$x" -ge 0 ] || fail "no Plan tab on row 3"
click $((x + 2)) 2
wait_for "[Plan]"
wait_for "Nodes requested: "
x=$(col_of " YAML " 2)
click $((x + 2)) 2
wait_for "[YAML]"
wait_for "# Test fixture for the terminal UI"
x=$(col_of "[Form]" 2)
[ "$x" -lt 0 ] && x=$(col_of " Form " 2)
click $((x + 2)) 2
wait_for "[Form]"
# a field: the row of "gpus_per_node"; one click focuses it (status shows its path)
y=$(screen | grep -n "gpus_per_node" | head -n 1 | cut -d: -f1)
[ -n "$y" ] || fail "gpus_per_node not on screen"
click 6 $((y - 1))
wait_for "resources.gpus_per_node: "
keys q
wait_exit
echo ok
