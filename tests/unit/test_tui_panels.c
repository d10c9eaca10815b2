/* In-process screen tests of the edit screen and its panels: an app drawn by
 * ncurses into a terminal on /dev/null, read back with mvinnstr. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/doc.h"
#include "model/fileio.h"
#include "tui/app.h"
#include "tui/editor.h"
#include "tui/form.h"
#include "tui/wizard_screens.h"

/* ncurses keeps some terminal data until exit by design. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libncursesw\nleak:libtinfo\nleak:newterm\nleak:_nc_\n";
}

static const char recipe[] =
	"# panel test recipe\n"
	"schema: 2\n"
	"name: \"panel-test\"\n"
	"model:\n"
	"  path: \"llama-8b\"\n"
	"  container: \"vllm-lmcache\"\n"
	"  precision: \"bf16\"\n"
	"resources:\n"
	"  gpu_type: \"h100\"\n"
	"  gpus_per_node: 8\n"
	"environment:\n"
	"  PYTHONHASHSEED: \"0\"\n"
	"frontend:\n"
	"  type: dynamo\n"
	"engine:\n"
	"  type: vllm\n"
	"  connector: lmcache-mp\n"
	"roles:\n"
	"  agg:\n"
	"    nodes: 1\n"
	"    workers: 4\n"
	"    gpus: 2\n"
	"services:\n"
	"  - name: lmcache-server\n"
	"    type: lmcache-server\n"
	"    args:\n"
	"      - --l1-size-gb\n"
	"      - \"32\"\n"
	"      - --eviction-policy\n"
	"      - LRU\n"
	"    env:\n"
	"      PYTHONHASHSEED: \"0\"\n";

struct fixture {
	FILE *out, *in;
	SCREEN *scr;
	struct app *a;
	char path[64];
};

static int setup_size(void **state, int rows, int cols)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char buf[16];
	setlocale(LC_ALL, "C.UTF-8");
	snprintf(buf, sizeof(buf), "%d", rows);
	setenv("LINES", buf, 1);
	snprintf(buf, sizeof(buf), "%d", cols);
	setenv("COLUMNS", buf, 1);
	unsetenv("NO_COLOR");
	unsetenv("SRT_TUI_THEME");
	f->out = fopen("/dev/null", "w");
	f->in = fopen("/dev/null", "r");
	f->scr = newterm("xterm-256color", f->out, f->in);
	assert_non_null(f->scr);
	set_term(f->scr);
	snprintf(f->path, sizeof(f->path), "/tmp/srt-tui-panels-%d.yaml", (int)getpid());
	char *err = NULL;
	assert_int_equal(file_write_atomic(f->path, recipe, strlen(recipe), 0, &err), 0);
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load("r.yaml", recipe, strlen(recipe), &dl);
	assert_non_null(d);
	struct app_opts o = { .path = f->path };
	app_init(&f->a, d, &o);
	diag_list_release(&dl);
	app_add_screen(f->a, &editor_screen);
	app_attach(f->a);
	*state = f;
	return 0;
}

static int setup_wide(void **state) { return setup_size(state, 40, 130); }
static int setup_narrow(void **state) { return setup_size(state, 24, 80); }

static int teardown(void **state)
{
	struct fixture *f = *state;
	app_free(f->a);
	endwin();
	delscreen(f->scr);
	fclose(f->out);
	fclose(f->in);
	unlink(f->path);
	char *bak = malloc(strlen(f->path) + 5);
	sprintf(bak, "%s.bak", f->path);
	unlink(bak);
	free(bak);
	free(f);
	return 0;
}

/* The whole screen as text, one line per row. */
static char *screen_text(void)
{
	size_t cap = (size_t)LINES * (size_t)(COLS * 4 + 2) + 1;
	char *s = calloc(1, cap), *p = s;
	for (int y = 0; y < LINES; y++) {
		int n = mvinnstr(y, 0, p, COLS * 4);
		if (n < 0)
			n = 0;
		p += n;
		*p++ = '\n';
	}
	*p = 0;
	return s;
}

