/*
 * outsafe.h — text printed to a terminal shows control characters escaped.
 *
 * A recipe is text from anyone: a YAML escape like "\e]2;X\a" in a name would
 * otherwise reach the terminal as a command (set the title, move the cursor,
 * redefine keys on some terminals) when `validate`, `render` or `get` print
 * it.  When stdout or stderr is a terminal, outsafe_install() routes it through
 * a filter that prints C0 controls other than tab and newline, DEL, and the
 * C1 controls U+0080..U+009F as "\u00XX".  Inside a JSON string that is the
 * same character, so JSON output stays exact JSON; output to a pipe or a file
 * is data and is left byte for byte.
 */
#ifndef SRT_CLI_OUTSAFE_H
#define SRT_CLI_OUTSAFE_H

#include <stdio.h>

/* Filter stderr, and stdout unless the caller draws on it (the editor). */
void outsafe_install(int with_stdout);

/* The filter on its own, for tests: FILE that escapes into fd. */
FILE *outsafe_open(int fd);

#endif
