/*
 * scalar.c — PyYAML 1.1 typing of plain scalars, the quoting policy that keeps
 * a string a string for both PyYAML and ruamel, and the scalar emitters.
 *
 * The resolver patterns are matched by hand instead of with regcomp(): they
 * run for every plain scalar of every snapshot, and a compiled regex would
 * have to live in global state.
 */
#include "model/scalar.h"

#include "lib/json.h"
#include "lib/pyfloat.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <yaml.h>

/* ---------- tiny pattern helpers over [s, s+n) ---------- */

struct cur {
	const char *s;
	size_t i, n;
};

static int at_end(const struct cur *c) { return c->i == c->n; }
static int peek(const struct cur *c) { return c->i < c->n ? (unsigned char)c->s[c->i] : -1; }
static int eat(struct cur *c, int ch)
{
	if (peek(c) == ch) {
		c->i++;
		return 1;
	}
	return 0;
}
static int eat_str(struct cur *c, const char *w)
{
	size_t l = strlen(w);
	if (c->n - c->i >= l && !memcmp(c->s + c->i, w, l)) {
		c->i += l;
		return 1;
	}
	return 0;
}
static int is_dig(int ch) { return ch >= '0' && ch <= '9'; }
static int is_hex(int ch) { return is_dig(ch) || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F'); }
static int is_oct(int ch) { return ch >= '0' && ch <= '7'; }
static int is_bin(int ch) { return ch == '0' || ch == '1'; }

/* Eat characters in class (or '_' when und); returns how many. */
static size_t eat_run(struct cur *c, int (*cls)(int), int und)
{
	size_t k = 0;
	while (!at_end(c) && (cls(peek(c)) || (und && peek(c) == '_'))) {
		c->i++;
		k++;
	}
	return k;
}
static void eat_sign(struct cur *c)
{
	if (!eat(c, '-'))
		eat(c, '+');
}
/* ( ':' [0-5]? [0-9] )+ */
static int eat_sexa(struct cur *c)
{
	int k = 0;
	for (;;) {
		struct cur save = *c;
		if (!eat(c, ':'))
			break;
		if (peek(c) >= '0' && peek(c) <= '5' && c->i + 1 < c->n && is_dig((unsigned char)c->s[c->i + 1]))
			c->i += 2;
		else if (is_dig(peek(c)))
			c->i++;
		else {
			*c = save;
			break;
		}
		k++;
	}
	return k;
}
/* [eE] sign digits; sign required unless opt_sign */
static int eat_exp(struct cur *c, int opt_sign)
{
	struct cur save = *c;
	if (!eat(c, 'e') && !eat(c, 'E'))
		return 0;
	if (!eat(c, '-') && !eat(c, '+') && !opt_sign) {
		*c = save;
		return 0;
	}
	if (!eat_run(c, is_dig, 0)) {
		*c = save;
		return 0;
	}
	return 1;
}

/* YAML 1.1's words for null and the booleans, in the three spellings PyYAML
 * takes (lower, Capitalised, UPPER): WORD_NULL, WORD_TRUE, WORD_FALSE or 0.
 * Every plain scalar of a recipe passes here, so it goes by first letter
 * and length. */
enum { WORD_NULL = 1, WORD_TRUE, WORD_FALSE };

static int spelled(const char *s, size_t n, const char *lower, int any)
{
	if (any) { /* any mix of cases: x | 32 is a lower letter only for a letter */
		for (size_t i = 0; i < n; i++)
			if ((s[i] | 32) != lower[i])
				return 0;
		return 1;
	}
	int low = 1, cap = 1, up = 1;
	for (size_t i = 0; i < n; i++) {
		char u = (char)(lower[i] - 32);
		low &= s[i] == lower[i];
		cap &= s[i] == (i ? lower[i] : u);
		up &= s[i] == u;
	}
	return low | cap | up;
}

/* any: in any mix of cases, as the quoting check wants them */
static int word11(const char *s, size_t n, int any)
{
	switch (s[0] | 32) { /* the first letter in either case: most scalars stop here */
	case '~' | 32:
		return n == 1 && s[0] == '~' ? WORD_NULL : 0;
	case 'o':
		return n == 2 ? (spelled(s, 2, "on", any) ? WORD_TRUE : 0)
		       : n == 3 && spelled(s, 3, "off", any) ? WORD_FALSE : 0;
	case 'n':
		return n == 2 ? (spelled(s, 2, "no", any) ? WORD_FALSE : 0)
		       : n == 4 && spelled(s, 4, "null", any) ? WORD_NULL : 0;
	case 'y':
		return n == 3 && spelled(s, 3, "yes", any) ? WORD_TRUE : 0;
	case 't':
		return n == 4 && spelled(s, 4, "true", any) ? WORD_TRUE : 0;
	case 'f':
		return n == 5 && spelled(s, 5, "false", any) ? WORD_FALSE : 0;
	}
	return 0;
}

/* PyYAML int: [-+]?0b[0-1_]+ | [-+]?0[0-7_]+ | [-+]?(0|[1-9][0-9_]*) | [-+]?0x[0-9a-fA-F_]+
 * | [-+]?[1-9][0-9_]*(:[0-5]?[0-9])+ */
static int match_int11(const char *s, size_t n)
{
	struct cur c0 = { s, 0, n }, c;
	eat_sign(&c0);
	c = c0;
	if (eat_str(&c, "0b") && eat_run(&c, is_bin, 1) && at_end(&c))
		return 1;
	c = c0;
	if (eat(&c, '0') && eat_run(&c, is_oct, 1) && at_end(&c))
		return 1;
	c = c0;
	if (eat(&c, '0') && at_end(&c))
		return 1;
	c = c0;
	if (eat_str(&c, "0x") && eat_run(&c, is_hex, 1) && at_end(&c))
		return 1;
	c = c0;
	if (peek(&c) >= '1' && peek(&c) <= '9') {
		eat_run(&c, is_dig, 1);
		if (at_end(&c))
			return 1;
		if (eat_sexa(&c) && at_end(&c))
			return 1;
	}
	return 0;
}

/* PyYAML float: [-+]?[0-9][0-9_]*\.[0-9_]*([eE][-+][0-9]+)? | \.[0-9][0-9_]*([eE][-+][0-9]+)?
 * | [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]* | [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN) */
static int match_float11(const char *s, size_t n)
{
	struct cur c0 = { s, 0, n }, c;
	c = c0;
	eat_sign(&c);
	struct cur signed_ = c;
	if (is_dig(peek(&c))) {
		eat_run(&c, is_dig, 1);
		if (eat(&c, '.')) {
			eat_run(&c, is_dig, 1);
			eat_exp(&c, 0);
			if (at_end(&c))
				return 1;
		}
	}
	c = c0;
	if (eat(&c, '.') && is_dig(peek(&c))) {
		eat_run(&c, is_dig, 1);
		eat_exp(&c, 0);
		if (at_end(&c))
			return 1;
	}
	c = signed_;
	if (is_dig(peek(&c))) {
		eat_run(&c, is_dig, 1);
		if (eat_sexa(&c) && eat(&c, '.')) {
			eat_run(&c, is_dig, 1);
			if (at_end(&c))
				return 1;
		}
	}
	c = signed_;
	if (eat(&c, '.') && (eat_str(&c, "inf") || eat_str(&c, "Inf") || eat_str(&c, "INF")) && at_end(&c))
		return 1;
	c = c0;
	if (eat(&c, '.') && (eat_str(&c, "nan") || eat_str(&c, "NaN") || eat_str(&c, "NAN")) && at_end(&c))
		return 1;
	return 0;
}

/* YAML 1.2 (ruamel) numbers, taken generously: quoting too often is harmless. */
static int match_num12(const char *s, size_t n)
{
	struct cur c0 = { s, 0, n }, c;
	eat_sign(&c0);
	c = c0;
	if ((eat_str(&c, "0b") && eat_run(&c, is_bin, 1) && at_end(&c)))
		return 1;
	c = c0;
	if ((eat_str(&c, "0o") && eat_run(&c, is_oct, 1) && at_end(&c)))
		return 1;
	c = c0;
	if ((eat_str(&c, "0x") && eat_run(&c, is_hex, 1) && at_end(&c)))
		return 1;
	c = c0;
	if (eat_run(&c, is_dig, 1) && at_end(&c))
		return 1;
	/* [0-9][0-9_]* (\.[0-9_]*)? ([eE][-+]?[0-9]+)?  |  \.[0-9_]+ ([eE][-+]?[0-9]+)? */
	c = c0;
	if (is_dig(peek(&c))) {
		eat_run(&c, is_dig, 1);
		int dot = eat(&c, '.');
		if (dot)
			eat_run(&c, is_dig, 1);
		int ex = eat_exp(&c, 1);
		if (at_end(&c) && (dot || ex))
			return 1;
	}
	c = c0;
	if (eat(&c, '.') && eat_run(&c, is_dig, 1)) {
		eat_exp(&c, 1);
		if (at_end(&c))
			return 1;
	}
	c = c0;
	if (eat(&c, '.')) {
		size_t k = n - c.i;
		const char *r = s + c.i;
		if (k == 3 && (!strncasecmp(r, "inf", 3) || !strncasecmp(r, "nan", 3)))
			return 1;
	}
	return 0;
}

static size_t digits(struct cur *c, size_t min, size_t max)
{
	size_t k = 0;
	while (k < max && is_dig(peek(c))) {
		c->i++;
		k++;
	}
	return k >= min ? k : 0;
}

/* [0-9]{4}-[0-9]{1,2}-[0-9]{1,2} ( ([Tt]|[ \t]+) hh:mm:ss(.f*)? ([ \t]*(Z|[-+]h(:mm)?))? )? */
static int match_timestamp(const char *s, size_t n)
{
	struct cur c = { s, 0, n };
	if (!digits(&c, 4, 4) || !eat(&c, '-') || !digits(&c, 1, 2) || !eat(&c, '-') || !digits(&c, 1, 2))
		return 0;
	if (at_end(&c))
		return 1;
	if (!eat(&c, 'T') && !eat(&c, 't')) {
		size_t k = 0;
		while (peek(&c) == ' ' || peek(&c) == '\t') {
			c.i++;
			k++;
		}
		if (!k)
			return 0;
	}
	if (!digits(&c, 1, 2) || !eat(&c, ':') || !digits(&c, 2, 2) || !eat(&c, ':') || !digits(&c, 2, 2))
		return 0;
	if (eat(&c, '.'))
		eat_run(&c, is_dig, 0);
	while (peek(&c) == ' ' || peek(&c) == '\t')
		c.i++;
	if (at_end(&c))
		return 1;
	if (eat(&c, 'Z'))
		return at_end(&c);
	if (!eat(&c, '-') && !eat(&c, '+'))
		return 0;
	if (!digits(&c, 1, 2))
		return 0;
	if (eat(&c, ':') && !digits(&c, 2, 2))
		return 0;
	return at_end(&c);
}

int scalar_is_special(const char *text, size_t len)
{
	if (len == 0)
		return 1;
	/* What can start a word below or a number: most keys start otherwise. */
	switch (text[0]) {
	case 'y': case 'Y': case 'n': case 'N': case 't': case 'T': case 'f': case 'F': case 'o': case 'O':
	case '~': case '=': case '<': case '-': case '+': case '.': case '_':
	case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
		break;
	default:
		return 0;
	}
	/* the words above in any spelling; y and n; = (value) and << (merge) */
	if (len <= 5 && (word11(text, len, 1) || (len == 1 && memchr("yYnN=", text[0], 5)) ||
			 (len == 2 && text[0] == '<' && text[1] == '<')))
		return 1;
	int c0 = (unsigned char)text[0];
	if (!(is_dig(c0) || c0 == '-' || c0 == '+' || c0 == '.' || c0 == '_'))
		return 0;
	return match_int11(text, len) || match_float11(text, len) || match_num12(text, len) ||
	       match_timestamp(text, len);
}

/* ---------- construction (PyYAML safe_load) ---------- */

static char *strip_underscores(const char *s, size_t n)
{
	char *r = xmalloc(n + 1);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] != '_')
			r[k++] = s[i];
	r[k] = 0;
	return r;
}

