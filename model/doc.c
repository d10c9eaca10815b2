/*
 * doc.c — the document object: its bytes, index, typed view, reading
 * accessors, transactions and the undo/redo stack.  Edits live in
 * doc_edit.c, the index builder in doc_index.c.
 *
 * Undo keeps what changed, not copies: each entry is one patch (offset, the
 * bytes that were there, the bytes that replaced them), found as the span
 * between the common prefix and suffix of the text before and after one user
 * action.  Undo and redo apply the patch and re-index the result, so a long
 * session on a large recipe costs what its edits changed.  The stack is
 * still capped (entries and bytes).
 *
 * A transaction (doc_begin .. doc_commit) makes any number of edits one undo
 * entry: the text at doc_begin is kept until the outermost commit, which
 * records a single patch from it; doc_abort goes back to it.
 */
#include "model/doc_internal.h"
#include "model/schema.h"
#include "lib/json.h"

#include <stdlib.h>
#include <string.h>

#define UNDO_MAX_ENTRIES 1000
#define UNDO_MAX_BYTES (64u << 20)
#define JSON_BUDGET_MIN 100000

/* Replace len(ins) bytes at off (the text after) by old (the text before). */
struct patch {
	size_t off;
	char *old, *ins; /* malloc'd, not NUL-terminated; NULL when empty */
	size_t old_len, ins_len;
};

struct doc {
	char *name;
	char *text;
	size_t len;
	struct doc_index ix;
	char *saved;           /* the text last saved; NULL while that is the current one */
	size_t saved_len;
	unsigned long gen;
	const struct doc_node *value_node; /* doc_value_edit */
	json_t *json_cache;
	unsigned long json_gen;
	/* doc_locate's sorted siblings of big collections, for json_gen's generation */
	struct siblings *sib;
	size_t nsib, asib;
	unsigned long sib_gen;
	int json_failed;
	struct patch *undo, *redo;
	size_t nundo, aundo, nredo, aredo;
	size_t undo_bytes;
	/* open transaction: depth, and the text it started from */
	int txn_depth;
	char *txn_text;
	size_t txn_len;
};

static void drop_siblings(struct doc *d);

struct doc *doc_load_owned(const char *name, char *buf, size_t len, struct diag_list *diags)
{
	struct diag_list local = DIAG_LIST_INIT;
	struct doc_index ix;
	if (doc_index_build(&ix, name, buf, len, diags ? diags : &local, 1) < 0) {
		diag_list_release(&local);
		free(buf);
		return NULL;
	}
	diag_list_release(&local);
	struct doc *d = xcalloc(1, sizeof(*d));
	d->name = xstrdup(name);
	d->text = buf;
	d->text[len] = 0;
	d->len = len;
	d->ix = ix;
	d->gen = 1;
	return d;
}

struct doc *doc_load(const char *name, const char *buf, size_t len, struct diag_list *diags)
{
	char *t = xmalloc(len + 1);
	memcpy(t, buf, len);
	return doc_load_owned(name, t, len, diags);
}

static void patch_release(struct patch *p)
{
	free(p->old);
	free(p->ins);
}

static void free_patches(struct patch *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		patch_release(&v[i]);
}

void doc_free(struct doc *d)
{
	if (!d)
		return;
	doc_index_release(&d->ix);
	free_patches(d->undo, d->nundo);
	free_patches(d->redo, d->nredo);
	free(d->undo);
	free(d->redo);
	json_decref(d->json_cache);
	drop_siblings(d);
	free(d->name);
	free(d->text);
	free(d->saved);
	free(d->txn_text);
	free(d);
}

const char *doc_name(const struct doc *d) { return d->name; }
const char *doc_text(const struct doc *d, size_t *len)
{
	if (len)
		*len = d->len;
	return d->text;
}
const char *doc_bytes(const struct doc *d, size_t *len) { return doc_text(d, len); }
struct doc_index *doc_current_index(struct doc *d) { return &d->ix; }

int doc_dirty(const struct doc *d)
{
	return d->saved && (d->len != d->saved_len || memcmp(d->text, d->saved, d->len) != 0);
}

unsigned long doc_generation(const struct doc *d) { return d->gen; }

void doc_mark_saved(struct doc *d)
{
	free(d->saved);
	d->saved = NULL;
	d->saved_len = 0;
}

static void set_state(struct doc *d, char *text, size_t len, struct doc_index *ix)
{
	/* The saved text was the current one: it is kept from here on. */
	if (!d->saved) {
		d->saved = d->text;
		d->saved_len = d->len;
	} else {
		free(d->text);
	}
	doc_index_release(&d->ix);
	d->text = text;
	d->len = len;
	d->ix = *ix;
	d->gen++;
	d->value_node = NULL;
}

void doc_note_value_edit(struct doc *d, const struct doc_node *n) { d->value_node = n; }
const struct doc_node *doc_value_edit(const struct doc *d) { return d->value_node; }

