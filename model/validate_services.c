/*
 * validate_services.c — services[] rules: srtctl's load-time checks with its
 * message text (spec §4.9, label services[<name>]), its launch-time
 * readiness-port clash (widened to every port srt-tui knows a service, an
 * engine worker or the frontend binds: worker_ports.h), and srt-tui's
 * stricter lmcache-server rules (ports
 * and hosts in args, per: worker, two servers on one node, PYTHONHASHSEED).
 *
 * Node overlap is approximate (no allocation is computed): placements of the
 * same class share nodes; workers, compute and all overlap every worker
 * class; head and infra are the first node, which the first role uses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/schema.h"
#include "model/kinds.h"
#include "model/lmc_args.h"
#include "model/validate.h"
#include "model/validate_int.h"
#include "model/worker_ports.h"

static const char *const node_values[] = { "head", "infra", "dedicated", "prefill", "decode",
					   "agg", "workers", "compute", "all", NULL };

static int in_list(const char *s, const char *const *l)
{
	for (; *l; l++)
		if (!strcmp(s, *l))
			return 1;
	return 0;
}

char *vsvc_path(const struct recipe *r, const struct service *s)
{
	if (!s->cfg || s->index < 0)
		return xstrdup("");
	struct strbuf sb = STRBUF_INIT;
	vpath_item(&sb, "services", jget_arr(r->root, "services"), (size_t)s->index);
	return strbuf_detach(&sb, NULL);
}

int vsvc_launches(const struct service *s)
{
	json_t *cfg = service_config(s);
	const char *ext = jget_str(cfg, "external");
	return !(ext && *ext);
}

/* ---- node classes ---------------------------------------------------------- */

static int first_role(const struct recipe *r, enum role_id id)
{
	if (r->role[ROLE_PREFILL].present)
		return id == ROLE_PREFILL || (id == ROLE_DECODE && r->role[ROLE_DECODE].colocate);
	return id == ROLE_AGG;
}

static int is_worker_class(const char *c)
{
	return !strcmp(c, "prefill") || !strcmp(c, "decode") || !strcmp(c, "agg") ||
	       !strcmp(c, "workers");
}

/* The class of nodes a service runs on: its placement, "pool:<name>" for a
 * pool, "own:<name>" for a service that owns nodes. */
/* prefix then s into buf, cut to size as snprintf would: once per service
 * of a recipe, so without printf. */
static void cat2(char *buf, size_t size, const char *prefix, const char *s)
{
	size_t n = 0;
	for (const char *p = prefix; *p && n + 1 < size; p++)
		buf[n++] = *p;
	for (; *s && n + 1 < size; s++)
		buf[n++] = *s;
	if (size)
		buf[n] = 0;
}

static void svc_class(const struct service *s, char *buf, size_t size)
{
	if (s->pool)
		cat2(buf, size, "pool:", s->pool);
	else if (s->pool_nodes > 0)
		cat2(buf, size, "pool:", s->name ? s->name : "");
	else
		cat2(buf, size, "", s->placement ? s->placement : "head");
}

/* Do two classes share a node?  Sets *where to the class named in messages. */
static int classes_overlap(const struct recipe *r, const char *a, const char *b, const char **where)
{
	int pool_a = !strncmp(a, "pool:", 5), pool_b = !strncmp(b, "pool:", 5);
	*where = a;
	if (!strcmp(a, b))
		return 1;
	if (!strcmp(a, "all") || !strcmp(b, "all")) {
		*where = !strcmp(a, "all") ? b : a;
		return 1;
	}
	if (pool_a || pool_b) {
		const char *other = pool_a ? b : a;
		*where = pool_a ? a : b;
		return !strcmp(other, "compute");
	}
	if (!strcmp(a, "dedicated") || !strcmp(b, "dedicated"))
		return 0;
	int head_a = !strcmp(a, "head") || !strcmp(a, "infra");
	int head_b = !strcmp(b, "head") || !strcmp(b, "infra");
	if (head_a && head_b) {
		*where = "head";
		return 1;
	}
	if (head_a || head_b) {
		const char *other = head_a ? b : a;
		*where = "head";
		if (!strcmp(other, "workers") || !strcmp(other, "compute"))
			return 1;
		for (int i = 0; i < ROLE_COUNT; i++)
			if (!strcmp(other, role_names[i]))
				return first_role(r, i);
		return 0;
	}
	if (!strcmp(a, "compute") || !strcmp(b, "compute") || !strcmp(a, "workers") ||
	    !strcmp(b, "workers")) {
		*where = (!strcmp(a, "compute") || !strcmp(a, "workers")) ? b : a;
		return is_worker_class(a) || is_worker_class(b) || !strcmp(a, b);
	}
	/* two different roles: only a colocated decode shares the prefill nodes */
	if ((!strcmp(a, "prefill") && !strcmp(b, "decode")) ||
	    (!strcmp(a, "decode") && !strcmp(b, "prefill"))) {
		*where = "prefill";
		return r->role[ROLE_DECODE].colocate;
	}
	return 0;
}

