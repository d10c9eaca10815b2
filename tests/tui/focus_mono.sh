#!/bin/sh
# Item: focus visible without colour.  In every shipped theme, and in mono
# and NO_COLOR where only attributes remain, the focused element (a field or
# a button) must be drawn with attributes no unfocused element of the form
# uses: unfocused buttons used to be bold+reverse, the focused one plain
# reverse, so the focus looked like any other button (80x24, read with
# capture-pane -e).
. "$SRCDIR/tests/tui/lib.sh"
AWK="$SRCDIR/tests/tui/attrs.awk"

# check_focus TEXT: the form rows (3 .. last-2) of the screen; the row with
# TEXT is the focused one.  Each look of its characters must appear on no
# other form row.
check_focus() {
	T capture-pane -p -e -t t | awk -f "$AWK" >"$TMPD/attrs"
	awk -F '\t' -v want="$1" -v what="$2" '
		$1 >= 4 && $1 <= 22 {
			if (index($2, want)) { foc = foc $3; frow = $1; next }
			n = split($3, s, " ")
			for (i = 1; i <= n; i++) other[s[i]] = other[s[i]] " " $1
		}
		END {
			if (!frow) { print "no row shows " want; exit 1 }
			n = split(foc, s, " ")
			if (!n) { print "the focused row " frow " has no text"; exit 1 }
			for (i = 1; i <= n; i++)
				if (s[i] in other) {
					printf "%s: focused row %d (%s) is drawn like unfocused row(s)%s: %s\n", what, frow, want, other[s[i]], s[i]
					bad = 1
				}
			exit bad
		}' "$TMPD/attrs" || fail "focus not told apart ($2)"
}

for how in "mono:--theme mono" "nocolor:" "default:--theme default" "light:--theme light" "high-contrast:--theme high-contrast"; do
	name=${how%%:*} opt=${how#*:}
	if [ "$name" = nocolor ]; then
		tui_start 80 24 env NO_COLOR=1 "$SRT_TUI" new n.yaml
	else
		# shellcheck disable=SC2086
		tui_start 80 24 "$SRT_TUI" new $opt n.yaml
	fi
	wait_for "[ Next step > ]"
	# the template button focused, the other button and the fields not
	check_focus "[ Template: " "$name, the first button"
	# a value field focused, the buttons not
	keys Down
	wait_for "name: Job name"
	check_focus "Job name" "$name, a field"
	# the button focused, the fields not
	keys End
	wait_gone "name: Job name"
	check_focus "[ Next step > ]" "$name, a button"
	# three buttons on the Review step: the first focused
	keys ']' ']' ']' ']' ']' ']'
	wait_for "[ Next step: Write > ]"
	check_focus "[ Next step: Write > ]" "$name, one button of three"
	T kill-server
done
echo ok
