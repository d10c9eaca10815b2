/*
 * fileio.h — reading recipe files safely and writing them atomically.
 *
 * file_read() refuses directories, FIFOs, devices and files over
 * FILE_READ_MAX, with a message naming the file.  file_write_atomic() writes a
 * temp file in the target's folder, fsyncs it, keeps the target's mode,
 * optionally keeps FILE.bak, and renames it over the target; a symlink target
 * is resolved so the link survives and the file it points to is replaced.
 * On any error the original is untouched, the temp file is removed and *err
 * names the cause ("cannot write 'x.yaml': No space left on device").
 */
#ifndef SRT_FILEIO_H
#define SRT_FILEIO_H

#include <dirent.h>
#include <stddef.h>

/* Recipes are kilobytes; anything this big is the wrong file, and refusing it
 * early keeps memory bounded on shared login nodes. */
#define FILE_READ_MAX (16u << 20)

/* *buf is malloc'd and NUL-terminated (the NUL is not counted in *len). */
int file_read(const char *path, char **buf, size_t *len, char **err);

enum {
	WRITE_BACKUP = 1, /* keep the previous version as PATH.bak */
	WRITE_NEW = 2,    /* the file must not exist yet (O_EXCL semantics on rename) */
	WRITE_LOCKED = 4, /* the caller holds file_lock(path) already */
	WRITE_NOLINK = 8, /* path itself must not be a symbolic link */
	WRITE_FORCE = 16, /* replace a file of ours that is read-only (:w!) */
};
/* What a refused write returns besides -1 (any other failure), so that a
 * caller can ask the user or retry.  *err says it either way. */
enum {
	WRITE_ERR_READONLY = -2, /* our own file without write permission */
	WRITE_ERR_CHANGED = -3,  /* the file on disk is no longer `expect` */
};
/* Without WRITE_LOCKED the write takes the file's lock itself.  Owner, group,
 * mode and every extended attribute (POSIX ACLs included) are kept; a group
 * the file could not keep refuses the write instead of widening access.
 * A save replaces the file by a new one, which would belong to whoever
 * saves: a file owned by another user is therefore never replaced (except
 * by root, who keeps its owner), and one of ours without write permission
 * only with WRITE_FORCE.  WRITE_NOLINK is for files made in a folder others
 * may write (expand --write): a link planted there is refused, never
 * followed. */
int file_write_atomic(const char *path, const char *buf, size_t len, unsigned flags, char **err);
/* The same, when the caller read the file as expect (expect_len bytes)
 * and must not overwrite a change another program made since: the file is
 * read again after the new text is on disk, just before the rename, and a
 * difference refuses the write (WRITE_ERR_CHANGED).  expect NULL: no check. */
int file_write_expect(const char *path, const char *buf, size_t len, unsigned flags,
		      const char *expect, size_t expect_len, char **err);

/* The advisory lock every srt-tui writer of a recipe takes around
 * read-check-write: an exclusive flock on the recipe itself (through its
 * symlinks), retaken on the new file when a writer before us renamed one over
 * it.  Waits up to 10 s for another writer, then fails with a message.  A
 * file that does not exist yet is not locked (*fd = -1, returns 0).  With the
 * lock held, temp files a killed save of ours left beside it are removed.
 * Release with file_unlock(*fd); pass WRITE_LOCKED to writes meanwhile. */
int file_lock(const char *path, int *fd, char **err);
void file_unlock(int fd);

/* A directory opened for readdir, close-on-exec (a program started from
 * the editor never inherits it); NULL with errno set.  dirfd() gives the
 * descriptor for *at() calls; closedir() closes both. */
DIR *dir_open(const char *dir);

#endif
