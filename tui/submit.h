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
