/*
 * screen_variants.h — the Variants screen of `srt-tui edit`: the jobs an
 * override file or a sweep expands to (pick one: the previews and the
 * validation panel follow it), the chosen variant's values (an edit asks
 * whether it goes to base or to the variant's section), the sweep block
 * editor, and turning a single recipe into an override file or a sweep.
 * The two conversions are buttons for the wizard's Review step too.
 */
#ifndef SRT_TUI_SCREEN_VARIANTS_H
#define SRT_TUI_SCREEN_VARIANTS_H

#include <stddef.h>

#include "tui/app.h"
#include "tui/form.h"

extern const struct app_screen variants_screen;

/* Button actions: ask for a section name and move the recipe under base: /
 * ask for a field, a parameter name and values and add a sweep over it. */
int variants_make_override(struct app *a, struct form_field *ff);
int variants_add_sweep(struct app *a, struct form_field *ff);

/* The text of an override file made from a plain recipe: every line under
 * `base:` (indented by two spaces, a top-level `schema:` line kept at the
 * top), then `override_<name>: {}`.  malloc'd; *len gets its length. */
char *variants_override_text(const char *text, size_t len, const char *name, size_t *out_len);

#endif
