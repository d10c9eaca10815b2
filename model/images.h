/*
 * images.h — lookup tables derived from the field table and the engine flag
 * tables, in the shape the build writes them out.
 *
 * schema.c derives a tree from schema_fields[] (each pattern's children,
 * a hash of (pattern, key), the required children) and engine_flags.c a hash
 * of every flag name with its two readings, kinds_lmcache.c the LMCache
 * server's flags sorted by name.  Deriving them took a tenth of
 * validating one recipe, in every process.  So the build derives them once:
 * build/gen/gen_images links the library without any image, derives each on
 * first use, and writes it as C (build/gen/images.c), which the binary, the
 * tests and the benches link.  A program linked without that file (such as
 * gen_images) derives the tables when it first needs them, as before.
 *
 * Nothing here is edited by hand: change the tables, and make regenerates
 * the images; test_images checks that what is linked is what the tables give.
 */
#ifndef SRT_IMAGES_H
#define SRT_IMAGES_H

#include <stddef.h>
#include <stdio.h>

#include "model/engine_flags.h"
#include "model/kinds.h"
#include "model/schema.h"

/* ---- the field table's tree (schema.c) ---- */

/* A pattern's children in schema_tree.kid: the keyed ones sorted by key,
 * then the list item ("[]"). */
struct schema_kids {
	unsigned first, nkeyed, n; /* into kid */
	unsigned item;             /* the first "[]" child, or SCHEMA_NO_ENTRY */
	unsigned req, nreq;        /* into req: the SF_REQUIRED children */
	unsigned star, nstar;      /* the "*" children (first, count); star SCHEMA_NO_ENTRY: none */
};

/* One key of one pattern's keyed children: the first of its run in kid. */
struct schema_key_slot {
	unsigned group; /* the pattern's first entry; SCHEMA_NO_ENTRY: empty */
	unsigned pos;   /* into the pattern's keyed children */
	unsigned n;     /* entries of the key (one per variant) */
	unsigned len;   /* the key's length: most probes end without reading it */
};

#define SCHEMA_NO_ENTRY ((unsigned)-1)

struct schema_tree {
	size_t nfields;          /* schema_fields_count it was derived from */
	const size_t *path_len;  /* per entry: strlen(path) */
	const unsigned short *key_off; /* per entry: where schema_field_key starts in path */
	const unsigned *pos;     /* per entry: its place among its parent's children, or SCHEMA_NO_ENTRY */
	const unsigned *target;  /* per entry: the pattern whose children it has (ref followed) */
	const struct schema_kids *kids; /* per pattern (at its first entry) */
	const unsigned *kid;     /* nkid entries */
	size_t nkid;
	const struct schema_field *const *req; /* nreq entries */
	size_t nreq;
	const struct schema_key_slot *slot; /* (pattern, key) -> child, mask + 1 slots */
	size_t mask;
	const unsigned *by_path; /* pattern -> its first entry, (unsigned)-1 empty; by_path_mask + 1 */
	size_t by_path_mask;
};

/* The build's image; its address is NULL in a program linked without it. */
extern const struct schema_tree schema_tree_image __attribute__((weak));

/* Derive the tree afresh and write it as C, for build/gen/images.c. */
void schema_tree_write(FILE *out);
/* 0 when the linked image is what the table gives now; else -1 with what
 * differs in *why (malloc'd). */
int schema_tree_image_check(char **why);

/* ---- the engine flag tables' name index (engine_flags.c) ---- */

struct engine_kind_slot {
	const char *name;          /* NULL: empty */
	unsigned char plain, neg;  /* the name's kind read plainly, and after "no-" */
};

struct engine_kind_index {
	const struct engine_flags *t;
	const struct engine_kind_slot *slot; /* mask + 1 */
	size_t mask;
};

/* The build's images, one per table engine_flags_find knows, ended by t NULL;
 * NULL in a program linked without them. */
extern const struct engine_kind_index engine_kind_images[] __attribute__((weak));

void engine_flags_write(FILE *out);
int engine_flags_image_check(char **why);

/* ---- the LMCache server flags by name (kinds_lmcache.c) ---- */

/* Indices into lmc_flags, sorted by name (table order among equal names). */
extern const unsigned short lmc_by_name_image[] __attribute__((weak));
extern const size_t lmc_by_name_image_count __attribute__((weak));

void lmc_flags_write(FILE *out);
int lmc_flags_image_check(char **why);

#endif
