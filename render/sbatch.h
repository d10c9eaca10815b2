/*
 * sbatch.h — the sbatch script `srtctl apply` submits for a recipe (srtctl's
 * generate_minimal_sbatch_script over its job_script_minimal template).
 *
 * The first lines — the shebang, the #SBATCH directives with srtctl's
 * fallbacks and the cluster's switches — and the `export` lines of the
 * recipe's environment are exact.  The body after them gives the same steps
 * in our own words: it follows one srtctl version of the template, which the
 * script says in a comment.
 *
 * Everything here is a pure function of its arguments; struct sbatch_opts
 * holds what srtctl reads from the process (environment, clock, paths), filled
 * by sbatch_opts_init so tests can pin it.
 */
#ifndef SRT_SBATCH_H
#define SRT_SBATCH_H

#include "model/cluster.h"
#include "model/recipe.h"
#include "lib/util.h"

struct sbatch_opts {
	const struct cluster *cluster; /* NULL: no cluster file */
	char *config_path;      /* absolute path of the recipe file srtctl was given */
	char *runtime_config;   /* file name do_sweep reads under OUTPUT_DIR ("config.yaml") */
	char *srtctl_source;    /* cluster srtctl_root, else the srtctl directory */
	char *output_base;      /* cluster output_dir, else <srtctl_source>/outputs */
	char *timestamp;        /* YYYYmmdd_HHMMSS, UTC */
	char *runner_name;      /* $RUNNER_NAME, replaces the job name; NULL */
	char *slurm_account;    /* $SLURM_ACCOUNT, the account fallback; NULL */
	char *slurm_partition;  /* $SLURM_PARTITION, the partition fallback; NULL */
	char *setup_script;     /* --setup-script; NULL */
};

/* Fill o from the process: $RUNNER_NAME, $SLURM_ACCOUNT, $SLURM_PARTITION,
 * the clock ($SOURCE_DATE_EPOCH when set, for reproducible output), the
 * cluster's srtctl_root / output_dir.  file is the recipe path as given. */
void sbatch_opts_init(struct sbatch_opts *o, const struct cluster *c, const char *file);
void sbatch_opts_release(struct sbatch_opts *o);

/* The #SBATCH directive lines, in srtctl's order ("#SBATCH --nodes=2"). */
void sbatch_directives(struct strvec *out, const struct recipe *r, const struct sbatch_opts *o);
/* The `export K=V` lines of the script (dynamo wheel env, then environment;
 * values shell-quoted as srtctl's shlex.quote). */
void sbatch_exports(struct strvec *out, const struct recipe *r);
/* The whole script. */
void sbatch_render(struct strbuf *out, const struct recipe *r, const struct sbatch_opts *o);

/* The dynamo wheel variables srtctl exports (DYNAMO_WHEEL_NAME, DYNAMO_VERSION)
 * for dynamo.source.wheel; an empty object otherwise.  New reference. */
json_t *sbatch_dynamo_wheel_env(const struct recipe *r);

#endif
