#!/bin/sh
# Item: search (menuconfig's /).  The box opens empty (typing used to append
# to the last query: 'gpu memorygpu-mem' not found) and Up recalls earlier
# queries; labels the forms show, keys, values and help texts are searched on
# every screen; several hits are listed with the full path and screen of
# each, and Enter jumps; the hit is shown mid-screen with its neighbours, and
# the status line names its full path (80x24).
. "$SRCDIR/tests/tui/lib.sh"
AWK="$SRCDIR/tests/tui/attrs.awk"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"
tui_start 80 24 "$SRT_TUI" edit --theme mono r.yaml
wait_for "[Fields]"

# a label shown only on the Services step, from the Fields tree
keys /
wait_for "Search labels, keys, values and help"
text "l1 size"
keys Enter
wait_for "hits for 'l1 size' (Enter: jump)"
wait_for "> Service lmcache-server (lmcache-server) > L1 size (GB) 32  [Services]"
# the hits name their full paths
wait_for "services[0].args"
keys Enter
wait_for "[Services]"
wait_for "/l1 size  (n: next, N: previous)  1 of"

# the box starts empty; Up brings the last query back
keys /
wait_for "Search labels, keys, values and help"
screen | grep -q "l1 size" && fail "the search box is not empty"
keys Up
wait_for "l1 size"
keys C-u Escape
wait_gone "Search labels, keys, values and help"

# help text: only the help of `name` says "label of the results"
keys /
wait_for "Search labels, keys, values and help"
text "label of the results"
keys Enter
wait_for "/label of the results  (n: next, N: previous)  1 of 1: name"

# a hit deep in the Fields tree lands mid-screen, not at its edge
keys /
wait_for "Search labels, keys, values and help"
text "inherit discovery"
keys Enter
wait_for "1 of 1:"
wait_for "services[0].inherit_discovery_env  [Fields]"
row=$(T capture-pane -p -e -t t | awk -f "$AWK" | awk -F '\t' '$1 >= 4 && $1 <= 21 && $3 ~ /reverse/ { print $1; exit }')
[ -n "$row" ] || fail "no focused row"
screen | sed -n "${row}p" | grep -q "inherit_discovery_env" || fail "row $row is not the hit"
[ "$row" -ge 8 ] && [ "$row" -le 17 ] || fail "the hit is at row $row, at the edge of rows 4-21"

# nothing found says where it looked
keys /
wait_for "Search labels, keys, values and help"
text "no-such-words-anywhere"
keys Enter
wait_for "not found in the labels, keys, values or help of"
echo ok
