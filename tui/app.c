/*
 * app.c — the session: its lifetime, accessors, edits, messages, screens and
 * search, and the main loop.  The rest lives beside it (app_int.h lists
 * which file holds what).
 */
#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/ops_services.h"
#include "model/path.h"
#include "model/srtctl_schema.h"
#include "render/plan.h"
#include "tui/app_int.h"
#include "tui/migrate.h"
#include "tui/recover.h"
#include "tui/submit.h"
#include "tui/theme.h"

void app_init(struct app **out, struct doc *d, const struct app_opts *opts)
{
	struct app *a = xcalloc(1, sizeof(*a));
	a->doc = d;
	a->path = opts && opts->path ? xstrdup(opts->path) : NULL;
	a->theme_name = opts && opts->theme ? xstrdup(opts->theme) : NULL;
	if (opts && opts->submit_cmd)
		a->submit_cmd = xstrdup(opts->submit_cmd);
	else if (getenv("SRT_TUI_SUBMIT") && *getenv("SRT_TUI_SUBMIT"))
		a->submit_cmd = xstrdup(getenv("SRT_TUI_SUBMIT"));
	else
		a->submit_cmd = xstrdup(SUBMIT_DEFAULT);
	a->no_mouse = opts ? opts->no_mouse : 0;
	a->before_save = opts ? opts->before_save : NULL;
	a->after_edit = opts ? opts->after_edit : NULL;
	a->prob_view.sel = 0;
	a->utf8 = 1;
	app_disk_load(a);
	cluster_discover(&a->cluster, opts ? opts->srtctl_dir : NULL);
	theme_builtin_default(&a->theme);
	*out = a;
}

void app_free(struct app *a)
{
	if (!a)
		return;
	app_state_release(a);
	cluster_release(&a->cluster);
	strvec_release(&a->migrate_notes);
	if (a->vs_valid)
		variant_state_release(&a->vs);
	free(a->vsel_label);
	plan_note_free(a->pv_note);
	plan_cache_free(a->plan_cache);
	for (int i = 0; i < PV_COUNT; i++) {
		strbuf_release(&a->pv[i]);
		shown_release(&a->pvw[i]);
	}
	for (size_t i = 0; i < a->nscreens; i++)
		form_release(&a->forms[i]);
	free(a->forms);
	free(a->form_gen);
	free(a->form_built);
	free(a->screens);
	free(a->hits);
	panel_problems_release(a);
	free(a->msg);
	free(a->search);
	app_search_release(a);
	free(a->path);
	free(a->theme_name);
	free(a->submit_cmd);
	recover_close(a->rs);
	free(a->rs_target);
	free(a->base);
	doc_free(a->doc);
	free(a);
}

void app_add_screen(struct app *a, const struct app_screen *s)
{
	if (a->nscreens == a->ascreens) {
		a->ascreens = a->ascreens ? 2 * a->ascreens : 8;
		a->screens = xrealloc(a->screens, a->ascreens * sizeof(*a->screens));
		a->forms = xrealloc(a->forms, a->ascreens * sizeof(*a->forms));
		a->form_gen = xrealloc(a->form_gen, a->ascreens * sizeof(*a->form_gen));
		a->form_built = xrealloc(a->form_built, a->ascreens * sizeof(*a->form_built));
	}
	a->screens[a->nscreens] = s;
	form_init(&a->forms[a->nscreens]);
	a->form_gen[a->nscreens] = 0;
	a->form_built[a->nscreens] = 0;
	a->nscreens++;
}

/* ---- accessors ------------------------------------------------------------ */

struct doc *app_doc(struct app *a) { return a->doc; }
const char *app_path(const struct app *a) { return a->path; }
const char *app_base(const struct app *a, size_t *len)
{
	*len = a->base_len;
	return a->base;
}
attr_t app_attr(const struct app *a, enum theme_elem e) { return a->attr[e]; }
int app_utf8(const struct app *a) { return a->utf8; }
int app_done(const struct app *a) { return a->quit || a->terminated; }
size_t app_screen_count(const struct app *a) { return a->nscreens; }
size_t app_screen_index(const struct app *a) { return a->cur; }
const char *app_screen_title(const struct app *a)
{
	return a->nscreens ? a->screens[a->cur]->title : "";
}

void app_set_path(struct app *a, const char *path)
{
	free(a->path);
	a->path = path ? xstrdup(path) : NULL;
	app_disk_load(a);
	a->pv_valid[PV_DIFF] = 0;
}

