/*
 * Reading srtctl's own schema for the Fields tree (model/srtctl_schema.c):
 * the named keys of a mapping through $ref and anyOf branches, once each, in
 * the schema's order, leaving out the engine blocks of other engines; and a
 * field's default through $ref and anyOf.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/srtctl_schema.h"
#include "lib/util.h"

/* Two engine blocks, told apart by their `type` constant, as srtctl's
 * pydantic-made schema writes them (const, or an enum of one value). */
static const char schema[] =
	"{\"else\":{\"$ref\":\"#/$defs/Recipe\"},\"$defs\":{"
	"\"Recipe\":{\"type\":\"object\",\"properties\":{"
	"  \"name\":{\"type\":\"string\"},"
	"  \"engine\":{\"anyOf\":[{\"type\":\"string\"},{\"$ref\":\"#/$defs/V\"},{\"$ref\":\"#/$defs/S\"}]},"
	"  \"limit\":{\"anyOf\":[{\"$ref\":\"#/$defs/Lim\"},{\"type\":\"null\"}]}}},"
	"\"V\":{\"type\":\"object\",\"properties\":{\"type\":{\"const\":\"vllm\"},"
	"  \"connector\":{\"type\":\"string\"},\"failover\":{\"type\":\"object\"}}},"
	"\"S\":{\"type\":\"object\",\"properties\":{\"type\":{\"enum\":[\"sglang\"]},"
	"  \"connector\":{\"type\":\"string\"},\"mooncake\":{\"type\":\"object\"}}},"
	"\"Lim\":{\"type\":\"integer\",\"default\":7}}}";

static void collect(const char *key, json_t *sub, void *ctx)
{
	struct strbuf *sb = ctx;
	(void)sub;
	strbuf_addf(sb, "%s ", key);
}

static char *keys_of(json_t *node, const char *variant)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "");
	srtctl_schema_each_key(node, variant, collect, &sb);
	return strbuf_detach(&sb, NULL);
}

static int setup(void **state)
{
	char *err = NULL;
	int rc = srtctl_schema_load_text(schema, strlen(schema), "test", &err);
	free(err);
	return rc;
}

static int teardown(void **state)
{
	srtctl_schema_clear();
	return 0;
}

static void each_key_by_engine(void **state)
{
	json_t *root = srtctl_schema_root();
	char *k = keys_of(root, NULL);
	assert_string_equal(k, "name engine limit ");
	free(k);
	json_t *eng = srtctl_schema_child(root, "engine");
	/* the vLLM block only; connector once */
	k = keys_of(eng, "vllm");
	assert_string_equal(k, "type connector failover ");
	free(k);
	k = keys_of(eng, "sglang");
	assert_string_equal(k, "type connector mooncake ");
	free(k);
	/* no engine known: every block, each key once */
	k = keys_of(eng, NULL);
	assert_string_equal(k, "type connector failover mooncake ");
	free(k);
	/* not a mapping, or no schema node: nothing */
	k = keys_of(srtctl_schema_child(root, "name"), NULL);
	assert_string_equal(k, "");
	free(k);
	k = keys_of(NULL, NULL);
	assert_string_equal(k, "");
	free(k);
}

static void defaults(void **state)
{
	json_t *root = srtctl_schema_root();
	json_t *d = srtctl_schema_default(srtctl_schema_child(root, "limit"));
	assert_non_null(d);
	assert_int_equal(json_integer_value(d), 7);
	assert_null(srtctl_schema_default(srtctl_schema_child(root, "name")));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(each_key_by_engine, setup, teardown),
		cmocka_unit_test_setup_teardown(defaults, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
