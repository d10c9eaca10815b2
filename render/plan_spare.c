/* plan_spare.c — the readable plan against the launch snapshot: which steps
 * run on other nodes (or only) on the harness's longer node list.  Plans
 * have thousands of steps and a service on every node has a node list as
 * long as the job: membership is a lookup in a set, not a scan. */
#include "render/plan_spare.h"

#include <stdlib.h>
#include <string.h>

#include "lib/json.h"

/* A step's name without its "_<node>" suffix: decode_0_node-02 and
 * decode_0_node-01 are the same worker; service_x_node-03 one instance of
 * service_x.  The benchmark step has no name. */
static char *stem_of(json_t *step)
{
	const char *name = json_string_value(json_object_get(step, "name"));
	const char *node = json_string_value(json_object_get(step, "node"));
	size_t n, k;
	if (!name)
		return xstrdup("benchmark");
	n = strlen(name);
	k = node ? strlen(node) : 0;
	if (k && n > k + 1 && name[n - k - 1] == '_' && !strcmp(name + n - k, node))
		n -= k + 1;
	return xstrndup(name, n);
}

/* stem -> the nodes its steps run on (strings), in launch order; order
 * keeps the stems in launch order too. */
static json_t *by_stem(json_t *steps, struct strvec *order)
{
	json_t *o = json_object(), *seen = json_object(), *s;
	struct strbuf key = STRBUF_INIT;
	size_t i;
	json_array_foreach(steps, i, s) {
		char *stem = stem_of(s);
		json_t *nodes = json_object_get(o, stem), *n = json_object_get(s, "node");
		if (!nodes) {
			nodes = json_array();
			json_object_set_new(o, stem, nodes);
			if (order)
				strvec_push(order, stem);
		}
		if (json_is_string(n)) {
			/* stem and node with a NUL between: a pair no other makes */
			strbuf_reset(&key);
			strbuf_addstr(&key, stem);
			strbuf_add(&key, "", 1);
			strbuf_addstr(&key, json_string_value(n));
			if (!json_object_getn(seen, key.buf, key.len)) {
				json_object_setn_new_nocheck(seen, key.buf, key.len, json_true());
				json_array_append(nodes, n);
			}
		}
		free(stem);
	}
	strbuf_release(&key);
	json_decref(seen);
	return o;
}

/* The strings of a node list as a set. */
static json_t *set_of(json_t *nodes)
{
	json_t *set = json_object(), *e;
	size_t i;
	json_array_foreach(nodes, i, e)
		json_object_set_new_nocheck(set, json_string_value(e), json_true());
	return set;
}

/* a, b as sets: a within b */
static int within(json_t *a, json_t *b)
{
	size_t i;
	json_t *e, *set;
	int ok = 1;
	/* most stems run on the same nodes in both plans, in the same order */
	if (json_array_size(a) <= json_array_size(b)) {
		json_array_foreach(a, i, e)
			if (!json_equal(e, json_array_get(b, i)))
				break;
		if (i == json_array_size(a))
			return 1;
	}
	set = set_of(b);
	json_array_foreach(a, i, e)
		if (!json_object_get(set, json_string_value(e))) {
			ok = 0;
			break;
		}
	json_decref(set);
	return ok;
}

static void add_nodes(struct strbuf *sb, json_t *nodes, json_t *except)
{
	size_t i, n = 0;
	json_t *e, *set = except ? set_of(except) : NULL;
	json_array_foreach(nodes, i, e) {
		if (set && json_object_get(set, json_string_value(e)))
			continue;
		strbuf_addf(sb, "%s%s", n++ ? ", " : "", json_string_value(e));
	}
	json_decref(set);
}

/* What the snapshot does with a stem, as the words after its name ("runs on
 * node-02, not node-01"); NULL when it runs on the same nodes. */
