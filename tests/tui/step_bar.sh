#!/bin/sh
# The step bar of `edit` at 80 columns: its ten steps (Basics ... Fields)
# need 100 columns written out, and the bar used to scroll, hiding steps
# behind "<" and ">".  Now every step stays in sight: the active one written
# out in brackets, the others cut to their first cells (the same cut on
# every step, so the bar does not jump), and a click on a cut name goes to
# that step.  Checked on each of the ten steps.
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"
steps="Basics Engine Topology Connectors Services Frontend Review Write Variants Fields"
click() { # x y, 0-based: an X10 mouse report
	b=$(printf "\\$(printf '%03o' 32)")
	cx=$(printf "\\$(printf '%03o' $(($1 + 33)))")
	cy=$(printf "\\$(printf '%03o' $(($2 + 33)))")
	r=$(printf "\\$(printf '%03o' 35)")
	T send-keys -t t -l "$(printf '\033[M')$b$cx$cy"
	T send-keys -t t -l "$(printf '\033[M')$r$cx$cy"
}
bar() { screen | sed -n 2p; }
tui_start 80 24 "$SRT_TUI" edit r.yaml
wait_for "[Fields]"
keys Home
# back to the first step, one step a key
for s in Variants Write Review Frontend Services Connectors Topology Engine Basics; do
	keys '['
	wait_for "[$s]"
done
first=""
for s in $steps; do
	b=$(bar)
	case $b in *"[$s]"*) ;; *) fail "step $s is not the active one: $b" ;; esac
	case $b in *"<"* | *">"*) fail "the bar scrolls at step $s: $b" ;; esac
	for o in $steps; do
		[ "$o" = "$s" ] && continue
		# every other step: its first five letters, as a tab of its own
		p=$(printf '%s' "$o" | cut -c1-5)
		case $b in *" $p "* | *" $p") ;; *) fail "step $o is not in the bar at step $s: $b" ;; esac
	done
	[ -z "$first" ] && first=$b
	# the cut is the same on every step: only the brackets move
	[ "${#b}" -le 80 ] || fail "the bar is wider than the terminal: $b"
	[ "$s" = Fields ] || { keys ']'; wait_gone "[$s]"; }
done
# a click on a cut name ("Conne") goes to that step
x=$(bar | awk '{ print index($0, " Conne ") }')
[ "$x" -gt 0 ] || fail "no Conne tab: $(bar)"
click $((x + 1)) 1
wait_for "[Connectors]"
wait_for "--kv-transfer-config"
keys q
wait_exit
echo ok
