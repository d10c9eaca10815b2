#!/bin/sh
# `srt-tui get`, `set` and `unset` end to end on tests/fixtures/cli: exact
# stdout and stderr bytes, exit codes, the file unchanged after every failure,
# the --dry-run diff text, backups, modes and symlinks.  Everything runs with
# the release binary and again with the ASan/UBSan one.
set -u
: "${SRT_TUI:?}" "${SRCDIR:?}"
FIX=$SRCDIR/tests/fixtures/cli
T=$(mktemp -d "${TMPDIR:-/tmp}/srt-doccmds.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0 checks=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# t DESC WANT_RC WANT_STDOUT WANT_STDERR ARGS...
# Run $BIN ARGS in $T/w; the wants are printf %b strings (\n for newlines).
t() {
	desc=$1 want_rc=$2
	printf '%b' "$3" >"$T/want_out"
	printf '%b' "$4" >"$T/want_err"
	shift 4
	(cd "$T/w" && "$BIN" "$@") >"$T/out" 2>"$T/err"
	rc=$?
	checks=$((checks + 1))
	tag="$desc (${BIN##*/})"
	[ $rc -eq "$want_rc" ] || bad "$tag: exit $rc, expected $want_rc"
	cmp -s "$T/out" "$T/want_out" || { bad "$tag: stdout differs"; diff "$T/want_out" "$T/out" | head -n 20; }
	cmp -s "$T/err" "$T/want_err" || { bad "$tag: stderr differs"; diff "$T/want_err" "$T/err" | head -n 20; }
}
fresh() { rm -rf "$T/w"; mkdir "$T/w"; cp "$FIX"/*.yaml "$T/w/"; }
# same DESC FILE: the working copy of FILE is still byte for byte the fixture
# (r.yaml is the working copy of recipe.yaml)
same() { f=$2; [ "$f" = r.yaml ] && f=recipe.yaml; cmp -s "$T/w/$2" "$FIX/$f" || bad "$1 (${BIN##*/}): $2 was changed"; checks=$((checks + 1)); }
# became DESC FILE EXPECTED-FILE
became() { cmp -s "$T/w/$2" "$3" || { bad "$1 (${BIN##*/}): wrong result"; diff "$3" "$T/w/$2" | head -n 20; }; checks=$((checks + 1)); }

NOPE="srt-tui: r.yaml: '%s' does not exist\n"

