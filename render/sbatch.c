/*
 * sbatch.c — the sbatch script of a recipe, as srtctl renders it.
 *
 * srtctl renders its template with Jinja's default settings (no trim_blocks),
 * so the newline after every {% if %} / {% endif %} / {% for %} tag stays in
 * the output: the header has blank lines between some directives, and each
 * export is preceded by one.  The emitters below reproduce that layout piece
 * by piece; the comment on each says which template rule it follows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/json.h"
#include "render/hetjob.h"
#include "render/plan.h"
#include "render/sbatch.h"
#include "lib/shell.h"

static char *getenv_dup(const char *k)
{
	const char *v = getenv(k);
	return v ? xstrdup(v) : NULL;
}

void sbatch_opts_init(struct sbatch_opts *o, const struct cluster *c, const char *file)
{
	const char *root = cluster_str(c, "srtctl_root", NULL);
	const char *outd = cluster_str(c, "output_dir", NULL);
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	char cwd[4096];
	time_t now = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
	struct tm tm;
	char ts[32];

	memset(o, 0, sizeof(*o));
	o->cluster = c;
	if (!getcwd(cwd, sizeof(cwd)))
		strcpy(cwd, ".");
	o->config_path = py_path_resolve(file ? file : "config.yaml");
	o->runtime_config = xstrdup("config.yaml");
	/* srtctl: srtslurm.yaml srtctl_root, else its own checkout, which is the
	 * directory srtctl is run from (where srtslurm.yaml usually sits) */
	if (root && *root)
		o->srtctl_source = py_path_resolve(root);
	else
		o->srtctl_source = xstrdup(c && c->srtctl_dir ? c->srtctl_dir : cwd);
	if (outd && *outd) {
		char *e = py_expandvars(outd, 0);
		o->output_base = py_path_resolve(e);
		free(e);
	} else {
		o->output_base = xasprintf("%s/outputs", o->srtctl_source);
	}
	gmtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%Y%m%d_%H%M%S", &tm);
	o->timestamp = xstrdup(ts);
	o->runner_name = getenv_dup("RUNNER_NAME");
	o->slurm_account = getenv_dup("SLURM_ACCOUNT");
	o->slurm_partition = getenv_dup("SLURM_PARTITION");
}

void sbatch_opts_release(struct sbatch_opts *o)
{
	free(o->config_path);
	free(o->runtime_config);
	free(o->srtctl_source);
	free(o->output_base);
	free(o->timestamp);
	free(o->runner_name);
	free(o->slurm_account);
	free(o->slurm_partition);
	free(o->setup_script);
	memset(o, 0, sizeof(*o));
}

json_t *sbatch_dynamo_wheel_env(const struct recipe *r)
{
	json_t *env = json_object();
	const char *wheel = jget_str(jget_obj(jget_obj(r->root, "dynamo"), "source"), "wheel");
	if (wheel && *wheel) {
		char *name = xasprintf("ai_dynamo-%s-py3-none-any.whl", wheel);
		json_object_set_new(env, "DYNAMO_WHEEL_NAME", json_string(name));
		json_object_set_new(env, "DYNAMO_VERSION", json_string(wheel));
		free(name);
	}
	return env;
}

/* Python truthiness of a slurm field: the value when a non-empty string. */
static const char *nonempty(json_t *obj, const char *key)
{
	const char *s = jget_str(obj, key);
	return s && *s ? s : NULL;
}

static int total_nodes(const struct recipe *r)
{
	int n = plan_job_nodes(r);
	return n > 0 ? n : 1;
}

