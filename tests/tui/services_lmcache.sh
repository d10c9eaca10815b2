#!/bin/sh
# The Services form on an lmcache-server, as issue "the LMCache server as
# LMCache really runs it" asks to show it:
# - the missing --eviction-policy is an error until it is set to LRU from the
#   table's choices (lmcache server requires it);
# - an fs L2 adapter built from its base_path shows as the exact
#   `--l2-adapter '{...}'` argument in the Plan tab (srtctl appends args
#   verbatim after the fixed prefix, spec §5.1);
# - the save changes only those lines (diff);
# - setting "One per (node, worker)" to node writes the node the server had,
#   so it stays on the workers (srtctl reads a placement mapping without node
#   as head): render says placement=workers.
. "$SRCDIR/tests/tui/lib.sh"
orig="$SRCDIR/tests/fixtures/tui/lmcache-services.yaml"
cp "$orig" "$TMPD/r.yaml"
tui_start 110 50 "$SRT_TUI" edit r.yaml
wait_for "1 error, 0 warnings"

# To the Services step ([ goes back from the Fields tree, one step a key).
i=0
while [ $i -lt 10 ] && ! screen | grep -qF "[Services]"; do
	keys "["
	sleep 0.2
	i=$((i + 1))
done
wait_for "[Services]"
wait_for "Eviction policy        (not set: required, the server will not start)"

# Eviction policy: the choices are the server's own.
find_field "Eviction policy"
keys Enter
wait_for "(not set: the server refuses to start)"
wait_for "IsolatedLRU"
screen | grep -q "LFU\|FIFO\|MRU" && fail "refused policies offered"
keys Down Enter
wait_for "Eviction policy        LRU"
wait_for "no problems"

# An fs L2 adapter with a path.
find_field "Add an L2 adapter"
keys Enter
wait_for "Add an L2 adapter of type"
keys Enter   # fs, the first type
wait_for "fs base_path"
keys C-u
text "/raid/lmc"
keys Enter
wait_for "fs max_capacity_gb"
keys Enter   # optional keys left out
wait_for "fs use_odirect"
keys Enter
wait_for "1: --l2-adapter '{\"type\": \"fs\", \"base_path\": \"/raid/lmc\"}'"

# The Plan tab shows the argument exactly as the server will get it.
keys Tab Tab Tab Tab Tab Tab
wait_for "[Plan]"
wait_for "--eviction-policy LRU --l2-adapter '{\"type\": \"fs\", \"base_path\": \"/raid/lmc\"}'"
# (after Plan: the Sbatch, Mounts and Env tabs, then round to Form)
keys Tab Tab Tab Tab
wait_for "[Form]"

keys C-s
wait_for "saved 'r.yaml'"
diff -u "$orig" "$TMPD/r.yaml" | grep '^[-+]' | grep -v '^---\|^+++' >"$TMPD/changed"
cat >"$TMPD/want" <<'WANT'
+      - --eviction-policy
+      - LRU
+      - --l2-adapter
+      - '{"type": "fs", "base_path": "/raid/lmc"}'
WANT
diff "$TMPD/want" "$TMPD/changed" || fail "the saved diff is not exactly the edited lines"

# One per (node, worker) -> node: the server stays on the workers.
wait_for "Placement node         workers (kind default)"
find_field "One per"
keys Enter
wait_for "node (not set: the default)"
keys Down Enter
wait_for "One per (node, worker) node"
wait_for "Placement node         workers"
screen | grep -q "Placement node         head" && fail "the server moved to head"
wait_for "> lmcache-server   lmcache-server  on workers"
keys C-s
wait_for "saved 'r.yaml'"
"$SRT_TUI" render "$TMPD/r.yaml" >"$TMPD/render" 2>&1
grep -q "lmcache-server type=lmcache-server placement=workers " "$TMPD/render" ||
	fail "render does not say placement=workers: $(grep lmcache-server "$TMPD/render")"
"$SRT_TUI" validate "$TMPD/r.yaml" >"$TMPD/validate" 2>&1 || fail "validate: $(cat "$TMPD/validate")"
grep -q "lmcache-server-head-only" "$TMPD/validate" && fail "head-only warning after the edit"
keys q
wait_for "[exited 0]"
