/*
 * fileio.c — reading recipes defensively, writing them so that a crash, a
 * full disk or a kill -9 leaves either the old or the new file, never a mix,
 * and a unified diff for showing an edit before it is written.
 *
 * Messages returned in *err are malloc'd and owned by the caller.
 */
#include "model/fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"

/* ---- reading ---------------------------------------------------------- */

static int fail(char **err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(char **err, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		*err = xvasprintf(fmt, ap);
		va_end(ap);
	}
	return -1;
}

static const char *kind_name(mode_t m)
{
	if (S_ISDIR(m))
		return "it is a directory";
	if (S_ISFIFO(m))
		return "it is a FIFO, not a regular file";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "it is a device, not a regular file";
	if (S_ISSOCK(m))
		return "it is a socket, not a regular file";
	return "it is not a regular file";
}

int file_read(const char *path, char **buf, size_t *len, char **err)
{
	*buf = NULL;
	if (len)
		*len = 0;
	/* O_NONBLOCK so that opening a FIFO with no writer does not hang before
	 * fstat can tell us what it is. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return fail(err, "cannot read '%s': %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return fail(err, "cannot read '%s': %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return fail(err, "cannot read '%s': %s; give the path of a recipe file", path,
			    kind_name(st.st_mode));
	}
	if ((unsigned long long)st.st_size > FILE_READ_MAX) {
		close(fd);
		return fail(err, "cannot read '%s': it is larger than %u MB, too big for a recipe; "
			    "is it the right file?", path, FILE_READ_MAX >> 20);
	}
	/* O_NONBLOCK stays: it changes nothing for a regular file. */

	/* st_size is a hint only: files in /proc report 0, and a file may grow
	 * while we read.  Having read st_size bytes is the file as fstat saw it,
	 * without a read to find its end (validate reads hundreds of files). */
	size_t cap = (size_t)st.st_size + 1, n = 0, want = (size_t)st.st_size;
	if (cap < 4096)
		cap = 4096;
	char *p = xmalloc(cap + 1);
	for (;;) {
		if (n == cap) {
			if (cap > FILE_READ_MAX)
				break;
			cap *= 2;
			p = xrealloc(p, cap + 1);
		}
		ssize_t r = read(fd, p + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(p);
			close(fd);
			return fail(err, "cannot read '%s': %s", path, strerror(e));
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (want && n == want)
			break;
	}
	close(fd);
	if (n > FILE_READ_MAX) {
		free(p);
		return fail(err, "cannot read '%s': it is larger than %u MB, too big for a recipe; "
			    "is it the right file?", path, FILE_READ_MAX >> 20);
	}
	p[n] = '\0';
	*buf = p;
	if (len)
		*len = n;
	return 0;
}

/* ---- writing ---------------------------------------------------------- */

/* Follow a chain of symlinks by hand (not realpath) so that a link to a file
 * that does not exist yet still resolves to where that file would be. */
static char *resolve_links(const char *path, char **err)
{
	char *cur = xstrdup(path);
	for (int hops = 0;; hops++) {
		struct stat st;
		if (lstat(cur, &st) < 0 || !S_ISLNK(st.st_mode))
			return cur;
		if (hops == 40) {
			free(cur);
			fail(err, "cannot write '%s': %s", path, strerror(ELOOP));
			return NULL;
		}
		size_t sz = (size_t)st.st_size ? (size_t)st.st_size + 1 : PATH_MAX;
		char *t = xmalloc(sz + 1);
		ssize_t r = readlink(cur, t, sz);
		if (r < 0) {
			int e = errno;
			free(t);
			free(cur);
			fail(err, "cannot write '%s': %s", path, strerror(e));
			return NULL;
		}
		t[r] = '\0';
		char *next;
		const char *slash = strrchr(cur, '/');
		if (t[0] == '/' || !slash)
			next = xstrdup(t);
		else
			next = xasprintf("%.*s/%s", (int)(slash - cur), cur, t);
		free(t);
		free(cur);
		cur = next;
	}
}

/* Create an empty temp file beside target; returns the fd and sets *tmp.
 * A name at the NAME_MAX limit has no room for the suffix: fall back to a
 * short hidden name in the same folder. */
static int make_temp(const char *target, char **tmp)
{
	*tmp = xasprintf("%s.tmp-XXXXXX", target);
	int fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd < 0 && errno == ENAMETOOLONG) {
		char *dir = path_dir(target);
		free(*tmp);
		*tmp = xasprintf("%s/.srt-tui.tmp-XXXXXX", dir);
		free(dir);
		fd = mkostemp(*tmp, O_CLOEXEC);
	}
	if (fd < 0) {
		free(*tmp);
		*tmp = NULL;
	}
	return fd;
}

