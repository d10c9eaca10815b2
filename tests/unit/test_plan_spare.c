/* The readable plan (the TUI's Plan tab, render --format plan) and the
 * launch snapshot (render --format snapshot) agree on every step's node, or
 * the readable plan says where the snapshot puts it.
 *
 * The readable plan runs on the job's own nodes, as a real allocation gives
 * them; the snapshot on srtctl's test harness list, two spare nodes longer.
 * srtctl's allocator (src/srtctl/core/topology.py, allocate_endpoints) moves
 * decode to a fresh node after a part-used prefill node only when the list
 * has another node and allow_prefill_decode_colocation is off: so a
 * colocated decode shares the prefill node on a real allocation and takes
 * node-02 in the snapshot.  Per-node services (the tachometer exporters) and
 * frontend replicas follow the list too. */
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
#include "render/plan_spare.h"
#include "tests/unit/testutil.h"

#define HEAD "\"schema\": 2, \"name\": \"t\", \"model\": {\"path\": \"m\", \"container\": \"c\", " \
	     "\"precision\": \"bf16\"}, \"resources\": {\"gpus_per_node\": 8}, "

/* The job's own node names, node-01 .. node-N. */
static json_t *own_steps(const struct recipe *r, int n)
{
	struct strvec names = STRVEC_INIT;
	char *err = NULL;
	for (int i = 0; i < n; i++)
		strvec_pushf(&names, "node-%02d", i + 1);
	struct plan_opts o = { NULL, (const char *const *)names.v, names.n };
	json_t *v = plan_steps_json(r, &o, &err);
	if (!v)
		fail_msg("own plan refused: %s", err);
	strvec_release(&names);
	return v;
}

/* "stem@node" for every step: the step's name without its "_<node>" tail
 * (the benchmark has no name). */
static void pairs(json_t *steps, struct strvec *out)
{
	size_t i;
	json_t *s;
	json_array_foreach(steps, i, s) {
		const char *name = json_string_value(json_object_get(s, "name"));
		const char *node = json_string_value(json_object_get(s, "node"));
		size_t n = name ? strlen(name) : 0, k = strlen(node);
		if (!name)
			strvec_pushf(out, "benchmark@%s", node);
		else if (n > k + 1 && name[n - k - 1] == '_' && !strcmp(name + n - k, node))
			strvec_pushf(out, "%.*s@%s", (int)(n - k - 1), name, node);
		else
			strvec_pushf(out, "%s@%s", name, node);
	}
}

static int in(const struct strvec *v, const char *s)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->v[i], s))
			return 1;
	return 0;
}

/* The note's line naming stem (as a whole name in the list before the
 * verb), or NULL. */
static const char *line_of(const char *note, const char *stem, size_t *len)
{
	for (const char *l = note; *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l), k = strlen(stem);
		for (const char *p = l; p + k <= l + n; p++)
			if ((p == l + 2 || p[-1] == ' ') && !strncmp(p, stem, k) &&
			    (p[k] == ',' || p[k] == ' ') && p > l + 1) {
				*len = n;
				return l;
			}
		if (!e)
			break;
		l = e + 1;
	}
	return NULL;
}

struct tally {
	size_t shapes, refused, spare_only, differ, explained, same;
};

/* One shape: every step the two plans place differently is named in the
 * note with the snapshot's node; a plan with no difference has no note; the
 * note names nothing that does not differ. */
