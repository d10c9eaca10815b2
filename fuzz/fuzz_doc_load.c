/* libFuzzer: load and index any bytes as a recipe document, then read it
 * every way the commands do (tree walk, typed JSON, get as YAML and JSON). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz_common.h"
#include "model/diag.h"
#include "model/doc.h"
#include "model/path.h"
#include "lib/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag_list diags = DIAG_LIST_INIT;
	struct doc *d = doc_load("fuzz.yaml", (const char *)data, size, &diags);
	if (!d) {
		FUZZ_CHECK(diag_count(&diags, DIAG_ERROR) > 0, "refused load without an error");
		diag_list_release(&diags);
		return 0;
	}
	size_t len;
	const char *text = doc_text(d, &len);
	FUZZ_CHECK(len == size && !memcmp(text, data, size), "load changed the bytes");
	FUZZ_CHECK(!doc_dirty(d), "a fresh document is dirty");
	doc_locate_diags(d, &diags);
	fuzz_walk(doc_root(d), 0);
	json_decref(doc_json(d));

	/* get of the root and of each top-level key, in both output forms */
	const struct doc_node *root = doc_root(d);
	struct path p = PATH_INIT;
	struct strbuf sb = STRBUF_INIT;
	char *err = NULL;
	for (int json = 0; json < 2; json++) {
		if (doc_get(d, &p, json, &sb, &err) < 0)
			free(err), err = NULL;
		strbuf_reset(&sb);
	}
	if (root && doc_node_kind(root) == DOC_MAP) {
		size_t n = doc_node_count(root);
		for (size_t i = 0; i < n && i < 64; i++) {
			const struct doc_node *k = doc_node_key(root, i);
			if (!k || doc_node_kind(k) != DOC_SCALAR)
				continue;
			path_clear(&p);
			path_push_key(&p, doc_node_text(k));
			int line, col;
			FUZZ_CHECK(doc_locate(d, &p, &line, &col) >= 0, "an existing key cannot be located");
			for (int json = 0; json < 2; json++) {
				if (doc_get(d, &p, json, &sb, &err) < 0)
					free(err), err = NULL;
				strbuf_reset(&sb);
			}
			/* a misspelt key: the "did you mean" of get and unset */
			path_clear(&p);
			char *typo = xasprintf("%sx", doc_node_text(k));
			path_push_key(&p, typo);
			if (doc_get(d, &p, 0, &sb, &err) < 0) {
				FUZZ_CHECK(err && *err, "a failed get without a message");
				free(err), err = NULL;
				free(doc_suggest_path(d, &p));
			}
			strbuf_reset(&sb);
			free(typo);
		}
	}
	strbuf_release(&sb);
	path_release(&p);
	doc_free(d);
	diag_list_release(&diags);
	return 0;
}