/* ---- edits ---------------------------------------------------------------- */

static int edit_result(struct app *a, int rc, char *err, char *warn)
{
	if (rc) {
		app_error(a, "%s", err ? err : "the edit was refused");
	} else if (warn) {
		app_message(a, "%s", warn);
	}
	free(err);
	free(warn);
	return rc ? -1 : 0;
}

static int parse_or_error(struct app *a, const char *text, struct path *p)
{
	char *err = NULL;
	if (path_parse(p, text, PATH_NAMES, &err)) {
		app_error(a, "%s", err);
		free(err);
		path_release(p);
		return -1;
	}
	return 0;
}

int app_set(struct app *a, const char *path, const json_t *value)
{
	struct path p = PATH_INIT;
	char *err = NULL, *warn = NULL;
	if (parse_or_error(a, path, &p))
		return -1;
	/* a placement mapping created here keeps the service's node */
	int rc = svc_placement_edit(a->doc, &p, value, &err);
	if (rc == 1)
		rc = doc_set(a->doc, &p, value, &err, &warn);
	path_release(&p);
	return edit_result(a, rc, err, warn);
}

int app_set_str(struct app *a, const char *path, const char *value)
{
	json_t *v = json_string(value);
	int rc = app_set(a, path, v);
	json_decref(v);
	return rc;
}

int app_delete(struct app *a, const char *path)
{
	struct path p = PATH_INIT;
	char *err = NULL, *warn = NULL;
	if (parse_or_error(a, path, &p))
		return -1;
	int rc = doc_delete(a->doc, &p, &err, &warn);
	path_release(&p);
	return edit_result(a, rc, err, warn);
}

int app_insert(struct app *a, const char *path, size_t index, const json_t *value)
{
	struct path p = PATH_INIT;
	char *err = NULL, *warn = NULL;
	if (parse_or_error(a, path, &p))
		return -1;
	int rc = doc_insert(a->doc, &p, index, value, &err, &warn);
	path_release(&p);
	return edit_result(a, rc, err, warn);
}

/* ---- messages ------------------------------------------------------------- */

static void set_msg(struct app *a, int err, const char *fmt, va_list ap)
{
	free(a->msg);
	a->msg = xvasprintf(fmt, ap);
	a->msg_err = err;
	for (char *p = a->msg; *p; p++)
		if (*p == '\n')
			*p = ' ';
}

void app_message(struct app *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_msg(a, 0, fmt, ap);
	va_end(ap);
}

void app_error(struct app *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_msg(a, 1, fmt, ap);
	va_end(ap);
	if (a->attached)
		beep();
}

/* ---- screens and forms ---------------------------------------------------- */

/* Fill f with screen i's fields as its build() (or the override-file notice)
 * makes them; f's collapsed set and user data steer what appears. */
void app_build_screen(struct app *a, size_t i, struct form *f)
{
	app_state(a);
	if (!(a->screens[i]->flags & SCREEN_ANY_FILE) && a->vs.form == RECIPE_OVERRIDE) {
		/* This screen writes a recipe's own paths; in an override file
		 * they live under base: or a section. */
		form_add_heading(f, a->screens[i]->title);
		form_add_text(f, "This file is an override file (base plus override_* "
				 "sections): each variant is a recipe only once merged.\n"
				 "See and edit the variants on the Variants screen (it asks "
				 "whether a change goes to base or to the variant's section),\n"
				 "or the file itself in the Fields tree.");
	} else {
		a->screens[i]->build(a, f);
	}
}

/* Whether screen i's form, built at the generation before this one, still
 * holds: one value changed, and not one the build reads (see
 * SCREEN_VALUES_DRAWN). */
static int form_still_holds(struct app *a, size_t i, unsigned long g)
{
	const struct doc_node *n = doc_value_edit(a->doc);
	if (!(a->screens[i]->flags & SCREEN_VALUES_DRAWN) || !n || a->form_gen[i] + 1 != g)
		return 0;
	const char *k = doc_node_key_text(n);
	return !k || (strcmp(k, "name") && strcmp(k, "type"));
}

struct form *app_cur_form(struct app *a)
{
	if (!a->nscreens)
		return NULL;
	size_t i = a->cur;
	unsigned long g = doc_generation(a->doc);
	if (a->form_built[i] && a->form_gen[i] != g && form_still_holds(a, i, g))
		a->form_gen[i] = g;
	if (!a->form_built[i] || a->form_gen[i] != g) {
		struct form *f = &a->forms[i];
		struct form_focus_key keep;
		form_focus_save(f, &keep);
		form_clear(f);
		app_build_screen(a, i, f);
		form_focus_restore(f, &keep);
		a->form_built[i] = 1;
		a->form_gen[i] = g;
	}
	return &a->forms[i];
}

