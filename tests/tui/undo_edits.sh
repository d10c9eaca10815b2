#!/bin/sh
# One user action is one undo step, in the real terminal, for the actions
# undo_actions.sh does not walk through: the $EDITOR round trip, a form field
# that writes two list items (the eviction policy: `--eviction-policy LRU`),
# a list edit (the server's extra args as shell words), a connector choice
# (a MultiConnector creates roles.agg.args and its connector), adding a
# service, removing one and the last one, and the connector screen's
# "add an lmcache-server on these nodes" (the entry and its placement).
#
# Each action is checked the same way: save after it (the file now holds the
# action's bytes), one `u` and a save give back the bytes from before it
# (cmp), one ^Y and a save give back the action's bytes (cmp).  A second
# undo step left over would leave the file different and fail the cmp.
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-services.yaml" "$TMPD/r.yaml"

# The fake editor: change two places of the recipe (name and workers), so
# the round trip is one replace of the text with more than one change.
cat >"$TMPD/ed.sh" <<'ED'
#!/bin/sh
sed -e 's/^name: .*/name: "edited"/' -e 's/^    workers: 2$/    workers: 1/' "$1" >"$1.new" &&
	cat "$1.new" >"$1" && rm -f "$1.new"
ED
chmod +x "$TMPD/ed.sh"

# save_until FILE: save (answering the "save it anyway?" question a recipe
# with errors asks) until r.yaml is byte-identical to FILE.
save_until() {
	keys C-s
	i=0
	while [ $i -lt 200 ]; do
		cmp -s "$1" "$TMPD/r.yaml" && return 0
		screen | grep -qF "Save it anyway?" && keys y
		sleep 0.05
		i=$((i + 1))
	done
	fail "after saving, the file is not $(basename "$1"): $(diff "$1" "$TMPD/r.yaml" | head -n 8)"
}
# save_new NAME: save until r.yaml differs from before.yaml; keep it as NAME.
save_new() {
	keys C-s
	i=0
	while [ $i -lt 200 ]; do
		if ! cmp -s "$TMPD/before.yaml" "$TMPD/r.yaml"; then
			wait_gone "[modified]" # written by rename: whole once it differs
			cp "$TMPD/r.yaml" "$TMPD/$1"
			return 0
		fi
		screen | grep -qF "Save it anyway?" && keys y
		sleep 0.05
		i=$((i + 1))
	done
	fail "the action changed nothing on disk"
}
# one_step NAME WHAT: the action is saved as NAME; one u returns before.yaml,
# one ^Y returns NAME.  Then NAME is the next action's starting point.
one_step() {
	keys u
	save_until "$TMPD/before.yaml"
	keys C-y
	save_until "$TMPD/$1"
	cp "$TMPD/$1" "$TMPD/before.yaml"
	echo "ok: $2 is one undo step"
}
# focus_list: focus the services list.  Up from the field last used (a step
# remembers it) until the list's help shows; the first row reached is the
# last one.  F12 (bound to nothing) first clears a message that would hide
# the help.
focus_list() {
	i=0
	while :; do
		keys F12
		wait_gone "saved 'r.yaml'"
		screen | grep -qF "Enter selects; a adds, d removes" && return 0
		i=$((i + 1))
		[ $i -le 60 ] || fail "the services list never got the focus"
		was=$(screen | tail -n 3)
		keys Up
		n=0 # the help line changes with the focus
		while [ "$(screen | tail -n 3)" = "$was" ] && [ $n -lt 40 ]; do
			sleep 0.05
			n=$((n + 1))
		done
	done
}
# step KEY NAME: press [ or ] until the step row shows [NAME].
step() {
	i=0
	until screen | sed -n 2p | grep -qF "[$2]"; do
		i=$((i + 1))
		[ $i -le 12 ] || fail "step $2 not reached"
		was=$(screen | sed -n 2p)
		keys "$1"
		n=0 # wait for the step row to change before the next key
		while [ "$(screen | sed -n 2p)" = "$was" ] && [ $n -lt 100 ]; do
			sleep 0.05
			n=$((n + 1))
		done
	done
}

cp "$TMPD/r.yaml" "$TMPD/before.yaml"
tui_start 110 50 env VISUAL="$TMPD/ed.sh" "$SRT_TUI" edit r.yaml
wait_for "1 error, 0 warnings"

