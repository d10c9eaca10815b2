/*
 * wizard_screens.h — what the wizard's files share: the step screens defined
 * outside wizard.c and small helpers for buttons and errors.  Internal to
 * tui/wizard*.c and tui/widget_{connector,services}.c.
 */
#ifndef SRT_TUI_WIZARD_SCREENS_H
#define SRT_TUI_WIZARD_SCREENS_H

#include "tui/app.h"
#include "tui/form.h"

extern const struct app_screen wiz_topology_screen;
extern const struct app_screen wiz_connectors_screen;
extern const struct app_screen wiz_services_screen;

/* Show err on the status line when r != 0; frees err. */
void wiz_report(struct app *a, int r, char *err);
/* A "Next step >" button at the end of a step. */
void wiz_add_next(struct form *f);
int wiz_next(struct app *a, struct form_field *ff);
/* After every edit (app_opts.after_edit, joined to it for undo) and before
 * writing: drop the template's comments that no longer hold
 * (wiz_fix_template_comments), as one edit. */
void wiz_keep_comments_true(struct app *a);
/* The effective engine type, NULL when unknown. */
const char *wiz_engine_type(struct app *a);
/* `engine: vllm` -> a mapping, so engine-wide knobs can be set. */
int wiz_engine_mapping(struct doc *d, char **err);

#endif
