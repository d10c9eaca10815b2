/* form.c — the form engine: fields, focus, drawing, value editing (form.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/doc.h"
#include "model/path.h"
#include "model/scalar.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/form.h"
#include "tui/widget.h"
#include "lib/json.h"

#define MAX_FIELD_DIAGS 4

void form_init(struct form *f)
{
	memset(f, 0, sizeof(*f));
}

/* What drawing a field found, kept while what it came from holds: the form
 * draws every field in view on every key, and a value's text (its path
 * parsed and looked up, the value formatted) and its problem rows (looked
 * up, formatted, wrapped) were most of that. */
struct field_shown {
	/* the value's text and cells, for a document generation, a variant and
	 * the field's flags (a collapsed node shows its value, not its count) */
	char *val;
	int val_w;
	unsigned long val_gen;
	size_t val_var;
	unsigned val_flags;
	/* the E/W marker (0: none) for a diagnostics serial (app_diags_serial) */
	int mark;
	unsigned long mark_serial;
	/* the problem rows and whether each is an error's, for a serial, a
	 * width and the focus */
	struct strvec rows;
	unsigned char *err;
	unsigned long rows_serial;
	int rows_width, rows_focused;
	/* a text field's rows at a width */
	struct strvec text;
	int text_width;
	/* which of the above are set */
	unsigned have;
};

enum { SHOWN_VAL = 1, SHOWN_MARK = 2, SHOWN_ROWS = 4, SHOWN_TEXT = 8 };

static struct field_shown *shown(struct form_field *ff)
{
	if (!ff->shown)
		ff->shown = xcalloc(1, sizeof(*ff->shown));
	return ff->shown;
}

static void shown_free(struct field_shown *s)
{
	if (!s)
		return;
	free(s->val);
	strvec_release(&s->rows);
	free(s->err);
	strvec_release(&s->text);
	free(s);
}

static void field_release(struct form_field *ff)
{
	if (ff->free_data && ff->data)
		ff->free_data(ff->data);
	shown_free(ff->shown);
	free(ff->path);
	free(ff->label);
	free(ff->help);
	free(ff->dflt);
	free(ff->diag_path);
}

void form_clear(struct form *f)
{
	for (size_t i = 0; i < f->n; i++)
		field_release(&f->v[i]);
	f->n = 0;
	f->focus = 0;
	f->peek = 0;
	f->serial++;
}

static int focusable(const struct form_field *ff);

void form_peek(struct form *f, size_t i, int row)
{
	if (i >= f->n)
		return;
	size_t j;
	for (j = i + 1; j < f->n && !focusable(&f->v[j]); j++)
		;
	if (j >= f->n)
		for (j = i; j-- > 0 && !focusable(&f->v[j]);)
			;
	if (j < f->n)
		f->focus = j;
	f->peek = i + 1;
	f->peek_row = row;
}

void form_release(struct form *f)
{
	form_clear(f);
	free(f->v);
	strvec_release(&f->collapsed);
	if (f->user_free && f->user)
		f->user_free(f->user);
	memset(f, 0, sizeof(*f));
}

static struct form_field *add(struct form *f, enum form_kind kind, const char *path,
			      const char *label)
{
	ALLOC_GROW(f->v, f->n + 1, f->alloc);
	f->serial++;
	struct form_field *ff = &f->v[f->n++];
	memset(ff, 0, sizeof(*ff));
	ff->kind = kind;
	ff->path = path ? xstrdup(path) : NULL;
	ff->label = label ? xstrdup(label) : NULL;
	return ff;
}

struct form_field *form_add_heading(struct form *f, const char *text)
{
	return add(f, FF_HEADING, NULL, text);
}

struct form_field *form_add_text(struct form *f, const char *text)
{
	return add(f, FF_TEXT, NULL, text);
}

static const char *last_key(const char *path)
{
	const char *dot = strrchr(path, '.');
	const char *br = strrchr(path, '[');
	const char *p = dot > br ? dot + 1 : br ? br : path;
	if (p == path && dot)
		p = dot + 1;
	return p;
}

struct form_field *form_add_value(struct form *f, const char *path, const char *label)
{
	struct form_field *ff = add(f, FF_VALUE, path, label ? label : last_key(path));
	ff->schema = schema_find_text(path);
	return ff;
}

struct form_field *form_add_value_schema(struct form *f, const char *path, const char *label,
					 const struct schema_field *sf)
{
	struct form_field *ff = add(f, FF_VALUE, path, label ? label : last_key(path));
	ff->schema = sf;
	return ff;
}

struct form_field *form_add_custom(struct form *f, const char *id, const struct form_widget *w,
				   void *data, void (*free_data)(void *))
{
	struct form_field *ff = add(f, FF_CUSTOM, id, NULL);
	ff->widget = w;
	ff->data = data;
	ff->free_data = free_data;
	return ff;
}

struct form_field *form_add_button(struct form *f, const char *label,
				   int (*action)(struct app *, struct form_field *), void *data)
{
	struct form_field *ff = add(f, FF_BUTTON, NULL, label);
	ff->action = action;
	ff->data = data;
	return ff;
}

int form_is_collapsed(const struct form *f, const char *path)
{
	for (size_t i = 0; i < f->collapsed.n; i++)
		if (!strcmp(f->collapsed.v[i], path))
			return 1;
	return 0;
}

void form_set_collapsed(struct form *f, const char *path, int collapsed)
{
	for (size_t i = 0; i < f->collapsed.n; i++)
		if (!strcmp(f->collapsed.v[i], path)) {
			if (collapsed)
				return;
			free(f->collapsed.v[i]);
			memmove(&f->collapsed.v[i], &f->collapsed.v[i + 1],
				(f->collapsed.n - i) * sizeof(char *)); /* includes the NULL */
			f->collapsed.n--;
			return;
		}
	if (collapsed)
		strvec_push(&f->collapsed, path);
}

static int focusable(const struct form_field *ff)
{
	return ff->kind == FF_VALUE || ff->kind == FF_CUSTOM || ff->kind == FF_BUTTON;
}

struct form_field *form_focused(struct form *f)
{
	if (!f || f->focus >= f->n || !focusable(&f->v[f->focus]))
		return NULL;
	return &f->v[f->focus];
}