static json_t *construct_int(const char *text, size_t len)
{
	/* [-+]?[1-9][0-9]* of at most 18 digits, by far the most common, fits
	 * int64 as it is */
	size_t d = text[0] == '-' || text[0] == '+';
	if (len > d && len - d <= 18 && text[d] >= '1' && text[d] <= '9') {
		long long u = 0;
		size_t k = d;
		while (k < len && text[k] >= '0' && text[k] <= '9')
			u = u * 10 + (text[k++] - '0');
		if (k == len)
			return json_integer(text[0] == '-' ? -u : u);
	}
	char *v = strip_underscores(text, len);
	char *p = v;
	int neg = 0;
	json_t *res = NULL;
	if (*p == '-' || *p == '+') {
		neg = *p == '-';
		p++;
	}
	errno = 0;
	char *end = NULL;
	unsigned long long u = 0;
	if (!strcmp(p, "0")) {
		u = 0;
		end = p + 1;
	} else if (!strncmp(p, "0b", 2)) {
		u = strtoull(p + 2, &end, 2);
		if (end == p + 2)
			errno = EINVAL;
	} else if (!strncmp(p, "0x", 2)) {
		u = strtoull(p + 2, &end, 16);
		if (end == p + 2)
			errno = EINVAL;
	} else if (p[0] == '0') {
		u = strtoull(p, &end, 8);
	} else if (strchr(p, ':')) {
		/* base 60: the last part is the units */
		u = 0;
		unsigned long long part;
		for (char *q = p;;) {
			part = strtoull(q, &end, 10);
			if (u > (ULLONG_MAX - part) / 60)
				errno = ERANGE;
			u = u * 60 + part;
			if (*end != ':')
				break;
			q = end + 1;
		}
	} else {
		u = strtoull(p, &end, 10);
	}
	if (!errno && end && !*end) {
		if (!neg && u <= (unsigned long long)INT64_MAX)
			res = json_integer((json_int_t)u);
		else if (neg && u <= (unsigned long long)INT64_MAX + 1)
			res = json_integer(u == (unsigned long long)INT64_MAX + 1 ? INT64_MIN : -(json_int_t)u);
	}
	free(v);
	return res ? res : json_stringn_nocheck(text, len);
}

