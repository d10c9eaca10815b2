/*
 * plan_postprocess.c — the S3 upload step srtctl runs after teardown when
 * reporting.s3 is set (srtctl fae1ab3, cli/mixins/postprocess_stage.py
 * _run_postprocess_container and _build_postprocess_script; the launch
 * snapshot examples/features/s3-reporting at fae1ab3 shows the whole
 * script for empty exclude and archive lists).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/shell.h"
#include "render/plan_postprocess.h"

/* What the sync skips and what goes into the one compressed archive when
 * the recipe leaves exclude / archive out (srtctl's core/schema.py
 * DEFAULT_S3_EXCLUDE, DEFAULT_S3_ARCHIVE; docs/decisions.md says which
 * version).  aiperf's per-interval scrapes under the two roots the
 * aiperf-driven runners write to, then the dashboard bundle. */
static const char *const default_exclude[] = {
	"artifacts/*/server_metrics_export.jsonl", "artifacts/*/server_metrics_export.json",
	"artifacts/*/gpu_telemetry_export.jsonl", "artifacts/*/inputs.json",
	"sa-bench_*/*/server_metrics_export.jsonl", "sa-bench_*/*/server_metrics_export.json",
	"sa-bench_*/*/gpu_telemetry_export.jsonl", "sa-bench_*/*/inputs.json",
	"perf_dashboard_bundle/*", "perf_dashboard.json", NULL
};
static const char *const default_archive[] = {
	"artifacts/**/profile_export.jsonl", "sa-bench_*/**/profile_export.jsonl", NULL
};

/* The exit code of a failed install or upload (POSTPROCESS_UPLOAD_FAILED_EXIT). */
#define UPLOAD_FAILED "11"

const char postprocess_mounts[] = "container_mounts:\n    <output>/logs: /logs\n";

json_t *postprocess_s3(const struct recipe *r)
{
	json_t *s3 = jget_obj(jget_obj(r->root, "reporting"), "s3");
	return s3 && jget_str(s3, "bucket") ? s3 : NULL;
}

/* The recipe's list, or the default when it sets none (null included);
 * a new reference to an array of strings. */
static json_t *policy_list(json_t *s3, const char *key, const char *const *dflt)
{
	json_t *v = json_object_get(s3, key), *out = json_array();
	size_t i;
	json_t *e;

	if (!json_is_array(v)) {
		for (i = 0; dflt[i]; i++)
			json_array_append_new(out, json_string(dflt[i]));
		return out;
	}
	json_array_foreach(v, i, e) {
		char *t = py_str_dup(e);
		json_array_append_new(out, json_string(t));
		free(t);
	}
	return out;
}

/* AWS's --exclude has no "**", and its "*" already crosses directories, so
 * an archive glob collapses to a pattern at least as broad. */
static void add_sync_exclude(struct strbuf *flags, const char *pat, int collapse)
{
	struct strbuf p = STRBUF_INIT;
	for (const char *c = pat; *c; c++) {
		strbuf_addch(&p, *c);
		if (collapse && c[0] == '*' && c[1] == '*')
			c++;
	}
	strbuf_addstr(flags, flags->len ? " --exclude " : "--exclude ");
	shell_quote(flags, sb_str(&p));
	strbuf_release(&p);
}

