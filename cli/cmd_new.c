/* `srt-tui new`: list the templates, write one without the UI, or run the
 * wizard over a document made from a template's text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fileio.h"
#include "lib/util.h"
#include "cli/cmd.h"
#include "tui/wizard.h"

static const char new_usage[] =
	"usage: srt-tui new [FILE] [--template NAME] [--theme NAME] [--submit-cmd CMD] [--no-mouse]\n"
	"       srt-tui new --template NAME -o FILE [--force]\n"
	"       srt-tui new --list-templates\n"
	"\n"
	"Write a new recipe.  Without -o, a wizard walks through the recipe step by\n"
	"step starting from a template (default: vllm-lmcache-agg) and writes FILE at\n"
	"the end (it asks for the path when FILE is not given).  Edits of a session\n"
	"that is hung up are kept; the next 'srt-tui new' (same FILE, or none, in the\n"
	"same folder) offers them back.\n"
	"\n"
	"  -t, --template NAME   start from template NAME (see --list-templates)\n"
	"  -o, --output FILE     write the template to FILE without the wizard ('-': stdout)\n"
	"  -f, --force           with -o: overwrite FILE if it exists\n"
	"  -l, --list-templates  print every template name and description\n"
	"  --theme NAME          default, light, high-contrast, mono, or a .theme file\n"
	"                        (also SRT_TUI_THEME; NO_COLOR selects mono)\n"
	"  --submit-cmd CMD      what F5 runs, {file} is the recipe (also SRT_TUI_SUBMIT;\n"
	"                        default: srtctl apply -f {file})\n"
	"  --no-mouse            leave the mouse to the terminal (select and paste)\n"
	"  --srtctl-dir DIR      the directory srtctl runs in, for srtslurm.yaml\n";

static int list_templates(void)
{
	int w = 0;

	for (size_t i = 0; i < templates_count; i++)
		if ((int)strlen(templates[i].name) > w)
			w = (int)strlen(templates[i].name);
	for (size_t i = 0; i < templates_count; i++)
		printf("%-*s  %s\n", w, templates[i].name, templates[i].description);
	return 0;
}

static const struct template *find_or_complain(const char *name)
{
	const struct template *t = wizard_template(name);

	if (!t) {
		char *names = wizard_template_names();
		fprintf(stderr, "srt-tui: no template named '%s'; use one of: %s\n", name, names);
		free(names);
	}
	return t;
}

static int write_template(const struct template *t, const char *out, int force)
{
	char *err = NULL;

	if (!strcmp(out, "-")) {
		fputs(t->text, stdout);
		return fflush(stdout) ? 1 : 0;
	}
	if (file_write_atomic(out, t->text, strlen(t->text), force ? 0 : WRITE_NEW, &err)) {
		fprintf(stderr, "srt-tui: %s%s\n", err,
			force ? "" : " (or pass --force to overwrite it)");
		free(err);
		return 1;
	}
	return 0;
}

/* Takes the option's value from "--opt=V" or the next argument. */
static const char *optval(int argc, char **argv, int *i, const char *name)
{
	const char *a = argv[*i];
	size_t n = strlen(name);

	if (!strncmp(a, name, n) && a[n] == '=')
		return a + n + 1;
	if (*i + 1 >= argc) {
		fprintf(stderr, "srt-tui: option '%s' needs a value; see 'srt-tui new --help'\n", a);
		return NULL;
	}
	return argv[++*i];
}

static int is_opt(const char *a, const char *s, const char *l)
{
	size_t n = strlen(l);
	return (s && !strcmp(a, s)) || !strcmp(a, l) || (!strncmp(a, l, n) && a[n] == '=');
}

int cmd_new(int argc, char **argv)
{
	const char *tname = NULL, *out = NULL, *file = NULL;
	struct wizard_opts wo = { 0 };
	int force = 0, list = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(new_usage, stdout);
			return 0;
		} else if (is_opt(a, "-l", "--list-templates")) {
			list = 1;
		} else if (is_opt(a, "-f", "--force")) {
			force = 1;
		} else if (!strcmp(a, "--no-mouse")) {
			wo.no_mouse = 1;
		} else if (!strcmp(a, "--srtctl-dir") && i + 1 < argc) {
			wo.srtctl_dir = argv[++i];
		} else if (!strncmp(a, "--srtctl-dir=", 13)) {
			wo.srtctl_dir = a + 13;
		} else if (is_opt(a, "-t", "--template")) {
			if (!(tname = optval(argc, argv, &i, "--template")))
				return 2;
		} else if (is_opt(a, "-o", "--output")) {
			if (!(out = optval(argc, argv, &i, "--output")))
				return 2;
		} else if (is_opt(a, NULL, "--theme")) {
			if (!(wo.theme = optval(argc, argv, &i, "--theme")))
				return 2;
		} else if (is_opt(a, NULL, "--submit-cmd")) {
			if (!(wo.submit_cmd = optval(argc, argv, &i, "--submit-cmd")))
				return 2;
		} else if (a[0] == '-' && a[1] && strcmp(a, "--")) {
			fprintf(stderr, "srt-tui: unknown option '%s'; see 'srt-tui new --help'\n", a);
			return 2;
		} else {
			if (!strcmp(a, "--") && ++i >= argc)
				break;
			if (file) {
				fprintf(stderr, "srt-tui: new takes one FILE, got '%s' and '%s'\n",
					file, argv[i]);
				return 2;
			}
			file = argv[i];
		}
	}
	if (list)
		return list_templates();
	if (out) {
		const struct template *t;
		if (!tname) {
			fprintf(stderr, "srt-tui: -o needs --template NAME; see 'srt-tui new --list-templates'\n");
			return 2;
		}
		if (file) {
			fprintf(stderr, "srt-tui: give the file once, either as FILE or with -o\n");
			return 2;
		}
		if (!(t = find_or_complain(tname)))
			return 2;
		return write_template(t, out, force);
	}
	if (tname) {
		if (!(wo.tmpl = find_or_complain(tname)))
			return 2;
	} else if (!(wo.tmpl = wizard_default_template())) {
		fprintf(stderr, "srt-tui: no templates were compiled in; rebuild with examples/*.yaml\n");
		return 2;
	}
	wo.path = file;
	return wizard_run(&wo);
}