/* The sbatch_directives loop: "--key=value", or "--key" for a falsy value. */
static void add_directives(struct strbuf *out, json_t *dirs)
{
	const char *k;
	json_t *v;
	json_object_foreach(dirs, k, v) {
		strbuf_addch(out, '\n'); /* after {% for %} */
		if (json_is_null(v) || json_is_false(v) ||
		    (json_is_string(v) && !json_string_length(v)) ||
		    (json_is_integer(v) && !json_integer_value(v))) {
			strbuf_addf(out, "\n#SBATCH --%s\n", k);
		} else {
			char *s = py_str_dup(v);
			strbuf_addf(out, "\n#SBATCH --%s=%s\n", k, s);
			free(s);
		}
		strbuf_addch(out, '\n'); /* after {% endif %} */
	}
}

/*
 * A heterogeneous job's header.  The reference template has no het branch;
 * this follows the srtctl version that added one (resources.het_jobs): the
 * job name and the job-wide --output first, then one group per component,
 * separated by "#SBATCH hetjob", each repeating the scheduling directives
 * (SLURM applies an #SBATCH line to the component it follows).  Blank lines
 * are the newlines the {% if het_components %}, the {# comment #} and the
 * loop tags leave.
 */
static void het_header(struct strbuf *out, const struct recipe *r, const struct sbatch_opts *o,
		       const struct het_component comp[2], const char *acct, const char *tl,
		       const char *part)
{
	const struct cluster *c = o->cluster;
	int trt = r->engine && !strcmp(r->engine, "trtllm");

	strbuf_addf(out, "#SBATCH --job-name=%s\n",
		    o->runner_name && *o->runner_name ? o->runner_name : r->name ? r->name : "");
	strbuf_addf(out, "#SBATCH --output=%s/%%j/logs/sweep_%%j.log\n", o->output_base);
	strbuf_addstr(out, "\n\n"); /* after {% if het_components %} and the comment */
	for (int i = 0; i < 2; i++) {
		const struct het_component *h = &comp[i];
		strbuf_addch(out, '\n'); /* after {% for c in het_components %} */
		if (i)
			strbuf_addstr(out, "\n#SBATCH hetjob\n"); /* not loop.first */
		strbuf_addf(out, "\n#SBATCH --nodes=%d\n", h->nodes);
		if (trt)
			strbuf_addf(out, "\n#SBATCH --ntasks=%d\n#SBATCH --ntasks-per-node=%d\n",
				    h->gpus_per_node * h->nodes, h->gpus_per_node);
		else
			strbuf_addf(out, "\n#SBATCH --ntasks=%d\n#SBATCH --ntasks-per-node=1\n", h->nodes);
		strbuf_addch(out, '\n');
		if (cluster_bool(c, "use_gpus_per_node_directive", 1))
			strbuf_addf(out, "\n#SBATCH --gpus-per-node=%d\n", h->gpus_per_node);
		strbuf_addch(out, '\n');
		if (cluster_bool(c, "use_segment_sbatch_directive", 1))
			strbuf_addf(out, "\n#SBATCH --segment=%d\n", h->segment);
		strbuf_addch(out, '\n');
		if (cluster_bool(c, "use_exclusive_sbatch_directive", 0))
			strbuf_addstr(out, "\n#SBATCH --exclusive\n");
		strbuf_addf(out, "\n#SBATCH --account=%s\n#SBATCH --time=%s\n#SBATCH --partition=%s\n",
			    acct, tl, part);
		add_directives(out, jget_obj(r->root, "sbatch_directives"));
		strbuf_addch(out, '\n'); /* after the inner {% endfor %} */
	}
	/* between the outer {% endfor %} and {% else %}; the newlines after
	 * {% endif %} are the caller's, as for a single allocation */
	strbuf_addch(out, '\n');
}

