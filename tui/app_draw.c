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

const char *const preview_tab_names[PV_COUNT] = { "Services", "Workers", "YAML", "Diff", "Plan",
						   "Sbatch", "Mounts", "Env" };

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
	/* wrapped: a narrow window cut it to "enlarge th" */
	struct strvec rows = STRVEC_INIT;
	text_wrap(line2, strlen(line2), a->cols, 0, &rows);
	for (size_t r = 0; r < rows.n && y + 1 + (int)r < a->rows; r++)
		draw_str(stdscr, y + 1 + (int)r, 0, a->cols, rows.v[r], 0);
	/* the user can always leave (app_quit_small) */
	if (y + 1 + (int)rows.n < a->rows)
		draw_str(stdscr, y + 1 + (int)rows.n, 0, a->cols, "q, F10 or Ctrl-C quits.", 0);
	strvec_release(&rows);
	wnoutrefresh(stdscr);
	doupdate();
}

/* The title bar: the file, its state and the chosen variant on the left,
 * the problem counts on the right.  When it does not fit, the folder part
 * of the path goes first (from its start), then the long counts become
 * "1E 0W", then the program name, then the variant's name is cut; the file
 * name and [RO] / [modified] are never cut (a long path used to hide them,
 * and at 80 columns the variant showed as "ove"). */
static void draw_title(struct app *a)
{
	const struct app_state *st = app_state(a);
	attr_t t = a->attr[TH_TITLE];
	draw_fill(stdscr, 0, 0, 1, a->cols, t);
	const char *ell = a->utf8 ? "\xe2\x80\xa6" : "~";
	const char *vl = st->variant && st->variant->label ? st->variant->label : NULL;
	const char *path = a->path ? a->path : "(new recipe)";
	const char *slash = a->path ? strrchr(path, '/') : NULL;
	const char *base = slash ? slash + 1 : path;
	size_t dirlen = (size_t)(base - path);
	char state[64];
	snprintf(state, sizeof(state), "%s%s", app_read_only(a) ? "  [RO]" : "",
		 doc_dirty(a->doc) ? "  [modified]" : "");
	char right[96], brief[48];
	if (st->errors || st->warnings)
		snprintf(right, sizeof(right), "%zu error%s, %zu warning%s ", st->errors,
			 st->errors == 1 ? "" : "s", st->warnings, st->warnings == 1 ? "" : "s");
	else
		snprintf(right, sizeof(right), "no problems ");
	/* which cluster file srtctl would use: "srtslurm.yaml", "no cluster file" */
	{
		char with[160];
		snprintf(with, sizeof(with), "%s  %s", cluster_short(&a->cluster), right);
		memcpy(right, with, sizeof(right) - 1);
		right[sizeof(right) - 1] = '\0';
	}
	snprintf(brief, sizeof(brief), "%zuE %zuW ", st->errors, st->warnings);
	const char *prog = " srt-tui  ";
	int W = a->cols;
	int fixed = utf8_width(base, strlen(base)) + utf8_width(state, strlen(state));
	int vw = vl ? 11 + utf8_width(vl, strlen(vl)) : 0; /* "  variant: " */
	int dw = utf8_width(path, dirlen);
	int rw = (int)strlen(right);
	/* what is left for the folder part */
	int room = W - 1 - rw - (int)strlen(prog) - fixed - vw;
	if (room < dw && room < 8) {
		rw = (int)strlen(brief);
		room = W - 1 - rw - (int)strlen(prog) - fixed - vw;
	}
	if (room < 4 && dw) {
		prog = " ";
		room = W - 1 - rw - 1 - fixed - vw;
	}
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, prog);
	if (dw <= room) {
		strbuf_add(&sb, path, dirlen);
	} else if (room > 2) {
		/* the end of the folder part: "…/runs/pd/" */
		int keep = room - 1;
		size_t skip = 0;
		while (skip < dirlen && utf8_width(path + skip, dirlen - skip) > keep)
			skip++;
		strbuf_addstr(&sb, ell);
		strbuf_add(&sb, path + skip, dirlen - skip);
	} else if (dw) {
		strbuf_addstr(&sb, ell);
		strbuf_addch(&sb, '/');
	}
	strbuf_addstr(&sb, base);
	strbuf_addstr(&sb, state);
	int used = utf8_width(sb.buf, sb.len);
	if (vl) {
		int vroom = W - 1 - rw - used - 11;
		strbuf_addstr(&sb, "  variant: ");
		int vlw = utf8_width(vl, strlen(vl));
		if (vlw <= vroom || vroom < 2) {
			strbuf_addstr(&sb, vl);
		} else {
			strbuf_add(&sb, vl, utf8_fit(vl, strlen(vl), vroom - 1));
			strbuf_addstr(&sb, ell);
		}
	}
	const char *rt = rw == (int)strlen(right) ? right : brief;
	draw_str(stdscr, 0, 0, W - rw - 1, sb.buf, t);
	draw_str(stdscr, 0, W - rw, rw, rt, t);
	strbuf_release(&sb);
}

