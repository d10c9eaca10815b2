/* cmd.c — the command table's reader: overview, help, usage messages and the
 * one option parser (cmd.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"

const struct cmd_entry *const cmd_table[] = {
	&cmd_new_entry, &cmd_edit_entry, &cmd_validate_entry, &cmd_render_entry,
	&cmd_expand_entry, &cmd_get_entry, &cmd_set_entry, &cmd_unset_entry, NULL,
};

const struct cmd_entry *cmd_find(const char *name)
{
	for (size_t i = 0; cmd_table[i]; i++)
		if (!strcmp(cmd_table[i]->name, name))
			return cmd_table[i];
	return NULL;
}

/* The overview's two columns: "  new [FILE]" padded to this, then what. */
#define BRIEF_COL 29

void cmd_overview(FILE *out)
{
	static const char *const group_title[] = { "Interactive:", "Scripting:" };
	fputs("usage: srt-tui <command> [<args>]\n"
	      "\n"
	      "Configure srt-slurm recipes (srtctl, schema 2) in the terminal.\n", out);
	for (int g = CMD_INTERACTIVE; g <= CMD_SCRIPTING; g++) {
		fprintf(out, "\n%s\n", group_title[g]);
		for (size_t i = 0; cmd_table[i]; i++) {
			const struct cmd_entry *c = cmd_table[i];
			if ((int)c->group != g)
				continue;
			for (size_t k = 0; k < 4 && c->brief[k].args; k++) {
				char *left = xasprintf("%s%s%s", c->name, *c->brief[k].args ? " " : "",
						       c->brief[k].args);
				int pad = BRIEF_COL - 2 - (int)strlen(left);
				fprintf(out, "  %s%*s%s\n", left, pad > 1 ? pad : 2, "", c->brief[k].what);
				free(left);
			}
		}
	}
	fputs("\n"
	      "Options:\n"
	      "  -h, --help                 show this help\n"
	      "  --version                  print the version\n"
	      "\n"
	      "Run 'srt-tui <command> --help' for the options of a command; see srt-tui(1).\n", out);
}

/* "-n, --dry-run" or "--format FMT": the option column of the help. */
static char *opt_spelling(const struct cmd_opt *o)
{
	struct strbuf sb = STRBUF_INIT;
	if (o->shortopt)
		strbuf_addf(&sb, "-%c, ", o->shortopt);
	strbuf_addf(&sb, "--%s", o->name);
	if (o->arg)
		strbuf_addf(&sb, " %s", o->arg);
	return strbuf_detach(&sb, NULL);
}

void cmd_help(const struct cmd_entry *c, FILE *out)
{
	for (size_t k = 0; k < 4 && c->usage[k]; k++)
		fprintf(out, "%s srt-tui %s %s\n", k ? "      " : "usage:", c->name, c->usage[k]);
	if (c->about)
		fprintf(out, "\n%s", c->about);
	int w = 0;
	for (const struct cmd_opt *o = c->opts; o && o->name; o++) {
		char *s = opt_spelling(o);
		if (o->help && (int)strlen(s) > w)
			w = (int)strlen(s);
		free(s);
	}
	if (w) {
		fputs("\n", out);
		for (const struct cmd_opt *o = c->opts; o->name; o++) {
			if (!o->help)
				continue;
			char *s = opt_spelling(o);
			const char *h = o->help;
			fprintf(out, "  %-*s  ", w, s);
			for (;;) {
				const char *nl = strchr(h, '\n');
				fprintf(out, "%.*s\n", nl ? (int)(nl - h) : (int)strlen(h), h);
				if (!nl)
					break;
				h = nl + 1;
				fprintf(out, "  %-*s  ", w, "");
			}
			free(s);
		}
	}
	if (c->footer)
		fprintf(out, "\n%s", c->footer);
}

int cmd_usage_short(const struct cmd_entry *c)
{
	fprintf(stderr, "usage: srt-tui %s %s\n", c->name, c->usage[0]);
	return 2;
}

int cmd_usage_error(const struct cmd_entry *c, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "srt-tui: %s: ", c->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; see 'srt-tui %s --help'\n", c->name);
	return 2;
}

int cmd_parse(const struct cmd_entry *c, int argc, char **argv,
	      int (*on_opt)(void *ctx, int id, const char *value), void *ctx, struct strvec *args)
{
	int only_args = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (only_args || a[0] != '-' || !a[1]) {
			strvec_push(args, a);
			continue;
		}
		if (!strcmp(a, "--")) {
			only_args = 1;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cmd_help(c, stdout);
			return -1;
		}
		const struct cmd_opt *o = c->opts;
		const char *val = NULL;
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');
			size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
			for (; o && o->name; o++)
				if (strlen(o->name) == n && !strncmp(o->name, a + 2, n))
					break;
			if (o && o->name && eq) {
				if (!o->arg)
					return cmd_usage_error(c, "%.*s takes no value", (int)(eq - a), a);
				val = eq + 1;
			}
		} else {
			for (; o && o->name; o++)
				if (o->shortopt && o->shortopt == a[1] && !a[2])
					break;
		}
		if (!o || !o->name)
			return cmd_usage_error(c, "unknown option '%s'", a);
		if (o->arg && !val) {
			if (i + 1 >= argc)
				return cmd_usage_error(c, "%s needs a value", a);
			val = argv[++i];
		}
		int rc = on_opt(ctx, o->id, val);
		if (rc)
			return rc;
	}
	return 0;
}