static int on_screen(const char *want)
{
	char *s = screen_text();
	int hit = strstr(s, want) != NULL;
	if (!hit)
		fprintf(stderr, "not on screen: '%s'\n%s", want, s);
	free(s);
	return hit;
}

static int on_screen_quiet(const char *want)
{
	char *s = screen_text();
	int hit = strstr(s, want) != NULL;
	free(s);
	return hit;
}

static char *row(int y)
{
	char *b = calloc(1, (size_t)COLS * 4 + 1);
	mvinnstr(y, 0, b, COLS * 4);
	return b;
}

static void add_port(struct app *a)
{
	json_t *v = json_string("--port");
	assert_int_equal(app_insert(a, "services[0].args", 2, v), 0);
	json_decref(v);
	v = json_string("9000");
	assert_int_equal(app_insert(a, "services[0].args", 3, v), 0);
	json_decref(v);
}

static void test_clean_recipe(void **state)
{
	struct fixture *f = *state;
	app_draw(f->a);
	char *r0 = row(0);
	assert_non_null(strstr(r0, "srt-tui  "));
	assert_non_null(strstr(r0, "no problems"));
	assert_null(strstr(r0, "[modified]"));
	free(r0);
	assert_true(on_screen("Problems: 0 E, 0 W"));
	assert_true(on_screen("OK  no problems found"));
	assert_true(on_screen("[Services]"));
	/* the preview wraps long commands; the server comes after the implied
	 * services: one page down (a page is the panel's own height) */
	app_handle_key(f->a, K_TAB);
	app_handle_key(f->a, K_TAB);
	app_handle_key(f->a, K_FN(KEY_NPAGE));
	app_draw(f->a);
	/* the side panel is what the form's 80 columns leave: it wraps after --host */
	assert_true(on_screen("lmcache server --host 0.0.0.0"));
	assert_true(on_screen("--port 8750 --http-host 0.0.0.0"));
	assert_true(on_screen("--l1-size-gb 32"));
	app_handle_key(f->a, K_ESC);
	/* the tree shows present fields with their values and absent ones with defaults */
	assert_true(on_screen("gpus_per_node"));
	assert_true(on_screen("(default: false)"));
	/* H: only what the recipe sets */
	app_handle_key(f->a, 'H');
	app_draw(f->a);
	char *all = screen_text();
	assert_null(strstr(all, "(default: "));
	assert_non_null(strstr(all, "gpus_per_node"));
	free(all);
	app_handle_key(f->a, 'H');
	app_draw(f->a);
	assert_true(on_screen("(default: false)"));
	char *last = row(LINES - 1);
	assert_non_null(strstr(last, "F1/? Help"));
	assert_non_null(strstr(last, "F10/q Quit"));
	free(last);
}

static void test_error_appears_and_clears(void **state)
{
	struct fixture *f = *state;
	add_port(f->a);
	app_draw(f->a);
	char *r0 = row(0);
	assert_non_null(strstr(r0, "[modified]"));
	assert_non_null(strstr(r0, "1 error, 0 warnings"));
	free(r0);
	assert_true(on_screen("Problems: 1 E, 0 W"));
	/* the side box is what the form's 80 columns leave: the message wraps */
	assert_true(on_screen("E 29:7   services[lmcache-server].args must not"));
	assert_true(on_screen("[lmcache-server-port]"));
	assert_true(on_screen("hint: remove it"));
	/* the marker beside the field: the letter, not just a colour */
	app_focus_path(f->a, "services[0].args");
	app_draw(f->a);
	int marked = 0;
	for (int y = 0; y < LINES; y++) {
		char *r = row(y);
		if (!strncmp(r, "E ", 2) && strstr(r, "args") && strstr(r, "(6 items)"))
			marked = 1;
		free(r);
	}
	assert_true(marked);
	/* and the focused field lists its problem below it */
	assert_true(on_screen("E services[lmcache-server].args must not set --port"));
	const struct app_state *st = app_state(f->a);
	assert_int_equal(st->errors, 1);
	const struct diag *d[4];
	assert_int_equal(app_diags_for(f->a, "services[0].args", d, 4), 1);
	assert_string_equal(d[0]->code, "lmcache-server-port");

	app_handle_key(f->a, 'u');
	app_handle_key(f->a, 'u');
	app_draw(f->a);
	assert_true(on_screen("OK  no problems found"));
	assert_int_equal(app_state(f->a)->errors, 0);
	app_handle_key(f->a, K_CTRL('y'));
	app_handle_key(f->a, K_CTRL('y'));
	app_draw(f->a);
	assert_true(on_screen("Problems: 1 E, 0 W"));
	assert_int_equal(app_state(f->a)->generation, doc_generation(app_doc(f->a)));
}

