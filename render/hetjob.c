/*
 * hetjob.c — srtctl's heterogeneous-job components (see hetjob.h).
 */
#include <string.h>

#include "lib/util.h"
#include "render/hetjob.h"
#include "render/topology.h"

/* resources.het_jobs when true or false, else the cluster's default; only
 * for a disaggregated recipe (prefill or decode among the roles) */
static int het_on(const struct recipe *r, int cluster_default)
{
	json_t *het = json_object_get(jget_obj(r->root, "resources"), "het_jobs");
	int on = json_is_boolean(het) ? json_is_true(het) : cluster_default;

	return on && (r->role[ROLE_PREFILL].present || r->role[ROLE_DECODE].present);
}

int het_job(const struct recipe *r)
{
	return het_on(r, r->use_het_jobs);
}

int het_components(const struct recipe *r, const struct cluster *c, struct het_component out[2])
{
	const struct role *p = &r->role[ROLE_PREFILL], *d = &r->role[ROLE_DECODE];

	if (!het_on(r, cluster_bool(c, "use_het_jobs", 0)))
		return 0;
	/* group 0 is prefill and folds in the dedicated infra node; a missing or
	 * colocated side counts 0 nodes */
	out[0].name = "prefill";
	out[0].group = 0;
	out[0].nodes = (p->present && p->nodes > 0 ? p->nodes : 0) + (topo_infra_dedicated(r) ? 1 : 0);
	out[1].name = "decode";
	out[1].group = 1;
	out[1].nodes = d->present && d->nodes > 0 ? d->nodes : 0;
	for (int i = 0; i < 2; i++) {
		out[i].segment = out[i].nodes;
		out[i].gpus_per_node = r->gpus_per_node;
	}
	return 2;
}

char *het_refusal(const struct recipe *r, const struct cluster *c)
{
	struct het_component h[2];

	if (!het_components(r, c, h))
		return NULL;
	for (int i = 0; i < ROLE_COUNT; i++)
		if (r->role[i].present && json_object_get(r->role[i].cfg, "engine"))
			return xstrdup("Role engine overrides require resources.het_jobs: false");
	if (!strcmp(topo_block_placement(r, "frontend"), "dedicated") ||
	    !strcmp(topo_block_placement(r, "benchmark"), "dedicated"))
		return xstrdup("frontend.placement.node: dedicated / benchmark.placement.node: dedicated "
			       "are not supported with heterogeneous SLURM jobs, and this job resolved to "
			       "heterogeneous (either resources.het_jobs: true or the cluster's use_het_jobs "
			       "default)");
	return NULL;
}
