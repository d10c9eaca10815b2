/*
 * vt.h — just enough of a terminal emulator for bench_tui to know what the
 * screen of the program under test shows: it keeps a rows x cols grid of
 * characters and applies the output ncurses writes for TERM=xterm-256color
 * (cursor moves, erases, insert/delete of lines and characters, scroll
 * regions, repeat, UTF-8 text).  Colours and modes are read and ignored.
 * Header only, for one benchmark; not a general terminal.
 */
#ifndef SRT_BENCH_VT_H
#define SRT_BENCH_VT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

struct vt {
	int rows, cols;
	uint32_t *cell;         /* rows * cols code points */
	int cy, cx, wrapnext;
	int top, bot;           /* scroll region, inclusive */
	int sy, sx;             /* saved cursor */
	uint32_t last;          /* last printed character, for REP */
	int state;              /* parser state, see vt_feed */
	int priv, np, param[16];
	uint32_t u8;            /* UTF-8 code point being assembled */
	int u8left;
	struct strbuf reply;    /* answers owed to the program (cursor reports) */
};

enum { VT_GROUND, VT_ESC, VT_CSI, VT_STR, VT_STR_ESC, VT_CHARSET };

static inline void vt_init(struct vt *t, int rows, int cols)
{
	memset(t, 0, sizeof(*t));
	t->rows = rows;
	t->cols = cols;
	t->cell = xmalloc((size_t)rows * (size_t)cols * sizeof(uint32_t));
	for (int i = 0; i < rows * cols; i++)
		t->cell[i] = ' ';
	t->bot = rows - 1;
	strbuf_init(&t->reply);
}

static inline void vt_release(struct vt *t)
{
	free(t->cell);
	strbuf_release(&t->reply);
}

static inline uint32_t *vt_at(struct vt *t, int y, int x) { return &t->cell[y * t->cols + x]; }

static inline void vt_blank(struct vt *t, int y, int x0, int x1) /* [x0, x1) */
{
	for (int x = x0 < 0 ? 0 : x0; x < x1 && x < t->cols; x++)
		*vt_at(t, y, x) = ' ';
}

/* Scroll rows [top, bot] up by n (n < 0: down). */
static inline void vt_scroll(struct vt *t, int top, int bot, int n)
{
	int h = bot - top + 1;
	if (n > h)
		n = h;
	if (n < -h)
		n = -h;
	size_t w = (size_t)t->cols * sizeof(uint32_t);
	if (n > 0) {
		memmove(vt_at(t, top, 0), vt_at(t, top + n, 0), (size_t)(h - n) * w);
		for (int y = bot - n + 1; y <= bot; y++)
			vt_blank(t, y, 0, t->cols);
	} else if (n < 0) {
		n = -n;
		memmove(vt_at(t, top + n, 0), vt_at(t, top, 0), (size_t)(h - n) * w);
		for (int y = top; y < top + n; y++)
			vt_blank(t, y, 0, t->cols);
	}
}

static inline void vt_linefeed(struct vt *t)
{
	if (t->cy == t->bot)
		vt_scroll(t, t->top, t->bot, 1);
	else if (t->cy < t->rows - 1)
		t->cy++;
}

static inline void vt_clamp(struct vt *t)
{
	if (t->cy < 0)
		t->cy = 0;
	if (t->cy >= t->rows)
		t->cy = t->rows - 1;
	if (t->cx < 0)
		t->cx = 0;
	if (t->cx >= t->cols)
		t->cx = t->cols - 1;
	t->wrapnext = 0;
}

static inline void vt_print(struct vt *t, uint32_t c)
{
	if (t->wrapnext) {
		t->cx = 0;
		vt_linefeed(t);
		t->wrapnext = 0;
	}
	*vt_at(t, t->cy, t->cx) = c;
	t->last = c;
	if (t->cx == t->cols - 1)
		t->wrapnext = 1;
	else
		t->cx++;
}

static inline int vt_p(const struct vt *t, int i, int dflt)
{
	return i < t->np && t->param[i] > 0 ? t->param[i] : dflt;
}

