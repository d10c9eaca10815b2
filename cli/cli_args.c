/* cli_args.c — FILE[:SELECTOR], --set and --unset for validate, render and
 * expand (cli_args.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/override.h"
#include "cli/cli_args.h"

void cli_flags_release(struct cli_flags *f)
{
	strvec_release(&f->sets);
	strvec_release(&f->unsets);
}

int cli_flags_any(const struct cli_flags *f)
{
	return f->sets.n || f->unsets.n;
}

void cli_flags_add(struct cli_flags *f, int id, const char *value)
{
	strvec_push(id == CLI_OPT_SET ? &f->sets : &f->unsets, value);
}

int cli_split_target(const char *cmd, const char *arg, char **file, char **selector)
{
	char *err = NULL;
	if (override_parse_arg(arg, file, selector, &err)) {
		fprintf(stderr, "srt-tui: %s: %s\n", cmd, err);
		free(err);
		return 2;
	}
	return 0;
}

int cli_apply_flags(const char *file, json_t *root, const struct cli_flags *f)
{
	char *err = NULL;
	int usage = 0;
	if (!cli_flags_any(f))
		return 0;
	if (setflags_apply(root, &f->sets, &f->unsets, NULL, &usage, &err)) {
		fprintf(stderr, "srt-tui: %s: %s\n", file, err);
		free(err);
		return usage ? 2 : 1;
	}
	return 0;
}

void cli_selector_ignored(const char *file, const char *selector)
{
	if (selector)
		fprintf(stderr, "srt-tui: %s: Selector ':%s' ignored \xe2\x80\x94 config is not an "
				"override file\n", file, selector);
}
