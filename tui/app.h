/*
 * app.h — the interactive session: one struct app per `srt-tui new|edit` run.
 *
 * The app holds the document (struct doc *, owned by the app once passed to
 * app_init) and nothing else of the recipe: every edit goes through
 * doc_set/doc_delete/doc_insert, and everything shown is derived from the
 * document by the model and render layers.  The derived state (typed recipe,
 * diagnostics, preview texts) is recomputed at most once per doc_generation,
 * lazily, by app_state() / app_preview().
 *
 * Screen layout (drawn by app_draw.c):
 *
 *   row 0        title bar: file name, "[modified]", error/warning counts
 *   row 1        screen tabs: one per registered screen ("Basics", ..., "Fields")
 *   main area    the current screen's form (left; the whole width when narrow)
 *   side area    wide terminals (>= APP_WIDE_COLS): validation panel on top,
 *                preview tabs (Services, Workers, YAML, Diff, Plan) below;
 *                narrow ones show the panels as extra tabs instead of the form
 *   last-1       status / message line
 *   last         key bar ("F1/? Help  F2/^S Save ..."), always visible
 *
 * Screens and how a wizard step plugs in
 * --------------------------------------
 * A screen is a form builder.  Register screens with app_add_screen() before
 * app_run(); they appear as tabs in registration order.  The app calls
 * screen->build(app, form) with an empty form whenever the screen is entered
 * and whenever the document changed (doc_generation moved), so build() simply
 * reads the document (app_state(app)->root, doc_lookup...) and adds fields:
 *
 *   static void basics_build(struct app *a, struct form *f)
 *   {
 *       form_add_heading(f, "Model");
 *       form_add_value(f, "model.path", NULL);        // label, help, type and
 *       form_add_value(f, "model.container", NULL);   // allowed values come
 *       form_add_value(f, "resources.gpus_per_node", "GPUs per node");
 *       form_add_custom(f, "topology", &topology_widget, my_data, my_free);
 *       form_add_button(f, "Next >", next_step, NULL);
 *   }
 *   static const struct app_screen basics = { "Basics", basics_build, NULL, 0 };
 *   ...  app_add_screen(app, &basics);
 *
 * Focus survives a rebuild (matched by the field's path or label), so a build
 * function never needs to remember it.  Value fields are edited by the form
 * engine (text input, choice list for enums and booleans), committed with
 * doc_set, and show their diagnostics beside them.  Custom widgets (form.h)
 * draw themselves and get keys first; they too change the recipe only through
 * app_set()/app_delete()/app_insert() or doc_* on app_doc().
 *
 * `srt-tui edit` registers the wizard's step screens (wizard_steps(), from
 * tui/wizard*.c, when linked in) followed by the "Fields" tree (editor.c).
 *
 * Keys are ints: a Unicode code point for text, K_FN(KEY_xxx) for ncurses
 * function keys, K_ALT(c) for Alt/Meta-c, K_CTRL('s') for control keys.
 */
#ifndef SRT_TUI_APP_H
#define SRT_TUI_APP_H

#include <curses.h>
#include <jansson.h>
#include <stddef.h>

#include "model/diag.h"
#include "model/doc.h"
#include "model/cluster.h"
#include "model/recipe.h"
#include "lib/util.h"

struct app;
struct form;
struct theme;

/* ---- keys ---------------------------------------------------------------- */

#define K_FN(k) (0x110000 + (k))   /* ncurses KEY_* code, e.g. K_FN(KEY_F(1)) */
#define K_ALT(c) (0x220000 + (c))  /* ESC followed by c */
#define K_CTRL(c) ((c) & 0x1f)
#define K_ESC 27
#define K_ENTER '\r'
#define K_TAB '\t'
#define K_NONE (-1)      /* no key (timeout) */
#define K_TERMINATE (-2) /* SIGHUP/SIGTERM: unwind and leave; recovery is written */
#define K_IS_TEXT(k) ((k) >= 32 && (k) < 0x110000 && (k) != 127)

