/* The Services step: the declared services as a list (add, remove, move),
 * the implied ones with their reason, and a form for the selected service:
 * the lmcache-server fields that become `lmcache server` flags, extra args,
 * placement, start, critical, container, env, readiness and the preamble. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "lib/shell.h"
#include "model/kinds.h"
#include "model/lmc_args.h"
#include "tui/draw.h"
#include "tui/widget_services.h"
#include "tui/wizard.h"
#include "tui/wizard_screens.h"
#include "lib/json.h"

/* Kept across rebuilds in form->user. */
struct svc_ui {
	unsigned magic;
	size_t sel;
};
#define SVC_UI_MAGIC 0x5e7c1ceu

static struct svc_ui *ui(struct form *f)
{
	struct svc_ui *u = f->user;

	if (!u || u->magic != SVC_UI_MAGIC) {
		if (f->user && f->user_free)
			f->user_free(f->user);
		u = xcalloc(1, sizeof(*u));
		u->magic = SVC_UI_MAGIC;
		f->user = u;
		f->user_free = free;
	}
	return u;
}

#define IDX(ff) ((size_t)(uintptr_t)(ff)->data)
#define DATA(i) ((void *)(uintptr_t)(i))

static json_t *services(struct app *a)
{
	const struct app_state *st = app_state(a);
	return st->root ? jget_arr(st->root, "services") : NULL;
}

/* Add a service; u (may be NULL) then selects it, so the form below shows
 * the service just added rather than the one that was selected. */
static int add_service_ui(struct app *a, struct svc_ui *u)
{
	const char *items[32], *help[32];
	size_t n = 0;
	int sel = 0; /* lmcache-server when offered: the service most recipes add */
	char *err = NULL;

	for (size_t i = 0; i < svc_kinds_count && n < 32; i++) {
		items[n] = svc_kinds[i].type;
		help[n] = svc_kinds[i].help;
		if (i == KIND_LMCACHE_SERVER)
			sel = (int)n;
		n++;
	}
	sel = app_choose(a, "Add a service of type", items, help, n, sel);
	if (sel < 0)
		return 0;
	int r = svc_add(app_doc(a), items[sel], svc_default_name(items[sel]), &err);
	wiz_report(a, r, err);
	if (!r) {
		json_t *list = services(a);
		size_t nl = list ? json_array_size(list) : 0;
		if (u && nl)
			u->sel = nl - 1;
		app_message(a, "added service '%s' (%s): its settings are below (u undoes)",
			    svc_default_name(items[sel]), items[sel]);
	}
	return 0;
}

static int add_service(struct app *a, struct form_field *ff)
{
	return add_service_ui(a, ff ? ff->data : NULL);
}

static int remove_service(struct app *a, size_t i)
{
	json_t *s = json_array_get(services(a), i);
	const char *name = json_string_value(json_object_get(s, "name"));
	char *q = xasprintf("Remove the service '%s'?", name ? name : "?");
	char *err = NULL;
	int k = app_confirm(a, "Remove", q, "ny");

	free(q);
	if (k == 'y')
		wiz_report(a, svc_remove(app_doc(a), i, &err), err);
	return 0;
}

static int move_service(struct app *a, size_t i, int dir)
{
	size_t n = json_array_size(services(a));
	char *err = NULL;

	if ((dir < 0 && i == 0) || (dir > 0 && i + 1 >= n))
		return 0;
	wiz_report(a, svc_move(app_doc(a), i, dir < 0 ? i - 1 : i + 1, &err), err);
	return 0;
}

/* Form data: the service index and a sub-item (a flag of the table, an L2
 * adapter occurrence) in one pointer-sized integer. */
#define SUB_BITS 12
#define PACK(i, sub) DATA(((i) << SUB_BITS) | (size_t)(sub))
#define SVC_OF(ff) (IDX(ff) >> SUB_BITS)
#define SUB_OF(ff) (IDX(ff) & ((1u << SUB_BITS) - 1))

static json_t *svc_args(struct app *a, size_t i)
{
	return json_object_get(json_array_get(services(a), i), "args");
}

