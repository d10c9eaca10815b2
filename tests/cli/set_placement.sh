#!/bin/sh
# `set` that creates a service's `placement:` mapping also writes the node
# the service had, as the Services form and the Fields tree do: srtctl reads
# a placement mapping without `node` as `head` (its schema default), not the
# kind's default (`workers` for an lmcache-server), so writing only
# `per: node` would move the server to the head node.  `render` then still
# says placement=workers.  A mapping written whole ({per: node}) keeps the
# node the same way; one that names its node is written as given.
# Release and ASan/UBSan binaries.
set -u
: "${SRT_TUI:?}" "${SRCDIR:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/srt-setplace.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL ($tag): $*"; fail=1; }

cat >"$T/base.yaml" <<'EOF'
schema: 2
name: t
model:
  path: m
  container: c
  precision: bf16
resources:
  gpus_per_node: 8
engine: {type: vllm, connector: lmcache-mp}
roles:
  agg:
    nodes: 2
    workers: 2
    gpus: 8
environment:
  PYTHONHASHSEED: "0"
services:
  - name: lmc
    type: lmcache-server
    env: {PYTHONHASHSEED: "0"}
    args: [--l1-size-gb, "8", --eviction-policy, LRU]
EOF

placement() { # the lmcache-server's placement in `render`'s service list
	"$BIN" render "$1" 2>/dev/null | sed -n 's/^  lmc type=lmcache-server placement=\([^ ]*\).*/\1/p'
}

for BIN in "$SRT_TUI" ${SRT_TUI_SAN:+"$SRT_TUI_SAN"}; do
	tag=${BIN##*/}
	cd "$T" || exit 1
	cp base.yaml r.yaml
	[ "$(placement r.yaml)" = workers ] || bad "the kind's default is not workers: $(placement r.yaml)"

	# 1. one key of a new mapping: the node it had is written with it
	"$BIN" set r.yaml 'services[0].placement.per=node' >out 2>err || bad "set per exit $?"
	cat >want <<'EOF'
    args: [--l1-size-gb, "8", --eviction-policy, LRU]
    placement:
      node: workers
      per: node
EOF
	tail -n 4 r.yaml >got
	cmp -s want got || { bad "the file after set per=node:"; diff want got; }
	[ "$(placement r.yaml)" = workers ] || bad "render says placement=$(placement r.yaml) after per=node"
	grep -q 'lmcache-server-head-only' err && bad "set reported the head-only trap it avoided"

	# 2. the same by name, and a whole mapping without node
	cp base.yaml r.yaml
	"$BIN" set r.yaml 'services[lmc].placement={per: node}' >out 2>err || bad "set mapping exit $?"
	[ "$(placement r.yaml)" = workers ] || bad "render says placement=$(placement r.yaml) after {per: node}"
	"$BIN" get r.yaml 'services[lmc].placement.node' >got 2>&1
	[ "$(cat got)" = workers ] || bad "placement.node after {per: node}: $(cat got)"

	# 3. a node the user names is theirs
	cp base.yaml r.yaml
	"$BIN" set r.yaml 'services[0].placement={node: decode, per: node}' >out 2>err || bad "set node exit $?"
	"$BIN" get r.yaml 'services[0].placement.node' >got 2>&1
	[ "$(cat got)" = decode ] || bad "the named node was not kept: $(cat got)"

	# 4. an existing mapping is edited key by key, its node untouched
	"$BIN" set r.yaml 'services[0].placement.per=node' >out 2>err || bad "set per on mapping exit $?"
	"$BIN" get r.yaml 'services[0].placement.node' >got 2>&1
	[ "$(cat got)" = decode ] || bad "per=node on a mapping changed its node: $(cat got)"

	# 5. --dry-run prints the same two lines as the diff
	cp base.yaml r.yaml
	"$BIN" set --dry-run r.yaml 'services[0].placement.per=node' >out 2>err || bad "dry-run exit $?"
	grep -qxF '+      node: workers' out || { bad "dry-run diff has no node line:"; cat out; }
	cmp -s base.yaml r.yaml || bad "--dry-run wrote the file"
done
[ $fail = 0 ] && echo "set placement: the node is kept"
exit $fail