for BIN in "$SRT_TUI" ${SRT_TUI_SAN:+"$SRT_TUI_SAN"}; do
	fresh
	cp "$T/w/recipe.yaml" "$T/w/r.yaml"

	# ---- get ------------------------------------------------------------
	t "get a quoted scalar" 0 'cli-test\n' '' get r.yaml name
	t "get a nested scalar" 0 'bf16\n' '' get r.yaml model.precision
	t "get an int" 0 '2\n' '' get r.yaml roles.agg.workers
	t "get an int --json" 0 '2\n' '' get r.yaml roles.agg.workers --json
	t "get a block mapping as YAML" 0 'max-model-len: 4096\nenforce-eager: true\n' '' \
		get r.yaml roles.agg.args
	t "get a mapping --json" 0 '{\n  "max-model-len": 4096,\n  "enforce-eager": true\n}\n' '' \
		get r.yaml --json roles.agg.args
	t "get by [name] --json" 0 '[\n  "--l1-size-gb",\n  "32"\n]\n' '' \
		get r.yaml 'services[lmcache].args' --json
	t "get a flow list as written" 0 '[sleep, "1"]\n' '' get r.yaml 'services[1].command'
	t "get a quoted key holding a dot" 0 'debug\n' '' get r.yaml 'env."VLLM_LOG.LEVEL"'
	t "get a missing key" 1 '' "$(printf "$NOPE" roles.agg.nope)\n  hint: did you mean 'roles.agg.nodes'?\n" \
		get r.yaml roles.agg.nope
	t "get a misspelt key" 1 '' "$(printf "$NOPE" roles.agg.worker)\n  hint: did you mean 'roles.agg.workers'?\n" \
		get r.yaml roles.agg.worker
	t "get a key with nothing close" 1 '' "$(printf "$NOPE" roles.agg.zzzzzzzz)\n" get r.yaml roles.agg.zzzzzzzz
	t "get past the end of a list" 1 '' "$(printf "$NOPE" 'services[9]')\n" get r.yaml 'services[9]'
	t "get a bad path" 2 '' "srt-tui: r.yaml: bad list index in path 'a[1'\n" get r.yaml 'a[1'
	t "get without PATH" 2 '' 'usage: srt-tui get FILE PATH [--json]\n' get r.yaml
	t "get with an unknown option" 2 '' \
		"srt-tui: get: unknown option '--yaml'; see 'srt-tui get --help'\n" get r.yaml name --yaml
	t "get a missing file" 2 '' "srt-tui: cannot read 'missing.yaml': No such file or directory\n" \
		get missing.yaml name
	t "get from a broken file" 2 '' \
		"broken.yaml:3:1: error: cannot read 'broken.yaml': did not find expected node content (while parsing a flow node at line 3) [yaml-syntax]\n  hint: fix the YAML syntax at this line (indentation, quotes or brackets)\n" \
		get broken.yaml name
	t "get from two documents" 2 '' \
		"twodocs.yaml:2:1: error: 'twodocs.yaml' holds more than one YAML document; srtctl reads exactly one [yaml-multi-document]\n  hint: keep one document: remove this '---' line and what follows, or split the file in two\n" \
		get twodocs.yaml a
	(cd "$T/w" && "$BIN" get --help) >"$T/out" 2>"$T/err"
	[ $? -eq 0 ] && head -n 1 "$T/out" | grep -qx 'usage: srt-tui get FILE PATH \[--json\]' && [ ! -s "$T/err" ] ||
		bad "get --help (${BIN##*/})"
	same "get leaves the file alone" r.yaml

	# ---- set ------------------------------------------------------------
	# The values keep the recipe valid (1 worker of 4 GPUs fits the one
	# 8-GPU node), so stderr stays empty: what an edit breaks is printed, and
	# tests/cli/set_report.sh checks that.
	sed '21s/workers: 2/workers: 1/' "$FIX/recipe.yaml" >"$T/expect"
	t "set an int" 0 '' '' set r.yaml roles.agg.workers=1
	became "set an int" r.yaml "$T/expect"

	cp "$FIX/recipe.yaml" "$T/w/r.yaml"
	t "set --dry-run" 0 '--- a/r.yaml
+++ b/r.yaml
@@ -1,6 +1,6 @@
 # vLLM aggregate with an LMCache server: fixture for get/set/unset tests.
 schema: 2
-name: "cli-test"   # job name
+name: "renamed"   # job name
 
 model:
   path: "hf:Qwen/Qwen3-0.6B"
@@ -18,7 +18,7 @@
 roles:
   agg:
     nodes: 1
-    workers: 2
+    workers: 1
     gpus: 4
     args:
       max-model-len: 4096
