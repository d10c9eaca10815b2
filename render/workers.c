/*
 * workers.c — the per-role Workers preview (see workers.h).  The connector
 * strings come from render/connector, so the preview is byte for byte what
 * the launch plan passes; only the layout differs between render and the TUI.
 */
#include "render/workers.h"

#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/json_read.h"
#include "render/plan_failover.h"
#include "render/plan_mocker.h"
#include "render/plan_moriio.h"
#include "render/topology.h"

static int direct_frontend(const char *f)
{
	return f && (!strcmp(f, "vllm") || !strcmp(f, "sglang") || !strcmp(f, "trtllm_serve") ||
		     !strcmp(f, "atom"));
}

/* How many NIXL ports, and how many MoRI-IO handshake and notify ports, the
 * processes before each role's first worker take: one NIXL port per
 * process, one MoRI-IO port per GPU of a MoRI-IO process, and a worker
 * spanning nodes runs one process per node, so the launch plan's topology
 * decides.  When the recipe cannot be placed (no plan to agree with) every
 * earlier worker counts once, with all its GPUs.  One topology for all
 * roles: the TUI's preview runs this on every edit. */
struct port_offsets {
	int nixl[ROLE_COUNT];
	int moriio[ROLE_COUNT];
};

static void port_offsets(const struct recipe *r, struct port_offsets *off)
{
	struct topology t;
	char *err = NULL;

	memset(off, 0, sizeof(*off));
	if (!topo_build(&t, r, NULL, 0, &err)) {
		int seen[ROLE_COUNT] = { 0 };
		for (size_t i = 0; i < t.nproc; i++) {
			enum role_id role = t.proc[i].role;
			int hs, nt;
			if (seen[role]++)
				continue;
			off->nixl[role] = t.proc[i].nixl_port - TOPO_NIXL_BASE;
			if (moriio_role(r, role)) {
				moriio_proc_ports(r, &t, i, &hs, &nt);
				off->moriio[role] = hs - MORIIO_HANDSHAKE_PORT_BASE;
			}
		}
		topo_release(&t);
		return;
	}
	free(err);
	for (int i = 1; i < ROLE_COUNT; i++) {
		const struct role *ro = &r->role[i - 1];
		off->nixl[i] = off->nixl[i - 1] + (ro->present ? ro->eff_workers : 0);
		off->moriio[i] = off->moriio[i - 1] +
				 (moriio_role(r, (enum role_id)(i - 1)) ? ro->eff_workers * ro->eff_gpus : 0);
	}
}

static struct worker_ctx preview_ctx(const struct recipe *r, enum role_id role,
				     const struct port_offsets *off)
{
	struct worker_ctx c = { "127.0.0.1", "127.0.0.1", TOPO_HTTP_BASE, TOPO_NIXL_BASE,
				MORIIO_NOTIFY_PORT_BASE, MORIIO_DISCOVERY_PORT,
				MORIIO_HANDSHAKE_PORT_BASE };
	c.nixl_port += off->nixl[role];
	c.notify_port += off->moriio[role];
	c.moriio_handshake_port += off->moriio[role];
	if (role == ROLE_AGG && direct_frontend(r->frontend))
		c.http_port = TOPO_FRONTEND_PORT;
	return c;
}

struct worker_ctx workers_preview_ctx(const struct recipe *r, enum role_id role)
{
	struct port_offsets off;
	port_offsets(r, &off);
	return preview_ctx(r, role, &off);
}

static void role_header(struct strbuf *out, const struct role *ro, enum role_id id,
			enum workers_layout layout)
{
	if (layout == WORKERS_DRYRUN) {
		strbuf_addf(out, "  %s engine=%s workers=%d gpus=%d", role_names[id],
			    ro->engine ? ro->engine : "?", ro->eff_workers, ro->eff_gpus);
		if (ro->engine && !strcmp(ro->engine, "vllm")) {
			const char *p = connector_preset(ro->connector);
			strbuf_addf(out, " connector=%s", !ro->connector ? "none" : p ? p : "raw-json");
		}
		strbuf_addch(out, '\n');
		return;
	}
	strbuf_addf(out, "%s: %d worker%s x %d GPU%s, engine %s\n", role_names[id], ro->eff_workers,
		    ro->eff_workers == 1 ? "" : "s", ro->eff_gpus, ro->eff_gpus == 1 ? "" : "s",
		    ro->engine ? ro->engine : "(unknown)");
	if (ro->connector)
		strbuf_addf(out, "  connector: %s\n", ro->connector);
}