/* ---- srtctl's load-time rules (spec §4.9) ------------------------------------- */

struct sv {
	const struct recipe *r;
	struct diag_list *out;
	json_t *cfg;
	const char *name; /* label name */
	const char *type;
	const struct svc_kind *kind;
	struct strbuf path; /* services[<name>] */
	size_t plen;
};

static const char *at(struct sv *v, const char *sub)
{
	v->path.len = v->plen;
	v->path.buf[v->plen] = 0;
	if (sub && *sub)
		strbuf_addf(&v->path, ".%s", sub);
	return v->path.buf;
}

static int empty_args(json_t *list)
{
	size_t i;
	json_t *e;
	json_array_foreach(list, i, e)
		if (json_is_string(e) && !*json_string_value(e))
			return 1;
	return 0;
}

/* Python's re messages for the mistakes POSIX regcomp also sees. */
static const char *regex_error(const char *pat)
{
	int depth = 0;
	for (const char *p = pat; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p == '[') {
			const char *q = p + 1;
			if (*q == '^')
				q++;
			if (*q == ']')
				q++;
			while (*q && *q != ']') {
				if (*q == '\\' && q[1])
					q++;
				q++;
			}
			if (!*q)
				return "unterminated character set";
			p = q;
		} else if (*p == '(') {
			depth++;
		} else if (*p == ')') {
			if (!depth)
				return "unbalanced parenthesis";
			depth--;
		}
	}
	if (depth)
		return "missing ), unterminated subpattern";
	return NULL;
}

static int port_ok(json_t *p)
{
	return !json_is_integer(p) || (json_integer_value(p) >= 1 && json_integer_value(p) <= 65535);
}

static void check_readiness(struct sv *v, json_t *rd, int per_worker)
{
	if (!json_is_object(rd))
		return;
	json_t *port = json_object_get(rd, "port"), *tcp = json_object_get(rd, "tcp"),
	       *http = json_object_get(rd, "http"), *log = json_object_get(rd, "log"),
	       *file = json_object_get(rd, "file");
	int has_port = port && !json_is_null(port), has_tcp = tcp && !json_is_null(tcp),
	    has_http = http && !json_is_null(http), has_log = log && !json_is_null(log);
	/* file: {path}, a marker the service writes once ready (the mooncake
	 * donor's); it is a probe of its own, counted with log. */
	has_log += file && !json_is_null(file);
	if (has_port && has_tcp) {
		diag_add(v->out, DIAG_ERROR, "readiness-probe", at(v, "readiness"),
			 "keep either port: N or tcp: {port: N}",
			 "services[].readiness: give either port (shorthand) or tcp, not both");
	} else if (has_port + has_tcp + has_http + has_log != 1) {
		struct strbuf got = STRBUF_INIT;
		const char *names[] = { "port", "tcp", "http", "log" };
		int has[] = { has_port, has_tcp, has_http, has_log };
		for (int i = 0; i < 4; i++)
			if (has[i])
				strbuf_addf(&got, "%s%s", got.len ? ", " : "", names[i]);
		diag_add(v->out, DIAG_ERROR, "readiness-probe", at(v, "readiness"),
			 "give one probe: port: N, tcp: {port: N}, http: {port: N, path: /health}, or log: {pattern: ...}",
			 "services[].readiness needs exactly one probe: port, tcp, http, log, or file; got %s",
			 got.len ? got.buf : "none");
		strbuf_release(&got);
	}
	if (!port_ok(port) || !port_ok(json_object_get(tcp, "port")))
		diag_add(v->out, DIAG_ERROR, "readiness-port",
			 at(v, port_ok(port) ? "readiness.tcp.port" : "readiness.port"),
			 "use the port the service listens on", "readiness.tcp.port must be between 1 and 65535");
	if (!port_ok(json_object_get(http, "port")))
		diag_add(v->out, DIAG_ERROR, "readiness-port", at(v, "readiness.http.port"),
			 "use the port the service listens on", "readiness.http.port must be between 1 and 65535");
	const char *hp = jget_str(http, "path");
	if (hp && hp[0] != '/')
		diag_add(v->out, DIAG_ERROR, "readiness-http-path", at(v, "readiness.http.path"),
			 "write the path with a leading slash, e.g. /health",
			 "readiness.http.path must start with '/'");
	json_t *st = json_object_get(http, "status");
	if (json_is_integer(st) && (json_integer_value(st) < 100 || json_integer_value(st) > 599))
		diag_add(v->out, DIAG_ERROR, "readiness-http-status", at(v, "readiness.http.status"),
			 "use a status between 100 and 599, e.g. 200",
			 "readiness.http.status must be an HTTP status code");
	const char *pat = jget_str(log, "pattern");
	const char *rerr = pat ? regex_error(pat) : NULL;
	if (rerr)
		diag_add(v->out, DIAG_ERROR, "readiness-log-pattern", at(v, "readiness.log.pattern"),
			 "the pattern is a Python regular expression; escape literal brackets with \\",
			 "readiness.log.pattern is not a valid regular expression: %s", rerr);
	json_t *t = json_object_get(rd, "timeout_seconds"), *iv = json_object_get(rd, "interval_seconds");
	if (json_is_integer(t) && json_integer_value(t) <= 0)
		diag_add(v->out, DIAG_ERROR, "readiness-timing", at(v, "readiness.timeout_seconds"),
			 "use a positive number of seconds",
			 "services[].readiness.timeout_seconds must be positive");
	if (json_is_integer(iv) && json_integer_value(iv) <= 0)
		diag_add(v->out, DIAG_ERROR, "readiness-timing", at(v, "readiness.interval_seconds"),
			 "use a positive number of seconds",
			 "services[].readiness.interval_seconds must be positive");
	if (per_worker && (has_port || has_tcp || has_http))
		diag_add(v->out, DIAG_ERROR, "per-worker-probe", at(v, "readiness"),
			 "use readiness: {log: {pattern: ...}} for per-worker instances",
			 "services[%s].placement.per: worker instances share their node's ports, so readiness must be a log probe",
			 v->name);
}