static inline void vt_csi(struct vt *t, int final)
{
	int n = vt_p(t, 0, 1);
	if (t->priv) /* ?h ?l (modes), >c ... : nothing the grid shows */
		return;
	switch (final) {
	case '@': { /* ICH */
		int x = t->cx, k = n > t->cols - x ? t->cols - x : n;
		memmove(vt_at(t, t->cy, x + k), vt_at(t, t->cy, x), (size_t)(t->cols - x - k) * sizeof(uint32_t));
		vt_blank(t, t->cy, x, x + k);
		break;
	}
	case 'A': t->cy -= n; if (t->cy < t->top && t->cy + n >= t->top) t->cy = t->top; vt_clamp(t); break;
	case 'B': case 'e': t->cy += n; if (t->cy > t->bot && t->cy - n <= t->bot) t->cy = t->bot; vt_clamp(t); break;
	case 'C': case 'a': t->cx += n; vt_clamp(t); break;
	case 'D': t->cx -= n; vt_clamp(t); break;
	case 'E': t->cy += n; t->cx = 0; vt_clamp(t); break;
	case 'F': t->cy -= n; t->cx = 0; vt_clamp(t); break;
	case 'G': case '`': t->cx = n - 1; vt_clamp(t); break;
	case 'd': t->cy = n - 1; vt_clamp(t); break;
	case 'H': case 'f': t->cy = vt_p(t, 0, 1) - 1; t->cx = vt_p(t, 1, 1) - 1; vt_clamp(t); break;
	case 'I': for (int i = 0; i < n; i++) t->cx = (t->cx / 8 + 1) * 8; vt_clamp(t); break;
	case 'Z': for (int i = 0; i < n; i++) t->cx = t->cx ? (t->cx - 1) / 8 * 8 : 0; vt_clamp(t); break;
	case 'J': {
		int m = t->np ? t->param[0] : 0;
		if (m == 0) {
			vt_blank(t, t->cy, t->cx, t->cols);
			for (int y = t->cy + 1; y < t->rows; y++)
				vt_blank(t, y, 0, t->cols);
		} else if (m == 1) {
			for (int y = 0; y < t->cy; y++)
				vt_blank(t, y, 0, t->cols);
			vt_blank(t, t->cy, 0, t->cx + 1);
		} else {
			for (int y = 0; y < t->rows; y++)
				vt_blank(t, y, 0, t->cols);
		}
		break;
	}
	case 'K': {
		int m = t->np ? t->param[0] : 0;
		if (m == 0)
			vt_blank(t, t->cy, t->cx, t->cols);
		else if (m == 1)
			vt_blank(t, t->cy, 0, t->cx + 1);
		else
			vt_blank(t, t->cy, 0, t->cols);
		break;
	}
	case 'L': if (t->cy >= t->top && t->cy <= t->bot) vt_scroll(t, t->cy, t->bot, -n); t->cx = 0; break;
	case 'M': if (t->cy >= t->top && t->cy <= t->bot) vt_scroll(t, t->cy, t->bot, n); t->cx = 0; break;
	case 'P': { /* DCH */
		int x = t->cx, k = n > t->cols - x ? t->cols - x : n;
		memmove(vt_at(t, t->cy, x), vt_at(t, t->cy, x + k), (size_t)(t->cols - x - k) * sizeof(uint32_t));
		vt_blank(t, t->cy, t->cols - k, t->cols);
		break;
	}
	case 'S': vt_scroll(t, t->top, t->bot, n); break;
	case 'T': vt_scroll(t, t->top, t->bot, -n); break;
	case 'X': vt_blank(t, t->cy, t->cx, t->cx + n); break;
	case 'b': for (int i = 0; i < n; i++) vt_print(t, t->last); break;
	case 'r':
		t->top = vt_p(t, 0, 1) - 1;
		t->bot = vt_p(t, 1, t->rows) - 1;
		if (t->top < 0 || t->bot >= t->rows || t->top >= t->bot) {
			t->top = 0;
			t->bot = t->rows - 1;
		}
		t->cy = t->cx = 0;
		t->wrapnext = 0;
		break;
	case 's': t->sy = t->cy; t->sx = t->cx; break;
	case 'u': t->cy = t->sy; t->cx = t->sx; vt_clamp(t); break;
	case 'n':
		if (vt_p(t, 0, 0) == 6)
			strbuf_addf(&t->reply, "\033[%d;%dR", t->cy + 1, t->cx + 1);
		break;
	default: /* m (colours), h/l, t, c: nothing the grid shows */
		break;
	}
}

