/* The Services step: the declared services as a list (add, remove, move),
 * the implied ones with their reason, and a form for the selected service:
 * the lmcache-server fields that become `lmcache server` flags, extra args,
 * placement, start, critical, container, env, readiness and the preamble. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "model/svckind.h"
#include "lib/shell.h"
#include "tui/draw.h"
#include "tui/widget_services.h"
#include "tui/wizard.h"
#include "tui/wizard_screens.h"

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
		if (!strcmp(items[n], "lmcache-server"))
			sel = (int)n;
		n++;
	}
	sel = app_choose(a, "Add a service of type", items, help, n, sel);
	if (sel < 0)
		return 0;
	int r = svc_add(app_doc(a), items[sel],
			!strcmp(items[sel], "lmcache-server") ? "lmcache" : items[sel], &err);
	wiz_report(a, r, err);
	if (!r) {
		json_t *list = services(a);
		size_t nl = list ? json_array_size(list) : 0;
		if (u && nl)
			u->sel = nl - 1;
		app_message(a, "added service '%s' (%s): its settings are below (u undoes)",
			    !strcmp(items[sel], "lmcache-server") ? "lmcache" : items[sel], items[sel]);
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

static int edit_lmc(struct app *a, struct form_field *ff)
{
	size_t i = IDX(ff) >> 4;
	enum lmc_field fld = (enum lmc_field)(IDX(ff) & 0xf);
	json_t *args = json_object_get(json_array_get(services(a), i), "args");
	struct lmc_form form = LMC_FORM_INIT;
	char *v = NULL, *err = NULL;

	lmc_form_from_args(&form, args);
	if (lmc_fields[fld].choices) {
		const char *items[8], *help[8];
		size_t n = 0;
		int sel = 0;
		items[n] = "(not set)";
		help[n++] = "leave it to LMCache's default";
		for (const char *const *c = lmc_fields[fld].choices; *c && n < 8; c++, n++) {
			items[n] = *c;
			help[n] = lmc_fields[fld].help;
			if (form.value[fld] && !strcmp(form.value[fld], *c))
				sel = (int)n;
		}
		sel = app_choose(a, lmc_fields[fld].label, items, help, n, sel);
		if (sel >= 0)
			v = xstrdup(sel ? items[sel] : "");
	} else {
		v = app_prompt(a, lmc_fields[fld].label, form.value[fld] ? form.value[fld] : "");
	}
	if (v)
		wiz_report(a, svc_lmc_set(app_doc(a), i, fld, v, &err), err);
	free(v);
	lmc_form_release(&form);
	return 0;
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
	struct lmc_form form = LMC_FORM_INIT;
	struct strbuf cur = STRBUF_INIT;
	struct strvec words = STRVEC_INIT;
	char *v, *err = NULL;

	lmc_form_from_args(&form, args);
	shell_join(&cur, form.extra.v, form.extra.n);
	v = app_prompt(a, "Extra args for lmcache server (shell words)", sb_str(&cur));
	if (v) {
		split_words(v, &words);
		wiz_report(a, svc_set_extra_args(app_doc(a), i, &words, &err), err);
	}
	free(v);
	strvec_release(&words);
	strbuf_release(&cur);
	lmc_form_release(&form);
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
		"No readiness block: the kind's own probe (lmcache-server: GET :8751/healthcheck).",
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

static void add_lmcache_form(struct form *f, size_t i, json_t *svc)
{
	struct lmc_form form = LMC_FORM_INIT;
	struct strbuf sb = STRBUF_INIT;

	lmc_form_from_args(&form, json_object_get(svc, "args"));
	form_add_text(f, "lmcache server --host 0.0.0.0 --port 8750 --http-host 0.0.0.0 --http-port 8751, then:");
	for (int k = 0; k < LMC_NFIELDS; k++) {
		char *s = xasprintf("%-17s %s", lmc_fields[k].label,
				    form.value[k] ? form.value[k] : "(not set)");
		struct form_field *ff = form_add_button(f, s, edit_lmc, DATA((i << 4) | (size_t)k));
		ff->help = xasprintf("%s: %s", lmc_fields[k].flag, lmc_fields[k].help);
		ff->depth = 1;
		free(s);
	}
	shell_join(&sb, form.extra.v, form.extra.n);
	{
		char *s = xasprintf("%-17s %s", "Extra args", sb.len ? sb.buf : "(none)");
		struct form_field *ff = form_add_button(f, s, edit_extra, DATA(i));
		ff->help = xstrdup("Any other `lmcache server` flags, as shell words. Do not set "
				   "--host, --port or --http-port: srtctl owns 8750 and 8751.");
		ff->diag_path = xasprintf("services[%zu].args", i); /* its problems show here */
		ff->depth = 1;
		free(s);
	}
	strbuf_release(&sb);
	lmc_form_release(&form);
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

	s = xasprintf("Service %s (%s)", name ? name : "?", type ? type : "generic");
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
	if (type && !strcmp(type, "lmcache-server")) {
		add_lmcache_form(f, i, svc);
	} else {
		VALUE("command", "Command");
		VALUE("args", "Args");
	}
	{
		/* The kind's defaults, not the schema's generic `head`: an
		 * lmcache-server runs on the worker nodes unless told otherwise. */
		const struct svc_kind *kind = type ? svc_kind_find(type) : NULL;
		VALUE("placement.node", "Placement node");
		if (kind && kind->placement)
			f->v[f->n - 1].dflt = xasprintf("\"%s\"", kind->placement);
		VALUE("placement.per", "One per (node, worker)");
		if (kind && kind->per_worker)
			f->v[f->n - 1].dflt = xstrdup("\"worker\"");
	}
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
			      name ? name : "?", type ? type : "generic", place ? place : "?",
			      start ? start : "?");
		{
			struct svc_row *r = xcalloc(1, sizeof(*r));
			char id[40];
			r->u = u;
			r->index = i;
			r->text = t;
			snprintf(id, sizeof(id), "services-row-%zu", i);
			form_add_custom(f, id, &svc_row_widget, r, row_free)->help =
				xstrdup("Enter selects; a adds, d removes, K/J (or Alt-Up/Alt-Down) move.");
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