' '' set --dry-run r.yaml name=renamed roles.agg.workers=1
	cmp -s "$T/w/r.yaml" "$FIX/recipe.yaml" || bad "set --dry-run (${BIN##*/}): the file was written"
	t "set --dry-run of no change" 0 '' '' set r.yaml -n 'name="cli-test"'

	sed -e '3s/"cli-test"/"renamed"/' -e '12s/8/4/' -e "22s/4/'4'/" "$FIX/recipe.yaml" >"$T/expect"
	# "4" quoted is a string, as srtctl's --set types it; gpus takes an
	# integer (schema), so set says what it wrote breaks, in validate's format
	t "set three values" 0 '' \
		"r.yaml:22:5: error: roles.agg.gpus must be an integer or null; got the string '4' [wrong-type]\n  hint: gpus: GPUs per worker\n" \
		set r.yaml name=renamed resources.gpus_per_node=4 'roles.agg.gpus="4"'
	became "set three values" r.yaml "$T/expect"

	cp "$FIX/recipe.yaml" "$T/w/r.yaml"
	sed '25a\      block-size: 16' "$FIX/recipe.yaml" >"$T/expect"
	t "set adds a key" 0 '' '' set r.yaml roles.agg.args.block-size=16
	became "set adds a key" r.yaml "$T/expect"

	cp "$FIX/recipe.yaml" "$T/w/r.yaml"
	# a new list is written in flow style, each item quoted only if it must be
	sed "31s/.*/    args: [--l1-size-gb, '64']/" "$FIX/recipe.yaml" >"$T/expect"
	t "set a list by [name]" 0 '' '' set r.yaml 'services[lmcache].args=["--l1-size-gb", "64"]'
	became "set a list by [name]" r.yaml "$T/expect"

	cp "$FIX/recipe.yaml" "$T/w/r.yaml"
	t "set the same value" 0 '' '' set r.yaml 'name="cli-test"' roles.agg.workers=2
	same "set the same value" r.yaml

	# all or nothing: the first assignment is fine, the second is refused
	t "set refused halfway" 1 '' \
		"srt-tui: r.yaml: roles.agg.workers: cannot set a key on a non-mapping\nsrt-tui: 'r.yaml' was not changed\n" \
		set r.yaml name=other roles.agg.workers.deep=1
	same "set refused halfway" r.yaml
	# VALUE is typed as srtctl's --set types it: text that is not YAML, or is
	# a mapping, stays a string
	t "set text that is not YAML" 0 '--- a/r.yaml
+++ b/r.yaml
@@ -1,6 +1,6 @@
 # vLLM aggregate with an LMCache server: fixture for get/set/unset tests.
 schema: 2
-name: "cli-test"   # job name
+name: "[1, 2"   # job name
 
 model:
   path: "hf:Qwen/Qwen3-0.6B"
