/*
 * doc_fast_json.c — doc_fast_json(): the typed tree of a text doc_load reads
 * without a word, straight from doc_fast's events.
 *
 * doc_load builds the node index (every node's span, for locating and
 * editing) and then the typed tree from the nodes; the index is half of
 * loading a recipe.  `validate` needs it only to say where a problem is, so
 * for a text that loads quietly it can check the tree first and load the
 * document only when there is something to place.  Quietly means: nothing
 * doc_index_build could warn about or refuse.  Rather than judge those
 * cases, anything that may lead to one gives up: a tab anywhere, a key that
 * is not a plain-or-quoted scalar, a key that may read as other than a
 * string, a duplicate key, anchors, aliases, tags, a second document, a top
 * level that is not a mapping, and more depth or values than a recipe has.
 * tests/unit/test_doc_fast_json.c checks the tree against doc_json's on
 * every text it has, and that no text it answers makes doc_load say a word.
 */
#include "model/doc_internal.h"
#include "model/doc_fast.h"
#include "model/scalar.h"

#include <stdint.h>
#include <string.h>
#include <yaml.h>

#include "lib/util.h"

/* Far below the index's own bounds (DOC_MAX_DEPTH, DOC_MAX_NODES): a recipe
 * nests a handful of levels; deeper texts go the full way. */
enum { FJ_MAX_DEPTH = 64 };

struct fj {
	json_t *root;
	json_t *stack[FJ_MAX_DEPTH]; /* open collections, borrowed from their parents */
	size_t depth;
	int docs, want_key;
	size_t values;
	struct strbuf key; /* a key whose text is not in the text read */
	const char *text;  /* the text read: a plain key points into it */
	size_t text_len;
	const char *k;     /* the key whose value comes next (k_len bytes) */
	size_t k_len;
};

/* v (a new reference) as the next item of the open collection, or the root. */
static int place(struct fj *f, json_t *v)
{
	if (!f->depth) {
		if (f->root || !json_is_object(v)) {
			json_decref(v);
			return 1;
		}
		f->root = v;
		return 0;
	}
	json_t *top = f->stack[f->depth - 1];
	if (json_is_array(top)) {
		json_array_append_new(top, v);
		return 0;
	}
	size_t had = json_object_size(top);
	json_object_setn_new_nocheck(top, f->k, f->k_len, v);
	f->want_key = 1;
	return json_object_size(top) == had; /* a duplicate key replaced a value */
}

/* A key of the open mapping: one doc_index_build's lint would pass. */
static int key(struct fj *f, const struct doc_event *e)
{
	if (e->style == YAML_PLAIN_SCALAR_STYLE && scalar_is_special(e->value, e->len))
		return 1; /* may read as null, a bool or a number, or be "<<" */
	/* An event's value lasts only for its call, but a plain key's is the
	 * text itself, which lasts the scan: only a decoded key is copied.  (A
	 * key in the text holds no NUL: doc_fast reads no text with one.) */
	uintptr_t at = (uintptr_t)e->value, text = (uintptr_t)f->text;
	if (at >= text && at - text <= f->text_len && e->len <= f->text_len - (at - text)) {
		f->k = e->value;
	} else {
		if (memchr(e->value, 0, e->len))
			return 1; /* the tree would cut the key at the NUL */
		strbuf_reset(&f->key);
		strbuf_add(&f->key, e->value, e->len);
		f->k = f->key.buf;
	}
	f->k_len = e->len;
	f->want_key = 0;
	return 0;
}

static int on_event(void *ctx, const struct doc_event *e)
{
	struct fj *f = ctx;
	int in_map = f->depth && json_is_object(f->stack[f->depth - 1]);
	if (++f->values > DOC_MAX_NODES / 4)
		return 1;
	switch (e->type) {
	case YAML_STREAM_START_EVENT:
	case YAML_STREAM_END_EVENT:
	case YAML_DOCUMENT_END_EVENT:
		return 0;
	case YAML_DOCUMENT_START_EVENT:
		return ++f->docs > 1;
	case YAML_SCALAR_EVENT:
		if (e->anchor || e->tag)
			return 1;
		if (in_map && f->want_key)
			return key(f, e);
		return place(f, scalar_to_json(e->value, e->len, e->style == YAML_PLAIN_SCALAR_STYLE));
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT: {
		if (e->anchor || e->tag || (in_map && f->want_key) || f->depth == FJ_MAX_DEPTH)
			return 1;
		json_t *c = e->type == YAML_MAPPING_START_EVENT ? json_object() : json_array();
		if (place(f, c))
			return 1;
		f->stack[f->depth++] = c; /* its parent (or root) holds it */
		f->want_key = 1;
		return 0;
	}
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (!f->depth || (in_map && !f->want_key))
			return 1;
		f->depth--;
		f->want_key = 1;
		return 0;
	default: /* an alias */
		return 1;
	}
}

json_t *doc_fast_json(const char *buf, size_t len)
{
	if (memchr(buf, '\t', len))
		return NULL;
	struct fj f;
	memset(&f, 0, sizeof(f));
	strbuf_init(&f.key);
	f.text = buf;
	f.text_len = len;
	int r = doc_fast_scan(buf, len, on_event, &f);
	strbuf_release(&f.key);
	if (r || f.depth || !f.root) {
		json_decref(f.root);
		return NULL;
	}
	return f.root;
}