/* The header exactly as the template renders it, blank lines included. */
static void header(struct strbuf *out, const struct recipe *r, const struct sbatch_opts *o)
{
	json_t *slurm = jget_obj(r->root, "slurm");
	json_t *dirs = jget_obj(r->root, "sbatch_directives");
	const char *acct = nonempty(slurm, "account");
	const char *part = nonempty(slurm, "partition");
	const char *tl = nonempty(slurm, "time_limit");
	int nodes = total_nodes(r), gpn = r->gpus_per_node;
	const struct cluster *c = o->cluster;
	struct het_component het[2];

	if (het_components(r, o->cluster, het)) {
		het_header(out, r, o, het, acct ? acct : o->slurm_account ? o->slurm_account : "default",
			   tl ? tl : "01:00:00",
			   part ? part : o->slurm_partition ? o->slurm_partition : "default");
		return;
	}

	/* job name: $RUNNER_NAME when set, else the recipe name */
	strbuf_addf(out, "#SBATCH --job-name=%s\n",
		    o->runner_name && *o->runner_name ? o->runner_name : r->name ? r->name : "");
	strbuf_addf(out, "#SBATCH --nodes=%d\n", nodes);
	/* trtllm: one task per GPU; every other engine: one per node */
	if (r->engine && !strcmp(r->engine, "trtllm"))
		strbuf_addf(out, "\n#SBATCH --ntasks=%d\n#SBATCH --ntasks-per-node=%d\n", gpn * nodes, gpn);
	else
		strbuf_addf(out, "\n#SBATCH --ntasks=%d\n#SBATCH --ntasks-per-node=1\n", nodes);
	strbuf_addch(out, '\n'); /* after {% endif %} */
	if (cluster_bool(c, "use_gpus_per_node_directive", 1))
		strbuf_addf(out, "\n#SBATCH --gpus-per-node=%d\n", gpn);
	strbuf_addch(out, '\n');
	if (cluster_bool(c, "use_segment_sbatch_directive", 1))
		strbuf_addf(out, "\n#SBATCH --segment=%d\n", nodes);
	strbuf_addch(out, '\n');
	if (cluster_bool(c, "use_exclusive_sbatch_directive", 0))
		strbuf_addstr(out, "\n#SBATCH --exclusive\n");
	/* account / partition: the recipe's (after cluster defaults), else the
	 * submitting shell's $SLURM_ACCOUNT / $SLURM_PARTITION, else "default" */
	strbuf_addf(out, "\n#SBATCH --account=%s\n", acct ? acct : o->slurm_account ? o->slurm_account : "default");
	strbuf_addf(out, "#SBATCH --time=%s\n", tl ? tl : "01:00:00");
	strbuf_addf(out, "#SBATCH --output=%s/%%j/logs/sweep_%%j.log\n", o->output_base);
	strbuf_addf(out, "#SBATCH --partition=%s\n",
		    part ? part : o->slurm_partition ? o->slurm_partition : "default");
	add_directives(out, dirs);
}

void sbatch_directives(struct strvec *out, const struct recipe *r, const struct sbatch_opts *o)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *nl;
	char *refused = het_refusal(r, o->cluster);

	if (refused) { /* srtctl renders no script: no directives */
		free(refused);
		return;
	}
	header(&sb, r, o);
	for (p = sb_str(&sb); *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p) - 1;
		if (nl > p)
			strvec_push_nodup(out, xstrndup(p, (size_t)(nl - p)));
	}
	strbuf_release(&sb);
}

static void add_exports(struct strvec *out, json_t *env)
{
	const char *k;
	json_t *v;
	json_object_foreach(env, k, v) {
		struct strbuf sb = STRBUF_INIT;
		char *s = py_str_dup(v);
		strbuf_addf(&sb, "export %s=", k);
		shell_quote(&sb, s);
		strvec_push_nodup(out, strbuf_detach(&sb, NULL));
		free(s);
	}
}

void sbatch_exports(struct strvec *out, const struct recipe *r)
{
	json_t *wheel = sbatch_dynamo_wheel_env(r);
	json_t *env = jget_obj(r->root, "environment");
	/* the wheel variables first, then environment: (a dict update, so a
	 * recipe variable of the same name replaces the wheel's in place) */
	if (env)
		json_object_update(wheel, env);
	add_exports(out, wheel);
	json_decref(wheel);
}