/* The width a row of tabs takes when every name but the active one is cut
 * to at most l cells (l < 0: none is cut); -1 when two cut names would be
 * the same. */
static int tabs_width(const char *const *names, size_t n, size_t active, int l)
{
	/* cut tabs go without the extra space between them: " Basi " and
	 * "[Connectors]" already have their own */
	int w = n && l < 0 ? (int)n - 1 : 0;
	for (size_t i = 0; i < n; i++) {
		int nw = utf8_width(names[i], strlen(names[i]));
		w += 2 + (i == active || l < 0 || nw <= l ? nw : l);
		for (size_t j = 0; l >= 0 && j < i; j++) {
			size_t bi = utf8_fit(names[i], strlen(names[i]), l);
			size_t bj = utf8_fit(names[j], strlen(names[j]), l);
			if (bi == bj && !strncmp(names[i], names[j], bi))
				return -1;
		}
	}
	return w;
}

/* A row of tabs; returns nothing, records hits.  When they do not fit, the
 * names other than the active one are cut to their first cells (as many as
 * fit, while they stay distinct: "Basic Engin [Connectors] Servi ..."), so
 * every step stays in sight and reachable by a click; only below that do
 * they scroll. */
static void draw_tabs_cut(struct app *a, int y, int x, int width, const char *const *names,
			  size_t n, size_t active, enum hit_kind kind, int cut);

static void draw_tabs(struct app *a, int y, int x, int width, const char *const *names, size_t n,
		      size_t active, enum hit_kind kind)
{
	draw_tabs_cut(a, y, x, width, names, n, active, kind, -1);
}

static void draw_steps(struct app *a, int y, int x, int width, const char *const *names, size_t n,
		       size_t active)
{
	int cut = -1;
	if (tabs_width(names, n, active, -1) > width) {
		int longest = 0;
		for (size_t i = 0; i < n; i++) {
			int nw = utf8_width(names[i], strlen(names[i]));
			longest = nw > longest ? nw : longest;
		}
		/* the same cut whichever step is active: the bar must not
		 * change under the user's eyes from one step to the next */
		for (int l = longest - 1; l >= 2 && cut < 0; l--) {
			int ok = 1;
			for (size_t k = 0; k < n && ok; k++) {
				int w = tabs_width(names, n, k, l);
				ok = w >= 0 && w <= width;
			}
			if (ok)
				cut = l;
		}
	}
	draw_tabs_cut(a, y, x, width, names, n, active, HIT_SCREEN_TAB, cut);
}

