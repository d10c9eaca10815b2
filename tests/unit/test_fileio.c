/* fileio: what file_read refuses, what file_write_atomic keeps (mode, links,
 * .bak) and leaves behind (nothing), and text_diff's exact `diff -u` output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/fileio.h"
#include "model/textdiff.h"
#include "lib/util.h"

static char *tmpdir;

static int setup(void **state)
{
	(void)state;
	const char *t = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/srt-fileio-XXXXXX", t && *t ? t : "/tmp");
	tmpdir = mkdtemp(tmpl);
	return tmpdir ? 0 : -1;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	chmod(p, 0700);
	return remove(p);
}

static int teardown(void **state)
{
	(void)state;
	nftw(tmpdir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	free(tmpdir);
	return 0;
}

static char *at(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static void put(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	chmod(path, mode);
}

static void expect_content(const char *path, const char *text)
{
	char *buf, *err = NULL;
	size_t len;
	assert_int_equal(file_read(path, &buf, &len, &err), 0);
	assert_null(err);
	assert_int_equal(len, strlen(text));
	assert_string_equal(buf, text);
	free(buf);
}

static void expect_read_error(const char *path, const char *msg)
{
	char *buf = (char *)1, *err = NULL;
	size_t len = 7;
	assert_int_equal(file_read(path, &buf, &len, &err), -1);
	assert_null(buf);
	assert_int_equal(len, 0);
	assert_non_null(err);
	assert_string_equal(err, msg);
	free(err);
}

/* No "x.tmp-XXXXXX" may be left in the test folder. */
static void expect_no_temp(void)
{
	DIR *d = opendir(tmpdir);
	assert_non_null(d);
	struct dirent *e;
	while ((e = readdir(d)))
		if (strstr(e->d_name, ".tmp-"))
			fail_msg("temp file left behind: %s", e->d_name);
	closedir(d);
}

static void test_read_regular(void **state)
{
	(void)state;
	char *p = at("r.yaml");
	put(p, "a: 1\n", 0644);
	expect_content(p, "a: 1\n");
	/* An empty file is read (as ""), not refused: doc decides what it means. */
	put(p, "", 0644);
	expect_content(p, "");
	free(p);
}

static void test_read_refuses(void **state)
{
	(void)state;
	char *msg;

	msg = xasprintf("cannot read '%s': it is a directory; give the path of a recipe file", tmpdir);
	expect_read_error(tmpdir, msg);
	free(msg);

	/* A FIFO with no writer must be refused at once, not block in open(). */
	char *fifo = at("fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	msg = xasprintf("cannot read '%s': it is a FIFO, not a regular file; give the path of a "
			"recipe file", fifo);
	expect_read_error(fifo, msg);
	free(msg);
	free(fifo);

	expect_read_error("/dev/null", "cannot read '/dev/null': it is a device, not a regular file; "
					"give the path of a recipe file");

	char *missing = at("missing.yaml");
	msg = xasprintf("cannot read '%s': No such file or directory", missing);
	expect_read_error(missing, msg);
	free(msg);
	free(missing);

	/* Too big: a sparse file, so the test costs no disk. */
	char *big = at("big.yaml");
	int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)FILE_READ_MAX + 1), 0);
	close(fd);
	msg = xasprintf("cannot read '%s': it is larger than 16 MB, too big for a recipe; "
			"is it the right file?", big);
	expect_read_error(big, msg);
	free(msg);
	unlink(big);
	free(big);

	/* Root reads files whatever their mode says, so this check only means
	 * something for an ordinary user. */
	if (geteuid() != 0) {
		char *secret = at("secret.yaml");
		put(secret, "a: 1\n", 0000);
		msg = xasprintf("cannot read '%s': Permission denied", secret);
		expect_read_error(secret, msg);
		free(msg);
		free(secret);
	}
}

static void test_write_new_file_mode(void **state)
{
	(void)state;
	char *p = at("new.yaml"), *err = NULL;
	struct stat st;
	mode_t old = umask(022);
	assert_int_equal(file_write_atomic(p, "a: 1\n", 5, 0, &err), 0);
	assert_null(err);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	expect_content(p, "a: 1\n");
	unlink(p);

	umask(077);
	assert_int_equal(file_write_atomic(p, "b: 2\n", 5, WRITE_NEW, &err), 0);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	umask(old);

	/* WRITE_NEW never replaces. */
	assert_int_equal(file_write_atomic(p, "c: 3\n", 5, WRITE_NEW, &err), -1);
	char *msg = xasprintf("cannot write '%s': it already exists; choose another name or remove it", p);
	assert_string_equal(err, msg);
	free(msg);
	free(err);
	expect_content(p, "b: 2\n");
	expect_no_temp();
	unlink(p);
	free(p);
}

