/*
 * doc_edit.c — edits as text splices (design §3.2), each verified by
 * re-parsing and comparing typed snapshots (§3.3).
 *
 * An edit works on a private copy of the text.  It computes the splice from
 * the current index, applies the intended change to a snapshot of the old
 * tree, re-indexes the new text and requires the two snapshots to be equal;
 * only then does the document take the new text (the old one goes on the
 * undo stack).  Any refusal leaves the document untouched.
 *
 * The most common edit, one scalar value replaced by another on its line,
 * is verified on that line alone (doc_edit_line.c): the old and the new line
 * must read the same apart from the value, which must read as intended.
 * Then the index is patched instead of rebuilt and no snapshot of the whole
 * tree is made; anything else takes the whole-text check.
 */
#include "model/doc_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct ed {
	struct doc *d;
	const char *name;
	struct strbuf t;      /* working text */
	struct doc_index ix;  /* index of t */
	int own_ix;
	const char *eol;
	json_t *expect;       /* snapshot the result must have (built on first use) */
	int expect_built;
	size_t nsplice;       /* splices made, and the last one: */
	size_t sp_pos, sp_old, sp_new;
	const struct doc_node *line_node; /* a scalar replaced on its line (see top) */
	json_t *line_val;     /* its intended snapshot */
	char *ps;             /* the edited path as text, for messages */
	char **err, **warn;
};

/* ---------- text helpers over the working copy ---------- */

static const char *S(const struct ed *e) { return e->t.buf ? e->t.buf : ""; }
static size_t L(const struct ed *e) { return e->t.len; }

static size_t ls_of(const struct ed *e, size_t pos)
{
	const char *s = S(e);
	while (pos > e->ix.body && s[pos - 1] != '\n')
		pos--;
	return pos;
}
static size_t le_of(const struct ed *e, size_t pos) /* at the line break */
{
	const char *s = S(e);
	size_t q = pos;
	while (q < L(e) && s[q] != '\n')
		q++;
	if (q < L(e) && q > pos && s[q - 1] == '\r')
		q--;
	return q;
}
static size_t nl_of(const struct ed *e, size_t pos) /* start of the next line */
{
	const char *s = S(e);
	while (pos < L(e) && s[pos] != '\n')
		pos++;
	return pos < L(e) ? pos + 1 : pos;
}
static int only_ws(const struct ed *e, size_t a, size_t b)
{
	const char *s = S(e);
	for (size_t i = a; i < b; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}
static int blank_line(const struct ed *e, size_t ls)
{
	size_t le = le_of(e, ls);
	return ls < L(e) && only_ws(e, ls, le);
}
static int comment_line(const struct ed *e, size_t ls)
{
	const char *s = S(e);
	size_t i = ls;
	while (i < L(e) && s[i] == ' ')
		i++;
	return i < L(e) && s[i] == '#';
}
static int ends_with_break(const struct ed *e)
{
	return L(e) == e->ix.body || S(e)[L(e) - 1] == '\n';
}
static void spaces(struct strbuf *out, int n)
{
	for (int i = 0; i < n; i++)
		strbuf_addch(out, ' ');
}

static void ed_errf(struct ed *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ed_errf(struct ed *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (e->err && !*e->err)
		*e->err = xvasprintf(fmt, ap);
	va_end(ap);
}

/* ---------- setup, splice, verify ---------- */

/* An alias bomb has no typed value: srtctl could not load it, so no edit
 * of it can be checked against what srtctl would see. */
static int typed_ok(struct ed *e)
{
	if (!e->ix.naliases)
		return 1; /* without aliases nothing expands: no bomb to find */
	json_t *j = doc_json(e->d);
	if (j) {
		json_decref(j);
		return 1;
	}
	ed_errf(e, "the file's aliases expand to too much data (an alias bomb?); fix it by hand");
	return 0;
}

static void ed_init(struct ed *e, struct doc *d, char **err, char **warn)
{
	memset(e, 0, sizeof(*e));
	e->d = d;
	e->name = doc_name(d);
	size_t len;
	const char *s = doc_bytes(d, &len);
	strbuf_add(&e->t, s, len);
	e->ix = *doc_current_index(d);
	e->eol = "\n";
	const char *nl = memchr(s, '\n', len);
	if (nl && nl > s && nl[-1] == '\r')
		e->eol = "\r\n";
	e->err = err;
	e->warn = warn;
	if (err)
		*err = NULL;
	if (warn)
		*warn = NULL;
}

static void ed_release(struct ed *e)
{
	strbuf_release(&e->t);
	if (e->own_ix)
		doc_index_release(&e->ix);
	json_decref(e->expect);
	json_decref(e->line_val);
	free(e->ps);
}

static void splice(struct ed *e, size_t pos, size_t len, const char *data, size_t dlen)
{
	strbuf_splice(&e->t, pos, len, data, dlen);
	e->nsplice++;
	e->sp_pos = pos;
	e->sp_old = len;
	e->sp_new = dlen;
}

/* The snapshot the result must have: the document's, as the edit changes it. */
static json_t *expect(struct ed *e)
{
	if (!e->expect_built) {
		e->expect = doc_snapshot(doc_current_index(e->d)->root);
		e->expect_built = 1;
	}
	return e->expect;
}

static void snap_replace(struct ed *e, const struct doc_node *n, json_t *nv);

/* Re-index the working text mid-edit (after a preparatory splice). */
static int reindex(struct ed *e)
{
	struct doc_index ix;
	if (doc_index_build(&ix, e->name, S(e), L(e), NULL, 0) < 0)
		return -1;
	if (e->own_ix)
		doc_index_release(&e->ix);
	e->ix = ix;
	e->own_ix = 1;
	return 0;
}

static int ed_finish(struct ed *e, const char *what)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc_index ix;
	if (e->line_node) {
		size_t olen;
		const char *old = doc_bytes(e->d, &olen);
		if (e->nsplice == 1 && !e->own_ix &&
		    doc_edit_line_verify(doc_current_index(e->d), old, olen, S(e), L(e), e->line_node, e->sp_pos,
					 e->sp_old, e->sp_new, e->line_val, &ix) == 0) {
			size_t len = e->t.len;
			char *text = strbuf_detach(&e->t, NULL);
			doc_install(e->d, text ? text : xstrdup(""), len, &ix);
			doc_note_value_edit(e->d, e->line_node);
			return 0;
		}
		/* not provable on its line: the whole-text check below */
		snap_replace(e, e->line_node, json_incref(e->line_val));
		e->line_node = NULL;
	}
	if (doc_index_build(&ix, e->name, S(e), L(e), &dl, 1) < 0) {
		ed_errf(e, "%s was refused: the result would not read back (%s); edit the file by hand",
			what, dl.n ? dl.v[dl.n - 1].message : "syntax error");
		diag_list_release(&dl);
		return -1;
	}
	diag_list_release(&dl);
	json_t *got = doc_snapshot(ix.root);
	int same = json_equal(got, expect(e));
	json_decref(got);
	if (!same) {
		doc_index_release(&ix);
		ed_errf(e, "%s was refused: the result would not read back as intended (this is a bug in "
			   "srt-tui); edit the file by hand", what);
		return -1;
	}
	size_t len = e->t.len;
	char *text = strbuf_detach(&e->t, NULL);
	if (!text)
		text = xstrdup("");
	doc_install(e->d, text, len, &ix);
	return 0;
}

/* ---------- snapshots of intended values ---------- */

static json_t *value_snap(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING:
		return json_stringn(json_string_value(v), json_string_length(v));
	case JSON_ARRAY: {
		json_t *a = json_array();
		for (size_t i = 0; i < json_array_size(v); i++)
			json_array_append_new(a, value_snap(json_array_get(v, i)));
		return a;
	}
	case JSON_OBJECT: {
		json_t *o = json_object();
		const char *k;
		json_t *x;
		json_object_foreach((json_t *)v, k, x) json_object_set_new(o, k, value_snap(x));
		return o;
	}
	default: {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addch(&sb, '\x01');
		scalar_emit_json(&sb, v, STYLE_PLAIN, 0);
		json_t *j = json_stringn(sb.buf, sb.len);
		strbuf_release(&sb);
		return j;
	}
	}
}

