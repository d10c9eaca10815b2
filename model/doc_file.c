/*
 * doc_file.c — doc_load_file(), kept apart from doc.c so that programs using
 * only in-memory documents do not need fileio.
 */
#include "model/doc_internal.h"
#include "model/fileio.h"

#include <stdlib.h>

struct doc *doc_load_file(const char *path, struct diag_list *diags)
{
	char *buf = NULL, *err = NULL;
	size_t len = 0;
	if (file_read(path, &buf, &len, &err) < 0) {
		diag_add_at(diags, DIAG_ERROR, "file-read", 0, 0, "check the file name and its permissions",
			    "%s", err ? err : "cannot read the file");
		free(err);
		return NULL;
	}
	const char *name = path;
	for (const char *p = path; *p; p++)
		if (*p == '/' && p[1])
			name = p + 1;
	return doc_load_owned(name, buf, len, diags);
}
