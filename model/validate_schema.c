/*
 * validate_schema.c — the shape of a recipe tree against model/schema:
 * unknown keys (with a "did you mean"), types, allowed values, required
 * fields, `schema: 2`, and the top level of override files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "model/schema.h"
#include "model/srtctl_schema.h"
#include "model/validate.h"
#include "model/validate_int.h"

struct sctx {
	struct diag_list *out;
	struct strbuf path; /* current path in path syntax */
	json_t *sweep;      /* top-level sweep mapping: its {placeholders} pass any type */
};

/* ---- paths --------------------------------------------------------------- */


/* An example value for each required key, for the "add ..." hint: required
 * keys have no default, and a value shows the shape faster than the help
 * text does.  Keyed by schema pattern (test_validate checks every required
 * field has one). */
static const struct {
	const char *pattern, *example;
} required_examples[] = {
	{ "model", "{path: /models/my-model, container: my-image.sqsh, precision: bf16}" },
	{ "model.container", "my-image.sqsh" },
	{ "model.path", "/models/my-model" },
	{ "model.precision", "bf16" },
	{ "name", "my-job" },
	{ "reporting.s3.bucket", "my-bucket" },
	{ "resources", "{gpu_type: h100, gpus_per_node: 8}" },
	{ "services[].metrics.port", "9400" },
	{ "services[].readiness.file.path", "mooncake/donor-{node}.ready" },
	{ "services[].readiness.http.port", "8080" },
	{ "services[].readiness.log.pattern", "'ready'" },
	{ "services[].readiness.tcp.port", "8080" },
	{ "services[].source.git", "https://github.com/org/repo.git" },
	{ "services[].source.rev", "main" },
	{ "telemetry.dcgm_exporter.container_image",
	  "nvcr.io#nvidia/k8s/dcgm-exporter:3.3.9-3.6.1-ubuntu22.04" },
	{ "telemetry.dcgm_exporter.gpu_labels.identity", "UUID" },
	{ "telemetry.dcgm_exporter.gpu_labels.index", "gpu" },
	{ "telemetry.dcgm_exporter.gpu_metrics.gpu_util.metric", "DCGM_FI_DEV_GPU_UTIL" },
	{ "telemetry.dcgm_exporter.gpu_metrics.power", "{metric: DCGM_FI_DEV_POWER_USAGE, scope: gpu}" },
	{ "telemetry.dcgm_exporter.gpu_metrics.power.metric", "DCGM_FI_DEV_POWER_USAGE" },
	{ "telemetry.dcgm_exporter.gpu_metrics.power.scope", "gpu" },
	{ "telemetry.dcgm_exporter.port", "9401" },
};

const char *vschema_example(const struct schema_field *f)
{
	for (size_t i = 0; i < sizeof(required_examples) / sizeof(required_examples[0]); i++)
		if (!strcmp(required_examples[i].pattern, f->path))
			return required_examples[i].example;
	if (f->dflt)
		return f->dflt;
	return f->allowed ? f->allowed[0] : NULL;
}

static int plain_name(const char *s)
{
	if (strspn(s, " \t") == strlen(s))
		return 0;
	for (; *s; s++)
		if (*s == '[' || *s == ']' || *s == '"' || *s == '\'')
			return 0;
	return 1;
}

/* "[i]" on a path: once per list item of every recipe, so without printf. */
static void push_index(struct strbuf *sb, size_t i)
{
	char d[24];
	size_t n = sizeof(d);
	d[--n] = ']';
	do
		d[--n] = (char)('0' + i % 10);
	while ((i /= 10) && n > 1);
	d[--n] = '[';
	strbuf_add(sb, d + n, sizeof(d) - n);
}

