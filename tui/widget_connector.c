/* The Connectors step: per role, the vLLM connector (follow the engine, a
 * preset from the explained list, a MultiConnector, or raw JSON), SGLang's
 * enable-lmcache, or ATOM's extra-kv-connectors entries. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/doc.h"
#include "model/facts.h"
#include "model/kinds.h"
#include "render/connector.h"
#include "tui/widget_connector.h"
#include "tui/widget_services.h"
#include "tui/wizard.h"
#include "tui/wizard_screens.h"

#define ROLE_OF(ff) (role_names[(uintptr_t)(ff)->data & 0xff])
#define INDEX_OF(ff) ((size_t)((uintptr_t)(ff)->data >> 8))
#define DATA(role, index) ((void *)(uintptr_t)((role) | ((uintptr_t)(index) << 8)))

static char *role_connector_path(const char *role)
{
	return xasprintf("roles.%s.args.connector", role);
}

/* Members offered by the builder: NIXL with one LMCache flavour. */
static const char *const multi_sets[][2] = {
	{ "nixl", "lmcache-mp" }, { "nixl", "lmcache" }, { "nixl", "kvbm" },
};
#define NSETS (sizeof(multi_sets) / sizeof(multi_sets[0]))

static int edit_raw(struct app *a, const char *role, const char *initial)
{
	char *text = xstrdup(initial ? initial : "{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}");

	for (;;) {
		char *err = NULL, *p = app_prompt(a, "Raw kv-transfer-config JSON (passed verbatim)", text);
		free(text);
		if (!p)
			return 0;
		if (conn_raw_valid(p, &err)) {
			int r = conn_set_role(app_doc(a), role, p, &err);
			free(p);
			wiz_report(a, r, err);
			return 0;
		}
		app_error(a, "%s", err);
		free(err);
		text = p; /* edit it again */
	}
}

static int pick_role_connector(struct app *a, struct form_field *ff)
{
	const char *role = ROLE_OF(ff);
	char *path = role_connector_path(role);
	const char *cur = wiz_get_str(app_doc(a), path);
	const char *items[24], *help[24];
	char *labels[NSETS];
	size_t n = 0, first_multi, raw;
	int sel = 0;
	char *err = NULL, *curdup = cur ? xstrdup(cur) : NULL;

	free(path);
	items[n] = "follow the engine";
	help[n++] = "No override: the role uses engine.connector (nixl when unset).";
	for (const struct connector_preset_info *p; (p = conn_preset_at(n - 1)); n++) {
		items[n] = p->name;
		help[n] = p->explain;
		if (curdup && !strcasecmp(curdup, items[n]))
			sel = (int)n;
	}
	first_multi = n;
	for (size_t i = 0; i < NSETS; i++, n++) {
		labels[i] = xasprintf("MultiConnector: %s + %s", multi_sets[i][0], multi_sets[i][1]);
		items[n] = labels[i];
		help[n] = i == 0 ? "NIXL for the prefill -> decode transfer plus LMCache MP on the node "
				   "(raw JSON, compact). Implies no server: add an lmcache-server placed "
				   "on this role's nodes."
				 : "NIXL plus another connector, as one raw MultiConnector JSON.";
	}
	raw = n;
	items[n] = "raw JSON...";
	help[n++] = "Type the --kv-transfer-config JSON yourself; it is passed through verbatim.";
	if (curdup && conn_classify(curdup) == CONN_MULTI) {
		struct conn_multi m = CONN_MULTI_INIT;
		conn_multi_parse(&m, curdup);
		for (size_t i = 0; i < NSETS; i++)
			if (m.n == 2 && !strcmp(m.member[0], multi_sets[i][0]) &&
			    !strcmp(m.member[1], multi_sets[i][1]))
				sel = (int)(first_multi + i);
		conn_multi_release(&m);
	} else if (curdup && conn_classify(curdup) == CONN_RAW) {
		sel = (int)raw;
	}
	{
		char *title = xasprintf("Connector of %s", role);
		sel = app_choose(a, title, items, help, n, sel);
		free(title);
	}
	if (sel == 0) {
		wiz_report(a, conn_set_role(app_doc(a), role, NULL, &err), err);
	} else if (sel > 0 && (size_t)sel < first_multi) {
		wiz_report(a, conn_set_role(app_doc(a), role, items[sel], &err), err);
	} else if (sel > 0 && (size_t)sel < raw) {
		struct conn_multi m = CONN_MULTI_INIT;
		char *json;
		/* Keep a host/port the user already set on the builder. */
		if (curdup)
			conn_multi_parse(&m, curdup);
		m.member[0] = multi_sets[sel - first_multi][0];
		m.member[1] = multi_sets[sel - first_multi][1];
		m.n = 2;
		json = conn_multi_json(&m);
		wiz_report(a, conn_set_role(app_doc(a), role, json, &err), err);
		free(json);
		conn_multi_release(&m);
	} else if ((size_t)sel == raw) {
		edit_raw(a, role, curdup);
	}
	for (size_t i = 0; i < NSETS; i++)
		free(labels[i]);
	free(curdup);
	return 0;
}

