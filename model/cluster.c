/*
 * cluster.c — finding srtslurm.yaml as srtctl does, loading it, and applying
 * it to a recipe tree (srtctl's resolve_config_with_defaults), with the
 * provenance of every value it sets.  The schema lint is cluster_lint.c.
 */
#include <stdarg.h>
#include <strings.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/cluster.h"
#include "model/doc.h"
#include "model/path.h"
#include "lib/util.h"

char *cluster_srtctl_dir(const char *dir)
{
	char buf[PATH_MAX];
	const char *env = getenv("SRT_TUI_SRTCTL_DIR");

	if (!dir || !*dir)
		dir = env && *env ? env : NULL;
	if (dir) {
		if (realpath(dir, buf))
			return xstrdup(buf);
		return xstrdup(dir);
	}
	if (getcwd(buf, sizeof(buf)))
		return xstrdup(buf);
	return xstrdup(".");
}

static int is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

/* dir's parent, as Path.parent does ("/" stays "/"). */
static char *parent_of(const char *dir)
{
	const char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return xstrdup("/");
	return xstrndup(dir, (size_t)(slash - dir));
}

int cluster_load_file(struct cluster *c, const char *path, const char *origin)
{
	struct diag_list parse = DIAG_LIST_INIT;
	struct doc *d;

	free(c->path);
	free(c->origin);
	c->path = xstrdup(path);
	c->origin = xstrdup(origin);
	json_decref(c->cfg);
	c->cfg = NULL;
	d = doc_load_file(path, &parse);
	if (!d) {
		/* srtctl's yaml.safe_load fails, or yields no mapping: the file is dropped */
		for (size_t i = 0; i < parse.n; i++)
			if (parse.v[i].severity == DIAG_ERROR && !parse.v[i].hint)
				parse.v[i].hint = xstrdup("srtctl cannot read it and runs with no "
							  "cluster defaults or aliases");
		diag_list_move(&c->diags, &parse);
		if (!diag_count(&c->diags, DIAG_ERROR))
			diag_add(&c->diags, DIAG_ERROR, "cluster-unreadable", "", NULL,
				 "cannot read the cluster file: srtctl ignores it");
		c->state = CLUSTER_IGNORED;
		diag_list_release(&parse);
		return 0;
	}
	diag_list_move(&c->diags, &parse);
	diag_list_release(&parse);
	{
		json_t *root = doc_json(d);
		struct diag_list lint = DIAG_LIST_INIT;
		cluster_lint_tree(root, &lint);
		doc_locate_diags(d, &lint);
		diag_list_move(&c->diags, &lint);
		diag_list_release(&lint);
		diag_sort(&c->diags);
		if (diag_count(&c->diags, DIAG_ERROR)) {
			c->state = CLUSTER_IGNORED;
			json_decref(root);
		} else {
			c->state = CLUSTER_LOADED;
			c->cfg = root;
		}
	}
	doc_free(d);
	return 0;
}

int cluster_discover(struct cluster *c, const char *srtctl_dir)
{
	const char *env = getenv("SRTSLURM_CONFIG");
	static const char *const origins[] = { "the srtctl directory", "1 level up",
					       "2 levels up" };
	char *dir;

	c->state = CLUSTER_NONE;
	free(c->srtctl_dir);
	c->srtctl_dir = cluster_srtctl_dir(srtctl_dir);
	if (env && *env) {
		/* srtctl: set but missing means no cluster file at all */
		if (!is_file(env)) {
			c->path = xstrdup(env);
			c->origin = xstrdup("SRTSLURM_CONFIG");
			c->state = CLUSTER_IGNORED;
			diag_add(&c->diags, DIAG_ERROR, "cluster-env-missing", "",
				 "point SRTSLURM_CONFIG at an existing srtslurm.yaml, or unset it to "
				 "search the srtctl directory and its two parents",
				 "SRTSLURM_CONFIG is set to '%s', which does not exist: srtctl uses no "
				 "cluster file at all (no defaults, no aliases)", env);
			return 0;
		}
		return cluster_load_file(c, env, "SRTSLURM_CONFIG");
	}
	dir = xstrdup(c->srtctl_dir);
	for (int up = 0; up < 3; up++) {
		char *cand = !strcmp(dir, "/") ? xstrdup("/srtslurm.yaml")
					       : xasprintf("%s/srtslurm.yaml", dir);
		char *next = parent_of(dir);
		if (is_file(cand)) {
			cluster_load_file(c, cand, origins[up]);
			free(cand);
			free(next);
			free(dir);
			return 0;
		}
		free(cand);
		free(dir);
		dir = next;
	}
	free(dir);
	return 0;
}

