/*
 * draw.h — UTF-8 text on a curses window: cell widths (wcwidth), clipping to
 * a number of cells, and box drawing that falls back to ASCII when the locale
 * is not UTF-8.  Nothing here allocates except where said.
 */
#ifndef SRT_TUI_DRAW_H
#define SRT_TUI_DRAW_H

#include <curses.h>
#include <stddef.h>

#include "lib/util.h"

/* Decode one UTF-8 character at s (len bytes available); returns its length
 * (>= 1; invalid bytes decode as U+FFFD of length 1) and stores it in *cp. */
size_t utf8_decode(const char *s, size_t len, unsigned *cp);
/* Cells a code point takes: 0, 1 or 2 (control and invalid characters: 1). */
int cp_width(unsigned cp);
/* Cells of a UTF-8 string (up to len bytes). */
int utf8_width(const char *s, size_t len);
/* Bytes of the longest prefix of s that fits in cells columns. */
size_t utf8_fit(const char *s, size_t len, int cells);

/* Draw s (UTF-8, up to len bytes or a newline) at (y, x), at most maxw cells;
 * pads with spaces to maxw when pad.  Returns the cells drawn.  Control
 * characters show as '?' so a recipe can never move the cursor. */
int draw_text(WINDOW *w, int y, int x, int maxw, const char *s, size_t len, attr_t attr, int pad);
int draw_str(WINDOW *w, int y, int x, int maxw, const char *s, attr_t attr);
/*
 * Soft wrapping, so a narrow terminal shows the end of a long line instead of
 * cutting it off.  text_wrap breaks one line (len bytes, no newline) into rows
 * of at most width cells, at spaces when it can (a longer word is cut), and
 * appends them to out (malloc'd strings).  Rows after the first start with
 * indent spaces.  Returns the rows appended (at least 1).
 */
int text_wrap(const char *s, size_t len, int width, int indent, struct strvec *out);
/* The hanging indent a continuation of this line should get: the start of
 * its second column ("  key    value", two spaces or more apart), else its
 * own indentation plus extra (2 sets a wrapped command apart from the next
 * line; prose takes 0). */
int text_hang(const char *s, size_t len, int width, int extra);
/* text_wrap over every line of a text (lines split on '\n'), each with its
 * own text_hang.  Returns the rows appended. */
int text_wrap_all(const char *text, int width, int extra, struct strvec *out);

/* A box, with ASCII when ascii != 0. */
void draw_box(WINDOW *w, int y, int x, int h, int width, attr_t attr, int ascii);
void draw_fill(WINDOW *w, int y, int x, int h, int width, attr_t attr);

#endif
