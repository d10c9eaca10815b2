/* cli_args.c — FILE[:SELECTOR], --set and --unset for validate, render and
 * expand (cli_args.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/override.h"
#include "cli/cli_args.h"

const char cli_selector_help[] =
	"SELECTOR picks variants of an override file as srtctl's -f FILE:SELECTOR does:\n"
	"base, override_NAME, zip_override_GROUP, zip_override_GROUP[N], or a glob such\n"
	"as '*tp*' (quote it).  Without one, every override_* and zip_override_* variant\n"
	"is taken, base excluded (as srtctl submits them).  Given for a file that is not\n"
	"an override file, it is ignored with a warning.\n";

const char cli_flags_help[] =
	"  --set KEY=VALUE  change the raw file first, as srtctl's --set: the value is\n"
	"                   typed as YAML; in an override file it goes to base and to\n"
	"                   every section (a zip section gets [VALUE]); repeatable\n"
	"  --unset KEY      remove KEY first (after every --set); repeatable\n";

void cli_flags_release(struct cli_flags *f)
{
	strvec_release(&f->sets);
	strvec_release(&f->unsets);
}

int cli_flags_any(const struct cli_flags *f)
{
	return f->sets.n || f->unsets.n;
}

int cli_flags_take(struct cli_flags *f, const char *cmd, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	struct strvec *vec;
	size_t n;
	if (!strncmp(a, "--set", 5) && (a[5] == '\0' || a[5] == '=')) {
		vec = &f->sets;
		n = 5;
	} else if (!strncmp(a, "--unset", 7) && (a[7] == '\0' || a[7] == '=')) {
		vec = &f->unsets;
		n = 7;
	} else {
		return 0;
	}
	if (a[n] == '=') {
		strvec_push(vec, a + n + 1);
		return 1;
	}
	if (*i + 1 >= argc) {
		fprintf(stderr, "srt-tui: %s: %s needs a value; see 'srt-tui %s --help'\n", cmd, a, cmd);
		return -1;
	}
	strvec_push(vec, argv[++*i]);
	return 1;
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