/* Copy every extended attribute of src_fd (POSIX ACLs are the
 * system.posix_acl_* ones) to fd.  The temp file may have inherited an ACL
 * from the folder's default ACL that the original did not have: that one is
 * removed, or the later fchmod would turn its entries into access the file
 * never gave.  Attributes an ordinary user can neither read nor set
 * (trusted.*, security.*) are skipped; anything else that cannot be kept fails
 * the write, since a lost ACL can widen or narrow who reads the recipe. */
static int copy_xattrs(int src_fd, int fd, const char **what)
{
	ssize_t n = src_fd >= 0 ? flistxattr(src_fd, NULL, 0) : 0;
	if (n < 0)
		return errno == ENOTSUP ? 0 : errno;
	char *names = xmalloc((size_t)n + 1);
	if (n)
		n = flistxattr(src_fd, names, (size_t)n);
	if (n < 0) {
		int e = errno;
		free(names);
		return e;
	}
	int had_acl = 0, e = 0;
	for (ssize_t off = 0; off < n && !e; off += (ssize_t)strlen(names + off) + 1) {
		const char *name = names + off;
		int optional = !strncmp(name, "trusted.", 8) || !strncmp(name, "security.", 9);
		if (!strcmp(name, "system.posix_acl_access"))
			had_acl = 1;
		ssize_t vlen = fgetxattr(src_fd, name, NULL, 0);
		char *val = vlen >= 0 ? xmalloc((size_t)vlen + 1) : NULL;
		if (val && vlen)
			vlen = fgetxattr(src_fd, name, val, (size_t)vlen);
		if (vlen < 0 || fsetxattr(fd, name, val, (size_t)vlen, 0) < 0) {
			if (!optional || (errno != EPERM && errno != ENOTSUP && errno != EACCES)) {
				e = errno;
				*what = name;
			}
		}
		free(val);
	}
	free(names);
	if (!e && !had_acl && fremovexattr(fd, "system.posix_acl_access") < 0 &&
	    errno != ENODATA && errno != ENOTSUP) {
		e = errno;
		*what = "system.posix_acl_access";
	}
	return e;
}

/* What write_temp could not do, for the message. */
struct temp_fail {
	const char *xattr; /* the attribute that could not be kept, or NULL */
	int group;         /* the file's group could not be kept */
};

/* Write buf into a new temp file beside target with the given mode, owner,
 * group and extended attributes (copied from src_fd when >= 0); on success
 * *tmp names it (durable on disk).  Returns 0 or an errno value. */
static int write_temp(const char *target, const char *buf, size_t len, mode_t mode,
		      const struct stat *owner, int src_fd, char **tmp, struct temp_fail *why)
{
	int fd = make_temp(target, tmp);
	if (fd < 0)
		return errno;
	int e = 0;
	if (write_full(fd, buf, len) < 0)
		e = errno;
	/* Owner and group first: chown clears set-id bits, and the mode set
	 * after it must be the final one.  Root keeps the owner of someone
	 * else's recipe; an ordinary user cannot give files away, but must keep
	 * the group, or the old mode's group bits would be granted to the
	 * user's own group (a setgid folder's or the login group). */
	if (!e && owner && (owner->st_uid != geteuid() || owner->st_gid != getegid()) &&
	    fchown(fd, owner->st_uid, owner->st_gid) < 0) {
		if (fchown(fd, (uid_t)-1, owner->st_gid) < 0) {
			struct stat now;
			if (fstat(fd, &now) < 0 || now.st_gid != owner->st_gid) {
				e = EPERM;
				why->group = 1;
			}
		}
	}
	if (!e && fchmod(fd, mode) < 0)
		e = errno;
	if (!e && owner)
		e = copy_xattrs(src_fd, fd, &why->xattr);
	if (!e && fsync(fd) < 0)
		e = errno;
	if (close(fd) < 0 && !e)
		e = errno;
	if (e) {
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
	}
	return e;
}

