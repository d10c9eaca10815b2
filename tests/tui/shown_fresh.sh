#!/bin/sh
# What a frame keeps from the last one never shows stale: the Fields tree
# keeps its fields across a value edit and each field keeps its value text
# and problem rows, the Problems box its entries, a dialog the screen under
# it.  An edit that changes a problem's message changes the row at the field
# and the box's entry; one that clears it removes both; undo brings them
# back; an edit above the problem moves its position in the box; the focus
# moving onto and off the field shows the problem whole and cut; a resize
# wraps the rows again; a prompt over the screen follows a resize.
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"
# a warning besides: the Problems box shows it on one line, not selected
"$SRT_TUI" set "$TMPD/r.yaml" 'roles.agg.args.bogus-flag=1' >/dev/null 2>&1 ||
	fail "cannot set up the recipe"
tui_start 200 60 "$SRT_TUI" edit r.yaml
wait_for "0 errors, 1 warning"
wait_for "W 36:7   roles.agg.args: 'bogus-flag' is not a vLLM flag"
i=0
while ! screen | grep -qF "[Fields]" && [ $i -lt 20 ]; do
	keys ']'
	sleep 0.05
	i=$((i + 1))
done
wait_for "[Fields]"

# the focused field's problem, whole: its second row in the form's column
whole='^ +roles\.agg\.nodes to 3, or lower workers or gpus +│'
shows_whole() { screen | grep -Eq "$whole"; }

# 8 workers of 2 GPUs need 2 nodes of 8 GPUs; the role has 1: at nodes
set_field roles.agg.workers 8
wait_for "1 error, 1 warning"
wait_for "E roles.agg: 8 workers x 2 GPUs need 2 nodes of 8 GPUs; nodes is 1"
wait_for "30:5   roles.agg: 8 workers x 2 GPUs need 2 nodes of 8 GPUs"
screen | grep -Eq '^ +workers +8 ' || fail "the field does not show its new value"
screen | grep -Eq '^E +nodes +1 ' || fail "no marker at nodes"

# the same field again (the tree is not rebuilt): another message
keys Enter
wait_for "Enter: accept"
keys C-u
text 12
keys Enter
wait_for "E roles.agg: 12 workers x 2 GPUs need 3 nodes of 8 GPUs; nodes is 1"
wait_for "30:5   roles.agg: 12 workers x 2 GPUs need 3 nodes of 8 GPUs"
screen | grep -qF "need 2 nodes" && fail "the old message stayed"
screen | grep -Eq '^ +workers +12 ' || fail "the field does not show 12"

# focused, the problem at nodes shows whole; unfocused, cut
keys Up
wait_for "roles.agg.nodes: Nodes reserved for the role"
i=0
while ! shows_whole && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
shows_whole || fail "the focused field does not show its problem whole"
keys Down
wait_for "roles.agg.workers: Number of workers"
i=0
while shows_whole && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
shows_whole && fail "the field's problem stayed whole without the focus"
wait_for "nodes is 1 — raise…"
screen | grep -A1 -F "nodes is 1 — raise…" | grep -Eq '^ +workers +12 ' ||
	fail "the rows below the problem did not move back up"

# cleared, then back with undo
keys Enter
wait_for "Enter: accept"
keys C-u
text 4
keys Enter
wait_for "0 errors, 1 warning"
wait_gone "need 3 nodes"
screen | grep -Eq '^E ' && fail "a marker stayed"
keys u
wait_for "1 error, 1 warning"
wait_for "E roles.agg: 12 workers x 2 GPUs need 3 nodes of 8 GPUs; nodes is 1"
wait_for "30:5   roles.agg: 12 workers"

# a key added above the role: the same problems, a line further down
set_field slurm.account acct
wait_for "31:5   roles.agg: 12 workers"
wait_for "W 37:7   roles.agg.args: 'bogus-flag'"
screen | grep -qF "30:5   roles.agg" && fail "the Problems box kept the old position"
screen | grep -qF "36:7   roles.agg.args" && fail "the Problems box kept the warning's old position"

# a narrower terminal wraps the rows again: the form's 80 columns cut the
# field's row earlier; the box wraps the problem at its own width
find_field roles.agg.workers
resize 130 40
wait_for "Problems: 1 E, 1 W"
wait_for "need 3 nodes of 8 GPUs; nodes is 1 —…"
screen | grep -Eq '│    workers or gpus +│' || fail "the box did not wrap the hint at 130 columns"
resize 200 60
wait_for "nodes is 1 — raise…"
wait_for "hint: raise roles.agg.nodes to 3, or lower workers or gpus"
screen | grep -qF "nodes is 1 —…" && fail "the row kept the narrow cut"

# a prompt open while the terminal shrinks: the screen under it follows
find_field roles.agg.gpus
keys Enter
wait_for "Enter: accept"
text 7
resize 80 24
wait_for "[Form]  Problems 1E 1W"
wait_for "Enter: accept"
screen | grep -qF "Problems: 1 E, 1 W" && fail "the wide screen stayed under the prompt"
keys Escape
wait_gone "Enter: accept"
screen | grep -Eq '^ +gpus +2 ' || fail "Escape changed the value"
keys q
wait_for "Unsaved changes"
keys d
wait_exit
