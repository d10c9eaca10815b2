/* The wizard's document operations on the real templates: each changes only
 * what it must (comments and other lines stay), and the results are what
 * srtctl expects. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "model/validate.h"
#include "tui/widget_connector.h"
#include "tui/widget_services.h"
#include "tui/wizard.h"

static struct doc *load(const char *name)
{
	const struct template *t = wizard_template(name);
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d;

	assert_non_null(t);
	d = doc_load(name, t->text, strlen(t->text), &dl);
	assert_non_null(d);
	diag_list_release(&dl);
	return d;
}

/* Split into lines (each keeps its '\n'); returns the count. */
static size_t lines(const char *s, const char ***out)
{
	size_t n = 0, alloc = 0;
	const char **v = NULL;

	while (*s) {
		ALLOC_GROW(v, n + 1, alloc);
		v[n++] = s;
		s += strcspn(s, "\n");
		if (*s)
			s++;
	}
	*out = v;
	return n;
}

static int line_eq(const char *a, const char *b)
{
	size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
	return la == lb && !memcmp(a, b, la);
}

/* How many lines an edit removed and added: what is left after the common
 * leading and trailing lines. */
static void changed_lines(const char *a, const char *b, int *removed, int *added)
{
	const char **la, **lb;
	size_t na = lines(a, &la), nb = lines(b, &lb), pre = 0, suf = 0;

	while (pre < na && pre < nb && line_eq(la[pre], lb[pre]))
		pre++;
	while (suf < na - pre && suf < nb - pre && line_eq(la[na - 1 - suf], lb[nb - 1 - suf]))
		suf++;
	*removed = (int)(na - pre - suf);
	*added = (int)(nb - pre - suf);
	free(la);
	free(lb);
}

static char *text(struct doc *d)
{
	size_t n;
	return xstrdup(doc_text(d, &n));
}

static size_t errors(struct doc *d)
{
	struct diag_list dl = DIAG_LIST_INIT;
	size_t n;

	validate_doc(d, &dl);
	n = diag_count(&dl, DIAG_ERROR);
	for (size_t i = 0; i < dl.n; i++)
		if (dl.v[i].severity == DIAG_ERROR)
			print_message("unexpected error: %s: %s\n", dl.v[i].path, dl.v[i].message);
	diag_list_release(&dl);
	return n;
}

static void test_lmc_field_changes_one_line(void **state)
{
	struct doc *d = load("vllm-lmcache-agg");
	char *before = text(d), *after, *err = NULL;
	int rem, add;
	json_t *args;

	(void)state;
	assert_int_equal(svc_set_flag(d, 0, lmc_flag_find("--l1-size-gb", NULL), "32", &err), 0);
	after = text(d);
	changed_lines(before, after, &rem, &add);
	assert_int_equal(rem, 1);
	assert_int_equal(add, 1);
	assert_non_null(strstr(after, "      - \"32\"\n"));
	args = wiz_get(d, "services[0].args");
	assert_string_equal(json_string_value(json_array_get(args, 1)), "32");
	json_decref(args);
	/* The same value again changes nothing. */
	assert_int_equal(svc_set_flag(d, 0, lmc_flag_find("--l1-size-gb", NULL), "32", &err), 0);
	free(before);
	before = after;
	after = text(d);
	assert_string_equal(before, after);
	/* Removing a flag removes its two lines. */
	assert_int_equal(svc_set_flag(d, 0, lmc_flag_find("--max-workers", NULL), "", &err), 0);
	free(after);
	after = text(d);
	changed_lines(before, after, &rem, &add);
	assert_int_equal(rem, 2);
	assert_int_equal(add, 0);
	assert_int_equal(errors(d), 0);
	free(before);
	free(after);
	doc_free(d);
}

static void test_topology_switch(void **state)
{
	struct doc *d = load("vllm-lmcache-agg");
	json_t *agg = wiz_get(d, "roles.agg"), *pre, *dec;
	char *orig = text(d), *err = NULL, *t;

	(void)state;
	assert_int_equal(wiz_set_disagg(d, 1, &err), 0);
	assert_null(wiz_get(d, "roles.agg"));
	pre = wiz_get(d, "roles.prefill");
	dec = wiz_get(d, "roles.decode");
	assert_true(json_equal(pre, agg));
	assert_true(json_equal(dec, agg));
	t = text(d);
	assert_non_null(strstr(t, "  prefill:\n    nodes: 1\n"));
	free(t);
	json_decref(pre);
	json_decref(dec);
	/* And back: the prefill role becomes agg again, decode goes. */
	assert_int_equal(wiz_set_disagg(d, 0, &err), 0);
	pre = wiz_get(d, "roles.agg");
	assert_true(json_equal(pre, agg));
	assert_null(wiz_get(d, "roles.decode"));
	t = text(d);
	assert_string_equal(t, orig); /* the round trip restores the bytes */
	free(t);
	json_decref(pre);
	json_decref(agg);
	free(orig);
	doc_free(d);
}

