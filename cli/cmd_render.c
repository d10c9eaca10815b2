/*
 * cmd_render.c — `srt-tui render`: show what srtctl will run for a recipe.
 *
 * dry-run prints srtctl's whole dry-run (render/dryrun: the sbatch script,
 * Mounts, Environment, Services, srun options, Nodes, Running) with the
 * cluster file found as srtctl finds it (model/cluster).  summary prints
 * srtctl's "Services:" block byte for byte, then a "Workers:" block of our
 * own (per role: the --kv-transfer-config value and the env the engine adds
 * for KV connectors).  json prints all of it as one document; plan and
 * snapshot hand over to render/plan.  Nothing here keeps state between
 * calls; every buffer is freed before returning.
 *
 * A file that is several jobs previews one of them: FILE:SELECTOR picks an
 * override variant (srtctl's selectors), --job N|NAME one job of a sweep.
 * Without a pick, the dry-run format lists the variants or jobs and how to
 * pick one (exit 0); the machine formats refuse with srtctl's messages.
 * --set/--unset change the raw file first, as in srtctl (cli_args.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "model/diag.h"
#include "model/doc.h"
#include "model/override.h"
#include "model/recipe.h"
#include "lib/util.h"
#include "render/connector.h"
#include "lib/json.h"
#include "render/dryrun.h"
#include "render/plan.h"
#include "render/service.h"
#include "render/workers.h"
#include "cli/cli_args.h"
#include "cli/cli_load.h"
#include "cli/cmd.h"

enum fmt { FMT_DRYRUN, FMT_SUMMARY, FMT_JSON, FMT_PLAN, FMT_SNAPSHOT };

static void render_summary(struct strbuf *out, const struct recipe *r)
{
	struct strbuf w = STRBUF_INIT;

	render_services_block(out, r);
	render_workers_block(&w, r, WORKERS_DRYRUN, NULL, NULL);
	if (out->len && w.len)
		strbuf_addch(out, '\n');
	strbuf_addstr(out, sb_str(&w));
	strbuf_release(&w);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *services_json(const struct recipe *r)
{
	json_t *list = json_array();
	const char *job = jget_str(jget_obj(r->root, "model"), "container");

	for (size_t i = 0; i < r->nsvc; i++) {
		const struct service *s = &r->svc[i];
		struct strvec av = STRVEC_INIT;
		json_t *argv = json_array();

		service_argv(r, s, NULL, &av);
		for (size_t k = 0; k < av.n; k++)
			json_array_append_new(argv, json_string(av.v[k]));
		strvec_release(&av);
		json_t *o = json_object();
		json_object_set_new(o, "name", json_string(s->name));
		json_object_set_new(o, "type", json_string(s->type));
		json_object_set_new(o, "placement", json_string(s->placement));
		if (s->per_worker)
			json_object_set_new(o, "per", json_string("worker"));
		json_object_set_new(o, "start", json_string(s->start));
		json_object_set_new(o, "critical", json_boolean(s->critical));
		json_object_set_new(o, "implied_by", str_or_null(s->implied_by));
		const char *ext = jget_str(service_config(s), "external");
		if (ext && *ext)
			json_object_set_new(o, "external", json_string(ext));
		json_object_set_new(o, "argv", argv);
		json_object_set_new(o, "env", service_env(r, s, NULL));
		json_object_set_new(o, "container", json_string(service_container(r, s, job)));
		json_array_append_new(list, o);
	}
	return list;
}

static json_t *roles_json(const struct recipe *r)
{
	json_t *roles = json_object();

	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct role *ro = &r->role[i];
		if (!ro->present)
			continue;
		struct worker_ctx ctx = workers_preview_ctx(r, (enum role_id)i);
		char *err = NULL;
		char *kv = connector_kv_config(r, (enum role_id)i, &ctx, &err);
		json_t *o = json_object();
		json_object_set_new(o, "engine", str_or_null(ro->engine));
		json_object_set_new(o, "workers", json_integer(ro->eff_workers));
		json_object_set_new(o, "gpus", json_integer(ro->eff_gpus));
		if (ro->engine && !strcmp(ro->engine, "vllm"))
			json_object_set_new(o, "connector", str_or_null(ro->connector));
		json_object_set_new(o, "kv_transfer_config", str_or_null(kv));
		if (err)
			json_object_set_new(o, "error", json_string(err));
		json_object_set_new(o, "extra_env", connector_extra_env(r, (enum role_id)i));
		json_object_set_new(roles, role_names[i], o);
		free(kv);
		free(err);
	}
	return roles;
}

static void render_json(struct strbuf *out, const struct recipe *r, const struct sbatch_opts *o,
			int serve_only)
{
	json_t *doc = json_object();
	json_object_set_new(doc, "services", services_json(r));
	json_object_set_new(doc, "roles", roles_json(r));
	dryrun_json_add(doc, r, o, serve_only);
	pyjson_dump(out, doc, 0, 2);
	strbuf_addch(out, '\n');
	json_decref(doc);
}

static int parse_format(const char *s, enum fmt *f)
{
	static const char *const names[] = { "dry-run", "summary", "json", "plan", "snapshot" };
	for (int i = 0; i < 5; i++)
		if (!strcmp(s, names[i])) {
			*f = (enum fmt)i;
			return 0;
		}
	return -1;
}

/* "a,b,c" -> vector of names (empty items refused). */
static int split_nodes(const char *s, struct strvec *out)
{
	const char *p = s;
	for (;;) {
		const char *c = strchr(p, ',');
		size_t n = c ? (size_t)(c - p) : strlen(p);
		if (!n)
			return -1;
		strvec_push_nodup(out, xstrndup(p, n));
		if (!c)
			return 0;
		p = c + 1;
	}
}

