/* host_setup in the launch plan.  Expected lines from srtctl's rules
 * (cli/do_sweep.py at d9d9b89, the same at 01aebde): one bare-host srun per
 * node of ["bash", "-c", " && ".join(commands)], no container, output
 * logs/host_<phase>_<node>.out; the nodes are runtime.nodes.compute, with
 * the head and infra nodes in front for nodes: all (the default),
 * deduplicated; setup runs before anything else, teardown after the
 * benchmark, and a teardown-only block still arms teardown
 * (HostSetupConfig.enabled is "commands or teardown"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/recipe.h"
#include "lib/util.h"
#include "render/plan.h"
#include "tests/unit/testutil.h"
#include "tests/unit/plan_testutil.h"

#define HEAD "\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", " \
	     "\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, \"engine\": \"sglang\", " \
	     "\"roles\": {\"agg\": {\"nodes\": 1, \"workers\": 2, \"gpus\": 1}}, " \
	     "\"benchmark\": {\"type\": \"sa-bench\", \"isl\": 8, \"osl\": 8, \"concurrencies\": \"1\"}, "

static const char *step_at(const char *o, const char *what)
{
	const char *s = strstr(o, what);
	if (!s)
		fail_msg("want %s in:\n%s", what, o);
	return s;
}

static void test_setup_first_teardown_last(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD "\"frontend\": {\"type\": \"sglang-router\", \"enable_multiple_frontends\": "
			  "false}, \"host_setup\": {\"nodes\": \"workers\", \"commands\": [\"echo 'a'\", \"b\"], "
			  "\"teardown\": [\"c\"]}}");
	/* the commands joined by " && ", the whole script one shlex-quoted word */
	const char *s1 = step_at(o, "## <unnamed>\nnodelist: node-01\noutput: <output>/logs/host_setup_node-01.out\n"
				    "command: |\n    bash -c 'echo '\"'\"'a'\"'\"' && b'\n");
	const char *s3 = step_at(o, "## <unnamed>\nnodelist: node-03\noutput: <output>/logs/host_setup_node-03.out\n"
				    "command: |\n");
	const char *w = step_at(o, "## agg_0_node-01\n");
	const char *b = step_at(o, "output: <output>/logs/benchmark.out\n");
	const char *t1 = step_at(o, "## <unnamed>\nnodelist: node-01\noutput: <output>/logs/host_teardown_node-01.out\n"
				    "command: |\n    bash -c c\n");
	const char *t3 = step_at(o, "## <unnamed>\nnodelist: node-03\noutput: <output>/logs/host_teardown_node-03.out\n");
	assert_true(s1 < s3 && s3 < w && w < b && b < t1 && t1 < t3);
	/* the snapshot harness's three mock nodes are the compute nodes */
	assert_non_null(strstr(o, "host_setup_node-02.out\n"));
	assert_null(strstr(o, "host_setup_node-04"));
	free(o);
}

static void test_teardown_only(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD "\"frontend\": {\"type\": \"sglang-router\", \"enable_multiple_frontends\": "
			  "false}, \"host_setup\": {\"teardown\": [\"x\", \"y\"]}}");
	assert_null(strstr(o, "host_setup_"));
	step_at(o, "output: <output>/logs/host_teardown_node-01.out\ncommand: |\n    bash -c 'x && y'\n");
	free(o);
}

static void test_none(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD "\"frontend\": {\"type\": \"sglang-router\", \"enable_multiple_frontends\": "
			  "false}}");
	assert_null(strstr(o, "/logs/host_"));
	free(o);
}

/* nodes: all puts the head and infra nodes in front of the compute nodes,
 * in that order; a service on a dedicated node makes that node the infra
 * node, not a compute node, so only "all" reaches it */
static void test_all_vs_workers(void **state)
{
	(void)state;
	const char *fe = "\"frontend\": {\"type\": \"sglang-router\", \"enable_multiple_frontends\": false}, "
			 "\"services\": [{\"name\": \"side\", \"command\": [\"sleep\", \"1\"], "
			 "\"placement\": {\"node\": \"dedicated\"}}], ";
	char *j = xasprintf("{" HEAD "%s\"host_setup\": {\"commands\": [\"z\"]}}", fe);
	char *o = tu_plan_of(j);
	const char *h = step_at(o, "nodelist: node-02\noutput: <output>/logs/host_setup_node-02.out\n");
	const char *in = step_at(o, "nodelist: node-01\noutput: <output>/logs/host_setup_node-01.out\n");
	const char *c = step_at(o, "nodelist: node-03\noutput: <output>/logs/host_setup_node-03.out\n");
	assert_true(h < in && in < c);
	/* node-02, the head, once */
	assert_null(strstr(strstr(o, "host_setup_node-02.out") + 1, "host_setup_node-02.out"));
	free(o);
	free(j);
	j = xasprintf("{" HEAD "%s\"host_setup\": {\"nodes\": \"workers\", \"commands\": [\"z\"]}}", fe);
	o = tu_plan_of(j);
	assert_null(strstr(o, "host_setup_node-01.out"));
	step_at(o, "host_setup_node-02.out\n");
	free(o);
	free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup_first_teardown_last),
		cmocka_unit_test(test_teardown_only),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_all_vs_workers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
