/*
 * json.c — Python's json.dumps, repr() and str() over jansson values.
 *
 * jansson's own dumper differs from CPython in float digits, \u escape case
 * and DEL (design/yaml-roundtrip.md §5), and srtctl's command lines and plan
 * hashes are compared byte for byte, so we print everything ourselves.
 */
#include "lib/json.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- UTF-8 ------------------------------------------------------------- */

/* Decode one code point at s (len bytes left); invalid bytes decode as
 * U+FFFD one byte at a time.  Returns bytes consumed. */
static size_t utf8_next(const unsigned char *s, size_t len, uint32_t *cp)
{
	unsigned char c = s[0];
	size_t n;
	uint32_t v;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xc2 && c <= 0xdf) {
		n = 2, v = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3, v = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4, v = c & 0x07;
	} else {
		*cp = 0xfffd;
		return 1;
	}
	if (len < n)
		goto bad;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			goto bad;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 || v > 0x10ffff)))
		goto bad;
	*cp = v;
	return n;
bad:
	*cp = 0xfffd;
	return 1;
}

/* ---- json.dumps -------------------------------------------------------- */

static void json_string_out(struct strbuf *out, const char *s, size_t len, int ascii)
{
	const unsigned char *p = (const unsigned char *)s;
	strbuf_addch(out, '"');
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		switch (c) {
		case '"': strbuf_addstr(out, "\\\""); i++; continue;
		case '\\': strbuf_addstr(out, "\\\\"); i++; continue;
		case '\n': strbuf_addstr(out, "\\n"); i++; continue;
		case '\r': strbuf_addstr(out, "\\r"); i++; continue;
		case '\t': strbuf_addstr(out, "\\t"); i++; continue;
		case '\b': strbuf_addstr(out, "\\b"); i++; continue;
		case '\f': strbuf_addstr(out, "\\f"); i++; continue;
		}
		if (c < 0x20 || (ascii && c == 0x7f)) {
			strbuf_addf(out, "\\u%04x", c);
			i++;
			continue;
		}
		if (c < 0x80) {
			strbuf_addch(out, c);
			i++;
			continue;
		}
		uint32_t cp;
		size_t n = utf8_next(p + i, len - i, &cp);
		if (!ascii && cp != 0xfffd) {
			strbuf_add(out, p + i, n);
		} else if (!ascii) {
			strbuf_addstr(out, "\xef\xbf\xbd");
		} else if (cp >= 0x10000) {
			cp -= 0x10000;
			strbuf_addf(out, "\\u%04x\\u%04x", 0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
		} else {
			strbuf_addf(out, "\\u%04x", cp);
		}
		i += n;
	}
	strbuf_addch(out, '"');
}

static void json_real_out(struct strbuf *out, double d)
{
	if (isnan(d))
		strbuf_addstr(out, "NaN");
	else if (isinf(d))
		strbuf_addstr(out, d < 0 ? "-Infinity" : "Infinity");
	else
		py_float_repr(out, d);
}

static int cmp_keys(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Keys of an object in output order; caller frees the array (not the keys). */
static const char **object_keys(const json_t *obj, int sort, size_t *n)
{
	size_t cnt = json_object_size(obj), i = 0;
	const char **keys = xmalloc((cnt ? cnt : 1) * sizeof(*keys));
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)obj, k, v)
		keys[i++] = k;
	if (sort)
		qsort(keys, i, sizeof(*keys), cmp_keys);
	*n = i;
	return keys;
}

int json_atom_out(struct strbuf *out, const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_INTEGER:
		strbuf_addf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return 1;
	case JSON_TRUE:
		strbuf_addstr(out, "true");
		return 1;
	case JSON_FALSE:
		strbuf_addstr(out, "false");
		return 1;
	case JSON_NULL:
		strbuf_addstr(out, "null");
		return 1;
	default:
		return 0;
	}
}

int json_array_has(const json_t *arr, const json_t *v)
{
	size_t i;
	json_t *e;
	json_array_foreach((json_t *)arr, i, e)
		if (json_equal(e, (json_t *)v))
			return 1;
	return 0;
}