/* Load FILE's typed tree; prints diagnostics; 0, or 2 when it cannot be used. */
static int load_tree(const char *file, json_t **out)
{
	struct cli_loaded l;
	*out = NULL;
	if (cli_load(file, CLI_LOAD_WARNINGS | CLI_LOAD_STRICT, &l))
		return 2;
	json_t *root = doc_json(l.doc);
	cli_loaded_release(&l);
	if (!json_is_object(root)) {
		fprintf(stderr, "srt-tui: %s: error: the recipe is %s\n  hint: a recipe is a YAML mapping "
				"starting with 'schema: 2'\n",
			file, root ? "not a mapping" : "too large to expand (aliases)");
		json_decref(root);
		return 2;
	}
	*out = root;
	return 0;
}

/* ---- one job out of many ------------------------------------------------------ */

enum { PICKED = 0, LISTED = -1 };

struct pick {
	const char *file, *sel, *job; /* FILE, SELECTOR (or NULL), --job (or NULL) */
	int listing;                   /* the dry-run format: list when there is no pick */
	json_t *tree;                  /* the picked recipe (a reference) */
	char *header;                  /* dry-run's first line: "[1/1] override_tp2: name" */
};

static void name_line(struct strbuf *sb, size_t i, size_t n, const struct variant *v)
{
	strbuf_addf(sb, "[%zu/%zu] %s", i + 1, n, v->label ? v->label : "?");
	if (v->job_name && (!v->label || strcmp(v->label, v->job_name)))
		strbuf_addf(sb, ": %s", v->job_name);
}

static int fail(const char *file, char *err)
{
	fprintf(stderr, "srt-tui: %s: %s\n", file, err);
	free(err);
	return 1;
}

/* "1" .. "N" or a job name; the index, or -1. */
static long find_job(const struct variant_list *jobs, const char *job)
{
	char *end;
	long k = strtol(job, &end, 10);
	if (*job >= '0' && *job <= '9' && !*end)
		return k >= 1 && (size_t)k <= jobs->n ? k - 1 : -1;
	for (size_t i = 0; i < jobs->n; i++)
		if (jobs->v[i].job_name && !strcmp(jobs->v[i].job_name, job))
			return (long)i;
	return -1;
}

