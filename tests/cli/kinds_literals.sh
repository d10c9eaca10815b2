#!/bin/sh
# One fact, one place: the LMCache ports srtctl fixes (8750 RPC, 8751 HTTP),
# the server's Prometheus default (9090) and the service kind names are
# written only in the kinds table (model/kinds.h, model/kinds.c,
# model/kinds_lmcache.c).  Everywhere else (model/, render/, tui/, cli/, lib/) they
# are read from it (LMCACHE_*_PORT, KIND_NAME(), KN_*, svc_kind_is()).
# A line that uses one of the words for something else (Dynamo's "nats"
# request plane) says so with a "kinds-ok" comment.
set -u
cd "$SRCDIR" || exit 1
fail=0
files=$(find model render tui cli lib -name '*.[ch]' ! -name 'kinds.[ch]' ! -name 'kinds_*.c' | sort)

ports=$(grep -nwE '8750|8751|9090' $files)
if [ -n "$ports" ]; then
	echo "FAIL: an LMCache port written outside the kinds table:"
	echo "$ports"
	fail=1
fi

kinds='dcgm-exporter|etcd|generic|gms|lmcache-server|mooncake-donor|mooncake-master|mooncake-store|nats|node-exporter|process-exporter|ray'
names=$(grep -nE "\"($kinds)\"" $files | grep -v 'kinds-ok')
if [ -n "$names" ]; then
	echo "FAIL: a service kind name written as a literal outside the kinds table:"
	echo "$names"
	fail=1
fi

# The table itself has every kind srtctl registers, once.
n=$(grep -cE '^	\[KIND_[A-Z_]+\] = \{ \.type = KN_' model/kinds.c)
[ "$n" = 12 ] || { echo "FAIL: model/kinds.c has $n kind entries, expected 12"; fail=1; }
# and the `lmcache server` command prefix exists once, there.
pre=$(grep -lE '"lmcache", "server"' $files model/kinds.c)
[ "$pre" = model/kinds.c ] || { echo "FAIL: the lmcache command prefix is written in: $pre"; fail=1; }

[ $fail = 0 ] && echo "kinds literals: only in the kinds table"
exit $fail