static char *key_snap(const struct doc_node *k)
{
	if (k->kind == DOC_SEQ || k->kind == DOC_MAP)
		return doc_snapshot_complex_key(k);
	json_t *j = doc_snapshot(k);
	char *s = xstrdup(json_is_string(j) ? json_string_value(j) : "");
	json_decref(j);
	return s;
}

static size_t kid_index(const struct doc_node *par, const struct doc_node *n)
{
	for (size_t i = 0; i < par->nkids; i++)
		if (par->kids[i] == n)
			return i;
	return 0;
}

/* The key of n when n is a value in a mapping; NULL for a list item, the
 * root, or a node that is itself a key (`? {a: 1} : x`: a complex key). */
static const struct doc_node *key_of(const struct doc_node *n)
{
	const struct doc_node *p = n->parent;
	if (!p || p->kind != DOC_MAP)
		return NULL;
	size_t i = kid_index(p, n);
	return i % 2 ? p->kids[i - 1] : NULL;
}

/* The snapshot of node n inside e->expect (borrowed). */
static json_t *snap_of(struct ed *e, const struct doc_node *n)
{
	if (!n || !n->parent)
		return expect(e);
	json_t *p = snap_of(e, n->parent);
	if (!p)
		return NULL;
	size_t i = kid_index(n->parent, n);
	if (n->parent->kind == DOC_MAP) {
		if (!key_of(n))
			return NULL; /* inside a complex key: not addressable */
		char *k = key_snap(n->parent->kids[i - 1]);
		json_t *x = json_object_get(p, k);
		free(k);
		return x;
	}
	return json_array_get(p, i);
}

static void snap_replace(struct ed *e, const struct doc_node *n, json_t *nv)
{
	if (!n->parent) {
		json_decref(expect(e));
		e->expect = nv;
		return;
	}
	json_t *p = snap_of(e, n->parent);
	size_t i = kid_index(n->parent, n);
	if (!p || (n->parent->kind == DOC_MAP && !key_of(n))) {
		json_decref(nv);
		return;
	}
	if (n->parent->kind == DOC_MAP) {
		char *k = key_snap(n->parent->kids[i - 1]);
		json_object_set_new(p, k, nv);
		free(k);
	} else {
		json_array_set_new(p, i, nv);
	}
}

/* ---------- layout of the document ---------- */

static int indent_unit(const struct doc_index *ix)
{
	for (size_t i = 0; i < ix->nall; i++) {
		const struct doc_node *n = ix->all[i];
		if (n->kind != DOC_MAP || n->flow || !n->nkids)
			continue; /* cheap checks first: key_of scans the parent */
		const struct doc_node *k = key_of(n);
		if (k && !n->parent->flow) {
			int u = n->col - k->col;
			if (u > 0 && u <= 8)
				return u;
		}
	}
	return 2;
}

static int seq_offset(const struct doc_index *ix, int unit)
{
	for (size_t i = 0; i < ix->nall; i++) {
		const struct doc_node *n = ix->all[i];
		if (n->kind != DOC_SEQ || n->flow)
			continue;
		const struct doc_node *k = key_of(n);
		if (k && !n->parent->flow) {
			int u = n->col - k->col;
			if (u >= 0 && u <= 8)
				return u;
		}
	}
	return unit;
}

/* Column of what owns node n: its key, or the dash of its item. */
static int owner_col(const struct doc_node *n)
{
	const struct doc_node *p = n->parent;
	if (!p)
		return 0;
	if (p->kind == DOC_MAP)
		return key_of(n) ? key_of(n)->col : n->col;
	if (n->dash != DOC_NONE)
		return n->dash_col;
	return n->col;
}

/* Skip &anchor and !tag properties starting at p; returns the end of the last one. */
static size_t after_props(const struct ed *e, size_t p)
{
	const char *s = S(e);
	size_t last = p;
	for (;;) {
		size_t q = p;
		while (q < L(e) && (s[q] == ' ' || s[q] == '\t'))
			q++;
		if (q < L(e) && (s[q] == '&' || s[q] == '!')) {
			if (s[q] == '!' && q + 1 < L(e) && s[q + 1] == '<') {
				while (q < L(e) && s[q] != '>')
					q++;
				q++;
			} else {
				while (q < L(e) && !strchr(" \t\r\n,[]{}", s[q]))
					q++;
			}
			last = p = q;
			continue;
		}
		return last;
	}
}

/* Where the value of n may be rewritten from: after its properties, else
 * right after the key's ':' or the item's '-'. */
static size_t value_region_start(const struct ed *e, const struct doc_node *n)
{
	const char *s = S(e);
	if (n->anchor || n->tag)
		return after_props(e, n->start);
	const struct doc_node *p = n->parent;
	if (p && p->kind == DOC_MAP && key_of(n)) {
		const struct doc_node *k = key_of(n);
		size_t q = k->end;
		while (q < L(e) && (s[q] == ' ' || s[q] == '\t'))
			q++;
		if (q < L(e) && s[q] == ':')
			return q + 1;
	}
	if (p && p->kind == DOC_SEQ && n->dash != DOC_NONE)
		return n->dash + 1;
	return n->vstart;
}

/* ---------- emitting values ---------- */

