#!/bin/sh
# Build the libFuzzer harnesses into BUILD/fuzz/ and run each for SECONDS.
#   sh fuzz/run.sh BUILD_DIR SECONDS [harness...]   (default: every fuzz/fuzz_*.c)
# Needs clang with libFuzzer (`make fuzz` installs it).  The corpus of each
# harness grows in BUILD/fuzz/corpus/NAME across runs; it starts from
# examples/, tests/fixtures/ and fuzz/seeds/.  A crash, leak or hang is saved
# as BUILD/fuzz/artifacts/NAME-crash-* (replay: BUILD/fuzz/NAME FILE) and makes
# the script exit 1; fuzzing goes on after it for the rest of the time.
# Fixed crashes go to fuzz/regress/, which tests/unit/test_regress.c replays
# on every `make check`.
set -u
B=${1:?usage: fuzz/run.sh BUILD_DIR SECONDS [harness...]}
SECS=${2:?usage: fuzz/run.sh BUILD_DIR SECONDS [harness...]}
shift 2
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$B/fuzz"
F=$(cd "$B/fuzz" && pwd)
CC=${FUZZ_CC:-clang}
command -v "$CC" >/dev/null 2>&1 || { echo "fuzz: '$CC' not found; run 'make fuzz' (it installs clang)" >&2; exit 2; }

SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
CFLAGS="-std=c11 -D_GNU_SOURCE -DSRT_TUI_VERSION=\"fuzz\" -DSRT_TUI_DATADIR=\"/nonexistent\" -O1 -g -I$SRCDIR $(pkg-config --cflags yaml-0.1 jansson)"
LIBS="$(pkg-config --libs yaml-0.1 jansson) -lm"

# The library (lib/ + model/ + render/), instrumented for coverage, built once.
cd "$SRCDIR" || exit 2
objs=""
for src in lib/*.c model/*.c render/*.c; do
	obj="$F/obj/${src%.c}.o"
	mkdir -p "$(dirname "$obj")"
	if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ -n "$(find lib model render fuzz -name '*.h' -newer "$obj" 2>/dev/null | head -n 1)" ]; then
		$CC $CFLAGS $SAN -fsanitize=fuzzer-no-link -c "$src" -o "$obj" ||
			{ echo "fuzz: cannot compile $src" >&2; exit 2; }
	fi
	objs="$objs $obj"
done

# Seeds: every recipe we have plus the hand-written edge cases.
seeds="$F/seeds"
rm -rf "$seeds"; mkdir -p "$seeds"
for s in examples/*.yaml fuzz/seeds/* fuzz/regress/*; do [ -f "$s" ] && cp "$s" "$seeds/$(echo "$s" | tr / _)"; done
[ -d tests/fixtures ] && find tests/fixtures -type f \( -name '*.yaml' -o -name '*.yml' \) |
	while read -r s; do cp "$s" "$seeds/$(echo "$s" | tr / _)"; done

[ $# -eq 0 ] && set -- $(for h in fuzz/fuzz_*.c; do basename "$h" .c; done)
status=0
summary=""
for name in "$@"; do
	bin="$F/$name"
	# fuzz_save also takes the recovery files, which live with the editor
	extra=""
	[ "$name" = fuzz_save ] && extra="tui/recover.c"
	if ! $CC $CFLAGS $SAN -fsanitize=fuzzer "fuzz/$name.c" $extra $objs $LIBS -o "$bin" 2>"$F/$name.link.log"; then
		case $name in
		fuzz_validate|fuzz_render)
			if grep -q 'undefined reference' "$F/$name.link.log"; then
				echo "skip $name: $(grep -o "undefined reference to \`[a-z_]*'" "$F/$name.link.log" | head -n 1) (not built yet)"
				summary="$summary\n$name: skipped (does not link yet)"
				continue
			fi ;;
		esac
		cat "$F/$name.link.log" >&2
		echo "fuzz: cannot build $name" >&2
		exit 2
	fi
	mkdir -p "$F/corpus/$name" "$F/artifacts"
	echo "== $name: ${SECS}s"
	# Fork mode keeps fuzzing after a crash, so one known bug does not hide
	# the next; every crash is still saved and counted.
	"$bin" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
		-max_total_time="$SECS" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
		-artifact_prefix="$F/artifacts/$name-" \
		"$F/corpus/$name" "$seeds" >"$F/$name.log" 2>&1
	rc=$?
	# status lines: "#N: cov: C ft: F corp: K exec/s: E oom/timeout/crash: a/b/c time: Ts ..."
	last=$(grep -E '^#[0-9]+: cov:' "$F/$name.log" | tail -n 1)
	execs=$(echo "$last" | sed -n 's/^#\([0-9]*\):.*/\1/p')
	cov=$(echo "$last" | grep -o 'cov: [0-9]*')
	ft=$(echo "$last" | grep -o 'ft: [0-9]*')
	corp=$(echo "$last" | grep -o 'corp: [0-9]*')
	rate=$(echo "$last" | sed -n 's/.*exec\/s:\{0,1\} \([0-9]*\).*/\1/p')
	bad=$(echo "$last" | sed -n 's/.*oom\/timeout\/crash: \([0-9]*\/[0-9]*\/[0-9]*\).*/\1/p')
	arts=$(ls "$F/artifacts" 2>/dev/null | grep -c "^$name-")
	line="$name: ${execs:-?} executions (${rate:-?}/s), ${cov:-cov: ?}, ${ft:-ft: ?}, ${corp:-corp: ?}, oom/timeout/crash ${bad:-?}"
	if [ $rc -ne 0 ] || [ "$arts" -gt 0 ]; then
		status=1
		line="$line  FAILED (exit $rc, $arts inputs in $F/artifacts)"
		grep -E 'ERROR: |fuzz invariant|^SUMMARY' "$F/$name.log" | sort | uniq -c | sort -rn | head -n 8 >&2
	fi
	echo "$line"
	summary="$summary\n$line"
done
printf '\nfuzz summary (%ss each):%b\n' "$SECS" "$summary"
exit $status
