/*
 * key_table.c — the session's key table (keys.h): every binding's keys,
 * action, help line and key-bar label, in the help screen's order.
 */
#include <string.h>

#include "tui/app.h"
#include "tui/keys.h"

const struct key_binding key_table[] = {
	{ .help_keys = "Up/Down, PgUp/PgDn, Home/End", .help = "move" },
	{ .help_keys = "Enter", .help = "edit the field / open / jump to a problem" },
	{ { K_TAB }, 0, KA_PANE_NEXT, "Tab, Shift-Tab", "next / previous pane (problems, preview)",
	  8, "Tab", "Tab", "Pane" },
	{ { K_FN(KEY_BTAB) }, 0, KA_PANE_PREV, NULL, NULL, 0, NULL, NULL, NULL },
	{ { '[', K_ALT(K_FN(KEY_LEFT)) }, 0, KA_SCREEN_PREV, "[ and ]  (Alt-Left/Right)",
	  "previous / next screen", 9, "[ ]", "[ ]", "Screen" },
	{ { ']', K_ALT(K_FN(KEY_RIGHT)) }, 0, KA_SCREEN_NEXT, NULL, NULL, 0, NULL, NULL, NULL },
	{ .help_keys = "Left/Right in the preview", .help = "previous / next preview tab" },
	{ .help_keys = "c in Plan, Workers",
	  .help = "copy the focused step's command (Up/Down choose it) through OSC 52, shown on one line" },
	{ { K_FN(KEY_F(1)), '?' }, K_ALT('1'), KA_HELP, "F1, ?, Alt-1", "help for the focused field",
	  1, "F1/?", "?", "Help" },
	{ { '/' }, 0, KA_FIND, "/  then n, N", "search fields and values, next / previous match",
	  4, "/", "/", "Find" },
	{ { 'n' }, 0, KA_FIND_NEXT, NULL, NULL, 0, NULL, NULL, NULL },
	{ { 'N' }, 0, KA_FIND_PREV, NULL, NULL, 0, NULL, NULL, NULL },
	{ { K_FN(KEY_F(2)), K_CTRL('s') }, K_ALT('2'), KA_SAVE, "F2, Ctrl-S, Alt-2",
	  "save (keeps FILE.bak)", 2, "F2/^S", "^S", "Save" },
	/* Ctrl-_ (Ctrl-/ on most terminals) is undo in Emacs and readline;
	 * Ctrl-Z suspends, as in every terminal program */
	{ { 'u', K_CTRL('_') }, 0, KA_UNDO, "u, Ctrl-_", "undo", 5, "u", "u", "Undo" },
	{ { K_CTRL('y'), K_CTRL('r') }, 0, KA_REDO, "Ctrl-Y, Ctrl-R", "redo", 6, "^Y", "^Y", "Redo" },
	{ .help_keys = "d, Delete", .help = "remove the focused key or item" },
	{ .help_keys = "a, Insert", .help = "add a key or item (Fields tree)" },
	{ .help_keys = "e", .help = "edit the focused value (lists: the list editor)" },
	{ .help_keys = "H", .help = "Fields tree: only the fields the recipe sets / all" },
	{ .help_keys = "E", .help = "edit the whole recipe in $EDITOR" },
	{ { K_FN(KEY_F(5)), '!' }, K_ALT('5'), KA_SUBMIT, "F5, !, Alt-5",
	  "submit (srtctl apply) when saved and error-free", 7, "F5/!", "!", "Submit" },
	{ { K_FN(KEY_F(10)), 'q', K_CTRL('c') }, K_ALT('0'), KA_QUIT, "F10, q, Ctrl-C, Alt-0",
	  "quit (asks when there are unsaved changes)", 3, "F10/q", "q", "Quit" },
	{ { K_CTRL('z') }, 0, KA_SUSPEND, "Ctrl-Z", "suspend (the shell's fg resumes)", 0, NULL,
	  NULL, NULL },
	{ .help_keys = "Mouse", .help = "click fields, tabs and problems" },
	{ { K_ESC }, 0, KA_BACK, NULL, NULL, 0, NULL, NULL, NULL },
	{ { K_CTRL('l') }, 0, KA_REPAINT, NULL, NULL, 0, NULL, NULL, NULL },
};
const size_t key_table_n = sizeof(key_table) / sizeof(key_table[0]);

const struct key_binding *key_lookup(int key)
{
	for (size_t i = 0; i < key_table_n; i++)
		for (size_t j = 0; j < KEY_ALTS && key_table[i].keys[j]; j++)
			if (key_table[i].keys[j] == key)
				return &key_table[i];
	return NULL;
}

int key_unalias(int key)
{
	for (size_t i = 0; i < key_table_n; i++)
		if (key_table[i].alias && key_table[i].alias == key)
			return key_table[i].keys[0];
	return key;
}

const struct key_binding *key_bar_entry(int place)
{
	for (size_t i = 0; i < key_table_n; i++)
		if (key_table[i].bar == place)
			return &key_table[i];
	return NULL;
}

/* The key column is as wide as the longest spelling plus three spaces. */
void key_help_text(struct strbuf *out)
{
	int w = 0;
	for (size_t i = 0; i < key_table_n; i++)
		if (key_table[i].help_keys && (int)strlen(key_table[i].help_keys) > w)
			w = (int)strlen(key_table[i].help_keys);
	strbuf_addstr(out, "Keys\n");
	for (size_t i = 0; i < key_table_n; i++)
		if (key_table[i].help_keys)
			strbuf_addf(out, "  %-*s%s\n", w + 3, key_table[i].help_keys, key_table[i].help);
}

