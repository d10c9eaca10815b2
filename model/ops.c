/*
 * ops.c — recipe edits as transactions (see ops.h).  Each operation opens a
 * transaction, makes its edits through the path helpers, and commits; the
 * first refusal aborts, which returns the document to the text it had.
 */
#include "model/ops.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* ---- path-text helpers -------------------------------------------------------- */

static int parse(struct path *p, const char *text, char **err)
{
	return path_parse(p, text, PATH_NAMES, err);
}

json_t *ops_get(struct doc *d, const char *text)
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

const char *ops_get_str(struct doc *d, const char *text)
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

int ops_set(struct doc *d, const char *text, const json_t *v, int block, char **err)
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

int ops_set_str(struct doc *d, const char *text, const char *s, char **err)
{
	json_t *v = json_string(s);
	int r = ops_set(d, text, v, 0, err);

	json_decref(v);
	return r;
}

int ops_delete(struct doc *d, const char *text, char **err)
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

int ops_insert(struct doc *d, const char *text, size_t index, const json_t *v, char **err)
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

int ops_rename(struct doc *d, const char *text, const char *new_key, char **err)
{
	struct path p = PATH_INIT;
	int r;

	if (parse(&p, text, err))
		return -1;
	r = doc_rename_key(d, &p, new_key, err);
	path_release(&p);
	return r;
}

void ops_path_key(struct strbuf *sb, const char *key)
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

/* Close the transaction opened by the caller: commit on success, else abort. */
static int finish(struct doc *d, int r)
{
	if (r) {
		doc_abort(d);
		return r;
	}
	doc_commit(d);
	return 0;
}

/* ---- layout ------------------------------------------------------------------------ */

/* Services placed on a role that goes away follow it to the new layout. */
static int move_placements(struct doc *d, const char *const *from, const char *to, char **err)
{
	json_t *svcs = ops_get(d, "services");
	size_t i;
	json_t *s;
	int r = 0;

	json_array_foreach(svcs, i, s) {
		const char *node = json_string_value(json_object_get(json_object_get(s, "placement"), "node"));
		for (const char *const *f = from; node && *f; f++) {
			if (strcmp(node, *f))
				continue;
			char *path = xasprintf("services[%zu].placement.node", i);
			r = ops_set_str(d, path, to, err);
			free(path);
			if (r)
				goto out;
			break;
		}
	}
out:
	json_decref(svcs);
	return r;
}

int ops_set_layout(struct doc *d, int disagg, char **err)
{
	json_t *agg = ops_get(d, "roles.agg"), *pre = ops_get(d, "roles.prefill");
	int r = 0;
	const char *fe0 = ops_get_str(d, "frontend.type");
	char *fe = fe0 ? xstrdup(fe0) : NULL; /* the doc's copy moves with edits */

	doc_begin(d);
	if (disagg) {
		static const char *const from[] = { "agg", NULL };
		if (pre || !agg) /* already P/D, or no roles to split */
			goto out;
		/* prefill keeps agg's text (and comments); decode starts as a copy. */
		json_t *dec = json_deep_copy(agg);
		r = ops_rename(d, "roles.agg", "prefill", err);
		if (!r)
			r = ops_set(d, "roles.decode", dec, 1, err);
		json_decref(dec);
		/* Direct frontends serve one aggregated worker; P/D needs the router. */
		if (!r && fe && (!strcmp(fe, "vllm") || !strcmp(fe, "sglang"))) {
			char *router = xasprintf("%s-router", fe);
			r = ops_set_str(d, "frontend.type", router, err);
			free(router);
		}
		if (!r)
			r = move_placements(d, from, "workers", err);
	} else {
		static const char *const from[] = { "prefill", "decode", NULL };
		if (agg || !pre)
			goto out;
		r = ops_delete(d, "roles.decode", err);
		if (!r)
			r = ops_rename(d, "roles.prefill", "agg", err);
		if (!r)
			r = move_placements(d, from, "agg", err);
	}
out:
	json_decref(agg);
	json_decref(pre);
	free(fe);
	return finish(d, r);
}

/* ---- engine ------------------------------------------------------------------------ */

int ops_set_engine(struct doc *d, const char *type, const char **frontend, char **err)
{
	json_t *e = ops_get(d, "engine");
	int r = 0;

	if (frontend)
		*frontend = NULL;
	doc_begin(d);
	if (json_is_object(e)) {
		/* Knobs of the old engine would be unknown keys for the new one. */
		static const char *const knobs[] = { "connector", "mooncake_protocol", NULL };
		for (const char *const *k = knobs; *k && !r; k++)
			if (json_object_get(e, *k)) {
				char *p = xasprintf("engine.%s", *k);
				r = ops_delete(d, p, err);
				free(p);
			}
		if (!r)
			r = ops_set_str(d, "engine.type", type, err);
	} else {
		r = ops_set_str(d, "engine", type, err);
	}
	/* ATOM needs the AToMesh router, and AToMesh serves only ATOM. */
	if (!r) {
		const char *fe = ops_get_str(d, "frontend.type");
		const char *want = !strcmp(type, "atom") ? "atomesh"
				   : fe && !strcmp(fe, "atomesh") ? "dynamo" : NULL;
		if (want && (!fe || strcmp(fe, want))) {
			r = ops_set_str(d, "frontend.type", want, err);
			if (!r && frontend)
				*frontend = want;
		}
	}
	json_decref(e);
	return finish(d, r);
}

