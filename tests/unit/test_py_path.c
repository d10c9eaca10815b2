/* py_path_resolve against Python's str(Path(p).resolve()) (strict=False):
 * absolute against the working directory, "." and ".." gone, existing
 * parts through realpath (symlinks followed), missing parts as written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"

static void expect_resolve(const char *in, const char *want)
{
	char *got = py_path_resolve(in);
	assert_string_equal(got, want);
	free(got);
}

static void test_lexical(void **state)
{
	(void)state;
	/* nothing under /srt-tui-absent exists: every part kept as written */
	expect_resolve("/srt-tui-absent/b/../c", "/srt-tui-absent/c");
	expect_resolve("/srt-tui-absent/./b//c/", "/srt-tui-absent/b/c");
	expect_resolve("/", "/");
	expect_resolve("//", "/");
	expect_resolve("/..", "/");
	expect_resolve("/srt-tui-absent/../..", "/");
}

static void test_disk(void **state)
{
	const char *td = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/srt-tui-path-XXXXXX", td && *td ? td : P_tmpdir);
	char base[PATH_MAX], old[PATH_MAX];
	char *p, *want;
	(void)state;
	assert_non_null(mkdtemp(tmpl));
	assert_non_null(realpath(tmpl, base));
	assert_non_null(getcwd(old, sizeof(old)));
	p = xasprintf("%s/real", base);
	assert_int_equal(mkdir(p, 0700), 0);
	free(p);
	p = xasprintf("%s/link", base);
	assert_int_equal(symlink("real", p), 0);
	free(p);
	assert_int_equal(chdir(base), 0);

	/* relative: against the working directory */
	want = xasprintf("%s/x.sqsh", base);
	expect_resolve("./x.sqsh", want);
	expect_resolve("x.sqsh", want);
	free(want);
	/* an existing symlink is followed, the missing file after it kept */
	want = xasprintf("%s/real/f.sqsh", base);
	expect_resolve("./link/f.sqsh", want);
	free(want);
	/* ".." after a symlink leaves the link's target, as realpath does */
	want = xasprintf("%s/g", base);
	expect_resolve("link/../g", want);
	free(want);

	assert_int_equal(chdir(old), 0);
	p = xasprintf("%s/link", base);
	unlink(p);
	free(p);
	p = xasprintf("%s/real", base);
	rmdir(p);
	free(p);
	rmdir(base);
	free(tmpl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lexical),
		cmocka_unit_test(test_disk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
