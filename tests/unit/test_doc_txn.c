/* Transactions and undo that stores what changed: a transaction of several
 * edits is one undo entry that returns the exact bytes; abort leaves no
 * trace; undo memory grows with the edits' size, not the document's; and
 * the resident memory of 1,000 edits of the largest example stays under
 * 10 MiB.  (The 20,000-line figure, 1,000 edits under 5x the load-time RSS,
 * takes a minute of CPU: bench/bench_undo_mem.c prints it.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "model/doc.h"
#include "testutil.h"

static struct doc *load(const char *text)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load("t.yaml", text, strlen(text), &dl);
	diag_list_release(&dl);
	assert_non_null(d);
	return d;
}

static void set(struct doc *d, const char *path, const char *json)
{
	struct path p = PATH_INIT;
	char *err = NULL, *warn = NULL;
	assert_int_equal(path_parse(&p, path, PATH_NAMES, &err), 0);
	json_t *v = tu_json(json);
	if (doc_set(d, &p, v, &err, &warn))
		fail_msg("set %s=%s: %s", path, json, err);
	json_decref(v);
	free(warn);
	path_release(&p);
}

static void del(struct doc *d, const char *path)
{
	struct path p = PATH_INIT;
	char *err = NULL, *warn = NULL;
	assert_int_equal(path_parse(&p, path, PATH_NAMES, &err), 0);
	if (doc_delete(d, &p, &err, &warn))
		fail_msg("delete %s: %s", path, err);
	free(warn);
	path_release(&p);
}

static void assert_text(struct doc *d, const char *want)
{
	size_t len;
	const char *t = doc_text(d, &len);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(t, want, len);
}

static const char *BASE = "# a comment\n"
			  "roles:\n"
			  "  agg:\n"
			  "    workers: 1   # one\n"
			  "    gpus: 1\n"
			  "services: []\n";

static void test_commit_is_one_entry(void **state)
{
	(void)state;
	struct doc *d = load(BASE);
	doc_begin(d);
	assert_true(doc_in_transaction(d));
	set(d, "roles.agg.workers", "4");
	set(d, "roles.agg.gpus", "2");
	del(d, "services");
	assert_false(doc_can_undo(d)); /* refused while open */
	assert_int_equal(doc_undo(d), -1);
	assert_int_equal(doc_commit(d), 0);
	assert_false(doc_in_transaction(d));
	const char *after = "# a comment\n"
			    "roles:\n"
			    "  agg:\n"
			    "    workers: 4   # one\n"
			    "    gpus: 2\n";
	assert_text(d, after);
	assert_int_equal(doc_undo(d), 0);
	assert_text(d, BASE);
	assert_false(doc_dirty(d));
	assert_false(doc_can_undo(d)); /* the three edits were one entry */
	assert_int_equal(doc_redo(d), 0);
	assert_text(d, after);
	assert_false(doc_can_redo(d));
	assert_int_equal(doc_commit(d), -1); /* nothing open */
	doc_free(d);
}

static void test_abort_restores(void **state)
{
	(void)state;
	struct doc *d = load(BASE);
	set(d, "roles.agg.gpus", "8");
	size_t len;
	char *before = xstrdup(doc_text(d, &len));
	doc_begin(d);
	set(d, "roles.agg.workers", "3");
	del(d, "services");
	doc_abort(d);
	assert_false(doc_in_transaction(d));
	assert_text(d, before);
	/* the abort added no entry: one undo is the earlier set */
	assert_int_equal(doc_undo(d), 0);
	assert_text(d, BASE);
	assert_false(doc_can_undo(d));
	free(before);
	doc_free(d);
}

static void test_nested(void **state)
{
	(void)state;
	struct doc *d = load(BASE);
	doc_begin(d);
	set(d, "roles.agg.workers", "2");
	doc_begin(d);
	set(d, "roles.agg.gpus", "2");
	assert_int_equal(doc_commit(d), 0);
	assert_true(doc_in_transaction(d)); /* the outer one is still open */
	assert_int_equal(doc_commit(d), 0);
	assert_int_equal(doc_undo(d), 0);
	assert_text(d, BASE);
	assert_false(doc_can_undo(d));

	/* an inner abort rolls back the whole action */
	doc_begin(d);
	set(d, "roles.agg.workers", "5");
	doc_begin(d);
	set(d, "roles.agg.gpus", "5");
	doc_abort(d);
	assert_false(doc_in_transaction(d));
	assert_text(d, BASE);
	/* the redo stack of the undo above survives an action that did nothing */
	assert_true(doc_can_redo(d));
	doc_free(d);
}

static void test_empty_transaction(void **state)
{
	(void)state;
	struct doc *d = load(BASE);
	doc_begin(d);
	set(d, "roles.agg.workers", "1"); /* same value: no change */
	assert_int_equal(doc_commit(d), 0);
	assert_false(doc_can_undo(d));
	doc_begin(d);
	set(d, "roles.agg.workers", "7");
	set(d, "roles.agg.workers", "1"); /* back where it was */
	assert_int_equal(doc_commit(d), 0);
	assert_false(doc_can_undo(d));
	doc_free(d);
}

static void test_replace_text_round_trip(void **state)
{
	(void)state;
	struct doc *d = load(BASE);
	char *err = NULL;
	const char *edited = "roles:\n  agg:\n    workers: 9\n";
	assert_int_equal(doc_replace_text(d, edited, strlen(edited), &err), 0);
	assert_text(d, edited);
	assert_int_equal(doc_undo(d), 0);
	assert_text(d, BASE);
	assert_int_equal(doc_redo(d), 0);
	assert_text(d, edited);
	doc_free(d);
}