static void sync_dir(const char *file)
{
	char *dir = path_dir(file);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd < 0)
		return;
	/* The rename has happened: the new content is in place either way.
	 * Some file systems refuse fsync on a directory; nothing to report. */
	if (fsync(fd) < 0) {
		/* ignored */
	}
	close(fd);
}

/* Keep the current version of target as bak, atomically: a hard link to the
 * current inode under a temp name renamed over bak, so bak is never half
 * written.  File systems without hard links get a copy instead. */
static int make_backup(const char *target, const char *bak, const struct stat *st, int src_fd)
{
	char *tmp;
	int fd = make_temp(bak, &tmp);
	if (fd < 0)
		return errno;
	close(fd);
	int e = 0;
	unlink(tmp);
	if (link(target, tmp) < 0) {
		e = errno;
		if (e == EPERM || e == ENOTSUP || e == EMLINK || e == ENOSYS) {
			char *old, *rerr = NULL;
			size_t olen;
			free(tmp);
			tmp = NULL;
			if (file_read(target, &old, &olen, &rerr) < 0) {
				free(rerr);
				return EIO;
			}
			struct temp_fail why = { NULL, 0 };
			e = write_temp(bak, old, olen, st->st_mode & 07777, st, src_fd, &tmp, &why);
			free(old);
		}
	}
	if (!e && rename(tmp, bak) < 0)
		e = errno;
	if (e && tmp)
		unlink(tmp);
	free(tmp);
	return e;
}

static int current_umask(void)
{
	mode_t m = umask(022);
	umask(m);
	return (int)m;
}

/* ---- locking ---------------------------------------------------------- */

DIR *dir_open(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return d;
}

/* Remove NAME.tmp-XXXXXX and NAME.bak.tmp-XXXXXX files of this recipe that a
 * killed save of ours left behind.  Called with the recipe's lock held, so no
 * srt-tui writer of this recipe is between creating and renaming one.  Only
 * regular files (by lstat) that belong to us are touched. */
static void remove_stale_temps(const char *target)
{
	char *dir = path_dir(target);
	const char *base = path_base(target);
	size_t blen = strlen(base);
	DIR *d = dir_open(dir);
	free(dir);
	if (!d)
		return;
	int dfd = dirfd(d);
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *n = de->d_name, *rest;
		if (strncmp(n, base, blen))
			continue;
		rest = n + blen;
		if (!strncmp(rest, ".bak", 4))
			rest += 4;
		if (strncmp(rest, ".tmp-", 5) || strlen(rest + 5) != 6)
			continue;
		struct stat st;
		if (fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode) ||
		    st.st_uid != geteuid())
			continue;
		unlinkat(dfd, n, 0);
	}
	closedir(d);
}

/* How long a writer waits for another srt-tui writer of the same recipe:
 * a save takes milliseconds; a lock held this long is a hung process. */
#define LOCK_WAIT_MS 10000

static int lock_target(const char *path, const char *target, int *fdp, char **err)
{
	*fdp = -1;
	for (int waited = 0;;) {
		int fd = open(target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
		if (fd < 0) {
			if (errno == ENOENT)
				return 0; /* a new file: the no-replace rename guards it */
			return fail(err, "cannot lock '%s': %s", path, strerror(errno));
		}
		struct stat st, now;
		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
			close(fd);
			return 0; /* not a regular file: the write itself says why */
		}
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			int e = errno;
			close(fd);
			if (e != EWOULDBLOCK && e != EINTR) {
				/* a file system without locks: go on unlocked, as editors do */
				if (e == ENOLCK || e == ENOTSUP || e == EINVAL)
					return 0;
				return fail(err, "cannot lock '%s': %s", path, strerror(e));
			}
			if (waited >= LOCK_WAIT_MS)
				return fail(err, "cannot write '%s': another srt-tui has been saving it "
					    "for %d s; try again when it has finished", path,
					    LOCK_WAIT_MS / 1000);
			struct timespec ts = { 0, 5 * 1000 * 1000 };
			nanosleep(&ts, NULL);
			waited += 5;
			continue;
		}
		/* The writer before us renamed a new file over the one we locked:
		 * lock that one instead. */
		if (stat(target, &now) == 0 && now.st_dev == st.st_dev && now.st_ino == st.st_ino) {
			*fdp = fd;
			remove_stale_temps(target);
			return 0;
		}
		close(fd);
	}
}

