/*
 * diag.h — diagnostics: what is wrong, where, and how to fix it.
 *
 * Every layer reports problems the same way: a recipe path (path syntax of
 * path.h, e.g. "services[lmcache].args[2]"), a 1-based line and column once
 * located in the file (0 = not located), a severity, a stable code such as
 * "lmcache-server-port", srtctl's message text where it has one, and a hint.
 * A diag_list owns all strings in it.
 */
#ifndef SRT_DIAG_H
#define SRT_DIAG_H

#include <stddef.h>

enum diag_severity { DIAG_ERROR, DIAG_WARNING };

struct diag {
	enum diag_severity severity;
	char *path;    /* recipe path, "" for the whole file */
	int line, col; /* 1-based; 0 when unknown */
	char *code;    /* short, stable, kebab-case */
	char *message;
	char *hint;    /* how to fix it; may be NULL */
};

struct diag_list {
	struct diag *v;
	size_t n, alloc;
};
#define DIAG_LIST_INIT { NULL, 0, 0 }

/* Append one diagnostic; message is a printf format.  Returns the new entry. */
struct diag *diag_add(struct diag_list *l, enum diag_severity sev, const char *code,
		      const char *path, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* The same for a message already written (len bytes of message): a check
 * that reports thousands of keys builds its text without printf. */
struct diag *diag_add_text(struct diag_list *l, enum diag_severity sev, const char *code,
			   const char *path, const char *hint, const char *message, size_t len);
struct diag *diag_add_at(struct diag_list *l, enum diag_severity sev, const char *code,
			 int line, int col, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
size_t diag_count(const struct diag_list *l, enum diag_severity sev);
/* Sort by line, column, then severity (errors first); stable for equal keys. */
void diag_sort(struct diag_list *l);
/* The same, moving labels[i] (one per entry, or NULL) along with entry i. */
void diag_sort_with(struct diag_list *l, char **labels);
void diag_list_clear(struct diag_list *l);
void diag_list_release(struct diag_list *l);
/* Move every entry of src to the end of dst; src is left empty. */
void diag_list_move(struct diag_list *dst, struct diag_list *src);

/* "FILE:LINE:COL: error: MESSAGE [code]" (or "FILE: error: ..." when not
 * located), then "  hint: HINT" on its own line when there is a hint. */
struct strbuf;
void diag_format(struct strbuf *out, const char *file, const struct diag *d);

#endif