static char *dup_bytes(const char *s, size_t n)
{
	if (!n)
		return NULL;
	char *p = xmalloc(n);
	memcpy(p, s, n);
	return p;
}

/* The patch that turns after back into before: the span between their
 * common prefix and common suffix. */
static struct patch patch_between(const char *before, size_t blen, const char *after, size_t alen)
{
	/* memcmp over blocks first: a byte loop over a 500 KB text was a
	 * millisecond of every edit */
	enum { BLOCK = 256 };
	size_t pre = 0, min = blen < alen ? blen : alen;
	while (min - pre >= BLOCK && !memcmp(before + pre, after + pre, BLOCK))
		pre += BLOCK;
	while (pre < min && before[pre] == after[pre])
		pre++;
	size_t suf = 0;
	while (min - pre - suf >= BLOCK &&
	       !memcmp(before + blen - suf - BLOCK, after + alen - suf - BLOCK, BLOCK))
		suf += BLOCK;
	while (suf < min - pre && before[blen - 1 - suf] == after[alen - 1 - suf])
		suf++;
	struct patch p = {
		.off = pre,
		.old = dup_bytes(before + pre, blen - pre - suf),
		.old_len = blen - pre - suf,
		.ins = dup_bytes(after + pre, alen - pre - suf),
		.ins_len = alen - pre - suf,
	};
	return p;
}

static size_t patch_bytes(const struct patch *p) { return p->old_len + p->ins_len + sizeof(*p); }

static void push_undo(struct doc *d, struct patch p)
{
	ALLOC_GROW(d->undo, d->nundo + 1, d->aundo);
	d->undo[d->nundo++] = p;
	d->undo_bytes += patch_bytes(&p);
	while (d->nundo > 1 && (d->nundo > UNDO_MAX_ENTRIES || d->undo_bytes > UNDO_MAX_BYTES)) {
		d->undo_bytes -= patch_bytes(&d->undo[0]);
		patch_release(&d->undo[0]);
		memmove(d->undo, d->undo + 1, (d->nundo - 1) * sizeof(*d->undo));
		d->nundo--;
	}
	free_patches(d->redo, d->nredo);
	d->nredo = 0;
}

void doc_install(struct doc *d, char *text, size_t len, struct doc_index *ix)
{
	/* Inside a transaction the entry is made once, at the outer commit. */
	if (!d->txn_depth)
		push_undo(d, patch_between(d->text, d->len, text, len));
	set_state(d, text, len, ix);
}

const struct diag_list *doc_lint(const struct doc *d) { return &d->ix.lint; }

/* ---------- transactions ---------- */

void doc_begin(struct doc *d)
{
	if (d->txn_depth++ == 0) {
		d->txn_text = xmalloc(d->len + 1);
		memcpy(d->txn_text, d->text, d->len);
		d->txn_text[d->len] = 0;
		d->txn_len = d->len;
	}
}

int doc_in_transaction(const struct doc *d) { return d->txn_depth > 0; }

static void txn_end(struct doc *d)
{
	free(d->txn_text);
	d->txn_text = NULL;
	d->txn_len = 0;
}

int doc_commit(struct doc *d)
{
	if (d->txn_depth <= 0)
		return -1;
	if (--d->txn_depth)
		return 0;
	if (d->txn_len != d->len || memcmp(d->txn_text, d->text, d->len))
		push_undo(d, patch_between(d->txn_text, d->txn_len, d->text, d->len));
	txn_end(d);
	return 0;
}

void doc_abort(struct doc *d)
{
	if (d->txn_depth <= 0)
		return;
	/* An inner abort fails the whole action: the outer one rolls back. */
	d->txn_depth = 0;
	if (d->txn_len != d->len || memcmp(d->txn_text, d->text, d->len)) {
		struct doc_index ix;
		/* The text at doc_begin was current, so it was indexed before. */
		if (doc_index_build(&ix, d->name, d->txn_text, d->txn_len, NULL, 1) == 0) {
			set_state(d, d->txn_text, d->txn_len, &ix);
			d->txn_text = NULL;
		}
	}
	txn_end(d);
}

/* ---------- undo / redo ---------- */

int doc_can_undo(const struct doc *d) { return !d->txn_depth && d->nundo > 0; }
int doc_can_redo(const struct doc *d) { return !d->txn_depth && d->nredo > 0; }

/* Apply p to the current text (ins -> old) and move it, reversed, onto
 * the other stack. */
