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

#include "render/json.h"
#include "render/service.h"
#include "render/shell.h"

static const char *const placeholder_names[] = {
	"node", "node_ip", "node_id", "index", "role", "head_node", "head_ip",
	"infra_node", "infra_ip", "master_port", "metadata_port", "gpus_per_node",
	"pool_node", "pool_ip", "pool_nodes", "pool_ips", "pool_node_count",
	"worker_role", "worker_index", "worker_node_rank", "worker_gpus",
	"worker_gpu_count", NULL
};

static int known_placeholder(const char *s, size_t n)
{
	for (size_t i = 0; placeholder_names[i]; i++)
		if (strlen(placeholder_names[i]) == n && !memcmp(placeholder_names[i], s, n))
			return 1;
	return 0;
}

/* Text for {name}: from vars, or the preview value; NULL leaves it as written. */
static void placeholder_value(struct strbuf *out, const struct recipe *r, json_t *vars,
			      const char *name, size_t n, int *done)
{
	char key[32];

	*done = 0;
	if (n >= sizeof(key))
		return;
	memcpy(key, name, n);
	key[n] = '\0';
	if (vars) {
		json_t *v = json_object_get(vars, key);
		if (!v)
			return;
		if (json_is_string(v))
			strbuf_addstr(out, json_string_value(v));
		else
			py_str(out, v);
		*done = 1;
		return;
	}
	if (!strcmp(key, "master_port"))
		strbuf_addstr(out, "8700");
	else if (!strcmp(key, "metadata_port"))
		strbuf_addstr(out, "8701");
	else if (!strcmp(key, "gpus_per_node"))
		strbuf_addf(out, "%d", r->gpus_per_node);
	else
		strbuf_addf(out, "<%s>", key);
	*done = 1;
}

static void substitute(struct strbuf *out, const struct recipe *r, json_t *vars, const char *s)
{
	while (*s) {
		const char *close;
		if (*s == '{' && (close = strchr(s + 1, '}')) &&
		    known_placeholder(s + 1, (size_t)(close - s - 1))) {
			int done;
			placeholder_value(out, r, vars, s + 1, (size_t)(close - s - 1), &done);
			if (done) {
				s = close + 1;
				continue;
			}
		}
		strbuf_addch(out, *s++);
	}
}

static char *subst_dup(const struct recipe *r, json_t *vars, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	substitute(&sb, r, vars, s);
	if (!sb.buf)
		return xstrdup("");
	return strbuf_detach(&sb, NULL);
}

/* A list element as srtctl sees it: str() of whatever YAML gave. */
static char *elem_text(const json_t *v)
{
	struct strbuf sb = STRBUF_INIT;
	if (json_is_string(v))
		strbuf_addstr(&sb, json_string_value(v));
	else
		py_str(&sb, v);
	if (!sb.buf)
		return xstrdup("");
	return strbuf_detach(&sb, NULL);
}

static void push_list(struct strvec *out, const struct recipe *r, json_t *vars, json_t *list)
{
	size_t i;
	json_t *e;

	json_array_foreach(list, i, e) {
		char *t = elem_text(e);
		strvec_push_nodup(out, subst_dup(r, vars, t));
		free(t);
	}
}

static int option_int(json_t *cfg, const char *key, int dflt)
{
	return jget_int(jget_obj(cfg, "options"), key, dflt);
}

/* Exporters build their argv from their options (port, interval). */
static int exporter_argv(const struct service *s, json_t *cfg, struct strvec *out)
{
	const char *t = s->type;

	if (!strcmp(t, "dcgm-exporter")) {
		strvec_push(out, "dcgm-exporter");
		strvec_pushf(out, "--collect-interval=%d", option_int(cfg, "collect_interval_ms", 1000));
		strvec_push(out, "--address");
		strvec_pushf(out, ":%d", option_int(cfg, "port", 9401));
		return 1;
	}
	if (!strcmp(t, "node-exporter")) {
		const char *const *c = s->kind->command;
		strvec_push(out, c[0]);
		strvec_pushf(out, "--web.listen-address=:%d", option_int(cfg, "port", 9101));
		for (size_t i = 2; c[i]; i++)
			strvec_push(out, c[i]);
		return 1;
	}
	if (!strcmp(t, "process-exporter")) {
		const char *const *c = s->kind->command;
		const char *bin = jget_str(jget_obj(cfg, "options"), "binary");
		if (jget_str(cfg, "container")) {
			strvec_push(out, "/bin/process-exporter");
			strvec_push(out, "-config.path");
			strvec_push(out, "/logs/process-exporter.yml");
		} else {
			strvec_push(out, bin && *bin ? bin : c[0]);
			strvec_push(out, c[1]);
			strvec_push(out, c[2]);
		}
		strvec_pushf(out, "-web.listen-address=:%d", option_int(cfg, "port", 9256));
		for (size_t i = 4; c[i]; i++)
			strvec_push(out, c[i]);
		return 1;
	}
	return 0;
}