static void test_jump_to_field(void **state)
{
	struct fixture *f = *state;
	add_port(f->a);
	app_draw(f->a);
	app_handle_key(f->a, K_TAB); /* focus the problems panel */
	app_handle_key(f->a, K_ENTER);
	app_draw(f->a);
	/* focused field: the status line shows its path and help */
	char *st = row(LINES - 2);
	assert_non_null(strstr(st, "services[0].args[2]"));
	free(st);
}

static void test_preview_tabs(void **state)
{
	struct fixture *f = *state;
	const char *yaml = app_preview(f->a, PV_YAML);
	assert_string_equal(yaml, recipe);
	char *want = malloc(strlen(f->path) + 64);
	sprintf(want, "(no changes: the recipe matches '%s' on disk)\n", f->path);
	assert_string_equal(app_preview(f->a, PV_DIFF), want);
	free(want);
}

static void test_preview_texts(void **state)
{
	struct fixture *f = *state;
	const char *w = app_preview(f->a, PV_WORKERS);
	assert_non_null(strstr(w, "agg: 4 workers x 2 GPUs, engine vllm\n"));
	assert_non_null(strstr(w, "  connector: lmcache-mp\n"));
	assert_non_null(strstr(w, "  --kv-transfer-config:\n    {\n"));
	assert_non_null(strstr(w, "LMCacheMPConnector"));
	assert_non_null(strstr(w, "  worker command (agg_0):\n    $ python3 -m dynamo.vllm "));
	const char *p = app_preview(f->a, PV_PLAN);
	/* the plan runs on the job's own nodes, not the snapshot harness's
	 * two spare ones (a server per node would show on nodes never given) */
	const char *head = "Nodes requested: 1\n\njob: 1 node, 10 srun steps\n"
			   "nodes: node-01 stands for the node Slurm allocates\n\n"
			   "node-01 — head, worker node\n";
	if (strncmp(p, head, strlen(head)))
		fail_msg("plan tab starts:\n%.300s", p);
	/* node-02 only where the plan says what the snapshot does otherwise */
	const char *note = strstr(p, "\n\nlaunch snapshot: srtctl's test harness lists 2 spare nodes "
				     "more (node-02, node-03)");
	assert_non_null(note);
	assert_true(strstr(p, "node-02") > note);
	assert_non_null(strstr(p, "  2. service_lmcache-server\n"));
	json_t *v = json_integer(2);
	assert_int_equal(app_set(f->a, "roles.agg.workers", v), 0);
	json_decref(v);
	const char *diff = app_preview(f->a, PV_DIFF);
	assert_non_null(strstr(diff, "\n-    workers: 4\n+    workers: 2\n"));
	assert_non_null(strstr(app_preview(f->a, PV_WORKERS), "agg: 2 workers x 2 GPUs"));
	/* save: the file on disk is the document, the diff is empty again */
	assert_int_equal(app_save(f->a), 0);
	char *buf, *err = NULL;
	size_t len;
	assert_int_equal(file_read(f->path, &buf, &len, &err), 0);
	size_t dlen;
	const char *dt = doc_text(app_doc(f->a), &dlen);
	assert_int_equal(len, dlen);
	assert_memory_equal(buf, dt, len);
	free(buf);
	assert_non_null(strstr(app_preview(f->a, PV_DIFF), "(no changes"));
}

