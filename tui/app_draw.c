/*
 * app_draw.c — the layout of the session's screen and its drawing: title,
 * tabs, the form, the problems and preview panes, the status line and the
 * key bar (whose entries come from the key table, keys.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app_int.h"
#include "tui/keys.h"
#include "tui/widget.h"

const char *const preview_tab_names[PV_COUNT] = { "Services", "Workers", "YAML", "Diff", "Plan" };

/* ---- layout and drawing --------------------------------------------------- */

static void hit_add(struct app *a, enum hit_kind kind, int idx, int y, int x0, int x1, int h)
{
	ALLOC_GROW(a->hits, a->nhits + 1, a->ahits);
	a->hits[a->nhits++] = (struct hit){ y, x0, x1, h, kind, idx };
}

void app_layout(struct app *a)
{
	a->rows = LINES;
	a->cols = COLS;
	a->too_small = a->rows < APP_MIN_ROWS || a->cols < APP_MIN_COLS;
	a->wide = a->cols >= APP_WIDE_COLS && a->rows >= 24;
	if (a->wide && a->narrow_view != VIEW_FORM) {
		a->pane = a->narrow_view == VIEW_PROBLEMS ? PANE_PROBLEMS : PANE_PREVIEW;
		a->narrow_view = VIEW_FORM;
	}
}

static void draw_too_small(struct app *a)
{
	erase();
	char line1[96], line2[96];
	snprintf(line1, sizeof(line1), "Terminal too small (%dx%d).", a->cols, a->rows);
	snprintf(line2, sizeof(line2), "srt-tui needs at least %dx%d: enlarge the window.",
		 APP_MIN_COLS, APP_MIN_ROWS);
	int y = a->rows / 2 - 1;
	if (y < 0)
		y = 0;
	draw_str(stdscr, y, 0, a->cols, line1, A_BOLD);
	if (y + 1 < a->rows)
		draw_str(stdscr, y + 1, 0, a->cols, line2, 0);
	wnoutrefresh(stdscr);
	doupdate();
}

static void draw_title(struct app *a)
{
	const struct app_state *st = app_state(a);
	attr_t t = a->attr[TH_TITLE];
	draw_fill(stdscr, 0, 0, 1, a->cols, t);
	const char *vl = st->variant && st->variant->label ? st->variant->label : NULL;
	char *left = xasprintf(" srt-tui  %s%s%s%s", a->path ? a->path : "(new recipe)",
			       doc_dirty(a->doc) ? "  [modified]" : "", vl ? "  variant: " : "",
			       vl ? vl : "");
	char right[96];
	if (st->errors || st->warnings)
		snprintf(right, sizeof(right), "%zu error%s, %zu warning%s ", st->errors,
			 st->errors == 1 ? "" : "s", st->warnings, st->warnings == 1 ? "" : "s");
	else
		snprintf(right, sizeof(right), "no problems ");
	int rw = (int)strlen(right);
	draw_str(stdscr, 0, 0, a->cols - rw - 1, left, t);
	draw_str(stdscr, 0, a->cols - rw, rw, right, t);
	free(left);
}

/* A row of tabs; returns nothing, records hits. */
static void draw_tabs(struct app *a, int y, int x, int width, const char *const *names, size_t n,
		      size_t active, enum hit_kind kind)
{
	draw_fill(stdscr, y, x, 1, width, a->attr[TH_NORMAL]);
	/* Scroll so the active tab is visible. */
	size_t first = 0;
	for (;;) {
		int cx = 0;
		for (size_t i = first; i <= active && i < n; i++)
			cx += utf8_width(names[i], strlen(names[i])) + 3;
		if (cx <= width || first >= active)
			break;
		first++;
	}
	int cx = x;
	if (first > 0)
		cx += draw_str(stdscr, y, cx, 2, "< ", a->attr[TH_TAB]);
	/* tabs hidden on the right say so, as those on the left do */
	int all = cx;
	for (size_t i = first; i < n; i++)
		all += utf8_width(names[i], strlen(names[i])) + 3;
	int end = all - 1 > x + width ? x + width - 2 : x + width;
	for (size_t i = first; i < n; i++) {
		int tw = utf8_width(names[i], strlen(names[i])) + 2;
		if (cx + tw > end) {
			draw_str(stdscr, y, x + width - 1, 1, ">", a->attr[TH_TAB]);
			break;
		}
		attr_t at = i == active ? a->attr[TH_TAB_ACTIVE] : a->attr[TH_TAB];
		char *label = xasprintf(i == active ? "[%s]" : " %s ", names[i]);
		draw_str(stdscr, y, cx, tw, label, at);
		free(label);
		hit_add(a, kind, (int)i, y, cx, cx + tw, 1);
		cx += tw + 1;
	}
}

