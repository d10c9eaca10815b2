/* Services edits on the document: add, remove, move, an lmcache-server flag
 * applied as the smallest list edits, extra args, placement. */
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "model/lmc_args.h"
#include "model/ops_services.h"

/* ---- entries ------------------------------------------------------------------ */

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

const char *svc_default_name(const char *type)
{
	return svc_kind_is(type, KIND_LMCACHE_SERVER) ? "lmcache" : type;
}

/* What a new lmcache-server writes: the required flags with a size that fits
 * a node's spare DRAM and the policy every release accepts, the chunk size
 * LMCache defaults to (the engine side must agree). */
static const char *const lmc_new_args[] = { "--l1-size-gb", "16", "--chunk-size", "256",
					     "--eviction-policy", "LRU", NULL };

json_t *svc_new_entry(const char *type, const char *name)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(name));
	json_object_set_new(o, "type", json_string(type));
	if (svc_kind_is(type, KIND_LMCACHE_SERVER)) {
		/* The shape of the LMCache examples: a DRAM tier, the hash seed
		 * services do not inherit, and locked memory for pinned buffers. */
		json_t *args = json_array(), *env = json_object();
		for (size_t i = 0; lmc_new_args[i]; i++)
			json_array_append_new(args, json_string(lmc_new_args[i]));
		json_object_set_new(o, "args", args);
		json_object_set_new(env, "PYTHONHASHSEED", json_string("0"));
		json_object_set_new(o, "env", env);
		json_object_set_new(o, "preamble", json_string("ulimit -l unlimited\n"));
	} else if (svc_kind_is(type, KIND_GENERIC)) {
		json_t *cmd = json_array();
		json_array_append_new(cmd, json_string("sleep"));
		json_array_append_new(cmd, json_string("infinity"));
		json_object_set_new(o, "command", cmd);
	}
	return o;
}

const char *svc_effective_node(const json_t *svc)
{
	const json_t *pl = json_object_get(svc, "placement");
	const char *node = json_string_value(json_object_get(pl, "node"));
	const char *type = json_string_value(json_object_get(svc, "type"));
	const struct svc_kind *k = svc_kind_find(type ? type : KIND_NAME(KIND_GENERIC));

	if (node)
		return node;
	if (json_is_object(pl))
		return "head"; /* srtctl's schema default once the mapping exists */
	return k && k->placement ? k->placement : "head";
}

/* ---- paths and edits ------------------------------------------------------------ */

static void svc_path(struct path *p, size_t index, const char *key)
{
	path_push_key(p, "services");
	path_push_index(p, index);
	if (key)
		path_push_key(p, key);
}

static json_t *get(struct doc *d, const struct path *p)
{
	const struct doc_node *n = doc_lookup(d, p);
	return n ? doc_node_json(d, n) : NULL;
}

/* The edit functions of doc.h with the warning dropped.  An operation of
 * several edits runs them in one transaction (doc_begin), so it is one undo
 * step and a failure part way rolls the whole of it back (e_fail). */
struct edits {
	struct doc *d;
	char **err;
};

static int e_set(struct edits *e, const struct path *p, const json_t *v, int block)
{
	char *warn = NULL;
	int r = block ? doc_set_block(e->d, p, v, e->err, &warn) : doc_set(e->d, p, v, e->err, &warn);

	free(warn);
	return r;
}

static int e_delete(struct edits *e, const struct path *p)
{
	char *warn = NULL;
	int r;

	if (!doc_lookup(e->d, p))
		return 0;
	r = doc_delete(e->d, p, e->err, &warn);
	free(warn);
	return r;
}

static int e_insert(struct edits *e, const struct path *p, size_t index, const json_t *v)
{
	char *warn = NULL;
	int r = doc_insert(e->d, p, index, v, e->err, &warn);

	free(warn);
	return r;
}

static int e_fail(struct edits *e)
{
	doc_abort(e->d);
	return -1;
}

/* ---- add, remove, move ------------------------------------------------------------- */

