/*
 * tree_helpers.h — test helpers shared by the override, sweep and --set tests,
 * on top of testutil.h (tu_json turns JSON text into a tree): a tree compared
 * as Python json.dumps text, and our override fixtures or srtctl's reference
 * examples loaded as srtctl reads them.  Header only (static inline), so each test binary stays one .c file;
 * include it after <cmocka.h>.  Trees returned are new references.
 */
#ifndef SRT_TEST_TREE_HELPERS_H
#define SRT_TEST_TREE_HELPERS_H

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/json.h"
#include "tests/unit/load_yaml.h"
#include "tests/unit/testutil.h"

static inline void assert_json(const json_t *v, const char *want)
{
	char *s = pyjson_dumps(v, PYJSON_UNICODE);
	assert_string_equal(s, want);
	free(s);
}

/* tests/fixtures/override/<name> under $SRCDIR (or the current folder). */
static inline json_t *fixture(const char *name)
{
	char *dir = tu_srcpath("tests/fixtures/override");
	json_t *v = load_yaml_file(dir, name);
	if (!v)
		fail_msg("cannot load fixture %s/%s", dir, name);
	free(dir);
	return v;
}

/* $SHARED/reference/<name>; NULL (and a printed skip) when $SHARED is not set. */
static inline json_t *reference(const char *name)
{
	const char *shared = getenv("SHARED");
	if (!shared || !*shared) {
		printf("skip: SHARED not set, %s not checked\n", name);
		return NULL;
	}
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/reference", shared);
	json_t *v = load_yaml_file(dir, name);
	if (!v)
		fail_msg("cannot load %s/%s", dir, name);
	return v;
}

#endif