static void test_multiconnector_on_prefill(void **state)
{
	struct doc *d = load("vllm-disagg");
	struct conn_multi m = CONN_MULTI_INIT;
	char *json, *err = NULL;
	const char *got;

	(void)state;
	conn_multi_default(&m);
	json = conn_multi_json(&m);
	assert_int_equal(conn_set_role(d, "prefill", json, &err), 0);
	got = wiz_get_str(d, "roles.prefill.args.connector");
	assert_non_null(got);
	assert_string_equal(got, json);
	/* Raw JSON that does not parse is refused and the doc is unchanged. */
	assert_int_equal(conn_set_role(d, "prefill", "{\"kv_connector\":", &err), -1);
	assert_non_null(err);
	free(err);
	err = NULL;
	assert_string_equal(wiz_get_str(d, "roles.prefill.args.connector"), json);
	/* Back to following the engine. */
	assert_int_equal(conn_set_role(d, "prefill", NULL, &err), 0);
	assert_null(wiz_get_str(d, "roles.prefill.args.connector"));
	free(json);
	conn_multi_release(&m);
	doc_free(d);
}

static void test_atom_entries(void **state)
{
	struct doc *d = load("atom-disagg");
	char *err = NULL;
	json_t *v;

	(void)state;
	assert_int_equal(atom_kv_add(d, "prefill", ATOM_KV_OFFLOAD, &err), 0);
	assert_int_equal(atom_kv_add(d, "prefill", ATOM_KV_MP, &err), 0);
	v = wiz_get(d, "roles.prefill.args.extra-kv-connectors");
	assert_int_equal(json_array_size(v), 2);
	json_decref(v);
	assert_int_equal(atom_kv_set(d, "prefill", 0, "lmcache.chunk_size", "512", &err), 0);
	v = wiz_get(d, "roles.prefill.args.extra-kv-connectors[0].\"lmcache.chunk_size\"");
	assert_true(json_is_integer(v));
	assert_int_equal(json_integer_value(v), 512);
	json_decref(v);
	assert_int_equal(atom_kv_set(d, "prefill", 1, "kv_connector_extra_config.lmcache.mp.port",
				     "9750", &err), 0);
	v = wiz_get(d, "roles.prefill.args.extra-kv-connectors[1].kv_connector_extra_config.\"lmcache.mp.port\"");
	assert_int_equal(json_integer_value(v), 9750);
	json_decref(v);
	assert_int_equal(atom_kv_set(d, "prefill", 0, "lmcache.local_cpu", "maybe", &err), -1);
	free(err);
	err = NULL;
	assert_int_equal(atom_kv_delete(d, "prefill", 1, &err), 0);
	assert_int_equal(atom_kv_delete(d, "prefill", 0, &err), 0);
	assert_null(wiz_get(d, "roles.prefill.args.extra-kv-connectors"));
	doc_free(d);
}

static void test_services_list(void **state)
{
	struct doc *d = load("vllm-agg");
	char *err = NULL;
	json_t *v;
	struct strvec extra = STRVEC_INIT;

	(void)state;
	assert_int_equal(svc_add(d, "lmcache-server", "lmcache", &err), 0);
	assert_int_equal(svc_add(d, "generic", "probe", &err), 0);
	v = wiz_get(d, "services");
	assert_int_equal(json_array_size(v), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(v, 0), "name")), "lmcache");
	json_decref(v);
	assert_int_equal(svc_move(d, 1, 0, &err), 0);
	assert_string_equal(wiz_get_str(d, "services[0].name"), "probe");
	strvec_push(&extra, "--log-level");
	strvec_push(&extra, "INFO");
	assert_int_equal(svc_set_extra_args(d, 1, &extra, &err), 0);
	v = wiz_get(d, "services[1].args");
	assert_int_equal(json_array_size(v), 8); /* the 6 of a new server, then the extra 2 */
	assert_string_equal(json_string_value(json_array_get(v, 6)), "--log-level");
	json_decref(v);
	assert_int_equal(svc_remove(d, 0, &err), 0);
	assert_string_equal(wiz_get_str(d, "services[0].name"), "lmcache");
	strvec_release(&extra);
	doc_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lmc_field_changes_one_line),
		cmocka_unit_test(test_topology_switch),
		cmocka_unit_test(test_multiconnector_on_prefill),
		cmocka_unit_test(test_atom_entries),
		cmocka_unit_test(test_services_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
