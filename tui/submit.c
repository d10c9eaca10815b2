/* submit.c — split, find and run the submit command (submit.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
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
				if (f) {
					struct strbuf r = STRBUF_INIT;
					while (f) {
						strbuf_add(&r, s, (size_t)(f - s));
						strbuf_addstr(&r, file);
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

int submit_run(char *const *argv, struct strbuf *out, char **err)
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
		int nul = open("/dev/null", O_RDONLY);
		if (nul >= 0)
			dup2(nul, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], argv);
		dprintf(2, "cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	char buf[4096];
	for (;;) {
		ssize_t n = read(fds[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_add(out, buf, (size_t)n);
	}
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			*err = xasprintf("lost track of '%s': %s", argv[0], strerror(errno));
			return -1;
		}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
