/* `srt-tui new`: the wizard's steps on the form engine, and the command's
 * entry point.  The document is made from a template's text; every step
 * edits it through model/doc, so the file written is the template with the
 * user's edits as patches (comments and layout of the template survive). */
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/doc.h"
#include "model/fileio.h"
#include "model/schema.h"
#include "render/plan.h"
#include "tui/app.h"
#include "tui/form.h"
#include "tui/screen_variants.h"
#include "tui/widget_connector.h"
#include "model/ops.h"
#include "tui/wizard.h"
#include "tui/wizard_screens.h"

void wiz_report(struct app *a, int r, char *err)
{
	if (r && err)
		app_error(a, "%s", err);
	free(err);
}

int wiz_next(struct app *a, struct form_field *ff)
{
	(void)ff;
	app_next_screen(a);
	return 0;
}

void wiz_add_next(struct form *f)
{
	form_add_text(f, "");
	form_add_button(f, "Next step >", wiz_next, NULL);
}

void wiz_keep_comments_true(struct app *a)
{
	struct doc *d = app_doc(a);
	size_t len, dropped = 0;
	const char *text = doc_text(d, &len);
	const struct template *t = wiz_template_of(text);
	if (!t)
		return;
	char *fixed = wiz_fix_template_comments(text, t, &dropped);
	char *err = NULL;
	if (dropped && doc_replace_text(d, fixed, strlen(fixed), &err))
		app_error(a, "%s", err ? err : "cannot update the template's comments");
	free(err);
	free(fixed);
}

/* ---- Basics ---- */

/* The first step of `new` offers the templates: the wizard used to start
 * from vllm-lmcache-agg without saying so, and the others were reachable
 * only through --template. */
static int pick_template(struct app *a, struct form_field *ff)
{
	size_t len;
	const char *text = doc_text(app_doc(a), &len);
	const struct template *cur = wiz_template_of(text);
	const char **items = xcalloc(templates_count + 1, sizeof(char *));
	const char **help = xcalloc(templates_count + 1, sizeof(char *));
	int sel = 0;
	(void)ff;
	for (size_t i = 0; i < templates_count; i++) {
		items[i] = templates[i].name;
		help[i] = templates[i].description;
		if (cur == &templates[i])
			sel = (int)i;
	}
	sel = app_choose(a, "Start from a template", items, help, templates_count, sel);
	if (sel >= 0 && &templates[sel] != cur) {
		char *err = NULL;
		const char *t = templates[sel].text;
		if (doc_replace_text(app_doc(a), t, strlen(t), &err))
			app_error(a, "%s", err ? err : "cannot load the template");
		else
			app_message(a, "started from %s (u goes back)", templates[sel].name);
		free(err);
	}
	free(items);
	free(help);
	return 0;
}

static void basics_fields(struct form *f);

static void basics_new_build(struct app *a, struct form *f)
{
	size_t len;
	const struct template *t = wiz_template_of(doc_text(app_doc(a), &len));
	form_add_heading(f, "Template");
	char *s = xasprintf("Template: %s", t ? t->name : "(changed)");
	form_add_button(f, s, pick_template, NULL)->help =
		xstrdup("Enter: start from another template (each explained); u goes back.");
	free(s);
	if (t)
		form_add_text(f, t->description);
	basics_fields(f);
}

static void basics_build(struct app *a, struct form *f)
{
	(void)a;
	basics_fields(f);
}

static void basics_fields(struct form *f)
{
	form_add_heading(f, "Recipe");
	form_add_value(f, "name", "Job name");
	form_add_heading(f, "Model");
	form_add_value(f, "model.path", "Weights (path or alias)");
	form_add_value(f, "model.container", "Container image");
	form_add_value(f, "model.precision", "Precision");
	form_add_heading(f, "Resources");
	form_add_value(f, "resources.gpu_type", "GPU type");
	form_add_value(f, "resources.gpus_per_node", "GPUs per node");
	form_add_heading(f, "Slurm");
	form_add_value(f, "slurm.account", "Account");
	form_add_value(f, "slurm.partition", "Partition");
	form_add_value(f, "slurm.time_limit", "Time limit (HH:MM:SS)");
	wiz_add_next(f);
}

/* ---- Engine ---- */

const char *wiz_engine_type(struct app *a)
{
	const struct app_state *st = app_state(a);
	return st->root ? st->recipe.engine : NULL;
}

