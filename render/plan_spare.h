/*
 * plan_spare.h — why the readable plan and srtctl's launch snapshot may put
 * steps on different nodes.  The readable plan (the TUI's Plan tab, render
 * --format plan) runs on the job's own nodes, as a real allocation gives
 * them; the snapshot runs on srtctl's test harness list, which has two
 * spare nodes beyond the job.  srtctl places by the list it is given, so a
 * colocated decode, per-node services and frontend replicas can differ.
 * This compares the two plans step by step and says what differs.
 */
#ifndef SRT_PLAN_SPARE_H
#define SRT_PLAN_SPARE_H

#include <jansson.h>

#include "lib/util.h"

/* own, mock: the steps (plan_steps_json(), or only each step's name and
 * node, which is all this reads) of the job's own nodes and of the harness's
 * list (mock_nodes names, mock_n of them, own_n the job's).  Appends
 * nothing when every step runs on the same nodes in both; else a blank
 * line, a heading line and one line per difference.  Returns how many differences. */
size_t plan_spare_note(struct strbuf *out, json_t *own, json_t *mock, size_t own_n,
		       const char *const *mock_nodes, size_t mock_n);

#endif
