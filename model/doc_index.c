/*
 * doc_index.c — build the byte-span index of a YAML document from parser
 * events.
 *
 * One pass of events gives the structure and the spans (design §1): from
 * doc_fast.c for the block style recipes are written in, else from
 * libyaml's event parser; both give the same events (doc_fast.h).  Two facts
 * the events do not carry are read from the text next to the marks they do
 * carry, which is cheaper than a second pass over the whole text (libyaml's
 * token scanner, which costs as much as its parser): where a scalar's value
 * starts when &anchor or !tag precede it (the event starts at the
 * properties), and where the '-' of each block sequence item is (the last
 * indicator before the item, past blanks and comments).  Marks count
 * characters, not bytes, so they go through a char->byte table built once
 * (skipped for pure ASCII text, the common case).  The index owns its nodes.
 */
#include "model/doc_internal.h"
#include "model/doc_fast.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

/* A quoted or block scalar's span: tabs inside it are text, not indentation. */
struct span {
	size_t start, end; /* bytes */
};

struct builder {
	struct doc_index *ix;
	const char *name;
	const char *buf;
	size_t len;
	size_t *c2b; /* NULL: ASCII, byte = body + char */
	size_t nchars;
	struct doc_node **stack;
	size_t nstack, astack;
	struct doc_node **anchors;
	size_t nanchors, aanchors;
	struct diag_list *diags;
	int lint;
	int nwarn; /* key warnings so far: capped, a hostile file may hold 100,000 */
};

static size_t c2b(const struct builder *b, size_t ci)
{
	if (!b->c2b)
		return b->ix->body + ci;
	return ci <= b->nchars ? b->c2b[ci] : b->len;
}

static void build_c2b(struct builder *b)
{
	const unsigned char *s = (const unsigned char *)b->buf;
	size_t body = b->ix->body, i = body;
	/* eight bytes at a time: any with the top bit set? */
	uint64_t high = 0;
	for (; i + 8 <= b->len && !high; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		high = w & 0x8080808080808080u;
	}
	for (; i < b->len && !high; i++)
		high = s[i] & 0x80;
	if (!high)
		return;
	b->c2b = xmalloc((b->len - body + 1) * sizeof(size_t));
	size_t n = 0;
	for (i = body; i < b->len; i++)
		if ((s[i] & 0xC0) != 0x80)
			b->c2b[n++] = i;
	b->c2b[n] = b->len;
	b->nchars = n;
}

/* Everything an index owns but its all[] (its nodes, their texts and kid
 * arrays) comes from blocks that grow with the document and are freed
 * together: a recipe takes a few, where a malloc per node, text and array
 * cost as much as reading the text. */
struct doc_block {
	struct doc_block *next;
	size_t used, cap;
	_Alignas(max_align_t) unsigned char v[];
};

#define DOC_BLOCK_MIN 16384
#define DOC_BLOCK_MAX (1u << 20)

static void *ix_alloc(struct doc_index *ix, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	struct doc_block *c = ix->blocks;
	if (!c || c->cap - c->used < n) {
		size_t cap = c ? c->cap * 2 : DOC_BLOCK_MIN;
		if (cap > DOC_BLOCK_MAX)
			cap = DOC_BLOCK_MAX;
		if (cap < n)
			cap = n;
		/* zeroed in one go: a node starts all zero (new_node), and one
		 * memset of the block costs less than one per node */
		struct doc_block *nc = xcalloc(1, sizeof(*nc) + cap);
		nc->used = 0;
		nc->cap = cap;
		/* a large array alone in its block leaves the current one in use */
		if (c && cap == n && c->cap - c->used >= 256) {
			nc->next = c->next;
			c->next = nc;
			nc->used = n;
			return nc->v;
		}
		nc->next = c;
		ix->blocks = c = nc;
	}
	void *p = c->v + c->used;
	c->used += n;
	return p;
}

