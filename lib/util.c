#include "lib/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void die_oom(void)
{
	fputs("srt-tui: out of memory\n", stderr);
	exit(3);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die_oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	n = n ? n : 1;
	size = size ? size : 1;
	/* a small block by malloc and memset: glibc's calloc skips the
	 * per-thread cache of small blocks, and validate makes a few per
	 * recipe; a large one by calloc, which need not touch fresh pages */
	if (n <= 1024 / size)
		return memset(xmalloc(n * size), 0, n * size);
	void *p = calloc(n, size);
	if (!p)
		die_oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die_oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	/* Most texts fit a line: one pass of printf, and a copy of the exact
	 * size (the result may be kept long). */
	char line[256];
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(line, sizeof(line), fmt, cp);
	va_end(cp);
	if (n >= 0 && (size_t)n < sizeof(line))
		return xstrndup(line, (size_t)n);
	struct strbuf sb = STRBUF_INIT;
	strbuf_vaddf(&sb, fmt, ap);
	return strbuf_detach(&sb, NULL);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void strbuf_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	strbuf_init(sb);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 < sb->len)
		die_oom();
	int was_empty = !sb->buf;
	ALLOC_GROW(sb->buf, sb->len + extra + 1, sb->alloc);
	if (was_empty)
		sb->buf[0] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	char ch = (char)c;
	strbuf_add(sb, &ch, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	/* Format into the room there is, and again only when it was short:
	 * one pass of printf for most calls, not two. */
	va_list cp;
	if (!sb->buf || sb->alloc - sb->len < 128)
		strbuf_grow(sb, 128); /* most texts fit: one pass */
	va_copy(cp, ap);
	size_t room = sb->alloc - sb->len;
	int n = vsnprintf(sb->buf + sb->len, room, fmt, cp);
	va_end(cp);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		strbuf_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_splice(struct strbuf *sb, size_t pos, size_t len, const void *data, size_t dlen)
{
	if (pos > sb->len)
		pos = sb->len;
	if (len > sb->len - pos)
		len = sb->len - pos;
	if (dlen > len)
		strbuf_grow(sb, dlen - len);
	else if (!sb->buf)
		strbuf_grow(sb, 0);
	memmove(sb->buf + pos + dlen, sb->buf + pos + len, sb->len - pos - len);
	if (dlen)
		memcpy(sb->buf + pos, data, dlen);
	sb->len = sb->len - len + dlen;
	sb->buf[sb->len] = '\0';
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	if (!sb->buf)
		strbuf_grow(sb, 0);
	char *p = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb);
	return p;
}

void strvec_push_nodup(struct strvec *sv, char *s)
{
	ALLOC_GROW(sv->v, sv->n + 2, sv->alloc);
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
}

void strvec_push(struct strvec *sv, const char *s)
{
	strvec_push_nodup(sv, xstrdup(s));
}

void strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strvec_push_nodup(sv, xvasprintf(fmt, ap));
	va_end(ap);
}

void strvec_clear(struct strvec *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	sv->n = 0;
	if (sv->v)
		sv->v[0] = NULL;
}

void strvec_release(struct strvec *sv)
{
	strvec_clear(sv);
	free(sv->v);
	sv->v = NULL;
	sv->alloc = 0;
}

int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (w == 0) {
			errno = ENOSPC;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

char *py_path_resolve(const char *p)
{
	char cwd[PATH_MAX], real[PATH_MAX];
	char *work, *save = NULL;
	struct strbuf out = STRBUF_INIT;
	int exists = 1; /* every part so far is on disk */

	if (p[0] == '/') {
		work = xstrdup(p);
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			strcpy(cwd, "/");
		work = xasprintf("%s/%s", cwd, p);
	}
	for (char *c = strtok_r(work, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			char *sl = out.len ? strrchr(out.buf, '/') : NULL;
			if (sl) {
				out.len = (size_t)(sl - out.buf);
				out.buf[out.len] = '\0';
			}
			continue;
		}
		strbuf_addch(&out, '/');
		strbuf_addstr(&out, c);
		if (exists && realpath(out.buf, real)) {
			strbuf_reset(&out);
			/* the root is the empty prefix, so "/" + part stays single */
			if (strcmp(real, "/"))
				strbuf_addstr(&out, real);
		} else {
			exists = 0;
		}
	}
	free(work);
	if (!out.len)
		strbuf_addch(&out, '/');
	return strbuf_detach(&out, NULL);
}

char *py_expandvars(const char *s, int user)
{
	struct strbuf sb = STRBUF_INIT;
	if (user && s[0] == '~' && (s[1] == '/' || !s[1]) && getenv("HOME")) {
		strbuf_addstr(&sb, getenv("HOME"));
		s++;
	}
	while (*s) {
		if (*s == '$') {
			const char *p = s + 1, *end;
			int brace = *p == '{';
			if (brace)
				p++;
			for (end = p; (*end >= 'A' && *end <= 'Z') || (*end >= 'a' && *end <= 'z') ||
				      (*end >= '0' && *end <= '9') || *end == '_'; end++)
				;
			if (end > p && (!brace || *end == '}')) {
				char *name = xstrndup(p, (size_t)(end - p));
				const char *v = getenv(name);
				free(name);
				if (v) {
					strbuf_addstr(&sb, v);
					s = end + (brace ? 1 : 0);
					continue;
				}
			}
		}
		strbuf_addch(&sb, *s++);
	}
	return strbuf_detach(&sb, NULL);
}

char *path_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

const char *path_base(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

long proc_rss_kib(int pid)
{
	char path[64], line[256];
	long kib = -1;
	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/status", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/status");
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmRSS:", 6))
			kib = strtol(line + 6, NULL, 10);
	fclose(f);
	return kib;
}

/* Bytes as a little-endian number on any CPU (one load where the CPU is
 * little-endian), so that a table hashed at build time hashes the same. */
static inline uint64_t le_load(const char *s, size_t n)
{
	uint64_t w = 0;
	memcpy(&w, s, n);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w); /* the n bytes were the high ones */
#endif
	return w;
}

size_t mem_hash(const char *s, size_t n, size_t seed)
{
	uint64_t h = (uint64_t)seed * 0x9E3779B97F4A7C15u ^ n, w;
	for (; n >= 8; s += 8, n -= 8) {
		h = (h ^ le_load(s, 8)) * 0xFF51AFD7ED558CCDu;
		h ^= h >> 32;
	}
	/* the last 0..7 bytes by two loads that may overlap (n is in h) */
	if (n >= 4)
		w = le_load(s, 4) | le_load(s + n - 4, 4) << 32;
	else if (n)
		w = (uint64_t)(unsigned char)s[0] << 16 | (uint64_t)(unsigned char)s[n >> 1] << 8 |
		    (unsigned char)s[n - 1];
	else
		w = 0;
	h = (h ^ w) * 0xC4CEB9FE1A85EC53u;
	return (size_t)(h ^ (h >> 29));
}

size_t str_hash(const char *s, size_t seed)
{
	size_t h = 2166136261u ^ seed;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

size_t utf8_put(unsigned cp, char *buf)
{
	if (cp < 0x80) {
		buf[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		buf[0] = (char)(0xc0 | (cp >> 6));
		buf[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		buf[0] = (char)(0xe0 | (cp >> 12));
		buf[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		buf[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	buf[0] = (char)(0xf0 | (cp >> 18));
	buf[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	buf[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	buf[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}
