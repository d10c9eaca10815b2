/* draw.c — UTF-8 text and boxes on curses windows (see draw.h). */
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tui/draw.h"

size_t utf8_decode(const char *s, size_t len, unsigned *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned c = u[0], need, min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if ((c & 0xe0) == 0xc0) {
		need = 1, min = 0x80, c &= 0x1f;
	} else if ((c & 0xf0) == 0xe0) {
		need = 2, min = 0x800, c &= 0x0f;
	} else if ((c & 0xf8) == 0xf0) {
		need = 3, min = 0x10000, c &= 0x07;
	} else {
		*cp = 0xfffd;
		return 1;
	}
	if (len < need + 1) {
		*cp = 0xfffd;
		return 1;
	}
	for (unsigned i = 1; i <= need; i++) {
		if ((u[i] & 0xc0) != 0x80) {
			*cp = 0xfffd;
			return 1;
		}
		c = (c << 6) | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c < 0xe000)) {
		*cp = 0xfffd;
		return 1;
	}
	*cp = c;
	return need + 1;
}

/* What a character the texts use is drawn as when the locale is not UTF-8
 * (LANG=C): the terminal could not show it, and a '?' in "4 workers ? 1 GPU"
 * hides the meaning.  NULL: no spelling, drawn as '?'. */
static const char *ascii_for(unsigned cp)
{
	switch (cp) {
	case 0xd7: return "x";     /* multiplication sign */
	case 0x2014: return "--";  /* em dash */
	case 0x2013: return "-";   /* en dash */
	case 0x2026: return "..."; /* ellipsis */
	case 0x2192: return "->";
	case 0x2190: return "<-";
	case 0x2264: return "<=";
	case 0x2265: return ">=";
	case 0x2018: case 0x2019: return "'";
	case 0x201c: case 0x201d: return "\"";
	case 0x2022: case 0xb7: return "*";
	case 0x25be: case 0x25bc: return "v";
	case 0x25b8: case 0x25b6: return ">";
	case 0x2713: return "ok";
	case 0xa0: return " ";
	default: return NULL;
	}
}

static int ascii_locale(void)
{
	return MB_CUR_MAX == 1;
}

int cp_width(unsigned cp)
{
	if (cp < 32 || cp == 127)
		return 1; /* shown as '?' */
	if (cp < 127)
		return 1;
	if (ascii_locale()) {
		const char *s = ascii_for(cp);
		return s ? (int)strlen(s) : 1;
	}
	int w = wcwidth((wchar_t)cp);
	if (w < 0)
		return 1;
	return w;
}

int utf8_width(const char *s, size_t len)
{
	int w = 0;
	for (size_t i = 0; i < len && s[i];) {
		unsigned cp;
		i += utf8_decode(s + i, len - i, &cp);
		w += cp_width(cp);
	}
	return w;
}

size_t utf8_fit(const char *s, size_t len, int cells)
{
	int w = 0;
	size_t i = 0;
	while (i < len && s[i]) {
		unsigned cp;
		size_t n = utf8_decode(s + i, len - i, &cp);
		int cw = cp_width(cp);
		if (w + cw > cells)
			break;
		w += cw;
		i += n;
	}
	return i;
}

/* Cells of printable ASCII put at once, with their attributes: waddnstr
 * takes each byte through the multibyte decoder and wcwidth, which was most
 * of a redraw.  The window has no background of its own (the theme colours
 * every cell it draws), so a cell put as it is looks as waddch makes it. */
#define RUN_CELLS 256

int draw_text(WINDOW *w, int y, int x, int maxw, const char *s, size_t len, attr_t attr, int pad)
{
	int used = 0;
	if (maxw <= 0)
		return 0;
	/* the cells past the window's edge are cut, never wrapped */
	int edge = getmaxx(w) - x;
	if (edge < maxw)
		maxw = edge > 0 ? edge : 0;
	wattr_set(w, attr, PAIR_NUMBER(attr), NULL);
	for (size_t i = 0; s && i < len && s[i] && s[i] != '\n';) {
		size_t run = 0;
		chtype cells[RUN_CELLS];
		while (i + run < len && used + (int)run < maxw && run < RUN_CELLS &&
		       s[i + run] >= 32 && s[i + run] < 127) {
			cells[run] = (chtype)(unsigned char)s[i + run] | attr;
			run++;
		}
		if (run) {
			mvwaddchnstr(w, y, x + used, cells, (int)run);
			i += run;
			used += (int)run;
			continue;
		}
		if (used >= maxw)
			break;
		unsigned cp;
		size_t n = utf8_decode(s + i, len - i, &cp);
		i += n;
		if (cp == '\r' && (i >= len || s[i] == '\n' || !s[i]))
			continue;
		if (cp == '\t' || cp == 0xa0)
			cp = ' '; /* a no-break space only steers text_wrap */
		if (cp < 32 || cp == 127 || (cp >= 0x80 && cp < 0xa0))
			cp = '?';
		if (cp >= 128 && ascii_locale()) {
			/* not a UTF-8 locale: the terminal could not show it */
			const char *asc = ascii_for(cp);
			int aw = asc ? (int)strlen(asc) : 1;
			if (used + aw > maxw)
				break;
			wmove(w, y, x + used);
			for (const char *c = asc ? asc : "?"; *c; c++)
				waddch(w, (chtype)(unsigned char)*c | attr);
			used += aw;
			continue;
		}
		int cw = cp_width(cp);
		if (cw == 0) {
			/* a combining mark joins the previous cell */
			continue;
		}
		if (used + cw > maxw)
			break;
		wmove(w, y, x + used);
		if (cp < 128) {
			waddch(w, cp | attr);
		} else {
			wchar_t wc[2] = { (wchar_t)cp, 0 };
			cchar_t cc;
			if (setcchar(&cc, wc, attr, PAIR_NUMBER(attr), NULL) == OK)
				wadd_wch(w, &cc);
			else
				waddch(w, '?' | attr);
		}
		used += cw;
	}
	if (pad && used < maxw) {
		mvwhline(w, y, x + used, ' ' | attr, maxw - used);
		used = maxw;
	}
	/* where the text ends, as waddnstr leaves it */
	wmove(w, y, x + used);
	wattr_set(w, A_NORMAL, 0, NULL);
	return used;
}

