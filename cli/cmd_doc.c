/*
 * cmd_doc.c — `srt-tui get`, `set` and `unset`: scriptable reads and edits of
 * one recipe through model/doc, so comments and layout survive.
 *
 * An edit command applies every change to the document in memory first and
 * writes only when all of them succeeded (all or nothing), atomically, after
 * checking that the file did not change on disk meanwhile.
 * After writing (or printing the diff of --dry-run), the problems the edit
 * introduced go to stderr in validate's format (cli_check.h); they do not
 * change the exit status: srtctl would take the file as written too.
 * Exit status: 0 done, 1 a path or edit failed (the file is untouched),
 * 2 bad usage or a file that cannot be read or parsed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/diag.h"
#include "model/doc.h"
#include "model/fileio.h"
#include "model/ops_services.h"
#include "model/textdiff.h"
#include "model/path.h"
#include "model/scalar.h"
#include "model/schema.h"
#include "lib/util.h"
#include "cli/cli_check.h"
#include "cli/cli_load.h"
#include "cli/cmd.h"

enum { OPT_JSON = 1, OPT_DRY_RUN, OPT_BACKUP, OPT_FORCE };

static const struct cmd_opt get_opts[] = {
	{ OPT_JSON, 0, "json", NULL, "print the value as JSON (indent 2), as srtctl would read it" },
	{ 0, 0, NULL, NULL, NULL },
};

static const struct cmd_opt set_opts[] = {
	{ OPT_DRY_RUN, 'n', "dry-run", NULL, "print the changes as a unified diff; write nothing" },
	{ OPT_BACKUP, 0, "backup", NULL,
	  "keep the previous version as FILE.bak (off by default: a\n"
	  "script that edits often would otherwise keep only the last)" },
	{ OPT_FORCE, 0, "force", NULL,
	  "replace FILE even when it is read-only (it stays read-only)" },
	{ 0, 0, NULL, NULL, NULL },
};

static const struct cmd_opt unset_opts[] = {
	{ OPT_DRY_RUN, 'n', "dry-run", NULL, "print the changes as a unified diff; write nothing" },
	{ OPT_BACKUP, 0, "backup", NULL, "keep the previous version as FILE.bak" },
	{ OPT_FORCE, 0, "force", NULL,
	  "replace FILE even when it is read-only (it stays read-only)" },
	{ 0, 0, NULL, NULL, NULL },
};

struct opts {
	int json, dry_run, backup, force;
	struct strvec args; /* the positional arguments */
};

static int on_opt(void *ctx, int id, const char *value)
{
	struct opts *o = ctx;
	(void)value;
	if (id == OPT_JSON)
		o->json = 1;
	else if (id == OPT_DRY_RUN)
		o->dry_run = 1;
	else if (id == OPT_BACKUP)
		o->backup = 1;
	else if (id == OPT_FORCE)
		o->force = 1;
	return 0;
}

/* Returns 0 to go on, else the exit status (with o->args released). */
static int parse_opts(const struct cmd_entry *c, int argc, char **argv, struct opts *o)
{
	int rc = cmd_parse(c, argc, argv, on_opt, o, &o->args);
	if (!rc)
		return 0;
	strvec_release(&o->args);
	return rc < 0 ? -1 : rc;
}

struct loaded {
	struct doc *doc;
	char *orig; /* the bytes read, to detect a change on disk before writing */
	size_t orig_len;
	int lock_fd; /* file_lock's, held from the read to the write by set/unset */
};

/* set and unset lock the file before reading it, so that two of them (or a
 * TUI save) on one recipe run one after the other: the second reads what the
 * first wrote and applies its change on top, and no update is lost. */
static int lock_for_edit(const char *file, const struct opts *o, struct loaded *l)
{
	char *err = NULL;
	l->lock_fd = -1;
	if (o->dry_run)
		return 0;
	if (file_lock(file, &l->lock_fd, &err) < 0) {
		fprintf(stderr, "srt-tui: %s; the file was not changed\n", err);
		free(err);
		return 1;
	}
	return 0;
}

/* Read and load FILE, printing what loading found (cli_load.h).  Returns 0,
 * or 2 with the reason printed. */
