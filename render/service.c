/*
 * service.c — argv, environment and container of a service instance, and the
 * dry-run "Services:" block, as srtctl computes them (spec §4.6, §5.1, §6.2).
 *
 * Placeholders are substituted only for the names srtctl knows, so JSON or
 * shell braces in a command pass through.  With vars == NULL the preview
 * values are used: "<node>", "<infra_ip>", ... for what depends on the
 * allocation, and the fixed values for constants ({master_port} is 8700).
 * Returned json_t are new references; strings in *out are owned by it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "model/kinds.h"
#include "render/service.h"
#include "render/service_ray.h"
#include "lib/shell.h"

/* Indexed by enum service_var. */
static const char *const placeholder_names[SV_COUNT] = {
	"node", "node_ip", "node_id", "index", "role", "head_node", "head_ip",
	"infra_node", "infra_ip", "master_port", "metadata_port", "gpus_per_node",
	"pool_node", "pool_ip", "pool_nodes", "pool_ips", "pool_node_count",
	"worker_role", "worker_index", "worker_node_rank", "worker_gpus",
	"worker_gpu_count",
};

/* enum service_var of the name s[0..n), or -1.  The first letter rules
 * out most names before a compare: plans look up thousands. */
static int placeholder_index(const char *s, size_t n)
{
	for (int i = 0; i < SV_COUNT; i++)
		if (n && placeholder_names[i][0] == s[0] && !strncmp(placeholder_names[i], s, n) &&
		    !placeholder_names[i][n])
			return i;
	return -1;
}

int service_vars_set(struct service_vars *vars, const char *name, const char *value)
{
	int i = placeholder_index(name, strlen(name));
	if (i >= 0)
		vars->v[i] = value;
	return i;
}

/* Append the value of placeholder i; 0 when it is to be left as written. */
static int placeholder_value(struct strbuf *out, const struct recipe *r,
			     const struct service_vars *vars, int i)
{
	if (vars) {
		if (!vars->v[i])
			return 0;
		strbuf_addstr(out, vars->v[i]);
		return 1;
	}
	if (i == SV_MASTER_PORT)
		strbuf_addstr(out, "8700");
	else if (i == SV_METADATA_PORT)
		strbuf_addstr(out, "8701");
	else if (i == SV_GPUS_PER_NODE)
		strbuf_addf(out, "%d", r->gpus_per_node);
	else
		strbuf_addf(out, "<%s>", placeholder_names[i]);
	return 1;
}

/* The first "{name}" in s that srtctl knows (other braces, e.g. JSON, are
 * text): its opening brace, *idx and *close; NULL when there is none. */
static const char *next_placeholder(const char *s, int *idx, const char **close)
{
	for (const char *o = strchr(s, '{'); o; o = strchr(o + 1, '{')) {
		const char *c = strchr(o + 1, '}');
		if (!c)
			return NULL;
		int i = placeholder_index(o + 1, (size_t)(c - o - 1));
		if (i >= 0) {
			*idx = i;
			*close = c;
			return o;
		}
	}
	return NULL;
}

/* Whether placeholder i's value differs between the instances of one
 * service. */
static int var_varies(int i)
{
	switch (i) {
	case SV_NODE: case SV_NODE_IP: case SV_NODE_ID: case SV_INDEX: case SV_POOL_NODE:
	case SV_POOL_IP: case SV_WORKER_ROLE: case SV_WORKER_INDEX: case SV_WORKER_NODE_RANK:
	case SV_WORKER_GPUS: case SV_WORKER_GPU_COUNT:
		return 1;
	}
	return 0;
}

/* service_subst, and *varies set when s names a placeholder whose value
 * differs between instances (varies NULL: not asked). */
