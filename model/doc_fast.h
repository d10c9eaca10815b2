/*
 * doc_fast.h — the events of a YAML text as libyaml's parser reports them,
 * read without libyaml for the plain block style recipes are written in
 * (doc_fast.c).  Private to model/doc_*.c.
 *
 * doc_fast_events either returns exactly the events, marks and values
 * yaml_parser_parse would give for the text, or gives up (-1) and leaves the
 * text to libyaml: it gives up on anything outside the subset it knows,
 * including every text libyaml would refuse.  tests/unit/test_doc_fast.c
 * holds it to that against libyaml itself.
 */
#ifndef SRT_DOC_FAST_H
#define SRT_DOC_FAST_H

#include <stddef.h>

/* A libyaml mark: characters (not bytes) from the start, line and column
 * 0-based. */
struct doc_mark {
	size_t index;
	int line, col;
};

/* One event, with the fields of yaml_event_t the index reads.  type is a
 * yaml_event_type_t; style a yaml_scalar_style_t for scalars and a
 * yaml_sequence_style_t / yaml_mapping_style_t for collections. */
struct doc_event {
	int type;
	int style;
	struct doc_mark start, end;
	const char *value; /* scalars: the decoded text (not NUL-terminated); aliases: the anchor name */
	size_t len;
	const char *anchor, *tag; /* NUL-terminated; NULL when absent */
};

struct doc_events {
	struct doc_event *v;
	size_t n, alloc;
	char *text; /* decoded scalar texts the events point into */
};

/* Gives each event of buf to fn in turn (its value valid during the call
 * only); fn returns 0 to go on, else the scan stops and returns what fn
 * returned.  0 when every event was given; -1 when buf is outside the
 * subset, found at some point of the scan: the events fn saw are then not
 * to be used (the last may differ from libyaml's). */
typedef int (*doc_event_fn)(void *ctx, const struct doc_event *e);
int doc_fast_scan(const char *buf, size_t len, doc_event_fn fn, void *ctx);

/* 0 with every event of buf in out (release with doc_events_release), or -1
 * when buf is outside the subset (out is then empty). */
int doc_fast_events(const char *buf, size_t len, struct doc_events *out);
void doc_events_release(struct doc_events *ev);

/* doc_events.c: libyaml's side.  e points into y (valid until it is
 * deleted). */
struct yaml_event_s;
void doc_event_from_libyaml(const struct yaml_event_s *y, struct doc_event *e);
/* Every event libyaml gives for buf, with copies of their strings (released
 * with doc_events_release); -1 at a syntax error (out then holds the events
 * before it). */
int doc_libyaml_events(const char *buf, size_t len, struct doc_events *out);
/* Do the two lists say the same?  Returns -1 when they do, else the index of
 * the first event that differs (or the length of the shorter list). */
long doc_events_differ(const struct doc_events *a, const struct doc_events *b);

#endif
