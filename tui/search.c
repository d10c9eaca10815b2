/*
 * search.c — `/`, `n` and `N` (menuconfig's `/`): the query box starts
 * empty (Up and Down recall earlier queries), every screen is searched —
 * labels, recipe paths, values and help texts, collapsed branches too, and
 * the text lines a screen shows besides its fields (explanations, headings,
 * the Review step's previews), listed with their section — and
 * the hits are listed with the full path and the screen of each; Enter
 * jumps to one, centred with its neighbours around it.  n and N walk the
 * same list.  A query matches when each of its words appears (case and the
 * separators - _ . ignored: "gpu memory" finds gpu-memory-utilization).
 */
#include <stdlib.h>
#include <string.h>

#include "tui/app_int.h"

struct search_hit {
	size_t screen;
	char *key;   /* what finds the field again: its path, else its label */
	char *path;  /* the recipe path, NULL for a button or widget */
	char *label;
	char *heading; /* the section the field is in, for buttons and widgets */
	const char *what; /* where the query matched: "label", "key", "text", "value", "help" */
	int rank;         /* 0 label or key, 1 text, 2 value, 3 help: the best first */
	int text;         /* a text line, not a field: key is its whole text */
	size_t line;      /* which of its lines matched */
};

struct search_result {
	struct search_hit *v;
	size_t n, alloc;
	size_t at; /* the hit shown last */
};

static void result_free(struct search_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].key);
		free(r->v[i].path);
		free(r->v[i].label);
		free(r->v[i].heading);
	}
	free(r->v);
	free(r);
}

void app_search_release(struct app *a)
{
	result_free(a->search_res);
	a->search_res = NULL;
	strvec_release(&a->search_hist);
}

/* Lower case, separators as spaces, runs of spaces as one. */
static char *fold(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	for (; s && *s; s++) {
		char c = *s;
		if (c == '-' || c == '_' || c == '.' || c == ' ' || c == '\t' || c == '\n')
			c = ' ';
		else if (c >= 'A' && c <= 'Z')
			c = (char)(c + 32);
		if (c == ' ' && (!sb.len || sb.buf[sb.len - 1] == ' '))
			continue;
		strbuf_addch(&sb, c);
	}
	return strbuf_detach(&sb, NULL);
}

/* Every word of the folded query is in the folded text. */
static int matches(const char *text, const char *query)
{
	if (!text || !*text)
		return 0;
	char *t = fold(text), *q = xstrdup(query);
	int ok = 1;
	for (char *save = NULL, *w = strtok_r(q, " ", &save); w && ok; w = strtok_r(NULL, " ", &save))
		ok = strstr(t, w) != NULL;
	free(t);
	free(q);
	return ok;
}

static const char *const what_names[] = { "label", "key", "value", "help" };

/* A text line (help, an explanation, a preview on the Review step) that
 * contains the query: the first of its lines that does, malloc'd, and its
 * number; NULL when none. */
static char *text_match(const char *text, const char *q, size_t *line)
{
	size_t k = 0;
	for (const char *p = text; p && *p; k++) {
		const char *nl = strchr(p, '\n');
		char *one = xstrndup(p, nl ? (size_t)(nl - p) : strlen(p));
		if (matches(one, q)) {
			*line = k;
			return one;
		}
		free(one);
		p = nl ? nl + 1 : NULL;
	}
	return NULL;
}

/* How the field matches: 0 its label or key, 2 its value, 3 its help, -1
 * not at all. */
static int field_matches(struct app *a, const struct form_field *ff, const char *q)
{
	if (matches(ff->label, q))
		return 0;
	if (ff->path && matches(ff->path, q))
		return 0;
	if (ff->kind == FF_VALUE) {
		char *v = form_field_value(a, ff);
		int m = matches(v, q);
		free(v);
		if (m)
			return 2;
	}
	if (ff->help && matches(ff->help, q))
		return 3;
	if (ff->schema && (matches(ff->schema->help, q) || matches(ff->schema->long_help, q)))
		return 3;
	return -1;
}

