/*
 * app.c — the session: derived state, layout, drawing, keys, the main loop,
 * signals and saving.  The only file with global mutable state: the signal
 * flags (and the app a crash handler may still rescue).
 */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/fileio.h"
#include "model/path.h"
#include "model/validate.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/form.h"
#include "tui/recover.h"
#include "tui/submit.h"
#include "tui/theme.h"
#include "tui/variants.h"
#include "tui/widget.h"

#define APP_WIDE_COLS 120
#define APP_MIN_COLS 60
#define APP_MIN_ROWS 16

static volatile sig_atomic_t sig_terminate; /* SIGHUP / SIGTERM received */
static volatile sig_atomic_t sig_interrupt; /* SIGINT (outside raw mode) */
/* The running app, for the crash handler's last-ditch recovery file. */
static struct app *crash_app;
static char *crash_path, *crash_tmp;

const char *const preview_tab_names[PV_COUNT] = { "Services", "Workers", "YAML", "Diff", "Plan" };

/* Views of the narrow layout, after the form. */
enum view { VIEW_FORM, VIEW_PROBLEMS, VIEW_PREVIEW };
enum pane { PANE_MAIN, PANE_PROBLEMS, PANE_PREVIEW };

enum hit_kind { HIT_SCREEN_TAB, HIT_PREVIEW_TAB, HIT_NARROW_TAB, HIT_FORM, HIT_PROBLEMS, HIT_PREVIEW };
struct hit {
	int y, x0, x1, h;
	enum hit_kind kind;
	int idx;
};

struct disk_id {
	int exists;
	struct timespec mtime;
	off_t size;
	unsigned long long hash;
};

struct app {
	struct doc *doc;
	char *path;
	char *theme_name;
	char *submit_cmd;
	int no_mouse;
	int restored_new; /* RECOVER_NEW was restored into this path-less session */

	struct app_state st;
	int st_valid;
	/* override files and sweeps: the variants of vs_gen, and the chosen one */
	struct variant_state vs;
	unsigned long vs_gen;
	int vs_valid;
	size_t vsel;
	char *vsel_label; /* to find the choice again after an edit */
	char **diag_canon; /* canonical (index-form) path of each diagnostic */
	struct strbuf pv[PV_COUNT];
	unsigned long pv_gen[PV_COUNT];
	size_t pv_var[PV_COUNT];
	int pv_valid[PV_COUNT];
	unsigned pv_serial[PV_COUNT]; /* bumped on every recompute */
	/* the previews as shown: long lines wrapped at pvw_w cells */
	struct strbuf pvw[PV_COUNT];
	unsigned pvw_serial[PV_COUNT];
	int pvw_w[PV_COUNT];
	int pv_nowrap[PV_COUNT]; /* 'w' toggled the tab's wrapping */

	struct disk_id disk;

	const struct app_screen **screens;
	size_t nscreens, ascreens, cur;
	struct form *forms;
	unsigned long *form_gen;
	int *form_built;

	/* layout and focus */
	int rows, cols, wide, too_small;
	enum pane pane;
	int narrow_view; /* 0 form, 1 problems, 2+tab preview */
	enum preview_tab pv_tab;
	struct scroll_view pv_view[PV_COUNT];
	int pv_width; /* cells of the preview at the last draw */
	int pv_h, prob_h; /* rows of the preview and problems at the last draw */
	struct scroll_view prob_view;
	struct hit *hits;
	size_t nhits, ahits;
	MEVENT mouse;

	char *msg;
	int msg_err;
	char *search;

	struct theme theme;
	attr_t attr[TH_COUNT];
	int utf8;
	int quit;
	int terminated;
	int attached;
};

/* ---- signals -------------------------------------------------------------- */

static void on_terminate(int sig)
{
	(void)sig;
	sig_terminate = 1;
}

static void on_interrupt(int sig)
{
	(void)sig;
	sig_interrupt = 1;
}

/* A crash (SIGSEGV, SIGBUS, SIGFPE, SIGABRT): write the unsaved text to the
 * recovery file with async-signal-safe calls only, then die as we would
 * have.  Best effort: the document itself may be what is broken. */
