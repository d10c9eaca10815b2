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
	char *err = NULL;
	/* No selector and no --set: the file as it is, every variant. */
	if (validate_doc_variants(d, NULL, NULL, NULL, out, NULL, NULL, &err) && err) {
		diag_add(out, DIAG_ERROR, "expand", "", NULL, "%s", err);
		free(err);
	}
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

size_t cli_report_introduced(const char *file, const struct diag_list *before,
			     const struct doc *after)
{
	struct diag_list now = DIAG_LIST_INIT;
	cli_problems(after, &now);
	const struct diag_list was = *before;
	/* Each problem of the file as loaded answers for one of the edited, so a
	 * second copy of a message it already had still shows.  Sorted, both
	 * lists are walked once, however many problems the file has. */
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
	return count;
}
