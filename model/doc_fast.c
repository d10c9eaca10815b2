/*
 * doc_fast.c — libyaml's events for the YAML recipes are written in, read
 * line by line without libyaml (doc_fast.h).
 *
 * libyaml cost half of loading a recipe: it decodes the text into a buffer
 * of its own, allocates every token and is general.  Recipes use a small part
 * of YAML: block mappings and sequences by indentation, one-line plain and
 * quoted scalars, one-line flow collections, block text (`|`, `>`) and
 * comments.  This reader knows that part and gives up on the first thing
 * outside it; libyaml then reads the text as before, so everything else
 * (anchors, tags, escapes, multi-line scalars, explicit keys, tabs, CR,
 * directives, several documents, every syntax error) keeps libyaml's exact
 * behaviour and messages.
 *
 * What it gives must be what libyaml gives, mark for mark, since the byte
 * spans of every edit are made from them.  The rules, from libyaml 0.2's
 * scanner and parser:
 *   - a block collection starts where its first key or '-' is; it ends
 *     (its END event) where the next token starts after the dedent that
 *     closes it: the first character of the next content line, or the end
 *     of the text;
 *   - a key with nothing after its ':' whose next line is not deeper (nor a
 *     '-' at the same column) holds an empty plain scalar marked just after
 *     the ':';
 *   - a '-' at the column of the key above it starts a sequence without a
 *     new indentation level, marked from its '-' to after it;
 *   - a block scalar runs from its indicator to the start of the first line
 *     that is not part of it; its indentation is that of its first
 *     non-empty line, at least one more than the collection around it;
 *   - at the end of the text, collections deeper than the last line's
 *     column end there; then the mark moves to the start of a new line when
 *     the last one has no line break, and the others end there.
 * Marks count characters: in a text with UTF-8 they are counted from the
 * bytes (the index builder turns them back into bytes, as for libyaml's).
 */
#include "model/doc_fast.h"

#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "lib/util.h"

/* Deeper than any recipe; the recursion here stays small whatever the text. */
#define FAST_MAX_DEPTH 64
/* libyaml refuses a simple key longer than 1024 characters; stay clear. */
#define FAST_MAX_KEY 1000

struct fs {
	const char *s;
	size_t len;
	size_t pos;  /* the cursor */
	size_t ls;   /* start of the cursor's line */
	size_t lsc;  /* ls in characters */
	int line;    /* the cursor's, 0-based */
	int ascii;   /* every byte a character */
	int depth;
	doc_event_fn fn;
	void *ctx;
	int stopped; /* what fn returned when it stopped the scan */
	char *scratch; /* decoded scalar text, len + 1 bytes once one needs it */
	jmp_buf give_up;
};

static _Noreturn void give_up(struct fs *f) { longjmp(f->give_up, 1); }

/* Where a scalar's decoded text goes: it comes from its own part of the
 * text, so never outgrows it, and fn copies it before the next one. */
static char *scratch(struct fs *f)
{
	if (!f->scratch)
		f->scratch = xmalloc(f->len + 1);
	return f->scratch;
}

/* Characters in [a, b): UTF-8 continuation bytes are not one. */
static size_t chars(const struct fs *f, size_t a, size_t b)
{
	if (f->ascii)
		return b - a;
	size_t n = 0;
	for (size_t i = a; i < b; i++)
		n += ((unsigned char)f->s[i] & 0xC0) != 0x80;
	return n;
}

/* pos is on the cursor's line. */
static struct doc_mark mk(const struct fs *f, size_t pos)
{
	size_t col = chars(f, f->ls, pos);
	struct doc_mark m = { f->lsc + col, f->line, (int)col };
	return m;
}

/* The cursor's line now starts at ls, after the line that did. */
static void new_line(struct fs *f, size_t ls, int line)
{
	f->lsc += chars(f, f->ls, ls);
	f->ls = ls;
	f->line = line;
}

