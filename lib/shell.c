/*
 * shell.c — shlex.quote / shlex.join.  shlex uses re.ASCII, so any byte
 * outside [A-Za-z0-9_@%+=:,./-] (non-ASCII included) forces quoting.
 */
#include "lib/shell.h"

#include <string.h>

static int safe_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("_@%+=:,./-", c));
}

void shell_quote(struct strbuf *out, const char *s)
{
	if (!*s) {
		strbuf_addstr(out, "''");
		return;
	}
	const char *p;
	for (p = s; *p && safe_char((unsigned char)*p); p++)
		;
	if (!*p) {
		strbuf_addstr(out, s);
		return;
	}
	strbuf_addch(out, '\'');
	for (p = s; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(out, "'\"'\"'");
		else
			strbuf_addch(out, *p);
	}
	strbuf_addch(out, '\'');
}

void shell_join(struct strbuf *out, char *const *argv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addch(out, ' ');
		shell_quote(out, argv[i]);
	}
}