/* What srtctl's ray kind refuses when the recipe loads (services/ray.py
 * validate, SemiAnalysisAI/srt-slurm@4c4b3aa): a placement on a role (Ray
 * takes whole nodes), a command (the kind writes the `ray start` lines),
 * and an option that is not a positive integer. */
static void check_ray(struct sv *v, json_t *cfg)
{
	static const char *const ray_nodes[] = { "head", "workers", "all", NULL };
	const char *node = jget_str(jget_obj(cfg, "placement"), "node");
	json_t *cmd = json_object_get(cfg, "command"), *opts = jget_obj(cfg, "options");
	const char *k;
	json_t *o;

	if (node && in_list(node, node_values) && !in_list(node, ray_nodes))
		diag_add(v->out, DIAG_ERROR, "ray-placement", at(v, "placement.node"),
			 "place it on head, workers or all: a raylet takes a whole node, not a role's GPUs",
			 "services[%s] (type ray) must be placed on head, workers or all; got '%s'",
			 v->name, node);
	if (cmd && !json_is_null(cmd))
		diag_add(v->out, DIAG_ERROR, "ray-command", at(v, "command"),
			 "remove command; extra `ray start` flags go in args, ports and GPUs in options",
			 "services[%s] (type ray) writes its own `ray start` commands; it takes no command",
			 v->name);
	json_object_foreach(opts, k, o) {
		if (!v->kind->options || !in_list(k, v->kind->options))
			continue; /* reported as an unknown option above */
		if (!json_is_integer(o) || json_integer_value(o) <= 0)
			diag_add(v->out, DIAG_ERROR, "ray-option", at(v, "options"),
				 "give a whole number above 0",
				 "services[%s].options.%s must be a positive integer", v->name, k);
	}
}