# The $EDITOR round trip: E on the Fields screen (where the editor opens).
step ']' Fields
keys E
wait_for "replaced the recipe with the edited text"
save_new editor.yaml
grep -qx 'name: "edited"' "$TMPD/editor.yaml" || fail "the editor's name did not arrive"
grep -qx '    workers: 1' "$TMPD/editor.yaml" || fail "the editor's workers did not arrive"
one_step editor.yaml "the \$EDITOR round trip"

# A form field: the eviction policy writes `--eviction-policy` and `LRU`.
step '[' Services
find_field "Eviction policy"
keys Enter
wait_for "IsolatedLRU"
keys Down Enter
wait_for "Eviction policy        LRU"
save_new policy.yaml
diff "$TMPD/before.yaml" "$TMPD/policy.yaml" | grep -c '^>' | grep -qx 2 ||
	fail "the policy is not two new lines: $(diff "$TMPD/before.yaml" "$TMPD/policy.yaml")"
one_step policy.yaml "a form field (the eviction policy)"

# A list edit: extra args as shell words, three list items.
find_field "Extra args"
keys Enter
wait_for "Extra args for lmcache server (shell words)"
keys C-u
text "--max-workers 4 --disable-observability"
keys Enter
# (flags the table knows show in their own fields)
wait_for "Max workers            4"
wait_for "Disable observability  on"
save_new extra.yaml
diff "$TMPD/before.yaml" "$TMPD/extra.yaml" | grep -c '^>' | grep -qx 3 ||
	fail "the extra args are not three new lines: $(diff "$TMPD/before.yaml" "$TMPD/extra.yaml")"
one_step extra.yaml "a list edit (extra args)"

# Adding a service: a second lmcache-server, named for its kind.
keys a
wait_for "Add a service of type"
keys Enter
wait_for "added service 'lmcache'"
save_new added.yaml
grep -q '^  - name: lmcache$' "$TMPD/added.yaml" || fail "no service named lmcache was added"
one_step added.yaml "adding a service"

# A connector choice: MultiConnector nixl + lmcache-mp on agg.
step '[' Connectors
find_field "Connector:"
keys Enter
wait_for "Connector of agg"
wait_for "MultiConnector: nixl + lmcache-mp"
i=0
until screen | grep -qF "> MultiConnector: nixl + lmcache-mp"; do
	i=$((i + 1))
	[ $i -le 12 ] || fail "MultiConnector preset not reached"
	keys Down
	sleep 0.05
done
keys Enter
wait_for "[ Connector: MultiConnector: nixl + lmcache-mp ]"
save_new multi.yaml
grep -q '^    args:$' "$TMPD/multi.yaml" || fail "roles.agg.args was not created"
grep -q "^      connector: '{\"kv_connector\":\"MultiConnector\"" "$TMPD/multi.yaml" ||
	fail "roles.agg.args.connector was not written"
one_step multi.yaml "a connector choice"

# Removing a service: the one added above, then the last one.  One action
# each.
step ']' Services
focus_list
keys d
wait_for "Remove the service 'lmcache'?"
keys y
wait_gone "lmcache          lmcache-server"
save_new removed.yaml
grep -q '^  - name: lmcache$' "$TMPD/removed.yaml" && fail "the service lmcache is still there"
one_step removed.yaml "removing a service"
focus_list
keys d
wait_for "Remove the service 'lmcache-server'?"
keys y
wait_gone "lmcache-server   lmcache-server"
save_new empty.yaml
grep -q '^  - name:' "$TMPD/empty.yaml" && fail "a service is left after removing the last one"
one_step empty.yaml "removing the last service"

# The connector screen's offer for a role whose LMCache MP connector has no
# server now: add one and place it on agg, as one action.
step '[' Connectors
find_field "Add an lmcache-server on agg nodes"
keys Enter
wait_for "added an lmcache-server on agg nodes"
save_new placed.yaml
grep -q '^      node: agg$' "$TMPD/placed.yaml" || fail "the server was not placed on agg"
one_step placed.yaml "adding a server for a role"

keys q
wait_exit
[ "$(exit_status)" = 0 ] || fail "quit with status $(exit_status)"
exit 0