static void on_crash(int sig)
{
	struct app *a = crash_app;
	crash_app = NULL;
	if (a && crash_path && crash_tmp && doc_dirty(a->doc)) {
		size_t len;
		const char *text = doc_text(a->doc, &len);
		int fd = open(crash_tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd >= 0) {
			size_t off = 0;
			while (off < len) {
				ssize_t n = write(fd, text + off, len - off);
				if (n <= 0)
					break;
				off += (size_t)n;
			}
			if (off == len && !fsync(fd) && !close(fd)) {
				rename(crash_tmp, crash_path);
				static const char msg[] = "\r\nsrt-tui: crashed; unsaved edits kept in the "
							  "recovery file (srt-tui edit offers them)\r\n";
				if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
					(void)0;
			} else {
				close(fd);
				unlink(crash_tmp);
			}
		}
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_crash_handler(struct app *a)
{
	const char *target = a->path ? a->path : RECOVER_NEW;
	crash_path = recover_path(target);
	crash_tmp = xasprintf("%s.tmp", crash_path);
	crash_app = a;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
}

static void remove_crash_handler(void)
{
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGABRT, SIG_DFL);
	crash_app = NULL;
	free(crash_path);
	free(crash_tmp);
	crash_path = crash_tmp = NULL;
}

static void install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_terminate;
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_interrupt;
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/* ---- lifetime ------------------------------------------------------------- */

static unsigned long long hash_bytes(const char *s, size_t n)
{
	unsigned long long h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static void disk_identify(const char *path, struct disk_id *id)
{
	struct stat st;
	char *buf, *err = NULL;
	size_t len;
	memset(id, 0, sizeof(*id));
	if (!path || stat(path, &st))
		return;
	id->exists = 1;
	id->mtime = st.st_mtim;
	id->size = st.st_size;
	if (!file_read(path, &buf, &len, &err)) {
		id->hash = hash_bytes(buf, len);
		free(buf);
	}
	free(err);
}

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
	a->prob_view.sel = 0;
	a->utf8 = 1;
	disk_identify(a->path, &a->disk);
	theme_builtin_default(&a->theme);
	*out = a;
}

static void state_release(struct app *a)
{
	if (!a->st_valid)
		return;
	if (a->diag_canon) {
		for (size_t i = 0; i < a->st.diags.n; i++)
			free(a->diag_canon[i]);
		free(a->diag_canon);
		a->diag_canon = NULL;
	}
	if (a->st.root) {
		recipe_release(&a->st.recipe);
		json_decref(a->st.root);
		a->st.root = NULL;
	}
	diag_list_release(&a->st.diags);
	a->st_valid = 0;
}

void app_free(struct app *a)
{
	if (!a)
		return;
	state_release(a);
	if (a->vs_valid)
		variant_state_release(&a->vs);
	free(a->vsel_label);
	for (int i = 0; i < PV_COUNT; i++) {
		strbuf_release(&a->pv[i]);
		strbuf_release(&a->pvw[i]);
	}
	for (size_t i = 0; i < a->nscreens; i++)
		form_release(&a->forms[i]);
	free(a->forms);
	free(a->form_gen);
	free(a->form_built);
	free(a->screens);
	free(a->hits);
	free(a->msg);
	free(a->search);
	free(a->path);
	free(a->theme_name);
	free(a->submit_cmd);
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
	disk_identify(a->path, &a->disk);
	a->pv_valid[PV_DIFF] = 0;
}

/* services[lmcache].args -> services[2].args, so diagnostics can be matched
 * with the fields' index paths. */
static char *canon_path(struct app *a, const char *text)
{
	struct path p = PATH_INIT, q = PATH_INIT;
	char *err = NULL;
	if (!text || path_parse(&p, text, PATH_NAMES, &err)) {
		free(err);
		path_release(&p);
		return xstrdup(text ? text : "");
	}
	const struct doc_node *n = doc_root(a->doc);
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
			if (n && doc_node_kind(n) == DOC_MAP)
				for (size_t k = 0; k < doc_node_count(n); k++) {
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

const struct app_state *app_state(struct app *a)
{
	unsigned long g = doc_generation(a->doc);
	if (a->st_valid && a->st.generation == g && a->st.variant_index == a->vsel)
		return &a->st;
	if (a->st_valid && a->st.generation == g && a->st.root) {
		/* Another variant of the same text: only the recipe changes. */
		recipe_release(&a->st.recipe);
		a->st.variant_index = a->vsel;
		a->st.variant = a->vsel < a->vs.list.n && a->vs.form != RECIPE_PLAIN
					? &a->vs.list.v[a->vsel] : NULL;
		recipe_init(&a->st.recipe, a->st.variant ? a->st.variant->tree : a->st.root);
		return &a->st;
	}
	state_release(a);
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
		recipe_init(&a->st.recipe, a->st.variant ? a->st.variant->tree : a->st.root);
	}
	/* The plain recipe's typed view is already built: validation reuses it. */
	validate_doc_with(a->doc, a->st.root && !a->st.variant ? &a->st.recipe : NULL, &a->st.diags);
	variant_state_validate(&a->vs, a->doc, &a->st.diags);
	diag_sort(&a->st.diags);
	a->st.errors = diag_count(&a->st.diags, DIAG_ERROR);
	a->st.warnings = diag_count(&a->st.diags, DIAG_WARNING);
	a->st_valid = 1;
	a->diag_canon = xcalloc(a->st.diags.n + 1, sizeof(char *));
	for (size_t i = 0; i < a->st.diags.n; i++)
		a->diag_canon[i] = canon_path(a, a->st.diags.v[i].path);
	return &a->st;
}

const char *app_preview(struct app *a, enum preview_tab tab)
{
	unsigned long g = doc_generation(a->doc);
	app_state(a);
	if (!a->pv_valid[tab] || a->pv_gen[tab] != g || a->pv_var[tab] != a->vsel) {
		strbuf_reset(&a->pv[tab]);
		preview_compute(a, tab, &a->pv[tab]);
		a->pv_gen[tab] = g;
		a->pv_var[tab] = a->vsel;
		a->pv_valid[tab] = 1;
		a->pv_serial[tab]++;
	}
	return sb_str(&a->pv[tab]);
}

/* YAML and Diff are the file's own bytes: they scroll sideways ('<' '>').
 * The others wrap, so at 80 columns a command shows its last flags. */
static int preview_wraps(const struct app *a, enum preview_tab tab)
{
	int dflt = tab != PV_YAML && tab != PV_DIFF;
	return a->pv_nowrap[tab] ? !dflt : dflt;
}

/* The preview text as drawn at width cells: wrapped when the tab wraps. */
static const char *preview_shown(struct app *a, enum preview_tab tab, int width)
{
	const char *text = app_preview(a, tab);
	if (!preview_wraps(a, tab))
		return text;
	if (a->pvw_w[tab] != width || a->pvw_serial[tab] != a->pv_serial[tab]) {
		struct strvec rows = STRVEC_INIT;
		text_wrap_all(text, width, 2, &rows);
		strbuf_reset(&a->pvw[tab]);
		for (size_t i = 0; i < rows.n; i++) {
			strbuf_addstr(&a->pvw[tab], rows.v[i]);
			strbuf_addch(&a->pvw[tab], '\n');
		}
		strvec_release(&rows);
		a->pvw_w[tab] = width;
		a->pvw_serial[tab] = a->pv_serial[tab];
	}
	return sb_str(&a->pvw[tab]);
}

static int path_is_under(const char *p, const char *prefix)
{
	size_t n = strlen(prefix);
	if (!n)
		return 1;
	return !strncmp(p, prefix, n) && (p[n] == 0 || p[n] == '.' || p[n] == '[');
}

size_t app_diags_for(struct app *a, const char *path, const struct diag **out, size_t max)
{
	const struct app_state *st = app_state(a);
	size_t k = 0;
	for (size_t i = 0; i < st->diags.n && k < max; i++) {
		const struct diag *g = &st->diags.v[i];
		if (!*path ? !*g->path
			   : (path_is_under(g->path, path) || path_is_under(a->diag_canon[i], path)))
			out[k++] = g;
	}
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
	int rc = doc_set(a->doc, &p, value, &err, &warn);
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
static void build_screen(struct app *a, size_t i, struct form *f)
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

static struct form *cur_form(struct app *a)
{
	if (!a->nscreens)
		return NULL;
	size_t i = a->cur;
	unsigned long g = doc_generation(a->doc);
	if (!a->form_built[i] || a->form_gen[i] != g) {
		struct form *f = &a->forms[i];
		struct form_field *ff = form_focused(f);
		char *keep = ff ? xstrdup(ff->path ? ff->path : ff->label ? ff->label : "") : NULL;
		size_t old_focus = f->focus;
		form_clear(f);
		build_screen(a, i, f);
		if (!keep || !*keep || !form_focus_path(f, keep)) {
			if (keep && old_focus < f->n) {
				f->focus = old_focus;
				if (!form_focused(f))
					form_focus_first(f);
			} else {
				form_focus_first(f);
			}
		}
		free(keep);
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
	char *canon = canon_path(a, given);
	const char *path = canon;
	struct form *f = cur_form(a);
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
				if (path_is_under(p, g->collapsed.v[c]))
					form_set_collapsed(g, g->collapsed.v[c], 0);
				else
					c++;
			a->form_built[k] = 0;
			g = cur_form(a);
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

/* ---- layout and drawing --------------------------------------------------- */

static void hit_add(struct app *a, enum hit_kind kind, int idx, int y, int x0, int x1, int h)
{
	ALLOC_GROW(a->hits, a->nhits + 1, a->ahits);
	a->hits[a->nhits++] = (struct hit){ y, x0, x1, h, kind, idx };
}

static void layout(struct app *a)
{
	a->rows = LINES;
	a->cols = COLS;
	a->too_small = a->rows < APP_MIN_ROWS || a->cols < APP_MIN_COLS;
	a->wide = a->cols >= APP_WIDE_COLS && a->rows >= 24;
	if (a->wide && a->narrow_view != VIEW_FORM) {
		a->pane = a->narrow_view == VIEW_PROBLEMS ? PANE_PROBLEMS : PANE_PREVIEW;
		a->narrow_view = VIEW_FORM;
	}
}

static void draw_too_small(struct app *a)
{
	erase();
	char line1[96], line2[96];
	snprintf(line1, sizeof(line1), "Terminal too small (%dx%d).", a->cols, a->rows);
	snprintf(line2, sizeof(line2), "srt-tui needs at least %dx%d: enlarge the window.",
		 APP_MIN_COLS, APP_MIN_ROWS);
	int y = a->rows / 2 - 1;
	if (y < 0)
		y = 0;
	draw_str(stdscr, y, 0, a->cols, line1, A_BOLD);
	if (y + 1 < a->rows)
		draw_str(stdscr, y + 1, 0, a->cols, line2, 0);
	wnoutrefresh(stdscr);
	doupdate();
}

static void draw_title(struct app *a)
{
	const struct app_state *st = app_state(a);
	attr_t t = a->attr[TH_TITLE];
	draw_fill(stdscr, 0, 0, 1, a->cols, t);
	const char *vl = st->variant && st->variant->label ? st->variant->label : NULL;
	char *left = xasprintf(" srt-tui  %s%s%s%s", a->path ? a->path : "(new recipe)",
			       doc_dirty(a->doc) ? "  [modified]" : "", vl ? "  variant: " : "",
			       vl ? vl : "");
	char right[96];
	if (st->errors || st->warnings)
		snprintf(right, sizeof(right), "%zu error%s, %zu warning%s ", st->errors,
			 st->errors == 1 ? "" : "s", st->warnings, st->warnings == 1 ? "" : "s");
	else
		snprintf(right, sizeof(right), "no problems ");
	int rw = (int)strlen(right);
	draw_str(stdscr, 0, 0, a->cols - rw - 1, left, t);
	draw_str(stdscr, 0, a->cols - rw, rw, right, t);
	free(left);
}

/* A row of tabs; returns nothing, records hits. */
static void draw_tabs(struct app *a, int y, int x, int width, const char *const *names, size_t n,
		      size_t active, enum hit_kind kind)
{
	draw_fill(stdscr, y, x, 1, width, a->attr[TH_NORMAL]);
	/* Scroll so the active tab is visible. */
	size_t first = 0;
	for (;;) {
		int cx = 0;
		for (size_t i = first; i <= active && i < n; i++)
			cx += utf8_width(names[i], strlen(names[i])) + 3;
		if (cx <= width || first >= active)
			break;
		first++;
	}
	int cx = x;
	if (first > 0)
		cx += draw_str(stdscr, y, cx, 2, "< ", a->attr[TH_TAB]);
	/* tabs hidden on the right say so, as those on the left do */
	int all = cx;
	for (size_t i = first; i < n; i++)
		all += utf8_width(names[i], strlen(names[i])) + 3;
	int end = all - 1 > x + width ? x + width - 2 : x + width;
	for (size_t i = first; i < n; i++) {
		int tw = utf8_width(names[i], strlen(names[i])) + 2;
		if (cx + tw > end) {
			draw_str(stdscr, y, x + width - 1, 1, ">", a->attr[TH_TAB]);
			break;
		}
		attr_t at = i == active ? a->attr[TH_TAB_ACTIVE] : a->attr[TH_TAB];
		char *label = xasprintf(i == active ? "[%s]" : " %s ", names[i]);
		draw_str(stdscr, y, cx, tw, label, at);
		free(label);
		hit_add(a, kind, (int)i, y, cx, cx + tw, 1);
		cx += tw + 1;
	}
}

static void draw_screen_tabs(struct app *a, int y, int x, int width)
{
	const char **names = xcalloc(a->nscreens + 1, sizeof(char *));
	for (size_t i = 0; i < a->nscreens; i++)
		names[i] = a->screens[i]->title;
	draw_tabs(a, y, x, width, names, a->nscreens, a->cur, HIT_SCREEN_TAB);
	free(names);
}

static void draw_boxed(struct app *a, int y, int x, int h, int w, const char *title, int focused)
{
	attr_t b = focused ? a->attr[TH_HEADING] : a->attr[TH_BORDER];
	draw_box(stdscr, y, x, h, w, b, !a->utf8);
	if (title) {
		char *t = xasprintf(" %s ", title);
		draw_str(stdscr, y, x + 2, w - 4, t, b);
		free(t);
	}
}

static void draw_preview_tabs_in_border(struct app *a, int y, int x, int w, int focused)
{
	int cx = x + 2;
	for (int i = 0; i < PV_COUNT; i++) {
		const char *nm = preview_tab_names[i];
		int tw = (int)strlen(nm) + 2;
		if (cx + tw > x + w - 2)
			break;
		attr_t at = i == (int)a->pv_tab ? a->attr[TH_TAB_ACTIVE]
						: (focused ? a->attr[TH_HEADING] : a->attr[TH_BORDER]);
		char *label = xasprintf(i == (int)a->pv_tab ? "[%s]" : " %s ", nm);
		draw_str(stdscr, y, cx, tw, label, at);
		free(label);
		hit_add(a, HIT_PREVIEW_TAB, i, y, cx, cx + tw, 1);
		cx += tw;
	}
}

static void draw_preview(struct app *a, int y, int x, int h, int w, int focused)
{
	/* one column for the scroll marks */
	const char *text = preview_shown(a, a->pv_tab, w - 1);
	a->pv_width = w - 1;
	a->pv_h = h;
	panel_text_draw(a, stdscr, y, x, h, w, text, &a->pv_view[a->pv_tab], focused,
			a->pv_tab == PV_DIFF);
	hit_add(a, HIT_PREVIEW, a->pv_tab, y, x, x + w, h);
}

static const struct {
	const char *key, *brief, *what;
} keybar[] = {
	/* by importance: a narrow terminal shows the first ones.  brief is the
	 * plain key alone, used when the F-key spellings do not all fit: at 80
	 * columns "[ ] Screen" (the way between the steps) must stay visible. */
	{ "F1/?", "?", "Help" },     { "F2/^S", "^S", "Save" },  { "F10/q", "q", "Quit" },
	{ "/", "/", "Find" },        { "u", "u", "Undo" },       { "^Y", "^Y", "Redo" },
	{ "F5/!", "!", "Submit" },   { "Tab", "Tab", "Pane" },   { "[ ]", "[ ]", "Screen" },
};

static int keybar_width(int brief)
{
	int n = 0;
	for (size_t i = 0; i < sizeof(keybar) / sizeof(keybar[0]); i++)
		n += (int)(strlen(brief ? keybar[i].brief : keybar[i].key) + strlen(keybar[i].what)) + 2;
	return n - 1; /* no space needed after the last */
}

static void draw_keybar(struct app *a, int y)
{
	draw_fill(stdscr, y, 0, 1, a->cols, a->attr[TH_KEYBAR]);
	int brief = keybar_width(0) > a->cols;
	int x = 0;
	for (size_t i = 0; i < sizeof(keybar) / sizeof(keybar[0]); i++) {
		const char *key = brief ? keybar[i].brief : keybar[i].key;
		int need = (int)(strlen(key) + strlen(keybar[i].what)) + 1;
		if (x + need > a->cols)
			break;
		x += draw_str(stdscr, y, x, a->cols - x, key, a->attr[TH_KEY]);
		x += draw_str(stdscr, y, x, a->cols - x, " ", a->attr[TH_KEYBAR]);
		x += draw_str(stdscr, y, x, a->cols - x, keybar[i].what, a->attr[TH_KEYBAR]);
		x += draw_str(stdscr, y, x, a->cols - x, " ", a->attr[TH_KEYBAR]);
	}
}

/* A message longer than the line takes up to three rows (the form gives
 * them up until the next key): an error's "how to fix it" comes last. */
#define STATUS_MAX_ROWS 3

static void status_rows(struct app *a, struct strvec *out)
{
	char *m = xasprintf("%s%s", a->msg_err ? "error: " : "", a->msg);
	text_wrap(m, strlen(m), a->cols, 2, out);
	free(m);
}

static int status_height(struct app *a)
{
	if (!a->msg || a->cols < 1)
		return 1;
	struct strvec rows = STRVEC_INIT;
	status_rows(a, &rows);
	int n = (int)rows.n;
	strvec_release(&rows);
	return n < 1 ? 1 : n > STATUS_MAX_ROWS ? STATUS_MAX_ROWS : n;
}

static void draw_status(struct app *a, int y)
{
	draw_fill(stdscr, y, 0, 1, a->cols, a->attr[TH_NORMAL]);
	if (a->msg) {
		attr_t at = a->msg_err ? a->attr[TH_ERROR] : a->attr[TH_STATUS];
		struct strvec rows = STRVEC_INIT;
		status_rows(a, &rows);
		int n = status_height(a);
		for (int r = 0; r < n && r < (int)rows.n; r++) {
			draw_fill(stdscr, y + r, 0, 1, a->cols, a->attr[TH_NORMAL]);
			draw_str(stdscr, y + r, 0, a->cols, rows.v[r], at);
		}
		strvec_release(&rows);
		return;
	}
	/* Otherwise: the focused field's one-line help. */
	struct form *f = cur_form(a);
	struct form_field *ff = f ? form_focused(f) : NULL;
	if (!ff || a->pane != PANE_MAIN)
		return;
	if (ff->schema && ff->schema->help) {
		char *s = xasprintf("%s: %s", ff->path ? ff->path : "", ff->schema->help);
		draw_str(stdscr, y, 0, a->cols, s, a->attr[TH_HELP]);
		free(s);
	} else if (ff->help) {
		/* buttons and widgets: the first line of their own help */
		const char *nl = strchr(ff->help, '\n');
		draw_text(stdscr, y, 0, a->cols, ff->help, nl ? (size_t)(nl - ff->help) : strlen(ff->help),
			  a->attr[TH_HELP], 0);
	}
}

void app_draw(struct app *a)
{
	layout(a);
	a->nhits = 0;
	if (a->too_small) {
		draw_too_small(a);
		return;
	}
	curs_set(0);
	erase();
	draw_title(a);
	int sh = status_height(a);
	int body_top = 2, body_bot = a->rows - 2 - sh; /* inclusive */
	struct form *f = cur_form(a);
	if (a->wide) {
		/* half and half: the form's values are short, the preview's
		 * commands are long (and wrap, so every column saves a row) */
		int mw = a->cols / 2;
		draw_screen_tabs(a, 1, 0, mw);
		int bh = body_bot - body_top + 1;
		if (f)
			form_draw(a, f, stdscr, body_top, 0, bh, mw - 1);
		hit_add(a, HIT_FORM, 0, body_top, 0, mw - 1, bh);
		int sx = mw, sw = a->cols - mw;
		const struct app_state *st = app_state(a);
		/* the problems box takes what its diagnostics need, at most a
		 * third: a clean recipe leaves the rows to the preview */
		int ph = bh / 3 < 6 ? 6 : bh / 3;
		int need = (int)(st->errors + st->warnings) + (st->errors + st->warnings ? 4 : 2);
		if (need < ph)
			ph = need;
		char *pt = xasprintf("Problems: %zu E, %zu W", st->errors, st->warnings);
		draw_boxed(a, 1, sx, ph + 1, sw, pt, a->pane == PANE_PROBLEMS);
		free(pt);
		a->prob_h = ph - 1;
		panel_problems_draw(a, stdscr, 2, sx + 1, ph - 1, sw - 2, &a->prob_view,
				    a->pane == PANE_PROBLEMS);
		hit_add(a, HIT_PROBLEMS, 0, 2, sx + 1, sx + sw - 1, ph - 1);
		int py = 1 + ph + 1, phh = body_bot + 1 - py + 1;
		draw_boxed(a, py, sx, phh, sw, NULL, a->pane == PANE_PREVIEW);
		draw_preview_tabs_in_border(a, py, sx, sw, a->pane == PANE_PREVIEW);
		draw_preview(a, py + 1, sx + 1, phh - 2, sw - 2, a->pane == PANE_PREVIEW);
	} else {
		draw_screen_tabs(a, 1, 0, a->cols);
		const struct app_state *st = app_state(a);
		char prob[48];
		snprintf(prob, sizeof(prob), "Problems %zuE %zuW", st->errors, st->warnings);
		const char *views[2 + PV_COUNT] = { "Form", prob };
		for (int i = 0; i < PV_COUNT; i++)
			views[2 + i] = preview_tab_names[i];
		size_t active = a->narrow_view == VIEW_FORM       ? 0
				: a->narrow_view == VIEW_PROBLEMS ? 1
								  : 2 + a->pv_tab;
		draw_tabs(a, 2, 0, a->cols, views, 2 + PV_COUNT, active, HIT_NARROW_TAB);
		int y0 = 3, bh = body_bot - y0 + 1;
		if (a->narrow_view == VIEW_FORM) {
			if (f)
				form_draw(a, f, stdscr, y0, 0, bh, a->cols);
			hit_add(a, HIT_FORM, 0, y0, 0, a->cols, bh);
		} else if (a->narrow_view == VIEW_PROBLEMS) {
			a->prob_h = bh;
			panel_problems_draw(a, stdscr, y0, 0, bh, a->cols, &a->prob_view, 1);
			hit_add(a, HIT_PROBLEMS, 0, y0, 0, a->cols, bh);
		} else {
			draw_preview(a, y0, 0, bh, a->cols, 1);
		}
	}
	draw_status(a, a->rows - 1 - sh);
	draw_keybar(a, a->rows - 1);
	wnoutrefresh(stdscr);
	doupdate();
}

/* ---- help ----------------------------------------------------------------- */

static const char help_keys[] =
	"Keys\n"
	"  Up/Down, PgUp/PgDn, Home/End   move\n"
	"  Enter                          edit the field / open / jump to a problem\n"
	"  Tab, Shift-Tab                 next / previous pane (problems, preview)\n"
	"  [ and ]  (Alt-Left/Right)      previous / next screen\n"
	"  Left/Right in the preview      previous / next preview tab\n"
	"  F1, ?, Alt-1                   help for the focused field\n"
	"  /  then n, N                   search fields and values, next / previous match\n"
	"  F2, Ctrl-S, Alt-2              save (keeps FILE.bak)\n"
	"  u, Ctrl-Z                      undo\n"
	"  Ctrl-Y, Ctrl-R                 redo\n"
	"  d, Delete                      remove the focused key or item\n"
	"  a, Insert                      add a key or item (Fields tree)\n"
	"  e                              edit the focused value (lists: the list editor)\n"
	"  H                              Fields tree: only the fields the recipe sets / all\n"
	"  E                              edit the whole recipe in $EDITOR\n"
	"  F5, !, Alt-5                   submit (srtctl apply) when saved and error-free\n"
	"  F10, q, Ctrl-C, Alt-0          quit (asks when there are unsaved changes)\n"
	"  Mouse                          click fields, tabs and problems\n";

static void show_help(struct app *a)
{
	struct strbuf sb = STRBUF_INIT;
	struct form *f = cur_form(a);
	struct form_field *ff = f ? form_focused(f) : NULL;
	if (a->pane == PANE_MAIN && a->narrow_view == VIEW_FORM && ff) {
		char *h = form_field_help(a, ff);
		strbuf_addstr(&sb, h);
		strbuf_addstr(&sb, "\n\n");
		free(h);
	}
	strbuf_addstr(&sb, help_keys);
	app_show_text(a, ff && ff->path ? ff->path : "Help", sb_str(&sb));
	strbuf_release(&sb);
}

/* ---- saving, quitting, submitting ----------------------------------------- */

static int disk_changed(struct app *a)
{
	struct disk_id now;
	disk_identify(a->path, &now);
	if (now.exists != a->disk.exists)
		return 1;
	if (!now.exists)
		return 0;
	if (now.size != a->disk.size || now.hash != a->disk.hash)
		return 1;
	return 0;
}

int app_save(struct app *a)
{
	if (!a->path) {
		char *p = app_prompt(a, "Save as", "recipe.yaml");
		if (!p)
			return -1;
		a->path = p;
		memset(&a->disk, 0, sizeof(a->disk));
	}
	int changed = disk_changed(a);
	if (!doc_dirty(a->doc) && !changed && a->disk.exists) {
		app_message(a, "no changes to save");
		return 0;
	}
	if (changed) {
		int k = app_confirm(a, "File changed on disk",
				    "The file changed on disk since it was opened.\n"
				    "o: overwrite it with this version   c: cancel (see the Diff tab)",
				    "co");
		if (k != 'o') {
			app_message(a, "not saved");
			return -1;
		}
	}
	size_t len;
	const char *text = doc_text(a->doc, &len);
	char *err = NULL;
	if (file_write_atomic(a->path, text, len, WRITE_BACKUP, &err)) {
		app_error(a, "%s", err);
		free(err);
		return -1;
	}
	app_written(a);
	app_message(a, "saved '%s' (previous version in '%s.bak')", a->path, a->path);
	return 0;
}

void app_written(struct app *a)
{
	doc_mark_saved(a->doc);
	disk_identify(a->path, &a->disk);
	a->pv_valid[PV_DIFF] = 0;
	if (a->path)
		recover_remove(a->path);
	/* a restored path-less session is now a file: its rescue copy is done */
	if (a->restored_new)
		recover_remove(RECOVER_NEW);
	a->restored_new = 0;
}

static void ask_quit(struct app *a)
{
	if (!doc_dirty(a->doc)) {
		a->quit = 1;
		return;
	}
	int k = app_confirm(a, "Unsaved changes",
			    "The recipe has unsaved changes.\n"
			    "s: save and quit   d: discard them and quit   c: cancel",
			    "sdc");
	if (k == 's') {
		if (!app_save(a))
			a->quit = 1;
	} else if (k == 'd') {
		if (a->path)
			recover_remove(a->path);
		a->quit = 1;
	}
}

static void do_submit(struct app *a)
{
	const struct app_state *st = app_state(a);
	if (!a->path || doc_dirty(a->doc) || disk_changed(a)) {
		app_error(a, "save the recipe first (F2 or Ctrl-S): submit runs on the file on disk");
		return;
	}
	if (st->errors) {
		app_error(a, "the recipe has %zu error%s: fix them before submitting (see Problems)",
			   st->errors, st->errors == 1 ? "" : "s");
		return;
	}
	struct strvec argv = STRVEC_INIT;
	char *err = NULL;
	if (submit_argv(a->submit_cmd, a->path, &argv, &err)) {
		app_error(a, "%s", err);
		free(err);
		strvec_release(&argv);
		return;
	}
	struct strbuf out = STRBUF_INIT, cmdline = STRBUF_INIT;
	for (size_t i = 0; i < argv.n; i++) {
		if (i)
			strbuf_addch(&cmdline, ' ');
		strbuf_addstr(&cmdline, argv.v[i]);
	}
	if (!submit_found(argv.v[0])) {
		strbuf_addf(&out,
			    "'%s' is not on PATH, so srt-tui cannot submit for you.\n"
			    "Run this where srtctl is installed:\n\n  %s\n",
			    argv.v[0], sb_str(&cmdline));
		app_show_text(a, "Submit", sb_str(&out));
	} else {
		int k = app_confirm(a, "Submit", sb_str(&cmdline), "yn");
		if (k == 'y') {
			app_message(a, "running: %s", sb_str(&cmdline));
			app_draw(a);
			strbuf_addf(&out, "$ %s\n", sb_str(&cmdline));
			int rc = submit_run(argv.v, &out, &err);
			if (rc < 0) {
				strbuf_addf(&out, "%s\n", err);
				free(err);
			} else {
				strbuf_addf(&out, "\n[exit status %d]\n", rc);
			}
			app_message(a, rc == 0 ? "submitted: %s" : "submit failed: %s",
				    sb_str(&cmdline));
			app_show_text(a, "Submit output", sb_str(&out));
		}
	}
	strbuf_release(&out);
	strbuf_release(&cmdline);
	strvec_release(&argv);
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
	struct form *f = cur_form(a);
	if (!f->collapsed.n)
		return form_search(a, f, needle, dir);
	struct form full;
	form_init(&full);
	full.user = f->user; /* borrowed: the build reads its options there */
	build_screen(a, a->cur, &full);
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
		if (strcmp(key, f->collapsed.v[c]) && path_is_under(key, f->collapsed.v[c]))
			form_set_collapsed(f, f->collapsed.v[c], 0);
		else
			c++;
	a->form_built[a->cur] = 0;
	f = cur_form(a);
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

static void do_search(struct app *a, int dir, int ask)
{
	if (!cur_form(a))
		return;
	if (ask || !a->search) {
		char *s = app_prompt(a, "Search fields and values", a->search ? a->search : "");
		if (!s)
			return;
		free(a->search);
		a->search = s;
	}
	if (!*a->search)
		return;
	if (app_search(a, a->search, dir))
		app_message(a, "/%s  (n: next, N: previous)", a->search);
	else
		app_error(a, "'%s' not found", a->search);
}

/* ---- keys ----------------------------------------------------------------- */

static int map_alt(int key)
{
	switch (key) {
	case K_ALT('1'):
		return K_FN(KEY_F(1));
	case K_ALT('2'):
		return K_FN(KEY_F(2));
	case K_ALT('5'):
		return K_FN(KEY_F(5));
	case K_ALT('0'):
		return K_FN(KEY_F(10));
	default:
		return key;
	}
}

static void cycle_pane(struct app *a, int dir)
{
	if (a->wide) {
		a->pane = (enum pane)(((int)a->pane + 3 + dir) % 3);
		return;
	}
	int n = 2 + PV_COUNT;
	int cur = a->narrow_view == VIEW_FORM ? 0 : a->narrow_view == VIEW_PROBLEMS ? 1 : 2 + (int)a->pv_tab;
	cur = (cur + n + dir) % n;
	if (cur == 0)
		a->narrow_view = VIEW_FORM;
	else if (cur == 1)
		a->narrow_view = VIEW_PROBLEMS;
	else {
		a->narrow_view = VIEW_PREVIEW;
		a->pv_tab = (enum preview_tab)(cur - 2);
	}
	a->pane = a->narrow_view == VIEW_FORM       ? PANE_MAIN
		  : a->narrow_view == VIEW_PROBLEMS ? PANE_PROBLEMS
						    : PANE_PREVIEW;
}

static int body_rows(struct app *a)
{
	return a->rows - (a->wide ? 4 : 5);
}

static int page_of(int drawn_h, int fallback)
{
	return drawn_h > 2 ? drawn_h - 1 : drawn_h > 0 ? drawn_h : fallback;
}

static void handle_click(struct app *a)
{
	MEVENT *m = &a->mouse;
	if (m->bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		/* the wheel moves like the arrow keys */
		app_handle_key(a, K_FN((m->bstate & BUTTON4_PRESSED) ? KEY_UP : KEY_DOWN));
		return;
	}
	if (!(m->bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
		return;
	for (size_t i = a->nhits; i-- > 0;) {
		struct hit *h = &a->hits[i];
		if (m->y < h->y || m->y >= h->y + h->h || m->x < h->x0 || m->x >= h->x1)
			continue;
		switch (h->kind) {
		case HIT_SCREEN_TAB:
			app_goto_screen(a, (size_t)h->idx);
			break;
		case HIT_PREVIEW_TAB:
			a->pv_tab = (enum preview_tab)h->idx;
			a->pane = PANE_PREVIEW;
			break;
		case HIT_NARROW_TAB:
			a->narrow_view = h->idx == 0 ? VIEW_FORM : h->idx == 1 ? VIEW_PROBLEMS : VIEW_PREVIEW;
			if (h->idx >= 2)
				a->pv_tab = (enum preview_tab)(h->idx - 2);
			a->pane = a->narrow_view == VIEW_FORM       ? PANE_MAIN
				  : a->narrow_view == VIEW_PROBLEMS ? PANE_PROBLEMS
								    : PANE_PREVIEW;
			break;
		case HIT_FORM:
			a->pane = PANE_MAIN;
			form_click(a, cur_form(a), m->y - h->y, m->x - h->x0);
			break;
		case HIT_PROBLEMS:
			a->pane = PANE_PROBLEMS;
			panel_problems_click(a, &a->prob_view, m->y - h->y);
			break;
		case HIT_PREVIEW:
			a->pane = PANE_PREVIEW;
			break;
		}
		return;
	}
}

void app_handle_key(struct app *a, int key)
{
	if (key == K_NONE)
		return;
	if (a->too_small) {
		/* Keys would act on a screen the user cannot see. */
		return;
	}
	key = map_alt(key);
	if (key != K_FN(KEY_MOUSE)) {
		free(a->msg);
		a->msg = NULL;
	}
	if (key == K_FN(KEY_MOUSE)) {
		handle_click(a);
		return;
	}
	struct form *f = cur_form(a);
	int in_form = a->pane == PANE_MAIN && a->narrow_view == VIEW_FORM;
	/* The focused pane gets the key first. */
	if (in_form && f) {
		const struct app_screen *s = a->screens[a->cur];
		struct form_field *ff = form_focused(f);
		if (ff && ff->kind == FF_CUSTOM && ff->widget && ff->widget->key &&
		    ff->widget->key(a, ff, key))
			return;
		if (s->key && s->key(a, f, key))
			return;
		if (form_key(a, f, key))
			return;
	} else if (a->pane == PANE_PROBLEMS || a->narrow_view == VIEW_PROBLEMS) {
		/* a page is what the panel shows, less a row kept for context */
		if (panel_problems_key(a, &a->prob_view, key, page_of(a->prob_h, body_rows(a))))
			return;
	} else {
		if (key == K_FN(KEY_LEFT) || key == K_FN(KEY_RIGHT)) {
			int d = key == K_FN(KEY_LEFT) ? -1 : 1;
			a->pv_tab = (enum preview_tab)(((int)a->pv_tab + PV_COUNT + d) % PV_COUNT);
			return;
		}
		if (key == 'w') {
			a->pv_nowrap[a->pv_tab] ^= 1;
			a->pv_view[a->pv_tab].top = 0;
			a->pv_view[a->pv_tab].left = 0;
			app_message(a, preview_wraps(a, a->pv_tab)
					       ? "long lines wrap (w: scroll sideways with < >)"
					       : "long lines scroll sideways with < > (w: wrap)");
			return;
		}
		if (panel_text_key(&a->pv_view[a->pv_tab],
				   preview_shown(a, a->pv_tab, a->pv_width > 0 ? a->pv_width : a->cols - 1), key,
				   page_of(a->pv_h, body_rows(a))))
			return;
	}
	switch (key) {
	case K_TAB:
		cycle_pane(a, 1);
		break;
	case K_FN(KEY_BTAB):
		cycle_pane(a, -1);
		break;
	case '[':
	case K_ALT(K_FN(KEY_LEFT)):
		app_prev_screen(a);
		break;
	case ']':
	case K_ALT(K_FN(KEY_RIGHT)):
		app_next_screen(a);
		break;
	case K_FN(KEY_F(1)):
	case '?':
		show_help(a);
		break;
	case K_FN(KEY_F(2)):
	case K_CTRL('s'):
		app_save(a);
		break;
	case '/':
		do_search(a, 1, 1);
		break;
	case 'n':
		do_search(a, 1, 0);
		break;
	case 'N':
		do_search(a, -1, 0);
		break;
	case 'u':
	case K_CTRL('z'):
		if (doc_undo(a->doc))
			app_message(a, "nothing to undo");
		else
			app_message(a, "undone");
		break;
	case K_CTRL('y'):
	case K_CTRL('r'):
		if (doc_redo(a->doc))
			app_message(a, "nothing to redo");
		else
			app_message(a, "redone");
		break;
	case K_FN(KEY_F(5)):
	case '!':
		do_submit(a);
		break;
	case K_FN(KEY_F(10)):
	case 'q':
	case K_CTRL('c'):
		ask_quit(a);
		break;
	case K_ESC:
		if (a->pane != PANE_MAIN || a->narrow_view != VIEW_FORM) {
			a->pane = PANE_MAIN;
			a->narrow_view = VIEW_FORM;
		}
		break;
	case K_CTRL('l'):
		clearok(curscr, TRUE);
		break;
	default:
		break;
	}
}

/* ---- the key reader -------------------------------------------------------- */

static void terminate(struct app *a)
{
	if (a->terminated)
		return;
	a->terminated = 1;
	if (!doc_dirty(a->doc))
		return;
	size_t len;
	const char *text = doc_text(a->doc, &len);
	char *err = NULL;
	const char *target = a->path ? a->path : RECOVER_NEW;
	if (recover_write(target, text, len, &err)) {
		a->terminated = 2;
		free(err);
	} else {
		a->terminated = 3;
	}
}

static int getkey_raw(struct app *a, void (*redraw)(struct app *, void *), void *ctx);

int app_getkey(struct app *a, void (*redraw)(struct app *, void *), void *ctx)
{
	for (;;) {
		int k = getkey_raw(a, redraw, ctx);
		/* Below the minimum size the dialog is hidden behind the "too small"
		 * message: a key must not answer a question nobody can see ('d' in
		 * the quit prompt discarded the edits). */
		if (redraw && a->too_small && k != K_TERMINATE)
			continue;
		return k;
	}
}

static int getkey_raw(struct app *a, void (*redraw)(struct app *, void *), void *ctx)
{
	for (;;) {
		if (sig_terminate) {
			terminate(a);
			return K_TERMINATE;
		}
		if (a->terminated)
			return K_TERMINATE;
		if (sig_interrupt) {
			sig_interrupt = 0;
			return K_CTRL('c');
		}
		wint_t wc;
		int r = wget_wch(stdscr, &wc);
		if (r == ERR) {
			if (!isatty(STDIN_FILENO) && !a->attached)
				return K_TERMINATE;
			continue;
		}
		if (r == KEY_CODE_YES) {
			if (wc == KEY_RESIZE) {
				app_draw(a);
				if (redraw && !a->too_small)
					redraw(a, ctx);
				continue;
			}
			if (wc == KEY_MOUSE) {
				if (getmouse(&a->mouse) != OK)
					continue;
				if (redraw)
					continue; /* dialogs ignore the mouse */
			}
			if (wc == KEY_ENTER)
				return K_ENTER;
			return K_FN((int)wc);
		}
		if (wc == 27) {
			wint_t w2;
			wtimeout(stdscr, 0);
			int r2 = wget_wch(stdscr, &w2);
			wtimeout(stdscr, 100);
			if (r2 == OK)
				return K_ALT((int)w2);
			if (r2 == KEY_CODE_YES)
				return K_ALT(K_FN((int)w2));
			return K_ESC;
		}
		if (wc == '\n')
			return K_ENTER;
		if (wc == 127 || wc == 8)
			return K_FN(KEY_BACKSPACE);
		return (int)wc;
	}
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
	layout(a);
}

static void offer_recovery(struct app *a)
{
	char *text = NULL;
	size_t len = 0;
	time_t when = 0;
	/* `srt-tui new` without a file rescues to RECOVER_NEW in its folder */
	const char *target = a->path ? a->path : RECOVER_NEW;
	if (recover_read(target, &text, &len, &when) != 1)
		return;
	size_t cur_len;
	const char *cur = doc_text(a->doc, &cur_len);
	if (cur_len == len && !memcmp(cur, text, len)) {
		recover_remove(target);
		free(text);
		return;
	}
	char stamp[64] = "";
	struct tm tm;
	if (localtime_r(&when, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M", &tm);
	char *rp = recover_path(target);
	char *q = xasprintf("Unsaved edits of an earlier session were kept in\n%s (%s).\n"
			    "y: restore them   n: not now (keep the file)   d: delete them",
			    rp, stamp);
	int k = app_confirm(a, "Restore unsaved edits?", q, "ynd");
	free(q);
	if (k == 'y') {
		char *err = NULL;
		if (doc_replace_text(a->doc, text, len, &err)) {
			app_error(a, "cannot restore '%s': %s", rp, err);
			free(err);
		} else {
			app_message(a, "restored the unsaved edits from '%s' (u undoes)", rp);
			a->restored_new = !a->path;
		}
	} else if (k == 'd') {
		recover_remove(target);
		app_message(a, "deleted '%s'", rp);
	}
	free(rp);
	free(text);
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
	install_signals();
	install_crash_handler(a);
	app_attach(a);
	app_draw(a);
	offer_recovery(a);
	while (!a->quit && !a->terminated) {
		app_draw(a);
		int k = app_getkey(a, NULL, NULL);
		if (k == K_TERMINATE)
			break;
		app_handle_key(a, k);
	}
	remove_crash_handler();
	endwin();
	delscreen(scr);
	a->attached = 0;
	if (a->terminated) {
		char *rp = recover_path(a->path ? a->path : RECOVER_NEW);
		if (a->terminated == 3)
			fprintf(stderr, "srt-tui: terminated; unsaved edits kept in '%s': run "
					"'srt-tui %s%s' %sto restore them\n", rp,
				a->path ? "edit " : "new", a->path ? a->path : "",
				a->path ? "" : "in this folder ");
		else if (a->terminated == 2)
			fprintf(stderr, "srt-tui: terminated; could not write '%s', the unsaved "
					"edits are lost\n", rp);
		free(rp);
		return 1;
	}
	return 0;
}
