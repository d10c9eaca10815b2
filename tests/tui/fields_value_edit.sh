#!/bin/sh
# Fields tree: a value edit keeps the tree built before it (the form reads
# values as it draws them), so the new value must show at once; an edit of
# a list item's `name` rebuilds it, because the item's label ("[0] NAME")
# comes from that value; undo shows the old value again.
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"
tui_start 130 40 "$SRT_TUI" edit r.yaml
wait_for "no problems"
keys ']' ']' ']' ']' ']' ']' ']' ']' ']'
wait_for "[Fields]"

set_field 'roles.agg.args.max-model-len' '4321'
wait_gone "Enter: accept"
screen | grep -q "max-model-len  *4321" || fail "the new value is not shown in the tree"

set_field 'services[0].name' 'cache-renamed'
wait_for "[0] cache-renamed"

keys u
wait_for "[0] lmcache-server"
keys u
wait_gone "4321"
screen | grep -q "max-model-len  *8192" || fail "undo did not show the old value"
keys q
wait_exit
echo "ok"
