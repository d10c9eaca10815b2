/* srt-tui: entry point; the commands and the overview come from the command
 * table (cmd.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/outsafe.h"
#include "lib/jalloc.h"
#include "model/srtctl_schema.h"

static void schema_error(const char *msg)
{
	fprintf(stderr, "srt-tui: srtctl schema: %s\n", msg);
}

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
	/* the cluster file (model/cluster) is looked up from the same directory */
	if (dir)
		setenv("SRT_TUI_SRTCTL_DIR", dir, 1);
	char *err = NULL;
	srtctl_schema_on_error(schema_error);
	if (srtctl_schema_discover(dir, &err) < 0) {
		schema_error(err);
		free(err);
		if (dir)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	jalloc_install();
	if (load_srtctl_schema(&argc, argv))
		return 2;
	if (argc < 2) {
		cmd_overview(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		cmd_overview(stdout);
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
	const struct cmd_entry *c = cmd_find(argv[1]);
	if (c)
		return c->exec(c, argc - 1, argv + 1);
	fprintf(stderr, "srt-tui: '%s' is not a command; see 'srt-tui --help'\n", argv[1]);
	return 2;
}
