/*
 * rich.c — Rich's plain-text layout (see rich.h).  Written from Rich's
 * rules, as measured against python3-rich (tests/cli/rich_crosscheck.sh):
 *
 * - Cells: a code point is 0, 1 or 2 cells (rich_cellwidth.h).
 * - Text wrap (Text.wrap): split at "\n"; tabs to the next multiple of 8
 *   characters; words are runs "spaces, non-spaces, spaces"; a word goes to
 *   a new line when the line's cells plus its cells without trailing spaces
 *   pass the width; a word wider than the whole width is folded into pieces
 *   (overflow "fold": the texts of panels and titles) or put on a line of its
 *   own (overflow "ellipsis": table cells), then each line loses trailing
 *   spaces beyond the width, is justified and cut to the width ("…" last for
 *   ellipsis).
 * - Table: every column is as wide as its widest cell plus its padding (a
 *   fixed width plus 2); when the sum passes the room, the widest columns
 *   that may wrap (those without a fixed width) shrink together to the next
 *   widest, then all columns lose the rest evenly, and the cells wrap.
 * - Panel: the console's width, border and one space each side; its child is
 *   laid out in the rest and padded with spaces.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rich.h"
#include "lib/rich_cellwidth.h"

/* ---- code point strings ------------------------------------------------ */

struct ustr {
	uint32_t *c;
	size_t n, alloc;
};

static void u_push(struct ustr *u, uint32_t c)
{
	ALLOC_GROW(u->c, u->n + 1, u->alloc);
	u->c[u->n++] = c;
}

static void u_release(struct ustr *u)
{
	free(u->c);
	u->c = NULL;
	u->n = u->alloc = 0;
}

static void u_from_utf8(struct ustr *u, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	while (*p) {
		uint32_t c = 0xFFFD;
		int need = 0;
		if (*p < 0x80) {
			c = *p++;
			u_push(u, c);
			continue;
		}
		if ((*p & 0xE0) == 0xC0) {
			c = *p & 0x1F;
			need = 1;
		} else if ((*p & 0xF0) == 0xE0) {
			c = *p & 0x0F;
			need = 2;
		} else if ((*p & 0xF8) == 0xF0) {
			c = *p & 0x07;
			need = 3;
		}
		if (!need) {
			p++;
			u_push(u, 0xFFFD);
			continue;
		}
		int i;
		for (i = 1; i <= need; i++)
			if ((p[i] & 0xC0) != 0x80)
				break;
		if (i <= need) {
			p++;
			u_push(u, 0xFFFD);
			continue;
		}
		for (i = 1; i <= need; i++)
			c = (c << 6) | (p[i] & 0x3F);
		/* overlong forms, surrogates and out-of-range values are not text */
		if ((need == 1 && c < 0x80) || (need == 2 && c < 0x800) || (need == 3 && c < 0x10000) ||
		    (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) {
			p++;
			u_push(u, 0xFFFD);
			continue;
		}
		p += need + 1;
		u_push(u, c);
	}
}

static void u_to_utf8(struct strbuf *sb, const uint32_t *c, size_t n)
{
	char b[4];
	for (size_t i = 0; i < n; i++)
		strbuf_add(sb, b, utf8_put(c[i], b));
}

static int cp_cells(uint32_t c)
{
	size_t lo = 0, hi = sizeof(cw_ranges) / sizeof(cw_ranges[0]);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c < cw_ranges[mid].lo)
			hi = mid;
		else if (c > cw_ranges[mid].hi)
			lo = mid + 1;
		else
			return cw_ranges[mid].w;
	}
	return 1;
}

static long cells(const uint32_t *c, size_t n)
{
	long w = 0;
	for (size_t i = 0; i < n; i++)
		w += cp_cells(c[i]);
	return w;
}

size_t rich_cell_len(const char *s)
{
	struct ustr u = { 0 };
	u_from_utf8(&u, s);
	long w = cells(u.c, u.n);
	u_release(&u);
	return (size_t)w;
}

