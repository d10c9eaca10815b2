/*
 * facts.c — derived facts shared by validation, render and the TUI (see
 * facts.h).  The allocator follows srtctl's rules rather than an optimal
 * packing, because the point is to show (and check) what srtctl will do.
 */
#include "model/facts.h"
#include "model/kinds.h"
#include "model/schema.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/util.h"
#include "lib/json_read.h"

/* ---- the allocator (spec §2.3) --------------------------------------------- */

struct alloc_state {
	size_t node_idx;
	int gpu_offset;
	size_t nodes;
	int gpn;
	int spread;
	struct facts_slot *v;
	size_t n, alloc;
};

static struct facts_slot *push_slot(struct alloc_state *st)
{
	ALLOC_GROW(st->v, st->n + 1, st->alloc);
	struct facts_slot *p = &st->v[st->n++];
	memset(p, 0, sizeof(*p));
	return p;
}

static int not_enough(char **err, enum role_id role, int index, size_t nodes)
{
	if (err)
		*err = xasprintf("not enough nodes for %s worker %d: the allocation has %zu node%s; "
				 "raise roles.%s.nodes or lower workers/gpus",
				 role_names[role], index, nodes, nodes == 1 ? "" : "s", role_names[role]);
	return -1;
}

static int allocate_role(struct alloc_state *st, enum role_id role, int count, int gpus, char **err)
{
	int per_worker_nodes = (gpus + st->gpn - 1) / st->gpn;
	for (int i = 0; i < count; i++) {
		if (gpus >= st->gpn) {
			/* Whole nodes: srtctl does not rewind a partial offset here, it
			 * simply continues at node_idx (a partial node before it was
			 * already left by the fill/advance rules). */
			if (st->node_idx + per_worker_nodes > st->nodes)
				return not_enough(err, role, i, st->nodes);
			for (int k = 0; k < per_worker_nodes; k++) {
				struct facts_slot *p = push_slot(st);
				p->role = role;
				p->index = i;
				p->node_rank = k;
				p->node = st->node_idx + k;
				p->gpu_first = 0;
				p->ngpus = st->gpn;
			}
			st->node_idx += per_worker_nodes;
			continue;
		}
		if (st->gpu_offset + gpus > st->gpn) {
			st->node_idx++;
			st->gpu_offset = 0;
		}
		if (st->node_idx >= st->nodes)
			return not_enough(err, role, i, st->nodes);
		struct facts_slot *p = push_slot(st);
		p->role = role;
		p->index = i;
		p->node = st->node_idx;
		p->gpu_first = st->gpu_offset;
		p->ngpus = gpus;
		st->gpu_offset += gpus;
		if (st->gpu_offset >= st->gpn || st->spread) {
			st->node_idx++;
			st->gpu_offset = 0;
		}
	}
	return 0;
}

int facts_allocate(const int counts[ROLE_COUNT], const int gpus[ROLE_COUNT], int gpus_per_node,
		   size_t nodes, int spread, int allow_colocation, struct facts_slot **out,
		   size_t *n, char **err)
{
	struct alloc_state st = { 0, 0, nodes, gpus_per_node > 0 ? gpus_per_node : 1, spread,
				  NULL, 0, 0 };
	*out = NULL;
	*n = 0;
	for (int r = 0; r < ROLE_COUNT; r++) {
		if (counts[r] <= 0)
			continue;
		if (gpus[r] <= 0) {
			if (err)
				*err = xasprintf("roles.%s needs a positive GPU count per worker; set roles.%s.gpus",
						 role_names[r], role_names[r]);
			free(st.v);
			return -1;
		}
		/* Decode leaves a partially used prefill node when another node
		 * exists, so the two roles do not share a node by accident. */
		if (r == ROLE_DECODE && !allow_colocation && st.gpu_offset > 0 &&
		    st.node_idx + 1 < st.nodes) {
			st.node_idx++;
			st.gpu_offset = 0;
		}
		if (allocate_role(&st, (enum role_id)r, counts[r], gpus[r], err) < 0) {
			free(st.v);
			return -1;
		}
	}
	*out = st.v;
	*n = st.n;
	return 0;
}

/* ---- node counts -------------------------------------------------------------- */

int facts_spread(const struct recipe *r)
{
	return jget_bool(jget_obj(r->root, "resources"), "spread_workers", 0);
}

int facts_allow_colocation(const struct recipe *r)
{
	if (r->engine_cfg && r->engine && !strcmp(r->engine, "vllm"))
		return jget_bool(r->engine_cfg, "allow_prefill_decode_colocation", 0);
	return 0;
}

