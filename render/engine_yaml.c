/*
 * engine_yaml.c — TRT-LLM's engine YAML as srtctl writes it (see the header).
 *
 * srtctl calls yaml.safe_dump(config): mappings with sorted keys in block
 * style, sequences not indented under their key ("key:\n- a"), strings plain
 * unless a plain scalar would read back as something else, then in single
 * quotes.  The scalar rules below are PyYAML's for the values engine configs
 * hold (numbers, booleans, names, paths, JSON-ish text); a string with a line
 * break or a control character is written in double quotes.
 */
#include "render/engine_yaml.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/pyfloat.h"
#include "model/recipe.h"
#include "render/plan_observability.h"

/* str(args.get("backend", "pytorch")).lower() in ("tensorrt", "trt") */
static int legacy_backend(json_t *c)
{
	json_t *v = json_object_get(c, "backend");
	char *s;
	int legacy;
	if (!v)
		return 0;
	s = py_str_dup(v);
	for (char *p = s; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	legacy = !strcmp(s, "tensorrt") || !strcmp(s, "trt");
	free(s);
	return legacy;
}

static void setdefault_true(json_t *c, const char *key)
{
	if (!json_object_get(c, key))
		json_object_set_new(c, key, json_true());
}

json_t *engine_yaml_config_with(json_t *args, unsigned with)
{
	json_t *c = json_is_object(args) ? json_deep_copy(args) : json_object();
	/* srtctl's expand_engine_config_defaults (core/config.py): each a
	 * setdefault, observability's first so its true stands */
	if (with & ENGINE_YAML_OBSERVABILITY) { /* ANALYTICS_ENGINE_CONFIG */
		setdefault_true(c, "enable_iter_perf_stats");
		setdefault_true(c, "return_perf_metrics");
	}
	if (with & ENGINE_YAML_TRTLLM_SERVE) /* TRTLLM_SERVE_ENGINE_DEFAULTS */
		setdefault_true(c, "return_perf_metrics");
	/* TRTLLM_ENGINE_DEFAULTS: iteration statistics stay off unless the
	 * recipe asks for them (backends/trtllm.py); args that pick the legacy
	 * tensorrt backend are left alone (its LlmArgs rejects the key) */
	if (!json_object_get(c, "enable_iter_perf_stats") && !legacy_backend(c))
		json_object_set_new(c, "enable_iter_perf_stats", json_false());
	return c;
}

unsigned engine_yaml_defaults(const struct recipe *r)
{
	unsigned with = 0;
	if (obs_enabled(r))
		with |= ENGINE_YAML_OBSERVABILITY;
	if (r->frontend && !strcmp(r->frontend, "trtllm_serve"))
		with |= ENGINE_YAML_TRTLLM_SERVE;
	return with;
}

json_t *engine_yaml_config(json_t *args)
{
	return engine_yaml_config_with(args, 0);
}

/* Would PyYAML's resolver read s as a bool, null, int or float?  Its words
 * come in three spellings each: lower, Capitalised and UPPER ("y" is not one). */
static int looks_typed(const char *s)
{
	static const char *const words[] = {
		"true", "True", "TRUE", "false", "False", "FALSE", "yes", "Yes", "YES",
		"no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
		"null", "Null", "NULL", "~", NULL
	};
	for (size_t i = 0; words[i]; i++)
		if (!strcmp(s, words[i]))
			return 1;
	const char *p = s;
	if (*p == '+' || *p == '-')
		p++;
	if (!*p)
		return 0;
	if (!strcmp(p, ".inf") || !strcmp(p, ".Inf") || !strcmp(p, ".INF") || !strcmp(s, ".nan") ||
	    !strcmp(s, ".NaN") || !strcmp(s, ".NAN"))
		return 1;
	/* digits, '_', at most one '.', an exponent: an int or a float */
	int digits = 0, dots = 0;
	for (; *p; p++) {
		if (isdigit((unsigned char)*p) || *p == '_')
			digits++;
		else if (*p == '.')
			dots++;
		else if ((*p == 'e' || *p == 'E') && digits)
			return 1;
		else if (*p == ':' && digits) /* sexagesimal 1:30 */
			return 1;
		else
			return 0;
	}
	return digits && dots <= 1;
}

static int needs_quotes(const char *s)
{
	size_t n = strlen(s);
	if (!n || looks_typed(s) || isspace((unsigned char)s[0]) || isspace((unsigned char)s[n - 1]))
		return 1;
	if (strchr("-?:,[]{}#&*!|>'\"%@`", s[0]) &&
	    !((s[0] == '-' || s[0] == '?' || s[0] == ':') && n > 1 && s[1] != ' '))
		return 1;
	if (strstr(s, ": ") || strstr(s, " #") || s[n - 1] == ':')
		return 1;
	return 0;
}

static void scalar_str(struct strbuf *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f) {
			/* double quotes with escapes, as PyYAML does for such text */
			strbuf_addch(out, '"');
			for (p = (const unsigned char *)s; *p; p++) {
				if (*p == '"' || *p == '\\')
					strbuf_addf(out, "\\%c", *p);
				else if (*p == '\n')
					strbuf_addstr(out, "\\n");
				else if (*p == '\t')
					strbuf_addstr(out, "\\t");
				else if (*p < 0x20 || *p == 0x7f)
					strbuf_addf(out, "\\x%02X", *p);
				else
					strbuf_addch(out, (char)*p);
			}
			strbuf_addch(out, '"');
			return;
		}
	if (!needs_quotes(s)) {
		strbuf_addstr(out, s);
		return;
	}
	strbuf_addch(out, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addch(out, '\'');
		strbuf_addch(out, *s);
	}
	strbuf_addch(out, '\'');
}

