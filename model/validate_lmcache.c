/*
 * validate_lmcache.c — will each lmcache-server start?  Its argv is checked
 * against the flag table of kinds.h as LMCache's argparse reads it (required
 * flags, value types, allowed eviction policies, unknown flags, the flags
 * srtctl owns, L2 adapter JSON), for declared and implied servers and for a
 * declared one whose own command is an `lmcache server`; and its
 * placement is checked for the mapping-without-node trap (srtctl reads it as
 * head).  See docs/decisions.md "LMCache server flags".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/lmc_args.h"
#include "model/schema.h"
#include "model/validate_int.h"
#include "lib/json_read.h"

static const char *const old_policies[] = { "LFU", "FIFO", "MRU", NULL };

static int in_list(const char *s, const char *const *l)
{
	for (; l && *l; l++)
		if (s && !strcmp(s, *l))
			return 1;
	return 0;
}

/* Where argv's items are in the recipe: the first ncmd are
 * <cmd_path>[i] (a service's own command), the rest <args_path>[i - ncmd]. */
struct argv_where {
	const char *cmd_path;
	size_t ncmd;
	const char *args_path;
};

static char *item_path(const struct argv_where *w, size_t i)
{
	if (i < w->ncmd)
		return xasprintf("%s[%zu]", w->cmd_path, i);
	return xasprintf("%s[%zu]", w->args_path, i - w->ncmd);
}

/* item_path made on first use: most values are fine and need no path. */
static const char *path_at(char **p, const struct argv_where *w, size_t i)
{
	if (!*p)
		*p = item_path(w, i);
	return *p;
}

/* A unique flag that word is a prefix of (argparse's abbreviations). */
static const struct lmc_flag *prefix_of(const char *word)
{
	const struct lmc_flag *hit = NULL;
	size_t n = strlen(word);

	for (size_t i = 0; i < lmc_flags_count; i++)
		if (!strncmp(lmc_flags[i].name, word, n)) {
			if (hit)
				return NULL;
			hit = &lmc_flags[i];
		}
	return hit;
}

static void unknown_flag(const struct lmc_occ *o, const char *name, const struct argv_where *w,
			 struct diag_list *out)
{
	const char *cands[128];
	size_t n = 0;
	char word[128], hint[256];
	const struct lmc_flag *pre;
	const char *eq = strchr(o->word, '=');

	snprintf(word, sizeof(word), "%.*s", eq ? (int)(eq - o->word) : (int)strlen(o->word), o->word);
	for (size_t i = 0; i < lmc_flags_count && n < 128; i++)
		if (!lmc_flags[i].owned)
			cands[n++] = lmc_flags[i].name;
	if ((pre = prefix_of(word)))
		snprintf(hint, sizeof(hint),
			 "did you mean '%s'? write it in full (argparse takes a unique prefix only while no other flag starts the same way)",
			 pre->name);
	else
		vsuggest_hint(hint, sizeof(hint), word, cands, n,
			      "see `lmcache server --help` for the flags of your LMCache release");
	char *p = item_path(w, o->at);
	diag_add(out, DIAG_WARNING, "lmcache-unknown-flag", p, hint,
		 "services[%s].args: '%s' is not a flag of `lmcache server` (LMCache's current flags): argparse exits with 'unrecognized arguments' if your release does not have it",
		 name, word);
	free(p);
}

static const char *type_word(enum lmc_type t)
{
	switch (t) {
	case LMC_INT: return "an integer (argparse type=int)";
	case LMC_FLOAT: return "a number (argparse type=float)";
	case LMC_JSON: return "a JSON object";
	default: return "a value";
	}
}

static int value_ok(const struct lmc_flag *f, const char *v)
{
	char *end;
	json_t *j;
	int ok;

	switch (f->type) {
	case LMC_INT:
		while (*v == ' ')
			v++;
		(void)strtoll(v, &end, 10);
		return end != v && !*end;
	case LMC_FLOAT:
		(void)strtod(v, &end);
		return end != v && !*end;
	case LMC_JSON:
		j = json_read(v, JSON_DECODE_ANY, NULL);
		ok = json_is_object(j);
		json_decref(j);
		return ok;
	default:
		return 1;
	}
}

