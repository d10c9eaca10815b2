/* widget_list.c — the list editor: add, edit, delete and reorder the items
 * of one list in the recipe; every change is one document edit (app.h). */
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "model/path.h"
#include "model/scalar.h"
#include "model/schema.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/widget.h"

struct list_ctx {
	const char *path;
	int sel, top;
	struct strvec items; /* current items as one-line text */
	int all_strings;
};

static void load_items(struct app *a, struct list_ctx *c)
{
	strvec_clear(&c->items);
	c->all_strings = 1;
	const struct doc_node *n = app_node(a, c->path);
	json_t *v = n ? doc_node_json(app_doc(a), n) : NULL;
	if (v && json_is_array(v)) {
		size_t i;
		json_t *it;
		json_array_foreach(v, i, it) {
			if (json_is_string(it)) {
				strvec_push(&c->items, json_string_value(it));
			} else {
				struct strbuf sb = STRBUF_INIT;
				scalar_emit_json(&sb, it, STYLE_ANY, 0);
				strvec_push_nodup(&c->items, strbuf_detach(&sb, NULL));
				c->all_strings = 0;
			}
		}
	}
	json_decref(v);
	if (c->sel >= (int)c->items.n)
		c->sel = (int)c->items.n - 1;
	if (c->sel < 0)
		c->sel = 0;
}

static void list_draw(struct app *a, void *vctx)
{
	struct list_ctx *c = vctx;
	int w = COLS - 8 > 90 ? 90 : COLS - 8, h = LINES - 6;
	if (w < 20)
		w = COLS;
	if (h < 5)
		h = LINES;
	int y = (LINES - h) / 2, x = (COLS - w) / 2;
	attr_t at = app_attr(a, TH_DIALOG);
	draw_fill(stdscr, y, x, h, w, at);
	draw_box(stdscr, y, x, h, w, at, !app_utf8(a));
	char *t = xasprintf(" %s (%zu) ", c->path, c->items.n);
	draw_str(stdscr, y, x + 2, w - 4, t, at | A_BOLD);
	free(t);
	/* the legend wraps on a narrow terminal ("... Esc do" hid the way out) */
	#define NB "\xc2\xa0" /* a no-break space keeps a key with what it does */
	static const char legend[] = "Enter" NB "edit  a" NB "add" NB "after  i" NB "insert" NB
				     "before  d" NB "delete  +/-" NB "move  Esc" NB "done";
	#undef NB
	struct strvec lg = STRVEC_INIT;
	text_wrap(legend, strlen(legend), w - 4, 0, &lg);
	int lh = h - 2 - (int)lg.n;
	if (lh < 1)
		lh = 1;
	if (c->sel < c->top)
		c->top = c->sel;
	if (c->sel >= c->top + lh)
		c->top = c->sel - lh + 1;
	if (!c->items.n)
		draw_str(stdscr, y + 1, x + 2, w - 4, "(empty list: press a to add an item)", at | A_DIM);
	for (int r = 0; r < lh && c->top + r < (int)c->items.n; r++) {
		int i = c->top + r;
		attr_t la = i == c->sel ? app_attr(a, TH_FOCUS) : at;
		char *line = xasprintf("%s%3d  %s", i == c->sel ? ">" : " ", i, c->items.v[i]);
		draw_fill(stdscr, y + 1 + r, x + 1, 1, w - 2, la);
		draw_str(stdscr, y + 1 + r, x + 1, w - 2, line, la);
		free(line);
	}
	for (size_t r = 0; r < lg.n; r++)
		draw_str(stdscr, y + h - 1 - (int)lg.n + (int)r, x + 2, w - 4, lg.v[r], at | A_DIM);
	strvec_release(&lg);
	wnoutrefresh(stdscr);
	doupdate();
}

static json_t *item_value(struct list_ctx *c, const char *text)
{
	const struct schema_field *s = NULL;
	char *ip = xasprintf("%s[0]", c->path);
	s = schema_find_text(ip);
	free(ip);
	if ((s && (s->types & ~SCHEMA_NULL) == SCHEMA_STR) || (c->all_strings && (!s || (s->types & SCHEMA_STR)))) 
		return json_string(text);
	char *err = NULL;
	json_t *v = schema_parse_text(s, text, &err);
	free(err);
	return v ? v : json_string(text);
}

void app_edit_list(struct app *a, const char *given)
{
	/* the caller's string may belong to a form that the edits rebuild */
	char *path = xstrdup(given);
	struct list_ctx c = { path, 0, 0, STRVEC_INIT, 1 };
	for (;;) {
		load_items(a, &c);
		app_draw_under(a);
		list_draw(a, &c);
		int k = app_getkey(a, list_draw, &c);
		switch (k) {
		case K_TERMINATE:
		case K_ESC:
		case 'q':
		case K_CTRL('c'):
			strvec_release(&c.items);
			free(path);
			return;
		case K_FN(KEY_UP):
		case 'k':
			if (c.sel > 0)
				c.sel--;
			break;
		case K_FN(KEY_DOWN):
		case 'j':
			if (c.sel + 1 < (int)c.items.n)
				c.sel++;
			break;
		case K_FN(KEY_HOME):
		case 'g':
			c.sel = 0;
			break;
		case K_FN(KEY_END):
		case 'G':
			c.sel = c.items.n ? (int)c.items.n - 1 : 0;
			break;
		case K_ENTER:
		case 'e':
			if (c.items.n) {
				char *title = xasprintf("%s[%d]", path, c.sel);
				char *text = app_prompt(a, title, c.items.v[c.sel]);
				if (text && strcmp(text, c.items.v[c.sel])) {
					json_t *v = item_value(&c, text);
					app_set(a, title, v);
					json_decref(v);
				}
				free(text);
				free(title);
			}
			break;
		case 'a':
		case 'i':
		case K_FN(KEY_IC): {
			char *text = app_prompt(a, k == 'i' ? "Insert item" : "Add item", "");
			if (text) {
				size_t at = c.items.n ? (size_t)c.sel + (k == 'i' ? 0 : 1) : 0;
				json_t *v = item_value(&c, text);
				if (!app_insert(a, path, at, v))
					c.sel = (int)at;
				json_decref(v);
				free(text);
			}
			break;
		}
		case 'd':
		case K_FN(KEY_DC):
			if (c.items.n) {
				char *ip = xasprintf("%s[%d]", path, c.sel);
				app_delete(a, ip);
				free(ip);
			}
			break;
		case '+':
		case '-':
		case K_FN(KEY_SR):
		case K_FN(KEY_SF): {
			int up = k == '-' || k == K_FN(KEY_SR);
			int to = c.sel + (up ? -1 : 1);
			if (c.items.n && to >= 0 && to < (int)c.items.n) {
				char *ip = xasprintf("%s[%d]", path, c.sel);
				struct path p = PATH_INIT;
				char *err = NULL;
				if (!path_parse(&p, ip, PATH_NAMES, &err) &&
				    !doc_move_item(app_doc(a), &p, (size_t)to, &err))
					c.sel = to;
				else if (err)
					app_error(a, "%s", err);
				free(err);
				path_release(&p);
				free(ip);
			}
			break;
		}
		case 'u':
		case K_CTRL('_'):
			doc_undo(app_doc(a));
			break;
		case K_CTRL('y'):
			doc_redo(app_doc(a));
			break;
		}
	}
}
