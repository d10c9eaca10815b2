/* srt-tui: entry point and subcommand dispatch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/outsafe.h"
#include "model/srtctl_schema.h"

static const char usage[] =
	"usage: srt-tui <command> [<args>]\n"
	"\n"
	"Configure srt-slurm recipes (srtctl, schema 2) in the terminal.\n"
	"\n"
	"Interactive:\n"
	"  new [FILE]                 wizard: write a new recipe\n"
	"  new --template NAME -o FILE  write a template without the wizard\n"
	"  new --list-templates       list the templates\n"
	"  edit FILE                  edit a recipe (comments and layout kept)\n"
	"\n"
	"Scripting:\n"
	"  validate FILE[:SEL]...     check recipes; exit 1 on errors\n"
	"  render FILE[:SEL]          preview what srtctl will run\n"
	"  expand FILE                list the jobs of an override or sweep file\n"
	"  get FILE PATH [--json]     print a value\n"
	"  set FILE PATH=VALUE...     change values in place [--dry-run]\n"
	"  unset FILE PATH...         remove keys or list items\n"
	"\n"
	"Options:\n"
	"  -h, --help                 show this help\n"
	"  --version                  print the version and the srtctl schema in use\n"
	"  --srtctl-dir DIR           read srtctl's schema from an srt-slurm checkout\n"
	"                             (default: `srtctl schema` when srtctl is on PATH)\n"
	"\n"
	"Run 'srt-tui <command> --help' for the options of a command; see srt-tui(1).\n";

static const struct {
	const char *name;
	int (*fn)(int, char **);
} commands[] = {
	{ "new", cmd_new },         { "edit", cmd_edit },   { "validate", cmd_validate },
	{ "render", cmd_render },   { "expand", cmd_expand }, { "get", cmd_get },
	{ "set", cmd_set },         { "unset", cmd_unset },
};

/* srtctl's own schema, found once before any command runs (srtctl_schema.h).
 * A schema that cannot be read is reported and the built-in table used. */
static int load_srtctl_schema(int *argc, char **argv)
{
	const char *dir = NULL;
	int j = 1, i = 1;
	/* --srtctl-dir may come before or after the command; it is taken out so
	 * the command never sees it.  "--" ends the search (a file named so). */
	for (; i < *argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--srtctl-dir")) {
			if (i + 1 >= *argc) {
				fputs("srt-tui: --srtctl-dir needs a directory (an srt-slurm checkout)\n", stderr);
				return -1;
			}
			dir = argv[++i];
		} else if (!strncmp(argv[i], "--srtctl-dir=", 13)) {
			dir = argv[i] + 13;
		} else {
			argv[j++] = argv[i];
		}
	}
	while (i < *argc)
		argv[j++] = argv[i++];
	*argc = j;
	argv[j] = NULL;
	char *err = NULL;
	if (srtctl_schema_discover(dir, &err) < 0) {
		fprintf(stderr, "srt-tui: srtctl schema: %s\n", err);
		free(err);
		if (dir)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (load_srtctl_schema(&argc, argv))
		return 2;
	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		fputs(usage, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		const char *src = srtctl_schema_source();
		printf("srt-tui %s\n", SRT_TUI_VERSION);
		printf("srtctl schema: %s\n", src ? src : "none found (built-in field table only)");
		return 0;
	}
	/* the editor draws on stdout itself; everything else is text */
	outsafe_install(strcmp(argv[1], "edit") && strcmp(argv[1], "new"));
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "srt-tui: '%s' is not a command; see 'srt-tui --help'\n", argv[1]);
	return 2;
}
