/*
 * form.h — the form engine: a screen is a vertical list of fields.
 *
 * A screen's build() (app.h) fills a struct form with fields; the engine
 * draws them, moves the focus, edits values and dispatches keys.  Forms are
 * rebuilt from the document after every change, so fields hold no recipe
 * state: a value field is just a recipe path; its text, type, help and
 * allowed values come from the document and model/schema at draw time.
 *
 * Field kinds:
 *   heading  a section title (not focusable)
 *   text     a line (or lines, split on '\n') of information, not focusable
 *   value    one recipe path.  Shows "label  value" (or the schema default,
 *            dimmed, when absent) with an "E"/"W" marker when diagnostics point
 *            at it or below it, and the first line of the first problem on
 *            the row below (all of them, wrapped, when focused): at 80x24
 *            the side Problems box is a tab away.  Enter edits: booleans and enums open a choice
 *            list, lists open the list editor, other values a text input; the
 *            result is typed by the schema (a string field stays a string,
 *            `8` for an int field is 8; otherwise YAML flow syntax) and
 *            committed with doc_set.  Delete/d removes the key (after asking).
 *            F1/? shows the schema's long help.
 *   custom   a widget with its own draw/key callbacks (the services list...).
 *            With a diag_path the form draws the marker in column 0 and the
 *            problem rows below it; the widget draws from column 2.
 *   button   Enter runs action(app, field).
 *
 * Memory: the form owns every field and its strings; a custom field's data is
 * freed with its free_data callback when the form is cleared (every rebuild).
 * Anything that must outlive a rebuild goes in form->user (kept until
 * form_release, freed with user_free) — no globals.
 */
#ifndef SRT_TUI_FORM_H
#define SRT_TUI_FORM_H

#include <curses.h>
#include <stddef.h>

#include "model/schema.h"
#include "lib/util.h"

struct app;
struct form;
struct form_field;
struct field_shown;

enum form_kind { FF_HEADING, FF_TEXT, FF_VALUE, FF_CUSTOM, FF_BUTTON };

enum form_flag {
	FFL_READONLY = 1 << 0,    /* value shown, not editable */
	FFL_COLLAPSIBLE = 1 << 1, /* tree node with children (Enter/Left/Right toggle) */
	FFL_COLLAPSED = 1 << 2,
	FFL_ABSENT = 1 << 3,      /* value field whose path is not in the recipe */
	FFL_STRING = 1 << 4,      /* value field: always commit text as a string */
	FFL_YAML = 1 << 5,        /* value field: commit text parsed as a YAML flow value */
	FFL_DIAG_EXACT = 1 << 6,  /* diag_path: only the problems at the path itself (the
				   * fields below show those under it) */
	FFL_DETAILS_BELOW = 1 << 7, /* the fields below show this one's problems: only its
				     * marker and those at the path itself, unless focused
				     * (the selected service's row) */
};

struct form_widget {
	/* Rows the widget needs at this width; NULL means 1. */
	int (*height)(struct app *a, struct form_field *ff, int width);
	/* Draw inside w at (y, x), width × height cells.  Use app_attr() for
	 * colours and the draw.h helpers for UTF-8 text. */
	void (*draw)(struct app *a, struct form_field *ff, WINDOW *w, int y, int x, int width,
		     int height, int focused);
	/* A key while focused; return 1 when used (else the form handles it:
	 * Up/Down move the focus, F1 help, ...). */
	int (*key)(struct app *a, struct form_field *ff, int key);
	/* A mouse click at (row, col) relative to the widget; may be NULL. */
	int (*click)(struct app *a, struct form_field *ff, int row, int col);
};

struct form_field {
	enum form_kind kind;
	unsigned flags;
	char *path;           /* value: recipe path; custom: an id for focus and diagnostics */
	char *label;          /* shown; value fields default to the path's last key */
	char *help;           /* overrides the schema's long help (F1) */
	char *diag_path;      /* buttons, custom widgets and text lines: the recipe path
			       * whose problems (at it or below) show there as a value
			       * field's do at its path — the marker in the first column,
			       * the first line of the first problem below (all of them
			       * when focused): the lmcache-server's Extra args stand for
			       * its args, a service row for the service, the topology's
			       * GPU line for the role.  Several paths, one a line (a
			       * flag's button: the items its occurrences span).  One
			       * way to show a problem at a field: widgets never draw
			       * their own. */
	char *dflt;           /* value fields: the default shown when absent, when it is not
			       * the schema's (a service kind's own placement) */
	const char *absent;   /* value fields (static): shown as written when the key is
			       * absent and there is no default (the MP port's "(filled
			       * in by srtctl)": a value srtctl puts in itself) */
	const struct schema_field *schema; /* value fields: found by path; may be NULL */
	const char *const *choices;        /* overrides schema allowed values (static) */
	int depth;            /* indentation level (tree) */

	const struct form_widget *widget; /* custom */
	void *data;                       /* custom / button data */
	void (*free_data)(void *data);

