/*
 * copy.c — `c` in the Plan and Workers tabs: the command of the step at the
 * top of the view goes to the user's clipboard through the terminal (OSC 52,
 * which works over SSH and through tmux with set-clipboard on), and is shown
 * on one line of the plain terminal (curses suspended), where the terminal's
 * own selection copies it whole even when OSC 52 is not supported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/app_int.h"

static void base64(struct strbuf *out, const char *s, size_t n)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)u[i] << 16 | (i + 1 < n ? (unsigned)u[i + 1] << 8 : 0) |
			     (i + 2 < n ? u[i + 2] : 0);
		strbuf_addch(out, tab[(v >> 18) & 63]);
		strbuf_addch(out, tab[(v >> 12) & 63]);
		strbuf_addch(out, i + 1 < n ? tab[(v >> 6) & 63] : '=');
		strbuf_addch(out, i + 2 < n ? tab[v & 63] : '=');
	}
}

/* Does line (len bytes) start, after its indentation, with "$ "? */
static const char *command_of(const char *line, size_t len)
{
	size_t i = 0;
	while (i < len && line[i] == ' ')
		i++;
	return i + 1 < len && line[i] == '$' && line[i + 1] == ' ' ? line + i + 2 : NULL;
}

/* The k-th "$ " line of text (0-based), malloc'd without the "$ "; NULL. */
static char *nth_command(const char *text, size_t k)
{
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *c = command_of(p, len);
		if (c && !k--)
			return xstrndup(c, len - (size_t)(c - p));
		p = nl ? nl + 1 : NULL;
	}
	return NULL;
}

/* The ordinal of the first command at or below shown row `top` (the view
 * may wrap long lines: a command starts one "$ " row, its continuations
 * have none), or -1 when there is none. */
static long command_at(const char *shown, int top)
{
	long k = 0;
	int row = 0;
	for (const char *p = shown; p && *p; row++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (command_of(p, len)) {
			if (row >= top)
				return k;
			k++;
		}
		p = nl ? nl + 1 : NULL;
	}
	return -1;
}

void app_copy_command(struct app *a)
{
	enum preview_tab tab = a->pv_tab;
	if (tab != PV_PLAN && tab != PV_WORKERS) {
		app_message(a, "c copies a command from the Plan or Workers tab");
		return;
	}
	const char *shown = app_preview_shown(a, tab, a->pv_width > 0 ? a->pv_width : a->cols - 1);
	long k = command_at(shown, a->pv_view[tab].top);
	char *cmd = k >= 0 ? nth_command(app_preview(a, tab), (size_t)k) : NULL;
	if (!cmd) {
		app_error(a, "no command at or below the top of the %s tab: scroll up to a step",
			  preview_tab_names[tab]);
		return;
	}
	struct strbuf osc = STRBUF_INIT;
	strbuf_addstr(&osc, "\033]52;c;");
	base64(&osc, cmd, strlen(cmd));
	strbuf_addstr(&osc, "\a");
	/* curses off: the line is printed as plain text the terminal wraps
	 * itself, so selecting it with the mouse gives one line */
	def_prog_mode();
	endwin();
	if (write(STDOUT_FILENO, osc.buf, osc.len) < 0)
		(void)0;
	printf("\n%s\n\n(copied to the clipboard through the terminal, OSC 52; or select the line "
	       "above)  Enter: back\n", cmd);
	fflush(stdout);
	char line[64];
	if (!fgets(line, sizeof(line), stdin))
		clearerr(stdin);
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
	app_message(a, "copied command %ld of the %s tab (%zu characters)", k + 1,
		    preview_tab_names[tab], strlen(cmd));
	strbuf_release(&osc);
	free(cmd);
}
