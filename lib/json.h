/*
 * json.h — JSON and Python value printing, byte for byte as CPython does.
 *
 * pyjson_dump() prints like json.dumps: default separators ", " / ": ",
 * compact "," / ":", optional indent and sort_keys, ensure_ascii with
 * lowercase \uXXXX escapes and surrogate pairs, floats as repr().  py_str()
 * and py_repr() print a value as Python's str()/repr() would (True, None,
 * {'a': 1}); srtctl renders engine flags with str().  All append to a strbuf.
 */
#ifndef SRT_JSON_H
#define SRT_JSON_H

#include <jansson.h>

#include "lib/pyfloat.h" /* py_float_repr */
#include "lib/util.h"

enum {
	PYJSON_COMPACT = 1,   /* separators=(",", ":") */
	PYJSON_SORT_KEYS = 2, /* sort_keys=True */
	PYJSON_UNICODE = 4,   /* ensure_ascii=False */
};

/* indent < 0: single line; otherwise json.dumps(indent=N) layout. */
void pyjson_dump(struct strbuf *out, const json_t *v, unsigned flags, int indent);
char *pyjson_dumps(const json_t *v, unsigned flags); /* malloc'd, single line */
/* jansson's json_dumps as a malloc'd string (NULL when jansson gives none):
 * json_dumps' own text comes from jansson's allocator (lib/jalloc.h), which
 * free() must never see. */
char *json_text(const json_t *v, size_t flags);
void py_str(struct strbuf *out, const json_t *v);
void py_repr(struct strbuf *out, const json_t *v);
/* str() of v as a malloc'd string: how srtctl turns a YAML value into a
 * flag value or an env value. */
char *py_str_dup(const json_t *v);
/* Python's truth value of a YAML value (absent: false), as srtctl's
 * "if config.x:" reads it. */
int py_truthy(const json_t *v);

/* The keys of obj sorted by strcmp, as sort_keys and srtctl's env printing
 * order them; the keys are borrowed from obj, the array is the caller's to
 * free.  A non-object has none. */
const char **json_sorted_keys(const json_t *obj, size_t *n);

/* An integer, true, false or null as JSON and YAML both write it (and as
 * json.dumps and PyYAML do): appends it and returns 1; 0 for any other
 * value, which is left to the caller's own rules. */
int json_atom_out(struct strbuf *out, const json_t *v);

/* Whether the array arr holds a value equal to v (json_equal); a non-array
 * holds nothing. */
int json_array_has(const json_t *arr, const json_t *v);

#endif
