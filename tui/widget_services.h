/*
 * widget_services.h — the services list editor (add, remove, reorder, pick a
 * type) and the per-service form: the lmcache-server fields that map to
 * `lmcache server` flags (L1 size, chunk size, max workers, eviction policy)
 * plus free extra args, placement, start, critical, env, readiness and the
 * preamble (edited in $EDITOR).
 *
 * The model half is pure: the lmcache form <-> args mapping works on json_t
 * arrays of strings (new references returned; the caller decrefs) and plans
 * the smallest list edits, so a recipe's args change only where the user
 * changed them.  Strings returned are malloc'd and owned by the caller.
 */
#ifndef SRT_WIDGET_SERVICES_H
#define SRT_WIDGET_SERVICES_H

#include <jansson.h>
#include <stddef.h>

#include "lib/util.h"

struct doc;

/* The lmcache-server form fields, in form order. */
enum lmc_field { LMC_L1_SIZE_GB, LMC_CHUNK_SIZE, LMC_MAX_WORKERS, LMC_EVICTION, LMC_NFIELDS };
struct lmc_field_info {
	const char *flag;   /* "--l1-size-gb" */
	const char *label;  /* "L1 size (GB)" */
	const char *help;
	const char *const *choices; /* NULL: free text (a number) */
};
extern const struct lmc_field_info lmc_fields[LMC_NFIELDS];

/* The form read from an args list: each known flag's value (NULL when
 * absent; both "--flag V" and "--flag=V" are recognised), and every other
 * argument, in order, as extra args. */
struct lmc_form {
	char *value[LMC_NFIELDS];
	struct strvec extra;
};
#define LMC_FORM_INIT { { NULL, NULL, NULL, NULL }, STRVEC_INIT }
void lmc_form_from_args(struct lmc_form *f, const json_t *args);
void lmc_form_release(struct lmc_form *f);
/* The args list for a form: known flags first in form order ("--flag",
 * "value" pairs, empty values left out), then the extra args. */
json_t *lmc_form_to_args(const struct lmc_form *f);

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
/* The edits that set one field in args (value NULL or "" removes the flag
 * and its value), applied in order.  Changes the value in place when the
 * flag is there ("--flag=V" keeps that spelling), appends "--flag", "V"
 * after the last known flag otherwise. */
void lmc_plan_set(struct list_ops *ops, const json_t *args, enum lmc_field field,
		  const char *value);
/* Apply ops to a copy of args (what the document will hold afterwards). */
json_t *list_ops_apply(const json_t *args, const struct list_ops *ops);

/* Service types offered when adding a service, with the one-line help of
 * model/svckind.h; the template inserted for each (name, type and, for
 * lmcache-server, the args and env of the LMCache examples). */
json_t *svc_new_entry(const char *type, const char *name);
/* A name not yet used in services[] ("lmcache", "lmcache-2", ...). */
char *svc_unique_name(const json_t *services, const char *base);

/* Readiness forms (spec §4.5). */
enum ready_kind { READY_DEFAULT, READY_TCP, READY_HTTP, READY_LOG };
enum ready_kind ready_kind_of(const json_t *readiness);
/* "kind default", "tcp/2379", "http :8751/healthcheck -> 200", "log /ready/". */
char *ready_summary(const json_t *readiness, const char *type);

/* Doc operations on services[index]: 0 or -1 with *err, document untouched. */
int svc_add(struct doc *d, const char *type, const char *name, char **err);
int svc_remove(struct doc *d, size_t index, char **err);
int svc_move(struct doc *d, size_t index, size_t to, char **err);
int svc_lmc_set(struct doc *d, size_t index, enum lmc_field field, const char *value,
		char **err);
int svc_set_extra_args(struct doc *d, size_t index, const struct strvec *extra, char **err);

#endif