void form_focus_first(struct form *f)
{
	for (f->focus = 0; f->focus < f->n && !focusable(&f->v[f->focus]); f->focus++)
		;
}

int form_focus_path(struct form *f, const char *path)
{
	for (size_t i = 0; i < f->n; i++) {
		struct form_field *ff = &f->v[i];
		if (!focusable(ff))
			continue;
		if ((ff->path && !strcmp(ff->path, path)) ||
		    (!ff->path && ff->label && !strcmp(ff->label, path))) {
			f->focus = i;
			return 1;
		}
	}
	return 0;
}

void form_focus_save(const struct form *f, struct form_focus_key *k)
{
	memset(k, 0, sizeof(*k));
	if (!f || f->focus >= f->n || !focusable(&f->v[f->focus]))
		return;
	const struct form_field *ff = &f->v[f->focus];
	k->set = 1;
	k->index = f->focus;
	k->path = ff->path ? xstrdup(ff->path) : NULL;
	k->label = ff->label ? xstrdup(ff->label) : NULL;
	if (ff->kind == FF_BUTTON && ff->action && !ff->free_data) {
		k->action = ff->action;
		k->data = ff->data;
	}
}

int form_focus_restore(struct form *f, struct form_focus_key *k)
{
	int found = 0;
	if (k->set && k->path)
		found = form_focus_path(f, k->path);
	for (size_t i = 0; !found && k->action && i < f->n; i++)
		if (f->v[i].kind == FF_BUTTON && f->v[i].action == k->action &&
		    f->v[i].data == k->data && !f->v[i].free_data) {
			f->focus = i;
			found = 1;
		}
	if (!found && k->label)
		found = form_focus_path(f, k->label);
	if (!found) {
		if (k->set && k->index < f->n) {
			f->focus = k->index;
			if (!form_focused(f))
				form_focus_first(f);
		} else {
			form_focus_first(f);
		}
	}
	free(k->path);
	free(k->label);
	memset(k, 0, sizeof(*k));
	return found;
}

/* ---- values ---------------------------------------------------------------- */

char *form_field_value(struct app *a, const struct form_field *ff)
{
	if (ff->kind != FF_VALUE)
		return xstrdup("");
	const struct doc_node *n = app_node(a, ff->path);
	if (!n && ff->path) {
		/* a value the cluster file fills in: its effective value and source */
		const struct app_state *st = app_state(a);
		const struct cluster_prov *pv = cluster_prov_find(&st->provs, ff->path);
		if (pv) {
			json_t *v = st->root ? st->recipe.root : NULL;
			char *copy = xstrdup(ff->path), *save = NULL;
			for (char *k = strtok_r(copy, ".", &save); k && v; k = strtok_r(NULL, ".", &save))
				v = json_is_object(v) ? json_object_get(v, k) : NULL;
			free(copy);
			char *txt = v ? (json_is_string(v) ? xstrdup(json_string_value(v))
					     : json_text(v, JSON_ENCODE_ANY | JSON_COMPACT)) : NULL;
			char *out = xasprintf("(cluster: %s)", txt ? txt : "?");
			free(txt);
			return out;
		}
	}
	if (!n) {
		if (ff->dflt)
			return xasprintf("(default: %s)", ff->dflt);
		if (ff->schema && ff->schema->dflt)
			return xasprintf("(default: %s)", ff->schema->dflt);
		return xstrdup(ff->absent ? ff->absent : "(not set)");
	}
	switch (doc_node_kind(n)) {
	case DOC_SCALAR: {
		const char *t = doc_node_text(n);
		if (!*t && doc_node_style(n) == STYLE_PLAIN)
			return xstrdup("(null)");
		return xstrdup(t);
	}
	case DOC_ALIAS:
		return xasprintf("*%s", doc_node_text(n));
	default:
		break;
	}
	if ((ff->flags & FFL_COLLAPSIBLE) && !(ff->flags & FFL_COLLAPSED)) {
		size_t c = doc_node_count(n);
		return xasprintf(doc_node_kind(n) == DOC_SEQ ? "(%zu item%s)" : "(%zu key%s)", c,
				 c == 1 ? "" : "s");
	}
	json_t *v = doc_node_json(app_doc(a), n);
	struct strbuf sb = STRBUF_INIT;
	if (v)
		scalar_emit_json(&sb, v, STYLE_ANY, 0);
	else
		strbuf_addstr(&sb, "(too large to show)");
	json_decref(v);
	return strbuf_detach(&sb, NULL);
}

char *form_field_help(struct app *a, const struct form_field *ff)
{
	struct strbuf sb = STRBUF_INIT;
	const struct schema_field *s = ff->schema;
	if (ff->path)
		strbuf_addf(&sb, "%s\n\n", ff->path);
	if (ff->help)
		strbuf_addf(&sb, "%s\n", ff->help);
	else if (s) {
		if (s->help)
			strbuf_addf(&sb, "%s.\n", s->help);
		if (s->long_help)
			strbuf_addf(&sb, "\n%s\n", s->long_help);
	} else if (ff->kind == FF_VALUE) {
		strbuf_addstr(&sb, "A key srt-tui does not know: it is kept as written and "
				   "edited as a plain YAML value.\n");
	}
	if (s) {
		char buf[160];
		strbuf_addf(&sb, "\nType: %s\n", schema_type_text(s, buf, sizeof(buf)));
		if (ff->dflt || s->dflt)
			strbuf_addf(&sb, "Default: %s\n", ff->dflt ? ff->dflt : s->dflt);
		if (s->flags & SF_REQUIRED)
			strbuf_addstr(&sb, "Required.\n");
		const char *const *ch = ff->choices ? ff->choices : s->allowed;
		if (ch && *ch) {
			strbuf_addstr(&sb, (s->flags & SF_SUGGEST) ? "Suggested values:" : "Allowed values:");
			for (; *ch; ch++)
				strbuf_addf(&sb, " %s", *ch);
			strbuf_addch(&sb, '\n');
		}
	}
	if (ff->kind == FF_VALUE && ff->path) {
		const struct diag *d[MAX_FIELD_DIAGS * 4];
		size_t nd = app_diags_for(a, ff->path, d, MAX_FIELD_DIAGS * 4);
		if (nd)
			strbuf_addstr(&sb, "\nProblems:\n");
		for (size_t i = 0; i < nd; i++) {
			strbuf_addf(&sb, "  %s %s\n", d[i]->severity == DIAG_ERROR ? "E" : "W",
				    d[i]->message);
			if (d[i]->hint)
				strbuf_addf(&sb, "    hint: %s\n", d[i]->hint);
		}
	}
	return strbuf_detach(&sb, NULL);
}