static void subst(struct strbuf *out, const struct recipe *r, const struct service_vars *vars,
		  const char *s, int *varies)
{
	const char *open, *close;
	int i;
	while ((open = next_placeholder(s, &i, &close))) {
		strbuf_add(out, s, (size_t)(open - s));
		if (!placeholder_value(out, r, vars, i))
			strbuf_add(out, open, (size_t)(close + 1 - open));
		if (varies && var_varies(i))
			*varies = 1;
		s = close + 1;
	}
	strbuf_addstr(out, s);
}

void service_subst(struct strbuf *out, const struct recipe *r, const struct service_vars *vars,
		   const char *s)
{
	subst(out, r, vars, s, NULL);
}

/* Whether s names a placeholder whose value differs between instances. */
static int text_varies(const char *s)
{
	const char *open, *close;
	int i;
	while ((open = next_placeholder(s, &i, &close))) {
		if (var_varies(i))
			return 1;
		s = close + 1;
	}
	return 0;
}

/* A list element or env value as srtctl sees it: str() of whatever YAML
 * gave.  Strings are returned as they are; others are printed into tmp. */
static const char *value_text(const json_t *v, struct strbuf *tmp)
{
	if (json_is_string(v))
		return json_string_value(v);
	strbuf_reset(tmp);
	py_str(tmp, v);
	return sb_str(tmp);
}

/* Where the words of an argv go: a vector, or shlex.join'ed into a buffer;
 * varies (NULL: not asked) is set when a word of the recipe's can differ
 * between instances. */
struct argv_sink {
	struct strvec *sv;
	struct strbuf *join;
	size_t words;
	struct strbuf scratch, tmp;
	int *varies;
};

static void sink_word(struct argv_sink *k, const char *w)
{
	if (k->sv) {
		strvec_push(k->sv, w);
		return;
	}
	if (k->words++)
		strbuf_addch(k->join, ' ');
	shell_quote(k->join, w);
}

/* w substituted; varies: whether it counts for k->varies. */
static void sink_subst(struct argv_sink *k, const struct recipe *r,
		       const struct service_vars *vars, const char *w, int varies)
{
	if (!strchr(w, '{')) {
		sink_word(k, w);
		return;
	}
	strbuf_reset(&k->scratch);
	subst(&k->scratch, r, vars, w, varies ? k->varies : NULL);
	sink_word(k, sb_str(&k->scratch));
}

/* The words of a recipe list; its strings count for k->varies (what
 * another YAML value prints as is not looked at for placeholders there). */
static void push_list(struct argv_sink *k, const struct recipe *r,
		      const struct service_vars *vars, json_t *list)
{
	size_t i;
	json_t *e;

	json_array_foreach(list, i, e)
		sink_subst(k, r, vars, value_text(e, &k->tmp), json_is_string(e));
}

static int option_int(json_t *cfg, const char *key, int dflt)
{
	return jget_int(jget_obj(cfg, "options"), key, dflt);
}

static void sink_wordf(struct argv_sink *k, const char *fmt, int n)
{
	char buf[64];
	snprintf(buf, sizeof(buf), fmt, n);
	sink_word(k, buf);
}

/* Where NATS's config file goes when options.max_payload_mb asks for one
 * (srtctl's services/infra.py NATS_CONFIG_PATH). */
static const char nats_conf[] = "/tmp/nats.conf";

static json_t *nats_max_payload(json_t *cfg)
{
	json_t *v = json_object_get(jget_obj(cfg, "options"), "max_payload_mb");
	return v && !json_is_null(v) ? v : NULL;
}

/* Exporters build their argv from their options (port, interval), NATS
 * from max_payload_mb. */
