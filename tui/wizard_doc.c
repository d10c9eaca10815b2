/* Document helpers for the wizard: path-text wrappers over model/doc, and
 * the agg <-> prefill/decode switch done as a few doc edits. */
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "tui/wizard.h"

static int parse(struct path *p, const char *text, char **err)
{
	return path_parse(p, text, PATH_NAMES, err);
}

json_t *wiz_get(struct doc *d, const char *text)
{
	struct path p = PATH_INIT;
	const struct doc_node *n;
	json_t *v = NULL;

	if (parse(&p, text, NULL))
		return NULL;
	if ((n = doc_lookup(d, &p)))
		v = doc_node_json(d, n);
	path_release(&p);
	return v;
}

const char *wiz_get_str(struct doc *d, const char *text)
{
	struct path p = PATH_INIT;
	const struct doc_node *n;
	const char *s = NULL;

	if (parse(&p, text, NULL))
		return NULL;
	n = doc_lookup(d, &p);
	if (n && doc_node_kind(n) == DOC_SCALAR) {
		json_t *v = doc_node_json(d, n);
		if (json_is_string(v))
			s = doc_node_text(n);
		json_decref(v);
	}
	path_release(&p);
	return s;
}

int wiz_set(struct doc *d, const char *text, const json_t *v, int block, char **err)
{
	struct path p = PATH_INIT;
	char *warn = NULL;
	int r;

	if (parse(&p, text, err))
		return -1;
	r = block ? doc_set_block(d, &p, v, err, &warn) : doc_set(d, &p, v, err, &warn);
	free(warn);
	path_release(&p);
	return r;
}

int wiz_set_str(struct doc *d, const char *text, const char *s, char **err)
{
	json_t *v = json_string(s);
	int r = wiz_set(d, text, v, 0, err);

	json_decref(v);
	return r;
}

int wiz_delete(struct doc *d, const char *text, char **err)
{
	struct path p = PATH_INIT;
	char *warn = NULL;
	int r = 0;

	if (parse(&p, text, err))
		return -1;
	if (doc_lookup(d, &p))
		r = doc_delete(d, &p, err, &warn);
	free(warn);
	path_release(&p);
	return r;
}

int wiz_insert(struct doc *d, const char *text, size_t index, const json_t *v, char **err)
{
	struct path p = PATH_INIT;
	char *warn = NULL;
	int r;

	if (parse(&p, text, err))
		return -1;
	r = doc_insert(d, &p, index, v, err, &warn);
	free(warn);
	path_release(&p);
	return r;
}

int wiz_rename(struct doc *d, const char *text, const char *new_key, char **err)
{
	struct path p = PATH_INIT;
	int r;

	if (parse(&p, text, err))
		return -1;
	r = doc_rename_key(d, &p, new_key, err);
	path_release(&p);
	return r;
}

void wiz_path_key(struct strbuf *sb, const char *key)
{
	if (sb->len)
		strbuf_addch(sb, '.');
	if (strpbrk(key, ".[]'\"") || !*key) {
		char q = strchr(key, '"') ? '\'' : '"';
		strbuf_addf(sb, "%c%s%c", q, key, q);
	} else {
		strbuf_addstr(sb, key);
	}
}

void wiz_undo_n(struct doc *d, int n)
{
	while (n-- > 0)
		doc_undo(d);
}

/* Services placed on a role that goes away follow it to the new layout. */
static int move_placements(struct doc *d, const char *const *from, const char *to, int *edits,
			   char **err)
{
	json_t *svcs = wiz_get(d, "services");
	size_t i;
	json_t *s;
	int r = 0;

	json_array_foreach(svcs, i, s) {
		const char *node = json_string_value(json_object_get(json_object_get(s, "placement"), "node"));
		for (const char *const *f = from; node && *f; f++) {
			if (strcmp(node, *f))
				continue;
			char *path = xasprintf("services[%zu].placement.node", i);
			r = wiz_set_str(d, path, to, err);
			free(path);
			if (r)
				goto out;
			(*edits)++;
			break;
		}
	}
out:
	json_decref(svcs);
	return r;
}

int wiz_set_disagg(struct doc *d, int disagg, char **err)
{
	json_t *agg = wiz_get(d, "roles.agg"), *pre = wiz_get(d, "roles.prefill");
	int edits = 0, r = 0;
	const char *fe0 = wiz_get_str(d, "frontend.type");
	char *fe = fe0 ? xstrdup(fe0) : NULL; /* the doc's copy moves with edits */

	if (disagg) {
		static const char *const from[] = { "agg", NULL };
		json_t *dec;
		if (pre || !agg) /* already P/D, or no roles to split */
			goto out;
		/* prefill keeps agg's text (and comments); decode starts as a copy. */
		dec = json_deep_copy(agg);
		if ((r = wiz_rename(d, "roles.agg", "prefill", err)))
			goto fail;
		edits++;
		r = wiz_set(d, "roles.decode", dec, 1, err);
		json_decref(dec);
		if (r)
			goto fail;
		edits++;
		/* Direct frontends serve one aggregated worker; P/D needs the router. */
		if (fe && (!strcmp(fe, "vllm") || !strcmp(fe, "sglang"))) {
			char *router = xasprintf("%s-router", fe);
			r = wiz_set_str(d, "frontend.type", router, err);
			free(router);
			if (r)
				goto fail;
			edits++;
		}
		if ((r = move_placements(d, from, "workers", &edits, err)))
			goto fail;
	} else {
		static const char *const from[] = { "prefill", "decode", NULL };
		if (agg || !pre)
			goto out;
		if ((r = wiz_delete(d, "roles.decode", err)))
			goto fail;
		edits++;
		if ((r = wiz_rename(d, "roles.prefill", "agg", err)))
			goto fail;
		edits++;
		if ((r = move_placements(d, from, "agg", &edits, err)))
			goto fail;
	}
	goto out;
fail:
	wiz_undo_n(d, edits);
out:
	json_decref(agg);
	json_decref(pre);
	free(fe);
	return r;
}
