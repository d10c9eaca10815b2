#include "model/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* Takes message (malloc'd). */
static struct diag *add(struct diag_list *l, enum diag_severity sev, const char *code,
			const char *path, int line, int col, const char *hint, char *message)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	struct diag *d = &l->v[l->n++];
	d->severity = sev;
	d->path = xstrdup(path ? path : "");
	d->line = line;
	d->col = col;
	d->code = xstrdup(code ? code : "");
	d->message = message;
	d->hint = hint ? xstrdup(hint) : NULL;
	return d;
}

struct diag *diag_add(struct diag_list *l, enum diag_severity sev, const char *code,
		      const char *path, const char *hint, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct diag *d = add(l, sev, code, path, 0, 0, hint, xvasprintf(fmt, ap));
	va_end(ap);
	return d;
}

struct diag *diag_add_text(struct diag_list *l, enum diag_severity sev, const char *code,
			   const char *path, const char *hint, const char *message, size_t len)
{
	return add(l, sev, code, path, 0, 0, hint, xstrndup(message, len));
}

struct diag *diag_add_at(struct diag_list *l, enum diag_severity sev, const char *code,
			 int line, int col, const char *hint, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct diag *d = add(l, sev, code, "", line, col, hint, xvasprintf(fmt, ap));
	va_end(ap);
	return d;
}

size_t diag_count(const struct diag_list *l, enum diag_severity sev)
{
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++)
		n += l->v[i].severity == sev;
	return n;
}

void diag_sort_with(struct diag_list *l, char **labels)
{
	/* Insertion sort: lists are short and the order must be stable. */
	for (size_t i = 1; i < l->n; i++) {
		struct diag d = l->v[i];
		char *lb = labels ? labels[i] : NULL;
		size_t j = i;
		while (j > 0) {
			struct diag *p = &l->v[j - 1];
			int later = p->line > d.line ||
				    (p->line == d.line && (p->col > d.col ||
							   (p->col == d.col && p->severity > d.severity)));
			if (!later)
				break;
			l->v[j] = *p;
			if (labels)
				labels[j] = labels[j - 1];
			j--;
		}
		l->v[j] = d;
		if (labels)
			labels[j] = lb;
	}
}

void diag_sort(struct diag_list *l)
{
	diag_sort_with(l, NULL);
}

void diag_list_clear(struct diag_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].path);
		free(l->v[i].code);
		free(l->v[i].message);
		free(l->v[i].hint);
	}
	l->n = 0;
}

void diag_list_release(struct diag_list *l)
{
	diag_list_clear(l);
	free(l->v);
	l->v = NULL;
	l->alloc = 0;
}

void diag_list_move(struct diag_list *dst, struct diag_list *src)
{
	if (!src->n)
		return; /* memcpy from a NULL list is undefined even for 0 bytes */
	ALLOC_GROW(dst->v, dst->n + src->n, dst->alloc);
	memcpy(dst->v + dst->n, src->v, src->n * sizeof(*src->v));
	dst->n += src->n;
	src->n = 0;
}

void diag_format(struct strbuf *out, const char *file, const struct diag *d)
{
	const char *sev = d->severity == DIAG_ERROR ? "error" : "warning";
	if (d->line > 0)
		strbuf_addf(out, "%s:%d:%d: %s: %s", file, d->line, d->col, sev, d->message);
	else
		strbuf_addf(out, "%s: %s: %s", file, sev, d->message);
	if (d->code && *d->code)
		strbuf_addf(out, " [%s]", d->code);
	strbuf_addch(out, '\n');
	if (d->hint && *d->hint)
		strbuf_addf(out, "  hint: %s\n", d->hint);
}
