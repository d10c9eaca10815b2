/* widget_dialog.c — modal dialogs over the app: confirm, prompt, choice
 * list, text viewer, external editor (app.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/fileio.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/widget.h"

/* A centred box of at most maxw x maxh; returns its geometry. */
static void box_geom(int want_w, int want_h, int *y, int *x, int *h, int *w)
{
	*w = want_w + 4;
	if (*w > COLS - 2)
		*w = COLS - 2;
	if (*w < 10)
		*w = COLS;
	*h = want_h + 2;
	if (*h > LINES - 2)
		*h = LINES - 2;
	if (*h < 3)
		*h = LINES;
	*y = (LINES - *h) / 2;
	*x = (COLS - *w) / 2;
	if (*y < 0)
		*y = 0;
	if (*x < 0)
		*x = 0;
}

static void frame(struct app *a, int y, int x, int h, int w, const char *title)
{
	attr_t at = app_attr(a, TH_DIALOG);
	draw_fill(stdscr, y, x, h, w, at);
	draw_box(stdscr, y, x, h, w, at, !app_utf8(a));
	if (title) {
		char *t = xasprintf(" %s ", title);
		draw_str(stdscr, y, x + 2, w - 4, t, at | A_BOLD);
		free(t);
	}
}

static int text_lines(const char *s, int *maxw)
{
	int n = 0;
	*maxw = 0;
	while (s && *s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		int w = utf8_width(s, len);
		if (w > *maxw)
			*maxw = w;
		n++;
		s += len + (nl ? 1 : 0);
	}
	return n;
}

/* ---- confirm ---- */

static int confirm_loop(struct app *a, const char *title, const char *text, const char *answers);

struct confirm_ctx {
	const char *title, *text;
};

static void confirm_draw(struct app *a, void *vctx)
{
	struct confirm_ctx *c = vctx;
	int tw;
	text_lines(c->text, &tw);
	if (tw > COLS - 6)
		tw = COLS - 6; /* a long path or question wraps instead */
	struct strvec rows = STRVEC_INIT;
	text_wrap_all(c->text, tw, 0, &rows);
	int y, x, h, w;
	box_geom(tw, (int)rows.n, &y, &x, &h, &w);
	frame(a, y, x, h, w, c->title);
	for (int r = 0; r < h - 2 && r < (int)rows.n; r++)
		draw_str(stdscr, y + 1 + r, x + 2, w - 4, rows.v[r], app_attr(a, TH_DIALOG));
	strvec_release(&rows);
	wnoutrefresh(stdscr);
	doupdate();
}

/* What Esc answers: never the destructive choice.  "ny" used to return y on
 * Esc (remove, overwrite), "ynd" d (delete the rescued edits). */
static int confirm_cancel(const char *answers)
{
	if (strchr(answers, 'c'))
		return 'c';
	if (strchr(answers, 'n'))
		return 'n';
	return answers[strlen(answers) - 1];
}

/* A question that does not say which keys answer it gets a line that does:
 * "Remove the service?" alone left the user guessing y, Enter or Delete. */
static char *with_answer_line(const char *text, const char *answers)
{
	for (const char *p = answers; *p; p++) {
		char k[4] = { *p, ':', ' ', 0 };
		if (strstr(text, k))
			return NULL;
	}
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s\n", text);
	for (const char *p = answers; *p; p++)
		strbuf_addf(&sb, "%s%c: %s", p == answers ? "" : "   ", *p,
			    *p == 'y' ? "yes" : *p == 'n' ? "no" : *p == 'c' ? "cancel" : "");
	strbuf_addf(&sb, "   (Enter: %c, Esc: %c)", answers[0], confirm_cancel(answers));
	return strbuf_detach(&sb, NULL);
}

int app_confirm(struct app *a, const char *title, const char *text, const char *answers)
{
	char *own = with_answer_line(text, answers);
	int k = confirm_loop(a, title, own ? own : text, answers);
	free(own);
	return k;
}

