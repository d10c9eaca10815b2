/*
 * cli_load.h — the one loader of a recipe file for the commands, and the one
 * form of what loading found, on stderr: a problem of the text as validate
 * prints it (like a compiler, so editors can jump to it), the rest as
 * srt-tui's own messages:
 *   srt-tui: cannot read 'FILE': REASON
 *   FILE:LINE:COL: error: MESSAGE [code]
 *     hint: HOW TO FIX IT
 *   srt-tui: FILE: N more problems not shown        (after 20)
 *   srt-tui: FILE: error: cannot load this file as a recipe
 * (validate is the exception: what loading found is its report, on stdout.)
 */
#ifndef SRT_CLI_LOAD_H
#define SRT_CLI_LOAD_H

#include <stddef.h>

struct doc;

enum {
	CLI_LOAD_WARNINGS = 1, /* print warnings too (tabs, duplicate keys), not only errors */
	CLI_LOAD_STRICT = 2,   /* an error fails the load even when a document was built */
	CLI_LOAD_QUIET = 4,    /* print nothing when a document was built (the screens show it) */
};

struct cli_loaded {
	struct doc *doc;
	char *orig; /* the bytes read: set and unset compare them before writing */
	size_t orig_len;
};

/* Read and load FILE.  Returns 0 (l->doc set), or 2 with the reason printed
 * and nothing to release. */
int cli_load(const char *file, unsigned flags, struct cli_loaded *l);
void cli_loaded_release(struct cli_loaded *l);

#endif