int svc_add(struct doc *d, const char *type, const char *name, char **err)
{
	struct path p = PATH_INIT;
	struct edits e = { d, err };
	json_t *list, *ent;
	char *n;
	int r;

	path_push_key(&p, "services");
	list = get(d, &p);
	if (list && !json_is_array(list)) {
		json_decref(list);
		path_release(&p);
		*err = xstrdup("'services' is not a list; fix it in the Fields tree first");
		return -1;
	}
	n = svc_unique_name(list, name && *name ? name : svc_default_name(type));
	ent = svc_new_entry(type, n);
	if (!list || !json_array_size(list)) {
		/* A new (or empty flow) list is written in block style. */
		json_t *l = json_array();
		json_array_append(l, ent);
		r = e_set(&e, &p, l, 1);
		json_decref(l);
	} else {
		r = e_insert(&e, &p, json_array_size(list), ent);
	}
	json_decref(ent);
	json_decref(list);
	path_release(&p);
	free(n);
	return r;
}

int svc_add_placed(struct doc *d, const char *type, const char *node, char **err)
{
	struct path p = PATH_INIT;
	json_t *list;
	size_t n;
	int r;

	path_push_key(&p, "services");
	list = get(d, &p);
	n = json_is_array(list) ? json_array_size(list) : 0;
	json_decref(list);
	path_release(&p);
	doc_begin(d);
	r = svc_add(d, type, NULL, err);
	if (!r) {
		struct edits e = { d, err };
		json_t *v = json_string(node);
		svc_path(&p, n, "placement");
		path_push_key(&p, "node");
		r = e_set(&e, &p, v, 0);
		json_decref(v);
		path_release(&p);
	}
	if (r)
		doc_abort(d);
	else
		doc_commit(d);
	return r;
}

int svc_remove(struct doc *d, size_t index, char **err)
{
	struct path p = PATH_INIT;
	struct edits e = { d, err };
	int r;

	svc_path(&p, index, NULL);
	if (!doc_lookup(d, &p)) {
		*err = xasprintf("there is no services[%zu]", index);
		r = -1;
	} else {
		r = e_delete(&e, &p);
	}
	path_release(&p);
	return r;
}

int svc_move(struct doc *d, size_t index, size_t to, char **err)
{
	struct path p = PATH_INIT;
	int r;

	svc_path(&p, index, NULL);
	r = doc_move_item(d, &p, to, err);
	path_release(&p);
	return r;
}

/* ---- args ---------------------------------------------------------------------------- */

/* Apply planned list edits to services[index].args; an absent or empty list
 * is written whole in block style. */
static int apply_ops(struct doc *d, size_t index, const json_t *args, const struct list_ops *ops,
		     char **err)
{
	struct path p = PATH_INIT;
	struct edits e = { d, err };
	int r = 0;

	svc_path(&p, index, "args");
	if (!args || !json_array_size(args)) {
		json_t *v = list_ops_apply(args, ops);
		r = json_array_size(v) ? e_set(&e, &p, v, 1) : 0;
		json_decref(v);
		path_release(&p);
		return r;
	}
	/* Every item deleted: remove the key rather than leave `args: []`. */
	{
		json_t *after = list_ops_apply(args, ops);
		if (!json_array_size(after)) {
			json_decref(after);
			r = e_delete(&e, &p);
			path_release(&p);
			return r;
		}
		json_decref(after);
	}
	doc_begin(d);
	for (size_t i = 0; i < ops->n && !r; i++) {
		const struct list_op *op = &ops->v[i];
		json_t *v = op->value ? json_string(op->value) : NULL;
		struct path item = PATH_INIT;
		path_copy(&item, &p);
		path_push_index(&item, op->index);
		switch (op->kind) {
		case LIST_SET:
			r = e_set(&e, &item, v, 0);
			break;
		case LIST_INSERT:
			r = e_insert(&e, &p, op->index, v);
			break;
		case LIST_DELETE:
			r = e_delete(&e, &item);
			break;
		}
		json_decref(v);
		path_release(&item);
	}
	path_release(&p);
	if (r)
		return e_fail(&e);
	doc_commit(d);
	return 0;
}