struct bs_header {
	char ind;      /* '|' or '>' */
	int digit;     /* indentation indicator, 0 when absent */
	char chomp;    /* '-', '+' or 0 */
	size_t rest;   /* after the indicators: spaces and a comment up to the line end */
	size_t le;
};

static void parse_header(const struct ed *e, size_t p, struct bs_header *h)
{
	const char *s = S(e);
	memset(h, 0, sizeof(*h));
	h->ind = s[p++];
	while (p < L(e) && (s[p] == '+' || s[p] == '-' || (s[p] >= '1' && s[p] <= '9'))) {
		if (s[p] == '+' || s[p] == '-')
			h->chomp = s[p];
		else
			h->digit = s[p] - '0';
		p++;
	}
	h->rest = p;
	h->le = le_of(e, p);
}

/* Can s be written as a block scalar?  Needs a line break or an old block
 * style, printable text (tabs allowed), and a first line that does not start
 * with a space unless an indentation indicator is kept. */
static int block_ok(const char *s, size_t n, int need_break, int digit)
{
	size_t body = n;
	while (body > 0 && s[body - 1] == '\n')
		body--;
	if (!body)
		return 0;
	if (need_break && !memchr(s, '\n', n))
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F)
			return 0;
		if (c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] == 0x85)
			return 0;
		if (c == 0xE2 && i + 2 < n && (unsigned char)s[i + 1] == 0x80 &&
		    ((unsigned char)s[i + 2] == 0xA8 || (unsigned char)s[i + 2] == 0xA9))
			return 0;
		if (c == 0xEF && i + 2 < n && (unsigned char)s[i + 1] == 0xBB && (unsigned char)s[i + 2] == 0xBF)
			return 0;
	}
	size_t i = 0;
	while (i < body && s[i] == '\n')
		i++;
	if (!digit && (s[i] == ' ' || s[i] == '\t'))
		return 0;
	return 1;
}

static int fold_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((i == 0 || s[i - 1] == '\n') && (s[i] == ' ' || s[i] == '\t'))
			return 0;
	return 1;
}

/* Header (without its line break) and content lines; no final line break. */
static void emit_block_scalar(const struct ed *e, struct strbuf *out, const char *s, size_t n, int ci,
			      char ind, int digit, const char *header_rest, size_t rest_len)
{
	size_t body = n;
	while (body > 0 && s[body - 1] == '\n')
		body--;
	size_t k = n - body;
	strbuf_addch(out, ind);
	if (digit)
		strbuf_addch(out, (char)('0' + digit));
	if (k == 0)
		strbuf_addch(out, '-');
	else if (k > 1)
		strbuf_addch(out, '+');
	strbuf_add(out, header_rest, rest_len);
	int folded = ind == '>';
	size_t i = 0;
	int at_start = 1;
	while (i < body) {
		if (s[i] == '\n') {
			size_t run = 0;
			while (i < body && s[i] == '\n') {
				run++;
				i++;
			}
			/* literal: each break ends a line; folded: k breaks need k empty lines */
			size_t lines = folded ? run + (at_start ? 0 : 1) : run;
			if (at_start && !folded)
				lines = run + 1;
			for (size_t j = 0; j + 1 < lines; j++)
				strbuf_addstr(out, e->eol);
			at_start = 0;
			continue;
		}
		strbuf_addstr(out, e->eol);
		spaces(out, ci);
		while (i < body && s[i] != '\n')
			strbuf_addch(out, s[i++]);
		at_start = 0;
	}
	for (size_t j = 1; j < k; j++)
		strbuf_addstr(out, e->eol);
}

/* Text of a scalar value.  *blk is set when a block scalar was written (its
 * content is indented at ci). */
static void emit_scalar_value(const struct ed *e, struct strbuf *out, const json_t *v, enum scalar_style prefer,
			      int in_flow, int ci, int *blk)
{
	*blk = 0;
	if (json_is_string(v) && !in_flow) {
		const char *s = json_string_value(v);
		size_t n = json_string_length(v);
		int was_block = prefer == STYLE_LITERAL || prefer == STYLE_FOLDED;
		if (block_ok(s, n, !was_block, 0)) {
			char ind = prefer == STYLE_FOLDED && fold_ok(s, n) ? '>' : '|';
			emit_block_scalar(e, out, s, n, ci, ind, 0, "", 0);
			*blk = 1;
			return;
		}
	}
	scalar_emit_json(out, v, prefer == STYLE_LITERAL || prefer == STYLE_FOLDED ? STYLE_ANY : prefer, in_flow);
}

struct layout {
	int unit, seq_off;
};

static void emit_lines(const struct ed *e, const struct layout *lo, struct strbuf *out, const json_t *v, int ind,
		       int depth);

/* What follows "key:" or "-": a value, then the line break. */
static void emit_after(const struct ed *e, const struct layout *lo, struct strbuf *out, const json_t *x, int owner,
		       int depth, int is_item)
{
	int blk;
	if (!json_is_array(x) && !json_is_object(x)) {
		strbuf_addch(out, ' ');
		emit_scalar_value(e, out, x, STYLE_ANY, 0, owner + lo->unit, &blk);
		strbuf_addstr(out, e->eol);
		return;
	}
	size_t size = json_is_array(x) ? json_array_size(x) : json_object_size(x);
	if (!size || depth <= 0) {
		strbuf_addch(out, ' ');
		scalar_emit_json(out, x, STYLE_ANY, 0);
		strbuf_addstr(out, e->eol);
		return;
	}
	if (is_item) {
		/* compact: "- k: v" with the following lines under the first key */
		struct strbuf tmp = STRBUF_INIT;
		emit_lines(e, lo, &tmp, x, owner + 2, depth - 1);
		strbuf_addch(out, ' ');
		strbuf_add(out, tmp.buf + owner + 2, tmp.len - (size_t)owner - 2);
		strbuf_release(&tmp);
		return;
	}
	strbuf_addstr(out, e->eol);
	emit_lines(e, lo, out, x, owner + (json_is_array(x) ? lo->seq_off : lo->unit), depth - 1);
}

/* A block collection's lines at column ind, each ending with a line break. */
static void emit_lines(const struct ed *e, const struct layout *lo, struct strbuf *out, const json_t *v, int ind,
		       int depth)
{
	if (json_is_object(v)) {
		const char *k;
		json_t *x;
		json_object_foreach((json_t *)v, k, x) {
			spaces(out, ind);
			scalar_emit_string(out, k, strlen(k), STYLE_ANY, 0);
			strbuf_addch(out, ':');
			emit_after(e, lo, out, x, ind, depth, 0);
		}
	} else {
		for (size_t i = 0; i < json_array_size(v); i++) {
			spaces(out, ind);
			strbuf_addch(out, '-');
			emit_after(e, lo, out, json_array_get(v, i), ind, depth, 1);
		}
	}
}

