/*
 * plan_mocker.c — Dynamo's mocker engine in the launch plan (see
 * plan_mocker.h).  The rules are srtctl's backends/mocker.py
 * (build_worker_command and _config_to_cli_args, 435bc89); the defaults are
 * the schema table's engine.* entries of the mocker variant, which mirror
 * that file's dataclass.  `--model-name <served name>` after the model path
 * is not in that version: the two launch snapshots of mocker recipes
 * (features/result-publishers at d7256a2, mocker/dynamo-agg at 08b968d)
 * show it there (docs/decisions.md "Mocker").
 */
#include "render/plan_mocker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/shell.h"
#include "model/schema.h"

const char *const mocker_skip_args[] = { NULL };

enum mk_type { MK_STR, MK_FLOAT, MK_INT };
/* When an optional flag is passed: always, when set (not null), when not
 * 1.0, when above 1. */
enum mk_when { MK_ALWAYS, MK_SET, MK_NOT_ONE, MK_ABOVE_ONE };

static const struct mk_flag {
	const char *key, *flag;
	enum mk_type type;
	enum mk_when when;
} mk_flags[] = {
	{ "engine_type", "--engine-type", MK_STR, MK_ALWAYS },
	{ "speedup_ratio", "--speedup-ratio", MK_FLOAT, MK_ALWAYS },
	{ "data_parallel_size", "--data-parallel-size", MK_INT, MK_ALWAYS },
	{ "num_gpu_blocks_override", "--num-gpu-blocks-override", MK_INT, MK_ALWAYS },
	{ "max_num_seqs", "--max-num-seqs", MK_INT, MK_ALWAYS },
	{ "max_num_batched_tokens", "--max-num-batched-tokens", MK_INT, MK_ALWAYS },
	{ "decode_speedup_ratio", "--decode-speedup-ratio", MK_FLOAT, MK_NOT_ONE },
	{ "block_size", "--block-size", MK_INT, MK_SET },
	{ "num_workers", "--num-workers", MK_INT, MK_ABOVE_ONE },
	{ "startup_time", "--startup-time", MK_FLOAT, MK_SET },
	{ "kv_transfer_bandwidth", "--kv-transfer-bandwidth", MK_FLOAT, MK_SET },
	{ "kv_cache_dtype", "--kv-cache-dtype", MK_STR, MK_SET },
};

/* Switches that are on by default: off passes --no-<flag>. */
static const char *const mk_switches[][2] = {
	{ "enable_prefix_caching", "--no-enable-prefix-caching" },
	{ "enable_chunked_prefill", "--no-enable-chunked-prefill" },
};

static json_t *engine_cfg(const struct recipe *r, enum role_id role)
{
	const struct role *ro = &r->role[role];
	return ro->engine_cfg ? ro->engine_cfg : r->engine_cfg;
}

/* The recipe's value of engine.<key>, else the schema's default (new reference). */
static json_t *value_of(json_t *ec, const char *key)
{
	json_t *v = json_object_get(ec, key);
	char pattern[64];
	if (v)
		return json_incref(v);
	snprintf(pattern, sizeof(pattern), "engine.%s", key);
	return schema_default_json(pattern, "mocker");
}

/* str() of the value once srtctl's dataclass has typed it: a float field
 * prints as a float (100 -> 100.0), an int field as an int. */
static char *typed_str(json_t *v, enum mk_type type)
{
	struct strbuf sb = STRBUF_INIT;
	if (type == MK_FLOAT && json_is_number(v)) {
		py_float_repr(&sb, json_number_value(v));
		return strbuf_detach(&sb, NULL);
	}
	if (type == MK_INT && json_is_real(v))
		return xasprintf("%lld", (long long)json_real_value(v));
	return py_str_dup(v);
}

static int passes(const struct mk_flag *f, json_t *v)
{
	if (!v || json_is_null(v))
		return 0;
	switch (f->when) {
	case MK_NOT_ONE:
		return !json_is_number(v) || json_number_value(v) != 1.0;
	case MK_ABOVE_ONE:
		return !json_is_number(v) || json_number_value(v) > 1;
	default:
		return 1;
	}
}

void mocker_sim_flags(const struct recipe *r, enum role_id role, struct strvec *argv)
{
	json_t *ec = engine_cfg(r, role);
	for (size_t i = 0; i < sizeof(mk_flags) / sizeof(*mk_flags); i++) {
		const struct mk_flag *f = &mk_flags[i];
		json_t *v = value_of(ec, f->key);
		if (passes(f, v)) {
			strvec_push(argv, f->flag);
			strvec_push_nodup(argv, typed_str(v, f->type));
		}
		json_decref(v);
	}
	for (size_t i = 0; i < sizeof(mk_switches) / sizeof(*mk_switches); i++) {
		char pattern[64];
		snprintf(pattern, sizeof(pattern), "engine.%s", mk_switches[i][0]);
		if (!jget_bool(ec, mk_switches[i][0], schema_default_bool(pattern, 1)))
			strvec_push(argv, mk_switches[i][1]);
	}
	{
		/* preemption_mode comes after the switches in srtctl's order */
		json_t *v = value_of(ec, "preemption_mode");
		if (v && !json_is_null(v)) {
			strvec_push(argv, "--preemption-mode");
			strvec_push_nodup(argv, py_str_dup(v));
		}
		json_decref(v);
	}
}

void mocker_argv(const struct recipe *r, const struct topo_proc *pr, const char *served,
		 struct strvec *argv)
{
	strvec_push(argv, "python3");
	strvec_push(argv, "-m");
	strvec_push(argv, "dynamo.mocker");
	strvec_push(argv, "--model-path");
	strvec_push(argv, CONTAINER_MODEL_DIR);
	strvec_push(argv, "--model-name");
	strvec_push(argv, served);
	if (pr->role != ROLE_AGG) {
		strvec_push(argv, "--disaggregation-mode");
		strvec_push(argv, role_names[pr->role]);
	}
	if (pr->role == ROLE_PREFILL && pr->bootstrap_port) {
		strvec_push(argv, "--bootstrap-ports");
		strvec_pushf(argv, "%d", pr->bootstrap_port);
	}
	mocker_sim_flags(r, pr->role, argv);
}

void mocker_workers_note(struct strbuf *out, const struct recipe *r, enum role_id role,
			 enum workers_layout layout)
{
	const struct role *ro = &r->role[role];
	struct strvec v = STRVEC_INIT;
	if (!ro->engine || strcmp(ro->engine, "mocker"))
		return;
	mocker_sim_flags(r, role, &v);
	strbuf_addstr(out, layout == WORKERS_DRYRUN ? "    mocker: " : "  mocker (no weights, no KV transfer): ");
	shell_join(out, v.v, v.n);
	strbuf_addch(out, '\n');
	strvec_release(&v);
}
