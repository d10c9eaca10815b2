/* editor.c — the Fields tree (editor.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/doc.h"
#include "model/path.h"
#include "model/scalar.h"
#include "model/schema.h"
#include "model/srtctl_schema.h"
#include "tui/app.h"
#include "tui/editor.h"
#include "tui/form.h"

static int wildcard_key(const char *k)
{
	return !k || !*k || !strcmp(k, "*") || !strcmp(k, "[]") || k[0] == '[';
}

static const char *item_name(const struct doc_node *it)
{
	if (!it || doc_node_kind(it) != DOC_MAP)
		return NULL;
	for (size_t k = 0; k < doc_node_count(it); k++) {
		const struct doc_node *kn = doc_node_key(it, k), *vn = doc_node_child(it, k);
		if (kn && vn && doc_node_kind(vn) == DOC_SCALAR && !strcmp(doc_node_text(kn), "name"))
			return doc_node_text(vn);
	}
	return NULL;
}

/* Kept across rebuilds in form->user. */
struct editor_opts {
	int hide_absent; /* show only what the recipe sets */
};

static int hiding(const struct form *f)
{
	const struct editor_opts *o = f->user;
	return o && o->hide_absent;
}

static int doc_has_key(const struct doc_node *n, const char *k)
{
	for (size_t i = 0; n && i < doc_node_count(n); i++) {
		const struct doc_node *kn = doc_node_key(n, i);
		if (kn && !strcmp(doc_node_text(kn), k))
			return 1;
	}
	return 0;
}

/* A field srt-tui's table does not know but srtctl's schema does: its help is
 * srtctl's description and a note that the previews leave it out. */
static void note_srtctl_only(struct form_field *ff, const char *path, json_t *js)
{
	const char *d = srtctl_schema_description(js);
	free(ff->help);
	ff->help = xasprintf("%s%ssrt-tui does not preview %s yet: only srtctl's schema (%s) knows it, "
			     "so the Plan, Workers and sbatch previews do not show what it does.",
			     d ? d : "", d ? "\n\n" : "", path, srtctl_schema_source());
}

struct srtctl_absent {
	struct form *f;
	const struct doc_node *n;
	struct path *p;
	const struct schema_field *sf;
	const char *variant;
	int depth;
};

/* One key of srtctl's schema: shown when absent and unknown to the table. */
static void add_srtctl_absent(const char *k, json_t *js, void *ctx)
{
	struct srtctl_absent *c = ctx;
	if ((c->sf && schema_child(c->sf, k, c->variant)) || doc_has_key(c->n, k))
		return;
	path_push_key(c->p, k);
	char *ps = path_format(c->p, (size_t)-1);
	struct form_field *ff = form_add_value_schema(c->f, ps, k, NULL);
	ff->depth = c->depth;
	ff->flags |= FFL_ABSENT;
	json_t *dv = srtctl_schema_default(js);
	if (dv && !json_is_null(dv)) {
		struct strbuf sb = STRBUF_INIT;
		scalar_emit_json(&sb, dv, STYLE_ANY, 0);
		ff->dflt = strbuf_detach(&sb, NULL);
	}
	note_srtctl_only(ff, ps, js);
	free(ps);
	path_pop(c->p);
}

/* The absent fields under n: the table's (with their defaults), then those
 * only srtctl's schema js knows (with srtctl's defaults). */
static void add_absent(struct form *f, const struct doc_node *n, struct path *p,
		       const struct schema_field *sf, int depth, const char *variant, json_t *js)
{
	struct strvec seen = STRVEC_INIT;
	if (hiding(f))
		return;
	for (const struct schema_field *c = sf ? schema_children(sf, NULL) : NULL; c;
	     c = schema_children(sf, c)) {
		const char *k = schema_field_key(c);
		if (wildcard_key(k) || (c->flags & SF_IGNORED))
			continue;
		if (c->variant && variant && strcmp(c->variant, variant))
			continue;
		int dup = 0;
		for (size_t i = 0; i < seen.n && !dup; i++)
			dup = !strcmp(seen.v[i], k);
		if (dup)
			continue;
		strvec_push(&seen, k);
		int present = doc_has_key(n, k);
		if (present)
			continue;
		path_push_key(p, k);
		char *ps = path_format(p, (size_t)-1);
		struct form_field *ff = form_add_value_schema(f, ps, k, c);
		ff->depth = depth;
		ff->flags |= FFL_ABSENT;
		free(ps);
		path_pop(p);
	}
	strvec_release(&seen);
	if (js) {
		/* after the table's own, so the familiar fields come first */
		struct srtctl_absent sc = { f, n, p, sf, variant, depth };
		srtctl_schema_each_key(js, variant, add_srtctl_absent, &sc);
	}
}

/* js: srtctl's schema for the same path (NULL when none is loaded or it
 * does not know the path). */