static void draw_tabs_cut(struct app *a, int y, int x, int width, const char *const *names,
			  size_t n, size_t active, enum hit_kind kind, int cut)
{
	draw_fill(stdscr, y, x, 1, width, a->attr[TH_NORMAL]);
	if (cut >= 0) {
		int cx = x;
		for (size_t i = 0; i < n; i++) {
			size_t len = strlen(names[i]);
			if (i != active)
				len = utf8_fit(names[i], len, cut);
			char *label = xasprintf(i == active ? "[%.*s]" : " %.*s ", (int)len, names[i]);
			int tw = utf8_width(label, strlen(label));
			draw_str(stdscr, y, cx, tw, label,
				 i == active ? a->attr[TH_TAB_ACTIVE] : a->attr[TH_TAB]);
			free(label);
			hit_add(a, kind, (int)i, y, cx, cx + tw, 1);
			cx += tw;
		}
		return;
	}
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
	draw_steps(a, y, x, width, names, a->nscreens, a->cur);
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
	/* a narrow side panel scrolls the tabs so the active one shows, with
	 * "<" and ">" where some are hidden */
	int first = 0;
	for (;;) {
		int need = first ? 2 : 0;
		for (int i = first; i <= (int)a->pv_tab; i++)
			need += (int)strlen(preview_tab_names[i]) + 2;
		if (need <= w - 6 || first >= (int)a->pv_tab)
			break;
		first++;
	}
	attr_t bt = focused ? a->attr[TH_HEADING] : a->attr[TH_BORDER];
	int cx = x + 2;
	if (first)
		cx += draw_str(stdscr, y, cx, 1, "<", bt);
	for (int i = first; i < PV_COUNT; i++) {
		const char *nm = preview_tab_names[i];
		int tw = (int)strlen(nm) + 2;
		if (cx + tw > x + w - 3) {
			draw_str(stdscr, y, x + w - 3, 1, ">", bt);
			break;
		}
		attr_t at = i == (int)a->pv_tab ? a->attr[TH_TAB_ACTIVE] : bt;
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
	const char *text;
	a->pv_width = w - 1; /* before the text: the Mounts and Env tables use it */
	/* the rows in view (the Plan's note only once they reach it) */
	text = app_preview_rows(a, a->pv_tab, w - 1, a->pv_view[a->pv_tab].top + h);
	a->pv_h = h;
	app_step_mark(a, a->pv_tab, text);
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

/* The focused field's one-line help (its schema help, else the first line
 * of its own), malloc'd; NULL when none or the focus is not in the form. */
static char *hint_text(struct app *a)
{
	struct form *f = app_cur_form(a);
	struct form_field *ff = f ? form_focused(f) : NULL;
	if (!ff || a->pane != PANE_MAIN)
		return NULL;
	if (ff->schema && ff->schema->help)
		return xasprintf("%s: %s", ff->path ? ff->path : "", ff->schema->help);
	if (ff->help) {
		/* buttons and widgets: the first line of their own help */
		const char *nl = strchr(ff->help, '\n');
		return xstrndup(ff->help, nl ? (size_t)(nl - ff->help) : strlen(ff->help));
	}
	return NULL;
}

/* The hint wraps: at 80 columns "Do not set --host, --port or -" cut the
 * very sentence that matters, and two rows still cut the longer ones (a
 * placement's).  It takes the rows it needs, up to a fifth of the screen
 * (at least 3); a hint longer than that says where it is whole (F1). */
static int hint_max_rows(const struct app *a)
{
	return a->rows / 5 > 3 ? a->rows / 5 : 3;
}

static int status_rows(struct app *a, struct strvec *out)
{
	if (a->msg) {
		char *m = xasprintf("%s%s", a->msg_err ? "error: " : "", a->msg);
		text_wrap(m, strlen(m), a->cols, 2, out);
		free(m);
		return STATUS_MAX_ROWS;
	}
	char *h = hint_text(a);
	if (h) {
		text_wrap(h, strlen(h), a->cols, 2, out);
		free(h);
	}
	return hint_max_rows(a);
}

static int status_height(struct app *a)
{
	if (a->cols < 1)
		return 1;
	struct strvec rows = STRVEC_INIT;
	int max = status_rows(a, &rows);
	int n = (int)rows.n;
	strvec_release(&rows);
	return n < 1 ? 1 : n > max ? max : n;
}

static void draw_status(struct app *a, int y)
{
	attr_t at = !a->msg ? a->attr[TH_HELP] : a->msg_err ? a->attr[TH_ERROR] : a->attr[TH_STATUS];
	struct strvec rows = STRVEC_INIT;
	status_rows(a, &rows);
	int n = status_height(a);
	for (int r = 0; r < n; r++) {
		draw_fill(stdscr, y + r, 0, 1, a->cols, a->attr[TH_NORMAL]);
		if (r < (int)rows.n) {
			const char *row = rows.v[r];
			/* a cut hint says so, and where it is whole */
			if (r == n - 1 && (int)rows.n > n) {
				const char *more = a->msg ? "" : " (F1: all of it)";
				int mw = (int)strlen(more) + 1;
				char *cut = xasprintf("%.*s%s%s",
						      (int)utf8_fit(row, strlen(row), a->cols - mw), row,
						      a->utf8 ? "\xe2\x80\xa6" : "~", more);
				draw_str(stdscr, y + r, 0, a->cols, cut, at);
				free(cut);
			} else {
				draw_str(stdscr, y + r, 0, a->cols, row, at);
			}
		}
	}
	strvec_release(&rows);
}

void app_draw(struct app *a)
{
	app_draw_under(a);
	doupdate();
}

static void frame_stamp_take(struct app *a, struct frame_stamp *s)
{
	memset(s, 0, sizeof(*s));
	s->gen = doc_generation(a->doc);
	s->msg_hash = a->msg ? str_hash(a->msg, 0) : 0;
	s->msg_err = a->msg_err;
	s->vsel = a->vsel;
	s->rows = LINES;
	s->cols = COLS;
	s->cur = a->cur;
	s->pane = (int)a->pane;
	s->view = a->narrow_view;
	s->tab = (int)a->pv_tab;
	if (a->nscreens && a->form_built[a->cur]) {
		const struct form *f = &a->forms[a->cur];
		s->form_serial = f->serial;
		s->focus = f->focus;
		s->form_top = f->top;
	}
	s->prob_sel = a->prob_view.sel;
	s->prob_top = a->prob_view.top;
	const struct scroll_view *v = &a->pv_view[a->pv_tab];
	s->pv_top = v->top;
	s->pv_left = v->left;
	s->pv_mark_top = v->mark_top;
	s->pv_mark_n = v->mark_n;
}

void app_draw_under_dialog(struct app *a, unsigned long *seen)
{
	struct frame_stamp now;
	frame_stamp_take(a, &now);
	if (*seen && *seen == a->frame_serial && !memcmp(&now, &a->frame_stamp, sizeof(now)))
		return;
	app_draw_under(a);
	*seen = a->frame_serial;
}

static void draw_frame(struct app *a);

void app_draw_under(struct app *a)
{
	draw_frame(a);
	a->frame_serial++;
	frame_stamp_take(a, &a->frame_stamp);
}

static void draw_frame(struct app *a)
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
		/* half and half, but the form gets 80 columns when the side
		 * keeps a usable width: at 120 the form had 60 (less than at
		 * 80x24), cutting the step bar and wrapping the GPU line */
		int mw = a->cols / 2;
		if (mw < APP_FORM_COLS + 1)
			mw = a->cols - APP_SIDE_MIN_COLS < APP_FORM_COLS + 1 ? a->cols - APP_SIDE_MIN_COLS
									      : APP_FORM_COLS + 1;
		draw_screen_tabs(a, 1, 0, mw);
		int bh = body_bot - body_top + 1;
		if (f)
			form_draw(a, f, stdscr, body_top, 0, bh, mw - 1);
		hit_add(a, HIT_FORM, 0, body_top, 0, mw - 1, bh);
		int sx = mw, sw = a->cols - mw;
		const struct app_state *st = app_state(a);
		/* the problems box takes what its diagnostics need, at most a
		 * third (a clean recipe leaves the rows to the preview), but
		 * always room for the selected one whole, hint included */
		int ph = bh / 3 < 6 ? 6 : bh / 3;
		int sel_rows = 0;
		int need = panel_problems_rows(a, &a->prob_view, sw - 2, &sel_rows) + 1;
		if (ph < sel_rows + 1)
			ph = sel_rows + 1 < bh / 2 ? sel_rows + 1 : bh / 2;
		if (need < ph)
			ph = need;
		if (ph < 2)
			ph = 2;
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
}