static void scalar(struct strbuf *out, json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING: scalar_str(out, json_string_value(v)); break;
	case JSON_INTEGER: strbuf_addf(out, "%lld", (long long)json_integer_value(v)); break;
	case JSON_REAL: {
		struct strbuf f = STRBUF_INIT;
		py_float_repr(&f, json_real_value(v));
		const char *t = sb_str(&f), *e = strchr(t, 'e');
		if (!strcmp(t, "inf"))
			strbuf_addstr(out, ".inf");
		else if (!strcmp(t, "-inf"))
			strbuf_addstr(out, "-.inf");
		else if (!strcmp(t, "nan"))
			strbuf_addstr(out, ".nan");
		else if (e && !memchr(t, '.', (size_t)(e - t))) /* PyYAML: 1.0e-05 */
			strbuf_addf(out, "%.*s.0%s", (int)(e - t), t, e);
		else
			strbuf_addstr(out, t);
		strbuf_release(&f);
		break;
	}
	case JSON_TRUE: strbuf_addstr(out, "true"); break;
	case JSON_FALSE: strbuf_addstr(out, "false"); break;
	case JSON_NULL: strbuf_addstr(out, "null"); break;
	case JSON_OBJECT: strbuf_addstr(out, "{}"); break;
	case JSON_ARRAY: strbuf_addstr(out, "[]"); break;
	}
}

/* The keys of obj in the order the recipe wrote them (jansson keeps
 * insertion order): sort_keys=False.  The array is the caller's to free. */
static const char **object_keys(json_t *obj, size_t *n)
{
	const char **keys = xcalloc(json_object_size(obj) + 1, sizeof(*keys));
	const char *k;
	json_t *v;

	*n = 0;
	json_object_foreach(obj, k, v)
		keys[(*n)++] = k;
	return keys;
}

static int is_block(json_t *v)
{
	return (json_is_object(v) && json_object_size(v)) || (json_is_array(v) && json_array_size(v));
}

/* One node at column depth*2; first: the text before it on its first line
 * ("- " of a list item) is already written. */
static void node(struct strbuf *out, json_t *v, const char *indent, int depth, int inline_first,
		 int sort)
{
	if (json_is_object(v)) {
		size_t n;
		const char **keys = sort ? json_sorted_keys(v, &n) : object_keys(v, &n);
		for (size_t i = 0; i < n; i++) {
			json_t *c = json_object_get(v, keys[i]);
			if (!(i == 0 && inline_first)) {
				strbuf_addstr(out, indent);
				for (int d = 0; d < depth; d++)
					strbuf_addstr(out, "  ");
			}
			scalar_str(out, keys[i]);
			strbuf_addch(out, ':');
			if (json_is_object(c) && json_object_size(c)) {
				strbuf_addch(out, '\n');
				node(out, c, indent, depth + 1, 0, sort);
			} else if (json_is_array(c) && json_array_size(c)) {
				strbuf_addch(out, '\n');
				node(out, c, indent, depth, 0, sort); /* not indented under its key */
			} else {
				strbuf_addch(out, ' ');
				scalar(out, c);
				strbuf_addch(out, '\n');
			}
		}
		free(keys);
	} else if (json_is_array(v)) {
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) {
			if (!(i == 0 && inline_first)) {
				strbuf_addstr(out, indent);
				for (int d = 0; d < depth; d++)
					strbuf_addstr(out, "  ");
			}
			strbuf_addstr(out, "- ");
			if (is_block(e)) {
				node(out, e, indent, depth + 1, 1, sort);
			} else {
				scalar(out, e);
				strbuf_addch(out, '\n');
			}
		}
	}
}

static void dump(struct strbuf *out, json_t *v, const char *indent, int sort)
{
	if (!is_block(v)) {
		strbuf_addstr(out, indent);
		scalar(out, v);
		strbuf_addch(out, '\n');
		return;
	}
	node(out, v, indent, 0, 0, sort);
}

void engine_yaml_dump(struct strbuf *out, json_t *v, const char *indent)
{
	dump(out, v, indent, 1);
}

void yaml_dump_unsorted(struct strbuf *out, json_t *v, const char *indent)
{
	dump(out, v, indent, 0);
}
