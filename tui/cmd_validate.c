/*
 * cmd_validate.c — `srt-tui validate FILE... [--format text|json] [-v]`.
 *
 * Text: one compiler-style line per diagnostic, `FILE:LINE:COL: error|
 * warning: MESSAGE [code]`, then an indented `hint:` line; a clean file
 * prints nothing (like a compiler) unless -v, which prints `FILE: ok`.
 * JSON: one array over all files of {file, line, col, severity, code, path,
 * message, hint}; line and col are null when a diagnostic has no position.
 * stdout carries only diagnostics.  Exit 0 without errors (warnings are
 * fine), 1 with errors, 2 when a file cannot be read or parsed.
 */
#include <stdio.h>
#include <string.h>

#include "model/diag.h"
#include "model/doc.h"
#include "model/util.h"
#include "model/validate.h"
#include "render/json.h"
#include "tui/cmd.h"

static const char usage[] =
	"usage: srt-tui validate [--format text|json] [-v] FILE...\n"
	"\n"
	"Check recipes against srtctl's rules and srt-tui's stricter ones.\n"
	"Prints FILE:LINE:COL: error|warning: MESSAGE [code] with a hint line.\n"
	"\n"
	"  --format text|json   output format (default text)\n"
	"  -v, --verbose        also print 'FILE: ok' for clean files\n"
	"\n"
	"Exit status: 0 no errors (warnings allowed), 1 errors, 2 a file could not\n"
	"be read or parsed.\n";

static json_t *diag_json(const char *file, const struct diag *d)
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
	return o;
}

/* Validate one file into l; returns 2 when it cannot be loaded, else 0. */
static int check_file(const char *file, struct diag_list *l)
{
	struct doc *d = doc_load_file(file, l);
	if (!d)
		return 2;
	validate_doc(d, l);
	diag_sort(l);
	doc_free(d);
	return 0;
}

int cmd_validate(int argc, char **argv)
{
	int json = 0, verbose = 0, nfiles = 0, rc = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strcmp(a, "--format") || !strncmp(a, "--format=", 9)) {
			const char *f = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
			if (f && !strcmp(f, "json"))
				json = 1;
			else if (f && !strcmp(f, "text"))
				json = 0;
			else {
				fprintf(stderr, "srt-tui validate: --format takes text or json, not '%s'\n",
					f ? f : "");
				return 2;
			}
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			verbose = 1;
		} else if (!strcmp(a, "--")) {
			nfiles += argc - i - 1;
			break;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "srt-tui validate: unknown option '%s'; see 'srt-tui validate --help'\n", a);
			return 2;
		} else {
			nfiles++;
		}
	}
	if (!nfiles) {
		fputs(usage, stderr);
		return 2;
	}

	json_t *all = json ? json_array() : NULL;
	struct strbuf out = STRBUF_INIT;
	int files_only = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!files_only) {
			if (!strcmp(a, "--")) {
				files_only = 1;
				continue;
			}
			if (!strcmp(a, "--format")) {
				i++;
				continue;
			}
			if (a[0] == '-' && a[1])
				continue;
		}
		struct diag_list l = DIAG_LIST_INIT;
		int frc = check_file(a, &l);
		if (frc > rc)
			rc = frc;
		if (!frc && diag_count(&l, DIAG_ERROR) && rc < 1)
			rc = 1;
		for (size_t k = 0; k < l.n; k++) {
			if (json)
				json_array_append_new(all, diag_json(a, &l.v[k]));
			else
				diag_format(&out, a, &l.v[k]);
		}
		if (!json && verbose && !frc && !diag_count(&l, DIAG_ERROR))
			strbuf_addf(&out, "%s: ok\n", a);
		diag_list_release(&l);
		if (out.len > 65536) {
			fwrite(out.buf, 1, out.len, stdout);
			strbuf_reset(&out);
		}
	}
	if (json) {
		pyjson_dump(&out, all, PYJSON_UNICODE, 2);
		strbuf_addch(&out, '\n');
		json_decref(all);
	}
	if (out.len)
		fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	if (fflush(stdout) == EOF) {
		perror("srt-tui validate: stdout");
		return 2;
	}
	return rc;
}
