/*
 * derive.c — the derived-state cache of the session: the typed recipe, its
 * diagnostics, the variants and the previews, each recomputed only when the
 * document's generation (or the chosen variant) moved since it was made.
 */
#include <stdlib.h>
#include <string.h>

#include "model/legacy.h"
#include "model/path.h"
#include "model/validate.h"
#include "render/plan.h"
#include "tui/app_int.h"

static void canon_release(char **canon, size_t n)
{
	for (size_t i = 0; canon && i < n; i++)
		free(canon[i]);
	free(canon);
}

void app_state_release(struct app *a)
{
	if (!a->st_valid)
		return;
	canon_release(a->diag_canon, a->st.diags.n);
	a->diag_canon = NULL;
	free(a->diag_ix);
	a->diag_ix = NULL;
	a->ndiag_ix = 0;
	if (a->st.root) {
		recipe_release(&a->st.recipe);
		json_decref(a->st.root);
		a->st.root = NULL;
	}
	cluster_provs_release(&a->st.provs);
	diag_list_release(&a->st.diags);
	a->st_valid = 0;
}

/* services[lmcache].args -> services[2].args, so diagnostics can be matched
 * with the fields' index paths.  Only a [name] segment depends on the
 * document: the walk stops after the last one, since what follows is
 * written as given (a 20,000-line recipe has 2,000 problems at the keys of
 * a 1,000-key args map, and a scan of that map per problem was most of the
 * cost of an edit). */
char *app_canon_path(struct app *a, const char *text)
{
	struct path p = PATH_INIT, q = PATH_INIT;
	char *err = NULL;
	/* dotted plain keys: parsed and formatted again they are the same
	 * text (and a path that does not parse is kept as written) */
	if (text && !strpbrk(text, "[]\"' \t\n\v\f\r"))
		return xstrdup(text);
	if (!text || path_parse(&p, text, PATH_NAMES, &err)) {
		free(err);
		path_release(&p);
		return xstrdup(text ? text : "");
	}
	size_t walk = 0; /* segments up to the last [name] */
	for (size_t i = 0; i < p.n; i++)
		if (p.seg[i].kind == PATH_NAME)
			walk = i + 1;
	const struct doc_node *n = walk ? doc_root(a->doc) : NULL;
	for (size_t i = 0; i < p.n; i++) {
		struct path_seg *s = &p.seg[i];
		const struct doc_node *next = NULL;
		if (s->kind == PATH_NAME && n && doc_node_kind(n) == DOC_SEQ) {
			size_t cnt = doc_node_count(n), found = cnt;
			for (size_t j = 0; j < cnt && found == cnt; j++) {
				const struct doc_node *it = doc_node_child(n, j);
				if (!it || doc_node_kind(it) != DOC_MAP)
					continue;
				for (size_t k = 0; k < doc_node_count(it); k++) {
					const struct doc_node *kn = doc_node_key(it, k);
					const struct doc_node *vn = doc_node_child(it, k);
					if (kn && vn && doc_node_kind(vn) == DOC_SCALAR &&
					    !strcmp(doc_node_text(kn), "name") &&
					    !strcmp(doc_node_text(vn), s->key)) {
						found = j;
						break;
					}
				}
			}
			if (found < cnt) {
				path_push_index(&q, found);
				next = doc_node_child(n, found);
			} else {
				path_push_name(&q, s->key);
			}
		} else if (s->kind == PATH_INDEX) {
			path_push_index(&q, s->index);
			if (n && doc_node_kind(n) == DOC_SEQ && s->index < doc_node_count(n))
				next = doc_node_child(n, s->index);
		} else {
			path_push_key(&q, s->key);
			/* a duplicate key: the last one is the value */
			if (n && i + 1 < walk && doc_node_kind(n) == DOC_MAP)
				for (size_t k = doc_node_count(n); k-- > 0 && !next;) {
					const struct doc_node *kn = doc_node_key(n, k);
					if (kn && !strcmp(doc_node_text(kn), s->key))
						next = doc_node_child(n, k);
				}
		}
		n = next;
	}
	char *out = path_format(&q, (size_t)-1);
	path_release(&p);
	path_release(&q);
	return out;
}

/* The variants of the current generation; the choice is found again by its
 * label (an edit may add or remove variants before it). */
