/*
 * load_yaml.h — test helper: a YAML file or string as the typed tree srtctl
 * sees (libyaml's document loader, scalars typed by scalar_to_json).  Header
 * only, so each test binary stays one .c file.  Returns a new reference or
 * NULL; no anchors/merge keys needed by the fixtures.
 */
#ifndef SRT_TEST_LOAD_YAML_H
#define SRT_TEST_LOAD_YAML_H

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "model/scalar.h"

static json_t *ly_node(yaml_document_t *doc, yaml_node_t *n)
{
	if (!n)
		return json_null();
	if (n->type == YAML_SCALAR_NODE)
		return scalar_to_json((const char *)n->data.scalar.value, n->data.scalar.length,
				      n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE);
	if (n->type == YAML_SEQUENCE_NODE) {
		json_t *a = json_array();
		for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++)
			json_array_append_new(a, ly_node(doc, yaml_document_get_node(doc, *i)));
		return a;
	}
	json_t *o = json_object();
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);
		json_object_set_new(o, (const char *)k->data.scalar.value,
				    ly_node(doc, yaml_document_get_node(doc, p->value)));
	}
	return o;
}

static json_t *load_yaml_string(const char *text)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	json_t *out = NULL;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
	if (yaml_parser_load(&parser, &doc)) {
		out = ly_node(&doc, yaml_document_get_root_node(&doc));
		yaml_document_delete(&doc);
	}
	yaml_parser_delete(&parser);
	return out;
}

/* dir/name, or NULL when the file cannot be read. */
static json_t *load_yaml_file(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t len = 0, cap = 0, r;
	do {
		if (len + 4096 + 1 > cap) {
			cap = (len + 4096 + 1) * 2;
			buf = realloc(buf, cap);
		}
		r = fread(buf + len, 1, 4096, f);
		len += r;
	} while (r > 0);
	fclose(f);
	buf[len] = '\0';
	json_t *v = load_yaml_string(buf);
	free(buf);
	return v;
}

#endif
