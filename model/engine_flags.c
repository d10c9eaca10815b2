/*
 * engine_flags.c — looking a role's args key up in an engine's flag table
 * (engine_flags.h).  The Dynamo runtime flags every Dynamo worker takes,
 * whatever its engine, are here: ai-dynamo/dynamo
 * components/src/dynamo/common/configuration/groups/runtime_args.py
 * @c6b40e7877ac (DynamoRuntimeArgGroup; --dyn-endpoint-types is its obsolete
 * spelling of --endpoint-types).
 */
#include "model/engine_flags.h"

#include <stdio.h>

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "model/images.h"

static const struct engine_flag dynamo_runtime_flags[] = {
	{ "connector", 0 },
	{ "custom-jinja-template", 0 },
	{ "discovery-backend", 0 },
	{ "dump-config-to", 0 },
	{ "durable-kv-events", 1 },
	{ "dyn-endpoint-types", 0 },
	{ "dyn-reasoning-parser", 0 },
	{ "dyn-tool-call-parser", 0 },
	{ "endpoint", 0 },
	{ "endpoint-types", 0 },
	{ "event-plane", 0 },
	{ "media-output-fs-url", 0 },
	{ "media-output-http-url", 0 },
	{ "multimodal-embedding-cache-capacity-gb", 0 },
	{ "namespace", 0 },
	{ "output-modalities", 0 },
	{ "request-plane", 0 },
};
#define NRUNTIME (sizeof(dynamo_runtime_flags) / sizeof(dynamo_runtime_flags[0]))

const struct engine_flags *engine_flags_find(const char *engine)
{
	if (!engine)
		return NULL;
	if (!strcmp(engine, engine_flags_vllm.engine))
		return &engine_flags_vllm;
	if (!strcmp(engine, engine_flags_sglang.engine))
		return &engine_flags_sglang;
	return NULL;
}

static int cmp_flag(const void *k, const void *e)
{
	return strcmp(k, ((const struct engine_flag *)e)->name);
}

static const struct engine_flag *find(const struct engine_flag *v, size_t n, const char *name)
{
	return bsearch(name, v, n, sizeof(*v), cmp_flag);
}

/* The kind of a dashed name, without the "no-" reading. */
static enum engine_flag_kind kind_of(const struct engine_flags *t, const char *name, int neg)
{
	const struct engine_flag *f;
	if ((f = find(t->flags, t->nflags, name)) && (!neg || f->negatable))
		return EFLAG_ENGINE;
	if ((f = find(t->wrapper, t->nwrapper, name)) && (!neg || f->negatable))
		return EFLAG_WRAPPER;
	if ((f = find(dynamo_runtime_flags, NRUNTIME, name)) && (!neg || f->negatable))
		return EFLAG_WRAPPER;
	if (!neg)
		for (const char *const *s = t->srtctl; *s; s++)
			if (!strcmp(*s, name))
				return EFLAG_SRTCTL;
	return EFLAG_UNKNOWN;
}

/* Every name of a table with its two readings, by hash: a large recipe's
 * thousands of args keys are looked up on every validation, and three
 * searches plus a scan of srtctl's list per key were most of it.  The
 * build's image has one per table (images.h); else made on first use. */
struct index_build {
	struct engine_kind_index x;
	struct engine_kind_slot *slot;
};

/* One name of a list of kind k, the lists taken in kind_of's order: the
 * first list that has the name gives its plain reading, the first that has
 * it negatable its "no-" reading. */
static void index_add(struct index_build *b, const char *name, int negatable, enum engine_flag_kind k)
{
	size_t h = str_hash(name, 0) & b->x.mask;
	for (; b->slot[h].name; h = (h + 1) & b->x.mask)
		if (!strcmp(b->slot[h].name, name)) {
			if (b->slot[h].neg == EFLAG_UNKNOWN && negatable)
				b->slot[h].neg = (unsigned char)k;
			return;
		}
	b->slot[h].name = name;
	b->slot[h].plain = (unsigned char)k;
	b->slot[h].neg = (unsigned char)(negatable ? k : EFLAG_UNKNOWN);
}

static void index_list(struct index_build *b, const struct engine_flag *v, size_t n, enum engine_flag_kind k)
{
	for (size_t i = 0; i < n; i++)
		index_add(b, v[i].name, v[i].negatable, k);
}

static void build_index(struct index_build *b, const struct engine_flags *t)
{
	size_t ns = 0, size = 16;
	while (t->srtctl[ns])
		ns++;
	while (size < 2 * (t->nflags + t->nwrapper + NRUNTIME + ns))
		size *= 2;
	b->x.t = t;
	b->x.slot = b->slot = xcalloc(size, sizeof(*b->slot));
	b->x.mask = size - 1;
	index_list(b, t->flags, t->nflags, EFLAG_ENGINE);
	index_list(b, t->wrapper, t->nwrapper, EFLAG_WRAPPER);
	index_list(b, dynamo_runtime_flags, NRUNTIME, EFLAG_WRAPPER);
	for (size_t i = 0; i < ns; i++)
		index_add(b, t->srtctl[i], 0, EFLAG_SRTCTL);
}

