/*
 * recover.h — recovery files: the unsaved edits of a session, written every
 * few idle seconds after an edit and when the session is killed (SIGHUP,
 * SIGTERM, a crash), offered back by the next `edit` (or `new`, for a wizard
 * that had no file yet).
 *
 * Each session has its own file, so two sessions on one recipe never
 * overwrite each other: ".NAME.srt-tui-recover-SESSION" beside the recipe, or,
 * when that folder cannot take it (read-only, full, a name too long), in
 * $XDG_STATE_HOME/srt-tui/ (default ~/.local/state/srt-tui/) as
 * "NAME-HASH.srt-tui-recover-SESSION".  The file records the recipe's path and
 * the text the edits started from (the base), so a restore can tell that the
 * recipe changed on disk since.
 *
 * Security: files are created with O_CREAT|O_EXCL|O_NOFOLLOW and mode 0600,
 * then renamed into place (a planted symlink is replaced, never written
 * through); a file is offered only when lstat shows a regular file owned by
 * the user and writable by nobody else.
 */
#ifndef SRT_TUI_RECOVER_H
#define SRT_TUI_RECOVER_H

#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/* The recipe path a `srt-tui new` without FILE rescues to (in the current
 * folder); the next `srt-tui new` there offers it back. */
#define RECOVER_NEW "srt-tui-new.yaml"

/* Seconds of idle after an edit before the recovery file is brought up to
 * date: a kill -9 loses at most this much (plus the typing since). */
#define RECOVER_IDLE_SECONDS 2

struct recover_session;

/* A session for RECIPE (RECOVER_NEW for a path-less wizard) whose edits start
 * from BASE (NULL: the recipe does not exist yet).  Never fails: a session
 * with no usable folder just fails to save. */
struct recover_session *recover_open(const char *recipe, const char *base, size_t base_len);
/* After a save (or a restore from disk): the edits now start from BASE. */
void recover_set_base(struct recover_session *s, const char *base, size_t base_len);
/* Write TEXT as this session's recovery file.  Async-signal-safe (open,
 * write, fsync, rename, unlink on prepared names only), so the crash and
 * HUP handlers use it too.  Returns 0, or -1 when no folder took it. */
int recover_save(struct recover_session *s, const char *text, size_t len);
/* Where the last recover_save wrote (NULL before one succeeded). */
const char *recover_where(const struct recover_session *s);
/* Remove this session's file (saved, or discarded by the user). */
void recover_discard(struct recover_session *s);
void recover_close(struct recover_session *s);

/* A recovery file found for a recipe. */
struct recover_file {
	char *path;
	time_t mtime;
	char *recipe;   /* the recipe path recorded in it (NULL in an old-format file) */
	int has_base;   /* 0: old format, or the recipe did not exist */
	char *base;
	size_t base_len;
	char *text;
	size_t len;
};

/* Parse the bytes of a recovery file (an old-format file is all text).
 * Returns 0, or -1 when it is damaged (truncated, lengths that do not fit). */
int recover_parse(const char *buf, size_t len, struct recover_file *f);
void recover_file_release(struct recover_file *f);

/* The recovery files of RECIPE other than session SKIP's (may be NULL),
 * newest first, in both folders.  Files refused as untrusted (a link, owned
 * by another user, writable by others, damaged) are not returned; each adds
 * a line to *refused (malloc'd, NULL when none) saying which and why. */
size_t recover_list(const char *recipe, const struct recover_session *skip,
		    struct recover_file **files, char **refused);
void recover_list_free(struct recover_file *files, size_t n);
/* Remove a listed file (after the user restored or deleted it). */
void recover_remove_file(const char *path);

/* The state folder the fallback files go to ($XDG_STATE_HOME/srt-tui or
 * ~/.local/state/srt-tui), malloc'd; NULL when neither is set. */
char *recover_state_dir(void);

#endif