int rich_console_width(void)
{
	const char *c = getenv("COLUMNS");
	long v = 0;
	if (!c || !*c)
		return 80;
	for (const char *p = c; *p; p++) {
		if (*p < '0' || *p > '9' || v > 100000)
			return 80;
		v = v * 10 + (*p - '0');
	}
	return v > 0 ? (int)v : 80;
}

/* Python's str.isspace, which is what Rich's \s means. */
static int is_ws(uint32_t c)
{
	return (c >= 9 && c <= 13) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 ||
	       c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
	       c == 0x202F || c == 0x205F || c == 0x3000;
}

/* Python's str.splitlines boundaries (what Rich measures a text by). */
static int is_linebreak(uint32_t c)
{
	return c == '\n' || c == '\r' || c == 0x0B || c == 0x0C || c == 0x1C || c == 0x1D ||
	       c == 0x1E || c == 0x85 || c == 0x2028 || c == 0x2029;
}

/* ---- markup ------------------------------------------------------------- */

/* A tag is "[" then a lower-case letter, '#', '/' or '@', then anything but
 * "[" up to the first "]".  Backslashes before it: half of them stay, and
 * an odd count makes the tag literal text. */
char *rich_markup_plain(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = s ? s : "";
	if (!strchr(p, '['))
		return xstrdup(p);
	while (*p) {
		const char *bs = p;
		while (*p == '\\')
			p++;
		size_t nbs = (size_t)(p - bs);
		const char *end = NULL;
		if (*p == '[' && (((p[1] >= 'a' && p[1] <= 'z')) || p[1] == '#' || p[1] == '/' ||
				  p[1] == '@')) {
			const char *q = p + 1;
			while (*q && *q != '[' && *q != ']')
				q++;
			if (*q == ']')
				end = q + 1;
		}
		if (end) {
			for (size_t i = 0; i < nbs / 2; i++)
				strbuf_addch(&sb, '\\');
			if (nbs % 2)
				strbuf_add(&sb, p, (size_t)(end - p));
			p = end;
			continue;
		}
		/* plain text: "\[" that opens no tag reads as "[" */
		if (nbs && *p == '[') {
			strbuf_add(&sb, bs, nbs - 1);
			strbuf_addch(&sb, '[');
			p++;
			continue;
		}
		strbuf_add(&sb, bs, nbs);
		if (*p)
			strbuf_addch(&sb, *p++);
	}
	return strbuf_detach(&sb, NULL);
}

/* ---- one line of text ---------------------------------------------------- */

enum overflow { OVF_FOLD, OVF_ELLIPSIS };
enum just { J_DEFAULT, J_LEFT, J_RIGHT, J_CENTER };

static int all_single(const struct ustr *u)
{
	for (size_t i = 0; i < u->n; i++) {
		uint32_t c = u->c[i];
		if (!((c >= 0x20 && c <= 0x6F) || c == 0xA0 || c == 0x2FF || (c >= 0x370 && c <= 0x482)))
			return 0;
	}
	return 1;
}

static void pad_right(struct ustr *u, long n)
{
	for (long i = 0; i < n; i++)
		u_push(u, ' ');
}

static void pad_left(struct ustr *u, long n)
{
	if (n <= 0)
		return;
	ALLOC_GROW(u->c, u->n + (size_t)n, u->alloc);
	memmove(u->c + n, u->c, u->n * sizeof(*u->c));
	for (long i = 0; i < n; i++)
		u->c[i] = ' ';
	u->n += (size_t)n;
}

/* Rich's set_cell_size: cut or pad to total cells; a wide character that
 * would straddle the edge becomes a space.  The search for the cut is
 * Rich's bisection, so a text with zero-width characters is cut where
 * Rich cuts it. */
