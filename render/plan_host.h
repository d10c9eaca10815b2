/*
 * plan_host.h — the launch plan's host_setup steps: the recipe's
 * host_setup.commands run on each node's bare host before anything else,
 * and host_setup.teardown after the workers stop (srtctl d9d9b89 and
 * 01aebde, cli/do_sweep.py _run_host_setup / _run_host_teardown).
 */
#ifndef SRT_PLAN_HOST_H
#define SRT_PLAN_HOST_H

#include <jansson.h>
#include <stddef.h>

#include "model/recipe.h"
#include "render/topology.h"

/* The phase's commands (host_setup.commands for "setup", .teardown for
 * "teardown"), borrowed; NULL when the phase runs nothing.  Teardown runs
 * only once setup ran, and setup "runs" whenever either list is set. */
json_t *host_phase_commands(const struct recipe *r, const char *phase);

/* Nodes the steps run on, in allocation order, deduplicated: the compute
 * nodes, after the head and infra nodes when host_setup.nodes is "all"
 * (the default).  out has room for t->nnodes entries; returns the count. */
size_t host_setup_nodes(const struct topology *t, const struct recipe *r, size_t *out);

/* The step's command: bash -c with the commands joined by " && ", as one
 * shell-quoted line (malloc'd). */
char *host_setup_command(json_t *cmds);

#endif
