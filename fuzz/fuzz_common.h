/*
 * fuzz_common.h — shared by the libFuzzer harnesses: walk a loaded document
 * and stop the fuzzer loudly when an invariant breaks.  Header-only so each
 * harness stays one file.
 */
#ifndef SRT_FUZZ_COMMON_H
#define SRT_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>

#include "model/doc.h"

#define FUZZ_CHECK(cond, what)                                                  \
	do {                                                                        \
		if (!(cond)) {                                                          \
			fprintf(stderr, "fuzz invariant broken: %s (%s:%d)\n", what,       \
				__FILE__, __LINE__);                                            \
			abort();                                                            \
		}                                                                       \
	} while (0)

/* Touch every accessor on every node, depth-first, bounded so that a
 * 10,000-deep document does not cost a deep C stack here. */
static inline void fuzz_walk(const struct doc_node *n, int depth)
{
	if (!n || depth > 200)
		return;
	(void)doc_node_style(n);
	(void)doc_node_flow(n);
	(void)doc_node_anchor(n);
	FUZZ_CHECK(doc_node_line(n) >= 0 && doc_node_col(n) >= 0, "negative position");
	FUZZ_CHECK(doc_node_start(n) <= doc_node_end(n), "node ends before it starts");
	enum doc_kind k = doc_node_kind(n);
	if (k == DOC_SCALAR || k == DOC_ALIAS) {
		FUZZ_CHECK(doc_node_text(n) != NULL, "scalar without text");
		return;
	}
	size_t c = doc_node_count(n);
	for (size_t i = 0; i < c; i++) {
		if (k == DOC_MAP)
			fuzz_walk(doc_node_key(n, i), depth + 1);
		fuzz_walk(doc_node_child(n, i), depth + 1);
	}
}

#endif