/* services[index].args, checked to be a list (or absent). */
static int args_of(struct doc *d, size_t index, json_t **args, char **err)
{
	struct path p = PATH_INIT;

	svc_path(&p, index, "args");
	*args = get(d, &p);
	path_release(&p);
	if (*args && !json_is_array(*args)) {
		json_decref(*args);
		*args = NULL;
		*err = xasprintf("'services[%zu].args' is not a list; fix it in the Fields tree first",
				 index);
		return -1;
	}
	return 0;
}

enum flag_edit { FE_SET, FE_ADD, FE_NTH };

static int flag_edit(struct doc *d, size_t index, const struct lmc_flag *f, enum flag_edit how,
		     size_t nth, const char *value, char **err)
{
	struct list_ops ops = LIST_OPS_INIT;
	json_t *args;
	int r;

	if (!f) {
		*err = xstrdup("not a flag of lmcache server");
		return -1;
	}
	if (f->owned) {
		*err = xasprintf("%s is written by srtctl for every lmcache-server; it cannot be set here",
				 f->name);
		return -1;
	}
	if (args_of(d, index, &args, err))
		return -1;
	if (how == FE_SET)
		lmc_plan_set(&ops, args, f, value);
	else if (how == FE_ADD)
		lmc_plan_append(&ops, args, f, value);
	else
		lmc_plan_set_nth(&ops, args, f, nth, value);
	r = ops.n ? apply_ops(d, index, args, &ops, err) : 0;
	list_ops_release(&ops);
	json_decref(args);
	return r;
}

int svc_set_flag(struct doc *d, size_t index, const struct lmc_flag *f, const char *value,
		 char **err)
{
	return flag_edit(d, index, f, FE_SET, 0, value, err);
}

int svc_add_flag(struct doc *d, size_t index, const struct lmc_flag *f, const char *value,
		 char **err)
{
	return flag_edit(d, index, f, FE_ADD, 0, value, err);
}

int svc_set_flag_nth(struct doc *d, size_t index, const struct lmc_flag *f, size_t nth,
		     const char *value, char **err)
{
	return flag_edit(d, index, f, FE_NTH, nth, value, err);
}

int svc_set_extra_args(struct doc *d, size_t index, const struct strvec *extra, char **err)
{
	struct list_ops ops = LIST_OPS_INIT;
	json_t *args, *want;
	int r = 0;

	if (args_of(d, index, &args, err))
		return -1;
	lmc_plan_extra(&ops, args, extra);
	want = list_ops_apply(args, &ops);
	if (!(args ? json_equal(want, args) : !json_array_size(want)))
		r = apply_ops(d, index, args, &ops, err);
	json_decref(want);
	list_ops_release(&ops);
	json_decref(args);
	return r;
}

/* ---- placement ------------------------------------------------------------------------- */

