/*
 * libFuzzer: a random sequence of get / set / set_block / delete / insert /
 * rename / move / undo / redo on a loaded document.
 *
 * Input: YAML bytes, then optionally a 0xFF byte (never valid in UTF-8, so
 * never part of a real recipe) followed by operation bytes.  Without 0xFF the
 * operations come from a small PRNG seeded by the input, so plain recipes
 * work as seeds.  Invariants, checked after every operation:
 *   - a refused edit leaves the bytes exactly as they were;
 *   - an accepted edit leaves a text that loads again, and whose typed value
 *     (when it has one) is the one the document reports;
 *   - undo and redo only ever bring back a text the document has had.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz_common.h"
#include "model/diag.h"
#include "model/doc.h"
#include "model/path.h"
#include "lib/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct ops {
	const uint8_t *p;
	size_t n, i;
	uint32_t rng;
};

static unsigned next(struct ops *o)
{
	if (o->p)
		return o->i < o->n ? o->p[o->i++] : 0;
	o->rng = o->rng * 1103515245u + 12345u;
	return (o->rng >> 16) & 0xff;
}

static int more(const struct ops *o, int step)
{
	return o->p ? o->i < o->n : step < 24;
}

static const char *const values[] = {
	"0", "720", "-1", "1.5", "1e3", "true", "false", "null", "\"yes\"", "\"on\"", "\"08\"",
	"\"12:30\"", "\"a: b\"", "\"#x\"", "\"-x\"", "\"\"", "\"line\\nbreak\"", "\"it's\"",
	"\"tab\\there\"", "\"ünï ☃\"", "[]", "{}", "[1, 2]", "[\"a\", {\"k\": \"v\"}]",
	"{\"k\": 1, \"l\": [true]}", "{\"nested\": {\"deep\": [[], {}]}}", "\"*alias\"",
	"\"&anchor\"", "\"[not a list]\"", "\"{x}\"", "\"  spaced  \"", "\"~\"", "\"<<\"",
};
static const char *const keys[] = {
	"name", "args", "new_key", "a.b", "on", "yes", "<<", "x y", "-", "ключ", "[0]", "",
	"port", "services", "0",
};

/* A path to an existing node chosen by the op bytes, sometimes extended by a
 * key that may not exist yet. */
static void pick_path(const struct doc *d, struct ops *o, struct path *p)
{
	path_clear(p);
	const struct doc_node *n = doc_root(d);
	unsigned depth = next(o) % 6;
	for (unsigned i = 0; i < depth && n; i++) {
		enum doc_kind k = doc_node_kind(n);
		size_t c = doc_node_count(n);
		if ((k != DOC_MAP && k != DOC_SEQ) || !c)
			break;
		size_t idx = next(o) % c;
		if (k == DOC_SEQ) {
			const struct doc_node *item = doc_node_child(n, idx);
			/* sometimes select by name, as [name] does */
			if (item && doc_node_kind(item) == DOC_MAP && (next(o) & 1)) {
				for (size_t j = 0; j < doc_node_count(item); j++) {
					const struct doc_node *kn = doc_node_key(item, j);
					const struct doc_node *vn = doc_node_child(item, j);
					if (kn && vn && doc_node_kind(kn) == DOC_SCALAR &&
					    !strcmp(doc_node_text(kn), "name") && doc_node_kind(vn) == DOC_SCALAR) {
						path_push_name(p, doc_node_text(vn));
						goto picked;
					}
				}
			}
			path_push_index(p, idx);
		} else {
			const struct doc_node *kn = doc_node_key(n, idx);
			if (!kn || doc_node_kind(kn) != DOC_SCALAR)
				break;
			path_push_key(p, doc_node_text(kn));
		}
picked:
		n = doc_lookup(d, p);
	}
	unsigned extra = next(o) % 8;
	if (extra == 0)
		path_push_key(p, keys[next(o) % (sizeof(keys) / sizeof(keys[0]))]);
	else if (extra == 1)
		path_push_index(p, next(o) % 4);
}

static json_t *pick_value(struct ops *o)
{
	json_error_t je;
	const char *v = values[next(o) % (sizeof(values) / sizeof(values[0]))];
	json_t *j = json_loads(v, JSON_DECODE_ANY, &je);
	FUZZ_CHECK(j, "bad value table");
	return j;
}

struct history {
	char **v;
	size_t n, alloc;
};

static void remember(struct history *h, const char *text, size_t len)
{
	for (size_t i = 0; i < h->n; i++)
		if (strlen(h->v[i]) == len && !memcmp(h->v[i], text, len))
			return;
	ALLOC_GROW(h->v, h->n + 1, h->alloc);
	h->v[h->n++] = xstrndup(text, len);
}

