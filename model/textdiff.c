/*
 * textdiff.c — line diffs of two texts (Myers' O(ND) with GNU diff's hunk
 * placement, so the Diff tab and `set --diff` print what `diff -u` prints)
 * and the three-way merge a save uses when the file changed on disk.
 */
#include "model/textdiff.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* ---- unified diff ----------------------------------------------------- */

struct line {
	const char *p;
	size_t len; /* including the '\n', when there is one */
	unsigned long h;
};

static size_t split_lines(const char *s, size_t n, struct line **out)
{
	size_t count = 0, alloc = 0;
	struct line *v = NULL;
	size_t i = 0;
	while (i < n) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - s) + 1 : n;
		unsigned long h = 5381;
		for (size_t k = i; k < end; k++)
			h = h * 33 + (unsigned char)s[k];
		ALLOC_GROW(v, count + 1, alloc);
		v[count].p = s + i;
		v[count].len = end - i;
		v[count].h = h;
		count++;
		i = end;
	}
	*out = v;
	return count;
}

static int line_eq(const struct line *x, const struct line *y)
{
	return x->h == y->h && x->len == y->len && !memcmp(x->p, y->p, x->len);
}

struct dctx {
	const struct line *a, *b;
	char *del, *ins; /* per line of a: deleted; per line of b: inserted */
};

/* Myers' middle snake (the linear-space O(ND) variant, as in
 * diff-match-patch's bisect).  Returns 1 with the split point, 0 when the
 * ranges share nothing. */
static int bisect(const struct dctx *c, long a0, long n, long b0, long m, long *sx, long *sy)
{
	long max_d = (n + m + 1) / 2, off = max_d, vlen = 2 * max_d + 2;
	long *v1 = xmalloc((size_t)vlen * sizeof(long)), *v2 = xmalloc((size_t)vlen * sizeof(long));
	for (long i = 0; i < vlen; i++)
		v1[i] = v2[i] = -1;
	v1[off + 1] = v2[off + 1] = 0;
	long delta = n - m;
	int front = (delta & 1) != 0;
	long k1s = 0, k1e = 0, k2s = 0, k2e = 0;
	int found = 0;
	for (long d = 0; d < max_d && !found; d++) {
		for (long k1 = -d + k1s; k1 <= d - k1e; k1 += 2) {
			long k1o = off + k1, x1;
			if (k1 == -d || (k1 != d && v1[k1o - 1] < v1[k1o + 1]))
				x1 = v1[k1o + 1];
			else
				x1 = v1[k1o - 1] + 1;
			long y1 = x1 - k1;
			while (x1 < n && y1 < m && line_eq(&c->a[a0 + x1], &c->b[b0 + y1]))
				x1++, y1++;
			v1[k1o] = x1;
			if (x1 > n) {
				k1e += 2;
			} else if (y1 > m) {
				k1s += 2;
			} else if (front) {
				long k2o = off + delta - k1;
				if (k2o >= 0 && k2o < vlen && v2[k2o] != -1 && x1 >= n - v2[k2o]) {
					*sx = x1, *sy = y1, found = 1;
					break;
				}
			}
		}
		if (found)
			break;
		for (long k2 = -d + k2s; k2 <= d - k2e; k2 += 2) {
			long k2o = off + k2, x2;
			if (k2 == -d || (k2 != d && v2[k2o - 1] < v2[k2o + 1]))
				x2 = v2[k2o + 1];
			else
				x2 = v2[k2o - 1] + 1;
			long y2 = x2 - k2;
			while (x2 < n && y2 < m &&
			       line_eq(&c->a[a0 + n - x2 - 1], &c->b[b0 + m - y2 - 1]))
				x2++, y2++;
			v2[k2o] = x2;
			if (x2 > n) {
				k2e += 2;
			} else if (y2 > m) {
				k2s += 2;
			} else if (!front) {
				long k1o = off + delta - k2;
				if (k1o >= 0 && k1o < vlen && v1[k1o] != -1) {
					long x1 = v1[k1o], y1 = off + x1 - k1o;
					if (x1 >= n - x2) {
						*sx = x1, *sy = y1, found = 1;
						break;
					}
				}
			}
		}
	}
	free(v1);
	free(v2);
	return found;
}