static int pick_engine(struct app *a, struct form_field *ff)
{
	const char *cur = wiz_engine_type(a);
	const char *items[16], *help[16];
	size_t n = 0;
	int sel = 0, r = 0;
	char *err = NULL;
	const struct schema_field *sf = schema_lookup("engine.type", NULL);

	(void)ff;
	for (const char *const *t = schema_engine_types; *t && n < 16; t++, n++) {
		items[n] = *t;
		help[n] = !strcmp(*t, "vllm") ? "vLLM: connector presets, LMCache MP (lmcache-mp)"
			: !strcmp(*t, "sglang") ? "SGLang: LMCache through enable-lmcache on a role"
			: !strcmp(*t, "atom") ? "ATOM (ROCm): Mooncake P/D, extra-kv-connectors for LMCache; needs frontend atomesh"
			: sf ? sf->help : NULL;
		if (cur && !strcmp(cur, *t))
			sel = (int)n;
	}
	sel = app_choose(a, "Engine type", items, help, n, sel);
	if (sel < 0 || (cur && !strcmp(cur, items[sel])))
		return 0;
	{
		const char *fe = NULL;
		r = ops_set_engine(app_doc(a), items[sel], &fe, &err);
		if (!r && fe)
			app_message(a, "frontend.type set to %s for %s", fe, items[sel]);
	}
	wiz_report(a, r, err);
	return 0;
}

static int pick_engine_connector(struct app *a, struct form_field *ff)
{
	const char *items[16], *help[16];
	const char *cur = wiz_get_str(app_doc(a), "engine.connector");
	size_t n = 0;
	int sel = 0;
	char *err = NULL;

	(void)ff;
	for (const struct connector_preset_info *p; n < 16 && (p = conn_preset_at(n)); n++) {
		items[n] = p->name;
		help[n] = p->explain;
		if (cur ? !strcasecmp(cur, items[n]) : !strcmp(items[n], "nixl"))
			sel = (int)n;
	}
	sel = app_choose(a, "vLLM connector for every role", items, help, n, sel);
	if (sel >= 0)
		wiz_report(a, conn_set_engine(app_doc(a), items[sel], &err), err);
	return 0;
}

static int pick_mooncake(struct app *a, struct form_field *ff)
{
	static const char *const items[] = { "(srtctl default)", "rdma", "tcp" };
	static const char *const help[] = { "leave it to ATOM (no protocol key in the Mooncake entry)",
					    "RDMA transfer between prefill and decode nodes",
					    "TCP transfer: works everywhere, slower" };
	const char *cur = wiz_get_str(app_doc(a), "engine.mooncake_protocol");
	struct doc *d = app_doc(a);
	int sel = cur ? (!strcmp(cur, "rdma") ? 1 : 2) : 0, r;
	char *err = NULL;

	(void)ff;
	sel = app_choose(a, "ATOM Mooncake protocol", items, help, 3, sel);
	if (sel < 0)
		return 0;
	if (sel == 0) {
		r = wiz_delete(d, "engine.mooncake_protocol", &err);
	} else {
		r = wiz_engine_mapping(d, &err);
		if (!r)
			r = wiz_set_str(d, "engine.mooncake_protocol", items[sel], &err);
	}
	wiz_report(a, r, err);
	return 0;
}

static void engine_build(struct app *a, struct form *f)
{
	const char *eng = wiz_engine_type(a);
	struct doc *d = app_doc(a);
	char *s;

	form_add_heading(f, "Engine");
	s = xasprintf("Engine type: %s", eng ? eng : "(not set)");
	form_add_button(f, s, pick_engine, NULL)->help =
		xstrdup("The inference engine of every role. Enter picks another one; "
			"knobs of the old engine are removed.");
	free(s);
	if (eng && !strcmp(eng, "vllm")) {
		const char *c = wiz_get_str(d, "engine.connector");
		char *sum = conn_summary(c ? c : "nixl");
		const struct connector_preset_info *p = conn_preset_find(c ? c : "nixl");
		form_add_heading(f, "KV connector (every role; a role may override it)");
		s = xasprintf("Connector: %s%s", sum, c ? "" : " [default]");
		form_add_button(f, s, pick_engine_connector, NULL);
		free(s);
		free(sum);
		if (p)
			form_add_text(f, p->explain);
	} else if (eng && !strcmp(eng, "atom")) {
		const char *mp = wiz_get_str(d, "engine.mooncake_protocol");
		form_add_heading(f, "Mooncake (prefill -> decode KV transfer)");
		s = xasprintf("Mooncake protocol: %s", mp ? mp : "(srtctl default)");
		form_add_button(f, s, pick_mooncake, NULL);
		free(s);
		form_add_text(f, "LMCache for ATOM: extra-kv-connectors, per role, in the Connectors step.");
	} else if (eng && !strcmp(eng, "sglang")) {
		form_add_text(f, "LMCache for SGLang: enable-lmcache, per role, in the Connectors step.");
	}
	wiz_add_next(f);
}

