/*
 * cli_check.h — what `set` and `unset` say about the recipe they wrote: the
 * problems their edit introduced, in `srt-tui validate`'s text format, so a
 * value srtctl's --set typing keeps as a string (workers=[unclosed) does not
 * pass in silence.
 */
#ifndef SRT_CLI_CHECK_H
#define SRT_CLI_CHECK_H

#include <stddef.h>

#include "model/diag.h"

struct doc;

/* The problems validate finds by its rules in d (every job of an override
 * or sweep file), appended to out.  What reading the text found (tabs,
 * duplicate keys) is left out: an edit through the document never adds it,
 * and the loader printed it already. */
void cli_problems(const struct doc *d, struct diag_list *out);

/* Print on stderr, as validate prints them ("FILE:LINE:COL: error: MESSAGE
 * [code]" and a hint line), the problems of after that before (cli_problems
 * of the document as loaded) did not have; a problem counts as the same when
 * its severity, code, path and message are.  Returns how many there were. */
size_t cli_report_introduced(const char *file, const struct diag_list *before,
			     const struct doc *after);

#endif