static void variants_update(struct app *a, json_t *root)
{
	unsigned long g = doc_generation(a->doc);
	if (a->vs_valid && a->vs_gen == g)
		return;
	if (a->vs_valid)
		variant_state_release(&a->vs);
	variant_state_compute(&a->vs, root);
	a->vs_gen = g;
	a->vs_valid = 1;
	long i = variant_state_find(&a->vs, a->vsel_label);
	if (i >= 0)
		a->vsel = (size_t)i;
	else if (a->vsel >= a->vs.list.n)
		a->vsel = 0;
}

const struct cluster *app_cluster(struct app *a)
{
	return &a->cluster;
}

const struct variant_state *app_variants(struct app *a)
{
	app_state(a);
	return &a->vs;
}

size_t app_variant(struct app *a)
{
	app_state(a);
	return a->vsel;
}

void app_select_variant(struct app *a, size_t index)
{
	app_state(a);
	if (index >= a->vs.list.n)
		return;
	a->vsel = index;
	app_rebuild(a);
	free(a->vsel_label);
	a->vsel_label = a->vs.list.v[index].label ? xstrdup(a->vs.list.v[index].label) : NULL;
}

void app_rebuild(struct app *a)
{
	for (size_t i = 0; i < a->nscreens; i++)
		a->form_built[i] = 0;
}

static int str_same(const char *x, const char *y)
{
	return x == y || (x && y && !strcmp(x, y));
}

/* Whether two lists say the same at the same paths, as a field shows them. */
static int diags_same(const struct diag_list *x, char **xc, const struct diag_list *y, char **yc)
{
	if (x->n != y->n)
		return 0;
	for (size_t i = 0; i < x->n; i++) {
		const struct diag *p = &x->v[i], *q = &y->v[i];
		if (p->severity != q->severity || !str_same(p->path, q->path) ||
		    !str_same(xc[i], yc[i]) || !str_same(p->message, q->message) ||
		    !str_same(p->hint, q->hint) || !str_same(p->code, q->code))
			return 0;
	}
	return 1;
}

const struct app_state *app_state(struct app *a)
{
	unsigned long g = doc_generation(a->doc);
	if (a->st_valid && a->st.generation == g && a->st.variant_index == a->vsel)
		return &a->st;
	if (a->st_valid && a->st.generation == g && a->st.root) {
		/* Another variant of the same text: only the recipe changes. */
		recipe_release(&a->st.recipe);
		cluster_provs_release(&a->st.provs);
		a->st.variant_index = a->vsel;
		a->st.variant = a->vsel < a->vs.list.n && a->vs.form != RECIPE_PLAIN
					? &a->vs.list.v[a->vsel] : NULL;
		cluster_recipe_init(&a->st.recipe, &a->cluster,
				    a->st.variant ? a->st.variant->tree : a->st.root, &a->st.provs);
		return &a->st;
	}
	/* the problems before, to tell whether they changed (app_diags_serial) */
	struct diag_list old = DIAG_LIST_INIT;
	char **old_canon = NULL;
	if (a->st_valid) {
		old = a->st.diags;
		old_canon = a->diag_canon;
		a->st.diags = (struct diag_list)DIAG_LIST_INIT;
		a->diag_canon = NULL;
	}
	app_state_release(a);
	memset(&a->st, 0, sizeof(a->st));
	a->st.generation = g;
	/* What reading the text found (tabs, duplicate keys): the document keeps
	 * it for every version, so no second parse here. */
	const struct diag_list *lint = doc_lint(a->doc);
	for (size_t i = 0; i < lint->n; i++) {
		const struct diag *s = &lint->v[i];
		struct diag *n = diag_add(&a->st.diags, s->severity, s->code, s->path, s->hint,
					  "%s", s->message);
		n->line = s->line;
		n->col = s->col;
	}
	a->st.root = doc_json(a->doc);
	variants_update(a, a->st.root);
	a->st.variant_index = a->vsel;
	if (a->st.root) {
		a->st.variant = a->vsel < a->vs.list.n && a->vs.form != RECIPE_PLAIN
					? &a->vs.list.v[a->vsel] : NULL;
		cluster_recipe_init(&a->st.recipe, &a->cluster,
				    a->st.variant ? a->st.variant->tree : a->st.root, &a->st.provs);
	}
	/* The plain recipe's typed view is already built (with the cluster's
	 * defaults, as srtctl loads it): validation reuses it. */
	validate_doc_with(a->doc, a->st.root && !a->st.variant ? &a->st.recipe : NULL, &a->st.diags);
	cluster_doc_diags(&a->cluster, a->doc, a->st.root, &a->st.diags);
	variant_state_validate_cluster(&a->vs, &a->cluster, a->doc, &a->st.diags);
	/* a pre-2.0 recipe is one problem, not one per key (app_offer_migrate) */
	if (legacy_recipe(a->st.root))
		legacy_diag(&a->st.diags);
	for (size_t i = 0; i < a->migrate_notes.n; i++)
		diag_add(&a->st.diags, DIAG_WARNING, "migrate-note", "",
			 "review the Diff tab before saving", "srtctl migrate: %s", a->migrate_notes.v[i]);
	diag_sort(&a->st.diags);
	a->st.errors = diag_count(&a->st.diags, DIAG_ERROR);
	a->st.warnings = diag_count(&a->st.diags, DIAG_WARNING);
	a->st_valid = 1;
	a->diag_canon = xcalloc(a->st.diags.n + 1, sizeof(char *));
	for (size_t i = 0; i < a->st.diags.n; i++)
		a->diag_canon[i] = app_canon_path(a, a->st.diags.v[i].path);
	if (!old_canon || !diags_same(&old, old_canon, &a->st.diags, a->diag_canon))
		a->diag_serial++;
	canon_release(old_canon, old.n);
	diag_list_release(&old);
	return &a->st;
}

