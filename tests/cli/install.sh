#!/bin/sh
# make install honours PREFIX and DESTDIR, the installed binary works with no
# source tree around it, and make uninstall removes what install put there.
set -u
: "${SRCDIR:?}" "${BUILD_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

make -s -C "$SRCDIR" B="$BUILD_DIR" install DESTDIR="$tmp/root" PREFIX=/opt/srt >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "make install"; }
for f in bin/srt-tui share/man/man1/srt-tui.1 share/srt-tui/themes/mono.theme \
	share/srt-tui/themes/default.theme share/bash-completion/completions/srt-tui; do
	[ -f "$tmp/root/opt/srt/$f" ] || fail "make install did not install $f"
done
ls "$tmp/root/opt/srt/share/srt-tui/examples/"*.yaml >/dev/null 2>&1 || fail "no examples installed"
[ -x "$tmp/root/opt/srt/bin/srt-tui" ] || fail "installed binary is not executable"

# The installed binary needs nothing from the source tree: run it elsewhere.
cd "$tmp" || exit 1
"$tmp/root/opt/srt/bin/srt-tui" --version | grep -q '^srt-tui [0-9]' || fail "installed --version"
"$tmp/root/opt/srt/bin/srt-tui" new --list-templates | grep -q 'vllm-lmcache-agg' ||
	fail "installed binary lists no templates"
"$tmp/root/opt/srt/bin/srt-tui" new --template vllm-lmcache-agg -o "$tmp/r.yaml" || fail "new --template"
"$tmp/root/opt/srt/bin/srt-tui" validate "$tmp/r.yaml" || fail "template does not validate"

make -s -C "$SRCDIR" B="$BUILD_DIR" uninstall DESTDIR="$tmp/root" PREFIX=/opt/srt >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "make uninstall"; }
left=$(find "$tmp/root" -type f | wc -l)
[ "$left" -eq 0 ] || { find "$tmp/root" -type f; fail "make uninstall left $left files"; }
echo "install/uninstall: ok"