/* Colour/attribute roles of the theme (theme files name them in lower
 * case: "normal", "focus", ...). */
enum theme_elem {
	TH_NORMAL,
	TH_TITLE,      /* title bar */
	TH_TAB,        /* inactive tab */
	TH_TAB_ACTIVE,
	TH_BORDER,
	TH_LABEL,      /* field label */
	TH_VALUE,      /* a value written in the recipe */
	TH_DEFAULT,    /* a default shown for an absent field */
	TH_FOCUS,      /* the focused field / selected line */
	TH_ERROR,      /* error marker and text */
	TH_WARNING,
	TH_OK,
	TH_HEADING,
	TH_HELP,       /* help text, hints */
	TH_KEYBAR,
	TH_KEY,        /* the key name inside the key bar */
	TH_STATUS,
	TH_DIALOG,
	TH_INPUT,      /* text being edited */
	TH_DIFF_ADD,
	TH_DIFF_DEL,
	TH_DIFF_HUNK,
	TH_MATCH,      /* search match */
	TH_COUNT
};

/* ---- screens ------------------------------------------------------------- */

enum {
	/* The screen works on any file (the Fields tree, the Variants screen).
	 * Others edit a single recipe's paths and, on an override file, show a
	 * note pointing to the Variants screen instead of writing keys beside
	 * `base`. */
	SCREEN_ANY_FILE = 1,
	/* The form reads every value from the document as it draws it and
	 * builds only from the tree's shape, the item names and the engine
	 * type: when an edit changed one other value (doc_value_edit), the
	 * form built before it still holds and is not built again. */
	SCREEN_VALUES_DRAWN = 2,
};

struct app_screen {
	const char *title; /* tab label, short: "Basics" */
	/* Fill an empty form from the document.  Called on entering the screen
	 * and after every document change. */
	void (*build)(struct app *a, struct form *f);
	/* Optional: keys not used by the focused field come here before the app's
	 * global keys.  Return 1 when the key was used. */
	int (*key)(struct app *a, struct form *f, int key);
	unsigned flags;    /* SCREEN_* */
};

/* The wizard's step screens, NULL-terminated (tui/wizard*.c).  Declared weak
 * by the users in this layer so `edit` works before the wizard is linked. */
const struct app_screen *const *wizard_steps(void);
/* `edit`'s Write step (save, save as), shown after Review; also weak. */
extern const struct app_screen wizard_edit_write_screen;

/* ---- the derived state --------------------------------------------------- */

enum preview_tab { PV_SERVICES, PV_WORKERS, PV_YAML, PV_DIFF, PV_PLAN, PV_SBATCH, PV_MOUNTS,
		   PV_ENV, PV_COUNT };
extern const char *const preview_tab_names[PV_COUNT]; /* "Services", ... */

struct variant;
struct variant_state;

struct app_state {
	unsigned long generation; /* doc_generation these were computed for */
	size_t variant_index;     /* and the variant the recipe follows */
	json_t *root;             /* doc_json (new reference held here); NULL if none */
	/* The recipe the previews show: the file itself for a plain recipe, the
	 * chosen variant's tree for an override file or a sweep (app_variants). */
	struct recipe recipe;     /* valid when root != NULL */
	const struct variant *variant; /* the chosen variant; NULL for a plain recipe */
	struct diag_list diags;   /* load warnings + validate_doc + every variant's, sorted */
	size_t errors, warnings;
	/* what the cluster file (app_cluster) set in the recipe, by path */
	struct cluster_provs provs;
};

/* ---- options and lifetime ------------------------------------------------ */

