#!/bin/sh
# One user action is one undo step (a document transaction), in the real
# terminal: switching aggregated -> prefill/decode (rename agg, copy it to
# decode, move the lmcache-server placed on agg) and changing the engine to
# ATOM (drop engine.connector, set the type, frontend -> atomesh) each
# undo with one `u` to the exact bytes of the file, and redo with one ^Y to
# the exact bytes the action wrote.  Saving after the undo writes nothing
# ("no changes to save"): the document is byte-identical to the file.
set -u
command -v tmux >/dev/null 2>&1 || { echo "skip: tmux is not installed"; exit 0; }
. "$SRCDIR/tests/tui/lib_wiz.sh"
tmp=$(mktemp -d)
trap 'tw_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; tw_screen; exit 1; }

# the template, with its lmcache-server placed on the agg nodes
cp "$SRCDIR/examples/vllm-lmcache-agg.yaml" "$tmp/r.yaml"
"$SRT_TUI" set "$tmp/r.yaml" 'services[lmcache-server].placement.node=agg' >/dev/null 2>&1 ||
	fail "cannot place the server on agg"
orig=$tmp/orig.yaml
cp "$tmp/r.yaml" "$orig"
tw_start 100 30 "$SRT_TUI edit $tmp/r.yaml"
tw_wait "no problems" || fail "the editor did not open"

# Walk back from where the editor opens (the last screen) to Topology.
_i=0
until tw_screen | grep -qF "[Topology]"; do
	_i=$((_i + 1))
	[ $_i -le 12 ] || fail "Topology step not reached"
	_was=$(tw_screen | sed -n 2p)
	tw_keys "["
	_n=0 # wait for the tab row to change before the next key
	while [ "$(tw_screen | sed -n 2p)" = "$_was" ] && [ $_n -lt 100 ]; do
		sleep 0.05
		_n=$((_n + 1))
	done
done
tw_wait "[ Layout: aggregated ]" || fail "Topology step"

# The layout switch: four edits, one step.
tw_keys Enter
tw_wait "prefill/decode" || fail "layout chooser"
tw_keys Down Enter
tw_wait "[ Layout: prefill/decode ]" || fail "layout did not switch"
tw_wait "[modified]" || fail "no change"
tw_keys u
tw_wait "[ Layout: aggregated ]" || fail "one u did not undo the whole switch"
tw_wait_gone() { # TEXT: poll until the screen no longer shows it
	_n=200
	while [ "$_n" -gt 0 ]; do
		tw_screen | grep -qF -- "$1" || return 0
		sleep 0.05
		_n=$((_n - 1))
	done
	return 1
}
tw_wait_gone "[modified]" || fail "after one u the document still differs from the file"
tw_keys C-s
tw_wait "no changes to save" || fail "saving after the undo wrote something"
cmp -s "$orig" "$tmp/r.yaml" || fail "the file changed"

# Redo returns the switched text; save it and check what it is.
tw_keys C-y
tw_wait "[ Layout: prefill/decode ]" || fail "one ^Y did not redo the switch"
tw_keys C-s
tw_wait "saved" || fail "save after redo"
"$SRT_TUI" get "$tmp/r.yaml" services[lmcache-server].placement.node >"$tmp/pl" 2>&1
grep -qx workers "$tmp/pl" || fail "the server placed on agg did not move to workers: $(cat "$tmp/pl")"
"$SRT_TUI" get "$tmp/r.yaml" roles.decode.workers >/dev/null 2>&1 || fail "no roles.decode after redo"
cp "$tmp/r.yaml" "$tmp/pd.yaml"

# Save; a recipe with errors (ATOM with vLLM's args) asks first: yes.
save() {
	tw_keys C-s
	_n=200
	while [ "$_n" -gt 0 ]; do
		_s=$(tw_screen)
		case $_s in
		*"Save it anyway?"*) tw_keys y; tw_wait "saved '" || return 1; return 0 ;;
		*"saved '"*) return 0 ;;
		esac
		sleep 0.05
		_n=$((_n - 1))
	done
	return 1
}

# The engine change: vllm -> atom drops engine.connector and sets the
# frontend to atomesh; one u undoes all of it.
tw_keys "["
tw_wait "Engine type: vllm" || fail "Engine step"
tw_keys Enter
tw_wait "> vllm" || fail "engine chooser"
tw_keys Up Up Up Up Up
tw_wait "> atom" || fail "atom not selected"
tw_keys Enter
tw_wait "Engine type: atom" || fail "engine did not change"
save || fail "save after the engine change"
"$SRT_TUI" get "$tmp/r.yaml" frontend.type | grep -qx atomesh || fail "frontend did not follow ATOM"
cp "$tmp/r.yaml" "$tmp/atom.yaml"
tw_keys u
tw_wait "Engine type: vllm" || fail "one u did not undo the engine change"
save || fail "save after undoing the engine change"
cmp -s "$tmp/pd.yaml" "$tmp/r.yaml" || fail "one u did not return the bytes before the engine change"
tw_keys C-y
tw_wait "Engine type: atom" || fail "one ^Y did not redo the engine change"
save || fail "save after redoing the engine change"
cmp -s "$tmp/atom.yaml" "$tmp/r.yaml" || fail "redo did not return the bytes the engine change wrote"
tw_keys q
tw_wait "[exited 0]" || fail "did not quit cleanly"
echo "ok: layout switch and engine change are one undo step each"
