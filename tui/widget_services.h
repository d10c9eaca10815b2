/*
 * widget_services.h — the services list editor (add, remove, reorder, pick a
 * type) and the per-service form: for an lmcache-server the `lmcache server`
 * flags of the kinds table grouped as the table says (L1, eviction, L2 tier,
 * workers, observability), an L2 adapter list editor, free extra args; then
 * placement (showing the effective node), start, critical, env, readiness
 * and the preamble (edited in $EDITOR).
 *
 * The edits themselves are model operations (model/ops_services.h); this
 * file only formats and calls them.  Strings returned are malloc'd.
 */
#ifndef SRT_WIDGET_SERVICES_H
#define SRT_WIDGET_SERVICES_H

#include <jansson.h>

#include "model/ops_services.h"

/* Readiness forms (spec §4.5). */
enum ready_kind { READY_DEFAULT, READY_TCP, READY_HTTP, READY_LOG };
enum ready_kind ready_kind_of(const json_t *readiness);
/* "kind default", "tcp/2379", "http :<port>/healthcheck -> 200", "log /ready/". */
char *ready_summary(const json_t *readiness, const char *type);

/* "lmcache server --host 0.0.0.0 --port ... --http-port ..." : the fixed
 * prefix srtctl runs before an lmcache-server's args, from the kinds table. */
char *lmc_prefix_text(void);

#endif
