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
#include "model/util.h"

/* vars maps placeholder names ("node", "node_ip", "infra_ip", ...) to text;
 * NULL means preview values ("<node>", "<node_ip>", ...). */
void service_argv(const struct recipe *r, const struct service *s, json_t *vars,
		  struct strvec *out);
/* Env of one instance as an object (new reference), layered as spec §4.6. */
json_t *service_env(const struct recipe *r, const struct service *s, json_t *vars);
/* What service_env looks up in the recipe once for every instance: the
 * `external` endpoints of declared etcd / nats services (borrowed from r).
 * A plan with thousands of instances fills it once and calls
 * service_env_ctx. */
struct service_ctx {
	const char *etcd_external, *nats_external;
};
void service_ctx_init(struct service_ctx *c, const struct recipe *r);
json_t *service_env_ctx(const struct recipe *r, const struct service *s, json_t *vars,
			const struct service_ctx *c);
/* Container image: recipe, kind fallback, or "<job container>" in previews
 * (job_container NULL) / model.container. */
const char *service_container(const struct recipe *r, const struct service *s,
			      const char *job_container);

/* The dry-run block, "Services:\n  ..." ; appends nothing when there are no
 * effective services. */
void render_services_block(struct strbuf *out, const struct recipe *r);

#endif
