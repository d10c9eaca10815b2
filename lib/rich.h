/*
 * rich.h — the plain text that Python's Rich library prints, colour and
 * markup removed, for the renderables srtctl's dry-run uses: a Table (box
 * HEAVY_HEAD, a header row, one space of padding either side, no padding at
 * the outer edges (srtctl's pad_edge=False), the title centred above) and a
 * Panel around a table or a text (box ROUNDED, the whole console width, one
 * space of padding, an optional title centred in the top border), a
 * Panel around a line-numbered Syntax (the sbatch script), and the plain
 * lines console.print wraps at the console's width.
 *
 * Widths are terminal cells as Rich counts them (rich_cell_len); texts are
 * UTF-8.  The layout rules are in rich.c, the Rich release they follow is in
 * docs/decisions.md.  Nothing here knows srtctl: render/dryrun.c builds the
 * tables srtctl builds.
 */
#ifndef SRT_RICH_H
#define SRT_RICH_H

#include <stddef.h>

#include "lib/util.h"

/* Cells Rich gives a UTF-8 text: 0 for control and combining characters,
 * 2 for wide ones, 1 otherwise.  Bytes that are not UTF-8 count as one
 * U+FFFD each. */
size_t rich_cell_len(const char *s);

/* The width of a console that is not a terminal: $COLUMNS when it is a
 * positive number, else 80. */
int rich_console_width(void);

/* s with Rich's console markup ("[bold]", "[/]", "[red]...") taken out and
 * "\[" turned into "[", as Rich prints a str it was given; malloc'd. */
char *rich_markup_plain(const char *s);

enum rich_justify { RICH_LEFT, RICH_RIGHT, RICH_CENTER };

struct rich_table;

/* A table titled title (NULL: none).  Cell texts go through
 * rich_markup_plain, as srtctl's plain str cells do in Rich. */
struct rich_table *rich_table_new(const char *title);
/* A column: header text, fixed content width (0: sized by its cells),
 * justification of its cells. */
void rich_table_add_column(struct rich_table *t, const char *header, int width,
			   enum rich_justify justify);
/* One row: one text per column (NULL is ""). */
void rich_table_add_row(struct rich_table *t, const char *const *cells);
size_t rich_table_rows(const struct rich_table *t);
void rich_table_free(struct rich_table *t);

/* The table's lines, as Rich lays it out within max_width cells. */
void rich_table_lines(const struct rich_table *t, int max_width, struct strvec *lines);

/* Panel(table) and Panel(text) printed on a console width cells wide; one
 * "\n"-ended line each.  title NULL: a plain top border. */
void rich_panel_table(struct strbuf *out, const struct rich_table *t, const char *title,
		      int width);
void rich_panel_text(struct strbuf *out, const char *text, const char *title, int width);

/* text as Rich's Text wraps it at width cells (word-wise, a word longer
 * than width folded), each line padded with spaces to width. */
void rich_wrap(const char *text, int width, enum rich_justify justify, struct strvec *lines);

/* console.print(text) on a console width cells wide: markup taken out,
 * wrapped as Rich's Text wraps (rich.c says how), "\n" after each line.
 * rich_print_lines does it for each "\n"-ended line of text, as one
 * console.print call per line. */
void rich_print(struct strbuf *out, const char *text, int width);
void rich_print_lines(struct strbuf *out, const char *text, int width);

/* Panel(Syntax(code, line_numbers=True), title=title) printed on a console
 * width cells wide, colour removed: numbered lines cut at the panel's
 * inside. */
void rich_panel_syntax(struct strbuf *out, const char *code, const char *title, int width);

#endif