int draw_str(WINDOW *w, int y, int x, int maxw, const char *s, attr_t attr)
{
	return draw_text(w, y, x, maxw, s, s ? strlen(s) : 0, attr, 0);
}

void draw_fill(WINDOW *w, int y, int x, int h, int width, attr_t attr)
{
	/* one whline per row: a cell at a time cost more than the rest of a redraw */
	for (int r = 0; r < h && width > 0; r++)
		mvwhline(w, y + r, x, ' ' | attr, width);
}

void draw_box(WINDOW *w, int y, int x, int h, int width, attr_t attr, int ascii)
{
	if (h < 2 || width < 2)
		return;
	chtype hl = ascii ? '-' : ACS_HLINE, vl = ascii ? '|' : ACS_VLINE;
	chtype tl = ascii ? '+' : ACS_ULCORNER, tr = ascii ? '+' : ACS_URCORNER;
	chtype bl = ascii ? '+' : ACS_LLCORNER, br = ascii ? '+' : ACS_LRCORNER;
	/* a line at a time: a cell at a time was a redraw's every border cell
	 * through waddch */
	mvwaddch(w, y, x, tl | attr);
	mvwaddch(w, y + h - 1, x, bl | attr);
	if (width > 2) {
		mvwhline(w, y, x + 1, hl | attr, width - 2);
		mvwhline(w, y + h - 1, x + 1, hl | attr, width - 2);
	}
	mvwaddch(w, y, x + width - 1, tr | attr);
	mvwaddch(w, y + h - 1, x + width - 1, br | attr);
	if (h > 2) {
		mvwvline(w, y + 1, x, vl | attr, h - 2);
		mvwvline(w, y + 1, x + width - 1, vl | attr, h - 2);
	}
}

/* ---- soft wrapping ---------------------------------------------------------- */

/* indent spaces and n bytes of s as a new row of out: without a printf
 * per row, wrapping a long preview costs a copy. */
static void push_row(struct strvec *out, int indent, const char *s, size_t n)
{
	char *r = xmalloc((size_t)indent + n + 1);
	memset(r, ' ', (size_t)indent);
	memcpy(r + indent, s, n);
	r[(size_t)indent + n] = 0;
	strvec_push_nodup(out, r);
}

int text_wrap(const char *s, size_t len, int width, int indent, struct strvec *out)
{
	int rows = 0;
	if (width < 2)
		width = 2;
	if (indent > width / 2)
		indent = width / 2;
	for (;;) {
		int room = rows ? width - indent : width;
		size_t fit = utf8_fit(s, len, room);
		if (fit >= len) {
			push_row(out, rows ? indent : 0, s, len);
			return rows + 1;
		}
		/* break at the last space that fits, keeping at least one cell */
		size_t cut = fit;
		while (cut > 0 && s[cut] != ' ')
			cut--;
		size_t next = cut;
		if (cut == 0) {
			cut = fit ? fit : utf8_fit(s, len, room + 2); /* a wide char in one cell */
			if (!cut)
				cut = 1;
			next = cut;
		}
		while (cut > 0 && s[cut - 1] == ' ')
			cut--;
		push_row(out, rows ? indent : 0, s, cut);
		rows++;
		while (next < len && s[next] == ' ')
			next++;
		s += next;
		len -= next;
		if (!len)
			return rows;
	}
}

int text_hang(const char *s, size_t len, int width, int extra)
{
	size_t lead = 0;
	while (lead < len && s[lead] == ' ')
		lead++;
	/* a second column: two spaces or more after the first word(s) */
	for (size_t i = lead; i + 2 < len; i++)
		if (s[i] != ' ' && s[i + 1] == ' ' && s[i + 2] == ' ') {
			size_t j = i + 1;
			while (j < len && s[j] == ' ')
				j++;
			int col = utf8_width(s, j);
			if (j < len && col <= width / 2)
				return col;
			break;
		}
	int col = (int)lead + extra;
	return col <= width / 2 ? col : width / 2;
}

int text_wrap_all(const char *text, int width, int extra, struct strvec *out)
{
	int rows = 0;
	const char *p = text ? text : "";
	do {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (!nl && !len && rows)
			break; /* a final newline ends the text, it adds no row */
		rows += text_wrap(p, len, width, text_hang(p, len, width, extra), out);
		p += len + (nl ? 1 : 0);
	} while (*p);
	return rows;
}
