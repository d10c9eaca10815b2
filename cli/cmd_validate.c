/*
 * cmd_validate.c — `srt-tui validate FILE[:SELECTOR]... [--format text|json]
 * [-v] [--set K=V]... [--unset K]...`.
 *
 * Text: one compiler-style line per diagnostic, `FILE:LINE:COL: error|
 * warning: MESSAGE [code]`, then an indented `hint:` line; a clean file
 * prints nothing (like a compiler) unless -v, which prints `FILE: ok`.
 * JSON: one array over all files of {file, line, col, severity, code, path,
 * message, hint}, plus "variant" for a diagnostic of some variants or jobs
 * of the file; line and col are null when a diagnostic has no position.
 * An override or sweep file is checked job by job (validate_doc_variants):
 * messages start with the variants they concern, "[override_tp2] ...", and
 * point at the line of base or of the section that caused them.
 * The cluster file srtctl would use (model/cluster: $SRTSLURM_CONFIG, else
 * srtslurm.yaml in the srtctl directory or two levels up) is linted once and
 * its problems listed under its own name; -v names the file used.  Container
 * and model.path values are judged against its aliases as srtctl's preflight
 * does.  --cluster FILE lints one cluster file alone.  A pre-2.0 recipe (no
 * `schema:`) is one line, not one error per key; a folder argument checks
 * every *.yaml / *.yml in it.
 * stdout carries only diagnostics.  Exit 0 without errors (warnings are
 * fine), 1 with errors or a --set the file refuses, 2 when a file cannot be
 * read or parsed or the usage is wrong.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/cluster.h"
#include "model/srtctl_schema.h"
#include "model/diag.h"
#include "model/doc.h"
#include "model/override.h"
#include "lib/util.h"
#include "model/validate.h"
#include "lib/json.h"
#include "cli/cli_args.h"
#include "cli/cmd.h"

enum { OPT_FORMAT = 1, OPT_VERBOSE, OPT_CLUSTER, OPT_SET = CLI_OPT_SET, OPT_UNSET = CLI_OPT_UNSET };
static const struct cmd_opt validate_opts[] = {
	{ OPT_FORMAT, 0, "format", "text|json", "output format (default text)" },
	{ OPT_VERBOSE, 'v', "verbose", NULL,
	  "say which srtctl schema and cluster file are in use\n"
	  "('cluster: PATH (how it was found)'); print 'FILE: ok'\n"
	  "for clean files" },
	{ OPT_CLUSTER, 0, "cluster", "FILE", "lint a cluster file (srtslurm.yaml) against srtctl's schema" },
	CLI_FLAG_OPTS,
	{ 0, 0, NULL, NULL, NULL },
};

struct vopts {
	int json, verbose;
	const char *cluster_file;
	struct cli_flags flags;
};

static int on_opt(void *ctx, int id, const char *value)
{
	struct vopts *o = ctx;
	if (id == OPT_FORMAT) {
		if (!strcmp(value, "json"))
			o->json = 1;
		else if (!strcmp(value, "text"))
			o->json = 0;
		else {
			fprintf(stderr, "srt-tui: validate: --format takes text or json, not '%s'\n", value);
			return 2;
		}
	} else if (id == OPT_VERBOSE) {
		o->verbose = 1;
	} else if (id == OPT_CLUSTER) {
		o->cluster_file = value;
	} else {
		cli_flags_add(&o->flags, id, value);
	}
	return 0;
}

static json_t *diag_json(const char *file, const struct diag *d, const char *variant)
{
	json_t *o = json_object();
	json_object_set_new(o, "file", json_string(file));
	json_object_set_new(o, "line", d->line > 0 ? json_integer(d->line) : json_null());
	json_object_set_new(o, "col", d->line > 0 ? json_integer(d->col) : json_null());
	json_object_set_new(o, "severity",
			    json_string(d->severity == DIAG_ERROR ? "error" : "warning"));
	json_object_set_new(o, "code", json_string(d->code ? d->code : ""));
	json_object_set_new(o, "path", json_string(d->path ? d->path : ""));
	json_object_set_new(o, "message", json_string(d->message));
	json_object_set_new(o, "hint", d->hint && *d->hint ? json_string(d->hint) : json_null());
	if (variant && *variant)
		json_object_set_new(o, "variant", json_string(variant));
	return o;
}

/*
 * Validate one FILE[:SELECTOR] into l (labels: the variants of each entry).
 * Returns 0, 1 when a --set cannot be applied to the file, 2 when it cannot
 * be loaded or the usage is wrong; *file gets the path part (malloc'd).
 */
