/*
 * plan_sglang_pub.h — an SGLang worker's event publishers in the launch
 * plan: roles.<role>.kv_events (--kv-events-config, with an optional replay
 * listener) and args.load-publish-endpoint, on the ports srtctl allocates
 * (srtctl 5bb0467, backends/sglang.py _publisher_args and
 * endpoints_to_processes; ports.py).
 */
#ifndef SRT_PLAN_SGLANG_PUB_H
#define SRT_PLAN_SGLANG_PUB_H

#include <jansson.h>

#include "lib/util.h"
#include "model/recipe.h"

/* The role's KV-event publisher config over srtctl's ZMQ defaults (a new
 * reference), NULL when the role publishes none. */
json_t *sglang_kv_events(const struct role *ro);
/* Whether the role's replay listener / load publisher is on. */
int sglang_kv_replay(const struct role *ro);
int sglang_load_publishing(const struct role *ro);
/* Caches a worker of the role publishes for (dp-size x attn-dp-size). */
int sglang_publisher_count(const struct role *ro);

/* --kv-events-config and --load-publish-endpoint for one process, given
 * its ports (replay / load unused when off). */
void sglang_publisher_args(const struct role *ro, int kv_port, int replay_port, int load_port,
			   struct strvec *argv);

#endif
