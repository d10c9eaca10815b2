/*
 * doc_internal.h — the index shared by doc.c (reading), doc_index.c (building
 * it from libyaml) and doc_edit.c (splicing).  Private to model/doc_*.c.
 *
 * An index owns every node (ix->all) and every string hanging off them.
 * Offsets are bytes into the text the index was built from.
 */
#ifndef SRT_DOC_INTERNAL_H
#define SRT_DOC_INTERNAL_H

#include <sys/types.h>

#include "model/doc.h"

#define DOC_NONE ((size_t)-1)

/* How deep collections may nest, counting what aliases bring in.  PyYAML
 * (and so srtctl) gives up at about 500 levels, a recipe uses a handful; the
 * bound keeps every recursive walk of a tree (snapshot, typed view, edit
 * checks, the JSON printers) far from the end of the C stack, whatever the
 * build.  doc_index_build refuses a deeper document. */
#define DOC_MAX_DEPTH 1000
/* Values (nodes) a document may hold: recipes have hundreds, srtctl's largest
 * examples a few thousand, a 20,000-line recipe about 29,000.  Bounds peak
 * memory (docs/robustness.md): what a dense list at the limit takes is the
 * constant in the stated bound. */
#define DOC_MAX_NODES 100000

/* A node costs about 130 bytes with its share of the index, hundreds of
 * thousands of them for the largest inputs accepted (DOC_MAX_NODES): the
 * small fields are bytes, and nodes, their texts and kid arrays come from
 * the index's blocks, not one malloc each. */
struct doc_node {
	unsigned char kind;      /* enum doc_kind */
	unsigned char style;     /* scalars: enum scalar_style */
	unsigned char flow;      /* collections written in flow style */
	unsigned char in_flow;   /* inside a flow collection */
	unsigned char open;      /* while building: a collection not yet closed */
	int line, col;           /* of vstart; line 1-based, col 0-based characters */
	size_t start;            /* event start: includes &anchor and !tag */
	size_t vstart;           /* the value: scalar token, '[' / '{', first key or dash */
	size_t end;              /* after the content (see design §1.3) */
	size_t raw_end;          /* libyaml's end mark */
	char *text;              /* scalars: decoded; aliases: the anchor name (the index's) */
	size_t len;
	char *anchor;            /* NULL when not anchored */
	char *tag;               /* NULL when untagged */
	size_t dash;             /* items of a block sequence: byte of their '-' */
	int dash_line, dash_col;
	struct doc_node *parent;
	struct doc_node *target; /* aliases: the anchored node */
	struct doc_node **kids;  /* sequences: items; mappings: key, value, key, value... */
	size_t nkids, akids;
	int xdepth;              /* levels of collections in it, aliases expanded */
};

struct doc_block;

struct doc_index {
	struct doc_node *root; /* NULL for an empty document */
	struct doc_block *blocks; /* where the nodes, texts and kid arrays live */
	struct doc_node **all;
	size_t nall, aall;
	size_t body;           /* first byte after a BOM */
	size_t naliases;
	struct diag_list lint; /* what a lint build found (tabs, duplicate keys) */
};

/* Build an index of buf.  Returns 0, or -1 with an error diagnostic (the
 * index is then released).  Warnings are added to diags when lint != 0, and
 * a copy is kept in ix->lint so the document can answer for every version. */
int doc_index_build(struct doc_index *ix, const char *name, const char *buf, size_t len,
		    struct diag_list *diags, int lint);
void doc_index_release(struct doc_index *ix);
/* A copy of s (n bytes, NUL added) that lives as long as ix. */
char *doc_index_strndup(struct doc_index *ix, const char *s, size_t n);

/* Node helpers shared by reading and editing. */
const struct doc_node *doc_index_lookup(const struct doc_index *ix, const struct path *p,
					size_t *depth, int follow_aliases);
ssize_t doc_map_find(const struct doc_node *map, const char *key);
/* Typed snapshot used to verify edits (design §3.3): plain special scalars
 * carry a "\x01" prefix, aliases "\x02name". */
json_t *doc_snapshot(const struct doc_node *n);
/* The snapshot's name of a collection used as a mapping key: "\x04" and its
 * content, so text moved before it (an edit elsewhere) keeps the name. */
char *doc_snapshot_complex_key(const struct doc_node *k);
/* The typed value of n; NULL when it expands beyond *budget nodes (an alias
 * bomb) or, as a last guard, beyond DOC_MAX_DEPTH levels. */
json_t *doc_build_json(const struct doc_node *n, size_t *budget);

/* doc_edit_line.c: the edit that replaced scalar n's value [pos, pos+oldlen)
 * of old by newlen bytes of text, checked on its line alone; on success
 * (0) *out is cur's index moved over and patched to text, cur is left
 * empty.  -1: not provable there (cur untouched); re-read the whole text. */
int doc_edit_line_verify(struct doc_index *cur, const char *old, size_t olen, const char *text, size_t len,
			 const struct doc_node *n, size_t pos, size_t oldlen, size_t newlen, const json_t *want,
			 struct doc_index *out);

/* After doc_install of an edit doc_edit_line_verify proved: only n's value
 * changed (doc_value_edit). */
void doc_note_value_edit(struct doc *d, const struct doc_node *n);

/* Access to a doc's current state for doc_edit.c. */
struct doc_index *doc_current_index(struct doc *d);
const char *doc_bytes(const struct doc *d, size_t *len);
/* Install new text + index as the current state; outside a transaction the
 * change goes on the undo stack as one patch. */
void doc_install(struct doc *d, char *text, size_t len, struct doc_index *ix);

#endif
