/* The pure half of the services editor: lmcache-server form <-> args, the
 * smallest list edits for one field, new service entries, readiness text. */
#include <stdlib.h>
#include <string.h>

#include "model/svckind.h"
#include "tui/widget_services.h"

static const char *const eviction_choices[] = { "LRU", "LFU", "FIFO", "MRU", NULL };

const struct lmc_field_info lmc_fields[LMC_NFIELDS] = {
	[LMC_L1_SIZE_GB] = { "--l1-size-gb", "L1 size (GB)",
			     "CPU memory (GB) each server keeps for KV chunks", NULL },
	[LMC_CHUNK_SIZE] = { "--chunk-size", "Chunk size",
			     "tokens per KV chunk; workers must use the same (256)", NULL },
	[LMC_MAX_WORKERS] = { "--max-workers", "Max workers",
			      "server worker threads; one per engine worker on the node is typical",
			      NULL },
	[LMC_EVICTION] = { "--eviction-policy", "Eviction policy",
			   "which chunks leave L1 when it is full", eviction_choices },
};

/* Index of the known field arg names, and where its value is: "--flag V"
 * (value at i + 1, *inline_eq = 0) or "--flag=V" (*inline_eq = 1). */
static int known_flag(const char *arg, int *inline_eq)
{
	for (int f = 0; f < LMC_NFIELDS; f++) {
		size_t n = strlen(lmc_fields[f].flag);
		if (!strncmp(arg, lmc_fields[f].flag, n) && (arg[n] == '\0' || arg[n] == '=')) {
			*inline_eq = arg[n] == '=';
			return f;
		}
	}
	return -1;
}

static const char *item_str(const json_t *args, size_t i)
{
	const json_t *v = json_array_get(args, i);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

void lmc_form_from_args(struct lmc_form *f, const json_t *args)
{
	size_t n = json_array_size(args);

	for (size_t i = 0; i < n; i++) {
		const char *a = item_str(args, i);
		int eq, k;

		if (!a) { /* not a string: srtctl would reject it; keep it visible */
			char *s = json_dumps(json_array_get(args, i), JSON_ENCODE_ANY);
			strvec_push(&f->extra, s ? s : "");
			free(s);
			continue;
		}
		k = known_flag(a, &eq);
		if (k < 0 || (!eq && (i + 1 >= n || !item_str(args, i + 1)))) {
			strvec_push(&f->extra, a);
			continue;
		}
		free(f->value[k]);
		if (eq) {
			f->value[k] = xstrdup(a + strlen(lmc_fields[k].flag) + 1);
		} else {
			f->value[k] = xstrdup(item_str(args, i + 1));
			i++;
		}
	}
}

void lmc_form_release(struct lmc_form *f)
{
	for (int i = 0; i < LMC_NFIELDS; i++) {
		free(f->value[i]);
		f->value[i] = NULL;
	}
	strvec_release(&f->extra);
}

json_t *lmc_form_to_args(const struct lmc_form *f)
{
	json_t *a = json_array();

	for (int i = 0; i < LMC_NFIELDS; i++) {
		if (!f->value[i] || !*f->value[i])
			continue;
		json_array_append_new(a, json_string(lmc_fields[i].flag));
		json_array_append_new(a, json_string(f->value[i]));
	}
	for (size_t i = 0; i < f->extra.n; i++)
		json_array_append_new(a, json_string(f->extra.v[i]));
	return a;
}

void list_ops_release(struct list_ops *ops)
{
	for (size_t i = 0; i < ops->n; i++)
		free(ops->v[i].value);
	free(ops->v);
	memset(ops, 0, sizeof(*ops));
}

static void op_push(struct list_ops *ops, enum list_op_kind kind, size_t index, char *value)
{
	ALLOC_GROW(ops->v, ops->n + 1, ops->alloc);
	ops->v[ops->n].kind = kind;
	ops->v[ops->n].index = index;
	ops->v[ops->n].value = value;
	ops->n++;
}

void lmc_plan_set(struct list_ops *ops, const json_t *args, enum lmc_field field,
		  const char *value)
{
	size_t n = json_array_size(args), at = (size_t)-1, after_known = 0;
	int eq = 0, found_eq = 0;
	const char *flag = lmc_fields[field].flag;

	for (size_t i = 0; i < n; i++) {
		const char *a = item_str(args, i);
		int k = a ? known_flag(a, &eq) : -1;
		if (k < 0)
			continue;
		if (!eq && (i + 1 >= n || !item_str(args, i + 1)))
			continue; /* a dangling flag: an extra arg */
		if (k == (int)field) {
			at = i; /* the last one wins, as in argparse */
			found_eq = eq;
		}
		after_known = eq ? i + 1 : i + 2;
		if (!eq)
			i++;
	}
	if (at != (size_t)-1) {
		if (!value || !*value) {
			if (!found_eq)
				op_push(ops, LIST_DELETE, at + 1, NULL);
			op_push(ops, LIST_DELETE, at, NULL);
		} else if (found_eq) {
			char *s = xasprintf("%s=%s", flag, value);
			if (strcmp(s, item_str(args, at)))
				op_push(ops, LIST_SET, at, s);
			else
				free(s);
		} else if (strcmp(value, item_str(args, at + 1))) {
			op_push(ops, LIST_SET, at + 1, xstrdup(value));
		}
		return;
	}
	if (!value || !*value)
		return;
	/* After the last known flag (or first of all), so known flags stay
	 * together ahead of the extra args as the form shows them. */
	op_push(ops, LIST_INSERT, after_known, xstrdup(flag));
	op_push(ops, LIST_INSERT, after_known + 1, xstrdup(value));
}

json_t *list_ops_apply(const json_t *args, const struct list_ops *ops)
{
	json_t *a = json_is_array(args) ? json_deep_copy(args) : json_array();

	for (size_t i = 0; i < ops->n; i++) {
		const struct list_op *op = &ops->v[i];
		switch (op->kind) {
		case LIST_SET:
			json_array_set_new(a, op->index, json_string(op->value));
			break;
		case LIST_INSERT:
			json_array_insert_new(a, op->index, json_string(op->value));
			break;
		case LIST_DELETE:
			json_array_remove(a, op->index);
			break;
		}
	}
	return a;
}

static int name_used(const json_t *services, const char *name)
{
	size_t i;
	const json_t *s;

	json_array_foreach(services, i, s) {
		const char *n = json_string_value(json_object_get(s, "name"));
		if (n && !strcmp(n, name))
			return 1;
	}
	return 0;
}

char *svc_unique_name(const json_t *services, const char *base)
{
	if (!name_used(services, base))
		return xstrdup(base);
	for (int i = 2;; i++) {
		char *s = xasprintf("%s-%d", base, i);
		if (!name_used(services, s))
			return s;
		free(s);
	}
}

json_t *svc_new_entry(const char *type, const char *name)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(name));
	json_object_set_new(o, "type", json_string(type));
	if (!strcmp(type, "lmcache-server")) {
		/* The shape of the LMCache examples: a DRAM tier, the hash seed
		 * services do not inherit, and locked memory for pinned buffers. */
		json_t *args = json_array(), *env = json_object();
		const char *a[] = { "--l1-size-gb", "16", "--chunk-size", "256" };
		for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
			json_array_append_new(args, json_string(a[i]));
		json_object_set_new(o, "args", args);
		json_object_set_new(env, "PYTHONHASHSEED", json_string("0"));
		json_object_set_new(o, "env", env);
		json_object_set_new(o, "preamble", json_string("ulimit -l unlimited\n"));
	} else if (!strcmp(type, "generic")) {
		json_t *cmd = json_array();
		json_array_append_new(cmd, json_string("sleep"));
		json_array_append_new(cmd, json_string("infinity"));
		json_object_set_new(o, "command", cmd);
	}
	return o;
}