static int exporter_argv(const struct service *s, json_t *cfg, struct argv_sink *k)
{
	const char *t = s->type;

	if (svc_kind_is(t, KIND_NATS) && nats_max_payload(cfg)) {
		sink_word(k, s->kind->command[0]);
		sink_word(k, "-c");
		sink_word(k, nats_conf);
		return 1;
	}

	if (svc_kind_is(t, KIND_DCGM_EXPORTER)) {
		sink_word(k, s->kind->command[0]);
		sink_wordf(k, "--collect-interval=%d", option_int(cfg, "collect_interval_ms", 1000));
		sink_word(k, "--address");
		sink_wordf(k, ":%d", option_int(cfg, "port", s->kind->listen_ports[0]));
		return 1;
	}
	if (svc_kind_is(t, KIND_NODE_EXPORTER)) {
		const char *const *c = s->kind->command;
		sink_word(k, c[0]);
		sink_wordf(k, "--web.listen-address=:%d", option_int(cfg, "port", s->kind->listen_ports[0]));
		for (size_t i = 2; c[i]; i++)
			sink_word(k, c[i]);
		return 1;
	}
	if (svc_kind_is(t, KIND_PROCESS_EXPORTER)) {
		const char *const *c = s->kind->command;
		const char *bin = jget_str(jget_obj(cfg, "options"), "binary");
		if (jget_str(cfg, "container")) {
			sink_word(k, "/bin/process-exporter");
			sink_word(k, "-config.path");
			sink_word(k, "/logs/process-exporter.yml");
		} else {
			sink_word(k, bin && *bin ? bin : c[0]);
			sink_word(k, c[1]);
			sink_word(k, c[2]);
		}
		sink_wordf(k, "-web.listen-address=:%d", option_int(cfg, "port", s->kind->listen_ports[0]));
		for (size_t i = 4; c[i]; i++)
			sink_word(k, c[i]);
		return 1;
	}
	return 0;
}

static void emit_argv(struct argv_sink *k, const struct recipe *r, const struct service *s,
		      const struct service_vars *vars)
{
	json_t *cfg = service_config(s);
	json_t *cmd = jget_arr(cfg, "command");

	if (!cmd && svc_kind_is(s->type, KIND_RAY)) {
		/* head or worker line, the args inside it (service_ray.h) */
		struct strvec w = STRVEC_INIT;
		if (k->varies)
			*k->varies = 1; /* the head's line is not the workers' */
		ray_argv(r, s, vars, &w);
		for (size_t i = 0; i < w.n; i++)
			sink_word(k, w.v[i]);
		strvec_release(&w);
		strbuf_release(&k->scratch);
		strbuf_release(&k->tmp);
		return;
	}
	if (cmd) {
		push_list(k, r, vars, cmd);
	} else if (s->kind && s->kind->command) {
		if (!exporter_argv(s, cfg, k))
			for (size_t i = 0; s->kind->command[i]; i++)
				sink_subst(k, r, vars, s->kind->command[i], 1);
		else if (k->varies)
			for (size_t i = 0; s->kind->command[i]; i++)
				*k->varies |= text_varies(s->kind->command[i]);
	}
	push_list(k, r, vars, jget_arr(cfg, "args"));
	strbuf_release(&k->scratch);
	strbuf_release(&k->tmp);
}

void service_argv(const struct recipe *r, const struct service *s,
		  const struct service_vars *vars, struct strvec *out)
{
	struct argv_sink k = { out, NULL, 0, STRBUF_INIT, STRBUF_INIT, NULL };
	emit_argv(&k, r, s, vars);
}

void service_command(struct strbuf *out, const struct recipe *r, const struct service *s,
		     const struct service_vars *vars, int *varies)
{
	struct argv_sink k = { NULL, out, 0, STRBUF_INIT, STRBUF_INIT, varies };
	if (varies)
		*varies = 0;
	emit_argv(&k, r, s, vars);
}

/* `external` of the first enabled declared service called etcd / nats, in
 * one pass over services[] for both (recipes declare hundreds). */
void service_ctx_init(struct service_ctx *c, const struct recipe *r)
{
	const char *names[2] = { KIND_NAME(KIND_ETCD), KIND_NAME(KIND_NATS) };
	const char **ext[2] = { &c->etcd_external, &c->nats_external };
	int seen[2] = { 0, 0 };
	json_t *list = jget_arr(r->root, "services");
	size_t i;
	json_t *e;

	c->etcd_external = c->nats_external = NULL;
	json_array_foreach(list, i, e) {
		const char *n = jget_str(e, "name");
		for (int k = 0; n && k < 2; k++) {
			if (seen[k] || strcmp(n, names[k]) || !jget_bool(e, "enabled", 1))
				continue;
			seen[k] = 1;
			const char *x = jget_str(e, "external");
			*ext[k] = x && *x ? x : NULL;
		}
		if (seen[0] && seen[1])
			break;
	}
}