/* A recipe with a sweep block (parent: the variant it is, or NULL). */
static int pick_job(struct pick *pk, const json_t *recipe, const struct variant *parent)
{
	struct variant_list jobs = VARIANT_LIST_INIT;
	char *err = NULL;
	int rc = PICKED;
	if (sweep_expand(recipe, parent, &jobs, &err))
		return fail(pk->file, err);
	if (!jobs.n) {
		variant_list_release(&jobs);
		return fail(pk->file, xstrdup("sweep expanded to zero jobs"));
	}
	if (!pk->job && !pk->listing) {
		fprintf(stderr, "srt-tui: %s: render does not support sweep configs; render one variant "
				"at a time\n  hint: pick one job with --job N or --job NAME "
				"('srt-tui render %s%s%s' lists them)\n",
			pk->file, pk->file, pk->sel ? ":" : "", pk->sel ? pk->sel : "");
		rc = 1;
	} else if (!pk->job) {
		struct strbuf sb = STRBUF_INIT, name = STRBUF_INIT;
		py_str(&name, json_object_get(recipe, "name"));
		strbuf_addf(&sb, "Sweep: %s (%zu job%s)\n", sb_str(&name), jobs.n, jobs.n == 1 ? "" : "s");
		for (size_t i = 0; i < jobs.n; i++) {
			char *params = NULL;
			struct strbuf pp = STRBUF_INIT;
			const char *k;
			json_t *val;
			json_object_foreach(jobs.v[i].params, k, val) {
				strbuf_addf(&pp, "%s%s=", pp.len ? ", " : "", k);
				py_str(&pp, val);
			}
			params = strbuf_detach(&pp, NULL);
			strbuf_addf(&sb, "[%zu/%zu] %s  (%s)\n", i + 1, jobs.n, jobs.v[i].job_name, params);
			free(params);
		}
		strbuf_addf(&sb, "render previews one job: srt-tui render '%s%s%s' --job 1 (or --job "
				 "JOB_NAME)\n",
			    pk->file, pk->sel ? ":" : "", pk->sel ? pk->sel : "");
		fputs(sb_str(&sb), stdout);
		strbuf_release(&sb);
		strbuf_release(&name);
		rc = LISTED;
	} else {
		long k = find_job(&jobs, pk->job);
		if (k < 0) {
			rc = fail(pk->file, xasprintf("no job '%s' in the sweep: give 1 to %zu or a job name "
						      "('srt-tui render %s%s%s' lists them)",
						      pk->job, jobs.n, pk->file, pk->sel ? ":" : "",
						      pk->sel ? pk->sel : ""));
		} else {
			struct strbuf sb = STRBUF_INIT;
			name_line(&sb, (size_t)k, jobs.n, &jobs.v[k]);
			pk->header = strbuf_detach(&sb, NULL);
			pk->tree = json_incref(jobs.v[k].tree);
		}
	}
	variant_list_release(&jobs);
	return rc;
}

static int no_sweep_job(const struct pick *pk)
{
	fprintf(stderr, "srt-tui: render: --job picks a job of a sweep, and %s%s%s has no sweep block\n",
		pk->file, pk->sel ? ":" : "", pk->sel ? pk->sel : "");
	return 2;
}