/* Text typed for a field -> the value to store. */
static json_t *typed_value(const struct form_field *ff, const json_t *cur, const char *text,
			   char **err)
{
	const struct schema_field *s = ff->schema;
	if (ff->flags & FFL_STRING)
		return json_string(text);
	if (!(ff->flags & FFL_YAML)) {
		unsigned t = s ? s->types & ~SCHEMA_NULL : 0;
		if (t == SCHEMA_STR)
			return json_string(text);
		if (!s && cur && json_is_string(cur)) {
			/* an unknown key that holds a string: keep it a string unless
			 * the text is clearly something else in YAML */
			json_t *v = scalar_parse_value(text, err);
			if (v && (json_is_string(v) || !json_is_object(v)))
				return v;
			json_decref(v);
			free(*err);
			*err = NULL;
			return json_string(text);
		}
	}
	return schema_parse_text(s, text, err);
}

static void commit_text(struct app *a, struct form_field *ff, const json_t *cur, const char *text)
{
	char *err = NULL;
	json_t *v = typed_value(ff, cur, text, &err);
	if (!v) {
		app_error(a, "'%s' is not a YAML value: %s", text, err ? err : "parse error");
		free(err);
		return;
	}
	app_set(a, ff->path, v);
	json_decref(v);
}

static const char *const bool_choices[] = { "true", "false", NULL };

/* The default of an absent field as the text a choice list shows (the
 * schema writes it as YAML flow text: "\"workers\"", false); NULL when none. */
static char *default_text(const struct form_field *ff)
{
	const char *d = ff->dflt ? ff->dflt : ff->schema ? ff->schema->dflt : NULL;
	if (!d)
		return NULL;
	char *err = NULL;
	json_t *v = scalar_parse_value(d, &err);
	free(err);
	char *out = NULL;
	if (v && json_is_string(v))
		out = xstrdup(json_string_value(v));
	else if (v) {
		struct strbuf sb = STRBUF_INIT;
		scalar_emit_json(&sb, v, STYLE_ANY, 0);
		out = strbuf_detach(&sb, NULL);
	}
	json_decref(v);
	return out;
}

/* The cluster's alias map a field takes names from: "containers" for every
 * key srtctl resolves as an image (not under env, args and the other
 * free-form blocks it skips), "model_paths" for model.path; NULL otherwise. */
static const char *alias_map(const char *path)
{
	static const char *const image_keys[] = { "container", "container_image", "image",
						  "nginx_container", NULL };
	static const char *const skip[] = { "identity", "environment", "env", "args", "extra_args",
					    "container_mounts", "sbatch_directives", "srun_options",
					    "store_config", NULL };
	if (!path)
		return NULL;
	if (!strcmp(path, "model.path"))
		return "model_paths";
	const char *last = strrchr(path, '.');
	last = last ? last + 1 : path;
	int img = 0;
	for (const char *const *k = image_keys; *k; k++)
		img |= !strcmp(last, *k);
	if (!img)
		return NULL;
	for (const char *const *k = skip; *k; k++) {
		size_t n = strlen(*k);
		for (const char *p = path; (p = strstr(p, *k)); p += n)
			if ((p == path || p[-1] == '.') && p[n] == '.')
				return NULL;
	}
	return "containers";
}

/* Enter on an alias field: the aliases with the path each resolves to, and
 * free text.  1 when handled (picked or cancelled), 0 to go on to the prompt. */
static int pick_alias(struct app *a, struct form_field *ff, const char *curtext)
{
	const char *map = alias_map(ff->path);
	const char **names, **targets;
	size_t n = map ? cluster_aliases(app_cluster(a), map, &names, &targets) : 0;
	if (!n)
		return 0;
	size_t w = 0;
	for (size_t i = 0; i < n; i++)
		if (strlen(names[i]) > w)
			w = strlen(names[i]);
	char **items = xcalloc(n + 2, sizeof(char *));
	int current = 0;
	for (size_t i = 0; i < n; i++) {
		items[i] = xasprintf("%-*s  -> %s", (int)w, names[i], targets[i]);
		if (curtext && !strcmp(curtext, names[i]))
			current = (int)i;
	}
	items[n] = xstrdup("(type another value: a path or a registry image)");
	char *title = xasprintf("%s: an alias of srtslurm.yaml %s", ff->path, map);
	int k = app_choose(a, title, (const char *const *)items, NULL, n + 1, current);
	if (k >= 0 && (size_t)k < n) {
		json_t *v = json_string(names[k]);
		app_set(a, ff->path, v);
		json_decref(v);
	}
	for (size_t i = 0; i <= n; i++)
		free(items[i]);
	free(items);
	free(title);
	free(names);
	free(targets);
	return k != (int)n;
}

static void edit_field(struct app *a, struct form_field *ff);

void form_edit_field(struct app *a, struct form_field *ff)
{
	if (ff->kind != FF_VALUE || !ff->path)
		return;
	/* Work on a copy: the edit rebuilds the form the field lives in. */
	struct form_field copy = *ff;
	copy.path = xstrdup(ff->path);
	copy.label = NULL;
	copy.help = NULL;
	copy.dflt = ff->dflt ? xstrdup(ff->dflt) : NULL; /* a choice list opens on it */
	copy.diag_path = NULL;
	copy.data = NULL;
	copy.free_data = NULL;
	copy.shown = NULL;
	edit_field(a, &copy);
	free(copy.path);
	free(copy.dflt);
}