enum ready_kind ready_kind_of(const json_t *r)
{
	if (!json_is_object(r))
		return READY_DEFAULT;
	if (json_object_get(r, "http"))
		return READY_HTTP;
	if (json_object_get(r, "log"))
		return READY_LOG;
	if (json_object_get(r, "tcp") || json_object_get(r, "port"))
		return READY_TCP;
	return READY_DEFAULT;
}

char *ready_summary(const json_t *r, const char *type)
{
	const json_t *v;
	const struct svc_kind *k = svc_kind_find(type ? type : "generic");

	switch (ready_kind_of(r)) {
	case READY_TCP:
		v = json_object_get(r, "port");
		if (!v)
			v = json_object_get(json_object_get(r, "tcp"), "port");
		return xasprintf("tcp/%lld", (long long)json_integer_value(v));
	case READY_HTTP: {
		const json_t *h = json_object_get(r, "http");
		const char *p = json_string_value(json_object_get(h, "path"));
		v = json_object_get(h, "status");
		return xasprintf("http :%lld%s -> %lld",
				 (long long)json_integer_value(json_object_get(h, "port")),
				 p ? p : "/health", json_is_integer(v) ? (long long)json_integer_value(v) : 200LL);
	}
	case READY_LOG: {
		const char *p = json_string_value(json_object_get(json_object_get(r, "log"), "pattern"));
		return xasprintf("log /%s/", p ? p : "");
	}
	case READY_DEFAULT:
		break;
	}
	if (k && k->ready_http_port)
		return xasprintf("kind default (http :%d%s)", k->ready_http_port,
				 k->ready_http_path ? k->ready_http_path : "");
	if (k && k->ready_ports && k->ready_ports[0])
		return xasprintf("kind default (tcp/%d)", k->ready_ports[0]);
	return xstrdup("none (started = ready)");
}