void cluster_release(struct cluster *c)
{
	free(c->srtctl_dir);
	free(c->path);
	free(c->origin);
	diag_list_release(&c->diags);
	json_decref(c->cfg);
	memset(c, 0, sizeof(*c));
}

char *cluster_describe(const struct cluster *c)
{
	switch (c->state) {
	case CLUSTER_LOADED:
		return xasprintf("cluster: %s (%s)", c->path, c->origin);
	case CLUSTER_IGNORED:
		return xasprintf("cluster: %s (%s) IGNORED by srtctl: %zu error%s, so no cluster "
				 "defaults or aliases apply", c->path, c->origin,
				 diag_count(&c->diags, DIAG_ERROR),
				 diag_count(&c->diags, DIAG_ERROR) == 1 ? "" : "s");
	default:
		return xasprintf("cluster: no cluster file (no srtslurm.yaml in %s or its two "
				 "parents, SRTSLURM_CONFIG unset)", c->srtctl_dir ? c->srtctl_dir : ".");
	}
}

const char *cluster_short(const struct cluster *c)
{
	switch (c->state) {
	case CLUSTER_LOADED: return "srtslurm.yaml";
	case CLUSTER_IGNORED: return "srtslurm.yaml ignored";
	default: return "no cluster file";
	}
}

json_t *cluster_get(const struct cluster *c, const char *key)
{
	if (!c || c->state != CLUSTER_LOADED)
		return NULL;
	return json_object_get(c->cfg, key);
}

const char *cluster_str(const struct cluster *c, const char *key, const char *dflt)
{
	json_t *v = cluster_get(c, key);
	return json_is_string(v) ? json_string_value(v) : dflt;
}

static int truthy_text(const char *s)
{
	static const char *const yes[] = { "t", "true", "on", "y", "yes", "1", NULL };
	for (const char *const *w = yes; *w; w++)
		if (!strcasecmp(s, *w))
			return 1;
	return 0;
}

int cluster_bool(const struct cluster *c, const char *key, int dflt)
{
	json_t *v = cluster_get(c, key);
	if (json_is_boolean(v))
		return json_is_true(v);
	if (json_is_integer(v))
		return json_integer_value(v) != 0;
	if (json_is_string(v)) /* marshmallow's Boolean coerces these */
		return truthy_text(json_string_value(v));
	return dflt;
}

const char *cluster_visible_devices_env(const struct cluster *c)
{
	const char *v = cluster_str(c, "visible_devices_env", NULL);
	return v && *v ? v : "CUDA_VISIBLE_DEVICES";
}

/* ---- provenance ----------------------------------------------------------- */

void cluster_provs_release(struct cluster_provs *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].path);
		free(p->v[i].source);
		free(p->v[i].from);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}

const struct cluster_prov *cluster_prov_find(const struct cluster_provs *p, const char *path)
{
	for (size_t i = 0; p && i < p->n; i++)
		if (!strcmp(p->v[i].path, path))
			return &p->v[i];
	return NULL;
}

