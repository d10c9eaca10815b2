/*
 * bench_tui — time from a key to a finished redraw in `srt-tui edit`: the
 * model edit, re-validation, the preview render and the draw of a 200x60
 * screen (ncurses writing to /dev/null), on the largest example recipe.
 * Usage: bench_tui SRCDIR
 */
#include <curses.h>
#include <dirent.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "model/doc.h"
#include "model/fileio.h"
#include "tui/app.h"
#include "tui/editor.h"

#define RUNS 300

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The largest .yaml file in examples/; malloc'd path or NULL. */
static char *largest_example(const char *srcdir)
{
	char *dir = xasprintf("%s/examples", srcdir), *best = NULL;
	off_t best_size = -1;
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".yaml"))
			continue;
		char *p = xasprintf("%s/%s", dir, e->d_name);
		struct stat st;
		if (!stat(p, &st) && st.st_size > best_size) {
			best_size = st.st_size;
			free(best);
			best = p;
		} else {
			free(p);
		}
	}
	if (d)
		closedir(d);
	free(dir);
	return best;
}

static void run(struct app *a, const char *name, enum preview_tab tab, int key_tab)
{
	double t[RUNS];
	/* show the preview tab under test */
	for (int i = 0; i < key_tab; i++)
		app_handle_key(a, K_TAB);
	(void)tab;
	app_draw(a);
	int changed = 0;
	for (int i = 0; i < RUNS; i++) {
		unsigned long g = doc_generation(app_doc(a));
		double t0 = now_ms();
		/* one key: undo or redo of a real edit, alternating */
		app_handle_key(a, i % 2 ? K_CTRL('y') : 'u');
		app_draw(a);
		t[i] = now_ms() - t0;
		changed += doc_generation(app_doc(a)) != g;
	}
	if (changed != RUNS) {
		fprintf(stderr, "bench_tui: only %d of %d keys changed the document\n", changed, RUNS);
		exit(1);
	}
	qsort(t, RUNS, sizeof(t[0]), cmp_double);
	printf("tui: key -> redraw at 200x60 (%s, %s screen, %s visible): median %.2f ms, p95 %.2f ms, "
	       "max %.2f ms over %d keys (goal < 16 ms)\n",
	       name, app_screen_title(a), preview_tab_names[tab], t[RUNS / 2], t[RUNS * 95 / 100],
	       t[RUNS - 1], RUNS);
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
	char *path = largest_example(srcdir);
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
	app_init(&a, d, &o, &dl);
	app_add_screen(a, &editor_screen);
	app_attach(a);
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
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
	app_init(&a, d, &o, &dl);
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
