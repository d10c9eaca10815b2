/*
 * shell.h — shell quoting exactly like Python's shlex.quote / shlex.join, so
 * previews match what srtctl prints and logs.
 */
#ifndef SRT_SHELL_H
#define SRT_SHELL_H

#include <stddef.h>

#include "lib/util.h"

void shell_quote(struct strbuf *out, const char *s);
void shell_join(struct strbuf *out, char *const *argv, size_t n);

#endif
