/* reporting.s3 in the launch plan: the upload step srtctl runs last.
 * Expected text by hand from srtctl fae1ab3, cli/mixins/postprocess_stage.py:
 * _run_postprocess_container puts `bash -c <script>` on the head node in
 * python:3.11 with only the log directory mounted (at /logs), the recipe's
 * keys and region as AWS_* env, and the URL s3://<bucket>/<prefix or
 * srtslurm>/<UTC date>/<job id>/; _build_postprocess_script writes the
 * policy to postprocess-status.json (json.dumps), packs the archive patterns
 * when there are any, syncs with every exclude pattern and every archive
 * pattern ("**" collapsed to "*") as --exclude, shell-quoted, then copies the
 * archive and lists the upload, --endpoint-url <url> after each S3 URL when
 * endpoint_url is set.  The snapshot harness's job id is 4242 and its date
 * "<date>" (the s3-reporting snapshot at fae1ab3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/recipe.h"
#include "lib/util.h"
#include "render/plan.h"
#include "tests/unit/testutil.h"
#include "tests/unit/plan_testutil.h"

#define HEAD "\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", " \
	     "\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, \"frontend\": {\"type\": " \
	     "\"none\"}, \"services\": [{\"name\": \"s\", \"command\": [\"sleep\", \"1\"], \"nodes\": 1}], " \
	     "\"observability\": {\"tachometer\": {\"enabled\": false}}, "

/* The step after the last "## " header. */
static const char *last_step(const char *plan)
{
	const char *s = plan, *p;
	while ((p = strstr(s, "\n## ")))
		s = p + 1;
	return s;
}

/* Empty lists: every file a loose object, no archive (the recipe of
 * features/s3-reporting). */
static void test_empty_policy(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD "\"reporting\": {\"s3\": {\"bucket\": \"logs\", \"prefix\": \"run\", "
			     "\"exclude\": [], \"archive\": []}}}");
	assert_string_equal(last_step(o),
		"## <unnamed>\n"
		"nodelist: node-01\n"
		"output: <output>/logs/postprocess.log\n"
		"container_image: python:3.11\n"
		"container_mounts:\n"
		"    <output>/logs: /logs\n"
		"command: |\n"
		"    bash -c '\n"
		"    set -u\n"
		"    set -o pipefail\n"
		"    \n"
		"    echo \"Installing awscli...\"\n"
		"    if ! pip install awscli; then\n"
		"      echo \"Failed to install awscli\"\n"
		"      exit 11\n"
		"    fi\n"
		"    pip install zstandard || echo \"zstandard unavailable; the archive falls back to .tar.xz\"\n"
		"    \n"
		"    cat > /logs/postprocess-status.json <<'\"'\"'EOF'\"'\"'\n"
		"    {\"s3_url\": \"s3://logs/run/<date>/4242/\", \"exclude\": [], \"archive\": []}\n"
		"    EOF\n"
		"    archive_path=\"\"\n"
		"    \n"
		"    echo \"Uploading the log directory to S3 (0 exclude pattern(s))...\"\n"
		"    if ! aws s3 sync /logs s3://logs/run/<date>/4242/  ; then\n"
		"      echo \"Upload failed\"\n"
		"      exit 11\n"
		"    fi\n"
		"    if [ -n \"$archive_path\" ] && [ -s \"$archive_path\" ]; then\n"
		"      if ! aws s3 cp \"$archive_path\" s3://logs/run/<date>/4242/$(basename \"$archive_path\") ; then\n"
		"        echo \"Archive upload failed\"\n"
		"        exit 11\n"
		"      fi\n"
		"    fi\n"
		"    \n"
		"    echo \"Upload complete: s3://logs/run/<date>/4242/\"\n"
		"    echo \"\"\n"
		"    echo \"Uploaded objects:\"\n"
		"    aws s3 ls --recursive s3://logs/run/<date>/4242/  | wc -l\n"
		"    echo \"objects total\"\n"
		"    '\n");
	free(o);
}

/* Lists left out: srtctl's default policy (docs/decisions.md); an archive,
 * an endpoint, credentials and a region from the recipe. */
static void test_default_policy(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD "\"reporting\": {\"s3\": {\"bucket\": \"logs\", "
			     "\"endpoint_url\": \"https://minio.example\", \"region\": \"us-east-1\", "
			     "\"access_key_id\": \"AK\"}}}");
	const char *s = last_step(o);
	tu_has(s, "env_to_set:\n    AWS_ACCESS_KEY_ID: AK\n    AWS_DEFAULT_REGION: us-east-1\ncommand: |\n");
	tu_has(s, "    {\"s3_url\": \"s3://logs/srtslurm/<date>/4242/\", \"exclude\": "
	       "[\"artifacts/*/server_metrics_export.jsonl\", \"artifacts/*/server_metrics_export.json\", "
	       "\"artifacts/*/gpu_telemetry_export.jsonl\", \"artifacts/*/inputs.json\", "
	       "\"sa-bench_*/*/server_metrics_export.jsonl\", \"sa-bench_*/*/server_metrics_export.json\", "
	       "\"sa-bench_*/*/gpu_telemetry_export.jsonl\", \"sa-bench_*/*/inputs.json\", "
	       "\"perf_dashboard_bundle/*\", \"perf_dashboard.json\"], \"archive\": "
	       "[\"artifacts/**/profile_export.jsonl\", \"sa-bench_*/**/profile_export.jsonl\"]}\n");
	tu_has(s, "    archive_path=\"\"\n    \n"
	       "    echo \"Packing 2 archive pattern(s) into one compressed bundle...\"\n"
	       "    archive_path=$(python3 - /logs /tmp '\"'\"'[\"artifacts/**/profile_export.jsonl\", "
	       "\"sa-bench_*/**/profile_export.jsonl\"]'\"'\"' <<'\"'\"'PY'\"'\"'\n");
	tu_has(s, "    PY\n    )\n    \n    echo \"Uploading the log directory to S3 (12 exclude pattern(s))...\"\n");
	/* the archived files are left out of the sync, "**" as "*" */
	tu_has(s, "    if ! aws s3 sync /logs s3://logs/srtslurm/<date>/4242/ --endpoint-url https://minio.example "
	       "--exclude '\"'\"'artifacts/*/server_metrics_export.jsonl'\"'\"' ");
	/* shlex.quote leaves a pattern without shell characters bare */
	tu_has(s, "--exclude perf_dashboard.json --exclude '\"'\"'artifacts/*/profile_export.jsonl'\"'\"' "
	       "--exclude '\"'\"'sa-bench_*/*/profile_export.jsonl'\"'\"'; then\n");
	tu_has(s, "$(basename \"$archive_path\") --endpoint-url https://minio.example; then\n");
	tu_has(s, "    aws s3 ls --recursive s3://logs/srtslurm/<date>/4242/ --endpoint-url https://minio.example | wc -l\n");
	free(o);
}

static void test_no_s3_no_step(void **state)
{
	(void)state;
	char *o = tu_plan_of("{" HEAD "\"reporting\": {}}");
	tu_lacks(o, "postprocess");
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_policy),
		cmocka_unit_test(test_default_policy),
		cmocka_unit_test(test_no_s3_no_step),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