static void check_value(const struct lmc_occ *o, const char *name, const struct argv_where *w,
			struct diag_list *out)
{
	const struct lmc_flag *f = o->flag;
	size_t at = o->eq ? o->at : o->at + 1;
	char *p = NULL;
	char hint[320];

	if (f->type == LMC_SWITCH || f->type == LMC_BOOLOPT) {
		if (o->eq)
			diag_add(out, DIAG_ERROR, "lmcache-flag-value", path_at(&p, w, at), "write the flag alone",
				 "services[%s].args: %s takes no value; got '%s' (argparse exits: ignored explicit argument)",
				 name, f->name, o->value);
		goto out;
	}
	if (!strcmp(f->name, "--eviction-policy")) {
		const struct lmc_choice *c = lmc_eviction_policy(o->value);
		char since[160];
		if (c && !strcmp(c->value, "IsolatedLRU")) {
			diag_add(out, DIAG_WARNING, "lmcache-eviction-isolated", path_at(&p, w, at),
				 "use LRU: IsolatedLRU needs per-cache_salt quotas set over the server's HTTP API",
				 "services[%s].args: --eviction-policy IsolatedLRU (%s) stops L1 eviction: the eviction thread dies on the first cycle over the watermark and L1 stays full, so stores fail (LMCache issue #4817)",
				 name, lmc_since_text(&c->since, since, sizeof(since)));
		} else if (c && c->since.kind == LMC_SINCE_MAIN) {
			snprintf(hint, sizeof(hint),
				 "use LRU (every release), or keep %s only with an image that installs LMCache from main",
				 c->value);
			diag_add(out, DIAG_WARNING, "lmcache-eviction-release", path_at(&p, w, at), hint,
				 "services[%s].args: --eviction-policy %s is in %s: a released server's argparse refuses it and the server exits at start",
				 name, c->value, lmc_since_text(&c->since, since, sizeof(since)));
		} else if (!c) {
			struct strbuf l = STRBUF_INIT;
			for (size_t k = 0; k < lmc_eviction_policies_count; k++)
				strbuf_addf(&l, "%s%s: %s", k ? "; " : "", lmc_eviction_policies[k].value,
					    lmc_since_text(&lmc_eviction_policies[k].since, since,
							   sizeof(since)));
			if (in_list(o->value, old_policies))
				snprintf(hint, sizeof(hint),
					 "use LRU (every release): %s is an old in-process LMCache cache_policy value",
					 o->value);
			else
				vsuggest_hint(hint, sizeof(hint), o->value, f->choices, 4,
					      "use LRU, accepted by every release");
			diag_add(out, DIAG_ERROR, "lmcache-eviction-policy", path_at(&p, w, at), hint,
				 "services[%s].args: lmcache server refuses --eviction-policy '%s' and exits at start (argparse choices: %s)",
				 name, o->value, l.buf);
			strbuf_release(&l);
		}
		goto out;
	}
	if (f->type == LMC_CHOICE && !in_list(o->value, f->choices)) {
		struct strbuf l = STRBUF_INIT;
		for (const char *const *c = f->choices; *c; c++)
			strbuf_addf(&l, "%s%s", c == f->choices ? "" : ", ", *c);
		snprintf(hint, sizeof(hint), "use one of %s", l.buf);
		diag_add(out, DIAG_ERROR, "lmcache-flag-type", path_at(&p, w, at), hint,
			 "services[%s].args: %s must be one of %s; got '%s'", name, f->name, l.buf,
			 o->value);
		strbuf_release(&l);
		goto out;
	}
	if (!strcmp(f->name, "--l2-adapter")) {
		char *why = NULL;
		if (l2_adapter_check(o->value, &why))
			diag_add(out, DIAG_ERROR, "lmcache-l2-adapter", path_at(&p, w, at),
				 "write one JSON object per --l2-adapter, e.g. {\"type\": \"fs\", \"base_path\": \"/raid/lmcache\"}",
				 "services[%s].args: the --l2-adapter value %s: the server refuses it at start",
				 name, why);
		free(why);
		goto out;
	}
	if (!value_ok(f, o->value))
		diag_add(out, DIAG_ERROR, "lmcache-flag-type", path_at(&p, w, at), "give the value its type, or remove the flag",
			 "services[%s].args: %s expects %s; got '%s' (the server exits at start)", name,
			 f->name, type_word(f->type), o->value);
out:
	free(p);
}

