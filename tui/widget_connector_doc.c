/* Connector edits: the TUI checks and types the values, model/ops.c edits
 * the document (each one transaction). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "model/ops.h"
#include "tui/widget_connector.h"
#include "tui/wizard.h"
#include "tui/wizard_screens.h"

int conn_set_role(struct doc *d, const char *role, const char *connector, char **err)
{
	if (connector && *connector && conn_classify(connector) == CONN_RAW &&
	    !conn_raw_valid(connector, err))
		return -1;
	return ops_set_role_connector(d, role, connector, err);
}

int wiz_engine_mapping(struct doc *d, char **err) { return ops_engine_mapping(d, err); }

int conn_set_engine(struct doc *d, const char *connector, char **err)
{
	if (conn_classify(connector) == CONN_RAW && !conn_raw_valid(connector, err))
		return -1;
	return ops_set_engine_connector(d, connector, err);
}

int conn_set_sglang_lmcache(struct doc *d, const char *role, int on, char **err)
{
	return ops_set_sglang_lmcache(d, role, on, err);
}

int atom_kv_add(struct doc *d, const char *role, enum atom_kv_kind kind, char **err)
{
	json_t *e = atom_kv_new_entry(kind);
	int r = ops_atom_kv_add(d, role, e, err);
	json_decref(e);
	return r;
}

int atom_kv_delete(struct doc *d, const char *role, size_t index, char **err)
{
	return ops_atom_kv_delete(d, role, index, err);
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
	r = ops_atom_kv_set(d, role, index, key, v, err);
	json_decref(v);
	return r;
}