/* ---- connectors ---------------------------------------------------------------------- */

int ops_engine_mapping(struct doc *d, char **err)
{
	json_t *e = ops_get(d, "engine"), *m;
	int r = 0;

	if (json_is_string(e)) {
		m = json_object();
		json_object_set(m, "type", e);
		r = ops_set(d, "engine", m, 1, err);
		json_decref(m);
	}
	json_decref(e);
	return r;
}

int ops_set_engine_connector(struct doc *d, const char *connector, char **err)
{
	doc_begin(d);
	int r = ops_engine_mapping(d, err);
	if (!r)
		r = ops_set_str(d, "engine.connector", connector ? connector : "nixl", err);
	return finish(d, r);
}

static char *role_path(const char *role, const char *rest)
{
	return xasprintf("roles.%s.args%s%s", role, rest ? "." : "", rest ? rest : "");
}

int ops_set_role_connector(struct doc *d, const char *role, const char *connector, char **err)
{
	char *p = role_path(role, "connector");
	doc_begin(d);
	int r = !connector || !*connector ? ops_delete(d, p, err) : ops_set_str(d, p, connector, err);
	free(p);
	return finish(d, r);
}

int ops_set_sglang_lmcache(struct doc *d, const char *role, int on, char **err)
{
	char *p = role_path(role, "enable-lmcache");
	int r;

	doc_begin(d);
	if (on) {
		json_t *t = json_true();
		r = ops_set(d, p, t, 0, err);
		json_decref(t);
	} else {
		r = ops_delete(d, p, err);
		if (!r) { /* the underscore spelling too */
			free(p);
			p = role_path(role, "enable_lmcache");
			r = ops_delete(d, p, err);
		}
	}
	free(p);
	return finish(d, r);
}

/* ---- ATOM extra-kv-connectors --------------------------------------------------------- */

static char *kv_path(const char *role)
{
	return role_path(role, "extra-kv-connectors");
}

int ops_atom_kv_add(struct doc *d, const char *role, const json_t *entry, char **err)
{
	char *p = kv_path(role);
	json_t *list = ops_get(d, p);
	int r;

	doc_begin(d);
	if (list && !json_is_array(list)) {
		*err = xasprintf("'%s' is not a list; fix it in the Fields tree first", p);
		r = -1;
	} else if (!list) {
		/* A new list in block style, so each entry's keys get a line. */
		json_t *l = json_array();
		json_array_append(l, (json_t *)entry);
		r = ops_set(d, p, l, 1, err);
		json_decref(l);
	} else {
		r = ops_insert(d, p, json_array_size(list), entry, err);
	}
	json_decref(list);
	free(p);
	return finish(d, r);
}

int ops_atom_kv_delete(struct doc *d, const char *role, size_t index, char **err)
{
	char *p = kv_path(role), *item = xasprintf("%s[%zu]", p, index);
	json_t *list = ops_get(d, p);
	int r;

	doc_begin(d);
	/* Deleting the last entry leaves `[]`: drop the key instead. */
	r = json_array_size(list) == 1 && index == 0 ? ops_delete(d, p, err) : ops_delete(d, item, err);
	json_decref(list);
	free(item);
	free(p);
	return finish(d, r);
}

int ops_atom_kv_set(struct doc *d, const char *role, size_t index, const char *key,
		    const json_t *v, char **err)
{
	static const char xc[] = "kv_connector_extra_config.";
	struct strbuf sb = STRBUF_INIT;
	int r;

	strbuf_addf(&sb, "roles.%s.args.extra-kv-connectors[%zu]", role, index);
	if (!strncmp(key, xc, sizeof(xc) - 1)) {
		ops_path_key(&sb, "kv_connector_extra_config");
		ops_path_key(&sb, key + sizeof(xc) - 1);
	} else {
		ops_path_key(&sb, key);
	}
	doc_begin(d);
	r = v ? ops_set(d, sb.buf, v, 0, err) : ops_delete(d, sb.buf, err);
	strbuf_release(&sb);
	return finish(d, r);
}

/* ---- variants ------------------------------------------------------------------------- */

int ops_add_sweep(struct doc *d, const char *field, const char *param, const json_t *values,
		  char **err)
{
	char *ph = xasprintf("{%s}", param);
	struct strbuf sp = STRBUF_INIT;
	strbuf_addstr(&sp, "sweep");
	ops_path_key(&sp, param);
	doc_begin(d);
	int r = ops_set_str(d, field, ph, err);
	if (!r)
		r = ops_set(d, sb_str(&sp), values, 0, err);
	strbuf_release(&sp);
	free(ph);
	return finish(d, r);
}
