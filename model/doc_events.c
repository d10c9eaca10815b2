/*
 * doc_events.c — libyaml's events in doc_fast.h's form: one at a time for
 * the index builder, all of a text for the tests and the fuzzer that hold
 * doc_fast.c to them, and their comparison.
 */
#include "model/doc_fast.h"

#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "lib/util.h"

void doc_event_from_libyaml(const struct yaml_event_s *y, struct doc_event *e)
{
	memset(e, 0, sizeof(*e));
	e->type = y->type;
	e->start.index = y->start_mark.index;
	e->start.line = (int)y->start_mark.line;
	e->start.col = (int)y->start_mark.column;
	e->end.index = y->end_mark.index;
	e->end.line = (int)y->end_mark.line;
	e->end.col = (int)y->end_mark.column;
	switch (y->type) {
	case YAML_SCALAR_EVENT:
		e->style = y->data.scalar.style;
		e->value = (const char *)y->data.scalar.value;
		e->len = y->data.scalar.length;
		e->anchor = (const char *)y->data.scalar.anchor;
		e->tag = (const char *)y->data.scalar.tag;
		break;
	case YAML_ALIAS_EVENT:
		e->value = (const char *)y->data.alias.anchor;
		e->len = strlen(e->value);
		break;
	case YAML_SEQUENCE_START_EVENT:
		e->style = y->data.sequence_start.style;
		e->anchor = (const char *)y->data.sequence_start.anchor;
		e->tag = (const char *)y->data.sequence_start.tag;
		break;
	case YAML_MAPPING_START_EVENT:
		e->style = y->data.mapping_start.style;
		e->anchor = (const char *)y->data.mapping_start.anchor;
		e->tag = (const char *)y->data.mapping_start.tag;
		break;
	default:
		break;
	}
}

/* The strings of the list live in one buffer, as offsets until the end
 * (the buffer moves as it grows). */
static size_t keep(struct strbuf *sb, const char *s, size_t n)
{
	size_t at = sb->len;
	strbuf_add(sb, s, n);
	strbuf_addch(sb, 0);
	return at;
}

int doc_libyaml_events(const char *buf, size_t len, struct doc_events *out)
{
	struct strbuf sb = STRBUF_INIT;
	yaml_parser_t p;
	yaml_event_t y;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	/* offsets + 1 of each event's strings; 0 for none */
	size_t *offs = NULL, aoffs = 0;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	for (;;) {
		if (!yaml_parser_parse(&p, &y)) {
			rc = -1;
			break;
		}
		struct doc_event e;
		doc_event_from_libyaml(&y, &e);
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		ALLOC_GROW(offs, 3 * (out->n + 1), aoffs);
		size_t *o = offs + 3 * out->n;
		o[0] = e.value ? keep(&sb, e.value, e.len) + 1 : 0;
		o[1] = e.anchor ? keep(&sb, e.anchor, strlen(e.anchor)) + 1 : 0;
		o[2] = e.tag ? keep(&sb, e.tag, strlen(e.tag)) + 1 : 0;
		out->v[out->n++] = e;
		int end = y.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&y);
		if (end)
			break;
	}
	yaml_parser_delete(&p);
	out->text = sb.buf ? strbuf_detach(&sb, NULL) : NULL;
	for (size_t i = 0; i < out->n; i++) {
		const size_t *o = offs + 3 * i;
		out->v[i].value = o[0] ? out->text + o[0] - 1 : NULL;
		out->v[i].anchor = o[1] ? out->text + o[1] - 1 : NULL;
		out->v[i].tag = o[2] ? out->text + o[2] - 1 : NULL;
	}
	free(offs);
	return rc;
}

static int same_mark(const struct doc_mark *a, const struct doc_mark *b)
{
	return a->index == b->index && a->line == b->line && a->col == b->col;
}

static int same_str(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

long doc_events_differ(const struct doc_events *a, const struct doc_events *b)
{
	size_t n = a->n < b->n ? a->n : b->n;
	for (size_t i = 0; i < n; i++) {
		const struct doc_event *x = &a->v[i], *y = &b->v[i];
		int scalar = x->type == YAML_SCALAR_EVENT || x->type == YAML_ALIAS_EVENT;
		if (x->type != y->type || x->style != y->style || !same_mark(&x->start, &y->start) ||
		    !same_mark(&x->end, &y->end) || !same_str(x->anchor, y->anchor) || !same_str(x->tag, y->tag) ||
		    (scalar && (x->len != y->len || (x->len && memcmp(x->value, y->value, x->len)))))
			return (long)i;
	}
	return a->n == b->n ? -1 : (long)n;
}