static void test_narrow_tabs(void **state)
{
	struct fixture *f = *state;
	app_draw(f->a);
	assert_true(on_screen("[Form]  Problems 0E 0W   Services   Workers   YAML   Diff   Plan"));
	app_handle_key(f->a, K_TAB);
	app_draw(f->a);
	assert_true(on_screen("[Problems 0E 0W]"));
	assert_true(on_screen("OK  no problems found"));
	app_handle_key(f->a, K_TAB);
	app_draw(f->a);
	assert_true(on_screen("[Services]"));
	assert_true(on_screen("Services:"));
	app_handle_key(f->a, K_TAB);
	app_handle_key(f->a, K_TAB);
	app_draw(f->a);
	assert_true(on_screen("[YAML]"));
	assert_true(on_screen("# panel test recipe"));
	app_handle_key(f->a, K_FN(KEY_BTAB));
	app_handle_key(f->a, K_FN(KEY_BTAB));
	app_handle_key(f->a, K_FN(KEY_BTAB));
	app_handle_key(f->a, K_FN(KEY_BTAB));
	app_draw(f->a);
	assert_true(on_screen("[Form]"));
}

static void test_too_small(void **state)
{
	struct fixture *f = *state;
	resizeterm(12, 50);
	app_draw(f->a);
	assert_true(on_screen("Terminal too small (50x12)."));
	assert_true(on_screen("srt-tui needs at least 60x16: enlarge the window."));
	assert_true(on_screen("q, F10 or Ctrl-C quits."));
	app_handle_key(f->a, 'd'); /* ignored: the user cannot see what it would do */
	assert_false(app_done(f->a));
	resizeterm(24, 80);
	app_draw(f->a);
	assert_true(on_screen("? Help"));
	resizeterm(12, 50);
	app_draw(f->a);
	/* but the user can always leave (nothing unsaved here: at once) */
	app_handle_key(f->a, 'q');
	assert_true(app_done(f->a));
}

/* A screen whose text and problems are longer than 80 columns. */
static void long_build(struct app *a, struct form *f)
{
	form_add_heading(f, "Long");
	form_add_text(f, "This explanation is longer than an 80 column terminal, and its last "
			 "words matter: END-OF-TEXT");
	form_add_value(f, "services[0].args", "Server args");
	(void)a;
}
static const struct app_screen long_screen = { "Long", long_build, NULL, 0 };

/* At 80x24 nothing the user needs is cut off at the right edge: the key bar
 * keeps the way between screens, form text and a field's problem (with its
 * hint) wrap, and the previews wrap long commands ('w' toggles). */
static void test_narrow_nothing_cut(void **state)
{
	struct fixture *f = *state;
	app_draw(f->a);
	char *last = row(LINES - 1);
	assert_non_null(strstr(last, "? Help ^S Save q Quit / Find u Undo ^Y Redo ! Submit Tab Pane [ ] Screen"));
	free(last);

	add_port(f->a);
	app_add_screen(f->a, &long_screen);
	app_goto_screen(f->a, 1);
	app_focus_path(f->a, "services[0].args");
	app_draw(f->a);
	assert_true(on_screen("matter: END-OF-TEXT"));
	/* the hint of the error under the focused field, whole */
	assert_true(on_screen("E Server args"));
	char *all = screen_text();
	assert_non_null(strstr(all, "srtctl"));
	assert_non_null(strstr(all, "hint") || strstr(all, "\xe2\x80\x94"));
	free(all);

	/* the Plan tab: the lmcache server's own flags are on screen */
	for (int i = 0; i < 6; i++)
		app_handle_key(f->a, K_TAB);
	app_draw(f->a);
	assert_true(on_screen("[Plan]"));
	assert_true(on_screen("--l1-size-gb 32"));
	app_handle_key(f->a, 'w');
	app_draw(f->a);
	char *s2 = screen_text();
	assert_null(strstr(s2, "--l1-size-gb 32"));
	free(s2);
	app_handle_key(f->a, 'w');
	app_draw(f->a);
	assert_true(on_screen("--l1-size-gb 32"));
}

/* K moves the focused service up and the focus goes with it: a second K
 * says it is already first (the focus used to stay on the row number, so
 * K K moved two different services). */
