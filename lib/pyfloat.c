#include "lib/pyfloat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A decimal candidate: value = digits × 10^scale, digits without leading zeros. */
struct dec {
	char d[32];
	int n;
	int scale;
};

static double dec_value(const struct dec *c)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%.*se%d", c->n, c->d, c->scale);
	return strtod(buf, NULL);
}

/* Add delta (+1 or -1) to the last digit: the next p-digit decimal up or
 * down (999+1 = 1000 keeps the value exact with one digit more). */
static int dec_bump(struct dec *c, int delta)
{
	int i = c->n - 1;
	if (delta > 0) {
		while (i >= 0 && c->d[i] == '9')
			c->d[i--] = '0';
		if (i < 0) {
			memmove(c->d + 1, c->d, (size_t)c->n);
			c->d[0] = '1';
			c->n++;
		} else {
			c->d[i]++;
		}
	} else {
		while (i >= 0 && c->d[i] == '0')
			c->d[i--] = '9';
		if (i < 0)
			return -1;
		c->d[i]--;
		if (c->d[0] == '0') {
			/* 100 - 1 at this precision: the neighbour below a power of
			 * ten has as many digits, one decade lower: 999|9. */
			memmove(c->d, c->d + 1, (size_t)(c->n - 1));
			c->d[c->n - 1] = '9';
			c->scale--;
		}
	}
	c->d[c->n] = '\0';
	return 0;
}

/* Shortest digits that read back as d (d finite, > 0): like Gay's dtoa mode 0.
 * Next to a power of two the rounding interval is lopsided, so the correctly
 * rounded p-digit decimal can miss while its lower neighbour still reads back;
 * try both neighbours before taking one more digit. */
static void shortest_digits(double d, struct dec *out)
{
	for (int p = 1; p <= 17; p++) {
		char buf[64];
		snprintf(buf, sizeof(buf), "%.*e", p - 1, d);
		struct dec c = { .n = 0 };
		const char *s = buf;
		for (; *s && *s != 'e'; s++)
			if (*s >= '0' && *s <= '9')
				c.d[c.n++] = *s;
		c.d[c.n] = '\0';
		int e10 = atoi(s + 1);
		c.scale = e10 - (p - 1);
		if (dec_value(&c) == d || p == 17) {
			*out = c;
			return;
		}
		struct dec up = c, down = c;
		if (dec_bump(&down, -1) == 0 && dec_value(&down) == d) {
			*out = down;
			return;
		}
		if (dec_bump(&up, +1) == 0 && dec_value(&up) == d) {
			*out = up;
			return;
		}
	}
}

void py_float_repr(struct strbuf *out, double d)
{
	if (isnan(d)) {
		strbuf_addstr(out, "nan");
		return;
	}
	if (isinf(d)) {
		strbuf_addstr(out, d < 0 ? "-inf" : "inf");
		return;
	}
	if (d == 0) {
		strbuf_addstr(out, signbit(d) ? "-0.0" : "0.0");
		return;
	}
	if (d < 0) {
		strbuf_addch(out, '-');
		d = -d;
	}
	struct dec c;
	shortest_digits(d, &c);
	while (c.n > 1 && c.d[c.n - 1] == '0') {
		c.n--;
		c.scale++;
	}
	c.d[c.n] = '\0';
	int e = c.scale + c.n - 1; /* exponent in d.ddd×10^e */
	if (e >= -4 && e < 16) {
		if (e < 0) {
			strbuf_addstr(out, "0.");
			for (int i = -1; i > e; i--)
				strbuf_addch(out, '0');
			strbuf_add(out, c.d, (size_t)c.n);
		} else if (c.n <= e + 1) {
			strbuf_add(out, c.d, (size_t)c.n);
			for (int i = c.n; i <= e; i++)
				strbuf_addch(out, '0');
			strbuf_addstr(out, ".0");
		} else {
			strbuf_add(out, c.d, (size_t)(e + 1));
			strbuf_addch(out, '.');
			strbuf_add(out, c.d + e + 1, (size_t)(c.n - e - 1));
		}
	} else {
		strbuf_addch(out, c.d[0]);
		if (c.n > 1) {
			strbuf_addch(out, '.');
			strbuf_add(out, c.d + 1, (size_t)(c.n - 1));
		}
		strbuf_addf(out, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
	}
}
