/*
 * service_ray.h — what a `type: ray` service runs (srtctl's services/ray.py):
 * one raylet per node of the service, the first instance the head (`ray
 * start --head`), every other one joining it once its GCS port accepts
 * connections, each with a device view that matches its --num-gpus.
 */
#ifndef SRT_SERVICE_RAY_H
#define SRT_SERVICE_RAY_H

#include "model/recipe.h"
#include "lib/util.h"
#include "render/service.h"

/* The GPUs each raylet offers: options.num_gpus, else the node's count. */
int ray_num_gpus(const struct recipe *r, const struct service *s);

/* The argv of one instance into out: vars gives its index (0 is the head),
 * its node_ip and cluster_ip (the head's); NULL vars is srtctl's dry-run
 * preview, the head on "<node_ip>" with "<gpus_per_node>" GPUs unless
 * options.num_gpus says.  The service's args end the `ray start` line, with
 * their placeholders substituted. */
void ray_argv(const struct recipe *r, const struct service *s, const struct service_vars *vars,
	      struct strvec *out);

/* The env the kind gives every instance before the recipe's env, as
 * name/value pairs: value i of names[i] into vals[i] (malloc'd).  NULL
 * vars is the preview, where the GPU count is a placeholder unless
 * options.num_gpus gives it (as in the argv). */
enum { RAY_ENV_COUNT = 2 };
void ray_default_env(const struct recipe *r, const struct service *s,
		     const struct service_vars *vars, const char *names[RAY_ENV_COUNT],
		     char *vals[RAY_ENV_COUNT]);

#endif