static void add_node(struct app *a, struct form *f, const struct doc_node *n, struct path *p,
		     const struct schema_field *sf, int depth, const char *label, const char *variant,
		     json_t *js)
{
	char *ps = path_format(p, (size_t)-1);
	struct form_field *ff = form_add_value_schema(f, ps, label, sf);
	ff->depth = depth;
	if (!sf && js && srtctl_schema_description(js))
		note_srtctl_only(ff, ps, js);
	enum doc_kind kind = doc_node_kind(n);
	int collapsed = 0;
	if ((kind == DOC_MAP || kind == DOC_SEQ) && doc_node_count(n)) {
		ff->flags |= FFL_COLLAPSIBLE;
		if (form_is_collapsed(f, ps)) {
			ff->flags |= FFL_COLLAPSED;
			collapsed = 1;
		}
	}
	free(ps); /* ff may move when the form grows: do not use it below */
	if (collapsed)
		return;
	if (kind == DOC_MAP) {
		for (size_t i = 0; i < doc_node_count(n); i++) {
			const struct doc_node *kn = doc_node_key(n, i), *vn = doc_node_child(n, i);
			if (!kn || !vn)
				continue;
			const char *key = doc_node_text(kn);
			const struct schema_field *cs = sf ? schema_child(sf, key, variant) : NULL;
			path_push_key(p, key);
			add_node(a, f, vn, p, cs, depth + 1, key, variant, srtctl_schema_child(js, key));
			path_pop(p);
		}
		if (sf || js)
			add_absent(f, n, p, sf, depth + 1, variant, js);
	} else if (kind == DOC_SEQ) {
		const struct schema_field *cs = sf ? schema_child(sf, NULL, variant) : NULL;
		json_t *jit = srtctl_schema_item(js);
		for (size_t i = 0; i < doc_node_count(n); i++) {
			const struct doc_node *it = doc_node_child(n, i);
			if (!it)
				continue;
			const char *nm = item_name(it);
			char *lab = nm ? xasprintf("[%zu] %s", i, nm) : xasprintf("[%zu]", i);
			path_push_index(p, i);
			add_node(a, f, it, p, cs, depth + 1, lab, variant, jit);
			path_pop(p);
			free(lab);
		}
	}
}

static void editor_build(struct app *a, struct form *f)
{
	const struct app_state *st = app_state(a);
	const char *variant = st->root ? st->recipe.engine : NULL;
	const struct doc_node *root = doc_root(app_doc(a));
	const struct schema_field *rs = schema_root();
	json_t *js = srtctl_schema_root();
	struct path p = PATH_INIT;
	if (root && doc_node_kind(root) == DOC_MAP) {
		for (size_t i = 0; i < doc_node_count(root); i++) {
			const struct doc_node *kn = doc_node_key(root, i), *vn = doc_node_child(root, i);
			if (!kn || !vn)
				continue;
			const char *key = doc_node_text(kn);
			path_push_key(&p, key);
			add_node(a, f, vn, &p, rs ? schema_child(rs, key, variant) : NULL, 0, key, variant,
				 srtctl_schema_child(js, key));
			path_pop(&p);
		}
	}
	if (rs)
		add_absent(f, root && doc_node_kind(root) == DOC_MAP ? root : NULL, &p, rs, 0, variant, js);
	path_release(&p);
}

/* item: the schema entry of the value asked for (a string-only field keeps
 * the text as a string), or NULL for a plain YAML value. */
static json_t *ask_value(struct app *a, const char *title, const struct schema_field *item)
{
	char *text = app_prompt(a, title, "");
	if (!text)
		return NULL;
	if (item && (item->types & ~SCHEMA_NULL) == SCHEMA_STR) {
		json_t *s = json_string(text);
		free(text);
		return s;
	}
	char *err = NULL;
	json_t *v = schema_parse_text(item, text, &err);
	if (!v) {
		app_error(a, "'%s' is not a YAML value: %s", text, err ? err : "parse error");
		free(err);
	}
	free(text);
	return v;
}

static void add_key(struct app *a, const char *map_path)
{
	char *key = app_prompt(a, *map_path ? "New key" : "New top-level key", "");
	if (!key || !*key) {
		free(key);
		return;
	}
	struct path p = PATH_INIT;
	char *err = NULL;
	if (*map_path && path_parse(&p, map_path, PATH_NAMES, &err)) {
		app_error(a, "%s", err);
		free(err);
		free(key);
		path_release(&p);
		return;
	}
	path_push_key(&p, key);
	char *full = path_format(&p, (size_t)-1);
	char *title = xasprintf("Value of %s (YAML: 8, text, [a, b], {k: v})", full);
	json_t *v = ask_value(a, title, schema_find_text(full));
	if (v && !app_set(a, full, v))
		app_focus_path(a, full);
	json_decref(v);
	free(title);
	free(full);
	free(key);
	path_release(&p);
}

static void parent_of(const char *path, char **parent, long *index)
{
	const char *dot = strrchr(path, '.'), *br = strrchr(path, '[');
	*index = -1;
	if (br && br > dot && path[strlen(path) - 1] == ']') {
		*parent = xstrndup(path, (size_t)(br - path));
		*index = strtol(br + 1, NULL, 10);
		return;
	}
	*parent = dot ? xstrndup(path, (size_t)(dot - path)) : xstrdup("");
}