static inline void vt_feed(struct vt *t, const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];
		switch (t->state) {
		case VT_ESC:
			t->state = VT_GROUND;
			switch (c) {
			case '[': t->state = VT_CSI; t->priv = t->np = 0; memset(t->param, 0, sizeof(t->param)); break;
			case ']': case 'P': case '_': case '^': t->state = VT_STR; break;
			case '(': case ')': case '*': case '+': t->state = VT_CHARSET; break;
			case '7': t->sy = t->cy; t->sx = t->cx; break;
			case '8': t->cy = t->sy; t->cx = t->sx; vt_clamp(t); break;
			case 'D': vt_linefeed(t); break;
			case 'E': t->cx = 0; vt_linefeed(t); break;
			case 'M':
				if (t->cy == t->top)
					vt_scroll(t, t->top, t->bot, -1);
				else if (t->cy > 0)
					t->cy--;
				break;
			case 'c': {
				int r = t->rows, w = t->cols;
				vt_release(t);
				vt_init(t, r, w);
				break;
			}
			default: break; /* = > and the like */
			}
			continue;
		case VT_CHARSET:
			t->state = VT_GROUND;
			continue;
		case VT_STR: /* OSC / DCS: until BEL or ESC \ */
			if (c == 7)
				t->state = VT_GROUND;
			else if (c == 27)
				t->state = VT_STR_ESC;
			continue;
		case VT_STR_ESC:
			t->state = c == '\\' ? VT_GROUND : VT_STR;
			continue;
		case VT_CSI:
			if (c >= '0' && c <= '9') {
				if (!t->np)
					t->np = 1;
				t->param[t->np - 1] = t->param[t->np - 1] * 10 + (c - '0');
			} else if (c == ';' || c == ':') {
				if (!t->np)
					t->np = 1;
				if (t->np < 16)
					t->np++;
			} else if (c >= 0x3c && c <= 0x3f) {
				t->priv = c;
			} else if (c >= 0x20 && c <= 0x2f) {
				/* intermediates: ignored */
			} else if (c >= 0x40 && c <= 0x7e) {
				t->state = VT_GROUND;
				vt_csi(t, c);
			} else if (c == 27) {
				t->state = VT_ESC;
			}
			continue;
		default:
			break;
		}
		/* ground */
		if (t->u8left) {
			if ((c & 0xC0) == 0x80) {
				t->u8 = t->u8 << 6 | (c & 0x3F);
				if (--t->u8left == 0)
					vt_print(t, t->u8);
				continue;
			}
			t->u8left = 0; /* broken sequence: drop it */
		}
		if (c >= 0xC0) {
			t->u8left = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
			t->u8 = c & (c >= 0xF0 ? 0x07 : c >= 0xE0 ? 0x0F : 0x1F);
			continue;
		}
		switch (c) {
		case 27: t->state = VT_ESC; break;
		case '\r': t->cx = 0; t->wrapnext = 0; break;
		case '\n': case '\v': case '\f': vt_linefeed(t); t->wrapnext = 0; break;
		case '\b': if (t->cx > 0) t->cx--; t->wrapnext = 0; break;
		case '\t': t->cx = (t->cx / 8 + 1) * 8; vt_clamp(t); break;
		default:
			if (c >= 0x20 && c != 0x7f)
				vt_print(t, c);
			break;
		}
	}
}

/* Row y as UTF-8 (trailing blanks kept) into out. */
static inline void vt_row(struct vt *t, int y, struct strbuf *out)
{
	strbuf_reset(out);
	for (int x = 0; x < t->cols; x++) {
		uint32_t c = *vt_at(t, y, x);
		if (c < 0x80) {
			strbuf_addch(out, (char)c);
		} else if (c < 0x800) {
			strbuf_addch(out, (char)(0xC0 | c >> 6));
			strbuf_addch(out, (char)(0x80 | (c & 0x3F)));
		} else if (c < 0x10000) {
			strbuf_addch(out, (char)(0xE0 | c >> 12));
			strbuf_addch(out, (char)(0x80 | (c >> 6 & 0x3F)));
			strbuf_addch(out, (char)(0x80 | (c & 0x3F)));
		} else {
			strbuf_addch(out, (char)(0xF0 | c >> 18));
			strbuf_addch(out, (char)(0x80 | (c >> 12 & 0x3F)));
			strbuf_addch(out, (char)(0x80 | (c >> 6 & 0x3F)));
			strbuf_addch(out, (char)(0x80 | (c & 0x3F)));
		}
	}
}

#endif
