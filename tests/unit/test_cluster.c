/* The cluster file: srtctl's discovery order, the lint against its cluster
 * schema (every key of the reference cluster.schema.json known), and the
 * defaults and aliases applied as resolve_config_with_defaults does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/cluster.h"
#include "lib/util.h"

static json_t *jl(const char *text)
{
	json_error_t e;
	json_t *v = json_loads(text, 0, &e);
	if (!v)
		fail_msg("bad test JSON: %s: %s", e.text, text);
	return v;
}

static char *lint_codes(const char *text)
{
	struct diag_list l = DIAG_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	json_t *v = jl(text);
	cluster_lint_tree(v, &l);
	for (size_t i = 0; i < l.n; i++)
		strbuf_addf(&sb, "%s%c:%s@%s", i ? "|" : "", l.v[i].severity == DIAG_ERROR ? 'E' : 'W',
			    l.v[i].code, l.v[i].path);
	json_decref(v);
	diag_list_release(&l);
	return sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
}

static void expect_lint(const char *text, const char *want)
{
	char *got = lint_codes(text);
	if (strcmp(got, want))
		fail_msg("lint %s:\n got  %s\n want %s", text, got, want);
	free(got);
}

static void test_lint(void **state)
{
	(void)state;
	expect_lint("{\"default_partition\": \"gpu\", \"containers\": {\"a\": \"/x.sqsh\"}}", "");
	/* a misspelt key: srtctl's marshmallow rejects the file (issue #429) */
	expect_lint("{\"default_partitions\": \"gpu\"}", "E:cluster-unknown-key@default_partitions");
	expect_lint("{\"gpus_per_node\": \"eight\"}", "E:cluster-type@gpus_per_node");
	/* marshmallow coerces "8" and "yes": srtctl loads them */
	expect_lint("{\"gpus_per_node\": \"8\", \"preflight\": \"yes\"}",
		    "W:cluster-coerced@gpus_per_node|W:cluster-coerced@preflight");
	expect_lint("{\"containers\": {\"a\": 3}}", "E:cluster-type@containers.a");
	expect_lint("{\"launcher\": \"local\"}", "E:cluster-enum@launcher");
	expect_lint("{\"reporting\": {\"s3\": {\"prefix\": \"p\"}}}", "E:cluster-missing-key@reporting.s3");
	expect_lint("{\"default_host_setup\": {\"commands\": [\"a\"], \"nodez\": \"all\"}}",
		    "E:cluster-unknown-key@default_host_setup.nodez");
	expect_lint("{\"visible_devices_env\": null}", "E:cluster-type@visible_devices_env");
	expect_lint("[]", "E:cluster-not-mapping@");
}

/* Every key of srtctl's cluster schema, nested blocks included, through the
 * "$defs" references, must be known to the linter. */
struct known { char **v; size_t n; };

static void add_known(const char *d, void *ctx)
{
	struct known *k = ctx;
	k->v = xrealloc(k->v, (k->n + 1) * sizeof(*k->v));
	k->v[k->n++] = xstrdup(d);
}

static int is_known(const struct known *k, const char *d)
{
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->v[i], d))
			return 1;
	return 0;
}

static json_t *ref_target(json_t *schema, json_t *prop)
{
	json_t *any = json_object_get(prop, "anyOf"), *x;
	size_t i;
	const char *ref = json_string_value(json_object_get(prop, "$ref"));
	json_array_foreach(any, i, x)
		if (json_object_get(x, "$ref"))
			ref = json_string_value(json_object_get(x, "$ref"));
	if (!ref || strncmp(ref, "#/$defs/", 8))
		return NULL;
	return json_object_get(json_object_get(schema, "$defs"), ref + 8);
}

static int walk_schema(json_t *schema, json_t *obj, const char *prefix, const struct known *k,
		       int depth)
{
	const char *name;
	json_t *prop;
	int n = 0;
	if (depth > 6)
		return 0;
	json_object_foreach(json_object_get(obj, "properties"), name, prop) {
		char *d = *prefix ? xasprintf("%s.%s", prefix, name) : xstrdup(name);
		if (!is_known(k, d))
			fail_msg("cluster schema key '%s' is not known to the linter", d);
		n++;
		json_t *def = ref_target(schema, prop);
		if (def)
			n += walk_schema(schema, def, d, k, depth + 1);
		free(d);
	}
	return n;
}