' '' set -n r.yaml 'name=[1, 2'
	t "set a mapping text" 0 '--- a/r.yaml
+++ b/r.yaml
@@ -23,6 +23,7 @@
     args:
       max-model-len: 4096
       enforce-eager: true
+      rope-scaling: '"'"'{"rope_type": "yarn"}'"'"'
 
 services:
   # the cache server, one per node
' '' set -n r.yaml 'roles.agg.args.rope-scaling={"rope_type": "yarn"}'
	t "set a mapping where the field holds one" 0 '--- a/r.yaml
+++ b/r.yaml
@@ -23,6 +23,7 @@
     args:
       max-model-len: 4096
       enforce-eager: true
+    env: {A: '"'"'1'"'"'}
 
 services:
   # the cache server, one per node
' '' set -n r.yaml 'roles.agg.env={A: "1"}'
	t "set an empty value" 0 '--- a/r.yaml
+++ b/r.yaml
@@ -5,7 +5,7 @@
 model:
   path: "hf:Qwen/Qwen3-0.6B"
   container: "vllm/vllm-openai:latest"
-  precision: "bf16"
+  precision: ""
 
 resources:
   gpu_type: "h100"
' '' set -n r.yaml 'model.precision='
	same "set -n" r.yaml
	t "set without =" 2 '' "srt-tui: 'name' is not PATH=VALUE; write e.g. 'resources.gpus_per_node=8'\n" \
		set r.yaml name
	t "set a bad path" 2 '' "srt-tui: r.yaml: empty segment in path 'a..b'\n" set r.yaml 'a..b=2'
	t "set an unclosed index" 2 '' "srt-tui: 'a[1=2' is not PATH=VALUE; write e.g. 'resources.gpus_per_node=8'\n" \
		set r.yaml 'a[1=2'
	t "set a quoted key holding '='" 0 '--- a/r.yaml
+++ b/r.yaml
@@ -35,3 +35,4 @@
 
 env:
   "VLLM_LOG.LEVEL": "debug"
+  A=B: x=y
' '' set -n r.yaml 'env."A=B"=x=y'
	t "set without assignments" 2 '' 'usage: srt-tui set FILE PATH=VALUE... [--dry-run] [--backup] [--force]\n' set r.yaml
	t "set in a broken file" 2 '' \
		"broken.yaml:3:1: error: cannot read 'broken.yaml': did not find expected node content (while parsing a flow node at line 3) [yaml-syntax]\n  hint: fix the YAML syntax at this line (indentation, quotes or brackets)\n" \
		set broken.yaml name=x
	same "set in a broken file" broken.yaml
	same "failed sets" r.yaml
	ls "$T/w" | grep -q '\.tmp-' && bad "set (${BIN##*/}): a temp file was left"

	# --backup keeps the previous version; the default does not
	t "set --backup" 0 '' '' set r.yaml --backup roles.agg.workers=1
	cmp -s "$T/w/r.yaml.bak" "$FIX/recipe.yaml" || bad "set --backup (${BIN##*/}): wrong .bak"
	rm -f "$T/w/r.yaml.bak"
	t "set without --backup" 0 '' '' set r.yaml roles.agg.workers=2
	[ -e "$T/w/r.yaml.bak" ] && bad "set (${BIN##*/}): wrote a .bak without --backup"

	# mode and symlinks survive
	cp "$FIX/recipe.yaml" "$T/w/r.yaml"
	chmod 640 "$T/w/r.yaml"
	ln -s r.yaml "$T/w/link.yaml"
	sed '21s/workers: 2/workers: 1/' "$FIX/recipe.yaml" >"$T/expect"
	t "set through a symlink" 0 '' '' set link.yaml roles.agg.workers=1
	[ -L "$T/w/link.yaml" ] || bad "set (${BIN##*/}): the symlink was replaced"
	became "set through a symlink" r.yaml "$T/expect"
	[ "$(stat -c %a "$T/w/r.yaml")" = 640 ] || bad "set (${BIN##*/}): mode 640 became $(stat -c %a "$T/w/r.yaml")"
	rm -f "$T/w/link.yaml"

	# ---- unset ----------------------------------------------------------
	cp "$FIX/recipe.yaml" "$T/w/r.yaml"
	sed '25d' "$FIX/recipe.yaml" >"$T/expect"
	t "unset a key" 0 '' '' unset r.yaml roles.agg.args.enforce-eager
	became "unset a key" r.yaml "$T/expect"

	cp "$FIX/recipe.yaml" "$T/w/r.yaml"
	sed '32,34d' "$FIX/recipe.yaml" >"$T/expect"
	t "unset a list item by [name]" 0 '' '' unset r.yaml 'services[probe]'
	became "unset a list item by [name]" r.yaml "$T/expect"

	cp "$FIX/recipe.yaml" "$T/w/r.yaml"
	t "unset --dry-run" 0 '--- a/r.yaml
+++ b/r.yaml
@@ -19,7 +19,6 @@
   agg:
     nodes: 1
     workers: 2
-    gpus: 4
     args:
       max-model-len: 4096
       enforce-eager: true
' '' unset r.yaml roles.agg.gpus --dry-run
	same "unset --dry-run" r.yaml
	t "unset a missing key" 1 '' "$(printf "$NOPE" roles.nope)\nsrt-tui: 'r.yaml' was not changed\n" \
		unset r.yaml roles.agg.gpus roles.nope
	same "unset a missing key" r.yaml
	t "unset a misspelt [name]" 1 '' "srt-tui: r.yaml: services[lmcach]: no list item has name 'lmcach'; check the name or use an index\n  hint: did you mean 'services[lmcache]'?\nsrt-tui: 'r.yaml' was not changed\n" \
		unset r.yaml 'services[lmcach]'
	same "unset a misspelt [name]" r.yaml
	t "unset without PATH" 2 '' 'usage: srt-tui unset FILE PATH... [--dry-run] [--backup] [--force]\n' unset r.yaml
	(cd "$T/w" && "$BIN" unset --help) >"$T/out" 2>"$T/err"
	[ $? -eq 0 ] && head -n 1 "$T/out" | grep -q '^usage: srt-tui unset' || bad "unset --help (${BIN##*/})"
	(cd "$T/w" && "$BIN" set --help) >"$T/out" 2>"$T/err"
	[ $? -eq 0 ] && head -n 1 "$T/out" | grep -q '^usage: srt-tui set' || bad "set --help (${BIN##*/})"
done

echo "doc_cmds: $checks checks, $fails failed"
[ $fails -eq 0 ]
