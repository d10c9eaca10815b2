#!/bin/sh
# Item: text at 80 columns is wrapped, not cut.  The focused field's hint
# (Extra args: "Do not set --host, --port or --http-port: srtctl owns 8750
# and 8751.") wraps to a second row instead of stopping at "or -".  The
# "terminal too small" text wraps in a 40-column window.  The list editor's legend
# ended "... +/- move  Esc do" at 80 columns; it wraps and ends with
# "Esc done".  The help viewer takes the whole width, so nothing of the
# screen behind (its scroll arrow) shows beside the frame, and its own
# arrow is inside it.
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"

move_until() {
	k=$1
	shift
	i=0
	while [ $i -lt 60 ]; do
		screen | grep -qF -- "$1" && return 0
		keys "$k"
		sleep 0.05
		i=$((i + 1))
	done
	wait_for "$1" 2
}

tui_start 80 24 "$SRT_TUI" edit r.yaml
wait_for "[Fields]"
keys End
move_until Up "services[0].args: "
keys e
wait_for "services[0].args (6)"
wait_for "Esc done"
keys Escape
wait_gone "Esc done"

keys '?'
wait_for "Esc or q: close"
# rows 1..22 are the viewer: nothing right of its frame, the arrow inside
screen | sed -n '2,23p' | awk '
	{ sub(/ +$/, ""); if (NR > 1 && NR < 22 && $0 !~ /│$/) { print "row " NR + 1 " does not end with the frame: " $0; bad = 1 } }
	END { exit bad }' || fail "something is drawn outside the help frame"
screen | sed -n '2,23p' | grep -q 'v│$' || fail "the help viewer's scroll arrow is not inside the frame"
keys Escape
wait_gone "Esc or q: close"

# the hint of the lmcache-server's Extra args, whole
keys '[' '[' '[' '[' '['
wait_for "[Services]"
move_until Down "Any other \`lmcache server\` flags"
wait_for "  --http-port: srtctl owns 8750 and 8751."

# too small: the advice wraps
resize 40 10
wait_for "Terminal too small (40x10)."
wait_for "the window."
resize 80 24
wait_for "[Services]"
echo ok
