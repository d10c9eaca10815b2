/*
 * migrate.c — offering srtctl's migration of a pre-2.0 recipe in the editor
 * (see migrate.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/doc.h"
#include "model/legacy.h"
#include "tui/app_int.h"
#include "tui/migrate.h"
#include "tui/run_where.h"
#include "tui/submit.h"

#define MIGRATE_MAX (16u << 20) /* more output than any recipe: stop reading */

int migrate_run(char *const *argv, struct strbuf *out, struct strbuf *errout, char **err)
{
	int po[2], pe[2], status;
	pid_t pid;

	if (pipe(po))
		goto fail;
	if (pipe(pe)) {
		close(po[0]);
		close(po[1]);
		goto fail;
	}
	pid = fork();
	if (pid < 0) {
		close(po[0]);
		close(po[1]);
		close(pe[0]);
		close(pe[1]);
		goto fail;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		run_where_enter(run_where_current);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	{
		struct pollfd fds[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
		struct strbuf *dst[2] = { out, errout };
		int open_fds = 2;
		while (open_fds > 0) {
			if (poll(fds, 2, -1) < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			for (int i = 0; i < 2; i++) {
				char buf[4096];
				ssize_t n;
				if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
					continue;
				n = read(fds[i].fd, buf, sizeof(buf));
				if (n > 0 && dst[i]->len < MIGRATE_MAX) {
					strbuf_add(dst[i], buf, (size_t)n);
				} else if (n <= 0 && !(n < 0 && errno == EINTR)) {
					close(fds[i].fd);
					fds[i].fd = -1;
					open_fds--;
				}
			}
		}
		for (int i = 0; i < 2; i++)
			if (fds[i].fd >= 0)
				close(fds[i].fd);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			*err = xasprintf("cannot wait for '%s': %s", argv[0], strerror(errno));
			return -1;
		}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
fail:
	*err = xasprintf("cannot run '%s': %s", argv[0], strerror(errno));
	return -1;
}

void app_offer_migrate(struct app *a)
{
	json_t *root = doc_json(a->doc);
	int legacy = legacy_recipe(root);
	json_decref(root);
	if (!legacy || !a->path)
		return;
	if (!submit_found("srtctl")) {
		char *t = xasprintf("'%s' is a pre-2.0 recipe (no `schema:` key): srtctl no longer loads "
				    "it.\n\nsrtctl is not on PATH here, so srt-tui cannot migrate it. Where "
				    "srtctl is installed, run\n\n  srtctl migrate -f %s --in-place\n\n(or "
				    "without --in-place to see the result first), then open it again.",
				    a->path, a->path);
		app_show_text(a, "Pre-2.0 recipe", t);
		free(t);
		return;
	}
	char *q = xasprintf("'%s' is a pre-2.0 recipe (no `schema:` key): srtctl no longer loads it.\n"
			    "srtctl can rewrite it: srtctl migrate -f %s\n"
			    "The result shows in the Diff tab; nothing is written until you save "
			    "(FILE.bak keeps the old one).\n"
			    "y: migrate with srtctl   n: open it as it is",
			    a->path, a->path);
	int k = app_confirm(a, "Migrate the pre-2.0 recipe?", q, "yn");
	free(q);
	if (k != 'y')
		return;
	/* srtctl reads the cluster file the header shows, as for a submit */
	struct run_where where = RUN_WHERE_INIT;
	run_where_init(&where, &a->cluster);
	char *file = run_where_path(&where, a->path);
	char *argv[] = { "srtctl", "migrate", "-f", file, NULL };
	struct strbuf out = STRBUF_INIT, errs = STRBUF_INIT;
	char *err = NULL;
	app_message(a, "running: srtctl migrate -f %s", a->path);
	app_draw(a);
	run_where_current = &where;
	int rc = migrate_run(argv, &out, &errs, &err);
	run_where_current = NULL;
	if (rc != 0 || !out.len) {
		char *t = xasprintf("$ srtctl migrate -f %s\n%s%s\n[exit status %d]\n", a->path,
				    err ? err : sb_str(&errs), out.len ? "" : "(no migrated recipe on stdout)",
				    rc);
		app_show_text(a, "srtctl migrate failed", t);
		app_error(a, "srtctl migrate failed (exit status %d): the file is unchanged", rc);
		free(t);
	} else if (doc_replace_text(a->doc, out.buf, out.len, &err)) {
		app_error(a, "srtctl migrate printed a recipe srt-tui cannot use: %s", err);
	} else {
		/* srtctl's notes (stderr), one warning per line */
		for (const char *p = sb_str(&errs); *p;) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);
			if (n)
				strvec_push_nodup(&a->migrate_notes, xstrndup(p, n));
			p += n + (nl ? 1 : 0);
		}
		a->pv_tab = PV_DIFF;
		if (!a->wide) {
			a->narrow_view = VIEW_PREVIEW;
			a->pane = PANE_PREVIEW;
		}
		app_message(a, "migrated by srtctl: review the Diff tab; F2 saves it (FILE.bak keeps the "
			       "old one), u undoes");
	}
	free(err);
	free(file);
	run_where_release(&where);
	strbuf_release(&out);
	strbuf_release(&errs);
}
