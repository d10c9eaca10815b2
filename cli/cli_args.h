/*
 * cli_args.h — the command-line pieces validate, render and expand share,
 * with srtctl's rules and messages (spec §9.1, §9.6, §9.9): FILE[:SELECTOR]
 * split at the last ':', repeated --set KEY=VALUE / --unset KEY applied to
 * the file's raw tree before anything reads it, and the warning for a
 * selector given to a file that is not an override file.
 *
 * Messages go to stderr in one form for all three commands:
 * "srt-tui: <cmd>: <message>" for the command line itself and
 * "srt-tui: FILE: <message>" for what applying it to FILE found.
 * A struct cli_flags owns its strings (cli_flags_release); split strings are
 * malloc'd for the caller.
 */
#ifndef SRT_CLI_ARGS_H
#define SRT_CLI_ARGS_H

#include <jansson.h>

#include "lib/util.h"

struct cli_flags {
	struct strvec sets;   /* "KEY=VALUE", in command-line order */
	struct strvec unsets; /* "KEY" */
};
#define CLI_FLAGS_INIT { STRVEC_INIT, STRVEC_INIT }
void cli_flags_release(struct cli_flags *f);
int cli_flags_any(const struct cli_flags *f);

/* --set and --unset as options of a command (cmd.h): put CLI_FLAG_OPTS in
 * its option table and hand CLI_OPT_SET / CLI_OPT_UNSET to cli_flags_add. */
enum { CLI_OPT_SET = 100, CLI_OPT_UNSET };
#define CLI_FLAG_OPTS                                                                      \
	{ CLI_OPT_SET, 0, "set", "KEY=VALUE",                                              \
	  "change the raw file first, as srtctl's --set: the value is\n"                   \
	  "typed as YAML; in an override file it goes to base and to\n"                    \
	  "every section (a zip section gets [VALUE]); repeatable" },                     \
	{ CLI_OPT_UNSET, 0, "unset", "KEY", "remove KEY first (after every --set); repeatable" }
void cli_flags_add(struct cli_flags *f, int id, const char *value);

/* The lines of --help that describe FILE[:SELECTOR]. */
#define CLI_SELECTOR_HELP                                                                  \
	"SELECTOR picks variants of an override file as srtctl's -f FILE:SELECTOR does:\n"  \
	"base, override_NAME, zip_override_GROUP, zip_override_GROUP[N], or a glob such\n"  \
	"as '*tp*' (quote it).  Without one, every override_* and zip_override_* variant\n" \
	"is taken, base excluded (as srtctl submits them).  Given for a file that is not\n" \
	"an override file, it is ignored with a warning.\n"

/* Split FILE[:SELECTOR] (override_parse_arg); 0, or 2 after printing
 * srtctl's message ("Invalid selector '...'. Must be ..."). */
int cli_split_target(const char *cmd, const char *arg, char **file, char **selector);

/* Apply the flags to root (setflags_apply: base and every section of an
 * override file).  0, or the exit status after printing srtctl's message:
 * 2 for a usage error (bad path, --set without '='), 1 when the file's
 * shape refuses it (an index out of range...). */
int cli_apply_flags(const char *file, json_t *root, const struct cli_flags *f);

/* srtctl's warning when a selector is given for a file that is not an
 * override file: "Selector ':<sel>' ignored — config is not an override file".
 * Does nothing when selector is NULL. */
void cli_selector_ignored(const char *file, const char *selector);

#endif
