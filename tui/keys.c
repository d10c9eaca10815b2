/*
 * keys.c — the keys of the session: the help screen, the dispatch of the
 * key table's actions (key_table.c), mouse clicks, and the key reader.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/app_int.h"
#include "tui/keys.h"
#include "tui/widget.h"

/* ---- help ----------------------------------------------------------------- */

void app_show_help(struct app *a)
{
	struct strbuf sb = STRBUF_INIT;
	struct form *f = app_cur_form(a);
	struct form_field *ff = f ? form_focused(f) : NULL;
	if (a->pane == PANE_MAIN && a->narrow_view == VIEW_FORM && ff) {
		char *h = form_field_help(a, ff);
		strbuf_addstr(&sb, h);
		strbuf_addstr(&sb, "\n\n");
		free(h);
	}
	key_help_text(&sb);
	app_show_text(a, ff && ff->path ? ff->path : "Help", sb_str(&sb));
	strbuf_release(&sb);
}

/* ---- keys ----------------------------------------------------------------- */

static void cycle_pane(struct app *a, int dir)
{
	if (a->wide) {
		a->pane = (enum pane)(((int)a->pane + 3 + dir) % 3);
		return;
	}
	int n = 2 + PV_COUNT;
	int cur = a->narrow_view == VIEW_FORM ? 0 : a->narrow_view == VIEW_PROBLEMS ? 1 : 2 + (int)a->pv_tab;
	cur = (cur + n + dir) % n;
	if (cur == 0)
		a->narrow_view = VIEW_FORM;
	else if (cur == 1)
		a->narrow_view = VIEW_PROBLEMS;
	else {
		a->narrow_view = VIEW_PREVIEW;
		a->pv_tab = (enum preview_tab)(cur - 2);
	}
	a->pane = a->narrow_view == VIEW_FORM       ? PANE_MAIN
		  : a->narrow_view == VIEW_PROBLEMS ? PANE_PROBLEMS
						    : PANE_PREVIEW;
}

static int body_rows(struct app *a)
{
	return a->rows - (a->wide ? 4 : 5);
}

static int page_of(int drawn_h, int fallback)
{
	return drawn_h > 2 ? drawn_h - 1 : drawn_h > 0 ? drawn_h : fallback;
}