static int check_file(const char *arg, struct validate_run *run, char **file, struct diag_list *l,
		      struct strvec *labels)
{
	char *sel = NULL, *err = NULL, *buf;
	int usage = 0, rc;
	size_t len;
	enum recipe_form form;
	if ((rc = cli_split_target("validate", arg, file, &sel)))
		return rc;
	if (!(buf = doc_file_read(*file, &len, l))) {
		free(sel);
		return 2;
	}
	rc = validate_text(run, *file, buf, len, sel, &form, l, labels, &usage, &err);
	if (rc != 2 && form != RECIPE_OVERRIDE)
		cli_selector_ignored(*file, sel);
	if (rc == 1) {
		fprintf(stderr, "srt-tui: %s: %s\n", *file, err);
		free(err);
		rc = usage ? 2 : 1;
	}
	free(sel);
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int yaml_name(const char *s)
{
	size_t n = strlen(s);
	return (n > 5 && !strcmp(s + n - 5, ".yaml")) || (n > 4 && !strcmp(s + n - 4, ".yml"));
}

/* A folder stands for its *.yaml and *.yml files, sorted: appended to out,
 * 0; -1 when path is not a folder. */
static int folder_files(const char *path, struct strvec *out)
{
	struct stat st;
	DIR *dir;
	struct dirent *e;
	size_t first = out->n, dl = strlen(path);
	if (stat(path, &st) || !S_ISDIR(st.st_mode) || !(dir = opendir(path)))
		return -1;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.' || !yaml_name(e->d_name))
			continue;
		strvec_pushf(out, "%s%s%s", path, dl && path[dl - 1] == '/' ? "" : "/", e->d_name);
	}
	closedir(dir);
	if (out->n > first)
		qsort(out->v + first, out->n - first, sizeof(*out->v), by_name);
	return 0;
}

/* A name ending in .yaml or .yml is taken for a file without a stat (validate
 * reads hundreds); the rare folder named so is expanded when reading it fails
 * (splice_folder). */
static void expand_folders(struct strvec *files)
{
	struct strvec out = STRVEC_INIT;
	for (size_t i = 0; i < files->n; i++)
		if (yaml_name(files->v[i]) || folder_files(files->v[i], &out))
			strvec_push(&out, files->v[i]);
	strvec_release(files);
	*files = out;
}

/* files->v[i] turned out to be a folder: its files take its place. */
static int splice_folder(struct strvec *files, size_t i)
{
	struct strvec out = STRVEC_INIT;
	for (size_t k = 0; k < i; k++)
		strvec_push(&out, files->v[k]);
	if (folder_files(files->v[i], &out)) {
		strvec_release(&out);
		return -1;
	}
	for (size_t k = i + 1; k < files->n; k++)
		strvec_push(&out, files->v[k]);
	strvec_release(files);
	*files = out;
	return 0;
}