	int (*action)(struct app *a, struct form_field *ff); /* button; return ignored */

	int y, h;             /* set by form_draw: row in the form's pad and height */
	struct field_shown *shown; /* what its drawing found, while it holds (form.c) */
};

struct form {
	struct form_field *v;
	size_t n, alloc;
	size_t focus;         /* index into v; n when nothing is focusable */
	int top;              /* first visible row */
	int rows;             /* total rows at the last draw */
	int view_h;           /* visible rows at the last draw (paging) */
	int center;           /* the next draw puts the focus mid-view (a search hit
			       * with its neighbours, not at the edge) */
	size_t peek;          /* 1 + the index of a text line to keep in view instead of
			       * the focus (a search hit in a text that is not a field),
			       * 0 none; until the next key or rebuild */
	int peek_row;         /* which of its rows */
	unsigned long serial; /* changes with every field added or cleared */
	unsigned long labelw_serial; /* serial the label column below was measured at */
	int labelw;           /* widest label, measured once per set of fields */
	/* what the rows (each field's y and h) were laid out for: the same
	 * fields, width, focus and diagnostics (app_diags_serial) lay out the
	 * same, unless a custom widget (whose height is its own) is among them */
	unsigned long rows_serial, rows_diags;
	int rows_custom;
	size_t rows_focus;
	int rows_width;
	struct strvec collapsed; /* paths of collapsed tree nodes, kept across rebuilds */
	void *user;           /* kept across rebuilds */
	void (*user_free)(void *user);
};

void form_init(struct form *f);
void form_release(struct form *f); /* fields, collapsed set and user */
void form_clear(struct form *f);   /* fields only (before a rebuild) */

/* Builders.  Strings are copied.  Return the new field for extra settings
 * (flags, help, choices, depth). */
struct form_field *form_add_heading(struct form *f, const char *text);
struct form_field *form_add_text(struct form *f, const char *text);
struct form_field *form_add_value(struct form *f, const char *path, const char *label);
/* The same when the caller already knows the schema entry (the Fields tree
 * walks the schema as it walks the document: no lookup by path text). */
struct form_field *form_add_value_schema(struct form *f, const char *path, const char *label,
					 const struct schema_field *sf);
struct form_field *form_add_custom(struct form *f, const char *id, const struct form_widget *w,
				   void *data, void (*free_data)(void *));
struct form_field *form_add_button(struct form *f, const char *label,
				   int (*action)(struct app *, struct form_field *), void *data);

/* Tree support: whether a collapsible path is collapsed, and toggling it. */
int form_is_collapsed(const struct form *f, const char *path);
void form_set_collapsed(struct form *f, const char *path, int collapsed);

/* Engine (used by app.c; a screen rarely needs these). */
struct form_field *form_focused(struct form *f);
int form_focus_path(struct form *f, const char *path); /* 1 when found */
void form_focus_first(struct form *f);
/* Keeping the focus across a rebuild.  A button's label often shows its
 * value ("Connector: nixl"), so it changes with the edit the button made and
 * may then equal another role's; a button is found again by its action and
 * data (unless the data is owned, i.e. new on every build), a value field by
 * its path, anything else by its label, else by its position. */
struct form_focus_key {
	char *path, *label;
	int (*action)(struct app *a, struct form_field *ff);
	void *data;
	size_t index;
	int set;
};
void form_focus_save(const struct form *f, struct form_focus_key *k);
/* Focus what k names in the rebuilt form and release k; 1 when found. */
int form_focus_restore(struct form *f, struct form_focus_key *k);
/* Draw into w (rows y..y+h-1, cols x..x+w-1), keeping the focus visible. */
void form_draw(struct app *a, struct form *f, WINDOW *w, int y, int x, int h, int width);
int form_key(struct app *a, struct form *f, int key);           /* 1 when used */
int form_click(struct app *a, struct form *f, int row, int col); /* relative to the area */
/* Help for a field: its own help, else the schema's long help with the type,
 * default and allowed values; malloc'd. */
char *form_field_help(struct app *a, const struct form_field *ff);
/* The value of a field as one line ("8", "[a, b]", "(default: 4)"); malloc'd. */
char *form_field_value(struct app *a, const struct form_field *ff);
/* Move the focus to the next (dir 1) or previous (dir -1) field whose label,
 * path or value contains needle (case-insensitive), wrapping.  1 when found. */
int form_search(struct app *a, struct form *f, const char *needle, int dir);
/* Show row `row` of field i (a text line: not focusable) a third of the way
 * down the view, focusing the nearest field after it (else before it). */
void form_peek(struct form *f, size_t i, int row);
/* Rows of a text field before its line `line` (0-based, split on '\n') at
 * the width of the last draw. */
int form_text_row(const struct form *f, const struct form_field *ff, size_t line);
/* Edit the focused value field (what Enter does). */
void form_edit_field(struct app *a, struct form_field *ff);

#endif
