/* screen_variants.c — the Variants screen (screen_variants.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "model/ops.h"
#include "model/override.h"
#include "model/path.h"
#include "model/scalar.h"
#include "model/schema.h"
#include "tui/draw.h"
#include "tui/screen_variants.h"
#include "tui/variants.h"
#include "tui/wizard.h"

#define MAX_CHANGES 6   /* changed values listed under a variant */
#define MAX_VALUES 400  /* value rows of the chosen variant */

enum row_kind { ROW_VARIANT, ROW_VALUE };

/* One selectable line; freed with the form. */
struct row {
	enum row_kind kind;
	size_t idx;   /* ROW_VARIANT */
	char *path;   /* ROW_VALUE: path in the variant */
	char *text;
};

static void row_free(void *p)
{
	struct row *r = p;
	free(r->path);
	free(r->text);
	free(r);
}

static void row_draw(struct app *a, struct form_field *ff, WINDOW *w, int y, int x, int width,
		     int height, int focused)
{
	struct row *r = ff->data;
	int ind = 2 + ff->depth * 2;
	attr_t at = focused ? app_attr(a, TH_FOCUS) : app_attr(a, TH_NORMAL);
	if (focused)
		draw_fill(w, y, x, 1, width, at);
	draw_str(w, y, x + ind, width - ind, r->text, at);
	(void)height;
}

static void edit_value(struct app *a, const char *path);

static int row_activate(struct app *a, struct form_field *ff)
{
	struct row *r = ff->data;
	if (r->kind == ROW_VARIANT) {
		app_select_variant(a, r->idx);
		const struct variant *v = &app_variants(a)->list.v[r->idx];
		app_message(a, "previews and values follow %s (job %s)", v->label ? v->label : "?",
			    v->job_name ? v->job_name : "(no name)");
	} else {
		char *p = xstrdup(r->path);
		edit_value(a, p);
		free(p);
	}
	return 1;
}

static int row_key(struct app *a, struct form_field *ff, int key)
{
	if (key == K_ENTER || key == ' ')
		return row_activate(a, ff);
	return 0;
}

static int row_click(struct app *a, struct form_field *ff, int row, int col)
{
	(void)row;
	(void)col;
	return row_activate(a, ff);
}

static const struct form_widget row_widget = { NULL, row_draw, row_key, row_click };

static void add_row(struct form *f, enum row_kind kind, size_t idx, const char *id,
		    const char *path, char *text, int depth)
{
	struct row *r = xcalloc(1, sizeof(*r));
	r->kind = kind;
	r->idx = idx;
	r->path = path ? xstrdup(path) : NULL;
	r->text = text;
	form_add_custom(f, id, &row_widget, r, row_free)->depth = depth;
}

/* ---- the picker -------------------------------------------------------------- */

static void add_variant(struct app *a, struct form *f, const struct variant_state *vs, size_t i,
			size_t sel)
{
	const struct variant *v = &vs->list.v[i];
	struct strbuf sb = STRBUF_INIT;
	if (i < vs->njobs)
		strbuf_addf(&sb, "%s [%zu/%zu] ", i == sel ? "*" : " ", i + 1, vs->njobs);
	else
		strbuf_addf(&sb, "%s [base]  ", i == sel ? "*" : " ");
	strbuf_addf(&sb, "%s", v->label ? v->label : "(recipe)");
	if (v->selector && vs->form == RECIPE_OVERRIDE)
		strbuf_addf(&sb, "   :%s", v->selector);
	strbuf_addf(&sb, "   job %s", v->job_name ? v->job_name : "(no name)");
	char *id = xasprintf("variant:%s", v->label ? v->label : "");
	add_row(f, ROW_VARIANT, i, id, NULL, strbuf_detach(&sb, NULL), 0);
	free(id);

	char *params = variant_params_text(v);
	if (*params) {
		char *t = xasprintf("      %s", params);
		form_add_text(f, t);
		free(t);
	}
	free(params);
	if (v->kind == VARIANT_SWEEP && vs->form == RECIPE_SWEEP)
		return; /* the parameters are the whole difference */
	struct change_list cl = CHANGE_LIST_INIT;
	variant_changes(v, &cl);
	for (size_t k = 0; k < cl.n && k < MAX_CHANGES; k++) {
		struct strbuf c = STRBUF_INIT;
		strbuf_addstr(&c, "      ");
		change_format(&c, &cl.v[k]);
		form_add_text(f, sb_str(&c));
		strbuf_release(&c);
	}
	if (cl.n > MAX_CHANGES) {
		char *t = xasprintf("      ... and %zu more changed values", cl.n - MAX_CHANGES);
		form_add_text(f, t);
		free(t);
	}
	if (!cl.n && v->kind != VARIANT_BASE && v->kind != VARIANT_PLAIN)
		form_add_text(f, "      (same values as base)");
	change_list_release(&cl);
	(void)a;
}