static void prov_add(struct cluster_provs *p, const char *path, const char *from,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void prov_add(struct cluster_provs *p, const char *path, const char *from,
		     const char *fmt, ...)
{
	va_list ap;
	if (!p)
		return;
	ALLOC_GROW(p->v, p->n + 1, p->alloc);
	p->v[p->n].path = xstrdup(path);
	p->v[p->n].from = from ? xstrdup(from) : NULL;
	va_start(ap, fmt);
	p->v[p->n].source = xvasprintf(fmt, ap);
	va_end(ap);
	p->n++;
}

/* ---- apply (resolve_config_with_defaults) --------------------------------- */

/* Python truthiness of a JSON value. */
static int truthy(const json_t *v)
{
	if (!v)
		return 0;
	switch (json_typeof(v)) {
	case JSON_NULL: case JSON_FALSE: return 0;
	case JSON_STRING: return json_string_length(v) > 0;
	case JSON_INTEGER: return json_integer_value(v) != 0;
	case JSON_REAL: return json_real_value(v) != 0.0;
	case JSON_OBJECT: return json_object_size(v) > 0;
	case JSON_ARRAY: return json_array_size(v) > 0;
	default: return 1;
	}
}

/* The keys whose string values name an image, and the free-form blocks the
 * alias walker never enters (srtctl's CONTAINER_ALIAS_KEYS and skip set). */
static const char *const image_keys[] = { "container", "container_image", "image",
					  "nginx_container", NULL };
static const char *const skip_keys[] = { "identity", "environment", "env", "args",
					 "extra_args", "container_mounts", "sbatch_directives",
					 "srun_options", "store_config", NULL };

static int in_list(const char *k, const char *const *l)
{
	for (; *l; l++)
		if (!strcmp(k, *l))
			return 1;
	return 0;
}

/* node with the image aliases in it resolved.  An owned node is changed in
 * place; any other is shared with the recipe's tree and left as it is: the
 * result is then a copy of what had to change (shallow copies on the way
 * down, so the rest stays shared), or NULL when nothing in it names an
 * alias. */
static json_t *resolve_images(json_t *node, int owned, struct path *p, json_t *aliases,
			      struct cluster_provs *prov)
{
	json_t *out = owned ? node : NULL, *v, *nv;
	if (json_is_object(node)) {
		const char *k;
		json_object_foreach(node, k, v) {
			if (in_list(k, skip_keys))
				continue;
			path_push_key(p, k);
			nv = NULL;
			if (in_list(k, image_keys) && json_is_string(v) &&
			    json_is_string(json_object_get(aliases, json_string_value(v)))) {
				const char *name = json_string_value(v);
				char *where = path_format(p, (size_t)-1);
				prov_add(prov, where, name, "cluster alias %s", name);
				nv = json_string(json_string_value(json_object_get(aliases, name)));
				free(where);
			} else if (json_is_object(v) || json_is_array(v)) {
				nv = resolve_images(v, 0, p, aliases, prov);
			}
			if (nv) {
				if (!out)
					out = json_copy(node);
				json_object_set_new(out, k, nv);
			}
			path_pop(p);
		}
	} else if (json_is_array(node)) {
		size_t i;
		json_array_foreach(node, i, v) {
			path_push_index(p, i);
			nv = resolve_images(v, 0, p, aliases, prov);
			if (nv) {
				if (!out)
					out = json_copy(node);
				json_array_set_new(out, i, nv);
			}
			path_pop(p);
		}
	}
	return out;
}

/* parent[key] as a mapping of root's own: a shallow copy put in its place
 * (created when absent and create is set), so that setting keys in it
 * changes nothing another tree shares.  Anything else is returned as is. */
static json_t *own_obj(json_t *parent, const char *key, int create)
{
	json_t *v = json_object_get(parent, key);
	if (!v && create) {
		v = json_object();
		json_object_set_new(parent, key, v);
	} else if (json_is_object(v)) {
		v = json_copy(v);
		json_object_set_new(parent, key, v);
	}
	return v;
}

static int applies(const struct cluster *c, const json_t *root)
{
	return c && c->state == CLUSTER_LOADED && json_is_object(root);
}

json_t *cluster_applied(const struct cluster *c, json_t *tree, struct cluster_provs *prov)
{
	if (!applies(c, tree))
		return json_incref(tree);
	json_t *copy = json_copy(tree);
	cluster_apply(c, copy, prov);
	return copy;
}

void cluster_apply(const struct cluster *c, json_t *root, struct cluster_provs *prov)
{
	json_t *cfg, *slurm, *res, *v;
	static const char *const slurm_keys[][2] = {
		{ "account", "default_account" },
		{ "partition", "default_partition" },
		{ "time_limit", "default_time_limit" },
	};

	if (!applies(c, root))
		return;
	cfg = c->cfg;

	/* slurm.*: only when the key is absent (an explicit null stays null) */
	slurm = own_obj(root, "slurm", 1);
	for (size_t i = 0; json_is_object(slurm) && i < 3; i++) {
		v = json_object_get(cfg, slurm_keys[i][1]);
		if (!json_object_get(slurm, slurm_keys[i][0]) && truthy(v)) {
			char *where = xasprintf("slurm.%s", slurm_keys[i][0]);
			json_object_set(slurm, slurm_keys[i][0], v);
			prov_add(prov, where, NULL, "cluster: %s", slurm_keys[i][1]);
			free(where);
		}
	}

	/* resources: only when the recipe has a resources mapping */
	res = own_obj(root, "resources", 0);
	if (json_is_object(res)) {
		v = json_object_get(cfg, "default_gpu_type");
		if (!truthy(json_object_get(res, "gpu_type")) && truthy(v)) {
			json_object_set(res, "gpu_type", v);
			prov_add(prov, "resources.gpu_type", NULL, "cluster: default_gpu_type");
		}
		v = json_object_get(cfg, "gpus_per_node");
		if (!json_object_get(res, "gpus_per_node") && v && !json_is_null(v)) {
			json_object_set(res, "gpus_per_node", v);
			prov_add(prov, "resources.gpus_per_node", NULL, "cluster: gpus_per_node");
		}
	}

	/* default_sbatch_directives: per key, the recipe's wins */
	v = json_object_get(cfg, "default_sbatch_directives");
	if (json_is_object(v)) {
		json_t *sd = own_obj(root, "sbatch_directives", 1), *x;
		const char *k;
		if (json_is_object(sd))
			json_object_foreach(v, k, x)
				if (!json_object_get(sd, k)) {
					char *where = xasprintf("sbatch_directives.%s", k);
					json_object_set(sd, k, x);
					prov_add(prov, where, NULL, "cluster: default_sbatch_directives");
					free(where);
				}
	}

	/* use_het_jobs: when resources.het_jobs is null or absent */
	if (json_is_object(res)) {
		v = json_object_get(res, "het_jobs");
		json_t *het = json_object_get(cfg, "use_het_jobs");
		if ((!v || json_is_null(v)) && het && !json_is_null(het)) {
			json_object_set_new(res, "het_jobs", json_boolean(cluster_bool(c, "use_het_jobs", 0)));
			prov_add(prov, "resources.het_jobs", NULL, "cluster: use_het_jobs");
		}
	}

	/* model.path alias */
	{
		json_t *model = own_obj(root, "model", 0);
		json_t *paths = json_object_get(cfg, "model_paths");
		const char *mp = json_is_object(model) ? json_string_value(json_object_get(model, "path")) : NULL;
		if (mp && json_is_object(paths) && json_is_string(json_object_get(paths, mp))) {
			char *name = xstrdup(mp);
			json_object_set(model, "path", json_object_get(paths, name));
			prov_add(prov, "model.path", name, "cluster alias %s", name);
			free(name);
		}
	}

	/* the cluster GPU exporter, before container aliases */
	if (json_object_get(cfg, "default_gpu_exporter")) {
		json_t *obs = own_obj(root, "observability", 1);
		json_t *tach = json_is_object(obs) ? own_obj(obs, "tachometer", 1) : NULL;
		if (json_is_object(tach) && !json_object_get(tach, "default_gpu_exporter")) {
			json_object_set_new(tach, "default_gpu_exporter",
					    json_deep_copy(json_object_get(cfg, "default_gpu_exporter")));
			prov_add(prov, "observability.tachometer.default_gpu_exporter", NULL,
				 "cluster: default_gpu_exporter");
		}
		json_t *tel = own_obj(root, "telemetry", 0);
		json_t *exp = json_object_get(cfg, "default_gpu_exporter");
		if (json_is_object(tel) && truthy(json_object_get(tel, "enabled")) &&
		    json_is_object(exp) && !json_object_get(tel, "dcgm_exporter") &&
		    !json_object_get(tel, "cpu_power_exporter") && !json_object_get(tel, "cpu_power")) {
			json_object_set_new(tel, "dcgm_exporter", json_deep_copy(exp));
			prov_add(prov, "telemetry.dcgm_exporter", NULL, "cluster: default_gpu_exporter");
		}
	}

	/* every container alias, in one walk */
	v = json_object_get(cfg, "containers");
	if (json_is_object(v) && json_object_size(v)) {
		struct path p = PATH_INIT;
		resolve_images(root, 1, &p, v, prov);
		path_release(&p);
	}

	/* whole blocks, when the recipe has none */
	{
		static const char *const blocks[][2] = {
			{ "reporting", "reporting" },
			{ "health_check", "default_health_check" },
			{ "host_setup", "default_host_setup" },
		};
		for (size_t i = 0; i < 3; i++) {
			v = json_object_get(cfg, blocks[i][1]);
			if (!json_object_get(root, blocks[i][0]) && truthy(v)) {
				json_object_set_new(root, blocks[i][0], json_deep_copy(v));
				prov_add(prov, blocks[i][0], NULL, "cluster: %s", blocks[i][1]);
			}
		}
	}

	/* frontend.nginx_raise_ulimit */
	v = json_object_get(cfg, "nginx_raise_ulimit");
	if (v && !json_is_null(v)) {
		json_t *fe = own_obj(root, "frontend", 1);
		if (json_is_object(fe) && !json_object_get(fe, "nginx_raise_ulimit")) {
			json_object_set(fe, "nginx_raise_ulimit", v);
			prov_add(prov, "frontend.nginx_raise_ulimit", NULL, "cluster: nginx_raise_ulimit");
		}
	}
}

/* ---- aliases and preflight ------------------------------------------------ */

size_t cluster_aliases(const struct cluster *c, const char *map, const char ***names,
		       const char ***targets)
{
	json_t *m = cluster_get(c, map), *v;
	const char *k;
	size_t n = 0;

	*names = NULL;
	*targets = NULL;
	if (!json_is_object(m) || !json_object_size(m))
		return 0;
	*names = xcalloc(json_object_size(m), sizeof(**names));
	*targets = xcalloc(json_object_size(m), sizeof(**targets));
	json_object_foreach(m, k, v) {
		(*names)[n] = k;
		(*targets)[n] = json_is_string(v) ? json_string_value(v) : "";
		n++;
	}
	return n;
}

int cluster_check_container(const struct cluster *c, const char *value, char **msg)
{
	json_t *aliases = cluster_get(c, "containers");

	*msg = NULL;
	if (!value || !*value)
		return 0;
	if (json_is_string(json_object_get(aliases, value)))
		return 0;
	/* srtctl's preflight: a registry reference has a ':' and does not start
	 * with '/' or './'; anything starting with '/' or './' is a local file */
	if (value[0] == '/' || !strncmp(value, "./", 2))
		return 0;
	if (strchr(value, ':'))
		return 0;
	if (!c || c->state != CLUSTER_LOADED)
		return 3;
	*msg = xasprintf("Container '%s' is not a local container path and is not defined in "
			 "srtslurm.yaml containers. Provide or register the container yourself "
			 "before submitting.", value);
	/* no '/' at all: a bare word, which can only be meant as an alias */
	return strchr(value, '/') ? 1 : 2;
}
