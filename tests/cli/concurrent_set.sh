#!/bin/sh
# Parallel writers of one recipe lose nothing: two `srt-tui set` on different
# keys of the same file, started together, 300 times.  Every writer locks the
# recipe around read-check-write, so the second one reads what the first wrote
# and applies its change on top; both changes must be in the file after every
# pair, or one writer must have refused with a message (never exit 0 and lose).
# Also: a temp file a killed save left behind is removed by the next write.
set -u
: "${SRT_TUI:?}" "${SRCDIR:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/srt-concurrent.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
cp "$SRCDIR/tests/fixtures/cli/recipe.yaml" "$T/r.yaml"
PAIRS=${PAIRS:-300}
lost=0 refused=0 i=1
while [ $i -le "$PAIRS" ]; do
	"$SRT_TUI" set "$T/r.yaml" "name=job$i" 2>"$T/e1" &
	p1=$!
	"$SRT_TUI" set "$T/r.yaml" "roles.agg.args.max-model-len=$((4096 + i))" 2>"$T/e2" &
	p2=$!
	wait $p1; r1=$?
	wait $p2; r2=$?
	n=$("$SRT_TUI" get "$T/r.yaml" name)
	m=$("$SRT_TUI" get "$T/r.yaml" roles.agg.args.max-model-len)
	if [ "$r1" != 0 ] || [ "$r2" != 0 ]; then
		refused=$((refused + 1))
		[ -s "$T/e1" ] || [ -s "$T/e2" ] || { echo "FAIL pair $i: refused without a message"; fail=1; }
	fi
	{ [ "$r1" = 0 ] && [ "$n" != "job$i" ]; } && lost=$((lost + 1))
	{ [ "$r2" = 0 ] && [ "$m" != "$((4096 + i))" ]; } && lost=$((lost + 1))
	i=$((i + 1))
done
echo "$PAIRS pairs of parallel set: $lost lost updates, $refused pairs with a refusal"
[ $lost = 0 ] || { echo "FAIL: $lost updates lost"; fail=1; }
ls "$T" | grep -q 'tmp-' && { echo "FAIL: a temp file was left:"; ls -a "$T"; fail=1; }

# A save killed between creating its temp file and renaming it leaves
# r.yaml.tmp-XXXXXX (and r.yaml.bak.tmp-XXXXXX for --backup); the next write
# of r.yaml, holding the lock, removes ours.  Another user's file of that
# shape, a symlink, and temps of another recipe are left alone.
printf 'stale\n' >"$T/r.yaml.tmp-AbC123"
printf 'stale\n' >"$T/r.yaml.bak.tmp-XyZ789"
printf 'other\n' >"$T/s.yaml.tmp-AbC123"
ln -s /etc/passwd "$T/r.yaml.tmp-LiNk00"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	printf 'theirs\n' >"$T/r.yaml.tmp-NoBody"
	chown nobody "$T/r.yaml.tmp-NoBody"
else
	echo "skip: not root, the foreign temp file case is not checked"
fi
"$SRT_TUI" set "$T/r.yaml" name=after-kill || { echo "FAIL: set after a kill"; fail=1; }
[ -e "$T/r.yaml.tmp-AbC123" ] && { echo "FAIL: stale temp file kept"; fail=1; }
[ -e "$T/r.yaml.bak.tmp-XyZ789" ] && { echo "FAIL: stale backup temp file kept"; fail=1; }
[ -e "$T/s.yaml.tmp-AbC123" ] || { echo "FAIL: another recipe's temp file removed"; fail=1; }
[ -L "$T/r.yaml.tmp-LiNk00" ] || { echo "FAIL: a symlink was removed"; fail=1; }
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	[ -e "$T/r.yaml.tmp-NoBody" ] || { echo "FAIL: another user's file removed"; fail=1; }
fi
exit $fail
