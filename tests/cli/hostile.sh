#!/bin/sh
# Hostile and odd input: every case ends with a clear "srt-tui: ..." message
# and a non-zero exit, never a crash (a signal, exit >= 128, or a sanitizer
# report) and never a hang (each run is under `timeout 10`).  Runs the release
# binary and, when given, the ASan/UBSan one (which is 3-5 times slower, so
# its limit is 30 s).  The release binary also runs under `ulimit -v` 1 GB, so
# an alias bomb that expanded would be killed.
set -u
: "${SRT_TUI:?}" "${SRCDIR:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/srt-hostile.XXXXXX")
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# run DESC WANT_RC WANT_ERR_SUBSTRING BIN ARGS...: exit code and message
# (which starts "srt-tui: ", or is a problem of the text in validate's form,
# "FILE:LINE:COL: error: ...", which every command prints on a load; a
# validate or render message may also be a plain "FILE: error: ...").
# WANT_RC "nz" means any failure exit (1 or 2).
run() {
	desc=$1 want_rc=$2 want_err=$3 bin=$4
	shift 4
	if [ "$bin" = "$SRT_TUI" ]; then
		(ulimit -v 1048576; timeout 10 "$bin" "$@") >"$T/out" 2>"$T/err"
	else
		timeout 30 "$bin" "$@" >"$T/out" 2>"$T/err"
	fi
	rc=$?
	tag="$desc (${bin##*/})"
	if [ $rc -eq 124 ]; then
		bad "$tag: hung (killed by timeout)"
	elif [ $rc -ge 128 ]; then
		bad "$tag: crashed (exit $rc)"
	elif grep -qE 'Sanitizer|runtime error|LeakSanitizer' "$T/err"; then
		bad "$tag: sanitizer report"; head -n 20 "$T/err"
	elif [ "$want_rc" = nz ] && [ $rc -ne 1 ] && [ $rc -ne 2 ]; then
		bad "$tag: exit $rc, expected 1 or 2"
	elif [ "$want_rc" != nz ] && [ $rc -ne "$want_rc" ]; then
		bad "$tag: exit $rc, expected $want_rc"; head -c 600 "$T/err"
	elif [ "$want_rc" != 0 ] && [ "$1" != validate ] && [ "$1" != render ] &&
		! head -n 1 "$T/err" | grep -Eq '^srt-tui: |^[^ ]+:[0-9]+:[0-9]+: (error|warning): '; then
		bad "$tag: no 'srt-tui: ' message"; head -c 300 "$T/err"
	elif [ -n "$want_err" ] && ! cat "$T/err" "$T/out" | grep -qF -- "$want_err"; then
		bad "$tag: message lacks '$want_err'"; head -c 600 "$T/err"
	else
		echo "ok   $tag: exit $rc: $(head -n 1 "$T/err" | cut -c 1-110)"
	fi
}

H=$T/h
mkdir "$H"
: >"$H/empty.yaml"
head -c 4096 /dev/zero >"$H/nul.yaml"
LC_ALL=C awk 'BEGIN { srand(7); for (i = 0; i < 65536; i++) printf "%c", int(rand() * 255) + 1 }' >"$H/random.bin"
printf 'name: caf\351\nmodel: {path: "\377\376"}\n' >"$H/latin1.yaml"
awk 'BEGIN { s = "a: "; for (i = 0; i < 10000; i++) s = s "["; for (i = 0; i < 10000; i++) s = s "]"; print s }' >"$H/deep_flow.yaml"
# block sequences nest on one line ("- - - x"), so 10,000 levels stay small
awk 'BEGIN { s = "a:\n  "; for (i = 0; i < 10000; i++) s = s "- "; print s "x" }' >"$H/deep_block.yaml"
# billion laughs: 10^9 leaves if aliases were expanded
{
	echo 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'
	p=a
	for n in b c d e f g h i; do
		printf '%s: &%s [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n' $n $n $p $p $p $p $p $p $p $p $p $p
		p=$n
	done
	echo 'name: bomb'
} >"$H/bomb.yaml"
# each level nests 200 lists and refers to the one before: 2,000 levels once expanded
awk 'BEGIN { o = ""; c = ""; for (i = 0; i < 199; i++) { o = o "["; c = c "]" }
	print "l0: &l0 " o "[x]" c
	for (n = 1; n < 10; n++) print "l" n ": &l" n " " o "[*l" n - 1 "]" c }' >"$H/deep_alias.yaml"