static void test_schema_keys(void **state)
{
	(void)state;
	const char *shared = getenv("SHARED");
	char *path = xasprintf("%s/reference/cluster/cluster.schema.json",
			       shared && *shared ? shared : "../shared");
	json_error_t e;
	json_t *schema = json_load_file(path, 0, &e);
	struct known k = { NULL, 0 };
	if (!schema) {
		printf("skip: %s not found\n", path);
		free(path);
		return;
	}
	cluster_known_keys(add_known, &k);
	int n = walk_schema(schema, schema, "", &k, 0);
	assert_true(n >= 30);
	printf("cluster schema: %d keys known\n", n);
	for (size_t i = 0; i < k.n; i++)
		free(k.v[i]);
	free(k.v);
	json_decref(schema);
	free(path);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_discover(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/srt-cluster-XXXXXX";
	char *top = mkdtemp(tmpl);
	assert_non_null(top);
	char *a = xasprintf("%s/a", top), *b = xasprintf("%s/a/b", top), *c3 = xasprintf("%s/a/b/c", top);
	char *d = xasprintf("%s/a/b/c/d", top);
	mkdir(a, 0700);
	mkdir(b, 0700);
	mkdir(c3, 0700);
	mkdir(d, 0700);
	char *file = xasprintf("%s/srtslurm.yaml", a);
	write_file(file, "default_partition: gpu\n# comment\nbogus_key: 1\n");
	unsetenv("SRTSLURM_CONFIG");
	unsetenv("SRT_TUI_SRTCTL_DIR");

	/* two levels up from a/b/c: found, and the bad key makes srtctl drop it */
	struct cluster cl = CLUSTER_INIT;
	cluster_discover(&cl, c3);
	assert_int_equal(cl.state, CLUSTER_IGNORED);
	assert_string_equal(cl.origin, "2 levels up");
	assert_int_equal(cl.diags.n, 1);
	assert_int_equal(cl.diags.v[0].line, 3);
	assert_int_equal(cl.diags.v[0].col, 1);
	cluster_release(&cl);

	/* three levels up is out of srtctl's reach */
	cluster_discover(&cl, d);
	assert_int_equal(cl.state, CLUSTER_NONE);
	cluster_release(&cl);

	/* the environment's srtctl dir counts when none is given */
	write_file(file, "default_partition: gpu\n");
	setenv("SRT_TUI_SRTCTL_DIR", b, 1);
	cluster_discover(&cl, NULL);
	assert_int_equal(cl.state, CLUSTER_LOADED);
	assert_string_equal(cl.origin, "1 level up");
	assert_string_equal(cluster_str(&cl, "default_partition", NULL), "gpu");
	cluster_release(&cl);
	unsetenv("SRT_TUI_SRTCTL_DIR");

	/* SRTSLURM_CONFIG set but missing: no cluster file at all, even with one near */
	char *missing = xasprintf("%s/nope.yaml", top);
	setenv("SRTSLURM_CONFIG", missing, 1);
	cluster_discover(&cl, a);
	assert_int_equal(cl.state, CLUSTER_IGNORED);
	assert_string_equal(cl.diags.v[0].code, "cluster-env-missing");
	cluster_release(&cl);
	setenv("SRTSLURM_CONFIG", file, 1);
	cluster_discover(&cl, d);
	assert_int_equal(cl.state, CLUSTER_LOADED);
	assert_string_equal(cl.origin, "SRTSLURM_CONFIG");
	cluster_release(&cl);
	unsetenv("SRTSLURM_CONFIG");

	unlink(file);
	rmdir(d);
	rmdir(c3);
	rmdir(b);
	rmdir(a);
	rmdir(top);
	free(missing);
	free(file);
	free(a);
	free(b);
	free(c3);
	free(d);
}

static void loaded(struct cluster *c, const char *json)
{
	memset(c, 0, sizeof(*c));
	c->state = CLUSTER_LOADED;
	c->cfg = jl(json);
}

static char *dumps(json_t *v)
{
	return json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER);
}

static void expect_apply(const char *cluster, const char *recipe, const char *want,
			 const char *want_prov)
{
	struct cluster c;
	struct cluster_provs p = CLUSTER_PROVS_INIT;
	struct strbuf sb = STRBUF_INIT;
	json_t *orig = jl(recipe);
	char *before = dumps(orig);
	/* applied as the typed view does it: the tree the result shares
	 * everything untouched with must come out unchanged */
	loaded(&c, cluster);
	json_t *r = cluster_applied(&c, orig, &p);
	char *got = dumps(r), *after = dumps(orig);
	if (strcmp(got, want))
		fail_msg("apply %s to %s:\n got  %s\n want %s", cluster, recipe, got, want);
	if (strcmp(before, after))
		fail_msg("apply %s changed the tree it was copied from:\n was %s\n now %s", cluster, before, after);
	free(before);
	free(after);
	json_decref(orig);
	for (size_t i = 0; i < p.n; i++)
		strbuf_addf(&sb, "%s%s<-%s", i ? "|" : "", p.v[i].path, p.v[i].source);
	if (strcmp(sb_str(&sb), want_prov))
		fail_msg("provenance:\n got  %s\n want %s", sb_str(&sb), want_prov);
	free(got);
	strbuf_release(&sb);
	cluster_provs_release(&p);
	json_decref(r);
	cluster_release(&c);
}

