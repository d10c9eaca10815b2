/*
 * preview_rows.c — a preview as shown: its text wrapped at the pane's width
 * (draw.h's text_wrap_all), kept with the text it came from and where each
 * line's rows end.  An edit changes a few lines of a preview (a flag in one
 * worker's command), so a new text is wrapped again only between the lines
 * it shares with the last one at its start and at its end: wrapping the
 * whole plan of a 20,000-line recipe (400 KB) on every edit cost more than
 * drawing the screen.  Each line wraps on its own, so the rows are those
 * text_wrap_all gives for the whole text.
 */
#include <stdlib.h>
#include <string.h>

#include "tui/app_int.h"

/* text_wrap_all's indent for a continuation past a line's own */
#define HANG_EXTRA 2

struct line_out {
	struct strbuf *out;
	struct shown_line *line;
	size_t nline, aline;
	int rows;
};

/* Wrap the lines of text[0, len) (the last may have no newline; an empty
 * segment after a final newline is no line) onto lo, offsets counted from
 * src0 (the bytes before text) and lo->out's length. */
static void wrap_lines(struct line_out *lo, const char *text, size_t len, size_t src0, int width)
{
	struct strvec rows = STRVEC_INIT;
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		lo->rows += text_wrap(p, n, width, text_hang(p, n, width, HANG_EXTRA), &rows);
		for (size_t i = 0; i < rows.n; i++) {
			strbuf_addstr(lo->out, rows.v[i]);
			strbuf_addch(lo->out, '\n');
		}
		strvec_clear(&rows);
		p += n + (nl ? 1 : 0);
		ALLOC_GROW(lo->line, lo->nline + 1, lo->aline);
		lo->line[lo->nline++] = (struct shown_line){ src0 + (size_t)(p - text), lo->out->len,
							     lo->rows };
	}
	strvec_release(&rows);
}

static void full(struct shown_text *s, const char *text, size_t len, int width)
{
	struct line_out lo = { &s->out, s->line, 0, s->aline, 0 };
	strbuf_reset(&s->out);
	if (!len) {
		/* text_wrap_all gives an empty text one empty row */
		strbuf_addch(&s->out, '\n');
		ALLOC_GROW(lo.line, 1, lo.aline);
		lo.line[lo.nline++] = (struct shown_line){ 0, 1, 1 };
	}
	wrap_lines(&lo, text, len, 0, width);
	s->line = lo.line;
	s->nline = lo.nline;
	s->aline = lo.aline;
}

static size_t start_of(const struct shown_text *s, size_t i)
{
	return i ? s->line[i - 1].src_end : 0;
}

/* How many of the first n lines end at or before source offset off. */
static size_t lines_ending_by(const struct shown_text *s, size_t n, size_t off)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->line[mid].src_end <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void shown_update(struct shown_text *s, const char *text, int width)
{
	size_t len = strlen(text), len0 = s->src.len;
	const char *old = s->src.buf;
	if (s->w != width || !s->nline || !len || !len0) {
		full(s, text, len, width);
		goto done;
	}
	if (len == len0 && !memcmp(old, text, len))
		return;
	/* the lines both start with, each whole with its newline */
	size_t m = len < len0 ? len : len0, d = 0;
	while (d + 64 <= m && !memcmp(old + d, text + d, 64))
		d += 64; /* memcmp's stride first: the texts are mostly the same */
	while (d < m && old[d] == text[d])
		d++;
	size_t np = lines_ending_by(s, s->nline, d);
	if (np && old[s->line[np - 1].src_end - 1] != '\n')
		np--; /* a last line without its newline goes on in the new text */
	size_t pre = start_of(s, np);
	/* the lines both end with: after a newline both share, past pre */
	size_t e = 0, em = m - pre;
	while (e + 64 <= em && !memcmp(old + len0 - e - 64, text + len - e - 64, 64))
		e += 64;
	while (e < em && old[len0 - 1 - e] == text[len - 1 - e])
		e++;
	size_t ns = s->nline;
	while (ns > np && start_of(s, ns - 1) >= len0 - e + 1)
		ns--;
	size_t suf0 = start_of(s, ns), suf1 = suf0 + len - len0;
	/* the rows of what is in between, then the kept ones around them */
	struct strbuf mid = STRBUF_INIT;
	size_t out_pre = np ? s->line[np - 1].out_end : 0;
	int rows_pre = np ? s->line[np - 1].rows_end : 0;
	struct line_out ml = { &mid, NULL, 0, 0, rows_pre };
	wrap_lines(&ml, text + pre, suf1 - pre, pre, width);
	size_t out_suf = ns > np ? s->line[ns - 1].out_end : out_pre;
	int rows_suf = ns > np ? s->line[ns - 1].rows_end : rows_pre;
	size_t keep = s->nline - ns, nn = np + ml.nline + keep;
	struct shown_line *nl = xmalloc((nn + 1) * sizeof(*nl));
	memcpy(nl, s->line, np * sizeof(*nl));
	for (size_t i = 0; i < ml.nline; i++) {
		nl[np + i] = ml.line[i];
		nl[np + i].out_end += out_pre;
	}
	for (size_t i = 0; i < keep; i++) {
		struct shown_line l = s->line[ns + i];
		l.src_end = l.src_end - suf0 + suf1;
		l.out_end = l.out_end - out_suf + out_pre + mid.len;
		l.rows_end = l.rows_end - rows_suf + ml.rows;
		nl[np + ml.nline + i] = l;
	}
	strbuf_splice(&s->out, out_pre, out_suf - out_pre, mid.buf ? mid.buf : "", mid.len);
	strbuf_release(&mid);
	free(ml.line);
	free(s->line);
	s->line = nl;
	s->nline = nn;
	s->aline = nn + 1;
done:
	strbuf_reset(&s->src);
	strbuf_add(&s->src, text, len);
	s->w = width;
}

int shown_rows_before(const struct shown_text *s, size_t off)
{
	size_t lo = lines_ending_by(s, s->src.len ? s->nline : 0, off);
	return lo ? s->line[lo - 1].rows_end : 0;
}

void shown_release(struct shown_text *s)
{
	strbuf_release(&s->out);
	strbuf_release(&s->src);
	free(s->line);
	memset(s, 0, sizeof(*s));
}