static int confirm_loop(struct app *a, const char *title, const char *text, const char *answers)
{
	struct confirm_ctx c = { title, text };
	unsigned long seen = 0;
	for (;;) {
		app_draw_under_dialog(a, &seen);
		confirm_draw(a, &c);
		int k = app_getkey(a, confirm_draw, &c);
		if (k == K_TERMINATE || k == K_ESC || k == K_CTRL('c') || k == K_CTRL('g'))
			return confirm_cancel(answers);
		if (k == K_ENTER)
			return answers[0];
		if (k > 0 && k < 128) {
			int lk = k >= 'A' && k <= 'Z' ? k + 32 : k;
			if (strchr(answers, lk))
				return lk;
		}
		beep();
	}
}

/* ---- prompt ---- */

struct prompt_ctx {
	const char *title;
	struct line_input in;
	const char *err;
};

static void prompt_draw(struct app *a, void *vctx)
{
	struct prompt_ctx *p = vctx;
	int want = COLS - 10;
	if (want > 100)
		want = 100;
	int y, x, h, w;
	/* the legend wraps on a narrow terminal instead of losing its end */
	static const char legend[] = "Enter: accept   Esc: cancel   Ctrl-U: clear";
	struct strvec lg = STRVEC_INIT;
	text_wrap(legend, strlen(legend), (want < COLS - 6 ? want : COLS - 6), 0, &lg);
	box_geom(want, 2 + (int)lg.n, &y, &x, &h, &w);
	frame(a, y, x, h, w, p->title);
	int cc = line_input_draw(&p->in, stdscr, y + 1, x + 2, w - 4, app_attr(a, TH_INPUT));
	for (size_t r = 0; r < lg.n && 3 + (int)r < h - 1; r++)
		draw_str(stdscr, y + 3 + (int)r, x + 2, w - 4, lg.v[r], app_attr(a, TH_DIALOG));
	strvec_release(&lg);
	curs_set(1);
	wmove(stdscr, y + 1, x + 2 + cc);
	wnoutrefresh(stdscr);
	doupdate();
}

char *app_prompt(struct app *a, const char *title, const char *initial)
{
	struct prompt_ctx p = { title, { 0 }, NULL };
	line_input_init(&p.in, initial);
	char *out = NULL;
	unsigned long seen = 0;
	for (;;) {
		app_draw_under_dialog(a, &seen);
		prompt_draw(a, &p);
		int k = app_getkey(a, prompt_draw, &p);
		int r = line_input_key(&p.in, k);
		if (r == INPUT_DONE) {
			out = line_input_text(&p.in);
			break;
		}
		if (r == INPUT_CANCEL)
			break;
	}
	curs_set(0);
	line_input_release(&p.in);
	return out;
}

/* ---- choose ---- */

struct choose_ctx {
	const char *title;
	const char *const *items, *const *help;
	size_t n;
	int sel, top;
};