static void emit(struct fs *f, int type, int style, struct doc_mark start, struct doc_mark end,
		 const char *value, size_t len)
{
	struct doc_event e = { type, style, start, end, value, len, NULL, NULL };
	int r = f->fn(f->ctx, &e);
	if (r) {
		f->stopped = r;
		longjmp(f->give_up, 2);
	}
}

static void scalar(struct fs *f, size_t start, size_t end, int style, const char *value, size_t len)
{
	emit(f, YAML_SCALAR_EVENT, style, mk(f, start), mk(f, end), value, len);
}

static char at(const struct fs *f, size_t p) { return p < f->len ? f->s[p] : 0; }

static int blankz(const struct fs *f, size_t p) { char c = at(f, p); return !c || c == ' ' || c == '\n'; }

/* The end of the line p is on (its '\n', or the end of the text). */
static size_t line_end(const struct fs *f, size_t p)
{
	const char *nl = p < f->len ? memchr(f->s + p, '\n', f->len - p) : NULL;
	return nl ? (size_t)(nl - f->s) : f->len;
}

/* ---- lines ----------------------------------------------------------- */

/* From the start of a line, skip blank and comment lines.  Returns the
 * indentation of the next content line with the cursor on its first
 * character, or -1 at the end of the text. */
static int content_from(struct fs *f)
{
	for (;;) {
		while (f->pos < f->len && f->s[f->pos] == ' ')
			f->pos++;
		if (f->pos >= f->len)
			return -1;
		char c = f->s[f->pos];
		if (c == '#')
			f->pos = line_end(f, f->pos);
		if (f->pos < f->len && f->s[f->pos] == '\n') {
			f->pos++;
			new_line(f, f->pos, f->line + 1);
			continue;
		}
		if (f->pos >= f->len)
			return -1;
		int ind = (int)(f->pos - f->ls);
		/* document markers and directives are libyaml's */
		if (ind == 0 && (c == '%' || ((c == '-' || c == '.') && f->len - f->pos >= 3 &&
					       f->s[f->pos + 1] == c && f->s[f->pos + 2] == c)))
			give_up(f);
		return ind;
	}
}

/* From the line break (or end) of the current line. */
static int next_content(struct fs *f)
{
	if (f->pos >= f->len)
		return -1;
	f->pos++;
	new_line(f, f->pos, f->line + 1);
	return content_from(f);
}

/* After a token: only blanks and a comment may follow on its line.  A
 * comment needs a blank before it. */
static void rest_of_line(struct fs *f)
{
	size_t p = f->pos;
	while (p < f->len && f->s[p] == ' ')
		p++;
	if (p < f->len && f->s[p] == '#') {
		if (p == f->pos)
			give_up(f);
		p = line_end(f, p);
	}
	if (p < f->len && f->s[p] != '\n')
		give_up(f);
	f->pos = p;
}

static int is_dash(const struct fs *f, size_t p) { return at(f, p) == '-' && blankz(f, p + 1); }

/* ---- scalars ----------------------------------------------------------- */

/* Can a plain scalar start at p?  Indicators cannot start one; '-' can when
 * a non-blank follows ('--flag', '-1').  '?' and ':' could too in libyaml,
 * but are left to it. */
static int plain_start(const struct fs *f, size_t p, int flow)
{
	/* the indicators, by table: every key and value of a recipe starts here */
	static const unsigned char indicator[256] = {
		['?'] = 1, [':'] = 1, [','] = 1, ['['] = 1, [']'] = 1, ['{'] = 1, ['}'] = 1,
		['#'] = 1, ['&'] = 1, ['*'] = 1, ['!'] = 1, ['|'] = 1, ['>'] = 1, ['\''] = 1,
		['"'] = 1, ['%'] = 1, ['@'] = 1, ['`'] = 1,
	};
	char c = at(f, p);
	if (!c || c == ' ' || c == '\n')
		return 0;
	if (c == '-') {
		char d = at(f, p + 1);
		return d && d != ' ' && d != '\n' && !(flow && strchr(",[]{}", d));
	}
	return !indicator[(unsigned char)c];
}

