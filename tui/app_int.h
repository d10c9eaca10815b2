/*
 * app_int.h — what the files of the session (tui/app*.c, derive.c, keys.c)
 * share and nothing else may see: struct app and the helpers one file
 * defines and another calls.  The public interface is tui/app.h.
 *
 *   app.c       lifetime, accessors, edits, messages, screens, search, the loop
 *   derive.c    the derived-state cache: state, variants, previews, diagnostics
 *   preview_rows.c  the previews as shown: wrapped, again only where they changed
 *   app_draw.c  layout and drawing
 *   keys.c      the key table (dispatch, key bar, help), the key reader
 *   app_file.c  saving, quitting, submitting, recovery, signals
 *   search.c    `/`, n, N: the query box, the hits of every screen, jumping
 *   copy.c      Plan and Workers: the step cursor, `c` its command to the clipboard
 */
#ifndef SRT_APP_INT_H
#define SRT_APP_INT_H

#include <sys/types.h>
#include <time.h>

#include "tui/recover.h"

#include "tui/app.h"
#include "tui/draw.h"
#include "tui/form.h"
#include "tui/theme.h"
#include "tui/variants.h"
#include "tui/widget.h"

#define APP_WIDE_COLS 120
#define APP_MIN_COLS 60
#define APP_MIN_ROWS 16
#define APP_FORM_COLS 80     /* the form's width in the wide layout, when it fits */
#define APP_SIDE_MIN_COLS 36 /* what the side panels keep at least */

/* Views of the narrow layout, after the form. */
enum view { VIEW_FORM, VIEW_PROBLEMS, VIEW_PREVIEW };
enum pane { PANE_MAIN, PANE_PROBLEMS, PANE_PREVIEW };

enum hit_kind { HIT_SCREEN_TAB, HIT_PREVIEW_TAB, HIT_NARROW_TAB, HIT_FORM, HIT_PROBLEMS, HIT_PREVIEW };
struct hit {
	int y, x0, x1, h;
	enum hit_kind kind;
	int idx;
};

struct search_result;
struct plan_note;
struct problems_shown;

/* A preview as shown (preview_rows.c): the text wrapped at w cells, with
 * the text it wraps and where each of its lines' rows end, so that the
 * next text is wrapped again only where it differs. */
struct shown_text {
	struct strbuf out; /* the rows, each ending in a newline */
	struct strbuf src;
	struct shown_line {
		size_t src_end; /* after the line's newline in src */
		size_t out_end; /* after its last row in out */
		int rows_end;   /* rows up to and with it */
	} *line;
	size_t nline, aline;
	int w;
};
/* Wrap text at width as text_wrap_all does (continuations indented 2
 * more), reusing the rows of the lines it shares with the last text. */
void shown_update(struct shown_text *s, const char *text, int width);
/* The rows of the lines that end at or before byte off of the text. */
int shown_rows_before(const struct shown_text *s, size_t off);
void shown_release(struct shown_text *s);

struct disk_id {
	int exists;
	struct timespec mtime;
	off_t size;
	unsigned long long hash;
};

/* What the screen shows depends on, as far as a dialog can change it
 * (app_draw_under_dialog); all zero bytes but the values, to compare. */
struct frame_stamp {
	unsigned long gen, msg_hash, form_serial;
	size_t vsel, cur, focus;
	int msg_err, rows, cols, pane, view, tab, form_top;
	int prob_sel, prob_top, pv_top, pv_left, pv_mark_top, pv_mark_n;
};

struct app {
	struct doc *doc;
	char *path;
	char *theme_name;
	char *submit_cmd;
	int no_mouse;
	void (*before_save)(struct app *a); /* app_opts */
	void (*after_edit)(struct app *a);  /* app_opts */
	/* the generation after_edit's edit left (u undoes it with the user's
	 * edit before it), and the one a joined undo left (Ctrl-Y redoes both) */
	unsigned long joined_gen, unjoined_gen;
	unsigned long undo_gen; /* the generation the last undo or redo left */
	int restored_new; /* RECOVER_NEW was restored into this path-less session */
	/* this session's recovery file (app_file.c), for the recipe rs_target */
	struct recover_session *rs;
	char *rs_target;
	unsigned long rs_gen;      /* the doc generation the recovery file holds */
	int rs_failed;             /* said once that no folder takes it */
	int overwrite_ok;          /* the user chose to overwrite a change on disk */
	int merge_ok;              /* ... or to merge it with the edits */
	struct timespec last_key;  /* the idle autosave waits from here */

	struct app_state st;
	int st_valid;
	/* override files and sweeps: the variants of vs_gen, and the chosen one */
	struct variant_state vs;
	unsigned long vs_gen;
	int vs_valid;
	size_t vsel;
	char *vsel_label; /* to find the choice again after an edit */
	char **diag_canon; /* canonical (index-form) path of each diagnostic */
	/* every diagnostic under both its paths, sorted by path: app_diags_for
	 * finds a field's problems by binary search, not by a scan per field */
	struct diag_ix { const char *path; size_t idx; } *diag_ix;
	size_t ndiag_ix;
	unsigned long diag_serial; /* app_diags_serial */
	struct strbuf pv[PV_COUNT];
	unsigned long pv_gen[PV_COUNT];
	size_t pv_var[PV_COUNT];
	int pv_valid[PV_COUNT];
	int pv_cols[PV_COUNT]; /* the pane width a Rich-table tab was laid out for */
	unsigned pv_serial[PV_COUNT]; /* bumped on every recompute */
	/* The Plan tab's launch-snapshot note, which costs a second plan, is
	 * made when the view reaches where it goes (app_preview_rows) or the
	 * whole text is asked for: what it needs, and its offset in pv[] */
	struct plan_note *pv_note;
	size_t pv_note_at;
	struct plan_cache *plan_cache; /* what one edit's plan keeps for the next */
	/* the previews as shown: long lines wrapped at the pane's width */
	struct shown_text pvw[PV_COUNT];
	unsigned pvw_serial[PV_COUNT];
	int pv_nowrap[PV_COUNT]; /* 'w' toggled the tab's wrapping */

