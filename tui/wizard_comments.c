/* wizard_comments.c — keeping a template's comments true (wizard.h). */
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "model/path.h"
#include "tui/wizard.h"

/* One key or sequence item of the document and the line it starts on. */
struct entry {
	int line;
	size_t depth;
	struct path path;
};

struct entries {
	struct entry *v;
	size_t n, alloc;
};

static void collect(const struct doc_node *n, struct path *p, struct entries *out)
{
	enum doc_kind k = doc_node_kind(n);
	if (k != DOC_MAP && k != DOC_SEQ)
		return;
	for (size_t i = 0; i < doc_node_count(n); i++) {
		const struct doc_node *c = doc_node_child(n, i);
		const struct doc_node *key = k == DOC_MAP ? doc_node_key(n, i) : c;
		if (k == DOC_MAP)
			path_push_key(p, doc_node_text(key));
		else
			path_push_index(p, i);
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		struct entry *e = &out->v[out->n++];
		e->line = key ? doc_node_line(key) : 0;
		e->depth = p->n;
		memset(&e->path, 0, sizeof(e->path));
		path_copy(&e->path, p);
		if (c)
			collect(c, p, out);
		path_pop(p);
	}
}

/* The outermost (block comments) or innermost (a comment at the end of the
 * line) entry that starts on line; NULL when none does. */
static const struct entry *entry_at(const struct entries *es, int line, int innermost)
{
	const struct entry *best = NULL;
	for (size_t i = 0; i < es->n; i++)
		if (es->v[i].line == line &&
		    (!best || (innermost ? es->v[i].depth > best->depth : es->v[i].depth < best->depth)))
			best = &es->v[i];
	return best;
}

/* The value at p is the same in both documents (both absent counts). */
static int same_at(const struct doc *a, const struct doc *b, const struct path *p)
{
	const struct doc_node *na = doc_lookup(a, p), *nb = doc_lookup(b, p);
	if (!na || !nb)
		return !na && !nb;
	json_t *ja = doc_node_json(a, na), *jb = doc_node_json(b, nb);
	int eq = ja && jb && json_equal(ja, jb);
	json_decref(ja);
	json_decref(jb);
	return eq;
}

/* What a header says of the services: which run, of what kind, where (a
 * cache size is a detail it does not describe). */
static json_t *services_shape(const json_t *root)
{
	json_t *out = json_array(), *svcs = root ? json_object_get(root, "services") : NULL, *s;
	size_t i;
	json_array_foreach(svcs, i, s) {
		json_t *one = json_object();
		static const char *const keys[] = { "name", "type", "placement", "enabled" };
		for (size_t k = 0; k < 4; k++) {
			json_t *v = json_is_object(s) ? json_object_get(s, keys[k]) : NULL;
			if (v)
				json_object_set(one, keys[k], v);
		}
		json_array_append_new(out, one);
	}
	return out;
}

static int same_member(const json_t *a, const json_t *b, const char *k)
{
	const json_t *x = json_is_object(a) ? json_object_get(a, k) : NULL;
	const json_t *y = json_is_object(b) ? json_object_get(b, k) : NULL;
	return (!x && !y) || (x && y && json_equal(x, y));
}

/* What the header of a template describes: the engine and its connector,
 * the roles (aggregated or prefill/decode) and the services. */
static int header_holds(const struct doc *cur, const struct doc *tmpl)
{
	json_t *rc = doc_json(cur), *rt = doc_json(tmpl);
	json_t *ec = rc ? json_object_get(rc, "engine") : NULL, *et = rt ? json_object_get(rt, "engine") : NULL;
	int eq = json_is_string(ec) || json_is_string(et) ? same_member(rc, rt, "engine")
			: same_member(ec, et, "type") && same_member(ec, et, "connector");
	json_t *a = rc ? json_object_get(rc, "roles") : NULL, *b = rt ? json_object_get(rt, "roles") : NULL;
	if (eq)
		eq = json_is_object(a) == json_is_object(b);
	if (eq && json_is_object(a)) {
		const char *k;
		json_t *v;
		eq = json_object_size(a) == json_object_size(b);
		json_object_foreach(a, k, v) if (!json_object_get(b, k)) eq = 0;
	}
	if (eq) {
		json_t *sa = services_shape(rc), *sb = services_shape(rt);
		eq = json_equal(sa, sb);
		json_decref(sa);
		json_decref(sb);
	}
	json_decref(rc);
	json_decref(rt);
	return eq;
}

/* Lines of text (without their newline) as offsets. */
struct lines {
	size_t *start, *len;
	size_t n, alloc_s, alloc_l;
};

static void split_lines(const char *text, size_t tlen, struct lines *l)
{
	size_t i = 0;
	while (i < tlen) {
		const char *nl = memchr(text + i, '\n', tlen - i);
		size_t len = nl ? (size_t)(nl - (text + i)) : tlen - i;
		ALLOC_GROW(l->start, l->n + 1, l->alloc_s);
		ALLOC_GROW(l->len, l->n + 1, l->alloc_l);
		l->start[l->n] = i;
		l->len[l->n] = len;
		l->n++;
		i += len + 1;
	}
}

static int is_comment_line(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i < len && s[i] == '#';
}

static int is_blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