static int edit_raw_button(struct app *a, struct form_field *ff)
{
	char *path = role_connector_path(ROLE_OF(ff));
	const char *cur = wiz_get_str(app_doc(a), path);
	char *dup = cur ? xstrdup(cur) : NULL;

	free(path);
	edit_raw(a, ROLE_OF(ff), dup);
	free(dup);
	return 0;
}

/* MultiConnector builder: the LMCache MP host or port of the member. */
static int edit_multi_mp(struct app *a, struct form_field *ff, int port)
{
	const char *role = ROLE_OF(ff);
	char *path = role_connector_path(role), *v, *json, *err = NULL, *init;
	struct conn_multi m = CONN_MULTI_INIT;
	const char *cur = wiz_get_str(app_doc(a), path);

	free(path);
	if (!cur || conn_multi_parse(&m, cur))
		return 0;
	init = port ? xasprintf("%d", m.mp_port ? m.mp_port : LMCACHE_RPC_PORT)
		    : xstrdup(m.mp_host ? m.mp_host : "tcp://localhost");
	v = app_prompt(a, port ? "LMCache MP port" : "LMCache MP host", init);
	free(init);
	if (v) {
		if (port) {
			char *end;
			long p = strtol(v, &end, 10);
			if (*end || p < 1 || p > 65535) {
				app_error(a, "'%s' is not a port (1-65535)", v);
				goto out;
			}
			m.mp_port = p == LMCACHE_RPC_PORT ? 0 : (int)p;
		} else {
			free(m.mp_host);
			m.mp_host = *v && strcmp(v, "tcp://localhost") ? xstrdup(v) : NULL;
		}
		json = conn_multi_json(&m);
		wiz_report(a, conn_set_role(app_doc(a), role, json, &err), err);
		free(json);
	}
out:
	free(v);
	conn_multi_release(&m);
	return 0;
}

static int edit_mp_host(struct app *a, struct form_field *ff)
{
	return edit_multi_mp(a, ff, 0);
}

static int edit_mp_port(struct app *a, struct form_field *ff)
{
	return edit_multi_mp(a, ff, 1);
}

/* Does an lmcache-server run on this role's nodes (facts.h: the rule
 * validation uses)? */
static int server_covers(const struct recipe *r, const char *role)
{
	for (int i = 0; i < ROLE_COUNT; i++)
		if (!strcmp(role, role_names[i]))
			return facts_lmcache_server_on_role(r, (enum role_id)i);
	return 0;
}

static int add_server_for_role(struct app *a, struct form_field *ff)
{
	char *err = NULL;
	int r = svc_add_placed(app_doc(a), KIND_NAME(KIND_LMCACHE_SERVER), ROLE_OF(ff), &err);
	wiz_report(a, r, err);
	if (!r)
		app_message(a, "added an lmcache-server on %s nodes (Services step)", ROLE_OF(ff));
	return 0;
}

