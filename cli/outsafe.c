/* outsafe.c — a stdio cookie that escapes control characters (outsafe.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "cli/outsafe.h"

struct sink {
	int fd;
	int lead; /* a 0xC2 byte held back: it may start a C1 control */
};

static void add_escape(struct strbuf *sb, unsigned c)
{
	strbuf_addf(sb, "\\u%04x", c);
}

static ssize_t sink_write(void *cookie, const char *buf, size_t size)
{
	struct sink *s = cookie;
	struct strbuf out = STRBUF_INIT;
	for (size_t i = 0; i < size; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (s->lead) {
			s->lead = 0;
			if (c >= 0x80 && c <= 0x9f) {
				add_escape(&out, c); /* U+0080..U+009F: C2 80..C2 9F */
				continue;
			}
			strbuf_addch(&out, 0xc2);
		}
		if (c == 0xc2)
			s->lead = 1;
		else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			add_escape(&out, c);
		else
			strbuf_addch(&out, c);
	}
	int rc = write_full(s->fd, out.buf ? out.buf : "", out.len);
	strbuf_release(&out);
	return rc < 0 ? -1 : (ssize_t)size;
}

/* The sinks of the installed streams: stdout and stderr are never closed, so
 * their cookies live to the end, and held here they are not a leak. */
static struct sink *installed[2];

static int sink_close(void *cookie)
{
	struct sink *s = cookie;
	for (size_t i = 0; i < 2; i++)
		if (installed[i] == s)
			installed[i] = NULL;
	if (s->lead)
		write_full(s->fd, "\xc2", 1);
	free(s);
	return 0;
}

static FILE *open_sink(int fd, struct sink **sp)
{
	struct sink *s = xcalloc(1, sizeof(*s));
	s->fd = fd;
	cookie_io_functions_t io = { NULL, sink_write, NULL, sink_close };
	FILE *f = fopencookie(s, "w", io);
	if (!f) {
		free(s);
		s = NULL;
	}
	if (sp)
		*sp = s;
	return f;
}

FILE *outsafe_open(int fd)
{
	return open_sink(fd, NULL);
}

void outsafe_install(int with_stdout)
{
	if (isatty(STDERR_FILENO)) {
		FILE *f = open_sink(STDERR_FILENO, &installed[0]);
		if (f) {
			setvbuf(f, NULL, _IONBF, 0);
			stderr = f;
		}
	}
	if (with_stdout && isatty(STDOUT_FILENO)) {
		FILE *f = open_sink(STDOUT_FILENO, &installed[1]);
		if (f) {
			setvbuf(f, NULL, _IOLBF, 0);
			stdout = f;
		}
	}
}