/* ---- the chosen variant's values ------------------------------------------------ */

static void add_leaves(struct app *a, struct form *f, const struct variant_state *vs, size_t vi,
		       const json_t *v, struct path *p, size_t *count)
{
	if (*count >= MAX_VALUES)
		return;
	if (json_is_object(v) && json_object_size(v)) {
		const char *k;
		json_t *c;
		json_object_foreach((json_t *)v, k, c) {
			path_push_key(p, k);
			add_leaves(a, f, vs, vi, c, p, count);
			path_pop(p);
		}
		return;
	}
	char *ps = path_format(p, (size_t)-1);
	const char *who = NULL;
	variant_where(vs, vi, ps, NULL, &who);
	struct strbuf sb = STRBUF_INIT;
	if (json_is_string(v))
		strbuf_addstr(&sb, json_string_value(v));
	else
		scalar_emit_json(&sb, v, STYLE_ANY, 0);
	char *text = xasprintf("%-36s %s   [%s]", ps, sb_str(&sb), who);
	char *id = xasprintf("value:%s", ps);
	add_row(f, ROW_VALUE, vi, id, ps, text, 1);
	free(id);
	free(ps);
	strbuf_release(&sb);
	(*count)++;
}

/* ---- value edits ---------------------------------------------------------------- */

static json_t *typed(const char *path, const char *text, const json_t *cur, char **err)
{
	const struct schema_field *s = schema_find_text(path);
	if (s && (s->types & ~SCHEMA_NULL) == SCHEMA_STR)
		return json_string(text);
	if (!s && json_is_string(cur)) {
		json_t *v = scalar_parse_value(text, err);
		if (v && !json_is_object(v))
			return v;
		json_decref(v);
		free(*err);
		*err = NULL;
		return json_string(text);
	}
	return schema_parse_text(s, text, err);
}

/* The value at path text in t (borrowed), NULL when absent or not a path. */
static const json_t *tree_get(const json_t *t, const char *path)
{
	struct path p = PATH_INIT;
	char *err = NULL;
	const json_t *v = NULL;
	if (!path_parse(&p, path, PATH_NAMES, &err))
		v = tree_lookup(t, &p, p.n);
	free(err);
	path_release(&p);
	return v;
}

static void edit_value(struct app *a, const char *path)
{
	const struct variant_state *vs = app_variants(a);
	size_t vi = app_variant(a);
	if (vi >= vs->list.n)
		return;
	const struct variant *v = &vs->list.v[vi];
	char *fpath = NULL;
	const char *who = NULL;
	enum origin o = variant_where(vs, vi, path, &fpath, &who);
	enum edit_place where = EDIT_BASE;
	int kind = v->kind == VARIANT_SWEEP ? v->parent_kind : v->kind;
	if (vs->form == RECIPE_OVERRIDE && kind != VARIANT_BASE) {
		char *q = xasprintf("Now set in: %s%s%s%s\n"
				    "b: in base (every variant that does not set it itself)\n"
				    "s: in %s (this variant)   c: cancel",
				    who, fpath ? " (" : "", fpath ? fpath : "", fpath ? ")" : "",
				    v->selector ? v->selector : v->section_key);
		char *title = xasprintf("Change %s", path);
		int k = app_confirm(a, title, q, o == ORIGIN_SECTION ? "sbc" : "bsc");
		free(q);
		free(title);
		if (k != 'b' && k != 's') {
			free(fpath);
			return;
		}
		where = k == 'b' ? EDIT_BASE : EDIT_SECTION;
	}
	free(fpath);
	const json_t *cur = tree_get(v->tree, path);
	char *curtext = NULL;
	if (json_is_string(cur)) {
		curtext = xstrdup(json_string_value(cur));
	} else if (cur) {
		struct strbuf sb = STRBUF_INIT;
		scalar_emit_json(&sb, cur, STYLE_ANY, 0);
		curtext = strbuf_detach(&sb, NULL);
	}
	char *title = xasprintf("%s (%s)", path, where == EDIT_BASE ? "base" : "this variant");
	char *text = app_prompt(a, title, curtext ? curtext : "");
	free(title);
	if (!text) {
		free(curtext);
		return;
	}
	char *err = NULL;
	json_t *val = typed(path, text, cur, &err);
	if (!val) {
		app_error(a, "'%s' is not a YAML value: %s", text, err ? err : "parse error");
		free(err);
		free(text);
		free(curtext);
		return;
	}
	struct variant_edit e;
	if (variant_edit_plan(vs, vi, path, where, val, &e, &err)) {
		app_error(a, "%s", err);
		free(err);
	} else {
		int go = 1;
		if (e.widens)
			go = app_confirm(a, "One value per variant", e.note, "yn") == 'y';
		if (go && !app_set(a, e.path, e.value)) {
			if (e.note && !e.widens)
				app_message(a, "set %s; %s", e.path, e.note);
			else
				app_message(a, "set %s", e.path);
		}
		variant_edit_release(&e);
	}
	json_decref(val);
	free(text);
	free(curtext);
}

