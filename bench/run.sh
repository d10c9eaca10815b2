#!/bin/sh
# Run every benchmark binary in BUILD_DIR/bench and print its figures.
#   bench/run.sh BUILD_DIR
# Each benchmark gets the source folder as its argument.  gen_recipe is the
# large-recipe generator, not a benchmark.  The machine's load is printed
# first: the figures are only as quiet as the machine was.
set -u
B=${1:?usage: bench/run.sh BUILD_DIR}
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
echo "bench: $(uname -m), $(getconf _NPROCESSORS_ONLN) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
for t in "$B"/bench/*; do
	[ -x "$t" ] || continue
	case ${t##*/} in gen_recipe) continue ;; esac
	"$t" "$SRCDIR" || { echo "bench: ${t##*/} failed" >&2; status=1; }
done
exit $status