static void diff_rec(const struct dctx *c, long a0, long a1, long b0, long b1)
{
	while (a0 < a1 && b0 < b1 && line_eq(&c->a[a0], &c->b[b0]))
		a0++, b0++;
	while (a0 < a1 && b0 < b1 && line_eq(&c->a[a1 - 1], &c->b[b1 - 1]))
		a1--, b1--;
	long x, y, n = a1 - a0, m = b1 - b0;
	if (n && m && bisect(c, a0, n, b0, m, &x, &y) && (x || y) && (x != n || y != m)) {
		diff_rec(c, a0, a0 + x, b0, b0 + y);
		diff_rec(c, a0 + x, a1, b0 + y, b1);
		return;
	}
	memset(c->del + a0, 1, (size_t)n);
	memset(c->ins + b0, 1, (size_t)m);
}

/* Equivalence classes: equal lines of either text get the same number. */
static long *line_classes(const struct line *a, size_t na, const struct line *b, size_t nb)
{
	size_t n = na + nb, cap = 16;
	while (cap < 2 * n)
		cap *= 2;
	long *slot = xmalloc(cap * sizeof(long)), *cls = xmalloc((n + 1) * sizeof(long));
	for (size_t i = 0; i < cap; i++)
		slot[i] = -1;
	for (size_t i = 0; i < n; i++) {
		const struct line *l = i < na ? &a[i] : &b[i - na];
		size_t s = l->h & (cap - 1);
		for (;;) {
			long o = slot[s];
			if (o < 0) {
				slot[s] = (long)i;
				cls[i] = (long)i;
				break;
			}
			const struct line *ol = (size_t)o < na ? &a[o] : &b[(size_t)o - na];
			if (line_eq(l, ol)) {
				cls[i] = cls[o];
				break;
			}
			s = (s + 1) & (cap - 1);
		}
	}
	free(slot);
	return cls;
}

/*
 * Slide each run of changes to the place GNU diff would show it: as far down
 * as it can go, merged with neighbouring runs where possible, then back to
 * where it lines up with a run in the other text.  Several placements are
 * equally short; this makes ours print the same hunks as `diff -u`.
 * changed[-1] and changed[n] must be readable zeros (both arrays are padded).
 */
static void shift_boundaries(char *changed, char *other, const long *eq, long n)
{
	long i = 0, j = 0;
	for (;;) {
		while (i < n && !changed[i]) {
			while (other[j++])
				;
			i++;
		}
		if (i == n)
			break;
		long start = i, runlength, corresponding;
		while (changed[++i])
			;
		while (other[j])
			j++;
		do {
			runlength = i - start;
			while (start && eq[start - 1] == eq[i - 1]) {
				changed[--start] = 1;
				changed[--i] = 0;
				while (changed[start - 1])
					start--;
				while (other[--j])
					;
			}
			corresponding = other[j - 1] ? i : n;
			while (i != n && eq[start] == eq[i]) {
				changed[start++] = 0;
				changed[i++] = 1;
				while (changed[i])
					i++;
				while (other[++j])
					corresponding = i;
			}
		} while (runlength != i - start);
		while (corresponding < i) {
			changed[--start] = 1;
			changed[--i] = 0;
			while (other[--j])
				;
		}
	}
}

struct change {
	size_t a, na, b, nb; /* at line a of the old text, na lines become nb lines at b */
};

static void add_range(struct strbuf *out, size_t start, size_t count)
{
	/* diff -u: an empty range names the line before it, one line has no count */
	if (count == 0)
		strbuf_addf(out, "%zu,0", start);
	else if (count == 1)
		strbuf_addf(out, "%zu", start + 1);
	else
		strbuf_addf(out, "%zu,%zu", start + 1, count);
}

static void add_line(struct strbuf *out, char mark, const struct line *l)
{
	strbuf_addch(out, mark);
	strbuf_add(out, l->p, l->len);
	if (!l->len || l->p[l->len - 1] != '\n')
		strbuf_addstr(out, "\n\\ No newline at end of file\n");
}

#define DIFF_CONTEXT 3