static void edit_field(struct app *a, struct form_field *ff)
{
	if (ff->flags & FFL_READONLY) {
		app_message(a, "'%s' cannot be edited here", ff->path);
		return;
	}
	const struct schema_field *s = ff->schema;
	const struct doc_node *n = app_node(a, ff->path);
	json_t *cur = n ? doc_node_json(app_doc(a), n) : NULL;
	if (n && doc_node_kind(n) == DOC_ALIAS) {
		app_error(a, "'%s' is an alias (*%s): edit the anchored value instead", ff->path,
			  doc_node_text(n));
		json_decref(cur);
		return;
	}
	int is_list = cur ? json_is_array(cur) : (s && (s->types & ~SCHEMA_NULL) == SCHEMA_LIST);
	if (is_list) {
		json_decref(cur);
		app_edit_list(a, ff->path);
		return;
	}
	const char *const *choices = ff->choices;
	if (!choices && s) {
		if (s->allowed)
			choices = s->allowed;
		else if ((s->types & ~SCHEMA_NULL) == SCHEMA_BOOL)
			choices = bool_choices;
	}
	char *curtext = NULL;
	if (cur) {
		if (json_is_string(cur)) {
			curtext = xstrdup(json_string_value(cur));
		} else {
			struct strbuf sb = STRBUF_INIT;
			scalar_emit_json(&sb, cur, STYLE_ANY, 0);
			curtext = strbuf_detach(&sb, NULL);
		}
	}
	if (!choices && (!cur || json_is_string(cur)) && pick_alias(a, ff, curtext)) {
		free(curtext);
		json_decref(cur);
		return;
	}
	if (choices && (!cur || !json_is_object(cur))) {
		size_t nc = 0;
		while (choices[nc])
			nc++;
		/* An absent field opens the list on its default, the value in
		 * effect ("workers" for an lmcache-server's node, not the first
		 * entry "head"). */
		char *shown = curtext ? xstrdup(curtext) : default_text(ff);
		/* The list is not the whole story when the values are suggestions
		 * or only cover the field's string form (nodes: a number or
		 * "colocate"): the user must still be able to type a value. */
		int suggest = s && ((s->flags & SF_SUGGEST) ||
				    ((s->flags & SF_STR_ONLY) &&
				     (s->types & ~(SCHEMA_STR | SCHEMA_NULL))));
		const char **items = xcalloc(nc + 2, sizeof(char *));
		int current = 0;
		for (size_t i = 0; i < nc; i++) {
			items[i] = choices[i];
			if (shown && !strcmp(shown, choices[i]))
				current = (int)i;
		}
		if (suggest)
			items[nc] = "(type another value)";
		free(shown);
		int k = app_choose(a, ff->path, items, NULL, nc + (suggest ? 1 : 0), current);
		if (k >= 0 && (size_t)k < nc) {
			json_t *v;
			if (choices == bool_choices || (s && (s->types & SCHEMA_BOOL) &&
							(!strcmp(choices[k], "true") || !strcmp(choices[k], "false"))))
				v = json_boolean(!strcmp(choices[k], "true"));
			else if (s && (s->types & (SCHEMA_INT | SCHEMA_NUM)) && !(s->types & SCHEMA_STR)) {
				char *err = NULL;
				v = scalar_parse_value(choices[k], &err);
				free(err);
			} else
				v = json_string(choices[k]);
			if (v)
				app_set(a, ff->path, v);
			json_decref(v);
		}
		free(items);
		if (!(suggest && k == (int)nc)) {
			free(curtext);
			json_decref(cur);
			return;
		}
	}
	/* The title says what to type: an empty prompt for a mapping left the
	 * user guessing the syntax. */
	char *title;
	if (s && (s->types & ~SCHEMA_NULL) != SCHEMA_STR) {
		char buf[160];
		title = xasprintf("%s: %s%s", ff->path, schema_type_text(s, buf, sizeof(buf)),
				  (s->types & SCHEMA_MAP) ? ", as YAML {key: value, ...}" : "");
	} else {
		title = xstrdup(ff->path);
	}
	char *text = app_prompt(a, title, curtext ? curtext : "");
	if (text) {
		if (!curtext || strcmp(text, curtext) || !cur)
			commit_text(a, ff, cur, text);
		free(text);
	}
	free(title);
	free(curtext);
	json_decref(cur);
}

/* ---- layout ---------------------------------------------------------------- */

/* Text fields and the problems under a focused value wrap to the form's width
 * (one column kept for the scroll marks): at 80 columns a cut-off line would
 * hide the part that matters (a hint, a port, the end of a command). */
static int text_width(const struct form_field *ff, int width)
{
	return width - 3 - ff->depth * 2;
}

static void text_rows(const struct form_field *ff, int width, struct strvec *out)
{
	text_wrap_all(ff->label ? ff->label : "", text_width(ff, width), 2, out);
}

/* A text field's rows at a width, wrapped once (its text never changes). */
static const struct strvec *shown_text(struct form_field *ff, int width)
{
	struct field_shown *s = shown(ff);
	if (!(s->have & SHOWN_TEXT) || s->text_width != width) {
		strvec_clear(&s->text);
		text_rows(ff, width, &s->text);
		s->text_width = width;
		s->have |= SHOWN_TEXT;
	}
	return &s->text;
}

int form_text_row(const struct form *f, const struct form_field *ff, size_t line)
{
	const char *t = ff->label ? ff->label : "";
	const char *p = t;
	for (size_t k = 0; k < line && p; k++) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	if (!p || p == t)
		return 0;
	/* the rows of the lines before it, wrapped as they are drawn */
	char *before = xstrndup(t, (size_t)(p - t));
	struct strvec rows = STRVEC_INIT;
	text_wrap_all(before, text_width(ff, f->rows_width > 0 ? f->rows_width : 80), 2, &rows);
	int n = (int)rows.n;
	strvec_release(&rows);
	free(before);
	return n;
}

static char *diag_line(struct app *a, const struct diag *d)
{
	const char *sep = app_utf8(a) ? " \xe2\x80\x94 " : " - ";
	return xasprintf("%s %s%s%s", d->severity == DIAG_ERROR ? "E" : "W", d->message,
			 d->hint ? sep : "", d->hint ? d->hint : "");
}

/* The recipe path whose problems a field shows: a value field's own, a
 * button's diag_path. */
static const char *diag_path(const struct form_field *ff)
{
	if (ff->kind == FF_VALUE)
		return ff->path;
	if (ff->kind == FF_BUTTON || ff->kind == FF_CUSTOM || ff->kind == FF_TEXT)
		return ff->diag_path;
	return NULL;
}

/* Components of a recipe path ("services[lmcache-server].args[2]": 4);
 * what is inside brackets is one, whatever it holds. */