static int apply(struct doc *d, struct patch *from, size_t *nfrom, struct patch **to, size_t *nto,
		 size_t *ato)
{
	if (!*nfrom || d->txn_depth)
		return -1;
	struct patch p = from[*nfrom - 1];
	if (p.off + p.ins_len > d->len)
		return -1; /* cannot happen: the patch was made from this text */
	size_t len = d->len - p.ins_len + p.old_len;
	char *t = xmalloc(len + 1);
	memcpy(t, d->text, p.off);
	if (p.old_len)
		memcpy(t + p.off, p.old, p.old_len);
	memcpy(t + p.off + p.old_len, d->text + p.off + p.ins_len, d->len - p.off - p.ins_len);
	t[len] = 0;
	struct doc_index ix;
	if (doc_index_build(&ix, d->name, t, len, NULL, 1) < 0) {
		free(t); /* cannot happen: every text on the stack was indexed before */
		return -1;
	}
	(*nfrom)--;
	struct patch r = {.off = p.off, .old = p.ins, .old_len = p.ins_len, .ins = p.old, .ins_len = p.old_len};
	ALLOC_GROW(*to, *nto + 1, *ato);
	(*to)[(*nto)++] = r;
	set_state(d, t, len, &ix);
	return 0;
}

int doc_undo(struct doc *d)
{
	if (apply(d, d->undo, &d->nundo, &d->redo, &d->nredo, &d->aredo) < 0)
		return -1;
	d->undo_bytes -= patch_bytes(&d->redo[d->nredo - 1]);
	return 0;
}

int doc_redo(struct doc *d)
{
	if (apply(d, d->redo, &d->nredo, &d->undo, &d->nundo, &d->aundo) < 0)
		return -1;
	d->undo_bytes += patch_bytes(&d->undo[d->nundo - 1]);
	return 0;
}

size_t doc_undo_bytes(const struct doc *d) { return d->undo_bytes; }

int doc_replace_text(struct doc *d, const char *buf, size_t len, char **err)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc_index ix;
	/* The same text is the same tree: it was indexed when it became current. */
	if (len == d->len && !memcmp(buf, d->text, len))
		return 0;
	if (doc_index_build(&ix, d->name, buf, len, &dl, 1) < 0) {
		const struct diag *e = dl.n ? &dl.v[dl.n - 1] : NULL;
		*err = e ? xasprintf("%s:%d:%d: %s", d->name, e->line, e->col, e->message)
			 : xasprintf("cannot read '%s'", d->name);
		diag_list_release(&dl);
		return -1;
	}
	diag_list_release(&dl);
	char *t = xmalloc(len + 1);
	memcpy(t, buf, len);
	t[len] = 0;
	doc_install(d, t, len, &ix);
	return 0;
}

/* ---------- tree access ---------- */

const struct doc_node *doc_root(const struct doc *d) { return d->ix.root; }
enum doc_kind doc_node_kind(const struct doc_node *n) { return n->kind; }
size_t doc_node_count(const struct doc_node *n)
{
	return n->kind == DOC_MAP ? n->nkids / 2 : n->kind == DOC_SEQ ? n->nkids : 0;
}
const struct doc_node *doc_node_child(const struct doc_node *n, size_t i)
{
	if (n->kind == DOC_MAP)
		return 2 * i + 1 < n->nkids ? n->kids[2 * i + 1] : NULL;
	if (n->kind == DOC_SEQ)
		return i < n->nkids ? n->kids[i] : NULL;
	return NULL;
}
const struct doc_node *doc_node_key(const struct doc_node *n, size_t i)
{
	return n->kind == DOC_MAP && 2 * i < n->nkids ? n->kids[2 * i] : NULL;
}
const char *doc_node_text(const struct doc_node *n) { return n->text ? n->text : ""; }
enum scalar_style doc_node_style(const struct doc_node *n) { return n->kind == DOC_SCALAR ? n->style : STYLE_ANY; }
int doc_node_flow(const struct doc_node *n) { return n->flow; }
int doc_node_line(const struct doc_node *n) { return n->line + 1; }
int doc_node_col(const struct doc_node *n) { return n->col + 1; }
size_t doc_node_start(const struct doc_node *n) { return n->vstart; }
size_t doc_node_end(const struct doc_node *n) { return n->end; }
const char *doc_node_anchor(const struct doc_node *n) { return n->anchor; }

const char *doc_node_key_text(const struct doc_node *n)
{
	const struct doc_node *p = n->parent;
	if (!p || p->kind != DOC_MAP)
		return NULL;
	for (size_t i = 1; i < p->nkids; i += 2)
		if (p->kids[i] == n)
			return p->kids[i - 1]->kind == DOC_SCALAR ? p->kids[i - 1]->text : NULL;
	return NULL;
}

ssize_t doc_map_find(const struct doc_node *map, const char *key)
{
	if (!map || map->kind != DOC_MAP)
		return -1;
	size_t kl = strlen(key);
	for (size_t i = map->nkids / 2; i-- > 0;) {
		const struct doc_node *k = map->kids[2 * i];
		if (k->kind == DOC_SCALAR && k->len == kl && !memcmp(k->text, key, kl))
			return (ssize_t)i;
	}
	return -1;
}

