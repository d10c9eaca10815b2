/* Keeping a template's comments true (wiz_fix_template_comments): what the
 * template wrote goes when the value it describes changed, the user's
 * comments stay, and a template is recognised by its comment lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "tui/wizard.h"

/* A template of our own, written for this test. */
static const struct template tmpl = {
	"t-agg", "aggregated, one server per node",
	"# Aggregated: one role, a cache server on each node\n"
	"#\n"
	"# Second header line.\n"
	"\n"
	"schema: 2\n"
	"name: \"t\"\n"
	"\n"
	"# Shared by every rank.\n"
	"environment:\n"
	"  SEED: \"0\"\n"
	"\n"
	"engine:\n"
	"  type: vllm\n"
	"  connector: lmcache-mp   # for every role\n"
	"\n"
	"roles:\n"
	"  agg:\n"
	"    workers: 2            # two per node\n"
	"    gpus: 1\n",
};

static char *fix(const char *text, size_t *dropped)
{
	return wiz_fix_template_comments(text, &tmpl, dropped);
}

static void test_unchanged_keeps_everything(void **state)
{
	size_t n = 99;
	char *out = fix(tmpl.text, &n);
	(void)state;
	assert_int_equal(n, 0);
	assert_string_equal(out, tmpl.text);
	free(out);
}

static void test_changed_values_drop_their_comments(void **state)
{
	size_t n = 0;
	/* the user changed workers and the environment, and wrote a comment */
	const char *text =
		"# Aggregated: one role, a cache server on each node\n"
		"#\n"
		"# Second header line.\n"
		"\n"
		"schema: 2\n"
		"name: \"t\"\n"
		"\n"
		"# Shared by every rank.\n"
		"environment:\n"
		"  SEED: \"1\"\n"
		"\n"
		"engine:\n"
		"  type: vllm\n"
		"  connector: lmcache-mp   # for every role\n"
		"\n"
		"# mine: keep it\n"
		"roles:\n"
		"  agg:\n"
		"    workers: 4            # two per node\n"
		"    gpus: 1\n";
	char *out = fix(text, &n);
	(void)state;
	/* the roles keep their set (agg): the header still holds */
	assert_non_null(strstr(out, "# Aggregated: one role"));
	assert_null(strstr(out, "# Shared by every rank."));
	assert_null(strstr(out, "two per node"));
	assert_non_null(strstr(out, "    workers: 4\n"));
	assert_non_null(strstr(out, "# for every role"));
	assert_non_null(strstr(out, "# mine: keep it\n"));
	assert_int_equal(n, 2);
	free(out);
}

static void test_header_goes_when_roles_change(void **state)
{
	size_t n = 0;
	const char *text =
		"# Aggregated: one role, a cache server on each node\n"
		"#\n"
		"# Second header line.\n"
		"\n"
		"schema: 2\n"
		"name: \"t\"\n"
		"\n"
		"# Shared by every rank.\n"
		"environment:\n"
		"  SEED: \"0\"\n"
		"\n"
		"engine:\n"
		"  type: vllm\n"
		"  connector: lmcache-mp   # for every role\n"
		"\n"
		"roles:\n"
		"  prefill:\n"
		"    workers: 2\n"
		"  decode:\n"
		"    workers: 2\n";
	char *out = fix(text, &n);
	(void)state;
	assert_null(strstr(out, "Aggregated"));
	assert_null(strstr(out, "Second header line"));
	assert_true(!strncmp(out, "# Started from the srt-tui template t-agg", 41));
	assert_non_null(strstr(out, "\nschema: 2\n"));
	assert_non_null(strstr(out, "# Shared by every rank.\nenvironment:"));
	free(out);
}

static void test_user_header_is_kept(void **state)
{
	size_t n = 0;
	const char *text =
		"# my own header\n"
		"# Aggregated: one role, a cache server on each node\n"
		"\n"
		"schema: 2\n"
		"roles:\n"
		"  prefill: {}\n";
	char *out = fix(text, &n);
	(void)state;
	/* a block with a line the template does not have is the user's */
	assert_string_equal(out, text);
	assert_int_equal(n, 0);
	free(out);
}

static void test_template_of(void **state)
{
	(void)state;
	assert_int_equal(wiz_template_score(tmpl.text, &tmpl), 3); /* whole comment lines but "#" */
	assert_int_equal(wiz_template_score("schema: 2\n", &tmpl), 0);
	/* the compiled-in templates recognise themselves */
	for (size_t i = 0; i < templates_count; i++)
		if (wiz_template_score(templates[i].text, &templates[i]) > 0)
			assert_ptr_equal(wiz_template_of(templates[i].text), &templates[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unchanged_keeps_everything),
		cmocka_unit_test(test_changed_values_drop_their_comments),
		cmocka_unit_test(test_header_goes_when_roles_change),
		cmocka_unit_test(test_user_header_is_kept),
		cmocka_unit_test(test_template_of),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