/* A typed value the server would refuse: said now rather than at the job's start. */
static int bad_number(struct app *a, const struct lmc_flag *f, const char *v)
{
	char *end;

	if (!*v || (f->type != LMC_INT && f->type != LMC_FLOAT))
		return 0;
	if (f->type == LMC_INT)
		(void)strtoll(v, &end, 10);
	else
		(void)strtod(v, &end);
	if (!*end)
		return 0;
	app_error(a, "%s takes %s; '%s' is not one", f->name,
		  f->type == LMC_INT ? "a whole number" : "a number", v);
	return 1;
}

/* The help of one --eviction-policy value, with the releases that have it
 * (the kinds table); buf holds it. */
static const char *policy_help(const struct lmc_flag *f, const char *c, char *buf, size_t size)
{
	const struct lmc_choice *ch = strcmp(f->name, "--eviction-policy") ? NULL : lmc_eviction_policy(c);
	char since[160];

	if (!ch)
		return f->help;
	snprintf(buf, size, "%s; %s", ch->help, lmc_since_text(&ch->since, since, sizeof(since)));
	return buf;
}

static int edit_flag(struct app *a, struct form_field *ff)
{
	size_t i = SVC_OF(ff);
	const struct lmc_flag *f = &lmc_flags[SUB_OF(ff)];
	char *cur = lmc_value(svc_args(a, i), f), *v = NULL, *err = NULL, *unset;

	unset = f->dflt ? xasprintf("(not set: LMCache's default %s)", f->dflt)
		: f->required ? xstrdup("(not set: the server refuses to start)")
		: xstrdup("(not set)");
	if (f->choices || f->type == LMC_SWITCH || f->type == LMC_BOOLOPT) {
		static const char *const onoff[] = { "on", "off", NULL };
		static const char *const on[] = { "on", NULL };
		const char *const *c = f->choices ? f->choices : f->type == LMC_SWITCH ? on : onoff;
		const char *items[16], *help[16];
		char helpbuf[16][256];
		size_t n = 0;
		int sel = 0;
		items[n] = unset;
		help[n++] = f->help;
		for (; *c && n < 16; c++, n++) {
			items[n] = *c;
			help[n] = policy_help(f, *c, helpbuf[n], sizeof(helpbuf[n]));
			if (cur && !strcmp(cur, *c))
				sel = (int)n;
		}
		sel = app_choose(a, f->label, items, help, n, sel);
		if (sel >= 0)
			v = xstrdup(sel ? items[sel] : "");
	} else {
		v = app_prompt(a, f->label, cur ? cur : "");
	}
	if (v && !bad_number(a, f, v))
		wiz_report(a, svc_set_flag(app_doc(a), i, f, v, &err), err);
	free(v);
	free(unset);
	free(cur);
	return 0;
}

/* ---- L2 adapters ------------------------------------------------------------- */

static const struct lmc_flag *l2_flag(void)
{
	return lmc_flag_find("--l2-adapter", NULL);
}

/* Ask for each key of adapter type t, starting from cur (may be NULL); the
 * JSON text, or NULL when the user cancelled or left a required key out. */
static char *ask_l2_keys(struct app *a, const struct l2_adapter_type *t, const json_t *cur)
{
	const char *vals[16] = { NULL };
	char *owned[16] = { NULL }, *json = NULL;
	const char *backend = NULL;
	size_t n;

	for (n = 0; t->keys[n].key && n < 16; n++) {
		const struct l2_key *k = &t->keys[n];
		const json_t *v;
		char *init, *title;
		if (!l2_key_applies(k, backend)) /* only for the backends that need it */
			continue;
		v = l2_key_get(cur, k);
		init = json_is_string(v) ? xstrdup(json_string_value(v))
		       : v ? json_text(v, JSON_ENCODE_ANY) : xstrdup(k->required ? k->example : "");
		if (k->type == L2K_CHOICE) {
			const char *items[16];
			size_t m = 0;
			int sel = 0;
			for (const char *const *c = k->choices; *c && m < 16; c++, m++) {
				items[m] = *c;
				if (!strcmp(*c, init))
					sel = (int)m;
			}
			title = xasprintf("%s %s: %s", t->type, k->key, k->help);
			sel = app_choose(a, title, items, NULL, m, sel);
			free(title);
			owned[n] = sel >= 0 ? xstrdup(items[sel]) : NULL;
		} else {
			title = xasprintf("%s %s (%s%s)", t->type, k->key, k->help,
					  k->required ? ", required" : ", empty: leave out");
			owned[n] = app_prompt(a, title, init);
			free(title);
		}
		free(init);
		if (!owned[n] || (k->required && !*owned[n]))
			goto out;
		vals[n] = owned[n];
		if (!strcmp(k->key, "backend"))
			backend = owned[n];
	}
	json = l2_adapter_json(t, vals);
out:
	for (size_t k = 0; k < 16; k++)
		free(owned[k]);
	return json;
}