/* The scalar `name:` of a list item (aliases followed), or NULL: what a
 * path's [name] segment matches. */
static const struct doc_node *item_name(const struct doc_node *it)
{
	if (it->kind == DOC_ALIAS)
		it = it->target;
	ssize_t k = doc_map_find(it, "name");
	const struct doc_node *v = k >= 0 ? it->kids[2 * k + 1] : NULL;
	if (v && v->kind == DOC_ALIAS)
		v = v->target;
	return v && v->kind == DOC_SCALAR ? v : NULL;
}

static const struct doc_node *seq_find_name(const struct doc_node *seq, const char *name)
{
	for (size_t i = 0; i < seq->nkids; i++) {
		const struct doc_node *v = item_name(seq->kids[i]);
		if (v && !strcmp(v->text, name))
			return seq->kids[i];
	}
	return NULL;
}

/* Walk p; *depth = number of segments resolved.  Aliases on the way are
 * followed only when asked (reading); editing stops at them. */
const struct doc_node *doc_index_lookup(const struct doc_index *ix, const struct path *p, size_t *depth,
					int follow_aliases)
{
	const struct doc_node *n = ix->root;
	size_t i = 0;
	for (; n && i < p->n; i++) {
		const struct doc_node *c = n;
		if (c->kind == DOC_ALIAS) {
			if (!follow_aliases)
				break;
			c = c->target;
		}
		const struct path_seg *s = &p->seg[i];
		const struct doc_node *next = NULL;
		if (s->kind == PATH_KEY) {
			ssize_t k = doc_map_find(c, s->key);
			if (k >= 0)
				next = c->kids[2 * k + 1];
		} else if (c->kind == DOC_SEQ) {
			if (s->kind == PATH_INDEX)
				next = s->index < c->nkids ? c->kids[s->index] : NULL;
			else
				next = seq_find_name(c, s->key);
		}
		if (!next)
			break;
		n = next;
	}
	if (depth)
		*depth = i;
	return n;
}

const struct doc_node *doc_lookup(const struct doc *d, const struct path *p)
{
	size_t depth;
	const struct doc_node *n = doc_index_lookup(&d->ix, p, &depth, 1);
	return depth == p->n ? n : NULL;
}

/* ---------- snapshots and the typed view ---------- */

static json_t *snap_scalar(const struct doc_node *n)
{
	if (n->kind == DOC_ALIAS) {
		char *s = xasprintf("\x02%s", n->text);
		json_t *j = json_string(s);
		free(s);
		return j;
	}
	if (n->tag) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "\x03%s\x03", n->tag);
		strbuf_add(&sb, n->text, n->len);
		json_t *j = json_stringn(sb.buf, sb.len);
		strbuf_release(&sb);
		return j;
	}
	if (n->style == STYLE_PLAIN && scalar_is_special(n->text, n->len)) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addch(&sb, '\x01');
		strbuf_add(&sb, n->text, n->len);
		json_t *j = json_stringn(sb.buf, sb.len);
		strbuf_release(&sb);
		return j;
	}
	return json_stringn(n->text, n->len);
}

char *doc_snapshot_complex_key(const struct doc_node *k)
{
	json_t *j = doc_snapshot(k);
	char *c = j ? json_text(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY) : NULL;
	json_decref(j);
	char *s = xasprintf("\x04%s", c ? c : "");
	free(c);
	return s;
}

static char *snap_key(const struct doc_node *k)
{
	if (k->kind == DOC_SEQ || k->kind == DOC_MAP)
		return doc_snapshot_complex_key(k);
	json_t *j = snap_scalar(k);
	char *s = xstrdup(json_string_value(j) ? json_string_value(j) : "");
	json_decref(j);
	return s;
}

/* An index never nests deeper than DOC_MAX_DEPTH (doc_index_build refuses
 * it); the depth check only keeps a future bug from becoming a stack
 * overflow: the snapshot then differs and the edit is refused. */
static json_t *snapshot_at(const struct doc_node *n, int depth)
{
	if (depth > DOC_MAX_DEPTH)
		return json_string("\x05too deep");
	if (n->kind == DOC_SEQ) {
		json_t *a = json_array();
		for (size_t i = 0; i < n->nkids; i++)
			json_array_append_new(a, snapshot_at(n->kids[i], depth + 1));
		return a;
	}
	if (n->kind == DOC_MAP) {
		json_t *o = json_object();
		for (size_t i = 0; i + 1 < n->nkids; i += 2) {
			char *k = snap_key(n->kids[i]);
			json_object_set_new(o, k, snapshot_at(n->kids[i + 1], depth + 1));
			free(k);
		}
		return o;
	}
	return snap_scalar(n);
}