static void check_owned(const struct lmc_occ *o, const char *name, const struct argv_where *w,
			struct diag_list *out)
{
	char *p = item_path(w, o->at), hint[256];
	int port = lmc_flag_owned_port(o->flag);

	if (port || !strstr(o->flag->name, "host")) {
		snprintf(hint, sizeof(hint),
			 "remove it: workers dial %d and the readiness probe polls %d, so a different port leaves them pointing at the wrong place",
			 LMCACHE_RPC_PORT, LMCACHE_HTTP_PORT);
		diag_add(out, DIAG_ERROR, "lmcache-server-port", p, hint,
			 "services[%s].args must not set %s: srtctl owns the lmcache-server ports (%d RPC, %d HTTP)",
			 name, o->flag->name, LMCACHE_RPC_PORT, LMCACHE_HTTP_PORT);
	} else {
		diag_add(out, DIAG_ERROR, "lmcache-server-host", p,
			 "remove it: srtctl binds the server to 0.0.0.0 so workers and the readiness probe reach it",
			 "services[%s].args must not set %s: srtctl owns the lmcache-server address (0.0.0.0)",
			 name, o->flag->name);
	}
	free(p);
}

static void check_argv(const json_t *argv, size_t from, int owned_ok, const char *name,
		       const struct argv_where *w, const char *svc_path, struct diag_list *out)
{
	struct lmc_scan s = LMC_SCAN_INIT;
	int manager = 0;
	/* flags given by a unique prefix: argparse takes them, so not missing */
	const struct lmc_flag *abbrev[16];
	size_t nabbrev = 0;

	lmc_scan(&s, argv, from);
	for (size_t i = 0; i < s.n; i++) {
		const struct lmc_occ *o = &s.v[i];
		char *p;
		if (o->not_string)
			continue; /* the schema reports it */
		if (!o->flag) {
			if (o->word[0] == '-') {
				char word[128];
				const char *eq = strchr(o->word, '=');
				snprintf(word, sizeof(word), "%.*s",
					 eq ? (int)(eq - o->word) : (int)strlen(o->word), o->word);
				if (nabbrev < 16 && prefix_of(word))
					abbrev[nabbrev++] = prefix_of(word);
				unknown_flag(o, name, w, out);
			} else {
				p = item_path(w, o->at);
				diag_add(out, DIAG_ERROR, "lmcache-flag-value", p,
					 "put it after the flag it belongs to, or remove it",
					 "services[%s].args: '%s' follows no flag that takes a value: lmcache server exits with 'unrecognized arguments'",
					 name, o->word);
				free(p);
			}
			continue;
		}
		if (o->flag->owned && !owned_ok) {
			check_owned(o, name, w, out);
			continue;
		}
		if (!strcmp(o->flag->name, "--l1-manager"))
			manager = 1;
		if (o->missing) {
			p = item_path(w, o->at);
			diag_add(out, DIAG_ERROR, "lmcache-flag-value", p, "give it a value, or remove it",
				 "services[%s].args: %s expects a value (argparse exits: expected one argument)",
				 name, o->flag->name);
			free(p);
			continue;
		}
		check_value(o, name, w, out);
	}
	if (manager) {
		static const char *const legacy[] = { "--l1-size-gb", "--gds-l1-path", "--l1-devdax-path", NULL };
		for (const char *const *l = legacy; *l; l++) {
			const struct lmc_occ *o = lmc_scan_last(&s, lmc_flag_find(*l, NULL));
			if (!o)
				continue;
			char *p = item_path(w, o->at);
			diag_add(out, DIAG_ERROR, "lmcache-flag-conflict", p,
				 "keep --l1-manager (sizes go in its JSON) or the --l1-* flags, not both",
				 "services[%s].args: %s cannot be combined with --l1-manager: the server exits with 'Use either --l1-manager or legacy L1 flags'",
				 name, *l);
			free(p);
		}
	}
	for (size_t k = 0; k < lmc_flags_count; k++) {
		const struct lmc_flag *f = &lmc_flags[k];
		char hint[256];
		int given = 0;
		for (size_t a = 0; a < nabbrev; a++)
			given |= abbrev[a] == f;
		if (!f->required || given || lmc_scan_last(&s, f) || (f->required_unless && manager))
			continue;
		snprintf(hint, sizeof(hint), "add it to args, e.g. args: [%s, %s]", f->name,
			 f->type == LMC_CHOICE ? "LRU" : "16");
		diag_add(out, DIAG_ERROR, "lmcache-server-required-flag", svc_path, hint,
			 "services[%s] starts `lmcache server` without %s, which it requires: the server refuses to start, and as a critical service it fails the job after the queue wait",
			 name, f->name);
	}
	lmc_scan_release(&s);
}