static int cmd_validate(const struct cmd_entry *self, int argc, char **argv)
{
	struct vopts o = { 0, 0, NULL, CLI_FLAGS_INIT };
	struct strvec files = STRVEC_INIT;
	struct cluster cl = CLUSTER_INIT;
	int rc = cmd_parse(self, argc, argv, on_opt, &o, &files);
	int json = o.json, verbose = o.verbose;
	const char *cluster_file = o.cluster_file;
	/* --srtctl-dir is taken by main (load_srtctl_schema), which sets
	 * $SRT_TUI_SRTCTL_DIR; cluster_srtctl_dir(NULL) reads it */
	const char *srtctl_dir = NULL;
	struct validate_run run = { &cl, &o.flags.sets, &o.flags.unsets, 0, 0 };
	if (rc) {
		rc = rc < 0 ? 0 : rc;
		goto out;
	}
	if (!files.n && !cluster_file) {
		cmd_help(self, stderr);
		rc = 2;
		goto out;
	}
	expand_folders(&files);

	json_t *all = json ? json_array() : NULL;
	struct strbuf out = STRBUF_INIT;
	if (!json && verbose) {
		const char *src = srtctl_schema_source();
		strbuf_addf(&out, "srtctl schema: %s\n",
			    src ? src : "none found (built-in field table only)");
	}
	/* the cluster file: the one named, else the one srtctl would find */
	if (cluster_file) {
		cl.srtctl_dir = cluster_srtctl_dir(srtctl_dir);
		if (access(cluster_file, F_OK)) {
			fprintf(stderr, "srt-tui: validate: %s: cannot read the cluster file: %s\n",
				cluster_file, strerror(errno));
			rc = 2;
		} else {
			cluster_load_file(&cl, cluster_file, "--cluster");
		}
	} else {
		cluster_discover(&cl, srtctl_dir);
	}
	if (!json && verbose) {
		char *line = cluster_describe(&cl);
		strbuf_addf(&out, "%s\n", line);
		free(line);
	}
	for (size_t k = 0; k < cl.diags.n; k++) {
		const char *cname = cl.path ? cl.path : "srtslurm.yaml";
		if (json)
			json_array_append_new(all, diag_json(cname, &cl.diags.v[k], NULL));
		else
			diag_format(&out, cname, &cl.diags.v[k]);
	}
	if (diag_count(&cl.diags, DIAG_ERROR) && rc < 1)
		rc = 1;
	if (!json && verbose && cluster_file && cl.state == CLUSTER_LOADED)
		strbuf_addf(&out, "%s: ok\n", cluster_file);
	for (size_t i = 0; i < files.n; i++) {
		struct diag_list l = DIAG_LIST_INIT;
		struct strvec labels = STRVEC_INIT;
		char *file = NULL;
		int frc = check_file(files.v[i], &run, &file, &l, &labels);
		if (frc == 2 && yaml_name(files.v[i]) && !splice_folder(&files, i)) {
			diag_list_release(&l);
			strvec_release(&labels);
			free(file);
			i--;
			continue;
		}
		const char *name = file ? file : files.v[i];
		if (frc > rc)
			rc = frc;
		if (!frc && diag_count(&l, DIAG_ERROR) && rc < 1)
			rc = 1;
		for (size_t k = 0; k < l.n; k++) {
			if (json)
				json_array_append_new(all, diag_json(name, &l.v[k],
								     k < labels.n ? labels.v[k] : NULL));
			else
				diag_format(&out, name, &l.v[k]);
		}
		if (!json && verbose && !frc && !diag_count(&l, DIAG_ERROR))
			strbuf_addf(&out, "%s: ok\n", name);
		diag_list_release(&l);
		strvec_release(&labels);
		free(file);
		if (out.len > 65536) {
			fwrite(out.buf, 1, out.len, stdout);
			strbuf_reset(&out);
		}
	}
	if (!json && verbose && run.unchecked)
		strbuf_addstr(&out, "note: no cluster file is applied, so container and model.path "
				    "aliases are not checked (srtctl resolves them from srtslurm.yaml)\n");
	if (json) {
		pyjson_dump(&out, all, PYJSON_UNICODE, 2);
		strbuf_addch(&out, '\n');
		json_decref(all);
	}
	if (out.len)
		fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	if (fflush(stdout) == EOF) {
		perror("srt-tui: validate: stdout");
		rc = 2;
	}
out:
	cluster_release(&cl);
	cli_flags_release(&o.flags);
	strvec_release(&files);
	return rc;
}

const struct cmd_entry cmd_validate_entry = {
	.name = "validate",
	.usage = { "[--format text|json] [-v] [--set KEY=VALUE]... [--unset KEY]...\n"
		   "                        FILE[:SELECTOR]|FOLDER...",
		   "--cluster SRTSLURM_YAML" },
	.group = CMD_SCRIPTING,
	.brief = { { "FILE[:SEL]|FOLDER...", "check recipes; exit 1 on errors" },
		   { "--cluster FILE", "lint a cluster file (srtslurm.yaml)" } },
	.about =
		"Check recipes against srtctl's rules and srt-tui's stricter ones.\n"
		"Prints FILE:LINE:COL: error|warning: MESSAGE [code] with a hint line.\n"
		"An override file is checked variant by variant and a sweep job by job, as\n"
		"srtctl submits them; a message starts with the variants it concerns\n"
		"([override_tp2], [all variants]) and points at the line of base or of the\n"
		"section that causes it.\n"
		"The cluster file srtctl would use ($SRTSLURM_CONFIG, else srtslurm.yaml in\n"
		"the srtctl directory (--srtctl-dir, $SRT_TUI_SRTCTL_DIR, else the current\n"
		"one) or two levels up) is linted once; a folder stands for its *.yaml files.\n"
		"\n" CLI_SELECTOR_HELP,
	.opts = validate_opts,
	.footer = "Exit status: 0 no errors (warnings allowed), 1 errors, 2 a file could not\n"
		  "be read or parsed, or bad usage.\n",
	.exec = cmd_validate,
};
