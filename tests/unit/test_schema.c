/* The field table: order, completeness of help, lookups and suggestions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "model/schema.h"
#include "model/kinds.h"

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
	/* bounded: exact up to max, max + 1 past it, whatever the true distance */
	assert_int_equal(schema_edit_distance_max("nodse", "nodes", 2), 1);
	assert_int_equal(schema_edit_distance_max("kitten", "sitting", 2), 3);
	assert_int_equal(schema_edit_distance_max("kitten", "sitting", 3), 3);
	assert_int_equal(schema_edit_distance_max("abcdefgh", "zyxwvuts", 2), 3);
	assert_int_equal(schema_edit_distance_max("ab", "abcdef", 2), 3);
	assert_int_equal(schema_edit_distance_max("gpu-memory-utilisation", "gpu-memory-utilization", 2), 1);
	assert_int_equal(schema_edit_distance_max("ba-tail-xyz", "ab-tail-xyz", 1), 1);
	{
		/* the cut-off never changes an answer within the bound */
		static const char *const w[] = { "", "a", "ab", "ba", "abc", "acb", "kitten", "sitting",
						 "sittin", "kitchen", "tensor-parallel-size", "tensor_paralel_size",
						 "max-model-len", "max_model_length", "gpus", "gpus_per_node" };
		size_t nw = sizeof(w) / sizeof(w[0]);
		for (size_t i = 0; i < nw; i++)
			for (size_t j = 0; j < nw; j++)
				for (size_t m = 0; m < 5; m++) {
					size_t d = schema_edit_distance(w[i], w[j]);
					assert_int_equal(schema_edit_distance_max(w[i], w[j], m), d > m ? m + 1 : d);
				}
	}
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

/* ---- against srtctl's own JSON schema (read from $SHARED at run time) ---- */

struct jwalk {
	json_t *defs;
	int bad;
};

static unsigned json_type_bit(const char *t)
{
	static const struct { const char *name; unsigned bit; } m[] = {
		{ "string", SCHEMA_STR }, { "integer", SCHEMA_INT }, { "number", SCHEMA_NUM },
		{ "boolean", SCHEMA_BOOL }, { "null", SCHEMA_NULL }, { "object", SCHEMA_MAP },
		{ "array", SCHEMA_LIST },
	};
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (!strcmp(t, m[i].name))
			return m[i].bit;
	return 0;
}

static unsigned value_type_bit(json_t *v)
{
	return json_is_string(v) ? SCHEMA_STR : json_is_integer(v) ? SCHEMA_INT
	       : json_is_real(v) ? SCHEMA_NUM : json_is_boolean(v) ? SCHEMA_BOOL
	       : json_is_null(v) ? SCHEMA_NULL : 0;
}

/* The types and enum values a property schema allows (refs are mappings). */
static void json_types(json_t *n, unsigned *types, json_t *enums)
{
	size_t i;
	json_t *e;
	if (json_object_get(n, "$ref")) {
		*types |= SCHEMA_MAP;
		return;
	}
	json_array_foreach(json_object_get(n, "anyOf"), i, e)
		json_types(e, types, enums);
	json_t *t = json_object_get(n, "type");
	if (json_is_string(t))
		*types |= json_type_bit(json_string_value(t));
	json_array_foreach(t, i, e)
		*types |= json_type_bit(json_string_value(e));
	json_t *en = json_object_get(n, "enum");
	json_array_foreach(en, i, e) {
		if (!t)
			*types |= value_type_bit(e);
		if (!json_is_null(e))
			json_array_append(enums, e);
	}
	if (json_object_get(n, "const")) {
		*types |= value_type_bit(json_object_get(n, "const"));
		json_array_append(enums, json_object_get(n, "const"));
	}
}

static void jwalk_node(struct jwalk *w, json_t *n, const char *path,
		       const struct schema_field *ours, const char *variant);

