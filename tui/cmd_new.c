/* Placeholder until this command lands; replaced by its module. */
#include <stdio.h>
#include "tui/cmd.h"

int cmd_new(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "srt-tui: %s: not built yet\n", argv[0]);
	return 2;
}

