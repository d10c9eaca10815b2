/* The `lmcache server` flag table (model/kinds_lmcache.c) and what is built
 * on it: every flag parsed, set and rendered; each lmcache-server diagnostic
 * with a failing and a passing recipe at its exact path and line:col; the
 * implied server; the placement rule; every template's and example's
 * launched servers checked against the table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "model/lmc_args.h"
#include "model/ops_services.h"
#include "model/recipe.h"
#include "model/validate.h"
#include "model/worker_ports.h"
#include "render/service.h"
#include "tests/unit/testutil.h"
#include "tui/templates.h"

/* ---- fixtures ----------------------------------------------------------------- */

/* Lines 1-18; the server's args start at line 19 (items located at their dash, column 7). */
#define BASE                                                                   \
	"schema: 2\n"                                 /*  1 */                     \
	"name: t\n"                                   /*  2 */                     \
	"model:\n"                                    /*  3 */                     \
	"  path: m\n"                                 /*  4 */                     \
	"  container: c\n"                            /*  5 */                     \
	"  precision: bf16\n"                         /*  6 */                     \
	"resources:\n"                                /*  7 */                     \
	"  gpus_per_node: 8\n"                        /*  8 */                     \
	"engine: {type: vllm, connector: lmcache-mp}\n" /* 9 */                    \
	"roles:\n"                                    /* 10 */                     \
	"  agg:\n"                                    /* 11 */                     \
	"    nodes: 2\n"                              /* 12 */                     \
	"    workers: 2\n"                            /* 13 */                     \
	"    gpus: 8\n"                               /* 14 */
#define SERVER                                                                 \
	"services:\n"                                 /* 15 */                     \
	"  - name: lmc\n"                             /* 16 */                     \
	"    type: lmcache-server\n"                  /* 17 */                     \
	"    env: {PYTHONHASHSEED: \"0\"}\n"          /* 18 */                     \
	"    args:\n"                                 /* 19 */                     \
	"      - --l1-size-gb\n"                      /* 20: args[0] */            \
	"      - \"8\"\n"                             /* 21 */                     \
	"      - --eviction-policy\n"                 /* 22: args[2] */
#define LRU "      - LRU\n"                       /* 23: args[3] */

static struct doc *load(const char *text)
{
	struct diag_list dl = DIAG_LIST_INIT;
	struct doc *d = doc_load("t.yaml", text, strlen(text), &dl);

	assert_non_null(d);
	diag_list_release(&dl);
	return d;
}

/* The diagnostic with code in text's validation (NULL when absent); the
 * list is returned in *l for the caller to release. */
static const struct diag *find(const char *text, const char *code, struct diag_list *l)
{
	struct doc *d = load(text);

	validate_doc(d, l);
	doc_free(d);
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].code, code))
			return &l->v[i];
	return NULL;
}

static void expect_at(const char *text, const char *code, enum diag_severity sev,
		      const char *path, int line, int col, const char *msg_part)
{
	struct diag_list l = DIAG_LIST_INIT;
	const struct diag *g = find(text, code, &l);

	if (!g) {
		for (size_t i = 0; i < l.n; i++)
			print_message("  have %d:%d [%s] %s\n", l.v[i].line, l.v[i].col, l.v[i].code,
				      l.v[i].message);
		fail_msg("no [%s]", code);
	}
	assert_int_equal(g->severity, sev);
	assert_string_equal(g->path, path);
	if (g->line != line || g->col != col)
		fail_msg("[%s] at %d:%d, expected %d:%d", code, g->line, g->col, line, col);
	if (msg_part && !strstr(g->message, msg_part) && !(g->hint && strstr(g->hint, msg_part)))
		fail_msg("[%s] says '%s' (hint '%s'), not '%s'", code, g->message,
			 g->hint ? g->hint : "", msg_part);
	assert_true(g->hint && *g->hint);
	diag_list_release(&l);
}

static void expect_none(const char *text, const char *code)
{
	struct diag_list l = DIAG_LIST_INIT;
	const struct diag *g = find(text, code, &l);

	if (g)
		fail_msg("unexpected [%s] %s: %s", code, g->path, g->message);
	diag_list_release(&l);
}

/* No diagnostic at all (warnings included). */
static void expect_clean(const char *text)
{
	struct diag_list l = DIAG_LIST_INIT;
	struct doc *d = load(text);

	validate_doc(d, &l);
	doc_free(d);
	for (size_t i = 0; i < l.n; i++)
		print_message("  %d:%d [%s] %s\n", l.v[i].line, l.v[i].col, l.v[i].code, l.v[i].message);
	assert_int_equal(l.n, 0);
	diag_list_release(&l);
}

/* ---- the table, flag by flag ---------------------------------------------------- */

static json_t *strs(const char *const *v)
{
	json_t *a = json_array();
	for (; *v; v++)
		json_array_append_new(a, json_string(*v));
	return a;
}

/* A value of f's type that LMCache accepts. */
static const char *sample(const struct lmc_flag *f)
{
	switch (f->type) {
	case LMC_INT: return "7";
	case LMC_FLOAT: return "0.5";
	case LMC_CHOICE: return f->choices[0];
	case LMC_JSON:
		return !strcmp(f->name, "--l2-adapter") ? "{\"type\": \"fs\", \"base_path\": \"/raid/lmc\"}"
		       : !strcmp(f->name, "--l1-manager") ? "{\"type\": \"DRAM\", \"tag\": \"_default\", \"size_gb\": 8}"
		       : "{}";
	case LMC_SWITCH: return "on";
	case LMC_BOOLOPT: return "off";
	default: return "x";
	}
}

/* Set f on args with the planner, read it back, render the server and check
 * the rendered argv against the table: nothing to say. */
