/* `srt-tui new`: list the templates, write one without the UI, or run the
 * wizard over a document made from a template's text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fileio.h"
#include "lib/util.h"
#include "cli/cmd.h"
#include "tui/wizard.h"

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
	if (file_write_atomic(out, t->text, strlen(t->text), force ? WRITE_FORCE : WRITE_NEW, &err)) {
		fprintf(stderr, "srt-tui: %s%s\n", err,
			force ? "" : " (or pass --force to overwrite it)");
		free(err);
		return 1;
	}
	return 0;
}

enum { OPT_TEMPLATE = 1, OPT_OUTPUT, OPT_FORCE, OPT_LIST, OPT_THEME, OPT_SUBMIT_CMD, OPT_NO_MOUSE };

static const struct cmd_opt new_opts[] = {
	{ OPT_TEMPLATE, 't', "template", "NAME", "start from template NAME (see --list-templates)" },
	{ OPT_OUTPUT, 'o', "output", "FILE", "write the template to FILE without the wizard ('-': stdout)" },
	{ OPT_FORCE, 'f', "force", NULL, "with -o: overwrite FILE if it exists" },
	{ OPT_LIST, 'l', "list-templates", NULL, "print every template name and description" },
	CMD_SCREEN_OPTS(OPT_THEME, OPT_SUBMIT_CMD, OPT_NO_MOUSE),
	{ 0, 0, NULL, NULL, NULL },
};

struct nopts {
	const char *tname, *out;
	int force, list;
	struct wizard_opts wo;
};

static int on_opt(void *ctx, int id, const char *value)
{
	struct nopts *o = ctx;
	switch (id) {
	case OPT_TEMPLATE:
		o->tname = value;
		break;
	case OPT_OUTPUT:
		o->out = value;
		break;
	case OPT_FORCE:
		o->force = 1;
		break;
	case OPT_LIST:
		o->list = 1;
		break;
	case OPT_THEME:
		o->wo.theme = value;
		break;
	case OPT_SUBMIT_CMD:
		o->wo.submit_cmd = value;
		break;
	case OPT_NO_MOUSE:
		o->wo.no_mouse = 1;
		break;
	}
	return 0;
}

static int run_new(struct nopts *o, const char *file);

static int cmd_new(const struct cmd_entry *self, int argc, char **argv)
{
	struct nopts o = { 0 };
	struct strvec args = STRVEC_INIT;
	int rc = cmd_parse(self, argc, argv, on_opt, &o, &args);
	if (!rc && args.n > 1) {
		fprintf(stderr, "srt-tui: new takes one FILE, got '%s' and '%s'\n", args.v[0], args.v[1]);
		rc = 2;
	}
	if (!rc)
		rc = run_new(&o, args.n ? args.v[0] : NULL);
	strvec_release(&args);
	return rc < 0 ? 0 : rc;
}

/* What new does once its command line is read. */
static int run_new(struct nopts *o, const char *file)
{
	const char *tname = o->tname, *out = o->out;
	int force = o->force, list = o->list;
	struct wizard_opts wo = o->wo;

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

const struct cmd_entry cmd_new_entry = {
	.name = "new",
	.usage = { "[FILE] [--template NAME] [--theme NAME] [--submit-cmd CMD] [--no-mouse]",
		   "--template NAME -o FILE [--force]", "--list-templates" },
	.group = CMD_INTERACTIVE,
	.brief = { { "[FILE]", "wizard: write a new recipe" },
		   { "--template NAME -o FILE", "write a template without the wizard" },
		   { "--list-templates", "list the templates" } },
	.about =
		"Write a new recipe.  Without -o, a wizard walks through the recipe step by\n"
		"step starting from a template (default: vllm-lmcache-agg) and writes FILE at\n"
		"the end (it asks for the path when FILE is not given).  Edits of a session\n"
		"that is hung up are kept; the next 'srt-tui new' (same FILE, or none, in the\n"
		"same folder) offers them back.\n",
	.opts = new_opts,
	.exec = cmd_new,
};
