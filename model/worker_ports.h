/*
 * worker_ports.h — which ports a role's engine workers listen on, from the
 * worker port table of kinds.h and the recipe's counts (workers, GPUs per
 * worker, GPUs per node), without building the launch topology: each entry
 * is the range of numbers the role's processes or leaders get, for the
 * port-clash check.  Pure; nothing to free.
 */
#ifndef SRT_WORKER_PORTS_H
#define SRT_WORKER_PORTS_H

#include <stddef.h>

#include "model/kinds.h"
#include "model/recipe.h"

/* One port of the table, and the counters the role's processes take:
 * ports base + stride * k for k in first..last. */
struct wport_range {
	const struct worker_port *wp;
	int first, last;
};

/* The ports role's workers bind (none for an engine other than vLLM and
 * SGLang, or an absent role); returns how many were written to out. */
size_t role_worker_ports(const struct recipe *r, enum role_id role, struct wport_range *out,
			 size_t max);
/* Is port one of w's?  The lowest and highest port of w in *lo, *hi. */
int wport_range_has(const struct wport_range *w, int port, int *lo, int *hi);

/* The public port of a Dynamo or router frontend, with the class of the
 * node it runs on in *cls ("head", or "decode" for first_decode); 0 when
 * the workers serve it themselves, there is none, or it has a node of its
 * own. */
int frontend_public_port(const struct recipe *r, const char **cls);

#endif
