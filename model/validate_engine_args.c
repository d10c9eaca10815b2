/*
 * validate_engine_args.c — a role's engine args against its GPUs: a worker
 * whose GPU count differs from the parallelism its args ask for either
 * leaves GPUs idle or cannot start, and srtctl passes both through without a
 * word.  The parallel sizes are the engines' own flags:
 *   vLLM     tensor-parallel-size x pipeline-parallel-size x data-parallel-size
 *   SGLang   tp-size x pp-size, x dp-size unless enable-dp-attention (then the
 *            data-parallel attention ranks share the tp GPUs)
 *   TRT-LLM  tensor_parallel_size x pipeline_parallel_size (the engine YAML)
 * Each size defaults to 1.  Only roles that write at least one of these are
 * checked: without any, the engine's own default applies and srtctl's
 * examples leave it so.
 */
#include <stdio.h>
#include <string.h>

#include "model/validate.h"
#include "model/validate_int.h"

/* The first of the spellings the args hold: its key and value (-1 when
 * absent, 0 when not a positive integer). */
static long arg_size(json_t *args, const char *const *names, const char **key)
{
	for (size_t i = 0; names[i]; i++) {
		json_t *v = json_object_get(args, names[i]);
		if (!v)
			continue;
		*key = names[i];
		if (json_is_integer(v) && json_integer_value(v) > 0)
			return (long)json_integer_value(v);
		if (json_is_string(v)) { /* "4" from a --set */
			long n = 0;
			const char *s = json_string_value(v);
			for (; *s >= '0' && *s <= '9' && n < 1000000; s++)
				n = n * 10 + (*s - '0');
			return *s || !n ? 0 : n;
		}
		return 0;
	}
	return -1;
}

void validate_engine_args(const struct recipe *r, struct diag_list *out)
{
	static const char *const v_tp[] = { "tensor-parallel-size", "tensor_parallel_size", "tp", NULL };
	static const char *const v_pp[] = { "pipeline-parallel-size", "pipeline_parallel_size", "pp", NULL };
	static const char *const v_dp[] = { "data-parallel-size", "data_parallel_size", "dp", NULL };
	static const char *const s_tp[] = { "tp-size", "tp_size", "tensor-parallel-size",
					    "tensor_parallel_size", "tp", NULL };
	static const char *const s_pp[] = { "pp-size", "pp_size", "pipeline-parallel-size",
					    "pipeline_parallel_size", NULL };
	static const char *const s_dp[] = { "dp-size", "dp_size", "data-parallel-size",
					    "data_parallel_size", "dp", NULL };
	static const char *const t_tp[] = { "tensor_parallel_size", NULL };
	static const char *const t_pp[] = { "pipeline_parallel_size", NULL };
	static const char *const none[] = { NULL };

	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct role *ro = &r->role[i];
		const char *e = ro->engine, *ktp = NULL, *kpp = NULL, *kdp = NULL;
		const char *const *tp_n, *const *pp_n, *const *dp_n;
		if (!ro->present || !e || !json_is_object(ro->args) || ro->eff_gpus < 1)
			continue;
		if (!strcmp(e, "vllm")) {
			tp_n = v_tp, pp_n = v_pp, dp_n = v_dp;
		} else if (!strcmp(e, "sglang")) {
			tp_n = s_tp, pp_n = s_pp, dp_n = s_dp;
		} else if (!strcmp(e, "trtllm")) {
			tp_n = t_tp, pp_n = t_pp, dp_n = none;
		} else {
			continue;
		}
		long tp = arg_size(ro->args, tp_n, &ktp), pp = arg_size(ro->args, pp_n, &kpp),
		     dp = arg_size(ro->args, dp_n, &kdp);
		if (tp < 0 && pp < 0 && dp < 0)
			continue;
		if (!tp || !pp || !dp)
			continue; /* not a positive integer: the schema/engine says so */
		long want = (tp > 0 ? tp : 1) * (pp > 0 ? pp : 1);
		int dpa = !strcmp(e, "sglang") &&
			  (jget_bool(ro->args, "enable-dp-attention", 0) ||
			   jget_bool(ro->args, "enable_dp_attention", 0));
		if (dp > 0 && !dpa)
			want *= dp;
		if (want == ro->eff_gpus)
			continue;
		char what[160], hint[256], path[64];
		snprintf(what, sizeof(what), "%s %ld", ktp ? ktp : tp_n[0], tp > 0 ? tp : 1);
		if (pp > 0)
			snprintf(what + strlen(what), sizeof(what) - strlen(what), " x %s %ld", kpp, pp);
		if (dp > 0 && !dpa)
			snprintf(what + strlen(what), sizeof(what) - strlen(what), " x %s %ld", kdp, dp);
		if (want < ro->eff_gpus)
			snprintf(hint, sizeof(hint),
				 "%ld of each worker's %d GPUs would stay idle: set roles.%s.gpus: %ld, or raise the parallel size",
				 ro->eff_gpus - want, ro->eff_gpus, role_names[i], want);
		else
			snprintf(hint, sizeof(hint),
				 "the engine needs %ld GPUs per worker and gets %d: set roles.%s.gpus: %ld, or lower the parallel size",
				 want, ro->eff_gpus, role_names[i], want);
		snprintf(path, sizeof(path), "roles.%s.gpus", role_names[i]);
		diag_add(out, DIAG_WARNING, "parallel-gpus", ro->gpus >= 0 ? path : "", hint,
			 "roles.%s: %d GPUs per worker, but its args ask for %s = %ld", role_names[i],
			 ro->eff_gpus, what, want);
	}
}
