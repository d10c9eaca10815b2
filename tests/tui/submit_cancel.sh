#!/bin/sh
# A submit command that hangs does not freeze the editor: Esc (or Ctrl-C)
# cancels it, ending its whole process group (what it started too), and a
# SIGHUP while it runs still ends the session at once.  A hostile file name
# inside a shell word of --submit-cmd is quoted, not run.
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"
mkdir -p "$TMPD/bin"
# hang: starts a grandchild, records both pids, waits forever
cat >"$TMPD/bin/hang" <<STUB
#!/bin/sh
sleep 600 &
echo "\$\$ \$!" >"$TMPD/hang.pids"
echo "hanging on \$1"
wait
STUB
chmod +x "$TMPD/bin/hang"
P="$TMPD/bin:/usr/bin:/bin"
gone() { # all pids in hang.pids have ended (within 5 s)
	i=0
	while [ $i -lt 100 ]; do
		alive=0
		for p in $(cat "$TMPD/hang.pids"); do kill -0 "$p" 2>/dev/null && alive=1; done
		[ $alive = 0 ] && return 0
		sleep 0.05; i=$((i + 1))
	done
	return 1
}

for k in Escape C-c; do
	rm -f "$TMPD/hang.pids"
	tui_start 100 30 env PATH="$P" "$SRT_TUI" edit --submit-cmd 'hang {file}' r.yaml
	wait_for "no problems"
	keys F5
	wait_for "hang r.yaml"
	keys y
	wait_for "Esc or Ctrl-C cancels"
	i=0; while [ ! -s "$TMPD/hang.pids" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	[ -s "$TMPD/hang.pids" ] || fail "the submit command did not start"
	keys "$k"
	wait_for "cancelled: 'hang' and what it started were ended"
	wait_for "hanging on r.yaml"
	gone || fail "$k: the command or its child still runs"
	keys Escape
	wait_gone "Submit output"
	wait_for "submit cancelled"
	keys q
	wait_exit
	[ "$(exit_status)" = 0 ] || fail "exit $(exit_status) after a cancelled submit"
done

# SIGHUP while the command hangs: the session ends, the command too.
rm -f "$TMPD/hang.pids"
tui_start 100 30 env PATH="$P" "$SRT_TUI" edit --submit-cmd 'hang {file}' r.yaml
wait_for "no problems"
keys F5
wait_for "hang r.yaml"
keys y
wait_for "Esc or Ctrl-C cancels"
i=0; while [ ! -s "$TMPD/hang.pids" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
pid=$(pgrep -x srt-tui -P "$(T list-panes -t t -F '#{pane_pid}')")
[ -n "$pid" ] || fail "cannot find srt-tui"
kill -HUP "$pid"
wait_exit 5
[ "$(exit_status)" = 1 ] || fail "SIGHUP during submit: exit $(exit_status), want 1"
gone || fail "SIGHUP: the submit command still runs"

# {file} inside sh -c: the name is quoted for the shell, never run.
cp "$TMPD/r.yaml" "$TMPD/x;touch PWNED;.yaml"
tui_start 100 30 env PATH="$P" "$SRT_TUI" edit --submit-cmd "sh -c 'cat {file} >/dev/null; echo ran'" "x;touch PWNED;.yaml"
wait_for "no problems"
keys F5
wait_for "sh -c 'cat '\"'\"'x;touch PWNED;.yaml'\"'\"' >/dev/null; echo ran'"
keys y
wait_for "[exit status 0]"
wait_for "ran"
[ -e "$TMPD/PWNED" ] && fail "the file name ran as a command"
keys q
keys q
wait_exit
echo ok
