/* cli_check.c — the problems an edit introduced (cli_check.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_check.h"
#include "lib/util.h"
#include "model/doc.h"
#include "model/validate.h"

void cli_problems(const struct doc *d, struct diag_list *out)
{
	const struct diag_list *lint = doc_lint(d);
	struct diag_list rules = DIAG_LIST_INIT;
	char *err = NULL;
	for (size_t i = 0; i < lint->n; i++) {
		const struct diag *s = &lint->v[i];
		struct diag *n = diag_add(out, s->severity, s->code, s->path, s->hint, "%s", s->message);
		n->line = s->line;
		n->col = s->col;
	}
	/* No selector and no --set: the file as it is, every variant. */
	if (validate_doc_variants(d, NULL, NULL, NULL, &rules, NULL, NULL, &err) && err) {
		diag_add(out, DIAG_ERROR, "expand", "", NULL, "%s", err);
		free(err);
	}
	for (size_t i = 0; i < rules.n; i++) {
		const struct diag *s = &rules.v[i];
		struct diag *n = diag_add(out, s->severity, s->code, s->path, s->hint, "%s", s->message);
		n->line = s->line;
		n->col = s->col;
	}
	diag_list_release(&rules);
	diag_sort(out);
}

static int same(const struct diag *a, const struct diag *b)
{
	return a->severity == b->severity && !strcmp(a->code ? a->code : "", b->code ? b->code : "") &&
	       !strcmp(a->path ? a->path : "", b->path ? b->path : "") &&
	       !strcmp(a->message, b->message);
}

size_t cli_report_introduced(const char *file, const char *before, size_t before_len,
			     const struct doc *after)
{
	struct diag_list now = DIAG_LIST_INIT, was = DIAG_LIST_INIT;
	size_t shown = 0;
	cli_problems(after, &now);
	if (!now.n)
		return 0; /* a clean result: nothing to compare, no second load */
	struct doc *old = doc_load(file, before, before_len, &was);
	if (old) {
		diag_list_release(&was);
		cli_problems(old, &was);
		doc_free(old);
	}
	/* Each problem of the old text answers for one of the new, so a second
	 * copy of a message the file already had still shows. */
	char *used = xcalloc(was.n + 1, 1);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < now.n; i++) {
		size_t j = 0;
		while (j < was.n && (used[j] || !same(&now.v[i], &was.v[j])))
			j++;
		if (j < was.n) {
			used[j] = 1;
			continue;
		}
		diag_format(&sb, file, &now.v[i]);
		shown++;
	}
	fputs(sb_str(&sb), stderr);
	strbuf_release(&sb);
	free(used);
	diag_list_release(&now);
	diag_list_release(&was);
	return shown;
}