static void set_cell_size(struct ustr *u, long total)
{
	if (all_single(u)) {
		if ((long)u->n < total) {
			pad_right(u, total - (long)u->n);
		} else if (total >= 0) {
			u->n = (size_t)total;
		} else { /* a negative slice end drops from the end */
			u->n = (size_t)(-total) >= u->n ? 0 : u->n - (size_t)(-total);
		}
		return;
	}
	if (total <= 0) {
		u->n = 0;
		return;
	}
	long have = cells(u->c, u->n);
	if (have == total)
		return;
	if (have < total) {
		pad_right(u, total - have);
		return;
	}
	size_t start = 0, end = u->n;
	for (;;) {
		size_t pos = (start + end) / 2;
		long before = cells(u->c, pos + 1);
		if (before == total + 1 && cp_cells(u->c[pos]) == 2) {
			u->c[pos] = ' ';
			u->n = pos + 1;
			return;
		}
		if (before == total) {
			u->n = pos + 1;
			return;
		}
		if (before > total)
			end = pos;
		else
			start = pos;
	}
}

static void truncate_line(struct ustr *u, long width, enum overflow ovf, int pad)
{
	long len = cells(u->c, u->n);
	if (len > width) {
		if (ovf == OVF_ELLIPSIS) {
			set_cell_size(u, width - 1);
			u_push(u, 0x2026);
		} else {
			set_cell_size(u, width);
		}
	}
	if (pad && len < width)
		pad_right(u, width - len);
}

static void rstrip(struct ustr *u)
{
	while (u->n && is_ws(u->c[u->n - 1]))
		u->n--;
}

/* Where Rich breaks a line of text at width (divide_line): offsets. */
static size_t divide_line(const uint32_t *c, size_t n, long width, int fold, size_t *out)
{
	size_t nout = 0, pos = 0;
	long at = 0; /* cells on the current line */
	while (pos < n) {
		size_t start = pos, q = pos, nonws_end, end;
		while (q < n && is_ws(c[q]))
			q++;
		if (q == n)
			break;
		while (q < n && !is_ws(c[q]))
			q++;
		nonws_end = q;
		while (q < n && is_ws(c[q]))
			q++;
		end = q;
		long wlen = cells(c + start, nonws_end - start);
		if (at + wlen > width) {
			if (wlen > width) {
				if (fold) {
					/* Rich cuts the word into pieces of at most width
					 * cells counting from its end, then lays the piece
					 * lengths out from its start. */
					size_t wn = end - start, npieces = 0, *plen, *pcell;
					plen = xcalloc(wn + 1, sizeof(*plen));
					pcell = xcalloc(wn + 1, sizeof(*pcell));
					long total = 0;
					for (size_t k = wn; k-- > 0;) {
						int w = cp_cells(c[start + k]);
						if (total + w > width) {
							npieces++;
							total = w;
						} else {
							total += w;
						}
						plen[npieces]++;
						pcell[npieces] += (size_t)w;
					}
					npieces++;
					for (size_t k = 0; k < npieces; k++) {
						if (start)
							out[nout++] = start;
						if (k == npieces - 1)
							at = (long)pcell[k];
						else
							start += plen[k];
					}
					free(plen);
					free(pcell);
				} else {
					if (start)
						out[nout++] = start;
					at = cells(c + start, end - start);
				}
			} else if (at && start) {
				out[nout++] = start;
				at = cells(c + start, end - start);
			}
		} else {
			at += cells(c + start, end - start);
		}
		pos = end;
	}
	return nout;
}

/* Tabs to spaces: the next multiple of tab characters (Rich counts
 * characters here, not cells); 8 for a console's text, 4 in Syntax. */
static void expand_tabs_n(struct ustr *u, size_t tab)
{
	struct ustr o = { 0 };
	size_t pos = 0;
	for (size_t i = 0; i < u->n; i++) {
		if (u->c[i] != '\t') {
			u_push(&o, u->c[i]);
			pos++;
			continue;
		}
		u_push(&o, ' ');
		pos++;
		size_t sp = tab - ((pos - 1) % tab) - 1;
		for (size_t k = 0; k < sp; k++)
			u_push(&o, ' ');
		pos += sp;
	}
	u_release(u);
	*u = o;
}