int file_lock(const char *path, int *fd, char **err)
{
	*fd = -1;
	char *target = resolve_links(path, err);
	if (!target)
		return -1;
	int rc = lock_target(path, target, fd, err);
	free(target);
	return rc;
}

void file_unlock(int fd)
{
	if (fd >= 0)
		close(fd); /* closing the only descriptor releases the flock */
}

/* ---- the atomic write ------------------------------------------------- */

/* Whether a save may replace the existing file st: 0, or the refusal.  A
 * rename puts a new inode in its place, made by us: it would belong to us,
 * and the owner would lose a file of hers (root can keep the owner and
 * does).  Without write permission, or with no write bit at all (root
 * too, as vim tells it), the user said "do not change this": only
 * WRITE_FORCE goes on, as vim's :w! does. */
static int may_replace(const char *path, const char *target, const struct stat *st,
		       unsigned flags, char **err)
{
	uid_t me = geteuid();
	if (me != 0 && st->st_uid != me) {
		struct passwd *pw = getpwuid(st->st_uid);
		char num[32];
		snprintf(num, sizeof(num), "uid %u", (unsigned)st->st_uid);
		return fail(err, "cannot write '%s': it belongs to %s, and a save would "
			    "replace it with a file of yours; ask its owner, or save a "
			    "copy under another name", path, pw ? pw->pw_name : num);
	}
	if (!(flags & WRITE_FORCE) && (!(st->st_mode & 0222) ||
	    (faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) < 0 && errno == EACCES))) {
		fail(err, "cannot write '%s': it is read-only (mode %04o)", path,
		     (unsigned)(st->st_mode & 07777));
		return WRITE_ERR_READONLY;
	}
	return 0;
}

/* Whether the file at target still holds expect: read again once the new
 * text is durable, so that the window for a writer that takes no lock is
 * the rename alone. */
static int still_expected(const char *target, const char *expect, size_t expect_len)
{
	char *now = NULL, *e = NULL;
	size_t now_len = 0;
	if (file_read(target, &now, &now_len, &e) < 0) {
		free(e);
		return 0;
	}
	int same = now_len == expect_len && !memcmp(now, expect, now_len);
	free(now);
	return same;
}

/* Put tmp in target's place only if target still holds expect.  A writer
 * that takes no lock may rename its file in at any moment, so the check
 * and the replacement are one step: the two files are exchanged (the old
 * one lands at tmp, where it is compared), and exchanged back when it was
 * not what we read.  0 when done, EAGAIN when refused (tmp is ours again),
 * else an errno value.  Without RENAME_EXCHANGE, check then rename. */
static int exchange_expected(const char *tmp, const char *target, const char *expect,
			     size_t expect_len)
{
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, target, RENAME_EXCHANGE) < 0) {
		if (errno == ENOENT)
			return EAGAIN; /* removed since we read it: a change too */
		if (errno != EINVAL && errno != ENOSYS)
			return errno;
		if (!still_expected(target, expect, expect_len))
			return EAGAIN;
		return rename(tmp, target) < 0 ? errno : 0;
	}
	if (still_expected(tmp, expect, expect_len)) {
		unlink(tmp);
		return 0;
	}
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, target, RENAME_EXCHANGE) < 0)
		return errno;
	return EAGAIN;
}

int file_write_atomic(const char *path, const char *buf, size_t len, unsigned flags, char **err)
{
	return file_write_expect(path, buf, len, flags, NULL, 0, err);
}