/* ---- sweep block --------------------------------------------------------------- */

static int add_param(struct app *a, struct form_field *ff)
{
	(void)ff;
	char *name = app_prompt(a, "Sweep parameter name (used as {name} in values)", "");
	if (!name || !*name) {
		free(name);
		return 0;
	}
	char *vals = app_prompt(a, "Its values, as a YAML list", "[1, 2]");
	if (vals) {
		char *err = NULL;
		json_t *v = scalar_parse_value(vals, &err);
		if (!json_is_array(v)) {
			app_error(a, "'%s' is not a list: write the values as [a, b, c]", vals);
		} else {
			struct strbuf p = STRBUF_INIT;
			strbuf_addstr(&p, "sweep");
			wiz_path_key(&p, name);
			if (!app_set(a, sb_str(&p), v))
				app_message(a, "added sweep parameter '%s': use \"{%s}\" in a value", name,
					    name);
			strbuf_release(&p);
		}
		json_decref(v);
		free(err);
		free(vals);
	}
	free(name);
	return 0;
}

static int uses_placeholder(const json_t *v, const char *needle)
{
	if (json_is_string(v))
		return strstr(json_string_value(v), needle) != NULL;
	const char *k;
	json_t *c;
	size_t i;
	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, k, c) {
			if (strcmp(k, "sweep") && uses_placeholder(c, needle))
				return 1;
		}
	} else if (json_is_array(v)) {
		json_array_foreach((json_t *)v, i, c) {
			if (uses_placeholder(c, needle))
				return 1;
		}
	}
	return 0;
}

static void sweep_block(struct app *a, struct form *f, const struct variant_state *vs)
{
	json_t *sw = json_object_get(vs->root, "sweep");
	char *h = xasprintf("Sweep block: %zu job%s (last parameter varies fastest)", vs->njobs,
			    vs->njobs == 1 ? "" : "s");
	form_add_heading(f, h);
	free(h);
	const char *k;
	json_t *vals;
	json_object_foreach(sw, k, vals) {
		struct strbuf p = STRBUF_INIT;
		strbuf_addstr(&p, "sweep");
		wiz_path_key(&p, k);
		form_add_value(f, sb_str(&p), k)->depth = 1;
		strbuf_release(&p);
		char *needle = xasprintf("{%s}", k);
		if (!uses_placeholder(vs->root, needle)) {
			char *t = xasprintf("    W no value uses \"%s\": every job gets the same recipe",
					    needle);
			form_add_text(f, t);
			free(t);
		}
		free(needle);
	}
	form_add_button(f, "+ Add a parameter", add_param, NULL)->depth = 1;
	(void)a;
}

/* ---- conversions ----------------------------------------------------------------- */

