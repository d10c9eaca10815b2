/*
 * recipe.h — the typed view of a recipe that validation and rendering share.
 *
 * recipe_init() reads a recipe tree (the json_t from doc_json(), or a merged
 * override variant) without judging it: missing or ill-typed fields get their
 * defaults here and are reported by validate.c.  It also computes the
 * effective service list of spec §4.8: implied services (etcd for Dynamo,
 * lmcache-server for a vLLM `lmcache-mp` role, exporters for tachometer, ...)
 * first, each with the reason it is implied, then the declared, enabled ones.
 *
 * struct recipe holds a reference to root; every json_t * inside is borrowed
 * from root.  Strings in struct service are owned by the recipe.
 */
#ifndef SRT_RECIPE_H
#define SRT_RECIPE_H

#include <jansson.h>
#include <string.h>
#include <stddef.h>

#include "model/engines.h"
#include "model/kinds.h"

enum role_id { ROLE_PREFILL, ROLE_DECODE, ROLE_AGG, ROLE_COUNT };
extern const char *const role_names[ROLE_COUNT]; /* "prefill", "decode", "agg" */

struct role {
	int present;
	json_t *cfg;        /* roles.<name>, may be any type if the recipe is wrong */
	int nodes;          /* -1 when null or absent; 0 when colocate */
	int colocate;       /* nodes: colocate */
	int workers;        /* as written, -1 when absent */
	int gpus;           /* as written, -1 when absent */
	int eff_workers;    /* workers, default 1 */
	int eff_gpus;       /* gpus, default nodes * gpus_per_node / workers (>= 1) */
	json_t *args;       /* roles.<name>.args when a mapping, else NULL */
	json_t *env;        /* roles.<name>.env when a mapping, else NULL */
	const char *engine; /* effective engine type for this role, NULL unknown */
	const struct engine *eng; /* its row; NULL when absent or unknown */
	json_t *engine_cfg; /* the engine mapping that applies (role's own, else
			     * the top-level one); NULL for the string form */
	/* vLLM only: the connector text after role/engine resolution (role
	 * args.connector, else engine.connector, else "nixl"); NULL = none
	 * (null, "", "none", "null").  Not a judgement of whether a worker of this
	 * role passes it: see connector.h. */
	const char *connector;
};

/* The strings of a service belong to its configuration (cfg, in the
 * recipe's root, or implied_cfg) or are the kinds table's: valid while the
 * recipe is.  implied_by alone is the service's own. */
struct service {
	const char *name;
	const char *type;            /* KIND_GENERIC's name when absent */
	const struct svc_kind *kind; /* NULL when the type is unknown */
	json_t *cfg;                 /* declared mapping, NULL for an implied service */
	int index;                   /* position in services[], -1 when implied */
	char *implied_by;            /* "agg connector lmcache-mp"; NULL when declared */
	const char *placement;       /* effective placement.node */
	const char *pool;            /* placement.pool or NULL */
	int per_worker;              /* placement.per: worker */
	const char *start;           /* effective start phase */
	int critical;                /* effective */
	int terminal;
	int pool_nodes;              /* services[].nodes, 0 when none */
	/* For an implied service, the config srtctl synthesises for it (name,
	 * type, placement, container, options), owned by the recipe; NULL for a
	 * declared one.  Use service_config() to read either. */
	json_t *implied_cfg;
};

/* The mapping that describes s: the declared entry, else the synthesised one. */
static inline json_t *service_config(const struct service *s)
{
	return s->cfg ? s->cfg : s->implied_cfg;
}

struct recipe {
	json_t *root;           /* reference held */
	const char *name;       /* NULL when absent */
	const char *engine;     /* top-level engine type (string or engine.type), NULL */
	json_t *engine_cfg;     /* engine mapping, NULL for the string form */
	const char *frontend;   /* frontend.type, default "dynamo" */
	const struct engine *eng;  /* engine's row; NULL when absent/unknown */
	const struct frontend *fe; /* frontend's row; NULL when unknown */
	int gpus_per_node;      /* resources.gpus_per_node, default 4 */
	int disagg;             /* prefill/decode rather than agg */
	struct role role[ROLE_COUNT];
	struct service *svc;    /* effective services, in launch-list order */
	size_t nsvc;
	int tachometer;         /* observability.tachometer collection on */
	int runs_nats;          /* a NATS service is effective (declared or implied) */
	/* From the cluster file (model/cluster.h), set by the caller after
	 * recipe_init: the GPU-mask variable workers get, and the shell snippet
	 * srtctl prepends to every container srun (NULL: none). */
	const char *visible_devices_env; /* "CUDA_VISIBLE_DEVICES" by default */
	const char *bash_preamble;
	/* the cluster's use_het_jobs: srtctl reads it where it renders the
	 * job, even for a recipe without a resources block (render/hetjob.h) */
	int use_het_jobs;
};

void recipe_init(struct recipe *r, json_t *root);
void recipe_release(struct recipe *r);

/* Helpers for reading a tree loosely: the value when it has the right type.
 * Inline, so that the length of a literal key is known where it is written:
 * the rules read some thousand keys per recipe validated. */
static inline json_t *jget_(json_t *obj, const char *key)
{
	return json_is_object(obj) ? json_object_getn(obj, key, strlen(key)) : NULL;
}
/* A value read loosely (v may be NULL): NULL unless a string; dflt unless
 * an integer; dflt unless a bool. */
static inline const char *jval_str(json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : NULL;
}
static inline int jval_int(json_t *v, int dflt)
{
	return json_is_integer(v) ? (int)json_integer_value(v) : dflt;
}
static inline int jval_bool(json_t *v, int dflt)
{
	return json_is_boolean(v) ? json_is_true(v) : dflt;
}
/* The same for obj's key. */
static inline const char *jget_str(json_t *obj, const char *key)
{
	return jval_str(jget_(obj, key));
}
static inline int jget_int(json_t *obj, const char *key, int dflt)
{
	return jval_int(jget_(obj, key), dflt);
}
static inline int jget_bool(json_t *obj, const char *key, int dflt)
{
	return jval_bool(jget_(obj, key), dflt);
}
/* NULL unless an object */
static inline json_t *jget_obj(json_t *obj, const char *key)
{
	json_t *v = jget_(obj, key);
	return json_is_object(v) ? v : NULL;
}
/* NULL unless an array */
static inline json_t *jget_arr(json_t *obj, const char *key)
{
	json_t *v = jget_(obj, key);
	return json_is_array(v) ? v : NULL;
}

/* The service that owns a path such as services[3] / the declared entry named
 * name; NULL when none. */
const struct service *recipe_service(const struct recipe *r, const char *name);

#endif