/* The first of bytes a, b and c from q, or the end of the text.  Every key
 * and most values of a recipe are scanned here, so sixteen bytes at a time
 * where the CPU has SSE2.  (readable let no NUL into the text.) */
static inline size_t find3(const struct fs *f, size_t q, char a, char b, char c)
{
#if defined(__SSE2__)
	const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b), vc = _mm_set1_epi8(c);
	for (; q + 16 <= f->len; q += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(f->s + q));
		__m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
					   _mm_cmpeq_epi8(x, vc));
		unsigned m = (unsigned)_mm_movemask_epi8(hit);
		if (m)
			return q + (size_t)__builtin_ctz(m);
	}
#endif
	while (q < f->len && f->s[q] != a && f->s[q] != b && f->s[q] != c)
		q++;
	return q;
}

/* The end of the one-line plain scalar at p in block context (trailing
 * blanks left out); *colon set when it stopped at a ':' + blank, the value
 * indicator. */
static size_t plain_end_block(struct fs *f, size_t p, int *colon)
{
	size_t q = p;
	*colon = 0;
	for (;; q++) {
		q = find3(f, q, '\n', ':', '#');
		if (q >= f->len || f->s[q] == '\n')
			break;
		if (f->s[q] == ':' && blankz(f, q + 1)) {
			*colon = 1;
			break;
		}
		if (f->s[q] == '#' && f->s[q - 1] == ' ')
			break;
	}
	size_t e = q;
	while (e > p && f->s[e - 1] == ' ')
		e--;
	/* a scalar that goes on under this line is libyaml's (multi-line) */
	return e;
}

/* In a flow collection: up to ',', ']' or '}' (or, for a key, ': ').  The
 * collection must close on this line. */
static size_t plain_end_flow(struct fs *f, size_t p, int key)
{
	size_t q = p;
	for (;; q++) {
		char c = at(f, q);
		if (!c || c == '\n' || c == '#' || c == '?' || c == '[' || c == '{')
			give_up(f);
		if (c == ',' || c == ']' || c == '}')
			break;
		if (c == ':') {
			if (key && at(f, q + 1) == ' ')
				break;
			give_up(f);
		}
	}
	size_t e = q;
	while (e > p && f->s[e - 1] == ' ')
		e--;
	if (e == p)
		give_up(f);
	return e;
}

/* A one-line quoted scalar at p; returns the position after its closing
 * quote.  Single quotes double a quote inside; a double-quoted scalar with
 * a backslash escape is libyaml's. */
static size_t quoted(struct fs *f, size_t p, int emit_it)
{
	char qc = f->s[p];
	size_t q = p + 1;
	int doubled = 0;
	for (;; q++) {
		q = find3(f, q, qc, '\n', qc == '"' ? '\\' : qc);
		char c = at(f, q);
		if (!c || c == '\n' || (qc == '"' && c == '\\'))
			give_up(f);
		if (c != qc)
			continue;
		if (qc == '\'' && at(f, q + 1) == '\'') {
			doubled = 1;
			q++;
			continue;
		}
		break;
	}
	if (!emit_it)
		return q + 1;
	const char *v = f->s + p + 1;
	size_t n = q - p - 1;
	if (doubled) {
		char *d = scratch(f);
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			d[k++] = v[i];
			if (v[i] == '\'')
				i++;
		}
		v = d;
		n = k;
	}
	scalar(f, p, q + 1, qc == '\'' ? YAML_SINGLE_QUOTED_SCALAR_STYLE : YAML_DOUBLE_QUOTED_SCALAR_STYLE, v, n);
	return q + 1;
}

/* ---- block scalars ------------------------------------------------------ */

