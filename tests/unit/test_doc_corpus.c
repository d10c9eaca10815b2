/*
 * Edits on whole recipes: every example recipe of $SHARED/reference (when
 * present) and our own fixtures in tests/fixtures/doc, plus CRLF, BOM and
 * no-final-newline variants of each.  For every node:
 *   - setting a scalar to its own value changes nothing;
 *   - changing a one-line scalar changes exactly that line;
 *   - adding a key to a block mapping adds exactly one line;
 *   - deleting a key removes one contiguous run of whole lines (its own);
 *   - undo restores the original bytes.
 * With DOC_DUMP_DIR set, each edited text and its typed JSON are written
 * there for tests/cli/pyyaml_check.sh to compare with PyYAML.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "tests/unit/testutil.h"

struct ctx {
	const char *name;
	int variant; /* 0 as is, 1 CRLF, 2 BOM, 3 no final newline */
	int edits;
	int dumped;
	const char *prefix; /* of dumped file names */
};

/* Lines of a text, without their line breaks; a final empty piece dropped. */
static void split_lines(const char *t, size_t len, struct strvec *out)
{
	size_t a = len >= 3 && !memcmp(t, "\xEF\xBB\xBF", 3) ? 3 : 0; /* the BOM stays in front */
	for (size_t i = a; i <= len; i++) {
		if (i == len || t[i] == '\n') {
			if (i == len && a == len)
				break;
			size_t e = i;
			if (e > a && t[e - 1] == '\r')
				e--;
			char *s = xstrndup(t + a, e - a);
			strvec_push_nodup(out, s);
			a = i + 1;
		}
	}
}

static void dump(struct ctx *c, struct doc *d)
{
	const char *dir = getenv("DOC_DUMP_DIR");
	if (!dir || !*dir || c->dumped > 400)
		return;
	json_t *j = doc_json(d);
	if (!j)
		return;
	char *yp = xasprintf("%s/%s%04d.yaml", dir, c->prefix, c->dumped);
	char *jp = xasprintf("%s/%s%04d.json", dir, c->prefix, c->dumped);
	size_t len;
	const char *t = doc_text(d, &len);
	FILE *f = fopen(yp, "wb");
	if (f) {
		fwrite(t, 1, len, f);
		fclose(f);
	}
	json_dump_file(j, jp, JSON_COMPACT | JSON_REAL_PRECISION(17));
	json_decref(j);
	free(yp);
	free(jp);
	c->dumped++;
}


/* Visit every node with its path. */
typedef void (*visit_fn)(struct ctx *c, struct doc *d, const struct doc_node *n, const struct path *p,
			 const char *orig, size_t olen);

static void walk(struct ctx *c, struct doc *d, const struct doc_node *n, struct path *p, visit_fn fn,
		 const char *orig, size_t olen, const struct doc_node **list, size_t *nlist, struct path *paths)
{
	(void)c;
	(void)d;
	(void)fn;
	(void)orig;
	(void)olen;
	list[*nlist] = (const struct doc_node *)(uintptr_t)doc_node_start(n);
	path_copy(&paths[*nlist], p);
	(*nlist)++;
	if (doc_node_kind(n) == DOC_MAP) {
		for (size_t i = 0; i < doc_node_count(n); i++) {
			const struct doc_node *k = doc_node_key(n, i);
			if (doc_node_kind(k) != DOC_SCALAR)
				continue;
			path_push_key(p, doc_node_text(k));
			walk(c, d, doc_node_child(n, i), p, fn, orig, olen, list, nlist, paths);
			path_pop(p);
		}
	} else if (doc_node_kind(n) == DOC_SEQ) {
		for (size_t i = 0; i < doc_node_count(n); i++) {
			path_push_index(p, i);
			walk(c, d, doc_node_child(n, i), p, fn, orig, olen, list, nlist, paths);
			path_pop(p);
		}
	}
}

static void check_undo(struct doc *d, const char *orig, size_t olen)
{
	while (doc_can_undo(d))
		assert_int_equal(doc_undo(d), 0);
	size_t len;
	const char *t = doc_text(d, &len);
	assert_int_equal(len, olen);
	assert_memory_equal(t, orig, olen);
}

