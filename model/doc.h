/*
 * doc.h — a YAML recipe document that survives editing.
 *
 * A struct doc keeps the original bytes and an index of every node's byte
 * span (built from YAML parser events, libyaml's or doc_fast.c's, translated
 * from character to byte offsets).  Every edit is a text splice on those bytes, after which
 * the document is re-parsed and its typed tree compared with the expected one;
 * if they differ the edit is refused and the document left as it was.  So
 * bytes outside an edit never change: comments, order, quoting and line ends
 * survive.  Edits form an undo/redo stack of patches (what changed).
 *
 * Node pointers returned by the accessors belong to the doc and are valid
 * until the next edit, undo or redo.  Strings returned by doc_* are owned by
 * the doc unless said otherwise; json_t results are new references.
 */
#ifndef SRT_DOC_H
#define SRT_DOC_H

#include <jansson.h>
#include <stddef.h>

#include "model/diag.h"
#include "model/path.h"
#include "model/scalar.h"
#include "lib/util.h"

struct doc;
struct doc_node;

enum doc_kind { DOC_SCALAR, DOC_SEQ, DOC_MAP, DOC_ALIAS };

/*
 * Load a document from memory.  name is used in messages ("recipe.yaml").
 * Returns NULL when the text cannot be a recipe (syntax error, more than one
 * document, a top level that is not a mapping...), with an error diagnostic
 * at line:col in diags.  On success, warnings found while indexing (tabs that
 * PyYAML rejects, duplicate keys, non-string keys such as `on:`) are added to
 * diags too; tab errors are DIAG_ERROR but do not stop the load.
 * An empty or comment-only text loads as an empty document (root == NULL) to
 * which keys can be added.
 */
struct doc *doc_load(const char *name, const char *buf, size_t len, struct diag_list *diags);
/* The same, keeping buf (malloc'd, len + 1 bytes) as the document's text,
 * or freeing it when the text cannot be loaded. */
struct doc *doc_load_owned(const char *name, char *buf, size_t len, struct diag_list *diags);
/* Same, from a file (uses file_read: refuses directories, FIFOs, huge files). */
struct doc *doc_load_file(const char *path, struct diag_list *diags);
/* doc_load_file in two steps: the file's bytes (malloc'd, len + 1, for
 * doc_load_owned) or NULL with its error in diags; and the name it gives
 * the document, path's last part. */
char *doc_file_read(const char *path, size_t *len, struct diag_list *diags);
const char *doc_file_name(const char *path);
void doc_free(struct doc *d);
/* The typed tree doc_json would give for a text doc_load reads without a
 * word (no warning, no error), built without the node index; NULL when only
 * doc_load can tell (model/doc_fast_json.c says which texts those are).
 * For `validate`, which needs the index only to say where a problem is. */
json_t *doc_fast_json(const char *buf, size_t len);
/* Take tree (a reference is taken) as what doc_json gives for d's current
 * text, instead of building it: for doc_fast_json's tree of that text. */
void doc_adopt_json(struct doc *d, json_t *tree);

const char *doc_name(const struct doc *d);
const char *doc_text(const struct doc *d, size_t *len); /* current bytes */
int doc_dirty(const struct doc *d);            /* differs from the loaded text */
unsigned long doc_generation(const struct doc *d); /* changes on every edit/undo/redo */
/* When the current generation differs from the one before only in the value
 * of one scalar (an edit checked on its line: every other node is the same,
 * at the same address), that scalar; NULL after any other change.  Lets a
 * view that reads values as it draws keep what it built from the tree. */
const struct doc_node *doc_value_edit(const struct doc *d);

/* What reading the current text found that PyYAML or ruamel would object to
 * (tabs, duplicate keys, non-string keys): doc_load's warnings, kept up to date
 * by every edit, undo and redo.  Owned by the doc. */
const struct diag_list *doc_lint(const struct doc *d);

/* Tree access. */
const struct doc_node *doc_root(const struct doc *d); /* NULL for an empty document */
const struct doc_node *doc_lookup(const struct doc *d, const struct path *p);
enum doc_kind doc_node_kind(const struct doc_node *n);
size_t doc_node_count(const struct doc_node *n);                /* items or key/value pairs */
const struct doc_node *doc_node_child(const struct doc_node *n, size_t i); /* item or value */
const struct doc_node *doc_node_key(const struct doc_node *n, size_t i);   /* maps: the key node */
const char *doc_node_text(const struct doc_node *n); /* scalars: decoded text; aliases: name */
enum scalar_style doc_node_style(const struct doc_node *n);
int doc_node_flow(const struct doc_node *n);          /* written in flow style */
int doc_node_line(const struct doc_node *n);          /* 1-based, of the value itself */
int doc_node_col(const struct doc_node *n);           /* 1-based, in characters */
size_t doc_node_start(const struct doc_node *n);      /* byte offset of the value */
size_t doc_node_end(const struct doc_node *n);        /* byte offset after its content */
const char *doc_node_anchor(const struct doc_node *n); /* NULL when not anchored */
/* The text of the key whose value n is; NULL for the root, list items and
 * keys that are not scalars. */
