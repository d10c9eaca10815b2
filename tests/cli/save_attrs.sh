#!/bin/sh
# Saving keeps what the file had: every extended attribute (user.*, and the
# POSIX ACL, which is system.posix_acl_access), owner, group and mode; a temp
# file's ACL inherited from the folder's default ACL is not added; and a group
# the saving user cannot give a file is refused rather than replaced by the
# user's own group with the old group bits (which would let that group in).
set -u
: "${SRT_TUI:?}" "${SRCDIR:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/srt-attrs.XXXXXX")
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
fail=0
FIX=$SRCDIR/tests/fixtures/cli/recipe.yaml
bad() { echo "FAIL: $*"; fail=1; }

if command -v setfattr >/dev/null 2>&1 && cp "$FIX" "$T/x.yaml" &&
	setfattr -n user.srt-test -v kept "$T/x.yaml" 2>/dev/null; then
	setfattr -n user.second -v "two words" "$T/x.yaml"
	"$SRT_TUI" set "$T/x.yaml" name=xattr || bad "set on a file with xattrs"
	[ "$(getfattr --only-values -n user.srt-test "$T/x.yaml" 2>/dev/null)" = kept ] ||
		bad "user.srt-test lost by the save"
	[ "$(getfattr --only-values -n user.second "$T/x.yaml" 2>/dev/null)" = "two words" ] ||
		bad "user.second lost by the save"
	"$SRT_TUI" set --backup "$T/x.yaml" name=xattr2 || bad "set --backup"
	[ "$(getfattr --only-values -n user.srt-test "$T/x.yaml" 2>/dev/null)" = kept ] ||
		bad "user.srt-test lost by a save with --backup"
else
	echo "skip: no setfattr or the file system has no user xattrs; xattr case not checked"
fi

if command -v setfacl >/dev/null 2>&1 && cp "$FIX" "$T/a.yaml" &&
	setfacl -m u:nobody:rw,g:daemon:r "$T/a.yaml" 2>/dev/null; then
	chmod 640 "$T/a.yaml"
	before=$(getfacl -cp "$T/a.yaml" 2>/dev/null)
	"$SRT_TUI" set "$T/a.yaml" name=acl || bad "set on a file with an ACL"
	after=$(getfacl -cp "$T/a.yaml" 2>/dev/null)
	[ "$before" = "$after" ] || { bad "the ACL changed:"; echo "$before"; echo "--"; echo "$after"; }
	# The folder's default ACL must not be added to a file that had none.
	mkdir "$T/d"
	cp "$FIX" "$T/d/r.yaml"
	chmod 644 "$T/d/r.yaml"
	setfacl -d -m u:nobody:rw "$T/d"
	"$SRT_TUI" set "$T/d/r.yaml" name=noacl || bad "set in a folder with a default ACL"
	getfacl -cp "$T/d/r.yaml" 2>/dev/null | grep -q '^user:nobody' &&
		bad "the folder's default ACL gave nobody access to the saved file"
	[ "$(stat -c %a "$T/d/r.yaml")" = 644 ] || bad "mode $(stat -c %a "$T/d/r.yaml"), want 644"
else
	echo "skip: no setfacl or the file system has no POSIX ACLs; ACL case not checked"
fi

if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && getent group daemon >/dev/null; then
	# root saving someone else's file keeps owner, group, mode (set-gid too)
	cp "$FIX" "$T/o.yaml"
	chown nobody:daemon "$T/o.yaml"
	chmod 2640 "$T/o.yaml"
	"$SRT_TUI" set "$T/o.yaml" name=owner || bad "set as root"
	[ "$(stat -c '%U:%G %a' "$T/o.yaml")" = "nobody:daemon 2640" ] ||
		bad "root's save: $(stat -c '%U:%G %a' "$T/o.yaml"), want nobody:daemon 2640"
	# nobody, not in group daemon, saves its own file of group daemon:
	# the new file cannot have that group, so the save is refused.
	mkdir "$T/n"
	chown nobody "$T/n"
	cp "$FIX" "$T/n/g.yaml"
	chown nobody:daemon "$T/n/g.yaml"
	chmod 660 "$T/n/g.yaml"
	cp "$T/n/g.yaml" "$T/g.orig"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$SRT_TUI" set "$T/n/g.yaml" name=grp \
		>"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 1 ] || bad "foreign group: exit $rc, want 1"
	[ "$(stat -c '%G %a' "$T/n/g.yaml")" = "daemon 660" ] ||
		bad "foreign group: now $(stat -c '%G %a' "$T/n/g.yaml"), want daemon 660"
	cmp -s "$T/g.orig" "$T/n/g.yaml" || bad "foreign group: the file changed"
	grep -q "belongs to group 'daemon'" "$T/err" || { bad "foreign group: message"; cat "$T/err"; }
	ls -a "$T/n" | grep -q tmp- && bad "foreign group: a temp file was left"
else
	echo "skip: not root (or no user nobody / group daemon); owner and group cases not checked"
fi
exit $fail
