/*
 * cluster_recipe.c — the typed recipe view with the cluster applied: what
 * srtctl loads after resolve_config_with_defaults, plus the two cluster
 * settings the launch reads directly (the GPU-mask variable and the bash
 * preamble of every container srun).
 */
#include "model/cluster.h"
#include "model/recipe.h"

void cluster_recipe_init(struct recipe *r, const struct cluster *c, json_t *tree,
			 struct cluster_provs *prov)
{
	json_t *copy = json_deep_copy(tree);
	cluster_apply(c, copy, prov);
	recipe_init(r, copy);
	json_decref(copy);
	r->visible_devices_env = cluster_visible_devices_env(c);
	r->bash_preamble = cluster_str(c, "default_bash_preamble", NULL);
}
