#!/bin/sh
# The focused field's hint is readable whole: it takes the rows it needs
# (up to a fifth of the screen, at least three) instead of stopping after two
# rows with "…".  The placement node's hint (165 characters: three rows at
# 80 columns) and the lmcache-server's Extra args hint ("... Do not set
# --host, --port or --http-port: srtctl owns 8750 and 8751.", three rows at
# 60 columns, the narrowest srt-tui draws) both end on screen.
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"

# status_rows: the rows between the form and the key bar that hold the hint
# (the last rows before the key bar, from the row starting with its text)
hint_of() { screen | awk -v s="$1" 'index($0, s) == 1 { on = 1 } on' | sed '$d'; }

for size in "80 24" "60 24" "60 16"; do
	# shellcheck disable=SC2086
	tui_start $size "$SRT_TUI" edit r.yaml
	wait_for "[Fields]"
	keys '[' '[' '[' '[' '['
	wait_for "Services"
	find_field "Placement node"
	# away and back: the search's message gives the status rows back
	keys Down Up
	wait_gone "(n: next, N: previous)"
	h=$(hint_of "services[0].placement.node: which nodes run it.")
	[ -n "$h" ] || fail "$size: no placement hint"
	printf '%s\n' "$h" | tr '\n' ' ' | tr -s ' ' | grep -qF "so srt-tui writes the node whenever it creates the mapping." ||
		fail "$size: the placement hint is cut: $h"
	printf '%s\n' "$h" | grep -qF "…" && fail "$size: the hint ends with an ellipsis: $h"
	find_field "Extra args"
	keys Up Down
	wait_gone "(n: next, N: previous)"
	h=$(hint_of "Any other \`lmcache server\` flags")
	printf '%s\n' "$h" | tr '\n' ' ' | tr -s ' ' | grep -qF "Do not set --host, --port or --http-port: srtctl owns 8750 and 8751." ||
		fail "$size: the Extra args hint is cut: $h"
	keys q
	T kill-server
done
echo ok