/* Children of n (its refs, anyOf branches, items, properties). */
static void jwalk_children(struct jwalk *w, json_t *n, const char *path,
			   const struct schema_field *ours, const char *variant)
{
	size_t i;
	json_t *e;
	json_t *ref = json_object_get(n, "$ref");
	if (ref) {
		const char *name = strrchr(json_string_value(ref), '/') + 1;
		json_t *def = json_object_get(w->defs, name);
		size_t nl = strlen(name);
		static const char *const backends[][2] = {
			{ "AtomBackend", "atom" }, { "SGLangBackend", "sglang" },
			{ "TileRTBackend", "tilert" }, { "TokenSpeedBackend", "tokenspeed" },
			{ "TRTLLMBackend", "trtllm" }, { "VLLMBackend", "vllm" },
			{ "MockerBackend", "mocker" },
		};
		for (size_t k = 0; nl > 7 && k < sizeof(backends) / sizeof(backends[0]); k++)
			if (!strcmp(name, backends[k][0]))
				variant = backends[k][1];
		/* roles.*.engine and the like take their children by ref: walk once */
		if (ours && ours->ref)
			return;
		jwalk_children(w, def, path, ours, variant);
		return;
	}
	json_array_foreach(json_object_get(n, "anyOf"), i, e)
		jwalk_children(w, e, path, ours, variant);
	json_t *items = json_object_get(n, "items");
	if (items) {
		char *p = NULL;
		if (asprintf(&p, "%s[]", path) < 0)
			abort();
		jwalk_node(w, items, p, ours ? schema_child(ours, NULL, variant) : NULL, variant);
		free(p);
	}
	const char *k;
	json_t *v;
	json_object_foreach(json_object_get(n, "properties"), k, v) {
		char *p = NULL;
		if (asprintf(&p, "%s%s%s", path, *path ? "." : "", k) < 0)
			abort();
		jwalk_node(w, v, p, ours ? schema_child(ours, k, variant) : NULL, variant);
		free(p);
	}
	json_t *ap = json_object_get(n, "additionalProperties");
	if (json_is_object(ap) && json_object_size(ap)) {
		char *p = NULL;
		if (asprintf(&p, "%s%s*", path, *path ? "." : "") < 0)
			abort();
		jwalk_node(w, ap, p, ours ? schema_child(ours, "*", variant) : NULL, variant);
		free(p);
	}
}

static void jwalk_node(struct jwalk *w, json_t *n, const char *path,
		       const struct schema_field *ours, const char *variant)
{
	if (!ours) {
		fprintf(stderr, "srtctl's schema has '%s'%s%s, the table does not\n", path,
			variant ? " for engine " : "", variant ? variant : "");
		w->bad++;
		return;
	}
	unsigned types = 0;
	json_t *enums = json_array();
	json_types(n, &types, enums);
	unsigned mine = ours->types;
	if (mine & SCHEMA_NUM)
		mine |= SCHEMA_INT;
	if (types & SCHEMA_NUM)
		types |= SCHEMA_INT;
	if (mine != types && ours->types != SCHEMA_ANY) {
		fprintf(stderr, "'%s': types 0x%x in the table, 0x%x in srtctl's schema\n", path, mine,
			types);
		w->bad++;
	}
	/* the engine mapping's own `type` discriminates: its default and single
	 * value are per engine, the table lists them all */
	int discriminator = variant && !strcmp(schema_field_key(ours), "type");
	size_t i;
	json_t *e;
	json_array_foreach(enums, i, e) {
		char num[32];
		const char *t = json_is_string(e) ? json_string_value(e) : num;
		if (json_is_integer(e))
			snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(e));
		if (!ours->allowed || !schema_allows(ours, t)) {
			fprintf(stderr, "'%s': srtctl allows '%s', the table does not\n", path, t);
			w->bad++;
		}
	}
	if (json_array_size(enums) > 1 && ours->allowed) {
		size_t n_ours = 0;
		while (ours->allowed[n_ours])
			n_ours++;
		if (n_ours != json_array_size(enums)) {
			fprintf(stderr, "'%s': the table allows %zu values, srtctl %zu\n", path, n_ours,
				json_array_size(enums));
			w->bad++;
		}
	}
	json_decref(enums);
	json_t *d = json_object_get(n, "default");
	if (d && !discriminator) {
		json_error_t err;
		json_t *od = ours->dflt ? json_loads(ours->dflt, JSON_DECODE_ANY, &err) : NULL;
		int same = od ? json_equal(od, d) || (json_is_number(od) && json_is_number(d) &&
						      json_number_value(od) == json_number_value(d))
			      : ours->dflt && json_is_string(d) && !strcmp(ours->dflt, json_string_value(d));
		if (!same) {
			char *txt = json_dumps(d, JSON_ENCODE_ANY | JSON_COMPACT);
			fprintf(stderr, "'%s': default %s in the table, %s in srtctl's schema\n", path,
				ours->dflt ? ours->dflt : "(none)", txt);
			free(txt);
			w->bad++;
		}
		json_decref(od);
	}
	jwalk_children(w, n, path, ours, variant);
}

