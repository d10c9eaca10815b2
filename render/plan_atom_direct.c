/*
 * plan_atom_direct.c — the layouts ATOM's direct frontend refuses (see
 * plan_atom_direct.h).  Rules and wording from srtctl's
 * frontends/direct.py DirectServerFrontend.validate and frontends/atom.py
 * (SemiAnalysisAI/srt-slurm 92453cd, where frontend.type: atom is
 * registered): nginx replicas, a prefill/decode layout, other than one
 * aggregate worker, Dynamo sidecars, in that order.
 */
#include "render/plan_atom_direct.h"

#include <string.h>

#include "lib/json.h"
#include "lib/util.h"
#include "model/schema.h"
#include "render/plan_sidecar.h"

/* what srtctl's AtomFrontend names: the server and where to go instead */
static const char server[] = "atom.entrypoints.openai_server";
static const char hint[] = "Use frontend.type: atomesh for replicas or prefill/decode.";

int atom_direct(const struct recipe *r)
{
	return r->frontend && !strcmp(r->frontend, "atom");
}

char *atom_direct_refusal(const struct recipe *r)
{
	json_t *fe = jget_obj(r->root, "frontend");

	if (!atom_direct(r))
		return NULL;
	if (jget_bool(fe, "enable_multiple_frontends",
		      schema_default_bool("frontend.enable_multiple_frontends", 1)))
		return xasprintf("frontend.type: atom binds %s directly; set "
				 "frontend.enable_multiple_frontends: false", server);
	if (r->disagg)
		return xasprintf("frontend.type: atom supports one aggregate worker only, not a "
				 "prefill/decode layout. %s", hint);
	if (!r->role[ROLE_AGG].present || r->role[ROLE_AGG].eff_workers != 1)
		return xasprintf("frontend.type: atom supports exactly one aggregate worker, got %d. %s",
				 r->role[ROLE_AGG].present ? r->role[ROLE_AGG].eff_workers : 0, hint);
	if (sidecar_mode(r))
		return xstrdup("frontend.type: atom does not support dynamo.sidecar; use frontend.type: "
			       "dynamo");
	return NULL;
}