static void set_read_render(const char *const *base, const struct lmc_flag *f, const char *v)
{
	json_t *args = strs(base), *after, *root;
	struct list_ops ops = LIST_OPS_INIT;
	struct diag_list l = DIAG_LIST_INIT;
	struct strvec argv = STRVEC_INIT;
	struct service_vars vars;
	struct recipe r;
	char *got;

	lmc_plan_set(&ops, args, f, v);
	after = list_ops_apply(args, &ops);
	got = lmc_value(after, f);
	if (!got || strcmp(got, v))
		fail_msg("%s: set '%s', read '%s'", f->name, v, got ? got : "(null)");
	free(got);
	/* rendered: the fixed prefix, then the args verbatim (spec §5.1) */
	root = json_pack("{s:s, s:{s:s, s:s}, s:{s:{s:i, s:i, s:i}}, s:[{s:s, s:s, s:O}]}",
			 "name", "t", "engine", "type", "vllm", "connector", "lmcache-mp", "roles", "agg",
			 "nodes", 1, "workers", 1, "gpus", 1, "services", "name", "lmc", "type",
			 KIND_NAME(KIND_LMCACHE_SERVER), "args", after);
	recipe_init(&r, root);
	memset(&vars, 0, sizeof(vars));
	const struct service *s = recipe_service(&r, "lmc");
	assert_non_null(s);
	service_argv(&r, s, &vars, &argv);
	json_t *rendered = json_array();
	for (size_t i = 0; i < argv.n; i++)
		json_array_append_new(rendered, json_string(argv.v[i]));
	assert_string_equal(argv.v[0], "lmcache");
	assert_string_equal(argv.v[1], "server");
	assert_int_equal(argv.n, 10 + json_array_size(after));
	for (size_t i = 0; i < json_array_size(after); i++)
		assert_string_equal(argv.v[10 + i], json_string_value(json_array_get(after, i)));
	lmc_check_argv(rendered, 2, 1, "lmc", "argv", "", &l);
	for (size_t i = 0; i < l.n; i++)
		print_message("  %s: [%s] %s\n", f->name, l.v[i].code, l.v[i].message);
	assert_int_equal(l.n, 0);
	diag_list_release(&l);
	json_decref(rendered);
	strvec_release(&argv);
	recipe_release(&r);
	json_decref(root);
	json_decref(after);
	json_decref(args);
	list_ops_release(&ops);
}

static void test_every_flag(void **state)
{
	static const char *const legacy[] = { "--l1-size-gb", "8", "--eviction-policy", "LRU", NULL };
	static const char *const none[] = { NULL };
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < lmc_flags_count; i++) {
		const struct lmc_flag *f = &lmc_flags[i];
		int neg = -1;
		/* every name is found, and only as itself */
		assert_ptr_equal(lmc_flag_find(f->name, &neg), f);
		assert_int_equal(neg, 0);
		assert_non_null(f->help);
		{
			/* every flag says which releases have it */
			char since[160];
			assert_true(*lmc_since_text(&f->since, since, sizeof(since)));
		}
		if (f->owned)
			continue; /* srtctl's: test_owned_flags */
		/* --l1-manager replaces the legacy L1 flags (LMCache refuses both) */
		const char *const *base = !strcmp(f->name, "--l1-manager") ? none : legacy;
		set_read_render(base, f, sample(f));
		if (f->type == LMC_BOOLOPT) {
			int m = 0;
			char *neg_name = xasprintf("--no-%s", f->name + 2);
			assert_ptr_equal(lmc_flag_find(neg_name, &m), f);
			assert_int_equal(m, 1);
			free(neg_name);
			set_read_render(base, f, "on");
		}
		if (f->type == LMC_CHOICE)
			for (const char *const *c = f->choices; *c; c++)
				/* IsolatedLRU and ARC (main only) warn: test_diagnostics */
				if (strcmp(*c, "IsolatedLRU") && strcmp(*c, "ARC"))
					set_read_render(base, f, *c);
		n++;
	}
	assert_true(n >= 50);
	/* the required ones are the two every legacy-L1 server needs */
	assert_true(lmc_flag_find("--l1-size-gb", NULL)->required);
	assert_true(lmc_flag_find("--eviction-policy", NULL)->required);
	assert_string_equal(lmc_flag_find("--prometheus-port", NULL)->dflt, "9090");
	assert_null(lmc_flag_find("--l1-size", NULL));
}

static void test_owned_flags(void **state)
{
	struct diag_list l = DIAG_LIST_INIT;
	char port[16], http[16];
	size_t owned = 0;

	(void)state;
	snprintf(port, sizeof(port), "%d", LMCACHE_RPC_PORT);
	snprintf(http, sizeof(http), "%d", LMCACHE_HTTP_PORT);
	/* the kind's command writes exactly the owned flags, with the kinds' ports */
	const char *const *c = svc_kinds[KIND_LMCACHE_SERVER].command;
	for (size_t i = 2; c[i]; i += 2) {
		const struct lmc_flag *f = lmc_flag_find(c[i], NULL);
		assert_non_null(f);
		assert_true(f->owned);
		if (lmc_flag_owned_port(f))
			assert_int_equal(atoi(c[i + 1]), lmc_flag_owned_port(f));
		owned++;
	}
	assert_int_equal(owned, 4);
	for (size_t i = 0; i < lmc_flags_count; i++) {
		const struct lmc_flag *f = &lmc_flags[i];
		if (!f->owned)
			continue;
		const char *v[] = { "--l1-size-gb", "8", "--eviction-policy", "LRU", f->name, "1", NULL };
		json_t *a = strs(v);
		lmc_check_argv(a, 0, 0, "lmc", "services[lmc].args", "services[lmc]", &l);
		assert_int_equal(l.n, 1);
		assert_string_equal(l.v[0].path, "services[lmc].args[4]");
		assert_string_equal(l.v[0].code, lmc_flag_owned_port(f) || !strstr(f->name, "host")
						 ? "lmcache-server-port" : "lmcache-server-host");
		diag_list_clear(&l);
		json_decref(a);
	}
	diag_list_release(&l);
	(void)port;
	(void)http;
}

