/*
 * bench_tui — time from a key to a finished redraw in `srt-tui edit`: the
 * model edit, re-validation, the preview render and the draw of a 200x60
 * screen (ncurses writing to /dev/null), on the largest example recipe.
 * Usage: bench_tui SRCDIR
 */
#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "model/doc.h"
#include "model/fileio.h"
#include "tui/app.h"
#include "tui/editor.h"

static void run(struct app *a, const char *name, enum preview_tab tab, int key_tab)
{
	int runs = bench_runs(300);
	double *t = xcalloc((size_t)runs, sizeof(*t));
	/* show the preview tab under test */
	for (int i = 0; i < key_tab; i++)
		app_handle_key(a, K_TAB);
	(void)tab;
	app_draw(a);
	int changed = 0;
	for (int i = 0; i < runs; i++) {
		unsigned long g = doc_generation(app_doc(a));
		double t0 = bench_now_ms();
		/* one key: undo or redo of a real edit, alternating */
		app_handle_key(a, i % 2 ? K_CTRL('y') : 'u');
		app_draw(a);
		t[i] = bench_now_ms() - t0;
		changed += doc_generation(app_doc(a)) != g;
	}
	if (changed != runs) {
		fprintf(stderr, "bench_tui: only %d of %d keys changed the document\n", changed, runs);
		exit(1);
	}
	double med = bench_median(t, (size_t)runs); /* sorts t: p95 and max follow */
	printf("tui: key -> redraw at 200x60 (%s, %s screen, %s visible): median %.2f ms, p95 %.2f ms, "
	       "max %.2f ms over %d keys  %s (goal < 16 ms)\n",
	       name, app_screen_title(a), preview_tab_names[tab], med, t[runs * 95 / 100],
	       t[runs - 1], runs, bench_verdict(med < 16.0));
	free(t);
}

/* One edit to undo and redo: a value every recipe has. */
static int set_name(struct doc *d)
{
	struct path p = PATH_INIT;
	char *err = NULL, *warn = NULL;
	path_parse(&p, "name", 0, &err);
	json_t *v = json_string("bench-tui-edited");
	int r = doc_set(d, &p, v, &err, &warn);
	if (r)
		fprintf(stderr, "bench_tui: %s\n", err);
	json_decref(v);
	path_release(&p);
	free(warn);
	free(err);
	return r;
}

int main(int argc, char **argv)
{
	const char *srcdir = argc > 1 ? argv[1] : ".";
	setlocale(LC_ALL, "C.UTF-8");
	struct strvec list = STRVEC_INIT;
	char *dir = xasprintf("%s/examples", srcdir);
	bench_list_yaml(dir, &list);
	free(dir);
	long best = bench_largest(&list, NULL);
	char *path = best >= 0 ? xstrdup(list.v[best]) : NULL;
	strvec_release(&list);
	if (!path) {
		printf("tui: skipped (no examples/*.yaml under %s)\n", srcdir);
		return 0;
	}
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load_file(path, &dl);
	if (!d) {
		fprintf(stderr, "bench_tui: cannot load '%s'\n", path);
		return 1;
	}
	if (set_name(d))
		return 1;

	setenv("LINES", "60", 1);
	setenv("COLUMNS", "200", 1);
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr = newterm("xterm-256color", out, in);
	if (!scr) {
		printf("tui: skipped (no xterm-256color terminfo)\n");
		return 0;
	}
	set_term(scr);
	struct app *a;
	struct app_opts o = { .path = path };
	app_init(&a, d, &o);
	app_add_screen(a, &editor_screen);
	app_attach(a);
	const char *base = bench_basename(path);
	/* wide layout: Tab goes form -> problems -> preview; Left/Right pick tabs */
	run(a, base, PV_SERVICES, 0);
	app_handle_key(a, K_TAB);
	app_handle_key(a, K_TAB);
	for (int i = 0; i < PV_PLAN; i++)
		app_handle_key(a, K_FN(KEY_RIGHT));
	run(a, base, PV_PLAN, 0);
	app_free(a);

	/* The wizard's Review step: the heaviest form (the YAML, the problems
	 * and every preview as wrapped text), redrawn after each key. */
	d = doc_load_file(path, &dl);
	if (!d || set_name(d)) {
		fprintf(stderr, "bench_tui: cannot load '%s'\n", path);
		return 1;
	}
	app_init(&a, d, &o);
	size_t review = 0, n = 0;
	for (const struct app_screen *const *s = wizard_steps(); s && *s; s++, n++) {
		app_add_screen(a, *s);
		if (!strcmp((*s)->title, "Review"))
			review = n;
	}
	app_attach(a);
	app_goto_screen(a, review);
	run(a, base, PV_SERVICES, 0);
	app_free(a);
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	diag_list_release(&dl);
	free(path);
	return 0;
}
