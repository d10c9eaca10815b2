/* libFuzzer: doc_fast_json and validate_text_glance against the full load
 * on any bytes.  Whenever doc_fast_json answers a text, doc_load must read it
 * without a diagnostic and doc_json give the same tree; whenever
 * validate_text_glance judges it, its findings must be the full way's (the
 * cluster's aliases, validate_doc_variants_with), and none when it calls
 * the text clean (tests/unit/test_doc_fast_json.c holds the same rules over
 * fixed inputs). */
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
	struct text_glance g = TEXT_GLANCE_INIT;
	int unchecked = 0, clean = validate_text_glance(t, size, &cl, &unchecked, &g);
	FUZZ_CHECK(!g.tree || fast, "judged at a glance without a tree");
	FUZZ_CHECK(!clean || g.tree, "clean at a glance without a judgement");
	if (!fast) {
		text_glance_release(&g);
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
	if (g.tree) {
		struct diag_list alias = DIAG_LIST_INIT, own = DIAG_LIST_INIT;
		struct strvec labels = STRVEC_INIT;
		int usage = 0;
		char *err = NULL;
		cluster_alias_diags(&cl, full, &alias, &unchecked);
		if (validate_doc_variants_with(d, &cl, NULL, NULL, NULL, &own, &labels, &usage, &err))
			free(err);
		FUZZ_CHECK(alias.n == g.alias.n, "the glance's alias findings differ from the full way's");
		struct diag_list given = DIAG_LIST_INIT;
		validate_doc_variants_given(d, &cl, &g, &given, &labels);
		struct strbuf a1 = STRBUF_INIT, a2 = STRBUF_INIT;
		for (size_t i = 0; i < own.n; i++)
			diag_format(&a1, "fuzz.yaml", &own.v[i]);
		for (size_t i = 0; i < given.n; i++)
			diag_format(&a2, "fuzz.yaml", &given.v[i]);
		FUZZ_CHECK(a1.len == a2.len && (!a1.len || !memcmp(a1.buf, a2.buf, a1.len)),
			   "the glance's findings, placed, differ from the full way's");
		FUZZ_CHECK(!clean || (!own.n && !alias.n), "clean at a glance, but the full way has something to say");
		strbuf_release(&a1);
		strbuf_release(&a2);
		diag_list_release(&alias);
		diag_list_release(&own);
		diag_list_release(&given);
		strvec_release(&labels);
	}
	text_glance_release(&g);
	json_decref(full);
	json_decref(fast);
	doc_free(d);
	diag_list_release(&dl);
	cluster_release(&cl);
	return 0;
}
