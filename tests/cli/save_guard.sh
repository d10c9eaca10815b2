#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# What a save may replace (model/fileio.c may_replace, exchange_expected):
# - the user's own read-only file is refused by set unless --force (vim's
#   E45 and :w!), and stays read-only when forced;
# - expand --write never writes through a symbolic link planted in the
#   output folder: the link is refused by name and its target is untouched;
# - a file owned by another user is never replaced under them (as root:
#   the second user through setpriv; skipped otherwise);
# - set racing a writer that takes no lock (sed -i renames) loses none of
#   that writer's changes: every line sed added is still there at the end.
set -u
fail=0
T=$(mktemp -d "${TMPDIR:-/tmp}/srt-tui-guard.XXXXXX")
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
. "$SRCDIR/tests/cli/lib.sh"
cp "$SRCDIR/examples/vllm-agg.yaml" "$T/r.yaml"

# read-only: refused, then forced
chmod 444 "$T/r.yaml"
cp "$T/r.yaml" "$T/before"
run "set on a read-only file" 1 "$SRT_TUI" set "$T/r.yaml" name=changed
grep -q "is read-only (mode 0444).*--force replaces it anyway" "$T/err" ||
	{ echo "FAIL read-only: message"; cat "$T/err"; fail=1; }
cmp -s "$T/before" "$T/r.yaml" || { echo "FAIL read-only: file changed"; fail=1; }
run "set --force" 0 "$SRT_TUI" set --force "$T/r.yaml" name=changed
grep -q "^name: \"*changed" "$T/r.yaml" || { echo "FAIL --force: not written"; fail=1; }
[ "$(stat -c %a "$T/r.yaml")" = 444 ] || { echo "FAIL --force: mode changed"; fail=1; }
chmod 644 "$T/r.yaml"

# expand --write: a planted link named like a job file
SW=$SRCDIR/tests/fixtures/override/sweep-agg.yaml
mkdir -p "$T/clean" "$T/dest"
"$SRT_TUI" expand "$SW" --write "$T/clean" >/dev/null 2>&1
job=$(ls "$T/clean" | head -1)
if [ -z "$job" ]; then
	echo "FAIL expand --write wrote nothing for $SW"; fail=1
else
	echo "the victim's file" >"$T/victim"
	ln -s "$T/victim" "$T/dest/$job"
	run "expand --write over a link" 1 "$SRT_TUI" expand "$SW" --write "$T/dest"
	grep -q "'$T/dest/$job': it is a symbolic link" "$T/err" ||
		{ echo "FAIL link: not named"; cat "$T/err"; fail=1; }
	[ "$(cat "$T/victim")" = "the victim's file" ] ||
		{ echo "FAIL link: the target was written"; fail=1; }
fi

# another user's file
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	mkdir -p "$T/shared" && chmod 777 "$T/shared"
	cp "$SRT_TUI" "$T/srt-tui" && chmod 755 "$T/srt-tui"
	cp "$SRCDIR/examples/vllm-agg.yaml" "$T/shared/owned.yaml"
	chmod 666 "$T/shared/owned.yaml"
	cp "$T/shared/owned.yaml" "$T/before"
	run "set on another user's file" 1 setpriv --reuid=65534 --regid=65534 \
		--clear-groups "$T/srt-tui" set "$T/shared/owned.yaml" name=mine
	grep -q "it belongs to root, and a save would replace it" "$T/err" ||
		{ echo "FAIL owner: message"; cat "$T/err"; fail=1; }
	[ "$(stat -c %U "$T/shared/owned.yaml")" = root ] ||
		{ echo "FAIL owner: taken over"; fail=1; }
	cmp -s "$T/before" "$T/shared/owned.yaml" ||
		{ echo "FAIL owner: changed"; fail=1; }
else
	echo "skip another user's file: needs root and setpriv"
fi

# a lock-less writer: sed -i adds a line at a time while set runs
cp "$SRCDIR/examples/vllm-agg.yaml" "$T/race.yaml"
( i=0; while [ $i -lt 150 ]; do
	i=$((i + 1)); sed -i "\$a # sed $i" "$T/race.yaml"; done ) &
sp=$!
n=0
while kill -0 "$sp" 2>/dev/null && [ $n -lt 400 ]; do
	n=$((n + 1))
	"$SRT_TUI" set "$T/race.yaml" "slurm.time_limit=0$((n % 9)):00:00" \
		>/dev/null 2>&1
done
wait "$sp"
lost=0
i=0; while [ $i -lt 150 ]; do i=$((i + 1))
	grep -qx "# sed $i" "$T/race.yaml" || lost=$((lost + 1)); done
echo "race: $n sets beside 150 sed -i writes, $lost sed lines lost"
[ "$lost" = 0 ] || { echo "FAIL race: set overwrote $lost changes"; fail=1; }

[ "$fail" = 0 ] && echo "save guard: read-only, links, owners, lock-less writers"
exit "$fail"
