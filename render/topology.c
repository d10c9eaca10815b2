/*
 * topology.c — node list, worker allocation, ports and service instances
 * (see topology.h).  The allocation follows srtctl's rules rather than an
 * optimal packing, because the point is to show what srtctl will do.
 */
#include "render/topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "model/facts.h"
#include "model/schema.h"
#include "render/vllm_dp.h"

static const char *str_or(const char *s, const char *dflt)
{
	return s ? s : dflt;
}

const char *topo_block_placement(const struct recipe *r, const char *block)
{
	json_t *b = jget_obj(r->root, block);
	json_t *p = b ? jget_obj(b, "placement") : NULL;
	return str_or(p ? jget_str(p, "node") : NULL, "head");
}

static int infra_dedicated(const struct recipe *r)
{
	for (size_t i = 0; i < r->nsvc; i++)
		if (r->svc[i].placement && !strcmp(r->svc[i].placement, "dedicated"))
			return 1;
	return 0;
}

static int frontend_dedicated(const struct recipe *r)
{
	return !strcmp(topo_block_placement(r, "frontend"), "dedicated");
}

static int client_dedicated(const struct recipe *r)
{
	return !strcmp(topo_block_placement(r, "benchmark"), "dedicated");
}

/* Nodes the engine roles reserve (facts.h: one rule for validate, render
 * and the TUI); -1 when a role's count cannot be known. */
static int engine_node_count(const struct recipe *r)
{
	return facts_engine_nodes(r);
}

int topo_infra_dedicated(const struct recipe *r)
{
	return infra_dedicated(r);
}

int topo_job_nodes(const struct recipe *r)
{
	int total = engine_node_count(r);
	if (total < 0)
		return -1;
	if (infra_dedicated(r) || frontend_dedicated(r) || client_dedicated(r))
		total++;
	for (size_t i = 0; i < r->nsvc; i++)
		total += r->svc[i].pool_nodes > 0 ? r->svc[i].pool_nodes : 0;
	return total;
}

/* ---- worker allocation (spec §2.3): model/facts.c ------------------------- */

int topo_allocate(const int counts[ROLE_COUNT], const int gpus[ROLE_COUNT], int gpus_per_node,
		  size_t nodes, int spread, int allow_colocation, struct topo_proc **proc,
		  size_t *nproc, char **err)
{
	struct facts_slot *v;
	size_t n;
	*proc = NULL;
	*nproc = 0;
	if (facts_allocate(counts, gpus, gpus_per_node, nodes, spread, allow_colocation, &v, &n,
			   err) < 0)
		return -1;
	struct topo_proc *p = xcalloc(n ? n : 1, sizeof(*p));
	for (size_t i = 0; i < n; i++) {
		p[i].role = v[i].role;
		p[i].index = v[i].index;
		p[i].node_rank = v[i].node_rank;
		p[i].node = v[i].node;
		p[i].gpu_first = v[i].gpu_first;
		p[i].ngpus = v[i].ngpus;
	}
	free(v);
	*proc = p;
	*nproc = n;
	return 0;
}

/* ---- node list and ports -------------------------------------------------- */

static void set_nodes(struct topology *t, const char *const *names, size_t n, size_t want)
{
	if (names) {
		t->nnodes = n;
		t->node = xcalloc(n ? n : 1, sizeof(char *));
		t->ip = xcalloc(n ? n : 1, sizeof(char *));
		for (size_t i = 0; i < n; i++) {
			t->node[i] = xstrdup(names[i]);
			t->ip[i] = xstrdup(names[i]);
		}
		return;
	}
	/* The snapshot harness hands srtctl two spare nodes beyond the
	 * engine's and the pools' nodes. */
	t->mock = 1;
	t->nnodes = want + 2;
	t->node = xcalloc(t->nnodes, sizeof(char *));
	t->ip = xcalloc(t->nnodes, sizeof(char *));
	for (size_t i = 0; i < t->nnodes; i++) {
		t->node[i] = xasprintf("node-%02zu", i + 1);
		t->ip[i] = xstrdup("127.0.0.1");
	}
}