json_t *service_env(const struct recipe *r, const struct service *s,
		    const struct service_vars *vars)
{
	struct service_ctx c;
	service_ctx_init(&c, r);
	return service_env_ctx(r, s, vars, &c);
}

typedef void env_put_fn(void *dst, const char *key, const char *val, size_t len);

/* "<scheme><infra ip><port>", or the declared external address.  Every
 * instance of a plan has one: the text is put together on the stack. */
static void discovery_put(env_put_fn *put, void *dst, const char *key, const char *external,
			  const char *scheme, const char *ip, const char *port)
{
	char buf[256];
	size_t ls, li, lp;
	if (external) {
		put(dst, key, external, strlen(external));
		return;
	}
	ls = strlen(scheme), li = strlen(ip), lp = strlen(port);
	if (ls + li + lp > sizeof(buf)) {
		char *t = xasprintf("%s%s%s", scheme, ip, port);
		put(dst, key, t, ls + li + lp);
		free(t);
		return;
	}
	memcpy(buf, scheme, ls);
	memcpy(buf + ls, ip, li);
	memcpy(buf + ls + li, port, lp);
	put(dst, key, buf, ls + li + lp);
}

/* Every member of an env mapping as str(), placeholders substituted;
 * *varies (varies NULL: not asked) set when a string names one that
 * differs between instances. */
static void env_map_emit(const struct recipe *r, const struct service_vars *vars, json_t *src,
			 env_put_fn *put, void *dst, int *varies)
{
	struct strbuf tmp = STRBUF_INIT, val = STRBUF_INIT;
	const char *k;
	json_t *v;
	json_object_foreach(src, k, v) {
		const char *t = value_text(v, &tmp);
		if (!strchr(t, '{')) {
			put(dst, k, t, strlen(t));
			continue;
		}
		strbuf_reset(&val);
		subst(&val, r, vars, t, json_is_string(v) ? varies : NULL);
		put(dst, k, sb_str(&val), val.len);
	}
	strbuf_release(&tmp);
	strbuf_release(&val);
}

/* The env of one instance, layered as spec §4.6, one put() per variable. */
static void env_emit(const struct recipe *r, const struct service *s,
		     const struct service_vars *vars, const struct service_ctx *c,
		     env_put_fn *put, void *dst, int *varies)
{
	json_t *cfg = service_config(s);

	if (jget_bool(cfg, "inherit_discovery_env", 1) && !svc_kind_is(s->type, KIND_ETCD) &&
	    !svc_kind_is(s->type, KIND_NATS)) {
		const char *ip = vars && vars->v[SV_INFRA_IP] ? vars->v[SV_INFRA_IP] : "<infra_ip>";
		discovery_put(put, dst, "ETCD_ENDPOINTS", c->etcd_external, "http://", ip, ":2379");
		if (r->runs_nats)
			discovery_put(put, dst, "NATS_SERVER", c->nats_external, "nats://", ip, ":4222");
	}
	/* the kind's own env, which the recipe's overrides: only ray has one
	 * (lmcache-server adds none) */
	if (svc_kind_is(s->type, KIND_RAY)) {
		const char *names[RAY_ENV_COUNT];
		char *vals[RAY_ENV_COUNT];
		ray_default_env(r, s, vars, names, vals);
		for (int i = 0; i < RAY_ENV_COUNT; i++) {
			put(dst, names[i], vals[i], strlen(vals[i]));
			free(vals[i]);
		}
	}
	env_map_emit(r, vars, jget_obj(cfg, "env"), put, dst, varies);
}