/* ---- each diagnostic: failing, then passing ------------------------------------------ */

static void test_diagnostics(void **state)
{
	(void)state;
	/* the fixture itself is clean */
	expect_clean(BASE SERVER LRU);

	/* required flag missing (current LMCache: both --l1-size-gb and --eviction-policy) */
	expect_at(BASE "services:\n  - name: lmc\n    type: lmcache-server\n"
		       "    env: {PYTHONHASHSEED: \"0\"}\n    args: [--l1-size-gb, \"8\"]\n",
		  "lmcache-server-required-flag", DIAG_ERROR, "services[lmc]", 16, 3, "--eviction-policy");
	expect_none(BASE SERVER LRU, "lmcache-server-required-flag");

	/* a refused eviction policy: the old in-process cache_policy values, a typo */
	expect_at(BASE SERVER "      - LFU\n", "lmcache-eviction-policy", DIAG_ERROR,
		  "services[lmc].args[3]", 23, 7, "old in-process");
	expect_at(BASE SERVER "      - lru\n", "lmcache-eviction-policy", DIAG_ERROR,
		  "services[lmc].args[3]", 23, 7, "LRU");
	expect_none(BASE SERVER "      - ARC\n", "lmcache-eviction-policy");

	/* IsolatedLRU: accepted, but the eviction thread dies (LMCache #4817) */
	expect_at(BASE SERVER "      - IsolatedLRU\n", "lmcache-eviction-isolated", DIAG_WARNING,
		  "services[lmc].args[3]", 23, 7, "#4817");
	expect_none(BASE SERVER LRU, "lmcache-eviction-isolated");

	/* releases differ: the refusal names the release of each value (LRU
	 * from the first `lmcache server`, IsolatedLRU from v0.4.5, PR #3137
	 * of late April 2026); ARC is only in main (PR #4994), so a released
	 * server refuses it: a warning; LRU and noop get none */
	expect_at(BASE SERVER "      - LFU\n", "lmcache-eviction-policy", DIAG_ERROR,
		  "services[lmc].args[3]", 23, 7, "IsolatedLRU: LMCache v0.4.5 and later, PR #3137");
	expect_at(BASE SERVER "      - LFU\n", "lmcache-eviction-policy", DIAG_ERROR,
		  "services[lmc].args[3]", 23, 7, "LRU: every `lmcache server` release");
	expect_at(BASE SERVER "      - IsolatedLRU\n", "lmcache-eviction-isolated", DIAG_WARNING,
		  "services[lmc].args[3]", 23, 7, "v0.4.5 and later");
	expect_at(BASE SERVER "      - ARC\n", "lmcache-eviction-release", DIAG_WARNING,
		  "services[lmc].args[3]", 23, 7, "main only, PR #4994");
	expect_none(BASE SERVER LRU, "lmcache-eviction-release");
	expect_none(BASE SERVER "      - noop\n", "lmcache-eviction-release");
	/* the table: every value argparse accepts has its release, once */
	assert_int_equal(lmc_eviction_policies_count, 4);
	for (const char *const *c = lmc_flag_find("--eviction-policy", NULL)->choices; *c; c++)
		assert_non_null(lmc_eviction_policy(*c));
	assert_null(lmc_eviction_policy("MRU"));

	/* an unknown flag, with a did-you-mean */
	expect_at(BASE SERVER LRU "      - --l1-init-size\n      - \"4\"\n", "lmcache-unknown-flag",
		  DIAG_WARNING, "services[lmc].args[4]", 24, 7, "--l1-init-size-gb");
	expect_at(BASE SERVER LRU "      - --evicton-ratio\n      - \"0.3\"\n", "lmcache-unknown-flag",
		  DIAG_WARNING, "services[lmc].args[4]", 24, 7, "--eviction-ratio");
	expect_none(BASE SERVER LRU "      - --l1-init-size-gb\n      - \"4\"\n", "lmcache-unknown-flag");

	/* a value of the wrong type */
	expect_at(BASE SERVER LRU "      - --chunk-size\n      - abc\n", "lmcache-flag-type", DIAG_ERROR,
		  "services[lmc].args[5]", 25, 7, "integer");
	expect_at(BASE SERVER LRU "      - --eviction-ratio=much\n", "lmcache-flag-type", DIAG_ERROR,
		  "services[lmc].args[4]", 24, 7, "number");
	expect_none(BASE SERVER LRU "      - --chunk-size\n      - \"256\"\n", "lmcache-flag-type");

	/* a flag without its value; a word that belongs to no flag */
	expect_at(BASE SERVER LRU "      - --chunk-size\n", "lmcache-flag-value", DIAG_ERROR,
		  "services[lmc].args[4]", 24, 7, "expects a value");
	expect_at(BASE SERVER LRU "      - --disable-observability\n      - \"yes\"\n", "lmcache-flag-value",
		  DIAG_ERROR, "services[lmc].args[5]", 25, 7, "unrecognized arguments");
	expect_none(BASE SERVER LRU "      - --disable-observability\n", "lmcache-flag-value");

	/* an L2 adapter LMCache refuses */
	expect_at(BASE SERVER LRU "      - --l2-adapter\n      - '{\"type\": \"fs\"}'\n",
		  "lmcache-l2-adapter", DIAG_ERROR, "services[lmc].args[5]", 25, 7, "base_path");
	expect_at(BASE SERVER LRU "      - --l2-adapter\n      - '{\"type\": \"nixl_store\", \"backend\": \"POSIX\", \"pool_size\": 8}'\n",
		  "lmcache-l2-adapter", DIAG_ERROR, "services[lmc].args[5]", 25, 7, "file_path");
	expect_none(BASE SERVER LRU "      - --l2-adapter\n      - '{\"type\": \"fs\", \"base_path\": \"/raid/lmc\"}'\n",
		    "lmcache-l2-adapter");
	expect_none(BASE SERVER LRU "      - --l2-adapter\n      - '{\"type\": \"nixl_store\", \"backend\": \"POSIX\", \"pool_size\": 8, \"backend_params\": {\"file_path\": \"/raid/n\", \"use_direct_io\": \"false\"}}'\n",
		    "lmcache-l2-adapter");

	/* --l1-manager and the legacy L1 flags together */
	expect_at(BASE SERVER LRU "      - --l1-manager\n      - '{\"type\": \"DRAM\", \"tag\": \"_default\", \"size_gb\": 8}'\n",
		  "lmcache-flag-conflict", DIAG_ERROR, "services[lmc].args[0]", 20, 7, "--l1-manager");
	expect_none(BASE "services:\n  - name: lmc\n    type: lmcache-server\n    env: {PYTHONHASHSEED: \"0\"}\n"
		    "    args: [--l1-manager, '{\"type\": \"DRAM\", \"tag\": \"_default\", \"size_gb\": 8}', --eviction-policy, LRU]\n",
		    "lmcache-flag-conflict");

	/* the implied server: srtctl passes it no args */
	expect_at(BASE, "lmcache-server-implied-args", DIAG_WARNING, "engine.connector", 9, 22,
		  "passes no args");
	expect_none(BASE SERVER LRU, "lmcache-server-implied-args");

	/* a placement mapping without node: head only */
	expect_at(BASE "services:\n  - name: lmc\n    type: lmcache-server\n    placement: {per: node}\n"
		       "    env: {PYTHONHASHSEED: \"0\"}\n    args: [--l1-size-gb, \"8\", --eviction-policy, LRU]\n",
		  "lmcache-server-head-only", DIAG_WARNING, "services[lmc].placement", 18, 5,
		  "head node only");
	expect_none(BASE "services:\n  - name: lmc\n    type: lmcache-server\n    placement: {node: workers, per: node}\n"
			 "    env: {PYTHONHASHSEED: \"0\"}\n    args: [--l1-size-gb, \"8\", --eviction-policy, LRU]\n",
		    "lmcache-server-head-only");

	/* the Prometheus port against another service's port on the same nodes */
#define WEB "  - name: web\n    command: [sleep, infinity]\n    placement: {node: workers}\n" \
	    "    readiness: {port: 9090}\n"
	expect_at(BASE SERVER LRU WEB, "service-port-clash", DIAG_ERROR, "services[web]", 24, 3,
		  "services[lmc] and services[web] both listen on port 9090");
	expect_none(BASE SERVER LRU "      - --prometheus-port\n      - \"9191\"\n" WEB, "service-port-clash");
	expect_none(BASE SERVER LRU "      - --disable-observability\n" WEB, "service-port-clash");
#undef WEB

	/* a service's port against the workers' own (srtctl's ports.py): BASE
	 * runs 2 vLLM agg processes under Dynamo, one per node, so they take
	 * DYN_SYSTEM_PORT 7500..7501, the NIXL side channel 5400..5401 and
	 * KV events 5200..5201; the frontend binds 8000 on the head node */
#define WEB(node, port) "  - name: web\n    command: [sleep, infinity]\n    placement: {node: " node "}\n" \
	    "    readiness: {port: " port "}\n"
	expect_at(BASE SERVER LRU WEB("workers", "7501"), "service-port-clash", DIAG_ERROR,
		  "services[web]", 24, 3,
		  "services[web] and the agg workers both listen on port 7501 on node agg (srtctl gives the agg workers DYN_SYSTEM_PORT 7500..7501)");
	expect_none(BASE SERVER LRU WEB("workers", "7502"), "service-port-clash");
	expect_at(BASE SERVER LRU WEB("agg", "5200"), "service-port-clash", DIAG_ERROR,
		  "services[web]", 24, 3, "DYN_VLLM_KV_EVENT_PORT 5200..5201");
	/* the server's own Prometheus port on a worker's NIXL side channel */
	expect_at(BASE SERVER LRU "      - --prometheus-port\n      - \"5401\"\n", "service-port-clash",
		  DIAG_ERROR, "services[lmc]", 16, 3,
		  "services[lmc] and the agg workers both listen on port 5401 on node agg (srtctl gives the agg workers VLLM_NIXL_SIDE_CHANNEL_PORT 5400..5401)");
	/* the frontend's public port on the head node */
	expect_at(BASE SERVER LRU WEB("head", "8000"), "service-port-clash", DIAG_ERROR,
		  "services[web]", 24, 3, "services[web] and the frontend both listen on port 8000 on node head");
	expect_none(BASE SERVER LRU WEB("head", "8001"), "service-port-clash");
	/* another service on the server's RPC port */
	expect_at(BASE SERVER LRU WEB("workers", LMCACHE_RPC_PORT_S), "service-port-clash", DIAG_ERROR,
		  "services[web]", 24, 3, "services[lmc] and services[web] both listen on port " LMCACHE_RPC_PORT_S);
#undef WEB
}