static void assign_ports(struct topology *t)
{
	int *http = xcalloc(t->nnodes ? t->nnodes : 1, sizeof(int));
	int *boot = xcalloc(t->nnodes ? t->nnodes : 1, sizeof(int));
	int sys = TOPO_SYS_BASE, kv = TOPO_KV_EVENTS_BASE, nixl = TOPO_NIXL_BASE;
	int vllm = TOPO_VLLM_PORT_BASE;
	for (size_t i = 0; i < t->nproc; i++) {
		struct topo_proc *p = &t->proc[i];
		/* every engine of a process takes its own slot of each counter
		 * (topo_engine) */
		int e = p->engines > 0 ? p->engines : 1;
		if (p->node_rank == 0 && p->role == ROLE_PREFILL) {
			p->bootstrap_port = TOPO_BOOTSTRAP_BASE + boot[p->node];
			boot[p->node] += e;
		}
		if (p->role == ROLE_PREFILL && p->node_rank > 0)
			p->bootstrap_port = t->proc[i - p->node_rank].bootstrap_port;
		if (p->node_rank == 0) {
			p->http_port = TOPO_HTTP_BASE + TOPO_HTTP_STRIDE * http[p->node];
			http[p->node] += e;
		}
		p->kv_events_port = kv;
		p->nixl_port = nixl;
		p->sys_port = sys;
		kv += e;
		nixl += e;
		sys += e;
		p->nccl_port = TOPO_NCCL_BASE + (p->sys_port - TOPO_SYS_BASE);
		p->vllm_port = vllm;
		vllm += TOPO_VLLM_PORT_STRIDE * e;
	}
	free(http);
	free(boot);
}

int topo_build(struct topology *t, const struct recipe *r, const char *const *names,
	       size_t nnames, char **err)
{
	int counts[ROLE_COUNT], gpus[ROLE_COUNT];
	size_t reserved_front = 0, reserved_back = 0, remaining, engine_nodes, cursor;
	int infra_d = infra_dedicated(r), front_d = frontend_dedicated(r);
	int client_d = client_dedicated(r);
	struct topo_proc *proc;
	size_t nproc;

	memset(t, 0, sizeof(*t));
	t->gpus_per_node = r->gpus_per_node > 0 ? r->gpus_per_node : 1;
	t->job_nodes = topo_job_nodes(r);
	if (!names && t->job_nodes < 0) {
		*err = xstrdup("cannot tell how many nodes the job needs: give every role "
			       "'nodes' (or 'gpus' and 'workers')");
		return -1;
	}
	/* A role's workers stay on the nodes it reserves (the rule validate
	 * checks, from the same fact). */
	for (int i = 0; i < ROLE_COUNT; i++) {
		long need;
		if (!facts_role_fits(r, (enum role_id)i, &need)) {
			*err = xasprintf("not enough nodes for roles.%s: its workers need %ld node%s, "
					 "nodes is %d; raise roles.%s.nodes or lower workers/gpus",
					 role_names[i], need, need == 1 ? "" : "s", r->role[i].nodes,
					 role_names[i]);
			return -1;
		}
	}
	{
		/* The harness lists srtctl's total_nodes + 2, and total_nodes counts
		 * no dedicated node: the sbatch asks for that one on top
		 * (docs/decisions.md "Node count"). */
		int want = t->job_nodes - (infra_d || front_d || client_d ? 1 : 0);
		set_nodes(t, names, nnames, names ? 0 : (size_t)(want > 0 ? want : 0));
	}
	if (t->nnodes == 0) {
		*err = xstrdup("the node list is empty: give at least one node");
		topo_release(t);
		return -1;
	}

	/* Dedicated roles share one reserved node (srtctl's default
	 * colocate_dedicated_nodes); a dedicated benchmark client takes the
	 * last node instead of the first. */
	if (client_d)
		reserved_back = 1;
	else if (infra_d || front_d)
		reserved_front = 1;
	if (reserved_front + reserved_back >= t->nnodes) {
		*err = xasprintf("a dedicated node needs at least %zu nodes; the list has %zu",
				 reserved_front + reserved_back + 1, t->nnodes);
		topo_release(t);
		return -1;
	}
	remaining = t->nnodes - reserved_front - reserved_back;
	t->worker_first = reserved_front;
	t->nworker = remaining;

	/* Service pools are carved after the engine's own nodes. */
	for (size_t i = 0; i < r->nsvc; i++)
		if (r->svc[i].pool_nodes > 0)
			t->npool++;
	if (t->npool) {
		int en = engine_node_count(r);
		size_t need;
		engine_nodes = en > 0 ? (size_t)en : 0;
		need = engine_nodes;
		for (size_t i = 0; i < r->nsvc; i++)
			need += r->svc[i].pool_nodes > 0 ? (size_t)r->svc[i].pool_nodes : 0;
		if (remaining < need) {
			*err = xasprintf("the allocation has %zu non-reserved node(s) but the recipe "
					 "needs %zu (engine roles plus service pools)", remaining, need);
			topo_release(t);
			return -1;
		}
		t->nworker = engine_nodes;
		t->pool = xcalloc(t->npool, sizeof(*t->pool));
		cursor = t->worker_first + engine_nodes;
		for (size_t i = 0, k = 0; i < r->nsvc; i++) {
			if (r->svc[i].pool_nodes <= 0)
				continue;
			t->pool[k].service = r->svc[i].name;
			t->pool[k].first = cursor;
			t->pool[k].count = (size_t)r->svc[i].pool_nodes;
			cursor += t->pool[k].count;
			k++;
		}
	}

	if (front_d)
		t->head = 0;
	else if (t->nworker)
		t->head = t->worker_first;
	else
		t->head = t->npool ? t->pool[0].first : t->worker_first;
	t->infra = infra_d ? 0 : t->head;
	t->bench = client_d ? t->nnodes - 1 : t->head;

	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct role *ro = &r->role[i];
		counts[i] = ro->present ? ro->eff_workers : 0;
		gpus[i] = ro->eff_gpus;
	}
	if (topo_allocate(counts, gpus, t->gpus_per_node, t->nworker, facts_spread(r),
			  facts_allow_colocation(r), &proc, &nproc, err) < 0) {
		topo_release(t);
		return -1;
	}
	for (size_t i = 0; i < nproc; i++) {
		proc[i].node += t->worker_first;
		proc[i].engines = facts_engines_per_process(r, proc[i].role);
	}
	t->proc = proc;
	t->nproc = nproc;
	assign_ports(t);
	vllm_dp_ports(t, r); /* vLLM DP workers take port blocks (vllm_dp.h) */
	return 0;
}

