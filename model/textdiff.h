/*
 * textdiff.h — line-by-line comparison of texts: the unified diff the Diff
 * tab and `set --diff` print, and the three-way merge that lets a save keep
 * both the user's edits and a change another writer made on disk meanwhile.
 */
#ifndef SRT_TEXTDIFF_H
#define SRT_TEXTDIFF_H

#include <stddef.h>

struct strbuf;

/* Unified diff (3 lines of context) of two texts, with "--- a/NAME" and
 * "+++ b/NAME" headers; appends nothing when the texts are equal. */
void text_diff(struct strbuf *out, const char *name, const char *a, size_t alen,
	       const char *b, size_t blen);

/* Merge the changes base -> ours and base -> theirs into `out`.  Returns 0
 * when they touch different lines (or make the same change), and 1 when both
 * change the same lines differently or insert at the same place: then `out`
 * is left empty and *line (when not NULL) is the first such line in ours,
 * counted from 1.  Changes to neighbouring lines merge: in a recipe they are
 * two different keys, and their order is not in doubt. */
int text_merge3(struct strbuf *out, const char *base, size_t blen, const char *ours,
		size_t olen, const char *theirs, size_t tlen, size_t *line);

#endif