static json_t *construct_float(const char *text, size_t len)
{
	char *v = strip_underscores(text, len);
	for (char *q = v; *q; q++)
		if (*q >= 'A' && *q <= 'Z')
			*q = (char)(*q + 32);
	char *p = v;
	int neg = 0;
	json_t *res = NULL;
	if (*p == '-' || *p == '+') {
		neg = *p == '-';
		p++;
	}
	if (!strcmp(p, ".inf")) {
		res = json_string(neg ? "-.inf" : ".inf");
	} else if (!strcmp(p, ".nan")) {
		res = json_string(".nan");
	} else if (strchr(p, ':')) {
		double x = 0;
		char *end;
		for (char *q = p;;) {
			double part = strtod(q, &end);
			x = x * 60 + part;
			if (*end != ':')
				break;
			q = end + 1;
		}
		res = json_real(neg ? -x : x);
	} else {
		double x = strtod(p, NULL);
		res = isfinite(x) ? json_real(neg ? -x : x) : json_string(neg ? "-.inf" : ".inf");
	}
	free(v);
	return res ? res : json_stringn_nocheck(text, len);
}

/* text comes from a YAML parser, which only gives UTF-8: jansson need not
 * check it again. */
json_t *scalar_to_json(const char *text, size_t len, int plain)
{
	if (!plain)
		return json_stringn_nocheck(text, len);
	/* null and the booleans are words of at most five letters */
	int w = len ? word11(text, len, 0) : WORD_NULL;
	if (w)
		return w == WORD_NULL ? json_null() : json_boolean(w == WORD_TRUE);
	int c0 = (unsigned char)text[0];
	if (is_dig(c0) || c0 == '-' || c0 == '+' || c0 == '.') {
		if (match_int11(text, len))
			return construct_int(text, len);
		if (match_float11(text, len))
			return construct_float(text, len);
	}
	return json_stringn_nocheck(text, len);
}

