/*
 * jalloc.h — the allocator jansson's values come from in the srt-tui binary.
 *
 * A recipe becomes thousands of small jansson values that live exactly as
 * long as one check or one edit; glibc's malloc spends a fifth of
 * `srt-tui validate` consolidating and re-splitting them between files.
 * These values are instead carved from 64 KiB chunks and, when freed, kept
 * on a free list of their 16-byte size class for the next value of that
 * size; requests over JALLOC_SMALL bytes go to malloc.  Chunks are never
 * returned, so the process keeps the most it ever held at once.
 *
 * jalloc_install() must run before the first jansson value is made (main
 * does it first thing): a value made by malloc must never reach jalloc's
 * free.  Not thread-safe; srt-tui has one thread.  Under AddressSanitizer
 * it installs nothing, so a use after free of a jansson value is still
 * caught; the unit tests never install it, so valgrind sees malloc.
 */
#ifndef SRT_JALLOC_H
#define SRT_JALLOC_H

#include <stddef.h>

#define JALLOC_SMALL 512

void jalloc_install(void);
/* What jansson is given; exposed for the unit test. */
void *jalloc_malloc(size_t n);
void jalloc_free(void *p);

#endif