static size_t path_depth(const char *p)
{
	size_t n = *p && *p != '[' ? 1 : 0;
	int in = 0;
	for (; *p; p++) {
		if (*p == '[' && !in++)
			n++;
		else if (*p == ']' && in)
			in--;
		else if (*p == '.' && !in)
			n++;
	}
	return n;
}

/* The problems at a field's paths (diag_path may hold several, one a line):
 * at them or below, or only at them (exact: a diagnostic matched under the
 * path and as deep as it is, whichever form, index or name, it uses). */
static size_t diags_at(struct app *a, const char *paths, int exact, const struct diag **d,
		       size_t max)
{
	size_t nd = 0;
	for (const char *p = paths; p && *p && nd < max;) {
		const char *nl = strchr(p, '\n');
		/* one path (most fields): no copy */
		char *own = nl ? xstrndup(p, (size_t)(nl - p)) : NULL;
		const char *one = own ? own : p;
		const struct diag *all[MAX_FIELD_DIAGS * 4];
		size_t na = app_diags_for(a, one, all, MAX_FIELD_DIAGS * 4);
		size_t depth = path_depth(one);
		for (size_t i = 0; i < na && nd < max; i++) {
			int dup = 0;
			for (size_t k = 0; k < nd; k++)
				dup |= d[k] == all[i];
			if (!dup && (!exact || path_depth(all[i]->path) == depth))
				d[nd++] = all[i];
		}
		free(own);
		p = nl ? nl + 1 : NULL;
	}
	return nd;
}

static size_t field_diags(struct app *a, const struct form_field *ff, const struct diag **d)
{
	const char *p = diag_path(ff);
	size_t nd = p ? diags_at(a, p, (ff->flags & FFL_DIAG_EXACT) != 0, d, MAX_FIELD_DIAGS) : 0;
	/* errors first: the row an unfocused field shows is the first one */
	for (size_t i = 1; i < nd; i++)
		for (size_t j = i; j > 0 && d[j]->severity == DIAG_ERROR &&
				   d[j - 1]->severity != DIAG_ERROR; j--) {
			const struct diag *t = d[j];
			d[j] = d[j - 1];
			d[j - 1] = t;
		}
	return nd;
}

/* The wrapped problem lines shown under a field: every one, whole, when it
 * is focused; otherwise the first line of the first (a cut says so with an
 * ellipsis: F1 or the focus shows the rest). */
static void diag_rows(struct app *a, const struct form_field *ff, int width, int focused,
		      struct strvec *out, unsigned char **err)
{
	const struct diag *d[MAX_FIELD_DIAGS];
	/* a row whose fields are below shows (unfocused) only the problems at
	 * itself: those below show at their fields */
	size_t nd = !focused && (ff->flags & FFL_DETAILS_BELOW)
			    ? diags_at(a, diag_path(ff), 1, d, MAX_FIELD_DIAGS)
			    : field_diags(a, ff, d);
	int tw = width - 5 - ff->depth * 2;
	for (size_t i = 0; i < nd; i++) {
		char *line = diag_line(a, d[i]);
		size_t before = out->n;
		if (focused) {
			text_wrap(line, strlen(line), tw, 2, out);
		} else {
			struct strvec all = STRVEC_INIT;
			text_wrap(line, strlen(line), tw - 1, 2, &all);
			if (all.n > 1)
				strvec_pushf(out, "%s%s", all.v[0], app_utf8(a) ? "\xe2\x80\xa6" : "~");
			else
				strvec_push(out, all.v[0]);
			strvec_release(&all);
		}
		free(line);
		*err = xrealloc(*err, out->n ? out->n : 1);
		for (size_t r = before; r < out->n; r++)
			(*err)[r] = d[i]->severity == DIAG_ERROR;
		if (!focused)
			break;
	}
}

/* The problem rows of a field, made again only when the diagnostics (what
 * a field shows of them: app_diags_serial), the width or the focus changed. */
static const struct field_shown *shown_rows(struct app *a, struct form_field *ff, int width,
					    int focused)
{
	struct field_shown *s = shown(ff);
	unsigned long serial = app_diags_serial(a);
	if (!(s->have & SHOWN_ROWS) || s->rows_serial != serial || s->rows_width != width ||
	    s->rows_focused != focused) {
		strvec_clear(&s->rows);
		diag_rows(a, ff, width, focused, &s->rows, &s->err);
		s->rows_serial = serial;
		s->rows_width = width;
		s->rows_focused = focused;
		s->have |= SHOWN_ROWS;
	}
	return s;
}

/* Rows the problems under a field take. */
/* An expanded tree node shows only its marker: the fields below it show
 * their problems themselves. */
static int diag_rows_shown(const struct form_field *ff, int focused)
{
	return diag_path(ff) &&
	       (focused || !(ff->flags & FFL_COLLAPSIBLE) || (ff->flags & FFL_COLLAPSED));
}

/* A custom widget that stands for a recipe path leaves the marker column
 * to the form: it draws from column 2. */
static int widget_indent(const struct form_field *ff)
{
	return ff->kind == FF_CUSTOM && ff->diag_path ? 2 : 0;
}

static int widget_height(struct app *a, struct form_field *ff, int width)
{
	int wi = widget_indent(ff);
	return ff->widget && ff->widget->height ? ff->widget->height(a, ff, width - wi) : 1;
}

static int diag_height(struct app *a, struct form_field *ff, int width, int focused)
{
	if (!diag_rows_shown(ff, focused))
		return 0;
	/* the layout asks every field: most have no problem, and keep nothing */
	const struct diag *d[MAX_FIELD_DIAGS];
	if (!ff->shown && !field_diags(a, ff, d))
		return 0;
	return (int)shown_rows(a, ff, width, focused)->rows.n;
}

/* Draw them from row y; the marker letter on the field's row is the
 * caller's. */
static void draw_diags(struct app *a, struct form_field *ff, WINDOW *w, int y, int x,
		       int width, int focused, int max_rows)
{
	if (!diag_rows_shown(ff, focused))
		return;
	const struct field_shown *s = shown_rows(a, ff, width, focused);
	int ix = x + 4 + ff->depth * 2;
	for (size_t r = 0; r < s->rows.n && r < MAX_FIELD_DIAGS * 8 && (int)r < max_rows; r++)
		draw_str(w, y + (int)r, ix, x + width - 1 - ix, s->rows.v[r],
			 s->err[r] ? app_attr(a, TH_ERROR) : app_attr(a, TH_WARNING));
}