/* The ports a role's workers take, against srtctl's snapshots (spec §2.3
 * and §2.4: `sglang__dynamo-agg` gives two workers on one node ports
 * 6100/17500 and 6132/17501). */
static void test_worker_ports(void **state)
{
	static const char *const text =
		"schema: 2\nname: t\nmodel: {path: m, container: c, precision: bf16}\n"
		"resources: {gpus_per_node: 8}\nengine: {type: sglang}\n"
		"roles:\n  prefill: {nodes: 1, workers: 2, gpus: 4}\n  decode: {nodes: 2, workers: 1, gpus: 16}\n";
	struct doc *d = load(text);
	json_t *root = doc_json(d);
	struct recipe r;
	struct wport_range w[16];
	int lo, hi;
	size_t n;
	int seen_http = 0, seen_boot = 0, seen_nccl = 0;

	(void)state;
	recipe_init(&r, root);
	n = role_worker_ports(&r, ROLE_PREFILL, w, 16);
	assert_true(n > 0);
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(w[i].wp->what, "--port (worker HTTP)")) {
			seen_http = 1;
			assert_true(wport_range_has(&w[i], 6132, &lo, &hi));
			assert_false(wport_range_has(&w[i], 6101, &lo, &hi));
			assert_int_equal(lo, 6100);
			assert_int_equal(hi, 6132);
		}
		if (!strcmp(w[i].wp->what, "--disaggregation-bootstrap-port")) {
			seen_boot = 1;
			assert_true(wport_range_has(&w[i], 7201, &lo, &hi));
			assert_false(wport_range_has(&w[i], 7202, &lo, &hi));
		}
		if (!strcmp(w[i].wp->what, "--nccl-port")) {
			seen_nccl = 1;
			assert_true(wport_range_has(&w[i], 17501, &lo, &hi));
			assert_false(wport_range_has(&w[i], 17502, &lo, &hi));
		}
	}
	assert_true(seen_http && seen_boot && seen_nccl);
	/* decode: one worker over two nodes is two processes after prefill's two */
	n = role_worker_ports(&r, ROLE_DECODE, w, 16);
	for (size_t i = 0; i < n; i++) {
		assert_string_not_equal(w[i].wp->what, "--disaggregation-bootstrap-port");
		if (!strcmp(w[i].wp->what, "--nccl-port")) {
			assert_true(wport_range_has(&w[i], 17502, &lo, &hi));
			assert_int_equal(hi, 17503);
		}
		if (!strcmp(w[i].wp->what, "DYN_SYSTEM_PORT"))
			assert_true(wport_range_has(&w[i], 7503, &lo, &hi));
	}
	assert_int_equal(role_worker_ports(&r, ROLE_AGG, w, 16), 0);
	recipe_release(&r);
	json_decref(root);
	doc_free(d);
}

