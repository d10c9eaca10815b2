/*
 * cmd_render.c — `srt-tui render`: show what srtctl will run for a recipe.
 *
 * dry-run prints srtctl's "Services:" block byte for byte, then a "Workers:"
 * block of our own (per role: the --kv-transfer-config value and the env the
 * engine adds for KV connectors).  json prints the same as one document; plan
 * and snapshot hand over to render/plan.  Nothing here keeps state between
 * calls; every buffer is freed before returning.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/diag.h"
#include "model/doc.h"
#include "model/override.h"
#include "model/recipe.h"
#include "model/util.h"
#include "render/connector.h"
#include "render/json.h"
#include "render/plan.h"
#include "render/service.h"
#include "tui/cmd.h"

static const char render_usage[] =
	"usage: srt-tui render FILE [--format dry-run|json|plan|snapshot]\n"
	"                      [--snapshot-name PATH] [--nodes a,b,c]\n"
	"\n"
	"Preview what srtctl will run for the recipe FILE.\n"
	"\n"
	"Formats:\n"
	"  dry-run    (default) srtctl's 'Services:' block, then a 'Workers:' block:\n"
	"             one line per role (engine, workers, GPUs, vLLM connector), then\n"
	"             '    kv-transfer-config: JSON' as the worker receives it\n"
	"             ('(none)' when it gets no such flag) and one\n"
	"             '    env.NAME: VALUE' line per variable the connector adds\n"
	"  json       the effective services (argv, env, container) and, per role,\n"
	"             kv_transfer_config and extra_env, as one JSON document\n"
	"  plan       every srun step grouped by node\n"
	"  snapshot   srtctl's launch snapshot text\n"
	"\n"
	"Options:\n"
	"  --snapshot-name PATH  the '# PATH' header of a snapshot (default: FILE)\n"
	"  --nodes a,b,c         node names for plan/snapshot (default: node-01, ...)\n"
	"  -h, --help            show this help\n"
	"\n"
	"Worker previews assume srtctl's mock allocation: node and head IP 127.0.0.1,\n"
	"worker HTTP port 6100 (8000 for a direct frontend), NIXL port 5400 (MoRI-IO\n"
	"handshake 26000, notify 27000) plus the role's first worker index.  Exit status: 0 rendered, 1 the recipe cannot be\n"
	"rendered, 2 FILE cannot be read or parsed or the usage is wrong.\n";

enum fmt { FMT_DRYRUN, FMT_JSON, FMT_PLAN, FMT_SNAPSHOT };

static int direct_frontend(const char *f)
{
	return !strcmp(f, "vllm") || !strcmp(f, "sglang") || !strcmp(f, "trtllm_serve") ||
	       !strcmp(f, "atom");
}

/* Where the role's first worker sits in the mock allocation (spec §2.3). */
static struct worker_ctx preview_ctx(const struct recipe *r, enum role_id role)
{
	struct worker_ctx c = { "127.0.0.1", "127.0.0.1", 6100, 5400, 27000, 36367, 26000 };
	for (int i = 0; i < (int)role; i++)
		if (r->role[i].present) {
			c.nixl_port += r->role[i].eff_workers;
			c.notify_port += r->role[i].eff_workers;
			c.moriio_handshake_port += r->role[i].eff_workers;
		}
	if (role == ROLE_AGG && direct_frontend(r->frontend))
		c.http_port = 8000;
	return c;
}

static void render_workers(struct strbuf *out, const struct recipe *r)
{
	int any = 0;

	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct role *ro = &r->role[i];
		if (!ro->present)
			continue;
		if (!any++)
			strbuf_addstr(out, "Workers:\n");
		strbuf_addf(out, "  %s engine=%s workers=%d gpus=%d", role_names[i],
			    ro->engine ? ro->engine : "?", ro->eff_workers, ro->eff_gpus);
		if (ro->engine && !strcmp(ro->engine, "vllm")) {
			const char *p = connector_preset(ro->connector);
			strbuf_addf(out, " connector=%s", !ro->connector ? "none" : p ? p : "raw-json");
		}
		strbuf_addch(out, '\n');

		struct worker_ctx ctx = preview_ctx(r, (enum role_id)i);
		char *err = NULL;
		char *kv = connector_kv_config(r, (enum role_id)i, &ctx, &err);
		if (err)
			strbuf_addf(out, "    kv-transfer-config: error: %s\n", err);
		else
			strbuf_addf(out, "    kv-transfer-config: %s\n", kv ? kv : "(none)");
		free(kv);
		free(err);

		json_t *env = connector_extra_env(r, (enum role_id)i);
		const char *k;
		json_t *v;
		/* connector env is built in a fixed order; print it sorted like srtctl's env */
		size_t n = json_object_size(env), m = 0;
		const char **keys = xcalloc(n ? n : 1, sizeof(*keys));
		json_object_foreach(env, k, v)
			keys[m++] = k;
		for (size_t a = 1; a < m; a++)
			for (size_t b = a; b > 0 && strcmp(keys[b - 1], keys[b]) > 0; b--) {
				const char *t = keys[b];
				keys[b] = keys[b - 1];
				keys[b - 1] = t;
			}
		for (size_t a = 0; a < m; a++)
			strbuf_addf(out, "    env.%s: %s\n", keys[a],
				    json_string_value(json_object_get(env, keys[a])));
		free(keys);
		json_decref(env);
	}
}

