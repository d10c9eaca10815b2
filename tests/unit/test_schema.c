/* The field table: order, completeness of help, lookups and suggestions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/schema.h"

static void test_table_sorted(void **state)
{
	(void)state;
	for (size_t i = 1; i < schema_fields_count; i++) {
		const struct schema_field *a = &schema_fields[i - 1], *b = &schema_fields[i];
		int c = strcmp(a->path, b->path);
		if (c == 0)
			c = !a->variant ? (b->variant ? -1 : 0)
					: !b->variant ? 1 : strcmp(a->variant, b->variant);
		if (c >= 0)
			fail_msg("schema table out of order at '%s' (%s) after '%s' (%s)", b->path,
				 b->variant ? b->variant : "-", a->path, a->variant ? a->variant : "-");
	}
	assert_string_equal(schema_fields[0].path, "");
}

static void test_every_field_has_help(void **state)
{
	(void)state;
	for (size_t i = 0; i < schema_fields_count; i++) {
		const struct schema_field *f = &schema_fields[i];
		if (!f->help || !*f->help || !f->long_help || !*f->long_help)
			fail_msg("'%s' lacks help text", f->path);
		size_t n = strlen(f->help);
		if (f->help[n - 1] == '.')
			fail_msg("one-line help of '%s' ends with a full stop", f->path);
		if (f->step >= STEP_COUNT)
			fail_msg("'%s' has no wizard step", f->path);
		if (f->ref && !schema_lookup(f->ref, NULL))
			fail_msg("'%s' refers to missing '%s'", f->path, f->ref);
		/* Every non-root pattern has a parent entry. */
		if (*f->path) {
			char parent[256];
			snprintf(parent, sizeof(parent), "%s", f->path);
			size_t k = strlen(parent);
			if (k > 2 && !strcmp(parent + k - 2, "[]"))
				parent[k - 2] = 0;
			else {
				char *dot = strrchr(parent, '.');
				if (dot)
					*dot = 0;
				else
					parent[0] = 0;
			}
			if (!schema_lookup(parent, NULL))
				fail_msg("'%s' has no parent entry '%s'", f->path, parent);
		}
	}
	assert_true(schema_fields_count > 300);
}

static void test_spec_fields_present(void **state)
{
	(void)state;
	static const char *const must[] = {
		"schema", "name", "model.path", "model.container", "model.precision",
		"resources.gpus_per_node", "slurm.time_limit", "engine.type", "roles.*.nodes",
		"roles.*.args.connector", "roles.*.args.extra-kv-connectors", "frontend.type",
		"dynamo.source.pypi", "benchmark.concurrencies", "services[].placement.per",
		"services[].readiness.http.path", "health_check.max_attempts", "output.log_dir",
		"profiling.type", "observability.tachometer.enabled", "telemetry.enabled",
		"post_eval.command", "identity.model.repo", "reporting.s3.bucket",
		"host_setup.commands", "sweep", "container_mounts", "extra_mount", "srun_options",
		"sbatch_directives", "environment", "setup_script", "enable_config_dump",
	};
	for (size_t i = 0; i < sizeof(must) / sizeof(must[0]); i++)
		if (!schema_lookup(must[i], NULL))
			fail_msg("missing field '%s'", must[i]);
}

static void test_find_paths(void **state)
{
	(void)state;
	const struct schema_field *f = schema_find_text("roles.agg.args.connector");
	assert_non_null(f);
	assert_string_equal(f->path, "roles.*.args.connector");
	f = schema_find_text("roles.prefill.args.tensor-parallel-size");
	assert_string_equal(f->path, "roles.*.args.*");
	f = schema_find_text("services[lmcache].placement.node");
	assert_string_equal(f->path, "services[].placement.node");
	assert_true(f->flags & SF_RULE);
	f = schema_find_text("services[0].args[2]");
	assert_string_equal(f->path, "services[].args[]");
	f = schema_find_text("environment.PYTHONHASHSEED");
	assert_string_equal(f->path, "environment.*");
	/* ref: roles.*.engine reuses the engine knobs; metrics items reuse the mapping. */
	f = schema_find_text("roles.decode.engine.connector");
	assert_non_null(f);
	assert_string_equal(f->path, "engine.connector");
	f = schema_find_text("services[x].metrics[1].port");
	assert_string_equal(f->path, "services[].metrics.port");
	f = schema_find_text("profiling.decode.stop_step");
	assert_string_equal(f->path, "profiling.prefill.stop_step");
	assert_null(schema_find_text("model.pth"));
	assert_null(schema_find_text("roles.agg.nodse"));
	assert_ptr_equal(schema_find_text(""), schema_root());
}