struct lit {
	size_t q;     /* position */
	size_t ls;    /* start of q's line */
	int line;
	size_t endm;  /* the end mark */
	int end_line, end_col; /* end_col in characters */
	size_t breaks; /* line breaks since the last content line */
};

/* Blank lines and the indentation of the next one, as libyaml's
 * scan_block_scalar_breaks: spaces up to indent (all of them while it is
 * unknown), then a line break makes the line blank.  Returns the largest
 * column reached. */
static int lit_breaks(struct fs *f, struct lit *l, int indent)
{
	int max = 0;
	l->endm = l->q;
	l->end_line = l->line;
	l->end_col = (int)chars(f, l->ls, l->q);
	for (;;) {
		while ((!indent || (int)(l->q - l->ls) < indent) && at(f, l->q) == ' ')
			l->q++;
		if ((int)(l->q - l->ls) > max)
			max = (int)(l->q - l->ls); /* spaces: bytes are characters */
		if (at(f, l->q) != '\n')
			return max;
		l->q++;
		l->line++;
		l->ls = l->q;
		l->breaks++;
		l->endm = l->q;
		l->end_line = l->line;
		l->end_col = 0;
	}
}

/* The block scalar whose '|' or '>' is at p, in a block collection at
 * column n.  Returns what next_content does after it. */
static int block_scalar(struct fs *f, size_t p, int n)
{
	int folded = f->s[p] == '>';
	size_t q = p + 1;
	int chomp = 0; /* -1 strip, 0 clip, 1 keep */
	if (at(f, q) == '-' || at(f, q) == '+')
		chomp = f->s[q++] == '+' ? 1 : -1;
	if (at(f, q) >= '0' && at(f, q) <= '9')
		give_up(f); /* an explicit indentation */
	while (at(f, q) == ' ')
		q++;
	if (at(f, q) == '#')
		q = line_end(f, q);
	if (q < f->len && f->s[q] != '\n')
		give_up(f);
	struct doc_mark start = mk(f, p);
	struct lit l = { q, f->ls, f->line, 0, 0, 0, 0 };
	if (q < f->len) {
		l.q++;
		l.line++;
		l.ls = l.q;
	}
	int indent = lit_breaks(f, &l, 0);
	if (indent < n + 1)
		indent = n + 1;
	if (indent < 1)
		indent = 1;
	char *d = scratch(f);
	size_t k = 0;
	int leading = 0;   /* a line break after the last content line */
	int was_blank = 0; /* that line started with a blank (more indented) */
	while ((int)(l.q - l.ls) == indent && l.q < f->len) {
		/* Folding: the break between two lines of text that start at the
		 * indentation is a space, or nothing when blank lines (kept as
		 * breaks) are between them. */
		int blank = f->s[l.q] == ' ';
		if (folded && leading && !was_blank && !blank) {
			if (!l.breaks)
				d[k++] = ' ';
		} else if (leading) {
			d[k++] = '\n';
		}
		was_blank = blank;
		for (; l.breaks; l.breaks--)
			d[k++] = '\n';
		size_t e = line_end(f, l.q);
		memcpy(d + k, f->s + l.q, e - l.q);
		k += e - l.q;
		l.q = e;
		leading = 0;
		if (l.q < f->len) {
			leading = 1;
			l.q++;
			l.line++;
			l.ls = l.q;
		}
		lit_breaks(f, &l, indent);
	}
	if (chomp != -1 && leading)
		d[k++] = '\n';
	if (chomp == 1)
		for (; l.breaks; l.breaks--)
			d[k++] = '\n';
	struct doc_mark end = { f->lsc + chars(f, f->ls, l.endm), l.end_line, l.end_col };
	emit(f, YAML_SCALAR_EVENT, folded ? YAML_FOLDED_SCALAR_STYLE : YAML_LITERAL_SCALAR_STYLE, start, end, d, k);
	/* The first line after the scalar starts at its end mark. */
	if (l.endm >= f->len || l.end_col != 0) {
		f->pos = f->len;
		new_line(f, l.ls, l.line);
		return -1;
	}
	f->pos = l.endm;
	new_line(f, l.endm, l.end_line);
	return content_from(f);
}

