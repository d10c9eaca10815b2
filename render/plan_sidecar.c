/*
 * plan_sidecar.c — see plan_sidecar.h.  The script's text is srtctl's
 * (backends/sidecar.py build_sidecar_launch_script, as the c285a29 launch
 * snapshots of features/sglang-sidecar-multinode-* print it, ending in a
 * blank line); the relay rule is backends/sglang.py at c285a29.
 */
#include "render/plan_sidecar.h"

#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/shell.h"

int sidecar_mode(const struct recipe *r)
{
	int on = 0, off = 0;
	if (jget_bool(jget_obj(r->root, "dynamo"), "sidecar", 0))
		return 1;
	for (int k = 0; k < ROLE_COUNT; k++) {
		if (!r->role[k].present)
			continue;
		if (jget_bool(r->role[k].cfg, "sidecar", 0))
			on++;
		else
			off++;
	}
	return on ? (off ? -1 : 1) : 0;
}

int sidecar_grpc_port(const struct recipe *r, int ordinal)
{
	return jget_int(jget_obj(r->root, "dynamo"), "sidecar_port", 50051) + ordinal;
}

/* SGLang's long or short parallel-size spelling (either with _), the last
 * in sorted key order winning as srtctl reads it; 1 when absent. */
static long parallel_size(json_t *args, const char *lng, const char *shrt)
{
	size_t n;
	const char **keys = json_sorted_keys(args, &n);
	long v = 1;
	for (size_t i = 0; i < n; i++) {
		char k[64];
		size_t j;
		for (j = 0; keys[i][j] && j < sizeof(k) - 1; j++)
			k[j] = keys[i][j] == '_' ? '-' : keys[i][j];
		k[j] = '\0';
		json_t *e = json_object_get(args, keys[i]);
		if ((!strcmp(k, lng) || !strcmp(k, shrt)) && json_is_integer(e))
			v = (long)json_integer_value(e);
	}
	free(keys);
	return v;
}

int sidecar_sglang_relay(const struct role *ro, int nnodes, int node_rank)
{
	json_t *kv = json_object_get(ro->cfg, "kv_events");
	long tp, dp, pp, per_pp, local;
	if (node_rank == 0 || !kv || json_is_false(kv) || json_is_null(kv))
		return 0;
	if (json_is_object(kv)) {
		const char *pub = jget_str(kv, "publisher");
		if (!json_object_size(kv) || (pub && strcmp(pub, "zmq")))
			return 0;
	}
	if (!jget_bool(ro->args, "enable-dp-attention", 0) && !jget_bool(ro->args, "enable_dp_attention", 0))
		return 0; /* only the first node's scheduler publishes */
	tp = parallel_size(ro->args, "tensor-parallel-size", "tp-size");
	dp = parallel_size(ro->args, "data-parallel-size", "dp-size");
	pp = parallel_size(ro->args, "pipeline-parallel-size", "pp-size");
	per_pp = pp > 0 && nnodes / pp > 1 ? nnodes / pp : 1;
	if (node_rank >= per_pp || dp < 1 || tp % per_pp || tp % dp)
		return 0;
	local = tp / per_pp;
	/* the first rank of each attention-DP group publishes */
	for (long rank = 0; rank < tp; rank += tp / dp)
		if (node_rank * local <= rank && rank < (node_rank + 1) * local)
			return 1;
	return 0;
}

static void join(struct strbuf *sb, const struct strvec *v)
{
	for (size_t i = 0; i < v->n; i++) {
		if (i)
			strbuf_addch(sb, ' ');
		shell_quote(sb, v->v[i]);
	}
}

void sidecar_launch_argv(const struct recipe *r, const struct strvec *engine,
			 const struct strvec *sidecar, int grpc_port, const char *engine_name,
			 struct strvec *argv)
{
	int timeout = jget_int(jget_obj(r->root, "dynamo"), "sidecar_startup_timeout", 3600);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb,
		"set -euo pipefail\n"
		"ENGINE_PID=\n"
		"SIDECAR_PID=\n"
		"request_stop() {\n"
		"    local pid=\"${1:-}\"\n"
		"    if [[ -n \"${pid}\" ]] && kill -0 \"${pid}\" 2>/dev/null; then\n"
		"        kill \"${pid}\" 2>/dev/null || true\n"
		"    fi\n"
		"}\n"
		"reap_with_timeout() {\n"
		"    local pid=\"${1:-}\"\n"
		"    if [[ -z \"${pid}\" ]]; then return; fi\n"
		"    for _ in $(seq 1 10); do\n"
		"        if ! kill -0 \"${pid}\" 2>/dev/null; then break; fi\n"
		"        sleep 1\n"
		"    done\n"
		"    if kill -0 \"${pid}\" 2>/dev/null; then\n"
		"        kill -KILL \"${pid}\" 2>/dev/null || true\n"
		"    fi\n"
		"    wait \"${pid}\" 2>/dev/null || true\n"
		"}\n"
		"cleanup() {\n"
		"    status=$?\n"
		"    trap - EXIT INT TERM\n"
		"    request_stop \"${SIDECAR_PID}\"\n"
		"    request_stop \"${ENGINE_PID}\"\n"
		"    reap_with_timeout \"${SIDECAR_PID}\"\n"
		"    reap_with_timeout \"${ENGINE_PID}\"\n"
		"    exit \"${status}\"\n"
		"}\n"
		"trap cleanup EXIT INT TERM\n");
	join(&sb, engine);
	strbuf_addstr(&sb, " &\nENGINE_PID=$!\nport_ready=0\n");
	strbuf_addf(&sb, "for _ in $(seq 1 %d); do\n", timeout);
	strbuf_addstr(&sb, "    if ! kill -0 \"${ENGINE_PID}\" 2>/dev/null; then\n");
	strbuf_addf(&sb, "        echo \"%s exited before native gRPC became ready\" >&2\n", engine_name);
	strbuf_addstr(&sb, "        exit 1\n    fi\n");
	strbuf_addf(&sb, "    if (exec 3<>/dev/tcp/127.0.0.1/%d) 2>/dev/null; then\n", grpc_port);
	strbuf_addstr(&sb, "        exec 3>&-\n        port_ready=1\n        break\n    fi\n    sleep 1\ndone\n"
			   "if [[ \"${port_ready}\" != 1 ]]; then\n");
	strbuf_addf(&sb, "    echo \"Timed out waiting for %s native gRPC on port %d\" >&2\n", engine_name,
		    grpc_port);
	strbuf_addstr(&sb, "    exit 1\nfi\n");
	join(&sb, sidecar);
	strbuf_addstr(&sb, " &\nSIDECAR_PID=$!\nset +e\nwait -n \"${ENGINE_PID}\" \"${SIDECAR_PID}\"\n"
			   "status=$?\nset -e\nif [[ \"${status}\" == 0 ]]; then status=1; fi\n"
			   "exit \"${status}\"\n\n");
	strvec_push(argv, "bash");
	strvec_push(argv, "-lc");
	strvec_push(argv, sb_str(&sb));
	strbuf_release(&sb);
}