/* A label as one line: a button's "L1 size (GB)      32" loses its padding. */
static char *squash(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	for (; s && *s; s++)
		if (!(*s == ' ' && (s[1] == ' ' || !sb.len)))
			strbuf_addch(&sb, *s == '\n' ? ' ' : *s);
	return strbuf_detach(&sb, NULL);
}

static int focusable(const struct form_field *ff)
{
	return ff->kind == FF_VALUE || ff->kind == FF_CUSTOM || ff->kind == FF_BUTTON;
}

static int listed(const struct search_result *r, const char *key, size_t screen, int by_path)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].key, key) && (by_path ? r->v[i].path != NULL : r->v[i].screen == screen))
			return 1;
	return 0;
}

/* The section a field is in: the last heading before field `end`. */
static const char *heading_before(const struct form *f, size_t end)
{
	for (size_t i = end; i-- > 0;)
		if (f->v[i].kind == FF_HEADING)
			return f->v[i].label;
	return NULL;
}

static struct search_hit *new_hit(struct search_result *r, size_t screen, const char *key)
{
	ALLOC_GROW(r->v, r->n + 1, r->alloc);
	struct search_hit *h = &r->v[r->n++];
	memset(h, 0, sizeof(*h));
	h->screen = screen;
	h->key = xstrdup(key);
	return h;
}

/* The hits of screen s, from the field after `from` on (wrapping) when
 * from_focus, else from the top; a recipe path already listed (another
 * screen shows it too) is not listed again. */
static void search_screen_hits(struct app *a, size_t s, const char *q, int from_focus,
			       struct search_result *r)
{
	struct form *f = &a->forms[s];
	struct form full;
	form_init(&full);
	full.user = f->user; /* borrowed: the build reads its options there */
	app_build_screen(a, s, &full);
	size_t start = 0;
	if (from_focus) {
		struct form_field *cur = form_focused(f);
		if (cur && form_focus_path(&full, cur->path ? cur->path : cur->label ? cur->label : ""))
			start = full.focus + 1;
	}
	for (size_t k = 0; k < full.n; k++) {
		size_t idx = (start + k) % full.n;
		struct form_field *ff = &full.v[idx];
		if (ff->kind == FF_TEXT || ff->kind == FF_HEADING) {
			/* what the screen says besides its fields: found too */
			size_t line = 0;
			char *one = ff->label ? text_match(ff->label, q, &line) : NULL;
			if (!one || listed(r, ff->label, s, 0)) {
				free(one);
				continue;
			}
			/* a heading is its own section (and is not shown as its own heading) */
			const char *heading = heading_before(&full, idx + (ff->kind == FF_HEADING));
			struct search_hit *h = new_hit(r, s, ff->label);
			h->label = squash(one);
			h->heading = heading && heading != ff->label ? squash(heading) : NULL;
			h->what = ff->kind == FF_HEADING ? "heading" : "text";
			h->rank = 1;
			h->text = 1;
			h->line = line;
			free(one);
			continue;
		}
		if (!focusable(ff))
			continue;
		const char *key = ff->path ? ff->path : ff->label;
		if (!key || !*key || listed(r, key, s, ff->path != NULL))
			continue;
		int rank = field_matches(a, ff, q);
		if (rank < 0)
			continue;
		const char *heading = heading_before(&full, idx);
		struct search_hit *h = new_hit(r, s, key);
		h->path = ff->path && ff->kind == FF_VALUE ? xstrdup(ff->path) : NULL;
		h->label = squash(ff->label ? ff->label : key);
		h->heading = heading ? squash(heading) : NULL;
		h->what = rank ? what_names[rank] : matches(ff->label, q) ? "label" : "key";
		h->rank = rank;
	}
	/* a screen never shown makes its options now: they become its own
	 * (they leaked when the borrowed pointer was simply dropped) */
	if (full.user != f->user) {
		if (!f->user) {
			f->user = full.user;
			f->user_free = full.user_free;
		} else if (full.user_free) {
			full.user_free(full.user);
		}
	}
	full.user = NULL;
	form_release(&full);
}

/* The current screen from the focus on, the following screens, then those
 * before: the first hit is the one the old `/` landed on. */
