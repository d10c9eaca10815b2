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
#include "model/diag.h"
#include "model/doc.h"
#include "model/legacy.h"
#include "model/override.h"
#include "lib/util.h"
#include "model/validate.h"
#include "lib/json.h"
#include "cli/cli_args.h"
#include "cli/cmd.h"

static const char usage_head[] =
	"usage: srt-tui validate [--format text|json] [-v] [--set KEY=VALUE]... [--unset KEY]...\n"
	"                        [--srtctl-dir DIR] FILE[:SELECTOR]|FOLDER...\n"
	"       srt-tui validate --cluster SRTSLURM_YAML\n"
	"\n"
	"Check recipes against srtctl's rules and srt-tui's stricter ones.\n"
	"Prints FILE:LINE:COL: error|warning: MESSAGE [code] with a hint line.\n"
	"An override file is checked variant by variant and a sweep job by job, as\n"
	"srtctl submits them; a message starts with the variants it concerns\n"
	"([override_tp2], [all variants]) and points at the line of base or of the\n"
	"section that causes it.\n"
	"\n";
static const char usage_opts[] =
	"\n"
	"  --format text|json   output format (default text)\n"
	"  -v, --verbose        also print 'FILE: ok' for clean files, and the cluster\n"
	"                       file used ('cluster: PATH (how it was found)')\n"
	"  --cluster FILE       lint a cluster file (srtslurm.yaml) against srtctl's schema\n"
	"  --srtctl-dir DIR     the directory srtctl runs in (default: $SRT_TUI_SRTCTL_DIR,\n"
	"                       else the current one); srtslurm.yaml is looked up there and\n"
	"                       two levels up unless $SRTSLURM_CONFIG names it\n";
static const char usage_tail[] =
	"\n"
	"Exit status: 0 no errors (warnings allowed), 1 errors, 2 a file could not\n"
	"be read or parsed, or bad usage.\n";

static void print_usage(FILE *f)
{
	fputs(usage_head, f);
	fputs(cli_selector_help, f);
	fputs(usage_opts, f);
	fputs(cli_flags_help, f);
	fputs(usage_tail, f);
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
static int check_file(const char *arg, const struct cli_flags *f, const struct cluster *c,
		      int *unchecked, char **file, struct diag_list *l, struct strvec *labels)
{
	char *sel = NULL, *err = NULL;
	int usage = 0, rc;
	if ((rc = cli_split_target("validate", arg, file, &sel)))
		return rc;
	struct doc *d = doc_load_file(*file, l);
	if (!d) {
		free(sel);
		return 2;
	}
	json_t *root = doc_json(d);
	if (recipe_form(root) != RECIPE_OVERRIDE)
		cli_selector_ignored(*file, sel);
	if (legacy_recipe(root)) {
		legacy_diag(l);
		json_decref(root);
		free(sel);
		doc_free(d);
		return 0;
	}
	if (recipe_form(root) == RECIPE_PLAIN) {
		struct diag_list add = DIAG_LIST_INIT;
		cluster_alias_diags(c, root, &add, unchecked);
		doc_locate_diags(d, &add);
		diag_list_move(l, &add);
		diag_list_release(&add);
	}
	json_decref(root);
	if (validate_doc_variants(d, sel, &f->sets, &f->unsets, l, labels, &usage, &err)) {
		fprintf(stderr, "srt-tui: %s: %s\n", *file, err);
		free(err);
		rc = usage ? 2 : 1;
	}
	free(sel);
	doc_free(d);
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A folder stands for its *.yaml and *.yml files, sorted. */
static void expand_folders(struct strvec *files)
{
	struct strvec out = STRVEC_INIT;
	for (size_t i = 0; i < files->n; i++) {
		struct stat st;
		DIR *dir;
		struct dirent *e;
		size_t first = out.n;
		if (stat(files->v[i], &st) || !S_ISDIR(st.st_mode) || !(dir = opendir(files->v[i]))) {
			strvec_push(&out, files->v[i]);
			continue;
		}
		while ((e = readdir(dir))) {
			size_t n = strlen(e->d_name);
			if (e->d_name[0] == '.' ||
			    !((n > 5 && !strcmp(e->d_name + n - 5, ".yaml")) ||
			      (n > 4 && !strcmp(e->d_name + n - 4, ".yml"))))
				continue;
			const char *d = files->v[i];
			size_t dl = strlen(d);
			strvec_pushf(&out, "%s%s%s", d, dl && d[dl - 1] == '/' ? "" : "/", e->d_name);
		}
		closedir(dir);
		qsort(out.v + first, out.n - first, sizeof(*out.v), by_name);
	}
	strvec_release(files);
	*files = out;
}

int cmd_validate(int argc, char **argv)
{
	int json = 0, verbose = 0, rc = 0, unchecked = 0;
	struct cli_flags flags = CLI_FLAGS_INIT;
	struct strvec files = STRVEC_INIT;
	const char *cluster_file = NULL, *srtctl_dir = NULL;
	struct cluster cl = CLUSTER_INIT;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int took = cli_flags_take(&flags, "validate", argc, argv, &i);
		if (took < 0) {
			rc = 2;
			goto out;
		}
		if (took)
			continue;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			print_usage(stdout);
			goto out;
		} else if (!strcmp(a, "--format") || !strncmp(a, "--format=", 9)) {
			const char *f = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
			if (f && !strcmp(f, "json"))
				json = 1;
			else if (f && !strcmp(f, "text"))
				json = 0;
			else {
				fprintf(stderr, "srt-tui: validate: --format takes text or json, not '%s'\n",
					f ? f : "");
				rc = 2;
				goto out;
			}
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			verbose = 1;
		} else if (!strcmp(a, "--cluster") || !strcmp(a, "--srtctl-dir")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "srt-tui: validate: '%s' needs a value\n", a);
				rc = 2;
				goto out;
			}
			*(a[2] == 'c' ? &cluster_file : &srtctl_dir) = argv[++i];
		} else if (!strncmp(a, "--cluster=", 10)) {
			cluster_file = a + 10;
		} else if (!strncmp(a, "--srtctl-dir=", 13)) {
			srtctl_dir = a + 13;
		} else if (!strcmp(a, "--")) {
			while (++i < argc)
				strvec_push(&files, argv[i]);
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "srt-tui: validate: unknown option '%s'; see 'srt-tui validate --help'\n", a);
			rc = 2;
			goto out;
		} else {
			strvec_push(&files, a);
		}
	}
	if (rc)
		goto out;
	if (!files.n && !cluster_file) {
		print_usage(stderr);
		rc = 2;
		goto out;
	}
	expand_folders(&files);

	json_t *all = json ? json_array() : NULL;
	struct strbuf out = STRBUF_INIT;
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
		int frc = check_file(files.v[i], &flags, &cl, &unchecked, &file, &l, &labels);
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
	if (!json && verbose && unchecked)
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
	cli_flags_release(&flags);
	strvec_release(&files);
	return rc;
}
