#!/bin/sh
# Crash-safe saving: `srt-tui set` killed with SIGKILL at many points of a
# save leaves the recipe either exactly as it was or exactly as intended;
# a failing write (full disk), fsync (I/O error), rename or temp-file creation
# leaves the original untouched, no temp file behind, and a message naming the
# file and the cause.  The failures and delays come from tests/shim/failio.c,
# built here and loaded with LD_PRELOAD.
set -u
: "${SRT_TUI:?}" "${SRCDIR:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/srt-crash.XXXXXX")
trap 'rm -rf "$T"' EXIT
cc -shared -fPIC -o "$T/failio.so" "$SRCDIR/tests/shim/failio.c" -ldl ||
	{ echo "FAIL: cannot build the failio shim"; exit 1; }
SHIM=$T/failio.so
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

W=$T/w
mkdir "$W"
cp "$SRCDIR/tests/fixtures/cli/recipe.yaml" "$T/old.yaml"
cp "$T/old.yaml" "$W/r.yaml"
"$SRT_TUI" set "$W/r.yaml" roles.agg.workers=4 name='"after-the-save"' || bad "the reference set failed"
cp "$W/r.yaml" "$T/new.yaml"
cmp -s "$T/old.yaml" "$T/new.yaml" && bad "the reference set changed nothing"

# --- SIGKILL at 40 points spread over a slowed-down save ----------------
# Every write, fsync and rename of the save sleeps 15 ms before and after, so
# a save takes ~120 ms and the kills land before, inside and after it.
n_old=0 n_new=0 n_inside=0 i=0
while [ $i -lt 40 ]; do
	cp "$T/old.yaml" "$W/r.yaml"
	FAILIO_DELAY_US=15000 LD_PRELOAD=$SHIM "$SRT_TUI" set "$W/r.yaml" roles.agg.workers=4 \
		name='"after-the-save"' 2>/dev/null &
	pid=$!
	sleep "$(awk -v i=$i 'BEGIN { printf "%.3f", i * 0.005 }')"
	kill -KILL $pid 2>/dev/null
	wait $pid 2>/dev/null
	if cmp -s "$W/r.yaml" "$T/old.yaml"; then
		n_old=$((n_old + 1))
	elif cmp -s "$W/r.yaml" "$T/new.yaml"; then
		n_new=$((n_new + 1))
	else
		bad "kill $i left a file that is neither the old nor the new version"
		diff "$T/old.yaml" "$W/r.yaml" | head -n 10
	fi
	# A temp file is only left by a kill inside the save (nothing can clean
	# up after SIGKILL); count those to show the kills did land inside.
	if ls "$W" | grep -q '\.tmp-'; then
		n_inside=$((n_inside + 1))
		rm -f "$W"/*.tmp-*
	fi
	i=$((i + 1))
done
echo "40 kills: $n_old left the old version, $n_new the new one, $n_inside landed inside the save"
[ $n_old -gt 0 ] || bad "no kill landed before the rename"
[ $n_new -gt 0 ] || bad "no kill landed after the rename"
[ $n_inside -gt 0 ] || bad "no kill landed inside the save"

# --- failures: original kept, no temp file, cause named -----------------
check_failure() { # VAR=VALUE, expected cause, binary
	cp "$T/old.yaml" "$W/r.yaml"
	rm -f "$W/r.yaml.bak"
	env "$1" LD_PRELOAD="$SHIM" ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=1 \
		"$3" set "$W/r.yaml" roles.agg.workers=4 --backup >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] || bad "$1 ($3): exit $rc, expected 1"
	printf "srt-tui: cannot write '%s': %s; the file was not changed\n" "$W/r.yaml" "$2" >"$T/want"
	cmp -s "$T/err" "$T/want" || { bad "$1 ($3): wrong message"; cat "$T/err"; }
	[ -s "$T/out" ] && bad "$1 ($3): printed to stdout"
	cmp -s "$W/r.yaml" "$T/old.yaml" || bad "$1 ($3): the original was changed"
	ls "$W" | grep -q '\.tmp-' && bad "$1 ($3): a temp file was left: $(ls "$W")"
	[ -e "$W/r.yaml.bak" ] && bad "$1 ($3): a .bak was written although the save failed"
}
for bin in "$SRT_TUI" ${SRT_TUI_SAN:+"$SRT_TUI_SAN"}; do
	check_failure FAILIO_WRITE=ENOSPC "No space left on device" "$bin"
	check_failure FAILIO_WRITE=EDQUOT "Disk quota exceeded" "$bin"
	check_failure FAILIO_FSYNC=EIO "Input/output error" "$bin"
	check_failure FAILIO_MKTEMP=EROFS "Read-only file system" "$bin"
done

# rename failing after the backup was made: the recipe is still the old one
# (the .bak, a copy of that same old version, may stay: it is harmless).
cp "$T/old.yaml" "$W/r.yaml"
FAILIO_RENAME=EIO LD_PRELOAD=$SHIM "$SRT_TUI" set "$W/r.yaml" roles.agg.workers=4 2>"$T/err"
[ $? -eq 1 ] || bad "FAILIO_RENAME: wrong exit"
grep -q "cannot write '$W/r.yaml': Input/output error" "$T/err" || { bad "FAILIO_RENAME: wrong message"; cat "$T/err"; }
cmp -s "$W/r.yaml" "$T/old.yaml" || bad "FAILIO_RENAME: the original was changed"
ls "$W" | grep -q '\.tmp-' && bad "FAILIO_RENAME: a temp file was left"

[ $fails -eq 0 ] && echo "crash_save: all checks passed"
[ $fails -eq 0 ]
