/* panel_problems.c — the validation panel: every diagnostic with its
 * severity letter, position, message and code; the hint of the selected one;
 * Enter jumps to the field (widget.h). */
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/draw.h"
#include "tui/widget.h"

void panel_problems_draw(struct app *a, WINDOW *w, int y, int x, int h, int width,
			 struct scroll_view *v, int focused)
{
	const struct app_state *st = app_state(a);
	size_t n = st->diags.n;
	if (h <= 0 || width <= 0)
		return;
	if (!n) {
		draw_str(w, y, x + 1, width - 1, "OK  no problems found", app_attr(a, TH_OK));
		return;
	}
	if (v->sel >= (int)n)
		v->sel = (int)n - 1;
	if (v->sel < 0)
		v->sel = 0;
	/* the selected row takes one more line for its hint */
	int lines = h;
	const struct diag *sd = &st->diags.v[v->sel];
	int hint_rows = sd->hint ? 1 : 0;
	if (v->sel < v->top)
		v->top = v->sel;
	if (v->sel + hint_rows >= v->top + lines)
		v->top = v->sel + hint_rows - lines + 1;
	if (v->top < 0)
		v->top = 0;
	int r = 0;
	for (size_t i = (size_t)v->top; i < n && r < lines; i++) {
		const struct diag *d = &st->diags.v[i];
		int sel = (int)i == v->sel;
		attr_t sev = d->severity == DIAG_ERROR ? app_attr(a, TH_ERROR) : app_attr(a, TH_WARNING);
		attr_t base = sel && focused ? app_attr(a, TH_FOCUS) : app_attr(a, TH_NORMAL);
		draw_fill(w, y + r, x, 1, width, base);
		draw_str(w, y + r, x, 1, d->severity == DIAG_ERROR ? "E" : "W",
			 sel && focused ? base : sev);
		char *pos = d->line ? xasprintf("%d:%d", d->line, d->col) : xstrdup("-");
		char *text = xasprintf("%-6s %s [%s]", pos, d->message, d->code ? d->code : "");
		draw_str(w, y + r, x + 2, width - 2, text, sel && focused ? base : app_attr(a, TH_NORMAL));
		free(pos);
		free(text);
		r++;
		if (sel && d->hint && r < lines) {
			char *hint = xasprintf("hint: %s", d->hint);
			draw_str(w, y + r, x + 9, width - 9, hint, app_attr(a, TH_HELP) | A_DIM);
			free(hint);
			r++;
		}
	}
}

int panel_problems_key(struct app *a, struct scroll_view *v, int key, int page)
{
	const struct app_state *st = app_state(a);
	int n = (int)st->diags.n;
	switch (key) {
	case K_FN(KEY_UP):
	case 'k':
		if (v->sel > 0)
			v->sel--;
		return 1;
	case K_FN(KEY_DOWN):
	case 'j':
		if (v->sel + 1 < n)
			v->sel++;
		return 1;
	case K_FN(KEY_PPAGE):
		v->sel = v->sel > page ? v->sel - page : 0;
		return 1;
	case K_FN(KEY_NPAGE):
		v->sel = v->sel + page < n ? v->sel + page : n - 1;
		return 1;
	case K_FN(KEY_HOME):
		v->sel = 0;
		return 1;
	case K_FN(KEY_END):
		v->sel = n - 1;
		return 1;
	case K_ENTER:
		if (v->sel >= 0 && v->sel < n) {
			const struct diag *d = &st->diags.v[v->sel];
			if (d->path && *d->path) {
				char *p = xstrdup(d->path);
				app_focus_path(a, p);
				free(p);
			} else {
				app_message(a, "this problem is about the whole file (line %d)", d->line);
			}
		}
		return 1;
	}
	return 0;
}

int panel_problems_click(struct app *a, struct scroll_view *v, int row)
{
	const struct app_state *st = app_state(a);
	int r = 0;
	for (int i = v->top; i < (int)st->diags.n; i++) {
		int rows = 1 + (i == v->sel && st->diags.v[i].hint ? 1 : 0);
		if (row >= r && row < r + rows) {
			if (v->sel == i)
				return panel_problems_key(a, v, K_ENTER, 1);
			v->sel = i;
			return 1;
		}
		r += rows;
	}
	return 0;
}
