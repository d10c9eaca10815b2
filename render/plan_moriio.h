/*
 * plan_moriio.h — vLLM's MoRI-IO connector (engine.connector: moriio) in the
 * launch plan.  MoRI-IO is srtctl's one discovery connector: its prefill and
 * decode workers register with the vLLM Router over ZMQ instead of being
 * listed on the router's command line, so the router gets the discovery
 * flags and no worker URLs, and each worker's --kv-transfer-config names the
 * router, its own address and HTTP port and the handshake and notify
 * listeners srtctl reserved for it.
 */
#ifndef SRT_PLAN_MORIIO_H
#define SRT_PLAN_MORIIO_H

#include "lib/util.h"
#include "model/recipe.h"
#include "render/topology.h"

/* srtctl's ports.py: the router's one discovery listener, and the first
 * handshake and notify ports (job-wide counters, one port per GPU of each
 * process, because MoRI-IO adds the local rank to the base it is given). */
enum {
	MORIIO_DISCOVERY_PORT = 36367,
	MORIIO_HANDSHAKE_PORT_BASE = 26000,
	MORIIO_NOTIFY_PORT_BASE = 27000,
};

/* Whether role's workers run MoRI-IO (its effective connector, any case). */
int moriio_role(const struct recipe *r, enum role_id role);

/* Whether the router learns its workers by discovery: prefill or decode
 * runs MoRI-IO (srtctl's discovers_workers). */
int moriio_discovery(const struct recipe *r);

/* Why srtctl refuses this recipe's MoRI-IO layout, malloc'd; NULL when the
 * launch plan can be rendered (or no role runs MoRI-IO). */
char *moriio_refusal(const struct recipe *r);

/* The handshake and notify base ports of process i of t: the GPUs of the
 * MoRI-IO processes launched before it, counted from each base. */
void moriio_proc_ports(const struct recipe *r, const struct topology *t, size_t i,
		       int *handshake, int *notify);

/* The --kv-transfer-config value of MoRI-IO process i of t, malloc'd; NULL
 * with *err set when it cannot be built. */
char *moriio_kv_config(const struct recipe *r, const struct topology *t, size_t i, char **err);

/* The router's discovery flags, which srtctl puts just before --host:
 * --kv-connector <prefill's connector> --vllm-discovery-address
 * 0.0.0.0:<MORIIO_DISCOVERY_PORT>. */
void moriio_router_argv(const struct recipe *r, struct strvec *argv);

#endif
