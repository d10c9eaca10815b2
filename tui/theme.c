/* theme.c — theme files, the built-in default and mono, NO_COLOR. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "model/fileio.h"
#include "lib/util.h"
#include "tui/theme.h"

static const char *const elem_names[TH_COUNT] = {
	[TH_NORMAL] = "normal",       [TH_TITLE] = "title",       [TH_TAB] = "tab",
	[TH_TAB_ACTIVE] = "tab-active", [TH_BORDER] = "border",   [TH_LABEL] = "label",
	[TH_VALUE] = "value",         [TH_DEFAULT] = "default",   [TH_FOCUS] = "focus",
	[TH_ERROR] = "error",         [TH_WARNING] = "warning",   [TH_OK] = "ok",
	[TH_HEADING] = "heading",     [TH_HELP] = "help",         [TH_KEYBAR] = "keybar",
	[TH_KEY] = "key",             [TH_STATUS] = "status",     [TH_DIALOG] = "dialog",
	[TH_INPUT] = "input",         [TH_DIFF_ADD] = "diff-add", [TH_DIFF_DEL] = "diff-del",
	[TH_DIFF_HUNK] = "diff-hunk", [TH_MATCH] = "match",
};

static void set(struct theme *t, enum theme_elem e, short fg, short bg, attr_t a)
{
	t->e[e].fg = fg;
	t->e[e].bg = bg;
	t->e[e].attrs = a;
}

void theme_builtin_default(struct theme *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "default");
	for (int i = 0; i < TH_COUNT; i++)
		set(t, i, -1, -1, 0);
	set(t, TH_TITLE, COLOR_BLACK, COLOR_CYAN, 0);
	set(t, TH_TAB, -1, -1, 0);
	set(t, TH_TAB_ACTIVE, COLOR_BLACK, COLOR_CYAN, A_BOLD);
	set(t, TH_BORDER, COLOR_BLUE, -1, 0);
	set(t, TH_LABEL, -1, -1, 0);
	set(t, TH_VALUE, COLOR_CYAN, -1, A_BOLD);
	set(t, TH_DEFAULT, -1, -1, A_DIM);
	set(t, TH_FOCUS, COLOR_BLACK, COLOR_WHITE, 0);
	set(t, TH_ERROR, COLOR_RED, -1, A_BOLD);
	set(t, TH_WARNING, COLOR_YELLOW, -1, A_BOLD);
	set(t, TH_OK, COLOR_GREEN, -1, 0);
	set(t, TH_HEADING, COLOR_MAGENTA, -1, A_BOLD);
	set(t, TH_HELP, -1, -1, 0);
	set(t, TH_KEYBAR, COLOR_BLACK, COLOR_CYAN, 0);
	set(t, TH_KEY, COLOR_WHITE, COLOR_BLUE, A_BOLD);
	set(t, TH_STATUS, -1, -1, A_BOLD);
	set(t, TH_DIALOG, COLOR_BLACK, COLOR_WHITE, 0);
	set(t, TH_INPUT, COLOR_WHITE, COLOR_BLUE, 0);
	set(t, TH_DIFF_ADD, COLOR_GREEN, -1, 0);
	set(t, TH_DIFF_DEL, COLOR_RED, -1, 0);
	set(t, TH_DIFF_HUNK, COLOR_CYAN, -1, 0);
	set(t, TH_MATCH, COLOR_BLACK, COLOR_YELLOW, 0);
}

void theme_builtin_mono(struct theme *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "mono");
	t->mono = 1;
	for (int i = 0; i < TH_COUNT; i++)
		set(t, i, -1, -1, 0);
	set(t, TH_TITLE, -1, -1, A_REVERSE);
	set(t, TH_TAB_ACTIVE, -1, -1, A_REVERSE | A_BOLD);
	set(t, TH_VALUE, -1, -1, A_BOLD);
	set(t, TH_DEFAULT, -1, -1, A_DIM);
	set(t, TH_FOCUS, -1, -1, A_REVERSE);
	set(t, TH_ERROR, -1, -1, A_BOLD);
	set(t, TH_WARNING, -1, -1, A_BOLD);
	set(t, TH_HEADING, -1, -1, A_BOLD | A_UNDERLINE);
	set(t, TH_KEYBAR, -1, -1, A_REVERSE);
	set(t, TH_KEY, -1, -1, A_BOLD);
	set(t, TH_STATUS, -1, -1, A_BOLD);
	set(t, TH_DIALOG, -1, -1, 0);
	set(t, TH_INPUT, -1, -1, A_UNDERLINE);
	set(t, TH_DIFF_HUNK, -1, -1, A_BOLD);
	set(t, TH_MATCH, -1, -1, A_UNDERLINE | A_BOLD);
}

static const char *const colour_names[] = { "black", "red",     "green", "yellow",
					    "blue",  "magenta", "cyan",  "white" };

static int parse_colour(const char *w, short *out)
{
	if (!strcasecmp(w, "default") || !strcmp(w, "-")) {
		*out = -1;
		return 0;
	}
	int bright = 0;
	if (!strncasecmp(w, "bright-", 7)) {
		bright = 8;
		w += 7;
	}
	for (int i = 0; i < 8; i++)
		if (!strcasecmp(w, colour_names[i])) {
			*out = (short)(i + bright);
			return 0;
		}
	if (!bright && *w) {
		char *end;
		long v = strtol(w, &end, 10);
		if (!*end && v >= 0 && v <= 255) {
			*out = (short)v;
			return 0;
		}
	}
	return -1;
}

static int parse_attr(const char *w, attr_t *out)
{
	static const struct {
		const char *name;
		attr_t a;
	} attrs[] = { { "bold", A_BOLD },           { "dim", A_DIM },
		      { "reverse", A_REVERSE },     { "underline", A_UNDERLINE },
		      { "standout", A_STANDOUT },   { "italic", A_ITALIC },
		      { "normal", 0 } };
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
		if (!strcasecmp(w, attrs[i].name)) {
			*out |= attrs[i].a;
			return 0;
		}
	return -1;
}

int theme_parse(struct theme *t, const char *text, const char *file, char **err)
{
	int lineno = 0;
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, len);
		p += len + (nl ? 1 : 0);
		lineno++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		char *words[8];
		int n = 0;
		for (char *save = NULL, *w = strtok_r(line, " \t\r", &save); w && n < 8;
		     w = strtok_r(NULL, " \t\r", &save))
			words[n++] = w;
		if (!n) {
			free(line);
			continue;
		}
		if (!strcmp(words[0], "mono") && n == 1) {
			t->mono = 1;
			free(line);
			continue;
		}
		int e = -1;
		for (int i = 0; i < TH_COUNT; i++)
			if (!strcmp(words[0], elem_names[i]))
				e = i;
		const char *bad = NULL, *what = NULL;
		struct theme_spec s = { -1, -1, 0 };
		if (e < 0)
			bad = words[0], what = "unknown element";
		else if (n < 3)
			bad = words[0], what = "needs a foreground and a background colour after";
		else if (parse_colour(words[1], &s.fg))
			bad = words[1], what = "unknown colour";
		else if (parse_colour(words[2], &s.bg))
			bad = words[2], what = "unknown colour";
		for (int i = 3; !bad && i < n; i++)
			if (parse_attr(words[i], &s.attrs))
				bad = words[i], what = "unknown attribute";
		if (bad) {
			*err = xasprintf("%s:%d: %s '%s'; see the comment at the top of "
					 "themes/default.theme", file, lineno, what, bad);
			free(line);
			return -1;
		}
		t->e[e] = s;
		free(line);
	}
	return 0;
}

static int try_file(struct theme *t, const char *path, const char *name, int *found, char **err)
{
	char *buf, *ferr = NULL;
	size_t len;
	if (access(path, R_OK))
		return -1;
	*found = 1;
	if (file_read(path, &buf, &len, &ferr)) {
		*err = ferr;
		return -1;
	}
	if (!strcmp(name, "mono"))
		theme_builtin_mono(t);
	else
		theme_builtin_default(t);
	snprintf(t->name, sizeof(t->name), "%s", name);
	int rc = theme_parse(t, buf, path, err);
	free(buf);
	return rc;
}

int theme_load(struct theme *t, const char *name, char **err)
{
	int found = 0;
	*err = NULL;
	if (strchr(name, '/')) {
		const char *base = strrchr(name, '/') + 1;
		char stem[64];
		snprintf(stem, sizeof(stem), "%.*s", (int)strcspn(base, "."), base);
		if (!try_file(t, name, stem, &found, err))
			return 0;
		goto fail;
	}
	if (!*name || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") !=
			      strlen(name)) {
		*err = xasprintf("'%s' is not a theme name; use letters, digits, '-' and '_'", name);
		theme_builtin_default(t);
		return -1;
	}
	struct strvec dirs = STRVEC_INIT;
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	if (xdg && *xdg)
		strvec_pushf(&dirs, "%s/srt-tui/themes", xdg);
	else if (home && *home)
		strvec_pushf(&dirs, "%s/.config/srt-tui/themes", home);
	strvec_push(&dirs, SRT_TUI_DATADIR "/themes");
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0; /* build dir: the source tree is its parent */
			strvec_pushf(&dirs, "%s/../themes", exe);
			strvec_pushf(&dirs, "%s/../../themes", exe);
		}
	}
	strvec_push(&dirs, "themes");
	for (size_t i = 0; i < dirs.n; i++) {
		char *path = xasprintf("%s/%s.theme", dirs.v[i], name);
		int rc = try_file(t, path, name, &found, err);
		free(path);
		if (!rc) {
			strvec_release(&dirs);
			return 0;
		}
		if (found)
			break;
	}
	strvec_release(&dirs);
	if (!found) {
		if (!strcmp(name, "default")) {
			theme_builtin_default(t);
			return 0;
		}
		if (!strcmp(name, "mono")) {
			theme_builtin_mono(t);
			return 0;
		}
		*err = xasprintf("theme '%s' not found; put %s.theme in "
				 "$XDG_CONFIG_HOME/srt-tui/themes/ or use default, light, "
				 "high-contrast or mono", name, name);
	}
