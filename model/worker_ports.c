/* The ports a role's engine workers listen on (worker_ports.h). */
#include <string.h>
#include <strings.h>

#include "model/worker_ports.h"
#include "model/facts.h"

/* The frontend layout the worker step takes: Dynamo, a router in front of
 * the workers' HTTP ports, or a worker serving the public port itself. */
static unsigned frontend_mode(const char *fe)
{
	static const char *const direct[] = { "vllm", "sglang", "trtllm_serve", "atom", NULL };
	if (!fe || !strcmp(fe, "dynamo"))
		return WP_FE_DYNAMO;
	for (const char *const *d = direct; *d; d++)
		if (!strcmp(fe, *d))
			return WP_FE_DIRECT;
	return WP_FE_ROUTER;
}

static unsigned engine_bit(const char *engine)
{
	if (engine && !strcmp(engine, "vllm"))
		return WP_VLLM;
	if (engine && !strcmp(engine, "sglang"))
		return WP_SGLANG;
	return 0;
}

/* Nodes one worker of ro spans (one process per node), and how many
 * worker leaders share a node. */
static int span_of(const struct recipe *r, const struct role *ro)
{
	int gpn = r->gpus_per_node > 0 ? r->gpus_per_node : 1;
	return ro->eff_gpus > gpn ? (ro->eff_gpus + gpn - 1) / gpn : 1;
}

static int leaders_per_node(const struct recipe *r, const struct role *ro)
{
	int gpn = r->gpus_per_node > 0 ? r->gpus_per_node : 1;
	int per = span_of(r, ro) > 1 ? 1 : gpn / (ro->eff_gpus > 0 ? ro->eff_gpus : 1);
	if (per < 1)
		per = 1;
	return per < ro->eff_workers ? per : ro->eff_workers;
}

size_t role_worker_ports(const struct recipe *r, enum role_id role, struct wport_range *out,
			 size_t max)
{
	const struct role *ro = &r->role[role];
	unsigned eng = engine_bit(ro->engine), fe = frontend_mode(r->frontend);
	int moriio = ro->connector && !strcasecmp(ro->connector, "moriio");
	int first = 0, procs, leaders, lead_off = 0;
	size_t n = 0;

	if (!ro->present || !eng || ro->eff_workers < 1)
		return 0;
	/* job-wide counters: the processes of the roles launched before it;
	 * each engine of a vLLM failover worker is a process of its own */
	for (int i = 0; i < (int)role; i++)
		if (r->role[i].present && r->role[i].eff_workers > 0)
			first += r->role[i].eff_workers * span_of(r, &r->role[i]) *
				 facts_engines_per_process(r, (enum role_id)i);
	procs = ro->eff_workers * span_of(r, ro) * facts_engines_per_process(r, role);
	leaders = leaders_per_node(r, ro) * facts_engines_per_process(r, role);
	/* a colocated decode shares the prefill nodes: their leaders come first */
	if (role == ROLE_DECODE && ro->colocate && r->role[ROLE_PREFILL].present)
		lead_off = leaders_per_node(r, &r->role[ROLE_PREFILL]) *
			   facts_engines_per_process(r, ROLE_PREFILL);
	for (size_t i = 0; i < worker_ports_count && n < max; i++) {
		const struct worker_port *wp = &worker_ports[i];
		struct wport_range w = { wp, 0, 0 };
		if (!(wp->engines & eng) || !(wp->frontends & fe) || (wp->not_moriio && moriio))
			continue;
		switch (wp->scope) {
		case WP_PROCESS:
			w.first = first;
			w.last = first + procs - 1;
			break;
		case WP_NODE_LEADER:
			w.first = lead_off;
			w.last = lead_off + leaders - 1;
			break;
		case WP_NODE_PREFILL_LEADER:
			if (role != ROLE_PREFILL)
				continue;
			w.last = leaders - 1;
			break;
		}
		out[n++] = w;
	}
	return n;
}

int wport_range_has(const struct wport_range *w, int port, int *lo, int *hi)
{
	int base = w->wp->base, stride = w->wp->stride;
	*lo = base + stride * w->first;
	*hi = base + stride * w->last;
	if (!stride)
		return port == base;
	return port >= *lo && port <= *hi && (port - base) % stride == 0;
}

int frontend_public_port(const struct recipe *r, const char **cls)
{
	const char *node = jget_str(jget_obj(jget_obj(r->root, "frontend"), "placement"), "node");
	unsigned fe = frontend_mode(r->frontend);

	if (fe == WP_FE_DIRECT || (r->frontend && !strcmp(r->frontend, "none")))
		return 0;
	if (!node || !strcmp(node, "head"))
		*cls = "head";
	else if (!strcmp(node, "first_decode"))
		*cls = role_names[ROLE_DECODE];
	else
		return 0; /* a node of its own */
	return FRONTEND_PUBLIC_PORT;
}