int file_write_expect(const char *path, const char *buf, size_t len, unsigned flags,
		      const char *expect, size_t expect_len, char **err)
{
	struct stat st;
	if ((flags & WRITE_NOLINK) && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return fail(err, "cannot write '%s': it is a symbolic link, and srt-tui "
			    "does not write through a link in an output folder (anyone "
			    "who can write there may have planted it); remove it, or "
			    "write to another folder", path);
	char *target = (flags & WRITE_NOLINK) ? xstrdup(path) : resolve_links(path, err);
	if (!target)
		return -1;
	int rc = -1, lock_fd = -1, src_fd = -1;
	char *tmp = NULL, *bak = NULL;
	struct temp_fail why = { NULL, 0 };

	if (!(flags & (WRITE_LOCKED | WRITE_NEW)) && lock_target(path, target, &lock_fd, err) < 0)
		goto out;
	int exists = ((flags & WRITE_NOLINK) ? lstat(target, &st) : stat(target, &st)) == 0;
	if (!exists && errno != ENOENT) {
		fail(err, "cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	if (exists && S_ISLNK(st.st_mode)) {
		fail(err, "cannot write '%s': it became a symbolic link while saving; "
		     "nothing was written", path);
		goto out;
	}
	if (exists && (flags & WRITE_NEW)) {
		fail(err, "cannot write '%s': it already exists; choose another name or remove it", path);
		goto out;
	}
	if (exists && !S_ISREG(st.st_mode)) {
		fail(err, "cannot write '%s': %s", path, kind_name(st.st_mode));
		goto out;
	}
	if (exists) {
		int refused = may_replace(path, target, &st, flags, err);
		if (refused < 0) {
			rc = refused;
			goto out;
		}
		/* for its extended attributes and ACLs */
		src_fd = open(target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
		if (src_fd < 0) {
			fail(err, "cannot write '%s': %s", path, strerror(errno));
			goto out;
		}
	}
	mode_t mode = exists ? (st.st_mode & 07777) : (0644 & ~(mode_t)current_umask());
	int e = write_temp(target, buf, len, mode, exists ? &st : NULL, src_fd, &tmp, &why);
	if (e) {
		if (e == ENOENT) {
			char *dir = path_dir(target);
			fail(err, "cannot write '%s': folder '%s' does not exist; create it first", path, dir);
			free(dir);
		} else if (why.group) {
			struct group *g = getgrgid(st.st_gid);
			fail(err, "cannot write '%s': it belongs to group '%s', which a file of yours "
			     "cannot be given; ask its owner to save it, or copy it", path,
			     g ? g->gr_name : "?");
		} else if (why.xattr) {
			fail(err, "cannot write '%s': cannot keep its extended attribute '%s': %s",
			     path, why.xattr, strerror(e));
		} else {
			fail(err, "cannot write '%s': %s", path, strerror(e));
		}
		goto out;
	}
	if (exists && (flags & WRITE_BACKUP)) {
		bak = xasprintf("%s.bak", target);
		e = make_backup(target, bak, &st, src_fd);
		if (e) {
			fail(err, "cannot write '%s.bak': %s; the recipe was not changed", path, strerror(e));
			goto out;
		}
	}
	if (flags & WRITE_NEW) {
		/* No-replace rename: someone may have created the file meanwhile. */
		if (renameat2(AT_FDCWD, tmp, AT_FDCWD, target, RENAME_NOREPLACE) < 0) {
			e = errno;
			if (e == EINVAL || e == ENOSYS) {
				e = link(tmp, target) < 0 ? errno : 0;
				if (!e)
					unlink(tmp);
			}
		}
		if (e == EEXIST) {
			fail(err, "cannot write '%s': it already exists; choose another name or remove it",
			     path);
			goto out;
		}
	} else if (expect) {
		e = exchange_expected(tmp, target, expect, expect_len);
		if (e == EAGAIN) {
			fail(err, "cannot write '%s': another program changed it on disk "
			     "while this save was being written; nothing was written (run "
			     "the command again to apply it to the new text)", path);
			rc = WRITE_ERR_CHANGED;
			goto out;
		}
	} else if (rename(tmp, target) < 0) {
		e = errno;
	}
	if (e) {
		fail(err, "cannot write '%s': %s", path, strerror(e));
		goto out;
	}
	free(tmp);
	tmp = NULL;
	sync_dir(target);
	rc = 0;
out:
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
	if (src_fd >= 0)
		close(src_fd);
	file_unlock(lock_fd);
	free(bak);
	free(target);
	return rc;
}