static void choose_draw(struct app *a, void *vctx)
{
	struct choose_ctx *c = vctx;
	int maxw = c->title ? (int)strlen(c->title) + 4 : 10;
	for (size_t i = 0; i < c->n; i++) {
		int w = utf8_width(c->items[i], strlen(c->items[i])) + 4;
		if (w > maxw)
			maxw = w;
	}
	int helph = 0;
	if (c->help) {
		/* room for the longest explanation, wrapped at the dialog's width */
		int bw = (maxw < 40 ? 60 : maxw) + 4;
		if (bw > COLS - 2)
			bw = COLS - 2;
		for (size_t i = 0; i < c->n; i++) {
			struct strvec rows = STRVEC_INIT;
			int r = c->help[i] ? text_wrap_all(c->help[i], bw - 4, 0, &rows) : 0;
			strvec_release(&rows);
			if (r > helph)
				helph = r;
		}
		if (helph < 3)
			helph = 3;
		if (helph > 6)
			helph = 6;
	}
	int y, x, h, w;
	box_geom(maxw < 40 && c->help ? 60 : maxw, (int)c->n + helph, &y, &x, &h, &w);
	frame(a, y, x, h, w, c->title);
	int list_h = h - 2 - helph;
	if (list_h < 1)
		list_h = 1;
	if (c->sel < c->top)
		c->top = c->sel;
	if (c->sel >= c->top + list_h)
		c->top = c->sel - list_h + 1;
	for (int r = 0; r < list_h && c->top + r < (int)c->n; r++) {
		int i = c->top + r;
		attr_t at = i == c->sel ? app_attr(a, TH_FOCUS) : app_attr(a, TH_DIALOG);
		char *line = xasprintf("%s %s", i == c->sel ? ">" : " ", c->items[i]);
		draw_fill(stdscr, y + 1 + r, x + 1, 1, w - 2, at);
		draw_str(stdscr, y + 1 + r, x + 1, w - 2, line, at);
		free(line);
	}
	if (c->help && c->help[c->sel]) {
		/* the explanation is why the list has help: wrap it, never cut it */
		struct strvec rows = STRVEC_INIT;
		text_wrap_all(c->help[c->sel], w - 4, 0, &rows);
		for (int r = 0; r < helph && r < (int)rows.n; r++)
			draw_str(stdscr, y + 1 + list_h + r, x + 2, w - 4, rows.v[r],
				 app_attr(a, TH_DIALOG) | A_DIM);
		strvec_release(&rows);
	}
	wnoutrefresh(stdscr);
	doupdate();
}

int app_choose(struct app *a, const char *title, const char *const *items,
	       const char *const *help, size_t n, int current)
{
	if (!n)
		return -1;
	struct choose_ctx c = { title, items, help, n, current >= 0 && (size_t)current < n ? current : 0, 0 };
	unsigned long seen = 0;
	for (;;) {
		app_draw_under_dialog(a, &seen);
		choose_draw(a, &c);
		int k = app_getkey(a, choose_draw, &c);
		switch (k) {
		case K_TERMINATE:
		case K_ESC:
		case K_CTRL('c'):
		case 'q':
			return -1;
		case K_ENTER:
		case ' ':
			return c.sel;
		case K_FN(KEY_UP):
		case 'k':
			if (c.sel > 0)
				c.sel--;
			break;
		case K_FN(KEY_DOWN):
		case 'j':
			if (c.sel + 1 < (int)n)
				c.sel++;
			break;
		case K_FN(KEY_HOME):
			c.sel = 0;
			break;
		case K_FN(KEY_END):
			c.sel = (int)n - 1;
			break;
		case K_FN(KEY_PPAGE):
			c.sel = c.sel > 10 ? c.sel - 10 : 0;
			break;
		case K_FN(KEY_NPAGE):
			c.sel = c.sel + 10 < (int)n ? c.sel + 10 : (int)n - 1;
			break;
		default:
			/* first letter jumps */
			if (k > ' ' && k < 128)
				for (size_t i = 1; i <= n; i++) {
					size_t j = ((size_t)c.sel + i) % n;
					if (items[j][0] == k) {
						c.sel = (int)j;
						break;
					}
				}
		}
	}
}

/* ---- text viewer ---- */

struct text_ctx {
	const char *title, *text;
	struct scroll_view v;
	struct strbuf wrapped; /* text wrapped at wrap_w cells */
	int wrap_w;
};

/* The whole width: with a column left on each side, the screen behind
 * showed its own scroll arrow beside the frame, as if it were the text's. */
static void text_geom(int *y, int *x, int *h, int *w)
{
	*y = 1, *x = 0, *h = LINES - 2, *w = COLS;
	if (COLS < 20 || LINES < 6)
		*y = 0, *x = 0, *h = LINES, *w = COLS;
}

/* Help and command output wrap at the box's width (again after a resize):
 * a cut-off line would hide the end of a sentence or an error. */
