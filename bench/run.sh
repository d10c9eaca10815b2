#!/bin/sh
# Run every benchmark binary of a build and print its figures.
#   bench/run.sh BUILD_DIR
set -u
B=${1:-build}
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
export SRCDIR
for b in "$B"/bench/*; do
	[ -f "$b" ] && [ -x "$b" ] || continue
	echo "== ${b##*/}"
	"$b" || echo "${b##*/}: exit $?"
done