void app_goto_screen(struct app *a, size_t index)
{
	if (index >= a->nscreens)
		return;
	a->cur = index;
	a->pane = PANE_MAIN;
	a->narrow_view = VIEW_FORM;
}

void app_next_screen(struct app *a)
{
	if (a->cur + 1 < a->nscreens)
		app_goto_screen(a, a->cur + 1);
}

void app_prev_screen(struct app *a)
{
	if (a->cur > 0)
		app_goto_screen(a, a->cur - 1);
}

void app_focus_path(struct app *a, const char *given)
{
	char *canon = app_canon_path(a, given);
	const char *path = canon;
	struct form *f = app_cur_form(a);
	if (f && form_focus_path(f, path)) {
		free(canon);
		a->pane = PANE_MAIN;
		a->narrow_view = VIEW_FORM;
		return;
	}
	/* Try the screens from the last (the Fields tree covers everything),
	 * expanding collapsed parents on the way. */
	char *p = xstrdup(path);
	for (;;) {
		for (size_t k = a->nscreens; k-- > 0;) {
			size_t save = a->cur;
			a->cur = k;
			struct form *g = &a->forms[k];
			for (size_t c = 0; c < g->collapsed.n;)
				if (app_path_under(p, g->collapsed.v[c]))
					form_set_collapsed(g, g->collapsed.v[c], 0);
				else
					c++;
			a->form_built[k] = 0;
			g = app_cur_form(a);
			if (form_focus_path(g, p)) {
				a->pane = PANE_MAIN;
				a->narrow_view = VIEW_FORM;
				free(p);
				free(canon);
				return;
			}
			a->cur = save;
		}
		/* Not shown: try the parent path. */
		char *cut = strrchr(p, '.'), *br = strrchr(p, '[');
		if (br > cut)
			cut = br;
		if (!cut || cut == p)
			break;
		*cut = 0;
	}
	free(p);
	app_message(a, "'%s' is not shown on any screen", path);
	free(canon);
}

/* The key a field is found by again after a rebuild (form_focus_path). */
static const char *field_key(const struct form_field *ff)
{
	return ff->path ? ff->path : ff->label ? ff->label : "";
}

/* Search the current screen as if every branch were expanded, so a match
 * inside a collapsed branch is found in its place in the order: the rows come
 * from the screen's own build() with nothing collapsed, not from what is
 * drawn.  A hit inside collapsed branches expands them (the hit itself may
 * stay collapsed: it is shown) and takes the focus. */
static int search_screen(struct app *a, const char *needle, int dir)
{
	struct form *f = app_cur_form(a);
	if (!f->collapsed.n)
		return form_search(a, f, needle, dir);
	struct form full;
	form_init(&full);
	full.user = f->user; /* borrowed: the build reads its options there */
	app_build_screen(a, a->cur, &full);
	struct form_field *cur = form_focused(f);
	if (!cur || !form_focus_path(&full, field_key(cur)))
		full.focus = dir > 0 ? (full.n ? full.n - 1 : 0) : 0; /* start at an end */
	int found = form_search(a, &full, needle, dir);
	char *key = found ? xstrdup(field_key(&full.v[full.focus])) : NULL;
	full.user = NULL;
	form_release(&full);
	if (!found)
		return 0;
	for (size_t c = 0; c < f->collapsed.n;)
		if (strcmp(key, f->collapsed.v[c]) && app_path_under(key, f->collapsed.v[c]))
			form_set_collapsed(f, f->collapsed.v[c], 0);
		else
			c++;
	a->form_built[a->cur] = 0;
	f = app_cur_form(a);
	found = form_focus_path(f, key);
	free(key);
	return found;
}

int app_search(struct app *a, const char *needle, int dir)
{
	if (!a->nscreens || !needle || !*needle)
		return 0;
	a->pane = PANE_MAIN;
	a->narrow_view = VIEW_FORM;
	if (search_screen(a, needle, dir))
		return 1;
	/* Not on this screen: the Fields tree (the last screen) shows everything. */
	if (a->cur + 1 != a->nscreens) {
		app_goto_screen(a, a->nscreens - 1);
		if (search_screen(a, needle, dir))
			return 1;
	}
	return 0;
}