char *postprocess_command(json_t *s3, const char *job_id, const char *date)
{
	const char *bucket = jget_str(s3, "bucket"), *prefix = jget_str(s3, "prefix");
	const char *endpoint = jget_str(s3, "endpoint_url");
	json_t *exclude = policy_list(s3, "exclude", default_exclude);
	json_t *archive = policy_list(s3, "archive", default_archive);
	struct strbuf url = STRBUF_INIT, ep = STRBUF_INIT, flags = STRBUF_INIT, sc = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT;
	size_t i, nex = json_array_size(exclude) + json_array_size(archive);
	json_t *e;
	char *j;

	strbuf_addf(&url, "s3://%s/%s/%s/%s/", bucket, prefix && *prefix ? prefix : "srtslurm", date, job_id);
	if (endpoint && *endpoint)
		strbuf_addf(&ep, "--endpoint-url %s", endpoint);
	json_array_foreach(exclude, i, e)
		add_sync_exclude(&flags, json_string_value(e), 0);
	json_array_foreach(archive, i, e)
		add_sync_exclude(&flags, json_string_value(e), 1);

	strbuf_addstr(&sc, "\nset -u\nset -o pipefail\n\n"
			   "echo \"Installing awscli...\"\n"
			   "if ! pip install awscli; then\n  echo \"Failed to install awscli\"\n"
			   "  exit " UPLOAD_FAILED "\nfi\n"
			   "pip install zstandard || echo \"zstandard unavailable; the archive falls back to .tar.xz\"\n\n"
			   "cat > /logs/postprocess-status.json <<'EOF'\n{\"s3_url\": ");
	{
		json_t *u = json_string(sb_str(&url));
		j = pyjson_dumps(u, 0);
		json_decref(u);
		strbuf_addstr(&sc, j);
		free(j);
	}
	strbuf_addstr(&sc, ", \"exclude\": ");
	j = pyjson_dumps(exclude, 0);
	strbuf_addstr(&sc, j);
	free(j);
	strbuf_addstr(&sc, ", \"archive\": ");
	j = pyjson_dumps(archive, 0);
	strbuf_addstr(&sc, j);
	free(j);
	strbuf_addstr(&sc, "}\nEOF\narchive_path=\"\"\n");
	if (json_array_size(archive)) {
		/* srtctl packs the matches with an inline Python program of its
		 * own, shown here by name (docs/decisions.md) */
		strbuf_addf(&sc, "\necho \"Packing %zu archive pattern(s) into one compressed bundle...\"\n"
				 "archive_path=$(python3 - /logs /tmp ",
			    json_array_size(archive));
		j = pyjson_dumps(archive, 0);
		shell_quote(&sc, j);
		free(j);
		strbuf_addstr(&sc, " <<'PY'\n<srtctl's archive script>\nPY\n)\n");
	}
	strbuf_addf(&sc, "\necho \"Uploading the log directory to S3 (%zu exclude pattern(s))...\"\n", nex);
	strbuf_addf(&sc, "if ! aws s3 sync /logs %s %s %s; then\n", url.buf, sb_str(&ep), sb_str(&flags));
	strbuf_addstr(&sc, "  echo \"Upload failed\"\n  exit " UPLOAD_FAILED "\nfi\n"
			   "if [ -n \"$archive_path\" ] && [ -s \"$archive_path\" ]; then\n");
	strbuf_addf(&sc, "  if ! aws s3 cp \"$archive_path\" %s$(basename \"$archive_path\") %s; then\n",
		    url.buf, sb_str(&ep));
	strbuf_addstr(&sc, "    echo \"Archive upload failed\"\n    exit " UPLOAD_FAILED "\n  fi\nfi\n\n");
	strbuf_addf(&sc, "echo \"Upload complete: %s\"\necho \"\"\necho \"Uploaded objects:\"\n", url.buf);
	strbuf_addf(&sc, "aws s3 ls --recursive %s %s | wc -l\necho \"objects total\"\n", url.buf, sb_str(&ep));

	strbuf_addstr(&out, "bash -c ");
	shell_quote(&out, sc.buf);
	json_decref(exclude);
	json_decref(archive);
	strbuf_release(&url);
	strbuf_release(&ep);
	strbuf_release(&flags);
	strbuf_release(&sc);
	return strbuf_detach(&out, NULL);
}

void postprocess_env(json_t *s3, struct envmap *env)
{
	const char *k = jget_str(s3, "access_key_id"), *s = jget_str(s3, "secret_access_key");
	const char *region = jget_str(s3, "region");
	if (k && *k)
		envmap_set(env, "AWS_ACCESS_KEY_ID", k);
	if (s && *s)
		envmap_set(env, "AWS_SECRET_ACCESS_KEY", s);
	if (region && *region)
		envmap_set(env, "AWS_DEFAULT_REGION", region);
}
