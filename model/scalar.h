/*
 * scalar.h — what a YAML scalar means to srtctl, and how to write one so that
 * it keeps that meaning.
 *
 * srtctl loads recipes with PyYAML (YAML 1.1) and merges them with ruamel
 * (YAML 1.2).  scalar_to_json() constructs a value the way PyYAML's safe_load
 * does; the emitters write a string so that both readers get the same string
 * back (design/yaml-roundtrip.md §4).  Returned json_t are new references.
 */
#ifndef SRT_SCALAR_H
#define SRT_SCALAR_H

#include <jansson.h>
#include <stddef.h>

#include "lib/util.h"

enum scalar_style {
	STYLE_ANY,     /* no preference: plain if safe, else single, else double */
	STYLE_PLAIN,
	STYLE_SINGLE,
	STYLE_DOUBLE,
	STYLE_LITERAL, /* | */
	STYLE_FOLDED,  /* > */
};

/* PyYAML's value for a scalar.  plain != 0 means the scalar was written plain
 * (then `08` is a string, `010` is 8, `1e3` a string, `1.0e3` 1000.0, `yes`
 * true, `12:30` 750, `~` null).  Quoted and block scalars are always strings.
 * Timestamps stay strings; .inf/.nan become the strings ".inf"/".nan" (JSON has
 * no infinity).  Integers outside int64 stay strings.  text is UTF-8, as a
 * YAML parser gives it (it is not checked again). */
json_t *scalar_to_json(const char *text, size_t len, int plain);

/* Non-zero when text, written plain, matches a YAML 1.1 or 1.2 resolver for a
 * non-string type (bool, null, int, float, timestamp, merge, value). */
int scalar_is_special(const char *text, size_t len);

/* Non-zero when the string may be written plain and reads back as the same
 * string in PyYAML and ruamel; in_flow adds the flow-context restrictions. */
int scalar_plain_ok(const char *s, size_t len, int in_flow);

/* Append the string s as a YAML scalar.  prefer is the style of the scalar
 * being replaced (keep it when the value fits it); STYLE_LITERAL/FOLDED are not
 * produced here (block scalars need the indentation: see doc.c). */
void scalar_emit_string(struct strbuf *out, const char *s, size_t len,
			enum scalar_style prefer, int in_flow);

/* Append any JSON value as YAML: scalars as above (ints plain, bools
 * true/false, null null, floats with a '.' and a signed exponent so PyYAML
 * reads a float), arrays and objects in flow style ([a, b], {k: v}). */
void scalar_emit_json(struct strbuf *out, const json_t *v, enum scalar_style prefer, int in_flow);


/* Type VALUE text given on a command line (`set FILE PATH=VALUE`) as srtctl
 * types a --set value (spec 9.9): parsed as one YAML document with PyYAML
 * typing, so `720` is an int, `"720"` a string, `[4, 8]` a list (whose items
 * may be mappings), `true`/`yes` booleans, `null`/`~` null, and empty text the
 * empty string.  When the text parses to a mapping, or is not valid YAML (also
 * an alias, a merge key `<<`, several documents, or lists nested more than 200
 * deep), the text itself is kept as a string: `{"k": 1}` and the sweep
 * placeholder `{param}` stay literal.  Always returns a new value; *err (when
 * err != NULL) is set to NULL and is kept only for future refusals. */
json_t *scalar_parse_value(const char *text, char **err);

/* A value a user types (`srt-tui set FILE PATH=VALUE`, a field in the TUI):
 * scalar_parse_value's typing, except that a flow mapping `{k: v, ...}` is a
 * mapping, so collections can be set in both forms issue-style recipes use.
 * A mapping whose values are all null (`{param}`, `{a, b}`) stays text: that
 * is a sweep placeholder far more often than data. */
json_t *scalar_parse_flow(const char *text, char **err);

#endif
