/* srt-tui: entry point; the commands and the overview come from the command
 * table (cmd.h). */
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/outsafe.h"

int main(int argc, char **argv)
{
	if (argc < 2) {
		cmd_overview(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		cmd_overview(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("srt-tui %s\n", SRT_TUI_VERSION);
		return 0;
	}
	/* the editor draws on stdout itself; everything else is text */
	outsafe_install(strcmp(argv[1], "edit") && strcmp(argv[1], "new"));
	const struct cmd_entry *c = cmd_find(argv[1]);
	if (c)
		return c->exec(c, argc - 1, argv + 1);
	fprintf(stderr, "srt-tui: '%s' is not a command; see 'srt-tui --help'\n", argv[1]);
	return 2;
}