/* ---------- UTF-8 and printability ---------- */

/* Decode one UTF-8 sequence at s[i]; returns its length (1 for a bad byte,
 * with *cp = 0xFFFD + marker so it counts as not printable). */
static size_t utf8_next(const unsigned char *s, size_t n, size_t i, uint32_t *cp)
{
	unsigned c = s[i];
	size_t k;
	uint32_t v;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if ((c & 0xE0) == 0xC0) {
		k = 2;
		v = c & 0x1F;
	} else if ((c & 0xF0) == 0xE0) {
		k = 3;
		v = c & 0x0F;
	} else if ((c & 0xF8) == 0xF0) {
		k = 4;
		v = c & 0x07;
	} else {
		*cp = 0x110000;
		return 1;
	}
	if (i + k > n) {
		*cp = 0x110000;
		return 1;
	}
	for (size_t j = 1; j < k; j++) {
		if ((s[i + j] & 0xC0) != 0x80) {
			*cp = 0x110000;
			return 1;
		}
		v = (v << 6) | (s[i + j] & 0x3F);
	}
	*cp = v;
	return k;
}

/* Printable in the sense of the policy: no TAB, no controls, no DEL, no C1,
 * no line/paragraph separators, no BOM, no surrogates or non-characters. */
static int cp_printable(uint32_t c)
{
	if (c < 0x20 || c == 0x7F)
		return 0;
	if (c >= 0x80 && c <= 0x9F)
		return 0;
	if (c == 0x2028 || c == 0x2029 || c == 0xFEFF)
		return 0;
	if (c >= 0xD800 && c <= 0xDFFF)
		return 0;
	if (c == 0xFFFE || c == 0xFFFF || c > 0x10FFFF)
		return 0;
	return 1;
}

