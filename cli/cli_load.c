/* cli_load.c — the commands' loader (cli_load.h). */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli_load.h"
#include "lib/util.h"
#include "model/diag.h"
#include "model/doc.h"
#include "model/fileio.h"

/* A file with 100,000 duplicate keys must not bury the terminal. */
#define MAX_LOAD_DIAGS 20

int cli_load(const char *file, unsigned flags, struct cli_loaded *l)
{
	char *err = NULL;
	l->doc = NULL;
	l->orig = NULL;
	l->orig_len = 0;
	if (file_read(file, &l->orig, &l->orig_len, &err) < 0) {
		fprintf(stderr, "srt-tui: %s\n", err ? err : "cannot read the file");
		free(err);
		return 2;
	}
	struct diag_list diags = DIAG_LIST_INIT;
	l->doc = doc_load(file, l->orig, l->orig_len, &diags);
	if (l->doc)
		doc_locate_diags(l->doc, &diags);
	diag_sort(&diags);
	int failed = !l->doc || ((flags & CLI_LOAD_STRICT) && diag_count(&diags, DIAG_ERROR));
	if (!failed && (flags & CLI_LOAD_QUIET)) {
		diag_list_release(&diags);
		return 0;
	}
	struct strbuf sb = STRBUF_INIT;
	size_t shown = 0, hidden = 0;
	for (size_t i = 0; i < diags.n; i++) {
		if (diags.v[i].severity != DIAG_ERROR && !(flags & CLI_LOAD_WARNINGS))
			continue;
		if (shown == MAX_LOAD_DIAGS) {
			hidden++;
			continue;
		}
		diag_format(&sb, file, &diags.v[i]);
		shown++;
	}
	if (hidden)
		strbuf_addf(&sb, "srt-tui: %s: %zu more problems not shown\n", file, hidden);
	if (failed && !diag_count(&diags, DIAG_ERROR))
		strbuf_addf(&sb, "srt-tui: %s: error: cannot load this file as a recipe\n", file);
	fputs(sb_str(&sb), stderr);
	strbuf_release(&sb);
	diag_list_release(&diags);
	if (failed) {
		cli_loaded_release(l);
		return 2;
	}
	return 0;
}

void cli_loaded_release(struct cli_loaded *l)
{
	doc_free(l->doc);
	free(l->orig);
	l->doc = NULL;
	l->orig = NULL;
	l->orig_len = 0;
}
