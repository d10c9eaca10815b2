/* jalloc.c — size-class free lists for jansson's small values (jalloc.h). */
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "lib/jalloc.h"
#include "lib/util.h"

#define CLASSES (JALLOC_SMALL / 16 + 1)
#define CHUNK 65536

/* Each block starts with a 16-byte header that holds its class (0: a large
 * block from malloc); 16 keeps the value aligned for any type. */
struct head {
	size_t cls;
	size_t pad;
};

struct free_block {
	struct free_block *next;
};

static struct free_block *free_list[CLASSES];
static unsigned char *chunk;
static size_t chunk_left;

void *jalloc_malloc(size_t n)
{
	size_t cls = (n + 15) / 16;
	struct head *h;
	if (!cls)
		cls = 1;
	if (cls >= CLASSES) {
		h = xmalloc(sizeof(*h) + n);
		h->cls = 0;
		return h + 1;
	}
	if (free_list[cls]) {
		struct free_block *f = free_list[cls];
		free_list[cls] = f->next;
		return f;
	}
	size_t need = sizeof(*h) + cls * 16;
	if (chunk_left < need) {
		/* the tail of the old chunk is left unused: at most JALLOC_SMALL
		 * bytes of every 64 KiB */
		chunk = xmalloc(CHUNK);
		chunk_left = CHUNK;
	}
	h = (struct head *)chunk;
	chunk += need;
	chunk_left -= need;
	h->cls = cls;
	return h + 1;
}

void jalloc_free(void *p)
{
	if (!p)
		return;
	struct head *h = (struct head *)p - 1;
	if (!h->cls) {
		free(h);
		return;
	}
	struct free_block *f = p;
	f->next = free_list[h->cls];
	free_list[h->cls] = f;
}

void jalloc_install(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return;
#endif
#endif
	json_set_alloc_funcs(jalloc_malloc, jalloc_free);
}