void lmc_check_argv(const json_t *argv, size_t from, int owned_ok, const char *name,
		    const char *args_path, const char *svc_path, struct diag_list *out)
{
	struct argv_where w = { NULL, 0, args_path };
	check_argv(argv, from, owned_ok, name, &w, svc_path, out);
}

/* ---- a server with its own command ------------------------------------------ */

/* Where `lmcache server` starts in argv: the index of the word after
 * "server" when some item is a program named lmcache (any directory, any
 * wrapper such as numactl or env before it) followed by "server"; 0 when
 * the command runs something else. */
static size_t server_words_end(const json_t *argv)
{
	for (size_t i = 0; i + 1 < json_array_size(argv); i++) {
		const char *w = json_string_value(json_array_get(argv, i));
		const char *next = json_string_value(json_array_get(argv, i + 1));
		const char *base = w ? strrchr(w, '/') : NULL;
		base = base ? base + 1 : w;
		if (base && next && !strcmp(base, svc_kinds[KIND_LMCACHE_SERVER].command[0]) &&
		    !strcmp(next, svc_kinds[KIND_LMCACHE_SERVER].command[1]))
			return i + 2;
	}
	return 0;
}

/* srtctl runs command + args and adds none of its own flags: an
 * `lmcache server` command is checked as the default one is, and must
 * give the ports srtctl's workers dial and its readiness probe polls
 * (the server's own defaults are others).  Any other program is not
 * judged: its flags are not the server's (docs/decisions.md). */
static void check_own_command(const struct service *s, const char *path, json_t *cmd,
			      json_t *args, struct diag_list *out)
{
	json_t *argv = json_copy(cmd);
	struct argv_where w;
	char *cp = xasprintf("%s.command", path), *ap = xasprintf("%s.args", path);
	size_t from;

	if (args)
		json_array_extend(argv, args);
	w.cmd_path = cp;
	w.ncmd = json_array_size(cmd);
	w.args_path = ap;
	from = server_words_end(argv);
	if (from) {
		static const char *const port_flags[] = { "--port", "--http-port", NULL };
		struct lmc_scan sc = LMC_SCAN_INIT;
		check_argv(argv, from, 1, s->name, &w, path, out);
		lmc_scan(&sc, argv, from);
		for (const char *const *pf = port_flags; *pf; pf++) {
			const struct lmc_flag *f = lmc_flag_find(*pf, NULL);
			const struct lmc_occ *o = lmc_scan_last(&sc, f);
			int want = lmc_flag_owned_port(f);
			char hint[160], *p;
			if (o && o->value && atoi(o->value) == want)
				continue;
			snprintf(hint, sizeof(hint), "add %s %d to the command", f->name, want);
			p = o ? item_path(&w, o->eq ? o->at : o->at + 1) : xstrdup(cp);
			diag_add(out, DIAG_ERROR, "lmcache-server-port", p, hint,
				 "services[%s].command runs `lmcache server` with %s %s%s, but srtctl's %s %d: with its own command srtctl adds none of its flags",
				 s->name, f->name, o && o->value ? o->value : f->dflt,
				 o && o->value ? "" : " (LMCache's default)",
				 want == LMCACHE_RPC_PORT ? "workers dial" : "readiness probe polls", want);
			free(p);
		}
		lmc_scan_release(&sc);
	}
	json_decref(argv);
	free(cp);
	free(ap);
}