static void draw_screen_tabs(struct app *a, int y, int x, int width)
{
	const char **names = xcalloc(a->nscreens + 1, sizeof(char *));
	for (size_t i = 0; i < a->nscreens; i++)
		names[i] = a->screens[i]->title;
	draw_tabs(a, y, x, width, names, a->nscreens, a->cur, HIT_SCREEN_TAB);
	free(names);
}

static void draw_boxed(struct app *a, int y, int x, int h, int w, const char *title, int focused)
{
	attr_t b = focused ? a->attr[TH_HEADING] : a->attr[TH_BORDER];
	draw_box(stdscr, y, x, h, w, b, !a->utf8);
	if (title) {
		char *t = xasprintf(" %s ", title);
		draw_str(stdscr, y, x + 2, w - 4, t, b);
		free(t);
	}
}

static void draw_preview_tabs_in_border(struct app *a, int y, int x, int w, int focused)
{
	int cx = x + 2;
	for (int i = 0; i < PV_COUNT; i++) {
		const char *nm = preview_tab_names[i];
		int tw = (int)strlen(nm) + 2;
		if (cx + tw > x + w - 2)
			break;
		attr_t at = i == (int)a->pv_tab ? a->attr[TH_TAB_ACTIVE]
						: (focused ? a->attr[TH_HEADING] : a->attr[TH_BORDER]);
		char *label = xasprintf(i == (int)a->pv_tab ? "[%s]" : " %s ", nm);
		draw_str(stdscr, y, cx, tw, label, at);
		free(label);
		hit_add(a, HIT_PREVIEW_TAB, i, y, cx, cx + tw, 1);
		cx += tw;
	}
}

static void draw_preview(struct app *a, int y, int x, int h, int w, int focused)
{
	/* one column for the scroll marks */
	const char *text = app_preview_shown(a, a->pv_tab, w - 1);
	a->pv_width = w - 1;
	a->pv_h = h;
	panel_text_draw(a, stdscr, y, x, h, w, text, &a->pv_view[a->pv_tab], focused,
			a->pv_tab == PV_DIFF);
	hit_add(a, HIT_PREVIEW, a->pv_tab, y, x, x + w, h);
}

static int keybar_width(int brief)
{
	int n = 0;
	const struct key_binding *kb;
	for (int i = 1; (kb = key_bar_entry(i)); i++)
		n += (int)(strlen(brief ? kb->bar_brief : kb->bar_key) + strlen(kb->bar_label)) + 2;
	return n - 1; /* no space needed after the last */
}

static void draw_keybar(struct app *a, int y)
{
	draw_fill(stdscr, y, 0, 1, a->cols, a->attr[TH_KEYBAR]);
	int brief = keybar_width(0) > a->cols;
	int x = 0;
	const struct key_binding *kb;
	for (int i = 1; (kb = key_bar_entry(i)); i++) {
		const char *key = brief ? kb->bar_brief : kb->bar_key;
		int need = (int)(strlen(key) + strlen(kb->bar_label)) + 1;
		if (x + need > a->cols)
			break;
		x += draw_str(stdscr, y, x, a->cols - x, key, a->attr[TH_KEY]);
		x += draw_str(stdscr, y, x, a->cols - x, " ", a->attr[TH_KEYBAR]);
		x += draw_str(stdscr, y, x, a->cols - x, kb->bar_label, a->attr[TH_KEYBAR]);
		x += draw_str(stdscr, y, x, a->cols - x, " ", a->attr[TH_KEYBAR]);
	}
}

/* A message longer than the line takes up to three rows (the form gives
 * them up until the next key): an error's "how to fix it" comes last. */
#define STATUS_MAX_ROWS 3

static void status_rows(struct app *a, struct strvec *out)
{
	char *m = xasprintf("%s%s", a->msg_err ? "error: " : "", a->msg);
	text_wrap(m, strlen(m), a->cols, 2, out);
	free(m);
}

static int status_height(struct app *a)
{
	if (!a->msg || a->cols < 1)
		return 1;
	struct strvec rows = STRVEC_INIT;
	status_rows(a, &rows);
	int n = (int)rows.n;
	strvec_release(&rows);
	return n < 1 ? 1 : n > STATUS_MAX_ROWS ? STATUS_MAX_ROWS : n;
}