static void test_apply(void **state)
{
	(void)state;
	/* slurm: only absent keys; an explicit null stays null */
	expect_apply("{\"default_account\":\"acc\",\"default_partition\":\"gpu\",\"default_time_limit\":\"04:00:00\"}",
		     "{\"slurm\":{\"partition\":null}}",
		     "{\"slurm\":{\"partition\":null,\"account\":\"acc\",\"time_limit\":\"04:00:00\"}}",
		     "slurm.account<-cluster: default_account|slurm.time_limit<-cluster: default_time_limit");
	/* resources: gpu_type when falsy, gpus_per_node when absent; nothing
	 * when the recipe has no resources mapping */
	expect_apply("{\"default_gpu_type\":\"b200\",\"gpus_per_node\":8}",
		     "{\"resources\":{\"gpu_type\":\"\"}}",
		     "{\"resources\":{\"gpu_type\":\"b200\",\"gpus_per_node\":8},\"slurm\":{}}",
		     "resources.gpu_type<-cluster: default_gpu_type|resources.gpus_per_node<-cluster: gpus_per_node");
	expect_apply("{\"gpus_per_node\":8}", "{}", "{\"slurm\":{}}", "");
	expect_apply("{\"gpus_per_node\":8}", "{\"resources\":{\"gpus_per_node\":4}}",
		     "{\"resources\":{\"gpus_per_node\":4},\"slurm\":{}}", "");
	/* sbatch directives per key, the recipe's wins */
	expect_apply("{\"default_sbatch_directives\":{\"qos\":\"high\",\"mem\":\"0\"}}",
		     "{\"sbatch_directives\":{\"qos\":\"low\"}}",
		     "{\"sbatch_directives\":{\"qos\":\"low\",\"mem\":\"0\"},\"slurm\":{}}",
		     "sbatch_directives.mem<-cluster: default_sbatch_directives");
	/* aliases: model.path, every container key, never under env/args/identity */
	expect_apply("{\"model_paths\":{\"m\":\"/models/m\"},\"containers\":{\"v\":\"/c/v.sqsh\"}}",
		     "{\"model\":{\"path\":\"m\",\"container\":\"v\"},\"frontend\":{\"nginx_container\":\"v\"},"
		     "\"services\":[{\"name\":\"x\",\"container\":\"v\",\"env\":{\"image\":\"v\"}}],"
		     "\"identity\":{\"container\":{\"image\":\"v\"}},\"roles\":{\"agg\":{\"args\":{\"image\":\"v\"}}}}",
		     "{\"model\":{\"path\":\"/models/m\",\"container\":\"/c/v.sqsh\"},\"frontend\":{\"nginx_container\":\"/c/v.sqsh\"},"
		     "\"services\":[{\"name\":\"x\",\"container\":\"/c/v.sqsh\",\"env\":{\"image\":\"v\"}}],"
		     "\"identity\":{\"container\":{\"image\":\"v\"}},\"roles\":{\"agg\":{\"args\":{\"image\":\"v\"}}},\"slurm\":{}}",
		     "model.path<-cluster alias m|model.container<-cluster alias v|"
		     "frontend.nginx_container<-cluster alias v|services[0].container<-cluster alias v");
	/* whole blocks only when the recipe has none */
	expect_apply("{\"default_health_check\":{\"max_attempts\":540},\"default_host_setup\":{\"commands\":[\"a\"]}}",
		     "{\"host_setup\":{\"commands\":[]}}",
		     "{\"host_setup\":{\"commands\":[]},\"slurm\":{},\"health_check\":{\"max_attempts\":540}}",
		     "health_check<-cluster: default_health_check");
	/* use_het_jobs when het_jobs is null or absent */
	expect_apply("{\"use_het_jobs\":true}", "{\"resources\":{\"het_jobs\":null}}",
		     "{\"resources\":{\"het_jobs\":true},\"slurm\":{}}", "resources.het_jobs<-cluster: use_het_jobs");
}

static void test_container_check(void **state)
{
	(void)state;
	struct cluster c;
	char *msg;
	loaded(&c, "{\"containers\":{\"vllm\":\"/c/v.sqsh\"}}");
	assert_int_equal(cluster_check_container(&c, "vllm", &msg), 0);
	assert_int_equal(cluster_check_container(&c, "/abs/x.sqsh", &msg), 0);
	assert_int_equal(cluster_check_container(&c, "nvcr.io/nvidia/x:1.0", &msg), 0);
	assert_int_equal(cluster_check_container(&c, "vllm-lmcache", &msg), 2);
	assert_non_null(strstr(msg, "Container 'vllm-lmcache' is not a local container path"));
	free(msg);
	assert_int_equal(cluster_check_container(&c, "images/x.sqsh", &msg), 1);
	free(msg);
	cluster_release(&c);
	struct cluster none = CLUSTER_INIT;
	assert_int_equal(cluster_check_container(&none, "vllm-lmcache", &msg), 3);
	assert_null(msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lint),
		cmocka_unit_test(test_schema_keys),
		cmocka_unit_test(test_discover),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_container_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
