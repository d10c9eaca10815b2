/*
 * validate_engine_flags.c — a role's args keys against its engine's flags
 * (engine_flags.h): a key neither the engine, Dynamo's worker nor srtctl
 * knows gets a warning with the closest flag.  Only a warning: the table is
 * one release of the engine, and the user's may be newer.  A key whose value
 * srtctl does not pass (false, null) is left alone: no flag reaches the engine.
 */
#include <stdlib.h>
#include <string.h>

#include "model/engine_flags.h"
#include "model/schema.h"
#include "model/validate.h"
#include "model/validate_int.h"

/* The texts of a role's warnings around the key, the same for every key of
 * the role: written once, at its first unknown key, since a large recipe has
 * thousands of such keys and is validated on every edit. */
struct role_text {
	struct strbuf path; /* "roles.<role>.args", then the key */
	struct strbuf msg;  /* "roles.<role>.args: '", then the key and tail */
	size_t path_len, msg_len;
	struct strbuf tail; /* after the key */
	char fallback[256];
};

static void role_text_init(struct role_text *rt, enum role_id id, const struct engine_flags *t)
{
	strbuf_init(&rt->path);
	strbuf_init(&rt->msg);
	strbuf_init(&rt->tail);
	strbuf_addf(&rt->path, "roles.%s.args", role_names[id]);
	rt->path_len = rt->path.len;
	strbuf_addf(&rt->msg, "%s: '", rt->path.buf);
	rt->msg_len = rt->msg.len;
	strbuf_addf(&rt->tail,
		    "' is not a %s flag (srt-tui's table: %s); %s exits with 'unrecognized arguments' unless your release has it",
		    t->label, t->source, t->label);
	snprintf(rt->fallback, sizeof(rt->fallback),
		 "`%s` lists your release's flags; srt-tui's table may be older than your %s",
		 t->help, t->label);
}

static void role_text_release(struct role_text *rt)
{
	strbuf_release(&rt->path);
	strbuf_release(&rt->msg);
	strbuf_release(&rt->tail);
}

/* roles.<role>.args.<key>, the key quoted when the path syntax needs it
 * (the mapping itself when the key has a double quote). */
static const char *key_path(struct role_text *rt, const char *key)
{
	struct strbuf *sb = &rt->path;
	sb->len = rt->path_len;
	sb->buf[sb->len] = 0;
	if (!strpbrk(key, ".[]'\"")) {
		strbuf_addch(sb, '.');
		strbuf_addstr(sb, key);
	} else if (!strchr(key, '"')) {
		strbuf_add(sb, ".\"", 2);
		strbuf_addstr(sb, key);
		strbuf_addch(sb, '"');
	}
	return sb->buf;
}

static void check_role(enum role_id id, const struct role *ro, const struct engine_flags *t,
		       struct diag_list *out)
{
	const char *key;
	json_t *v;
	struct role_text rt;
	int have_text = 0;

	json_object_foreach(ro->args, key, v) {
		if (json_is_false(v) || json_is_null(v))
			continue;
		if (engine_flags_kind(t, key) != EFLAG_UNKNOWN)
			continue;
		if (!have_text) {
			role_text_init(&rt, id, t);
			have_text = 1;
		}
		char hint[512];
		/* one did-you-mean, shared with the schema and LMCache checks */
		vsuggest_hint_of(hint, sizeof(hint), engine_flags_suggest(t, key), rt.fallback);
		rt.msg.len = rt.msg_len;
		strbuf_addstr(&rt.msg, key);
		strbuf_add(&rt.msg, rt.tail.buf, rt.tail.len);
		diag_add_text(out, DIAG_WARNING, "engine-unknown-flag", key_path(&rt, key), hint,
			      rt.msg.buf, rt.msg.len);
	}
	if (have_text)
		role_text_release(&rt);
}

void validate_engine_flags(const struct recipe *r, struct diag_list *out)
{
	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct role *ro = &r->role[i];
		const struct engine_flags *t = ro->present ? engine_flags_find(ro->engine) : NULL;
		if (t && json_is_object(ro->args))
			check_role((enum role_id)i, ro, t, out);
	}
}