/* ---- a server with its own command ----------------------------------------------------- */

/* services[lmc] with command (lines 18-20: the command's items at column 7)
 * and args (line 21: its items inline); srtctl runs command + args without
 * its own prefix. */
#define CMD_SERVER(cmd, args)                                                  \
	BASE "services:\n"                            /* 15 */                     \
	"  - name: lmc\n"                             /* 16 */                     \
	"    type: lmcache-server\n"                  /* 17 */                     \
	"    env: {PYTHONHASHSEED: \"0\"}\n"          /* 18 */                     \
	"    command:\n" cmd                          /* 19.. */                   \
	"    args: " args "\n"
#define LMC_CMD(extra)                                                         \
	"      - lmcache\n"                           /* 20: command[0] */         \
	"      - server\n"                            /* 21 */                     \
	"      - --port\n      - \"" LMCACHE_RPC_PORT_S "\"\n"       /* 22, 23 */   \
	"      - --http-port\n      - \"" LMCACHE_HTTP_PORT_S "\"\n" /* 24, 25 */   \
	extra

static void test_own_command(void **state)
{
	(void)state;
	/* an `lmcache server` command is checked like the default one: command
	 * words and args as one argv */
	expect_clean(CMD_SERVER(LMC_CMD(""), "[--l1-size-gb, \"8\", --eviction-policy, LRU]"));
	expect_at(CMD_SERVER(LMC_CMD(""), "[--l1-size-gb, \"8\"]"), "lmcache-server-required-flag",
		  DIAG_ERROR, "services[lmc]", 16, 3, "--eviction-policy");
	expect_at(CMD_SERVER(LMC_CMD(""), "[--l1-size-gb, \"8\", --eviction-policy, MRU]"),
		  "lmcache-eviction-policy", DIAG_ERROR, "services[lmc].args[3]", 26, 50, "MRU");
	/* a flag in the command itself is located in the command */
	expect_at(CMD_SERVER(LMC_CMD("      - --chunk-size\n      - big\n"),
			     "[--l1-size-gb, \"8\", --eviction-policy, LRU]"),
		  "lmcache-flag-type", DIAG_ERROR, "services[lmc].command[7]", 27, 7, "integer");
	/* a path to the program, or a wrapper before it, is still the server */
	expect_at(CMD_SERVER("      - numactl\n      - --interleave=all\n      - /opt/venv/bin/lmcache\n"
			     "      - server\n",
			     "[--l1-size-gb, \"8\", --eviction-policy, LFU]"),
		  "lmcache-eviction-policy", DIAG_ERROR, "services[lmc].args[3]", 24, 50, "LFU");
	/* its own command owns the ports: without srtctl's, workers and the
	 * readiness probe miss the server */
	expect_at(CMD_SERVER("      - lmcache\n      - server\n",
			     "[--l1-size-gb, \"8\", --eviction-policy, LRU]"),
		  "lmcache-server-port", DIAG_ERROR, "services[lmc].command", 19, 5,
		  LMCACHE_RPC_PORT_S);
	expect_none(CMD_SERVER(LMC_CMD(""), "[--l1-size-gb, \"8\", --eviction-policy, LRU]"),
		    "lmcache-server-port");
	/* another program: not judged (its flags are not the server's) */
	expect_none(CMD_SERVER("      - bash\n      - -c\n      - 'exec lmcache server --eviction-policy LFU'\n",
			       "[]"), "lmcache-eviction-policy");
	expect_none(CMD_SERVER("      - bash\n      - -c\n      - 'exec lmcache server'\n", "[]"),
		    "lmcache-server-required-flag");
}
#undef CMD_SERVER
#undef LMC_CMD

