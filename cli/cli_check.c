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

/* Problems are the same when severity, code, path and message are: the
 * position moves with every line the edit added or removed. */
static int diag_cmp(const struct diag *a, const struct diag *b)
{
	int c;
	if (a->severity != b->severity)
		return a->severity < b->severity ? -1 : 1;
	if ((c = strcmp(a->code ? a->code : "", b->code ? b->code : "")))
		return c;
	if ((c = strcmp(a->path ? a->path : "", b->path ? b->path : "")))
		return c;
	return strcmp(a->message, b->message);
}

static int diag_ptr_cmp(const void *a, const void *b)
{
	const struct diag *x = *(const struct diag *const *)a, *y = *(const struct diag *const *)b;
	int c = diag_cmp(x, y);
	/* equal problems keep their order: the first of the new ones is shown */
	return c ? c : x < y ? -1 : x > y;
}

static const struct diag **sorted(const struct diag_list *l)
{
	const struct diag **v = xcalloc(l->n + 1, sizeof(*v));
	for (size_t i = 0; i < l->n; i++)
		v[i] = &l->v[i];
	qsort(v, l->n, sizeof(*v), diag_ptr_cmp);
	return v;
}

/* As many as the loaders show of what reading a file found. */
#define MAX_REPORTED 20

size_t cli_report_introduced(const char *file, const char *before, size_t before_len,
			     const struct doc *after)
{
	struct diag_list now = DIAG_LIST_INIT, was = DIAG_LIST_INIT;
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
	 * copy of a message the file already had still shows.  Sorted, both
	 * lists are walked once: a file with 100,000 duplicate keys has as many
	 * warnings before and after. */
	const struct diag **n = sorted(&now), **w = sorted(&was);
	char *fresh = xcalloc(now.n + 1, 1);
	size_t j = 0, count = 0;
	for (size_t i = 0; i < now.n; i++) {
		while (j < was.n && diag_cmp(w[j], n[i]) < 0)
			j++;
		if (j < was.n && !diag_cmp(w[j], n[i])) {
			j++;
			continue;
		}
		fresh[n[i] - now.v] = 1;
		count++;
	}
	/* In the order validate prints them (now is sorted by position). */
	struct strbuf sb = STRBUF_INIT;
	size_t shown = 0;
	for (size_t i = 0; i < now.n && shown < MAX_REPORTED; i++)
		if (fresh[i]) {
			diag_format(&sb, file, &now.v[i]);
			shown++;
		}
	if (count > shown)
		strbuf_addf(&sb, "srt-tui: %s: %zu more problems not shown\n", file, count - shown);
	fputs(sb_str(&sb), stderr);
	strbuf_release(&sb);
	free(fresh);
	free(n);
	free(w);
	diag_list_release(&now);
	diag_list_release(&was);
	return count;
}
