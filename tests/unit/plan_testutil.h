/*
 * plan_testutil.h — what the launch-plan tests share: the snapshot plan of a
 * recipe given as JSON text, one step's text out of it, checks that a
 * text holds (or lacks) a piece, and that a plan is refused.  Header only; include after testutil.h.
 */
#ifndef SRT_PLAN_TESTUTIL_H
#define SRT_PLAN_TESTUTIL_H

#include "render/plan.h"
#include "tests/unit/testutil.h"

/* The plan as `render --format snapshot` prints it; a refusal fails. */
static inline char *tu_plan_of(const char *json)
{
	struct strbuf out = STRBUF_INIT;
	struct recipe r;
	char *err = NULL;
	tu_recipe_json(&r, json);
	if (plan_render_snapshot(&out, &r, NULL, &err) < 0)
		fail_msg("%s", err);
	recipe_release(&r);
	return strbuf_detach(&out, NULL);
}

/* The text of step name, up to the next step. */
static inline char *tu_step_of(const char *plan, const char *name)
{
	char *hdr = xasprintf("\n## %s\n", name);
	const char *a = strstr(plan, hdr), *b;
	free(hdr);
	if (!a) {
		fail_msg("no step %s in:\n%s", name, plan);
		return xstrdup(""); /* not reached: fail_msg does not return */
	}
	b = strstr(a + 4, "\n## ");
	return xstrndup(a, b ? (size_t)(b - a) : strlen(a));
}

static inline void tu_has(const char *text, const char *what)
{
	if (!text || !strstr(text, what))
		fail_msg("want %s in:\n%s", what, text ? text : "(no such step)");
}

static inline void tu_lacks(const char *text, const char *what)
{
	if (text && strstr(text, what))
		fail_msg("did not want %s in:\n%s", what, text);
}

/* The recipe's plan is refused, as a snapshot and as text alike, with
 * exactly msg, and nothing is printed. */
static inline void tu_refused(const char *json, const char *msg)
{
	struct recipe r;
	struct strbuf out = STRBUF_INIT;
	char *err = NULL;
	tu_recipe_json(&r, json);
	assert_int_equal(plan_render_snapshot(&out, &r, NULL, &err), -1);
	assert_non_null(err);
	assert_string_equal(err, msg);
	assert_int_equal(out.len, 0);
	free(err);
	err = NULL;
	assert_int_equal(plan_render_text(&out, &r, NULL, &err), -1);
	assert_string_equal(err, msg);
	free(err);
	strbuf_release(&out);
	recipe_release(&r);
}

#endif