static void check_placement(struct sv *v, json_t *pl, int *per_worker)
{
	*per_worker = 0;
	if (!json_is_object(pl))
		return;
	const char *node = jget_str(pl, "node");
	const char *per = jget_str(pl, "per");
	if (node && !in_list(node, node_values)) {
		char hint[96];
		vsuggest_hint(hint, sizeof(hint), node, node_values, 9, "pick one of the listed values");
		diag_add(v->out, DIAG_ERROR, "placement-node", at(v, "placement.node"), hint,
			 "services[].placement.node must be one of head, infra, dedicated, prefill, decode, agg, workers, compute, all; got '%s'",
			 node);
	}
	if (per && strcmp(per, "node") && strcmp(per, "worker")) {
		diag_add(v->out, DIAG_ERROR, "placement-per", at(v, "placement.per"),
			 "per: node (one instance per node) or per: worker (one per engine worker)",
			 "services[].placement.per must be one of node, worker; got '%s'", per);
		return;
	}
	int bad_node = node && !in_list(node, node_values);
	if (per && !strcmp(per, "worker")) {
		*per_worker = 1;
		const char *eff = node ? node : "head";
		/* a node outside the list is reported once, above */
		if (!bad_node && strcmp(eff, "prefill") && strcmp(eff, "decode") && strcmp(eff, "agg") &&
		    strcmp(eff, "workers"))
			diag_add(v->out, DIAG_ERROR, "placement-per-node", at(v, "placement.per"),
				 "set placement.node to prefill, decode, agg or workers, or drop per: worker",
				 "services[].placement.per: worker needs placement.node in prefill, decode, agg, workers; got '%s'",
				 eff);
		if (svc_kind_is(v->type, KIND_LMCACHE_SERVER)) {
			char hint[160];
			snprintf(hint, sizeof(hint),
				 "remove per: worker: one lmcache-server per node serves every worker on it (several would fight over ports %d and %d)",
				 LMCACHE_RPC_PORT, LMCACHE_HTTP_PORT);
			diag_add(v->out, DIAG_ERROR, "lmcache-server-per-worker", at(v, "placement.per"), hint,
				 "services[%s].placement.per: worker is not supported for type '%s' (one server per node)",
				 v->name, v->type);
		}
	}
	for (int i = 0; node && i < ROLE_COUNT; i++) {
		if (strcmp(node, role_names[i]) || v->r->role[i].present)
			continue;
		/* srtctl's launch-time warning: the service is skipped, not refused */
		char hint[160];
		snprintf(hint, sizeof(hint),
			 "the recipe has no %s role: place it on a role it has, or on workers", node);
		if (*per_worker)
			diag_add(v->out, DIAG_WARNING, "placement-no-nodes", at(v, "placement.node"),
				 hint, "services[%s]: placement selects no workers in this allocation; skipping",
				 v->name);
		else
			diag_add(v->out, DIAG_WARNING, "placement-no-nodes", at(v, "placement.node"),
				 hint, "services[%s]: placement.node=%s selects no nodes in this allocation; skipping",
				 v->name, node);
	}
	if (node && !strcmp(node, "dedicated") && v->kind && !v->kind->infra_class)
		diag_add(v->out, DIAG_ERROR, "placement-dedicated", at(v, "placement.node"),
			 "use head, infra or workers",
			 "services[%s].placement.node: dedicated is only supported for infra-class kinds (etcd, nats, mooncake-master); use head, infra, or workers for type '%s'",
			 v->name, v->type);
	const char *pool = jget_str(pl, "pool");
	if (pool) {
		json_t *svcs = jget_arr(v->r->root, "services");
		int found = 0;
		size_t i;
		json_t *e;
		json_array_foreach(svcs, i, e) {
			const char *n = jget_str(e, "name");
			found |= n && !strcmp(n, pool) && jget_int(e, "nodes", 0) > 0;
		}
		if (!found)
			diag_add(v->out, DIAG_ERROR, "placement-pool", at(v, "placement.pool"),
				 "name a service that owns nodes (services[].nodes: N)",
				 "services[%s].placement.pool: no service named '%s' owns nodes", v->name, pool);
	}
}