static void list_variants(const struct pick *pk, const json_t *root, const struct variant_list *vl)
{
	struct strbuf sb = STRBUF_INIT, name = STRBUF_INIT;
	json_t *bn = json_object_get(json_object_get(root, "base"), "name");
	if (bn)
		py_str(&name, bn);
	else
		strbuf_addstr(&name, "unnamed");
	strbuf_addf(&sb, "Override Config: %s (%zu variant%s%s%s)\n", sb_str(&name), vl->n,
		    vl->n == 1 ? "" : "s", pk->sel ? ", selector: " : "", pk->sel ? pk->sel : "");
	for (size_t i = 0; i < vl->n; i++) {
		const struct variant *v = &vl->v[i];
		name_line(&sb, i, vl->n, v);
		strbuf_addf(&sb, "  (%s:%s)\n", pk->file, v->selector);
		const json_t *sw = json_object_get(v->tree, "sweep");
		if (sw) {
			struct variant_list jobs = VARIANT_LIST_INIT;
			char *err = NULL;
			if (sweep_expand(v->tree, v, &jobs, &err))
				strbuf_addf(&sb, "  sweep: %s\n", err);
			else
				strbuf_addf(&sb, "  sweep: %zu job%s (pick one with --job N or --job NAME)\n",
					    jobs.n, jobs.n == 1 ? "" : "s");
			free(err);
			variant_list_release(&jobs);
		}
	}
	if (vl->n)
		strbuf_addf(&sb, "render previews one variant: srt-tui render '%s:%s'\n", pk->file,
			    vl->v[0].selector);
	else
		strbuf_addf(&sb, "no variants: the file has only 'base'; preview it with srt-tui "
				 "render '%s:base'\n", pk->file);
	fputs(sb_str(&sb), stdout);
	strbuf_release(&sb);
	strbuf_release(&name);
}

/* The recipe to render out of root: PICKED (pk->tree set), LISTED, or an
 * exit status (message printed). */
static int pick(struct pick *pk, json_t *root)
{
	enum recipe_form form = recipe_form(root);
	if (form != RECIPE_OVERRIDE)
		cli_selector_ignored(pk->file, pk->sel);
	if (form == RECIPE_SWEEP) {
		const char *sel = pk->sel;
		pk->sel = NULL; /* ignored: not part of the names printed */
		int rc = pick_job(pk, root, NULL);
		pk->sel = sel;
		return rc;
	}
	if (form == RECIPE_PLAIN) {
		if (pk->job)
			return no_sweep_job(pk);
		pk->tree = json_incref(root);
		return PICKED;
	}
	struct variant_list vl = VARIANT_LIST_INIT;
	char *err = NULL;
	int rc = PICKED;
	if (override_expand(root, pk->sel, &vl, &err))
		return fail(pk->file, err);
	if (vl.n != 1 && pk->listing) {
		list_variants(pk, root, &vl);
		rc = LISTED;
	} else if (vl.n != 1) {
		fprintf(stderr, "srt-tui: %s: render needs exactly one variant: pass a selector (-f "
				"config.yaml:base or -f config.yaml:override_name) instead of rendering "
				"%zu variants into one directory\n  hint: 'srt-tui render %s' lists them; "
				"pick one with %s:SELECTOR\n",
			pk->file, vl.n, pk->file, pk->file);
		rc = 1;
	} else if (json_object_get(vl.v[0].tree, "sweep")) {
		rc = pick_job(pk, vl.v[0].tree, &vl.v[0]);
	} else if (pk->job) {
		rc = no_sweep_job(pk);
	} else {
		struct strbuf sb = STRBUF_INIT;
		name_line(&sb, 0, 1, &vl.v[0]);
		pk->header = strbuf_detach(&sb, NULL);
		pk->tree = json_incref(vl.v[0].tree);
	}
	variant_list_release(&vl);
	return rc;
}

enum { OPT_FORMAT = 1, OPT_SNAPSHOT_NAME, OPT_NODES, OPT_JOB, OPT_SERVE_ONLY };

static const struct cmd_opt render_opts[] = {
	{ OPT_FORMAT, 0, "format", "FMT", "dry-run (default), summary, json, plan or snapshot (above)" },
	{ OPT_SNAPSHOT_NAME, 0, "snapshot-name", "PATH", "the '# PATH' header of a snapshot (default: FILE)" },
	{ OPT_NODES, 0, "nodes", "a,b,c", "node names for plan/snapshot (default: node-01, ...)" },
	{ OPT_JOB, 0, "job", "N|NAME", "the job of a sweep to preview" },
	{ OPT_SERVE_ONLY, 0, "serve-only", NULL, "preview 'srtctl apply --serve-only' (no benchmark)" },
	CLI_FLAG_OPTS,
	{ 0, 0, NULL, NULL, NULL },
};

