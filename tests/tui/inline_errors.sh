#!/bin/sh
# Item: problems at the field, at every size.  `--port 9000` in the
# lmcache-server's extra args is an error (srtctl owns the lmcache-server
# ports: 8750 RPC, 8751 HTTP).  The Extra args row shows the E marker and the
# first line of the message while another field is focused, and the whole
# message with its hint when it is focused; the Fields tree shows the same
# at args[2].  At 80x24, 120x40 and 200x60; from 120 columns the side
# Problems box shows the selected problem whole (it cut the hint).
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"
"$SRT_TUI" set "$TMPD/r.yaml" 'services[lmcache-server].args=["--l1-size-gb","32","--port","9000","--eviction-policy","LRU"]' >/dev/null ||
	fail "cannot set up the recipe"

# move_until KEY TEXT: press KEY until TEXT is on the screen (at most 60 times)
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

msg="E services[lmcache-server].args must not set"
for size in "80 24" "120 40" "200 60"; do
	# shellcheck disable=SC2086
	tui_start $size "$SRT_TUI" edit r.yaml
	wait_for "1 error"
	keys '[' '[' '[' '[' '['
	wait_for "[Services]"
	# focused on a field below: Extra args shows its marker and first line
	move_until Down "services[0].placement.node:"
	screen | grep -Eq '^E +\[ Extra args +--port 9000 \]' || fail "$size: no E marker at Extra args"
	screen | grep -qF -- "$msg" || fail "$size: the message is not at the field"
	# focused: the whole message, hint included
	keys Up
	wait_for "pointing at the wrong place"
	if [ "${size%% *}" -ge 120 ]; then
		# the side Problems box shows the selected problem whole: its text
		# between the box's borders, joined, ends with the hint's end
		box=$(screen | awk '/┌─ Problems/ { on = 1; next } on && /└/ { exit }
			on { i = index($0, "│"); if (i) { t = substr($0, i); gsub(/│/, " ", t); printf "%s ", t } }' |
			tr -s ' ')
		case $box in
		*"hint: remove it: workers dial 8750 and the readiness probe polls 8751, so a different port leaves them pointing at the wrong place"*) ;;
		*) fail "$size: the Problems box cuts the problem: $box" ;;
		esac
	fi
	# the Fields tree: the args item carries it too
	keys ']' ']' ']' ']' ']'
	wait_for "[Fields]"
	keys End
	move_until Up "services[0].args[2]:"
	screen | grep -Eq '^E +\[2\] +--port' || fail "$size: no marker in the Fields tree"
	wait_for "$msg"
	keys q
	T kill-server
done
echo ok