static void check_shape(const char *json, struct tally *t)
{
	struct recipe r;
	struct strbuf text = STRBUF_INIT;
	struct strvec own = STRVEC_INIT, mock = STRVEC_INIT, diff = STRVEC_INIT;
	char *err = NULL;
	tu_recipe_json(&r, json);
	t->shapes++;
	if (plan_render_text(&text, &r, NULL, &err) < 0) {
		/* refused: the snapshot refuses the same recipe, unless only the
		 * spare nodes make room (a colocated decode that does not fit
		 * beside prefill: validate's colocate-fit) */
		char *why = err;
		json_t *m = plan_steps_json(&r, NULL, &err);
		if (m) {
			if (strncmp(why, "not enough nodes for ", 21))
				fail_msg("the text plan refuses (%s) what the snapshot plans: %s", why, json);
			t->spare_only++;
			json_decref(m);
		} else {
			free(err);
			t->refused++;
		}
		free(why);
		strbuf_release(&text);
		recipe_release(&r);
		return;
	}
	json_t *o = own_steps(&r, plan_job_nodes(&r)), *m = plan_steps_json(&r, NULL, &err);
	assert_non_null(m);
	/* the text plan is the own plan: every step listed under its name */
	size_t i;
	json_t *s;
	json_array_foreach(o, i, s) {
		const char *name = json_string_value(json_object_get(s, "name"));
		char *want = xasprintf(". %s", name ? name : "benchmark");
		if (!strstr(sb_str(&text), want))
			fail_msg("step %s missing from the text plan of %s", want + 2, json);
		free(want);
	}
	pairs(o, &own);
	pairs(m, &mock);
	const char *note = strstr(sb_str(&text), "\nlaunch snapshot: ");
	size_t note_len = 0;
	if (note) {
		const char *end = strstr(note + 1, "\n\n");
		note_len = end ? (size_t)(end - note) : strlen(note);
	}
	char *nt = xstrndup(note ? note : "", note_len);
	for (size_t k = 0; k < mock.n; k++) {
		if (in(&own, mock.v[k]))
			continue;
		char *at = strchr(mock.v[k], '@');
		char *stem = xstrndup(mock.v[k], (size_t)(at - mock.v[k]));
		size_t n;
		const char *l = line_of(nt, stem, &n);
		if (!l)
			fail_msg("the snapshot puts %s on %s; the text plan does not say so:\n%s\nrecipe %s",
				 stem, at + 1, sb_str(&text), json);
		char *line = xstrndup(l, n);
		if (!strstr(line, at + 1))
			fail_msg("the note names %s but not node %s: %s", stem, at + 1, line);
		if (!in(&diff, stem))
			strvec_push(&diff, stem);
		free(line);
		free(stem);
		t->explained++;
	}
	for (size_t k = 0; k < own.n; k++) {
		if (in(&mock, own.v[k]))
			continue;
		char *at = strchr(own.v[k], '@');
		char *stem = xstrndup(own.v[k], (size_t)(at - own.v[k]));
		size_t n;
		if (!line_of(nt, stem, &n))
			fail_msg("the text plan runs %s on %s, the snapshot not; no word of it:\n%s",
				 stem, at + 1, sb_str(&text));
		if (!in(&diff, stem))
			strvec_push(&diff, stem);
		free(stem);
		t->explained++;
	}
	if (!diff.n) {
		if (note)
			fail_msg("a note with nothing that differs:\n%s", sb_str(&text));
		t->same++;
	} else {
		t->differ++;
		/* and every name the note lists does differ */
		for (const char *l = strchr(nt + 1, '\n'); l && l[1];) {
			const char *p = l + 3, *e = strchr(l + 1, '\n');
			const char *stop = strstr(p, " run");
			const char *alt = strstr(p, " also ");
			const char *is = strstr(p, " is ");
			const char *are = strstr(p, " are ");
			if (alt && alt < stop)
				stop = alt;
			if (is && (!stop || is < stop))
				stop = is;
			if (are && (!stop || are < stop))
				stop = are;
			assert_non_null(stop);
			while (p < stop) {
				const char *c = memchr(p, ',', (size_t)(stop - p));
				char *name = xstrndup(p, (size_t)((c ? c : stop) - p));
				if (!in(&diff, name))
					fail_msg("the note lists %s, which runs on the same nodes in both:\n%s",
						 name, nt);
				free(name);
				p = c ? c + 2 : stop;
			}
			l = e;
		}
	}
	free(nt);
	strvec_release(&own);
	strvec_release(&mock);
	strvec_release(&diff);
	json_decref(o);
	json_decref(m);
	strbuf_release(&text);
	recipe_release(&r);
}

/* The §7.3 shape: one prefill node, a colocated decode.  A real allocation
 * is that one node: decode packs after prefill's GPU; the snapshot's list
 * has node-02, and decode moves there. */