int facts_engines_per_process(const struct recipe *r, enum role_id role)
{
	const struct role *ro = &r->role[role];
	json_t *ec = ro->engine_cfg ? ro->engine_cfg : r->engine_cfg;
	json_t *fo = json_object_get(ec, "failover");
	int shadows;
	if (!ro->present || !ro->engine || strcmp(ro->engine, "vllm") || !json_is_object(fo))
		return 1;
	shadows = jget_int(fo, "shadow_engines", schema_default_int("engine.failover.shadow_engines", 1));
	return shadows >= 1 ? 1 + shadows : 1; /* srtctl refuses fewer than one */
}

long facts_nodes_needed(int workers, int gpus, int gpus_per_node, int spread)
{
	long w = workers, g = gpus, gpn = gpus_per_node;
	if (g <= 0 || gpn <= 0)
		return -1;
	if (w <= 0)
		return 0;
	if (g >= gpn)
		return w * ((g + gpn - 1) / gpn);
	if (spread)
		return w;
	long per = gpn / g;
	return (w + per - 1) / per;
}

long facts_role_need(const struct recipe *r, enum role_id role)
{
	const struct role *ro = &r->role[role];
	if (!ro->present || ro->colocate)
		return 0;
	return facts_nodes_needed(ro->eff_workers, ro->eff_gpus, r->gpus_per_node, facts_spread(r));
}

int facts_role_nodes(const struct recipe *r, enum role_id role)
{
	const struct role *ro = &r->role[role];
	if (!ro->present || ro->colocate)
		return 0;
	if (ro->nodes >= 0)
		return ro->nodes;
	if (ro->gpus <= 0)
		return -1;
	long need = facts_role_need(r, role);
	return need > 0x7fffffffL ? -1 : (int)need;
}

int facts_engine_nodes(const struct recipe *r)
{
	long total = 0;
	for (int i = 0; i < ROLE_COUNT; i++) {
		int n = facts_role_nodes(r, (enum role_id)i);
		if (n < 0)
			return -1;
		total += n;
	}
	return total > 0x7fffffffL ? -1 : (int)total;
}

int facts_role_fits(const struct recipe *r, enum role_id role, long *need)
{
	const struct role *ro = &r->role[role];
	long n = 0;
	if (ro->present && !ro->colocate && ro->nodes > 0)
		n = facts_role_need(r, role);
	if (need)
		*need = n;
	return !(ro->present && !ro->colocate && ro->nodes > 0 && n > ro->nodes);
}

int facts_place_workers(const struct recipe *r, size_t nodes, struct facts_slot **out, size_t *n,
			char **err)
{
	int counts[ROLE_COUNT], gpus[ROLE_COUNT];
	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct role *ro = &r->role[i];
		counts[i] = ro->present ? ro->eff_workers : 0;
		gpus[i] = ro->eff_gpus;
	}
	return facts_allocate(counts, gpus, r->gpus_per_node, nodes, facts_spread(r),
			      facts_allow_colocation(r), out, n, err);
}

int facts_workers_fit(const struct recipe *r, char **err)
{
	int nodes = facts_engine_nodes(r);
	struct facts_slot *v;
	size_t n;
	if (nodes < 0)
		return -1;
	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct role *ro = &r->role[i];
		long need;
		if (!facts_role_fits(r, (enum role_id)i, &need)) {
			if (err)
				*err = xasprintf("roles.%s: %d worker%s x %d GPU%s need %ld node%s of %d GPUs; "
						 "nodes is %d", role_names[i], ro->eff_workers,
						 ro->eff_workers == 1 ? "" : "s", ro->eff_gpus,
						 ro->eff_gpus == 1 ? "" : "s", need, need == 1 ? "" : "s",
						 r->gpus_per_node, ro->nodes);
			return 0;
		}
	}
	/* A job of a million nodes is a typo; do not allocate for it. */
	long workers = 0;
	for (int i = 0; i < ROLE_COUNT; i++)
		workers += r->role[i].present ? r->role[i].eff_workers : 0;
	if (workers > 100000 || nodes > 100000) {
		if (err)
			*err = xasprintf("%ld workers on %d nodes is more than srt-tui plans", workers, nodes);
		return 0;
	}
	if (facts_place_workers(r, (size_t)nodes, &v, &n, err) < 0)
		return 0;
	free(v);
	return 1;
}

/* ---- where a service runs ------------------------------------------------------ */

static int placement_role(const char *pl)
{
	for (int i = 0; i < ROLE_COUNT; i++)
		if (!strcmp(pl, role_names[i]))
			return i;
	return -1;
}