static void get_layout(const struct ed *e, struct layout *lo)
{
	lo->unit = indent_unit(&e->ix);
	lo->seq_off = seq_offset(&e->ix, lo->unit);
}

static void chop_eol(struct strbuf *sb)
{
	if (sb->len && sb->buf[sb->len - 1] == '\n')
		sb->len--;
	if (sb->len && sb->buf[sb->len - 1] == '\r')
		sb->len--;
	if (sb->buf)
		sb->buf[sb->len] = 0;
}

/* ---------- checks shared by edits ---------- */

static const struct doc_node *anchored_on_path(const struct doc_node *n)
{
	for (; n; n = n->parent)
		if (n->anchor)
			return n;
	return NULL;
}

static void warn_anchor(struct ed *e, const struct doc_node *n, const char *what)
{
	const struct doc_node *a = anchored_on_path(n);
	if (a && e->warn && !*e->warn) {
		int line = 1;
		for (size_t i = e->ix.body; i < a->start && i < L(e); i++)
			line += S(e)[i] == '\n';
		*e->warn = xasprintf("'%s' is inside &%s (line %d): every alias of it sees this change", what,
				     a->anchor, line);
	}
}

static int in_subtree(const struct doc_node *n, const struct doc_node *root)
{
	for (; n; n = n->parent)
		if (n == root)
			return 1;
	return 0;
}

/* ---------- resolving paths for editing ---------- */

struct target {
	const struct doc_node *node;   /* found node, or the deepest existing one */
	size_t depth;                  /* segments resolved */
};

static int resolve(struct ed *e, const struct path *p, struct target *t, int must_exist)
{
	const struct doc_node *n = e->ix.root;
	size_t i = 0;
	for (; i < p->n; i++) {
		const struct path_seg *s = &p->seg[i];
		if (!n)
			break;
		if (n->kind == DOC_ALIAS) {
			char *ps = path_format(p, i);
			ed_errf(e, "'%s' is an alias of &%s (line %d); edit the anchored value instead", ps, n->text,
				n->target->line + 1);
			free(ps);
			return -1;
		}
		const struct doc_node *next = NULL;
		if (s->kind == PATH_KEY) {
			if (n->kind == DOC_MAP) {
				ssize_t k = doc_map_find(n, s->key);
				if (k >= 0)
					next = n->kids[2 * k + 1];
				else
					break;
			} else {
				break;
			}
		} else {
			if (n->kind != DOC_SEQ) {
				char *ps = path_format(p, i + 1);
				ed_errf(e, "%s: cannot index a non-list with [%s]", ps,
					s->kind == PATH_NAME ? s->key : "N");
				free(ps);
				return -1;
			}
			if (s->kind == PATH_INDEX) {
				if (s->index >= n->nkids) {
					char *ps = path_format(p, i + 1);
					ed_errf(e, "%s: index [%zu] is out of range (length %zu)", ps, s->index,
						n->nkids);
					free(ps);
					return -1;
				}
				next = n->kids[s->index];
			} else {
				for (size_t j = 0; j < n->nkids && !next; j++) {
					const struct doc_node *it = n->kids[j];
					ssize_t k = doc_map_find(it, "name");
					if (k >= 0 && it->kids[2 * k + 1]->kind == DOC_SCALAR &&
					    !strcmp(it->kids[2 * k + 1]->text, s->key))
						next = it;
				}
				if (!next) {
					char *ps = path_format(p, i + 1);
					ed_errf(e, "%s: no list item has name '%s'; check the name or use an index",
						ps, s->key);
					free(ps);
					return -1;
				}
			}
		}
		n = next;
	}
	t->node = n;
	t->depth = i;
	if (must_exist && i < p->n) {
		char *ps = path_format(p, i + 1);
		ed_errf(e, "'%s' does not exist", ps);
		free(ps);
		return -1;
	}
	return 0;
}

/* ---------- set ---------- */

static int is_nullish(const struct doc_node *n)
{
	if (n->kind != DOC_SCALAR || n->style != STYLE_PLAIN || n->tag)
		return 0;
	json_t *v = scalar_to_json(n->text, n->len, 1);
	int r = json_is_null(v);
	json_decref(v);
	return r;
}