static int seen(const struct history *h, const char *text, size_t len)
{
	for (size_t i = 0; i < h->n; i++)
		if (strlen(h->v[i]) == len && !memcmp(h->v[i], text, len))
			return 1;
	return 0;
}

/* The text after an accepted edit must load again, to the same typed tree. */
static void check_reloads(const struct doc *d)
{
	size_t len;
	const char *text = doc_text(d, &len);
	struct diag_list diags = DIAG_LIST_INIT;
	struct doc *again = doc_load("again.yaml", text, len, &diags);
	FUZZ_CHECK(again, "an accepted edit left a text that does not load");
	json_t *a = doc_json(d), *b = doc_json(again);
	if (a && b)
		FUZZ_CHECK(json_equal(a, b), "the reloaded text means something else");
	json_decref(a);
	json_decref(b);
	doc_free(again);
	diag_list_release(&diags);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *sep = memchr(data, 0xff, size);
	size_t ylen = sep ? (size_t)(sep - data) : size;
	struct ops o = { NULL, 0, 0, 0 };
	if (sep) {
		o.p = sep + 1;
		o.n = size - ylen - 1;
	} else {
		for (size_t i = 0; i < size; i++)
			o.rng = o.rng * 31 + data[i];
	}
	struct diag_list diags = DIAG_LIST_INIT;
	struct doc *d = doc_load("fuzz.yaml", (const char *)data, ylen, &diags);
	diag_list_release(&diags);
	if (!d)
		return 0;

	struct history h = { NULL, 0, 0 };
	struct path p = PATH_INIT;
	struct strbuf sb = STRBUF_INIT;
	size_t len;
	const char *text = doc_text(d, &len);
	remember(&h, text, len);
	for (int step = 0; more(&o, step) && step < 64; step++) {
		text = doc_text(d, &len);
		char *before = xstrndup(text, len);
		size_t before_len = len;
		unsigned op = next(&o) % 10;
		char *err = NULL, *warn = NULL;
		int rc = 0, is_edit = 1;
		json_t *v = NULL;
		pick_path(d, &o, &p);
		switch (op) {
		case 0:
		case 1:
			v = pick_value(&o);
			rc = doc_set(d, &p, v, &err, &warn);
			break;
		case 2:
			v = pick_value(&o);
			rc = doc_set_block(d, &p, v, &err, &warn);
			break;
		case 3:
			rc = doc_delete(d, &p, &err, &warn);
			break;
		case 4: {
			v = pick_value(&o);
			const struct doc_node *n = doc_lookup(d, &p);
			size_t c = n && doc_node_kind(n) == DOC_SEQ ? doc_node_count(n) : 0;
			rc = doc_insert(d, &p, next(&o) % (c + 2), v, &err, &warn);
			break;
		}
		case 5:
			rc = doc_rename_key(d, &p, keys[next(&o) % (sizeof(keys) / sizeof(keys[0]))], &err);
			break;
		case 6:
			rc = doc_move_item(d, &p, next(&o) % 4, &err);
			break;
		case 7:
			is_edit = 0;
			if (doc_undo(d) == 0) {
				text = doc_text(d, &len);
				FUZZ_CHECK(seen(&h, text, len), "undo produced a text never seen");
				check_reloads(d);
			}
			break;
		case 8:
			is_edit = 0;
			if (doc_redo(d) == 0) {
				text = doc_text(d, &len);
				FUZZ_CHECK(seen(&h, text, len), "redo produced a text never seen");
				check_reloads(d);
			}
			break;
		default:
			is_edit = 0;
			if (doc_get(d, &p, next(&o) & 1, &sb, &err) < 0)
				FUZZ_CHECK(err, "a failed get without a message");
			strbuf_reset(&sb);
			text = doc_text(d, &len);
			FUZZ_CHECK(len == before_len && !memcmp(text, before, len), "get changed the text");
			break;
		}
		if (is_edit) {
			text = doc_text(d, &len);
			if (rc < 0) {
				FUZZ_CHECK(err && *err, "an edit refused without a message");
				FUZZ_CHECK(len == before_len && !memcmp(text, before, len),
					   "a refused edit changed the text");
			} else {
				check_reloads(d);
				remember(&h, text, len);
			}
		}
		free(err);
		free(warn);
		json_decref(v);
		free(before);
	}
	for (size_t i = 0; i < h.n; i++)
		free(h.v[i]);
	free(h.v);
	strbuf_release(&sb);
	path_release(&p);
	doc_free(d);
	return 0;
}
