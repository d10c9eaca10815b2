/*
 * service.h — services as srtctl launches and previews them: the argv of an
 * instance (kind default command or the recipe's, plus args, placeholders
 * substituted), its environment (spec §4.6), and the dry-run "Services:"
 * block (spec §6.2).
 */
#ifndef SRT_SERVICE_H
#define SRT_SERVICE_H

#include <jansson.h>

#include "model/recipe.h"
#include "lib/util.h"
#include "render/envmap.h"

/* Placeholder values of one instance (spec §4.6).  v[i] is the text of
 * placeholder i, borrowed; NULL leaves "{name}" as written.  A NULL
 * struct service_vars pointer means preview values ("<node>", "<node_ip>",
 * ...; the constants {master_port}, {metadata_port}, {gpus_per_node} print
 * their value). */
enum service_var {
	SV_NODE, SV_NODE_IP, SV_NODE_ID, SV_INDEX, SV_ROLE, SV_HEAD_NODE, SV_HEAD_IP,
	SV_INFRA_NODE, SV_INFRA_IP, SV_MASTER_PORT, SV_METADATA_PORT, SV_GPUS_PER_NODE,
	SV_POOL_NODE, SV_POOL_IP, SV_POOL_NODES, SV_POOL_IPS, SV_POOL_NODE_COUNT,
	SV_WORKER_ROLE, SV_WORKER_INDEX, SV_WORKER_NODE_RANK, SV_WORKER_GPUS,
	SV_WORKER_GPU_COUNT, SV_COUNT
};
struct service_vars {
	const char *v[SV_COUNT];
	/* Not a placeholder: the IP of the service's first instance, where a
	 * cluster the service forms itself listens (a Ray head); NULL unknown. */
	const char *cluster_ip;
};
/* Set a value by placeholder name ("node_ip"); -1 when srtctl knows no such name. */
int service_vars_set(struct service_vars *vars, const char *name, const char *value);

/* Append s with its placeholders substituted (command, args, env, preamble). */
void service_subst(struct strbuf *out, const struct recipe *r, const struct service_vars *vars,
		   const char *s);

void service_argv(const struct recipe *r, const struct service *s,
		  const struct service_vars *vars, struct strvec *out);
/* shlex.join of service_argv, appended to out without an argv in between
 * (a plan formats thousands of instances).  *varies (varies may be NULL):
 * whether it can differ between instances (a string of the recipe's names
 * a placeholder other than the plan-wide ones; a Ray line), so that a plan
 * builds it once otherwise. */
void service_command(struct strbuf *out, const struct recipe *r, const struct service *s,
		     const struct service_vars *vars, int *varies);
/* Env of one instance as an object (new reference), layered as spec §4.6. */
json_t *service_env(const struct recipe *r, const struct service *s,
		    const struct service_vars *vars);
/* What service_env looks up in the recipe once for every instance: the
 * `external` endpoints of declared etcd / nats services (borrowed from r).
 * A plan with thousands of instances fills it once and calls
 * service_env_ctx. */
struct service_ctx {
	const char *etcd_external, *nats_external;
};
void service_ctx_init(struct service_ctx *c, const struct recipe *r);
json_t *service_env_ctx(const struct recipe *r, const struct service *s,
			const struct service_vars *vars, const struct service_ctx *c);
/* The same into m (keys borrowed from the recipe or static); *varies
 * (varies may be NULL): whether a string of the recipe's env names a
 * placeholder other than the plan-wide ones. */
void service_env_fill(struct envmap *m, const struct recipe *r, const struct service *s,
		      const struct service_vars *vars, const struct service_ctx *c, int *varies);
/* Every member of the env mapping src set into m as str(), placeholders
 * substituted (keys borrowed from src).  The launch plan layers worker and
 * frontend env with it. */
void service_env_layer(struct envmap *m, const struct recipe *r,
		       const struct service_vars *vars, json_t *src);

/* The kind's own preamble for s (etcd and NATS: a fresh data dir on /tmp;
 * NATS with options.max_payload_mb also writes its config file), before
 * the recipe's; malloc'd, NULL when the kind has none. */
char *service_kind_preamble(const struct service *s);

/* Container image: recipe, kind fallback, or "<job container>" in previews
 * (job_container NULL) / model.container. */
const char *service_container(const struct recipe *r, const struct service *s,
			      const char *job_container);

/* The dry-run block, "Services:\n  ..." ; appends nothing when there are no
 * effective services. */
void render_services_block(struct strbuf *out, const struct recipe *r);

#endif
