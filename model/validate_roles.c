/*
 * validate_roles.c — roles, topology and engine rules (spec §1.4, §1.5,
 * §2.2, §2.3, §5.4): role names, P/D versus agg, colocate, GPUs that do not
 * fit, engine placement, ATOM's own rules, sidecars, dynamo.source.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/facts.h"
#include "model/schema.h"
#include "model/validate.h"
#include "model/validate_int.h"

static int any_role(const struct recipe *r)
{
	for (int i = 0; i < ROLE_COUNT; i++)
		if (r->role[i].present)
			return 1;
	return 0;
}

static void check_role_names(const struct recipe *r, struct diag_list *out)
{
	json_t *roles = jget_obj(r->root, "roles");
	const char *k;
	json_t *v;
	json_object_foreach(roles, k, v) {
		int known = 0;
		for (int i = 0; i < ROLE_COUNT; i++)
			known |= !strcmp(k, role_names[i]);
		if (known)
			continue;
		char hint[128];
		vsuggest_hint(hint, sizeof(hint), k, role_names, ROLE_COUNT,
			      "use agg for an aggregated recipe, or prefill and decode");
		char *path = xasprintf("roles.%s", k);
		diag_add(out, DIAG_ERROR, "role-name", path, hint,
			 "roles.%s: role names are prefill, decode and agg", k);
		free(path);
	}
}

static void check_role_shape(const struct recipe *r, struct diag_list *out)
{
	const struct role *p = &r->role[ROLE_PREFILL], *d = &r->role[ROLE_DECODE],
			  *a = &r->role[ROLE_AGG];
	int none = !strcmp(r->frontend, "none");

	if (none && any_role(r)) {
		diag_add(out, DIAG_ERROR, "frontend-none-roles", "frontend.type",
			 "remove roles for a services-only job, or pick a frontend such as dynamo",
			 "frontend.type: none runs services only and takes no engine roles");
		return;
	}
	if (!none && !any_role(r) && json_is_object(r->root)) {
		diag_add(out, DIAG_ERROR, "no-roles", json_object_get(r->root, "roles") ? "roles" : "",
			 "add roles.agg, or roles.prefill and roles.decode; a services-only job sets frontend.type: none",
			 "the recipe has no worker roles");
		return;
	}
	if (a->present && (p->present || d->present))
		diag_add(out, DIAG_ERROR, "role-mix", "roles.agg",
			 "remove agg for a disaggregated recipe, or remove prefill and decode",
			 "roles has both agg and prefill/decode: a recipe is either aggregated or disaggregated");
	else if (p->present != d->present)
		diag_add(out, DIAG_ERROR, "role-pair", p->present ? "roles.prefill" : "roles.decode",
			 p->present ? "add roles.decode, or rename prefill to agg for an aggregated recipe"
				    : "add roles.prefill, or rename decode to agg for an aggregated recipe",
			 "roles.%s needs roles.%s: a disaggregated recipe has both",
			 p->present ? "prefill" : "decode", p->present ? "decode" : "prefill");
}

/* What the per-role arithmetic cannot see (a colocated decode whose GPUs add
 * up but do not pack): run the allocator itself on the nodes the roles
 * reserve, so validate passes exactly the recipes the launch plan places. */
static void check_placement(const struct recipe *r, int reported, struct diag_list *out)
{
	char *err = NULL;
	if (reported || facts_workers_fit(r, &err) != 0) {
		free(err);
		return;
	}
	const char *role = r->role[ROLE_DECODE].colocate ? "decode" : r->role[ROLE_AGG].present ? "agg" : "prefill";
	char path[64];
	snprintf(path, sizeof(path), "roles.%s.nodes", role);
	diag_add(out, DIAG_ERROR, "role-fit", path,
		 "raise the role's nodes, or lower workers or gpus so whole workers pack onto the nodes",
		 "the workers do not pack onto the nodes the roles reserve: %s", err ? err : "no room");
	free(err);
}