void vnames_init(struct vnames *v, json_t *list)
{
	size_t n = json_array_size(list), size = 16;
	while (size < 2 * n)
		size *= 2;
	/* name -> its first item and count, by hash: one pass over a list of
	 * any length, without a JSON table */
	struct slot {
		const char *name;
		size_t first, count;
	} few[16], *slot = size <= 16 ? few : xmalloc(size * sizeof(*slot));
	memset(slot, 0, size * sizeof(*slot));
	/* one block for the three per-item arrays, the names first (vnames_release) */
	size_t m = n ? n : 1;
	const char **name = xcalloc(1, m * (sizeof(*name) + sizeof(*v->first) + 1));
	v->n = n;
	v->name = name;
	v->first = (size_t *)(name + m);
	v->unique = (unsigned char *)(v->first + m);
	for (size_t i = 0; i < n; i++) {
		v->first[i] = i;
		if (!(name[i] = jget_str(json_array_get(list, i), "name")))
			continue;
		size_t h = str_hash(name[i], 0) & (size - 1);
		while (slot[h].name && strcmp(slot[h].name, name[i]))
			h = (h + 1) & (size - 1);
		if (!slot[h].name) {
			slot[h].name = name[i];
			slot[h].first = i;
		}
		slot[h].count++;
		v->first[i] = slot[h].first;
	}
	for (size_t i = 0; i < n; i++) {
		if (!name[i] || !plain_name(name[i]))
			continue;
		size_t h = str_hash(name[i], 0) & (size - 1);
		while (strcmp(slot[h].name, name[i]))
			h = (h + 1) & (size - 1);
		v->unique[i] = slot[h].count == 1;
	}
	if (slot != few)
		free(slot);
}

void vnames_release(struct vnames *v)
{
	free(v->name); /* and first and unique, in its block */
	v->name = NULL;
	v->unique = NULL;
	v->first = NULL;
	v->n = 0;
}

void vpath_item_named(struct strbuf *sb, const char *prefix, const struct vnames *v, size_t i)
{
	strbuf_addstr(sb, prefix);
	if (i < v->n && v->unique[i]) {
		strbuf_addch(sb, '[');
		strbuf_addstr(sb, v->name[i]);
		strbuf_addch(sb, ']');
	} else {
		push_index(sb, i);
	}
}

void vpath_item(struct strbuf *sb, const char *prefix, json_t *list, size_t i)
{
	/* vpath_item_counted's rule for one item: its name unique in the list,
	 * counted here without a table of every name */
	const char *name = jget_str(json_array_get(list, i), "name");
	size_t same = 0, k;
	json_t *o;
	if (name && plain_name(name))
		json_array_foreach(list, k, o) {
			const char *n = jget_str(o, "name");
			if (n && !strcmp(n, name) && ++same > 1)
				break;
		}
	strbuf_addstr(sb, prefix);
	if (same == 1) {
		strbuf_addch(sb, '[');
		strbuf_addstr(sb, name);
		strbuf_addch(sb, ']');
	} else {
		push_index(sb, i);
	}
}

const char *vsvc_name(json_t *svc)
{
	const char *n = jget_str(svc, "name");
	return n ? n : "";
}

const char *vsuggest_hint(char *buf, size_t size, const char *value, const char *const *cands,
			  size_t n, const char *fallback)
{
	return vsuggest_hint_of(buf, size, schema_suggest(value, cands, n), fallback);
}

const char *vsuggest_hint_of(char *buf, size_t size, const char *suggestion, const char *fallback)
{
	if (suggestion)
		snprintf(buf, size, "did you mean '%s'?", suggestion);
	else if (size) {
		/* the fallback as is (cut to size): often, and without printf */
		size_t n = strlen(fallback);
		if (n >= size)
			n = size - 1;
		memcpy(buf, fallback, n);
		buf[n] = 0;
	}
	return buf;
}

/* A key that path syntax writes as is (n bytes, NUL after them): a key of
 * the field table's own (schema_childn's own), or one push_key found plain. */
static inline void push_plain_key(struct strbuf *sb, const char *key, size_t n)
{
	if (sb->len + n + 2 > sb->alloc) /* the room is most often there already */
		strbuf_grow(sb, n + 1);
	if (sb->len)
		sb->buf[sb->len++] = '.';
	memcpy(sb->buf + sb->len, key, n + 1);
	sb->len += n;
}

