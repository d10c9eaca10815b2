/*
 * json_read.c — a reader for the JSON recipes carry, json_loads for the rest
 * (see the header).
 */
#include "lib/json_read.h"

#include <stdlib.h>

/* Deeper than any connector; jansson's own limit is far above. */
#define READ_MAX_DEPTH 32
/* Digits that never overflow a json_int_t (long long). */
#define READ_MAX_DIGITS 18

struct rd {
	const char *s;
	int depth;
};

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return s;
}

/* What may follow a number or a literal: jansson's lexer reads "12ab" or
 * "truex" as one bad token. */
static int ends_token(char c)
{
	return !c || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ']' ||
	       c == '}' || c == ':';
}

/* A string at r->s (on its '"'): its bytes in [*b, *e), r->s past it.  0:
 * not one json_read takes. */
static int string_span(struct rd *r, const char **b, const char **e)
{
	const char *p = r->s + 1;
	*b = p;
	while ((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f && *p != '"' && *p != '\\')
		p++;
	if (*p != '"')
		return 0;
	*e = p;
	r->s = p + 1;
	return 1;
}

static json_t *value(struct rd *r);

static json_t *object(struct rd *r)
{
	json_t *o = json_object();
	r->s = skip_ws(r->s + 1);
	if (*r->s == '}') {
		r->s++;
		return o;
	}
	for (;;) {
		const char *kb, *ke;
		if (*r->s != '"' || !string_span(r, &kb, &ke))
			break;
		r->s = skip_ws(r->s);
		if (*r->s != ':')
			break;
		r->s = skip_ws(r->s + 1);
		size_t kn = (size_t)(ke - kb);
		if (json_object_getn(o, kb, kn))
			break; /* jansson's rule for duplicates, and its message */
		json_t *v = value(r);
		if (!v || json_object_setn_new_nocheck(o, kb, kn, v))
			break;
		r->s = skip_ws(r->s);
		if (*r->s == '}') {
			r->s++;
			return o;
		}
		if (*r->s != ',')
			break;
		r->s = skip_ws(r->s + 1);
	}
	json_decref(o);
	return NULL;
}

static json_t *array(struct rd *r)
{
	json_t *a = json_array();
	r->s = skip_ws(r->s + 1);
	if (*r->s == ']') {
		r->s++;
		return a;
	}
	for (;;) {
		json_t *v = value(r);
		if (!v || json_array_append_new(a, v))
			break;
		r->s = skip_ws(r->s);
		if (*r->s == ']') {
			r->s++;
			return a;
		}
		if (*r->s != ',')
			break;
		r->s = skip_ws(r->s + 1);
	}
	json_decref(a);
	return NULL;
}

static json_t *integer(struct rd *r)
{
	const char *p = r->s;
	int neg = *p == '-';
	p += neg;
	if (*p < '0' || *p > '9' || (*p == '0' && p[1] >= '0' && p[1] <= '9'))
		return NULL;
	json_int_t v = 0;
	int n = 0;
	for (; *p >= '0' && *p <= '9' && n < READ_MAX_DIGITS; p++, n++)
		v = v * 10 + (*p - '0');
	if (!ends_token(*p))
		return NULL; /* reals, and integers jansson must range-check */
	r->s = p;
	return json_integer(neg ? -v : v);
}

static json_t *literal(struct rd *r, const char *word, size_t n, json_t *v)
{
	for (size_t i = 0; i < n; i++)
		if (r->s[i] != word[i])
			return NULL;
	if (!ends_token(r->s[n]))
		return NULL;
	r->s += n;
	return v;
}

static json_t *value(struct rd *r)
{
	json_t *v = NULL;
	if (++r->depth > READ_MAX_DEPTH)
		return NULL;
	switch (*r->s) {
	case '{': v = object(r); break;
	case '[': v = array(r); break;
	case '"': {
		const char *b, *e;
		if (string_span(r, &b, &e))
			v = json_stringn_nocheck(b, (size_t)(e - b));
		break;
	}
	case 't': v = literal(r, "true", 4, json_true()); break;
	case 'f': v = literal(r, "false", 5, json_false()); break;
	case 'n': v = literal(r, "null", 4, json_null()); break;
	default: v = integer(r); break;
	}
	r->depth--;
	return v;
}

json_t *json_read(const char *text, size_t flags, json_error_t *err)
{
	const size_t mine = JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL;
	if (text && !(flags & ~mine)) {
		struct rd r = { skip_ws(text), 0 };
		if ((flags & JSON_DECODE_ANY) || *r.s == '{' || *r.s == '[') {
			json_t *v = value(&r);
			if (v && !*skip_ws(r.s))
				return v;
			json_decref(v);
		}
	}
	return json_loads(text, flags, err);
}