/* ---- flow collections (one line) ---------------------------------------- */

static size_t flow(struct fs *f, size_t p);

static size_t flow_space(struct fs *f, size_t q)
{
	while (at(f, q) == ' ')
		q++;
	char c = at(f, q);
	if (!c || c == '\n' || c == '#')
		give_up(f);
	return q;
}

static size_t flow_node(struct fs *f, size_t q, int key)
{
	char c = f->s[q];
	if (c == '[' || c == '{') {
		if (key)
			give_up(f);
		return flow(f, q);
	}
	if (c == '\'' || c == '"')
		return quoted(f, q, 1);
	if (!plain_start(f, q, 1))
		give_up(f);
	size_t e = plain_end_flow(f, q, key);
	scalar(f, q, e, YAML_PLAIN_SCALAR_STYLE, f->s + q, e - q);
	return e;
}

/* The flow collection at p; returns the position after its closing bracket. */
static size_t flow(struct fs *f, size_t p)
{
	if (++f->depth > FAST_MAX_DEPTH)
		give_up(f);
	int seq = f->s[p] == '[';
	char close = seq ? ']' : '}';
	emit(f, seq ? YAML_SEQUENCE_START_EVENT : YAML_MAPPING_START_EVENT,
	     seq ? YAML_FLOW_SEQUENCE_STYLE : YAML_FLOW_MAPPING_STYLE, mk(f, p), mk(f, p + 1), NULL, 0);
	size_t q = flow_space(f, p + 1);
	if (f->s[q] != close) {
		for (;;) {
			q = flow_node(f, q, !seq);
			if (!seq) {
				q = flow_space(f, q);
				if (f->s[q] != ':' || at(f, q + 1) != ' ')
					give_up(f);
				q = flow_node(f, flow_space(f, q + 1), 0);
			}
			q = flow_space(f, q);
			if (f->s[q] == ',') {
				q = flow_space(f, q + 1);
				if (f->s[q] == close)
					give_up(f); /* a trailing comma */
				continue;
			}
			if (f->s[q] == close)
				break;
			give_up(f);
		}
	}
	emit(f, seq ? YAML_SEQUENCE_END_EVENT : YAML_MAPPING_END_EVENT, 0, mk(f, q), mk(f, q + 1), NULL, 0);
	f->depth--;
	return q + 1;
}

/* ---- block collections --------------------------------------------------- */

static int block_map(struct fs *f, int n, size_t colon);
static int block_seq(struct fs *f, int m, int indentless);

/* A value on the line of its key or '-', in a collection at column n.
 * Returns the indentation of the next content line, as next_content. */
static int inline_value(struct fs *f, int n)
{
	size_t p = f->pos;
	char c = f->s[p];
	if (c == '|' || c == '>')
		return block_scalar(f, p, n);
	if (c == '[' || c == '{') {
		f->pos = flow(f, p);
	} else if (c == '\'' || c == '"') {
		f->pos = quoted(f, p, 1);
	} else {
		int colon;
		if (!plain_start(f, p, 0))
			give_up(f);
		size_t e = plain_end_block(f, p, &colon);
		if (colon)
			give_up(f); /* "a: b: c" */
		scalar(f, p, e, YAML_PLAIN_SCALAR_STYLE, f->s + p, e - p);
		f->pos = e;
	}
	rest_of_line(f);
	return next_content(f);
}

/* Is there a key (a scalar, then ':' and a blank) at p?  *colon gets the
 * position of its ':'. */