static int load(const char *file, struct loaded *l)
{
	struct cli_loaded cl;
	int rc = cli_load(file, CLI_LOAD_WARNINGS, &cl);
	l->doc = cl.doc;
	l->orig = cl.orig;
	l->orig_len = cl.orig_len;
	return rc;
}

static void unload(struct loaded *l)
{
	doc_free(l->doc);
	free(l->orig);
}

static void unlock_edit(struct loaded *l)
{
	file_unlock(l->lock_fd);
	l->lock_fd = -1;
}

static int parse_path(const char *file, const char *text, struct path *p)
{
	char *err = NULL;
	if (path_parse(p, text, PATH_NAMES, &err) < 0) {
		fprintf(stderr, "srt-tui: %s: %s\n", file, err);
		free(err);
		return -1;
	}
	return 0;
}

/* A refused read or edit: "srt-tui: FILE: MESSAGE" (the message names the
 * path), and a "did you mean" hint when the path does not exist but a key
 * close to it does.  Frees err. */
static void print_refusal(const char *file, const struct doc *d, const struct path *p, char *err)
{
	fprintf(stderr, "srt-tui: %s: %s\n", file, err ? err : "the change was refused");
	free(err);
	char *s = doc_suggest_path(d, p);
	if (s)
		fprintf(stderr, "  hint: did you mean '%s'?\n", s);
	free(s);
}

static void print_warn(const char *file, const char *path, char *warn)
{
	if (warn)
		fprintf(stderr, "srt-tui: %s: %s: warning: %s\n", file, path, warn);
	free(warn);
}