static void expand_tabs(struct ustr *u)
{
	expand_tabs_n(u, 8);
}

/* Rich's Text drops bell, backspace, vertical tab, form feed and carriage
 * return from what it is given. */
static void strip_control(struct ustr *u)
{
	size_t k = 0;
	for (size_t i = 0; i < u->n; i++)
		if (!(u->c[i] == 7 || u->c[i] == 8 || u->c[i] == 11 || u->c[i] == 12 || u->c[i] == 13))
			u->c[k++] = u->c[i];
	u->n = k;
}

/* The lines of text wrapped at width: each pushed as UTF-8, padded to
 * width when pad. */
static void wrap_text(const struct ustr *text, long width, enum just j, enum overflow ovf,
		      int pad, struct strvec *lines)
{
	size_t ls = 0;
	for (size_t i = 0; i <= text->n; i++) {
		if (i < text->n && text->c[i] != '\n')
			continue;
		struct ustr line = { 0 };
		for (size_t k = ls; k < i; k++)
			u_push(&line, text->c[k]);
		ls = i + 1;
		expand_tabs(&line);
		size_t *offs = xcalloc(2 * line.n + 4, sizeof(*offs));
		size_t no = divide_line(line.c, line.n, width, ovf == OVF_FOLD, offs);
		for (size_t k = 0; k <= no; k++) {
			size_t a = k ? offs[k - 1] : 0, b = k < no ? offs[k] : line.n;
			struct ustr piece = { 0 };
			for (size_t m = a; m < b; m++)
				u_push(&piece, line.c[m]);
			/* trailing spaces beyond the width go (counted in characters) */
			if ((long)piece.n > width) {
				size_t excess = piece.n - (size_t)width, t = 0;
				while (t < piece.n && is_ws(piece.c[piece.n - 1 - t]))
					t++;
				piece.n -= t < excess ? t : excess;
			}
			switch (j) {
			case J_LEFT:
				truncate_line(&piece, width, ovf, 1);
				break;
			case J_CENTER:
				rstrip(&piece);
				truncate_line(&piece, width, ovf, 0);
				pad_left(&piece, (width - cells(piece.c, piece.n)) / 2);
				pad_right(&piece, width - cells(piece.c, piece.n));
				break;
			case J_RIGHT:
				rstrip(&piece);
				truncate_line(&piece, width, ovf, 0);
				pad_left(&piece, width - cells(piece.c, piece.n));
				break;
			case J_DEFAULT:
				break;
			}
			truncate_line(&piece, width, ovf, 0);
			if (pad) {
				long have = cells(piece.c, piece.n);
				if (have < width)
					pad_right(&piece, width - have);
			}
			struct strbuf sb = STRBUF_INIT;
			u_to_utf8(&sb, piece.c, piece.n);
			strvec_push_nodup(lines, strbuf_detach(&sb, NULL));
			u_release(&piece);
		}
		free(offs);
		u_release(&line);
	}
}

void rich_wrap(const char *text, int width, enum rich_justify justify, struct strvec *lines)
{
	struct ustr u = { 0 };
	u_from_utf8(&u, text);
	wrap_text(&u, width, justify == RICH_RIGHT ? J_RIGHT : justify == RICH_CENTER ? J_CENTER : J_LEFT,
		  OVF_FOLD, 1, lines);
	u_release(&u);
}

static void u_from_markup(struct ustr *u, const char *s);

/* console.print(str): the markup taken out, then Rich's Text wrapping with
 * the default justification: each line broken word-wise at width (a word
 * wider than width folded), nothing padded, a line's own trailing spaces
 * kept unless they pass the width. */
