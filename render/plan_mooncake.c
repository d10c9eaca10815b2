/*
 * plan_mooncake.c — srtctl's TRT-LLM Mooncake pool in the launch plan (see
 * plan_mooncake.h).  The rules are srtctl's at 17c4ece: the master's command,
 * env, preamble and `mpi: none` (services/mooncake_master.py), the donor's
 * (services/mooncake_donor.py), the workers' env and run dir
 * (backends/trtllm.py get_mooncake_worker_env / get_environment_for_mode,
 * cli/mixins/worker_stage.py start_endpoint_worker).
 */
#include "render/plan_mooncake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/shell.h"
#include "model/kinds.h"

static const struct trtllm_pool *const P = &trtllm_pool;

int pool_role_provisions(const struct role *ro)
{
	json_t *kc = jget_obj(ro->args, "kv_connector_config");
	json_t *ms = json_object_get(kc, "mooncake_store");
	return ms && !json_is_null(ms);
}

static int pool_vocabulary(const struct recipe *r, const struct service *master)
{
	json_t *opts = jget_obj(service_config(master), "options");
	for (size_t i = 0; P->master_options[i]; i++)
		if (json_object_get(opts, P->master_options[i]))
			return 1;
	for (size_t i = 0; i < r->nsvc; i++)
		if (svc_kind_is(r->svc[i].type, KIND_MOONCAKE_DONOR))
			return 1;
	for (int k = 0; k < ROLE_COUNT; k++)
		if (r->role[k].present && pool_role_provisions(&r->role[k]))
			return 1;
	return 0;
}

const struct service *pool_master(const struct recipe *r, const char *engine)
{
	if (!engine || strcmp(engine, "trtllm"))
		return NULL;
	for (size_t i = 0; i < r->nsvc; i++)
		if (svc_kind_is(r->svc[i].type, KIND_MOONCAKE_MASTER))
			return pool_vocabulary(r, &r->svc[i]) ? &r->svc[i] : NULL;
	return NULL;
}

/* str() of options[key] of the master, or dflt; malloc'd. */
static char *master_option(const struct service *master, const char *key, const char *dflt)
{
	json_t *v = json_object_get(jget_obj(service_config(master), "options"), key);
	return v && !json_is_null(v) ? py_str_dup(v) : xstrdup(dflt);
}

static char *master_timeout(const struct service *master)
{
	char d[24];
	snprintf(d, sizeof(d), "%d", P->dflt_master_timeout_s);
	return master_option(master, "master_timeout_s", d);
}

void pool_worker_env(const struct service *master, enum role_id role, struct envmap *env)
{
	char *t = master_timeout(master);
	envmap_set(env, "TRTLLM_MOONCAKE_MASTER_TIMEOUT", t);
	free(t);
	if (role == ROLE_PREFILL) {
		char *sr = master_option(master, "store_role", P->dflt_store_role);
		envmap_set(env, "TRTLLM_MOONCAKE_STORE_ROLE", sr);
		free(sr);
	}
}

char *pool_worker_preamble(enum role_id role, int index, const char *preamble)
{
	return xasprintf("export TRTLLM_MOONCAKE_RUN_DIR=\"%s/%s-%d\"; mkdir -p \"$TRTLLM_MOONCAKE_RUN_DIR\"%s%s",
			 P->run_dir, role_names[role], index, preamble && *preamble ? " && " : "",
			 preamble ? preamble : "");
}

/* Set key unless the service's own env sets it (the kind's env comes before
 * the recipe's in srtctl's _service_environment). */
static void kind_env(struct envmap *env, const struct service *sv, const char *key, const char *val)
{
	if (!json_object_get(jget_obj(service_config(sv), "env"), key))
		envmap_set(env, key, val);
}

static void push_word(struct strbuf *sb, const char *w)
{
	if (sb->len)
		strbuf_addch(sb, ' ');
	shell_quote(sb, w);
}

static void push_args(struct strbuf *sb, const struct service *sv)
{
	size_t i;
	json_t *e;
	json_array_foreach(jget_arr(service_config(sv), "args"), i, e) {
		char *w = py_str_dup(e);
		push_word(sb, w);
		free(w);
	}
}

int pool_service(const struct service *master, const struct service *sv, const char *node,
		 char **command, char **preamble, struct envmap *env)
{
	json_t *cfg = service_config(sv);
	struct strbuf cmd = STRBUF_INIT;
	char *dir, *t;
	int donor = svc_kind_is(sv->type, KIND_MOONCAKE_DONOR);

	if (!master || (!donor && sv != master))
		return 0;
	dir = donor ? xasprintf("%s/donor-%s", P->run_dir, node) : xasprintf("%s/master", P->run_dir);
	*preamble = xasprintf("mkdir -p %s && for var in $(env | grep -oE '^(%s)[A-Za-z0-9_]*=' | tr -d =); "
			      "do unset \"$var\"; done", dir, P->mpi_prefixes);
	kind_env(env, sv, "TRTLLM_MOONCAKE_RUN_DIR", dir);
	t = master_timeout(master);
	kind_env(env, sv, "TRTLLM_MOONCAKE_MASTER_TIMEOUT", t);
	free(t);
	if (donor)
		kind_env(env, sv, "TLLM_LOG_LEVEL", P->donor_log_level);

	if (jget_arr(cfg, "command")) {
		*command = NULL; /* the recipe's own command, built as for any service */
	} else if (donor) {
		json_t *opts = jget_obj(cfg, "options");
		json_t *size = json_object_get(opts, "size");
		const char *proto = jget_str(opts, "protocol");
		for (size_t i = 0; sv->kind->command[i]; i++)
			push_word(&cmd, sv->kind->command[i]);
		push_word(&cmd, "--master_server_address");
		push_word(&cmd, P->address_url);
		push_word(&cmd, "--segment_size");
		t = size ? py_str_dup(size) : xstrdup("None");
		push_word(&cmd, t);
		free(t);
		push_word(&cmd, "--protocol");
		push_word(&cmd, proto ? proto : P->dflt_protocol);
		push_word(&cmd, "--ready_file");
		t = xasprintf("%s/donor-%s.ready", P->run_dir, node);
		push_word(&cmd, t);
		free(t);
		*command = strbuf_detach(&cmd, NULL);
	} else {
		for (size_t i = 0; P->master_argv[i]; i++)
			push_word(&cmd, P->master_argv[i]);
		t = master_option(master, "eviction_ratio", P->dflt_eviction_ratio);
		push_word(&cmd, t);
		free(t);
		push_word(&cmd, "--address_file");
		push_word(&cmd, P->address_file);
		push_args(&cmd, sv);
		*command = strbuf_detach(&cmd, NULL);
	}
	free(dir);
	return 1;
}