static int add_l2(struct app *a, struct form_field *ff)
{
	const char *items[8], *help[8];
	size_t n = 0, i = SVC_OF(ff);
	char *json, *err = NULL;
	int sel;

	for (size_t k = 0; k < l2_adapter_types_count && n < 8; k++, n++) {
		items[n] = l2_adapter_types[k].type;
		help[n] = l2_adapter_types[k].help;
	}
	sel = app_choose(a, "Add an L2 adapter of type", items, help, n, 0);
	if (sel < 0)
		return 0;
	if ((json = ask_l2_keys(a, &l2_adapter_types[sel], NULL)))
		wiz_report(a, svc_add_flag(app_doc(a), i, l2_flag(), json, &err), err);
	free(json);
	return 0;
}

static int edit_l2(struct app *a, struct form_field *ff)
{
	static const char *const items[] = { "Edit its keys", "Edit the JSON", "Remove it" };
	size_t i = SVC_OF(ff), nth = SUB_OF(ff);
	char *cur = lmc_value_nth(svc_args(a, i), l2_flag(), nth), *json = NULL, *err = NULL;
	json_t *o = cur ? json_loads(cur, 0, NULL) : NULL;
	const struct l2_adapter_type *t = l2_adapter_find(json_string_value(json_object_get(o, "type")));
	int sel = app_choose(a, "L2 adapter", items, NULL, 3, t ? 0 : 1);

	if (sel == 0 && t)
		json = ask_l2_keys(a, t, o);
	else if (sel == 0 || sel == 1)
		json = app_prompt(a, "--l2-adapter JSON", cur ? cur : "");
	if (sel == 2)
		wiz_report(a, svc_set_flag_nth(app_doc(a), i, l2_flag(), nth, NULL, &err), err);
	else if (json && *json)
		wiz_report(a, svc_set_flag_nth(app_doc(a), i, l2_flag(), nth, json, &err), err);
	json_decref(o);
	free(json);
	free(cur);
	return 0;
}

/* ---- placement ------------------------------------------------------------------- */

static const char *const place_nodes[] = { "head", "infra", "dedicated", "prefill", "decode",
					   "agg", "workers", "compute", "all", NULL };

static int edit_place(struct app *a, struct form_field *ff)
{
	size_t i = SVC_OF(ff);
	int per = SUB_OF(ff) == 1;
	json_t *svc = json_array_get(services(a), i);
	const char *type = json_string_value(json_object_get(svc, "type"));
	const struct svc_kind *k = svc_kind_find(type ? type : KIND_NAME(KIND_GENERIC));
	const char *cur = json_string_value(json_object_get(json_object_get(svc, "placement"),
							    per ? "per" : "node"));
	static const char *const pers[] = { "node", "worker", NULL };
	const char *items[16], *help[16];
	size_t n = 0;
	int sel = 0;
	char *dflt, *err = NULL;

	dflt = per ? xasprintf("%s (not set: the default)", k && k->per_worker ? "worker" : "node")
	       : xasprintf("%s (not set: the kind's default)", k && k->placement ? k->placement : "head");
	items[n] = dflt;
	help[n++] = per ? "one instance per node the placement selects"
		    : "the node the kind runs on when nothing is written";
	for (const char *const *c = per ? pers : place_nodes; *c; c++, n++) {
		items[n] = *c;
		help[n] = per ? (!strcmp(*c, "worker") ? "one instance per engine worker" : "one instance per node")
			  : NULL;
		if (cur && !strcmp(cur, *c))
			sel = (int)n;
	}
	sel = app_choose(a, per ? "One per (node, worker)" : "Placement node", items, help, n, sel);
	if (sel >= 0)
		wiz_report(a, svc_set_placement(app_doc(a), i, per ? "per" : "node",
						sel ? items[sel] : NULL, &err), err);
	free(dflt);
	return 0;
}