json_t *doc_snapshot(const struct doc_node *n)
{
	return n ? snapshot_at(n, 0) : json_object();
}

static json_t *scalar_value(const struct doc_node *n)
{
	if (n->tag) {
		const char *t = n->tag;
		if (!strcmp(t, "tag:yaml.org,2002:str"))
			return json_stringn_nocheck(n->text, n->len);
		if (!strncmp(t, "tag:yaml.org,2002:", 18))
			return scalar_to_json(n->text, n->len, 1);
	}
	return scalar_to_json(n->text, n->len, n->style == STYLE_PLAIN);
}

static void merge_into(json_t *dst, json_t *src)
{
	const char *k;
	json_t *v;
	json_object_foreach(src, k, v) json_object_set(dst, k, v);
}

/* depth counts collection levels, aliases expanded: doc_index_build keeps
 * it within DOC_MAX_DEPTH, so the check here is a guard, not a limit. */
static json_t *build_json(const struct doc_node *n, size_t *budget, int depth)
{
	if (!*budget || depth > DOC_MAX_DEPTH)
		return NULL;
	(*budget)--;
	if (n->kind == DOC_ALIAS)
		return build_json(n->target, budget, depth);
	if (n->kind == DOC_SCALAR)
		return scalar_value(n);
	if (n->kind == DOC_SEQ) {
		json_t *a = json_array();
		for (size_t i = 0; i < n->nkids; i++) {
			json_t *x = build_json(n->kids[i], budget, depth + 1);
			if (!x) {
				json_decref(a);
				return NULL;
			}
			json_array_append_new(a, x);
		}
		return a;
	}
	/* PyYAML flatten_mapping: merged mappings first (the first one listed
	 * wins among them), then the mapping's own keys override them. */
	json_t *o = json_object();
	for (size_t i = 0; i + 1 < n->nkids; i += 2) {
		const struct doc_node *k = n->kids[i], *v = n->kids[i + 1];
		if (!(k->kind == DOC_SCALAR && k->style == STYLE_PLAIN && k->len == 2 && !memcmp(k->text, "<<", 2)))
			continue;
		const struct doc_node *vv = v->kind == DOC_ALIAS ? v->target : v;
		json_t *m = build_json(v, budget, depth + 1);
		if (!m)
			goto fail;
		if (json_is_object(m)) {
			merge_into(o, m);
		} else if (json_is_array(m) && vv->kind == DOC_SEQ) {
			for (size_t j = json_array_size(m); j-- > 0;)
				if (json_is_object(json_array_get(m, j)))
					merge_into(o, json_array_get(m, j));
		}
		json_decref(m);
	}
	for (size_t i = 0; i + 1 < n->nkids; i += 2) {
		const struct doc_node *k = n->kids[i], *v = n->kids[i + 1];
		if (k->kind == DOC_SCALAR && k->style == STYLE_PLAIN && k->len == 2 && !memcmp(k->text, "<<", 2))
			continue;
		const struct doc_node *kk = k->kind == DOC_ALIAS ? k->target : k;
		json_t *x = build_json(v, budget, depth + 1);
		if (!x)
			goto fail;
		/* the parser's texts are UTF-8 already */
		json_object_set_new_nocheck(o, kk->kind == DOC_SCALAR ? kk->text : "?", x);
	}
	return o;
fail:
	json_decref(o);
	return NULL;
}

json_t *doc_build_json(const struct doc_node *n, size_t *budget)
{
	return build_json(n, budget, 0);
}

static size_t json_budget(const struct doc *d)
{
	size_t b = d->ix.nall * 10;
	return b < JSON_BUDGET_MIN ? JSON_BUDGET_MIN : b;
}

json_t *doc_node_json(const struct doc *d, const struct doc_node *n)
{
	size_t budget = json_budget(d);
	if (!n)
		return json_object();
	return doc_build_json(n, &budget);
}

/* The typed value after a value edit (doc_value_edit) of the generation
 * before, from that generation's tree: the objects from the root down to
 * the edited scalar are copied (shallow) and the new value set in the copy,
 * so every other subtree is shared with the old tree, which stays as it
 * was for whoever still holds it.  A full build is O(document); this is
 * O(the path's widths).  NULL when the edit is not simply one place in the
 * tree: aliases (an anchored value appears wherever it is aliased), merge
 * keys, keys that are not plain text, a later duplicate key (the value is
 * not the one the tree holds). */
