/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_where.h — where a command srt-tui runs for the user (srtctl apply,
 * srtctl migrate) runs, so that srtctl reads the cluster file the header
 * shows and not one it finds on its own from another folder.
 *
 * The child runs in the srtctl directory (--srtctl-dir, $SRT_TUI_SRTCTL_DIR,
 * else the current one) with $SRTSLURM_CONFIG set to the absolute path of the
 * cluster file found there; a recipe path is made absolute when the child
 * changes directory.  Strings are malloc'd; release with run_where_release().
 */
#ifndef SRT_TUI_RUN_WHERE_H
#define SRT_TUI_RUN_WHERE_H

#include "model/cluster.h"

struct run_where {
	char *dir;    /* chdir here in the child; NULL: stay in the current folder */
	char *config; /* export as SRTSLURM_CONFIG; NULL: leave the environment */
};
#define RUN_WHERE_INIT { NULL, NULL }

void run_where_init(struct run_where *w, const struct cluster *c);
void run_where_release(struct run_where *w);
/* The path as the child must name it (absolute when it changes folder). */
char *run_where_path(const struct run_where *w, const char *path);
/* Lines for a dialog: the folder it runs in and the cluster file it uses. */
char *run_where_describe(const struct run_where *w, const struct cluster *c);
/* In the child, after fork: change folder and set the environment; on a
 * failure print why on stderr and _exit(126). */
void run_where_enter(const struct run_where *w);

/* The place the next child runs in (set by the caller before it forks;
 * NULL: where srt-tui runs, as it is). */
extern const struct run_where *run_where_current;

#endif