static void add_placement_form(struct form *f, size_t i, json_t *svc)
{
	const json_t *pl = json_object_get(svc, "placement");
	const char *node = json_string_value(json_object_get(pl, "node"));
	const char *per = json_string_value(json_object_get(pl, "per"));
	const char *type = json_string_value(json_object_get(svc, "type"));
	const struct svc_kind *k = svc_kind_find(type ? type : KIND_NAME(KIND_GENERIC));
	char *s;

	/* The effective node: what srtctl will do, not the schema's generic text. */
	if (node)
		s = xasprintf("%-22s %s", "Placement node", node);
	else if (json_is_object(pl))
		s = xasprintf("%-22s head (placement without node: srtctl's default)", "Placement node");
	else
		s = xasprintf("%-22s %s (kind default)", "Placement node", svc_effective_node(svc));
	form_add_button(f, s, edit_place, PACK(i, 0))->help =
		xasprintf("services[%zu].placement.node: which nodes run it. A placement mapping "
			  "without node means head in srtctl, so srt-tui writes the node whenever it "
			  "creates the mapping.", i);
	free(s);
	s = xasprintf("%-22s %s%s", "One per (node, worker)",
		      per ? per : k && k->per_worker ? "worker" : "node", per ? "" : " (default)");
	form_add_button(f, s, edit_place, PACK(i, 1))->help =
		xasprintf("services[%zu].placement.per: node, one instance on each selected node; "
			  "worker, one per engine worker.", i);
	free(s);
}

/* Split on blanks, honouring simple '...' and "..." quotes. */
static void split_words(const char *s, struct strvec *out)
{
	struct strbuf w = STRBUF_INIT;
	int inw = 0;
	char q = 0;

	for (; *s; s++) {
		if (q) {
			if (*s == q)
				q = 0;
			else
				strbuf_addch(&w, *s);
		} else if (*s == '\'' || *s == '"') {
			q = *s;
			inw = 1;
		} else if (*s == ' ' || *s == '\t') {
			if (inw)
				strvec_push(out, sb_str(&w));
			strbuf_reset(&w);
			inw = 0;
		} else {
			strbuf_addch(&w, *s);
			inw = 1;
		}
	}
	if (inw)
		strvec_push(out, sb_str(&w));
	strbuf_release(&w);
}

static int edit_extra(struct app *a, struct form_field *ff)
{
	size_t i = IDX(ff);
	json_t *args = json_object_get(json_array_get(services(a), i), "args");
	struct strvec extra = STRVEC_INIT;
	struct strbuf cur = STRBUF_INIT;
	struct strvec words = STRVEC_INIT;
	char *v, *err = NULL;

	lmc_extra(args, &extra);
	shell_join(&cur, extra.v, extra.n);
	v = app_prompt(a, "Extra args for lmcache server (shell words)", sb_str(&cur));
	if (v) {
		split_words(v, &words);
		wiz_report(a, svc_set_extra_args(app_doc(a), i, &words, &err), err);
	}
	free(v);
	strvec_release(&words);
	strbuf_release(&cur);
	strvec_release(&extra);
	return 0;
}

static int edit_preamble(struct app *a, struct form_field *ff)
{
	size_t i = IDX(ff);
	char *p = xasprintf("services[%zu].preamble", i);
	const char *cur = wiz_get_str(app_doc(a), p);
	char *text = app_edit_external(a, cur ? cur : "");
	char *err = NULL;

	if (text) {
		int r = *text ? wiz_set_str(app_doc(a), p, text, &err) : wiz_delete(app_doc(a), p, &err);
		wiz_report(a, r, err);
	}
	free(text);
	free(p);
	return 0;
}

