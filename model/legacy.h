/*
 * legacy.h — recipes in the pre-2.0 ("v1") layout.  srtctl refuses a recipe
 * without `schema:` (its require_current_schema) and `srtctl migrate -f FILE`
 * rewrites one; srt-tui reports such a file as one problem instead of one
 * per key, and offers srtctl's migration in the editor.
 */
#ifndef SRT_LEGACY_H
#define SRT_LEGACY_H

#include <jansson.h>

#include "model/diag.h"

/* A plain recipe mapping without a `schema` key. */
int legacy_recipe(json_t *root);
/* Replace l's entries with the one pre-2.0 error (srtctl's wording, at 1:1). */
void legacy_diag(struct diag_list *l);

#endif