/* ---- placement ------------------------------------------------------------------------- */

static const char *placement_of(const char *text)
{
	static char buf[32];
	struct doc *d = load(text);
	json_t *root = doc_json(d);
	struct recipe r;

	recipe_init(&r, root);
	const struct service *s = recipe_service(&r, "lmc");
	assert_non_null(s);
	snprintf(buf, sizeof(buf), "%s", s->placement);
	/* the form's view agrees with the recipe's */
	json_t *svc = json_array_get(json_object_get(root, "services"), 0);
	assert_string_equal(svc_effective_node(svc), buf);
	recipe_release(&r);
	json_decref(root);
	doc_free(d);
	return buf;
}

static void test_placement_rule(void **state)
{
	const char *no_map = BASE SERVER LRU;
	struct doc *d;
	char *before, *err = NULL;

	(void)state;
	/* no mapping: the kind's default */
	assert_string_equal(placement_of(no_map), "workers");
	/* a mapping without node: srtctl's schema default, head */
	assert_string_equal(placement_of(BASE "services:\n  - name: lmc\n    type: lmcache-server\n"
					      "    placement: {per: node}\n"), "head");
	/* an edit that creates the mapping writes the node the service had */
	d = load(no_map);
	before = xstrdup(doc_text(d, NULL));
	assert_int_equal(svc_set_placement(d, 0, "per", "node", &err), 0);
	assert_non_null(strstr(doc_text(d, NULL), "    placement:\n      node: workers\n      per: node\n"));
	assert_string_equal(placement_of(doc_text(d, NULL)), "workers");
	/* one edit: one undo gives the bytes back */
	assert_int_equal(doc_undo(d), 0);
	assert_string_equal(doc_text(d, NULL), before);
	/* clearing node from a mapping that keeps per writes the kind's default back */
	assert_int_equal(svc_set_placement(d, 0, "node", "decode", &err), 0);
	assert_int_equal(svc_set_placement(d, 0, "per", "node", &err), 0);
	assert_int_equal(svc_set_placement(d, 0, "node", NULL, &err), 0);
	assert_string_equal(placement_of(doc_text(d, NULL)), "workers");
	/* removing the last key removes the mapping */
	assert_int_equal(svc_set_placement(d, 0, "per", NULL, &err), 0);
	assert_int_equal(svc_set_placement(d, 0, "node", NULL, &err), 0);
	assert_null(strstr(doc_text(d, NULL), "placement"));
	doc_free(d);
	/* the Fields tree's generic edit of services[lmc].placement.per goes the same way */
	d = load(no_map);
	{
		struct path p = PATH_INIT;
		json_t *v = json_string("node");
		assert_int_equal(path_parse(&p, "services[lmc].placement.per", PATH_NAMES, &err), 0);
		assert_int_equal(svc_placement_edit(d, &p, v, &err), 0);
		assert_string_equal(placement_of(doc_text(d, NULL)), "workers");
		/* once the mapping exists, or for node itself, the caller edits */
		assert_int_equal(svc_placement_edit(d, &p, v, &err), 1);
		path_release(&p);
		assert_int_equal(path_parse(&p, "services[0].placement.node", 0, &err), 0);
		assert_int_equal(svc_placement_edit(d, &p, v, &err), 1);
		path_release(&p);
		json_decref(v);
	}
	doc_free(d);
	/* a whole mapping without node (`set services[lmc].placement={per: node}`)
	 * gets the node the service had, first; one naming its node is the
	 * caller's plain edit */
	d = load(no_map);
	{
		struct path p = PATH_INIT;
		json_t *v = json_pack("{s:s}", "per", "node"), *named = json_pack("{s:s}", "node", "decode");
		assert_int_equal(path_parse(&p, "services[lmc].placement", PATH_NAMES, &err), 0);
		assert_int_equal(svc_placement_edit(d, &p, named, &err), 1);
		assert_int_equal(svc_placement_edit(d, &p, v, &err), 0);
		assert_non_null(strstr(doc_text(d, NULL), "    placement:\n      node: workers\n      per: node\n"));
		assert_string_equal(placement_of(doc_text(d, NULL)), "workers");
		path_release(&p);
		json_decref(v);
		json_decref(named);
	}
	free(before);
	doc_free(d);
}

/* ---- operations ---------------------------------------------------------------------------- */