static json_t *patched_json(const struct doc *d, json_t *old, const struct doc_node *n)
{
	const struct doc_node *up[DOC_MAX_DEPTH + 1];
	size_t depth = 0;
	if (!old || d->ix.naliases || n->kind != DOC_SCALAR)
		return NULL;
	for (const struct doc_node *c = n; c->parent; c = c->parent) {
		if (depth == DOC_MAX_DEPTH)
			return NULL;
		up[depth++] = c;
	}
	if (!depth || d->ix.root != up[depth - 1]->parent)
		return NULL;
	json_t *root = json_copy(old), *at = root;
	for (size_t lvl = depth; lvl-- > 0;) {
		const struct doc_node *c = up[lvl], *par = c->parent;
		size_t i = 0;
		while (i < par->nkids && par->kids[i] != c)
			i++;
		if (i == par->nkids)
			goto fail;
		json_t *next;
		if (par->kind == DOC_SEQ) {
			if (!json_is_array(at) || i >= json_array_size(at))
				goto fail;
			next = lvl ? json_copy(json_array_get(at, i)) : scalar_value(n);
			json_array_set_new(at, i, next);
		} else {
			if (!(i & 1))
				goto fail; /* a key, not a value */
			const struct doc_node *k = par->kids[i - 1];
			if (k->kind != DOC_SCALAR || !json_is_object(at) ||
			    (k->style == STYLE_PLAIN && k->len == 2 && !memcmp(k->text, "<<", 2)))
				goto fail;
			for (size_t j = i + 1; j < par->nkids; j += 2)
				if (par->kids[j]->kind == DOC_SCALAR && par->kids[j]->len == k->len &&
				    !memcmp(par->kids[j]->text, k->text, k->len))
					goto fail;
			json_t *was = json_object_get(at, k->text);
			if (!was)
				goto fail;
			next = lvl ? json_copy(was) : scalar_value(n);
			json_object_set_new_nocheck(at, k->text, next);
		}
		at = next;
		if (!at)
			goto fail;
	}
	return root;
fail:
	json_decref(root);
	return NULL;
}

void doc_adopt_json(struct doc *d, json_t *tree)
{
	json_decref(d->json_cache);
	d->json_cache = json_incref(tree);
	d->json_gen = d->gen;
}

json_t *doc_json(const struct doc *d)
{
	struct doc *m = (struct doc *)d; /* the cache is not part of the value */
	if (m->json_gen != d->gen && m->json_gen + 1 == d->gen && d->value_node) {
		json_t *j = patched_json(d, m->json_cache, d->value_node);
		if (j) {
			json_decref(m->json_cache);
			m->json_cache = j;
			m->json_gen = d->gen;
		}
	}
	if (m->json_gen != d->gen) {
		json_decref(m->json_cache);
		size_t budget = json_budget(d);
		m->json_cache = d->ix.root ? doc_build_json(d->ix.root, &budget) : json_object();
		m->json_gen = d->gen;
	}
	return m->json_cache ? json_incref(m->json_cache) : NULL;
}

/* ---------- locating ---------- */

/* Validation locates a path per diagnostic, and a big recipe can have one
 * per key of a mapping of thousands (unknown args): walking the siblings
 * each time is quadratic.  The keys of a mapping, and the names of a list's
 * items, with LOCATE_BIG or more of them are sorted the first time a path
 * goes through it (per generation), and each level is then a binary search
 * with the walk's answer: the last key of a mapping that matches (as
 * doc_map_find), the first item of a list with that name (as
 * seq_find_name). */
#define LOCATE_BIG 32

struct sibling {
	const char *text;
	size_t len;
	size_t pos; /* mappings: the pair; lists: the item */
};

struct siblings {
	const struct doc_node *node;
	struct sibling *v;
	size_t n;
};

static void drop_siblings(struct doc *d)
{
	for (size_t i = 0; i < d->nsib; i++)
		free(d->sib[i].v);
	free(d->sib);
	d->sib = NULL;
	d->nsib = d->asib = 0;
}

static int cmp_sibling(const void *a, const void *b)
{
	const struct sibling *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->text, y->text, n);
	if (!c)
		c = x->len < y->len ? -1 : x->len > y->len;
	return c ? c : x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The sorted siblings of c (a mapping's scalar keys, or a list's item names). */
static const struct siblings *siblings_of(struct doc *d, const struct doc_node *c)
{
	if (d->sib_gen != d->gen) {
		/* a value edit moves no node and renames no key; only a `name:`
		 * value can reorder a list's items */
		const struct doc_node *v = d->value_node;
		const char *k = v ? doc_node_key_text(v) : NULL;
		if (!(d->sib_gen + 1 == d->gen && v && k && strcmp(k, "name")))
			drop_siblings(d);
		d->sib_gen = d->gen;
	}
	for (size_t i = 0; i < d->nsib; i++)
		if (d->sib[i].node == c)
			return &d->sib[i];
	ALLOC_GROW(d->sib, d->nsib + 1, d->asib);
	struct siblings *s = &d->sib[d->nsib++];
	s->node = c;
	s->n = 0;
	s->v = xmalloc((c->nkids + 1) * sizeof(*s->v));
	if (c->kind == DOC_MAP) {
		for (size_t i = 0; 2 * i + 1 < c->nkids; i++) {
			const struct doc_node *k = c->kids[2 * i];
			if (k->kind == DOC_SCALAR)
				s->v[s->n++] = (struct sibling){ k->text, k->len, i };
		}
	} else {
		for (size_t i = 0; i < c->nkids; i++) {
			const struct doc_node *v = item_name(c->kids[i]);
			if (v) /* names compare as C strings */
				s->v[s->n++] = (struct sibling){ v->text, strlen(v->text), i };
		}
	}
	qsort(s->v, s->n, sizeof(*s->v), cmp_sibling);
	return s;
}

