/*
 * engine_flags.c — looking a role's args key up in an engine's flag table
 * (engine_flags.h).  The Dynamo runtime flags every Dynamo worker takes,
 * whatever its engine, are here: ai-dynamo/dynamo
 * components/src/dynamo/common/configuration/groups/runtime_args.py
 * @c6b40e7877ac (DynamoRuntimeArgGroup; --dyn-endpoint-types is its obsolete
 * spelling of --endpoint-types).
 */
#include "model/engine_flags.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

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
 * searches plus a scan of srtctl's list per key were most of it. */
struct kind_slot {
	const char *name; /* NULL: empty */
	unsigned char plain, neg; /* kind_of(name, 0), kind_of(name, 1) */
};
struct kind_index {
	const struct engine_flags *t;
	struct kind_slot *slot;
	size_t mask;
};

/* One name of a list of kind k, the lists taken in kind_of's order: the
 * first list that has the name gives its plain reading, the first that has
 * it negatable its "no-" reading. */
static void index_add(struct kind_index *ix, const char *name, int negatable, enum engine_flag_kind k)
{
	size_t h = str_hash(name, 0) & ix->mask;
	for (; ix->slot[h].name; h = (h + 1) & ix->mask)
		if (!strcmp(ix->slot[h].name, name)) {
			if (ix->slot[h].neg == EFLAG_UNKNOWN && negatable)
				ix->slot[h].neg = (unsigned char)k;
			return;
		}
	ix->slot[h].name = name;
	ix->slot[h].plain = (unsigned char)k;
	ix->slot[h].neg = (unsigned char)(negatable ? k : EFLAG_UNKNOWN);
}

static void index_list(struct kind_index *ix, const struct engine_flag *v, size_t n, enum engine_flag_kind k)
{
	for (size_t i = 0; i < n; i++)
		index_add(ix, v[i].name, v[i].negatable, k);
}

static const struct kind_index *index_of(const struct engine_flags *t)
{
	static struct kind_index ix[4];
	static size_t nix;
	for (size_t i = 0; i < nix; i++)
		if (ix[i].t == t)
			return &ix[i];
	if (nix == sizeof(ix) / sizeof(ix[0]))
		return NULL; /* more tables than slots: searched instead */
	struct kind_index *x = &ix[nix++];
	size_t ns = 0, size = 16;
	while (t->srtctl[ns])
		ns++;
	while (size < 2 * (t->nflags + t->nwrapper + NRUNTIME + ns))
		size *= 2;
	x->t = t;
	x->slot = xcalloc(size, sizeof(*x->slot));
	x->mask = size - 1;
	index_list(x, t->flags, t->nflags, EFLAG_ENGINE);
	index_list(x, t->wrapper, t->nwrapper, EFLAG_WRAPPER);
	index_list(x, dynamo_runtime_flags, NRUNTIME, EFLAG_WRAPPER);
	for (size_t i = 0; i < ns; i++)
		index_add(x, t->srtctl[i], 0, EFLAG_SRTCTL);
	return x;
}

/* kind_of(t, name, neg) through the index. */
static enum engine_flag_kind kind_fast(const struct engine_flags *t, const char *name, int neg)
{
	const struct kind_index *x = index_of(t);
	if (!x)
		return kind_of(t, name, neg);
	for (size_t h = str_hash(name, 0) & x->mask; x->slot[h].name; h = (h + 1) & x->mask)
		if (!strcmp(x->slot[h].name, name))
			return (enum engine_flag_kind)(neg ? x->slot[h].neg : x->slot[h].plain);
	return EFLAG_UNKNOWN;
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