static void vllm_role(struct app *a, struct form *f, int i)
{
	const struct app_state *st = app_state(a);
	const char *role = role_names[i];
	char *path = role_connector_path(role), *sum, *s, *kv, *err = NULL;
	const char *cur = wiz_get_str(app_doc(a), path);
	const char *eff = st->recipe.role[i].connector;
	enum conn_form form = conn_classify(cur);
	struct worker_ctx ctx;

	/* Preview values, as the Workers tab shows them. */
	memset(&ctx, 0, sizeof(ctx));
	ctx.node_ip = "<node_ip>";
	ctx.head_ip = "<head_ip>";
	ctx.http_port = 6100;
	ctx.nixl_port = 5400;

	free(path);
	sum = conn_summary(cur ? cur : eff);
	s = cur ? xasprintf("Connector: %s", sum)
		: xasprintf("Connector: follows the engine (%s)", sum);
	{
		struct form_field *ff = form_add_button(f, s, pick_role_connector, DATA(i, 0));
		ff->help = xstrdup("Enter: choose a preset (each explained), a MultiConnector, or raw JSON.");
		/* the connector's problems (no lmcache-server for LMCache MP, a
		 * raw JSON srtctl refuses) show here: the role's own, else the
		 * engine's it follows */
		ff->diag_path = cur ? role_connector_path(role) : xstrdup("engine.connector");
	}
	free(s);
	free(sum);
	if (cur && form == CONN_MULTI) {
		struct conn_multi m = CONN_MULTI_INIT;
		int has_mp = 0;
		conn_multi_parse(&m, cur);
		for (size_t k = 0; k < m.n; k++)
			has_mp |= !strcmp(m.member[k], "lmcache-mp");
		if (has_mp) {
			s = xasprintf("  LMCache MP host: %s", m.mp_host ? m.mp_host : "tcp://localhost");
			form_add_button(f, s, edit_mp_host, DATA(i, 0));
			free(s);
			s = xasprintf("  LMCache MP port: %d", m.mp_port ? m.mp_port : LMCACHE_RPC_PORT);
			form_add_button(f, s, edit_mp_port, DATA(i, 0));
			free(s);
		}
		conn_multi_release(&m);
	} else if (cur && form == CONN_RAW) {
		form_add_button(f, "  Edit the raw JSON...", edit_raw_button, DATA(i, 0));
	}
	kv = st->root ? connector_kv_config(&st->recipe, (enum role_id)i, &ctx, &err) : NULL;
	s = xasprintf("  --kv-transfer-config %s", kv ? kv : err ? err : "(none for this worker)");
	{
		/* a second --kv-transfer-config in the role's args is said here */
		struct form_field *ff = form_add_text(f, s);
		ff->diag_path = xasprintf("roles.%s.args.kv-transfer-config", role);
	}
	free(s);
	free(kv);
	free(err);
	/* LMCache MP without a server on these nodes: offer to add one. */
	{
		const char *c = cur ? cur : eff;
		int uses_mp = facts_connector_uses_local_mp(c);
		int implied = c && !strcasecmp(c, "lmcache-mp");
		if (uses_mp && !implied && !server_covers(&st->recipe, role)) {
			/* the problem itself is the validator's, at the connector */
			s = xasprintf("  Add an lmcache-server on %s nodes", role);
			form_add_button(f, s, add_server_for_role, DATA(i, 0));
			free(s);
		}
	}
}

static int toggle_sglang(struct app *a, struct form_field *ff)
{
	const struct app_state *st = app_state(a);
	int on = jget_bool(st->recipe.role[(uintptr_t)ff->data & 0xff].args, "enable-lmcache", 0);
	char *err = NULL;

	wiz_report(a, conn_set_sglang_lmcache(app_doc(a), ROLE_OF(ff), !on, &err), err);
	return 0;
}

static void sglang_role(struct app *a, struct form *f, int i)
{
	const struct app_state *st = app_state(a);
	int on = jget_bool(st->recipe.role[i].args, "enable-lmcache", 0);
	json_t *env = connector_extra_env(&st->recipe, (enum role_id)i);
	struct strbuf sb = STRBUF_INIT;
	const char *k;
	json_t *v;
	char *s = xasprintf("LMCache (enable-lmcache): %s", on ? "on" : "off");

	struct form_field *ff = form_add_button(f, s, toggle_sglang, DATA(i, 0));
	ff->diag_path = xasprintf("roles.%s.args.enable-lmcache", role_names[i]);
	ff->help = xstrdup("On: the worker gets --enable-lmcache and LMCACHE_MP_HOST=127.0.0.1, "
			"LMCACHE_MP_PORT=" LMCACHE_RPC_PORT_S " (unless the role env sets LMCACHE_MP_HOST or args set "
			"lmcache-config-file). Declare an lmcache-server in the Services step.");
	free(s);
	json_object_foreach(env, k, v)
		strbuf_addf(&sb, "%s%s=%s", sb.len ? " " : "  env: ", k,
			    json_is_string(v) ? json_string_value(v) : "?");
	if (sb.len)
		form_add_text(f, sb.buf);
	strbuf_release(&sb);
	json_decref(env);
}