static struct search_result *search_all(struct app *a, const char *query)
{
	struct search_result *r = xcalloc(1, sizeof(*r));
	char *q = fold(query);
	for (size_t k = 0; k < a->nscreens; k++)
		search_screen_hits(a, (a->cur + k) % a->nscreens, q, k == 0, r);
	free(q);
	/* labels and keys first, then values, then help; in screen order from the
	 * focus within each (the first is what n used to find) */
	for (size_t i = 1; i < r->n; i++)
		for (size_t j = i; j > 0 && r->v[j].rank < r->v[j - 1].rank; j--) {
			struct search_hit t = r->v[j];
			r->v[j] = r->v[j - 1];
			r->v[j - 1] = t;
		}
	return r;
}

/* A text hit: the same text on its screen, brought into view. */
static int jump_text(struct app *a, const struct search_hit *h)
{
	struct form *f = app_cur_form(a);
	for (size_t i = 0; i < f->n; i++)
		if ((f->v[i].kind == FF_TEXT || f->v[i].kind == FF_HEADING) && f->v[i].label &&
		    !strcmp(f->v[i].label, h->key)) {
			form_peek(f, i, form_text_row(f, &f->v[i], h->line));
			return 1;
		}
	return 0;
}

/* Focus the hit: its screen, its branches expanded, centred. */
static int jump(struct app *a, const struct search_hit *h)
{
	app_goto_screen(a, h->screen);
	struct form *f = app_cur_form(a);
	f->peek = 0;
	if (h->text)
		return jump_text(a, h);
	if (!form_focus_path(f, h->key)) {
		for (size_t c = 0; c < f->collapsed.n;)
			if (strcmp(h->key, f->collapsed.v[c]) && app_path_under(h->key, f->collapsed.v[c]))
				form_set_collapsed(f, f->collapsed.v[c], 0);
			else
				c++;
		a->form_built[a->cur] = 0;
		f = app_cur_form(a);
		if (!form_focus_path(f, h->key))
			return 0;
	}
	f->center = 1;
	return 1;
}

/* One line naming a hit: the full path (and the label the form shows when
 * it is not the last key), or the section and label of a button. */
static char *hit_text(const struct app *a, const struct search_hit *h)
{
	const char *scr = a->screens[h->screen]->title;
	if (h->path) {
		size_t pl = strlen(h->path), ll = strlen(h->label);
		/* the label is the path's last key ("gpus", "[0]") or says more */
		if (ll > pl || strcmp(h->path + pl - ll, h->label))
			return xasprintf("%s  \"%s\"  [%s]", h->path, h->label, scr);
		return xasprintf("%s  [%s]", h->path, scr);
	}
	if (h->text && h->heading)
		return xasprintf("%s: \"%s\"  [%s]", h->heading, h->label, scr);
	if (h->text)
		return xasprintf("\"%s\"  [%s]", h->label, scr);
	if (h->heading)
		return xasprintf("%s > %s  [%s]", h->heading, h->label, scr);
	return xasprintf("%s  [%s]", h->label, scr);
}

static void say_where(struct app *a, const struct search_result *r)
{
	char *t = hit_text(a, &r->v[r->at]);
	app_message(a, "/%s  (n: next, N: previous)  %zu of %zu: %s", a->search, r->at + 1, r->n, t);
	free(t);
}

/* ---- the query box ---- */

struct query_ctx {
	struct line_input in;
	struct strvec *hist;
	size_t hi; /* hist->n: the line being typed */
	char *typed;
};

static void query_draw(struct app *a, void *vctx)
{
	struct query_ctx *c = vctx;
	int w = COLS - 4 > 76 ? 76 : COLS - 4;
	static const char legend[] = "Enter: search   Up/Down: earlier searches   Esc: cancel";
	struct strvec lg = STRVEC_INIT;
	text_wrap(legend, strlen(legend), w - 4, 0, &lg);
	int h = 4 + (int)lg.n, y = (LINES - h) / 3, x = (COLS - w) / 2;
	if (y < 0)
		y = 0;
	attr_t at = app_attr(a, TH_DIALOG);
	draw_fill(stdscr, y, x, h, w, at);
	draw_box(stdscr, y, x, h, w, at, !app_utf8(a));
	draw_str(stdscr, y, x + 2, w - 4, " Search labels, keys, values and help ", at | A_BOLD);
	int cc = line_input_draw(&c->in, stdscr, y + 1, x + 2, w - 4, app_attr(a, TH_INPUT));
	for (size_t r = 0; r < lg.n; r++)
		draw_str(stdscr, y + 3 + (int)r, x + 2, w - 4, lg.v[r], at | A_DIM);
	strvec_release(&lg);
	curs_set(1);
	wmove(stdscr, y + 1, x + 2 + cc);
	wnoutrefresh(stdscr);
	doupdate();
}