struct app_opts {
	const char *path;       /* the recipe file; NULL until the wizard writes one */
	const char *theme;      /* --theme NAME or NULL (then SRT_TUI_THEME, default) */
	const char *submit_cmd; /* --submit-cmd or NULL (then SRT_TUI_SUBMIT, default) */
	int no_mouse;
	/* Called before every save (F2, save as; the wizard's Write step calls
	 * it itself): the wizard drops the template's comments that no longer
	 * hold.  May be NULL. */
	void (*before_save)(struct app *a);
	const char *srtctl_dir; /* --srtctl-dir or NULL (then SRT_TUI_SRTCTL_DIR, cwd) */
	/* Called after every key that changed the document (not undo or redo):
	 * the wizard drops the template's comments that no longer hold as the
	 * change happens, so the YAML tab shows what will be written.  An edit
	 * it makes is joined to the user's: one u undoes both, Ctrl-Y redoes
	 * both.  May be NULL. */
	void (*after_edit)(struct app *a);
};

/* Takes ownership of d.  What loading it found (doc_lint) is shown with the
 * validation results. */
void app_init(struct app **out, struct doc *d, const struct app_opts *opts);
void app_free(struct app *a);
void app_add_screen(struct app *a, const struct app_screen *s);

/*
 * Start curses on the controlling terminal (initscr), run until the user
 * quits, end curses.  Returns the exit status (0; 2 when the terminal cannot
 * be used, with the message printed on stderr; 1 when terminated by a signal
 * after writing a recovery file).
 */
int app_run(struct app *a);

/* For tests and the benchmark: drive an app on an existing curses screen
 * (newterm) without app_run's loop.  app_attach initialises colours and
 * layout for the current screen. */
void app_attach(struct app *a);
void app_draw(struct app *a);        /* draw everything and refresh (doupdate) */
/* The same without sending it to the terminal: for a dialog that draws on
 * top and refreshes once, so each key costs one update, not two (the first
 * of which showed the screen without the dialog). */
void app_draw_under(struct app *a);
/* The same for a dialog that draws itself again on every key: the screen
 * under it is drawn only when it may look different from the last time the
 * dialog drew over it (the document, the message, the focus, the views, the
 * terminal's size changed, or something else drew the screen since); *seen
 * keeps what the dialog saw, 0 before its first drawing.  A key typed in a
 * prompt changes none of them: drawing the whole screen again was most of
 * what the key cost.  Only for a dialog whose box does not change size
 * between keys (its drawing must cover the last one). */
void app_draw_under_dialog(struct app *a, unsigned long *seen);
void app_handle_key(struct app *a, int key);
int app_done(const struct app *a);   /* the user asked to quit */

/* ---- accessors ----------------------------------------------------------- */

struct doc *app_doc(struct app *a);
const char *app_path(const struct app *a);
/* The text the edits started from (NULL when the file did not exist). */
const char *app_base(const struct app *a, size_t *len);
/* The document's node at path (path.h syntax), or NULL when the path is
 * absent or not a path: a read that needs no message. */
const struct doc_node *app_node(struct app *a, const char *path);
void app_set_path(struct app *a, const char *path); /* after the wizard wrote it */
/* The derived state for the current generation (recomputed if needed). */
/* The cluster file srtctl would use (found when the session starts). */
const struct cluster *app_cluster(struct app *a);
const struct app_state *app_state(struct app *a);
/* Override files and sweeps (tui/variants.h): the variants of the current
 * generation, and which one the recipe, the previews and the Variants
 * screen's value edits follow.  Selecting keeps the choice across edits
 * (matched by label). */
const struct variant_state *app_variants(struct app *a);
size_t app_variant(struct app *a);
void app_select_variant(struct app *a, size_t index); /* also rebuilds the forms */
/* Build every screen's form again at the next draw (state they show changed
 * without an edit, e.g. the chosen variant). */
void app_rebuild(struct app *a);
/* Preview text of a tab for the current generation, computed on first use. */
const char *app_preview(struct app *a, enum preview_tab tab);
/* Diagnostics whose path is `path` or below it (path prefix match);
 * returns how many were stored in out (up to max). */
size_t app_diags_for(struct app *a, const char *path, const struct diag **out, size_t max);
/* Changes when the diagnostics change (their paths, severities, messages or
 * hints), not on every edit: what a field shows of them, and so the rows
 * the form takes, holds while it stays. */
unsigned long app_diags_serial(struct app *a);