const char *doc_node_key_text(const struct doc_node *n);

/* The typed value srtctl sees (PyYAML semantics; merge keys applied; aliases
 * expanded, with a bound on total size so an alias bomb fails instead of
 * eating memory: then NULL).  doc_json() is cached per generation. */
json_t *doc_node_json(const struct doc *d, const struct doc_node *n);
json_t *doc_json(const struct doc *d);

/* Locate a path for a diagnostic: the node itself, else the nearest ancestor
 * that exists.  Returns 1 when the exact node exists, 0 for an ancestor,
 * -1 when nothing could be located (line = col = 0). */
int doc_locate(const struct doc *d, const struct path *p, int *line, int *col);
/* Fill line/col of every diagnostic that has a path but no position. */
void doc_locate_diags(const struct doc *d, struct diag_list *l);

/* Read: scalars as their text; collections as YAML (the original text, dedented)
 * or JSON (json != 0, Python json.dumps layout with indent 2).  The output
 * ends with a newline.  A key inherited through `<<: *anchor` is read from
 * the typed view. */
int doc_get(const struct doc *d, const struct path *p, int json, struct strbuf *out, char **err);

/* For a path that does not exist: the same path with its first missing key
 * (or [name]) replaced by the closest one that exists there, for a "did you
 * mean" hint.  malloc'd; NULL when nothing is close or the path exists. */
char *doc_suggest_path(const struct doc *d, const struct path *p);

/*
 * Edits.  Each returns 0 on success, or -1 with *err set (malloc'd) and the
 * document untouched.  On success *warn (if warn != NULL) may be set to a
 * malloc'd warning, e.g. "'x' is anchored as &defs: every alias sees this change".
 *
 * doc_set: set the node at p to value (any JSON: scalars keep the old quote
 *   style when the value fits it; collections are written in flow style where a
 *   scalar was, or replace a block collection).  Missing mapping keys along p
 *   are created (block style, indented like their siblings).  Setting a value
 *   equal to the current one changes nothing.
 * doc_set_block: like doc_set for a collection, written in block style.
 * doc_delete: remove a key (with its own comment lines) or a list item; the
 *   last entry leaves {} or [].
 * doc_insert: insert value into the list at p before position index
 *   (index == count appends).  Creates the list when p does not exist.
 * doc_rename_key: change the key at p to new_key, keeping its value.
 * doc_move_item: move list item p (index) to position to (for reordering).
 */
int doc_set(struct doc *d, const struct path *p, const json_t *value, char **err, char **warn);
int doc_set_block(struct doc *d, const struct path *p, const json_t *value, char **err, char **warn);
int doc_delete(struct doc *d, const struct path *p, char **err, char **warn);
int doc_insert(struct doc *d, const struct path *p, size_t index, const json_t *value,
	       char **err, char **warn);
int doc_rename_key(struct doc *d, const struct path *p, const char *new_key, char **err);
int doc_move_item(struct doc *d, const struct path *p, size_t to, char **err);
/* Replace the whole text (e.g. after $EDITOR); refused if it does not load.
 * Goes on the undo stack like any other edit. */
int doc_replace_text(struct doc *d, const char *buf, size_t len, char **err);

/*
 * Transactions: one user action is one transaction.  doc_begin ... doc_commit
 * groups every edit between them into one undo entry (one `u` undoes the
 * whole action); doc_abort returns the document to the text it had at
 * doc_begin, as if nothing happened.  They nest: only the outermost commit
 * makes the entry, and an inner abort rolls back the whole action.  Each edit
 * inside is still checked as it is made (a refused edit changes nothing);
 * callers derive state (validation, previews) after the commit, so nothing
 * in between is shown or saved.  Undo and redo are refused while one is open.
 * doc_commit returns -1 when no transaction is open.
 */
void doc_begin(struct doc *d);
int doc_commit(struct doc *d);
void doc_abort(struct doc *d);
int doc_in_transaction(const struct doc *d);

int doc_can_undo(const struct doc *d);
int doc_can_redo(const struct doc *d);
int doc_undo(struct doc *d); /* 0 on success, -1 when there is nothing to undo */
int doc_redo(struct doc *d);
/* Bytes the undo history holds (its patches): for tests and the bench. */
size_t doc_undo_bytes(const struct doc *d);
/* Forget the "loaded text" baseline: what doc_dirty compares against (after save). */
void doc_mark_saved(struct doc *d);

#endif
