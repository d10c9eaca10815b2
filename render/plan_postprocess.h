/*
 * plan_postprocess.h — the launch plan's last step when the recipe sets
 * reporting.s3: a python:3.11 container on the head node that installs the
 * AWS CLI and uploads the log directory (srtctl fae1ab3,
 * cli/mixins/postprocess_stage.py _run_postprocess_container).
 */
#ifndef SRT_PLAN_POSTPROCESS_H
#define SRT_PLAN_POSTPROCESS_H

#include <jansson.h>

#include "model/recipe.h"
#include "render/envmap.h"

/* The recipe's reporting.s3 mapping (borrowed), or NULL when there is no
 * upload to plan. */
json_t *postprocess_s3(const struct recipe *r);

/* The step's command, `bash -c <script>` shell-quoted (malloc'd).  job_id
 * and date name the upload's folder (<prefix>/<date>/<job_id>/). */
char *postprocess_command(json_t *s3, const char *job_id, const char *date);

/* The credentials and region the recipe gives (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_DEFAULT_REGION), values borrowed from s3.
 * srtctl also takes the keys from the environment it runs in, which a plan
 * cannot see. */
void postprocess_env(json_t *s3, struct envmap *env);

/* The step's only mount: the log directory at /logs. */
extern const char postprocess_mounts[];

#endif
