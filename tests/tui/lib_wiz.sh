# Helpers for the wizard's terminal tests: one tmux server per test (its own
# socket), polling the screen for text instead of sleeping.
#   . "$SRCDIR/tests/tui/lib_wiz.sh"; tw_start 100 30 "$SRT_TUI new out.yaml"
TW_BASE=${TW_SOCK:-srt-tui-wiz-$$}
TW_N=0
TW_SOCK=$TW_BASE-0
TW_LOG=${TW_LOG:-/dev/null}

tw() { tmux -L "$TW_SOCK" "$@"; }

# tw_start COLS ROWS COMMAND: a detached session running COMMAND; the pane
# stays after the command exits so its last screen can be read.
tw_start() {
	tw kill-server 2>/dev/null
	# A fresh server per session: a dying one can take the next start down.
	TW_N=$((TW_N + 1))
	TW_SOCK=$TW_BASE-$TW_N
	tw -f /dev/null new-session -d -x "$1" -y "$2" -s t \
		"env LC_ALL=C.UTF-8 TERM=xterm-256color ESCDELAY=25 $3; echo '[exited' \$?']'; sleep 30"
	tw set-option -t t remain-on-exit on >/dev/null 2>&1
}
tw_stop() { tw kill-server 2>/dev/null; }
tw_screen() { tw capture-pane -p -t t; }
tw_keys() { tw send-keys -t t "$@"; }
# Literal text (no key names).
tw_type() { tw send-keys -t t -l "$1"; }

# tw_wait TEXT [SECONDS]: poll until the screen shows TEXT (fixed string).
tw_wait() {
	_n=$(( ${2:-10} * 20 ))
	while [ "$_n" -gt 0 ]; do
		tw_screen 2>/dev/null | grep -qF -- "$1" && return 0
		sleep 0.05
		_n=$((_n - 1))
	done
	echo "timed out waiting for: $1" >&2
	echo "---- screen ----" >&2
	tw_screen >&2 2>/dev/null
	return 1
}
# tw_wait_gone TEXT [SECONDS]
tw_wait_gone() {
	_n=$(( ${2:-10} * 20 ))
	while [ "$_n" -gt 0 ]; do
		tw_screen 2>/dev/null | grep -qF -- "$1" || return 0
		sleep 0.05
		_n=$((_n - 1))
	done
	echo "timed out waiting for '$1' to go" >&2
	tw_screen >&2
	return 1
}