static void test_service_move_keeps_focus(void **state)
{
	struct fixture *f = *state;
	json_t *svc = json_pack("{s:s, s:s, s:s}", "name", "extra", "type", "generic", "command",
				"sleep 1");
	assert_int_equal(app_insert(f->a, "services", 1, svc), 0);
	json_decref(svc);
	app_add_screen(f->a, &wiz_services_screen);
	app_goto_screen(f->a, 1);
	app_draw(f->a);
	app_focus_path(f->a, "services-row-1");
	app_handle_key(f->a, 'K');
	app_draw(f->a);
	assert_true(on_screen("> extra "));
	assert_true(on_screen("Service extra (generic)"));
	app_handle_key(f->a, 'K');
	app_draw(f->a);
	assert_true(on_screen("already the first service"));
	json_t *root = doc_json(app_doc(f->a));
	assert_string_equal(json_string_value(json_object_get(json_array_get(
				    json_object_get(root, "services"), 0), "name")), "extra");
	json_decref(root);
	app_handle_key(f->a, 'J');
	app_draw(f->a);
	root = doc_json(app_doc(f->a));
	assert_string_equal(json_string_value(json_object_get(json_array_get(
				    json_object_get(root, "services"), 1), "name")), "extra");
	json_decref(root);
	app_handle_key(f->a, 'J');
	app_draw(f->a);
	assert_true(on_screen("already the last service"));
}

/* A message longer than the status line takes more rows, never cut. */
static void test_long_message_wraps(void **state)
{
	struct fixture *f = *state;
	app_error(f->a, "a long error that does not fit on one line of eighty columns; the way to "
			"fix it comes last: SEE-THE-END");
	app_draw(f->a);
	assert_true(on_screen("SEE-THE-END"));
	char *last = row(LINES - 1);
	assert_non_null(strstr(last, "? Help"));
	free(last);
}

/* / and n, N find keys inside a collapsed branch of the Fields tree: the
 * branch opens and the row takes the focus (the search used to look only at
 * the rows drawn, so a collapsed model: hid model.precision). */
static void test_search_collapsed(void **state)
{
	struct fixture *f = *state;
	app_draw(f->a);
	app_focus_path(f->a, "model");
	app_handle_key(f->a, 'h'); /* collapse model */
	app_draw(f->a);
	assert_false(on_screen_quiet("  precision "));
	app_focus_path(f->a, "resources.gpu_type");
	assert_int_equal(app_search(f->a, "precision", 1), 1);
	app_draw(f->a);
	char *st = row(LINES - 2);
	assert_non_null(strstr(st, "model.precision: "));
	free(st);
	/* n again wraps back to the same only match; N too */
	assert_int_equal(app_search(f->a, "precision", 1), 1);
	assert_int_equal(app_search(f->a, "precision", -1), 1);
	app_draw(f->a);
	st = row(LINES - 2);
	assert_non_null(strstr(st, "model.precision: "));
	free(st);
	/* in order: forward from model.path reaches model.container first, back
	 * from model.precision reaches it too, both inside the collapsed branch */
	app_focus_path(f->a, "model");
	app_handle_key(f->a, 'h');
	app_draw(f->a);
	assert_false(on_screen_quiet("  container "));
	app_focus_path(f->a, "name");
	assert_int_equal(app_search(f->a, "vllm-lmcache", 1), 1);
	app_draw(f->a);
	st = row(LINES - 2);
	assert_non_null(strstr(st, "model.container: "));
	free(st);
	assert_int_equal(app_search(f->a, "no-such-text", 1), 0);
}

static void test_search(void **state)
{
	struct fixture *f = *state;
	app_draw(f->a);
	app_focus_path(f->a, "resources.gpus_per_node");
	app_draw(f->a);
	char *st = row(LINES - 2);
	assert_non_null(strstr(st, "resources.gpus_per_node: "));
	free(st);
}

/* The Connectors step of an ATOM recipe: an lmcache_mp entry without a port
 * shows the port srtctl puts in (spec §5.4), not "(not set)". */