static int all_printable(const char *s, size_t len)
{
	uint32_t cp;
	for (size_t i = 0; i < len;) {
		i += utf8_next((const unsigned char *)s, len, i, &cp);
		if (!cp_printable(cp))
			return 0;
	}
	return 1;
}

int scalar_plain_ok(const char *s, size_t len, int in_flow)
{
	if (len == 0 || s[0] == ' ' || s[len - 1] == ' ')
		return 0;
	if (!all_printable(s, len))
		return 0;
	if (strchr(",[]{}#&*!|>'\"%@`", s[0]))
		return 0;
	if (s[0] == '-' || s[0] == '?' || s[0] == ':') {
		if (len < 2 || s[1] == ' ' || strchr(",[]{}", s[1]))
			return 0;
		if (in_flow && s[0] == ':')
			return 0;
	}
	if (len >= 3 && (!memcmp(s, "---", 3) || !memcmp(s, "...", 3)))
		return 0;
	if (s[len - 1] == ':')
		return 0;
	for (size_t i = 0; i + 1 < len; i++) {
		if (s[i] == ':' && s[i + 1] == ' ')
			return 0;
		if (s[i] == ' ' && s[i + 1] == '#')
			return 0;
	}
	if (in_flow)
		for (size_t i = 0; i < len; i++)
			if (strchr(",[]{}?", s[i]))
				return 0;
	return !scalar_is_special(s, len);
}

/* ---------- emitters ---------- */

static void emit_single(struct strbuf *out, const char *s, size_t len)
{
	strbuf_addch(out, '\'');
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\'')
			strbuf_addch(out, '\'');
		strbuf_addch(out, s[i]);
	}
	strbuf_addch(out, '\'');
}

static void emit_double(struct strbuf *out, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	strbuf_addch(out, '"');
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t k = utf8_next(u, len, i, &cp);
		const char *esc = NULL;
		switch (cp) {
		case '\\': esc = "\\\\"; break;
		case '"': esc = "\\\""; break;
		case 0: esc = "\\0"; break;
		case 7: esc = "\\a"; break;
		case 8: esc = "\\b"; break;
		case 9: esc = "\\t"; break;
		case 10: esc = "\\n"; break;
		case 11: esc = "\\v"; break;
		case 12: esc = "\\f"; break;
		case 13: esc = "\\r"; break;
		case 27: esc = "\\e"; break;
		case 0x85: esc = "\\N"; break;
		case 0xA0: esc = "\\_"; break;
		case 0x2028: esc = "\\L"; break;
		case 0x2029: esc = "\\P"; break;
		default: break;
		}
		if (esc)
			strbuf_addstr(out, esc);
		else if (cp == 0x110000)
			strbuf_addf(out, "\\x%02X", u[i]); /* not UTF-8: keep the byte's value */
		else if (!cp_printable(cp))
			strbuf_addf(out, cp <= 0xFF ? "\\x%02X" : "\\u%04X", (unsigned)cp);
		else
			strbuf_add(out, s + i, k);
		i += k;
	}
	strbuf_addch(out, '"');
}

