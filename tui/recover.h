/*
 * recover.h — recovery files: unsaved edits written beside the recipe when
 * the session is killed (SIGHUP, SIGTERM), offered back by the next `edit`
 * (or `new`, for a wizard that had no file yet).
 * The file is ".NAME.srt-tui-recover" in the recipe's folder, written
 * atomically.  Returned strings are malloc'd.
 */
#ifndef SRT_TUI_RECOVER_H
#define SRT_TUI_RECOVER_H

#include <stddef.h>
#include <time.h>

/* The recipe path a `srt-tui new` without FILE rescues to (in the current
 * folder); the next `srt-tui new` there offers it back. */
#define RECOVER_NEW "srt-tui-new.yaml"

char *recover_path(const char *recipe_path);
int recover_write(const char *recipe_path, const char *text, size_t len, char **err);
/* 1 and the text when a recovery file exists, 0 when none, -1 on error. */
int recover_read(const char *recipe_path, char **text, size_t *len, time_t *mtime);
void recover_remove(const char *recipe_path);

#endif
