/*
 * copy.c — the step cursor of the Plan and Workers tabs and `c`: Up and Down
 * move the focused step (one command, marked with ">" in the focus colour,
 * kept in view), and `c` puts its command on the user's clipboard through
 * the terminal (OSC 52, which works over SSH and through tmux with
 * set-clipboard on), shown on one line of the plain terminal (curses
 * suspended), where the terminal's own selection copies it whole even when
 * OSC 52 is not supported.  It used to copy the step at the top of the view,
 * which scrolling by lines made hard to aim.
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

/* Indentation of a row. */
static size_t lead(const char *p, size_t len)
{
	size_t i = 0;
	while (i < len && p[i] == ' ')
		i++;
	return i;
}

/* The rows of the k-th command in the shown text: its "$ " row and the rows
 * it wrapped onto (indented deeper, no "$ " of their own).  The number of
 * commands when k < 0.  *row0 and *nrows get the span (0 rows: none). */
static long command_rows(const char *shown, long k, int *row0, int *nrows)
{
	long seen = 0;
	int row = 0, in = 0;
	size_t ind = 0;
	*row0 = 0;
	*nrows = 0;
	for (const char *p = shown; p && *p; row++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		int cmd = command_of(p, len) != NULL;
		if (in) {
			if (cmd || lead(p, len) <= ind || len == lead(p, len))
				return seen;
			(*nrows)++;
		} else if (cmd) {
			if (seen == k) {
				in = 1;
				ind = lead(p, len);
				*row0 = row;
				*nrows = 1;
			}
			seen++;
		}
		p = nl ? nl + 1 : NULL;
	}
	return seen;
}

static int is_step_tab(enum preview_tab tab)
{
	return tab == PV_PLAN || tab == PV_WORKERS;
}

static const char *shown_text(struct app *a, enum preview_tab tab)
{
	return app_preview_shown(a, tab, a->pv_width > 0 ? a->pv_width : a->cols - 1);
}

/* The focused step, within the steps there are (the plan may have shrunk). */
static long focused_step(struct app *a, enum preview_tab tab, const char *shown)
{
	int r0, n;
	long count = command_rows(shown, -1, &r0, &n);
	long k = a->pv_view[tab].sel;
	if (k >= count)
		k = count - 1;
	return k < 0 ? (count ? 0 : -1) : k;
}

void app_step_mark(struct app *a, enum preview_tab tab, const char *shown)
{
	struct scroll_view *v = &a->pv_view[tab];
	v->mark_n = 0;
	if (!is_step_tab(tab))
		return;
	/* on every draw: the focused step's rows, found without counting the
	 * whole plan (a 64-node job's is a megabyte) unless it shrank */
	command_rows(shown, v->sel > 0 ? v->sel : 0, &v->mark_top, &v->mark_n);
	if (!v->mark_n) {
		long k = focused_step(a, tab, shown);
		if (k >= 0)
			command_rows(shown, k, &v->mark_top, &v->mark_n);
	}
}

/* The row of the step's title ("  3. agg_0_node-01 ...") above its command
 * at row r0: the nearest row above that is indented less; r0 when none. */
static int title_row(const char *shown, int r0)
{
	int row = 0, title = r0;
	size_t ind = 0;
	const char *p = shown, *at = NULL;
	for (; p && *p && row < r0; row++) {
		const char *nl = strchr(p, '\n');
		p = nl ? nl + 1 : NULL;
	}
	if (!p)
		return r0;
	at = p;
	const char *nl = strchr(at, '\n');
	ind = lead(at, nl ? (size_t)(nl - at) : strlen(at));
	/* walk the rows before r0 again, remembering the last one indented less */
	row = 0;
	for (p = shown; p && row < r0; row++) {
		nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len > lead(p, len) && lead(p, len) < ind)
			title = row;
		p = nl ? nl + 1 : NULL;
	}
	return title;
}

/* Scroll so the focused step's rows are in view, with its title when they
 * fit together (its first row when it is taller than the view). */
static void keep_in_view(struct scroll_view *v, const char *shown, int r0, int n, int h)
{
	if (h < 1)
		h = 1;
	int t = title_row(shown, r0);
	if (r0 + n > v->top + h)
		v->top = r0 + n - h;
	if (t < v->top && r0 + n - t <= h)
		v->top = t;
	if (r0 < v->top || n > h)
		v->top = r0;
}

int app_step_key(struct app *a, int key, int page)
{
	enum preview_tab tab = a->pv_tab;
	if (!is_step_tab(tab))
		return 0;
	struct scroll_view *v = &a->pv_view[tab];
	const char *shown = shown_text(a, tab);
	int r0, n, h = a->pv_h > 0 ? a->pv_h : page;
	long count = command_rows(shown, -1, &r0, &n);
	long k = focused_step(a, tab, shown);
	if (count <= 0)
		return 0;
	switch (key) {
	case K_FN(KEY_UP):
	case 'k':
		k = k > 0 ? k - 1 : 0;
		break;
	case K_FN(KEY_DOWN):
	case 'j':
		k = k + 1 < count ? k + 1 : count - 1;
		break;
	case K_FN(KEY_HOME):
	case 'g':
		k = 0;
		v->top = 0;
		break;
	case K_FN(KEY_END):
	case 'G':
		k = count - 1;
		break;
	case K_FN(KEY_PPAGE):
	case K_FN(KEY_NPAGE):
	case ' ': {
		/* a page of text; the focus follows to the first step in view */
		panel_text_key(v, shown, key, page);
		command_rows(shown, k, &r0, &n);
		if (r0 < v->top || r0 >= v->top + h) {
			long first = command_at(shown, v->top);
			k = first >= 0 ? first : count - 1;
		}
		v->sel = (int)k;
		return 1;
	}
	default:
		return 0;
	}
	v->sel = (int)k;
	command_rows(shown, k, &r0, &n);
	keep_in_view(v, shown, r0, n, h);
	return 1;
}

void app_copy_command(struct app *a)
{
	enum preview_tab tab = a->pv_tab;
	if (!is_step_tab(tab)) {
		app_message(a, "c copies a command from the Plan or Workers tab");
		return;
	}
	const char *shown = shown_text(a, tab);
	long k = focused_step(a, tab, shown);
	char *cmd = k >= 0 ? nth_command(app_preview(a, tab), (size_t)k) : NULL;
	if (!cmd) {
		app_error(a, "the %s tab has no command to copy", preview_tab_names[tab]);
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
	app_message(a, "copied command %ld of the %s tab (%zu characters; Up/Down: another step)", k + 1,
		    preview_tab_names[tab], strlen(cmd));
	strbuf_release(&osc);
	free(cmd);
}
