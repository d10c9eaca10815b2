/*
 * submit.h — running the submit command (`srtctl apply -f FILE` by default,
 * --submit-cmd or $SRT_TUI_SUBMIT) with its output captured through a pipe.
 *
 * The command is split into words like a shell would (quotes, backslashes;
 * no expansions); "{file}" in a word is replaced by the recipe path, and the
 * path is appended when no word mentions it.  Strings are malloc'd.
 */
#ifndef SRT_TUI_SUBMIT_H
#define SRT_TUI_SUBMIT_H

#include "lib/util.h"

#define SUBMIT_DEFAULT "srtctl apply -f {file}"

/* Split and substitute; -1 with *err on unbalanced quotes or an empty command. */
int submit_argv(const char *cmd, const char *file, struct strvec *argv, char **err);
/* Non-zero when argv[0] can be run (contains '/' and is executable, or is found
 * on $PATH). */
int submit_found(const char *prog);
/* Run argv with stdin from /dev/null, stdout and stderr into out.  Returns the
 * exit status (128+N for a signal), -1 with *err when it could not start. */
int submit_run(char *const *argv, struct strbuf *out, char **err);

#endif
