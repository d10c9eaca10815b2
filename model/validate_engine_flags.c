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

/* roles.<role>.args.<key>, the key quoted when the path syntax needs it. */
static void key_path(char *buf, size_t size, enum role_id id, const char *key)
{
	if (!strpbrk(key, ".[]'\""))
		snprintf(buf, size, "roles.%s.args.%s", role_names[id], key);
	else if (!strchr(key, '"'))
		snprintf(buf, size, "roles.%s.args.\"%s\"", role_names[id], key);
	else
		snprintf(buf, size, "roles.%s.args", role_names[id]);
}

static void check_role(enum role_id id, const struct role *ro, const struct engine_flags *t,
		       struct diag_list *out)
{
	const char *key;
	json_t *v;
	char fallback[256];
	fallback[0] = 0; /* written once, at the role's first unknown key */

	json_object_foreach(ro->args, key, v) {
		if (json_is_false(v) || json_is_null(v))
			continue;
		if (engine_flags_kind(t, key) != EFLAG_UNKNOWN)
			continue;
		if (!fallback[0])
			snprintf(fallback, sizeof(fallback),
				 "`%s` lists your release's flags; srt-tui's table may be older than your %s",
				 t->help, t->label);
		char hint[512], path[256];
		/* one did-you-mean, shared with the schema and LMCache checks */
		vsuggest_hint_of(hint, sizeof(hint), engine_flags_suggest(t, key), fallback);
		key_path(path, sizeof(path), id, key);
		diag_add(out, DIAG_WARNING, "engine-unknown-flag", path, hint,
			 "roles.%s.args: '%s' is not a %s flag (srt-tui's table: %s); %s exits with 'unrecognized arguments' unless your release has it",
			 role_names[id], key, t->label, t->source, t->label);
	}
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