static void run_text(struct ctx *c, const char *orig, size_t olen)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load(c->name, orig, olen, &dl);
	if (!d) {
		/* not a recipe (several documents...): nothing to edit */
		diag_list_release(&dl);
		return;
	}
	int nonstring_keys = 0;
	for (size_t i = 0; i < dl.n; i++)
		nonstring_keys |= !strcmp(dl.v[i].code, "yaml-key-not-string");
	diag_list_release(&dl);
	if (!doc_root(d)) {
		doc_free(d);
		return;
	}
	enum { MAXN = 4096 };
	const struct doc_node **list = xcalloc(MAXN, sizeof(*list));
	struct path *paths = xcalloc(MAXN, sizeof(*paths));
	size_t n = 0;
	struct path p = PATH_INIT;
	walk(c, d, doc_root(d), &p, NULL, orig, olen, list, &n, paths);
	struct strvec ol = STRVEC_INIT;
	split_lines(orig, olen, &ol);
	/* Node pointers die with each edit: work from paths, re-looking up. */
	for (size_t i = 1; i < n; i++) {
		const struct doc_node *x = doc_lookup(d, &paths[i]);
		if (!x || doc_node_start(x) != (size_t)(uintptr_t)list[i])
			continue; /* a duplicate key shadows it */
		char *err = NULL, *warn = NULL;
		if (doc_node_kind(x) == DOC_SCALAR) {
			/* to itself: nothing changes */
			json_t *v = doc_node_json(d, x);
			unsigned long g = doc_generation(d);
			assert_int_equal(doc_set(d, &paths[i], v, &err, &warn), 0);
			assert_int_equal(g, doc_generation(d));
			json_decref(v);
			free(warn);
			warn = NULL;
			size_t s = doc_node_start(x), e = doc_node_end(x);
			size_t len;
			const char *t = doc_text(d, &len);
			int one_line = s < e && !memchr(t + s, '\n', e - s) && doc_node_style(x) != STYLE_LITERAL &&
				       doc_node_style(x) != STYLE_FOLDED;
			if (one_line) {
				json_t *nv = json_string("changed value");
				int rc = doc_set(d, &paths[i], nv, &err, &warn);
				json_decref(nv);
				if (rc) {
					fail_msg("%s: set '%s' refused: %s", c->name, path_format(&paths[i], 99), err);
				}
				c->edits++;
				free(warn);
				warn = NULL;
				t = doc_text(d, &len);
				struct strvec nl = STRVEC_INIT;
				split_lines(t, len, &nl);
				assert_int_equal(nl.n, ol.n);
				size_t diff = 0;
				for (size_t k = 0; k < nl.n; k++)
					diff += strcmp(nl.v[k], ol.v[k]) != 0;
				assert_int_equal(diff, 1);
				strvec_release(&nl);
				if (!nonstring_keys)
					dump(c, d);
				check_undo(d, orig, olen);
			}
		} else if (doc_node_kind(x) == DOC_MAP && !doc_node_flow(x)) {
			struct path q = PATH_INIT;
			path_copy(&q, &paths[i]);
			path_push_key(&q, "zz_added_key");
			json_t *nv = json_integer(42);
			int rc = doc_set(d, &q, nv, &err, &warn);
			json_decref(nv);
			if (rc)
				fail_msg("%s: add under '%s' refused: %s", c->name, path_format(&paths[i], 99), err);
			c->edits++;
			free(warn);
			warn = NULL;
			size_t len;
			const char *t = doc_text(d, &len);
			struct strvec nl = STRVEC_INIT;
			split_lines(t, len, &nl);
			if (c->variant != 3) {
				assert_int_equal(nl.n, ol.n + 1);
				size_t k = 0;
				while (k < ol.n && !strcmp(nl.v[k], ol.v[k]))
					k++;
				assert_true(strstr(nl.v[k], "zz_added_key: 42") != NULL);
				for (; k < ol.n; k++)
					assert_string_equal(nl.v[k + 1], ol.v[k]);
			}
			strvec_release(&nl);
			if (!nonstring_keys)
				dump(c, d);
			path_release(&q);
			check_undo(d, orig, olen);
		}
		/* delete a key of a block mapping: one contiguous run of lines goes */
		const struct doc_node *par = NULL;
		if (paths[i].n && paths[i].seg[paths[i].n - 1].kind == PATH_KEY) {
			struct path q = PATH_INIT;
			path_copy(&q, &paths[i]);
			path_pop(&q);
			par = q.n ? doc_lookup(d, &q) : doc_root(d);
			path_release(&q);
		}
		if (par && !doc_node_flow(par) && doc_node_count(par) > 1) {
			int rc = doc_delete(d, &paths[i], &err, &warn);
			if (rc && strstr(err, "still used")) {
				free(err);
				free(warn);
				continue;
			}
			if (rc)
				fail_msg("%s: delete '%s' refused: %s", c->name, path_format(&paths[i], 99), err);
			c->edits++;
			size_t len;
			const char *t = doc_text(d, &len);
			struct strvec nl = STRVEC_INIT;
			split_lines(t, len, &nl);
			/* common head and tail; what is between must be whole removed
			 * lines, or (first key of `- name: x`) one rewritten dash line */
			size_t head = 0, tail = 0;
			while (head < nl.n && head < ol.n && !strcmp(nl.v[head], ol.v[head]))
				head++;
			while (tail < nl.n - head && tail < ol.n - head &&
			       !strcmp(nl.v[nl.n - 1 - tail], ol.v[ol.n - 1 - tail]))
				tail++;
			size_t changed = nl.n - head - tail;
			if (changed > 1 || (changed == 1 && !strchr(nl.v[head], '-')) || ol.n - head - tail < 1)
				fail_msg("%s: delete '%s' changed more than its own lines (line %zu)", c->name,
					 path_format(&paths[i], 99), head + 1);
			strvec_release(&nl);
			if (!nonstring_keys)
				dump(c, d);
			check_undo(d, orig, olen);
		}
		free(err);
		free(warn);
	}
	for (size_t i = 0; i < n; i++)
		path_release(&paths[i]);
	free(paths);
	free(list);
	path_release(&p);
	strvec_release(&ol);
	doc_free(d);
}

