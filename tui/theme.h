/*
 * theme.h — colour themes: themes/NAME.theme text files, one element a line:
 *
 *     # comment
 *     element  FG  BG  [ATTR...]
 *
 * element is a theme role (app.h enum theme_elem, lower case: normal, focus,
 * error, ...); FG/BG are default, black, red, green, yellow, blue, magenta,
 * cyan, white, bright-RED..., or a number 0-255; ATTR is bold, dim, reverse,
 * underline, standout, italic.  Elements not named keep the built-in default.
 * A theme named "mono" (or any theme when the terminal has no colours) uses
 * the attributes only.
 *
 * Lookup of a NAME: a path when it contains '/'; else
 * $XDG_CONFIG_HOME/srt-tui/themes/NAME.theme (~/.config when unset),
 * SRT_TUI_DATADIR/themes, the themes/ folder beside the executable's source
 * tree, ./themes; the built-in "default" and "mono" need no file.
 * A struct theme is plain data; nothing to free.
 */
#ifndef SRT_TUI_THEME_H
#define SRT_TUI_THEME_H

#include <curses.h>

#include "tui/app.h"

struct theme_spec {
	short fg, bg;   /* -1 = terminal default */
	attr_t attrs;   /* A_BOLD ... */
};

struct theme {
	char name[64];
	int mono;       /* attributes only */
	struct theme_spec e[TH_COUNT];
};

void theme_builtin_default(struct theme *t);
void theme_builtin_mono(struct theme *t);
/* Parse theme text over t (which holds the defaults).  -1 with *err
 * ("FILE:LINE: unknown colour 'x'") on a bad line; t keeps what parsed. */
int theme_parse(struct theme *t, const char *text, const char *file, char **err);
/* Find and load a theme by name (see above).  -1 with *err when not found or
 * invalid; t then holds the built-in default. */
int theme_load(struct theme *t, const char *name, char **err);
/* The theme to use: explicit name (--theme), else $SRT_TUI_THEME, else
 * "default"; NO_COLOR (non-empty) selects mono unless a name was given. */
int theme_choose(struct theme *t, const char *explicit_name, char **err);
/* Allocate colour pairs (after start_color) and fill attr[] for drawing. */
void theme_apply(const struct theme *t, attr_t attr[TH_COUNT]);

#endif