static const char *text_shown(struct text_ctx *t)
{
	int y, x, h, w;
	text_geom(&y, &x, &h, &w);
	if (t->wrap_w != w - 3) {
		struct strvec rows = STRVEC_INIT;
		t->wrap_w = w - 3;
		text_wrap_all(t->text, t->wrap_w, 0, &rows);
		strbuf_reset(&t->wrapped);
		for (size_t i = 0; i < rows.n; i++)
			strbuf_addf(&t->wrapped, "%s\n", rows.v[i]);
		strvec_release(&rows);
	}
	return sb_str(&t->wrapped);
}

static void text_draw(struct app *a, void *vctx)
{
	struct text_ctx *t = vctx;
	int y, x, h, w;
	text_geom(&y, &x, &h, &w);
	frame(a, y, x, h, w, t->title);
	static const char legend[] = "Up/Down/PgUp/PgDn: scroll   Esc or q: close";
	struct strvec lg = STRVEC_INIT;
	text_wrap(legend, strlen(legend), w - 4, 0, &lg);
	int lh = (int)lg.n;
	panel_text_draw(a, stdscr, y + 1, x + 1, h - 2 - lh, w - 2, text_shown(t), &t->v, 1, 0);
	for (int r = 0; r < lh; r++)
		draw_str(stdscr, y + h - 1 - lh + r, x + 2, w - 4, lg.v[r],
			 app_attr(a, TH_DIALOG) | A_DIM);
	strvec_release(&lg);
	wnoutrefresh(stdscr);
	doupdate();
}

void app_show_text(struct app *a, const char *title, const char *text)
{
	struct text_ctx t = { title, text, { 0, -1, 0, 0, 0 }, STRBUF_INIT, -1 };
	unsigned long seen = 0;
	for (;;) {
		app_draw_under_dialog(a, &seen);
		text_draw(a, &t);
		int k = app_getkey(a, text_draw, &t);
		if (k == K_TERMINATE || k == K_ESC || k == 'q' || k == K_ENTER || k == K_CTRL('c') ||
		    k == K_FN(KEY_F(10)) || k == K_FN(KEY_F(1)))
			break;
		panel_text_key(&t.v, text_shown(&t), k, LINES - 5);
	}
	strbuf_release(&t.wrapped);
}

/* ---- external editor ---- */

char *app_edit_external_n(struct app *a, const char *text, size_t len, size_t *out_len)
{
	const char *ed = getenv("VISUAL");
	if (!ed || !*ed)
		ed = getenv("EDITOR");
	if (!ed || !*ed)
		ed = "vi";
	char tmpl[] = "/tmp/srt-tui-edit-XXXXXX.yaml";
	int fd = mkstemps(tmpl, 5);
	if (fd < 0) {
		app_error(a, "cannot create a temporary file: %s", strerror(errno));
		return NULL;
	}
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		unlink(tmpl);
		app_error(a, "cannot write a temporary file: %s", strerror(errno));
		return NULL;
	}
	close(fd);
	def_prog_mode();
	endwin();
	char *cmd = xasprintf("%s \"$1\"", ed);
	pid_t pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, "sh", tmpl, (char *)NULL);
		_exit(127);
	}
	int status = 0;
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	free(cmd);
	reset_prog_mode();
	refresh();
	char *out = NULL, *err = NULL;
	size_t olen = 0;
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		/* the text may still be worth having: keep the file */
		app_error(a, "the editor '%s' failed; nothing changed (its file: %s)", ed, tmpl);
		return NULL;
	} else if (file_read(tmpl, &out, &olen, &err)) {
		app_error(a, "%s", err);
		free(err);
		out = NULL;
	} else if (olen == len && !memcmp(out, text, len)) {
		free(out);
		out = NULL;
	}
	unlink(tmpl);
	if (out_len)
		*out_len = olen;
	return out;
}

char *app_edit_external(struct app *a, const char *text)
{
	size_t len;
	char *out = app_edit_external_n(a, text, strlen(text), &len);
	/* a NUL would cut the text short where a string is expected */
	if (out && memchr(out, '\0', len)) {
		app_error(a, "the edited text has a NUL byte (at byte %zu); nothing changed",
			  (size_t)((char *)memchr(out, '\0', len) - out));
		free(out);
		return NULL;
	}
	return out;
}