static void run_file(struct ctx *c, const char *path)
{
	size_t len;
	char *t = tu_slurp_len(path, &len);
	assert_non_null(t);
	c->name = path;
	struct strbuf sb = STRBUF_INIT;
	for (int v = 0; v < TU_VARIANTS; v++) {
		tu_text_variant(&sb, t, len, v);
		c->variant = v;
		run_text(c, sb.buf, sb.len);
	}
	strbuf_release(&sb);
	free(t);
}

static int run_dir(struct ctx *c, const char *dir)
{
	DIR *dp = opendir(dir);
	if (!dp)
		return 0;
	struct strvec names = STRVEC_INIT;
	struct dirent *de;
	while ((de = readdir(dp)))
		if (strlen(de->d_name) > 5 && !strcmp(de->d_name + strlen(de->d_name) - 5, ".yaml"))
			strvec_pushf(&names, "%s/%s", dir, de->d_name);
	closedir(dp);
	for (size_t i = 0; i < names.n; i++)
		run_file(c, names.v[i]);
	int n = (int)names.n;
	strvec_release(&names);
	return n;
}

static void test_fixtures(void **state)
{
	(void)state;
	const char *src = getenv("SRCDIR");
	char *dir = xasprintf("%s/tests/fixtures/doc", src && *src ? src : ".");
	struct ctx c = { 0 };
	c.prefix = "f";
	int n = run_dir(&c, dir);
	free(dir);
	assert_true(n >= 3);
	printf("fixtures: %d files, %d edits\n", n, c.edits);
}

static void test_reference(void **state)
{
	(void)state;
	char *dir = tu_reference("");
	if (!dir)
		return;
	struct ctx c = { 0 };
	c.prefix = "r";
	int n = run_dir(&c, dir);
	free(dir);
	printf("reference: %d files, %d edits\n", n, c.edits);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_reference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