void scalar_emit_string(struct strbuf *out, const char *s, size_t len, enum scalar_style prefer,
			int in_flow)
{
	if (prefer == STYLE_DOUBLE) {
		emit_double(out, s, len);
		return;
	}
	if (prefer != STYLE_SINGLE && scalar_plain_ok(s, len, in_flow)) {
		strbuf_add(out, s, len);
		return;
	}
	if (all_printable(s, len))
		emit_single(out, s, len);
	else
		emit_double(out, s, len);
}

/* A float PyYAML reads back as a float: the mantissa needs a '.' */
static void emit_float(struct strbuf *out, double x)
{
	if (isnan(x)) {
		strbuf_addstr(out, ".nan");
		return;
	}
	if (isinf(x)) {
		strbuf_addstr(out, x < 0 ? "-.inf" : ".inf");
		return;
	}
	struct strbuf r = STRBUF_INIT;
	py_float_repr(&r, x);
	const char *s = sb_str(&r);
	const char *e = strchr(s, 'e');
	if (e && !memchr(s, '.', (size_t)(e - s))) {
		strbuf_add(out, s, (size_t)(e - s));
		strbuf_addstr(out, ".0");
		strbuf_addstr(out, e);
	} else {
		strbuf_addstr(out, s);
	}
	strbuf_release(&r);
}

void scalar_emit_json(struct strbuf *out, const json_t *v, enum scalar_style prefer, int in_flow)
{
	switch (json_typeof(v)) {
	case JSON_STRING:
		scalar_emit_string(out, json_string_value(v), json_string_length(v), prefer, in_flow);
		break;
	case JSON_REAL:
		emit_float(out, json_real_value(v));
		break;
	case JSON_INTEGER:
	case JSON_TRUE:
	case JSON_FALSE:
	case JSON_NULL:
		json_atom_out(out, v);
		break;
	case JSON_ARRAY: {
		strbuf_addch(out, '[');
		for (size_t i = 0; i < json_array_size(v); i++) {
			if (i)
				strbuf_addstr(out, ", ");
			scalar_emit_json(out, json_array_get(v, i), STYLE_ANY, 1);
		}
		strbuf_addch(out, ']');
		break;
	}
	case JSON_OBJECT: {
		const char *k;
		json_t *x;
		int first = 1;
		strbuf_addch(out, '{');
		json_object_foreach((json_t *)v, k, x) {
			if (!first)
				strbuf_addstr(out, ", ");
			first = 0;
			scalar_emit_string(out, k, strlen(k), STYLE_ANY, 1);
			strbuf_addstr(out, ": ");
			scalar_emit_json(out, x, STYLE_ANY, 1);
		}
		strbuf_addch(out, '}');
		break;
	}
	}
}

/* ---------- parsing a command-line value ---------- */

struct pv {
	yaml_parser_t p;
	yaml_event_t ev;
	int have;
	int failed;
};

static int pv_next(struct pv *s)
{
	if (s->have)
		yaml_event_delete(&s->ev);
	s->have = 0;
	if (!yaml_parser_parse(&s->p, &s->ev)) {
		s->failed = 1;
		return 0;
	}
	s->have = 1;
	return 1;
}

static json_t *pv_value(struct pv *s, int depth);

/* The next value inside a collection whose end event is end: 1 with *out
 * set, 0 at the end, -1 when the text or the value is refused. */
static int pv_item(struct pv *s, yaml_event_type_t end, int depth, json_t **out)
{
	*out = NULL;
	if (!pv_next(s))
		return -1;
	if (s->ev.type == end)
		return 0;
	*out = pv_value(s, depth + 1);
	return *out ? 1 : -1;
}

/* Build the value of the current event (and its children); NULL on anything
 * PyYAML would refuse (aliases are not expected in a command-line value). */