static void check_declared(struct sv *v)
{
	json_t *cfg = v->cfg;
	json_t *cmd = json_object_get(cfg, "command");
	json_t *args = json_object_get(cfg, "args");

	if (v->type && !v->kind) {
		size_t n = 0;
		const char *cands[64];
		for (size_t i = 0; i < svc_kinds_count && n < 64; i++)
			cands[n++] = svc_kinds[i].type;
		char hint[96];
		vsuggest_hint(hint, sizeof(hint), v->type, cands, n,
			      "use generic with a command for any other program");
		diag_add(v->out, DIAG_ERROR, "service-type", at(v, "type"), hint,
			 "services[%s].type '%s' is not a known service type (known: %s)", v->name, v->type,
			 svc_kind_known_list());
	}
	if (json_is_array(cmd) && !json_array_size(cmd))
		diag_add(v->out, DIAG_ERROR, "service-command", at(v, "command"),
			 "remove command to run the kind's default, or give the argv",
			 "services[%s].command, if set, must be non-empty (omit it to use the type's default)",
			 v->name);
	else if ((!cmd || json_is_null(cmd)) && v->kind && !v->kind->command)
		diag_add(v->out, DIAG_ERROR, "service-command", at(v, NULL),
			 "add command: [program, arg, ...] (an argv list, not a shell line)",
			 "services[%s].command is required for type '%s'", v->name, v->type);
	if (empty_args(cmd) || empty_args(args))
		diag_add(v->out, DIAG_ERROR, "service-empty-arg", at(v, empty_args(cmd) ? "command" : "args"),
			 "remove the empty strings",
			 "services[%s].command/args must not contain empty arguments", v->name);
	json_t *bc = json_object_get(cfg, "build_command");
	if (json_is_array(bc) && !json_array_size(bc))
		diag_add(v->out, DIAG_ERROR, "service-build-command", at(v, "build_command"),
			 "remove build_command, or give the argv",
			 "services[%s].build_command, if set, must be non-empty (omit it entirely instead)",
			 v->name);

	json_t *src = json_object_get(cfg, "source");
	if (src && !json_is_null(src)) {
		const char *p = jget_str(jget_obj(cfg, "placement"), "node");
		if (!p)
			p = jget_obj(cfg, "placement") ? "head"
			    : v->kind && v->kind->placement ? v->kind->placement : "head";
		if (strcmp(p, "head") && strcmp(p, "infra"))
			diag_add(v->out, DIAG_ERROR, "service-source-placement", at(v, "source"),
				 "place the service on head or infra, or build the program into the image",
				 "services[%s].source requires a single-node placement (head or infra); got placement.node='%s'",
				 v->name, p);
		if (!bc || json_is_null(bc))
			diag_add(v->out, DIAG_WARNING, "service-source-build", at(v, "source"),
				 "add build_command to build the clone, or remove source",
				 "services[%s].source is set without build_command", v->name);
	}
	const char *start = jget_str(cfg, "start");
	/* with_workers: launched beside the workers (srtctl's trtllm mooncake pool examples) */
	if (start && strcmp(start, "infra") && strcmp(start, "before_workers") &&
	    strcmp(start, "with_workers") && strcmp(start, "after_frontend")) {
		static const char *const st[] = { "infra", "before_workers", "with_workers",
						  "after_frontend" };
		char hint[64];
		vsuggest_hint(hint, sizeof(hint), start, st, 4, "pick one of the four phases");
		diag_add(v->out, DIAG_ERROR, "service-start", at(v, "start"), hint,
			 "services[%s].start must be one of infra, before_workers, with_workers, after_frontend; got '%s'",
			 v->name, start);
	}
	json_t *cpt = json_object_get(cfg, "cpus_per_task");
	if (json_is_integer(cpt) && json_integer_value(cpt) <= 0)
		diag_add(v->out, DIAG_ERROR, "service-positive", at(v, "cpus_per_task"),
			 "use a positive count, or remove it", "services[%s].cpus_per_task must be positive",
			 v->name);
	json_t *bt = json_object_get(cfg, "build_timeout_seconds");
	if (json_is_integer(bt) && json_integer_value(bt) <= 0)
		diag_add(v->out, DIAG_ERROR, "service-positive", at(v, "build_timeout_seconds"),
			 "use a positive number of seconds",
			 "services[%s].build_timeout_seconds must be positive", v->name);
	json_t *ext = json_object_get(cfg, "external");
	if (json_is_string(ext)) {
		const char *e = json_string_value(ext);
		while (*e == ' ' || *e == '\t')
			e++;
		if (!*e)
			diag_add(v->out, DIAG_ERROR, "service-external", at(v, "external"),
				 "give the endpoint, e.g. http://10.0.0.5:2379, or remove external",
				 "services[%s].external must be a non-empty endpoint", v->name);
		else if (v->kind && !v->kind->discovery)
			diag_add(v->out, DIAG_ERROR, "service-external", at(v, "external"),
				 "external works for etcd, nats and mooncake-master only",
				 "services[%s].external is only valid for discovery-plane kinds, not '%s'",
				 v->name, v->type);
	}
	json_t *opts = jget_obj(cfg, "options");
	if (opts && json_object_size(opts) && v->kind) {
		/* sorted, comma-separated unknown keys */
		const char *bad[64];
		size_t n = 0;
		const char *k;
		json_t *ov;
		json_object_foreach(opts, k, ov) {
			if ((v->kind->options && in_list(k, v->kind->options)) || n == 64)
				continue;
			size_t j = n++;
			while (j > 0 && strcmp(bad[j - 1], k) > 0) {
				bad[j] = bad[j - 1];
				j--;
			}
			bad[j] = k;
		}
		if (n) {
			struct strbuf list = STRBUF_INIT, hint = STRBUF_INIT;
			for (size_t i = 0; i < n; i++)
				strbuf_addf(&list, "%s%s", i ? ", " : "", bad[i]);
			if (v->kind->options) {
				strbuf_addstr(&hint, "options it understands: ");
				for (size_t i = 0; v->kind->options[i]; i++)
					strbuf_addf(&hint, "%s%s", i ? ", " : "", v->kind->options[i]);
			} else {
				strbuf_addf(&hint, "type '%s' takes no options", v->type);
			}
			diag_add(v->out, DIAG_ERROR, "service-options", at(v, "options"), hint.buf,
				 "services[%s].options has keys type '%s' does not understand: %s", v->name,
				 v->type, list.buf);
			strbuf_release(&list);
			strbuf_release(&hint);
		}
	}
	int per_worker;
	check_placement(v, json_object_get(cfg, "placement"), &per_worker);
	check_readiness(v, json_object_get(cfg, "readiness"), per_worker);
	if (svc_kind_is(v->type, KIND_RAY))
		check_ray(v, cfg);
}

