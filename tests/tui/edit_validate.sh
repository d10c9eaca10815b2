#!/bin/sh
# edit: adding `--port 9000` to the lmcache-server args shows the validation
# error at once (panel, marker beside the field); removing it clears it; the
# Services preview shows the server command with srtctl's own ports.
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"
tui_start 130 40 "$SRT_TUI" edit r.yaml
wait_for "no problems"
# The preview wraps long commands; the server follows the implied services:
# focus the preview (Tab Tab) and page down until it shows (Space: one byte,
# where PageDown's escape sequence can be split on a loaded machine; the
# side panel is what the form's 80 columns leave, so it may take two pages).
keys Tab Tab
i=0
while ! screen | grep -qF -- "--l1-size-gb" && [ $i -lt 6 ]; do
	text ' '
	sleep 0.2
	i=$((i + 1))
done
wait_for "lmcache server --host 0.0.0.0"
wait_for "--port 8750 --http-host 0.0.0.0"
wait_for "--l1-size-gb"
keys Tab

find_field 'services[0].args'
keys a
wait_for "New item at the end of services[0].args"
text '--port'
keys Enter
wait_for "(7 items)"
keys a
wait_for "New item at the end of services[0].args"
text '9000'
keys Enter
wait_for "1 error, 0 warnings"
wait_for "services[lmcache-server].args must not set --port"
wait_for "[lmcache-server-port]"
screen | grep -q "^E .*args  *(8 items)" || fail "no E marker beside the args field"

# Undo both insertions: the error goes away.
keys u
wait_for "(7 items)"
keys u
wait_for "no problems"
screen | grep -qF "lmcache-server-port" && fail "the error stayed after undo"

# Redo brings it back, then delete the two items from the list editor.
keys C-y C-y
wait_for "1 error, 0 warnings"
keys e
wait_for "services[0].args (8)"
keys End
keys d
wait_for "services[0].args (7)"
keys d
wait_for "services[0].args (6)"
keys Escape
wait_gone "services[0].args (6)"
wait_for "no problems"
# Nothing changed in the end: quitting does not ask.
keys q
wait_exit
[ "$(exit_status)" = 0 ] || fail "exit status $(exit_status)"
cmp -s "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" r.yaml 2>/dev/null || cmp -s "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml" || fail "the file changed"
echo "ok"
