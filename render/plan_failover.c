/*
 * plan_failover.c — vLLM shadow engine recovery in the launch plan (see
 * plan_failover.h).  The rules are srtctl's: backends/vllm.py at 009a4fa
 * (VLLMFailoverConfig, failover_worker_dir, get_failover_environment,
 * _failover_flags), services/gms.py at 594f6aa (build_gms_sidecar_command,
 * the kind's defaults), core/topology.py (endpoints_to_processes with
 * engines_per_process) and tests/test_failover.py (the worker stage: the
 * directory made in the preamble, "_e<k>" step and log names, the config
 * dump per engine, no mask on a worker owning its node).  The launch
 * snapshot of features/vllm-failover (ce99ed2) agrees with all of it.
 */
#include "render/plan_failover.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/shell.h"
#include "model/facts.h"
#include "model/kinds.h"
#include "model/schema.h"
#include "render/plan_sidecar.h"

/* vLLM's --load-format that reads weights from the GPU memory service */
#define FAILOVER_LOAD_FORMAT "gms" /* kinds-ok: a vLLM load format */

/* torch.distributed's store of a multi-node engine: each engine of a worker
 * is its own job (srtctl's ports.py VLLM_MASTER_PORT_BASE / _STRIDE, as
 * docs/shadow-engine-recovery.md gives them: 29500 + 100 * ENGINE_ID). */
enum { FAILOVER_MASTER_PORT_BASE = 29500, FAILOVER_MASTER_PORT_STRIDE = 100 };

/* GMS binds a weights and a kv_cache socket per device (gms.py). */
enum { GMS_SOCKETS_PER_DEVICE = 2 };

const char *const failover_skip_vllm[] = { "connector", "load-format", "load_format",
					    "gms-shadow-mode", "gms_shadow_mode", "master-port",
					    "master_port", NULL };

static json_t *failover_cfg(const struct recipe *r, enum role_id role)
{
	const struct role *ro = &r->role[role];
	return json_object_get(ro->engine_cfg ? ro->engine_cfg : r->engine_cfg, "failover");
}

int failover_on(const struct recipe *r, enum role_id role)
{
	return facts_engines_per_process(r, role) > 1;
}

/* The recipe's value of a role arg spelled with - or _. */
static json_t *role_arg(json_t *args, const char *dash, const char *under)
{
	json_t *v = json_object_get(args, dash);
	return v ? v : json_object_get(args, under);
}

const char *failover_refusal(const struct recipe *r, enum role_id role)
{
	const struct role *ro = &r->role[role];
	json_t *fo = failover_cfg(r, role), *v;
	const char *dir;
	if (!ro->present || !ro->engine || strcmp(ro->engine, "vllm") || !json_is_object(fo))
		return NULL;
	if (strcmp(r->frontend, "dynamo"))
		return "engine.failover requires frontend.type: dynamo (srtctl refuses it)";
	if (jget_int(fo, "shadow_engines", 1) < 1)
		return "engine.failover.shadow_engines must be at least 1 (srtctl refuses it)";
	dir = jget_str(fo, "shared_dir");
	if (dir && (dir[0] != '/' || !strcmp(dir, "/")))
		return "engine.failover.shared_dir must be an absolute directory below / (srtctl refuses it)";
	if (sidecar_mode(r))
		return "engine.failover cannot run with Dynamo sidecars (srtctl refuses it)";
	v = role_arg(ro->args, "data-parallel-size", "data_parallel_size");
	if ((json_is_integer(v) && json_integer_value(v) > 1) ||
	    (json_is_string(v) && strtol(json_string_value(v), NULL, 10) > 1))
		return "engine.failover does not support data-parallel-size (srtctl refuses it)";
	v = role_arg(ro->args, "load-format", "load_format");
	/* vLLM's load format of that name, not the service kind */
	if (v && !(json_is_string(v) && !strcmp(json_string_value(v), FAILOVER_LOAD_FORMAT)))
		return "under engine.failover the roles' load-format must be gms or unset (srtctl refuses it)";
	return NULL;
}

/* The directory with the worker index as written (a number, or a
 * placeholder in the previews). */
static char *worker_dir(const struct recipe *r, enum role_id role, const char *index,
			const char *job_id)
{
	json_t *fo = failover_cfg(r, role);
	const char *dir = jget_str(fo, "shared_dir");
	json_t *dflt = NULL;
	size_t len;
	char *out;
	if (!dir) {
		dflt = schema_default_json("engine.failover.shared_dir", NULL);
		dir = json_is_string(dflt) ? json_string_value(dflt) : "/dev/shm";
	}
	len = strlen(dir);
	while (len && dir[len - 1] == '/')
		len--;
	out = xasprintf("%.*s/srtctl-%s/%s_%s", (int)len, dir, job_id, role_names[role], index);
	json_decref(dflt);
	return out;
}

char *failover_worker_dir(const struct recipe *r, enum role_id role, int index, const char *job_id)
{
	char num[24];
	snprintf(num, sizeof(num), "%d", index);
	return worker_dir(r, role, num, job_id);
}