static int add_env(struct app *a, struct form_field *ff)
{
	char *v = app_prompt(a, "Add an environment variable (NAME=value)", "PYTHONHASHSEED=0");
	char *eq, *p, *err = NULL;
	struct strbuf path = STRBUF_INIT;

	if (!v)
		return 0;
	if (!(eq = strchr(v, '=')) || eq == v) {
		app_error(a, "write it as NAME=value");
		free(v);
		return 0;
	}
	*eq = '\0';
	p = xasprintf("services[%zu].env", IDX(ff));
	strbuf_addstr(&path, p);
	wiz_path_key(&path, v);
	wiz_report(a, wiz_set_str(app_doc(a), path.buf, eq + 1, &err), err);
	strbuf_release(&path);
	free(p);
	free(v);
	return 0;
}

static int edit_readiness(struct app *a, struct form_field *ff)
{
	static const char *const items[] = { "kind default", "tcp port", "http GET", "log pattern" };
	static const char *const help[] = {
		"No readiness block: the kind's own probe (lmcache-server: GET /healthcheck on its HTTP port).",
		"Ready when a TCP connect to the port succeeds on the service node.",
		"Ready when GET http://<node>:<port><path> returns the status.",
		"Ready when the regular expression appears in the service log (per: worker needs this).",
	};
	size_t i = IDX(ff);
	json_t *svc = json_array_get(services(a), i);
	char *p = xasprintf("services[%zu].readiness", i), *v = NULL, *err = NULL;
	int sel = (int)ready_kind_of(json_object_get(svc, "readiness")), r = 0;
	json_t *o = NULL;

	sel = app_choose(a, "Readiness probe", items, help, 4, sel);
	if (sel < 0)
		goto out;
	if (sel == READY_DEFAULT) {
		r = wiz_delete(app_doc(a), p, &err);
		goto report;
	}
	v = app_prompt(a, sel == READY_LOG ? "Log pattern (regular expression)"
			  : sel == READY_HTTP ? "Port and path (8080/health)" : "TCP port",
		       sel == READY_LOG ? "ready" : sel == READY_HTTP ? "8080/health" : "8080");
	if (!v)
		goto out;
	o = json_object();
	if (sel == READY_LOG) {
		json_t *l = json_object();
		json_object_set_new(l, "pattern", json_string(v));
		json_object_set_new(o, "log", l);
	} else {
		char *end;
		long port = strtol(v, &end, 10);
		if (port < 1 || port > 65535 || (sel == READY_TCP && *end) ||
		    (sel == READY_HTTP && *end && *end != '/')) {
			app_error(a, "'%s' is not a port (1-65535)%s", v, sel == READY_HTTP ? " and /path" : "");
			goto out;
		}
		if (sel == READY_TCP) {
			json_object_set_new(o, "port", json_integer(port));
		} else {
			json_t *h = json_object();
			json_object_set_new(h, "port", json_integer(port));
			json_object_set_new(h, "path", json_string(*end ? end : "/health"));
			json_object_set_new(o, "http", h);
		}
	}
	r = wiz_set(app_doc(a), p, o, 1, &err);
report:
	wiz_report(a, r, err);
out:
	json_decref(o);
	free(v);
	free(p);
	return 0;
}

/* One row of the services list: a custom field so it can hold the list's
 * selection (form->user) and take the list keys. */
struct svc_row {
	struct svc_ui *u;
	size_t index;
	char *text;
};

static void row_free(void *p)
{
	struct svc_row *r = p;
	free(r->text);
	free(r);
}

static void row_draw(struct app *a, struct form_field *ff, WINDOW *w, int y, int x, int width,
		     int height, int focused)
{
	struct svc_row *r = ff->data;
	(void)height;
	draw_str(w, y, x, width, r->text, app_attr(a, focused ? TH_FOCUS : TH_VALUE));
	if (width > 0 && (int)strlen(r->text) < width)
		draw_text(w, y, x + utf8_width(r->text, strlen(r->text)),
			  width - utf8_width(r->text, strlen(r->text)), "", 0,
			  app_attr(a, focused ? TH_FOCUS : TH_NORMAL), 1);
}