static void render_dryrun(struct strbuf *out, const struct recipe *r)
{
	struct strbuf w = STRBUF_INIT;

	render_services_block(out, r);
	render_workers(&w, r);
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
		struct worker_ctx ctx = preview_ctx(r, (enum role_id)i);
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

static void render_json(struct strbuf *out, const struct recipe *r)
{
	json_t *doc = json_object();
	json_object_set_new(doc, "services", services_json(r));
	json_object_set_new(doc, "roles", roles_json(r));
	pyjson_dump(out, doc, 0, 2);
	strbuf_addch(out, '\n');
	json_decref(doc);
}

static int usage_error(const char *fmt, const char *arg)
{
	fputs("srt-tui: render: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("; see 'srt-tui render --help'\n", stderr);
	return 2;
}

static int parse_format(const char *s, enum fmt *f)
{
	static const char *const names[] = { "dry-run", "json", "plan", "snapshot" };
	for (int i = 0; i < 4; i++)
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

/* Load FILE into a recipe; prints diagnostics; 0, or 2 when it cannot be used. */
static int load_recipe(const char *file, struct recipe *r)
{
	struct diag_list diags = DIAG_LIST_INIT;
	struct strbuf msg = STRBUF_INIT;
	struct doc *d = doc_load_file(file, &diags);
	int rc = 0;

	for (size_t i = 0; i < diags.n; i++)
		diag_format(&msg, file, &diags.v[i]);
	if (!d || diag_count(&diags, DIAG_ERROR)) {
		if (!msg.len)
			strbuf_addf(&msg, "%s: error: cannot load the recipe\n", file);
		rc = 2;
	}
	fputs(sb_str(&msg), stderr);
	strbuf_release(&msg);
	diag_list_release(&diags);
	if (rc) {
		doc_free(d);
		return rc;
	}
	json_t *root = doc_json(d);
	if (!json_is_object(root)) {
		fprintf(stderr, "%s: error: the recipe is %s\n  hint: a recipe is a YAML mapping "
				"starting with 'schema: 2'\n",
			file, root ? "not a mapping" : "too large to expand (aliases)");
		json_decref(root);
		doc_free(d);
		return 2;
	}
	enum recipe_form form = recipe_form(root);
	if (form != RECIPE_PLAIN) {
		/* a preview of one job only: the variants are listed by `expand` */
		fprintf(stderr, "%s: error: this is %s file: it expands to several jobs and render "
				"previews one recipe\n  hint: list the jobs with 'srt-tui expand %s'\n",
			file, form == RECIPE_SWEEP ? "a sweep" : "an override", file);
		json_decref(root);
		doc_free(d);
		return 2;
	}
	recipe_init(r, root);
	json_decref(root);
	doc_free(d);
	return 0;
}

int cmd_render(int argc, char **argv)
{
	enum fmt fmt = FMT_DRYRUN;
	const char *file = NULL, *snap = NULL, *nodes = NULL;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(render_usage, stdout);
			return 0;
		}
		if (!strncmp(a, "--format", 8) || !strncmp(a, "--snapshot-name", 15) ||
		    !strncmp(a, "--nodes", 7)) {
			const char *eq = strchr(a, '=');
			size_t n = eq ? (size_t)(eq - a) : strlen(a);
			if (strncmp(a, "--format", n) && strncmp(a, "--snapshot-name", n) &&
			    strncmp(a, "--nodes", n))
				return usage_error("unknown option '%s'", a);
			if (eq) {
				val = eq + 1;
			} else if (i + 1 < argc) {
				val = argv[++i];
			} else {
				return usage_error("'%s' needs a value", a);
			}
			if (a[2] == 'f') {
				if (parse_format(val, &fmt))
					return usage_error("'%s' is not a format (dry-run, json, plan, snapshot)", val);
			} else if (a[2] == 's') {
				snap = val;
			} else {
				nodes = val;
			}
			continue;
		}
		if (a[0] == '-' && a[1])
			return usage_error("unknown option '%s'", a);
		if (file)
			return usage_error("give one FILE, not also '%s'", a);
		file = a;
	}
	if (!file)
		return usage_error("%s", "missing FILE");

	struct strvec nodev = STRVEC_INIT;
	if (nodes && split_nodes(nodes, &nodev)) {
		strvec_release(&nodev);
		return usage_error("'--nodes %s' has an empty node name", nodes);
	}

	struct recipe r;
	int rc = load_recipe(file, &r);
	if (rc) {
		strvec_release(&nodev);
		return rc;
	}

	struct strbuf out = STRBUF_INIT;
	char *err = NULL;
	if (fmt == FMT_DRYRUN) {
		render_dryrun(&out, &r);
	} else if (fmt == FMT_JSON) {
		render_json(&out, &r);
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
	free(err);
	strbuf_release(&out);
	strvec_release(&nodev);
	recipe_release(&r);
	if (!rc && fflush(stdout)) {
		perror("srt-tui: render: writing the output");
		return 1;
	}
	return rc;
}