/* The pos of the last (mappings) or first (lists) sibling named text, or -1. */
static ssize_t sibling_find(const struct siblings *s, const char *text, int last)
{
	struct sibling key = { text, strlen(text), last ? (size_t)-1 : 0 };
	size_t lo = 0, hi = s->n;
	while (lo < hi) { /* the first entry not before key */
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_sibling(&s->v[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (last) {
		if (!lo)
			return -1;
		lo--;
	}
	if (lo >= s->n || s->v[lo].len != key.len || memcmp(s->v[lo].text, text, key.len))
		return -1;
	return (ssize_t)s->v[lo].pos;
}

/* doc_index_lookup with aliases followed, through the sorted siblings of big
 * collections; *key gets the key node of the last value found in a mapping. */
static const struct doc_node *locate_lookup(const struct doc *d, const struct path *p, size_t *depth,
					    const struct doc_node **key)
{
	struct doc *m = (struct doc *)d; /* the siblings are not part of the value */
	const struct doc_node *n = d->ix.root;
	size_t i = 0;
	*key = NULL;
	for (; n && i < p->n; i++) {
		const struct doc_node *c = n->kind == DOC_ALIAS ? n->target : n;
		const struct path_seg *s = &p->seg[i];
		const struct doc_node *next = NULL, *k = NULL;
		if (s->kind == PATH_KEY) {
			ssize_t j = c->kind == DOC_MAP && c->nkids / 2 >= LOCATE_BIG
					    ? sibling_find(siblings_of(m, c), s->key, 1)
					    : doc_map_find(c, s->key);
			if (j >= 0) {
				next = c->kids[2 * j + 1];
				k = c->kids[2 * j];
			}
		} else if (c->kind == DOC_SEQ) {
			if (s->kind == PATH_INDEX) {
				next = s->index < c->nkids ? c->kids[s->index] : NULL;
			} else if (c->nkids >= LOCATE_BIG) {
				ssize_t j = sibling_find(siblings_of(m, c), s->key, 0);
				next = j >= 0 ? c->kids[j] : NULL;
			} else {
				next = seq_find_name(c, s->key);
			}
		}
		if (!next)
			break;
		n = next;
		*key = k;
	}
	*depth = i;
	return n;
}

int doc_locate(const struct doc *d, const struct path *p, int *line, int *col)
{
	size_t depth;
	const struct doc_node *key;
	const struct doc_node *n = locate_lookup(d, p, &depth, &key);
	*line = *col = 0;
	if (!n)
		return -1;
	if (depth == p->n || depth > 0) {
		/* a map value: point at its key, which is what a reader looks for */
		const struct doc_node *at = n;
		if (n->parent && n->parent->kind == DOC_MAP) {
			if (key && key->parent == n->parent)
				at = key;
			else
				for (size_t i = 1; i < n->parent->nkids; i += 2)
					if (n->parent->kids[i] == n)
						at = n->parent->kids[i - 1];
		}
		if (n->parent && n->parent->kind == DOC_SEQ && n->dash != DOC_NONE) {
			*line = n->dash_line + 1;
			*col = n->dash_col + 1;
		} else {
			*line = at->line + 1;
			*col = at->col + 1;
		}
		return depth == p->n;
	}
	*line = n->line + 1;
	*col = n->col + 1;
	return 0;
}

void doc_locate_diags(const struct doc *d, struct diag_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct diag *g = &l->v[i];
		if (g->line || !g->path || !*g->path)
			continue;
		struct path p = PATH_INIT;
		char *err = NULL;
		if (path_parse(&p, g->path, PATH_NAMES, &err) == 0)
			doc_locate(d, &p, &g->line, &g->col);
		free(err);
		path_release(&p);
	}
}

/* ---------- reading ---------- */

static size_t line_start_of(const char *s, size_t body, size_t pos)
{
	while (pos > body && s[pos - 1] != '\n')
		pos--;
	return pos;
}

/* A block collection's text, dedented by the column of its first line. */
static void get_yaml(const struct doc *d, const struct doc_node *n, struct strbuf *out)
{
	const char *s = d->text;
	if (n->flow || n->kind == DOC_SCALAR || n->kind == DOC_ALIAS) {
		strbuf_add(out, s + n->vstart, n->end - n->vstart);
		strbuf_addch(out, '\n');
		return;
	}
	size_t col = (size_t)n->col;
	size_t p = n->vstart;
	int first = 1;
	while (p < n->end) {
		size_t ls = line_start_of(s, d->ix.body, p);
		size_t e = p;
		while (e < d->len && s[e] != '\n')
			e++;
		size_t from = first ? p : ls;
		if (!first) {
			size_t k = 0;
			while (k < col && from < e && s[from] == ' ') {
				from++;
				k++;
			}
		}
		size_t to = e;
		if (to > from && s[to - 1] == '\r')
			to--;
		strbuf_add(out, s + from, to - from);
		strbuf_addch(out, '\n');
		first = 0;
		p = e + 1;
	}
}

int doc_get(const struct doc *d, const struct path *p, int json, struct strbuf *out, char **err)
{
	size_t depth;
	const struct doc_node *n = doc_index_lookup(&d->ix, p, &depth, 1);
	if (!n || depth != p->n) {
		/* maybe inherited through a merge key: read the typed view */
		json_t *all = doc_json(d);
		json_t *v = all;
		for (size_t i = 0; v && i < p->n; i++) {
			const struct path_seg *s = &p->seg[i];
			if (s->kind == PATH_KEY)
				v = json_object_get(v, s->key);
			else if (s->kind == PATH_INDEX)
				v = json_array_get(v, s->index);
			else
				v = NULL;
		}
		if (!p->n) {
			*err = xstrdup("the file holds no recipe yet; there is nothing to read");
			json_decref(all);
			return -1;
		}
		if (!v) {
			char *ps = path_format(p, depth + 1);
			*err = xasprintf("'%s' does not exist", ps);
			free(ps);
			json_decref(all);
			return -1;
		}
		if (json_is_string(v) && !json)
			strbuf_add(out, json_string_value(v), json_string_length(v));
		else
			pyjson_dump(out, v, PYJSON_UNICODE, 2);
		strbuf_addch(out, '\n');
		json_decref(all);
		return 0;
	}
	const struct doc_node *t = n->kind == DOC_ALIAS ? n->target : n;
	if (json || t->kind == DOC_SCALAR) {
		json_t *v = doc_node_json(d, n);
		if (!v) {
			char *ps = path_format(p, (size_t)-1);
			*err = xasprintf("'%s' expands to too much data through its aliases (an alias bomb?)",
					 ps);
			free(ps);
			return -1;
		}
		if (t->kind == DOC_SCALAR && !json)
			strbuf_add(out, t->text, t->len);
		else
			pyjson_dump(out, v, PYJSON_UNICODE, 2);
		strbuf_addch(out, '\n');
		json_decref(v);
		return 0;
	}
	get_yaml(d, t, out);
	return 0;
}

/* ---------- "did you mean" ---------- */

/* Enough for any recipe; a hostile file with 100,000 keys is not worth a
 * slow suggestion. */
#define SUGGEST_MAX_CANDIDATES 1000

char *doc_suggest_path(const struct doc *d, const struct path *p)
{
	size_t depth;
	const struct doc_node *n = doc_index_lookup(&d->ix, p, &depth, 1);
	if (!n || depth >= p->n)
		return NULL;
	if (n->kind == DOC_ALIAS)
		n = n->target;
	const struct path_seg *s = &p->seg[depth];
	const char **cands = NULL;
	size_t nc = 0, ac = 0;
	if (s->kind == PATH_KEY && n->kind == DOC_MAP) {
		for (size_t i = 0; i + 1 < n->nkids && nc < SUGGEST_MAX_CANDIDATES; i += 2)
			if (n->kids[i]->kind == DOC_SCALAR) {
				ALLOC_GROW(cands, nc + 1, ac);
				cands[nc++] = n->kids[i]->text;
			}
	} else if (s->kind == PATH_NAME && n->kind == DOC_SEQ) {
		for (size_t i = 0; i < n->nkids && nc < SUGGEST_MAX_CANDIDATES; i++) {
			const struct doc_node *v = item_name(n->kids[i]);
			if (v) {
				ALLOC_GROW(cands, nc + 1, ac);
				cands[nc++] = v->text;
			}
		}
	}
	const char *best = nc ? schema_suggest(s->key, cands, nc) : NULL;
	char *out = NULL;
	if (best && strcmp(best, s->key)) {
		struct path q = PATH_INIT;
		for (size_t i = 0; i < p->n; i++) {
			const struct path_seg *x = &p->seg[i];
			const char *key = i == depth ? best : x->key;
			if (x->kind == PATH_KEY)
				path_push_key(&q, key);
			else if (x->kind == PATH_NAME)
				path_push_name(&q, key);
			else
				path_push_index(&q, x->index);
		}
		out = path_format(&q, (size_t)-1);
		path_release(&q);
	}
	free(cands);
	return out;
}