static void test_atom_mp_port_default(void **state)
{
	static const char atom[] =
		"schema: 2\nname: a\nmodel: {path: m, container: c, precision: bf16}\n"
		"resources: {gpu_type: mi300x, gpus_per_node: 8}\nengine: atom\n"
		"roles:\n  agg:\n    nodes: 1\n    args:\n      extra-kv-connectors:\n"
		"        - {kv_connector: lmcache_mp, kv_role: kv_both}\n"
		"        - {kv_connector: lmcache_mp, kv_connector_extra_config: {lmcache.mp.port: 9000}}\n";
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load("a.yaml", atom, strlen(atom), &dl);
	struct app_opts o = { .path = NULL };
	struct app *a;
	struct form f;
	struct strbuf got = STRBUF_INIT;
	(void)state;
	assert_non_null(d);
	app_init(&a, d, &o);
	diag_list_release(&dl);
	form_init(&f);
	wiz_connectors_screen.build(a, &f);
	for (size_t i = 0; i < f.n; i++)
		if (f.v[i].kind == FF_VALUE && f.v[i].path && strstr(f.v[i].path, "mp.port")) {
			char *v = form_field_value(a, &f.v[i]);
			strbuf_addf(&got, "%s\n", v);
			free(v);
		}
	assert_string_equal(sb_str(&got), "8750 (filled in by srtctl)\n9000\n");
	strbuf_release(&got);
	form_release(&f);
	app_free(a);
}

/* The row of the screen showing both texts, -1 when none does. */
static int row_with(const char *a, const char *b)
{
	for (int y = 0; y < LINES; y++) {
		char *r = row(y);
		int hit = strstr(r, a) && strstr(r, b);
		free(r);
		if (hit)
			return y;
	}
	return -1;
}

static int row_has(int y, const char *text)
{
	char *r = row(y);
	int hit = strstr(r, text) != NULL;
	free(r);
	return hit;
}

/* A value edit keeps the Fields tree's rows (the form is not built again),
 * but the problem it causes takes a row under its field, and undo and redo
 * take it away and back: the rows are laid out again whenever the problems
 * change, not only when the fields do. */
static void test_value_edit_problem_rows(void **state)
{
	struct fixture *f = *state;
	app_draw(f->a);
	app_focus_path(f->a, "roles.agg.gpus");
	app_draw(f->a);
	int y = row_with("  workers ", "4");
	assert_true(y > 0);
	assert_true(row_has(y + 1, "  gpus "));
	json_t *v = json_string("abc");
	assert_int_equal(app_set(f->a, "roles.agg.workers", v), 0);
	json_decref(v);
	/* the edit is one scalar's: the path the cache covers */
	assert_non_null(doc_value_edit(app_doc(f->a)));
	app_draw(f->a);
	y = row_with("  workers ", "abc");
	assert_true(y > 0);
	assert_true(row_has(y + 1, "E roles.agg.workers must be an integer or null"));
	assert_true(row_has(y + 2, "  gpus "));
	app_handle_key(f->a, 'u');
	app_draw(f->a);
	y = row_with("  workers ", "4");
	assert_true(y > 0);
	assert_true(row_has(y + 1, "  gpus "));
	assert_false(on_screen_quiet("must be an integer"));
	app_handle_key(f->a, K_CTRL('y'));
	app_draw(f->a);
	y = row_with("  workers ", "abc");
	assert_true(y > 0);
	assert_true(row_has(y + 1, "E roles.agg.workers must be an integer or null"));
}

/* The Plan tab's launch-snapshot note (a second plan on srtctl's harness
 * list) is made only when the view reaches it, but shows there as before,
 * after every edit, and the text the other views read always has it. */
