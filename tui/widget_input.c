/* widget_input.c — a one-line text editor over code points (widget.h). */
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "tui/draw.h"
#include "tui/widget.h"

void line_input_init(struct line_input *in, const char *s)
{
	memset(in, 0, sizeof(*in));
	size_t len = s ? strlen(s) : 0;
	for (size_t i = 0; i < len;) {
		unsigned cp;
		i += utf8_decode(s + i, len - i, &cp);
		ALLOC_GROW(in->cp, in->n + 1, in->alloc);
		in->cp[in->n++] = cp;
	}
	in->cursor = in->n;
}

void line_input_release(struct line_input *in)
{
	free(in->cp);
	memset(in, 0, sizeof(*in));
}

char *line_input_text(const struct line_input *in)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[4];
	for (size_t i = 0; i < in->n; i++)
		strbuf_add(&sb, buf, utf8_put(in->cp[i], buf));
	if (!sb.buf)
		return xstrdup("");
	return strbuf_detach(&sb, NULL);
}

static void del(struct line_input *in, size_t from, size_t to)
{
	if (to <= from || !in->cp) {
		in->cursor = from;
		return;
	}
	memmove(in->cp + from, in->cp + to, (in->n - to) * sizeof(unsigned));
	in->n -= to - from;
	in->cursor = from;
}

int line_input_key(struct line_input *in, int key)
{
	switch (key) {
	case K_ENTER:
		return INPUT_DONE;
	case K_ESC:
	case K_CTRL('g'):
	case K_TERMINATE:
		return INPUT_CANCEL;
	case K_FN(KEY_LEFT):
	case K_CTRL('b'):
		if (in->cursor)
			in->cursor--;
		return INPUT_CONTINUE;
	case K_FN(KEY_RIGHT):
	case K_CTRL('f'):
		if (in->cursor < in->n)
			in->cursor++;
		return INPUT_CONTINUE;
	case K_FN(KEY_HOME):
	case K_CTRL('a'):
		in->cursor = 0;
		return INPUT_CONTINUE;
	case K_FN(KEY_END):
	case K_CTRL('e'):
		in->cursor = in->n;
		return INPUT_CONTINUE;
	case K_FN(KEY_BACKSPACE):
	case 127:
	case K_CTRL('h'):
		if (in->cursor)
			del(in, in->cursor - 1, in->cursor);
		return INPUT_CONTINUE;
	case K_FN(KEY_DC):
	case K_CTRL('d'):
		if (in->cursor < in->n)
			del(in, in->cursor, in->cursor + 1);
		return INPUT_CONTINUE;
	case K_CTRL('k'):
		in->n = in->cursor;
		return INPUT_CONTINUE;
	case K_CTRL('u'):
		del(in, 0, in->cursor);
		return INPUT_CONTINUE;
	case K_CTRL('w'): {
		size_t i = in->cursor;
		while (i && in->cp[i - 1] == ' ')
			i--;
		while (i && in->cp[i - 1] != ' ')
			i--;
		del(in, i, in->cursor);
		return INPUT_CONTINUE;
	}
	}
	if (K_IS_TEXT(key) || key == '\t') {
		if (key == '\t')
			key = ' ';
		ALLOC_GROW(in->cp, in->n + 1, in->alloc);
		memmove(in->cp + in->cursor + 1, in->cp + in->cursor,
			(in->n - in->cursor) * sizeof(unsigned));
		in->cp[in->cursor++] = (unsigned)key;
		in->n++;
		return INPUT_CONTINUE;
	}
	return INPUT_IGNORED;
}

int line_input_draw(const struct line_input *in, WINDOW *w, int y, int x, int width, attr_t attr)
{
	struct line_input *m = (struct line_input *)in; /* scroll is view state */
	if (width < 2)
		return 0;
	if (m->scroll > m->cursor)
		m->scroll = m->cursor;
	/* keep the cursor inside the field */
	for (;;) {
		int cells = 0;
		for (size_t i = m->scroll; i < m->cursor; i++)
			cells += cp_width(m->cp[i]);
		if (cells < width - 1 || m->scroll >= m->cursor)
			break;
		m->scroll++;
	}
	struct strbuf sb = STRBUF_INIT;
	char buf[4];
	int ccol = 0, cells = 0;
	for (size_t i = m->scroll; i < m->n; i++) {
		if (i == m->cursor)
			ccol = cells;
		cells += cp_width(m->cp[i]);
		strbuf_add(&sb, buf, utf8_put(m->cp[i], buf));
	}
	if (m->cursor == m->n)
		ccol = cells;
	draw_text(w, y, x, width, sb_str(&sb), sb.len, attr, 1);
	strbuf_release(&sb);
	if (ccol >= width)
		ccol = width - 1;
	return ccol;
}