awk 'BEGIN { for (i = 0; i < 40000; i++) print "name: x" }' >"$H/repeated.yaml"
awk 'BEGIN { s = "x"; while (length(s) < 1048576) s = s s; print "name: " s }' >"$H/longline.yaml"
mkfifo "$H/fifo.yaml"
printf 'name: secret\n' >"$H/secret.yaml"
chmod 000 "$H/secret.yaml"

for B in "$SRT_TUI" ${SRT_TUI_SAN:+"$SRT_TUI_SAN"}; do
	run "empty file: get" 1 "$H/empty.yaml: 'name' does not exist" "$B" get "$H/empty.yaml" name
	run "all-NUL file" 2 "$H/nul.yaml:" "$B" get "$H/nul.yaml" name
	run "random binary" 2 "$H/random.bin:" "$B" get "$H/random.bin" name
	run "invalid UTF-8" 2 "$H/latin1.yaml:" "$B" get "$H/latin1.yaml" name
	run "10,000 nested flow lists" 2 "$H/deep_flow.yaml:1:1003: error: '$H/deep_flow.yaml' nests more than 1000 levels deep [yaml-too-deep]" \
		"$B" get "$H/deep_flow.yaml" name
	run "10,000 nested block lists" 2 "$H/deep_block.yaml:2:2001: error: '$H/deep_block.yaml' nests more than 1000 levels deep" \
		"$B" get "$H/deep_block.yaml" name
	run "10,000 nested lists: validate" 2 "nests more than 1000 levels deep" "$B" validate "$H/deep_flow.yaml"
	run "10,000 nested lists: render" 2 "nests more than 1000 levels deep" "$B" render "$H/deep_block.yaml"
	run "10 aliases of 200 levels each" 2 "alias '*l3' nests the data more than 1000 levels deep" \
		"$B" get "$H/deep_alias.yaml" name
	run "a path of 2,000 keys: set" 1 "the path and value nest more than 1000 levels deep" \
		"$B" set "$H/empty.yaml" "$(awk 'BEGIN { printf "a"; for (i = 1; i < 2000; i++) printf ".a" }')=1"
	run "alias bomb: get --json" 1 "expands to too much data" "$B" get "$H/bomb.yaml" i --json
	run "alias bomb: set" 1 "aliases expand to too much data" "$B" set "$H/bomb.yaml" 'a[0]=x'
	# found by fuzz_validate: an empty tree leaked in validate
	run "a comment-only file: validate" 1 "the file holds no recipe [empty]" "$B" \
		validate "$SRCDIR/fuzz/seeds/comment_only.yaml"
	run "an alias inside its own anchor" 2 "recursive_alias.yaml:1:11: error: alias '*a' refers to its own enclosing node [yaml-recursive-alias]" \
		"$B" get "$SRCDIR/tests/fixtures/cli/recursive_alias.yaml" a --json
	run "a merge key inside its anchor: validate" 2 "alias '*defs' refers to its own enclosing node" \
		"$B" validate "$SRCDIR/fuzz/regress/merge_key_inside_its_anchor.yaml"
	run "a directory" 2 "cannot read '$H': it is a directory" "$B" get "$H" name
	run "a FIFO" 2 "cannot read '$H/fifo.yaml': it is a FIFO, not a regular file" "$B" get "$H/fifo.yaml" name
	run "a device" 2 "cannot read '/dev/zero': it is a device" "$B" get /dev/zero name
	run "a missing folder" 2 "cannot read '$H/no/such/dir/r.yaml': No such file or directory" \
		"$B" get "$H/no/such/dir/r.yaml" name
	run "set in a missing folder" 2 "cannot read '$H/nodir/r.yaml': No such file or directory" \
		"$B" set "$H/nodir/r.yaml" name=x
	# Root reads any file whatever its mode: the check means nothing then.
	if [ "$(id -u)" -ne 0 ]; then
		run "an unreadable file" 2 "cannot read '$H/secret.yaml': Permission denied" \
			"$B" get "$H/secret.yaml" name
	fi