fail:
	theme_builtin_default(t);
	return -1;
}

int theme_choose(struct theme *t, const char *explicit_name, char **err)
{
	const char *name = explicit_name;
	*err = NULL;
	if (!name) {
		const char *nc = getenv("NO_COLOR");
		if (nc && *nc) {
			theme_builtin_mono(t);
			return 0;
		}
		name = getenv("SRT_TUI_THEME");
		if (!name || !*name)
			name = "default";
	}
	return theme_load(t, name, err);
}

void theme_apply(const struct theme *t, attr_t attr[TH_COUNT])
{
	int colour = !t->mono && has_colors();
	for (int i = 0; i < TH_COUNT; i++) {
		attr[i] = t->e[i].attrs;
		if (!colour)
			continue;
		short fg = t->e[i].fg, bg = t->e[i].bg;
		if (fg >= COLORS)
			fg = fg % 8;
		if (bg >= COLORS)
			bg = bg % 8;
		if (fg < 0 && bg < 0)
			continue;
		if (init_pair((short)(i + 1), fg, bg) == OK)
			attr[i] |= COLOR_PAIR(i + 1);
	}
	if (!colour) {
		/* Without colour, focus and the bars must still stand out. */
		if (!attr[TH_FOCUS])
			attr[TH_FOCUS] = A_REVERSE;
		if (!attr[TH_KEYBAR])
			attr[TH_KEYBAR] = A_REVERSE;
		if (!attr[TH_TITLE])
			attr[TH_TITLE] = A_REVERSE;
		if (!attr[TH_TAB_ACTIVE])
			attr[TH_TAB_ACTIVE] = A_REVERSE;
		/* The focus needs an attribute that no unfocused line of a form
		 * or list uses, or it cannot be told apart without colour (a
		 * theme file's "focus ... underline" next to underlined
		 * headings, "bold" next to bold values). */
		static const enum theme_elem unfocused[] = { TH_NORMAL, TH_LABEL, TH_VALUE,
							     TH_DEFAULT, TH_ERROR, TH_WARNING,
							     TH_OK, TH_HEADING, TH_HELP,
							     TH_DIALOG };
		attr_t used = 0;
		for (size_t i = 0; i < sizeof(unfocused) / sizeof(unfocused[0]); i++)
			used |= attr[unfocused[i]];
		static const attr_t marks[] = { A_REVERSE, A_UNDERLINE, A_ITALIC };
		for (size_t i = 0; !(attr[TH_FOCUS] & ~used) && i < 3; i++)
			if (!(used & marks[i]))
				attr[TH_FOCUS] |= marks[i];
	}
}