/* Move the focused service; the focus and the form follow it, so K K moves
 * one service two places (the focus used to stay on the row number). */
static void move_row(struct app *a, struct svc_row *r, int dir)
{
	size_t idx = r->index, n = json_array_size(services(a));
	struct svc_ui *u = r->u; /* r dies with the rebuild the move causes */
	char id[40];

	if ((dir < 0 && idx == 0) || (dir > 0 && idx + 1 >= n)) {
		app_message(a, "already the %s service", dir < 0 ? "first" : "last");
		return;
	}
	if (move_service(a, idx, dir))
		return;
	u->sel = idx + (size_t)dir;
	snprintf(id, sizeof(id), "services-row-%zu", u->sel);
	app_focus_path(a, id);
}

static int row_key(struct app *a, struct form_field *ff, int key)
{
	struct svc_row *r = ff->data;

	switch (key) {
	case K_ENTER:
	case '\n':
	case ' ':
		r->u->sel = r->index;
		/* the form below is the selected service's: build it again (the
		 * document did not change, so nothing else would) */
		app_rebuild(a);
		app_message(a, "service %zu selected: its settings are below", r->index + 1);
		return 1;
	case 'd':
	case K_FN(KEY_DC):
		remove_service(a, r->index);
		return 1;
	case 'K':
	case K_ALT(K_FN(KEY_UP)):
		move_row(a, r, -1);
		return 1;
	case 'J':
	case K_ALT(K_FN(KEY_DOWN)):
		move_row(a, r, 1);
		return 1;
	}
	return 0;
}

static int row_click(struct app *a, struct form_field *ff, int row, int col)
{
	(void)row;
	(void)col;
	return row_key(a, ff, K_ENTER);
}

static const struct form_widget svc_row_widget = { NULL, row_draw, row_key, row_click };

/* The items of args that occurrence o spans, as recipe paths one a line
 * (what a flag's button carries the problems of). */
static void add_items(struct strbuf *out, size_t i, const struct lmc_occ *o)
{
	for (size_t k = 0; k < (o->n ? o->n : 1); k++)
		strbuf_addf(out, "%sservices[%zu].args[%zu]", out->len ? "\n" : "", i, o->at + k);
}

/* The paths of flag f's occurrences (nth: only that one; SIZE_MAX: all),
 * one a line; NULL when it has none. */
static char *flag_items(const struct lmc_scan *sc, size_t i, const struct lmc_flag *f, size_t nth)
{
	struct strbuf sb = STRBUF_INIT;
	size_t seen = 0;
	for (size_t k = 0; k < sc->n; k++)
		if (sc->v[k].flag == f && (nth == SIZE_MAX || seen++ == nth))
			add_items(&sb, i, &sc->v[k]);
	return sb.len ? strbuf_detach(&sb, NULL) : (strbuf_release(&sb), NULL);
}

