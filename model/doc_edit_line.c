/*
 * doc_edit_line.c — check an edit that replaced one scalar value on its line
 * by reading that line alone, and patch the index to the new text, instead
 * of re-reading the whole document (design §3.3 asks that every edit reads
 * back as intended; this is the same check, made where the edit is).
 *
 * Why one line is enough here: the value is a single-line plain or quoted
 * scalar in block context (not inside a flow collection), without anchor,
 * tag or tab, in a document without aliases, and it keeps its style.  Such
 * a scalar's extent is decided by the characters of its line (a plain
 * scalar ends at the line end, ": " or " #"; a quoted one at its closing
 * quote), and whether the next line continues it depends on indentation
 * only, which the edit does not touch.  So if the old and the new line,
 * read alone under a dummy key, give the same nodes with the same texts
 * except the value, and the value reads as intended, the whole document
 * reads the same except that value.  Otherwise the caller re-reads it all.
 */
#include "model/doc_internal.h"

#include <stdlib.h>
#include <string.h>

#define PROBE_HEAD "k:\n" /* puts the line under a key, whatever it starts with */
#define PROBE_LEN 3

static int has(const char *s, size_t a, size_t b, const char *chars)
{
	for (size_t i = a; i < b; i++)
		if (strchr(chars, s[i]))
			return 1;
	return 0;
}

static size_t line_end(const char *s, size_t len, size_t pos)
{
	while (pos < len && s[pos] != '\n' && s[pos] != '\r')
		pos++;
	return pos;
}

static int chars(const char *s, size_t a, size_t b)
{
	int n = 0;
	for (size_t i = a; i < b; i++)
		n += ((unsigned char)s[i] & 0xC0) != 0x80;
	return n;
}

/* Index of the line [ls, le) of s read alone under PROBE_HEAD. */
static int probe(struct doc_index *ix, const char *s, size_t ls, size_t le)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, PROBE_HEAD);
	strbuf_add(&sb, s + ls, le - ls);
	strbuf_addch(&sb, '\n');
	int rc = doc_index_build(ix, "line", sb.buf, sb.len, NULL, 0);
	strbuf_release(&sb);
	return rc;
}

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The probes agree node for node, apart from the value at index j.  Nodes
 * are listed in document order, so equal kinds and child counts in that
 * order are equal trees. */
static int same_probes(const struct doc_index *a, const struct doc_index *b, size_t j)
{
	if (a->nall != b->nall)
		return 0;
	for (size_t i = 0; i < a->nall; i++) {
		const struct doc_node *x = a->all[i], *y = b->all[i];
		if (x->kind != y->kind || x->flow != y->flow || x->nkids != y->nkids || x->style != y->style ||
		    !same_str(x->tag, y->tag) || !same_str(x->anchor, y->anchor))
			return 0;
		if (i != j && (x->len != y->len || (x->len && memcmp(x->text, y->text, x->len))))
			return 0;
	}
	return 1;
}

/* The node of ix that is a scalar with its value at [vs, ve); its index in *at. */
static const struct doc_node *scalar_at(const struct doc_index *ix, size_t vs, size_t ve, size_t *at)
{
	for (size_t i = 0; i < ix->nall; i++) {
		const struct doc_node *n = ix->all[i];
		if (n->kind == DOC_SCALAR && n->vstart == vs && n->end == ve) {
			*at = i;
			return n;
		}
	}
	return NULL;
}

static void shift(size_t *x, size_t from, size_t by_plus, size_t by_minus)
{
	if (*x != DOC_NONE && *x >= from)
		*x = *x + by_plus - by_minus;
}

int doc_edit_line_verify(struct doc_index *cur, const char *old, size_t olen, const char *text, size_t len,
			 const struct doc_node *n, size_t pos, size_t oldlen, size_t newlen, const json_t *want,
			 struct doc_index *out)
{
	const struct doc_node *par = n->parent;
	if (cur->naliases || n->kind != DOC_SCALAR || n->in_flow || n->anchor || n->tag || !par ||
	    (n->style != STYLE_PLAIN && n->style != STYLE_SINGLE && n->style != STYLE_DOUBLE) ||
	    !oldlen || pos != n->vstart || pos + oldlen != n->end || pos < cur->body)
		return -1;
	if (par->kind == DOC_MAP) { /* a value, not a key */
		size_t i = 0;
		while (i < par->nkids && par->kids[i] != n)
			i++;
		if (i % 2 == 0)
			return -1;
	}
	size_t ls = pos;
	while (ls > cur->body && text[ls - 1] != '\n' && text[ls - 1] != '\r')
		ls--;
	size_t le_old = line_end(old, olen, pos + oldlen), le_new = line_end(text, len, pos + newlen);
	if (has(old, ls, le_old, "\t\n\r") || has(text, ls, le_new, "\t\n\r"))
		return -1;

	struct doc_index po, pn;
	if (probe(&po, old, ls, le_old) < 0)
		return -1;
	if (probe(&pn, text, ls, le_new) < 0) {
		doc_index_release(&po);
		return -1;
	}
	size_t vs = pos - ls + PROBE_LEN, j = 0, jn = 0;
	const struct doc_node *a = scalar_at(&po, vs, vs + oldlen, &j);
	const struct doc_node *b = scalar_at(&pn, vs, vs + newlen, &jn);
	int ok = a && b && j == jn && same_probes(&po, &pn, j) && a->style == n->style && b->style == n->style &&
		 a->len == n->len && !memcmp(a->text, n->text, n->len);
	if (ok) {
		json_t *got = doc_snapshot(b);
		ok = json_equal(got, want);
		json_decref(got);
	}
	if (!ok) {
		doc_index_release(&po);
		doc_index_release(&pn);
		return -1;
	}

	/* Proven: take the index over and move what follows the value. */
	*out = *cur;
	memset(cur, 0, sizeof(*cur));
	size_t old_end = pos + oldlen;
	int dchars = chars(text, pos, pos + newlen) - chars(old, pos, old_end);
	struct doc_node *t = (struct doc_node *)n;
	/* a value of the same length moves nothing (and a 20,000-line
	 * recipe has 30,000 nodes to look at) */
	for (size_t i = 0; (newlen != oldlen || dchars) && i < out->nall; i++) {
		struct doc_node *m = out->all[i];
		int after_on_line = m->line == t->line && m->vstart >= old_end;
		shift(&m->start, old_end, newlen, oldlen);
		shift(&m->vstart, old_end, newlen, oldlen);
		shift(&m->end, old_end, newlen, oldlen);
		shift(&m->raw_end, old_end, newlen, oldlen);
		if (m->dash != DOC_NONE && m->dash >= old_end && m->dash_line == t->line)
			m->dash_col += dchars;
		shift(&m->dash, old_end, newlen, oldlen);
		if (after_on_line)
			m->col += dchars;
	}
	for (size_t i = 0; i < out->lint.n; i++)
		if (out->lint.v[i].line == t->line + 1 && out->lint.v[i].col > t->col + 1)
			out->lint.v[i].col += dchars;
	/* the old text stays in the index's blocks until it is released */
	t->text = doc_index_strndup(out, b->text, b->len);
	t->len = b->len;
	doc_index_release(&po);
	doc_index_release(&pn);
	return 0;
}
