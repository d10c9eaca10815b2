/* submit.c — split, find and run the submit command (submit.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/shell.h"
#include "lib/util.h"
#include "tui/run_where.h"
#include "tui/submit.h"

int submit_argv(const char *cmd, const char *file, struct strvec *argv, char **err)
{
	struct strbuf w = STRBUF_INIT;
	int in_word = 0, mentioned = 0;
	const char *p = cmd;
	for (;;) {
		char c = *p;
		if (!c || c == ' ' || c == '\t' || c == '\n') {
			if (in_word) {
				const char *s = sb_str(&w), *f = strstr(s, "{file}");
				if (!strcmp(s, "{file}")) {
					/* a word of its own: one argument, no shell sees it */
					strvec_push(argv, file);
					mentioned = 1;
				} else if (f) {
					/* inside a longer word, such as the script of
					 * `sh -c 'srtctl apply -f {file}'`, the name may be
					 * read by a shell: quote it for one (a plain name
					 * stays as it is, so --recipe={file} still works) */
					struct strbuf r = STRBUF_INIT;
					while (f) {
						strbuf_add(&r, s, (size_t)(f - s));
						shell_quote(&r, file);
						s = f + 6;
						f = strstr(s, "{file}");
					}
					strbuf_addstr(&r, s);
					strvec_push(argv, sb_str(&r));
					strbuf_release(&r);
					mentioned = 1;
				} else {
					strvec_push(argv, s);
				}
				strbuf_reset(&w);
				in_word = 0;
			}
			if (!c)
				break;
			p++;
			continue;
		}
		in_word = 1;
		if (c == '\'') {
			const char *end = strchr(p + 1, '\'');
			if (!end)
				goto unbalanced;
			strbuf_add(&w, p + 1, (size_t)(end - p - 1));
			p = end + 1;
		} else if (c == '"') {
			p++;
			while (*p && *p != '"') {
				if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
					p++;
				strbuf_addch(&w, *p++);
			}
			if (!*p)
				goto unbalanced;
			p++;
		} else if (c == '\\' && p[1]) {
			strbuf_addch(&w, p[1]);
			p += 2;
		} else {
			strbuf_addch(&w, c);
			p++;
		}
	}
	strbuf_release(&w);
	if (!argv->n) {
		*err = xstrdup("the submit command is empty; set --submit-cmd or SRT_TUI_SUBMIT, "
			       "e.g. 'srtctl apply -f {file}'");
		return -1;
	}
	if (!mentioned)
		strvec_push(argv, file);
	return 0;
unbalanced:
	strbuf_release(&w);
	*err = xasprintf("unbalanced quote in the submit command '%s'", cmd);
	return -1;
}

int submit_found(const char *prog)
{
	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		char *cand = n ? xasprintf("%.*s/%s", (int)n, path, prog) : xasprintf("./%s", prog);
		int ok = access(cand, X_OK) == 0;
		free(cand);
		if (ok)
			return 1;
		path += n;
		if (*path == ':')
			path++;
	}
	return 0;
}

void submit_display(struct strbuf *out, const struct strvec *argv)
{
	shell_join(out, argv->v, argv->n);
}

/* End the command's process group: TERM, then KILL after 2 s. */
static void stop_group(pid_t pid)
{
	kill(-pid, SIGTERM);
	for (int i = 0; i < 40; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid) {
			kill(-pid, SIGKILL); /* what it started and left behind */
			return;
		}
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	kill(-pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

int submit_run(char *const *argv, struct strbuf *out, char **err, int (*cancel)(void *),
	       void *ctx)
{
	int fds[2];
	if (pipe(fds)) {
		*err = xasprintf("cannot run '%s': %s", argv[0], strerror(errno));
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		*err = xasprintf("cannot run '%s': %s", argv[0], strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		/* a group of its own, so that a cancel ends what it started too */
		setpgid(0, 0);
		signal(SIGPIPE, SIG_DFL);
		int nul = open("/dev/null", O_RDONLY);
		if (nul >= 0)
			dup2(nul, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		run_where_enter(run_where_current);
		execvp(argv[0], argv);
		dprintf(2, "cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid); /* also here: whichever runs first */
	close(fds[1]);
	char buf[4096];
	int open_pipe = 1, exit_status = 0;
	for (;;) {
		if (cancel && cancel(ctx)) {
			close(fds[0]);
			stop_group(pid);
			*err = xasprintf("cancelled: '%s' and what it started were ended", argv[0]);
			return SUBMIT_CANCELLED;
		}
		if (!open_pipe) {
			pid_t w = waitpid(pid, &exit_status, WNOHANG);
			if (w == pid) {
				kill(-pid, SIGKILL); /* leftovers of the group */
				if (WIFSIGNALED(exit_status))
					return 128 + WTERMSIG(exit_status);
				return WEXITSTATUS(exit_status);
			}
			if (w < 0 && errno != EINTR) {
				*err = xasprintf("lost track of '%s': %s", argv[0], strerror(errno));
				return -1;
			}
			struct timespec ts = { 0, 50 * 1000 * 1000 };
			nanosleep(&ts, NULL);
			continue;
		}
		/* wake up for the command's output, a key, or every 100 ms for
		 * the cancel check (signals arrive between polls) */
		struct pollfd p[2] = { { fds[0], POLLIN, 0 }, { STDIN_FILENO, POLLIN, 0 } };
		int n = poll(p, cancel ? 2 : 1, 100);
		if (n < 0 && errno != EINTR) {
			*err = xasprintf("lost track of '%s': %s", argv[0], strerror(errno));
			close(fds[0]);
			stop_group(pid);
			return -1;
		}
		if (n == 0 && waitpid(pid, &exit_status, WNOHANG) == pid) {
			/* it ended, but something it started still holds the pipe:
			 * 100 ms without output is the end of it */
			close(fds[0]);
			kill(-pid, SIGKILL);
			if (WIFSIGNALED(exit_status))
				return 128 + WTERMSIG(exit_status);
			return WEXITSTATUS(exit_status);
		}
		if (n > 0 && (p[0].revents & (POLLIN | POLLHUP | POLLERR))) {
			ssize_t r = read(fds[0], buf, sizeof(buf));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				close(fds[0]);
				open_pipe = 0;
				continue;
			}
			strbuf_add(out, buf, (size_t)r);
		}
	}
}