struct ropts {
	enum fmt fmt;
	const char *snap, *nodes, *job;
	int serve_only;
	struct cli_flags flags;
	struct strvec args;
};

static int on_opt(void *ctx, int id, const char *val)
{
	struct ropts *o = ctx;
	switch (id) {
	case OPT_FORMAT:
		if (parse_format(val, &o->fmt))
			return cmd_usage_error(&cmd_render_entry,
					       "'%s' is not a format (dry-run, summary, json, plan, snapshot)", val);
		break;
	case OPT_SNAPSHOT_NAME:
		o->snap = val;
		break;
	case OPT_NODES:
		o->nodes = val;
		break;
	case OPT_JOB:
		o->job = val;
		break;
	case OPT_SERVE_ONLY:
		o->serve_only = 1;
		break;
	default:
		cli_flags_add(&o->flags, id, val);
	}
	return 0;
}

static int parse_args(const struct cmd_entry *c, int argc, char **argv, struct ropts *o)
{
	int rc = cmd_parse(c, argc, argv, on_opt, o, &o->args);
	if (rc)
		return rc;
	if (o->args.n > 1)
		return cmd_usage_error(c, "give one FILE, not also '%s'", o->args.v[1]);
	if (!o->args.n)
		return cmd_usage_error(c, "missing FILE");
	return 0;
}

static int cmd_render(const struct cmd_entry *self, int argc, char **argv)
{
	struct ropts o = { FMT_DRYRUN, NULL, NULL, NULL, 0, CLI_FLAGS_INIT, STRVEC_INIT };
	struct strvec nodev = STRVEC_INIT;
	struct pick pk = { NULL, NULL, NULL, 0, NULL, NULL };
	char *file = NULL, *sel = NULL, *err = NULL;
	json_t *root = NULL;
	struct strbuf out = STRBUF_INIT;
	int recipe_ok = 0;
	struct recipe r;
	struct cluster cl = CLUSTER_INIT;
	struct sbatch_opts so;

	int rc = parse_args(self, argc, argv, &o);
	enum fmt fmt = o.fmt;
	const char *snap = o.snap, *nodes = o.nodes, *job = o.job;
	const char *arg = o.args.n ? o.args.v[0] : NULL;
	const struct cli_flags flags = o.flags;
	memset(&so, 0, sizeof(so));
	if (rc) {
		rc = rc < 0 ? 0 : rc;
		goto out;
	}
	if (nodes && split_nodes(nodes, &nodev)) {
		rc = cmd_usage_error(self, "'--nodes %s' has an empty node name", nodes);
		goto out;
	}
	if ((rc = cli_split_target("render", arg, &file, &sel)) || (rc = load_tree(file, &root)) ||
	    (rc = cli_apply_flags(file, root, &flags)))
		goto out;

	pk.file = file;
	pk.sel = sel;
	pk.job = job;
	pk.listing = fmt == FMT_DRYRUN || fmt == FMT_SUMMARY;
	rc = pick(&pk, root);
	if (rc) {
		rc = rc == LISTED ? 0 : rc;
		goto out;
	}
	/* the cluster file srtctl would use, applied as srtctl applies it; its
	 * problems go to stderr (srtctl only logs one WARNING and drops it) */
	cluster_discover(&cl, NULL); /* $SRT_TUI_SRTCTL_DIR, set from --srtctl-dir by main */
	{
		struct strbuf msg = STRBUF_INIT;
		for (size_t i = 0; i < cl.diags.n; i++)
			diag_format(&msg, cl.path ? cl.path : "srtslurm.yaml", &cl.diags.v[i]);
		fputs(sb_str(&msg), stderr);
		strbuf_release(&msg);
	}
	cluster_recipe_init(&r, &cl, pk.tree, NULL);
	recipe_ok = 1;
	sbatch_opts_init(&so, &cl, file);

	if (fmt == FMT_DRYRUN) {
		if (pk.header)
			strbuf_addf(&out, "%s\n", pk.header);
		dryrun_render(&out, &r, &so, o.serve_only);
	} else if (fmt == FMT_SUMMARY) {
		if (pk.header)
			strbuf_addf(&out, "%s\n\n", pk.header);
		render_summary(&out, &r);
	} else if (fmt == FMT_JSON) {
		render_json(&out, &r, &so, o.serve_only);
	} else {
		struct plan_opts po = { snap ? snap : file, (const char *const *)nodev.v, nodev.n };
		if (!nodev.n)
			po.node_names = NULL;
		int prc = fmt == FMT_PLAN ? plan_render_text(&out, &r, &po, &err)
					  : plan_render_snapshot(&out, &r, &po, &err);
		if (prc) {
			fprintf(stderr, "srt-tui: render: %s: %s\n", file,
				err ? err : "the launch plan cannot be rendered");
			rc = 1;
		}
	}
	if (!rc)
		fwrite(sb_str(&out), 1, out.len, stdout);
	if (!rc && fflush(stdout)) {
		perror("srt-tui: render: writing the output");
		rc = 1;
	}
out:
	if (recipe_ok)
		recipe_release(&r);
	sbatch_opts_release(&so);
	cluster_release(&cl);
	free(err);
	strbuf_release(&out);
	strvec_release(&nodev);
	cli_flags_release(&o.flags);
	strvec_release(&o.args);
	json_decref(pk.tree);
	free(pk.header);
	json_decref(root);
	free(file);
	free(sel);
	return rc;
}

