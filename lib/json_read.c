/*
 * json_read.c — well-formed JSON into jansson values, jansson for the rest
 * (see the header).  Every branch that would end in one of jansson's errors
 * gives up instead, and jansson reads the whole text again for its message.
 */
#include "lib/json_read.h"

#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"

/* Deeper than srtctl's schema or any connector; jansson's limit is 2048. */
#define READ_MAX_DEPTH 64
/* Digits that never overflow a json_int_t (long long). */
#define READ_MAX_DIGITS 18
/* A real longer than this is left to jansson. */
#define READ_MAX_REAL 64

struct rd {
	const char *s, *e;
	int depth;
	int dot; /* 0: not asked yet; 1: the locale writes reals with '.'; -1: not */
	struct strbuf sb; /* a string with escapes or UTF-8, decoded */
};

static int peek(const struct rd *r) { return r->s < r->e ? (unsigned char)*r->s : -1; }

static void skip_ws(struct rd *r)
{
	while (r->s < r->e && (*r->s == ' ' || *r->s == '\t' || *r->s == '\n' || *r->s == '\r'))
		r->s++;
}

/* What may follow a number or a literal: jansson's lexer reads "12ab" or
 * "truex" as one bad token. */
static int ends_token(const struct rd *r, const char *p)
{
	if (p >= r->e)
		return 1;
	char c = *p;
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ']' || c == '}' ||
	       c == ':';
}

static int hex4(const char *p, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
			   : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			   : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
		if (d > 15)
			return 0;
		*v = *v << 4 | d;
	}
	return 1;
}

/* Bytes of the well-formed UTF-8 sequence at p (lead byte >= 0x80), 0 when
 * it is not one: no overlong forms, surrogates or code points past
 * U+10FFFF, as jansson checks. */
static size_t utf8_seq(const unsigned char *p, const unsigned char *e)
{
	unsigned c = p[0];
	size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
	if (!n || (size_t)(e - p) < n)
		return 0;
	unsigned lo = 0x80, hi = 0xBF;
	if (c == 0xE0)
		lo = 0xA0;
	else if (c == 0xED)
		hi = 0x9F;
	else if (c == 0xF0)
		lo = 0x90;
	else if (c == 0xF4)
		hi = 0x8F;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 0;
	return n;
}

/* A string at r->s (on its '"'): its decoded bytes in [*b, *b + *n), which
 * live until the next string; r->s past it.  0: one jansson refuses, or a
 * \u0000 (refused in keys, and rare enough not to be worth reading here). */
static int string_at(struct rd *r, const char **b, size_t *n)
{
	const char *p = ++r->s;
	while (p < r->e && (unsigned char)*p >= 0x20 && *p != '"' && *p != '\\' && !(*p & 0x80))
		p++;
	if (p < r->e && *p == '"') { /* the common case: nothing to decode */
		*b = r->s;
		*n = (size_t)(p - r->s);
		r->s = p + 1;
		return 1;
	}
	strbuf_reset(&r->sb);
	strbuf_add(&r->sb, r->s, (size_t)(p - r->s));
	while (p < r->e) {
		unsigned char c = (unsigned char)*p;
		if (c == '"') {
			*b = r->sb.buf;
			*n = r->sb.len;
			r->s = p + 1;
			return 1;
		}
		if (c < 0x20)
			return 0;
		if (c >= 0x80) {
			size_t k = utf8_seq((const unsigned char *)p, (const unsigned char *)r->e);
			if (!k)
				return 0;
			strbuf_add(&r->sb, p, k);
			p += k;
			continue;
		}
		if (c != '\\') {
			strbuf_addch(&r->sb, (char)c);
			p++;
			continue;
		}
		if (r->e - p < 2)
			return 0;
		char x = p[1];
		p += 2;
		switch (x) {
		case '"': case '\\': case '/': strbuf_addch(&r->sb, x); continue;
		case 'b': strbuf_addch(&r->sb, '\b'); continue;
		case 'f': strbuf_addch(&r->sb, '\f'); continue;
		case 'n': strbuf_addch(&r->sb, '\n'); continue;
		case 'r': strbuf_addch(&r->sb, '\r'); continue;
		case 't': strbuf_addch(&r->sb, '\t'); continue;
		case 'u': break;
		default: return 0;
		}
		unsigned cp, lo;
		if (r->e - p < 4 || !hex4(p, &cp) || !cp || (cp >= 0xDC00 && cp <= 0xDFFF))
			return 0;
		p += 4;
		if (cp >= 0xD800 && cp <= 0xDBFF) { /* a pair, or jansson's error */
			if (r->e - p < 6 || p[0] != '\\' || p[1] != 'u' || !hex4(p + 2, &lo) || lo < 0xDC00 ||
			    lo > 0xDFFF)
				return 0;
			cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			p += 6;
		}
		char u[4];
		strbuf_add(&r->sb, u, utf8_put(cp, u));
	}
	return 0;
}

static json_t *value(struct rd *r);

static json_t *object(struct rd *r)
{
	json_t *o = json_object();
	r->s++;
	skip_ws(r);
	if (peek(r) == '}') {
		r->s++;
		return o;
	}
	for (;;) {
		const char *kb;
		size_t kn;
		if (peek(r) != '"' || !string_at(r, &kb, &kn))
			break;
		/* the key is copied before the value's strings reuse r->sb */
		char stack[128], *key = kn < sizeof(stack) ? stack : xmalloc(kn + 1);
		memcpy(key, kb, kn);
		key[kn] = 0;
		skip_ws(r);
		json_t *v = NULL;
		if (peek(r) == ':' && !json_object_getn(o, key, kn)) { /* duplicates: jansson's rules */
			r->s++;
			skip_ws(r);
			v = value(r);
		}
		int ok = v && !json_object_setn_new_nocheck(o, key, kn, v);
		if (key != stack)
			free(key);
		if (!ok)
			break;
		skip_ws(r);
		if (peek(r) == '}') {
			r->s++;
			return o;
		}
		if (peek(r) != ',')
			break;
		r->s++;
		skip_ws(r);
	}
	json_decref(o);
	return NULL;
}

