/* The topology step's arithmetic: how a role's workers fit on its nodes,
 * following srtctl's allocator (spec §2.3): big workers take whole nodes,
 * partial workers pack onto a node unless spread_workers. */
#include <string.h>

#include "model/facts.h"
#include "tui/wizard.h"

static int eff_workers(const struct wiz_role_gpus *r)
{
	return r->workers > 0 ? r->workers : 1;
}

int wiz_role_gpus_per_worker(const struct wiz_role_gpus *r, int gpn)
{
	int g;

	if (r->gpus > 0)
		return r->gpus;
	if (r->colocate || r->nodes < 0)
		return -1;
	g = r->nodes * gpn / eff_workers(r);
	return g > 0 ? g : 1;
}

int wiz_role_nodes_needed(const struct wiz_role_gpus *r, int gpn, int spread)
{
	if (r->colocate)
		return 0;
	long n = facts_nodes_needed(eff_workers(r), wiz_role_gpus_per_worker(r, gpn), gpn, spread);
	return n > 0x7fffffffL ? 0x7fffffff : (int)n;
}

static const char *s(int n)
{
	return n == 1 ? "" : "s";
}

enum wiz_fit wiz_gpu_text(struct strbuf *out, const struct wiz_role_gpus *r,
			  const struct wiz_role_gpus *prefill, int gpn, int spread)
{
	int w = eff_workers(r), g = wiz_role_gpus_per_worker(r, gpn);
	int used, cap, need;

	if (gpn <= 0) {
		strbuf_addstr(out, "set resources.gpus_per_node first");
		return WIZ_FIT_NONE;
	}
	if (r->colocate) {
		int pg = prefill ? wiz_role_gpus_per_worker(prefill, gpn) : -1;
		if (r->gpus <= 0 || !prefill || prefill->gpus <= 0 || prefill->nodes < 0) {
			strbuf_addf(out, "%d worker%s on the prefill node%s (colocate) — "
				    "colocate needs gpus set on both prefill and decode",
				    w, s(w), prefill && prefill->nodes == 1 ? "" : "s");
			return WIZ_FIT_NONE;
		}
		cap = prefill->nodes * gpn;
		used = w * g + eff_workers(prefill) * pg;
		strbuf_addf(out, "%d worker%s × %d GPU%s on the prefill node%s (colocate) — ",
			    w, s(w), g, s(g), prefill->nodes == 1 ? "" : "s");
		if (used > cap) {
			strbuf_addf(out, "does not fit: prefill and decode need %d GPUs, "
				    "the prefill node%s %s %d", used, s(prefill->nodes),
				    prefill->nodes == 1 ? "has" : "have", cap);
			return WIZ_FIT_NONE;
		}
		strbuf_addf(out, "%d of %d GPUs used with prefill", used, cap);
		return used == cap ? WIZ_FIT_EXACT : WIZ_FIT_IDLE;
	}
	if (r->nodes < 0) {
		strbuf_addf(out, "%d worker%s: set nodes (how many to reserve for this role)",
			    w, s(w));
		return WIZ_FIT_NONE;
	}
	cap = r->nodes * gpn;
	used = w * g;
	need = wiz_role_nodes_needed(r, gpn, spread);
	strbuf_addf(out, "%d worker%s × %d GPU%s on %d node%s of %d — ", w, s(w), g, s(g),
		    r->nodes, s(r->nodes), gpn);
	if (need > r->nodes) {
		strbuf_addf(out, "does not fit: needs %d node%s", need, s(need));
		return WIZ_FIT_NONE;
	}
	if (used == cap) {
		strbuf_addf(out, "all %d GPUs used", cap);
		return WIZ_FIT_EXACT;
	}
	strbuf_addf(out, "%d of %d GPUs used, %d idle", used, cap, cap - used);
	return WIZ_FIT_IDLE;
}