static json_t *pv_value(struct pv *s, int depth)
{
	if (depth > 200)
		return NULL;
	yaml_event_t *e = &s->ev;
	if (e->type == YAML_SCALAR_EVENT) {
		const char *tag = (const char *)e->data.scalar.tag;
		const char *t = (const char *)e->data.scalar.value;
		size_t n = e->data.scalar.length;
		if (tag && !strcmp(tag, "tag:yaml.org,2002:str"))
			return json_stringn(t, n);
		int plain = e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		if (plain && ((n == 1 && t[0] == '=') || (n == 2 && !memcmp(t, "<<", 2))))
			return NULL; /* PyYAML has no constructor for these */
		return scalar_to_json(t, n, plain);
	}
	if (e->type == YAML_SEQUENCE_START_EVENT) {
		json_t *a = json_array(), *x;
		int r;
		while ((r = pv_item(s, YAML_SEQUENCE_END_EVENT, depth, &x)) > 0)
			json_array_append_new(a, x);
		if (r < 0) {
			json_decref(a);
			return NULL;
		}
		return a;
	}
	if (e->type == YAML_MAPPING_START_EVENT) {
		json_t *o = json_object(), *k, *x;
		int r;
		while ((r = pv_item(s, YAML_MAPPING_END_EVENT, depth, &k)) > 0) {
			/* a key always has a value: the end here is an error too */
			if (pv_item(s, YAML_MAPPING_END_EVENT, depth, &x) <= 0) {
				json_decref(k);
				r = -1;
				break;
			}
			struct strbuf kt = STRBUF_INIT;
			if (json_is_string(k))
				strbuf_add(&kt, json_string_value(k), json_string_length(k));
			else
				scalar_emit_json(&kt, k, STYLE_PLAIN, 1);
			json_object_set_new(o, sb_str(&kt), x);
			strbuf_release(&kt);
			json_decref(k);
		}
		if (r < 0) {
			json_decref(o);
			return NULL;
		}
		return o;
	}
	return NULL;
}

/* One YAML document with PyYAML typing; NULL when the text is not exactly one
 * valid document. */
static json_t *parse_document(const char *text, size_t len)
{
	struct pv s;
	memset(&s, 0, sizeof(s));
	yaml_parser_initialize(&s.p);
	yaml_parser_set_input_string(&s.p, (const unsigned char *)text, len);
	json_t *v = NULL;
	int ndocs = 0;
	while (pv_next(&s) && s.ev.type != YAML_STREAM_END_EVENT) {
		if (s.ev.type == YAML_DOCUMENT_START_EVENT) {
			if (++ndocs > 1)
				break;
			if (!pv_next(&s))
				break;
			v = pv_value(&s, 0);
			if (!v)
				break;
		}
	}
	int ok = !s.failed && ndocs == 1 && v && s.have && s.ev.type == YAML_STREAM_END_EVENT;
	if (s.have)
		yaml_event_delete(&s.ev);
	yaml_parser_delete(&s.p);
	if (!ok) {
		json_decref(v);
		return NULL;
	}
	return v;
}

json_t *scalar_parse_value(const char *text, char **err)
{
	if (err)
		*err = NULL;
	size_t len = strlen(text);
	if (len == 0)
		return json_string("");
	json_t *v = parse_document(text, len);
	/* srtctl (spec 9.9) keeps the text as a string when it does not parse
	 * or when it parses to a mapping, so `{a: 1}` and `{param}` stay literal. */
	if (!v || json_is_object(v)) {
		json_decref(v);
		return json_stringn(text, len);
	}
	return v;
}

/* {param} or {a, b}: a placeholder, not data (every value null). */
static int placeholder_like(const json_t *obj)
{
	const char *k;
	json_t *x;
	json_object_foreach((json_t *)obj, k, x)
		if (!json_is_null(x))
			return 0;
	return 1;
}

json_t *scalar_parse_flow(const char *text, char **err)
{
	if (err)
		*err = NULL;
	size_t len = strlen(text);
	const char *t = text;
	while (*t == ' ')
		t++;
	if (*t == '{') {
		json_t *v = parse_document(text, len);
		if (v && json_is_object(v) && (!json_object_size(v) || !placeholder_like(v)))
			return v;
		json_decref(v);
	}
	return scalar_parse_value(text, err);
}