static void test_plan_note_in_view(void **state)
{
	struct fixture *f = *state;
	app_draw(f->a);
	app_handle_key(f->a, K_TAB);
	app_handle_key(f->a, K_TAB); /* the preview pane, on Services */
	for (int i = 0; i < 4; i++)
		app_handle_key(f->a, K_FN(KEY_RIGHT));
	app_draw(f->a);
	assert_true(on_screen("[Plan]"));
	assert_true(on_screen("job: 1 node, 10 srun steps"));
	assert_false(on_screen_quiet("launch snapshot:"));
	/* an edit with the top in view: the whole text still has the note */
	json_t *v = json_integer(2);
	assert_int_equal(app_set(f->a, "roles.agg.workers", v), 0);
	json_decref(v);
	app_draw(f->a);
	assert_true(on_screen("job: 1 node, 8 srun steps"));
	assert_non_null(strstr(app_preview(f->a, PV_PLAN), "\n\nlaunch snapshot: srtctl's test "
								"harness lists 2 spare nodes"));
	/* the last step, then a page on: the end of the plan, the note in it */
	app_handle_key(f->a, K_FN(KEY_END));
	app_handle_key(f->a, K_FN(KEY_NPAGE));
	app_draw(f->a);
	assert_true(on_screen("launch snapshot:"));
	/* another edit with the note in view (the plan as long as before: the
	 * view keeps its rows): made again for the new plan */
	assert_int_equal(app_set_str(f->a, "model.container", "vllm-lmcachf"), 0);
	app_draw(f->a);
	assert_true(on_screen("launch snapshot:"));
	assert_non_null(strstr(app_preview(f->a, PV_PLAN), "image: vllm-lmcachf"));
	app_handle_key(f->a, K_FN(KEY_HOME));
	app_draw(f->a);
	assert_true(on_screen("job: 1 node, 8 srun steps"));
}

/* The Plan tab as shown (rewrapped only where its text changed) follows an
 * edit, its undo and its redo. */
static void test_plan_follows_undo(void **state)
{
	struct fixture *f = *state;
	app_draw(f->a);
	app_handle_key(f->a, K_TAB);
	app_handle_key(f->a, K_TAB);
	for (int i = 0; i < 4; i++)
		app_handle_key(f->a, K_FN(KEY_RIGHT));
	app_draw(f->a);
	/* every step runs the job's container */
	assert_true(on_screen("image: vllm-lmcache "));
	assert_int_equal(app_set_str(f->a, "model.container", "vllm-lmcachf"), 0);
	app_draw(f->a);
	assert_true(on_screen("image: vllm-lmcachf"));
	assert_false(on_screen_quiet("image: vllm-lmcache "));
	app_handle_key(f->a, 'u');
	app_draw(f->a);
	assert_false(on_screen_quiet("image: vllm-lmcachf"));
	assert_true(on_screen("image: vllm-lmcache "));
	app_handle_key(f->a, K_CTRL('y'));
	app_draw(f->a);
	assert_true(on_screen("image: vllm-lmcachf"));
	assert_false(on_screen_quiet("image: vllm-lmcache "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_plan_follows_undo, setup_wide, teardown),
		cmocka_unit_test_setup_teardown(test_value_edit_problem_rows, setup_wide, teardown),
		cmocka_unit_test_setup_teardown(test_plan_note_in_view, setup_wide, teardown),
		cmocka_unit_test_setup_teardown(test_clean_recipe, setup_wide, teardown),
		cmocka_unit_test_setup_teardown(test_error_appears_and_clears, setup_wide, teardown),
		cmocka_unit_test_setup_teardown(test_jump_to_field, setup_wide, teardown),
		cmocka_unit_test_setup_teardown(test_preview_tabs, setup_wide, teardown),
		cmocka_unit_test_setup_teardown(test_preview_texts, setup_wide, teardown),
		cmocka_unit_test_setup_teardown(test_narrow_tabs, setup_narrow, teardown),
		cmocka_unit_test_setup_teardown(test_too_small, setup_narrow, teardown),
		cmocka_unit_test_setup_teardown(test_search, setup_narrow, teardown),
		cmocka_unit_test_setup_teardown(test_search_collapsed, setup_wide, teardown),
		cmocka_unit_test_setup_teardown(test_narrow_nothing_cut, setup_narrow, teardown),
		cmocka_unit_test_setup_teardown(test_service_move_keeps_focus, setup_narrow, teardown),
		cmocka_unit_test_setup_teardown(test_long_message_wraps, setup_narrow, teardown),
		cmocka_unit_test_setup_teardown(test_atom_mp_port_default, setup_narrow, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