	struct disk_id disk;
	/* The text the edits started from: the file as opened or last saved
	 * (or the base a restored recovery file records); a change on disk is
	 * merged against it. */
	char *base;
	size_t base_len;
	struct cluster cluster; /* srtslurm.yaml as srtctl finds it (model/cluster) */
	struct strvec migrate_notes; /* what srtctl migrate said (stderr), as warnings */

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
	struct problems_shown *prob_shown; /* panel_problems.c */
	struct hit *hits;
	size_t nhits, ahits;
	/* every drawing of the screen counts, and the last one's stamp */
	unsigned long frame_serial;
	struct frame_stamp frame_stamp;
	MEVENT mouse;

	char *msg;
	int msg_err;
	char *search;                     /* the last query */
	struct strvec search_hist;        /* earlier queries, oldest first */
	struct search_result *search_res; /* its hits (search.c), for n and N */

	struct theme theme;
	attr_t attr[TH_COUNT];
	int utf8;
	int quit;
	int terminated;
	int attached;
};

/* app_draw.c */
void app_layout(struct app *a);

/* panel_problems.c: what the panel keeps of its entries as drawn */
void panel_problems_release(struct app *a);

/* derive.c */
void app_state_release(struct app *a);
/* services[lmcache].args -> services[2].args (newly allocated). */
char *app_canon_path(struct app *a, const char *text);
/* p is prefix or below it ("" is above everything). */
int app_path_under(const char *p, const char *prefix);
int app_preview_wraps(const struct app *a, enum preview_tab tab);
const char *app_preview_shown(struct app *a, enum preview_tab tab, int width);
/* app_preview without the Plan's note (what its steps say). */
const char *app_preview_text(struct app *a, enum preview_tab tab);
/* The same text as far as its first `rows` rows go, which is all a view of
 * them needs: the Plan's note is left out while it lies below them. */
const char *app_preview_rows(struct app *a, enum preview_tab tab, int width, int rows);

/* app.c */
void app_build_screen(struct app *a, size_t i, struct form *f);
struct form *app_cur_form(struct app *a);

/* search.c */
/* '/' (ask): ask for the text, list the hits of every screen, jump to the
 * one chosen; 'n', 'N' (dir 1, -1): the next or previous hit of that list. */
void app_find(struct app *a, int dir, int ask);
void app_search_release(struct app *a);

/* copy.c: the step cursor of the Plan and Workers tabs (Up/Down, Home/End,
 * pages; 1 when the key was one of them) and the rows it marks, and the
 * focused step's command to the clipboard (OSC 52), shown on one line of the
 * plain terminal. */
int app_step_key(struct app *a, int key, int page);
void app_step_mark(struct app *a, enum preview_tab tab, const char *shown);
void app_copy_command(struct app *a);

/* keys.c */
void app_show_help(struct app *a);

/* app_file.c */
void app_disk_identify(const char *path, struct disk_id *id);
/* Identify the file at a->path and take its text as the base of the edits. */
void app_disk_load(struct app *a);
void app_set_base(struct app *a, const char *text, size_t len);
int app_disk_changed(struct app *a);
void app_ask_quit(struct app *a);
void app_submit(struct app *a);
void app_signals_install(void);
void app_crash_guard(struct app *a);
void app_crash_unguard(void);
/* The key a pending signal stands for (K_TERMINATE, K_CTRL('c'), K_REDRAW
 * after a suspend or SIGCONT) or K_NONE. */
int app_signal_key(struct app *a);
/* Redraw everything (the dialog too), as after a resize; internal to the key
 * reader. */
#define K_REDRAW (-3)
void app_offer_recovery(struct app *a);
/* The terminal's settings before curses, for a crash handler to restore. */
void app_save_terminal(void);
/* A fatal signal arrived (a running submit command is cancelled). */
int app_terminating(void);
/* Ctrl-Z / SIGTSTP: recovery written, terminal given back, stopped. */
void app_suspend(struct app *a);
/* The idle autosave of the recovery file (now: do not wait for idle). */
void app_autosave(struct app *a, int now);
/* A key was read: the idle time starts again. */
void app_key_read(struct app *a);
/* q, F10 or Ctrl-C below the minimum size. */
void app_quit_small(struct app *a);
/* Keep the edits in the recovery file and end the session. */
void app_terminate(struct app *a);
/* Where the recovery file was written, NULL if it was not. */
const char *app_recovery_where(const struct app *a);
/* The session ends: its recovery file goes unless it was terminated. */
void app_recovery_end(struct app *a);

#endif