char *variants_override_text(const char *text, size_t len, const char *name, size_t *out_len)
{
	struct strbuf head = STRBUF_INIT, body = STRBUF_INIT;
	const char *nl = "\n";
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		strbuf_add(&head, text, 3);
		text += 3;
		len -= 3;
	}
	const char *first_nl = memchr(text, '\n', len);
	if (first_nl && first_nl > text && first_nl[-1] == '\r')
		nl = "\r\n";
	for (size_t i = 0; i < len;) {
		const char *e = memchr(text + i, '\n', len - i);
		size_t n = e ? (size_t)(e - (text + i)) + 1 : len - i;
		const char *l = text + i;
		size_t content = n;
		while (content && (l[content - 1] == '\n' || l[content - 1] == '\r'))
			content--;
		if (!strncmp(l, "schema:", 7) && content >= 7) {
			strbuf_add(&head, l, content);
			strbuf_addstr(&head, nl);
		} else {
			if (content)
				strbuf_addstr(&body, "  ");
			strbuf_add(&body, l, n);
			if (!e)
				strbuf_addstr(&body, nl);
		}
		i += n;
	}
	strbuf_addf(&head, "base:%s", nl);
	strbuf_add(&head, sb_str(&body), body.len);
	strbuf_addf(&head, "%soverride_%s: {}%s", nl, name, nl);
	strbuf_release(&body);
	return strbuf_detach(&head, out_len);
}

static int valid_suffix(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '.' || *s == '-'))
			return 0;
	return 1;
}

int variants_make_override(struct app *a, struct form_field *ff)
{
	(void)ff;
	struct doc *d = app_doc(a);
	json_t *before = doc_json(d);
	if (!json_is_object(before) || json_object_get(before, "base")) {
		app_error(a, "this is already an override file: add sections in the Fields tree");
		json_decref(before);
		return 0;
	}
	char *name = app_prompt(a, "Name of the first variant (override_<name>)", "variant1");
	if (!name || !valid_suffix(name)) {
		if (name)
			app_error(a, "'%s' cannot be selected as :override_%s: use letters, digits, "
				     "'_', '.' and '-'", name, name);
		free(name);
		json_decref(before);
		return 0;
	}
	size_t len, nlen;
	const char *text = doc_text(d, &len);
	char *nt = variants_override_text(text, len, name, &nlen);
	char *err = NULL;
	doc_begin(d); /* kept only when it reads back as the same recipe */
	if (doc_replace_text(d, nt, nlen, &err)) {
		doc_abort(d);
		app_error(a, "cannot make an override file: %s", err);
		free(err);
	} else {
		/* Verify by reading it back: base must be the recipe as it was. */
		json_t *after = doc_json(d);
		json_t *base = json_deep_copy(before);
		json_t *top = json_object_get(after, "schema");
		if (top && json_is_object(base))
			json_object_del(base, "schema");
		char *sec = xasprintf("override_%s", name);
		json_t *s = json_object_get(after, sec);
		if (!json_is_object(after) || !json_equal(json_object_get(after, "base"), base) ||
		    !json_is_object(s) || json_object_size(s)) {
			doc_abort(d);
			app_error(a, "cannot make an override file: the re-indented text does not read "
				     "back as the same recipe (block scalars with indentation indicators?)");
		} else {
			doc_commit(d);
			app_message(a, "moved the recipe under base: and added an empty %s (u undoes); "
				       "edit its values on the Variants screen", sec);
		}
		free(sec);
		json_decref(base);
		json_decref(after);
	}
	free(nt);
	free(name);
	json_decref(before);
	return 0;
}

int variants_add_sweep(struct app *a, struct form_field *ff)
{
	(void)ff;
	struct doc *d = app_doc(a);
	json_t *root = doc_json(d);
	if (json_object_get(root, "base")) {
		app_error(a, "sweeps of an override file go in base or a section: use the Fields tree");
		json_decref(root);
		return 0;
	}
	char *field = app_prompt(a, "Sweep over which field (a path, e.g. roles.agg.args.max-num-seqs)",
				 "");
	if (!field || !*field) {
		free(field);
		json_decref(root);
		return 0;
	}
	const json_t *cur = tree_get(root, field);
	const char *last = strrchr(field, '.');
	char *param = xstrdup(last ? last + 1 : field);
	for (char *p = param; *p; p++)
		if (*p == '-' || *p == '[' || *p == ']' || *p == '"' || *p == '\'')
			*p = '_';
	char *pname = app_prompt(a, "Parameter name", param);
	struct strbuf init = STRBUF_INIT;
	strbuf_addch(&init, '[');
	if (cur && !json_is_object(cur) && !json_is_array(cur))
		scalar_emit_json(&init, cur, STYLE_ANY, 1);
	strbuf_addch(&init, ']');
	char *vals = pname && *pname ? app_prompt(a, "Values, as a YAML list", sb_str(&init)) : NULL;
	if (vals) {
		char *err = NULL;
		json_t *v = scalar_parse_value(vals, &err);
		if (!json_is_array(v) || !json_array_size(v)) {
			app_error(a, "'%s' is not a list of values: write [a, b, c]", vals);
		} else {
			char *ph = xasprintf("{%s}", pname), *e2 = NULL;
			if (ops_add_sweep(d, field, pname, v, &e2)) {
				app_error(a, "%s", e2 ? e2 : "the sweep was refused");
			} else {
				app_message(a, "%s is now \"%s\", swept over %s (u undoes)", field, ph, vals);
			}
			free(e2);
			free(ph);
		}
		json_decref(v);
		free(err);
	}
	free(vals);
	free(pname);
	strbuf_release(&init);
	free(param);
	free(field);
	json_decref(root);
	return 0;
}