/* ---- Frontend and benchmark ---- */

static void frontend_build(struct app *a, struct form *f)
{
	(void)a;
	form_add_heading(f, "Frontend");
	form_add_value(f, "frontend.type", "Frontend type");
	form_add_value(f, "frontend.enable_multiple_frontends", "nginx + several routers");
	form_add_heading(f, "Benchmark");
	form_add_value(f, "benchmark.type", "Benchmark type");
	form_add_value(f, "benchmark.isl", "Input length (isl)");
	form_add_value(f, "benchmark.osl", "Output length (osl)");
	form_add_value(f, "benchmark.concurrencies", "Concurrencies");
	wiz_add_next(f);
}

/* ---- Review ---- */

static void review_build(struct app *a, struct form *f)
{
	const struct app_state *st = app_state(a);
	struct strbuf sb = STRBUF_INIT;
	int nodes = st->root ? plan_job_nodes(&st->recipe) : -1;

	form_add_heading(f, "Review");
	strbuf_addf(&sb, "%zu error%s, %zu warning%s", st->errors, st->errors == 1 ? "" : "s",
		    st->warnings, st->warnings == 1 ? "" : "s");
	if (nodes > 0)
		strbuf_addf(&sb, "; the job asks Slurm for %d node%s", nodes, nodes == 1 ? "" : "s");
	form_add_text(f, sb.buf);
	strbuf_reset(&sb);
	/* Focusable first, so the review opens at its top. */
	form_add_button(f, "Next step: Write >", wiz_next, NULL);
	/* One recipe, many jobs: the same actions as the Variants screen. */
	form_add_button(f, "Turn it into an override file (base + a variant)",
			variants_make_override, NULL);
	form_add_button(f, "Add a sweep over a field", variants_add_sweep, NULL);
	if (st->diags.n) {
		form_add_heading(f, "Problems");
		for (size_t i = 0; i < st->diags.n; i++) {
			const struct diag *dg = &st->diags.v[i];
			strbuf_addf(&sb, "%s %s%s%s [%s]\n", dg->severity == DIAG_ERROR ? "E" : "W",
				    *dg->path ? dg->path : "", *dg->path ? ": " : "", dg->message,
				    dg->code);
			if (dg->hint)
				strbuf_addf(&sb, "    hint: %s\n", dg->hint);
		}
		if (sb.len && sb.buf[sb.len - 1] == '\n')
			sb.buf[--sb.len] = '\0';
		form_add_text(f, sb.buf);
		strbuf_reset(&sb);
	}
	form_add_heading(f, "Services (as srtctl dry-run prints them)");
	form_add_text(f, app_preview(a, PV_SERVICES));
	form_add_heading(f, "Workers");
	form_add_text(f, app_preview(a, PV_WORKERS));
	form_add_heading(f, "YAML");
	form_add_text(f, app_preview(a, PV_YAML));
	strbuf_release(&sb);
}

/* ---- Write ---- */

static char *suggested_path(struct app *a)
{
	const struct app_state *st = app_state(a);
	const char *name = st->root ? st->recipe.name : NULL;
	return xasprintf("%s.yaml", name && *name && !strchr(name, '/') ? name : "recipe");
}

static int choose_path(struct app *a, struct form_field *ff)
{
	char *init = app_path(a) ? xstrdup(app_path(a)) : suggested_path(a);
	char *p = app_prompt(a, "Write the recipe to", init);

	(void)ff;
	if (p && *p)
		app_set_path(a, p);
	free(p);
	free(init);
	return 0;
}

static int write_recipe(struct app *a, struct form_field *ff)
{
	const struct app_state *st = app_state(a);
	struct doc *d = app_doc(a);
	struct stat sb;
	const char *text;
	size_t len;
	char *err = NULL, *q;
	int exists;

	if (!app_path(a))
		choose_path(a, ff);
	if (!app_path(a))
		return 0;
	if (st->errors) {
		q = xasprintf("The recipe has %zu error%s (see Review). Write it anyway?", st->errors,
			      st->errors == 1 ? "" : "s");
		int k = app_confirm(a, "Errors", q, "ny");
		free(q);
		if (k != 'y')
			return 0;
	}
	exists = stat(app_path(a), &sb) == 0;
	if (exists) {
		q = xasprintf("'%s' exists. Overwrite it (the old one is kept as .bak)?", app_path(a));
		int k = app_confirm(a, "Overwrite?", q, "ny");
		free(q);
		if (k != 'y')
			return 0;
	}
	wiz_keep_comments_true(a);
	text = doc_text(d, &len);
	if (file_write_atomic(app_path(a), text, len, exists ? WRITE_BACKUP : WRITE_NEW, &err)) {
		app_error(a, "%s", err);
		free(err);
		return 0;
	}
	app_written(a);
	app_message(a, "wrote %s; q quits, F5 submits, or keep editing and save with F2",
		    app_path(a));
	return 0;
}

