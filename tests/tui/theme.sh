#!/bin/sh
# Themes: the default theme draws in colour; --theme mono and NO_COLOR draw
# with attributes only (no colour escape in the screen); a theme file in
# $XDG_CONFIG_HOME/srt-tui/themes is found by name; an unknown theme is
# reported and the default used.
. "$SRCDIR/tests/tui/lib.sh"
cp "$SRCDIR/tests/fixtures/tui/lmcache-agg.yaml" "$TMPD/r.yaml"
colour_re=$(printf '\033\\[([0-9;]*;)?(3[0-7]|4[0-7]|9[0-7]|10[0-7]|38;5;[0-9]+|48;5;[0-9]+)(;[0-9;]*)?m')
has_colour() { T capture-pane -p -e -t t | grep -Eq "$colour_re"; }
run() {
	tui_start 100 30 "$@"
	wait_for "F1/? Help"
}
stop() { keys q; wait_exit; T kill-server; }

run "$SRT_TUI" edit r.yaml
has_colour || fail "the default theme shows no colour"
stop

run "$SRT_TUI" edit --theme mono r.yaml
has_colour && fail "--theme mono still draws colours"
T capture-pane -p -e -t t | grep -q "$(printf '\033\\[')[0-9;]*7" || fail "mono has no reverse video for bars and focus"
stop

run env NO_COLOR=1 "$SRT_TUI" edit r.yaml
has_colour && fail "NO_COLOR still draws colours"
stop

run env SRT_TUI_THEME=high-contrast "$SRT_TUI" edit r.yaml
has_colour || fail "high-contrast shows no colour"
stop

mkdir -p "$TMPD/xdg/srt-tui/themes"
printf 'mono\nfocus default default underline\n' >"$TMPD/xdg/srt-tui/themes/mine.theme"
run env XDG_CONFIG_HOME="$TMPD/xdg" "$SRT_TUI" edit --theme mine r.yaml
has_colour && fail "the user theme 'mine' (mono) was not used"
stop

printf 'focus purple default\n' >"$TMPD/xdg/srt-tui/themes/bad.theme"
run env XDG_CONFIG_HOME="$TMPD/xdg" "$SRT_TUI" edit --theme bad r.yaml
wait_for "bad.theme:1: unknown colour 'purple'"
stop

run "$SRT_TUI" edit --theme no-such-theme r.yaml
wait_for "theme 'no-such-theme' not found"
stop
echo ok
