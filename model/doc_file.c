/*
 * doc_file.c — doc_load_file(), kept apart from doc.c so that programs using
 * only in-memory documents do not need fileio.
 */
#include "model/doc_internal.h"
#include "model/fileio.h"

#include <stdlib.h>

char *doc_file_read(const char *path, size_t *len, struct diag_list *diags)
{
	char *buf = NULL, *err = NULL;
	*len = 0;
	if (file_read(path, &buf, len, &err) < 0) {
		diag_add_at(diags, DIAG_ERROR, "file-read", 0, 0, "check the file name and its permissions",
			    "%s", err ? err : "cannot read the file");
		free(err);
		return NULL;
	}
	return buf;
}

const char *doc_file_name(const char *path)
{
	const char *name = path;
	for (const char *p = path; *p; p++)
		if (*p == '/' && p[1])
			name = p + 1;
	return name;
}

struct doc *doc_load_file(const char *path, struct diag_list *diags)
{
	size_t len;
	char *buf = doc_file_read(path, &len, diags);
	return buf ? doc_load_owned(doc_file_name(path), buf, len, diags) : NULL;
}