static int key_at(struct fs *f, size_t p, size_t *colon)
{
	char c = at(f, p);
	size_t q;
	if (c == '\'' || c == '"') {
		q = quoted(f, p, 0);
		while (at(f, q) == ' ')
			q++;
		if (at(f, q) != ':' || !blankz(f, q + 1))
			return 0;
	} else {
		int col;
		if (!plain_start(f, p, 0))
			return 0;
		q = plain_end_block(f, p, &col);
		if (!col)
			return 0;
		while (f->s[q] != ':')
			q++;
	}
	if (q - p > FAST_MAX_KEY)
		give_up(f);
	*colon = q;
	return 1;
}

/* The value of a key at column n with nothing after its ':', on the
 * cursor's deeper line at column m: a collection, or a scalar (which goes
 * on while lines are deeper than n, as on the key's own line). */
static int nested(struct fs *f, int n, int m)
{
	if (is_dash(f, f->pos))
		return block_seq(f, m, 0);
	size_t colon;
	if (!key_at(f, f->pos, &colon))
		return inline_value(f, n);
	return block_map(f, m, colon);
}

/* The end of the text, with the cursor there: libyaml ends the collections
 * deeper than the last line's column at the end of that line, then moves
 * the mark to the start of a new line (when the last one has no line
 * break) and ends the others there.  *moved gets that second mark. */
static struct doc_mark eof_mark(const struct fs *f, struct doc_mark *moved)
{
	struct doc_mark m = mk(f, f->len);
	moved->index = m.index;
	moved->line = m.line + (m.col > 0);
	moved->col = 0;
	return m;
}

/* Where the collection at column col ends when the next content line is
 * indented ind. */
static struct doc_mark end_mark(const struct fs *f, int ind, int col)
{
	if (ind >= 0)
		return mk(f, f->pos);
	struct doc_mark moved, last = eof_mark(f, &moved);
	return col > last.col ? last : moved;
}

/* The block mapping whose first key is at the cursor, column n, with its
 * ':' at colon.  Returns the indentation of the content line after it (with
 * the cursor there), or -1 at the end of the text. */
static int block_map(struct fs *f, int n, size_t colon)
{
	if (++f->depth > FAST_MAX_DEPTH)
		give_up(f);
	emit(f, YAML_MAPPING_START_EVENT, YAML_BLOCK_MAPPING_STYLE, mk(f, f->pos), mk(f, f->pos), NULL, 0);
	int ind;
	for (int first = 1;; first = 0) {
		size_t p = f->pos;
		if (!first && !key_at(f, p, &colon))
			give_up(f);
		if (f->s[p] == '\'' || f->s[p] == '"') {
			quoted(f, p, 1);
		} else {
			size_t ke = colon;
			while (ke > p && f->s[ke - 1] == ' ')
				ke--;
			scalar(f, p, ke, YAML_PLAIN_SCALAR_STYLE, f->s + p, ke - p);
		}
		struct doc_mark after = mk(f, colon + 1);
		f->pos = colon + 1;
		while (at(f, f->pos) == ' ')
			f->pos++;
		char c = at(f, f->pos);
		if (!c || c == '\n' || c == '#') {
			f->pos = line_end(f, f->pos); /* a comment: a blank is before it */
			int m = next_content(f);
			if (m > n) {
				ind = nested(f, n, m);
			} else if (m == n && is_dash(f, f->pos)) {
				ind = block_seq(f, m, 1);
			} else {
				emit(f, YAML_SCALAR_EVENT, YAML_PLAIN_SCALAR_STYLE, after, after, "", 0);
				ind = m;
			}
		} else {
			ind = inline_value(f, n);
		}
		if (ind > n)
			give_up(f); /* a scalar going on, or a stray indentation */
		if (ind < n)
			break;
		if (is_dash(f, f->pos))
			give_up(f);
	}
	emit(f, YAML_MAPPING_END_EVENT, 0, end_mark(f, ind, n), end_mark(f, ind, n), NULL, 0);
	f->depth--;
	return ind;
}