/* ---- launch-time: readiness ports on one node ------------------------------ */

static size_t probe_ports(const struct service *s, int *ports, size_t max)
{
	json_t *rd = jget_obj(service_config(s), "readiness");
	json_t *p = json_object_get(rd, "port");
	if (!json_is_integer(p))
		p = json_object_get(jget_obj(rd, "tcp"), "port");
	if (!json_is_integer(p))
		p = json_object_get(jget_obj(rd, "http"), "port");
	if (json_is_integer(p)) {
		ports[0] = (int)json_integer_value(p);
		return 1;
	}
	if (rd && jget_obj(rd, "log"))
		return 0;
	size_t n = 0;
	for (const int *k = s->kind && s->kind->ready_ports ? s->kind->ready_ports : NULL; k && *k && n < max; k++)
		ports[n++] = *k;
	return n;
}

/* Every port a service listens on that srt-tui knows: its readiness ports,
 * the kind's other ports (an exporter's metrics port, options.port when
 * set), and an lmcache-server's Prometheus port unless metrics are off. */
static size_t listen_ports(const struct service *s, int *ports, size_t max)
{
	size_t n = probe_ports(s, ports, max);
	json_t *cfg = service_config(s);
	if (s->kind && s->kind->listen_ports && n < max && !jget_arr(cfg, "command")) {
		json_t *op = json_object_get(jget_obj(cfg, "options"), "port");
		ports[n++] = json_is_integer(op) ? (int)json_integer_value(op) : s->kind->listen_ports[0];
	}
	if (svc_kind_is(s->type, KIND_LMCACHE_SERVER) && n + 3 <= max) {
		/* srtctl's RPC and HTTP ports (an own command must use them too:
		 * lmcache-server-port), and Prometheus unless metrics are off */
		int prom = lmc_prometheus_port(jget_arr(cfg, "args"));
		ports[n++] = LMCACHE_RPC_PORT;
		ports[n++] = LMCACHE_HTTP_PORT;
		if (prom > 0)
			ports[n++] = prom;
	}
	return n;
}

/* The ports the frontend and each role's workers bind, computed once for
 * every service checked against them. */
struct bound_ports {
	int fport;
	const char *fcls;
	struct wport_range w[ROLE_COUNT][16];
	size_t nw[ROLE_COUNT];
};

static void bound_ports_init(struct bound_ports *b, const struct recipe *r)
{
	b->fport = frontend_public_port(r, &b->fcls);
	for (int role = 0; role < ROLE_COUNT; role++)
		b->nw[role] = role_worker_ports(r, role, b->w[role], 16);
}

/* A declared service's port that an engine worker or the frontend also
 * binds on the same nodes: srtctl hands those ports out without asking what
 * else runs there, so one of the two fails to bind. */
static int worker_clash(const struct recipe *r, const struct bound_ports *b, const struct service *s,
			const int *ports, size_t n, const char *cls, struct diag_list *out)
{
	const char *where;

	for (size_t x = 0; x < n; x++) {
		if (b->fport && ports[x] == b->fport && classes_overlap(r, cls, b->fcls, &where)) {
			char *path = vsvc_path(r, s);
			diag_add(out, DIAG_ERROR, "service-port-clash", path,
				 "give the service another port, or place it off the frontend's node",
				 "services[%s] and the frontend both listen on port %d on node %s (the frontend's public port)",
				 s->name, ports[x], where);
			free(path);
			return 1;
		}
		for (int role = 0; role < ROLE_COUNT; role++) {
			const struct wport_range *w = b->w[role];
			size_t nw = b->nw[role];
			int lo, hi;
			if (!nw || !classes_overlap(r, cls, role_names[role], &where))
				continue;
			for (size_t k = 0; k < nw; k++) {
				if (!wport_range_has(&w[k], ports[x], &lo, &hi))
					continue;
				char *path = vsvc_path(r, s), range[48];
				if (lo == hi)
					snprintf(range, sizeof(range), "%d", lo);
				else
					snprintf(range, sizeof(range), "%d..%d", lo, hi);
				diag_add(out, DIAG_ERROR, "service-port-clash", path,
					 "give the service a port outside the workers' ranges, or place it on nodes without them",
					 "services[%s] and the %s workers both listen on port %d on node %s (srtctl gives the %s workers %s %s)",
					 s->name, role_names[role], ports[x], where, role_names[role],
					 w[k].wp->what, range);
				free(path);
				return 1;
			}
		}
	}
	return 0;
}

