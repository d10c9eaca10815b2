/*
 * cluster_lint.c — srtctl's cluster schema (ClusterConfig, as `srtctl schema
 * --cluster` describes it) as one table, and the lint that walks a parsed
 * srtslurm.yaml against it.
 *
 * srtctl loads the file with marshmallow and, on any error, logs one WARNING
 * and drops the whole file; so every finding that marshmallow would reject is
 * an error here, worded to say that.  Values marshmallow coerces (an integer
 * written as "8", a boolean written as "yes") load in srtctl and are warnings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/cluster.h"
#include "model/path.h"
#include "model/schema.h"
#include "lib/util.h"
#include "lib/json.h"

enum {
	T_STR = 1, T_INT = 2, T_NUM = 4, T_BOOL = 8, T_NULL = 16, T_MAP = 32, T_ARR = 64,
};
#define REQ 1u /* flags: required inside its block */

struct ckey {
	const char *name;
	unsigned types;            /* accepted JSON types */
	const struct ckey *sub;    /* T_MAP with fixed keys: the block's keys */
	unsigned vals;             /* T_MAP free map: type of values (0 = any); T_ARR: items */
	const char *const *enumv;  /* allowed strings, NULL-terminated */
	unsigned flags;
};
#define END { NULL, 0, NULL, 0, NULL, 0 }

static const char *const launcher_vals[] = { "slurm", "docker", NULL };
static const char *const nodes_vals[] = { "all", "workers", NULL };
static const char *const kind_vals[] = { "dcgm", "custom", NULL };

static const struct ckey gpu_metric[] = {
	{ "metric", T_STR, NULL, 0, NULL, REQ }, END,
};
static const struct ckey gpu_power[] = {
	{ "metric", T_STR, NULL, 0, NULL, REQ },
	{ "scope", T_STR, NULL, 0, NULL, REQ }, END,
};
static const struct ckey gpu_metrics[] = {
	{ "power", T_MAP, gpu_power, 0, NULL, REQ },
	{ "gpu_util", T_MAP | T_NULL, gpu_metric, 0, NULL, 0 },
	{ "sm_active", T_MAP | T_NULL, gpu_metric, 0, NULL, 0 },
	{ "temperature", T_MAP | T_NULL, gpu_metric, 0, NULL, 0 }, END,
};
static const struct ckey gpu_labels[] = {
	{ "index", T_STR, NULL, 0, NULL, REQ },
	{ "identity", T_STR, NULL, 0, NULL, REQ },
	{ "instance", T_ARR, NULL, T_STR, NULL, 0 }, END,
};
static const struct ckey exporter[] = {
	{ "container_image", T_STR, NULL, 0, NULL, REQ },
	{ "port", T_INT, NULL, 0, NULL, REQ },
	{ "command", T_STR | T_NULL, NULL, 0, NULL, 0 },
	{ "binary", T_STR | T_NULL, NULL, 0, NULL, 0 },
	{ "kind", T_STR, NULL, 0, kind_vals, 0 },
	{ "gpu_labels", T_MAP | T_NULL, gpu_labels, 0, NULL, 0 },
	{ "gpu_metrics", T_MAP | T_NULL, gpu_metrics, 0, NULL, 0 }, END,
};
static const struct ckey host_setup[] = {
	{ "commands", T_ARR, NULL, T_STR, NULL, 0 },
	{ "teardown", T_ARR, NULL, T_STR, NULL, 0 },
	{ "nodes", T_STR, NULL, 0, nodes_vals, 0 },
	{ "ignore_failure", T_BOOL, NULL, 0, NULL, 0 },
	{ "timeout_seconds", T_INT, NULL, 0, NULL, 0 }, END,
};
static const struct ckey status_cfg[] = {
	{ "endpoint", T_STR | T_NULL, NULL, 0, NULL, 0 },
	{ "endpoints", T_ARR | T_NULL, NULL, T_STR, NULL, 0 },
	{ "token_env", T_STR | T_NULL, NULL, 0, NULL, 0 },
	{ "logging-stream-interval", T_NUM | T_NULL, NULL, 0, NULL, 0 }, END,
};
static const struct ckey ai_cfg[] = {
	{ "enabled", T_BOOL, NULL, 0, NULL, 0 },
	{ "openrouter_api_key", T_STR | T_NULL, NULL, 0, NULL, 0 },
	{ "gh_token", T_STR | T_NULL, NULL, 0, NULL, 0 },
	{ "repos_to_search", T_ARR, NULL, T_STR, NULL, 0 },
	{ "pr_search_days", T_INT, NULL, 0, NULL, 0 },
	{ "prompt", T_STR | T_NULL, NULL, 0, NULL, 0 }, END,
};
static const struct ckey s3_cfg[] = {
	{ "bucket", T_STR, NULL, 0, NULL, REQ },
	{ "prefix", T_STR | T_NULL, NULL, 0, NULL, 0 },
	{ "region", T_STR | T_NULL, NULL, 0, NULL, 0 },
	{ "endpoint_url", T_STR | T_NULL, NULL, 0, NULL, 0 },
	{ "access_key_id", T_STR | T_NULL, NULL, 0, NULL, 0 },
	{ "secret_access_key", T_STR | T_NULL, NULL, 0, NULL, 0 },
	{ "exclude", T_ARR | T_NULL, NULL, T_STR, NULL, 0 },
	{ "archive", T_ARR | T_NULL, NULL, T_STR, NULL, 0 }, END,
};
static const struct ckey reporting[] = {
	{ "status", T_MAP | T_NULL, status_cfg, 0, NULL, 0 },
	{ "ai_analysis", T_MAP | T_NULL, ai_cfg, 0, NULL, 0 },
	{ "s3", T_MAP | T_NULL, s3_cfg, 0, NULL, 0 }, END,
};

