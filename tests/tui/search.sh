#!/bin/sh
# Item: search (menuconfig's /).  The box opens empty (typing used to append
# to the last query: 'gpu memorygpu-mem' not found) and Up recalls earlier
# queries; labels the forms show, keys, values and help texts are searched on
# every screen, and so are the text lines that are not fields (notes,
# headings, the Review step's previews), listed with their section; several
# hits are listed with the full path and screen of each, and Enter jumps; the
# hit is shown mid-screen with its neighbours, and the status line names its
# full path (80x24).
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
# the field, and the Review step's dry-run text that shows its value
wait_for "2 hits for 'inherit discovery' (Enter: jump)"
wait_for "Services (as srtctl dry-run prints them): \"inherit_discovery_env: true\""
keys Enter
wait_for "1 of 2:"
wait_for "services[0].inherit_discovery_env  [Fields]"
row=$(T capture-pane -p -e -t t | awk -f "$AWK" | awk -F '\t' '$1 >= 4 && $1 <= 21 && $3 ~ /reverse/ { print $1; exit }')
[ -n "$row" ] || fail "no focused row"
screen | sed -n "${row}p" | grep -q "inherit_discovery_env" || fail "row $row is not the hit"
[ "$row" -ge 8 ] && [ "$row" -le 17 ] || fail "the hit is at row $row, at the edge of rows 4-21"

# a text line that is not a field (the Services step's note on env) is
# found too, listed with its section, and shown when jumped to: in view,
# with the field after it focused, so Down goes on from there
keys /
wait_for "Search labels, keys, values and help"
text "do not inherit"
keys Enter
wait_for "hits for 'do not inherit' (Enter: jump)"
# the text first (what the screen says), before the help texts that say it too
wait_for "> Service lmcache-server (lmcache-server): \"Environment (services"
wait_for "matched: its text"
keys Enter
wait_for "/do not inherit  (n: next, N: previous)  1 of 3: Service lmcache-server"
wait_for "[Services]"
row=$(screen | grep -n "  Environment (services do not inherit the recipe's environment):" | cut -d: -f1)
[ -n "$row" ] || fail "the text found is not on screen"
[ "$row" -ge 4 ] && [ "$row" -le 21 ] || fail "the text is at row $row, outside the form"
keys Down
i=0
while [ $i -lt 100 ]; do
	row=$(T capture-pane -p -e -t t | awk -f "$AWK" | awk -F '\t' '$1 >= 4 && $1 <= 21 && $3 ~ /reverse/ { print $1; exit }')
	[ -n "$row" ] && screen | sed -n "${row}p" | grep -qF "[ + Add an environment variable ]" && break
	sleep 0.05
	i=$((i + 1))
done
[ $i -lt 100 ] || fail "Down did not go on from the field after the text"
# text on the Review step (its dry-run preview): a line of the launch text
keys /
wait_for "Search labels, keys, values and help"
text "advertise client urls"
keys Enter
i=0
while [ $i -lt 100 ]; do
	case $(screen) in
	*"for 'advertise client urls' (Enter: jump)"*) keys Enter; break ;;
	*"(n: next, N: previous)"*) break ;;
	esac
	sleep 0.05
	i=$((i + 1))
done
wait_for "[Review]"
wait_for "(n: next, N: previous)"
screen | sed -n '4,21p' | grep -q -- "--advertise-client-urls" || fail "the Review text found is not in view"

# nothing found says where it looked
keys /
wait_for "Search labels, keys, values and help"
text "no-such-words-anywhere"
keys Enter
wait_for "not found in the labels, keys, values, texts or"
echo ok