int svc_set_placement(struct doc *d, size_t index, const char *key, const char *value,
		      char **err)
{
	struct path sp = PATH_INIT, pp = PATH_INIT, kp = PATH_INIT;
	struct edits e = { d, err };
	json_t *svc, *pl, *want;
	const char *type;
	const struct svc_kind *k;
	int r = 0;

	svc_path(&sp, index, NULL);
	svc = get(d, &sp);
	if (!json_is_object(svc)) {
		*err = xasprintf("there is no services[%zu] mapping", index);
		json_decref(svc);
		path_release(&sp);
		return -1;
	}
	type = json_string_value(json_object_get(svc, "type"));
	k = svc_kind_find(type ? type : KIND_NAME(KIND_GENERIC));
	pl = json_object_get(svc, "placement");
	path_copy(&pp, &sp);
	path_push_key(&pp, "placement");
	path_copy(&kp, &pp);
	path_push_key(&kp, key);
	if (pl && !json_is_object(pl)) {
		*err = xasprintf("'services[%zu].placement' is not a mapping; fix it in the Fields tree first",
				 index);
		r = -1;
		goto out;
	}
	/* What the mapping should hold afterwards. */
	want = pl ? json_deep_copy(pl) : json_object();
	if (value && *value)
		json_object_set_new(want, key, json_string(value));
	else
		json_object_del(want, key);
	if (!json_object_get(want, "node") && json_object_size(want)) {
		/* keep the node it ran on: the mapping's own, else the kind's */
		const char *had = pl ? svc_effective_node(svc) : (k && k->placement ? k->placement : "head");
		if (!strcmp(key, "node"))
			had = k && k->placement ? k->placement : "head";
		json_object_set_new(want, "node", json_string(had));
	}
	if (pl && json_equal(pl, want)) {
		json_decref(want);
		goto out;
	}
	if (!json_object_size(want)) {
		r = e_delete(&e, &pp);
	} else if (!pl) {
		/* node first, as srtctl's examples write it */
		json_t *o = json_object();
		json_object_set(o, "node", json_object_get(want, "node"));
		json_object_update(o, want);
		r = e_set(&e, &pp, o, 1);
		json_decref(o);
	} else {
		const char *kk;
		json_t *v;
		/* per key, so the other keys' bytes and comments stay */
		doc_begin(d);
		json_object_foreach(want, kk, v) {
			struct path p = PATH_INIT;
			if (json_equal(json_object_get(pl, kk), v))
				continue;
			path_copy(&p, &pp);
			path_push_key(&p, kk);
			r = e_set(&e, &p, v, 0);
			path_release(&p);
			if (r)
				break;
		}
		if (!r && !json_object_get(want, key) && json_object_get(pl, key))
			r = e_delete(&e, &kp);
		if (r)
			e_fail(&e);
		else
			doc_commit(d);
	}
	json_decref(want);
out:
	json_decref(svc);
	path_release(&sp);
	path_release(&pp);
	path_release(&kp);
	return r ? -1 : 0;
}

/* services[index].placement = value (a mapping) written whole: without node
 * (or pool), the node the service had goes first, as srtctl's examples write
 * it. */
static int set_whole_placement(struct doc *d, size_t index, const json_t *value, char **err)
{
	struct path pp = PATH_INIT;
	struct edits e = { d, err };
	json_t *svc, *o;
	int r;

	svc_path(&pp, index, NULL);
	svc = get(d, &pp);
	path_push_key(&pp, "placement");
	o = json_object();
	json_object_set_new(o, "node", json_string(svc_effective_node(svc)));
	json_object_update(o, (json_t *)value);
	r = e_set(&e, &pp, o, 1);
	json_decref(o);
	json_decref(svc);
	path_release(&pp);
	return r ? -1 : 0;
}

int svc_placement_edit(struct doc *d, const struct path *p, const json_t *value, char **err)
{
	struct path sp = PATH_INIT;
	const struct doc_node *list, *item, *pl;
	size_t index = 0;
	int r = 1, whole;

	if (p->n < 3 || p->n > 4 || p->seg[0].kind != PATH_KEY || strcmp(p->seg[0].key, "services") ||
	    p->seg[2].kind != PATH_KEY || strcmp(p->seg[2].key, "placement"))
		return 1;
	whole = p->n == 3;
	if (whole ? !json_is_object(value) || !json_object_size(value) ||
			    json_object_get(value, "node") || json_object_get(value, "pool")
		  : p->seg[3].kind != PATH_KEY || !strcmp(p->seg[3].key, "node") ||
			    !json_is_string(value))
		return 1;
	path_push_key(&sp, "services");
	list = doc_lookup(d, &sp);
	path_push_seg(&sp, &p->seg[1]);
	item = doc_lookup(d, &sp);
	path_push_key(&sp, "placement");
	pl = list && item ? doc_lookup(d, &sp) : NULL;
	/* one key of an existing mapping: nothing to keep, the plain edit is
	 * right (svc_set_placement would also be); a whole mapping replaces the
	 * old one, whose node the service ran on */
	if (!list || !item || doc_node_kind(item) != DOC_MAP || (pl && !whole))
		goto out;
	for (index = 0; index < doc_node_count(list); index++)
		if (doc_node_child(list, index) == item)
			break;
	r = whole ? set_whole_placement(d, index, value, err)
		  : svc_set_placement(d, index, p->seg[3].key, json_string_value(value), err);
out:
	path_release(&sp);
	return r;
}