void rich_print(struct strbuf *out, const char *text, int width)
{
	struct strvec lines = STRVEC_INIT;
	struct ustr u = { 0 };
	u_from_markup(&u, text);
	strip_control(&u);
	wrap_text(&u, width, J_DEFAULT, OVF_FOLD, 0, &lines);
	for (size_t i = 0; i < lines.n; i++)
		strbuf_addf(out, "%s\n", lines.v[i]);
	strvec_release(&lines);
	u_release(&u);
}

void rich_print_lines(struct strbuf *out, const char *text, int width)
{
	const char *p = text ? text : "";
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, n);
		rich_print(out, line, width);
		free(line);
		p += n + (nl ? 1 : 0);
	}
}

/* ---- tables --------------------------------------------------------------- */

struct rich_column {
	struct ustr header;
	int width; /* fixed content width, 0: none */
	enum rich_justify justify;
	struct ustr *cells;
	size_t ncells, alloc;
	long maxline; /* the widest line of its header and cells */
};

struct rich_table {
	struct ustr title;
	int has_title;
	struct rich_column *col;
	size_t ncol, alloc, nrows;
};

/* Cells of the widest line, lines as str.splitlines cuts them. */
static long widest_line(const struct ustr *u)
{
	long best = 0, cur = 0;
	for (size_t i = 0; i < u->n; i++) {
		if (is_linebreak(u->c[i])) {
			if (u->c[i] == '\r' && i + 1 < u->n && u->c[i + 1] == '\n')
				i++;
			if (cur > best)
				best = cur;
			cur = 0;
			continue;
		}
		cur += cp_cells(u->c[i]);
	}
	return cur > best ? cur : best;
}

static void u_from_markup(struct ustr *u, const char *s)
{
	char *plain = rich_markup_plain(s);
	u_from_utf8(u, plain);
	free(plain);
}

struct rich_table *rich_table_new(const char *title)
{
	struct rich_table *t = xcalloc(1, sizeof(*t));
	if (title && *title) {
		u_from_markup(&t->title, title);
		t->has_title = 1;
	}
	return t;
}

void rich_table_add_column(struct rich_table *t, const char *header, int width,
			   enum rich_justify justify)
{
	struct rich_column *c;
	ALLOC_GROW(t->col, t->ncol + 1, t->alloc);
	c = &t->col[t->ncol++];
	memset(c, 0, sizeof(*c));
	u_from_markup(&c->header, header);
	c->width = width > 0 ? width : 0;
	c->justify = justify;
	c->maxline = widest_line(&c->header);
	/* a row added before this column has an empty cell here */
	for (size_t i = 0; i < t->nrows; i++) {
		ALLOC_GROW(c->cells, c->ncells + 1, c->alloc);
		memset(&c->cells[c->ncells++], 0, sizeof(struct ustr));
	}
}

void rich_table_add_row(struct rich_table *t, const char *const *cells)
{
	for (size_t i = 0; i < t->ncol; i++) {
		struct rich_column *c = &t->col[i];
		struct ustr u = { 0 };
		u_from_markup(&u, cells && cells[i] ? cells[i] : "");
		long w = widest_line(&u);
		if (w > c->maxline)
			c->maxline = w;
		ALLOC_GROW(c->cells, c->ncells + 1, c->alloc);
		c->cells[c->ncells++] = u;
	}
	t->nrows++;
}

size_t rich_table_rows(const struct rich_table *t)
{
	return t ? t->nrows : 0;
}

void rich_table_free(struct rich_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->ncol; i++) {
		u_release(&t->col[i].header);
		for (size_t k = 0; k < t->col[i].ncells; k++)
			u_release(&t->col[i].cells[k]);
		free(t->col[i].cells);
	}
	free(t->col);
	u_release(&t->title);
	free(t);
}

/* The padding of column i's cells: one space each side, none at the
 * table's outer edges. */
static void col_pad(const struct rich_table *t, size_t i, long *l, long *r)
{
	*l = i == 0 ? 0 : 1;
	*r = i == t->ncol - 1 ? 0 : 1;
}