static const char *block_placement(const struct recipe *r, const char *block)
{
	json_t *p = jget_obj(jget_obj(r->root, block), "placement");
	const char *s = p ? jget_str(p, "node") : NULL;
	return s ? s : "head";
}

static int role_on_node(const struct facts_slot *v, size_t n, enum role_id role, size_t node)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].role == role && v[i].node == node)
			return 1;
	return 0;
}

int facts_service_covers_role(const struct recipe *r, const struct service *s, enum role_id role)
{
	if (!r->role[role].present || s->pool)
		return 0;
	const char *pl = s->placement ? s->placement : "head";
	if (!strcmp(pl, "all") || !strcmp(pl, "compute"))
		return 1;
	if (!strcmp(pl, "workers"))
		return s->pool_nodes <= 0; /* a service that owns nodes runs on its pool */
	if (!strcmp(pl, "dedicated"))
		return 0;
	int pr = placement_role(pl);
	if (pr == (int)role)
		return 1;
	/* The rest depends on the allocation: place the workers on the job's
	 * own engine nodes and compare node sets. */
	int nodes = facts_engine_nodes(r);
	struct facts_slot *v;
	size_t n;
	if (nodes <= 0 || facts_place_workers(r, (size_t)nodes, &v, &n, NULL) < 0)
		return 0;
	int covered = 0, any = 0;
	if (pr >= 0) {
		covered = 1;
		for (size_t i = 0; i < n; i++)
			if (v[i].role == role) {
				any = 1;
				covered &= role_on_node(v, n, (enum role_id)pr, v[i].node);
			}
	} else if (!strcmp(pl, "head") || !strcmp(pl, "infra")) {
		/* the head is the first engine node unless the frontend takes a
		 * dedicated one; infra is the head unless something is dedicated */
		int head_off = !strcmp(block_placement(r, "frontend"), "dedicated");
		int infra_off = 0;
		for (size_t i = 0; i < r->nsvc; i++)
			if (r->svc[i].placement && !strcmp(r->svc[i].placement, "dedicated"))
				infra_off = 1;
		if (!(head_off || (!strcmp(pl, "infra") && infra_off))) {
			covered = 1;
			for (size_t i = 0; i < n; i++)
				if (v[i].role == role) {
					any = 1;
					covered &= v[i].node == 0;
				}
		}
	}
	free(v);
	return covered && any;
}

/* ---- LMCache MP ------------------------------------------------------------------- */

int facts_local_host(const char *h)
{
	if (!h)
		return 1;
	if (!strncmp(h, "tcp://", 6))
		h += 6;
	return !strcmp(h, "localhost") || !strncmp(h, "127.", 4) || !strcmp(h, "0.0.0.0") ||
	       !strcmp(h, "::1") || !strcmp(h, "[::1]");
}

static int json_uses_local_mp(json_t *cfg, int depth)
{
	const char *kc = jget_str(cfg, "kv_connector");
	if (!kc || depth > 8)
		return 0;
	json_t *extra = jget_obj(cfg, "kv_connector_extra_config");
	if (!strcmp(kc, "LMCacheMPConnector"))
		return facts_local_host(jget_str(extra, "lmcache.mp.host"));
	if (!strcmp(kc, "MultiConnector")) {
		size_t i;
		json_t *e;
		json_array_foreach(jget_arr(extra, "connectors"), i, e)
			if (json_uses_local_mp(e, depth + 1))
				return 1;
	}
	return 0;
}

int facts_connector_uses_local_mp(const char *c)
{
	if (!c)
		return 0;
	while (isspace((unsigned char)*c))
		c++;
	if (*c != '{')
		return !strcasecmp(c, "lmcache-mp"); /* a preset name */
	json_error_t e;
	json_t *j = json_read(c, 0, &e);
	int r = j && json_uses_local_mp(j, 0);
	json_decref(j);
	return r;
}

int facts_connector_json_uses_local_mp(json_t *cfg)
{
	return json_uses_local_mp(cfg, 0);
}

int facts_role_uses_local_lmcache(const struct recipe *r, enum role_id role)
{
	const struct role *ro = &r->role[role];
	if (!ro->present || !ro->engine || strcmp(ro->engine, "vllm"))
		return 0;
	return facts_connector_uses_local_mp(ro->connector);
}

int facts_lmcache_server_on_role(const struct recipe *r, enum role_id role)
{
	for (size_t i = 0; i < r->nsvc; i++) {
		const struct service *s = &r->svc[i];
		const char *ext = jget_str(service_config(s), "external");
		if (svc_kind_is(s->type, KIND_LMCACHE_SERVER) && !(ext && *ext) &&
		    facts_service_covers_role(r, s, role))
			return 1;
	}
	return 0;
}
