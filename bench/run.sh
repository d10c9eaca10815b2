#!/bin/sh
# Run every benchmark binary in BUILD_DIR/bench and print its figures.
#   bench/run.sh BUILD_DIR
# Each benchmark gets the source folder as its argument.
set -u
B=${1:?usage: bench/run.sh BUILD_DIR}
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
status=0
for t in "$B"/bench/*; do
	[ -x "$t" ] || continue
	"$t" "$SRCDIR" || { echo "bench: ${t##*/} failed" >&2; status=1; }
done
exit $status
