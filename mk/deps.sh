#!/bin/sh
# Make sure the Debian packages srt-tui builds and tests with are installed.
# As root: install what is missing. Otherwise: print the exact command and fail,
# so that `make run` / `make check` never half-build on a machine without them.
# Usage: mk/deps.sh [extra-package...]
set -u
# Besides the build: every program a test runs (tmux for the terminal tests,
# valgrind, mandoc for the man page lint, procps for pgrep and ps, python3,
# PyYAML and Rich for the cross-checks against what srtctl reads and prints,
# bash for the completion script, acl and attr for the ACL and xattr checks,
# util-linux for setpriv, bsdutils for script, time for the memory bounds).
# Coreutils, diffutils, grep, sed and mawk are essential packages.
pkgs="gcc make libc6-dev pkg-config libncurses-dev libyaml-dev libjansson-dev libcmocka-dev
      tmux valgrind mandoc procps python3 python3-yaml bash
      acl attr util-linux bsdutils time python3-rich $*"

if ! command -v dpkg-query >/dev/null 2>&1; then
	# Not Debian: trust pkg-config to tell whether the libraries are there.
	for p in yaml-0.1 jansson ncursesw cmocka; do
		pkg-config --exists "$p" 2>/dev/null || {
			echo "srt-tui: library '$p' not found by pkg-config; install its development package" >&2
			exit 1
		}
	done
	exit 0
fi

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ]; then
	echo "srt-tui: installing missing packages:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null || { echo "srt-tui: 'apt-get update' failed" >&2; exit 1; }
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		{ echo "srt-tui: 'apt-get install -y$missing' failed" >&2; exit 1; }
	exit 0
fi
echo "srt-tui: missing Debian packages:$missing" >&2
echo "install them with:" >&2
echo "  sudo apt-get install -y$missing" >&2
exit 1