/* ---- attach / run --------------------------------------------------------- */

void app_attach(struct app *a)
{
	const char *cs = nl_langinfo(CODESET);
	a->utf8 = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
	char *err = NULL;
	if (theme_choose(&a->theme, a->theme_name, &err)) {
		app_error(a, "%s", err);
		free(err);
	}
	if (has_colors()) {
		start_color();
		use_default_colors();
	}
	theme_apply(&a->theme, a->attr);
	a->attached = 1;
	app_layout(a);
}

int app_run(struct app *a)
{
	const char *term = getenv("TERM");
	if (!term || !*term || !strcmp(term, "dumb")) {
		fprintf(stderr, "srt-tui: the terminal '%s' cannot show the editor; run it in a "
				"terminal with cursor movement (TERM=xterm-256color, screen, tmux...) "
				"or use 'srt-tui validate', 'get' and 'set' instead\n",
			term && *term ? term : "(TERM not set)");
		return 2;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "srt-tui: the editor needs a terminal on stdin and stdout; use "
				"'srt-tui validate', 'get' and 'set' in scripts\n");
		return 2;
	}
	/* In a UTF-8 locale, have ncurses draw lines with Unicode box characters:
	 * the terminal's VT100 alternate set shows as "lqqk" in tmux captures,
	 * screen readers and some terminals.  A user's own setting wins; other
	 * locales keep the alternate set (or draw_box's ASCII). */
	const char *cs = nl_langinfo(CODESET);
	if (cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8")))
		setenv("NCURSES_NO_UTF8_ACS", "1", 0);
	/* srtctl's schema is read on first use, and the Fields tree uses it:
	 * read it now, while what goes wrong can still be printed */
	(void)srtctl_schema_root();
	app_save_terminal();
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		fprintf(stderr, "srt-tui: unknown terminal type '%s'; set TERM to one your "
				"system knows (see 'toe -a'), e.g. TERM=xterm-256color\n", term);
		return 2;
	}
	set_term(scr);
	/* Esc answers at once; a user on a slow link can ask for longer with
	 * ESCDELAY (ms), which ncurses has read already */
	if (!getenv("ESCDELAY") || !*getenv("ESCDELAY"))
		set_escdelay(25);
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	/* Home and End in every spelling: inside tmux or screen with TERM left
	 * at xterm-256color (a common setting), the terminal sends the vt220
	 * codes the xterm entry does not list, and End did nothing. */
	static const struct {
		const char *seq;
		int key;
	} home_end[] = {
		{ "\033[1~", KEY_HOME }, { "\033[4~", KEY_END },  { "\033[7~", KEY_HOME },
		{ "\033[8~", KEY_END },  { "\033[H", KEY_HOME },  { "\033[F", KEY_END },
		{ "\033OH", KEY_HOME },  { "\033OF", KEY_END },
	};
	for (size_t i = 0; i < sizeof(home_end) / sizeof(home_end[0]); i++)
		if (key_defined(home_end[i].seq) <= 0)
			define_key(home_end[i].seq, home_end[i].key);
	wtimeout(stdscr, 100);
	if (!a->no_mouse)
		/* releases too: ncurses otherwise swallows the key after a click */
		mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED |
				  BUTTON5_PRESSED,
			  NULL);
	mouseinterval(0);
	app_signals_install();
	app_crash_guard(a);
	app_attach(a);
	app_draw(a);
	app_offer_recovery(a);
	app_offer_migrate(a);
	while (!a->quit && !a->terminated) {
		app_draw(a);
		int k = app_getkey(a, NULL, NULL);
		if (k == K_TERMINATE)
			break;
		app_handle_key(a, k);
	}
	app_crash_unguard();
	endwin();
	delscreen(scr);
	a->attached = 0;
	int rc = 0;
	if (a->terminated) {
		const char *rp = app_recovery_where(a);
		if (a->terminated == 3)
			fprintf(stderr, "srt-tui: terminated; unsaved edits kept in '%s': run "
					"'srt-tui %s%s' %sto restore them\n", rp,
				a->path ? "edit " : "new", a->path ? a->path : "",
				a->path ? "" : "in this folder ");
		else if (a->terminated == 2)
			fprintf(stderr, "srt-tui: terminated; no folder took the recovery file (beside "
					"the recipe, or the state folder): the unsaved edits are lost\n");
		rc = 1;
	}
	app_recovery_end(a);
	return rc;
}