static void check_topology(const struct recipe *r, struct diag_list *out)
{
	int gpn = r->gpus_per_node;
	char path[64], hint[256];
	int reported = 0;

	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct role *ro = &r->role[i];
		if (!ro->present)
			continue;
		if (ro->colocate && i != ROLE_DECODE) {
			snprintf(path, sizeof(path), "roles.%s.nodes", role_names[i]);
			diag_add(out, DIAG_ERROR, "colocate-role", path,
				 "give the role a number of nodes; only decode can colocate onto the prefill nodes",
				 "roles.%s.nodes: colocate is only valid on decode", role_names[i]);
			continue;
		}
		if (!ro->colocate && ro->nodes < 0 && ro->gpus <= 0) {
			/* gpus defaults to nodes x gpus_per_node / workers: with
			 * neither, nothing says how many nodes the role takes */
			snprintf(path, sizeof(path), "roles.%s", role_names[i]);
			diag_add(out, DIAG_ERROR, "role-size", path,
				 "set nodes (how many to reserve) or gpus (GPUs per worker) on the role",
				 "roles.%s sets neither nodes nor gpus: how many nodes it needs cannot be known",
				 role_names[i]);
			reported = 1;
			continue;
		}
		if (ro->colocate || ro->nodes <= 0 || gpn <= 0)
			continue;
		long need;
		if (!facts_role_fits(r, (enum role_id)i, &need)) {
			reported = 1;
			snprintf(path, sizeof(path), "roles.%s.nodes", role_names[i]);
			snprintf(hint, sizeof(hint), "raise roles.%s.nodes to %ld, or lower workers or gpus",
				 role_names[i], need);
			diag_add(out, DIAG_ERROR, "role-fit", path, hint,
				 "roles.%s: %d worker%s x %d GPU%s need %ld node%s of %d GPUs; nodes is %d",
				 role_names[i], ro->eff_workers, ro->eff_workers == 1 ? "" : "s",
				 ro->eff_gpus, ro->eff_gpus == 1 ? "" : "s", need, need == 1 ? "" : "s",
				 gpn, ro->nodes);
		}
	}

	const struct role *p = &r->role[ROLE_PREFILL], *d = &r->role[ROLE_DECODE];
	if (!d->present || !d->colocate) {
		check_placement(r, reported, out);
		return;
	}
	if (p->present && (p->gpus < 1 || d->gpus < 1)) {
		const char *miss = d->gpus < 1 ? "decode" : "prefill";
		snprintf(path, sizeof(path), "roles.%s", miss);
		diag_add(out, DIAG_ERROR, "colocate-gpus", path,
			 "set gpus (GPUs per worker) on both prefill and decode",
			 "roles.decode.nodes: colocate requires gpus on both prefill and decode; roles.%s has none",
			 miss);
		return;
	}
	int pn = facts_role_nodes(r, ROLE_PREFILL); /* written, else what prefill needs */
	if (!p->present || pn <= 0 || gpn <= 0) {
		check_placement(r, reported, out);
		return;
	}
	long free_gpus = (long)pn * gpn - (long)p->eff_workers * p->eff_gpus;
	long want = (long)d->eff_workers * d->eff_gpus;
	if (want > free_gpus || d->eff_gpus > gpn) {
		snprintf(hint, sizeof(hint),
			 "lower decode workers or gpus, raise roles.prefill.nodes, or give decode its own nodes");
		diag_add(out, DIAG_ERROR, "colocate-fit", "roles.decode.nodes", hint,
			 "roles.decode: colocated decode needs %ld GPUs (%d x %d) but the prefill nodes have %ld free (%d x %d - %d x %d)",
			 want, d->eff_workers, d->eff_gpus, free_gpus < 0 ? 0 : free_gpus, pn, gpn,
			 p->eff_workers, p->eff_gpus);
		return;
	}
	check_placement(r, reported, out);
}

static int has_value(json_t *obj, const char *key)
{
	json_t *v = json_is_object(obj) ? json_object_get(obj, key) : NULL;
	return v && !json_is_null(v);
}

