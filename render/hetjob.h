/*
 * hetjob.h — a heterogeneous SLURM job (resources.het_jobs, or the cluster's
 * use_het_jobs when the recipe leaves it null): srtctl submits the prefill
 * side and the decode side as two components of one job, each with its own
 * --nodes and --segment (srtctl's ResourceConfig.het_components).
 *
 * srtctl decides it where it renders the job, not when it loads the recipe:
 * resources.het_jobs when true or false, else the cluster's use_het_jobs
 * (read even when the recipe has no resources block).
 */
#ifndef SRT_HETJOB_H
#define SRT_HETJOB_H

#include "model/cluster.h"
#include "model/recipe.h"

struct het_component {
	const char *name; /* "prefill", "decode" */
	int group;        /* 0, 1: the order of the #SBATCH groups */
	int nodes;        /* prefill: its nodes plus a dedicated infra node */
	int segment;      /* the component's node count */
	int gpus_per_node;
};

/* Whether srtctl submits the job as a heterogeneous one, the cluster's
 * default taken from r->use_het_jobs (cluster_recipe_init). */
int het_job(const struct recipe *r);

/* The two components, or 0 when the job is a single allocation (het off, or
 * no prefill/decode role). */
int het_components(const struct recipe *r, const struct cluster *c, struct het_component out[2]);

/* srtctl's refusal to render a heterogeneous job (a role engine override, a
 * dedicated frontend or benchmark node), in its words; NULL when fine.
 * malloc'd. */
char *het_refusal(const struct recipe *r, const struct cluster *c);

#endif
