/* libFuzzer: validate any document that loads (schema + every rule). */
#include <stddef.h>
#include <stdint.h>

#include "fuzz/fuzz_common.h"
#include "model/diag.h"
#include "model/doc.h"
#include "model/validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag_list diags = DIAG_LIST_INIT;
	struct doc *d = doc_load("fuzz.yaml", (const char *)data, size, &diags);
	if (d) {
		validate_doc(d, &diags);
		for (size_t i = 0; i < diags.n; i++) {
			FUZZ_CHECK(diags.v[i].message && *diags.v[i].message, "a diagnostic without text");
			FUZZ_CHECK(diags.v[i].path, "a diagnostic without a path");
		}
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < diags.n; i++)
			diag_format(&sb, "fuzz.yaml", &diags.v[i]);
		strbuf_release(&sb);
		doc_free(d);
	}
	diag_list_release(&diags);
	return 0;
}
