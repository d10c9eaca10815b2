/*
 * failio.c — an LD_PRELOAD shim that makes srt-tui's save path fail or slow
 * down on demand, so tests can check what a full disk, an I/O error, a
 * read-only folder or a kill in the middle of a save does to a recipe.
 * Built by the test scripts themselves (cc -shared -fPIC ... -ldl).
 *
 * Environment (errors by name, e.g. ENOSPC, EIO, EROFS, or by number):
 *   FAILIO_WRITE=E     write() to a file whose name holds ".tmp-" fails with E
 *                      after writing half of the buffer first (a short write,
 *                      as a filling disk does), then fails
 *   FAILIO_FSYNC=E     fsync() of such a file fails with E
 *   FAILIO_RENAME=E    rename() and renameat2() fail with E
 *   FAILIO_MKTEMP=E    mkostemp()/mkstemp() fail with E (a read-only folder)
 *   FAILIO_DELAY_US=N  sleep N microseconds before and after every write,
 *                      fsync and rename, so that a kill lands inside a save
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int want(const char *var)
{
	static const struct { const char *name; int e; } names[] = {
		{ "ENOSPC", ENOSPC }, { "EIO", EIO }, { "EROFS", EROFS }, { "EACCES", EACCES },
		{ "EDQUOT", EDQUOT }, { "EPERM", EPERM }, { "EXDEV", EXDEV },
	};
	const char *v = getenv(var);
	if (!v || !*v)
		return 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(v, names[i].name))
			return names[i].e;
	return atoi(v);
}

static void delay(void)
{
	const char *v = getenv("FAILIO_DELAY_US");
	if (v && *v)
		usleep((useconds_t)atol(v));
}

static int is_temp(int fd)
{
	char link[64], target[4096];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return 0;
	target[n] = '\0';
	return strstr(target, ".tmp-") != NULL;
}

#define REAL(ret, name, ...)                                   \
	static ret (*real_##name)(__VA_ARGS__);                    \
	if (!real_##name)                                          \
		real_##name = (ret(*)(__VA_ARGS__))dlsym(RTLD_NEXT, #name)

ssize_t write(int fd, const void *buf, size_t n)
{
	REAL(ssize_t, write, int, const void *, size_t);
	int e = want("FAILIO_WRITE");
	int tmp = is_temp(fd);
	if (tmp)
		delay();
	if (e && tmp) {
		/* A disk that fills up mid-file: part is written, then the error. */
		static int half_done;
		if (!half_done && n > 1) {
			half_done = 1;
			return real_write(fd, buf, n / 2);
		}
		errno = e;
		return -1;
	}
	ssize_t r = real_write(fd, buf, n);
	if (tmp)
		delay();
	return r;
}

int fsync(int fd)
{
	REAL(int, fsync, int);
	delay();
	int e = want("FAILIO_FSYNC");
	if (e && is_temp(fd)) {
		errno = e;
		return -1;
	}
	int r = real_fsync(fd);
	delay();
	return r;
}

int rename(const char *from, const char *to)
{
	REAL(int, rename, const char *, const char *);
	delay();
	int e = want("FAILIO_RENAME");
	if (e) {
		errno = e;
		return -1;
	}
	int r = real_rename(from, to);
	delay();
	return r;
}

int renameat2(int fromdir, const char *from, int todir, const char *to,
	      unsigned int flags)
{
	REAL(int, renameat2, int, const char *, int, const char *, unsigned int);
	delay();
	int e = want("FAILIO_RENAME");
	if (e) {
		errno = e;
		return -1;
	}
	int r = real_renameat2(fromdir, from, todir, to, flags);
	delay();
	return r;
}

int mkostemp(char *tmpl, int flags)
{
	REAL(int, mkostemp, char *, int);
	int e = want("FAILIO_MKTEMP");
	if (e) {
		errno = e;
		return -1;
	}
	return real_mkostemp(tmpl, flags);
}

int mkstemp(char *tmpl)
{
	return mkostemp(tmpl, 0);
}
