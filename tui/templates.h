/*
 * templates.h — the example recipes compiled into srt-tui (from examples/ by
 * mk/embed.sh), offered by `srt-tui new` as starting points.  Static data.
 */
#ifndef SRT_TEMPLATES_H
#define SRT_TEMPLATES_H

#include <stddef.h>

struct template {
	const char *name;        /* file name without .yaml */
	const char *description; /* the file's first comment line */
	const char *text;        /* the whole file */
};

extern const struct template templates[];
extern const size_t templates_count;

#endif