/* Replace the value of an existing node. */
static int set_node(struct ed *e, const struct doc_node *n, const json_t *v, int block)
{
	const char *s = S(e);
	struct layout lo;
	get_layout(e, &lo);
	struct strbuf r = STRBUF_INIT;
	size_t from, to;
	int coll = json_is_array(v) || json_is_object(v);
	size_t csize = json_is_array(v) ? json_array_size(v) : json_is_object(v) ? json_object_size(v) : 0;
	int own = owner_col(n);
	int is_item = n->parent && n->parent->kind == DOC_SEQ;
	int write_block = coll && csize && !n->in_flow &&
			  (block || (n->kind != DOC_SCALAR && !n->flow) || n->vstart == n->end);
	if (n->kind == DOC_SCALAR && n->vstart == n->end && !write_block) {
		/* `key:` with nothing after it: insert " value" */
		from = to = n->end;
		if (from > 0 && s[from - 1] != ' ')
			strbuf_addch(&r, ' ');
		int blk;
		emit_scalar_value(e, &r, v, STYLE_ANY, n->in_flow, own + lo.unit, &blk);
	} else if (write_block) {
		from = value_region_start(e, n);
		to = n->end;
		if (n->kind != DOC_SCALAR && !n->flow && n->parent &&
		    (n->kind == DOC_SEQ) == (json_is_array(v) != 0) && !is_item) {
			/* same kind of block collection: keep its indentation */
			struct layout keep = lo;
			strbuf_addstr(&r, e->eol);
			emit_lines(e, &keep, &r, v, n->col, INT_MAX);
		} else if (is_item && !n->anchor && !n->tag) {
			emit_after(e, &lo, &r, v, own, INT_MAX, 1);
		} else {
			emit_after(e, &lo, &r, v, own, INT_MAX, 0);
		}
		chop_eol(&r);
	} else if (n->kind == DOC_SCALAR && !coll) {
		from = n->vstart;
		to = n->end;
		if (n->style == STYLE_LITERAL || n->style == STYLE_FOLDED) {
			struct bs_header h;
			parse_header(e, n->vstart, &h);
			const char *str = json_string_value(v);
			size_t sl = json_string_length(v);
			/* content indentation: the old one */
			int ci = own + lo.unit;
			if (h.digit) {
				ci = own + h.digit;
			} else {
				size_t q = nl_of(e, h.le);
				while (q < n->end && blank_line(e, q))
					q = nl_of(e, q);
				if (q < n->end) {
					int c = 0;
					while (s[q + (size_t)c] == ' ')
						c++;
					ci = c;
				}
			}
			if (str && block_ok(str, sl, 0, h.digit)) {
				char ind = h.ind == '>' && fold_ok(str, sl) ? '>' : '|';
				emit_block_scalar(e, &r, str, sl, ci, ind, h.digit, s + h.rest, h.le - h.rest);
				if (to == L(e) && sl && str[sl - 1] == '\n')
					strbuf_addstr(&r, e->eol);
			} else {
				scalar_emit_json(&r, v, STYLE_ANY, 0);
			}
		} else {
			int blk;
			emit_scalar_value(e, &r, v, n->style, n->in_flow, own + lo.unit, &blk);
			if (blk) {
				/* the rest of the old line (a comment) moves onto the header line */
				size_t le = le_of(e, to);
				if (le > to) {
					struct strbuf x = STRBUF_INIT;
					size_t hl = strcspn(r.buf, "\r\n");
					strbuf_add(&x, r.buf, hl);
					strbuf_add(&x, s + to, le - to);
					strbuf_add(&x, r.buf + hl, r.len - hl);
					strbuf_release(&r);
					r = x;
					to = le;
				}
				if (to == L(e) && json_string_length(v) && json_string_value(v)[json_string_length(v) - 1] == '\n')
					strbuf_addstr(&r, e->eol);
			}
		}
	} else if (n->kind == DOC_SCALAR || n->flow) {
		/* scalar -> flow collection, or flow collection -> anything */
		from = n->vstart;
		to = n->end;
		scalar_emit_json(&r, v, STYLE_ANY, n->in_flow);
	} else {
		/* block collection -> scalar or empty collection */
		from = value_region_start(e, n);
		to = n->end;
		strbuf_addch(&r, ' ');
		int blk;
		emit_scalar_value(e, &r, v, STYLE_ANY, 0, own + lo.unit, &blk);
	}
	splice(e, from, to - from, r.buf ? r.buf : "", r.len);
	strbuf_release(&r);
	if (n->kind == DOC_SCALAR && !coll && from == n->vstart && to == n->end && !e->line_node &&
	    e->nsplice == 1) {
		e->line_node = n; /* ed_finish tries the check on its line first */
		e->line_val = value_snap(v);
	} else {
		snap_replace(e, n, value_snap(v));
	}
	return 0;
}

/* Make sure the text ends with a line break before appending lines.  A
 * block scalar that ends the file without one gets '-' chomping first, so its
 * value does not gain a newline (design §3.4 item 9). */
static int ensure_final_break(struct ed *e)
{
	if (ends_with_break(e))
		return 0;
	const struct doc_node *last = NULL;
	for (size_t i = 0; i < e->ix.nall; i++) {
		const struct doc_node *n = e->ix.all[i];
		if (n->kind == DOC_SCALAR && (n->style == STYLE_LITERAL || n->style == STYLE_FOLDED) &&
		    n->end == L(e))
			last = n;
	}
	if (last && !(last->len && last->text[last->len - 1] == '\n')) {
		struct bs_header h;
		parse_header(e, last->vstart, &h);
		if (h.chomp != '-') {
			size_t at = last->vstart + 1;
			if (h.chomp)
				while (S(e)[at] != h.chomp)
					at++;
			splice(e, at, h.chomp ? 1 : 0, "-", 1);
		}
	}
	strbuf_addstr(&e->t, e->eol);
	if (reindex(e) < 0) {
		ed_errf(e, "cannot add a line break at the end of the file; add one by hand");
		return -1;
	}
	json_t *now = doc_snapshot(e->ix.root);
	json_t *was = doc_snapshot(doc_current_index(e->d)->root);
	int same = json_equal(now, was);
	json_decref(now);
	json_decref(was);
	if (!same) {
		ed_errf(e, "the file ends inside a block of text without a final line break; add one by hand");
		return -1;
	}
	return 0;
}

/* Add key: value to map (NULL: the empty document's top level).  depth is
 * how many collection levels are written in block style. */
static int add_key(struct ed *e, const struct doc_node *map, const char *key, const json_t *v, int depth)
{
	struct layout lo;
	struct strbuf r = STRBUF_INIT;
	json_t *container = map ? snap_of(e, map) : expect(e);
	if (map && map->flow) {
		scalar_emit_string(&r, key, strlen(key), STYLE_ANY, 1);
		strbuf_addstr(&r, ": ");
		scalar_emit_json(&r, v, STYLE_ANY, 1);
		size_t at;
		if (map->nkids) {
			at = map->kids[map->nkids - 1]->end;
			strbuf_splice(&r, 0, 0, ", ", 2);
		} else {
			at = map->vstart + 1;
		}
		splice(e, at, 0, r.buf, r.len);
	} else {
		int col = map ? map->col : 0;
		size_t vs = map ? map->vstart : 0;
		const struct doc_node *dash_owner = map && map->parent && map->parent->kind == DOC_SEQ ? map : NULL;
		(void)dash_owner;
		(void)vs;
		size_t at = map ? nl_of(e, map->end) : L(e);
		if (at == L(e) && !ends_with_break(e)) {
			/* remember the map by its position: the index is rebuilt */
			size_t mstart = map ? map->vstart : 0;
			if (ensure_final_break(e) < 0) {
				strbuf_release(&r);
				return -1;
			}
			if (map) {
				const struct doc_node *m2 = NULL;
				for (size_t i = 0; i < e->ix.nall && !m2; i++)
					if (e->ix.all[i]->kind == DOC_MAP && e->ix.all[i]->vstart == mstart)
						m2 = e->ix.all[i];
				if (!m2) {
					ed_errf(e, "cannot add '%s' at the end of the file; add a final line break by hand",
						key);
					strbuf_release(&r);
					return -1;
				}
				map = m2;
			}
			at = map ? nl_of(e, map->end) : L(e);
		}
		get_layout(e, &lo);
		spaces(&r, col);
		scalar_emit_string(&r, key, strlen(key), STYLE_ANY, 0);
		strbuf_addch(&r, ':');
		emit_after(e, &lo, &r, v, col, depth, 0);
		splice(e, at, 0, r.buf, r.len);
	}
	strbuf_release(&r);
	json_object_set_new(container, key, value_snap(v));
	return 0;
}

/* Non-zero when v nests more than left levels; stops as soon as it knows, so
 * its own recursion stays within the bound. */