static void test_colocated_decode(void **state)
{
	struct recipe r;
	struct strbuf out = STRBUF_INIT;
	char *err = NULL;
	(void)state;
	tu_recipe_json(&r, "{" HEAD "\"frontend\": {\"enable_multiple_frontends\": false}, "
		      "\"observability\": {\"tachometer\": {\"enabled\": false}}, \"engine\": \"vllm\", "
		      "\"roles\": {\"prefill\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1}, "
		      "\"decode\": {\"nodes\": \"colocate\", \"workers\": 1, \"gpus\": 1}}}");
	assert_int_equal(plan_render_text(&out, &r, NULL, &err), 0);
	assert_non_null(strstr(sb_str(&out), "\nnode-01 — head, worker node\n"));
	assert_non_null(strstr(sb_str(&out), ". decode_0_node-01  [GPUs 1, "));
	assert_non_null(strstr(sb_str(&out), "\nnodes: node-01 stands for the node Slurm allocates\n\n"));
	/* the last lines: what the snapshot does otherwise */
	const char *note =
		"\n\nlaunch snapshot: srtctl's test harness lists 2 spare nodes more (node-02, node-03); "
		"placed on that list:\n"
		"  decode_0 runs on node-02, not node-01 (decode leaves a part-used prefill node when "
		"another is listed)\n";
	assert_true(out.len > strlen(note));
	assert_string_equal(sb_str(&out) + out.len - strlen(note), note);
	strbuf_reset(&out);
	assert_int_equal(plan_render_snapshot(&out, &r, NULL, &err), 0);
	assert_non_null(strstr(sb_str(&out), "\n## decode_0_node-02\nnodelist: node-02\n"));
	strbuf_release(&out);
	recipe_release(&r);

	/* allow_prefill_decode_colocation: decode stays on node-01 in both, and
	 * the plan has nothing to explain */
	tu_recipe_json(&r, "{" HEAD "\"frontend\": {\"enable_multiple_frontends\": false}, "
		      "\"observability\": {\"tachometer\": {\"enabled\": false}}, \"engine\": "
		      "{\"type\": \"vllm\", \"allow_prefill_decode_colocation\": true}, "
		      "\"roles\": {\"prefill\": {\"nodes\": 1, \"workers\": 1, \"gpus\": 1}, "
		      "\"decode\": {\"nodes\": \"colocate\", \"workers\": 1, \"gpus\": 1}}}");
	assert_int_equal(plan_render_text(&out, &r, NULL, &err), 0);
	assert_non_null(strstr(sb_str(&out), ". decode_0_node-01  [GPUs 1, "));
	assert_null(strstr(sb_str(&out), "launch snapshot"));
	strbuf_reset(&out);
	assert_int_equal(plan_render_snapshot(&out, &r, NULL, &err), 0);
	assert_non_null(strstr(sb_str(&out), "\n## decode_0_node-01\nnodelist: node-01\n"));
	strbuf_release(&out);
	recipe_release(&r);
}

/* A grid of P/D shapes: prefill workers x GPUs, decode colocated or on its
 * own node, decode workers x GPUs, the colocation switch, one frontend or
 * the nginx layer, and either the tachometer's per-node exporters or a
 * service placed on the decode nodes or on every worker node. */
static void test_grid(void **state)
{
	static const int pg[] = { 1, 4, 8 }, dg[] = { 1, 4, 8 };
	static const char *const svc[] = {
		"",
		", \"services\": [{\"name\": \"probe\", \"command\": [\"probe\"], "
		"\"placement\": {\"node\": \"decode\"}}]",
		", \"services\": [{\"name\": \"probe\", \"command\": [\"probe\"], "
		"\"placement\": {\"node\": \"workers\"}}]",
	};
	struct tally t = { 0 };
	(void)state;
	for (int pw = 1; pw <= 2; pw++)
		for (size_t a = 0; a < 3; a++)
			for (int dn = 0; dn <= 1; dn++)
				for (int dw = 1; dw <= 2; dw++)
					for (size_t b = 0; b < 3; b++)
						for (int flags = 0; flags < 4; flags++)
							for (size_t sv = 0; sv < 3; sv++) {
								int pn = (pw * pg[a] + 7) / 8;
								char *dnodes = dn ? xasprintf("%d", (dw * dg[b] + 7) / 8)
										  : xstrdup("\"colocate\"");
								char *json = xasprintf(
									"{" HEAD "\"frontend\": {\"enable_multiple_frontends\": %s}, "
									"\"observability\": {\"tachometer\": {\"enabled\": %s}}, "
									"\"engine\": {\"type\": \"vllm\", "
									"\"allow_prefill_decode_colocation\": %s}, "
									"\"roles\": {\"prefill\": {\"nodes\": %d, \"workers\": %d, "
									"\"gpus\": %d}, \"decode\": {\"nodes\": %s, \"workers\": %d, "
									"\"gpus\": %d}}%s}",
									flags & 1 ? "true" : "false", sv ? "false" : "true",
									flags & 2 ? "true" : "false", pn, pw, pg[a], dnodes, dw,
									dg[b], svc[sv]);
								check_shape(json, &t);
								free(json);
								free(dnodes);
							}
	printf("%zu shapes: %zu planned the same on both node lists, %zu differ (%zu steps "
	       "placed differently, each named in the note), %zu refused by both, %zu fit only "
	       "on the snapshot's longer list\n",
	       t.shapes, t.same, t.differ, t.explained, t.refused, t.spare_only);
	assert_true(t.same > 0 && t.differ > 0);
	assert_true(t.same + t.differ >= 500);
}