/* The E/W marker in a field's first column. */
static void draw_marker(struct app *a, struct form_field *ff, WINDOW *w, int y, int x,
			int focused)
{
	struct field_shown *s = shown(ff);
	unsigned long serial = app_diags_serial(a);
	if (!(s->have & SHOWN_MARK) || s->mark_serial != serial) {
		const struct diag *d[MAX_FIELD_DIAGS];
		size_t nd = field_diags(a, ff, d);
		s->mark = !nd ? 0 : d[0]->severity == DIAG_ERROR ? 'E' : 'W';
		s->mark_serial = serial;
		s->have |= SHOWN_MARK;
	}
	if (!s->mark)
		return;
	int err = s->mark == 'E';
	draw_str(w, y, x, 1, err ? "E" : "W",
		 (err ? app_attr(a, TH_ERROR) : app_attr(a, TH_WARNING)) | (focused ? A_REVERSE : 0));
}

/* A value field's text (form_field_value), made again only when the
 * document, the variant or the field's flags changed; *cells its width. */
static const char *shown_value(struct app *a, struct form_field *ff, int *cells)
{
	struct field_shown *s = shown(ff);
	unsigned long gen = doc_generation(app_doc(a));
	size_t var = app_variant(a);
	if (!(s->have & SHOWN_VAL) || s->val_gen != gen || s->val_var != var ||
	    s->val_flags != ff->flags) {
		free(s->val);
		s->val = form_field_value(a, ff);
		s->val_w = utf8_width(s->val, strlen(s->val));
		s->val_gen = gen;
		s->val_var = var;
		s->val_flags = ff->flags;
		s->have |= SHOWN_VAL;
	}
	*cells = s->val_w;
	return s->val;
}

static int field_height(struct app *a, struct form *f, struct form_field *ff, int width, int focused)
{
	switch (ff->kind) {
	case FF_TEXT:
		return (int)shown_text(ff, width)->n + diag_height(a, ff, width, 0);
	case FF_CUSTOM:
		return widget_height(a, ff, width) + diag_height(a, ff, width, focused);
	case FF_VALUE:
	case FF_BUTTON:
		return 1 + diag_height(a, ff, width, focused);
	default:
		return 1;
	}
	(void)f;
}

static void draw_value(struct app *a, struct form *f, struct form_field *ff, WINDOW *w, int y,
		       int x, int width, int labelw, int focused)
{
	attr_t base = focused ? app_attr(a, TH_FOCUS) : app_attr(a, TH_NORMAL);
	draw_fill(w, y, x, 1, width, base);
	/* marker column: the letter carries the meaning, colour only helps */
	draw_marker(a, ff, w, y, x, focused);
	int cx = x + 2 + ff->depth * 2;
	const char *tw = "";
	if (ff->flags & FFL_COLLAPSIBLE)
		tw = (ff->flags & FFL_COLLAPSED) ? (app_utf8(a) ? "\xe2\x96\xb8 " : "+ ")
						 : (app_utf8(a) ? "\xe2\x96\xbe " : "- ");
	cx += draw_str(w, y, cx, x + width - cx, tw, base | app_attr(a, TH_LABEL));
	int lw = labelw - (cx - x);
	if (lw < 4)
		lw = 4;
	const char *lab = ff->label ? ff->label : "";
	attr_t la = focused ? base : app_attr(a, TH_LABEL);
	int labw = utf8_width(lab, strlen(lab));
	if (labw > lw && lw >= 5) {
		/* cut in the middle: two keys may share their first lw cells
		 * (allow_prefill_decode_colocation and ..._across_nodes) */
		int tail = (lw - 1) / 2, head = lw - 1 - tail;
		size_t skip = utf8_fit(lab, strlen(lab), labw - tail);
		draw_text(w, y, cx, head, lab, strlen(lab), la, 1);
		draw_str(w, y, cx + head, 1, app_utf8(a) ? "\xe2\x80\xa6" : "~", la);
		draw_text(w, y, cx + head + 1, tail, lab + skip, strlen(lab + skip), la, 1);
	} else {
		draw_text(w, y, cx, lw, lab, strlen(lab), la, 1);
	}
	cx += lw + 1;
	int valw;
	const char *val = shown_value(a, ff, &valw);
	attr_t va = (ff->flags & FFL_ABSENT) || !strncmp(val, "(", 1) ? app_attr(a, TH_DEFAULT)
								      : app_attr(a, TH_VALUE);
	if (focused)
		va = base | (va & A_BOLD);
	int room = x + width - 1 - cx; /* the last column holds the scroll marks */
	if (room > 1 && valw > room) {
		/* a cut value says so (F1 or Enter shows it whole) */
		draw_text(w, y, cx, room - 1, val, strlen(val), va, 0);
		draw_str(w, y, cx + room - 1, 1, app_utf8(a) ? "\xe2\x80\xa6" : "~", va);
	} else if (cx < x + width) {
		draw_str(w, y, cx, x + width - cx, val, va);
	}
	(void)f;
	draw_diags(a, ff, w, y + 1, x, width, focused, ff->h - 1);
}

