/*
 * json_read.h — jansson's json_loads, json_loadb and json_load_file, faster.
 *
 * A connector written as raw JSON is parsed for every recipe validated, and
 * srtctl's schema (120 KB) at every start; jansson's reader spends three
 * quarters of that in its lexer.  These read well-formed JSON straight into
 * jansson values and hand anything else (every error, duplicate keys, deep
 * nesting, integers jansson must range-check, reals whenever the locale's
 * decimal point is not '.', flags other than those below) to jansson, so
 * the value, the key order and every message stay jansson's.
 */
#ifndef SRT_JSON_READ_H
#define SRT_JSON_READ_H

#include <stddef.h>

#include <jansson.h>

/* Flags read here; any other is passed to jansson with the text. */
#define JSON_READ_FLAGS (JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL)

/* As json_loads / json_loadb / json_load_file.  err (may be NULL) is filled
 * only when NULL is returned. */
json_t *json_read(const char *text, size_t flags, json_error_t *err);
json_t *json_readb(const char *buf, size_t len, size_t flags, json_error_t *err);
json_t *json_read_file(const char *path, size_t flags, json_error_t *err);
/* The value of [buf, buf + len) as read here, or NULL when it is one the
 * functions above hand to jansson. */
json_t *json_read_direct(const char *buf, size_t len, size_t flags);

#endif