/* The changes that turn a into b, in order, placed as `diff -u` places them. */
static size_t diff_changes(const struct line *la, size_t na, const struct line *lb, size_t nb,
			   struct change **out)
{
	/* One byte of zero padding before and after each flag array. */
	char *dflags = xcalloc(na + 2, 1), *iflags = xcalloc(nb + 2, 1);
	struct dctx c = { la, lb, dflags + 1, iflags + 1 };
	diff_rec(&c, 0, (long)na, 0, (long)nb);
	long *cls = line_classes(la, na, lb, nb);
	shift_boundaries(c.del, c.ins, cls, (long)na);
	shift_boundaries(c.ins, c.del, cls + na, (long)nb);
	free(cls);

	struct change *ch = NULL;
	size_t nch = 0, alloc = 0, i = 0, j = 0;
	while (i < na || j < nb) {
		if ((i < na && c.del[i]) || (j < nb && c.ins[j])) {
			struct change x = { i, 0, j, 0 };
			while (i < na && c.del[i])
				i++, x.na++;
			while (j < nb && c.ins[j])
				j++, x.nb++;
			ALLOC_GROW(ch, nch + 1, alloc);
			ch[nch++] = x;
		} else {
			i++, j++;
		}
	}
	free(dflags);
	free(iflags);
	*out = ch;
	return nch;
}

void text_diff(struct strbuf *out, const char *name, const char *a, size_t alen, const char *b,
	       size_t blen)
{
	if (alen == blen && (!alen || !memcmp(a, b, alen)))
		return;
	struct line *la, *lb;
	size_t na = split_lines(a, alen, &la), nb = split_lines(b, blen, &lb);
	struct change *ch;
	size_t nch = diff_changes(la, na, lb, nb, &ch);

	/* git's a/ b/ prefixes; an absolute path must not read "a//tmp/x". */
	const char *rel = name;
	while (*rel == '/')
		rel++;
	strbuf_addf(out, "--- a/%s\n+++ b/%s\n", rel, rel);
	for (size_t h = 0; h < nch;) {
		/* Changes closer than twice the context share a hunk, as in diff -u. */
		size_t last = h;
		while (last + 1 < nch && ch[last + 1].a - (ch[last].a + ch[last].na) <= 2 * DIFF_CONTEXT)
			last++;
		size_t pre = ch[h].a < DIFF_CONTEXT ? ch[h].a : DIFF_CONTEXT;
		size_t as = ch[h].a - pre, bs = ch[h].b - pre;
		size_t aend = ch[last].a + ch[last].na + DIFF_CONTEXT;
		if (aend > na)
			aend = na;
		size_t post = aend - (ch[last].a + ch[last].na);
		size_t bend = ch[last].b + ch[last].nb + post;
		strbuf_addstr(out, "@@ -");
		add_range(out, as, aend - as);
		strbuf_addstr(out, " +");
		add_range(out, bs, bend - bs);
		strbuf_addstr(out, " @@\n");
		size_t ai = as, bi = bs;
		for (size_t k = h; k <= last; k++) {
			for (; ai < ch[k].a; ai++, bi++)
				add_line(out, ' ', &la[ai]);
			for (; ai < ch[k].a + ch[k].na; ai++)
				add_line(out, '-', &la[ai]);
			for (; bi < ch[k].b + ch[k].nb; bi++)
				add_line(out, '+', &lb[bi]);
		}
		for (; ai < aend; ai++, bi++)
			add_line(out, ' ', &la[ai]);
		h = last + 1;
	}
	free(ch);
	free(la);
	free(lb);
}

/* ---- three-way merge --------------------------------------------------- */

/* Do two changes of the base, [s1, e1) and [s2, e2), get in each other's way?
 * Replacing two ranges that only touch is fine, and so is an insertion at the
 * edge of a replaced range; two insertions at one place are not (which
 * goes first?), nor an insertion inside a range the other side rewrites. */
static int collide(size_t s1, size_t e1, size_t s2, size_t e2)
{
	if (s1 == e1 && s2 == e2)
		return s1 == s2;
	if (s1 == e1)
		return s2 < s1 && s1 < e2;
	if (s2 == e2)
		return s1 < s2 && s2 < e1;
	return s1 < e2 && s2 < e1;
}

