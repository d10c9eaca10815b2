#!/bin/sh
# Keys a user on a login node relies on, at 80x24 with TERM=xterm-256color
# inside tmux (a common setting, where Home/End arrive in vt220 spelling):
# - Esc on "Remove ...?" keeps the key (it used to answer the last key, y);
# - the question names its keys;
# - End in a choice list reaches the last item;
# - a service added from the list is the one the form then shows;
# - a long error (an unknown theme) is shown whole, on more than one row;
# - a value prompt names the type to type (a mapping: YAML {key: value}).
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/examples/vllm-lmcache-disagg.yaml" "$TMPD/r.yaml"

TUI_TERM=xterm-256color tui_start 80 24 "$SRT_TUI" edit --theme nope r.yaml
wait_for "[Fields]"
wait_for "error: theme 'nope' not found"
wait_for "high-contrast or mono"

find_field precision
keys d
wait_for "Remove 'model.precision' from the recipe?"
wait_for "y: remove"
keys Escape
wait_gone "Remove 'model.precision'"
screen | grep -qF "[modified]" && fail "Esc removed the key"
cmp -s "$SRCDIR/examples/vllm-lmcache-disagg.yaml" "$TMPD/r.yaml" || fail "the file changed"

# A prompt says what to type: a mapping is YAML {key: value}.
find_field readiness
keys Enter
wait_for "readiness: a mapping or null, as YAML {key: value, ...}"
keys Escape
wait_gone "as YAML {key: value"

# Services: a, End (the last kind), Enter: the form shows the new service.
keys [ [ [ [ [ # Fields, Variants, Write, Review, Frontend, Services
wait_for "[Services]"
keys a
wait_for "Add a service of type"
keys End
keys Enter
wait_for "added service '"
last=$(screen | sed -n "s/.*added service '\([^']*\)' (\([^)]*\)).*/\1 (\2)/p")
[ -n "$last" ] || fail "no 'added service' message"
case $last in *lmcache-server*) fail "End did not leave lmcache-server, the list's start" ;; esac
wait_for "Service $last"
keys u
wait_gone "Service $last"
keys q
wait_exit
[ "$(exit_status)" = 0 ] || fail "exit status $(exit_status)"
echo ok