/* Keep text the user wrote that cannot be used yet, beside the recipe (or in
 * the temp folder for a recipe without a file): created new, mode 0600. */
static char *keep_text(struct app *a, const char *text, size_t len)
{
	const char *rp = app_path(a);
	char *tmpl = rp ? xasprintf("%s.edited-XXXXXX.yaml", rp)
			: xstrdup("/tmp/srt-tui-edited-XXXXXX.yaml");
	int fd = mkostemps(tmpl, 5, O_CLOEXEC);
	if (fd < 0 && rp) {
		free(tmpl);
		tmpl = xstrdup("/tmp/srt-tui-edited-XXXXXX.yaml");
		fd = mkostemps(tmpl, 5, O_CLOEXEC);
	}
	size_t off = 0;
	while (fd >= 0 && off < len) {
		ssize_t w = write(fd, text + off, len - off);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	if (fd < 0 || off < len || fsync(fd) || close(fd)) {
		if (fd >= 0)
			unlink(tmpl);
		free(tmpl);
		return NULL;
	}
	return tmpl;
}

/* E: the whole recipe in $EDITOR.  Text that does not load (a YAML error, a
 * NUL byte) is never dropped: the user edits it again, keeps it as a file,
 * or discards it, having been told why. */
static void edit_whole(struct app *a)
{
	size_t len;
	const char *cur = doc_text(app_doc(a), &len);
	char *text = xmalloc(len + 1);
	memcpy(text, cur, len);
	text[len] = '\0';
	for (;;) {
		size_t olen;
		char *out = app_edit_external_n(a, text, len, &olen);
		if (!out)
			break;
		free(text);
		text = out;
		len = olen;
		char *err = NULL;
		const char *nul = memchr(text, '\0', len);
		if (nul)
			err = xasprintf("it has a NUL byte at byte %zu, which a recipe cannot hold",
					(size_t)(nul - text));
		else if (!doc_replace_text(app_doc(a), text, len, &err)) {
			app_message(a, "replaced the recipe with the edited text (u undoes)");
			break;
		}
		char *q = xasprintf("The edited text cannot be used: %s\n"
				    "e: edit it again   k: keep it as a file   d: discard it",
				    err ? err : "it does not load");
		free(err);
		int k = app_confirm(a, "Edited text not used", q, "ekd");
		free(q);
		if (k == 'e')
			continue;
		if (k == 'd') {
			app_message(a, "discarded the edited text; the recipe is unchanged");
		} else {
			/* k, and also Esc or a hangup: nothing the user typed is dropped
			 * without being asked */
			char *kept = keep_text(a, text, len);
			if (kept)
				app_message(a, "kept the edited text in '%s'; the recipe is unchanged", kept);
			else
				app_error(a, "cannot keep the edited text: %s", strerror(errno));
			free(kept);
		}
		break;
	}
	free(text);
}

static int editor_key(struct app *a, struct form *f, int key)
{
	struct form_field *ff = form_focused(f);
	if (key == 'E') {
		edit_whole(a);
		return 1;
	}
	if (key == 'H') {
		if (!f->user) {
			f->user = xcalloc(1, sizeof(struct editor_opts));
			f->user_free = free;
		}
		struct editor_opts *o = f->user;
		o->hide_absent = !o->hide_absent;
		/* rebuild now: the set of fields changed */
		form_clear(f);
		editor_build(a, f);
		form_focus_first(f);
		app_message(a, o->hide_absent ? "showing only the fields the recipe sets (H: all)"
					      : "showing every field, absent ones with their defaults (H: set only)");
		return 1;
	}
	if (key != 'a' && key != K_FN(KEY_IC))
		return 0;
	if (!ff || ff->kind != FF_VALUE || !ff->path) {
		add_key(a, "");
		return 1;
	}
	if (ff->flags & FFL_ABSENT) {
		form_edit_field(a, ff);
		return 1;
	}
	char *path = xstrdup(ff->path);
	const struct doc_node *n = app_node(a, path);
	if (n && doc_node_kind(n) == DOC_MAP) {
		add_key(a, path);
	} else if (n && doc_node_kind(n) == DOC_SEQ) {
		char *t = xasprintf("New item at the end of %s", path);
		const struct schema_field *ls = schema_find_text(path);
		json_t *v = ask_value(a, t, ls ? schema_child(ls, NULL, NULL) : NULL);
		if (v)
			app_insert(a, path, doc_node_count(n), v);
		json_decref(v);
		free(t);
	} else {
		char *parent;
		long idx;
		parent_of(path, &parent, &idx);
		if (idx >= 0) {
			char *t = xasprintf("New item after %s", path);
			json_t *v = ask_value(a, t, schema_find_text(path));
			if (v)
				app_insert(a, parent, (size_t)idx + 1, v);
			json_decref(v);
			free(t);
		} else {
			add_key(a, parent);
		}
		free(parent);
	}
	free(path);
	return 1;
}

const struct app_screen editor_screen = { "Fields", editor_build, editor_key,
					  SCREEN_ANY_FILE | SCREEN_VALUES_DRAWN };
