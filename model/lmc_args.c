/* lmcache-server args through the flag table: argparse's reading of the
 * items, the form's values, and the smallest list edits for one change. */
#include <stdlib.h>
#include <string.h>

#include "model/lmc_args.h"
#include "lib/json.h"
#include "lib/json_read.h"

static const char *item_str(const json_t *args, size_t i)
{
	const json_t *v = json_array_get(args, i);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* argparse takes "-x" as an option unless it looks like a negative number. */
static int looks_like_flag(const char *s)
{
	if (!s || s[0] != '-' || !s[1])
		return 0;
	if ((s[1] >= '0' && s[1] <= '9') || s[1] == '.')
		return 0;
	return 1;
}

static int takes_value(const struct lmc_flag *f)
{
	return f && f->type != LMC_SWITCH && f->type != LMC_BOOLOPT && f->type != LMC_LIST;
}

void lmc_scan(struct lmc_scan *s, const json_t *args, size_t from)
{
	size_t n = json_array_size(args);

	for (size_t i = from; i < n; i++) {
		const char *a = item_str(args, i);
		struct lmc_occ o = { .word = a, .at = i, .n = 1 };
		char name[128];
		const char *eq;

		if (!a) {
			o.not_string = 1;
		} else if (looks_like_flag(a)) {
			eq = a[1] == '-' ? strchr(a, '=') : NULL;
			size_t len = eq ? (size_t)(eq - a) : strlen(a);
			if (len >= sizeof(name))
				len = sizeof(name) - 1;
			memcpy(name, a, len);
			name[len] = '\0';
			o.flag = lmc_flag_find(name, &o.neg);
			if (eq) {
				o.eq = 1;
				o.value = eq + 1;
			} else if (o.flag && o.flag->type == LMC_LIST) {
				if (i + 1 < n && item_str(args, i + 1) && !looks_like_flag(item_str(args, i + 1)))
					o.value = item_str(args, i + 1);
				while (i + 1 < n && item_str(args, i + 1) &&
				       !looks_like_flag(item_str(args, i + 1))) {
					i++;
					o.n++;
				}
			} else if (takes_value(o.flag) || !o.flag) {
				/* An unknown flag takes the word after it, if that is
				 * not a flag: one warning, not a second for the value. */
				const char *next = i + 1 < n ? item_str(args, i + 1) : NULL;
				if (next && !looks_like_flag(next)) {
					o.value = next;
					o.n = 2;
					i++;
				} else if (o.flag) {
					o.missing = 1;
				}
			}
		}
		ALLOC_GROW(s->v, s->n + 1, s->alloc);
		s->v[s->n++] = o;
	}
}

void lmc_scan_release(struct lmc_scan *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

const struct lmc_occ *lmc_scan_last(const struct lmc_scan *s, const struct lmc_flag *f)
{
	for (size_t i = s->n; i-- > 0;)
		if (s->v[i].flag == f && !s->v[i].missing)
			return &s->v[i];
	return NULL;
}

static char *occ_value(const struct lmc_occ *o)
{
	if (o->flag->type == LMC_SWITCH)
		return xstrdup("on");
	if (o->flag->type == LMC_BOOLOPT)
		return xstrdup(o->neg ? "off" : "on");
	return xstrdup(o->value ? o->value : "");
}

char *lmc_value(const json_t *args, const struct lmc_flag *f)
{
	struct lmc_scan s = LMC_SCAN_INIT;
	const struct lmc_occ *o;
	char *v = NULL;

	lmc_scan(&s, args, 0);
	if ((o = lmc_scan_last(&s, f)))
		v = occ_value(o);
	lmc_scan_release(&s);
	return v;
}

/* The nth complete occurrence of f; NULL when there are fewer. */
static const struct lmc_occ *nth_occ(const struct lmc_scan *s, const struct lmc_flag *f, size_t nth)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].flag == f && !s->v[i].missing && nth-- == 0)
			return &s->v[i];
	return NULL;
}

