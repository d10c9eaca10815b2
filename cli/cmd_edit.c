/* cmd_edit.c — `srt-tui edit FILE`: the screens over an existing recipe. */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/diag.h"
#include "model/doc.h"
#include "model/override.h"
#include "tui/app.h"
#include "cli/cmd.h"
#include "tui/editor.h"
#include "tui/screen_variants.h"

/* The wizard's steps when tui/wizard*.c is linked in. */
#pragma weak wizard_steps
#pragma weak wizard_edit_write_screen

static const char usage[] =
	"usage: srt-tui edit FILE [--theme NAME] [--submit-cmd CMD] [--no-mouse]\n"
	"\n"
	"Edit a recipe in the terminal: every field, live validation and preview.\n"
	"Saving changes only what you changed and keeps FILE.bak.\n"
	"\n"
	"  --theme NAME       default, light, high-contrast, mono, or a .theme file\n"
	"                     (also SRT_TUI_THEME; NO_COLOR selects mono)\n"
	"  --submit-cmd CMD   what F5 runs, {file} is the recipe (also SRT_TUI_SUBMIT;\n"
	"                     default: srtctl apply -f {file})\n"
	"  --no-mouse         leave the mouse to the terminal (select and paste)\n"
	"  --srtctl-dir DIR   the directory srtctl runs in, for srtslurm.yaml (also\n"
	"                     SRT_TUI_SRTCTL_DIR; default: the current directory)\n";

/* `edit` on a path that does not exist: a new user's first try.  Offer the
 * wizard that writes it (same options) instead of only an error. */
static int offer_new(int argc, char **argv, const char *file)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO)) {
		fprintf(stderr, "srt-tui: '%s' does not exist; create it with: srt-tui new %s\n", file,
			file);
		return 2;
	}
	fprintf(stderr, "srt-tui: '%s' does not exist.\nCreate it with the wizard (srt-tui new %s)? [Y/n] ",
		file, file);
	fflush(stderr);
	char line[64];
	if (!fgets(line, sizeof(line), stdin) || (line[0] != '\n' && line[0] != 'y' && line[0] != 'Y')) {
		fprintf(stderr, "srt-tui: nothing done\n");
		return 2;
	}
	char **nargv = xcalloc((size_t)argc + 1, sizeof(char *));
	nargv[0] = "new";
	for (int i = 1; i < argc; i++)
		nargv[i] = argv[i];
	int rc = cmd_new(argc, nargv);
	free(nargv);
	return rc;
}

int cmd_edit(int argc, char **argv)
{
	struct app_opts opts = { 0 };
	const char *file = NULL;
	setlocale(LC_ALL, "");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strcmp(a, "--theme") && i + 1 < argc) {
			opts.theme = argv[++i];
		} else if (!strncmp(a, "--theme=", 8)) {
			opts.theme = a + 8;
		} else if (!strcmp(a, "--submit-cmd") && i + 1 < argc) {
			opts.submit_cmd = argv[++i];
		} else if (!strncmp(a, "--submit-cmd=", 13)) {
			opts.submit_cmd = a + 13;
		} else if (!strcmp(a, "--no-mouse")) {
			opts.no_mouse = 1;
		} else if (!strcmp(a, "--srtctl-dir") && i + 1 < argc) {
			opts.srtctl_dir = argv[++i];
		} else if (!strncmp(a, "--srtctl-dir=", 13)) {
			opts.srtctl_dir = a + 13;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "srt-tui edit: unknown option '%s'; see 'srt-tui edit --help'\n", a);
			return 2;
		} else if (!file) {
			file = a;
		} else {
			fprintf(stderr, "srt-tui edit: one FILE at a time ('%s' is extra)\n", a);
			return 2;
		}
	}
	if (!file) {
		fputs(usage, stderr);
		return 2;
	}
	struct stat st;
	if (stat(file, &st) && errno == ENOENT)
		return offer_new(argc, argv, file);
	struct diag_list diags = DIAG_LIST_INIT;
	struct doc *d = doc_load_file(file, &diags);
	if (!d) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < diags.n; i++)
			diag_format(&sb, file, &diags.v[i]);
		fputs(sb_str(&sb), stderr);
		if (!diags.n)
			fprintf(stderr, "srt-tui: cannot load '%s'\n", file);
		strbuf_release(&sb);
		diag_list_release(&diags);
		return 2;
	}
	opts.path = file;
	struct app *a;
	app_init(&a, d, &opts);
	diag_list_release(&diags);
	/* An override file is not a recipe at its top level: the wizard's steps
	 * would write beside base:, so it gets the Variants screen and the
	 * Fields tree only, and opens on its variants. */
	json_t *root = doc_json(d);
	enum recipe_form form = root ? recipe_form(root) : RECIPE_PLAIN;
	json_decref(root);
	if (wizard_steps && form != RECIPE_OVERRIDE)
		for (const struct app_screen *const *s = wizard_steps(); s && *s; s++)
			app_add_screen(a, *s);
	if (&wizard_edit_write_screen)
		app_add_screen(a, &wizard_edit_write_screen);
	app_add_screen(a, &variants_screen);
	app_add_screen(a, &editor_screen);
	app_goto_screen(a, app_screen_count(a) - (form == RECIPE_PLAIN ? 1 : 2));
	int rc = app_run(a);
	app_free(a);
	return rc;
}