const struct cmd_entry cmd_render_entry = {
	.name = "render",
	.usage = { "FILE[:SELECTOR] [--format dry-run|summary|json|plan|snapshot]\n"
		   "                      [--snapshot-name PATH] [--nodes a,b,c] [--job N|NAME]\n"
		   "                      [--serve-only] [--set KEY=VALUE]... [--unset KEY]..." },
	.group = CMD_SCRIPTING,
	.brief = { { "FILE[:SEL]", "preview what srtctl will run" } },
	.about =
		"Preview what srtctl will run for the recipe FILE.\n"
		"\n"
		"An override file or a sweep is several jobs and the preview shows one:\n"
		"FILE:SELECTOR picks the override variant, --job N (1-based) or --job NAME\n"
		"one job of a sweep (of the file, or of the selected variant).  Without a\n"
		"pick, the dry-run format lists the variants or jobs with their job names.\n"
		"\n"
		"Formats:\n"
		"  dry-run    (default) srtctl's whole dry-run: the sbatch script, the Container\n"
		"             Mounts and Environment Variables tables, Host Setup, Services,\n"
		"             srun options, Nodes, Execution Extensions, the Running summary\n"
		"  summary    srtctl's 'Services:' block, then a 'Workers:' block:\n"
		"             one line per role (engine, workers, GPUs, vLLM connector), then\n"
		"             '    kv-transfer-config: JSON' as the worker receives it\n"
		"             ('(none)' when it gets no such flag) and one\n"
		"             '    env.NAME: VALUE' line per variable the connector adds\n"
		"  json       everything the dry-run shows as one JSON document: the cluster\n"
		"             file, the sbatch script and directives, mounts, env, the\n"
		"             effective services (argv, env, container), the GPU variable,\n"
		"             TRT-LLM metrics and statistics, warnings, failover, post_eval\n"
		"             and, per role, restart, backend, srun_options,\n"
		"             kv_transfer_config, extra_env and each worker's argv and env\n"
		"  plan       every srun step grouped by node\n"
		"  snapshot   srtctl's launch snapshot text\n",
	.opts = render_opts,
	.footer =
		"Worker previews assume srtctl's mock allocation: node and head IP 127.0.0.1,\n"
		"worker HTTP port 6100 (8000 for a direct frontend), NIXL port 5400 (MoRI-IO\n"
		"handshake 26000, notify 27000) plus the role's first worker index.  Exit status: 0 rendered\n"
		"(or variants listed), 1 the recipe cannot be rendered or the pick does not\n"
		"resolve, 2 FILE cannot be read or parsed or the usage is wrong.\n",
	.exec = cmd_render,
};