static void write_build(struct app *a, struct form *f)
{
	const struct app_state *st = app_state(a);
	char *s;

	form_add_heading(f, "Write");
	s = xasprintf("File: %s", app_path(a) ? app_path(a) : "(not chosen yet)");
	form_add_button(f, s, choose_path, NULL)->help =
		xstrdup("Where the recipe goes. An existing file is replaced only after you confirm.");
	free(s);
	if (st->errors)
		form_add_text(f, "E The recipe still has errors: see the Review step.");
	form_add_button(f, "Write the recipe", write_recipe, NULL);
	form_add_text(f, "");
	if (app_path(a)) {
		s = xasprintf("Then F5 (or !) submits it, or from a shell:\n"
			      "  srt-tui validate %s\n  srtctl apply -f %s", app_path(a), app_path(a));
		form_add_text(f, s);
		free(s);
	} else {
		form_add_text(f, "Then F5 (or !) submits it, or from a shell: srt-tui validate FILE, "
				 "srtctl apply -f FILE");
	}
}

/* `edit`'s Write step: Review's "Next step: Write" used to land on
 * Variants, and there was no way to save elsewhere. */
static int edit_save(struct app *a, struct form_field *ff)
{
	(void)ff;
	app_save(a);
	return 0;
}

static int edit_save_as(struct app *a, struct form_field *ff)
{
	(void)ff;
	app_save_as(a);
	return 0;
}

static void edit_write_build(struct app *a, struct form *f)
{
	const struct app_state *st = app_state(a);
	char *s;

	form_add_heading(f, "Write");
	s = xasprintf("File: %s%s%s", app_path(a) ? app_path(a) : "(not chosen yet)",
		      app_read_only(a) ? "  [RO] read-only: save it as another file" : "",
		      doc_dirty(app_doc(a)) ? "  (unsaved changes)" : "");
	form_add_text(f, s);
	free(s);
	if (st->errors) {
		s = xasprintf("E The recipe has %zu error%s: see the Review step.", st->errors,
			      st->errors == 1 ? "" : "s");
		form_add_text(f, s);
		free(s);
	}
	form_add_button(f, "Save (F2)", edit_save, NULL)->help =
		xstrdup("Write the changes into the file; the previous version is kept as FILE.bak.");
	form_add_button(f, "Save as another file...", edit_save_as, NULL)->help =
		xstrdup("Write the recipe to a new path; the session then edits that file.");
}

const struct app_screen wizard_edit_write_screen = { "Write", edit_write_build, NULL,
						     SCREEN_ANY_FILE };

static const struct app_screen s_basics = { "Basics", basics_build, NULL, 0 };
static const struct app_screen s_basics_new = { "Basics", basics_new_build, NULL, 0 };
static const struct app_screen s_engine = { "Engine", engine_build, NULL, 0 };
static const struct app_screen s_frontend = { "Frontend", frontend_build, NULL, 0 };
static const struct app_screen s_review = { "Review", review_build, NULL, 0 };
static const struct app_screen s_write = { "Write", write_build, NULL, SCREEN_ANY_FILE };

const struct app_screen *const *wizard_steps(void)
{
	static const struct app_screen *const steps[] = {
		&s_basics, &s_engine, &wiz_topology_screen, &wiz_connectors_screen,
		&wiz_services_screen, &s_frontend, &s_review, NULL,
	};
	return steps;
}

int wizard_run(const struct wizard_opts *o)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct app_opts ao = { o->path, o->theme, o->submit_cmd, o->no_mouse,
			       wiz_keep_comments_true, o->srtctl_dir, wiz_keep_comments_true };
	char *name = xasprintf("%s.yaml", o->tmpl->name);
	struct doc *d = doc_load(name, o->tmpl->text, strlen(o->tmpl->text), &dl);
	struct app *a;
	int rc;

	free(name);
	setlocale(LC_ALL, ""); /* wide characters and the UTF-8 test of app_attach */
	if (!d) {
		fprintf(stderr, "srt-tui: template '%s' does not load: %s\n", o->tmpl->name,
			dl.n ? dl.v[0].message : "unknown error");
		diag_list_release(&dl);
		return 2;
	}
	app_init(&a, d, &ao);
	for (const struct app_screen *const *s = wizard_steps(); *s; s++)
		app_add_screen(a, *s == &s_basics ? &s_basics_new : *s);
	app_add_screen(a, &s_write);
	rc = app_run(a);
	app_free(a);
	diag_list_release(&dl);
	return rc;
}
