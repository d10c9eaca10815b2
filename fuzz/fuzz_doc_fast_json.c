/* libFuzzer: doc_fast_json and validate_text_clean against the full load on
 * any bytes.  Whenever doc_fast_json answers a text, doc_load must read it
 * without a diagnostic and doc_json give the same tree; whenever
 * validate_text_clean calls it clean, the full way (doc_load, the cluster's
 * aliases, validate_doc_variants_with) must have nothing to say
 * (tests/unit/test_doc_fast_json.c holds the same rules over fixed inputs). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz_common.h"
#include "model/cluster.h"
#include "model/diag.h"
#include "model/doc.h"
#include "model/validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *t = (const char *)data;
	json_t *fast = doc_fast_json(t, size);
	struct cluster cl = CLUSTER_INIT;
	int unchecked = 0, clean = validate_text_clean(t, size, &cl, &unchecked);
	FUZZ_CHECK(!clean || fast, "clean at a glance without a tree");
	if (!fast) {
		cluster_release(&cl);
		return 0;
	}
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load("fuzz.yaml", t, size, &dl);
	FUZZ_CHECK(d, "doc_fast_json answered a text doc_load refuses");
	FUZZ_CHECK(dl.n == 0, "doc_fast_json answered a text doc_load has a word about");
	json_t *full = doc_json(d);
	char *a = json_dumps(fast, JSON_COMPACT | JSON_ENCODE_ANY);
	char *b = json_dumps(full, JSON_COMPACT | JSON_ENCODE_ANY);
	FUZZ_CHECK(a && b && !strcmp(a, b), "doc_fast_json's tree differs from doc_json's");
	free(a);
	free(b);
	if (clean) {
		struct strvec labels = STRVEC_INIT;
		int usage = 0;
		char *err = NULL;
		cluster_alias_diags(&cl, full, &dl, &unchecked);
		if (validate_doc_variants_with(d, &cl, NULL, NULL, NULL, &dl, &labels, &usage, &err))
			free(err);
		FUZZ_CHECK(dl.n == 0, "clean at a glance, but the full way has something to say");
		strvec_release(&labels);
	}
	json_decref(full);
	json_decref(fast);
	doc_free(d);
	diag_list_release(&dl);
	cluster_release(&cl);
	return 0;
}