/* The widest a column wants to be within room cells. */
static long measure_col(const struct rich_table *t, size_t i, long room)
{
	const struct rich_column *c = &t->col[i];
	long l, r;
	if (room < 1)
		return 0;
	if (c->width) /* a fixed width counts both paddings, edge or not */
		return c->width + 2 < room ? c->width + 2 : room;
	col_pad(t, i, &l, &r);
	if (room - (l + r) < 1)
		return room;
	return c->maxline + l + r < room ? c->maxline + l + r : room;
}

/* Python's round() of a / b (b > 0): halves go to the even neighbour. */
static long round_div(long a, long b)
{
	long q = a / b, rem = a % b;
	if (rem < 0) {
		q--;
		rem += b;
	}
	if (2 * rem > b || (2 * rem == b && (q & 1)))
		q++;
	return q;
}

/* Take total away from values in proportion to ratios, no slot losing more
 * than its maximum (Rich's ratio_reduce). */
static void ratio_reduce(long total, const long *ratios_in, const long *maximums, long *values,
			 size_t n)
{
	long total_ratio = 0, remaining = total;
	long *ratios = xcalloc(n ? n : 1, sizeof(*ratios));
	for (size_t i = 0; i < n; i++) {
		ratios[i] = maximums[i] ? ratios_in[i] : 0;
		total_ratio += ratios[i];
	}
	if (total_ratio) {
		for (size_t i = 0; i < n; i++) {
			if (ratios[i] && total_ratio > 0) {
				long d = round_div(ratios[i] * remaining, total_ratio);
				if (d > maximums[i])
					d = maximums[i];
				values[i] -= d;
				remaining -= d;
				total_ratio -= ratios[i];
			}
		}
	}
	free(ratios);
}

static long sum(const long *v, size_t n)
{
	long s = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s;
}

static void col_widths(const struct rich_table *t, long room, long *w)
{
	size_t n = t->ncol;
	long total;
	for (size_t i = 0; i < n; i++) {
		w[i] = measure_col(t, i, room);
		if (!w[i])
			w[i] = 1;
	}
	total = sum(w, n);
	if (total <= room)
		return;
	{
		long *ratios = xcalloc(n, sizeof(*ratios)), *maxr = xcalloc(n, sizeof(*maxr));
		int any = 0;
		for (size_t i = 0; i < n; i++)
			any |= !t->col[i].width;
		long excess = total - room;
		while (any && total && excess > 0) {
			long top = 0, second = 0;
			int have = 0;
			for (size_t i = 0; i < n; i++)
				if (!t->col[i].width && w[i] > top)
					top = w[i];
			for (size_t i = 0; i < n; i++)
				if (!t->col[i].width && w[i] != top && w[i] > second)
					second = w[i];
			for (size_t i = 0; i < n; i++) {
				ratios[i] = !t->col[i].width && w[i] == top;
				have |= ratios[i] != 0;
			}
			if (!have || top == second)
				break;
			for (size_t i = 0; i < n; i++)
				maxr[i] = excess < top - second ? excess : top - second;
			ratio_reduce(excess, ratios, maxr, w, n);
			total = sum(w, n);
			excess = total - room;
		}
		if (total > room) {
			for (size_t i = 0; i < n; i++) {
				ratios[i] = 1;
				maxr[i] = w[i];
			}
			ratio_reduce(total - room, ratios, maxr, w, n);
		}
		free(ratios);
		free(maxr);
	}
	for (size_t i = 0; i < n; i++)
		w[i] = measure_col(t, i, w[i]);
}

/* A border line: left, then each column's width of fill, joined. */
static void border(struct strvec *lines, const char *left, const char *fill, const char *join,
		   const char *right, const long *w, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, left);
	for (size_t i = 0; i < n; i++) {
		for (long k = 0; k < w[i]; k++)
			strbuf_addstr(&sb, fill);
		strbuf_addstr(&sb, i + 1 < n ? join : right);
	}
	strvec_push_nodup(lines, strbuf_detach(&sb, NULL));
}

