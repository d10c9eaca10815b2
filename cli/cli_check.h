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

/* The problems of d as `srt-tui validate FILE` finds them: what reading the
 * text found plus every rule, job by job for override and sweep files.
 * Appended to out. */
void cli_problems(const struct doc *d, struct diag_list *out);

/* Print on stderr, as validate prints them ("FILE:LINE:COL: error: MESSAGE
 * [code]" and a hint line), the problems of after that the text before (the
 * file as read) did not have; a problem counts as the same when its
 * severity, code, path and message are.  Returns how many were printed. */
size_t cli_report_introduced(const char *file, const char *before, size_t before_len,
			     const struct doc *after);

#endif
