/*
 * service_ray.c — the `ray start` lines and the device view of a `type: ray`
 * service's instances, as srtctl's services/ray.py builds them (NVIDIA
 * srt-slurm; stored as SemiAnalysisAI/srt-slurm@4c4b3aa, and the launch
 * snapshot examples/miles/qwen3-4b-grpo at 8633852 shows them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "model/kinds.h"
#include "render/service_ray.h"

static int ray_option(const struct service *s, const char *key, int dflt)
{
	return jget_int(jget_obj(service_config(s), "options"), key, dflt);
}

int ray_num_gpus(const struct recipe *r, const struct service *s)
{
	return ray_option(s, "num_gpus", r->gpus_per_node);
}

/* A preview (srtctl's dry-run context) has no node and so no GPU count:
 * without options.num_gpus the count is a placeholder. */
static int preview_gpus(const struct service *s, const struct service_vars *vars)
{
	return !vars && !json_object_get(jget_obj(service_config(s), "options"), "num_gpus");
}

/* The service's args, placeholders substituted, one string each. */
static void push_args(const struct recipe *r, const struct service *s,
		      const struct service_vars *vars, struct strvec *out)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	json_t *e;

	json_array_foreach(jget_arr(service_config(s), "args"), i, e) {
		char *t = py_str_dup(e);
		strbuf_reset(&sb);
		service_subst(&sb, r, vars, t);
		strvec_push(out, sb_str(&sb));
		free(t);
	}
	strbuf_release(&sb);
}

void ray_argv(const struct recipe *r, const struct service *s, const struct service_vars *vars,
	      struct strvec *out)
{
	const char *idx = vars ? vars->v[SV_INDEX] : NULL;
	const char *ip = vars && vars->v[SV_NODE_IP] ? vars->v[SV_NODE_IP] : "<node_ip>";
	const char *head = vars && vars->cluster_ip ? vars->cluster_ip : "<head_ip>";
	int port = ray_option(s, "port", RAY_GCS_PORT);
	struct strvec common = STRVEC_INIT;

	/* what head and workers share, the recipe's args last */
	strvec_pushf(&common, "--node-ip-address=%s", ip);
	if (preview_gpus(s, vars))
		strvec_push(&common, "--num-gpus=<gpus_per_node>");
	else
		strvec_pushf(&common, "--num-gpus=%d", ray_num_gpus(r, s));
	strvec_push(&common, "--disable-usage-stats");
	strvec_push(&common, "--block");
	push_args(r, s, vars, &common);

	if (!idx || !strcmp(idx, "0")) {
		strvec_push(out, "ray"); /* kinds-ok: the ray program, not the service kind */
		strvec_push(out, "start");
		strvec_push(out, "--head");
		strvec_pushf(out, "--port=%d", port);
		strvec_push(out, "--dashboard-host=0.0.0.0");
		strvec_pushf(out, "--dashboard-port=%d", ray_option(s, "dashboard_port", RAY_DASHBOARD_PORT));
		for (size_t i = 0; i < common.n; i++)
			strvec_push(out, common.v[i]);
	} else {
		/* The head's dashboard answered before any worker starts; the
		 * wait covers the GCS not accepting registrations yet.  exec makes
		 * the raylet the step's process, so teardown's SIGTERM reaches it.
		 * The join line is words joined by spaces, not shell-quoted. */
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb,
			    "for i in $(seq 1 60); do (exec 3<>/dev/tcp/%s/%d) 2>/dev/null && break; "
			    "echo \"ray worker: waiting for head %s:%d ($i/60)\"; sleep 5; done; "
			    "exec ray start --address=%s:%d",
			    head, port, head, port, head, port);
		for (size_t i = 0; i < common.n; i++)
			strbuf_addf(&sb, " %s", common.v[i]);
		strvec_push(out, "bash");
		strvec_push(out, "-c");
		strvec_push(out, sb.buf);
		strbuf_release(&sb);
	}
	strvec_release(&common);
}

void ray_default_env(const struct recipe *r, const struct service *s,
		     const struct service_vars *vars, const char *names[RAY_ENV_COUNT],
		     char *vals[RAY_ENV_COUNT])
{
	struct strbuf sb = STRBUF_INIT;
	int n = preview_gpus(s, vars) ? 0 : ray_num_gpus(r, s);

	/* the raylet's device view must agree with --num-gpus: on GRES
	 * partitions a step can otherwise see fewer devices than the node has */
	if (preview_gpus(s, vars))
		strbuf_addstr(&sb, "<0..gpus_per_node-1>");
	for (int i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%d", i ? "," : "", i);
	names[0] = "CUDA_VISIBLE_DEVICES";
	vals[0] = sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
	/* Ray's memory monitor would kill workers under host-memory pressure,
	 * which a trainer offloading to host RAM causes on purpose */
	names[1] = "RAY_memory_monitor_refresh_ms";
	vals[1] = xstrdup("0");
	strbuf_release(&sb);
}