static void push_key(struct strbuf *sb, const char *key)
{
	/* an empty key, or one with a character of the path syntax, is quoted;
	 * found with the key's length in one scan, once per key of every recipe */
	size_t n = strcspn(key, ".[]\"'");
	if (!n || key[n]) {
		if (sb->len)
			strbuf_addch(sb, '.');
		strbuf_addf(sb, strchr(key, '"') ? "'%s'" : "\"%s\"", key);
		return;
	}
	push_plain_key(sb, key, n);
}

static const char *here(const struct sctx *c)
{
	return c->path.len ? c->path.buf : "the top level";
}

/* ---- values ---------------------------------------------------------------- */

static unsigned type_bit(json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING: return SCHEMA_STR;
	case JSON_INTEGER: return SCHEMA_INT;
	case JSON_REAL: return SCHEMA_NUM;
	case JSON_TRUE:
	case JSON_FALSE: return SCHEMA_BOOL;
	case JSON_NULL: return SCHEMA_NULL;
	case JSON_OBJECT: return SCHEMA_MAP;
	case JSON_ARRAY: return SCHEMA_LIST;
	}
	return 0;
}

static int type_ok(const struct schema_field *f, json_t *v)
{
	unsigned b = type_bit(v);
	return (f->types & b) || (b == SCHEMA_INT && (f->types & SCHEMA_NUM));
}

static void describe(struct strbuf *sb, json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING: {
		const char *s = json_string_value(v);
		if (strlen(s) > 40)
			strbuf_addf(sb, "the string '%.37s...'", s);
		else
			strbuf_addf(sb, "the string '%s'", s);
		break;
	}
	case JSON_REAL: strbuf_addf(sb, "%g", json_real_value(v)); break;
	case JSON_INTEGER:
	case JSON_TRUE:
	case JSON_FALSE:
	case JSON_NULL: json_atom_out(sb, v); break;
	case JSON_OBJECT: strbuf_addstr(sb, "a mapping"); break;
	case JSON_ARRAY: strbuf_addstr(sb, "a list"); break;
	}
}

/* A whole-value "{param}" of a sweep stands for any type. */
static int sweep_placeholder(const struct sctx *c, json_t *v)
{
	if (!c->sweep || !json_is_string(v))
		return 0;
	const char *s = json_string_value(v);
	size_t n = strlen(s);
	if (n < 3 || s[0] != '{' || s[n - 1] != '}')
		return 0;
	char key[128];
	if (n - 2 >= sizeof(key))
		return 0;
	memcpy(key, s + 1, n - 2);
	key[n - 2] = 0;
	return json_object_get(c->sweep, key) != NULL;
}