static void test_write_keeps_mode_and_backup(void **state)
{
	(void)state;
	char *p = at("keep.yaml"), *bak = at("keep.yaml.bak"), *err = NULL;
	struct stat st;
	put(p, "old: 1\n", 0640);
	assert_int_equal(file_write_atomic(p, "new: 2\n", 7, 0, &err), 0);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	expect_content(p, "new: 2\n");
	assert_int_equal(access(bak, F_OK), -1); /* no .bak unless asked */

	chmod(p, 0755);
	assert_int_equal(file_write_atomic(p, "newer: 3\n", 9, WRITE_BACKUP, &err), 0);
	expect_content(p, "newer: 3\n");
	expect_content(bak, "new: 2\n");
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	assert_int_equal(stat(bak, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);

	/* The next save replaces the .bak with the version it overwrites. */
	assert_int_equal(file_write_atomic(p, "last: 4\n", 8, WRITE_BACKUP, &err), 0);
	expect_content(bak, "newer: 3\n");
	expect_content(p, "last: 4\n");

	/* An empty write is a valid write. */
	assert_int_equal(file_write_atomic(p, "", 0, 0, &err), 0);
	expect_content(p, "");
	expect_no_temp();
	unlink(p);
	unlink(bak);
	free(p);
	free(bak);
}

static void test_write_through_symlink(void **state)
{
	(void)state;
	char *sub = at("real"), *real = at("real/r.yaml"), *link = at("link.yaml"), *err = NULL;
	struct stat st;
	assert_int_equal(mkdir(sub, 0755), 0);
	put(real, "a: 1\n", 0600);
	assert_int_equal(symlink("real/r.yaml", link), 0); /* relative to the link's folder */
	assert_int_equal(file_write_atomic(link, "a: 2\n", 5, WRITE_BACKUP, &err), 0);
	assert_null(err);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	expect_content(real, "a: 2\n");
	assert_int_equal(stat(real, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	/* The backup sits beside the file that was replaced. */
	char *bak = at("real/r.yaml.bak");
	expect_content(bak, "a: 1\n");
	unlink(bak);
	free(bak);

	/* A dangling link: the file it names is created, the link kept. */
	char *dangling = at("dangling.yaml"), *made = at("real/made.yaml");
	assert_int_equal(symlink("real/made.yaml", dangling), 0);
	assert_int_equal(file_write_atomic(dangling, "x: 1\n", 5, 0, &err), 0);
	assert_int_equal(lstat(dangling, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	expect_content(made, "x: 1\n");

	/* A loop is an error, not a hang. */
	char *loop = at("loop.yaml");
	assert_int_equal(symlink("loop.yaml", loop), 0);
	assert_int_equal(file_write_atomic(loop, "x\n", 2, 0, &err), -1);
	char *msg = xasprintf("cannot write '%s': Too many levels of symbolic links", loop);
	assert_string_equal(err, msg);
	free(msg);
	free(err);

	unlink(loop);
	unlink(dangling);
	unlink(made);
	unlink(link);
	unlink(real);
	rmdir(sub);
	free(loop);
	free(dangling);
	free(made);
	free(sub);
	free(real);
	free(link);
	expect_no_temp();
}

static void test_write_errors(void **state)
{
	(void)state;
	char *err = NULL, *msg;
	char *p = at("nodir/x.yaml");
	assert_int_equal(file_write_atomic(p, "a\n", 2, 0, &err), -1);
	msg = xasprintf("cannot write '%s': folder '%s/nodir' does not exist; create it first", p, tmpdir);
	assert_string_equal(err, msg);
	free(msg);
	free(err);
	free(p);

	/* A folder in the way of the target. */
	p = at("adir");
	assert_int_equal(mkdir(p, 0755), 0);
	assert_int_equal(file_write_atomic(p, "a\n", 2, 0, &err), -1);
	msg = xasprintf("cannot write '%s': it is a directory", p);
	assert_string_equal(err, msg);
	free(msg);
	free(err);
	rmdir(p);
	free(p);
	expect_no_temp();
}

static void expect_diff(const char *a, const char *b, const char *hunks)
{
	struct strbuf sb = STRBUF_INIT;
	text_diff(&sb, "r.yaml", a, strlen(a), b, strlen(b));
	if (!*hunks) {
		assert_int_equal(sb.len, 0);
	} else {
		char *want = xasprintf("--- a/r.yaml\n+++ b/r.yaml\n%s", hunks);
		assert_string_equal(sb_str(&sb), want);
		free(want);
	}
	strbuf_release(&sb);
}

/* Expected texts below are what GNU `diff -u` prints for the same inputs
 * (minus its two header lines, which carry file names and dates). */
static void test_diff(void **state)
{
	(void)state;
	expect_diff("a: 1\n", "a: 1\n", "");
	expect_diff("", "", "");
	/* An absolute name keeps git's prefixes readable. */
	struct strbuf abs = STRBUF_INIT;
	text_diff(&abs, "/tmp/r.yaml", "a\n", 2, "b\n", 2);
	assert_string_equal(sb_str(&abs), "--- a/tmp/r.yaml\n+++ b/tmp/r.yaml\n@@ -1 +1 @@\n-a\n+b\n");
	strbuf_release(&abs);
	expect_diff("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n", "a\nb\nc\nd\nE\nf\ng\nh\ni\nj\n",
		    "@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n");
	expect_diff("", "k: v\n", "@@ -0,0 +1 @@\n+k: v\n");
	expect_diff("k: v\n", "", "@@ -1 +0,0 @@\n-k: v\n");
	expect_diff("a\nb\nc\n", "a\nb\n", "@@ -1,3 +1,2 @@\n a\n b\n-c\n");
	expect_diff("x\ny", "x\ny\n",
		    "@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+y\n");
	expect_diff("a: 1\r\nb: 2\r\n", "a: 1\r\nb: 3\r\n",
		    "@@ -1,2 +1,2 @@\n a: 1\r\n-b: 2\r\n+b: 3\r\n");
	expect_diff("b\nc\n", "a\nb\nc\n", "@@ -1,2 +1,3 @@\n+a\n b\n c\n");

	/* Twenty lines; changes 6 unchanged lines apart share a hunk, 7 apart do not. */
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;
	for (int i = 1; i <= 20; i++) {
		strbuf_addf(&a, "line %d\n", i);
		strbuf_addf(&b, i == 2 || i == 9 ? "LINE %d\n" : "line %d\n", i);
		strbuf_addf(&c, i == 2 || i == 10 ? "LINE %d\n" : "line %d\n", i);
	}
	expect_diff(a.buf, b.buf,
		    "@@ -1,12 +1,12 @@\n line 1\n-line 2\n+LINE 2\n line 3\n line 4\n line 5\n"
		    " line 6\n line 7\n line 8\n-line 9\n+LINE 9\n line 10\n line 11\n line 12\n");
	expect_diff(a.buf, c.buf,
		    "@@ -1,5 +1,5 @@\n line 1\n-line 2\n+LINE 2\n line 3\n line 4\n line 5\n"
		    "@@ -7,7 +7,7 @@\n line 7\n line 8\n line 9\n-line 10\n+LINE 10\n line 11\n"
		    " line 12\n line 13\n");
	/* Of the equally short diffs, the one diff -u prints: the inserted
	 * duplicate goes after the run it repeats. */
	expect_diff("k:\n  - a\n  - a\nz: 1\n", "k:\n  - a\n  - a\n  - a\nz: 1\n",
		    "@@ -1,4 +1,5 @@\n k:\n   - a\n   - a\n+  - a\n z: 1\n");
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
}

/* Many random edits: the hunks must replay a into b (a self-check that
 * does not depend on an outside diff program). */
static void test_diff_applies(void **state)
{
	(void)state;
	unsigned seed = 12345;
	for (int round = 0; round < 300; round++) {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, out = STRBUF_INIT;
		int n = (int)((seed = seed * 1103515245 + 12345) >> 16) % 40;
		for (int i = 0; i < n; i++) {
			seed = seed * 1103515245 + 12345;
			int v = (int)(seed >> 16) % 6;
			strbuf_addf(&a, "l%d\n", v);
			int op = (int)(seed >> 8) % 10;
			if (op == 0)
				continue;
			if (op == 1)
				strbuf_addf(&b, "n%d\n", v);
			strbuf_addf(&b, op == 2 ? "m%d\n" : "l%d\n", v);
		}
		text_diff(&out, "f", sb_str(&a), a.len, sb_str(&b), b.len);
		/* Replay: walk the hunks over the lines of a. */
		struct strbuf re = STRBUF_INIT;
		const char *ap = sb_str(&a), *p = sb_str(&out);
		size_t aline = 0;
		if (out.len) {
			p = strchr(strchr(p, '\n') + 1, '\n') + 1;
			while (*p) {
				assert_true(!strncmp(p, "@@ -", 4));
				unsigned long s = strtoul(p + 4, NULL, 10);
				unsigned long want = s ? s - 1 : 0;
				const char *comma = strchr(p + 4, ',');
				const char *sp = strchr(p + 4, ' ');
				if (comma && comma < sp && !strtoul(comma + 1, NULL, 10))
					want = s; /* empty range names the line before */
				for (; aline < want; aline++) {
					const char *e = strchr(ap, '\n');
					strbuf_add(&re, ap, (size_t)(e - ap) + 1);
					ap = e + 1;
				}
				p = strchr(p, '\n') + 1;
				while (*p == ' ' || *p == '-' || *p == '+') {
					const char *e = strchr(p, '\n');
					if (*p != '-')
						strbuf_add(&re, p + 1, (size_t)(e - p));
					if (*p != '+') {
						ap = strchr(ap, '\n') + 1;
						aline++;
					}
					p = e + 1;
				}
			}
		}
		strbuf_addstr(&re, ap);
		assert_string_equal(sb_str(&re), sb_str(&b));
		strbuf_release(&re);
		strbuf_release(&a);
		strbuf_release(&b);
		strbuf_release(&out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_regular),
		cmocka_unit_test(test_read_refuses),
		cmocka_unit_test(test_write_new_file_mode),
		cmocka_unit_test(test_write_keeps_mode_and_backup),
		cmocka_unit_test(test_write_through_symlink),
		cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_diff),
		cmocka_unit_test(test_diff_applies),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
