/* libFuzzer: model/doc_fast.c against libyaml on any bytes.  Whenever the
 * fast reader takes a text, libyaml must read it too and give the same
 * events, marks and values (tests/unit/test_doc_fast.c holds the same rule
 * over fixed inputs). */
#include <stddef.h>
#include <stdint.h>

#include "fuzz/fuzz_common.h"
#include "model/doc_fast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct doc_events fast, ly;
	if (doc_fast_events((const char *)data, size, &fast) < 0) {
		FUZZ_CHECK(fast.n == 0 && !fast.v, "gave up with events left");
		return 0;
	}
	int lr = doc_libyaml_events((const char *)data, size, &ly);
	FUZZ_CHECK(lr == 0, "doc_fast read a text libyaml refuses");
	FUZZ_CHECK(doc_events_differ(&fast, &ly) < 0, "doc_fast's events differ from libyaml's");
	doc_events_release(&fast);
	doc_events_release(&ly);
	return 0;
}