/* The block sequence whose first '-' is at the cursor, column m; an
 * indentless one is the value of a key at the same column. */
static int block_seq(struct fs *f, int m, int indentless)
{
	if (++f->depth > FAST_MAX_DEPTH)
		give_up(f);
	emit(f, YAML_SEQUENCE_START_EVENT, YAML_BLOCK_SEQUENCE_STYLE, mk(f, f->pos),
	     mk(f, f->pos + (indentless ? 1 : 0)), NULL, 0);
	int ind;
	for (;;) {
		size_t q = f->pos + 1, colon;
		while (at(f, q) == ' ')
			q++;
		char c = at(f, q);
		if (!c || c == '\n' || c == '#' || is_dash(f, q))
			give_up(f); /* an empty item, or its node on the next lines */
		f->pos = q;
		if (key_at(f, q, &colon)) {
			ind = block_map(f, (int)(q - f->ls), colon);
		} else {
			ind = inline_value(f, m);
		}
		if (ind > m)
			give_up(f);
		if (ind < m)
			break;
		if (!is_dash(f, f->pos)) {
			if (indentless)
				break;
			give_up(f);
		}
	}
	emit(f, YAML_SEQUENCE_END_EVENT, 0, end_mark(f, ind, m), end_mark(f, ind, m), NULL, 0);
	f->depth--;
	return ind;
}

/* ---- the document --------------------------------------------------------- */

/* The characters this reader takes: printable ASCII, line feeds, and
 * well-formed UTF-8 for the printable characters YAML allows beyond ASCII,
 * except those libyaml reads as more than text (U+2028 and U+2029 break
 * lines, U+FEFF at the start of a line is skipped).  Tabs, CR, control
 * characters and malformed UTF-8 are libyaml's, with its messages.
 * Returns 0 when some other character is there; *ascii when all are ASCII. */
static int readable(const char *s, size_t len, int *ascii)
{
	const unsigned char *u = (const unsigned char *)s;
	/* the common case first: eight bytes at a time, all of them in
	 * 0x20..0x7E (no byte below 0x20, none with the top bit, no DEL), or a
	 * line feed among them */
	const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
	size_t i = 0;
	int other = 0;
#if defined(__SSE2__)
	/* sixteen at a time, exactly: a signed byte below 0x20 is a control or
	 * has the top bit */
	const __m128i space = _mm_set1_epi8(0x20), rub = _mm_set1_epi8(0x7F), nl = _mm_set1_epi8('\n');
	for (; i + 16 <= len; i += 16) {
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(u + i));
		__m128i bad = _mm_or_si128(_mm_cmplt_epi8(b, space), _mm_cmpeq_epi8(b, rub));
		if (_mm_movemask_epi8(_mm_andnot_si128(_mm_cmpeq_epi8(b, nl), bad))) {
			other = 1;
			break;
		}
	}
#endif
	for (; i + 8 <= len && !other; i += 8) {
		uint64_t w;
		memcpy(&w, u + i, 8);
		uint64_t low = (w - 0x20 * ones) & ~w & high, del = ((w ^ 0x7F * ones) - ones) & ~(w ^ 0x7F * ones) & high;
		if (!((w & high) | low | del))
			continue;
		for (size_t k = i; k < i + 8; k++)
			other |= u[k] != '\n' && (u[k] < 0x20 || u[k] > 0x7E);
	}
	for (; i < len && !other; i++)
		other = u[i] != '\n' && (u[i] < 0x20 || u[i] > 0x7E);
	*ascii = !other;
	if (!other)
		return 1;
	for (i = 0; i < len; i++) {
		unsigned c = u[i];
		if (c == '\n' || (c >= 0x20 && c <= 0x7E))
			continue;
		if (c < 0xC2 || c > 0xF4)
			return 0; /* control, DEL, a stray continuation, an overlong lead */
		size_t n = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
		if (len - i <= n)
			return 0;
		unsigned v = c & (0x3F >> n);
		for (size_t k = 1; k <= n; k++) {
			if ((u[i + k] & 0xC0) != 0x80)
				return 0;
			v = v << 6 | (u[i + k] & 0x3F);
		}
		static const unsigned least[] = { 0, 0x80, 0x800, 0x10000 };
		if (v < least[n] || v < 0xA0 || (v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF ||
		    v == 0x2028 || v == 0x2029 || v == 0xFEFF || v == 0xFFFE || v == 0xFFFF)
			return 0;
		i += n;
	}
	return 1;
}