static int too_deep(const json_t *v, int left)
{
	if (!json_is_array(v) && !json_is_object(v))
		return 0;
	if (left <= 0)
		return 1;
	if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++)
			if (too_deep(json_array_get(v, i), left - 1))
				return 1;
		return 0;
	}
	const char *k;
	json_t *x;
	json_object_foreach((json_t *)v, k, x) if (too_deep(x, left - 1)) return 1;
	return 0;
}

/* The new text is checked by re-indexing, which refuses a document deeper
 * than DOC_MAX_DEPTH; refusing such a value first keeps the emitters' and
 * snapshots' recursion bounded too. */
static int value_ok(struct ed *e, const struct path *p, const json_t *v)
{
	if (p->n < DOC_MAX_DEPTH && !too_deep(v, DOC_MAX_DEPTH - (int)p->n))
		return 1;
	ed_errf(e, "the path and value nest more than %d levels deep; a recipe needs a few",
		DOC_MAX_DEPTH);
	return 0;
}

/* ---------- the frame every edit shares ---------- */

/* Starts an edit of p: the working copy, and p as text for messages. */
static void ed_begin(struct ed *e, struct doc *d, const struct path *p, char **err, char **warn)
{
	ed_init(e, d, err, warn);
	e->ps = path_format(p, (size_t)-1);
}

/* ed_begin, then the refusals in the order every edit of a node makes
 * them: an empty path (name_what says what the path should name), a value
 * nesting too deep (only when value is given), a path that cannot be
 * followed.  Always leaves e to be released. */
static int ed_open(struct ed *e, struct doc *d, const struct path *p, const json_t *value,
		   const char *name_what, struct target *t, int must_exist, char **err, char **warn)
{
	ed_begin(e, d, p, err, warn);
	if (!p->n) {
		ed_errf(e, "the path is empty; %s", name_what);
		return -1;
	}
	if (value && !value_ok(e, p, value))
		return -1;
	return resolve(e, p, t, must_exist);
}

/* Verifies and takes the working text; a refusal names the edit as
 * "<verb> '<path>'". */
static int ed_commit(struct ed *e, const char *verb)
{
	char *what = xasprintf("%s '%s'", verb, e->ps);
	int rc = ed_finish(e, what);
	free(what);
	return rc;
}

static int set_common(struct doc *d, const struct path *p, const json_t *value, int block, char **err,
		      char **warn)
{
	struct ed e;
	struct target t;
	int rc = -1;
	if (ed_open(&e, d, p, value, "name the key to set", &t, 0, err, warn) < 0)
		goto out;
	const char *ps = e.ps;
	if (t.depth == p->n) {
		const struct doc_node *n = t.node;
		if (n->kind == DOC_ALIAS) {
			ed_errf(&e, "'%s' is an alias of &%s (line %d); edit the anchored value, or replace the "
				    "alias by hand", ps, n->text, n->target->line + 1);
			goto out;
		}
		json_t *cur = doc_node_json(d, n);
		int same = cur && json_equal(cur, (json_t *)value) &&
			   !(block && (json_is_array(value) || json_is_object(value)) && (n->flow || n->kind == DOC_SCALAR) &&
			     (json_is_array(value) ? json_array_size(value) : json_object_size(value)));
		json_decref(cur);
		if (same) {
			rc = 0;
			goto out;
		}
		warn_anchor(&e, n, ps);
		set_node(&e, n, value, block);
	} else {
		/* create what is missing: the remaining segments must be keys */
		for (size_t i = t.depth; i < p->n; i++)
			if (p->seg[i].kind != PATH_KEY) {
				char *q = path_format(p, i + 1);
				ed_errf(&e, "%s: index out of range", q);
				free(q);
				goto out;
			}
		const struct doc_node *n = t.node;
		json_t *nested = json_deep_copy(value);
		for (size_t i = p->n; i-- > t.depth + 1;) {
			json_t *o = json_object();
			json_object_set_new(o, p->seg[i].key, nested);
			nested = o;
		}
		int levels = (int)(p->n - t.depth - 1);
		int depth = block ? INT_MAX : levels;
		if (n && n->kind == DOC_MAP) {
			warn_anchor(&e, n, ps);
			rc = add_key(&e, n, p->seg[t.depth].key, nested, depth);
		} else if (!n) {
			rc = add_key(&e, NULL, p->seg[t.depth].key, nested, depth);
		} else if (n->kind == DOC_SCALAR && is_nullish(n)) {
			json_t *o = json_object();
			json_object_set_new(o, p->seg[t.depth].key, nested);
			nested = o;
			warn_anchor(&e, n, ps);
			rc = set_node(&e, n, nested, 1);
		} else {
			char *q = path_format(p, t.depth);
			if (t.depth + 1 == p->n)
				ed_errf(&e, "%s: cannot set a key on a non-mapping", q);
			else
				ed_errf(&e, "%s: cannot descend into a non-mapping at '%s'", q, p->seg[t.depth].key);
			free(q);
			rc = -1;
		}
		json_decref(nested);
		if (rc < 0)
			goto out;
	}
	rc = typed_ok(&e) ? ed_commit(&e, "setting") : -1;
out:
	ed_release(&e);
	if (rc < 0 && warn && *warn) {
		free(*warn);
		*warn = NULL;
	}
	return rc;
}

int doc_set(struct doc *d, const struct path *p, const json_t *value, char **err, char **warn)
{
	return set_common(d, p, value, 0, err, warn);
}

int doc_set_block(struct doc *d, const struct path *p, const json_t *value, char **err, char **warn)
{
	return set_common(d, p, value, 1, err, warn);
}

/* ---------- delete ---------- */

static size_t entry_start(const struct doc_node *par, size_t i)
{
	if (par->kind == DOC_MAP)
		return par->kids[2 * i]->start;
	const struct doc_node *it = par->kids[i];
	return it->dash != DOC_NONE ? it->dash : it->start;
}
static size_t entry_end(const struct doc_node *par, size_t i)
{
	return par->kind == DOC_MAP ? par->kids[2 * i + 1]->end : par->kids[i]->end;
}

