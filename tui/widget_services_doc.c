/* Services edits on the document: add, remove, move, and the lmcache form
 * fields applied as the smallest list edits. */
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "tui/widget_services.h"
#include "tui/wizard.h"

int svc_add(struct doc *d, const char *type, const char *name, char **err)
{
	json_t *list = wiz_get(d, "services"), *e;
	char *n;
	int r;

	if (list && !json_is_array(list)) {
		json_decref(list);
		*err = xstrdup("'services' is not a list; fix it in the Fields tree first");
		return -1;
	}
	n = svc_unique_name(list, name && *name ? name : type);
	e = svc_new_entry(type, n);
	if (!list || !json_array_size(list)) {
		/* A new (or empty flow) list is written in block style. */
		json_t *l = json_array();
		json_array_append(l, e);
		r = wiz_set(d, "services", l, 1, err);
		json_decref(l);
	} else {
		r = wiz_insert(d, "services", json_array_size(list), e, err);
	}
	json_decref(e);
	json_decref(list);
	free(n);
	return r;
}

int svc_remove(struct doc *d, size_t index, char **err)
{
	char *p = xasprintf("services[%zu]", index);
	int r = wiz_delete(d, p, err);

	free(p);
	return r;
}

int svc_move(struct doc *d, size_t index, size_t to, char **err)
{
	struct path p = PATH_INIT;
	int r;

	path_push_key(&p, "services");
	path_push_index(&p, index);
	r = doc_move_item(d, &p, to, err);
	path_release(&p);
	return r;
}

static int apply_ops(struct doc *d, const char *args_path, const json_t *args,
		     const struct list_ops *ops, char **err)
{
	if (!args || !json_array_size(args)) {
		/* No list yet (or `[]`): write the whole result in block style. */
		json_t *v = list_ops_apply(args, ops);
		int r = json_array_size(v) ? wiz_set(d, args_path, v, 1, err) : 0;
		json_decref(v);
		return r;
	}
	doc_begin(d); /* the list edits are one action: one undo */
	for (size_t i = 0; i < ops->n; i++) {
		const struct list_op *op = &ops->v[i];
		char *item = xasprintf("%s[%zu]", args_path, op->index);
		json_t *v = op->value ? json_string(op->value) : NULL;
		int r;
		switch (op->kind) {
		case LIST_SET:
			r = wiz_set(d, item, v, 0, err);
			break;
		case LIST_INSERT:
			r = wiz_insert(d, args_path, op->index, v, err);
			break;
		default:
			r = wiz_delete(d, item, err);
			break;
		}
		json_decref(v);
		free(item);
		if (r) {
			doc_abort(d);
			return -1;
		}
	}
	doc_commit(d);
	return 0;
}

int svc_lmc_set(struct doc *d, size_t index, enum lmc_field field, const char *value,
		char **err)
{
	char *p = xasprintf("services[%zu].args", index);
	json_t *args = wiz_get(d, p);
	struct list_ops ops = LIST_OPS_INIT;
	int r = -1;

	if (args && !json_is_array(args)) {
		*err = xasprintf("'%s' is not a list; fix it in the Fields tree first", p);
		goto out;
	}
	lmc_plan_set(&ops, args, field, value);
	r = apply_ops(d, p, args, &ops, err);
out:
	list_ops_release(&ops);
	json_decref(args);
	free(p);
	return r;
}

/* Items of args that belong to a known form flag ("--flag V" or "--flag=V"). */
static int is_known_item(const json_t *args, size_t i)
{
	const char *a = json_string_value(json_array_get(args, i));
	const char *prev = i ? json_string_value(json_array_get(args, i - 1)) : NULL;

	for (int k = 0; k < LMC_NFIELDS; k++) {
		size_t fl = strlen(lmc_fields[k].flag);
		if (a && !strncmp(a, lmc_fields[k].flag, fl) && a[fl] == '=')
			return 1;
		if (a && !strcmp(a, lmc_fields[k].flag) && i + 1 < json_array_size(args))
			return 1;
		if (prev && !strcmp(prev, lmc_fields[k].flag) && a)
			return 1;
	}
	return 0;
}

int svc_set_extra_args(struct doc *d, size_t index, const struct strvec *extra, char **err)
{
	char *p = xasprintf("services[%zu].args", index);
	json_t *args = wiz_get(d, p), *want;
	struct lmc_form f = LMC_FORM_INIT;
	size_t n = json_array_size(args), keep = 0;
	int r = 0;

	lmc_form_from_args(&f, args);
	strvec_clear(&f.extra);
	for (size_t i = 0; i < extra->n; i++)
		strvec_push(&f.extra, extra->v[i]);
	want = lmc_form_to_args(&f);
	if (args && json_equal(want, args))
		goto out;
	if (!json_array_size(want)) {
		r = wiz_delete(d, p, err);
		goto out;
	}
	if (!n) {
		r = wiz_set(d, p, want, 1, err);
		goto out;
	}
	/* Known-flag items stay where they are; the extra items are replaced,
	 * all as one action (one undo). */
	doc_begin(d);
	for (size_t i = n; i-- > 0;) {
		char *item;
		if (is_known_item(args, i)) {
			keep++;
			continue;
		}
		item = xasprintf("%s[%zu]", p, i);
		r = wiz_delete(d, item, err);
		free(item);
		if (r)
			goto fail;
	}
	for (size_t i = 0; i < extra->n; i++) {
		json_t *v = json_string(extra->v[i]);
		r = wiz_insert(d, p, keep + i, v, err);
		json_decref(v);
		if (r)
			goto fail;
	}
	doc_commit(d);
	goto out;
fail:
	doc_abort(d);
out:
	json_decref(want);
	json_decref(args);
	lmc_form_release(&f);
	free(p);
	return r;
}