static void check_port_clash(const struct recipe *r, struct diag_list *out)
{
	/* ports and node class of each service, computed once (lists can be long) */
	struct probe {
		int port[8];
		size_t n;
		char cls[160];
	} *pr = xcalloc(r->nsvc ? r->nsvc : 1, sizeof(*pr));
	for (size_t i = 0; i < r->nsvc; i++) {
		if (vsvc_launches(&r->svc[i]))
			pr[i].n = listen_ports(&r->svc[i], pr[i].port, 8);
		if (pr[i].n)
			svc_class(&r->svc[i], pr[i].cls, sizeof(pr[i].cls));
	}
	/* a declared service against the workers and the frontend first; each
	 * service is reported once */
	char *done = xcalloc(r->nsvc ? r->nsvc : 1, 1);
	struct bound_ports bound;
	int have_bound = 0;
	for (size_t j = 0; j < r->nsvc; j++)
		if (r->svc[j].cfg && pr[j].n) {
			if (!have_bound) {
				bound_ports_init(&bound, r);
				have_bound = 1;
			}
			done[j] = (char)worker_clash(r, &bound, &r->svc[j], pr[j].port, pr[j].n, pr[j].cls, out);
		}
	/* then against the first earlier service it clashes with */
	for (size_t j = 1; j < r->nsvc; j++) {
		if (done[j])
			continue;
		const struct service *b = &r->svc[j];
		for (size_t i = 0; pr[j].n && i < j; i++) {
			const struct service *a = &r->svc[i];
			int port = 0;
			for (size_t x = 0; x < pr[i].n && !port; x++)
				for (size_t y = 0; y < pr[j].n; y++)
					if (pr[i].port[x] == pr[j].port[y])
						port = pr[i].port[x];
			const char *where;
			if (!port || !classes_overlap(r, pr[i].cls, pr[j].cls, &where))
				continue;
			/* two servers on one node: lmcache-server-overlap says it */
			if (svc_kind_is(a->type, KIND_LMCACHE_SERVER) && svc_kind_is(b->type, KIND_LMCACHE_SERVER))
				continue;
			char *path = vsvc_path(r, b->cfg ? b : a);
			diag_add(out, DIAG_ERROR, "service-port-clash", path,
				 "place them on different nodes, or change one readiness port (and the port the service listens on)",
				 "services[%s] and services[%s] both listen on port %d on node %s; give them disjoint placements or ports",
				 a->name, b->name, port, where);
			free(path);
			break;
		}
	}
	free(done);
	free(pr);
}

/* ---- srt-tui's stricter lmcache-server rules over effective services ------- */

static void check_lmcache_overlap(const struct recipe *r, struct diag_list *out)
{
	/* each later server is reported once, against the first it shares nodes with */
	for (size_t j = 1; j < r->nsvc; j++) {
		const struct service *b = &r->svc[j];
		if (!svc_kind_is(b->type, KIND_LMCACHE_SERVER) || !vsvc_launches(b))
			continue;
		char cb[160];
		svc_class(b, cb, sizeof(cb));
		for (size_t i = 0; i < j; i++) {
			const struct service *a = &r->svc[i];
			if (!svc_kind_is(a->type, KIND_LMCACHE_SERVER) || !vsvc_launches(a))
				continue;
			char ca[160];
			const char *where;
			svc_class(a, ca, sizeof(ca));
			if (!classes_overlap(r, ca, cb, &where))
				continue;
			char *path = vsvc_path(r, b->cfg ? b : a);
			diag_add(out, DIAG_ERROR, "lmcache-server-overlap", path,
				 "keep one lmcache-server per node: give them disjoint placements (e.g. prefill and decode), or remove one",
				 "services[%s] and services[%s] both run an lmcache-server on the %s nodes; both would bind ports %d and %d",
				 a->name, b->name, where, LMCACHE_RPC_PORT, LMCACHE_HTTP_PORT);
			free(path);
			break;
		}
	}
}

