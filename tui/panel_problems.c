/* panel_problems.c — the validation panel: every diagnostic with its
 * severity letter, position, message and code; the hint of the selected one;
 * Enter jumps to the field (widget.h). */
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/app_int.h"
#include "tui/draw.h"
#include "tui/widget.h"

/* Split text into rows of at most width cells (8 at least), breaking at
 * spaces: draw.h's text_wrap with no indent. */
static void wrap(const char *text, int width, struct strvec *out)
{
	text_wrap(text, strlen(text), width < 8 ? 8 : width, 0, out);
}

/* The rows one diagnostic takes: the selected one is shown whole (message,
 * code and hint wrapped), the others on one line. */
static char *entry_text(const struct diag *d)
{
	char *pos = d->line ? xasprintf("%d:%d", d->line, d->col) : xstrdup("-");
	char *text = xasprintf("%-6s %s [%s]", pos, d->message, d->code ? d->code : "");
	free(pos);
	return text;
}

static void entry_lines(const struct diag *d, int sel, int width, struct strvec *out)
{
	char *text = entry_text(d);
	if (!sel) {
		strvec_push_nodup(out, text);
	} else {
		wrap(text, width - 2, out);
		free(text);
		if (d->hint) {
			char *h = xasprintf("hint: %s", d->hint);
			struct strvec hv = STRVEC_INIT;
			wrap(h, width - 4, &hv);
			for (size_t i = 0; i < hv.n; i++)
				strvec_pushf(out, "  %s", hv.v[i]);
			strvec_release(&hv);
			free(h);
		}
	}
}

/* What the panel shows of the problems, kept while they are the same
 * (app_diags_serial: their messages, hints and codes, in the same order) at
 * the same positions: each key drew every entry in view again, formatted,
 * and the selected one wrapped, twice (its rows size the box). */
struct problems_shown {
	unsigned long serial;
	struct one_shown {
		char *text; /* NULL: not made yet */
		int line, col;
	} *one;
	size_t n;
	/* the selected entry whole */
	struct strvec sel;
	unsigned long sel_serial;
	size_t sel_i;
	int sel_width, sel_line, sel_col, sel_ok;
};

static struct problems_shown *problems_shown(struct app *a)
{
	struct problems_shown *ps = a->prob_shown;
	if (!ps)
		ps = a->prob_shown = xcalloc(1, sizeof(*ps));
	unsigned long serial = app_diags_serial(a);
	size_t n = app_state(a)->diags.n;
	if (ps->serial != serial || ps->n != n) {
		for (size_t i = 0; i < ps->n; i++)
			free(ps->one[i].text);
		free(ps->one);
		ps->one = xcalloc(n ? n : 1, sizeof(*ps->one));
		ps->n = n;
		ps->serial = serial;
	}
	return ps;
}

void panel_problems_release(struct app *a)
{
	struct problems_shown *ps = a->prob_shown;
	if (!ps)
		return;
	for (size_t i = 0; i < ps->n; i++)
		free(ps->one[i].text);
	free(ps->one);
	strvec_release(&ps->sel);
	free(ps);
	a->prob_shown = NULL;
}

/* Entry i on its one line. */
static const char *one_line(struct app *a, size_t i)
{
	struct problems_shown *ps = problems_shown(a);
	const struct diag *d = &app_state(a)->diags.v[i];
	struct one_shown *o = &ps->one[i];
	if (!o->text || o->line != d->line || o->col != d->col) {
		free(o->text);
		o->text = entry_text(d);
		o->line = d->line;
		o->col = d->col;
	}
	return o->text;
}

/* Entry i whole, at width. */
static const struct strvec *sel_lines(struct app *a, size_t i, int width)
{
	struct problems_shown *ps = problems_shown(a);
	const struct diag *d = &app_state(a)->diags.v[i];
	if (!ps->sel_ok || ps->sel_serial != ps->serial || ps->sel_i != i || ps->sel_width != width ||
	    ps->sel_line != d->line || ps->sel_col != d->col) {
		strvec_clear(&ps->sel);
		entry_lines(d, 1, width, &ps->sel);
		ps->sel_serial = ps->serial;
		ps->sel_i = i;
		ps->sel_width = width;
		ps->sel_line = d->line;
		ps->sel_col = d->col;
		ps->sel_ok = 1;
	}
	return &ps->sel;
}

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
	int sel_n = (int)sel_lines(a, (size_t)v->sel, width)->n;
	int sel_rows = sel_n < h ? sel_n : h;
	if (v->sel < v->top)
		v->top = v->sel;
	/* other entries take one row each */
	if (v->sel - v->top + sel_rows > h)
		v->top = v->sel + sel_rows - h;
	if (v->top < 0)
		v->top = 0;
	int r = 0;
	for (size_t i = (size_t)v->top; i < n && r < h; i++) {
		const struct diag *d = &st->diags.v[i];
		int sel = (int)i == v->sel;
		attr_t sev = d->severity == DIAG_ERROR ? app_attr(a, TH_ERROR) : app_attr(a, TH_WARNING);
		attr_t base = sel && focused ? app_attr(a, TH_FOCUS) : app_attr(a, TH_NORMAL);
		const char *one = NULL;
		const struct strvec *sv = sel ? sel_lines(a, i, width) : NULL;
		size_t nl = 1;
		if (sel)
			nl = sv->n;
		else
			one = one_line(a, i);
		for (size_t k = 0; k < nl && r < h; k++, r++) {
			const char *text = sel ? sv->v[k] : one;
			attr_t at = k == 0 || strncmp(text, "  hint:", 7) ? base : app_attr(a, TH_HELP);
			if (sel && k > 0)
				at = app_attr(a, TH_HELP);
			draw_fill(w, y + r, x, 1, width, k == 0 ? base : app_attr(a, TH_NORMAL));
			if (k == 0)
				draw_str(w, y + r, x, 1, d->severity == DIAG_ERROR ? "E" : "W",
					 sel && focused ? base : sev);
			draw_str(w, y + r, x + 2, width - 2, text, at);
		}
	}
}

int panel_problems_rows(struct app *a, struct scroll_view *v, int width, int *sel_rows)
{
	const struct app_state *st = app_state(a);
	size_t n = st->diags.n;
	*sel_rows = 1;
	if (!n)
		return 1;
	int sel = v->sel < 0 ? 0 : v->sel >= (int)n ? (int)n - 1 : v->sel;
	*sel_rows = (int)sel_lines(a, (size_t)sel, width)->n;
	return (int)n - 1 + *sel_rows;
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
		int rows = 1;
		if (i == v->sel) {
			struct strvec sl = STRVEC_INIT;
			entry_lines(&st->diags.v[i], 1, COLS / 2, &sl);
			rows = (int)sl.n;
			strvec_release(&sl);
		}
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
