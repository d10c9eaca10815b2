/* Connector edits on the document: each is one or two doc patches. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "tui/widget_connector.h"
#include "tui/wizard.h"
#include "tui/wizard_screens.h"

static char *role_path(const char *role, const char *rest)
{
	return xasprintf("roles.%s.args%s%s", role, rest ? "." : "", rest ? rest : "");
}

int conn_set_role(struct doc *d, const char *role, const char *connector, char **err)
{
	char *p = role_path(role, "connector");
	int r;

	if (!connector || !*connector) {
		r = wiz_delete(d, p, err);
	} else {
		if (conn_classify(connector) == CONN_RAW && !conn_raw_valid(connector, err)) {
			free(p);
			return -1;
		}
		r = wiz_set_str(d, p, connector, err);
	}
	free(p);
	return r;
}

/* `engine: vllm` -> `engine:\n  type: vllm` so engine-wide knobs can be added. */
int wiz_engine_mapping(struct doc *d, char **err)
{
	json_t *e = wiz_get(d, "engine"), *m;
	int r = 0;

	if (json_is_string(e)) {
		m = json_object();
		json_object_set(m, "type", e);
		r = wiz_set(d, "engine", m, 1, err);
		json_decref(m);
	}
	json_decref(e);
	return r;
}

int conn_set_engine(struct doc *d, const char *connector, char **err)
{
	int r;

	if (conn_classify(connector) == CONN_RAW && !conn_raw_valid(connector, err))
		return -1;
	if (wiz_engine_mapping(d, err))
		return -1;
	r = wiz_set_str(d, "engine.connector", connector ? connector : "nixl", err);
	return r;
}

int conn_set_sglang_lmcache(struct doc *d, const char *role, int on, char **err)
{
	char *p = role_path(role, "enable-lmcache");
	int r;

	if (on) {
		json_t *t = json_true();
		r = wiz_set(d, p, t, 0, err);
		json_decref(t);
	} else {
		r = wiz_delete(d, p, err);
		if (!r) { /* the underscore spelling too */
			free(p);
			p = role_path(role, "enable_lmcache");
			r = wiz_delete(d, p, err);
		}
	}
	free(p);
	return r;
}

static char *kv_path(const char *role)
{
	return role_path(role, "extra-kv-connectors");
}

int atom_kv_add(struct doc *d, const char *role, enum atom_kv_kind kind, char **err)
{
	char *p = kv_path(role);
	json_t *list = wiz_get(d, p), *e = atom_kv_new_entry(kind);
	int r;

	if (list && !json_is_array(list)) {
		*err = xasprintf("'%s' is not a list; fix it in the Fields tree first", p);
		r = -1;
	} else if (!list) {
		/* A new list in block style, so each entry's keys get a line. */
		json_t *l = json_array();
		json_array_append(l, e);
		r = wiz_set(d, p, l, 1, err);
		json_decref(l);
	} else {
		r = wiz_insert(d, p, json_array_size(list), e, err);
	}
	json_decref(e);
	json_decref(list);
	free(p);
	return r;
}

int atom_kv_delete(struct doc *d, const char *role, size_t index, char **err)
{
	char *p = kv_path(role), *item = xasprintf("%s[%zu]", p, index);
	json_t *list = wiz_get(d, p);
	int r;

	/* Deleting the last entry leaves `[]`: drop the key instead. */
	r = json_array_size(list) == 1 && index == 0 ? wiz_delete(d, p, err)
						      : wiz_delete(d, item, err);
	json_decref(list);
	free(item);
	free(p);
	return r;
}

/* Value typed by the key's form type; NULL for "" (remove). */
static json_t *typed(const char *type, const char *value, char **err)
{
	if (!value || !*value)
		return NULL;
	if (!strcmp(type, "bool")) {
		if (!strcasecmp(value, "true") || !strcmp(value, "1") || !strcasecmp(value, "yes"))
			return json_true();
		if (!strcasecmp(value, "false") || !strcmp(value, "0") || !strcasecmp(value, "no"))
			return json_false();
		*err = xasprintf("'%s' is not true or false", value);
		return NULL;
	}
	if (!strcmp(type, "int")) {
		char *end;
		long long n;
		errno = 0;
		n = strtoll(value, &end, 10);
		if (errno || *end || end == value) {
			*err = xasprintf("'%s' is not a whole number", value);
			return NULL;
		}
		return json_integer(n);
	}
	return json_string(value);
}

int atom_kv_set(struct doc *d, const char *role, size_t index, const char *key,
		const char *value, char **err)
{
	static const char xc[] = "kv_connector_extra_config.";
	struct strbuf sb = STRBUF_INIT;
	const char *type = "string";
	json_t *v;
	int r;

	for (const struct atom_kv_key *k = atom_kv_offload_keys; k->key; k++)
		if (!strcmp(k->key, key))
			type = k->type;
	for (const struct atom_kv_key *k = atom_kv_mp_keys; k->key; k++)
		if (!strcmp(k->key, key))
			type = k->type;
	*err = NULL;
	v = typed(type, value, err);
	if (*err)
		return -1;
	strbuf_addf(&sb, "roles.%s.args.extra-kv-connectors[%zu]", role, index);
	if (!strncmp(key, xc, sizeof(xc) - 1)) {
		wiz_path_key(&sb, "kv_connector_extra_config");
		wiz_path_key(&sb, key + sizeof(xc) - 1);
	} else {
		wiz_path_key(&sb, key);
	}
	r = v ? wiz_set(d, sb.buf, v, 0, err) : wiz_delete(d, sb.buf, err);
	json_decref(v);
	strbuf_release(&sb);
	return r;
}