static char *difference(json_t *own, json_t *mock)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *none = json_array();
	if (!own)
		own = none;
	if (!mock)
		mock = none;
	if (within(own, mock) && within(mock, own)) {
		json_decref(none);
		return NULL;
	}
	if (!json_array_size(mock)) {
		strbuf_addstr(&sb, "not in the snapshot");
	} else if (!json_array_size(own)) {
		strbuf_addstr(&sb, "on ");
		add_nodes(&sb, mock, NULL);
		strbuf_addstr(&sb, " (not in the job)");
	} else if (within(own, mock)) {
		strbuf_addstr(&sb, "also on ");
		add_nodes(&sb, mock, own);
	} else {
		strbuf_addstr(&sb, "on ");
		add_nodes(&sb, mock, NULL);
		strbuf_addstr(&sb, ", not ");
		add_nodes(&sb, own, NULL);
	}
	json_decref(none);
	return strbuf_detach(&sb, NULL);
}

size_t plan_spare_note(struct strbuf *out, json_t *own, json_t *mock, size_t own_n,
		       const char *const *mock_nodes, size_t mock_n)
{
	struct strvec order = STRVEC_INIT, phrases = STRVEC_INIT;
	json_t *o = by_stem(own, NULL), *m = by_stem(mock, &order);
	json_t *groups = json_object(); /* phrase -> stems, so alike lines join */
	const char *stem;
	json_t *v;
	size_t ndiff = 0;

	/* own-only stems after the snapshot's, in the job's launch order (m
	 * holds the snapshot's: a lookup, not a scan of them per stem) */
	json_object_foreach(o, stem, v)
		if (!json_object_get(m, stem))
			strvec_push(&order, stem);
	for (size_t i = 0; i < order.n; i++) {
		char *d = difference(json_object_get(o, order.v[i]), json_object_get(m, order.v[i]));
		json_t *g;
		if (!d)
			continue;
		ndiff++;
		g = json_object_get(groups, d);
		if (!g) {
			g = json_array();
			json_object_set_new(groups, d, g);
			strvec_push(&phrases, d);
		}
		json_array_append_new(g, json_string(order.v[i]));
		free(d);
	}
	if (ndiff) {
		strbuf_addf(out, "\nlaunch snapshot: srtctl's test harness lists %zu spare node%s more (",
			    mock_n - own_n, mock_n - own_n == 1 ? "" : "s");
		for (size_t i = own_n; i < mock_n; i++)
			strbuf_addf(out, "%s%s", i > own_n ? ", " : "", mock_nodes[i]);
		strbuf_addstr(out, "); placed on that list:\n");
	}
	for (size_t i = 0; i < phrases.n; i++) {
		json_t *g = json_object_get(groups, phrases.v[i]), *e;
		size_t k;
		int decode = 0;
		strbuf_addstr(out, "  ");
		json_array_foreach(g, k, e) {
			const char *s = json_string_value(e);
			strbuf_addf(out, "%s%s", k ? ", " : "", s);
			decode |= !strncmp(s, "decode_", 7);
		}
		{
			const char *ph = phrases.v[i];
			int one = json_array_size(g) == 1, also = !strncmp(ph, "also ", 5);
			if (!strncmp(ph, "not ", 4))
				strbuf_addf(out, " %s %s", one ? "is" : "are", ph);
			else
				strbuf_addf(out, "%s %s %s", also ? " also" : "", one ? "runs" : "run",
					    also ? ph + 5 : ph);
		}
		/* the one move that is srtctl's allocator and not a per-node
		 * placement: decode leaves a part-used prefill node when the
		 * list has another node */
		if (decode && strncmp(phrases.v[i], "also", 4))
			strbuf_addstr(out, " (decode leaves a part-used prefill node when another is "
					   "listed)");
		strbuf_addch(out, '\n');
	}
	strvec_release(&order);
	strvec_release(&phrases);
	json_decref(groups);
	json_decref(o);
	json_decref(m);
	return ndiff;
}