int doc_fast_scan(const char *buf, size_t len, doc_event_fn fn, void *ctx)
{
	int ascii;
	/* libyaml's marks leave a byte order mark out */
	if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3)) {
		buf += 3;
		len -= 3;
	}
	if (len > (size_t)1 << 30 || !readable(buf, len, &ascii))
		return -1;
	/* on the heap and through a volatile pointer: read after a longjmp */
	struct fs *volatile f = xcalloc(1, sizeof(*f));
	f->s = buf;
	f->len = len;
	f->ascii = ascii;
	f->fn = fn;
	f->ctx = ctx;
	int jumped = setjmp(f->give_up);
	if (jumped) {
		int r = jumped == 2 ? f->stopped : -1;
		free(f->scratch);
		free(f);
		return r;
	}
	struct doc_mark zero = { 0, 0, 0 };
	emit(f, YAML_STREAM_START_EVENT, 0, zero, zero, NULL, 0);
	int ind = content_from(f);
	if (ind >= 0) {
		size_t colon;
		if (!key_at(f, f->pos, &colon))
			give_up(f); /* a top level that is not a mapping: libyaml's errors */
		emit(f, YAML_DOCUMENT_START_EVENT, 0, mk(f, f->pos), mk(f, f->pos), NULL, 0);
		if (block_map(f, ind, colon) != -1)
			give_up(f);
	}
	struct doc_mark end;
	eof_mark(f, &end);
	if (ind >= 0)
		emit(f, YAML_DOCUMENT_END_EVENT, 0, end, end, NULL, 0);
	emit(f, YAML_STREAM_END_EVENT, 0, end, end, NULL, 0);
	free(f->scratch);
	free(f);
	return 0;
}

/* ---- all events at once (for the tests and the fuzzer) -------------------- */

struct collect {
	struct doc_events *out;
	struct strbuf text;
	size_t *at; /* offset + 1 of each event's value in text, 0 for none */
	size_t aat;
};

static int collect_one(void *ctx, const struct doc_event *e)
{
	struct collect *c = ctx;
	struct doc_events *o = c->out;
	ALLOC_GROW(o->v, o->n + 1, o->alloc);
	ALLOC_GROW(c->at, o->n + 1, c->aat);
	o->v[o->n] = *e;
	c->at[o->n] = 0;
	if (e->value) {
		c->at[o->n] = c->text.len + 1;
		strbuf_add(&c->text, e->value, e->len);
		strbuf_addch(&c->text, 0);
	}
	o->n++;
	return 0;
}

void doc_events_release(struct doc_events *ev)
{
	free(ev->v);
	free(ev->text);
	memset(ev, 0, sizeof(*ev));
}

int doc_fast_events(const char *buf, size_t len, struct doc_events *out)
{
	struct collect c = { out, STRBUF_INIT, NULL, 0 };
	memset(out, 0, sizeof(*out));
	int r = doc_fast_scan(buf, len, collect_one, &c);
	out->text = c.text.buf ? strbuf_detach(&c.text, NULL) : NULL;
	for (size_t i = 0; i < out->n; i++)
		out->v[i].value = c.at[i] ? out->text + c.at[i] - 1 : NULL;
	free(c.at);
	if (r) {
		doc_events_release(out);
		return -1;
	}
	return 0;
}