void form_draw(struct app *a, struct form *f, WINDOW *w, int y, int x, int h, int width)
{
	if (h <= 0 || width <= 0)
		return;
	/* The widest label over every field, not only the visible ones (the
	 * column must not jump while scrolling); measured once per set of
	 * fields, since a 20,000-line recipe has tens of thousands. */
	if (f->labelw_serial != f->serial || !f->labelw) {
		f->labelw = 10;
		for (size_t i = 0; i < f->n; i++) {
			struct form_field *ff = &f->v[i];
			if (ff->kind != FF_VALUE)
				continue;
			int lw = 2 + ff->depth * 2 + ((ff->flags & FFL_COLLAPSIBLE) ? 2 : 0) +
				 (ff->label ? utf8_width(ff->label, strlen(ff->label)) : 0);
			if (lw > f->labelw)
				f->labelw = lw;
		}
		f->labelw_serial = f->serial;
	}
	int labelw = f->labelw;
	if (labelw > width / 2)
		labelw = width / 2;
	if (labelw > 36)
		labelw = 36;
	/* Heights depend on the fields, the width, the focus (its diagnostics
	 * show below it) and the diagnostics: laid out again only when one of
	 * them changed (not on every key typed in a dialog, nor on an edit
	 * that leaves the problems as they were: a value edit keeps the
	 * fields), or always when a custom widget, which sizes itself, is
	 * among the fields. */
	unsigned long diags = app_diags_serial(a);
	int row = f->rows;
	if (!f->rows_custom && f->rows_serial == f->serial && f->rows_width == width &&
	    f->rows_diags == diags && f->rows_serial && f->rows_focus != f->focus) {
		/* only the focus moved: the fields it left and reached are measured
		 * again (asking every field of a large tree for its problems was
		 * most of a key that moves the focus), the rows below them move */
		size_t two[2] = { f->rows_focus, f->focus };
		for (int k = 0; k < 2; k++) {
			if (two[k] >= f->n)
				continue;
			struct form_field *ff = &f->v[two[k]];
			int d = field_height(a, f, ff, width, two[k] == f->focus) - ff->h;
			if (!d)
				continue;
			ff->h += d;
			for (size_t i = two[k] + 1; i < f->n; i++)
				f->v[i].y += d;
			row += d;
		}
		f->rows_focus = f->focus;
	} else if (f->rows_custom || f->rows_serial != f->serial || f->rows_width != width ||
		   f->rows_focus != f->focus || f->rows_diags != diags || !f->rows_serial) {
		row = 0;
		f->rows_custom = 0;
		for (size_t i = 0; i < f->n; i++) {
			struct form_field *ff = &f->v[i];
			ff->y = row;
			ff->h = field_height(a, f, ff, width, i == f->focus);
			row += ff->h;
			f->rows_custom |= ff->kind == FF_CUSTOM;
		}
		f->rows_serial = f->serial;
		f->rows_width = width;
		f->rows_focus = f->focus;
		f->rows_diags = diags;
	}
	f->rows = row;
	f->view_h = h;
	struct form_field *fo = form_focused(f);
	if (fo && f->center) {
		f->top = fo->y - (h - fo->h) / 2;
	}
	f->center = 0;
	if (f->peek && f->peek <= f->n) {
		/* a text line found by a search: in view, with what precedes it */
		f->top = f->v[f->peek - 1].y + f->peek_row - h / 3;
		fo = NULL;
	}
	if (fo) {
		if (fo->y < f->top)
			f->top = fo->y;
		if (fo->y + fo->h > f->top + h)
			f->top = fo->y + fo->h - h;
		/* show the heading right above the focus when it fits */
		if (f->focus > 0 && f->v[f->focus - 1].kind == FF_HEADING &&
		    f->v[f->focus - 1].y >= f->top - 1 && f->v[f->focus - 1].y < f->top)
			f->top = f->v[f->focus - 1].y;
		/* on the first field, what is above it (a heading, the notes of
		 * the screen) comes back into view: nothing else scrolls to it */
		int first = 1;
		for (size_t i = 0; i < f->focus && first; i++)
			first = !focusable(&f->v[i]);
		if (first && fo->y + fo->h <= h)
			f->top = 0;
	}
	if (f->top > row - h)
		f->top = row - h > 0 ? row - h : 0;
	if (f->top < 0)
		f->top = 0;
	if (!f->n) {
		draw_str(w, y, x + 2, width - 2, "(nothing to show)", app_attr(a, TH_DEFAULT));
		return;
	}
	/* the fields lie in row order: start at the first in view (a large
	 * recipe's tree has tens of thousands, drawn on every key) */
	size_t lo = 0, hi = f->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->v[mid].y + f->v[mid].h <= f->top)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < f->n && f->v[i].y - f->top < h; i++) {
		struct form_field *ff = &f->v[i];
		int fy = ff->y - f->top;
		if (fy + ff->h <= 0 || fy >= h)
			continue;
		int focused = i == f->focus;
		int visible_h = ff->h;
		if (fy < 0 || fy + ff->h > h) {
			/* partly visible: draw only the rows that fit (custom widgets
			 * are drawn only when whole) */
			if (ff->kind == FF_CUSTOM)
				continue;
			if (fy < 0)
				continue;
			visible_h = h - fy;
		}
		switch (ff->kind) {
		case FF_HEADING:
			draw_str(w, y + fy, x, width, ff->label, app_attr(a, TH_HEADING));
			break;
		case FF_TEXT: {
			const struct strvec *rows = shown_text(ff, width);
			draw_marker(a, ff, w, y + fy, x, 0);
			for (int r = 0; r < visible_h && r < (int)rows->n; r++)
				draw_str(w, y + fy + r, x + 2 + ff->depth * 2, text_width(ff, width),
					 rows->v[r], app_attr(a, TH_HELP));
			draw_diags(a, ff, w, y + fy + (int)rows->n, x, width, 0, visible_h - (int)rows->n);
			break;
		}
		case FF_VALUE: {
			/* the diagnostics below the field may not all fit */
			int save = ff->h;
			ff->h = visible_h;
			draw_value(a, f, ff, w, y + fy, x, width, labelw, focused);
			ff->h = save;
			break;
		}
		case FF_BUTTON: {
			char *b = xasprintf("[ %s ]", ff->label ? ff->label : "");
			/* An unfocused button is value-coloured text in brackets: drawn
			 * like the active tab (reverse in mono) it looked focused, and
			 * the focused one (plain reverse) looked like the others. */
			attr_t at = focused ? app_attr(a, TH_FOCUS) : app_attr(a, TH_VALUE);
			draw_marker(a, ff, w, y + fy, x, focused);
			draw_str(w, y + fy, x + 2 + ff->depth * 2, width - 2 - ff->depth * 2, b, at);
			free(b);
			draw_diags(a, ff, w, y + fy + 1, x, width, focused, visible_h - 1);
			break;
		}
		case FF_CUSTOM: {
			/* the same marker and problem rows as every other field */
			int wi = widget_indent(ff);
			int wh = ff->h - diag_height(a, ff, width, focused);
			if (wi)
				draw_marker(a, ff, w, y + fy, x, focused);
			if (ff->widget && ff->widget->draw)
				ff->widget->draw(a, ff, w, y + fy, x + wi, width - wi, wh, focused);
			draw_diags(a, ff, w, y + fy + wh, x, width, focused, ff->h - wh);
			break;
		}
		}
	}
	if (f->top > 0)
		draw_str(w, y, x + width - 1, 1, "^", app_attr(a, TH_BORDER));
	if (f->top + h < row)
		draw_str(w, y + h - 1, x + width - 1, 1, "v", app_attr(a, TH_BORDER));
}

