# Shared helpers for the terminal tests: a private tmux server per test, keys,
# screen captures, and wait_for, which polls the screen instead of sleeping.
#   . "$SRCDIR/tests/tui/lib.sh"
#   tui_start W H CMD...       start CMD in a W x H terminal (TERM=screen-256color, what tmux expects)
#   keys KEY...                tmux send-keys (names like Enter, Tab, F2, C-s)
#   text STRING                send STRING literally
#   screen                     print the current screen
#   wait_for TEXT [SECONDS]    poll every 50 ms until TEXT is on the screen (default 10 s)
#   wait_gone TEXT [SECONDS]   poll until TEXT is no longer on the screen
#   wait_exit [SECONDS]        poll until the program in the pane has exited
#   fail MESSAGE               print the message and the screen, exit 1
#   find_field FIELD           search (/) for FIELD, take the first hit, wait until it is selected
#   set_field FIELD VALUE      find FIELD, open it, replace its value with VALUE, accept
# Needs SRT_TUI (the binary) and SRCDIR from tests/run.sh.
set -u
command -v tmux >/dev/null 2>&1 || { echo "skip: tmux is not installed"; exit 77; }
# Each tui_start gets a new private server, so a test never waits for the
# previous one to shut down.
TUI_N=0
# The process ID alone can name a server another run left behind (a reused
# ID gives "duplicate session"): a random part makes the name this run's own.
TUI_RUN="$$-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')"
TMUX_SOCK="srt-test-$TUI_RUN-0"
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/srt-tui-test.XXXXXX")
unset TMUX
tui_cleanup() {
	n=0
	while [ $n -le $TUI_N ]; do
		tmux -L "srt-test-$TUI_RUN-$n" kill-server >/dev/null 2>&1
		n=$((n + 1))
	done
	# a program killed with its server may still be writing its recovery
	# file into TMPD for a moment
	n=0
	until rm -rf "$TMPD" 2>/dev/null || [ $n -ge 20 ]; do
		sleep 0.05
		n=$((n + 1))
	done
}
trap tui_cleanup EXIT
# an interrupted test still ends through EXIT, so its servers and files go
trap 'exit 1' INT TERM HUP

T() { tmux -L "$TMUX_SOCK" "$@"; }

# The program runs in a shell that leaves a marker when it exits, so tests
# can see the exit status.
tui_start() {
	w=$1 h=$2
	shift 2
	TUI_N=$((TUI_N + 1))
	TMUX_SOCK="srt-test-$TUI_RUN-$TUI_N"
	cat >"$TMPD/run.sh" <<RUN
cd "$TMPD"
"\$@"
echo "[exited \$?]"
sleep 600
RUN
	T -f /dev/null new-session -d -x "$w" -y "$h" -s t \
		env TERM="${TUI_TERM:-screen-256color}" LC_ALL="${TUI_LC_ALL:-C.UTF-8}" \
		XDG_STATE_HOME="${TUI_STATE:-$TMPD/state}" \
		sh "$TMPD/run.sh" "$@" || fail "cannot start tmux"
	T set-option -t t status off >/dev/null
	T set-option -t t -g window-size manual >/dev/null 2>&1 || true
}

keys() { T send-keys -t t "$@"; }
text() { T send-keys -t t -l -- "$1"; }
screen() { T capture-pane -p -t t; }
resize() { T resize-window -t t -x "$1" -y "$2"; }

fail() {
	echo "FAIL: $*"
	echo "---- screen ----"
	screen 2>/dev/null
	echo "----------------"
	exit 1
}

wait_for() {
	want=$1 limit=${2:-10}
	i=0 n=$((limit * 20))
	while [ $i -lt $n ]; do
		screen 2>/dev/null | grep -qF -- "$want" && return 0
		sleep 0.05
		i=$((i + 1))
	done
	fail "'$want' did not appear within ${limit}s"
}

wait_gone() {
	want=$1 limit=${2:-10}
	i=0 n=$((limit * 20))
	while [ $i -lt $n ]; do
		screen 2>/dev/null | grep -qF -- "$want" || return 0
		sleep 0.05
		i=$((i + 1))
	done
	fail "'$want' did not go away within ${limit}s"
}

wait_exit() {
	wait_for "[exited " "${1:-10}"
}

exit_status() {
	screen | sed -n 's/.*\[exited \([0-9]*\)\].*/\1/p' | tail -n 1
}

find_field() {
	keys /
	wait_for "Search labels, keys, values and help"
	keys C-u
	text "$1"
	keys Enter
	# several hits are listed first: take the first (the next from the focus)
	i=0
	while [ $i -lt 200 ]; do
		s=$(screen 2>/dev/null)
		case $s in
		*"/$1  (n: next"*) return 0 ;;
		*"for '$1' (Enter: jump)"*) keys Enter; break ;;
		esac
		sleep 0.05
		i=$((i + 1))
	done
	wait_for "/$1  (n: next"
}

set_field() {
	find_field "$1"
	keys Enter
	wait_for "Enter: accept"
	keys C-u
	text "$2"
	keys Enter
}