static void check_engines(const struct recipe *r, struct diag_list *out)
{
	int top = has_value(r->root, "engine");
	int with = 0, without = 0;
	char path[64];

	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct role *ro = &r->role[i];
		if (!ro->present)
			continue;
		if (has_value(ro->cfg, "engine"))
			with++;
		else
			without++;
	}
	if (top && with) {
		for (int i = 0; i < ROLE_COUNT; i++) {
			if (!r->role[i].present || !has_value(r->role[i].cfg, "engine"))
				continue;
			snprintf(path, sizeof(path), "roles.%s.engine", role_names[i]);
			diag_add(out, DIAG_ERROR, "engine-mixed", path,
				 "set the engine once at the top level, or on every role and not at the top level",
				 "roles.%s.engine cannot be combined with a top-level engine", role_names[i]);
		}
	} else if (!top && with && without) {
		for (int i = 0; i < ROLE_COUNT; i++) {
			if (!r->role[i].present || has_value(r->role[i].cfg, "engine"))
				continue;
			snprintf(path, sizeof(path), "roles.%s", role_names[i]);
			diag_add(out, DIAG_ERROR, "engine-missing", path,
				 "add an engine to this role too, or move the engine to the top level",
				 "roles.%s has no engine: without a top-level engine every role sets its own",
				 role_names[i]);
		}
	} else if (!top && !with && without) {
		diag_add(out, DIAG_ERROR, "engine-missing", json_object_get(r->root, "roles") ? "roles" : "",
			 "add e.g. 'engine: vllm' (vllm, sglang, trtllm, atom, tilert, tokenspeed, mocker)",
			 "the recipe names no engine");
	}
}

/* ATOM's rules (spec §1.6, §2.2, §5.4). */
static void check_atom(const struct recipe *r, struct diag_list *out)
{
	static const char *const reserved[] = { "host", "kv-transfer-config", "model", "server-port",
						"tensor-parallel-size", "tp" };
	int atom = 0, sidecar_reported = 0;
	char path[96];
	const char *fe = r->frontend;

	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct role *ro = &r->role[i];
		if (!ro->present || !ro->engine || strcmp(ro->engine, "atom"))
			continue;
		atom = 1;
		/* reserved args, compared after stripping '-' and mapping '_' to '-' */
		int hit[6] = { 0 };
		int n = 0;
		const char *k;
		json_t *v;
		json_object_foreach(ro->args, k, v) {
			if (!strcmp(k, "extra-kv-connectors"))
				continue;
			char norm[128];
			const char *s = k;
			while (*s == '-')
				s++;
			snprintf(norm, sizeof(norm), "%s", s);
			for (char *c = norm; *c; c++)
				if (*c == '_')
					*c = '-';
			for (int j = 0; j < 6; j++)
				if (!strcmp(norm, reserved[j]) && !hit[j]) {
					hit[j] = 1;
					n++;
				}
		}
		if (n) {
			struct strbuf list = STRBUF_INIT;
			strbuf_addch(&list, '[');
			for (int j = 0, m = 0; j < 6; j++)
				if (hit[j])
					strbuf_addf(&list, "%s'%s'", m++ ? ", " : "", reserved[j]);
			strbuf_addch(&list, ']');
			snprintf(path, sizeof(path), "roles.%s.args", role_names[i]);
			diag_add(out, DIAG_ERROR, "atom-reserved-arg", path,
				 "remove them: srtctl passes --model, --host, --server-port, -tp (from gpus) and --kv-transfer-config itself",
				 "ATOM config cannot override srtctl-managed argument(s): %s", list.buf);
			strbuf_release(&list);
		}
		if (r->gpus_per_node > 0 && ro->eff_gpus > r->gpus_per_node) {
			char hint[128];
			snprintf(path, sizeof(path), "roles.%s.gpus", role_names[i]);
			snprintf(hint, sizeof(hint), "lower roles.%s.gpus to at most %d (resources.gpus_per_node)",
				 role_names[i], r->gpus_per_node);
			diag_add(out, DIAG_ERROR, "atom-endpoint-fit", path, hint,
				 "ATOM currently requires each logical endpoint to fit on one Slurm node");
		}
		if (!sidecar_reported && jget_bool(ro->cfg, "sidecar", 0)) {
			snprintf(path, sizeof(path), "roles.%s.sidecar", role_names[i]);
			diag_add(out, DIAG_ERROR, "atom-sidecar", path, "remove sidecar: true",
				 "ATOM does not support Dynamo sidecars");
			sidecar_reported = 1;
		}
	}
	if (!atom)
		return;
	/* AToMesh, or ATOM's own server on the public port: srtctl's example
	 * atom/direct uses that direct frontend (frontends/atom.py, registered
	 * in SemiAnalysisAI/srt-slurm 92453cd; NVIDIA's backends/atom.py
	 * @1a749ed still asks for atomesh) */
	if (strcmp(fe, "atomesh") && strcmp(fe, "atom"))
		diag_add(out, DIAG_ERROR, "atom-frontend", "frontend.type", "set frontend.type: atomesh",
			 "backend.type: atom requires frontend.type: atomesh or atom (got '%s')", fe);
	if (!sidecar_reported && jget_bool(jget_obj(r->root, "dynamo"), "sidecar", 0))
		diag_add(out, DIAG_ERROR, "atom-sidecar", "dynamo.sidecar", "remove dynamo.sidecar: true",
			 "ATOM does not support Dynamo sidecars");
}

