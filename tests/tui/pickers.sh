#!/bin/sh
# Item: a picker opens on the value in effect and the focus stays where it
# was.  The connector picker of the prefill role, after choosing lmcache-mp
# there, reopens on prefill (not decode: the button's label changed with the
# pick) with lmcache-mp selected; the lmcache-server's Placement node, absent,
# opens on its kind's default "workers" (not the first entry "head").
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/examples/vllm-disagg.yaml" "$TMPD/d.yaml"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"

move_until() {
	k=$1
	shift
	i=0
	while [ $i -lt 40 ]; do
		screen | grep -qF -- "$1" && return 0
		keys "$k"
		sleep 0.05
		i=$((i + 1))
	done
	wait_for "$1" 2
}

tui_start 80 24 "$SRT_TUI" edit d.yaml
wait_for "[Fields]"
keys '[' '[' '[' '[' '[' '['
wait_for "[Connectors]"
wait_for "[ Connector: follows the engine"
keys Enter
wait_for "Connector of prefill"
wait_for "> follow the engine"
keys Down Down
wait_for "> lmcache-mp"
keys Enter
wait_for "[ Connector: lmcache-mp"
keys Enter
wait_for "Connector of prefill"
wait_for "> lmcache-mp"
keys Escape
wait_gone "Connector of prefill"
T kill-server

tui_start 80 24 "$SRT_TUI" edit r.yaml
wait_for "[Fields]"
keys '[' '[' '[' '[' '['
wait_for "[Services]"
move_until Down "services[0].placement.node:"
keys Enter
wait_for "> workers"
screen | grep -q "> head" && fail "the picker selects head"
keys Escape
wait_gone "> workers"
echo ok
