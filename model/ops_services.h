/*
 * ops_services.h — the Services screen's edits as operations on the document:
 * add, remove and move a service, set an lmcache-server flag (through the
 * flag table of kinds.h), replace its extra args, set its placement.  Screens
 * format and call these; `srt-tui set` and tests can call the same ones.
 *
 * Each is one user action: it succeeds whole (0) or leaves the document as it
 * was (-1, *err malloc'd).  Until the document groups edits into one undo
 * entry, an operation that needs several edits takes several undo steps.
 */
#ifndef SRT_OPS_SERVICES_H
#define SRT_OPS_SERVICES_H

#include <jansson.h>
#include <stddef.h>

#include "model/kinds.h"
#include "lib/util.h"

struct doc;
struct path;

/* The entry a new service of type gets: name and type, and for an
 * lmcache-server the flags every server needs to start (--l1-size-gb,
 * --eviction-policy LRU), the chunk size, the hash seed and the memlock
 * preamble of the LMCache examples.  New reference. */
json_t *svc_new_entry(const char *type, const char *name);
/* A name not yet used in services[] ("lmcache", "lmcache-2", ...); malloc'd. */
char *svc_unique_name(const json_t *services, const char *base);
/* The name the screen proposes for a new service of type ("lmcache" for an
 * lmcache-server, else the type). */
const char *svc_default_name(const char *type);

/* Where services[i] (the declared mapping svc) runs: placement.node when
 * set; srtctl's schema default "head" when a placement mapping exists
 * without node; the kind's default when there is no mapping.  Static or
 * borrowed from svc. */
const char *svc_effective_node(const json_t *svc);

int svc_add(struct doc *d, const char *type, const char *name, char **err);
/* Add a service of type, named for its kind, placed on node
 * (placement.node): one action, as the connector screen offers an
 * lmcache-server for a role. */
int svc_add_placed(struct doc *d, const char *type, const char *node, char **err);
int svc_remove(struct doc *d, size_t index, char **err);
int svc_move(struct doc *d, size_t index, size_t to, char **err);

/* services[index].args: set flag f (value NULL or "" removes it; "on"/"off"
 * for switches and --x/--no-x flags); add one more occurrence of a
 * repeatable flag; set or remove (value NULL) its nth occurrence; replace the
 * args that are not form flags. */
int svc_set_flag(struct doc *d, size_t index, const struct lmc_flag *f, const char *value,
		 char **err);
int svc_add_flag(struct doc *d, size_t index, const struct lmc_flag *f, const char *value,
		 char **err);
int svc_set_flag_nth(struct doc *d, size_t index, const struct lmc_flag *f, size_t nth,
		     const char *value, char **err);
int svc_set_extra_args(struct doc *d, size_t index, const struct strvec *extra, char **err);

/* services[index].placement.<key> (node, per, pool) = value (NULL or "":
 * remove).  An edit that creates the placement mapping also writes the node
 * the service had (svc_effective_node), and removing node from a mapping that
 * keeps other keys writes the kind's default: srtctl reads a mapping without
 * node as head, so the service never moves unless the user moves it. */
int svc_set_placement(struct doc *d, size_t index, const char *key, const char *value,
		      char **err);

/* For a generic edit (the Fields tree, `srt-tui set`): when p is
 * services[i].placement.<key> with key other than node, value a string, and
 * services[i] has no placement mapping yet, make the edit with
 * svc_set_placement (so the node is kept); when p is services[i].placement
 * and value a non-empty mapping without node or pool, write it with the node
 * the service had first.  Returns that edit's result (0 or -1 with *err), or
 * 1 when p is not such a path and the caller should make the edit itself. */
int svc_placement_edit(struct doc *d, const struct path *p, const json_t *value, char **err);

#endif