unsigned long app_diags_serial(struct app *a)
{
	app_state(a);
	return a->diag_serial;
}

const char *app_preview_text(struct app *a, enum preview_tab tab)
{
	unsigned long g = doc_generation(a->doc);
	app_state(a);
	/* the Mounts and Env tables are laid out for the pane's width */
	int cols = tab == PV_MOUNTS || tab == PV_ENV ? a->pv_width : 0;
	if (!a->pv_valid[tab] || a->pv_gen[tab] != g || a->pv_var[tab] != a->vsel ||
	    a->pv_cols[tab] != cols) {
		strbuf_reset(&a->pv[tab]);
		if (tab == PV_PLAN) {
			plan_note_free(a->pv_note);
			a->pv_note = NULL;
		}
		preview_compute(a, tab, &a->pv[tab], tab == PV_PLAN ? &a->pv_note_at : NULL,
				tab == PV_PLAN ? &a->pv_note : NULL);
		a->pv_gen[tab] = g;
		a->pv_var[tab] = a->vsel;
		a->pv_cols[tab] = cols;
		a->pv_valid[tab] = 1;
		a->pv_serial[tab]++;
	}
	return sb_str(&a->pv[tab]);
}

/* The Plan's note, in its place. */
static void note_complete(struct app *a)
{
	if (!a->pv_note)
		return;
	struct strbuf sb = STRBUF_INIT;
	plan_note_render(&sb, &a->st.recipe, a->pv_note);
	if (sb.len)
		strbuf_splice(&a->pv[PV_PLAN], a->pv_note_at, 0, sb.buf, sb.len);
	strbuf_release(&sb);
	plan_note_free(a->pv_note);
	a->pv_note = NULL;
	a->pv_serial[PV_PLAN]++;
}

const char *app_preview(struct app *a, enum preview_tab tab)
{
	app_preview_text(a, tab);
	if (tab == PV_PLAN)
		note_complete(a);
	return sb_str(&a->pv[tab]);
}

/* YAML and Diff are the file's own bytes: they scroll sideways ('<' '>').
 * The others wrap, so at 80 columns a command shows its last flags. */
int app_preview_wraps(const struct app *a, enum preview_tab tab)
{
	int dflt = tab != PV_YAML && tab != PV_DIFF;
	return a->pv_nowrap[tab] ? !dflt : dflt;
}

/* The text in pv[tab] as drawn at width cells: wrapped when the tab wraps. */
static const char *shown(struct app *a, enum preview_tab tab, int width)
{
	const char *text = sb_str(&a->pv[tab]);
	if (!app_preview_wraps(a, tab))
		return text;
	if (a->pvw[tab].w != width || a->pvw_serial[tab] != a->pv_serial[tab] || !a->pvw[tab].nline) {
		shown_update(&a->pvw[tab], text, width);
		a->pvw_serial[tab] = a->pv_serial[tab];
	}
	return sb_str(&a->pvw[tab].out);
}