void topo_release(struct topology *t)
{
	for (size_t i = 0; i < t->nnodes; i++) {
		free(t->node[i]);
		free(t->ip[i]);
	}
	free(t->node);
	free(t->ip);
	free(t->pool);
	free(t->proc);
	memset(t, 0, sizeof(*t));
}

/* ---- service instances (spec §4.3, §4.7) ---------------------------------- */

static void add_node(size_t *v, size_t *n, size_t node)
{
	for (size_t i = 0; i < *n; i++)
		if (v[i] == node)
			return;
	v[(*n)++] = node;
}

size_t topo_role_nodes(const struct topology *t, enum role_id role, size_t *out)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nproc; i++)
		if (t->proc[i].role == role)
			add_node(out, &n, t->proc[i].node);
	return n;
}

static const struct topo_pool *find_pool(const struct topology *t, const char *name)
{
	for (size_t i = 0; name && i < t->npool; i++)
		if (!strcmp(t->pool[i].service, name))
			return &t->pool[i];
	return NULL;
}

static void add_range(size_t *v, size_t *n, size_t first, size_t count)
{
	for (size_t i = 0; i < count; i++)
		add_node(v, n, first + i);
}

/* The role a placement names ("prefill", "decode", "agg"), or -1. */
static int placement_role(const char *pl)
{
	for (int i = 0; i < ROLE_COUNT; i++)
		if (!strcmp(pl, role_names[i]))
			return i;
	return -1;
}

/* Nodes a placement selects, deduplicated, in order. */
static size_t placement_nodes(const struct topology *t, const struct service *s, size_t *v)
{
	const char *pl = s->placement ? s->placement : "head";
	int role = placement_role(pl);
	const struct topo_pool *pool;
	size_t n = 0;

	if (s->pool) {
		pool = find_pool(t, s->pool);
		if (pool)
			add_range(v, &n, pool->first, pool->count);
		return n;
	}
	/* A service that owns nodes (services[].nodes) runs on them, one
	 * instance per node (srtctl's features/torchrun-pool snapshot: a generic
	 * service with nodes: 2 and no placement starts on both). */
	pool = s->pool_nodes > 0 && (!strcmp(pl, "head") || !strcmp(pl, "workers"))
		       ? find_pool(t, s->name) : NULL;
	if (pool) {
		add_range(v, &n, pool->first, pool->count);
		return n;
	}
	if (!strcmp(pl, "head")) {
		add_node(v, &n, t->head);
	} else if (!strcmp(pl, "infra") || !strcmp(pl, "dedicated")) {
		add_node(v, &n, t->infra);
	} else if (role >= 0) {
		n = topo_role_nodes(t, (enum role_id)role, v);
	} else if (!strcmp(pl, "workers")) {
		/* A service that owns nodes runs on its own pool. */
		pool = s->pool_nodes > 0 ? find_pool(t, s->name) : NULL;
		if (pool)
			add_range(v, &n, pool->first, pool->count);
		else
			add_range(v, &n, t->worker_first, t->nworker);
	} else if (!strcmp(pl, "compute") || !strcmp(pl, "all")) {
		if (!strcmp(pl, "all")) {
			add_node(v, &n, t->head);
			add_node(v, &n, t->infra);
			add_node(v, &n, t->bench);
		}
		add_range(v, &n, t->worker_first, t->nworker);
		for (size_t i = 0; i < t->npool; i++)
			add_range(v, &n, t->pool[i].first, t->pool[i].count);
	}
	return n;
}

