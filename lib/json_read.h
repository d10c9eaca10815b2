/*
 * json_read.h — jansson's json_loads, quicker on the JSON recipes carry.
 *
 * A connector written as raw JSON is parsed for every recipe validated, and
 * jansson's reader spends three quarters of that in its lexer.  json_read()
 * reads the part of JSON such values use (objects, arrays, printable ASCII
 * strings without escapes, short integers, true, false, null) straight into
 * jansson values, and hands anything else (escapes, other bytes, reals,
 * duplicate keys, deep nesting, every error) to json_loads, so the value,
 * the key order and every message stay jansson's.
 */
#ifndef SRT_JSON_READ_H
#define SRT_JSON_READ_H

#include <jansson.h>

/* As json_loads(text, flags, err).  err (may be NULL) is filled only when
 * NULL is returned. */
json_t *json_read(const char *text, size_t flags, json_error_t *err);

#endif