static int delete_entry(struct ed *e, const struct doc_node *par, size_t i, const char *ps)
{
	size_t count = doc_node_count(par);
	const char *s = S(e);
	size_t from, to;
	if (par->flow) {
		if (count == 1) {
			from = entry_start(par, 0);
			to = entry_end(par, 0);
		} else if (i + 1 < count) {
			from = entry_start(par, i);
			to = entry_start(par, i + 1);
		} else {
			from = entry_end(par, i - 1);
			to = entry_end(par, i);
		}
		splice(e, from, to - from, "", 0);
		return 0;
	}
	if (count == 1 && par->parent) {
		from = value_region_start(e, par);
		to = par->end;
		const char *empty = par->kind == DOC_MAP ? " {}" : " []";
		splice(e, from, to - from, empty, 3);
		return 0;
	}
	size_t es = entry_start(par, i), ee = entry_end(par, i);
	size_t ls0 = ls_of(e, es);
	if (!only_ws(e, ls0, es)) {
		/* first entry sharing its line (`- name: x`): pull the next one up */
		if (i + 1 >= count) {
			ed_errf(e, "cannot delete '%s': it shares its line with its parent; edit by hand", ps);
			return -1;
		}
		size_t next = entry_start(par, i + 1);
		int comments = 0;
		for (size_t q = nl_of(e, ee); q < next && q < L(e); q = nl_of(e, q))
			comments |= comment_line(e, q);
		if (comments) {
			/* keep the comment lines: leave a bare "-" and let the
			 * mapping start on the lines below it */
			size_t from0 = es;
			while (from0 > ls0 && S(e)[from0 - 1] == ' ')
				from0--;
			splice(e, from0, le_of(e, ee) - from0, "", 0);
			return 0;
		}
		splice(e, es, next - es, "", 0);
		return 0;
	}
	from = ls0;
	to = nl_of(e, ee);
	/* its own comment block: contiguous comment lines right above it, taken
	 * only when a blank line (or the start of a nested collection) precedes */
	size_t limit;
	if (i > 0)
		limit = nl_of(e, entry_end(par, i - 1));
	else if (par->parent)
		limit = nl_of(e, value_region_start(e, par));
	else
		limit = e->ix.body;
	size_t cb = ls0;
	while (cb > limit && cb > e->ix.body) {
		size_t prev = ls_of(e, cb - 1);
		if (prev < limit || !comment_line(e, prev))
			break;
		cb = prev;
	}
	if (cb < ls0) {
		int take;
		if (cb == limit)
			take = i == 0 && par->parent;
		else
			take = cb > e->ix.body && blank_line(e, ls_of(e, cb - 1));
		if (take)
			from = cb;
	}
	if (from > e->ix.body && blank_line(e, ls_of(e, from - 1)) && to < L(e) && blank_line(e, to))
		to = nl_of(e, to);
	(void)s;
	splice(e, from, to - from, "", 0);
	return 0;
}

static int check_orphans(struct ed *e, const struct doc_node *sub, const struct doc_node *key,
			 const char *ps)
{
	for (size_t i = 0; i < e->ix.nall; i++) {
		const struct doc_node *a = e->ix.all[i];
		if (a->kind != DOC_ALIAS || in_subtree(a, sub) || (key && a == key))
			continue;
		if (in_subtree(a->target, sub) || (key && a->target == key)) {
			ed_errf(e, "cannot delete '%s': it holds &%s, still used by *%s at line %d; remove or "
				   "replace that alias first", ps, a->target->anchor, a->text, a->line + 1);
			return -1;
		}
	}
	return 0;
}

int doc_delete(struct doc *d, const struct path *p, char **err, char **warn)
{
	struct ed e;
	struct target t;
	int rc = -1;
	if (ed_open(&e, d, p, NULL, "name the key to delete", &t, 1, err, warn) < 0)
		goto out;
	const char *ps = e.ps;
	const struct doc_node *n = t.node, *par = n->parent;
	size_t i = kid_index(par, n);
	const struct doc_node *key = NULL;
	if (par->kind == DOC_MAP) {
		key = par->kids[i - 1];
		i /= 2;
		size_t dup = 0;
		for (size_t j = 0; j < par->nkids; j += 2)
			dup += par->kids[j]->kind == DOC_SCALAR && key->kind == DOC_SCALAR &&
			       !strcmp(par->kids[j]->text, key->text);
		if (dup > 1) {
			ed_errf(&e, "cannot delete '%s': key '%s' appears %zu times in its mapping; remove the "
				    "duplicates by hand first", ps, key->text, dup);
			goto out;
		}
	}
	if (check_orphans(&e, n, key, ps) < 0)
		goto out;
	warn_anchor(&e, par, ps);
	json_t *c = snap_of(&e, par);
	if (par->kind == DOC_MAP) {
		char *k = key_snap(key);
		json_object_del(c, k);
		free(k);
	} else {
		json_array_remove(c, i);
	}
	if (delete_entry(&e, par, i, ps) < 0)
		goto out;
	rc = ed_commit(&e, "deleting");
out:
	ed_release(&e);
	return rc;
}

/* ---------- insert ---------- */

static int insert_item(struct ed *e, const struct doc_node *seq, size_t index, const json_t *v)
{
	struct strbuf r = STRBUF_INIT;
	json_t *c = snap_of(e, seq);
	size_t count = seq->nkids;
	if (seq->flow) {
		scalar_emit_json(&r, v, STYLE_ANY, 1);
		size_t at;
		if (!count) {
			at = seq->vstart + 1;
		} else if (index >= count) {
			at = seq->kids[count - 1]->end;
			strbuf_splice(&r, 0, 0, ", ", 2);
		} else {
			at = seq->kids[index]->start;
			strbuf_addstr(&r, ", ");
		}
		splice(e, at, 0, r.buf, r.len);
	} else {
		size_t seqstart = seq->vstart;
		if (index >= count && nl_of(e, seq->end) == L(e) && !ends_with_break(e)) {
			if (ensure_final_break(e) < 0) {
				strbuf_release(&r);
				return -1;
			}
			seq = NULL;
			for (size_t i = 0; i < e->ix.nall && !seq; i++)
				if (e->ix.all[i]->kind == DOC_SEQ && e->ix.all[i]->vstart == seqstart)
					seq = e->ix.all[i];
			if (!seq) {
				ed_errf(e, "cannot append at the end of the file; add a final line break by hand");
				return -1;
			}
		}
		struct layout lo;
		get_layout(e, &lo);
		int col = seq->kids[0]->dash_col;
		/* maps go in block style (a new list item), lists inline */
		int depth = json_is_object(v) ? INT_MAX : 0;
		if (index >= count) {
			spaces(&r, col);
			strbuf_addch(&r, '-');
			emit_after(e, &lo, &r, v, col, depth, 1);
			splice(e, nl_of(e, seq->end), 0, r.buf, r.len);
		} else {
			size_t dash = seq->kids[index]->dash;
			size_t ls = ls_of(e, dash);
			if (only_ws(e, ls, dash)) {
				spaces(&r, col);
				strbuf_addch(&r, '-');
				emit_after(e, &lo, &r, v, col, depth, 1);
				splice(e, ls, 0, r.buf, r.len);
			} else {
				strbuf_addch(&r, '-');
				emit_after(e, &lo, &r, v, col, depth, 1);
				spaces(&r, col);
				splice(e, dash, 0, r.buf, r.len);
			}
		}
	}
	strbuf_release(&r);
	json_array_insert_new(c, index > count ? count : index, value_snap(v));
	return 0;
}