static void test_ops(void **state)
{
	struct doc *d = load(BASE SERVER LRU);
	const struct lmc_flag *l2 = lmc_flag_find("--l2-adapter", NULL);
	char *before = xstrdup(doc_text(d, NULL)), *err = NULL;
	const char *fs = "{\"type\": \"fs\", \"base_path\": \"/raid/lmc\"}";

	(void)state;
	/* a value changed in place: one edit, one undo */
	assert_int_equal(svc_set_flag(d, 0, lmc_flag_find("--l1-size-gb", NULL), "32", &err), 0);
	assert_non_null(strstr(doc_text(d, NULL), "      - \"32\"\n"));
	assert_int_equal(doc_undo(d), 0);
	assert_string_equal(doc_text(d, NULL), before);
	/* srtctl's flags are refused, the document untouched */
	assert_int_equal(svc_set_flag(d, 0, lmc_flag_find("--port", NULL), "9000", &err), -1);
	assert_non_null(strstr(err, "srtctl"));
	free(err);
	err = NULL;
	assert_string_equal(doc_text(d, NULL), before);
	/* an L2 adapter added, edited, removed: the argument as LMCache reads it */
	assert_int_equal(svc_add_flag(d, 0, l2, fs, &err), 0);
	{
		struct doc *again = load(doc_text(d, NULL));
		json_t *root = doc_json(again);
		json_t *args = json_object_get(json_array_get(json_object_get(root, "services"), 0), "args");
		char *v = lmc_value_nth(args, l2, 0);
		assert_string_equal(v, fs);
		free(v);
		json_decref(root);
		doc_free(again);
	}
	assert_int_equal(svc_set_flag_nth(d, 0, l2, 0, NULL, &err), 0);
	assert_string_equal(doc_text(d, NULL), before);
	/* the adapter JSON built from its keys */
	{
		const char *vals[] = { "/raid/lmc", NULL, NULL };
		char *j = l2_adapter_json(l2_adapter_find("fs"), vals);
		assert_string_equal(j, fs);
		free(j);
	}
	/* switches and --x/--no-x */
	assert_int_equal(svc_set_flag(d, 0, lmc_flag_find("--l1-use-lazy", NULL), "off", &err), 0);
	assert_non_null(strstr(doc_text(d, NULL), "      - --no-l1-use-lazy\n"));
	assert_int_equal(svc_set_flag(d, 0, lmc_flag_find("--l1-use-lazy", NULL), "on", &err), 0);
	assert_non_null(strstr(doc_text(d, NULL), "      - --l1-use-lazy\n"));
	assert_int_equal(svc_set_flag(d, 0, lmc_flag_find("--l1-use-lazy", NULL), "", &err), 0);
	assert_string_equal(doc_text(d, NULL), before);
	/* add, move, remove a service */
	assert_int_equal(svc_add(d, KIND_NAME(KIND_LMCACHE_SERVER), NULL, &err), 0);
	{
		json_t *root = doc_json(d);
		json_t *e = json_array_get(json_object_get(root, "services"), 1);
		assert_string_equal(json_string_value(json_object_get(e, "name")), "lmcache");
		/* a new server starts: the required flags are written */
		struct diag_list l = DIAG_LIST_INIT;
		lmc_check_argv(json_object_get(e, "args"), 0, 0, "lmcache", "a", "s", &l);
		assert_int_equal(l.n, 0);
		diag_list_release(&l);
		json_decref(root);
	}
	assert_int_equal(svc_move(d, 1, 0, &err), 0);
	assert_int_equal(svc_remove(d, 0, &err), 0);
	assert_string_equal(doc_text(d, NULL), before);
	free(before);
	doc_free(d);
}

/* ---- every template and example: each launched server starts ------------------------------- */

static size_t check_servers(const char *name, const char *text)
{
	struct doc *d = load(text);
	json_t *root = doc_json(d);
	struct recipe r;
	size_t n = 0;
	char port[16], http[16];

	snprintf(port, sizeof(port), "%d", LMCACHE_RPC_PORT);
	snprintf(http, sizeof(http), "%d", LMCACHE_HTTP_PORT);
	recipe_init(&r, root);
	for (size_t i = 0; i < r.nsvc; i++) {
		const struct service *s = &r.svc[i];
		struct strvec argv = STRVEC_INIT;
		struct service_vars vars;
		struct diag_list l = DIAG_LIST_INIT;
		if (!svc_kind_is(s->type, KIND_LMCACHE_SERVER))
			continue;
		memset(&vars, 0, sizeof(vars));
		service_argv(&r, s, &vars, &argv);
		json_t *a = json_array();
		for (size_t k = 0; k < argv.n; k++)
			json_array_append_new(a, json_string(argv.v[k]));
		assert_true(argv.n > 2);
		assert_string_equal(argv.v[0], "lmcache");
		assert_string_equal(argv.v[1], "server");
		/* srtctl's ports, as the workers and the probe expect them */
		for (size_t k = 2; k + 1 < argv.n; k++) {
			if (!strcmp(argv.v[k], "--port"))
				assert_string_equal(argv.v[k + 1], port);
			if (!strcmp(argv.v[k], "--http-port"))
				assert_string_equal(argv.v[k + 1], http);
		}
		lmc_check_argv(a, 2, 1, s->name, "argv", "", &l);
		for (size_t k = 0; k < l.n; k++)
			print_message("%s: services[%s]: [%s] %s\n", name, s->name, l.v[k].code,
				      l.v[k].message);
		assert_int_equal(l.n, 0);
		diag_list_release(&l);
		json_decref(a);
		strvec_release(&argv);
		n++;
	}
	recipe_release(&r);
	json_decref(root);
	doc_free(d);
	return n;
}

static void test_templates_and_examples(void **state)
{
	size_t servers = 0, files = 0;
	char *dir = tu_srcpath("examples");
	DIR *dd = opendir(dir);
	struct dirent *e;

	(void)state;
	for (size_t i = 0; i < templates_count; i++)
		servers += check_servers(templates[i].name, templates[i].text);
	assert_non_null(dd);
	while ((e = readdir(dd))) {
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".yaml"))
			continue;
		char *p = xasprintf("%s/%s", dir, e->d_name);
		char *text = tu_slurp(p);
		assert_non_null(text);
		servers += check_servers(e->d_name, text);
		files++;
		free(text);
		free(p);
	}
	closedir(dd);
	free(dir);
	assert_int_equal(files, templates_count);
	/* four LMCache templates, each with one server, counted twice */
	assert_true(servers >= 8);
	print_message("checked %zu launched lmcache-servers in %zu templates and %zu examples\n",
		      servers, templates_count, files);
}


/* ---- the smallest list edits ----------------------------------------------------------------- */