/* Is the text (len bytes) a whole line of hay? */
static int has_line(const char *hay, const char *s, size_t len)
{
	for (const char *p = hay; *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		if (l == len && !memcmp(p, s, len))
			return 1;
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

/* The start of a comment at the end of a line that the template wrote as
 * written (the same "  # ..." ends a line of the template), else 0. */
static size_t trailing_comment(const char *s, size_t len, const char *tmpl)
{
	for (size_t i = len; i-- > 1;) {
		if (s[i] != '#' || (s[i - 1] != ' ' && s[i - 1] != '\t'))
			continue;
		size_t from = i;
		while (from > 0 && (s[from - 1] == ' ' || s[from - 1] == '\t'))
			from--;
		if (from == 0)
			return 0; /* a whole-line comment */
		/* the template has a line ending with exactly this comment */
		char *tail = xstrndup(s + i, len - i);
		int found = 0;
		for (const char *p = tmpl; !found && (p = strstr(p, tail)); p++)
			found = p[strlen(tail)] == '\n' || !p[strlen(tail)];
		free(tail);
		if (found)
			return from;
	}
	return 0;
}

int wiz_template_score(const char *text, const struct template *t)
{
	struct lines l = { 0 };
	int score = 0;
	split_lines(t->text, strlen(t->text), &l);
	for (size_t i = 0; i < l.n; i++) {
		const char *s = t->text + l.start[i];
		if (is_comment_line(s, l.len[i]) && l.len[i] > 2 && has_line(text, s, l.len[i]))
			score++;
	}
	free(l.start);
	free(l.len);
	return score;
}

const struct template *wiz_template_of(const char *text)
{
	const struct template *best = NULL;
	int bs = 0;
	for (size_t i = 0; i < templates_count; i++) {
		int s = wiz_template_score(text, &templates[i]);
		if (s > bs)
			bs = s, best = &templates[i];
	}
	return best;
}

char *wiz_fix_template_comments(const char *text, const struct template *t, size_t *dropped)
{
	struct diag_list dl = DIAG_LIST_INIT;
	size_t tlen = strlen(text);
	struct doc *cur = doc_load("recipe.yaml", text, tlen, &dl);
	diag_list_release(&dl);
	struct doc *tmpl = doc_load("template.yaml", t->text, strlen(t->text), &dl);
	diag_list_release(&dl);
	*dropped = 0;
	if (!cur || !tmpl || !doc_root(cur)) {
		doc_free(cur);
		doc_free(tmpl);
		return xstrdup(text);
	}
	struct entries es = { 0 };
	struct path p = PATH_INIT;
	collect(doc_root(cur), &p, &es);
	path_release(&p);

	struct lines l = { 0 };
	split_lines(text, tlen, &l);
	char *drop = xcalloc(l.n + 1, 1);  /* 1: drop the line */
	size_t *cut = xcalloc(l.n + 1, sizeof(size_t)); /* >0: keep only this many bytes */
	int header_dropped = 0;
	for (size_t i = 0; i < l.n;) {
		const char *s = text + l.start[i];
		if (!is_comment_line(s, l.len[i])) {
			size_t c = trailing_comment(s, l.len[i], t->text);
			const struct entry *e = c ? entry_at(&es, (int)i + 1, 1) : NULL;
			if (e && !same_at(cur, tmpl, &e->path))
				cut[i] = c, (*dropped)++;
			i++;
			continue;
		}
		/* a block of whole-line comments (blank lines inside belong to it) */
		size_t b = i, e = i;
		while (e < l.n && (is_comment_line(text + l.start[e], l.len[e]) ||
				   is_blank(text + l.start[e], l.len[e])))
			e++;
		size_t last = e; /* one past the last comment line */
		while (last > b && is_blank(text + l.start[last - 1], l.len[last - 1]))
			last--;
		int template_own = 1;
		for (size_t k = b; k < last && template_own; k++)
			if (is_comment_line(text + l.start[k], l.len[k]) &&
			    !has_line(t->text, text + l.start[k], l.len[k]))
				template_own = 0;
		int holds = 1;
		if (template_own) {
			if (b == 0) {
				holds = header_holds(cur, tmpl);
				header_dropped = !holds;
			} else {
				const struct entry *en = e < l.n ? entry_at(&es, (int)e + 1, 0) : NULL;
				holds = !en || same_at(cur, tmpl, &en->path);
			}
		}
		if (!holds)
			for (size_t k = b; k < last; k++) {
				drop[k] = 1;
				(*dropped)++;
			}
		/* the blank line after a dropped header goes with it */
		if (!holds && b == 0 && last < e)
			drop[last] = 1;
		i = e;
	}
	struct strbuf sb = STRBUF_INIT;
	if (header_dropped)
		strbuf_addf(&sb, "# Started from the srt-tui template %s; its description no longer "
				 "applies.\n\n", t->name);
	for (size_t i = 0; i < l.n; i++) {
		if (drop[i])
			continue;
		size_t n = cut[i] ? cut[i] : l.len[i];
		strbuf_add(&sb, text + l.start[i], n);
		if (l.start[i] + l.len[i] < tlen || text[tlen - 1] == '\n')
			strbuf_addch(&sb, '\n');
	}
	free(drop);
	free(cut);
	free(l.start);
	free(l.len);
	for (size_t i = 0; i < es.n; i++)
		path_release(&es.v[i].path);
	free(es.v);
	doc_free(cur);
	doc_free(tmpl);
	return strbuf_detach(&sb, NULL);
}