static void handle_click(struct app *a)
{
	MEVENT *m = &a->mouse;
	if (m->bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		/* the wheel moves like the arrow keys */
		app_handle_key(a, K_FN((m->bstate & BUTTON4_PRESSED) ? KEY_UP : KEY_DOWN));
		return;
	}
	if (!(m->bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
		return;
	for (size_t i = a->nhits; i-- > 0;) {
		struct hit *h = &a->hits[i];
		if (m->y < h->y || m->y >= h->y + h->h || m->x < h->x0 || m->x >= h->x1)
			continue;
		switch (h->kind) {
		case HIT_SCREEN_TAB:
			app_goto_screen(a, (size_t)h->idx);
			break;
		case HIT_PREVIEW_TAB:
			a->pv_tab = (enum preview_tab)h->idx;
			a->pane = PANE_PREVIEW;
			break;
		case HIT_NARROW_TAB:
			a->narrow_view = h->idx == 0 ? VIEW_FORM : h->idx == 1 ? VIEW_PROBLEMS : VIEW_PREVIEW;
			if (h->idx >= 2)
				a->pv_tab = (enum preview_tab)(h->idx - 2);
			a->pane = a->narrow_view == VIEW_FORM       ? PANE_MAIN
				  : a->narrow_view == VIEW_PROBLEMS ? PANE_PROBLEMS
								    : PANE_PREVIEW;
			break;
		case HIT_FORM:
			a->pane = PANE_MAIN;
			form_click(a, app_cur_form(a), m->y - h->y, m->x - h->x0);
			break;
		case HIT_PROBLEMS:
			a->pane = PANE_PROBLEMS;
			panel_problems_click(a, &a->prob_view, m->y - h->y);
			break;
		case HIT_PREVIEW:
			a->pane = PANE_PREVIEW;
			break;
		}
		return;
	}
}

static void handle_key(struct app *a, int key);

void app_handle_key(struct app *a, int key)
{
	unsigned long g0 = doc_generation(a->doc);
	handle_key(a, key);
	unsigned long g1 = doc_generation(a->doc);
	if (a->after_edit && g1 != g0 && g1 != a->undo_gen) {
		a->after_edit(a);
		if (doc_generation(a->doc) != g1)
			a->joined_gen = doc_generation(a->doc);
	}
}

static void handle_key(struct app *a, int key)
{
	if (key == K_NONE)
		return;
	if (a->too_small) {
		/* Keys would act on a screen the user cannot see; but the user
		 * can always leave (nothing is lost: see app_quit_small). */
		const struct key_binding *qb = key_lookup(key_unalias(key));
		if (qb && qb->action == KA_QUIT)
			app_quit_small(a);
		return;
	}
	key = key_unalias(key);
	if (key != K_FN(KEY_MOUSE)) {
		free(a->msg);
		a->msg = NULL;
	}
	if (key == K_FN(KEY_MOUSE)) {
		handle_click(a);
		return;
	}
	struct form *f = app_cur_form(a);
	int in_form = a->pane == PANE_MAIN && a->narrow_view == VIEW_FORM;
	/* The focused pane gets the key first. */
	if (in_form && f) {
		const struct app_screen *s = a->screens[a->cur];
		struct form_field *ff = form_focused(f);
		if (ff && ff->kind == FF_CUSTOM && ff->widget && ff->widget->key &&
		    ff->widget->key(a, ff, key))
			return;
		if (s->key && s->key(a, f, key))
			return;
		if (form_key(a, f, key))
			return;
	} else if (a->pane == PANE_PROBLEMS || a->narrow_view == VIEW_PROBLEMS) {
		/* a page is what the panel shows, less a row kept for context */
		if (panel_problems_key(a, &a->prob_view, key, page_of(a->prob_h, body_rows(a))))
			return;
	} else {
		if (key == K_FN(KEY_LEFT) || key == K_FN(KEY_RIGHT)) {
			int d = key == K_FN(KEY_LEFT) ? -1 : 1;
			a->pv_tab = (enum preview_tab)(((int)a->pv_tab + PV_COUNT + d) % PV_COUNT);
			return;
		}
		if (key == 'c' && (a->pv_tab == PV_PLAN || a->pv_tab == PV_WORKERS)) {
			app_copy_command(a);
			return;
		}
		if (app_step_key(a, key, page_of(a->pv_h, body_rows(a))))
			return;
		if (key == 'w') {
			a->pv_nowrap[a->pv_tab] ^= 1;
			a->pv_view[a->pv_tab].top = 0;
			a->pv_view[a->pv_tab].left = 0;
			app_message(a, app_preview_wraps(a, a->pv_tab)
					       ? "long lines wrap (w: scroll sideways with < >)"
					       : "long lines scroll sideways with < > (w: wrap)");
			return;
		}
		if (panel_text_key(&a->pv_view[a->pv_tab],
				   app_preview_shown(a, a->pv_tab, a->pv_width > 0 ? a->pv_width : a->cols - 1), key,
				   page_of(a->pv_h, body_rows(a))))
			return;
	}
	const struct key_binding *kb = key_lookup(key);
	switch (kb ? kb->action : KA_NONE) {
	case KA_PANE_NEXT:
		cycle_pane(a, 1);
		break;
	case KA_PANE_PREV:
		cycle_pane(a, -1);
		break;
	case KA_SCREEN_PREV:
		app_prev_screen(a);
		break;
	case KA_SCREEN_NEXT:
		app_next_screen(a);
		break;
	case KA_HELP:
		app_show_help(a);
		break;
	case KA_SAVE:
		app_save(a);
		break;
	case KA_FIND:
		app_find(a, 1, 1);
		break;
	case KA_FIND_NEXT:
		app_find(a, 1, 0);
		break;
	case KA_FIND_PREV:
		app_find(a, -1, 0);
		break;
	case KA_UNDO: {
		/* an edit after_edit joined to the user's goes with it */
		int joined = a->joined_gen && doc_generation(a->doc) == a->joined_gen;
		if (doc_undo(a->doc)) {
			app_message(a, "nothing to undo");
			break;
		}
		if (joined && !doc_undo(a->doc))
			a->unjoined_gen = doc_generation(a->doc);
		a->undo_gen = doc_generation(a->doc);
		app_message(a, "undone");
		break;
	}
	case KA_REDO: {
		int joined = a->unjoined_gen && doc_generation(a->doc) == a->unjoined_gen;
		if (doc_redo(a->doc)) {
			app_message(a, "nothing to redo");
			break;
		}
		if (joined && !doc_redo(a->doc))
			a->joined_gen = doc_generation(a->doc);
		a->undo_gen = doc_generation(a->doc);
		app_message(a, "redone");
		break;
	}
	case KA_SUBMIT:
		app_submit(a);
		break;
	case KA_QUIT:
		app_ask_quit(a);
		break;
	case KA_SUSPEND:
		app_suspend(a);
		break;
	case KA_BACK:
		if (a->pane != PANE_MAIN || a->narrow_view != VIEW_FORM) {
			a->pane = PANE_MAIN;
			a->narrow_view = VIEW_FORM;
		}
		break;
	case KA_REPAINT:
		clearok(curscr, TRUE);
		break;
	case KA_NONE:
		break;
	}
}

/* ---- the key reader -------------------------------------------------------- */

static int getkey_raw(struct app *a, void (*redraw)(struct app *, void *), void *ctx);

int app_getkey(struct app *a, void (*redraw)(struct app *, void *), void *ctx)
{
	for (;;) {
		int k = getkey_raw(a, redraw, ctx);
		/* Below the minimum size the dialog is hidden behind the "too small"
		 * message: a key must not answer a question nobody can see ('d' in
		 * the quit prompt discarded the edits). */
		if (redraw && a->too_small && k != K_TERMINATE)
			continue;
		return k;
	}
}

static int getkey_raw(struct app *a, void (*redraw)(struct app *, void *), void *ctx)
{
	for (;;) {
		int sk = app_signal_key(a);
		if (sk == K_REDRAW) {
			app_draw(a);
			if (redraw && !a->too_small)
				redraw(a, ctx);
			continue;
		}
		if (sk != K_NONE)
			return sk;
		wint_t wc;
		int r = wget_wch(stdscr, &wc);
		if (r == ERR) {
			if (!isatty(STDIN_FILENO) && !a->attached)
				return K_TERMINATE;
			app_autosave(a, 0);
			continue;
		}
		app_key_read(a);
		/* Ctrl-Z suspends wherever it is pressed, dialogs included */
		if (r == OK && wc == K_CTRL('z')) {
			app_suspend(a);
			if (redraw && !a->too_small)
				redraw(a, ctx);
			continue;
		}
		if (r == KEY_CODE_YES) {
			if (wc == KEY_RESIZE) {
				app_draw(a);
				if (redraw && !a->too_small)
					redraw(a, ctx);
				continue;
			}
			if (wc == KEY_MOUSE) {
				if (getmouse(&a->mouse) != OK)
					continue;
				if (redraw)
					continue; /* dialogs ignore the mouse */
			}
			if (wc == KEY_ENTER)
				return K_ENTER;
			return K_FN((int)wc);
		}
		if (wc == 27) {
			wint_t w2;
			wtimeout(stdscr, 0);
			int r2 = wget_wch(stdscr, &w2);
			wtimeout(stdscr, 100);
			if (r2 == OK)
				return K_ALT((int)w2);
			if (r2 == KEY_CODE_YES)
				return K_ALT(K_FN((int)w2));
			return K_ESC;
		}
		if (wc == '\n')
			return K_ENTER;
		if (wc == 127 || wc == 8)
			return K_FN(KEY_BACKSPACE);
		return (int)wc;
	}
}