/* The note from step lists given here: a stem's nodes are a set (a node
 * twice is once, another order is the same), a stem on more nodes runs
 * "also" on the others, one on other nodes runs there "not" on its own;
 * alike lines join.  And a stem on as many nodes as a large job has. */
static void test_note_sets(void **state)
{
	(void)state;
	static const char *const mock_nodes[] = { "node-01", "node-02", "node-03", "node-04" };
	json_t *own = json_pack("[{s:s,s:s},{s:s,s:s},{s:s,s:s},{s:s,s:s},{s:s,s:s},{s:s,s:s},"
				"{s:s,s:s},{s:s,s:s},{s:n,s:s}]",
				"name", "svc_node-01", "node", "node-01", "name", "svc_node-02", "node", "node-02",
				"name", "dup", "node", "node-01", "name", "dup", "node", "node-01",
				"name", "ord_node-01", "node", "node-01", "name", "ord_node-02", "node", "node-02",
				"name", "moved", "node", "node-01", "name", "gone", "node", "node-02",
				"name", "node", "node-02");
	json_t *mock = json_pack("[{s:s,s:s},{s:s,s:s},{s:s,s:s},{s:s,s:s},{s:s,s:s},{s:s,s:s},"
				 "{s:s,s:s},{s:s,s:s},{s:s,s:s},{s:n,s:s}]",
				 "name", "svc_node-01", "node", "node-01", "name", "svc_node-02", "node", "node-02",
				 "name", "svc_node-03", "node", "node-03", "name", "dup", "node", "node-01",
				 "name", "ord_node-02", "node", "node-02", "name", "ord_node-01", "node", "node-01",
				 "name", "moved", "node", "node-03", "name", "new_node-04", "node", "node-04",
				 "name", "new2_node-04", "node", "node-04", "name", "node", "node-02");
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(plan_spare_note(&sb, own, mock, 2, mock_nodes, 4), 5);
	assert_string_equal(sb_str(&sb),
			    "\nlaunch snapshot: srtctl's test harness lists 2 spare nodes more (node-03, "
			    "node-04); placed on that list:\n"
			    "  svc also runs on node-03\n"
			    "  moved runs on node-03, not node-01\n"
			    "  new, new2 run on node-04 (not in the job)\n"
			    "  gone is not in the snapshot\n");
	strbuf_release(&sb);
	json_decref(own);
	json_decref(mock);

	/* every node of a large job, the snapshot's in another order */
	struct strvec names = STRVEC_INIT;
	json_t *a = json_array(), *b = json_array();
	for (int i = 0; i < 300; i++)
		strvec_pushf(&names, "n%03d", i);
	for (int i = 0; i < 300; i++) {
		char *x = xasprintf("all_%s", names.v[i]), *y = xasprintf("all_%s", names.v[299 - i]);
		json_array_append_new(a, json_pack("{s:s,s:s}", "name", x, "node", names.v[i]));
		json_array_append_new(b, json_pack("{s:s,s:s}", "name", y, "node", names.v[299 - i]));
		free(x);
		free(y);
	}
	assert_int_equal(plan_spare_note(&sb, a, b, 300, (const char *const *)names.v, 300), 0);
	assert_int_equal(sb.len, 0);
	json_array_remove(b, 7);
	assert_int_equal(plan_spare_note(&sb, a, b, 299, (const char *const *)names.v, 300), 1);
	assert_non_null(strstr(sb_str(&sb), "\n  all runs on n299, n298, "));
	assert_non_null(strstr(sb_str(&sb), ", not n000, n001, "));
	strbuf_release(&sb);
	json_decref(a);
	json_decref(b);
	strvec_release(&names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_colocated_decode),
		cmocka_unit_test(test_grid),
		cmocka_unit_test(test_note_sets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