static json_t *array(struct rd *r)
{
	json_t *a = json_array();
	r->s++;
	skip_ws(r);
	if (peek(r) == ']') {
		r->s++;
		return a;
	}
	for (;;) {
		json_t *v = value(r);
		if (!v || json_array_append_new(a, v))
			break;
		skip_ws(r);
		if (peek(r) == ']') {
			r->s++;
			return a;
		}
		if (peek(r) != ',')
			break;
		r->s++;
		skip_ws(r);
	}
	json_decref(a);
	return NULL;
}

static int digit(const struct rd *r, const char *p) { return p < r->e && *p >= '0' && *p <= '9'; }

/* JSON's number grammar, jansson's lexer's: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static json_t *number(struct rd *r)
{
	const char *p = r->s, *start = p;
	int real = 0;
	p += p < r->e && *p == '-';
	if (!digit(r, p) || (*p == '0' && digit(r, p + 1)))
		return NULL;
	while (digit(r, p))
		p++;
	if (p < r->e && *p == '.') {
		real = 1;
		if (!digit(r, ++p))
			return NULL;
		while (digit(r, p))
			p++;
	}
	if (p < r->e && (*p == 'e' || *p == 'E')) {
		real = 1;
		p++;
		p += p < r->e && (*p == '+' || *p == '-');
		if (!digit(r, p))
			return NULL;
		while (digit(r, p))
			p++;
	}
	if (!ends_token(r, p))
		return NULL;
	size_t n = (size_t)(p - start);
	if (!real) {
		int neg = *start == '-';
		if (n - (size_t)neg > READ_MAX_DIGITS)
			return NULL; /* jansson range-checks it */
		json_int_t v = 0;
		for (const char *q = start + neg; q < p; q++)
			v = v * 10 + (*q - '0');
		r->s = p;
		return json_integer(neg ? -v : v);
	}
	/* jansson reads a real with strtod after putting the locale's decimal
	 * point in; with '.' as that point, strtod here reads the same double */
	if (!r->dot) {
		const char *dp = localeconv()->decimal_point;
		r->dot = dp && !strcmp(dp, ".") ? 1 : -1;
	}
	if (r->dot < 0 || n >= READ_MAX_REAL)
		return NULL;
	char buf[READ_MAX_REAL], *end;
	memcpy(buf, start, n);
	buf[n] = 0;
	double d = strtod(buf, &end);
	if (end != buf + n || isinf(d))
		return NULL; /* overflow: jansson's error */
	r->s = p;
	return json_real(d);
}

static json_t *literal(struct rd *r, const char *word, size_t n, json_t *v)
{
	if ((size_t)(r->e - r->s) < n || memcmp(r->s, word, n) || !ends_token(r, r->s + n))
		return NULL;
	r->s += n;
	return v;
}

static json_t *value(struct rd *r)
{
	json_t *v = NULL;
	if (++r->depth > READ_MAX_DEPTH)
		return NULL;
	switch (peek(r)) {
	case '{': v = object(r); break;
	case '[': v = array(r); break;
	case '"': {
		const char *b;
		size_t n;
		if (string_at(r, &b, &n))
			v = json_stringn_nocheck(b, n);
		break;
	}
	case 't': v = literal(r, "true", 4, json_true()); break;
	case 'f': v = literal(r, "false", 5, json_false()); break;
	case 'n': v = literal(r, "null", 4, json_null()); break;
	default: v = number(r); break;
	}
	r->depth--;
	return v;
}

json_t *json_read_direct(const char *buf, size_t len, size_t flags)
{
	if (!buf || (flags & ~(size_t)JSON_READ_FLAGS))
		return NULL;
	struct rd r = { buf, buf + len, 0, 0, STRBUF_INIT };
	skip_ws(&r);
	json_t *v = NULL;
	if ((flags & JSON_DECODE_ANY) || peek(&r) == '{' || peek(&r) == '[') {
		v = value(&r);
		skip_ws(&r);
		if (v && r.s != r.e) {
			json_decref(v);
			v = NULL;
		}
	}
	strbuf_release(&r.sb);
	return v;
}

json_t *json_read(const char *text, size_t flags, json_error_t *err)
{
	json_t *v = text ? json_read_direct(text, strlen(text), flags) : NULL;
	return v ? v : json_loads(text, flags, err);
}

json_t *json_readb(const char *buf, size_t len, size_t flags, json_error_t *err)
{
	/* jansson reads a NUL in the buffer as a bad byte: so does read_fast */
	json_t *v = json_read_direct(buf, len, flags);
	return v ? v : json_loadb(buf, len, flags, err);
}

json_t *json_read_file(const char *path, size_t flags, json_error_t *err)
{
	json_t *v = NULL;
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	struct stat st;
	if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uintmax_t)st.st_size < ((size_t)1 << 30)) {
		size_t len = (size_t)st.st_size, got = 0;
		char *buf = xmalloc(len);
		ssize_t k;
		while (got < len && (k = read(fd, buf + got, len - got)) > 0)
			got += (size_t)k;
		if (got == len && read(fd, &(char){ 0 }, 1) == 0)
			v = json_read_direct(buf, len, flags);
		free(buf);
	}
	if (fd >= 0)
		close(fd);
	return v ? v : json_load_file(path, flags, err);
}