static void check_misc(const struct recipe *r, struct diag_list *out)
{
	/* sidecar: every role must agree */
	int on = 0, off = 0;
	for (int i = 0; i < ROLE_COUNT; i++) {
		if (!r->role[i].present)
			continue;
		if (jget_bool(r->role[i].cfg, "sidecar", 0))
			on++;
		else
			off++;
	}
	if (on && off)
		for (int i = 0; i < ROLE_COUNT; i++) {
			if (!r->role[i].present || !jget_bool(r->role[i].cfg, "sidecar", 0))
				continue;
			char path[64];
			snprintf(path, sizeof(path), "roles.%s.sidecar", role_names[i]);
			diag_add(out, DIAG_ERROR, "sidecar-mixed", path,
				 "set sidecar: true on every role, or on none",
				 "roles.%s.sidecar: every role must agree on sidecar mode", role_names[i]);
			break;
		}

	/* vLLM failover: Dynamo frontend only */
	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct role *ro = &r->role[i];
		if (!ro->present || !ro->engine || strcmp(ro->engine, "vllm") || !ro->engine_cfg ||
		    !has_value(ro->engine_cfg, "failover"))
			continue;
		if (strcmp(r->frontend, "dynamo"))
			diag_add(out, DIAG_ERROR, "failover-frontend",
				 ro->engine_cfg == r->engine_cfg ? "engine.failover" : "roles",
				 "use frontend.type: dynamo, or remove engine.failover",
				 "engine.failover needs frontend.type: dynamo (got '%s')", r->frontend);
		break;
	}

	/* dynamo.source: exactly one of git+rev, pypi, wheel */
	json_t *src = jget_obj(jget_obj(r->root, "dynamo"), "source");
	if (src) {
		int git = has_value(src, "git") || has_value(src, "rev");
		int n = git + has_value(src, "pypi") + has_value(src, "wheel");
		if (n != 1)
			diag_add(out, DIAG_ERROR, "dynamo-source", "dynamo.source",
				 "keep one of: git with rev, pypi: \"<version>\", or wheel",
				 "dynamo.source needs exactly one of git+rev, pypi or wheel; got %s",
				 n ? "several" : "none");
		else if (has_value(src, "git") && !has_value(src, "rev"))
			diag_add(out, DIAG_ERROR, "dynamo-source", "dynamo.source.git",
				 "add rev: a commit, tag or refs/pull/<n>/head",
				 "dynamo.source.git needs rev");
	}
}

void validate_roles(const struct recipe *r, struct diag_list *out)
{
	check_role_names(r, out);
	check_role_shape(r, out);
	check_topology(r, out);
	check_engines(r, out);
	check_atom(r, out);
	check_misc(r, out);
}
