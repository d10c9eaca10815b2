/* SPDX-License-Identifier: Apache-2.0 */
/* run_where.c — the folder and cluster file of srtctl's runs (run_where.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "tui/run_where.h"

const struct run_where *run_where_current;

static char *abs_path(const char *p)
{
	char buf[PATH_MAX];
	if (realpath(p, buf))
		return xstrdup(buf);
	if (p[0] == '/' || !getcwd(buf, sizeof(buf)))
		return xstrdup(p);
	return xasprintf("%s/%s", buf, p);
}

void run_where_init(struct run_where *w, const struct cluster *c)
{
	char cwd[PATH_MAX];
	w->dir = NULL;
	w->config = NULL;
	/* srtctl searches ITS folder and two parents unless SRTSLURM_CONFIG
	 * names the file: when srt-tui's srtctl directory is another folder,
	 * srtctl must run there to find (or not find) the same file */
	if (c->srtctl_dir && (!getcwd(cwd, sizeof(cwd)) || strcmp(cwd, c->srtctl_dir)))
		w->dir = xstrdup(c->srtctl_dir);
	/* and the file shown is named outright, so no search can differ */
	if (c->path && c->state != CLUSTER_NONE)
		w->config = abs_path(c->path);
}

void run_where_release(struct run_where *w)
{
	free(w->dir);
	free(w->config);
	w->dir = w->config = NULL;
}

char *run_where_path(const struct run_where *w, const char *path)
{
	return w->dir ? abs_path(path) : xstrdup(path);
}

char *run_where_describe(const struct run_where *w, const struct cluster *c)
{
	char cwd[PATH_MAX];
	const char *dir = w->dir ? w->dir : getcwd(cwd, sizeof(cwd)) ? cwd : ".";
	char *cl = cluster_describe(c);
	char *s = xasprintf("runs in: %s\n%s%s", dir, cl,
			    w->config ? "\n(exported as SRTSLURM_CONFIG)" : "");
	free(cl);
	return s;
}

void run_where_enter(const struct run_where *w)
{
	if (!w)
		return;
	if (w->dir && chdir(w->dir)) {
		dprintf(2, "srt-tui: cannot enter the srtctl directory '%s': %s\n", w->dir,
			strerror(errno));
		_exit(126);
	}
	if (w->config && setenv("SRTSLURM_CONFIG", w->config, 1)) {
		dprintf(2, "srt-tui: cannot set SRTSLURM_CONFIG: %s\n", strerror(errno));
		_exit(126);
	}
}