char *lmc_value_nth(const json_t *args, const struct lmc_flag *f, size_t nth)
{
	struct lmc_scan s = LMC_SCAN_INIT;
	const struct lmc_occ *o;
	char *v = NULL;

	lmc_scan(&s, args, 0);
	if ((o = nth_occ(&s, f, nth)))
		v = occ_value(o);
	lmc_scan_release(&s);
	return v;
}

size_t lmc_count(const json_t *args, const struct lmc_flag *f)
{
	struct lmc_scan s = LMC_SCAN_INIT;
	size_t n = 0;

	lmc_scan(&s, args, 0);
	while (nth_occ(&s, f, n))
		n++;
	lmc_scan_release(&s);
	return n;
}

static int on_form(const struct lmc_occ *o)
{
	return o->flag && o->flag->label && !o->missing;
}

void lmc_extra(const json_t *args, struct strvec *out)
{
	struct lmc_scan s = LMC_SCAN_INIT;

	lmc_scan(&s, args, 0);
	for (size_t i = 0; i < s.n; i++) {
		if (on_form(&s.v[i]))
			continue;
		for (size_t k = 0; k < s.v[i].n; k++) {
			const json_t *v = json_array_get(args, s.v[i].at + k);
			if (json_is_string(v)) {
				strvec_push(out, json_string_value(v));
			} else { /* srtctl would reject it; keep it visible */
				char *t = json_text(v, JSON_ENCODE_ANY);
				strvec_push(out, t ? t : "");
				free(t);
			}
		}
	}
	lmc_scan_release(&s);
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

/* Where a new form flag goes: after the last form flag's items (or first). */
static size_t after_form(const struct lmc_scan *s)
{
	size_t at = 0;

	for (size_t i = 0; i < s->n; i++)
		if (on_form(&s->v[i]))
			at = s->v[i].at + s->v[i].n;
	return at;
}

/* Delete occurrence o's items (from the end, so indices stay right). */
static void plan_delete(struct list_ops *ops, const struct lmc_occ *o)
{
	for (size_t k = o->n; k-- > 0;)
		op_push(ops, LIST_DELETE, o->at + k, NULL);
}

/* The items that write f = value: "--f" alone, "--no-f", or "--f" "V". */
static void plan_insert(struct list_ops *ops, size_t at, const struct lmc_flag *f,
			const char *value)
{
	if (f->type == LMC_SWITCH) {
		op_push(ops, LIST_INSERT, at, xstrdup(f->name));
	} else if (f->type == LMC_BOOLOPT) {
		op_push(ops, LIST_INSERT, at,
			!strcmp(value, "off") ? xasprintf("--no-%s", f->name + 2) : xstrdup(f->name));
	} else {
		op_push(ops, LIST_INSERT, at, xstrdup(f->name));
		op_push(ops, LIST_INSERT, at + 1, xstrdup(value));
	}
}

/* Change occurrence o to value in place. */
static void plan_change(struct list_ops *ops, const json_t *args, const struct lmc_occ *o,
			const char *value)
{
	const struct lmc_flag *f = o->flag;
	char *s;

	if (f->type == LMC_SWITCH)
		return; /* on stays on */
	if (f->type == LMC_BOOLOPT) {
		s = !strcmp(value, "off") ? xasprintf("--no-%s", f->name + 2) : xstrdup(f->name);
		if (strcmp(s, o->word))
			op_push(ops, LIST_SET, o->at, s);
		else
			free(s);
		return;
	}
	if (o->eq) {
		s = xasprintf("%s=%s", f->name, value);
		if (strcmp(s, o->word))
			op_push(ops, LIST_SET, o->at, s);
		else
			free(s);
	} else if (strcmp(value, item_str(args, o->at + 1))) {
		op_push(ops, LIST_SET, o->at + 1, xstrdup(value));
	}
}

void lmc_plan_set(struct list_ops *ops, const json_t *args, const struct lmc_flag *f,
		  const char *value)
{
	struct lmc_scan s = LMC_SCAN_INIT;
	const struct lmc_occ *o;

	lmc_scan(&s, args, 0);
	o = lmc_scan_last(&s, f);
	if (o && (!value || !*value || (f->type == LMC_SWITCH && !strcmp(value, "off"))))
		plan_delete(ops, o);
	else if (o)
		plan_change(ops, args, o, value);
	else if (value && *value && !(f->type == LMC_SWITCH && !strcmp(value, "off")))
		plan_insert(ops, after_form(&s), f, value);
	lmc_scan_release(&s);
}

void lmc_plan_append(struct list_ops *ops, const json_t *args, const struct lmc_flag *f,
		     const char *value)
{
	struct lmc_scan s = LMC_SCAN_INIT;

	lmc_scan(&s, args, 0);
	if (value && *value)
		plan_insert(ops, after_form(&s), f, value);
	lmc_scan_release(&s);
}

void lmc_plan_set_nth(struct list_ops *ops, const json_t *args, const struct lmc_flag *f,
		      size_t nth, const char *value)
{
	struct lmc_scan s = LMC_SCAN_INIT;
	const struct lmc_occ *o;

	lmc_scan(&s, args, 0);
	if ((o = nth_occ(&s, f, nth))) {
		if (!value || !*value)
			plan_delete(ops, o);
		else
			plan_change(ops, args, o, value);
	}
	lmc_scan_release(&s);
}

void lmc_plan_extra(struct list_ops *ops, const json_t *args, const struct strvec *extra)
{
	struct lmc_scan s = LMC_SCAN_INIT;
	size_t keep = 0;

	lmc_scan(&s, args, 0);
	/* Delete the extra items from the end; count the form items kept. */
	for (size_t i = s.n; i-- > 0;) {
		if (on_form(&s.v[i]))
			keep += s.v[i].n;
		else
			plan_delete(ops, &s.v[i]);
	}
	for (size_t i = 0; i < extra->n; i++)
		op_push(ops, LIST_INSERT, keep + i, xstrdup(extra->v[i]));
	lmc_scan_release(&s);
}

int lmc_prometheus_port(const json_t *args)
{
	struct lmc_scan s = LMC_SCAN_INIT;
	const struct lmc_occ *o;
	int port = LMCACHE_PROMETHEUS_PORT;
	/* the table's entries, found once: this runs for every lmcache server */
	static const struct lmc_flag *no_obs, *no_metrics, *otlp, *prom;
	if (!prom) {
		no_obs = lmc_flag_find("--disable-observability", NULL);
		no_metrics = lmc_flag_find("--disable-metrics", NULL);
		otlp = lmc_flag_find("--otlp-endpoint", NULL);
		prom = lmc_flag_find("--prometheus-port", NULL);
	}

	lmc_scan(&s, args, 0);
	if (lmc_scan_last(&s, no_obs) || lmc_scan_last(&s, no_metrics) || lmc_scan_last(&s, otlp))
		port = 0;
	else if ((o = lmc_scan_last(&s, prom)) && o->value)
		port = atoi(o->value);
	lmc_scan_release(&s);
	return port;
}

/* ---- L2 adapter JSON ---------------------------------------------------------- */

static json_t *key_value(const struct l2_key *k, const char *v)
{
	char *end;

	switch (k->type) {
	case L2K_INT: {
		long long n = strtoll(v, &end, 10);
		if (!*end)
			return json_integer(n);
		break;
	}
	case L2K_NUMBER: {
		double d = strtod(v, &end);
		if (!*end) {
			long long n = strtoll(v, &end, 10);
			return !*end ? json_integer(n) : json_real(d);
		}
		break;
	}
	case L2K_BOOL:
		if (!strcmp(v, "true") || !strcmp(v, "false"))
			return json_boolean(!strcmp(v, "true"));
		break;
	default:
		break;
	}
	return json_string(v);
}

char *l2_adapter_json(const struct l2_adapter_type *t, const char *const *values)
{
	json_t *o = json_object();
	char *s;

	json_object_set_new(o, "type", json_string(t->type));
	for (size_t i = 0; t->keys[i].key; i++) {
		const char *k = t->keys[i].key, *dot = strchr(k, '.');
		if (!values[i] || !*values[i])
			continue;
		if (dot) {
			char *outer = xstrndup(k, (size_t)(dot - k));
			json_t *in = json_object_get(o, outer);
			if (!in) {
				in = json_object();
				json_object_set_new(o, outer, in);
			}
			json_object_set_new(in, dot + 1, key_value(&t->keys[i], values[i]));
			free(outer);
		} else {
			json_object_set_new(o, k, key_value(&t->keys[i], values[i]));
		}
	}
	/* json.dumps layout: ", " and ": " separators, keys in order. */
	s = json_text(o, JSON_PRESERVE_ORDER);
	json_decref(o);
	return s;
}

static int in_list(const char *s, const char *const *l)
{
	for (; l && *l; l++)
		if (s && !strcmp(s, *l))
			return 1;
	return 0;
}

json_t *l2_key_get(const json_t *adapter, const struct l2_key *k)
{
	const char *dot = strchr(k->key, '.');
	json_t *v;
	if (!dot)
		return json_object_get(adapter, k->key);
	char *outer = xstrndup(k->key, (size_t)(dot - k->key));
	v = json_object_get(json_object_get(adapter, outer), dot + 1);
	free(outer);
	return v;
}

int l2_key_applies(const struct l2_key *k, const char *backend)
{
	return !k->when_backend || in_list(backend, k->when_backend);
}

int l2_adapter_check(const char *text, char **why)
{
	json_error_t e;
	json_t *o = json_read(text ? text : "", JSON_DECODE_ANY, &e), *v;
	const struct l2_adapter_type *t;
	const char *type;
	int r = -1;

	if (!o) {
		*why = xasprintf("is not valid JSON (%s)", e.text);
		return -1;
	}
	if (!json_is_object(o)) {
		*why = xstrdup("must be a JSON object");
		goto out;
	}
	type = json_string_value(json_object_get(o, "type"));
	if (!type) {
		*why = xstrdup("has no \"type\"");
		goto out;
	}
	if (!(t = l2_adapter_find(type))) {
		r = 0; /* a type this table does not describe: LMCache may know it */
		goto out;
	}
	const char *backend = json_string_value(json_object_get(o, "backend"));
	for (size_t i = 0; t->keys[i].key; i++) {
		const struct l2_key *k = &t->keys[i];
		v = l2_key_get(o, k);
		if (!v) {
			if (k->required && l2_key_applies(k, backend)) {
				*why = xasprintf("type %s needs \"%s\"", type, k->key);
				goto out;
			}
			continue;
		}
		int ok = 1;
		switch (k->type) {
		case L2K_STR:
			ok = json_is_string(v) && *json_string_value(v);
			break;
		case L2K_INT:
			ok = json_is_integer(v) && (strcmp(k->key, "pool_size") || json_integer_value(v) > 0);
			break;
		case L2K_NUMBER:
			ok = json_is_number(v);
			break;
		case L2K_BOOL:
			ok = json_is_boolean(v);
			break;
		case L2K_CHOICE:
			ok = json_is_string(v) && (!k->choices || in_list(json_string_value(v), k->choices));
			break;
		}
		if (!ok) {
			*why = xasprintf("\"%s\" of type %s must be %s", k->key, type,
					 k->type == L2K_STR ? "a non-empty string"
					 : k->type == L2K_INT ? "a positive integer"
					 : k->type == L2K_NUMBER ? "a number"
					 : k->type == L2K_BOOL ? "true or false" : "one of the listed values");
			goto out;
		}
	}
	r = 0;
out:
	json_decref(o);
	return r;
}
