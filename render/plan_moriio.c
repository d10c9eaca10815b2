/*
 * plan_moriio.c — vLLM's MoRI-IO connector in the launch plan (see
 * plan_moriio.h).  Rules from srtctl's backends/vllm.py (009a4fa):
 * discovers_workers, kv_transfer_config and _discovery_extra_config (the
 * extra config keys and their order, every value a string but read_mode),
 * _with_connector_ports (a handshake and a notify block of one port per
 * GPU for each process, after the standard ports); ports.py (the bases);
 * core/topology.py NodePortAllocator.next (job-wide counters, a block
 * moves the counter past itself); frontends/vllm_router.py
 * (_validate_discovery's refusals, build_router_command's discovery flags)
 * and frontends/static_router.py (no --prefill/--decode URLs when the
 * router discovers its workers).
 */
#include "render/plan_moriio.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/json.h"
#include "model/schema.h"
#include "render/connector.h"

/* The connector srtctl's connector_for_mode reads for role: the role's own,
 * else engine.connector (vLLM's default nixl), present role or not. */
static const char *role_connector(const struct recipe *r, enum role_id role)
{
	const struct role *ro = &r->role[role];
	json_t *c;

	if (ro->present)
		return ro->engine && !strcmp(ro->engine, "vllm") ? ro->connector : NULL;
	if (!r->engine || strcmp(r->engine, "vllm"))
		return NULL;
	c = json_object_get(r->engine_cfg, "connector");
	if (!c)
		return "nixl";
	return json_is_string(c) ? json_string_value(c) : NULL;
}

static int is_moriio(const char *c)
{
	return c && !strcasecmp(c, "moriio");
}

int moriio_role(const struct recipe *r, enum role_id role)
{
	return r->role[role].present && is_moriio(role_connector(r, role));
}

int moriio_discovery(const struct recipe *r)
{
	return is_moriio(role_connector(r, ROLE_PREFILL)) || is_moriio(role_connector(r, ROLE_DECODE));
}

static const char *shown(const char *c)
{
	return c ? c : "None";
}

char *moriio_refusal(const struct recipe *r)
{
	json_t *fe = jget_obj(r->root, "frontend");
	int any = 0;

	for (int i = 0; i < ROLE_COUNT; i++)
		any |= moriio_role(r, (enum role_id)i);
	if (!any && !moriio_discovery(r))
		return NULL;
	if (!r->frontend || strcmp(r->frontend, "vllm-router"))
		return xstrdup("connector 'moriio' registers workers with the vLLM Router and needs the "
			       "worker topology; it is only available with frontend.type: vllm-router");
	if (!is_moriio(role_connector(r, ROLE_PREFILL)) || !is_moriio(role_connector(r, ROLE_DECODE)))
		return xasprintf("a discovery connector must be set on both prefill and decode so the roles "
				 "find each other through the Router; got prefill='%s', decode='%s'",
				 shown(role_connector(r, ROLE_PREFILL)), shown(role_connector(r, ROLE_DECODE)));
	if (r->role[ROLE_AGG].present && r->role[ROLE_AGG].eff_workers > 0)
		return xstrdup("a discovery connector requires a prefill/decode topology; aggregate workers "
			       "transfer no KV");
	if (jget_bool(fe, "enable_multiple_frontends",
		      schema_default_bool("frontend.enable_multiple_frontends", 1)))
		return xstrdup("vLLM Router discovery uses one registration endpoint; set "
			       "frontend.enable_multiple_frontends: false");
	if (strcmp(topo_block_placement(r, "frontend"), "head"))
		return xstrdup("vLLM Router discovery advertises the head node to every worker; set "
			       "frontend.placement.node: head");
	return NULL;
}

void moriio_proc_ports(const struct recipe *r, const struct topology *t, size_t i,
		       int *handshake, int *notify)
{
	int before = 0;

	/* every process of the job took its standard ports first; the MoRI-IO
	 * blocks are handed out afterwards, in launch order */
	for (size_t k = 0; k < i && k < t->nproc; k++)
		if (moriio_role(r, t->proc[k].role))
			before += t->proc[k].ngpus;
	*handshake = MORIIO_HANDSHAKE_PORT_BASE + before;
	*notify = MORIIO_NOTIFY_PORT_BASE + before;
}

char *moriio_kv_config(const struct recipe *r, const struct topology *t, size_t i, char **err)
{
	const struct topo_proc *pr = &t->proc[i];
	struct worker_ctx ctx = { 0 };

	ctx.node_ip = t->ip[pr->node];
	ctx.head_ip = t->ip[t->head];
	ctx.http_port = pr->http_port;
	ctx.nixl_port = pr->nixl_port;
	ctx.discovery_port = MORIIO_DISCOVERY_PORT;
	moriio_proc_ports(r, t, i, &ctx.moriio_handshake_port, &ctx.notify_port);
	return connector_kv_config(r, pr->role, &ctx, err);
}

void moriio_router_argv(const struct recipe *r, struct strvec *argv)
{
	char *c = xstrdup(shown(role_connector(r, ROLE_PREFILL)));

	for (char *q = c; *q; q++)
		*q = (char)tolower((unsigned char)*q);
	strvec_push(argv, "--kv-connector");
	strvec_push(argv, c);
	strvec_push(argv, "--vllm-discovery-address");
	strvec_pushf(argv, "0.0.0.0:%d", MORIIO_DISCOVERY_PORT);
	free(c);
}