static void plan_and_check(const char *const *in, const char *flag, const char *value, size_t nops,
			   const char *const *want)
{
	struct list_ops ops = LIST_OPS_INIT;
	json_t *a = strs(in), *b, *w = strs(want);

	lmc_plan_set(&ops, a, lmc_flag_find(flag, NULL), value);
	assert_int_equal(ops.n, nops);
	b = list_ops_apply(a, &ops);
	assert_true(json_equal(b, w));
	json_decref(a);
	json_decref(b);
	json_decref(w);
	list_ops_release(&ops);
}

static void test_plan_minimal(void **state)
{
	static const char *const ex[] = { "--l1-size-gb", "16", "--chunk-size", "256",
					  "--eviction-policy", "LRU", NULL };
	(void)state;
	{ /* change a value: one SET of the value item */
		static const char *const w[] = { "--l1-size-gb", "32", "--chunk-size", "256",
						 "--eviction-policy", "LRU", NULL };
		plan_and_check(ex, "--l1-size-gb", "32", 1, w);
	}
	plan_and_check(ex, "--chunk-size", "256", 0, ex); /* same value: nothing */
	{ /* add: after the last form flag */
		static const char *const w[] = { "--l1-size-gb", "16", "--chunk-size", "256",
						 "--eviction-policy", "LRU", "--max-workers", "2", NULL };
		plan_and_check(ex, "--max-workers", "2", 2, w);
	}
	{ /* remove: the flag and its value */
		static const char *const w[] = { "--l1-size-gb", "16", "--eviction-policy", "LRU", NULL };
		plan_and_check(ex, "--chunk-size", "", 2, w);
	}
	{ /* --flag=value keeps its spelling */
		static const char *const in[] = { "--x", "--chunk-size=256", NULL };
		static const char *const w[] = { "--x", "--chunk-size=512", NULL };
		plan_and_check(in, "--chunk-size", "512", 1, w);
	}
	{ /* form flags go before extra args; a dangling flag is an extra arg */
		static const char *const in[] = { "--x", "--max-workers", NULL };
		static const char *const w[] = { "--l1-size-gb", "4", "--x", "--max-workers", NULL };
		plan_and_check(in, "--l1-size-gb", "4", 2, w);
	}
	{ /* a switch is one item */
		static const char *const w[] = { "--l1-size-gb", "16", "--chunk-size", "256",
						 "--eviction-policy", "LRU", "--disable-observability", NULL };
		plan_and_check(ex, "--disable-observability", "on", 1, w);
	}
}

/* ---- L2 adapter JSON from its keys, checked as LMCache checks it ------------------------ */

static void test_l2_adapters(void **state)
{
	char *why = NULL, *j;

	(void)state;
	{ /* nixl_store: backend_params nest; numbers are JSON numbers */
		const char *vals[] = { "POSIX", "64", "/raid/nixl", "false" };
		j = l2_adapter_json(l2_adapter_find("nixl_store"), vals);
		assert_string_equal(j, "{\"type\": \"nixl_store\", \"backend\": \"POSIX\", \"pool_size\": 64, "
				       "\"backend_params\": {\"file_path\": \"/raid/nixl\", \"use_direct_io\": \"false\"}}");
		assert_int_equal(l2_adapter_check(j, &why), 0);
		free(j);
	}
	{ /* an object backend needs no file keys */
		const char *vals[] = { "OBJ", "8", NULL, NULL };
		j = l2_adapter_json(l2_adapter_find("nixl_store"), vals);
		assert_int_equal(l2_adapter_check(j, &why), 0);
		free(j);
	}
	{ /* mooncake_store: the keys Mooncake's setup reads, srtctl's placeholders offered */
		const struct l2_adapter_type *t = l2_adapter_find("mooncake_store");
		const char *vals[] = { t->keys[0].example, t->keys[1].example, "tcp", NULL, NULL };
		j = l2_adapter_json(t, vals);
		assert_string_equal(j, "{\"type\": \"mooncake_store\", \"master_server_address\": \"{infra_ip}:{master_port}\", "
				       "\"metadata_server\": \"http://{infra_ip}:{metadata_port}/metadata\", \"protocol\": \"tcp\"}");
		assert_int_equal(l2_adapter_check(j, &why), 0);
		free(j);
	}
	/* what LMCache refuses */
	static const struct { const char *json, *why; } bad[] = {
		{ "{\"type\": \"fs\"}", "base_path" },
		{ "{\"type\": \"fs\", \"base_path\": \"\"}", "non-empty" },
		{ "{\"type\": \"nixl_store\", \"backend\": \"NFS\", \"pool_size\": 8}", "backend" },
		{ "{\"type\": \"nixl_store\", \"backend\": \"OBJ\", \"pool_size\": 0}", "pool_size" },
		{ "{\"type\": \"nixl_store\", \"backend\": \"GDS\", \"pool_size\": 8, \"backend_params\": {\"file_path\": \"/x\"}}", "use_direct_io" },
		{ "[1]", "object" },
		{ "{\"base_path\": \"/x\"}", "type" },
		{ "{not json", "JSON" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (l2_adapter_check(bad[i].json, &why) == 0)
			fail_msg("%s accepted", bad[i].json);
		if (!strstr(why, bad[i].why))
			fail_msg("%s: '%s' does not name %s", bad[i].json, why, bad[i].why);
		free(why);
		why = NULL;
	}
	/* a type the table does not describe is LMCache's to judge */
	assert_int_equal(l2_adapter_check("{\"type\": \"s3\", \"bucket\": \"b\"}", &why), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_flag),
		cmocka_unit_test(test_owned_flags),
		cmocka_unit_test(test_diagnostics),
		cmocka_unit_test(test_worker_ports),
		cmocka_unit_test(test_own_command),
		cmocka_unit_test(test_placement_rule),
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_plan_minimal),
		cmocka_unit_test(test_l2_adapters),
		cmocka_unit_test(test_templates_and_examples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
