/*
 * lmc_args.h — an lmcache-server's args read and edited through the flag
 * table of kinds.h: which flag each item is (argparse's reading: "--f V",
 * "--f=V", a switch alone, "--no-f", a list up to the next flag), the value
 * the form shows for a flag, and the smallest list edits that set one, so a
 * recipe's args change only where the user changed them.
 *
 * Pure: json_t arrays of strings in, plans of list edits out.  Returned
 * strings are malloc'd and owned by the caller; json_t results are new
 * references.
 */
#ifndef SRT_LMC_ARGS_H
#define SRT_LMC_ARGS_H

#include <jansson.h>
#include <stddef.h>

#include "model/diag.h"
#include "model/kinds.h"
#include "lib/util.h"

/* One flag occurrence (or a stray word) in args. */
struct lmc_occ {
	const struct lmc_flag *flag; /* NULL: not a flag of the table */
	const char *word;            /* args[at] as written */
	size_t at, n;                /* the items it spans */
	int neg;                     /* "--no-x" of a BOOLOPT */
	int eq;                      /* "--x=V" */
	const char *value;           /* borrowed from args; NULL for switches and lists */
	int missing;                 /* a value was expected and none follows */
	int not_string;              /* args[at] is not a string */
};

struct lmc_scan {
	struct lmc_occ *v;
	size_t n, alloc;
};
#define LMC_SCAN_INIT { NULL, 0, 0 }

/* Read args[from..] (non-strings become not_string occurrences). */
void lmc_scan(struct lmc_scan *s, const json_t *args, size_t from);
void lmc_scan_release(struct lmc_scan *s);
/* The last occurrence of f (argparse: the last one wins); NULL when absent. */
const struct lmc_occ *lmc_scan_last(const struct lmc_scan *s, const struct lmc_flag *f);

/* What the form shows for f: the value; "on"/"off" for a switch or a
 * BOOLOPT; NULL when absent.  For a repeatable flag, occurrence nth. */
char *lmc_value(const json_t *args, const struct lmc_flag *f);
char *lmc_value_nth(const json_t *args, const struct lmc_flag *f, size_t nth);
size_t lmc_count(const json_t *args, const struct lmc_flag *f);

/* The args that are not one of the form's flags, in order. */
void lmc_extra(const json_t *args, struct strvec *out);

/* One edit of a list, for doc_set / doc_insert / doc_delete on args[index]. */
enum list_op_kind { LIST_SET, LIST_INSERT, LIST_DELETE };
struct list_op {
	enum list_op_kind kind;
	size_t index;
	char *value; /* SET / INSERT */
};
struct list_ops {
	struct list_op *v;
	size_t n, alloc;
};
#define LIST_OPS_INIT { NULL, 0, 0 }
void list_ops_release(struct list_ops *ops);
/* Apply ops to a copy of args (what the document will hold afterwards). */
json_t *list_ops_apply(const json_t *args, const struct list_ops *ops);

/* Set f to value (NULL or "" removes it; "on"/"off" for switches and
 * BOOLOPTs).  Changes the value in place when the flag is there ("--f=V"
 * keeps that spelling); appends after the last form flag otherwise, so the
 * form's flags stay together ahead of the extra args. */
void lmc_plan_set(struct list_ops *ops, const json_t *args, const struct lmc_flag *f,
		  const char *value);
/* Repeatable flags: add one more occurrence; set (value NULL: remove) the nth. */
void lmc_plan_append(struct list_ops *ops, const json_t *args, const struct lmc_flag *f,
		     const char *value);
void lmc_plan_set_nth(struct list_ops *ops, const json_t *args, const struct lmc_flag *f,
		      size_t nth, const char *value);
/* Replace the extra args: the form's flags stay where they are. */
void lmc_plan_extra(struct list_ops *ops, const json_t *args, const struct strvec *extra);

/* The JSON text of an L2 adapter from its keys (type first, then the keys in
 * the table's order; "backend_params.x" nests), as written after
 * --l2-adapter.  values[i] belongs to t->keys[i]; NULL or "" leaves a key
 * out.  Numbers and booleans are written as JSON numbers and booleans. */
char *l2_adapter_json(const struct l2_adapter_type *t, const char *const *values);
/* The value of key k in an adapter object ("backend_params.x" nests), or
 * NULL; borrowed. */
json_t *l2_key_get(const json_t *adapter, const struct l2_key *k);
/* Whether k belongs to an adapter with this backend (NULL: none set): a key
 * with when_backend only for those backends, any other key always. */
int l2_key_applies(const struct l2_key *k, const char *backend);
/* Check one --l2-adapter value as LMCache does (a JSON object, a known type,
 * its required keys with the right types).  0, or -1 with *why (malloc'd). */
int l2_adapter_check(const char *text, char **why);

/* The port an lmcache-server with these args serves Prometheus /metrics on:
 * --prometheus-port or LMCACHE_PROMETHEUS_PORT; 0 when --disable-observability,
 * --disable-metrics or --otlp-endpoint turns the endpoint off. */
int lmc_prometheus_port(const json_t *args);

/* The problems `lmcache server` would have with argv[from..] (a service's
 * args, or a rendered argv after "lmcache server"): unknown flags (warning,
 * with a did-you-mean), values of the wrong type, refused eviction policies,
 * IsolatedLRU (warning), bad L2 adapter JSON, srtctl's own flags unless
 * owned_ok, required flags missing.  Item paths are args_path[i]; a missing
 * flag is reported at svc_path.  name labels the service in messages. */
void lmc_check_argv(const json_t *argv, size_t from, int owned_ok, const char *name,
		    const char *args_path, const char *svc_path, struct diag_list *out);

#endif
