/*
 * util.h — allocation that never returns NULL, and a growable string buffer.
 *
 * The x* allocators print "srt-tui: out of memory" and exit(3) on failure, so
 * callers never test for NULL.  A struct strbuf owns its bytes; buf is always
 * NUL-terminated once anything was added (use sb_str() to read one that may be
 * empty).  strbuf_detach() hands ownership to the caller.
 */
#ifndef SRT_UTIL_H
#define SRT_UTIL_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* A hash of the n bytes at s from seed (0 for none), eight bytes a step:
 * the schema's tables of keys and patterns.  str_hash: FNV-1a up to the
 * NUL, for the tables of names (a cache file's name holds one). */
size_t mem_hash(const char *s, size_t n, size_t seed);
size_t str_hash(const char *s, size_t seed);
/* Write code point cp (at most U+10FFFF) as UTF-8 to buf, which has room for
 * 4 bytes; returns the bytes written. */
size_t utf8_put(unsigned cp, char *buf);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap);

/* write(2) all of buf, again after EINTR; -1 with errno set (ENOSPC for a
 * write that took nothing).  Async-signal-safe: the recovery handler uses it. */
int write_full(int fd, const void *buf, size_t len);

/* Python's os.path.expandvars ($NAME and ${NAME} replaced when set, else
 * kept) and, with user, expanduser for a leading "~"; malloc'd. */
char *py_expandvars(const char *s, int user);

/* Python's str(Path(p).resolve()): p made absolute against the current
 * directory, "." and ".." taken out, and each part that exists on disk
 * replaced by its realpath (symlinks followed); the parts past the last
 * existing one are kept as written.  malloc'd. */
char *py_path_resolve(const char *p);

/* The folder part of a file path, as dirname(1) gives it for a file: "."
 * without a slash, "/" for a file at the root; malloc'd.  path_base is the
 * part after the last slash (borrowed from path). */
char *path_dir(const char *path);
const char *path_base(const char *path);

/* The resident set (VmRSS) of process pid, 0 for this one, in KiB; -1 when
 * /proc does not say.  For the memory figures of tests and benchmarks. */
long proc_rss_kib(int pid);

/* Grow an array *p of *alloc elements so that it can hold at least n. */
#define ALLOC_GROW(p, n, alloc)                                                  \
	do {                                                                         \
		if ((n) > (alloc)) {                                                     \
			size_t alloc_grow_new_ = (alloc) ? (alloc) * 2 : 8;                  \
			while (alloc_grow_new_ < (n))                                        \
				alloc_grow_new_ *= 2;                                            \
			(p) = xrealloc((p), alloc_grow_new_ * sizeof(*(p)));                 \
			(alloc) = alloc_grow_new_;                                           \
		}                                                                        \
	} while (0)

struct strbuf {
	char *buf;
	size_t len, alloc;
};
#define STRBUF_INIT { NULL, 0, 0 }

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_splice(struct strbuf *sb, size_t pos, size_t len, const void *data, size_t dlen);
char *strbuf_detach(struct strbuf *sb, size_t *len);
static inline const char *sb_str(const struct strbuf *sb) { return sb->buf ? sb->buf : ""; }



/* A NULL-terminated, growable list of owned strings (an argv). */
struct strvec {
	char **v;
	size_t n, alloc;
};
#define STRVEC_INIT { NULL, 0, 0 }
void strvec_push(struct strvec *sv, const char *s);
void strvec_pushf(struct strvec *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strvec_push_nodup(struct strvec *sv, char *s);
void strvec_clear(struct strvec *sv);
void strvec_release(struct strvec *sv);
#endif