static void add_lmcache_form(struct form *f, size_t i, json_t *svc)
{
	json_t *args = json_object_get(svc, "args");
	struct strvec extra = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	char *pre = lmc_prefix_text(), *s;
	struct lmc_scan sc = LMC_SCAN_INIT;

	/* which items each flag spans: its problems show at its button */
	lmc_scan(&sc, args, 0);

	s = xasprintf("%s, then:", pre);
	form_add_text(f, s);
	free(s);
	for (int g = LMC_G_L1; g < LMC_G_COUNT; g++) {
		form_add_text(f, lmc_group_names[g])->depth = 1;
		for (size_t k = 0; k < lmc_flags_count; k++) {
			const struct lmc_flag *fl = &lmc_flags[k];
			if ((int)fl->group != g || !fl->label)
				continue;
			if (fl->repeatable) { /* the L2 adapter list */
				size_t n = lmc_count(args, fl);
				for (size_t nth = 0; nth < n; nth++) {
					char *v = lmc_value_nth(args, fl, nth);
					const char *w[2] = { fl->name, v };
					strbuf_reset(&sb);
					shell_join(&sb, (char **)w, 2);
					s = xasprintf("%zu: %s", nth + 1, sb.buf);
					struct form_field *ff = form_add_button(f, s, edit_l2, PACK(i, nth));
					ff->help = xstrdup("Enter: edit its keys, edit the JSON, or remove it.");
					ff->diag_path = flag_items(&sc, i, fl, nth);
					ff->depth = 2;
					free(s);
					free(v);
				}
				struct form_field *ff = form_add_button(f, "+ Add an L2 adapter", add_l2, PACK(i, 0));
				ff->help = xasprintf("%s: %s", fl->name, fl->help);
				ff->depth = 2;
				continue;
			}
			char *v = lmc_value(args, fl);
			if (v)
				s = xasprintf("%-22s %s", fl->label, v);
			else if (fl->dflt)
				s = xasprintf("%-22s (default %s)", fl->label, fl->dflt);
			else
				s = xasprintf("%-22s (not set%s)", fl->label,
					      fl->required ? ": required, the server will not start" : "");
			struct form_field *ff = form_add_button(f, s, edit_flag, PACK(i, k));
			char since[160];
			ff->help = xasprintf("%s: %s%s%s; in %s", fl->name, fl->help,
					     fl->dflt ? "; default " : "", fl->dflt ? fl->dflt : "",
					     lmc_since_text(&fl->since, since, sizeof(since)));
			ff->depth = 2;
			ff->diag_path = flag_items(&sc, i, fl, SIZE_MAX);
			free(s);
			free(v);
		}
	}
	lmc_extra(args, &extra);
	shell_join(&sb, extra.v, extra.n);
	{
		s = xasprintf("%-22s %s", "Extra args", sb.len ? sb.buf : "(none)");
		struct form_field *ff = form_add_button(f, s, edit_extra, DATA(i));
		ff->help = xasprintf("Any other `lmcache server` flags, as shell words. Do not set "
				     "--host, --port or --http-port: srtctl owns %d and %d.",
				     LMCACHE_RPC_PORT, LMCACHE_HTTP_PORT);
		/* its problems show here: those at args itself, at the words
		 * that are no flag of the table, and at the flags the form has
		 * no button for */
		strbuf_reset(&sb);
		strbuf_addf(&sb, "services[%zu].args", i);
		for (size_t k = 0; k < sc.n; k++)
			if (!sc.v[k].flag || !sc.v[k].flag->label)
				add_items(&sb, i, &sc.v[k]);
		ff->diag_path = strbuf_detach(&sb, NULL);
		ff->flags |= FFL_DIAG_EXACT;
		ff->depth = 1;
		free(s);
	}
	lmc_scan_release(&sc);
	strbuf_release(&sb);
	strvec_release(&extra);
	free(pre);
}

