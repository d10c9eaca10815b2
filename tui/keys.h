/*
 * keys.h — the session's key table: one row per binding, the master copy of
 * which keys do what.  The dispatch (app_handle_key), the key bar at the
 * bottom of the screen and the help screen's "Keys" section all read it, so
 * a binding is written once.
 *
 * Rows whose action is KA_NONE are handled by the focused pane or widget
 * (form.c, editor.c, the panels); they are listed so the help screen
 * explains them, in the table's order.
 */
#ifndef SRT_KEYS_H
#define SRT_KEYS_H

#include <stddef.h>

#include "lib/util.h"

enum key_action {
	KA_NONE,        /* the pane or widget handles it */
	KA_PANE_NEXT,
	KA_PANE_PREV,
	KA_SCREEN_PREV,
	KA_SCREEN_NEXT,
	KA_HELP,
	KA_SAVE,
	KA_FIND,
	KA_FIND_NEXT,
	KA_FIND_PREV,
	KA_UNDO,
	KA_REDO,
	KA_SUBMIT,
	KA_QUIT,
	KA_SUSPEND,     /* Ctrl-Z: stop like any terminal program (fg resumes) */
	KA_BACK,        /* Esc: back to the form */
	KA_REPAINT,     /* Ctrl-L */
};

#define KEY_ALTS 4

struct key_binding {
	int keys[KEY_ALTS];     /* the keys that do it (0 ends the list) */
	/* Another spelling read as keys[0] before any pane sees the key (the
	 * Alt-digit keys of terminals without function keys); 0: none. */
	int alias;
	enum key_action action;
	const char *help_keys;  /* the help screen's key column; NULL: no line */
	const char *help;       /* what it does, on the help screen */
	/* The key bar: place by importance (1 first; a narrow terminal shows the
	 * first ones), 0 when not on it.  bar_brief is the plain key alone, used
	 * when the full spellings do not all fit. */
	int bar;
	const char *bar_key, *bar_brief, *bar_label;
};

extern const struct key_binding key_table[];
extern const size_t key_table_n;

/* The row whose keys hold key (KA_NONE rows have none), or NULL. */
const struct key_binding *key_lookup(int key);
/* key, or the main key of the row that has it as alias. */
int key_unalias(int key);
/* The key bar's row at place 1, 2, ... (NULL past the last). */
const struct key_binding *key_bar_entry(int place);
/* The help screen's "Keys" section. */
void key_help_text(struct strbuf *out);

#endif