static void put_json(void *dst, const char *key, const char *val, size_t len)
{
	json_object_set_new(dst, key, json_stringn(val, len));
}

static void put_envmap(void *dst, const char *key, const char *val, size_t len)
{
	envmap_setn(dst, key, val, len);
}

json_t *service_env_ctx(const struct recipe *r, const struct service *s,
			const struct service_vars *vars, const struct service_ctx *c)
{
	json_t *env = json_object();
	env_emit(r, s, vars, c, put_json, env, NULL);
	return env;
}

void service_env_layer(struct envmap *m, const struct recipe *r,
		       const struct service_vars *vars, json_t *src)
{
	env_map_emit(r, vars, src, put_envmap, m, NULL);
}

void service_env_fill(struct envmap *m, const struct recipe *r, const struct service *s,
		      const struct service_vars *vars, const struct service_ctx *c, int *varies)
{
	if (varies)
		*varies = 0;
	env_emit(r, s, vars, c, put_envmap, m, varies);
}

char *service_kind_preamble(const struct service *s)
{
	json_t *cfg = service_config(s), *mb;
	if (!s->kind || !s->kind->preamble)
		return NULL;
	if (svc_kind_is(s->type, KIND_NATS) && (mb = nats_max_payload(cfg))) {
		/* the limit in bytes and JetStream's store, written to the file the
		 * command reads */
		struct strbuf conf = STRBUF_INIT, out = STRBUF_INIT;
		long long bytes = (json_is_integer(mb) ? (long long)json_integer_value(mb) : 0) * 1024 * 1024;
		const char *sd = s->kind->command[3];
		strbuf_addf(&conf, "max_payload: %lld\njetstream { store_dir: \"%s\" }\n", bytes, sd);
		strbuf_addf(&out, "%s && printf %%s ", s->kind->preamble);
		shell_quote(&out, conf.buf);
		strbuf_addf(&out, " > %s", nats_conf);
		strbuf_release(&conf);
		return strbuf_detach(&out, NULL);
	}
	return xstrdup(s->kind->preamble);
}

const char *service_container(const struct recipe *r, const struct service *s,
			      const char *job_container)
{
	const char *c = jget_str(service_config(s), "container");

	if (c && *c)
		return c;
	if (s->kind && s->kind->container)
		return s->kind->container;
	return job_container ? job_container : "<job container>";
}

/* ---- dry-run block ------------------------------------------------------ */

static int probe_port(json_t *probe)
{
	return jget_int(probe, "port", 0);
}

/* srtctl's ServiceReadinessConfig.describe() on the preview node. */
static void describe_readiness(struct strbuf *out, json_t *rd)
{
	json_t *p;

	if (json_object_get(rd, "port") && !json_is_null(json_object_get(rd, "port"))) {
		strbuf_addf(out, "tcp/%d", jget_int(rd, "port", 0));
	} else if ((p = jget_obj(rd, "tcp"))) {
		strbuf_addf(out, "tcp/%d", probe_port(p));
	} else if ((p = jget_obj(rd, "http"))) {
		const char *path = jget_str(p, "path");
		strbuf_addf(out, "http://<node>:%d%s -> %d", probe_port(p), path ? path : "/health",
			    jget_int(p, "status", 200));
	} else if ((p = jget_obj(rd, "log"))) {
		const char *pat = jget_str(p, "pattern");
		strbuf_addf(out, "log matches /%s/", pat ? pat : "");
	}
	strbuf_addf(out, ", timeout=%ds", jget_int(rd, "timeout_seconds", 120));
}

/* Python's str.strip(): the ASCII whitespace YAML leaves around a preamble. */
static void add_stripped(struct strbuf *out, const char *s)
{
	const char *e = s + strlen(s);
	while (*s && strchr(" \t\n\r\f\v", *s))
		s++;
	while (e > s && strchr(" \t\n\r\f\v", e[-1]))
		e--;
	strbuf_add(out, s, (size_t)(e - s));
}