/* ---- over the recipe -------------------------------------------------------- */

/* Where the recipe asks for the implied server: the connector that names
 * lmcache-mp (a role's own, else the engine's). */
static const char *implied_source(const struct recipe *r)
{
	static const char *const role_paths[ROLE_COUNT] = { "roles.prefill.args.connector",
							    "roles.decode.args.connector",
							    "roles.agg.args.connector" };
	for (int i = 0; i < ROLE_COUNT; i++)
		if (r->role[i].present && r->role[i].args &&
		    jget_str(r->role[i].args, "connector"))
			return role_paths[i];
	return "engine.connector";
}

static void check_implied(const struct recipe *r, const struct service *s, struct diag_list *out)
{
	char hint[320];

	snprintf(hint, sizeof(hint),
		 "declare the service: services: [{name: %s, type: %s, args: [--l1-size-gb, N, --eviction-policy, LRU]}]",
		 s->name, s->type);
	diag_add(out, DIAG_WARNING, "lmcache-server-implied-args", implied_source(r), hint,
		 "the implied services[%s] (%s) runs `lmcache server` without --l1-size-gb and --eviction-policy: srtctl's implied server passes no args, the server refuses to start, and as a critical service it fails the job after the queue wait",
		 s->name, s->implied_by ? s->implied_by : "implied");
}

static void check_placement(const struct service *s, const char *path, struct diag_list *out)
{
	json_t *pl = jget_obj(s->cfg, "placement");
	char *p, hint[200];

	if (!pl || jget_str(pl, "node") || jget_str(pl, "pool") || json_object_get(pl, "node"))
		return;
	p = xasprintf("%s.placement", path);
	snprintf(hint, sizeof(hint), "write the node: placement: {node: %s%s}",
		 s->kind && s->kind->placement ? s->kind->placement : "workers",
		 jget_str(pl, "per") ? ", per: node" : "");
	diag_add(out, DIAG_WARNING, "lmcache-server-head-only", p, hint,
		 "services[%s] runs on the head node only: a placement mapping without node means head in srtctl, not the kind's workers, so workers on other nodes have no server",
		 s->name);
	free(p);
}

void validate_lmcache(const struct recipe *r, struct diag_list *out)
{
	for (size_t i = 0; i < r->nsvc; i++) {
		const struct service *s = &r->svc[i];
		if (!svc_kind_is(s->type, KIND_LMCACHE_SERVER) || !vsvc_launches(s))
			continue;
		if (!s->cfg) {
			check_implied(r, s, out);
			continue;
		}
		char *path = vsvc_path(r, s);
		check_placement(s, path, out);
		json_t *cmd = json_object_get(s->cfg, "command");
		json_t *args = json_object_get(s->cfg, "args");
		if (json_is_array(cmd) && (!args || json_is_array(args))) {
			check_own_command(s, path, cmd, args, out);
		} else if ((!cmd || json_is_null(cmd)) && (!args || json_is_array(args))) {
			char *ap = xasprintf("%s.args", path);
			json_t *none = args ? NULL : json_array();
			lmc_check_argv(args ? args : none, 0, 0, s->name, ap, path, out);
			json_decref(none);
			free(ap);
		}
		free(path);
	}
}