#define SN (T_STR | T_NULL)
#define MAPSTR (T_MAP | T_NULL), NULL, T_STR, NULL, 0
static const struct ckey top[] = {
	{ "cluster", SN, NULL, 0, NULL, 0 },
	{ "default_account", SN, NULL, 0, NULL, 0 },
	{ "default_partition", SN, NULL, 0, NULL, 0 },
	{ "default_time_limit", SN, NULL, 0, NULL, 0 },
	{ "gpus_per_node", T_INT | T_NULL, NULL, 0, NULL, 0 },
	{ "default_gpu_type", SN, NULL, 0, NULL, 0 },
	{ "network_interface", SN, NULL, 0, NULL, 0 },
	{ "visible_devices_env", T_STR, NULL, 0, NULL, 0 },
	{ "default_gpu_exporter", T_MAP | T_NULL, exporter, 0, NULL, 0 },
	{ "use_gpus_per_node_directive", T_BOOL, NULL, 0, NULL, 0 },
	{ "use_segment_sbatch_directive", T_BOOL, NULL, 0, NULL, 0 },
	{ "use_exclusive_sbatch_directive", T_BOOL, NULL, 0, NULL, 0 },
	{ "use_het_jobs", T_BOOL, NULL, 0, NULL, 0 },
	{ "default_sbatch_directives", MAPSTR },
	{ "default_health_check", T_MAP | T_NULL, NULL, T_INT, NULL, 0 },
	{ "srtctl_root", SN, NULL, 0, NULL, 0 },
	{ "output_dir", SN, NULL, 0, NULL, 0 },
	{ "model_paths", MAPSTR },
	{ "containers", MAPSTR },
	{ "cloud", MAPSTR },
	{ "default_mounts", MAPSTR },
	{ "default_bash_preamble", SN, NULL, 0, NULL, 0 },
	{ "default_host_setup", T_MAP | T_NULL, host_setup, 0, NULL, 0 },
	{ "reporting", T_MAP | T_NULL, reporting, 0, NULL, 0 },
	{ "telemetry", T_MAP | T_NULL, NULL, 0, NULL, 0 },
	{ "nginx_raise_ulimit", T_BOOL | T_NULL, NULL, 0, NULL, 0 },
	{ "git_http_version", SN, NULL, 0, NULL, 0 },
	{ "preflight", T_BOOL, NULL, 0, NULL, 0 },
	{ "launcher", T_STR, NULL, 0, launcher_vals, 0 },
	{ "docker_args", T_ARR | T_NULL, NULL, T_STR, NULL, 0 },
	END,
};

