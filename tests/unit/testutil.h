/*
 * testutil.h — helpers the cmocka tests share: a recipe from JSON text or a
 * YAML file (loaded the way the CLI loads it), a JSON value from text, file
 * contents, paths under $SRCDIR, and a text comparison that names the first
 * differing line.  Header only (static inline), so each test binary stays
 * one .c file; include it after <cmocka.h>.  Returned strings are malloc'd
 * and owned by the caller; recipes are released with recipe_release().
 */
#ifndef SRT_TESTUTIL_H
#define SRT_TESTUTIL_H

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/diag.h"
#include "model/doc.h"
#include "model/recipe.h"
#include "lib/util.h"
#include "lib/json.h"

/* A JSON value from test text; a typo in the test fails it. */
static inline json_t *tu_json(const char *text)
{
	json_error_t e;
	json_t *v = json_loads(text, JSON_DECODE_ANY, &e);
	if (!v)
		fail_msg("bad test JSON: %s at %d: %s", e.text, e.column, text);
	return v;
}

/* The typed recipe of a JSON document (the tree the YAML would give). */
static inline void tu_recipe_json(struct recipe *r, const char *json)
{
	json_t *root = tu_json(json);
	recipe_init(r, root);
	json_decref(root);
}

/* A YAML recipe file loaded the way the CLI does; -1 when it cannot be. */
static inline int tu_recipe_file(struct recipe *r, const char *path)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load_file(path, &dl);
	json_t *root;
	diag_list_release(&dl);
	if (!d)
		return -1;
	root = doc_json(d);
	recipe_init(r, root);
	json_decref(root);
	doc_free(d);
	return 0;
}

/* Contents of path and their length (the bytes may hold NULs), or NULL
 * when it cannot be read. */
static inline char *tu_slurp_len(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;
	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	*len = sb.len;
	return sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
}

/* Contents of path, or NULL when it cannot be read. */
static inline char *tu_slurp(const char *path)
{
	size_t len;
	return tu_slurp_len(path, &len);
}

/* The ways a recipe's text is also written, for tests that read every one:
 * as it is, with CRLF line ends, after a UTF-8 BOM, without its final
 * newline.  tu_text_variant puts variant v (0 to TU_VARIANTS - 1) of t in sb. */
enum { TU_VARIANTS = 4 };
static inline void tu_text_variant(struct strbuf *sb, const char *t, size_t len, int v)
{
	strbuf_reset(sb);
	if (v == 2)
		strbuf_addstr(sb, "\xEF\xBB\xBF");
	for (size_t i = 0; i < len; i++) {
		if (v == 1 && t[i] == '\n' && (i == 0 || t[i - 1] != '\r'))
			strbuf_addch(sb, '\r');
		strbuf_addch(sb, t[i]);
	}
	if (v == 3)
		while (sb->len && sb->buf[sb->len - 1] == '\n')
			sb->len--;
	strbuf_grow(sb, 1); /* never NULL, even for an empty text */
	sb->buf[sb->len] = 0;
}

/* $SHARED/reference/rel ("" for the folder itself), or NULL when there is
 * no reference folder, which it says as the test runner counts a skip. */
static inline char *tu_reference(const char *rel)
{
	const char *shared = getenv("SHARED");
	if (!shared || !*shared) {
		printf("skip: no reference folder (SHARED unset)\n");
		return NULL;
	}
	return xasprintf("%s/reference%s%s", shared, *rel ? "/" : "", rel);
}

/* $SRCDIR/rel (the current folder when SRCDIR is not set). */
static inline char *tu_srcpath(const char *rel)
{
	const char *src = getenv("SRCDIR");
	return xasprintf("%s/%s", src && *src ? src : ".", rel);
}

/* want == got, or a failure that shows the first differing line. */
static inline void tu_assert_same_text(const char *want, const char *got, const char *what)
{
	size_t i = 0, line = 1;
	if (!strcmp(want, got))
		return;
	while (want[i] && want[i] == got[i]) {
		if (want[i] == '\n')
			line++;
		i++;
	}
	fail_msg("%s differs at line %zu:\n  want: %.120s\n  got:  %.120s", what, line, want + i,
		 got + i);
}

#endif