static void recall(struct query_ctx *c, size_t to)
{
	if (c->hi == c->hist->n) {
		free(c->typed);
		c->typed = line_input_text(&c->in);
	}
	c->hi = to;
	line_input_release(&c->in);
	line_input_init(&c->in, to == c->hist->n ? c->typed : c->hist->v[to]);
}

static char *ask_query(struct app *a)
{
	struct query_ctx c = { { 0 }, &a->search_hist, a->search_hist.n, NULL };
	line_input_init(&c.in, ""); /* empty: typing used to append to the last query */
	char *out = NULL;
	for (;;) {
		app_draw(a);
		query_draw(a, &c);
		int k = app_getkey(a, query_draw, &c);
		if (k == K_FN(KEY_UP)) {
			if (c.hi > 0)
				recall(&c, c.hi - 1);
			continue;
		}
		if (k == K_FN(KEY_DOWN)) {
			if (c.hi < c.hist->n)
				recall(&c, c.hi + 1);
			continue;
		}
		if (k == K_TERMINATE || k == K_CTRL('c'))
			break;
		int r = line_input_key(&c.in, k);
		if (r == INPUT_DONE) {
			out = line_input_text(&c.in);
			break;
		}
		if (r == INPUT_CANCEL)
			break;
	}
	curs_set(0);
	line_input_release(&c.in);
	free(c.typed);
	return out;
}

/* ---- the result list ---- */

static int choose_hit(struct app *a, const struct search_result *r)
{
	const char **items = xcalloc(r->n + 1, sizeof(char *));
	const char **help = xcalloc(r->n + 1, sizeof(char *));
	for (size_t i = 0; i < r->n; i++) {
		const struct search_hit *h = &r->v[i];
		items[i] = hit_text(a, h);
		help[i] = xasprintf("%s%s%s\nmatched: its %s", h->heading ? h->heading : "",
				    h->heading ? "\n" : "", h->label, h->what);
	}
	char *title = xasprintf("%zu hit%s for '%s' (Enter: jump)", r->n, r->n == 1 ? "" : "s",
				a->search);
	int k = app_choose(a, title, items, help, r->n, 0);
	free(title);
	for (size_t i = 0; i < r->n; i++) {
		free((char *)items[i]);
		free((char *)help[i]);
	}
	free(items);
	free(help);
	return k;
}

void app_find(struct app *a, int dir, int ask)
{
	if (!app_cur_form(a))
		return;
	struct search_result *r = a->search_res;
	if (ask || !a->search || !r) {
		char *s = ask_query(a);
		if (!s || !*s) {
			free(s);
			return;
		}
		if (!a->search_hist.n || strcmp(a->search_hist.v[a->search_hist.n - 1], s))
			strvec_push(&a->search_hist, s);
		free(a->search);
		a->search = s;
		result_free(a->search_res);
		a->search_res = r = search_all(a, s);
		if (!r->n) {
			app_error(a, "'%s' not found in the labels, keys, values, texts or help of any screen", s);
			return;
		}
		int k = r->n == 1 ? 0 : choose_hit(a, r);
		if (k < 0)
			return;
		r->at = (size_t)k;
	} else if (r->n) {
		r->at = (r->at + r->n + (size_t)(dir > 0 ? 1 : r->n - 1)) % r->n;
	}
	if (!r->n)
		return;
	a->pane = PANE_MAIN;
	a->narrow_view = VIEW_FORM;
	if (!jump(a, &r->v[r->at])) {
		app_error(a, "'%s' is no longer shown; search again with /", r->v[r->at].key);
		return;
	}
	say_where(a, r);
}