static const struct engine_kind_index *index_of(const struct engine_flags *t)
{
	static struct index_build made[4];
	static size_t nmade;
	if (engine_kind_images)
		for (const struct engine_kind_index *x = engine_kind_images; x->t; x++)
			if (x->t == t)
				return x;
	for (size_t i = 0; i < nmade; i++)
		if (made[i].x.t == t)
			return &made[i].x;
	if (nmade == sizeof(made) / sizeof(made[0]))
		return NULL; /* more tables than slots: searched instead */
	build_index(&made[nmade], t);
	return &made[nmade++].x;
}

/* kind_of(t, name, neg) through the index. */
static enum engine_flag_kind kind_fast(const struct engine_flags *t, const char *name, int neg)
{
	const struct engine_kind_index *x = index_of(t);
	if (!x)
		return kind_of(t, name, neg);
	for (size_t h = str_hash(name, 0) & x->mask; x->slot[h].name; h = (h + 1) & x->mask)
		if (!strcmp(x->slot[h].name, name))
			return (enum engine_flag_kind)(neg ? x->slot[h].neg : x->slot[h].plain);
	return EFLAG_UNKNOWN;
}

/* The tables engine_flags_find knows, as their images are written. */
static const struct {
	const struct engine_flags *t;
	const char *symbol;
} imaged[] = {
	{ &engine_flags_vllm, "engine_flags_vllm" },
	{ &engine_flags_sglang, "engine_flags_sglang" },
};
#define NIMAGED (sizeof(imaged) / sizeof(imaged[0]))

static void write_c_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++)
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			fprintf(out, "\\%03o", (unsigned char)*s);
		else
			fputc(*s, out);
	fputc('"', out);
}

void engine_flags_write(FILE *out)
{
	size_t mask[NIMAGED];
	fprintf(out, "/* the engine flag tables' name index: model/images.h */\n");
	for (size_t i = 0; i < NIMAGED; i++) {
		struct index_build b;
		build_index(&b, imaged[i].t);
		mask[i] = b.x.mask;
		fprintf(out, "static const struct engine_kind_slot ek_%zu[] = {\n", i);
		for (size_t h = 0; h <= b.x.mask; h++) {
			if (!b.slot[h].name) {
				fprintf(out, "\t{ NULL, 0, 0 },\n");
				continue;
			}
			fprintf(out, "\t{ ");
			write_c_string(out, b.slot[h].name);
			fprintf(out, ", %u, %u },\n", b.slot[h].plain, b.slot[h].neg);
		}
		fprintf(out, "};\n");
		free(b.slot);
	}
	fprintf(out, "const struct engine_kind_index engine_kind_images[] = {\n");
	for (size_t i = 0; i < NIMAGED; i++)
		fprintf(out, "\t{ &%s, ek_%zu, %zu },\n", imaged[i].symbol, i, mask[i]);
	fprintf(out, "\t{ NULL, NULL, 0 },\n};\n");
}

int engine_flags_image_check(char **why)
{
	struct strbuf sb = STRBUF_INIT;
	if (!engine_kind_images) {
		*why = xstrdup("no image is linked");
		return -1;
	}
	size_t nim = 0;
	while (engine_kind_images[nim].t)
		nim++;
	if (nim != NIMAGED)
		strbuf_addf(&sb, "%zu tables in the image, %zu known", nim, NIMAGED);
	for (size_t i = 0; i < NIMAGED && !sb.len; i++) {
		struct index_build b;
		const struct engine_kind_index *im = &engine_kind_images[i];
		build_index(&b, imaged[i].t);
		if (im->t != b.x.t || im->mask != b.x.mask)
			strbuf_addf(&sb, "%s: the table or its size", imaged[i].symbol);
		for (size_t h = 0; !sb.len && h <= b.x.mask; h++) {
			const struct engine_kind_slot *p = &im->slot[h], *q = &b.slot[h];
			if (!p->name != !q->name || (p->name && strcmp(p->name, q->name)) ||
			    p->plain != q->plain || p->neg != q->neg)
				strbuf_addf(&sb, "%s: slot %zu", imaged[i].symbol, h);
		}
		free(b.slot);
	}
	if (!sb.len) {
		strbuf_release(&sb);
		return 0;
	}
	*why = strbuf_detach(&sb, NULL);
	return -1;
}

enum engine_flag_kind engine_flags_kind(const struct engine_flags *t, const char *key)
{
	/* srtctl writes "--" + the key with '_' replaced by '-' */
	char buf[128];
	size_t n = strlen(key);
	char *name = n < sizeof(buf) ? buf : xmalloc(n + 1);
	for (size_t i = 0; i <= n; i++)
		name[i] = key[i] == '_' ? '-' : key[i];
	enum engine_flag_kind k = kind_fast(t, name, 0);
	if (k == EFLAG_UNKNOWN && !strncmp(name, "no-", 3))
		k = kind_fast(t, name + 3, 1);
	if (name != buf)
		free(name);
	return k;
}

const char **engine_flags_names(const struct engine_flags *t, size_t *n)
{
	size_t ns = 0;
	while (t->srtctl[ns])
		ns++;
	const char **v = xmalloc((t->nflags + t->nwrapper + NRUNTIME + ns) * sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < t->nflags; i++)
		v[k++] = t->flags[i].name;
	for (size_t i = 0; i < t->nwrapper; i++)
		v[k++] = t->wrapper[i].name;
	for (size_t i = 0; i < NRUNTIME; i++)
		v[k++] = dynamo_runtime_flags[i].name;
	for (size_t i = 0; i < ns; i++)
		v[k++] = t->srtctl[i];
	*n = k;
	return v;
}