/* The preview text as drawn at width cells: wrapped when the tab wraps. */
const char *app_preview_shown(struct app *a, enum preview_tab tab, int width)
{
	app_preview(a, tab);
	return shown(a, tab, width);
}

const char *app_preview_rows(struct app *a, enum preview_tab tab, int width, int rows)
{
	app_preview_text(a, tab);
	if (tab != PV_PLAN || !a->pv_note)
		return shown(a, tab, width);
	const char *text = shown(a, tab, width);
	int before = 0; /* the rows above the note */
	if (app_preview_wraps(a, tab)) {
		before = shown_rows_before(&a->pvw[tab], a->pv_note_at);
	} else {
		for (const char *p = text, *end = text + a->pv_note_at;
		     (p = memchr(p, '\n', (size_t)(end - p))); p++)
			before++;
	}
	if (before >= rows)
		return text;
	note_complete(a);
	return shown(a, tab, width);
}

int app_path_under(const char *p, const char *prefix)
{
	size_t n = strlen(prefix);
	if (!n)
		return 1;
	return !strncmp(p, prefix, n) && (p[n] == 0 || p[n] == '.' || p[n] == '[');
}

static int cmp_ix(const void *x, const void *y)
{
	const struct diag_ix *p = x, *q = y;
	int c = strcmp(p->path, q->path);
	return c ? c : (p->idx > q->idx) - (p->idx < q->idx);
}

static int cmp_size(const void *x, const void *y)
{
	size_t p = *(const size_t *)x, q = *(const size_t *)y;
	return (p > q) - (p < q);
}

static void diag_index_build(struct app *a, const struct app_state *st)
{
	a->diag_ix = xmalloc((2 * st->diags.n + 1) * sizeof(*a->diag_ix));
	size_t k = 0;
	for (size_t i = 0; i < st->diags.n; i++) {
		a->diag_ix[k++] = (struct diag_ix){ st->diags.v[i].path, i };
		if (strcmp(a->diag_canon[i], st->diags.v[i].path))
			a->diag_ix[k++] = (struct diag_ix){ a->diag_canon[i], i };
	}
	qsort(a->diag_ix, k, sizeof(*a->diag_ix), cmp_ix);
	a->ndiag_ix = k;
}

/* The problems at path or below it, in the list's order, at most max. */
size_t app_diags_for(struct app *a, const char *path, const struct diag **out, size_t max)
{
	const struct app_state *st = app_state(a);
	if (!a->diag_ix)
		diag_index_build(a, st);
	size_t n = strlen(path), lo = 0, hi = a->ndiag_ix;
	while (lo < hi) { /* the first entry not before path */
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(a->diag_ix[mid].path, path) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* every field of the form asks on every layout, most of them to hear
	 * there is nothing: no allocation unless there are more than a few */
	size_t some[16], cap = 16, m = 0, *hit = some;
	for (size_t i = lo; i < a->ndiag_ix && !strncmp(a->diag_ix[i].path, path, n); i++) {
		/* the root's own problems are those with an empty path */
		if (n ? !app_path_under(a->diag_ix[i].path, path) : *a->diag_ix[i].path)
			continue;
		if (m == cap) {
			cap *= 2;
			if (hit == some)
				hit = memcpy(xmalloc(cap * sizeof(*hit)), some, sizeof(some));
			else
				hit = xrealloc(hit, cap * sizeof(*hit));
		}
		hit[m++] = a->diag_ix[i].idx;
	}
	qsort(hit, m, sizeof(*hit), cmp_size);
	size_t k = 0;
	for (size_t i = 0; i < m && k < max; i++)
		if (!i || hit[i] != hit[i - 1])
			out[k++] = &st->diags.v[hit[i]];
	if (hit != some)
		free(hit);
	return k;
}

const struct doc_node *app_node(struct app *a, const char *path)
{
	struct path p = PATH_INIT;
	char *err = NULL;
	const struct doc_node *n = NULL;
	if (path && !path_parse(&p, path, PATH_NAMES, &err))
		n = doc_lookup(a->doc, &p);
	free(err);
	path_release(&p);
	return n;
}