/* The config as JSON over several lines when it parses, else as written. */
static void pretty_config(struct strbuf *out, const char *kv)
{
	json_error_t jerr;
	json_t *j = json_read(kv, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
	struct strbuf pretty = STRBUF_INIT;
	if (j)
		pyjson_dump(&pretty, j, 0, 2);
	else
		strbuf_addstr(&pretty, kv);
	json_decref(j);
	for (const char *p = sb_str(&pretty); *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		strbuf_addf(out, "    %.*s\n", (int)len, p);
		p += len + (nl ? 1 : 0);
	}
	strbuf_release(&pretty);
}

static void role_config(struct strbuf *out, const struct recipe *r, enum role_id id,
			const struct worker_ctx *ctx, enum workers_layout layout)
{
	char *err = NULL;
	char *kv = connector_kv_config(r, id, ctx, &err);

	if (layout == WORKERS_DRYRUN) {
		if (err)
			strbuf_addf(out, "    kv-transfer-config: error: %s\n", err);
		else
			strbuf_addf(out, "    kv-transfer-config: %s\n", kv ? kv : "(none)");
	} else if (kv) {
		strbuf_addstr(out, "  --kv-transfer-config:\n");
		pretty_config(out, kv);
	} else if (err) {
		strbuf_addf(out, "  --kv-transfer-config: cannot render: %s\n", err);
	} else {
		strbuf_addstr(out, "  --kv-transfer-config: (none)\n");
	}
	free(kv);
	free(err);
}

/* The connector env, sorted like srtctl prints env. */
static void role_env(struct strbuf *out, const struct recipe *r, enum role_id id,
		     enum workers_layout layout)
{
	json_t *env = connector_extra_env(r, id);
	size_t m;
	const char **keys = json_sorted_keys(env, &m);
	if (layout == WORKERS_PANEL)
		strbuf_addstr(out, m ? "  extra env:\n" : "  extra env: (none)\n");
	for (size_t i = 0; i < m; i++) {
		json_t *v = json_object_get(env, keys[i]);
		strbuf_addstr(out, layout == WORKERS_DRYRUN ? "    env." : "    ");
		strbuf_addstr(out, keys[i]);
		strbuf_addstr(out, layout == WORKERS_DRYRUN ? ": " : "=");
		py_str(out, v);
		strbuf_addch(out, '\n');
	}
	free(keys);
	json_decref(env);
}

void render_workers_block(struct strbuf *out, const struct recipe *r,
			  enum workers_layout layout, workers_role_fn *after_role, void *data)
{
	int any = 0;
	struct port_offsets off;

	port_offsets(r, &off);
	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct role *ro = &r->role[i];
		if (!ro->present)
			continue;
		if (!any++ && layout == WORKERS_DRYRUN)
			strbuf_addstr(out, "Workers:\n");
		role_header(out, ro, (enum role_id)i, layout);
		struct worker_ctx ctx = preview_ctx(r, (enum role_id)i, &off);
		/* the mocker simulates KV transfer: its flags instead of a config */
		if (ro->engine && !strcmp(ro->engine, "mocker"))
			mocker_workers_note(out, r, (enum role_id)i, layout);
		else
			role_config(out, r, (enum role_id)i, &ctx, layout);
		failover_workers_note(out, r, (enum role_id)i, layout);
		role_env(out, r, (enum role_id)i, layout);
		if (after_role)
			after_role(out, (enum role_id)i, data);
	}
	if (!any && layout == WORKERS_PANEL)
		strbuf_addstr(out, "(no roles: add roles.agg, or roles.prefill and roles.decode)\n");
}
