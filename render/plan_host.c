/*
 * plan_host.c — see plan_host.h.  srtctl's rules (cli/do_sweep.py at
 * d9d9b89, unchanged at 01aebde): HostSetupConfig.enabled is "commands or
 * teardown" (core/schema.py); _host_setup_nodes is runtime.nodes.compute,
 * with [head, infra] in front for nodes: all, deduplicated in order; each
 * node gets one srun of ["bash", "-c", " && ".join(commands)] with no
 * container (so no mounts and no env of the job's), its output
 * logs/host_<phase>_<node>.out at the root of the log folder.
 */
#include "render/plan_host.h"

#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/shell.h"
#include "lib/util.h"

json_t *host_phase_commands(const struct recipe *r, const char *phase)
{
	json_t *hs = jget_obj(r->root, "host_setup");
	json_t *cmds = jget_arr(hs, "commands"), *down = jget_arr(hs, "teardown");
	json_t *mine = !strcmp(phase, "setup") ? cmds : down;
	/* a teardown-only block still arms teardown (setup "ran", empty) */
	return json_array_size(mine) ? mine : NULL;
}

static void add_once(size_t *v, size_t *n, size_t node)
{
	for (size_t i = 0; i < *n; i++)
		if (v[i] == node)
			return;
	v[(*n)++] = node;
}

size_t host_setup_nodes(const struct topology *t, const struct recipe *r, size_t *out)
{
	const char *which = jget_str(jget_obj(r->root, "host_setup"), "nodes");
	size_t n = 0;
	if (!which || !strcmp(which, "all")) {
		add_once(out, &n, t->head);
		add_once(out, &n, t->infra);
	}
	/* the compute nodes: the engine's nodes and every service pool (the
	 * same set as a service's placement "compute") */
	for (size_t i = 0; i < t->nworker; i++)
		add_once(out, &n, t->worker_first + i);
	for (size_t k = 0; k < t->npool; k++)
		for (size_t i = 0; i < t->pool[k].count; i++)
			add_once(out, &n, t->pool[k].first + i);
	return n;
}

char *host_setup_command(json_t *cmds)
{
	struct strbuf script = STRBUF_INIT, line = STRBUF_INIT;
	char *argv[3];
	size_t i;
	json_t *c;
	json_array_foreach(cmds, i, c) {
		char *s = py_str_dup(c);
		if (i)
			strbuf_addstr(&script, " && ");
		strbuf_addstr(&script, s);
		free(s);
	}
	argv[0] = "bash";
	argv[1] = "-c";
	argv[2] = (char *)sb_str(&script);
	shell_join(&line, argv, 3);
	strbuf_release(&script);
	return strbuf_detach(&line, NULL);
}
