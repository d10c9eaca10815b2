/*
 * widget.h — building blocks of the screens that are not part of the app.h
 * contract: the line editor behind every text input, the scrolling views of
 * the panels, and the panels themselves.  Used by app.c, form.c, editor.c;
 * the wizard may use them too.  A struct line_input owns its buffer.
 */
#ifndef SRT_TUI_WIDGET_H
#define SRT_TUI_WIDGET_H

#include <curses.h>
#include <stddef.h>

#include "tui/app.h"

/* ---- line editor (UTF-8, wide characters) ---- */
struct line_input {
	unsigned *cp;        /* code points */
	size_t n, alloc;
	size_t cursor;       /* index into cp */
	size_t scroll;       /* first code point shown */
};
enum { INPUT_CONTINUE, INPUT_DONE, INPUT_CANCEL, INPUT_IGNORED };

void line_input_init(struct line_input *in, const char *utf8);
void line_input_release(struct line_input *in);
/* Home/End, arrows, Backspace/Delete, Ctrl-A/E/K/U/W, text; Enter = DONE,
 * Esc = CANCEL. */
int line_input_key(struct line_input *in, int key);
char *line_input_text(const struct line_input *in); /* malloc'd UTF-8 */
/* Draw in width cells; returns the cursor's column relative to x. */
int line_input_draw(const struct line_input *in, WINDOW *w, int y, int x, int width, attr_t attr);

/* ---- scrolling views ---- */
struct scroll_view {
	int top;  /* first line shown */
	int sel;  /* selected line (problems), -1 none; the focused step (Plan, Workers) */
	int left; /* first column (text views) */
	int mark_top, mark_n; /* text views: rows drawn as focused (a step's command) */
};

/* Validation panel: one line per diagnostic, "E 12:3 message [code]", hint
 * below the selected one.  Enter jumps to the field. */
void panel_problems_draw(struct app *a, WINDOW *w, int y, int x, int h, int width,
			 struct scroll_view *v, int focused);
int panel_problems_key(struct app *a, struct scroll_view *v, int key, int page);
/* Rows the panel needs at this width to show every diagnostic (the
 * selected one whole); *sel_rows gets the selected one's.  At least 1. */
int panel_problems_rows(struct app *a, struct scroll_view *v, int width, int *sel_rows);
int panel_problems_click(struct app *a, struct scroll_view *v, int row);

/* A text view (previews); diff != 0 colours +/-/@@ lines. */
void panel_text_draw(struct app *a, WINDOW *w, int y, int x, int h, int width, const char *text,
		     struct scroll_view *v, int focused, int diff);
int panel_text_key(struct scroll_view *v, const char *text, int key, int page);

/* Preview texts (panel_preview.c): compute one tab into out.  The Plan's
 * launch-snapshot note is left for later when note is not NULL: *note gets
 * what plan_note_render needs (NULL when there is none), *note_at where in
 * out it goes. */
struct plan_note;
void preview_compute(struct app *a, enum preview_tab tab, struct strbuf *out, size_t *note_at,
		     struct plan_note **note);

#endif