char *doc_index_strndup(struct doc_index *ix, const char *s, size_t n)
{
	char *p = ix_alloc(ix, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

static struct doc_node *new_node(struct builder *b, enum doc_kind kind)
{
	struct doc_node *n = ix_alloc(b->ix, sizeof(*n)); /* zero: see ix_alloc */
	n->kind = (unsigned char)kind;
	n->dash = DOC_NONE;
	ALLOC_GROW(b->ix->all, b->ix->nall + 1, b->ix->aall);
	b->ix->all[b->ix->nall++] = n;
	return n;
}

static void add_kid(struct doc_index *ix, struct doc_node *p, struct doc_node *k)
{
	if (p->nkids == p->akids) {
		size_t cap = p->akids ? 2 * p->akids : 4;
		struct doc_node **v = ix_alloc(ix, cap * sizeof(*v));
		if (p->nkids)
			memcpy(v, p->kids, p->nkids * sizeof(*v));
		p->kids = v;
		p->akids = cap;
	}
	p->kids[p->nkids++] = k;
	k->parent = p;
	k->in_flow = p->flow || p->in_flow;
}

void doc_index_release(struct doc_index *ix)
{
	free(ix->all);
	while (ix->blocks) {
		struct doc_block *c = ix->blocks;
		ix->blocks = c->next;
		free(c);
	}
	diag_list_release(&ix->lint);
	memset(ix, 0, sizeof(*ix));
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }
static int is_break(char c) { return c == '\n' || c == '\r'; }

static int chars_between(const char *s, size_t a, size_t b)
{
	int n = 0;
	for (size_t i = a; i < b; i++)
		n += ((unsigned char)s[i] & 0xC0) != 0x80;
	return n;
}

/* Where the value of a scalar starts when its event starts at &anchor or
 * !tag: past the properties and the blanks, line breaks and comments
 * between them.  *line and *col (0-based, characters) follow.  Returns end
 * when nothing but properties is there (an empty value). */
static size_t after_properties(const struct builder *b, size_t p, size_t end, int in_flow, int *line,
			       int *col)
{
	const char *s = b->buf;
	for (;;) {
		while (p < end && (is_blank(s[p]) || is_break(s[p]) || s[p] == '#')) {
			if (s[p] == '#') { /* a comment: the rest of its line */
				while (p < end && !is_break(s[p]))
					p++;
				continue;
			}
			if (is_break(s[p])) {
				p += s[p] == '\r' && p + 1 < end && s[p + 1] == '\n' ? 2 : 1;
				(*line)++;
				*col = 0;
				continue;
			}
			p++;
			(*col)++;
		}
		if (p >= end || (s[p] != '&' && s[p] != '!'))
			return p < end ? p : end;
		size_t q = p + 1;
		if (s[p] == '!' && q < end && s[q] == '<') { /* verbatim: !<...> */
			while (q < end && s[q] != '>')
				q++;
			q += q < end;
		} else {
			/* anchors end at a blank; tags too, and at a flow indicator
			 * inside a flow collection */
			while (q < end && !is_blank(s[q]) && !is_break(s[q]) &&
			       !(in_flow && strchr(",[]{}", s[q])))
				q++;
		}
		*col += chars_between(s, p, q);
		p = q;
	}
}

/* The '-' of a block sequence item that starts at pos: the last indicator
 * before it, with only blanks, line breaks and comments between.  The
 * item's own line holds no comment before pos; on the lines above, a '#'
 * at the start or after a blank begins one.  DOC_NONE when there is no
 * such '-' (cannot happen for a well-formed sequence). */
static size_t dash_before(const struct builder *b, size_t pos, int *lines_up)
{
	const char *s = b->buf;
	size_t body = b->ix->body, end = pos;
	*lines_up = 0;
	for (int first = 1;; first = 0) {
		size_t ls = end;
		while (ls > body && !is_break(s[ls - 1]))
			ls--;
		size_t e = end;
		if (!first)
			for (size_t i = ls; i < end; i++)
				if (s[i] == '#' && (i == ls || is_blank(s[i - 1]))) {
					e = i;
					break;
				}
		while (e > ls && is_blank(s[e - 1]))
			e--;
		if (e > ls)
			return s[e - 1] == '-' ? e - 1 : DOC_NONE;
		if (ls <= body)
			return DOC_NONE;
		/* a blank or comment line: go up one line (\r\n is one break) */
		end = ls - 1;
		if (end > body && s[end] == '\n' && s[end - 1] == '\r')
			end--;
		(*lines_up)++;
	}
}

static enum scalar_style map_style(yaml_scalar_style_t s)
{
	switch (s) {
	case YAML_SINGLE_QUOTED_SCALAR_STYLE: return STYLE_SINGLE;
	case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return STYLE_DOUBLE;
	case YAML_LITERAL_SCALAR_STYLE: return STYLE_LITERAL;
	case YAML_FOLDED_SCALAR_STYLE: return STYLE_FOLDED;
	default: return STYLE_PLAIN;
	}
}

/* Block scalars end at column 0 of the next non-blank line: trim back to the
 * end of the last line with content (|+ keeps its blank lines: they are
 * content, so only the final line break is left out). */
static size_t block_scalar_end(const struct builder *b, const struct doc_node *n)
{
	const char *s = b->buf;
	size_t p = n->raw_end;
	size_t header_end = n->vstart;
	while (header_end < b->len && !is_break(s[header_end]))
		header_end++;
	int keep = 0;
	for (size_t i = n->vstart + 1; i < header_end && s[i] != ' ' && s[i] != '#'; i++)
		keep |= s[i] == '+';
	for (;;) {
		size_t q = p;
		if (q > header_end && s[q - 1] == '\n')
			q--;
		if (q > header_end && s[q - 1] == '\r')
			q--;
		if (keep)
			return q < header_end ? header_end : q;
		size_t ls = q;
		while (ls > header_end && !is_break(s[ls - 1]))
			ls--;
		int blank = 1;
		for (size_t i = ls; i < q; i++)
			if (s[i] != ' ' && s[i] != '\t')
				blank = 0;
		if (!blank || ls <= header_end || q == p)
			return blank && ls <= header_end ? header_end : q;
		p = ls;
	}
}

static char *path_of(const struct doc_node *n)
{
	struct path p = PATH_INIT;
	const struct doc_node *chain[256];
	size_t depth = 0;
	for (const struct doc_node *x = n; x && x->parent && depth < 256; x = x->parent)
		chain[depth++] = x;
	while (depth--) {
		const struct doc_node *x = chain[depth], *par = x->parent;
		if (par->kind == DOC_MAP) {
			for (size_t i = 1; i < par->nkids; i += 2)
				if (par->kids[i] == x) {
					const struct doc_node *k = par->kids[i - 1];
					path_push_key(&p, k->kind == DOC_SCALAR ? k->text : "?");
				}
		} else {
			for (size_t i = 0; i < par->nkids; i++)
				if (par->kids[i] == x)
					path_push_index(&p, i);
		}
	}
	char *s = path_format(&p, (size_t)-1);
	path_release(&p);
	return s;
}

static const struct doc_node *const *sort_keys_base; /* for cmp_key_idx */

static int cmp_key_idx(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	const struct doc_node *a = sort_keys_base[2 * i], *c = sort_keys_base[2 * j];
	size_t n = a->len < c->len ? a->len : c->len;
	int r = memcmp(a->text, c->text, n);
	if (!r)
		r = a->len < c->len ? -1 : a->len > c->len;
	return r ? r : i < j ? -1 : i > j;
}

/* For each key of a big mapping, the index of the last earlier key with the
 * same text, or (size_t)-1: sorted once, where asking every earlier key
 * would be quadratic and a hash table costs an allocation per key. */
static size_t *earlier_twins(const struct doc_node *m, size_t n)
{
	size_t *idx = xmalloc(n * sizeof(*idx)), *prev = xmalloc(n * sizeof(*prev)), k = 0;
	for (size_t i = 0; i < n; i++) {
		prev[i] = (size_t)-1;
		if (m->kids[2 * i]->kind == DOC_SCALAR)
			idx[k++] = i;
	}
	sort_keys_base = (const struct doc_node *const *)m->kids;
	qsort(idx, k, sizeof(*idx), cmp_key_idx);
	for (size_t i = 1; i < k; i++) {
		const struct doc_node *a = m->kids[2 * idx[i - 1]], *c = m->kids[2 * idx[i]];
		if (a->len == c->len && !memcmp(a->text, c->text, a->len))
			prev[idx[i]] = idx[i - 1];
	}
	free(idx);
	return prev;
}

static void check_map(struct builder *b, struct doc_node *m)
{
	if (!b->lint)
		return;
	size_t n = m->nkids / 2;
	size_t *twins = n > 32 ? earlier_twins(m, n) : NULL;
	for (size_t i = 0; i < n; i++) {
		struct doc_node *k = m->kids[2 * i];
		if (k->kind != DOC_SCALAR)
			continue;
		if (b->nwarn >= 50)
			break;
		/* only a special-looking plain key can read as other than a string */
		if (k->style == STYLE_PLAIN && !k->tag && scalar_is_special(k->text, k->len)) {
			json_t *v = scalar_to_json(k->text, k->len, 1);
			if (!json_is_string(v) && !(k->len == 2 && !memcmp(k->text, "<<", 2))) {
				b->nwarn++;
				char *p = path_of(m);
				struct diag *dg = diag_add_at(b->diags, DIAG_WARNING, "yaml-key-not-string",
					k->line + 1, k->col + 1,
					"quote the key ('...':) so every reader sees the same string",
					"key '%s' is read by PyYAML as %s, not as a string", k->text,
					json_is_boolean(v) ? "a boolean" : json_is_null(v) ? "null" : "a number");
				free(dg->path);
				dg->path = p;
			}
			json_decref(v);
		}
		const struct doc_node *prev = NULL;
		if (twins) {
			if (twins[i] != (size_t)-1)
				prev = m->kids[2 * twins[i]];
		} else {
			for (size_t j = i; j-- > 0;) {
				const struct doc_node *o = m->kids[2 * j];
				if (o->kind == DOC_SCALAR && o->len == k->len && !memcmp(o->text, k->text, k->len)) {
					prev = o;
					break;
				}
			}
		}
		if (prev) {
			b->nwarn++;
			char *p = path_of(m->kids[2 * i + 1]);
			struct diag *dg = diag_add_at(b->diags, DIAG_WARNING, "yaml-duplicate-key", k->line + 1,
				k->col + 1,
				"remove one of them: srtctl's merge (ruamel.yaml) refuses duplicate keys",
				"key '%s' is given twice (first at line %d); PyYAML uses this last one",
				k->text, prev->line + 1);
			free(dg->path);
			dg->path = p;
		}
	}
	free(twins);
}

/* Levels a node brings where it is written: an alias brings its target's. */
static int kid_depth(const struct doc_node *k)
{
	if (k->kind == DOC_ALIAS)
		k = k->target;
	return k->kind == DOC_SCALAR ? 0 : k->xdepth;
}

static void close_collection(struct builder *b, struct doc_node *n, const struct doc_event *e)
{
	n->open = 0;
	n->xdepth = 1;
	for (size_t i = 0; i < n->nkids; i++)
		if (kid_depth(n->kids[i]) + 1 > n->xdepth)
			n->xdepth = kid_depth(n->kids[i]) + 1;
	n->raw_end = c2b(b, e->end.index);
	if (n->flow) {
		n->end = n->raw_end;
	} else if (n->nkids) {
		n->end = n->kids[n->nkids - 1]->end;
	} else {
		n->end = n->vstart;
	}
	if (n->kind == DOC_MAP)
		check_map(b, n);
}

static void add_anchor(struct builder *b, struct doc_node *n, const char *anchor)
{
	if (!anchor)
		return;
	n->anchor = doc_index_strndup(b->ix, anchor, strlen(anchor));
	ALLOC_GROW(b->anchors, b->nanchors + 1, b->aanchors);
	b->anchors[b->nanchors++] = n;
}

static void fail_at(struct builder *b, int line, int col, const char *hint, const char *fmt, const char *a,
		    const char *c)
{
	diag_add_at(b->diags, DIAG_ERROR, "yaml-syntax", line, col, hint, fmt, a, c);
}

/* Tabs: libyaml accepts `key:<TAB>value`, PyYAML refuses every tab that is
 * not inside quotes, a block scalar or a comment (design §1.3 item 9).  The
 * quoted and block scalars are the index's own nodes, in text order. */
static void lint_tabs(struct builder *b)
{
	const char *s = b->buf;
	if (!memchr(s, '\t', b->len))
		return;
	struct span *sp = NULL;
	size_t nsp = 0, asp = 0;
	for (size_t i = 0; i < b->ix->nall; i++) {
		const struct doc_node *n = b->ix->all[i];
		if (n->kind == DOC_SCALAR && n->style != STYLE_PLAIN && n->raw_end > n->vstart) {
			ALLOC_GROW(sp, nsp + 1, asp);
			sp[nsp].start = n->vstart;
			sp[nsp++].end = n->raw_end;
		}
	}
	size_t ti = 0, line_start = b->ix->body, reported = 0;
	int line = 1, line_done = 0;
	size_t in_span_until = 0;
	for (size_t i = b->ix->body; i < b->len; i++) {
		while (ti < nsp && sp[ti].end <= i)
			ti++;
		int quoted = ti < nsp && sp[ti].start <= i;
		if (quoted)
			in_span_until = sp[ti].end;
		if (s[i] == '\n') {
			line++;
			line_start = i + 1;
			line_done = 0;
			continue;
		}
		if (s[i] == '#' && !quoted && i >= in_span_until &&
		    (i == line_start || s[i - 1] == ' ' || s[i - 1] == '\t')) {
			/* a comment: skip to the end of the line */
			while (i + 1 < b->len && s[i + 1] != '\n')
				i++;
			continue;
		}
		if (s[i] != '\t' || quoted || line_done)
			continue;
		int col = 1;
		for (size_t k = line_start; k < i; k++)
			col += ((unsigned char)s[k] & 0xC0) != 0x80;
		line_done = 1;
		if (++reported > 20)
			break;
		diag_add_at(b->diags, DIAG_ERROR, "yaml-tab", line, col,
			    "replace the tab with spaces (or quote the value if the tab belongs to it)",
			    "tab character at line %d, column %d: PyYAML, and so srtctl, cannot read a tab "
			    "outside quotes, block text or comments", line, col);
	}
	free(sp);
}

/* A block mapping starts where its first key does, but an explicit key
 * (`? [1, 2]`, or `? k:` with a mapping as the key) starts at its '?': that
 * is the mapping's column, where new keys must go.  The '?' is an indicator
 * only when whitespace follows it and nothing but indentation and other
 * indicators ("- ? k") precedes it on its line (`x: huh?` is text). */
static void explicit_key_start(const struct builder *b, struct doc_node *map, const struct doc_node *key)
{
	const char *s = b->buf;
	size_t body = b->ix->body, q = key->start;
	/* (a NUL counts as a blank, as strchr's terminator did; a read text holds none) */
	while (q > body && (s[q - 1] == ' ' || s[q - 1] == '\t' || s[q - 1] == '\r' || s[q - 1] == '\n' || !s[q - 1]))
		q--;
	if (q == key->start || q == body || s[q - 1] != '?')
		return;
	size_t qm = q - 1, ls = qm;
	while (ls > body && s[ls - 1] != '\n') {
		if (!strchr(" \t-?", s[ls - 1]))
			return;
		ls--;
	}
	int col = 0, lines = 0;
	for (size_t i = ls; i < qm; i++)
		col += ((unsigned char)s[i] & 0xC0) != 0x80;
	for (size_t i = qm; i < key->vstart && i < b->len; i++)
		lines += s[i] == '\n';
	map->vstart = qm;
	map->col = col;
	map->line = key->line - lines;
}

struct parse_state {
	int ndocs, done;
	struct doc_node *docroot;
};

/* Add what one event says to the index.  Returns 0, or -1 with an error
 * diagnostic. */
static int on_event(struct builder *b, struct parse_state *ps, const struct doc_event *ev)
{
	const struct doc_event e = *ev;
	int rc = 0;
	struct doc_node *n = NULL;
	int sline = e.start.line; /* of the event's start, for the dash above it */
	switch (e.type) {
	case YAML_STREAM_END_EVENT:
		ps->done = 1;
		break;
	case YAML_DOCUMENT_START_EVENT:
		if (++ps->ndocs > 1) {
			diag_add_at(b->diags, DIAG_ERROR, "yaml-multi-document",
				    e.start.line + 1, e.start.col + 1,
				    "keep one document: remove this '---' line and what follows, "
				    "or split the file in two",
				    "'%s' holds more than one YAML document; srtctl reads exactly one",
				    b->name);
			rc = -1;
			ps->done = 1;
		}
		break;
	case YAML_SCALAR_EVENT: {
		n = new_node(b, DOC_SCALAR);
		n->start = c2b(b, e.start.index);
		n->raw_end = n->end = c2b(b, e.end.index);
		n->style = map_style((yaml_scalar_style_t)e.style);
		n->text = doc_index_strndup(b->ix, e.value, e.len);
		n->len = e.len;
		if (e.tag)
			n->tag = doc_index_strndup(b->ix, e.tag, strlen(e.tag));
		n->line = e.start.line;
		n->col = e.start.col;
		n->vstart = n->end;
		if (n->end > n->start) {
			if (!e.anchor && !e.tag) {
				n->vstart = n->start; /* the event starts at the value */
			} else {
				const struct doc_node *par = b->nstack ? b->stack[b->nstack - 1] : NULL;
				int line = n->line, col = n->col;
				size_t v = after_properties(b, n->start, n->end, par && (par->flow || par->in_flow),
							    &line, &col);
				if (v < n->end) {
					n->vstart = v;
					n->line = line;
					n->col = col;
				}
			}
		}
		if (n->style == STYLE_LITERAL || n->style == STYLE_FOLDED)
			n->end = block_scalar_end(b, n);
		add_anchor(b, n, e.anchor);
		break;
	}
	case YAML_ALIAS_EVENT: {
		n = new_node(b, DOC_ALIAS);
		n->start = n->vstart = c2b(b, e.start.index);
		n->raw_end = n->end = c2b(b, e.end.index);
		n->line = e.start.line;
		n->col = e.start.col;
		n->text = doc_index_strndup(b->ix, e.value, e.len);
		n->len = e.len;
		for (size_t i = b->nanchors; i-- > 0;)
			if (!strcmp(b->anchors[i]->anchor, n->text)) {
				n->target = b->anchors[i];
				break;
			}
		b->ix->naliases++;
		if (!n->target) {
			fail_at(b, n->line + 1, n->col + 1,
				"define the anchor (&name) before this alias, or write the value itself",
				"alias '*%s' refers to an anchor that is not defined before it%s", n->text, "");
			rc = -1;
			ps->done = 1;
		} else if (n->target->open) {
			/* `a: &a [1, *a]`: PyYAML builds a value that contains
			 * itself, which srtctl cannot merge, copy or print, and
			 * expanding it would never end. */
			diag_add_at(b->diags, DIAG_ERROR, "yaml-recursive-alias", n->line + 1, n->col + 1,
				    "an alias cannot sit inside the value it names: move it out of "
				    "that value, or write the values out instead",
				    "alias '*%s' refers to its own enclosing node", n->text);
			rc = -1;
			ps->done = 1;
		} else if (b->nstack + (size_t)kid_depth(n->target) > DOC_MAX_DEPTH) {
			diag_add_at(b->diags, DIAG_ERROR, "yaml-too-deep", n->line + 1, n->col + 1,
				    "a recipe nests a few levels (PyYAML, and so srtctl, gives up at "
				    "about 500): check that this is the right file",
				    "alias '*%s' nests the data more than %d levels deep", n->text,
				    DOC_MAX_DEPTH);
			rc = -1;
			ps->done = 1;
		}
		break;
	}
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT: {
		int seq = e.type == YAML_SEQUENCE_START_EVENT;
		n = new_node(b, seq ? DOC_SEQ : DOC_MAP);
		n->start = c2b(b, e.start.index);
		int flow = seq ? e.style == YAML_FLOW_SEQUENCE_STYLE : e.style == YAML_FLOW_MAPPING_STYLE;
		n->flow = flow;
		if (e.tag)
			n->tag = doc_index_strndup(b->ix, e.tag, strlen(e.tag));
		if (flow) {
			n->vstart = c2b(b, e.end.index) - 1;
			n->line = e.end.line;
			n->col = e.end.col - 1;
		} else {
			n->vstart = n->start; /* fixed by the first child */
			n->line = e.start.line;
			n->col = e.start.col;
		}
		add_anchor(b, n, e.anchor);
		n->open = 1;
		if (b->nstack >= DOC_MAX_DEPTH) {
			diag_add_at(b->diags, DIAG_ERROR, "yaml-too-deep", n->line + 1, n->col + 1,
				    "a recipe nests a few levels (PyYAML, and so srtctl, gives up at "
				    "about 500): check that this is the right file",
				    "'%s' nests more than %d levels deep", b->name, DOC_MAX_DEPTH);
			rc = -1;
			ps->done = 1;
		}
		break;
	}
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (b->nstack) {
			struct doc_node *c = b->stack[--b->nstack];
			close_collection(b, c, &e);
		}
		break;
	default:
		break;
	}
	if (n && !rc && b->ix->nall > DOC_MAX_NODES) {
		/* Each value costs a few hundred bytes in the index, the typed
		 * view and an edit's check: the count, not the file size, is
		 * what bounds the memory (a 15 MB flow list is 2 million). */
		diag_add_at(b->diags, DIAG_ERROR, "yaml-too-big", n->line + 1, n->col + 1,
			    "a recipe holds hundreds of values: check that this is the right file",
			    "'%s' holds more than %d values (keys, items and scalars)", b->name,
			    DOC_MAX_NODES);
		rc = -1;
		ps->done = 1;
	}
	if (n && !rc) {
		if (b->nstack) {
			struct doc_node *par = b->stack[b->nstack - 1];
			add_kid(b->ix, par, n);
			if (par->kind == DOC_SEQ && !par->flow) {
				int up;
				size_t dash = dash_before(b, n->start, &up);
				if (dash != DOC_NONE) {
					size_t ls = dash;
					while (ls > b->ix->body && !is_break(b->buf[ls - 1]))
						ls--;
					n->dash = dash;
					n->dash_line = sline - up;
					n->dash_col = chars_between(b->buf, ls, dash);
					if (par->nkids == 1) {
						par->vstart = dash;
						par->line = n->dash_line;
						par->col = n->dash_col;
					}
				}
			} else if (par->kind == DOC_MAP && !par->flow && par->nkids == 1) {
				par->vstart = n->vstart;
				par->line = n->line;
				par->col = n->col;
				explicit_key_start(b, par, n);
			}
		} else if (!ps->docroot) {
			ps->docroot = n;
		}
		if (n->kind == DOC_SEQ || n->kind == DOC_MAP) {
			ALLOC_GROW(b->stack, b->nstack + 1, b->astack);
			b->stack[b->nstack++] = n;
		}
	}
	return rc;
}

/* libyaml's error as a diagnostic. */
static void syntax_error(struct builder *b, const yaml_parser_t *p)
{
	char ctx[256] = "";
	if (p->context)
		snprintf(ctx, sizeof(ctx), " (%s at line %d)", p->context, (int)p->context_mark.line + 1);
	diag_add_at(b->diags, DIAG_ERROR, "yaml-syntax", (int)p->problem_mark.line + 1,
		    (int)p->problem_mark.column + 1,
		    "fix the YAML syntax at this line (indentation, quotes or brackets)",
		    "cannot read '%s': %s%s", b->name, p->problem ? p->problem : "syntax error", ctx);
}

struct fast_ctx {
	struct builder *b;
	struct parse_state *ps;
};

static int fast_event(void *ctx, const struct doc_event *e)
{
	struct fast_ctx *c = ctx;
	return on_event(c->b, c->ps, e) ? 1 : 0;
}

/* Back to an empty index, for libyaml to read the text again. */
static void restart(struct builder *b)
{
	size_t body = b->ix->body;
	doc_index_release(b->ix);
	b->ix->body = body;
	b->nstack = b->nanchors = 0;
	b->nwarn = 0;
}

/* The events, from doc_fast as it reads the text when the text is in its
 * subset, else from libyaml.  What doc_fast gave before giving up is
 * dropped, with what the index said about it, and the text read again. */
static int parse_events(struct builder *b, struct parse_state *ps)
{
	int rc = 0;
	struct diag_list *diags = b->diags, fast_diags = DIAG_LIST_INIT;
	struct fast_ctx c = { b, ps };
	b->diags = &fast_diags;
	int r = doc_fast_scan(b->buf, b->len, fast_event, &c);
	b->diags = diags;
	if (r == 0) {
		diag_list_move(diags, &fast_diags);
		diag_list_release(&fast_diags);
		return 0;
	}
	/* gave up, or the index refused an event (too many values): libyaml's
	 * reading and messages are the reference */
	diag_list_release(&fast_diags);
	restart(b);
	memset(ps, 0, sizeof(*ps));
	yaml_parser_t p;
	yaml_event_t y;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)b->buf, b->len);
	while (!ps->done && !rc) {
		if (!yaml_parser_parse(&p, &y)) {
			syntax_error(b, &p);
			rc = -1;
			break;
		}
		struct doc_event e;
		doc_event_from_libyaml(&y, &e);
		rc = on_event(b, ps, &e);
		yaml_event_delete(&y);
	}
	yaml_parser_delete(&p);
	return rc;
}

