/*
 * migrate.h — the editor on a pre-2.0 recipe (no `schema:`): say what it is
 * and, when srtctl is on PATH, offer `srtctl migrate -f FILE` (srtctl is the
 * authority on the v1 -> v2 mapping).  The migrated text replaces the
 * document as one edit (u undoes it; the Diff tab shows it; only a save
 * writes it, keeping FILE.bak) and srtctl's notes become warnings.
 */
#ifndef SRT_TUI_MIGRATE_H
#define SRT_TUI_MIGRATE_H

#include "lib/util.h"

struct app;

/* At start-up: nothing unless the document is a pre-2.0 recipe. */
void app_offer_migrate(struct app *a);

/* Run argv (no shell, stdin /dev/null) collecting stdout and stderr apart.
 * Returns the exit status (128+N for a signal), -1 with *err when it could
 * not start. */
int migrate_run(char *const *argv, struct strbuf *out, struct strbuf *errout, char **err);

#endif