/* The workers' PYTHONHASHSEED: top-level environment wins over role env. */
static const char *workers_seed(const struct recipe *r, const char **src)
{
	const char *v = jget_str(jget_obj(r->root, "environment"), "PYTHONHASHSEED");
	if (v) {
		*src = "environment.PYTHONHASHSEED";
		return v;
	}
	static const char *const src_role[ROLE_COUNT] = { "roles.prefill.env.PYTHONHASHSEED",
							  "roles.decode.env.PYTHONHASHSEED",
							  "roles.agg.env.PYTHONHASHSEED" };
	for (int i = 0; i < ROLE_COUNT; i++) {
		v = r->role[i].present ? jget_str(r->role[i].env, "PYTHONHASHSEED") : NULL;
		if (v) {
			*src = src_role[i];
			return v;
		}
	}
	return NULL;
}

static void check_hashseed(const struct recipe *r, struct diag_list *out)
{
	const char *src = NULL;
	const char *seed = workers_seed(r, &src);
	if (!seed)
		return;
	for (size_t i = 0; i < r->nsvc; i++) {
		const struct service *s = &r->svc[i];
		if (!svc_kind_is(s->type, KIND_LMCACHE_SERVER) || !vsvc_launches(s))
			continue;
		char hint[256];
		if (!s->cfg) {
			snprintf(hint, sizeof(hint),
				 "declare it to set its env: {name: %s, type: lmcache-server, env: {PYTHONHASHSEED: \"%s\"}}",
				 s->name, seed);
			diag_add(out, DIAG_WARNING, "lmcache-hashseed", src, hint,
				 "the implied services[%s] does not get PYTHONHASHSEED (%s sets it for the workers): services do not inherit it, so LMCache chunk hashes would disagree",
				 s->name, src);
			continue;
		}
		json_t *env = jget_obj(s->cfg, "env");
		const char *own = jget_str(env, "PYTHONHASHSEED");
		if (own && !strcmp(own, seed))
			continue;
		char *path = vsvc_path(r, s);
		char *epath = xasprintf("%s%s", path, env ? ".env" : "");
		snprintf(hint, sizeof(hint), "add PYTHONHASHSEED: \"%s\" to services[%s].env", seed, s->name);
		if (!own)
			diag_add(out, DIAG_WARNING, "lmcache-hashseed", epath, hint,
				 "services[%s].env does not set PYTHONHASHSEED although the workers do (%s): services do not inherit it, so LMCache chunk hashes would disagree",
				 s->name, src);
		else
			diag_add(out, DIAG_WARNING, "lmcache-hashseed", epath, hint,
				 "services[%s].env sets PYTHONHASHSEED to '%s' but the workers use '%s' (%s): LMCache chunk hashes would disagree",
				 s->name, own, seed, src);
		free(path);
		free(epath);
	}
}

void validate_services(const struct recipe *r, struct diag_list *out)
{
	json_t *list = jget_arr(r->root, "services");
	struct vnames names;
	size_t i;
	json_t *e;
	vnames_init(&names, list);
	json_array_foreach(list, i, e) {
		if (!json_is_object(e))
			continue;
		struct sv v = { .r = r, .out = out, .cfg = e, .path = STRBUF_INIT };
		vpath_item_named(&v.path, "services", &names, i);
		v.plen = v.path.len;
		json_t *name = json_object_get(e, "name");
		if (!name || (json_is_string(name) && !*json_string_value(name)) ||
		    (json_is_string(name) && strspn(json_string_value(name), " \t") ==
						     strlen(json_string_value(name)))) {
			diag_add(out, DIAG_ERROR, "service-name", at(&v, name ? "name" : NULL),
				 "give the service a name; it names its step and log (service_<name>.out)",
				 "services[].name must be a non-empty string");
			strbuf_release(&v.path);
			continue;
		}
		v.name = vsvc_name(e);
		/* duplicate names: the second and later entries (an earlier one of the
		 * name passed the check above too) */
		if (json_is_string(name) && names.first[i] != i) {
			char hint[160];
			snprintf(hint, sizeof(hint), "rename one of the services named '%s'", v.name);
			diag_add(out, DIAG_ERROR, "service-name-unique", at(&v, "name"), hint,
				 "services[%s].name must be unique", v.name);
		}
		v.type = json_is_string(json_object_get(e, "type")) ? jget_str(e, "type")
			 : json_object_get(e, "type") ? NULL : KIND_NAME(KIND_GENERIC);
		v.kind = v.type ? svc_kind_find(v.type) : NULL;
		/* `{name: etcd, enabled: false}` only removes a service: nothing to launch */
		if (jget_bool(e, "enabled", 1))
			check_declared(&v);
		strbuf_release(&v.path);
	}
	vnames_release(&names);
	check_port_clash(r, out);
	check_lmcache_overlap(r, out);
	check_hashseed(r, out);
	validate_lmcache(r, out);
}
