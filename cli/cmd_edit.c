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
#include "cli/cli_load.h"
#include "cli/cmd.h"
#include "tui/editor.h"
#include "tui/screen_variants.h"

/* The wizard's steps when tui/wizard*.c is linked in. */
#pragma weak wizard_steps
#pragma weak wizard_edit_write_screen

/* The options edit and new share (the screens' look and F5). */
enum { OPT_THEME = 50, OPT_SUBMIT_CMD, OPT_NO_MOUSE };

static const struct cmd_opt edit_opts[] = {
	CMD_SCREEN_OPTS(OPT_THEME, OPT_SUBMIT_CMD, OPT_NO_MOUSE),
	{ 0, 0, NULL, NULL, NULL },
};

static int on_opt(void *ctx, int id, const char *value)
{
	struct app_opts *o = ctx;
	if (id == OPT_THEME)
		o->theme = value;
	else if (id == OPT_SUBMIT_CMD)
		o->submit_cmd = value;
	else if (id == OPT_NO_MOUSE)
		o->no_mouse = 1;
	return 0;
}

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
	int rc = cmd_new_entry.exec(&cmd_new_entry, argc, nargv);
	free(nargv);
	return rc;
}

static int cmd_edit(const struct cmd_entry *self, int argc, char **argv)
{
	struct app_opts opts = { 0 };
	struct strvec args = STRVEC_INIT;
	setlocale(LC_ALL, "");
	int rc = cmd_parse(self, argc, argv, on_opt, &opts, &args);
	if (!rc && args.n > 1) {
		fprintf(stderr, "srt-tui: edit: one FILE at a time ('%s' is extra)\n", args.v[1]);
		rc = 2;
	} else if (!rc && !args.n) {
		cmd_help(self, stderr);
		rc = 2;
	}
	if (rc) {
		strvec_release(&args);
		return rc < 0 ? 0 : rc;
	}
	const char *file = args.v[0];
	struct stat st;
	if (stat(file, &st) && errno == ENOENT) {
		rc = offer_new(argc, argv, file);
		strvec_release(&args);
		return rc;
	}
	struct cli_loaded l;
	if (cli_load(file, CLI_LOAD_WARNINGS | CLI_LOAD_QUIET, &l)) {
		strvec_release(&args);
		return 2;
	}
	struct doc *d = l.doc;
	free(l.orig);
	opts.path = file;
	struct app *a;
	app_init(&a, d, &opts);
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
	rc = app_run(a);
	app_free(a);
	strvec_release(&args);
	return rc;
}

const struct cmd_entry cmd_edit_entry = {
	.name = "edit",
	.usage = { "FILE [--theme NAME] [--submit-cmd CMD] [--no-mouse]" },
	.group = CMD_INTERACTIVE,
	.brief = { { "FILE", "edit a recipe (comments and layout kept)" } },
	.about = "Edit a recipe in the terminal: every field, live validation and preview.\n"
		 "Saving changes only what you changed and keeps FILE.bak.\n",
	.opts = edit_opts,
	.exec = cmd_edit,
};