int doc_insert(struct doc *d, const struct path *p, size_t index, const json_t *value, char **err, char **warn)
{
	struct ed e;
	struct target t;
	int rc = -1;
	if (ed_open(&e, d, p, value, "name the list", &t, 0, err, warn) < 0)
		goto out;
	const char *ps = e.ps;
	if (t.depth < p->n || (t.node->kind == DOC_SCALAR && is_nullish(t.node))) {
		if (index != 0) {
			ed_errf(&e, "%s: index out of range", ps);
			goto out;
		}
		ed_release(&e);
		json_t *a = json_array();
		json_array_append((json_t *)a, (json_t *)value);
		rc = doc_set_block(d, p, a, err, warn);
		json_decref(a);
		return rc;
	}
	const struct doc_node *n = t.node;
	if (n->kind == DOC_ALIAS) {
		ed_errf(&e, "'%s' is an alias of &%s; edit the anchored list instead", ps, n->text);
		goto out;
	}
	if (n->kind != DOC_SEQ) {
		ed_errf(&e, "'%s' is not a list; it cannot take items", ps);
		goto out;
	}
	if (index > n->nkids) {
		ed_errf(&e, "%s: index [%zu] is out of range (length %zu)", ps, index, n->nkids);
		goto out;
	}
	warn_anchor(&e, n, ps);
	if (insert_item(&e, n, index, value) < 0)
		goto out;
	rc = typed_ok(&e) ? ed_commit(&e, "inserting into") : -1;
out:
	ed_release(&e);
	return rc;
}

/* ---------- rename, move ---------- */

int doc_rename_key(struct doc *d, const struct path *p, const char *new_key, char **err)
{
	struct ed e;
	struct target t;
	int rc = -1;
	ed_begin(&e, d, p, err, NULL);
	const char *ps = e.ps;
	if (!p->n || p->seg[p->n - 1].kind != PATH_KEY) {
		ed_errf(&e, "'%s' is not a key; only mapping keys can be renamed", ps);
		goto out;
	}
	if (resolve(&e, p, &t, 1) < 0)
		goto out;
	const struct doc_node *par = t.node->parent;
	size_t vi = kid_index(par, t.node);
	const struct doc_node *key = par->kids[vi - 1];
	if (key->kind != DOC_SCALAR || key->tag) {
		ed_errf(&e, "the key of '%s' is not a plain text key; rename it by hand", ps);
		goto out;
	}
	if (!strcmp(key->text, new_key)) {
		rc = 0;
		goto out;
	}
	if (doc_map_find(par, new_key) >= 0) {
		ed_errf(&e, "key '%s' already exists next to '%s'; delete or rename that one first", new_key, ps);
		goto out;
	}
	struct strbuf r = STRBUF_INIT;
	enum scalar_style st = key->style == STYLE_LITERAL || key->style == STYLE_FOLDED ? STYLE_ANY : key->style;
	scalar_emit_string(&r, new_key, strlen(new_key), st, key->in_flow);
	/* expected: same mapping with the key renamed in place */
	json_t *c = snap_of(&e, par);
	char *oldk = key_snap(key);
	json_t *o = json_object();
	const char *k;
	json_t *x;
	json_object_foreach(c, k, x) json_object_set(o, strcmp(k, oldk) ? k : new_key, x);
	free(oldk);
	snap_replace(&e, par, o);
	splice(&e, key->vstart, key->end - key->vstart, r.buf, r.len);
	strbuf_release(&r);
	rc = ed_commit(&e, "renaming");
out:
	ed_release(&e);
	return rc;
}

int doc_move_item(struct doc *d, const struct path *p, size_t to, char **err)
{
	struct ed e;
	struct target t;
	int rc = -1;
	if (ed_open(&e, d, p, NULL, "name the list item to move", &t, 1, err, NULL) < 0)
		goto out;
	const char *ps = e.ps;
	const struct doc_node *seq = t.node->parent;
	if (!seq || seq->kind != DOC_SEQ) {
		ed_errf(&e, "'%s' is not a list item; only list items can be moved", ps);
		goto out;
	}
	size_t from = kid_index(seq, t.node), n = seq->nkids;
	if (to >= n) {
		ed_errf(&e, "%s: cannot move to [%zu]: the list has %zu items", ps, to, n);
		goto out;
	}
	if (to == from) {
		rc = 0;
		goto out;
	}
	struct strbuf r = STRBUF_INIT;
	size_t *order = xmalloc(n * sizeof(*order));
	for (size_t i = 0, k = 0; i < n; i++) {
		if (i == from)
			continue;
		if (k == to)
			order[k++] = from;
		order[k++] = i;
	}
	if (to == n - 1)
		order[n - 1] = from; /* the loop never reached position to */
	size_t rs, re;
	if (seq->flow) {
		rs = seq->kids[0]->start;
		re = seq->kids[n - 1]->end;
		for (size_t i = 0; i < n; i++) {
			const struct doc_node *it = seq->kids[order[i]];
			if (i)
				strbuf_addstr(&r, ", ");
			strbuf_add(&r, S(&e) + it->start, it->end - it->start);
		}
	} else {
		/* chunks: from an item's dash line to the next item's dash line */
		size_t *cs = xmalloc((n + 1) * sizeof(*cs));
		int ok = 1;
		for (size_t i = 0; i < n; i++) {
			size_t dash = seq->kids[i]->dash;
			cs[i] = ls_of(&e, dash);
			ok &= dash != DOC_NONE && only_ws(&e, cs[i], dash);
		}
		cs[n] = nl_of(&e, seq->end);
		if (!ok) {
			free(cs);
			free(order);
			strbuf_release(&r);
			ed_errf(&e, "cannot move items of '%s': an item shares its line with its parent", ps);
			goto out;
		}
		int had_break = cs[n] > cs[0] && S(&e)[cs[n] - 1] == '\n';
		rs = cs[0];
		re = cs[n];
		for (size_t i = 0; i < n; i++) {
			size_t a = cs[order[i]], b = cs[order[i] + 1];
			strbuf_add(&r, S(&e) + a, b - a);
			if (r.len && r.buf[r.len - 1] != '\n')
				strbuf_addstr(&r, e.eol);
		}
		if (!had_break)
			chop_eol(&r);
		free(cs);
	}
	json_t *c = snap_of(&e, seq);
	json_t *item = json_incref(json_array_get(c, from));
	json_array_remove(c, from);
	json_array_insert_new(c, to, item);
	free(order);
	splice(&e, rs, re - rs, r.buf ? r.buf : "", r.len);
	strbuf_release(&r);
	rc = ed_commit(&e, "moving");
out:
	ed_release(&e);
	return rc;
}
