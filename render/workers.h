/*
 * workers.h — the per-role Workers preview shared by `srt-tui render` and
 * the TUI's Workers tab: for each role, what its first worker gets for KV
 * transfer in srtctl's mock allocation (the --kv-transfer-config value, or
 * why there is none) and the env the engine adds for KV connectors.
 * Everything is appended to a caller's strbuf; nothing is kept.
 */
#ifndef SRT_WORKERS_H
#define SRT_WORKERS_H

#include "model/recipe.h"
#include "lib/util.h"
#include "render/connector.h"

/* Where the role's first worker sits in the mock allocation (spec §2.3, and
 * docs/decisions.md "Connector preview topology"): node and head IP
 * 127.0.0.1, HTTP 6100 (8000 for an aggregated worker behind a direct
 * frontend), the NIXL port the launch plan gives it (render/topology: one
 * per process, so a multi-node worker before it takes one per node), and
 * the MoRI-IO ports offset as the NIXL port is. */
struct worker_ctx workers_preview_ctx(const struct recipe *r, enum role_id role);

enum workers_layout {
	/* render's "Workers:" block: one header line per role, the config on one
	 * line ("(none)" when absent), then "env.NAME: VALUE" lines */
	WORKERS_DRYRUN,
	/* the TUI tab: the config pretty-printed over several lines, "extra env"
	 * as NAME=VALUE, and a line when there are no roles */
	WORKERS_PANEL,
};

/* Called after each role's lines (the TUI adds the worker's command). */
typedef void workers_role_fn(struct strbuf *out, enum role_id role, void *data);

void render_workers_block(struct strbuf *out, const struct recipe *r,
			  enum workers_layout layout, workers_role_fn *after_role, void *data);

#endif