static void draw_status(struct app *a, int y)
{
	draw_fill(stdscr, y, 0, 1, a->cols, a->attr[TH_NORMAL]);
	if (a->msg) {
		attr_t at = a->msg_err ? a->attr[TH_ERROR] : a->attr[TH_STATUS];
		struct strvec rows = STRVEC_INIT;
		status_rows(a, &rows);
		int n = status_height(a);
		for (int r = 0; r < n && r < (int)rows.n; r++) {
			draw_fill(stdscr, y + r, 0, 1, a->cols, a->attr[TH_NORMAL]);
			draw_str(stdscr, y + r, 0, a->cols, rows.v[r], at);
		}
		strvec_release(&rows);
		return;
	}
	/* Otherwise: the focused field's one-line help. */
	struct form *f = app_cur_form(a);
	struct form_field *ff = f ? form_focused(f) : NULL;
	if (!ff || a->pane != PANE_MAIN)
		return;
	if (ff->schema && ff->schema->help) {
		char *s = xasprintf("%s: %s", ff->path ? ff->path : "", ff->schema->help);
		draw_str(stdscr, y, 0, a->cols, s, a->attr[TH_HELP]);
		free(s);
	} else if (ff->help) {
		/* buttons and widgets: the first line of their own help */
		const char *nl = strchr(ff->help, '\n');
		draw_text(stdscr, y, 0, a->cols, ff->help, nl ? (size_t)(nl - ff->help) : strlen(ff->help),
			  a->attr[TH_HELP], 0);
	}
}

void app_draw(struct app *a)
{
	app_layout(a);
	a->nhits = 0;
	if (a->too_small) {
		draw_too_small(a);
		return;
	}
	curs_set(0);
	erase();
	draw_title(a);
	int sh = status_height(a);
	int body_top = 2, body_bot = a->rows - 2 - sh; /* inclusive */
	struct form *f = app_cur_form(a);
	if (a->wide) {
		/* half and half: the form's values are short, the preview's
		 * commands are long (and wrap, so every column saves a row) */
		int mw = a->cols / 2;
		draw_screen_tabs(a, 1, 0, mw);
		int bh = body_bot - body_top + 1;
		if (f)
			form_draw(a, f, stdscr, body_top, 0, bh, mw - 1);
		hit_add(a, HIT_FORM, 0, body_top, 0, mw - 1, bh);
		int sx = mw, sw = a->cols - mw;
		const struct app_state *st = app_state(a);
		/* the problems box takes what its diagnostics need, at most a
		 * third: a clean recipe leaves the rows to the preview */
		int ph = bh / 3 < 6 ? 6 : bh / 3;
		int need = (int)(st->errors + st->warnings) + (st->errors + st->warnings ? 4 : 2);
		if (need < ph)
			ph = need;
		char *pt = xasprintf("Problems: %zu E, %zu W", st->errors, st->warnings);
		draw_boxed(a, 1, sx, ph + 1, sw, pt, a->pane == PANE_PROBLEMS);
		free(pt);
		a->prob_h = ph - 1;
		panel_problems_draw(a, stdscr, 2, sx + 1, ph - 1, sw - 2, &a->prob_view,
				    a->pane == PANE_PROBLEMS);
		hit_add(a, HIT_PROBLEMS, 0, 2, sx + 1, sx + sw - 1, ph - 1);
		int py = 1 + ph + 1, phh = body_bot + 1 - py + 1;
		draw_boxed(a, py, sx, phh, sw, NULL, a->pane == PANE_PREVIEW);
		draw_preview_tabs_in_border(a, py, sx, sw, a->pane == PANE_PREVIEW);
		draw_preview(a, py + 1, sx + 1, phh - 2, sw - 2, a->pane == PANE_PREVIEW);
	} else {
		draw_screen_tabs(a, 1, 0, a->cols);
		const struct app_state *st = app_state(a);
		char prob[48];
		snprintf(prob, sizeof(prob), "Problems %zuE %zuW", st->errors, st->warnings);
		const char *views[2 + PV_COUNT] = { "Form", prob };
		for (int i = 0; i < PV_COUNT; i++)
			views[2 + i] = preview_tab_names[i];
		size_t active = a->narrow_view == VIEW_FORM       ? 0
				: a->narrow_view == VIEW_PROBLEMS ? 1
								  : 2 + a->pv_tab;
		draw_tabs(a, 2, 0, a->cols, views, 2 + PV_COUNT, active, HIT_NARROW_TAB);
		int y0 = 3, bh = body_bot - y0 + 1;
		if (a->narrow_view == VIEW_FORM) {
			if (f)
				form_draw(a, f, stdscr, y0, 0, bh, a->cols);
			hit_add(a, HIT_FORM, 0, y0, 0, a->cols, bh);
		} else if (a->narrow_view == VIEW_PROBLEMS) {
			a->prob_h = bh;
			panel_problems_draw(a, stdscr, y0, 0, bh, a->cols, &a->prob_view, 1);
			hit_add(a, HIT_PROBLEMS, 0, y0, 0, a->cols, bh);
		} else {
			draw_preview(a, y0, 0, bh, a->cols, 1);
		}
	}
	draw_status(a, a->rows - 1 - sh);
	draw_keybar(a, a->rows - 1);
	wnoutrefresh(stdscr);
	doupdate();
}