void failover_engine_env(struct envmap *env, const char *dir, int engine)
{
	char *lock = xasprintf("%s/failover.lock", dir);
	envmap_set_int(env, "ENGINE_ID", engine);
	envmap_set(env, "GMS_SOCKET_DIR", dir);
	envmap_set(env, "FAILOVER_LOCK_PATH", lock);
	envmap_set(env, "DYN_VLLM_GMS_SHADOW_MODE", "true");
	/* /health says notready until the engine holds the lock */
	envmap_set(env, "DYN_SYSTEM_STARTING_HEALTH_STATUS", "notready");
	free(lock);
}

void failover_engine_flags(struct strvec *argv, json_t *args, int engine, int multi_node)
{
	strvec_push(argv, "--load-format");
	strvec_push(argv, FAILOVER_LOAD_FORMAT);
	strvec_push(argv, "--gms-shadow-mode");
	if (multi_node) {
		json_t *mp = role_arg(args, "master-port", "master_port");
		long base = FAILOVER_MASTER_PORT_BASE;
		if (json_is_integer(mp))
			base = (long)json_integer_value(mp);
		else if (json_is_string(mp))
			base = strtol(json_string_value(mp), NULL, 10);
		strvec_push(argv, "--master-port");
		strvec_pushf(argv, "%ld", base + (long)engine * FAILOVER_MASTER_PORT_STRIDE);
	}
}

char *failover_preamble(const char *worker_pre, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	if (worker_pre && *worker_pre) {
		strbuf_addstr(&sb, worker_pre);
		strbuf_addstr(&sb, " && ");
	}
	strbuf_addstr(&sb, "mkdir -p ");
	shell_quote(&sb, dir);
	return strbuf_detach(&sb, NULL);
}

char *failover_gms_command(const char *dir, int ngpus, int timeout)
{
	int want = GMS_SOCKETS_PER_DEVICE * ngpus;
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
	char *argv[3];

	strbuf_addstr(&sb, "set -u\ndir=");
	shell_quote(&sb, dir);
	strbuf_addstr(&sb, "\nmkdir -p \"$dir\" && rm -f \"$dir\"/gms_*.sock || exit 1\n"
			   "export GMS_SOCKET_DIR=\"$dir\"\npids=()\n");
	strbuf_addf(&sb, "for device in $(seq 0 %d); do\n", ngpus - 1);
	strbuf_addstr(&sb, "    python3 -m gpu_memory_service --device \"$device\" &\n    pids+=($!)\ndone\n"
			   "stopping=0\n"
			   "stop() { stopping=1; kill -TERM \"${pids[@]}\" 2>/dev/null; }\n"
			   "trap stop TERM INT\ncount=0\n");
	strbuf_addf(&sb, "for _ in $(seq 1 %d); do\n", timeout);
	strbuf_addstr(&sb, "    for pid in \"${pids[@]}\"; do\n"
			   "        if ! kill -0 \"$pid\" 2>/dev/null; then\n"
			   "            echo \"GMS server pid $pid exited during startup\" >&2\n"
			   "            stop; wait; exit 1\n"
			   "        fi\n"
			   "    done\n"
			   "    count=$(ls \"$dir\"/gms_*.sock 2>/dev/null | wc -l)\n");
	strbuf_addf(&sb, "    if [ \"$count\" -ge %d ]; then break; fi\n    sleep 1\ndone\n", want);
	strbuf_addf(&sb, "if [ \"$count\" -lt %d ]; then\n", want);
	strbuf_addf(&sb, "    echo \"GMS startup timed out: $count of %d sockets in $dir after %ds\" >&2\n",
		    want, timeout);
	strbuf_addstr(&sb, "    stop; wait; exit 1\nfi\n");
	strbuf_addf(&sb, "echo \"GMS ready: %d device(s), $count sockets in $dir\"\n", ngpus);
	strbuf_addstr(&sb, "wait -n \"${pids[@]}\"\nrc=$?\n"
			   "if [ \"$stopping\" = 1 ]; then\n    wait\n    rm -rf -- \"$dir\"\n    exit 0\nfi\n"
			   "echo \"GMS server exited (code=$rc); stopping the rest\" >&2\n"
			   "stop; wait\nif [ \"$rc\" = 0 ]; then rc=1; fi\nexit \"$rc\"\n");
	argv[0] = "bash";
	argv[1] = "-c";
	argv[2] = sb.buf;
	shell_join(&out, argv, 3);
	strbuf_release(&sb);
	return strbuf_detach(&out, NULL);
}

int failover_gms_timeout(const struct service *sv)
{
	json_t *rd = jget_obj(service_config(sv), "readiness");
	int dflt = sv->kind ? sv->kind->ready_timeout : svc_kinds[KIND_GMS].ready_timeout;
	return jget_int(rd, "timeout_seconds", dflt);
}

void failover_workers_note(struct strbuf *out, const struct recipe *r, enum role_id role,
			   enum workers_layout layout)
{
	int engines = facts_engines_per_process(r, role);
	char *dir;
	if (engines < 2)
		return;
	dir = worker_dir(r, role, "<index>", "<job_id>");
	strbuf_addstr(out, layout == WORKERS_DRYRUN ? "    failover: " : "  failover: ");
	strbuf_addf(out, "%d engines per worker (steps %s_<index>_<node> and _e1", engines, role_names[role]);
	if (engines > 2)
		strbuf_addf(out, " .. _e%d", engines - 1);
	strbuf_addf(out, "), --load-format gms --gms-shadow-mode, GMS sockets and failover.lock in "
			 "%s/, weights in a gms service per worker\n", dir);
	free(dir);
}