static const char ignored_hint[] =
	"srtctl drops the whole srtslurm.yaml over this (one WARNING in its log) and runs "
	"with no cluster defaults or aliases; fix the key or remove it";

static const char *type_words(unsigned t)
{
	if (t & T_MAP)
		return t & T_NULL ? "a mapping or null" : "a mapping";
	if (t & T_ARR)
		return t & T_NULL ? "a list or null" : "a list";
	if (t & T_STR)
		return t & T_NULL ? "a string or null" : "a string";
	if (t & T_BOOL)
		return t & T_NULL ? "true, false or null" : "true or false";
	if (t & T_INT)
		return t & T_NULL ? "an integer or null" : "an integer";
	if (t & T_NUM)
		return t & T_NULL ? "a number or null" : "a number";
	return "null";
}

static const char *json_words(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "a mapping";
	case JSON_ARRAY: return "a list";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

/* marshmallow's Boolean accepts these spellings too. */
static int lenient_bool(const json_t *v)
{
	static const char *const words[] = { "t", "true", "on", "y", "yes", "1",
					     "f", "false", "off", "n", "no", "0", NULL };
	if (json_is_integer(v))
		return json_integer_value(v) == 0 || json_integer_value(v) == 1;
	if (!json_is_string(v))
		return 0;
	for (const char *const *w = words; *w; w++)
		if (!strcasecmp(json_string_value(v), *w))
			return 1;
	return 0;
}

/* marshmallow's Integer (not strict) accepts "8" and 8.0. */
static int lenient_int(const json_t *v)
{
	if (json_is_real(v))
		return json_real_value(v) == (double)(long long)json_real_value(v);
	if (!json_is_string(v))
		return 0;
	const char *s = json_string_value(v);
	char *end;
	if (*s == '+' || *s == '-')
		s++;
	if (!*s)
		return 0;
	(void)strtoll(s, &end, 10);
	return *end == '\0';
}

/* 0 the value has one of the types, 1 marshmallow coerces it, -1 rejects it. */
static int type_ok(unsigned t, const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_NULL: if (t & T_NULL) return 0; break;
	case JSON_OBJECT: if (t & T_MAP) return 0; break;
	case JSON_ARRAY: if (t & T_ARR) return 0; break;
	case JSON_STRING: if (t & T_STR) return 0; break;
	case JSON_INTEGER: if (t & (T_INT | T_NUM)) return 0; break;
	case JSON_REAL: if (t & T_NUM) return 0; break;
	case JSON_TRUE: case JSON_FALSE: if (t & T_BOOL) return 0; break;
	}
	if ((t & T_BOOL) && lenient_bool(v))
		return 1;
	if ((t & (T_INT | T_NUM)) && lenient_int(v))
		return 1;
	if ((t & T_NUM) && json_is_string(v)) {
		char *end;
		(void)strtod(json_string_value(v), &end);
		if (*json_string_value(v) && !*end)
			return 1;
	}
	return -1;
}

static void lint_value(const struct ckey *k, json_t *v, struct path *p, struct diag_list *out);