done
grep -q '^a: &a \["lol","lol",' "$H/bomb.yaml" || bad "alias bomb: a refused set changed the file"
[ "$(id -u)" -eq 0 ] && echo "skip an unreadable file: running as root, which can read any file"

# The 50 MB file exists only while this case runs.
head -c 52428800 /dev/zero | tr '\0' 'a' >"$T/huge.yaml"
for B in "$SRT_TUI" ${SRT_TUI_SAN:+"$SRT_TUI_SAN"}; do
	run "a 50 MB file" 2 "cannot read '$T/huge.yaml': it is larger than 16 MB" "$B" get "$T/huge.yaml" name
done
rm -f "$T/huge.yaml"

# Cases that must work, not fail: the answer is checked too.
for B in "$SRT_TUI" ${SRT_TUI_SAN:+"$SRT_TUI_SAN"}; do
	# duplicate keys: the last one is edited (it is the one PyYAML keeps)
	cp "$H/repeated.yaml" "$T/repeated.yaml"
	run "key repeated 40,000 times: set" 0 "more problems not shown" \
		"$B" set "$T/repeated.yaml" name=y
	grep -q "^$T/repeated.yaml:2:1: warning: key 'name' is given twice (first at line 1)" "$T/err" ||
		bad "key repeated: no duplicate-key warning"
	[ "$(tail -n 1 "$T/repeated.yaml")" = "name: 'y'" ] && [ "$(grep -c "^name: x$" "$T/repeated.yaml")" -eq 39999 ] ||
		bad "key repeated: set did not edit exactly the last one"
	run "1 MB single line" 0 "" "$B" get "$H/longline.yaml" name
	[ "$(wc -c <"$T/out")" -eq 1048577 ] || bad "1 MB line: printed $(wc -c <"$T/out") bytes"
	cp "$H/empty.yaml" "$T/e.yaml"
	run "empty file: set adds the key" 0 "" "$B" set "$T/e.yaml" name=first
	printf 'name: first\n' | cmp -s - "$T/e.yaml" || { bad "empty file: set wrote"; cat "$T/e.yaml"; }
done

# A read-only target folder: creating the temp file fails (EROFS, from the
# shim: as root a chmod 555 folder would still be writable).
cc -shared -fPIC -o "$T/failio.so" "$SRCDIR/tests/shim/failio.c" -ldl || bad "cannot build the shim"
printf 'name: ro\n' >"$T/ro.yaml"
FAILIO_MKTEMP=EROFS LD_PRELOAD=$T/failio.so timeout 10 "$SRT_TUI" set "$T/ro.yaml" name=rw 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || bad "read-only target: exit $rc"
printf "srt-tui: cannot write '%s': Read-only file system; the file was not changed\n" "$T/ro.yaml" |
	cmp -s - "$T/err" || { bad "read-only target: message"; cat "$T/err"; }
printf 'name: ro\n' | cmp -s - "$T/ro.yaml" || bad "read-only target: file changed"
ls "$T" | grep -q '\.tmp-' && bad "read-only target: temp file left"

# A symlink target: the link stays a link; the file it points to is written.
mkdir "$T/real"
printf 'name: linked\n' >"$T/real/r.yaml"
chmod 640 "$T/real/r.yaml"
ln -s real/r.yaml "$T/link.yaml"
timeout 10 "$SRT_TUI" set "$T/link.yaml" name=relinked || bad "symlink: set failed"
[ -L "$T/link.yaml" ] || bad "symlink: the link was replaced by a file"
printf 'name: relinked\n' | cmp -s - "$T/real/r.yaml" || bad "symlink: target not written"
[ "$(stat -c %a "$T/real/r.yaml")" = 640 ] || bad "symlink: target mode changed"

[ $fails -eq 0 ] && echo "hostile: all checks passed"
[ $fails -eq 0 ]
