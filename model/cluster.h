/*
 * cluster.h — the cluster file srtctl reads on a login node (srtslurm.yaml):
 * finding it as srtctl does, linting it against srtctl's cluster schema, and
 * applying its defaults and aliases to a recipe tree the way srtctl's
 * resolve_config_with_defaults does, remembering where each value came from.
 *
 * srtctl drops the WHOLE file when one key is unknown or ill-typed (it logs
 * one WARNING and runs with no cluster defaults at all), so a cluster with
 * lint errors is "ignored": it is shown and its errors listed, but nothing of
 * it is applied, exactly as srtctl would behave.
 *
 * A struct cluster owns every string and json_t in it; release it with
 * cluster_release().  The functions keep no global state.
 */
#ifndef SRT_CLUSTER_H
#define SRT_CLUSTER_H

#include <jansson.h>
#include <stddef.h>

#include "model/diag.h"

enum cluster_state {
	CLUSTER_NONE,    /* no cluster file: srtctl uses the recipe as it is */
	CLUSTER_LOADED,  /* found, read and lint-clean: srtctl applies it */
	CLUSTER_IGNORED, /* found (or named by SRTSLURM_CONFIG) but srtctl drops it */
};

struct cluster {
	enum cluster_state state;
	char *srtctl_dir; /* the directory srtctl runs in (absolute) */
	char *path;       /* the file used or named; NULL when none */
	char *origin;     /* how it was found: "SRTSLURM_CONFIG", "the srtctl directory",
			   * "1 level up", "2 levels up", "--cluster" */
	struct diag_list diags; /* lint findings, located at line:col of path */
	json_t *cfg;      /* the file's mapping when CLUSTER_LOADED, else NULL */
};
#define CLUSTER_INIT { CLUSTER_NONE, NULL, NULL, NULL, DIAG_LIST_INIT, NULL }

/* The directory srtctl runs in: dir when given (--srtctl-dir), else
 * $SRT_TUI_SRTCTL_DIR, else the current directory; malloc'd, absolute. */
char *cluster_srtctl_dir(const char *dir);

/* Find and load the cluster file as srtctl's find_cluster_config_path does:
 * $SRTSLURM_CONFIG when set and non-empty (a missing file there means no
 * cluster file at all, reported as an error), else srtslurm.yaml in the srtctl
 * directory, its parent, its grandparent.  Always returns 0; c->state says
 * what was found. */
int cluster_discover(struct cluster *c, const char *srtctl_dir);
/* Load and lint one named file (validate --cluster FILE). */
int cluster_load_file(struct cluster *c, const char *path, const char *origin);
void cluster_release(struct cluster *c);

/* One line naming the file used: "cluster: /x/srtslurm.yaml (the srtctl
 * directory)", "cluster: none (no srtslurm.yaml in /a, /, or its parents)",
 * "cluster: /x/srtslurm.yaml IGNORED by srtctl (2 errors)".  malloc'd. */
char *cluster_describe(const struct cluster *c);
/* Short form for a header: "srtslurm.yaml", "no cluster file",
 * "srtslurm.yaml ignored"; static or pointing into c. */
const char *cluster_short(const struct cluster *c);

/* Lint a parsed cluster tree (no positions); used by cluster_load_file and by
 * the unit tests.  Adds errors (srtctl rejects the file) and warnings. */
void cluster_lint_tree(json_t *root, struct diag_list *out);
/* Every key the linter knows, as dotted paths through the nested blocks
 * ("reporting.s3.bucket", "default_gpu_exporter.gpu_labels.index"). */
void cluster_known_keys(void (*fn)(const char *dotted, void *ctx), void *ctx);

/* Settings srtctl reads with get_srtslurm_setting (the default when no cluster
 * is applied or the key is absent). */
json_t *cluster_get(const struct cluster *c, const char *key); /* borrowed, NULL */
const char *cluster_str(const struct cluster *c, const char *key, const char *dflt);
int cluster_bool(const struct cluster *c, const char *key, int dflt);
/* The GPU-subset mask variable workers get ("CUDA_VISIBLE_DEVICES"). */
const char *cluster_visible_devices_env(const struct cluster *c);

/* Where a value of the resolved recipe came from. */
struct cluster_prov {
	char *path;   /* recipe path: "slurm.partition", "model.container" */
	char *source; /* "cluster: default_partition", "cluster alias vllm" */
	char *from;   /* the recipe's own value it replaced (aliases), or NULL */
};
struct cluster_provs {
	struct cluster_prov *v;
	size_t n, alloc;
};
#define CLUSTER_PROVS_INIT { NULL, 0, 0 }
void cluster_provs_release(struct cluster_provs *p);
/* The entry for path, NULL when the recipe's value is its own. */
const struct cluster_prov *cluster_prov_find(const struct cluster_provs *p, const char *path);

/* Apply a LOADED cluster to root (a recipe mapping, changed in place) as
 * srtctl's resolve_config_with_defaults does, appending one entry per value
 * it set to prov (may be NULL).  Nothing happens for NONE or IGNORED.  Only
 * root itself is changed: every mapping or list below it that gets a value
 * is copied first, so root may be a shallow copy (json_copy) of a tree that
 * others share. */
void cluster_apply(const struct cluster *c, json_t *root, struct cluster_provs *prov);
/* tree with the cluster applied, a new reference: tree itself when the
 * cluster sets nothing (NONE, IGNORED), else a shallow copy that shares
 * what the cluster does not touch.  tree is never changed. */
json_t *cluster_applied(const struct cluster *c, json_t *tree, struct cluster_provs *prov);

/* recipe_init over a copy of tree with the cluster applied (c may be NULL),
 * and the cluster's visible_devices_env / default_bash_preamble set on r.
 * r borrows strings from c: release r first. */
struct recipe;
void cluster_recipe_init(struct recipe *r, const struct cluster *c, json_t *tree,
			 struct cluster_provs *prov);

/* srtctl's preflight of a plain recipe's model.container and model.path
 * against the cluster's aliases, appended to out (paths set, no positions);
 * *unchecked set when an alias-looking value met no applied cluster file. */
void cluster_alias_diags(const struct cluster *c, json_t *root, struct diag_list *out,
			 int *unchecked);
/* The session's problems of the cluster: the cluster file's own (named
 * "srtslurm.yaml:LINE:COL: ..." in the message, no recipe position) and the
 * alias ones located in d (may be NULL). */
struct doc;
void cluster_doc_diags(const struct cluster *c, const struct doc *d, json_t *root,
		       struct diag_list *out);

/* Aliases for a picker: the names of containers: or model_paths: with their
 * targets, in file order.  Returns the count; *names / *targets point into c
 * (arrays malloc'd, free them). */
size_t cluster_aliases(const struct cluster *c, const char *map, const char ***names,
		       const char ***targets);

/* srtctl's preflight judgement of a container value: 0 fine (alias, absolute
 * path, registry image reference), else a message in *msg (malloc'd) and 1 for
 * a warning, 2 for an error (a cluster is loaded and the value looks like an
 * alias it lacks). */
int cluster_check_container(const struct cluster *c, const char *value, char **msg);

#endif