/* The order the variants are listed in: the file's.  vs->list is in
 * srtctl's order (sections sorted by name, base last), which put a variant
 * the user wrote first anywhere in the list.  An entry sits where its
 * section (or `base`) is in the file; the jobs of one section, and the jobs
 * of a sweep file, keep their order. */
struct file_pos {
	size_t key, i;
};

static int cmp_pos(const void *x, const void *y)
{
	const struct file_pos *a = x, *b = y;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static size_t *file_order(const struct variant_state *vs)
{
	size_t n = vs->list.n;
	struct file_pos *pos = xcalloc(n + 1, sizeof(*pos));
	for (size_t i = 0; i < n; i++) {
		const struct variant *v = &vs->list.v[i];
		const char *want = v->section_key ? v->section_key
				   : v->label && !strcmp(v->label, "base") && i >= vs->njobs ? "base"
											 : NULL;
		size_t k = 0, at = SIZE_MAX;
		const char *key;
		json_t *val;
		if (want && json_is_object(vs->root))
			json_object_foreach(vs->root, key, val) {
				if (!strcmp(key, want)) {
					at = k;
					break;
				}
				k++;
			}
		pos[i].key = at == SIZE_MAX ? SIZE_MAX - 1 : at;
		pos[i].i = i;
	}
	qsort(pos, n, sizeof(*pos), cmp_pos);
	size_t *order = xcalloc(n + 1, sizeof(*order));
	for (size_t i = 0; i < n; i++)
		order[i] = pos[i].i;
	free(pos);
	return order;
}

/* ---- the screen -------------------------------------------------------------------- */

static void variants_build(struct app *a, struct form *f)
{
	const struct variant_state *vs = app_variants(a);
	size_t sel = app_variant(a);
	char *h;
	switch (vs->form) {
	case RECIPE_OVERRIDE:
		h = xasprintf("Override file: %zu job%s (base alone is selected with FILE:base)",
			      vs->njobs, vs->njobs == 1 ? "" : "s");
		break;
	case RECIPE_SWEEP:
		h = xasprintf("Sweep: %zu job%s", vs->njobs, vs->njobs == 1 ? "" : "s");
		break;
	default:
		h = xstrdup("A single recipe: one job");
		break;
	}
	form_add_heading(f, h);
	free(h);
	if (vs->error) {
		h = xasprintf("E %s", vs->error);
		form_add_text(f, h);
		free(h);
	}
	if (vs->form != RECIPE_PLAIN) {
		form_add_text(f, "Enter picks the variant the previews and the values below follow.");
		size_t *order = file_order(vs);
		for (size_t i = 0; i < vs->list.n; i++)
			add_variant(a, f, vs, order[i], sel);
		free(order);
	}
	if (vs->form == RECIPE_SWEEP)
		sweep_block(a, f, vs);
	if (vs->form != RECIPE_OVERRIDE) {
		form_add_heading(f, "Make this file many jobs");
		form_add_button(f, "Turn it into an override file (base + a variant)",
				variants_make_override, NULL);
		form_add_button(f, "Add a sweep over a field", variants_add_sweep, NULL);
	}
	if (vs->form != RECIPE_PLAIN && sel < vs->list.n) {
		const struct variant *v = &vs->list.v[sel];
		h = xasprintf("Values of %s (Enter edits%s)", v->label ? v->label : "the job",
			      vs->form == RECIPE_OVERRIDE ? "; asks: base or the variant's section" : "");
		form_add_heading(f, h);
		free(h);
		struct path p = PATH_INIT;
		size_t count = 0;
		add_leaves(a, f, vs, sel, v->tree, &p, &count);
		path_release(&p);
		if (count >= MAX_VALUES)
			form_add_text(f, "... more values: see the Fields tree");
	}
}

const struct app_screen variants_screen = { "Variants", variants_build, NULL, SCREEN_ANY_FILE };