/* ---- keys ------------------------------------------------------------------ */

static void move_focus(struct form *f, int dir, int steps)
{
	size_t i = f->focus;
	while (steps-- > 0) {
		size_t j = i;
		for (;;) {
			if (dir > 0) {
				if (j + 1 >= f->n)
					goto done;
				j++;
			} else {
				if (j == 0 || j > f->n)
					goto done;
				j--;
			}
			if (focusable(&f->v[j]))
				break;
		}
		i = j;
	}
done:
	f->focus = i;
}

static void toggle(struct app *a, struct form *f, struct form_field *ff, int collapse)
{
	if (!(ff->flags & FFL_COLLAPSIBLE) || !ff->path)
		return;
	form_set_collapsed(f, ff->path, collapse);
	ff->flags ^= FFL_COLLAPSED;
	/* The rows below the node come and go: build the form again before the
	 * next draw (the focus stays on the node, found by its path). */
	app_rebuild(a);
}

int form_key(struct app *a, struct form *f, int key)
{
	struct form_field *ff = form_focused(f);
	f->peek = 0; /* the view follows the focus again */
	int page = f->view_h > 2 ? f->view_h - 1 : 1;
	switch (key) {
	case K_FN(KEY_UP):
	case 'k':
		move_focus(f, -1, 1);
		return 1;
	case K_FN(KEY_DOWN):
	case 'j':
		move_focus(f, 1, 1);
		return 1;
	case K_FN(KEY_PPAGE):
		move_focus(f, -1, page);
		return 1;
	case K_FN(KEY_NPAGE):
		move_focus(f, 1, page);
		return 1;
	case K_FN(KEY_HOME):
	case 'g':
		form_focus_first(f);
		return 1;
	case K_FN(KEY_END):
	case 'G':
		f->focus = f->n ? f->n - 1 : 0;
		if (!form_focused(f))
			move_focus(f, -1, 1);
		return 1;
	}
	if (!ff)
		return 0;
	switch (key) {
	case K_ENTER:
	case ' ':
		if (ff->kind == FF_BUTTON && ff->action) {
			ff->action(a, ff);
			return 1;
		}
		if (ff->kind == FF_VALUE) {
			if ((ff->flags & FFL_COLLAPSIBLE) && key == K_ENTER) {
				toggle(a, f, ff, !(ff->flags & FFL_COLLAPSED));
				return 1;
			}
			form_edit_field(a, ff);
			return 1;
		}
		return 0;
	case 'e':
	case K_FN(KEY_F(4)):
		if (ff->kind == FF_VALUE) {
			form_edit_field(a, ff);
			return 1;
		}
		return 0;
	case K_FN(KEY_RIGHT):
	case 'l':
		if (ff->kind == FF_VALUE && (ff->flags & FFL_COLLAPSIBLE)) {
			toggle(a, f, ff, 0);
			return 1;
		}
		return 0;
	case K_FN(KEY_LEFT):
	case 'h':
		if (ff->kind == FF_VALUE && (ff->flags & FFL_COLLAPSIBLE) &&
		    !(ff->flags & FFL_COLLAPSED)) {
			toggle(a, f, ff, 1);
			return 1;
		}
		if (ff->depth > 0) {
			/* to the parent */
			size_t i = f->focus;
			while (i-- > 0)
				if (f->v[i].kind == FF_VALUE && f->v[i].depth < ff->depth) {
					f->focus = i;
					return 1;
				}
		}
		return 0;
	case 'd':
	case K_FN(KEY_DC):
		if (ff->kind == FF_VALUE && ff->path && !(ff->flags & FFL_ABSENT) &&
		    !(ff->flags & FFL_READONLY)) {
			char *q = xasprintf("Remove '%s' from the recipe?\ny: remove   n: keep it",
					    ff->path);
			int k = app_confirm(a, "Remove", q, "ny");
			free(q);
			if (k == 'y') {
				char *p = xstrdup(ff->path);
				if (!app_delete(a, p))
					app_message(a, "removed '%s' (u undoes)", p);
				free(p);
			}
			return 1;
		}
		return 0;
	}
	return 0;
}

int form_click(struct app *a, struct form *f, int row, int col)
{
	int r = row + f->top;
	f->peek = 0;
	for (size_t i = 0; i < f->n; i++) {
		struct form_field *ff = &f->v[i];
		if (r < ff->y || r >= ff->y + ff->h || !focusable(ff))
			continue;
		int was = f->focus == i;
		f->focus = i;
		if (ff->kind == FF_CUSTOM && ff->widget && ff->widget->click) {
			/* a click on the problem rows below only focuses */
			int wi = widget_indent(ff);
			if (r - ff->y >= widget_height(a, ff, f->rows_width) || col < wi)
				return 1;
			return ff->widget->click(a, ff, r - ff->y, col - wi);
		}
		if (was && ff->kind == FF_BUTTON && ff->action)
			ff->action(a, ff);
		else if (was && ff->kind == FF_VALUE)
			form_key(a, f, K_ENTER);
		return 1;
	}
	return 0;
}

static int icontains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	if (!hay)
		return 0;
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return 1;
	return 0;
}

int form_search(struct app *a, struct form *f, const char *needle, int dir)
{
	if (!f->n)
		return 0;
	size_t start = f->focus < f->n ? f->focus : 0;
	for (size_t step = 1; step <= f->n; step++) {
		size_t i = dir > 0 ? (start + step) % f->n : (start + f->n - step % f->n) % f->n;
		struct form_field *ff = &f->v[i];
		if (!focusable(ff))
			continue;
		int hit = icontains(ff->label, needle) || icontains(ff->path, needle);
		if (!hit && ff->kind == FF_VALUE) {
			char *v = form_field_value(a, ff);
			hit = icontains(v, needle);
			free(v);
		}
		if (hit) {
			f->focus = i;
			return 1;
		}
	}
	return 0;
}