/* One row: each cell wrapped in its column, the row as tall as its tallest
 * cell; the header's short cells sit at the bottom, a body's at the top. */
static void table_row(const struct rich_table *t, const long *w, int header, size_t row,
		      const char *edge, struct strvec *lines)
{
	size_t n = t->ncol, height = 1;
	struct strvec *cl = xcalloc(n, sizeof(*cl));
	for (size_t i = 0; i < n; i++) {
		const struct rich_column *c = &t->col[i];
		const struct ustr *u = header ? &c->header : &c->cells[row];
		long l, r;
		col_pad(t, i, &l, &r);
		long inner = w[i] - l - r;
		struct strvec tmp = STRVEC_INIT;
		if (inner > 0)
			wrap_text(u, inner,
				  c->justify == RICH_RIGHT ? J_RIGHT : c->justify == RICH_CENTER ? J_CENTER : J_LEFT,
				  OVF_ELLIPSIS, 1, &tmp);
		else
			strvec_push(&tmp, "");
		for (size_t k = 0; k < tmp.n; k++) {
			char *s = xasprintf("%*s%s%*s", (int)l, "", tmp.v[k], (int)r, "");
			struct ustr fit = { 0 };
			u_from_utf8(&fit, s);
			free(s);
			set_cell_size(&fit, w[i]);
			struct strbuf sb = STRBUF_INIT;
			u_to_utf8(&sb, fit.c, fit.n);
			strvec_push_nodup(&cl[i], strbuf_detach(&sb, NULL));
			u_release(&fit);
		}
		strvec_release(&tmp);
		if (cl[i].n > height)
			height = cl[i].n;
	}
	for (size_t k = 0; k < height; k++) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addstr(&sb, edge);
		for (size_t i = 0; i < n; i++) {
			size_t blank = height - cl[i].n;
			const char *s = NULL;
			if (header && k >= blank)
				s = cl[i].v[k - blank];
			else if (!header && k < cl[i].n)
				s = cl[i].v[k];
			if (s)
				strbuf_addstr(&sb, s);
			else
				strbuf_addf(&sb, "%*s", (int)w[i], "");
			strbuf_addstr(&sb, edge);
		}
		strvec_push_nodup(lines, strbuf_detach(&sb, NULL));
	}
	for (size_t i = 0; i < n; i++)
		strvec_release(&cl[i]);
	free(cl);
}

void rich_table_lines(const struct rich_table *t, int max_width, struct strvec *lines)
{
	size_t n = t->ncol;
	long extra, *w, table_width;

	if (!n) { /* Rich prints one empty line for a table without columns */
		strvec_push(lines, "");
		return;
	}
	extra = 2 + (long)n - 1;
	w = xcalloc(n, sizeof(*w));
	col_widths(t, max_width - extra, w);
	table_width = sum(w, n) + extra;
	if (t->has_title)
		wrap_text(&t->title, table_width, J_CENTER, OVF_FOLD, 0, lines);
	border(lines, "┏", "━", "┳", "┓", w, n);
	table_row(t, w, 1, 0, "┃", lines);
	border(lines, "┡", "━", "╇", "┩", w, n);
	for (size_t r = 0; r < t->nrows; r++)
		table_row(t, w, 0, r, "│", lines);
	border(lines, "└", "─", "┴", "┘", w, n);
	free(w);
}

/* ---- panels ----------------------------------------------------------------- */