static int read_document(struct builder *b)
{
	struct parse_state ps = { 0, 0, NULL };
	int rc = parse_events(b, &ps);
	if (rc)
		return rc;
	struct doc_node *docroot = ps.docroot;
	if (docroot && docroot->kind == DOC_SCALAR && docroot->style == STYLE_PLAIN && docroot->len == 0 &&
	    !docroot->anchor && !docroot->tag)
		docroot = NULL; /* `---` alone: an empty document */
	if (docroot && docroot->kind != DOC_MAP) {
		diag_add_at(b->diags, DIAG_ERROR, "yaml-not-mapping", docroot->line + 1, docroot->col + 1,
			    "a recipe is a mapping of keys such as 'name:' and 'model:'",
			    "the top level of '%s' is %s, not a mapping", b->name,
			    docroot->kind == DOC_SEQ ? "a list" : docroot->kind == DOC_ALIAS ? "an alias" : "a single value");
		return -1;
	}
	b->ix->root = docroot;
	return 0;
}

int doc_index_build(struct doc_index *ix, const char *name, const char *buf, size_t len,
		    struct diag_list *diags, int lint)
{
	struct diag_list scratch = DIAG_LIST_INIT;
	memset(ix, 0, sizeof(*ix));
	struct builder b;
	memset(&b, 0, sizeof(b));
	b.ix = ix;
	b.name = name;
	b.buf = buf;
	b.len = len;
	b.diags = diags ? diags : &scratch;
	size_t first = b.diags->n;
	b.lint = lint;
	if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3))
		ix->body = 3;
	build_c2b(&b);
	/* room for the nodes a recipe of this size holds (a line or two of
	 * text each, comments included), so all[] is not grown step by step */
	size_t guess = (len - ix->body) / 16 + 8;
	ALLOC_GROW(ix->all, guess < 4096 ? guess : 4096, ix->aall);
	int rc = read_document(&b);
	if (!rc && lint) {
		lint_tabs(&b);
		for (size_t i = first; i < b.diags->n; i++) {
			const struct diag *g = &b.diags->v[i];
			struct diag *n = diag_add(&ix->lint, g->severity, g->code, g->path, g->hint,
						  "%s", g->message);
			n->line = g->line;
			n->col = g->col;
		}
	}
	free(b.c2b);
	free(b.stack);
	free(b.anchors);
	diag_list_release(&scratch);
	if (rc)
		doc_index_release(ix);
	return rc;
}