const char **json_sorted_keys(const json_t *obj, size_t *n)
{
	return object_keys(obj, 1, n);
}

static void newline_indent(struct strbuf *out, int indent, int level)
{
	strbuf_addch(out, '\n');
	for (int i = 0; i < indent * level; i++)
		strbuf_addch(out, ' ');
}

static void dump(struct strbuf *out, const json_t *v, unsigned flags, int indent, int level)
{
	int ascii = !(flags & PYJSON_UNICODE);
	/* json.dumps uses "," as item separator whenever indent is given. */
	const char *item_sep = (flags & PYJSON_COMPACT) || indent >= 0 ? "," : ", ";
	const char *key_sep = (flags & PYJSON_COMPACT) ? ":" : ": ";

	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		size_t n;
		const char **keys = object_keys(v, flags & PYJSON_SORT_KEYS, &n);
		if (!n) {
			strbuf_addstr(out, "{}");
			free(keys);
			return;
		}
		strbuf_addch(out, '{');
		for (size_t i = 0; i < n; i++) {
			if (i)
				strbuf_addstr(out, item_sep);
			if (indent >= 0)
				newline_indent(out, indent, level + 1);
			json_string_out(out, keys[i], strlen(keys[i]), ascii);
			strbuf_addstr(out, key_sep);
			dump(out, json_object_get(v, keys[i]), flags, indent, level + 1);
		}
		if (indent >= 0)
			newline_indent(out, indent, level);
		strbuf_addch(out, '}');
		free(keys);
		return;
	}
	case JSON_ARRAY: {
		size_t n = json_array_size(v);
		if (!n) {
			strbuf_addstr(out, "[]");
			return;
		}
		strbuf_addch(out, '[');
		for (size_t i = 0; i < n; i++) {
			if (i)
				strbuf_addstr(out, item_sep);
			if (indent >= 0)
				newline_indent(out, indent, level + 1);
			dump(out, json_array_get(v, i), flags, indent, level + 1);
		}
		if (indent >= 0)
			newline_indent(out, indent, level);
		strbuf_addch(out, ']');
		return;
	}
	case JSON_STRING:
		json_string_out(out, json_string_value(v), json_string_length(v), ascii);
		return;
	case JSON_REAL:
		json_real_out(out, json_real_value(v));
		return;
	default:
		json_atom_out(out, v);
		return;
	}
}

void pyjson_dump(struct strbuf *out, const json_t *v, unsigned flags, int indent)
{
	if (!v) {
		strbuf_addstr(out, "null");
		return;
	}
	dump(out, v, flags, indent, 0);
}

char *pyjson_dumps(const json_t *v, unsigned flags)
{
	struct strbuf sb = STRBUF_INIT;
	pyjson_dump(&sb, v, flags, -1);
	return strbuf_detach(&sb, NULL);
}

char *json_text(const json_t *v, size_t flags)
{
	json_malloc_t m;
	json_free_t f;
	char *t = json_dumps(v, flags), *s;
	if (!t)
		return NULL;
	s = xstrdup(t);
	json_get_alloc_funcs(&m, &f);
	f(t);
	return s;
}

/* ---- repr() / str() ---------------------------------------------------- */

/* Python's str.isprintable() for code points >= 0x80, without the full
 * Unicode tables: controls, separators, format characters, surrogates,
 * private use and noncharacters are the cases recipes can contain.
 * Unassigned code points are treated as printable (see docs). */
static int py_printable(uint32_t c)
{
	if (c < 0xa1)
		return 0; /* C1 controls and U+00A0 NO-BREAK SPACE (Zs) */
	if (c == 0xad || (c >= 0x600 && c <= 0x605) || c == 0x61c || c == 0x6dd ||
	    c == 0x70f || c == 0x890 || c == 0x891 || c == 0x8e2 || c == 0x1680 ||
	    c == 0x180e || (c >= 0x2000 && c <= 0x200f) || (c >= 0x2028 && c <= 0x202f) ||
	    (c >= 0x205f && c <= 0x2064) || (c >= 0x2066 && c <= 0x206f) || c == 0x3000 ||
	    (c >= 0xd800 && c <= 0xf8ff) || c == 0xfeff || (c >= 0xfff0 && c <= 0xfffb) ||
	    c == 0xfffe || c == 0xffff || c == 0x110bd || c == 0x110cd ||
	    (c >= 0x13430 && c <= 0x1343f) || (c >= 0x1bca0 && c <= 0x1bca3) ||
	    (c >= 0x1d173 && c <= 0x1d17a) || c == 0xe0001 || (c >= 0xe0020 && c <= 0xe007f) ||
	    c >= 0xf0000 || (c & 0xfffe) == 0xfffe)
		return 0;
	return 1;
}