static void allowed_list(struct strbuf *sb, const char *const *a)
{
	for (size_t i = 0; a[i]; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", a[i]);
}

static void wrong_type(struct sctx *c, const struct schema_field *f, json_t *v)
{
	char tt[160];
	struct strbuf got = STRBUF_INIT, hint = STRBUF_INIT;
	describe(&got, v);
	if ((f->types & SCHEMA_STR) && (json_is_number(v) || json_is_boolean(v)))
		strbuf_addstr(&hint, "write it in quotes so YAML reads a string, e.g. \"1\" or \"true\"");
	else
		strbuf_addf(&hint, "%s: %s", schema_field_key(f), f->help);
	diag_add(c->out, DIAG_ERROR, "wrong-type", c->path.buf ? c->path.buf : "", sb_str(&hint),
		 "%s must be %s; got %s", here(c), schema_type_text(f, tt, sizeof(tt)), sb_str(&got));
	strbuf_release(&got);
	strbuf_release(&hint);
}

static void bad_value(struct sctx *c, const struct schema_field *f, const char *val)
{
	struct strbuf list = STRBUF_INIT, hint = STRBUF_INIT;
	size_t n = 0;
	while (f->allowed[n])
		n++;
	const char *s = schema_suggest(val, f->allowed, n);
	allowed_list(&list, f->allowed);
	if (s)
		strbuf_addf(&hint, "did you mean '%s'?", s);
	else
		strbuf_addf(&hint, "%s: %s", schema_field_key(f), f->help);
	diag_add(c->out, (f->flags & SF_WARN) ? DIAG_WARNING : DIAG_ERROR,
		 (f->flags & SF_WARN) ? "unknown-value" : "bad-value", c->path.buf, sb_str(&hint),
		 "%s must be one of %s; got '%s'", here(c), sb_str(&list), val);
	strbuf_release(&list);
	strbuf_release(&hint);
}

/* The engine type a mapping is read as: its `type`, else the first engine
 * (in srtctl's loader order) whose options cover every key. */
static const char *engine_variant(json_t *m)
{
	const char *t = jget_str(m, "type");
	const struct schema_field *eng = schema_lookup("engine", NULL);
	if (t) {
		for (size_t i = 0; schema_engine_types[i]; i++)
			if (!strcmp(t, schema_engine_types[i]))
				return schema_engine_types[i];
		return NULL;
	}
	const char *best = NULL;
	size_t best_n = 0;
	for (size_t i = 0; schema_engine_types[i]; i++) {
		size_t ok = 0, all = 0;
		const char *k;
		json_t *v;
		json_object_foreach(m, k, v) {
			all++;
			ok += schema_child(eng, k, schema_engine_types[i]) != NULL;
		}
		if (ok == all)
			return schema_engine_types[i];
		if (ok > best_n) {
			best = schema_engine_types[i];
			best_n = ok;
		}
	}
	return best ? best : "vllm";
}

static int is_engine_field(const struct schema_field *f)
{
	return !strcmp(f->ref ? f->ref : f->path, "engine");
}

/* pre-2.0 keys: say where they went (spec §1.10). */
static const char *v1_hint(const char *parent, const char *key)
{
	if (!*parent) {
		if (!strcmp(key, "backend"))
			return "this is a pre-2.0 key: schema 2 spells it engine (and role args under roles); run 'srtctl migrate'";
		if (!strcmp(key, "infra"))
			return "this is a pre-2.0 key: schema 2 declares etcd and nats under services; run 'srtctl migrate'";
	}
	if (!strcmp(parent, "resources") && strstr(key, "_nodes"))
		return "this is a pre-2.0 key: schema 2 writes roles.<role>.nodes; run 'srtctl migrate'";
	if (!strcmp(parent, "resources") && strstr(key, "_workers"))
		return "this is a pre-2.0 key: schema 2 writes roles.<role>.workers; run 'srtctl migrate'";
	return NULL;
}

static void unknown_key(struct sctx *c, const struct schema_field *parent, const char *key,
			const char *variant)
{
	struct strbuf hint = STRBUF_INIT;
	char *parent_path = xstrdup(c->path.buf ? c->path.buf : "");
	const char *s = schema_suggest_key(parent, key, variant);
	const char *v1 = v1_hint(!strncmp(parent_path, "base.", 5) ? parent_path + 5
				 : !strcmp(parent_path, "base") ? "" : parent_path, key);
	if (v1)
		strbuf_addstr(&hint, v1);
	else if (s)
		strbuf_addf(&hint, "did you mean '%s'?", s);
	else if (variant && schema_child(parent, key, NULL))
		strbuf_addf(&hint, "'%s' is an option of another engine type, not of %s", key, variant);
	else {
		size_t n = 0;
		strbuf_addstr(&hint, "known fields here: ");
		for (const struct schema_field *f = schema_children(parent, NULL); f;
		     f = schema_children(parent, f)) {
			if (variant && f->variant && strcmp(f->variant, variant))
				continue;
			const char *k = schema_field_key(f);
			if (!strcmp(k, "*") || strstr(k, "[]"))
				continue;
			if (n == 12) {
				strbuf_addstr(&hint, ", ...");
				break;
			}
			strbuf_addf(&hint, "%s%s", n++ ? ", " : "", k);
		}
	}
	size_t mark = c->path.len;
	push_key(&c->path, key);
	if (variant)
		diag_add(c->out, DIAG_ERROR, "unknown-field", c->path.buf, sb_str(&hint),
			 "unknown field '%s' in %s (engine type '%s')", key,
			 *parent_path ? parent_path : "the top level", variant);
	else
		diag_add(c->out, DIAG_ERROR, "unknown-field", c->path.buf, sb_str(&hint),
			 "unknown field '%s' in %s", key, *parent_path ? parent_path : "the top level");
	c->path.len = mark;
	if (c->path.buf)
		c->path.buf[mark] = 0;
	strbuf_release(&hint);
	free(parent_path);
}

/* Where a value sits in srtctl's schema, looked up only when asked: most
 * recipes use no field the built-in table lacks, and then srtctl's schema is
 * never read (srtctl_schema_root reads a pending one on first use). */
struct spos {
	struct spos *up; /* NULL: the root */
	const char *key; /* NULL: an item of up */
	int known;
	json_t *node;
};
#define SPOS_ROOT { NULL, NULL, 0, NULL }

/* The place of key (NULL: an item) under up; none under none (a NULL up is
 * a value srtctl's schema does not describe, not the root). */
static struct spos *spos_under(struct spos *up, const char *key, struct spos *room)
{
	if (!up)
		return NULL;
	*room = (struct spos){ up, key, 0, NULL };
	return room;
}

static json_t *spos_node(struct spos *p)
{
	if (!p)
		return NULL;
	if (!p->known) {
		p->node = !p->up ? srtctl_schema_root()
			: p->key ? srtctl_schema_child(spos_node(p->up), p->key)
				 : srtctl_schema_item(spos_node(p->up));
		p->known = 1;
	}
	return p->node;
}

static void check(struct sctx *c, json_t *v, const struct schema_field *f, int top, struct spos *sp);

static void pop_to(struct sctx *c, size_t mark)
{
	c->path.len = mark;
	if (c->path.buf)
		c->path.buf[mark] = 0;
}

/* A value under a field only srtctl's schema knows: typed by that schema. */
static void check_ext(struct sctx *c, json_t *v, json_t *js)
{
	if (!srtctl_schema_accepts(js, v)) {
		struct strbuf got = STRBUF_INIT;
		describe(&got, v);
		const char *d = srtctl_schema_description(js);
		diag_add(c->out, DIAG_ERROR, "wrong-type", c->path.buf, d ? d : "",
			 "%s does not match srtctl's schema (%s); got %s", here(c),
			 srtctl_schema_source(), sb_str(&got));
		strbuf_release(&got);
		return;
	}
	if (json_is_object(v)) {
		const char *k;
		json_t *cv;
		json_object_foreach(v, k, cv) {
			json_t *jc = srtctl_schema_child(js, k);
			size_t mark = c->path.len;
			push_key(&c->path, k);
			if (jc)
				check_ext(c, cv, jc);
			else if (srtctl_schema_closed(js))
				diag_add(c->out, DIAG_ERROR, "unknown-field", c->path.buf,
					 "neither srt-tui's table nor srtctl's schema knows it",
					 "unknown field '%s' in %s", k, here(c));
			pop_to(c, mark);
		}
	} else if (json_is_array(v)) {
		json_t *it = srtctl_schema_item(js);
		size_t i, mark = c->path.len;
		json_t *e;
		json_array_foreach(v, i, e) {
			if (!it)
				break;
			push_index(&c->path, i);
			check_ext(c, e, it);
			pop_to(c, mark);
		}
	}
}

/* A key srt-tui's table does not know but srtctl's schema does: accepted,
 * and noted, since the previews do not show what it does. */
static void ext_field(struct sctx *c, const char *key, json_t *v, json_t *js)
{
	size_t mark = c->path.len;
	push_key(&c->path, key);
	const char *d = srtctl_schema_description(js);
	char hint[400];
	snprintf(hint, sizeof(hint), "srtctl's schema (%s): %s", srtctl_schema_source(),
		 d ? d : "no description");
	diag_add(c->out, DIAG_WARNING, "not-previewed", c->path.buf, hint,
		 "srt-tui does not preview %s yet; srtctl's schema accepts it", c->path.buf);
	check_ext(c, v, js);
	pop_to(c, mark);
}

static void check_map(struct sctx *c, json_t *v, const struct schema_field *f, int top, struct spos *sp)
{
	const char *variant = is_engine_field(f) ? engine_variant(v) : NULL;
	const char *k;
	size_t klen;
	json_t *cv;
	json_object_keylen_foreach(v, k, klen, cv) {
		int own;
		const struct schema_field *cf = schema_childn(f, k, klen, variant, &own);
		struct spos room, *cp = spos_under(sp, k, &room);
		if (!cf) {
			if (f->flags & SF_OPEN)
				continue;
			json_t *jc = spos_node(cp);
			if (jc)
				ext_field(c, k, cv, jc);
			else
				unknown_key(c, f, k, variant);
			continue;
		}
		size_t mark = c->path.len;
		if (own)
			push_plain_key(&c->path, k, klen);
		else
			push_key(&c->path, k);
		check(c, cv, cf, 0, cp);
		c->path.len = mark;
		if (c->path.buf)
			c->path.buf[mark] = 0;
	}
	if (top == 2) /* the base of an override file requires nothing at its top */
		return;
	size_t nreq;
	const struct schema_field *const *req = schema_required(f, &nreq);
	for (size_t r = 0; r < nreq; r++) {
		const struct schema_field *cf = req[r];
		if (variant && cf->variant && strcmp(cf->variant, variant))
			continue;
		const char *key = schema_field_key(cf);
		if (json_object_get(v, key))
			continue;
		if (!strcmp(cf->path, "schema")) {
			diag_add(c->out, DIAG_ERROR, "schema-missing", "",
				 "run 'srtctl migrate -f FILE' to rewrite a pre-2.0 recipe; if the file already uses the schema 2 layout, add 'schema: 2' at the top",
				 "no 'schema: 2': this is a pre-2.0 recipe, which srtctl refuses");
			continue;
		}
		struct strbuf hint = STRBUF_INIT;
		const char *ex = vschema_example(cf);
		strbuf_addf(&hint, "add %s%s%s", sb_str(&c->path), c->path.len ? "." : "", key);
		if (ex)
			strbuf_addf(&hint, " (e.g. %s)", ex);
		if (c->path.len)
			diag_add(c->out, DIAG_ERROR, "missing-field", c->path.buf, sb_str(&hint),
				 "%s.%s is required", c->path.buf, key);
		else
			diag_add(c->out, DIAG_ERROR, "missing-field", "", sb_str(&hint),
				 "%s is required", key);
		strbuf_release(&hint);
	}
}

static void check(struct sctx *c, json_t *v, const struct schema_field *f, int top, struct spos *sp)
{
	if (!type_ok(f, v)) {
		if (!sweep_placeholder(c, v))
			wrong_type(c, f, v);
		return;
	}
	if (json_is_string(v) && f->allowed && !(f->flags & (SF_SUGGEST | SF_RULE)) &&
	    !schema_allows(f, json_string_value(v)) && !sweep_placeholder(c, v)) {
		if (f->flags & SF_STR_ONLY)
			wrong_type(c, f, v);
		else
			bad_value(c, f, json_string_value(v));
		return;
	}
	if (json_is_integer(v) && f->allowed && !(f->types & SCHEMA_STR)) {
		char num[32];
		snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
		if (!schema_allows(f, num)) {
			if (!strcmp(f->path, "schema"))
				diag_add(c->out, DIAG_ERROR, "schema-version", c->path.buf,
					 "srtctl reads schema 2 recipes; write 'schema: 2'",
					 "schema must be 2; got %s", num);
			else
				bad_value(c, f, num);
		}
		return;
	}
	if (json_is_object(v)) {
		check_map(c, v, f, top, sp);
	} else if (json_is_array(v)) {
		const struct schema_field *item = schema_child(f, NULL, NULL);
		if (!item)
			return;
		size_t i, mark = c->path.len;
		json_t *e;
		struct vnames names = { 0, NULL, NULL, NULL };
		struct spos room, *ip = spos_under(sp, NULL, &room);
		int named = !strcmp(f->path, "services");
		if (named)
			vnames_init(&names, v);
		json_array_foreach(v, i, e) {
			if (named) {
				vpath_item_named(&c->path, "", &names, i);
			} else {
				push_index(&c->path, i);
			}
			check(c, e, item, 0, ip);
			c->path.len = mark;
			c->path.buf[mark] = 0;
		}
		vnames_release(&names);
	}
}

/* ---- override files (spec §9.2): base + schema + override_* sections ------- */

/* A misspelt section prefix ("overide_tp2", "override-tp2", "zip-override_g"):
 * the key with the prefix spelt right, malloc'd; NULL when it is not one. */
static char *section_suggest(const char *k)
{
	static const char *const prefixes[] = { "zip_override_", "override_" };
	size_t kl = strlen(k);
	for (size_t i = 0; i < 2; i++) {
		size_t pl = strlen(prefixes[i]);
		size_t best = 3, cut = 0;
		for (size_t n = pl - 2; n <= pl + 2 && n < kl; n++) {
			char *head = xstrndup(k, n);
			size_t d = schema_edit_distance(head, prefixes[i]);
			free(head);
			if (d < best || (d && d == best)) { /* a tie: the longer head */
				best = d;
				cut = n;
			}
		}
		if (cut)
			return xasprintf("%s%s", prefixes[i], k + cut);
	}
	return NULL;
}

static void check_override_file(struct sctx *c, json_t *root)
{
	const char *k;
	json_t *v;
	json_object_foreach(root, k, v) {
		strbuf_reset(&c->path);
		push_key(&c->path, k);
		if (!strcmp(k, "base")) {
			if (!json_is_object(v)) {
				diag_add(c->out, DIAG_ERROR, "wrong-type", "base",
					 "base holds the recipe every variant starts from",
					 "base must be a mapping");
				continue;
			}
			c->sweep = jget_obj(v, "sweep");
			struct spos base_pos = SPOS_ROOT;
			check(c, v, schema_root(), 2, &base_pos);
		} else if (!strcmp(k, "schema")) {
			check(c, v, schema_lookup("schema", NULL), 0, NULL);
		} else if (!strncmp(k, "override_", 9) || !strncmp(k, "zip_override_", 13)) {
			if (!json_is_object(v))
				diag_add(c->out, DIAG_ERROR, "wrong-type", c->path.buf,
					 "a section holds the keys it changes in base, e.g. override_big: {roles: {agg: {gpus: 8}}}",
					 "%s must be a mapping", k);
		} else {
			const char *cands[] = { "base", "schema" };
			char *sec = section_suggest(k);
			char hint[256];
			if (sec)
				snprintf(hint, sizeof(hint), "did you mean '%s'?", sec);
			else
				vsuggest_hint(hint, sizeof(hint), k, cands, 2,
					      "an override file holds base, schema, and override_<name> or zip_override_<group> sections");
			free(sec);
			diag_add(c->out, DIAG_ERROR, "unknown-field", c->path.buf, hint,
				 "unknown field '%s' in the top level of an override file", k);
		}
	}
	strbuf_reset(&c->path);
}

void validate_schema(json_t *root, struct diag_list *out)
{
	struct sctx c = { out, STRBUF_INIT, NULL };
	strbuf_addstr(&c.path, ""); /* keep buf non-NULL */
	if (json_is_object(root) && json_object_get(root, "base")) {
		check_override_file(&c, root);
	} else if (json_is_object(root)) {
		c.sweep = jget_obj(root, "sweep");
		struct spos top = SPOS_ROOT;
		check(&c, root, schema_root(), 1, &top);
	} else {
		diag_add(out, DIAG_ERROR, "wrong-type", "", "a recipe is a mapping of keys such as schema, name, model",
			 "the top level must be a mapping");
	}
	strbuf_release(&c.path);
}