static void lint_block(const struct ckey *keys, json_t *obj, struct path *p, struct diag_list *out)
{
	const char *name;
	json_t *v;
	const char *cands[64];
	size_t nc = 0;

	for (const struct ckey *k = keys; k->name; k++)
		if (nc < 64)
			cands[nc++] = k->name;
	json_object_foreach(obj, name, v) {
		const struct ckey *k = keys;
		while (k->name && strcmp(k->name, name))
			k++;
		path_push_key(p, name);
		if (!k->name) {
			char *where = path_format(p, (size_t)-1);
			const char *near = schema_suggest(name, cands, nc);
			char *hint = near ? xasprintf("did you mean '%s'? %s", near, ignored_hint)
					  : xstrdup(ignored_hint);
			diag_add(out, DIAG_ERROR, "cluster-unknown-key", where, hint,
				 "unknown key '%s' in the cluster file: srtctl ignores the whole file", where);
			free(hint);
			free(where);
		} else {
			lint_value(k, v, p, out);
		}
		path_pop(p);
	}
	for (const struct ckey *k = keys; k->name; k++)
		if ((k->flags & REQ) && !json_object_get(obj, k->name)) {
			char *where = path_format(p, (size_t)-1);
			diag_add(out, DIAG_ERROR, "cluster-missing-key", where, ignored_hint,
				 "'%s%s%s' is required in the cluster file: srtctl ignores the whole file",
				 where, *where ? "." : "", k->name);
			free(where);
		}
}

static void lint_value(const struct ckey *k, json_t *v, struct path *p, struct diag_list *out)
{
	char *where = path_format(p, (size_t)-1);
	int ok = type_ok(k->types, v);

	if (ok < 0) {
		diag_add(out, DIAG_ERROR, "cluster-type", where, ignored_hint,
			 "'%s' must be %s, not %s: srtctl ignores the whole cluster file", where,
			 type_words(k->types), json_words(v));
	} else if (ok > 0) {
		char *txt = json_text(v, JSON_ENCODE_ANY);
		diag_add(out, DIAG_WARNING, "cluster-coerced", where,
			 "srtctl converts it; write the value without quotes",
			 "'%s' is %s written as %s", where, type_words(k->types & ~T_NULL), txt);
		free(txt);
	} else if (k->enumv && json_is_string(v)) {
		const char *s = json_string_value(v);
		const char *const *e = k->enumv;
		while (*e && strcmp(*e, s))
			e++;
		if (!*e) {
			struct strbuf sb = STRBUF_INIT;
			for (e = k->enumv; *e; e++)
				strbuf_addf(&sb, "%s%s", e == k->enumv ? "" : ", ", *e);
			diag_add(out, DIAG_ERROR, "cluster-enum", where, ignored_hint,
				 "'%s' must be one of %s, not '%s': srtctl ignores the whole cluster file",
				 where, sb_str(&sb), s);
			strbuf_release(&sb);
		}
	} else if (json_is_object(v) && k->sub) {
		lint_block(k->sub, v, p, out);
	} else if (json_is_object(v) && k->vals) {
		const char *name;
		json_t *x;
		json_object_foreach(v, name, x) {
			struct ckey item = { name, k->vals, NULL, 0, NULL, 0 };
			path_push_key(p, name);
			lint_value(&item, x, p, out);
			path_pop(p);
		}
	} else if (json_is_array(v) && k->vals) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x) {
			struct ckey item = { "", k->vals, NULL, 0, NULL, 0 };
			path_push_index(p, i);
			lint_value(&item, x, p, out);
			path_pop(p);
		}
	}
	free(where);
}

void cluster_lint_tree(json_t *root, struct diag_list *out)
{
	struct path p = PATH_INIT;

	if (!json_is_object(root)) {
		diag_add(out, DIAG_ERROR, "cluster-not-mapping", "", ignored_hint,
			 "the cluster file must be a mapping of settings, not %s: srtctl ignores it",
			 root ? json_words(root) : "empty");
		return;
	}
	lint_block(top, root, &p, out);
	path_release(&p);
}

static void known(const struct ckey *keys, const char *prefix,
		  void (*fn)(const char *, void *), void *ctx)
{
	for (const struct ckey *k = keys; k->name; k++) {
		char *d = *prefix ? xasprintf("%s.%s", prefix, k->name) : xstrdup(k->name);
		fn(d, ctx);
		if (k->sub)
			known(k->sub, d, fn, ctx);
		free(d);
	}
}

void cluster_known_keys(void (*fn)(const char *dotted, void *ctx), void *ctx)
{
	known(top, "", fn, ctx);
}