static void render_one(struct strbuf *out, const struct recipe *r, const struct service *s)
{
	json_t *cfg = service_config(s);
	const char *ext = jget_str(cfg, "external");

	strbuf_addf(out, "  %s type=%s placement=%s%s start=%s critical=%s", s->name, s->type,
		    s->placement, s->per_worker ? " per=worker" : "", s->start,
		    s->critical ? "true" : "false");
	if (s->pool_nodes > 0)
		strbuf_addf(out, " nodes=%d", s->pool_nodes);
	if (s->terminal)
		strbuf_addstr(out, " terminal");
	strbuf_addch(out, '\n');
	if (s->implied_by)
		strbuf_addf(out, "    implied by: %s (declare a service named %s to change it)\n",
			    s->implied_by, s->name);
	if (ext && *ext) {
		strbuf_addf(out, "    external: %s (not launched)\n", ext);
		return;
	}

	strbuf_addstr(out, "    command: ");
	service_command(out, r, s, NULL, NULL);
	strbuf_addch(out, '\n');

	strbuf_addf(out, "    container: %s\n", service_container(r, s, NULL));

	json_t *src = jget_obj(cfg, "source");
	if (src) {
		const char *git = jget_str(src, "git"), *rev = jget_str(src, "rev");
		strbuf_addf(out, "    source: %s @ %s\n", git ? git : "None", rev ? rev : "None");
		if (jget_str(src, "path"))
			strbuf_addf(out, "    source.path: %s\n", jget_str(src, "path"));
	}
	json_t *bc = jget_arr(cfg, "build_command");
	if (bc) {
		struct argv_sink k = { NULL, out, 0, STRBUF_INIT, STRBUF_INIT, NULL };
		strbuf_addstr(out, "    build_command: ");
		push_list(&k, r, NULL, bc);
		strbuf_release(&k.scratch);
		strbuf_release(&k.tmp);
		strbuf_addch(out, '\n');
	}

	json_t *rd = jget_obj(cfg, "readiness");
	if (rd) {
		strbuf_addstr(out, "    readiness: ");
		describe_readiness(out, rd);
		strbuf_addch(out, '\n');
	} else if (s->kind && s->kind->ready_ports && s->kind->ready_ports[0]) {
		strbuf_addstr(out, "    readiness: ");
		for (size_t i = 0; s->kind->ready_ports[i]; i++)
			strbuf_addf(out, "%stcp/%d", i ? ", " : "", s->kind->ready_ports[i]);
		strbuf_addstr(out, " (kind default)\n");
	}

	json_t *opts = jget_obj(cfg, "options");
	if (opts && json_object_size(opts)) {
		strbuf_addstr(out, "    options: ");
		py_repr(out, opts);
		strbuf_addch(out, '\n');
	}
	const char *pre = jget_str(cfg, "preamble");
	if (pre) {
		strbuf_addstr(out, "    preamble: ");
		add_stripped(out, pre);
		strbuf_addch(out, '\n');
	}
	if (!svc_kind_is(s->type, KIND_ETCD) && !svc_kind_is(s->type, KIND_NATS))
		strbuf_addf(out, "    inherit_discovery_env: %s\n",
			    jget_bool(cfg, "inherit_discovery_env", 1) ? "true" : "false");

	json_t *env = jget_obj(cfg, "env");
	if (env && json_object_size(env)) {
		size_t n;
		const char **keys = json_sorted_keys(env, &n);
		for (size_t i = 0; i < n; i++) {
			char *t = py_str_dup(json_object_get(env, keys[i]));
			strbuf_addf(out, "    env.%s: %s\n", keys[i], t);
			free(t);
		}
		free(keys);
	}
}

void render_services_block(struct strbuf *out, const struct recipe *r)
{
	if (!r->nsvc)
		return;
	strbuf_addstr(out, "Services:\n");
	for (size_t i = 0; i < r->nsvc; i++)
		render_one(out, r, &r->svc[i]);
}