size_t topo_frontend_nodes(const struct topology *t, const struct recipe *r, size_t *out,
			   int *nginx)
{
	json_t *fe = jget_obj(r->root, "frontend");
	int extra = jget_int(fe, "num_additional_frontends",
			     schema_default_int("frontend.num_additional_frontends", 9));
	size_t want = extra >= 0 ? (size_t)extra + 1 : 1, n = 0;

	*nginx = 0;
	if (t->nworker == 1 ||
	    !jget_bool(fe, "enable_multiple_frontends",
		       schema_default_bool("frontend.enable_multiple_frontends", 1))) {
		out[0] = t->head;
		return 1;
	}
	/* nginx on the head node, replicas on the other worker nodes in order */
	for (size_t i = t->worker_first; i < t->worker_first + t->nworker && n < want; i++)
		if (i != t->head)
			out[n++] = i;
	if (!n) { /* no worker node besides the head: srtctl would start none */
		out[0] = t->head;
		return 1;
	}
	*nginx = 1;
	return n;
}

struct topo_proc topo_engine(const struct topo_proc *p, int k)
{
	struct topo_proc e = *p;
	e.sys_port += k;
	e.kv_events_port += k;
	e.nixl_port += k;
	e.nccl_port += k;
	e.vllm_port += TOPO_VLLM_PORT_STRIDE * k;
	if (e.http_port)
		e.http_port += TOPO_HTTP_STRIDE * k;
	/* a prefill follower shares its leader's engine's bootstrap port */
	if (e.bootstrap_port)
		e.bootstrap_port += k;
	return e;
}

const char *topo_job_id(const struct topology *t)
{
	return t->mock ? "4242" : "<job_id>";
}

/* Decimal n >= 0 appended without printf (plans list GPUs thousands of times). */
static void add_uint(struct strbuf *sb, unsigned n)
{
	char tmp[16];
	int k = 0;
	do {
		tmp[k++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	while (k)
		strbuf_addch(sb, tmp[--k]);
}

char *topo_gpu_list(const struct topo_proc *p)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_grow(&sb, 4 * (size_t)(p->ngpus > 0 ? p->ngpus : 1));
	for (int g = 0; g < p->ngpus; g++) {
		if (g)
			strbuf_addch(&sb, ',');
		add_uint(&sb, (unsigned)(p->gpu_first + g));
	}
	return strbuf_detach(&sb, NULL);
}

/* service_<name>[_<role>_<index>][_<node>], built without printf: plans with
 * thousands of instances spend most of their time formatting. */
static char *step_name(const char *name, const char *role, int index, const char *node)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_grow(&sb, 64);
	strbuf_addstr(&sb, "service_");
	strbuf_addstr(&sb, name);
	if (role) {
		strbuf_addch(&sb, '_');
		strbuf_addstr(&sb, role);
		strbuf_addch(&sb, '_');
		add_uint(&sb, (unsigned)index);
	}
	if (node) {
		strbuf_addch(&sb, '_');
		strbuf_addstr(&sb, node);
	}
	return strbuf_detach(&sb, NULL);
}

void topo_service_instances(const struct topology *t, const struct service *s,
			    struct topo_inst **out, size_t *n)
{
	size_t *nodes = xcalloc(t->nnodes + 1, sizeof(size_t));
	size_t nn = placement_nodes(t, s, nodes), cnt = 0, alloc = 0;
	struct topo_inst *v = NULL;
	/* per worker on a role's nodes: that role's workers only */
	int role = placement_role(s->placement ? s->placement : "head");

	if (s->per_worker) {
		for (size_t i = 0; i < nn; i++) {
			for (size_t k = 0; k < t->nproc; k++) {
				const struct topo_proc *p = &t->proc[k];
				if (p->node != nodes[i] || (role >= 0 && (int)p->role != role))
					continue;
				ALLOC_GROW(v, cnt + 1, alloc);
				v[cnt].node = p->node;
				v[cnt].proc = p;
				v[cnt].step = step_name(s->name, role_names[p->role], p->index,
							t->node[p->node]);
				v[cnt].cuda_visible =
					p->ngpus < t->gpus_per_node ? topo_gpu_list(p) : NULL;
				cnt++;
			}
		}
	} else {
		for (size_t i = 0; i < nn; i++) {
			ALLOC_GROW(v, cnt + 1, alloc);
			v[cnt].node = nodes[i];
			v[cnt].proc = NULL;
			v[cnt].step = step_name(s->name, NULL, 0, nn == 1 ? NULL : t->node[nodes[i]]);
			v[cnt].cuda_visible = NULL;
			cnt++;
		}
	}
	free(nodes);
	*out = v;
	*n = cnt;
}

void topo_insts_free(struct topo_inst *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].step);
		free(v[i].cuda_visible);
	}
	free(v);
}