static void repr_string(struct strbuf *out, const char *s, size_t len)
{
	char q = '\'';
	if (memchr(s, '\'', len) && !memchr(s, '"', len))
		q = '"';
	strbuf_addch(out, q);
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		if (c == q || c == '\\') {
			strbuf_addch(out, '\\');
			strbuf_addch(out, c);
			i++;
		} else if (c == '\n') {
			strbuf_addstr(out, "\\n"), i++;
		} else if (c == '\r') {
			strbuf_addstr(out, "\\r"), i++;
		} else if (c == '\t') {
			strbuf_addstr(out, "\\t"), i++;
		} else if (c < 0x20 || c == 0x7f) {
			strbuf_addf(out, "\\x%02x", c), i++;
		} else if (c < 0x80) {
			strbuf_addch(out, c), i++;
		} else {
			uint32_t cp;
			size_t n = utf8_next(p + i, len - i, &cp);
			if (py_printable(cp))
				strbuf_add(out, p + i, n);
			else if (cp < 0x100)
				strbuf_addf(out, "\\x%02x", cp);
			else if (cp < 0x10000)
				strbuf_addf(out, "\\u%04x", cp);
			else
				strbuf_addf(out, "\\U%08x", cp);
			i += n;
		}
	}
	strbuf_addch(out, q);
}

void py_repr(struct strbuf *out, const json_t *v)
{
	if (!v) {
		strbuf_addstr(out, "None");
		return;
	}
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		const char *k;
		json_t *x;
		int first = 1;
		strbuf_addch(out, '{');
		json_object_foreach((json_t *)v, k, x) {
			if (!first)
				strbuf_addstr(out, ", ");
			first = 0;
			repr_string(out, k, strlen(k));
			strbuf_addstr(out, ": ");
			py_repr(out, x);
		}
		strbuf_addch(out, '}');
		return;
	}
	case JSON_ARRAY:
		strbuf_addch(out, '[');
		for (size_t i = 0; i < json_array_size(v); i++) {
			if (i)
				strbuf_addstr(out, ", ");
			py_repr(out, json_array_get(v, i));
		}
		strbuf_addch(out, ']');
		return;
	case JSON_STRING:
		repr_string(out, json_string_value(v), json_string_length(v));
		return;
	case JSON_INTEGER:
		strbuf_addf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return;
	case JSON_REAL:
		py_float_repr(out, json_real_value(v));
		return;
	case JSON_TRUE:
		strbuf_addstr(out, "True");
		return;
	case JSON_FALSE:
		strbuf_addstr(out, "False");
		return;
	case JSON_NULL:
		strbuf_addstr(out, "None");
		return;
	}
}

void py_str(struct strbuf *out, const json_t *v)
{
	if (v && json_is_string(v))
		strbuf_add(out, json_string_value(v), json_string_length(v));
	else
		py_repr(out, v);
}

int py_truthy(const json_t *v)
{
	if (!v)
		return 0;
	switch (json_typeof(v)) {
	case JSON_TRUE: return 1;
	case JSON_INTEGER: return json_integer_value(v) != 0;
	case JSON_REAL: return json_real_value(v) != 0.0;
	case JSON_STRING: return json_string_length(v) > 0;
	case JSON_ARRAY: return json_array_size(v) > 0;
	case JSON_OBJECT: return json_object_size(v) > 0;
	default: return 0;
	}
}

char *py_str_dup(const json_t *v)
{
	struct strbuf sb = STRBUF_INIT;
	if (v && json_is_string(v))
		return xstrdup(json_string_value(v));
	py_str(&sb, v);
	return sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
}