static void panel_top(struct strbuf *out, const char *title, int width)
{
	long inner = width - 4;
	strbuf_addstr(out, "╭");
	if (!title || !*title || width <= 4) {
		for (int i = 0; i < width - 2; i++)
			strbuf_addstr(out, "─");
	} else {
		struct ustr u = { 0 };
		char *plain = rich_markup_plain(title);
		/* the title is one line: newlines read as spaces, tabs expanded,
		 * a space either side, cut to the room */
		for (char *p = plain; *p; p++)
			if (*p == '\n')
				*p = ' ';
		u_push(&u, ' ');
		{
			struct ustr t = { 0 };
			u_from_utf8(&t, plain);
			expand_tabs(&t);
			for (size_t i = 0; i < t.n; i++)
				u_push(&u, t.c[i]);
			u_release(&t);
		}
		u_push(&u, ' ');
		free(plain);
		truncate_line(&u, inner, OVF_FOLD, 0);
		long excess = inner - cells(u.c, u.n), left = excess / 2;
		strbuf_addstr(out, "─");
		for (long i = 0; i < left; i++)
			strbuf_addstr(out, "─");
		u_to_utf8(out, u.c, u.n);
		for (long i = 0; i < excess - left; i++)
			strbuf_addstr(out, "─");
		strbuf_addstr(out, "─");
		u_release(&u);
	}
	strbuf_addstr(out, "╮\n");
}

static void panel_body(struct strbuf *out, const struct strvec *lines, int width)
{
	long inner = width - 4;
	for (size_t i = 0; i < lines->n; i++) {
		struct ustr u = { 0 };
		u_from_utf8(&u, lines->v[i]);
		set_cell_size(&u, inner);
		strbuf_addstr(out, "│ ");
		u_to_utf8(out, u.c, u.n);
		strbuf_addstr(out, " │\n");
		u_release(&u);
	}
	strbuf_addstr(out, "╰");
	for (int i = 0; i < width - 2; i++)
		strbuf_addstr(out, "─");
	strbuf_addstr(out, "╯\n");
}

void rich_panel_table(struct strbuf *out, const struct rich_table *t, const char *title, int width)
{
	struct strvec lines = STRVEC_INIT;
	rich_table_lines(t, width - 4, &lines);
	panel_top(out, title, width);
	panel_body(out, &lines, width);
	strvec_release(&lines);
}

void rich_panel_text(struct strbuf *out, const char *text, const char *title, int width)
{
	struct strvec lines = STRVEC_INIT;
	struct ustr u = { 0 };
	u_from_utf8(&u, text);
	wrap_text(&u, width - 4, J_DEFAULT, OVF_FOLD, 1, &lines);
	u_release(&u);
	panel_top(out, title, width);
	panel_body(out, &lines, width);
	strvec_release(&lines);
}

/* Panel(Syntax(code, line_numbers=True)): code split at every "\n" (a
 * final newline gives a last empty line), each line numbered in a column
 * of two spaces, the number right-aligned to the digits of the last one and
 * a space; control characters dropped, tabs expanded to 4, then cut or
 * padded to the rest of the panel's inside (Syntax's word_wrap=False crops
 * without a mark). */
void rich_panel_syntax(struct strbuf *out, const char *code, const char *title, int width)
{
	struct strvec lines = STRVEC_INIT;
	const char *p = code ? code : "";
	size_t nlines = 1;
	int digits = 1;
	for (const char *q = p; *q; q++)
		nlines += *q == '\n';
	for (size_t n = nlines; n >= 10; n /= 10)
		digits++;
	long room = width - 4 - (digits + 3);
	for (size_t no = 1; no <= nlines; no++) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, n);
		struct ustr u = { 0 };
		struct strbuf sb = STRBUF_INIT;
		u_from_utf8(&u, line);
		strip_control(&u);
		expand_tabs_n(&u, 4);
		set_cell_size(&u, room > 0 ? room : 0);
		strbuf_addf(&sb, "  %*zu ", digits, no);
		u_to_utf8(&sb, u.c, u.n);
		strvec_push_nodup(&lines, strbuf_detach(&sb, NULL));
		u_release(&u);
		free(line);
		p += n + (nl ? 1 : 0);
	}
	panel_top(out, title, width);
	panel_body(out, &lines, width);
	strvec_release(&lines);
}
