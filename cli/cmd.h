/*
 * cmd.h — the subcommands of srt-tui, one struct cmd_entry each (like tmux's
 * cmd_entry): its name, usage line, what it does, its options and the
 * function that runs it.  The entry is the one copy of that text: main()'s
 * dispatch and overview, `srt-tui CMD --help`, the short usage printed on a
 * missing argument and the option parser all read it, and
 * tests/cli/man_table.sh checks docs/srt-tui.1 against the table.
 *
 * Messages about the command line have one form for every command:
 *   srt-tui: CMD: unknown option '--x'; see 'srt-tui CMD --help'
 *   srt-tui: CMD: --x needs a value; see 'srt-tui CMD --help'
 * and a missing argument prints the usage line ("usage: srt-tui CMD ...").
 */
#ifndef SRT_CMD_H
#define SRT_CMD_H

#include <stdio.h>

#include "lib/util.h"

/* One option.  id is the command's own number for it (>= 1), handed to
 * its callback; the table ends with a NULL name. */
struct cmd_opt {
	int id;
	char shortopt;    /* 'n' for -n; 0 when there is none */
	const char *name; /* "dry-run" for --dry-run */
	const char *arg;  /* the value's name in the help ("NAME"); NULL: a flag */
	const char *help; /* lines joined by '\n'; NULL: accepted, not listed */
};

/* The options of the commands that open the screens (new, edit), with the
 * ids each gives them. */
#define CMD_SCREEN_OPTS(theme_id, submit_id, mouse_id)                                    \
	{ theme_id, 0, "theme", "NAME",                                                    \
	  "default, light, high-contrast, mono, or a .theme file\n"                         \
	  "(also SRT_TUI_THEME; NO_COLOR selects mono)" },                                \
	{ submit_id, 0, "submit-cmd", "CMD",                                               \
	  "what F5 runs, {file} is the recipe (also SRT_TUI_SUBMIT;\n"                      \
	  "default: srtctl apply -f {file})" },                                           \
	{ mouse_id, 0, "no-mouse", NULL, "leave the mouse to the terminal (select and paste)" }

/* A line of `srt-tui --help`'s overview: the arguments after the name and
 * what the command does with them. */
struct cmd_brief {
	const char *args, *what;
};

enum cmd_group { CMD_INTERACTIVE, CMD_SCRIPTING };

struct cmd_entry {
	const char *name;
	/* The usage lines after "usage: srt-tui NAME " (the first is the short
	 * usage printed on a usage error); NULL-terminated. */
	const char *usage[4];
	enum cmd_group group;
	struct cmd_brief brief[4]; /* the overview lines; ends with a NULL args */
	const char *about;         /* --help: between the usage and the options */
	const struct cmd_opt *opts;
	const char *footer;        /* --help: after the options (exit status...) */
	int (*exec)(const struct cmd_entry *self, int argc, char **argv);
};

/* Every command, in the order the overview lists them; NULL-terminated. */
extern const struct cmd_entry *const cmd_table[];
const struct cmd_entry *cmd_find(const char *name);

extern const struct cmd_entry cmd_new_entry, cmd_edit_entry, cmd_validate_entry,
	cmd_render_entry, cmd_expand_entry, cmd_get_entry, cmd_set_entry, cmd_unset_entry;

/* `srt-tui --help`: the overview, from the table. */
void cmd_overview(FILE *out);
/* `srt-tui CMD --help`, from the entry. */
void cmd_help(const struct cmd_entry *c, FILE *out);
/* "usage: srt-tui CMD <first usage line>\n" on stderr; returns 2. */
int cmd_usage_short(const struct cmd_entry *c);
/* "srt-tui: CMD: MESSAGE; see 'srt-tui CMD --help'\n" on stderr; returns 2. */
int cmd_usage_error(const struct cmd_entry *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Parse argv[1..argc) against c->opts.  Options may come anywhere ("--"
 * ends them; "-" alone is an argument); a value is given as "--name=V",
 * "--name V" or "-x V".  -h/--help prints cmd_help on stdout.  Each option
 * goes to on_opt(ctx, id, value) (value NULL for a flag), which returns 0,
 * or an exit status after printing why.  Arguments are appended to args.
 * Returns 0 to go on; -1 after --help (exit 0); otherwise the exit status
 * (2 after a usage error, printed).
 */
int cmd_parse(const struct cmd_entry *c, int argc, char **argv,
	      int (*on_opt)(void *ctx, int id, const char *value), void *ctx, struct strvec *args);

#endif
