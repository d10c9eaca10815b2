/*
 * validate.h — every rule a recipe must satisfy: srtctl's own (spec §1–§5,
 * §4.9, with its message text) and srt-tui's stricter ones (ports in
 * lmcache-server args, placement.per: worker, an lmcache connector with no
 * server on its nodes, ...).  Each diagnostic carries a hint.
 */
#ifndef SRT_VALIDATE_H
#define SRT_VALIDATE_H

#include <jansson.h>

#include "model/diag.h"
#include "model/doc.h"
#include "model/recipe.h"

/* Rules over a typed recipe; diagnostics carry paths but no positions. */
void validate_recipe(const struct recipe *r, struct diag_list *out);

/* Schema check of a tree: unknown keys (with "did you mean"), types, enums,
 * required fields.  Paths only. */
void validate_schema(json_t *root, struct diag_list *out);

/* Everything for one loaded document: schema + rules, positions filled in from
 * the document, sorted.  Load-time diagnostics are the caller's (doc_load). */
void validate_doc(const struct doc *d, struct diag_list *out);

#endif
