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

/* srtctl apply's own options (tui/submit_opts.c): the override variant
 * (FILE:SELECTOR), --serve-only, --tags; only for `srtctl apply` itself. */
struct app;
struct submit_extra {
	int apply;      /* the command is srtctl apply: the options apply */
	int override;   /* the file is an override file: a variant can be picked */
	char *sel;      /* selector appended to FILE, NULL for every variant */
	int serve_only;
	char *tags;     /* --tags value, NULL for none */
};
void submit_extra_init(struct app *a, const struct strvec *argv, struct submit_extra *x);
void submit_extra_release(struct submit_extra *x);
/* The options as a list to change (Esc or Done returns). */
void submit_extra_edit(struct app *a, struct submit_extra *x);
/* Amend argv (from submit_argv) with the options. */
void submit_extra_apply(struct app *a, const struct submit_extra *x, struct strvec *argv);

#endif