static void test_variants(void **state)
{
	(void)state;
	const struct schema_field *eng = schema_lookup("engine", NULL);
	const struct schema_field *f = schema_child(eng, "connector", "vllm");
	assert_string_equal(f->variant, "vllm");
	assert_string_equal(f->dflt, "\"nixl\"");
	f = schema_child(eng, "connector", "atom");
	assert_string_equal(f->variant, "atom");
	assert_null(schema_child(eng, "connector", "sglang"));
	f = schema_child(eng, "type", "sglang");
	assert_non_null(f);
	assert_null(f->variant);
}

static void test_children(void **state)
{
	(void)state;
	const struct schema_field *model = schema_lookup("model", NULL);
	const char *keys[8];
	size_t n = 0;
	for (const struct schema_field *f = schema_children(model, NULL); f;
	     f = schema_children(model, f))
		keys[n++] = schema_field_key(f);
	assert_int_equal(n, 4);
	assert_string_equal(keys[0], "container");
	assert_string_equal(keys[1], "path");
	assert_string_equal(keys[2], "precision");
	assert_string_equal(keys[3], "stage_dir");
	/* Root children are the top-level keys only. */
	n = 0;
	for (const struct schema_field *f = schema_children(schema_root(), NULL); f;
	     f = schema_children(schema_root(), f)) {
		assert_null(strchr(f->path, '.'));
		assert_null(strchr(f->path, '['));
		n++;
	}
	assert_int_equal(n, 28); /* the keys of spec §1.2 */
	/* Through a ref. */
	n = 0;
	const struct schema_field *dec = schema_lookup("profiling.decode", NULL);
	for (const struct schema_field *f = schema_children(dec, NULL); f; f = schema_children(dec, f))
		n++;
	assert_int_equal(n, 5);
}

static void test_suggest(void **state)
{
	(void)state;
	assert_int_equal(schema_edit_distance("nodse", "nodes"), 1);
	assert_int_equal(schema_edit_distance("kitten", "sitting"), 3);
	assert_int_equal(schema_edit_distance("", "abc"), 3);
	const struct schema_field *role = schema_lookup("roles.*", NULL);
	assert_string_equal(schema_suggest_key(role, "nodse", NULL), "nodes");
	assert_string_equal(schema_suggest_key(role, "worker", NULL), "workers");
	assert_string_equal(schema_suggest_key(role, "enviroment", NULL), "env");
	assert_null(schema_suggest_key(role, "zzzzzz", NULL));
	const struct schema_field *res = schema_lookup("resources", NULL);
	assert_string_equal(schema_suggest_key(res, "gpus", NULL), "gpus_per_node");
	assert_string_equal(schema_suggest_key(schema_root(), "servics", NULL), "services");
	assert_string_equal(schema_suggest_key(schema_root(), "Environment", NULL), "environment");
	const struct schema_field *eng = schema_lookup("engine", NULL);
	assert_string_equal(schema_suggest_key(eng, "conector", "vllm"), "connector");
	assert_null(schema_suggest_key(eng, "conector", "sglang"));
	static const char *const types[] = { "lmcache-server", "etcd", "nats" };
	assert_string_equal(schema_suggest("lmcache_server", types, 3), "lmcache-server");
	assert_string_equal(schema_suggest("lmcache", types, 3), "lmcache-server");
}

static void test_type_text(void **state)
{
	(void)state;
	char buf[128];
	assert_string_equal(schema_type_text(schema_lookup("roles.*.nodes", NULL), buf, sizeof(buf)),
			    "an integer, 'colocate' or null");
	assert_string_equal(schema_type_text(schema_lookup("name", NULL), buf, sizeof(buf)),
			    "a string");
	assert_string_equal(
		schema_type_text(schema_lookup("benchmark.temperature", NULL), buf, sizeof(buf)),
		"a number or null");
	assert_string_equal(schema_step_name(STEP_CONNECTORS), "connectors");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_sorted),     cmocka_unit_test(test_every_field_has_help),
		cmocka_unit_test(test_spec_fields_present), cmocka_unit_test(test_find_paths),
		cmocka_unit_test(test_variants),         cmocka_unit_test(test_children),
		cmocka_unit_test(test_suggest),          cmocka_unit_test(test_type_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