/* Every field srtctl's recipe.schema.json defines is in the table, with the
 * same types, default and allowed values. */
static void test_matches_srtctl_schema(void **state)
{
	(void)state;
	const char *shared = getenv("SHARED");
	if (!shared || !*shared) {
		printf("skipped: SHARED is empty, srtctl's recipe.schema.json is not available\n");
		return;
	}
	char *file = NULL;
	if (asprintf(&file, "%s/reference/recipe.schema.json", shared) < 0)
		abort();
	json_error_t err;
	json_t *s = json_load_file(file, 0, &err);
	free(file);
	if (!s) {
		printf("skipped: recipe.schema.json not readable: %s\n", err.text);
		return;
	}
	struct jwalk w = { json_object_get(s, "$defs"), 0 };
	jwalk_children(&w, json_object_get(w.defs, "Recipe"), "", schema_root(), NULL);
	json_decref(s);
	assert_int_equal(w.bad, 0);
}

/* The service types the table offers are the kinds model/kinds.c knows. */
static void test_service_types_match_kinds(void **state)
{
	(void)state;
	const struct schema_field *f = schema_lookup("services[].type", NULL);
	size_t n = 0;
	for (; f->allowed[n]; n++)
		if (!svc_kind_find(f->allowed[n]))
			fail_msg("services[].type offers '%s', which model/kinds.c does not know",
				 f->allowed[n]);
	assert_int_equal(n, svc_kinds_count);
}

/* The hashed lookups (schema_lookup by pattern, schema_child by key) find
 * every entry of the table as it is written. */
static void test_every_entry_found(void **state)
{
	(void)state;
	schema_child(schema_root(), "name", NULL); /* the tree, and its hashes, built */
	for (size_t i = 0; i < schema_fields_count; i++) {
		const struct schema_field *f = &schema_fields[i];
		const struct schema_field *l = schema_lookup(f->path, f->variant);
		assert_non_null(l);
		assert_string_equal(l->path, f->path);
		if (f->variant)
			assert_string_equal(l->variant, f->variant);
	}
	for (size_t i = 0; i < schema_fields_count; i++) {
		const struct schema_field *p = &schema_fields[i], *star = schema_child(p, "*", NULL);
		for (const struct schema_field *c = schema_children(p, NULL); c; c = schema_children(p, c)) {
			const char *k = schema_field_key(c);
			if (strstr(k, "[]"))
				continue;
			const struct schema_field *got = schema_child(p, k, c->variant);
			assert_non_null(got);
			assert_string_equal(got->path, c->path);
			if (c->variant && got->variant)
				assert_string_equal(got->variant, c->variant);
			/* a key's own entry (the "*" entry too, for the key "*"): its
			 * key needs no quotes in a path, so validate writes it as is */
			int own = -1;
			schema_childn(p, k, strlen(k), c->variant, &own);
			assert_int_equal(own, 1);
			if (!*k || k[strcspn(k, ".[]\"'")])
				fail_msg("%s: key '%s' would need quoting in a path", c->path, k);
		}
		/* a key the pattern lacks: its "*" child, or nothing */
		int own = -1;
		assert_ptr_equal(schema_childn(p, "no-such-key-anywhere", 20, NULL, &own), star);
		assert_int_equal(own, 0);
	}
	assert_null(schema_lookup("no.such.pattern", NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_sorted),     cmocka_unit_test(test_every_field_has_help),
		cmocka_unit_test(test_spec_fields_present), cmocka_unit_test(test_find_paths),
		cmocka_unit_test(test_variants),         cmocka_unit_test(test_children),
		cmocka_unit_test(test_suggest),          cmocka_unit_test(test_type_text),
		cmocka_unit_test(test_matches_srtctl_schema),
		cmocka_unit_test(test_service_types_match_kinds),
		cmocka_unit_test(test_every_entry_found),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
