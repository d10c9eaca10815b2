/* The Topology step: aggregated or prefill/decode, nodes (or colocate),
 * workers and GPUs per role, with the GPU arithmetic shown live. */
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "render/plan.h"
#include "tui/wizard.h"
#include "tui/wizard_screens.h"

static int pick_layout(struct app *a, struct form_field *ff)
{
	static const char *const items[] = { "aggregated", "prefill/decode" };
	static const char *const help[] = {
		"One role, agg: every worker does prefill and decode.",
		"Two roles: prefill workers hand the KV cache to decode workers (NIXL, Mooncake).",
	};
	const struct app_state *st = app_state(a);
	int cur = st->root && st->recipe.disagg, sel;
	char *err = NULL;

	(void)ff;
	sel = app_choose(a, "Layout", items, help, 2, cur);
	if (sel < 0 || sel == cur)
		return 0;
	wiz_report(a, wiz_set_disagg(app_doc(a), sel, &err), err);
	return 0;
}

static void role_gpus(const struct role *r, struct wiz_role_gpus *g)
{
	g->nodes = r->colocate ? 0 : r->nodes;
	g->colocate = r->colocate;
	g->workers = r->workers;
	g->gpus = r->gpus;
}

static void topology_build(struct app *a, struct form *f)
{
	const struct app_state *st = app_state(a);
	const struct recipe *rc = &st->recipe;
	int spread = 0, nodes;
	char *s;

	form_add_heading(f, "Layout");
	if (!st->root) {
		form_add_text(f, "The recipe does not load: fix it in the Fields tree.");
		return;
	}
	s = xasprintf("Layout: %s", rc->disagg ? "prefill/decode" : "aggregated");
	form_add_button(f, s, pick_layout, NULL)->help =
		xstrdup("Switching rewrites the roles: aggregated -> prefill/decode renames agg to "
			"prefill and copies it to decode; back keeps prefill as agg.");
	free(s);
	form_add_value(f, "resources.gpus_per_node", "GPUs per node");
	form_add_value(f, "resources.spread_workers", "One node per partial worker");
	spread = jget_bool(jget_obj(rc->root, "resources"), "spread_workers", 0);
	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct role *r = &rc->role[i];
		struct wiz_role_gpus g, pg;
		struct strbuf sb = STRBUF_INIT;
		enum wiz_fit fit;
		char *p;

		if (!r->present)
			continue;
		form_add_heading(f, role_names[i]);
		p = xasprintf("roles.%s.nodes", role_names[i]);
		form_add_value(f, p, i == ROLE_DECODE ? "Nodes (or colocate)" : "Nodes");
		free(p);
		p = xasprintf("roles.%s.workers", role_names[i]);
		form_add_value(f, p, "Workers");
		free(p);
		p = xasprintf("roles.%s.gpus", role_names[i]);
		form_add_value(f, p, "GPUs per worker");
		free(p);
		role_gpus(r, &g);
		role_gpus(&rc->role[ROLE_PREFILL], &pg);
		/* The arithmetic, not a problem: whether it fits is the
		 * validator's to say, at the field it names (role-fit at Nodes),
		 * or at this line for the role as a whole (role-size). */
		fit = wiz_gpu_text(&sb, &g, rc->role[ROLE_PREFILL].present ? &pg : NULL,
				   rc->gpus_per_node, spread);
		s = xasprintf("%s%s", fit == WIZ_FIT_IDLE ? "~ " : fit == WIZ_FIT_EXACT ? "= " : "",
			      sb.buf);
		{
			struct form_field *ff = form_add_text(f, s);
			ff->diag_path = xasprintf("roles.%s", role_names[i]);
			ff->flags |= FFL_DIAG_EXACT;
		}
		free(s);
		strbuf_release(&sb);
	}
	nodes = plan_job_nodes(rc);
	if (nodes > 0) {
		s = xasprintf("The job asks Slurm for %d node%s.", nodes, nodes == 1 ? "" : "s");
		form_add_text(f, "");
		form_add_text(f, s);
		free(s);
	}
	wiz_add_next(f);
}

const struct app_screen wiz_topology_screen = { "Topology", topology_build, NULL, 0 };
