/* recover.c — recovery files beside the recipe (recover.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/fileio.h"
#include "lib/util.h"
#include "tui/recover.h"

char *recover_path(const char *recipe_path)
{
	const char *slash = strrchr(recipe_path, '/');
	if (!slash)
		return xasprintf(".%s.srt-tui-recover", recipe_path);
	return xasprintf("%.*s/.%s.srt-tui-recover", (int)(slash - recipe_path), recipe_path,
			 slash + 1);
}

int recover_write(const char *recipe_path, const char *text, size_t len, char **err)
{
	char *p = recover_path(recipe_path);
	int rc = file_write_atomic(p, text, len, 0, err);
	if (!rc)
		chmod(p, 0600); /* a recipe may hold secrets in env */
	free(p);
	return rc;
}

int recover_read(const char *recipe_path, char **text, size_t *len, time_t *mtime)
{
	char *p = recover_path(recipe_path), *err = NULL;
	struct stat st;
	if (stat(p, &st)) {
		free(p);
		return 0;
	}
	*mtime = st.st_mtime;
	int rc = file_read(p, text, len, &err) ? -1 : 1;
	free(err);
	free(p);
	return rc;
}

void recover_remove(const char *recipe_path)
{
	char *p = recover_path(recipe_path);
	unlink(p);
	free(p);
}
