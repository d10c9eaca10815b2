/*
 * cluster_recipe.c — the typed recipe view with the cluster applied: what
 * srtctl loads after resolve_config_with_defaults, plus the two cluster
 * settings the launch reads directly (the GPU-mask variable and the bash
 * preamble of every container srun) and use_het_jobs, which srtctl reads
 * where it renders the job.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "model/cluster.h"
#include "model/doc.h"
#include "model/override.h"
#include "model/recipe.h"

void cluster_recipe_init(struct recipe *r, const struct cluster *c, json_t *tree,
			 struct cluster_provs *prov)
{
	/* not a deep copy: one of a 20,000-line tree per edit cost more than
	 * validating it */
	json_t *copy = cluster_applied(c, tree, prov);
	recipe_init(r, copy);
	json_decref(copy);
	r->visible_devices_env = cluster_visible_devices_env(c);
	r->bash_preamble = cluster_str(c, "default_bash_preamble", NULL);
	r->use_het_jobs = cluster_bool(c, "use_het_jobs", 0);
}

/* srtctl's preflight of model.container and model.path against the cluster's
 * aliases; *unchecked set when an alias-looking value met no cluster file. */
void cluster_alias_diags(const struct cluster *c, json_t *root, struct diag_list *add,
			 int *unchecked)
{
	json_t *model = json_object_get(root, "model");
	const char *ct = json_string_value(json_object_get(model, "container"));
	const char *mp = json_string_value(json_object_get(model, "path"));
	char *msg = NULL;
	int k = cluster_check_container(c, ct, &msg);

	if (k == 3)
		*unchecked = 1;
	else if (k)
		diag_add(add, k == 2 ? DIAG_ERROR : DIAG_WARNING, "container-alias", "model.container",
			 "name an alias of the cluster's containers:, an absolute .sqsh path or a "
			 "registry image (nvcr.io/...:tag)", "%s", msg);
	free(msg);
	if (mp && *mp && mp[0] != '/' && strncmp(mp, "hf:", 3) && strncmp(mp, "./", 2) &&
	    !strchr(mp, '$')) {
		json_t *paths = cluster_get(c, "model_paths");
		if (!c || c->state != CLUSTER_LOADED)
			*unchecked = 1;
		else if (!json_is_string(json_object_get(paths, mp)))
			diag_add(add, strchr(mp, '/') ? DIAG_WARNING : DIAG_ERROR, "model-alias",
				 "model.path", "name an alias of the cluster's model_paths: or a weights "
				 "directory", "Model '%s' is not a local model path and is not defined in "
				 "srtslurm.yaml model_paths. Pull or register the model yourself before "
				 "submitting.", mp);
	}
}


void cluster_doc_diags(const struct cluster *c, const struct doc *d, json_t *root,
		       struct diag_list *out)
{
	struct diag_list add = DIAG_LIST_INIT;
	int unchecked = 0;

	/* the cluster file's own problems, named by file:line:col in the text */
	for (size_t i = 0; c && i < c->diags.n; i++) {
		const struct diag *g = &c->diags.v[i];
		const char *base = c->path ? strrchr(c->path, '/') : NULL;
		base = base ? base + 1 : c->path ? c->path : "srtslurm.yaml";
		if (g->line > 0)
			diag_add(&add, g->severity, g->code, "", g->hint, "%s:%d:%d: %s", base,
				 g->line, g->col, g->message);
		else
			diag_add(&add, g->severity, g->code, "", g->hint, "%s: %s", base, g->message);
	}
	if (json_is_object(root) && recipe_form(root) == RECIPE_PLAIN &&
	    json_object_get(root, "schema"))
		cluster_alias_diags(c, root, &add, &unchecked);
	if (d)
		doc_locate_diags(d, &add);
	diag_list_move(out, &add);
	diag_list_release(&add);
}