attr_t app_attr(const struct app *a, enum theme_elem e);
int app_utf8(const struct app *a); /* 0: the locale is not UTF-8, draw ASCII */

/* ---- edits (wrappers over doc_* that report errors on the status line) ----
 * path is in path.h syntax.  Return 0 on success, -1 after showing the error. */
int app_set(struct app *a, const char *path, const json_t *value);
int app_set_str(struct app *a, const char *path, const char *value);
int app_delete(struct app *a, const char *path);
int app_insert(struct app *a, const char *path, size_t index, const json_t *value);

/* ---- screens and focus --------------------------------------------------- */

size_t app_screen_count(const struct app *a);
size_t app_screen_index(const struct app *a);
const char *app_screen_title(const struct app *a); /* the current screen's tab label */
void app_goto_screen(struct app *a, size_t index);
void app_next_screen(struct app *a); /* no-op on the last */
void app_prev_screen(struct app *a);
/* Focus the field showing path (switching to the Fields tree if needed). */
void app_focus_path(struct app *a, const char *path);
/* What / and n, N do: focus the next (dir 1) or previous (dir -1) field whose
 * label, path or value contains needle, wrapping, on this screen and else in
 * the Fields tree; collapsed branches are searched too and a match inside
 * them is expanded.  1 when found. */
int app_search(struct app *a, const char *needle, int dir);

/* ---- messages and modal dialogs (tui/widget_*.c) --------------------------
 * Dialogs run their own key loop on top of the current screen; they handle
 * resize and return their "cancel" answer on K_TERMINATE. */
void app_message(struct app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void app_error(struct app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Ask a question; answers is a string of accepted keys ("ynd"); the first is
 * the default for Enter; Esc (and Ctrl-C, a hang-up) returns 'c' or 'n' when
 * accepted, never a destructive answer, else the last.  A line naming the
 * keys is added when the text names none.  Returns the key. */
int app_confirm(struct app *a, const char *title, const char *text, const char *answers);
/* Edit one line of text (UTF-8).  Returns a malloc'd string, or NULL on Esc. */
char *app_prompt(struct app *a, const char *title, const char *initial);
/* Pick one of n items; help[i] (may be NULL) is shown for the highlighted
 * one.  Returns the index or -1 on Esc. */
int app_choose(struct app *a, const char *title, const char *const *items,
	       const char *const *help, size_t n, int current);
/* The list editor over the list at path (add, edit, delete, reorder items,
 * each change one doc edit); items are edited as YAML flow values. */
void app_edit_list(struct app *a, const char *path);
/* A scrolling read-only text view (help, command output); Esc/q closes. */
void app_show_text(struct app *a, const char *title, const char *text);
/* Edit text in $VISUAL/$EDITOR (curses suspended).  Returns a malloc'd
 * string, or NULL when the editor failed or the text was not changed. */
char *app_edit_external(struct app *a, const char *text);
/* The same for text of a known length that may hold anything (a NUL too):
 * *out_len is the length of what came back.  Used for the whole recipe. */
char *app_edit_external_n(struct app *a, const char *text, size_t len, size_t *out_len);

/* Read one key (handles resize, mouse, signals, Alt prefixes).  For dialogs;
 * `redraw` is called after a resize to redraw the dialog over the app. */
int app_getkey(struct app *a, void (*redraw)(struct app *, void *), void *ctx);

/* Save to app_path (with .bak, atomically); asks first when the recipe has
 * errors and when the file changed on disk; when the file cannot be written
 * (read-only), offers another path.  Returns 0 when saved (or nothing to
 * save), -1 otherwise. */
int app_save(struct app *a);
/* Ask for a path and save there (asking before replacing a file); the
 * session then edits that file.  0 when saved, -1 otherwise. */
int app_save_as(struct app *a);
/* The file cannot be written (shown as [RO] in the title). */
int app_read_only(const struct app *a);
/* The caller wrote the document to app_path itself (the wizard's Write
 * step): mark it saved, take the file's new identity (so submit and the
 * changed-on-disk check see it as saved), drop the recovery file. */
void app_written(struct app *a);

#endif
