#!/bin/sh
# Item: problems at the field, at every size.  `--port 9000` in the
# lmcache-server's extra args is an error (srtctl owns the lmcache-server
# ports: 8750 RPC, 8751 HTTP).  The Extra args row shows the E marker and the
# first line of the message while another field is focused, and the whole
# message with its hint when it is focused; the Fields tree shows the same
# at args[2].  At 80x24, 120x40 and 200x60; from 120 columns the side
# Problems box shows the selected problem whole (it cut the hint).  The
# custom widgets (a service's row, the topology's GPU line) show theirs the
# same way.
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
	# the service's row (a custom widget) carries the common marker; it is
	# the selected service, whose form below shows the message at its field
	wait_for "E > lmcache-server"
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
	# back on the first field (the service's row), the notes above it
	# come back into view: nothing else scrolls to them
	keys Home
	wait_for "etcd (etcd) implied by frontend.type dynamo"
	wait_for "E > lmcache-server"
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

# Custom widgets draw no problem text of their own: the common marker and
# first line, at the widget.  A second service selected: the lmcache-server's
# row, now a plain row of the list, shows the marker and the first line of
# its problem below it.
cp "$TMPD/r.yaml" "$TMPD/two.yaml"
printf '  - name: web\n    type: generic\n    command: [sleep, "1"]\n' >>"$TMPD/two.yaml"
grep -q "name: web" "$TMPD/two.yaml" || fail "cannot add the second service"
# srtctl's role sizing (validate role-size): a role with neither nodes nor
# gpus cannot be sized; the problem is the role's, shown at the topology's
# GPU line for that role (no more "E ..." text of the calculator's own)
"$SRT_TUI" set "$TMPD/two.yaml" 'roles.agg.gpus=null' >/dev/null 2>&1
"$SRT_TUI" set "$TMPD/two.yaml" 'roles.agg.nodes=null' >/dev/null 2>&1
"$SRT_TUI" validate "$TMPD/two.yaml" 2>&1 | grep -q "role-size" || fail "the recipe has no role-size problem"
for size in "80 24" "120 40" "200 60"; do
	# shellcheck disable=SC2086
	tui_start $size "$SRT_TUI" edit two.yaml
	wait_for "[Fields]"
	keys '[' '[' '[' '[' '['
	wait_for "[Services]"
	# the first field is the first service's row, the second row is web's
	keys Home Down Enter
	wait_for "Service web (generic)"
	screen | grep -Eq '^E   lmcache-server +lmcache-server' || fail "$size: no marker at the unselected service's row"
	screen | grep -Eq '^ +E services\[lmcache-server\]\.args must not set' ||
		fail "$size: the row does not show its problem's first line"
	keys '[' '['
	wait_for "[Topology]"
	screen | grep -Eq '^E +[0-9]+ workers?: set nodes' || fail "$size: no marker at the GPU line"
	screen | grep -qF "E roles.agg sets neither nodes nor gpus" || fail "$size: the role's problem is not at the GPU line"
	screen | grep -Eq '^  E [0-9]' && fail "$size: the calculator draws its own E line"
	keys q
	T kill-server
done

# The lmcache-server's flags: each button carries the problems at the args
# items its flag spans (validate puts a bad value at the value's item), Extra
# args only those at args itself and at the words that are no flag of the
# table.  --eviction-policy FOO (lmcache server's argparse choices: LRU, ARC,
# IsolatedLRU, noop) is an error at the Eviction policy button; --foo (no
# flag of lmcache server) a warning at Extra args; neither shows at the other.
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/e.yaml"
"$SRT_TUI" set "$TMPD/e.yaml" 'services[lmcache-server].args=["--l1-size-gb","32","--eviction-policy","FOO","--foo"]' >/dev/null 2>&1
tui_start 80 24 "$SRT_TUI" edit e.yaml
wait_for "1 error, 1 warning"
keys '[' '[' '[' '[' '['
wait_for "[Services]"
move_until Down "--eviction-policy: "
screen | grep -Eq '^E +\[ Eviction policy +FOO \]' || fail "no marker at the Eviction policy button"
wait_for "E services[lmcache-server].args: lmcache server refuses"
move_until Down "Any other \`lmcache server\` flags"
screen | grep -Eq '^W +\[ Extra args +--foo \]' || fail "no W marker at Extra args"
wait_for "W services[lmcache-server].args: '--foo' is not a flag"
screen | sed -n '/Extra args/,/Placement node/p' | grep -q "refuses" && fail "Extra args shows the eviction policy's problem"
keys q
T kill-server

# The connector builder: a raw JSON naming LMCacheMPConnector implies no
# lmcache-server (srtctl adds the implied one only for the lmcache-mp
# preset), and none is declared: validate's lmcache-no-server error shows at
# the role's Connector button with the common marker, not as a "W ..." line
# of the builder's own.
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/c.yaml"
"$SRT_TUI" set "$TMPD/c.yaml" 'services=[]' 'engine.connector=nixl' \
	'roles.agg.args.connector={"kv_connector":"LMCacheMPConnector","kv_connector_module_path":"lmcache.integration.vllm.lmcache_mp_connector","kv_role":"kv_both"}' >/dev/null 2>&1
"$SRT_TUI" validate "$TMPD/c.yaml" 2>&1 | grep -q "lmcache-no-server" || fail "the recipe has no lmcache-no-server problem"
tui_start 80 24 "$SRT_TUI" edit c.yaml
wait_for "1 error"
keys '[' '[' '[' '[' '[' '['
wait_for "[Connectors]"
wait_for "Add an lmcache-server on agg nodes"
screen | grep -Eq '^E \[ Connector: raw JSON' || fail "no marker at the Connector button"
screen | grep -qF "E roles.agg uses LMCache MP (LMCacheMPConnector in the connector JSON) but" ||
	fail "the message is not at the Connector button"
screen | grep -qF "W No lmcache-server" && fail "the builder draws its own warning"
keys q
echo ok