void service_argv(const struct recipe *r, const struct service *s, json_t *vars,
		  struct strvec *out)
{
	json_t *cfg = service_config(s);
	json_t *cmd = jget_arr(cfg, "command");

	if (cmd) {
		push_list(out, r, vars, cmd);
	} else if (s->kind && s->kind->command) {
		if (!exporter_argv(s, cfg, out))
			for (size_t i = 0; s->kind->command[i]; i++)
				strvec_push_nodup(out, subst_dup(r, vars, s->kind->command[i]));
	}
	push_list(out, r, vars, jget_arr(cfg, "args"));
}

/* `external` of the enabled declared service called name, or NULL. */
static const char *declared_external(const struct recipe *r, const char *name)
{
	json_t *list = jget_arr(r->root, "services");
	size_t i;
	json_t *e;

	json_array_foreach(list, i, e) {
		const char *n = jget_str(e, "name");
		if (n && !strcmp(n, name) && jget_bool(e, "enabled", 1)) {
			const char *x = jget_str(e, "external");
			return x && *x ? x : NULL;
		}
	}
	return NULL;
}

static const char *var_or_preview(json_t *vars, const char *key, const char *preview)
{
	const char *v = vars ? jget_str(vars, key) : NULL;
	return v ? v : preview;
}

void service_ctx_init(struct service_ctx *c, const struct recipe *r)
{
	c->etcd_external = declared_external(r, "etcd");
	c->nats_external = declared_external(r, "nats");
}

json_t *service_env(const struct recipe *r, const struct service *s, json_t *vars)
{
	struct service_ctx c;
	service_ctx_init(&c, r);
	return service_env_ctx(r, s, vars, &c);
}

json_t *service_env_ctx(const struct recipe *r, const struct service *s, json_t *vars,
			const struct service_ctx *c)
{
	json_t *cfg = service_config(s);
	json_t *env = json_object();

	if (jget_bool(cfg, "inherit_discovery_env", 1) && strcmp(s->type, "etcd") &&
	    strcmp(s->type, "nats")) {
		const char *ip = var_or_preview(vars, "infra_ip", "<infra_ip>");
		const char *x = c->etcd_external;
		char *v = x ? xstrdup(x) : xasprintf("http://%s:2379", ip);
		json_object_set_new(env, "ETCD_ENDPOINTS", json_string(v));
		free(v);
		if (r->runs_nats) {
			x = c->nats_external;
			v = x ? xstrdup(x) : xasprintf("nats://%s:4222", ip);
			json_object_set_new(env, "NATS_SERVER", json_string(v));
			free(v);
		}
	}
	/* no kind in the table injects env of its own (lmcache-server adds none) */
	const char *k;
	json_t *v;
	json_object_foreach(jget_obj(cfg, "env"), k, v) {
		char *t = elem_text(v);
		char *sv = subst_dup(r, vars, t);
		json_object_set_new(env, k, json_string(sv));
		free(sv);
		free(t);
	}
	return env;
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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void add_joined(struct strbuf *out, struct strvec *argv)
{
	shell_join(out, argv->v, argv->n);
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

	struct strvec argv = STRVEC_INIT;
	service_argv(r, s, NULL, &argv);
	strbuf_addstr(out, "    command: ");
	add_joined(out, &argv);
	strbuf_addch(out, '\n');
	strvec_release(&argv);

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
		struct strvec b = STRVEC_INIT;
		push_list(&b, r, NULL, bc);
		strbuf_addstr(out, "    build_command: ");
		add_joined(out, &b);
		strbuf_addch(out, '\n');
		strvec_release(&b);
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
	if (strcmp(s->type, "etcd") && strcmp(s->type, "nats"))
		strbuf_addf(out, "    inherit_discovery_env: %s\n",
			    jget_bool(cfg, "inherit_discovery_env", 1) ? "true" : "false");

	json_t *env = jget_obj(cfg, "env");
	if (env && json_object_size(env)) {
		size_t n = 0;
		const char **keys = xcalloc(json_object_size(env), sizeof(*keys));
		const char *k;
		json_t *v;
		json_object_foreach(env, k, v)
			keys[n++] = k;
		qsort(keys, n, sizeof(*keys), cmp_str);
		for (size_t i = 0; i < n; i++) {
			char *t = elem_text(json_object_get(env, keys[i]));
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