static int cmd_get(const struct cmd_entry *self, int argc, char **argv)
{
	struct opts o = { 0, 0, 0, 0, STRVEC_INIT };
	int rc = parse_opts(self, argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (o.args.n != 2) {
		strvec_release(&o.args);
		return cmd_usage_short(self);
	}
	const char *file = o.args.v[0], *ptext = o.args.v[1];
	struct path p = PATH_INIT;
	struct loaded l;
	if (parse_path(file, ptext, &p) < 0) {
		rc = 2;
	} else if ((rc = load(file, &l)) == 0) {
		struct strbuf out = STRBUF_INIT;
		char *err = NULL;
		if (doc_get(l.doc, &p, o.json, &out, &err) < 0) {
			print_refusal(file, l.doc, &p, err);
			rc = 1;
		} else {
			/* doc_get ends its text with a newline; make sure of it. */
			if (!out.len || out.buf[out.len - 1] != '\n')
				strbuf_addch(&out, '\n');
			fwrite(sb_str(&out), 1, out.len, stdout);
			if (fflush(stdout))
				rc = 1;
		}
		strbuf_release(&out);
		unload(&l);
	}
	path_release(&p);
	strvec_release(&o.args);
	return rc;
}

/* Split "PATH=VALUE" at the first '=' outside quotes and brackets, so that
 * env."A=B"=1 and a[x=y]=2 mean what they say. */
static const char *find_eq(const char *s)
{
	char quote = 0;
	int depth = 0;
	for (const char *c = s; *c; c++) {
		if (quote) {
			if (*c == quote)
				quote = 0;
		} else if (*c == '"' || *c == '\'') {
			quote = *c;
		} else if (*c == '[') {
			depth++;
		} else if (*c == ']') {
			if (depth)
				depth--;
		} else if (*c == '=' && !depth) {
			return c;
		}
	}
	return NULL;
}

/* Write the edited document, or print its diff.  Returns the exit status. */
static int finish(const char *file, struct loaded *l, const struct opts *o)
{
	size_t len;
	const char *text = doc_text(l->doc, &len);
	if (o->dry_run) {
		struct strbuf diff = STRBUF_INIT;
		text_diff(&diff, file, l->orig, l->orig_len, text, len);
		fwrite(sb_str(&diff), 1, diff.len, stdout);
		strbuf_release(&diff);
		return fflush(stdout) ? 1 : 0;
	}
	if (len == l->orig_len && !memcmp(text, l->orig, len))
		return 0; /* nothing changed: leave the file, its mtime and any link alone */

	/* Someone (an editor, another srt-tui) may have saved in between:
	 * writing now would silently drop their change. */
	char *now, *err = NULL;
	size_t now_len;
	if (file_read(file, &now, &now_len, &err) < 0) {
		fprintf(stderr, "srt-tui: %s\n", err);
		free(err);
		return 1;
	}
	int changed = now_len != l->orig_len || memcmp(now, l->orig, now_len);
	free(now);
	if (changed) {
		fprintf(stderr, "srt-tui: '%s' changed on disk while it was being edited; "
				"nothing written, run the command again\n", file);
		return 1;
	}
	/* The lock keeps other srt-tui writers out, not an editor or sed -i:
	 * the file is read once more just before the rename. */
	unsigned flags = (o->backup ? WRITE_BACKUP : 0) | (o->force ? WRITE_FORCE : 0) |
			 WRITE_LOCKED;
	int wrc = file_write_expect(file, text, len, flags, l->orig, l->orig_len, &err);
	if (wrc < 0) {
		fprintf(stderr, "srt-tui: %s; the file was not changed%s\n", err,
			wrc == WRITE_ERR_READONLY ? " (--force replaces it anyway)" : "");
		free(err);
		return 1;
	}
	return 0;
}

static int edit_usage_error(const struct cmd_entry *c, struct opts *o)
{
	strvec_release(&o->args);
	return cmd_usage_short(c);
}

/* set (values given) or unset (values NULL) the n paths of FILE under the
 * writers' lock: all of them or none, then the problems the edit introduced.
 * names are the paths as the user wrote them, for the warnings. */
static int edit_file(const char *file, const struct opts *o, size_t n, const struct path *paths,
		     json_t *const *values, const char *const *names)
{
	struct loaded l = { NULL, NULL, 0, -1 };
	int rc = lock_for_edit(file, o, &l);
	if (!rc && (rc = load(file, &l)) == 0) {
		struct diag_list before = DIAG_LIST_INIT;
		cli_problems(l.doc, &before); /* to tell what the edit introduced */
		for (size_t i = 0; i < n; i++) {
			char *err = NULL, *warn = NULL;
			/* a placement mapping created here keeps the service's node,
			 * as the Services form and the Fields tree do */
			int r = values ? svc_placement_edit(l.doc, &paths[i], values[i], &err) : 1;
			if (r == 1)
				r = values ? doc_set(l.doc, &paths[i], values[i], &err, &warn)
					   : doc_delete(l.doc, &paths[i], &err, &warn);
			if (r < 0) {
				print_refusal(file, l.doc, &paths[i], err);
				free(warn);
				rc = 1;
				break;
			}
			print_warn(file, names[i], warn);
		}
		if (rc)
			fprintf(stderr, "srt-tui: '%s' was not changed\n", file);
		else if (!(rc = finish(file, &l, o)))
			cli_report_introduced(file, &before, l.doc);
		diag_list_release(&before);
		unload(&l);
	}
	unlock_edit(&l);
	return rc;
}

/* set and unset: every argument is checked before the file is read (a typo
 * in the third must not cost the first two a write), then one edit_file. */
static int edit_cmd(const struct cmd_entry *self, int argc, char **argv, int set)
{
	struct opts o = { 0, 0, 0, 0, STRVEC_INIT };
	int rc = parse_opts(self, argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (o.args.n < 2)
		return edit_usage_error(self, &o);
	const char *file = o.args.v[0];
	size_t n = o.args.n - 1;
	struct path *paths = xcalloc(n, sizeof(*paths));
	json_t **values = set ? xcalloc(n, sizeof(*values)) : NULL;
	char **names = xcalloc(n, sizeof(*names));

	for (size_t i = 0; i < n && !rc; i++) {
		const char *arg = o.args.v[i + 1], *eq = set ? find_eq(arg) : NULL;
		if (set && !eq) {
			fprintf(stderr, "srt-tui: '%s' is not PATH=VALUE; write e.g. "
					"'resources.gpus_per_node=8'\n", arg);
			rc = 2;
			break;
		}
		names[i] = set ? xstrndup(arg, (size_t)(eq - arg)) : xstrdup(arg);
		if (parse_path(file, names[i], &paths[i]) < 0) {
			rc = 2;
			break;
		}
		if (!set)
			continue;
		char *err = NULL;
		values[i] = schema_parse_text(schema_find(&paths[i]), eq + 1, &err);
		if (!values[i]) {
			fprintf(stderr, "srt-tui: %s: %s: invalid value '%s': %s\n", file, names[i],
				eq + 1, err ? err : "not a YAML value");
			free(err);
			rc = 2;
		}
	}
	if (!rc)
		rc = edit_file(file, &o, n, paths, values, (const char *const *)names);
	for (size_t i = 0; i < n; i++) {
		path_release(&paths[i]);
		if (values)
			json_decref(values[i]);
		free(names[i]);
	}
	free(paths);
	free(values);
	free(names);
	strvec_release(&o.args);
	return rc;
}

static int cmd_set(const struct cmd_entry *self, int argc, char **argv)
{
	return edit_cmd(self, argc, argv, 1);
}

static int cmd_unset(const struct cmd_entry *self, int argc, char **argv)
{
	return edit_cmd(self, argc, argv, 0);
}

const struct cmd_entry cmd_get_entry = {
	.name = "get",
	.usage = { "FILE PATH [--json]" },
	.group = CMD_SCRIPTING,
	.brief = { { "FILE PATH [--json]", "print a value" } },
	.about =
		"Print the value at PATH in the recipe FILE: a scalar as its text, a list or\n"
		"mapping as YAML (as written in the file), each followed by a newline.\n"
		"PATH uses srtctl's --set syntax: keys joined by '.', [N] for a list item,\n"
		"[NAME] for the list item whose 'name' is NAME, quotes around keys holding\n"
		"'.', '[' or ']' (e.g. services[lmcache].args[0], env.\"a.b\").\n",
	.opts = get_opts,
	.footer = "Exit status: 0 found, 1 no such path, 2 bad usage or unreadable FILE.\n",
	.exec = cmd_get,
};

const struct cmd_entry cmd_set_entry = {
	.name = "set",
	.usage = { "FILE PATH=VALUE... [--dry-run] [--backup] [--force]" },
	.group = CMD_SCRIPTING,
	.brief = { { "FILE PATH=VALUE...", "change values in place [--dry-run]" } },
	.about =
		"Set each PATH to VALUE in the recipe FILE, in order, changing only the bytes\n"
		"needed: comments, key order and quoting elsewhere are kept.  VALUE is typed\n"
		"as srtctl's --set types it (YAML 1.1): 720 is a number, \"720\" a string,\n"
		"true and yes booleans, [4, 8] a list, null null, nothing the empty string;\n"
		"text that is not YAML stays a string.  {k: v} is a mapping where the field\n"
		"holds one (placement, readiness, env); in engine args it stays the text, as\n"
		"flags such as --rope-scaling take JSON.  The\n"
		"key is everything before the first '=' outside quotes and brackets.\n"
		"Missing mapping keys along PATH are created.  Either every change applies or\n"
		"FILE is left untouched.  FILE is replaced atomically (temp file, fsync,\n"
		"rename) keeping its mode; a symlink is kept and the file it points to written.\n"
		"The problems the change introduced are printed on stderr as validate prints\n"
		"them; they do not change the exit status.\n",
	.opts = set_opts,
	.footer = "Exit status: 0 done, 1 a change was refused (FILE untouched), 2 bad usage or\n"
		  "unreadable FILE.\n",
	.exec = cmd_set,
};

const struct cmd_entry cmd_unset_entry = {
	.name = "unset",
	.usage = { "FILE PATH... [--dry-run] [--backup] [--force]" },
	.group = CMD_SCRIPTING,
	.brief = { { "FILE PATH...", "remove keys or list items" } },
	.about =
		"Remove each key or list item at PATH from the recipe FILE, together with the\n"
		"comment lines that belong to it.  Removing the last entry leaves {} or [].\n"
		"Either every removal applies or FILE is left untouched.  The problems the\n"
		"removal introduced are printed on stderr as validate prints them.\n",
	.opts = unset_opts,
	.footer = "Exit status: 0 done, 1 a path does not exist (FILE untouched), 2 bad usage\n"
		  "or unreadable FILE.\n",
	.exec = cmd_unset,
};