/* One side's text for base lines [s, e), given its changes [k0, k1) that lie
 * in that range. */
static void side_text(struct strbuf *out, const struct line *base, size_t s, size_t e,
		      const struct line *side, const struct change *ch, size_t k0, size_t k1)
{
	size_t pos = s;
	for (size_t k = k0; k < k1; k++) {
		for (; pos < ch[k].a; pos++)
			strbuf_add(out, base[pos].p, base[pos].len);
		for (size_t i = 0; i < ch[k].nb; i++)
			strbuf_add(out, side[ch[k].b + i].p, side[ch[k].b + i].len);
		pos = ch[k].a + ch[k].na;
	}
	for (; pos < e; pos++)
		strbuf_add(out, base[pos].p, base[pos].len);
}

int text_merge3(struct strbuf *out, const char *base, size_t blen, const char *ours,
		size_t olen, const char *theirs, size_t tlen, size_t *line)
{
	struct line *lb, *lo, *lt;
	size_t nb = split_lines(base, blen, &lb), no = split_lines(ours, olen, &lo),
	       nt = split_lines(theirs, tlen, &lt);
	struct change *co, *ct;
	size_t nco = diff_changes(lb, nb, lo, no, &co), nct = diff_changes(lb, nb, lt, nt, &ct);
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	size_t pos = 0, i = 0, j = 0;
	int rc = 0;
	long shift = 0; /* ours' lines minus base's lines before `pos` */
	while (i < nco || j < nct) {
		/* a group: the first change still to do, and every change of either
		 * side that collides with what the group covers so far */
		size_t s, e, i0 = i, j0 = j;
		/* at one line, an insertion before the line goes before a change of it */
		if (j >= nct || (i < nco && (co[i].a < ct[j].a ||
					     (co[i].a == ct[j].a && (!co[i].na || ct[j].na)))))
			s = co[i].a, e = co[i].a + co[i].na, i++;
		else
			s = ct[j].a, e = ct[j].a + ct[j].na, j++;
		for (int grew = 1; grew;) {
			grew = 0;
			if (i < nco && (collide(s, e, co[i].a, co[i].a + co[i].na) ||
					(j > j0 && collide(ct[j - 1].a, ct[j - 1].a + ct[j - 1].na,
							   co[i].a, co[i].a + co[i].na)))) {
				if (co[i].a + co[i].na > e)
					e = co[i].a + co[i].na;
				i++, grew = 1;
			}
			if (j < nct && (collide(s, e, ct[j].a, ct[j].a + ct[j].na) ||
					(i > i0 && collide(co[i - 1].a, co[i - 1].a + co[i - 1].na,
							   ct[j].a, ct[j].a + ct[j].na)))) {
				if (ct[j].a + ct[j].na > e)
					e = ct[j].a + ct[j].na;
				j++, grew = 1;
			}
		}
		for (; pos < s; pos++)
			strbuf_add(out, lb[pos].p, lb[pos].len);
		strbuf_reset(&x);
		strbuf_reset(&y);
		side_text(&x, lb, s, e, lo, co, i0, i);
		side_text(&y, lb, s, e, lt, ct, j0, j);
		if (i > i0 && j > j0 && (x.len != y.len || (x.len && memcmp(x.buf, y.buf, x.len)))) {
			if (line)
				*line = (size_t)((long)s + shift) + 1;
			rc = 1;
			break;
		}
		/* one side changed these lines, or both the same way */
		const struct strbuf *take = i > i0 ? &x : &y;
		if (take->len)
			strbuf_add(out, take->buf, take->len);
		for (size_t k = i0; k < i; k++)
			shift += (long)co[k].nb - (long)co[k].na;
		pos = e;
	}
	if (!rc)
		for (; pos < nb; pos++)
			strbuf_add(out, lb[pos].p, lb[pos].len);
	else
		strbuf_reset(out);
	strbuf_release(&x);
	strbuf_release(&y);
	free(co);
	free(ct);
	free(lb);
	free(lo);
	free(lt);
	return rc;
}