static void service_form(struct app *a, struct form *f, size_t i, json_t *svc)
{
	const char *type = json_string_value(json_object_get(svc, "type"));
	const char *name = json_string_value(json_object_get(svc, "name"));
	const char *pre = json_string_value(json_object_get(svc, "preamble"));
	json_t *env = json_object_get(svc, "env");
	char *s, *p;
	const char *k;
	json_t *v;

	s = xasprintf("Service %s (%s)", name ? name : "?", type ? type : KIND_NAME(KIND_GENERIC));
	form_add_heading(f, s);
	free(s);
#define VALUE(key, label)                                                  \
	do {                                                               \
		p = xasprintf("services[%zu].%s", i, key);                 \
		form_add_value(f, p, label);                               \
		free(p);                                                   \
	} while (0)
	VALUE("name", "Name");
	VALUE("type", "Type");
	if (svc_kind_is(type, KIND_LMCACHE_SERVER)) {
		add_lmcache_form(f, i, svc);
	} else {
		VALUE("command", "Command");
		VALUE("args", "Args");
	}
	add_placement_form(f, i, svc);
	VALUE("start", "Start phase");
	VALUE("critical", "Critical");
	VALUE("container", "Container");
	form_add_text(f, "Environment (services do not inherit the recipe's environment):");
	json_object_foreach(env, k, v) {
		struct strbuf path = STRBUF_INIT;
		p = xasprintf("services[%zu].env", i);
		strbuf_addstr(&path, p);
		wiz_path_key(&path, k);
		form_add_value(f, path.buf, k)->depth = 1;
		strbuf_release(&path);
		free(p);
	}
	form_add_button(f, "+ Add an environment variable", add_env, DATA(i))->depth = 1;
	s = ready_summary(json_object_get(svc, "readiness"), type);
	p = xasprintf("Readiness: %s", s);
	form_add_button(f, p, edit_readiness, DATA(i));
	free(p);
	free(s);
	if (pre) {
		size_t n = strcspn(pre, "\n");
		s = xasprintf("Preamble: %.*s%s  (Enter: $EDITOR)", (int)n, pre,
			      pre[n] && pre[n + 1] ? " ..." : "");
	} else {
		s = xstrdup("Preamble: (none)  (Enter: $EDITOR)");
	}
	form_add_button(f, s, edit_preamble, DATA(i))->help =
		xstrdup("Shell run in the container before the command, e.g. ulimit -l unlimited.");
	free(s);
#undef VALUE
}

static void services_build(struct app *a, struct form *f)
{
	const struct app_state *st = app_state(a);
	struct svc_ui *u = ui(f);
	json_t *list = services(a), *svc;
	size_t i;

	form_add_heading(f, "Services");
	if (!st->root) {
		form_add_text(f, "The recipe does not load: fix it in the Fields tree.");
		return;
	}
	for (i = 0; i < st->recipe.nsvc; i++) {
		const struct service *s = &st->recipe.svc[i];
		if (s->implied_by) {
			char *t = xasprintf("  %s (%s) implied by %s", s->name, s->type, s->implied_by);
			form_add_text(f, t);
			free(t);
		}
	}
	if (u->sel >= json_array_size(list))
		u->sel = json_array_size(list) ? json_array_size(list) - 1 : 0;
	json_array_foreach(list, i, svc) {
		const char *name = json_string_value(json_object_get(svc, "name"));
		const char *type = json_string_value(json_object_get(svc, "type"));
		const struct service *eff = st->recipe.svc;
		const char *place = NULL, *start = NULL;
		char *t;
		for (size_t k = 0; k < st->recipe.nsvc; k++)
			if (eff[k].index == (int)i) {
				place = eff[k].placement;
				start = eff[k].start;
			}
		t = xasprintf("%s %-16s %-15s on %s, %s", i == u->sel ? ">" : " ",
			      name ? name : "?", type ? type : KIND_NAME(KIND_GENERIC), place ? place : "?",
			      start ? start : "?");
		{
			struct svc_row *r = xcalloc(1, sizeof(*r));
			char id[40];
			r->u = u;
			r->index = i;
			r->text = t;
			snprintf(id, sizeof(id), "services-row-%zu", i);
			struct form_field *ff = form_add_custom(f, id, &svc_row_widget, r, row_free);
			ff->help = xstrdup("Enter selects; a adds, d removes, K/J (or Alt-Up/Alt-Down) move.");
			/* the service's problems: the marker at its row, the first
			 * line below it; the selected one's form below shows them
			 * at their fields, so its row keeps only the marker */
			ff->diag_path = xasprintf("services[%zu]", i);
			if (i == u->sel)
				ff->flags |= FFL_DETAILS_BELOW;
		}
	}
	form_add_button(f, "+ Add a service (a)", add_service, u);
	form_add_text(f, "Enter: select  a: add  d: remove  K/J: move up/down");
	if ((svc = json_array_get(list, u->sel)))
		service_form(a, f, u->sel, svc);
	wiz_add_next(f);
}

/* `a` adds a service from anywhere on this screen. */
static int services_key(struct app *a, struct form *f, int key)
{
	if (key == 'a') {
		add_service_ui(a, ui(f));
		return 1;
	}
	return 0;
}

const struct app_screen wiz_services_screen = { "Services", services_build, services_key, 0 };
