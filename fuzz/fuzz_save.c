/*
 * libFuzzer: the save and recovery paths.  Each input is a recipe text; it
 * is saved over the previous input with the lock held and a backup
 * (file_lock, file_write_atomic WRITE_LOCKED|WRITE_BACKUP), read back, kept
 * as this session's recovery file against the previous text as base, listed
 * back and compared; the input is also parsed as a recovery file itself and
 * planted as another session's recovery file, which the listing must either
 * refuse as damaged or return exactly as recover_parse read it.  Files live in
 * a private folder (on /dev/shm when there is one: fsync on a shared disk is
 * what makes this slow).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz/fuzz_common.h"
#include "model/fileio.h"
#include "lib/util.h"
#include "tui/recover.h"

static char *dir, *recipe, *planted;
static char *prev;
static size_t prev_len;
static mode_t mode0;

static void init(void)
{
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	char *t = xasprintf("%s/srt-fuzz-save-XXXXXX", base);
	dir = mkdtemp(t);
	FUZZ_CHECK(dir != NULL, "cannot make a folder");
	recipe = xasprintf("%s/r.yaml", dir);
	planted = xasprintf("%s/.r.yaml.srt-tui-recover-1-1", dir);
	char *st = xasprintf("%s/state", dir);
	setenv("XDG_STATE_HOME", st, 1);
	free(st);
	prev = xstrdup("");
	char *err = NULL;
	FUZZ_CHECK(file_write_atomic(recipe, "", 0, WRITE_NEW, &err) == 0, "first write");
	chmod(recipe, 0640);
	mode0 = 0640;
}

static void expect_file(const char *path, const char *want, size_t want_len, const char *what)
{
	char *buf, *err = NULL;
	size_t len;
	FUZZ_CHECK(file_read(path, &buf, &len, &err) == 0, what);
	FUZZ_CHECK(len == want_len && !memcmp(buf, want, len), what);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir)
		init();
	const char *text = (const char *)data;

	/* save: locked, with a backup; the recipe is the input, .bak the last */
	int fd;
	char *err = NULL;
	FUZZ_CHECK(file_lock(recipe, &fd, &err) == 0 && fd >= 0, "lock an existing recipe");
	FUZZ_CHECK(file_write_atomic(recipe, text, size, WRITE_LOCKED | WRITE_BACKUP, &err) == 0,
		   "save");
	file_unlock(fd);
	expect_file(recipe, text, size, "the saved bytes read back");
	char *bak = xasprintf("%s.bak", recipe);
	expect_file(bak, prev, prev_len, "the backup is the previous version");
	free(bak);
	struct stat sb;
	FUZZ_CHECK(stat(recipe, &sb) == 0 && (sb.st_mode & 07777) == mode0, "mode kept");

	/* this session's recovery file: the input against the previous base */
	struct recover_session *s = recover_open(recipe, prev, prev_len);
	FUZZ_CHECK(recover_save(s, text, size) == 0, "recovery written");
	struct recover_file *v;
	size_t n = recover_list(recipe, NULL, &v, NULL);
	FUZZ_CHECK(n == 1, "one recovery file listed");
	FUZZ_CHECK(v[0].len == size && !memcmp(v[0].text, text, size), "recovered text");
	FUZZ_CHECK(v[0].has_base && v[0].base_len == prev_len && !memcmp(v[0].base, prev, prev_len),
		   "recovered base");
	recover_list_free(v, n);
	recover_discard(s);
	recover_close(s);

	/* the input as a recovery file of another session */
	struct recover_file f;
	int parsed = recover_parse(text, size, &f);
	int pfd = open(planted, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
	FUZZ_CHECK(pfd >= 0, "plant");
	FUZZ_CHECK(write(pfd, text, size) == (ssize_t)size, "plant write");
	close(pfd);
	char *why = NULL;
	n = recover_list(recipe, NULL, &v, &why);
	if (parsed < 0) {
		FUZZ_CHECK(n == 0 && why && strstr(why, "damaged"), "a damaged file refused");
	} else {
		FUZZ_CHECK(n == 1, "a good file listed");
		FUZZ_CHECK(v[0].len == f.len && !memcmp(v[0].text, f.text, f.len), "listed text");
		FUZZ_CHECK(v[0].has_base == f.has_base && v[0].base_len == f.base_len &&
				   (!f.has_base || !memcmp(v[0].base, f.base, f.base_len)),
			   "listed base");
		recover_file_release(&f);
	}
	free(why);
	recover_list_free(v, n);
	unlink(planted);

	free(prev);
	prev = xmalloc(size + 1);
	memcpy(prev, text, size);
	prev_len = size;
	return 0;
}