void sbatch_render(struct strbuf *out, const struct recipe *r, const struct sbatch_opts *o)
{
	struct strvec ex = STRVEC_INIT;
	struct het_component het[2];
	char *refused = het_refusal(r, o->cluster);

	if (refused) {
		/* generate_minimal_sbatch_script raises before rendering */
		strbuf_addf(out, "#!/bin/bash\n# srtctl renders no sbatch script for this recipe:\n"
				 "# ValueError: %s\n", refused);
		free(refused);
		return;
	}
	strbuf_addstr(out, "#!/bin/bash\n"
			   "# SPDX-FileCopyrightText: Copyright (c) 2025 NVIDIA CORPORATION & "
			   "AFFILIATES. All rights reserved.\n"
			   "# SPDX-License-Identifier: Apache-2.0\n");
	header(out, r, o);
	strbuf_addstr(out, "\n\n");
	strbuf_addf(out, "# srt-tui: the lines above and the exports below are srtctl's exactly;\n"
			 "# the other lines give the steps of srtctl's job_script_minimal template\n"
			 "# as one srtctl version has them (host-side orchestrator, srun inside).\n%s"
			 "# Config: %s\n# Generated: %s\n\nset -e\n\n",
		    het_components(r, o->cluster, het) ? "# The #SBATCH groups of this heterogeneous job follow the srtctl\n"
					     "# version that added resources.het_jobs.\n" : "",
		    o->config_path, o->timestamp);
	strbuf_addstr(out, "SRTCTL_SOURCE=");
	{
		struct strbuf q = STRBUF_INIT;
		strbuf_addf(&q, "\"%s\"\nOUTPUT_BASE=\"%s\"\n", o->srtctl_source, o->output_base);
		strbuf_addstr(out, sb_str(&q));
		strbuf_release(&q);
	}
	strbuf_addstr(out, "OUTPUT_DIR=\"${OUTPUT_BASE}/${SLURM_JOB_ID}\"\n"
			   "LOG_DIR=\"${OUTPUT_DIR}/logs\"\n"
			   "mkdir -p \"${LOG_DIR}\"\n"
			   "export SRTCTL_OUTPUT_DIR=\"${OUTPUT_DIR}\"\n"
			   "exec 2>&1\n\n");
	strbuf_addf(out, "echo \"Job ${SLURM_JOB_ID} on ${SLURM_JOB_NUM_NODES} nodes, config %s\"\n",
		    o->config_path);
	strbuf_addf(out, "echo \"Runtime config: ${OUTPUT_DIR}/%s\"\n", o->runtime_config);
	strbuf_addstr(out, "HEAD_NODE=$(scontrol show hostnames ${SLURM_NODELIST} | head -n1)\n"
			   "export SRTCTL_SOURCE_DIR=\"${SRTCTL_SOURCE}\"\n");
	/* each export follows the newline the {% for %} tag leaves */
	strbuf_addch(out, '\n');
	sbatch_exports(&ex, r);
	for (size_t i = 0; i < ex.n; i++)
		strbuf_addf(out, "\n%s\n", ex.v[i]);
	strvec_release(&ex);
	strbuf_addstr(out, "\n# uv (from astral.sh when missing), the dynamo wheel prefetch when\n"
			   "# DYNAMO_WHEEL_NAME is set, then the orchestrator on the host\n");
	if (o->setup_script) {
		strbuf_addstr(out, "export SRTCTL_SETUP_SCRIPT=");
		strbuf_addf(out, "\"%s\"\n", o->setup_script);
	}
	strbuf_addf(out, "cd \"${SRTCTL_SOURCE}\"\n"
			 "uv run --python 3.12 --no-dev -m srtctl.cli.do_sweep \"${OUTPUT_DIR}/%s\"\n",
		    o->runtime_config);
}