static int atom_add(struct app *a, struct form_field *ff)
{
	char *err = NULL;
	enum atom_kv_kind kind = INDEX_OF(ff) ? ATOM_KV_MP : ATOM_KV_OFFLOAD;

	wiz_report(a, atom_kv_add(app_doc(a), ROLE_OF(ff), kind, &err), err);
	return 0;
}

static int atom_del(struct app *a, struct form_field *ff)
{
	char *err = NULL;

	wiz_report(a, atom_kv_delete(app_doc(a), ROLE_OF(ff), INDEX_OF(ff), &err), err);
	return 0;
}

static void atom_role(struct app *a, struct form *f, int i)
{
	const struct app_state *st = app_state(a);
	json_t *list = jget_arr(st->recipe.role[i].args, "extra-kv-connectors");
	size_t k;
	json_t *e;

	if (i != ROLE_AGG)
		form_add_text(f, "  The Mooncake P/D entry is generated by srtctl and comes first.");
	json_array_foreach(list, k, e) {
		enum atom_kv_kind kind = atom_kv_kind_of(e);
		const struct atom_kv_key *keys = kind == ATOM_KV_OFFLOAD ? atom_kv_offload_keys
						 : kind == ATOM_KV_MP ? atom_kv_mp_keys : NULL;
		char *sum = atom_kv_summary(e), *s = xasprintf("Entry %zu: %s", k + 1, sum);
		struct form_field *ef = form_add_text(f, s);
		/* the entry's own problems; its keys below show theirs */
		ef->diag_path = xasprintf("roles.%s.args.extra-kv-connectors[%zu]", role_names[i], k);
		ef->flags |= FFL_DIAG_EXACT;
		free(s);
		free(sum);
		for (; keys && keys->key; keys++) {
			struct strbuf p = STRBUF_INIT;
			static const char xc[] = "kv_connector_extra_config.";
			struct form_field *ff;
			strbuf_addf(&p, "roles.%s.args.extra-kv-connectors[%zu]", role_names[i], k);
			if (!strncmp(keys->key, xc, sizeof(xc) - 1)) {
				wiz_path_key(&p, "kv_connector_extra_config");
				wiz_path_key(&p, keys->key + sizeof(xc) - 1);
			} else {
				wiz_path_key(&p, keys->key);
			}
			ff = form_add_value(f, p.buf, !strncmp(keys->key, xc, sizeof(xc) - 1)
						      ? keys->key + sizeof(xc) - 1 : keys->key);
			ff->help = xstrdup(keys->help);
			ff->absent = keys->absent;
			ff->depth = 1;
			if (!strcmp(keys->type, "string"))
				ff->flags |= FFL_STRING;
			else
				ff->flags |= FFL_YAML;
			strbuf_release(&p);
		}
		s = xasprintf("  Remove entry %zu", k + 1);
		form_add_button(f, s, atom_del, DATA(i, k));
		free(s);
	}
	form_add_button(f, "+ Add an lmcache_offload entry (CPU offload in the worker)", atom_add,
			DATA(i, 0));
	form_add_button(f, "+ Add an lmcache_mp entry (the node's lmcache-server)", atom_add,
			DATA(i, 1));
}

static void connectors_build(struct app *a, struct form *f)
{
	const struct app_state *st = app_state(a);
	const char *eng = wiz_engine_type(a);

	form_add_heading(f, "Connectors");
	if (!st->root || !eng) {
		form_add_text(f, "Choose the engine first (Engine step).");
		return;
	}
	if (strcmp(eng, "vllm") && strcmp(eng, "sglang") && strcmp(eng, "atom")) {
		form_add_text(f, "This engine has no KV connector settings here; see the Fields tree.");
		wiz_add_next(f);
		return;
	}
	for (int i = 0; i < ROLE_COUNT; i++) {
		if (!st->recipe.role[i].present)
			continue;
		form_add_heading(f, role_names[i]);
		if (!strcmp(eng, "vllm"))
			vllm_role(a, f, i);
		else if (!strcmp(eng, "sglang"))
			sglang_role(a, f, i);
		else
			atom_role(a, f, i);
	}
	wiz_add_next(f);
}

const struct app_screen wiz_connectors_screen = { "Connectors", connectors_build, NULL, 0 };
