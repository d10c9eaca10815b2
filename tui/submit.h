/*
 * submit.h — running the submit command (`srtctl apply -f FILE` by default,
 * --submit-cmd or $SRT_TUI_SUBMIT) with its output captured through a pipe.
 *
 * The command is split into words like a shell would (quotes, backslashes;
 * no expansions); a word "{file}" becomes the recipe path, "{file}" inside a
 * longer word the path quoted for a shell (sh -c '... {file}'), and the path
 * is appended when no word mentions it.  Strings are malloc'd.
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
/* The command as a line to copy into a shell (every word quoted as needed). */
void submit_display(struct strbuf *out, const struct strvec *argv);

#define SUBMIT_CANCELLED (-2)
/* Run argv in a process group of its own with stdin from /dev/null, stdout
 * and stderr into out.  cancel (may be NULL) is asked every 100 ms and when
 * the terminal has input; when it says yes the group gets SIGTERM, then
 * SIGKILL after 2 s, and SUBMIT_CANCELLED is returned with *err.  Returns the
 * exit status (128+N for a signal), -1 with *err when it could not start. */
int submit_run(char *const *argv, struct strbuf *out, char **err, int (*cancel)(void *),
	       void *ctx);

#endif