/* Many services with args and env, role args and comment blocks: about
 * `lines` lines of a valid recipe. */
static char *big_recipe(int lines)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "# generated for the undo memory test\nname: big\nmodel:\n  path: m\n"
			   "roles:\n  agg:\n    workers: 1\n    gpus: 1\n    args:\n");
	for (int i = 0; i < lines / 20; i++)
		strbuf_addf(&sb, "      flag-%d: %d\n", i, i);
	strbuf_addstr(&sb, "services:\n");
	for (int i = 0, n = 9 + lines / 20; n < lines; i++, n += 8) {
		strbuf_addf(&sb, "  # service %d: a comment block\n  # that spans two lines\n", i);
		strbuf_addf(&sb, "  - name: svc-%d\n    type: custom\n    command: [run, --port, \"%d\"]\n"
				 "    env:\n      A_%d: \"x\"\n      B_%d: \"y\"\n",
			    i, 9000 + i, i, i);
	}
	return strbuf_detach(&sb, NULL);
}

static void test_undo_stores_patches(void **state)
{
	(void)state;
	char *text = big_recipe(2000);
	struct doc *d = load(text);
	size_t len = strlen(text);
	for (int i = 0; i < 50; i++) {
		char v[32];
		snprintf(v, sizeof(v), "%d", i + 2);
		set(d, "roles.agg.workers", v);
	}
	/* 50 copies would be 50 x len; the patches are a few bytes each */
	assert_true(doc_undo_bytes(d) < 50 * 128);
	assert_true(doc_undo_bytes(d) < len / 10);
	while (doc_can_undo(d))
		assert_int_equal(doc_undo(d), 0);
	assert_text(d, text);
	free(text);
	doc_free(d);
}

/* The patch is the span between the texts' common prefix and suffix, found
 * a block at a time: edits near the start, the end and everywhere between
 * (across the block boundaries) undo and redo to exactly the texts before
 * and after, and each patch holds only the bytes that changed. */
static void test_patch_span(void **state)
{
	(void)state;
	char *text = big_recipe(2000);
	struct doc *d = load(text);
	struct strvec paths = STRVEC_INIT;
	strvec_push(&paths, "name");
	for (int i = 0; i < 100; i += 7)
		strvec_pushf(&paths, "roles.agg.args.flag-%d", i);
	strvec_push(&paths, "services[0].env.A_0");
	strvec_push(&paths, "services[236].env.B_236"); /* the last value of the text */
	for (size_t i = 0; i < paths.n; i++) {
		size_t blen, alen, was = doc_undo_bytes(d);
		char *before = xstrdup(doc_text(d, &blen));
		set(d, paths.v[i], "\"vv\"");
		char *after = xstrdup(doc_text(d, &alen));
		assert_true(alen != blen || memcmp(before, after, alen));
		/* one value of at most a few bytes, both ways */
		assert_true(doc_undo_bytes(d) - was < 64);
		assert_int_equal(doc_undo(d), 0);
		assert_text(d, before);
		assert_int_equal(doc_redo(d), 0);
		assert_text(d, after);
		free(before);
		free(after);
	}
	strvec_release(&paths);
	free(text);
	doc_free(d);
}

/* Child side: no cmocka here (a failed assert would run the suite again in
 * the child); any failure is the exit status. */
static int edit_1000(struct doc *d, const char *path)
{
	struct path p = PATH_INIT;
	char *err = NULL, *warn = NULL;
	if (path_parse(&p, path, PATH_NAMES, &err))
		return 2;
	for (int i = 0; i < 1000; i++) {
		json_t *v = json_integer(i % 7 + 2);
		int r = doc_set(d, &p, v, &err, &warn);
		json_decref(v);
		free(warn);
		if (r) {
			fprintf(stderr, "edit %d refused: %s\n", i, err);
			return 2;
		}
	}
	path_release(&p);
	return 0;
}

static int rss_largest_example(void)
{
	char *p = tu_srcpath("examples/vllm-lmcache-disagg.yaml");
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load_file(p, &dl);
	diag_list_release(&dl);
	if (!d || edit_1000(d, "roles.decode.workers"))
		return 2;
	long kib = proc_rss_kib(0);
	printf("RSS after 1000 edits of %s: %ld KiB (bound 10240)\n", p, kib);
	free(p);
	doc_free(d);
	return kib < 10 * 1024 ? 0 : 1;
}

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#else
#define SANITIZED 0
#endif

/* This binary, as started (under valgrind /proc/self/exe is valgrind). */
static const char *self_path;

/* Run this binary again with `which` as its argument: a fresh process, so
 * what earlier tests allocated is not in the figure. */
static void in_child(const char *which)
{
	if (SANITIZED || proc_rss_kib(0) < 0) {
		printf("skip: RSS is not the figure under the sanitizers or without /proc\n");
		return;
	}
	fflush(stdout);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execl(self_path, self_path, which, (char *)NULL);
		_exit(127);
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void test_rss_largest_example(void **state)
{
	(void)state;
	in_child("rss-example");
}

int main(int argc, char **argv)
{
	self_path = argv[0];
	if (argc == 2 && !strcmp(argv[1], "rss-example"))
		return rss_largest_example();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commit_is_one_entry),
		cmocka_unit_test(test_abort_restores),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_empty_transaction),
		cmocka_unit_test(test_replace_text_round_trip),
		cmocka_unit_test(test_undo_stores_patches),
		cmocka_unit_test(test_patch_span),
		cmocka_unit_test(test_rss_largest_example),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
