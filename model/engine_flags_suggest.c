/*
 * engine_flags_suggest.c — the did-you-mean of an unknown role args key,
 * remembered (engine_flags.h).  A generated 20,000-line recipe holds ~2,000
 * unknown keys and the editor validates it on every edit: measuring each key
 * against a table of several hundred flags every time was most of the
 * validation.  The answer depends only on the table and the key, so it is
 * kept; the bound (sets x ways) keeps a long session's edits from growing it.
 * srt-tui is single-threaded: the memo is plain static state.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "model/engine_flags.h"
#include "model/schema.h"

struct suggest_memo_entry {
	char *key; /* NULL: empty */
	uint32_t hash;
	unsigned long long used; /* m->clock when last read */
	const char *answer;
};

void suggest_memo_init(struct suggest_memo *m, const struct schema_suggestions *sug, size_t sets,
		       size_t ways)
{
	m->sug = sug;
	/* the set is the hash's low bits: a power of two, rounded down */
	m->sets = 1;
	while (m->sets * 2 <= sets)
		m->sets *= 2;
	m->ways = ways ? ways : 1;
	m->v = xcalloc(m->sets * m->ways, sizeof(*m->v));
	m->clock = m->hits = m->misses = 0;
}

const char *suggest_memo_get(struct suggest_memo *m, const char *word)
{
	uint32_t h = (uint32_t)str_hash(word, 0);
	struct suggest_memo_entry *set = m->v + (h & (m->sets - 1)) * m->ways, *victim = set;
	m->clock++;
	for (size_t i = 0; i < m->ways; i++) {
		struct suggest_memo_entry *e = &set[i];
		if (e->key && e->hash == h && !strcmp(e->key, word)) {
			e->used = m->clock;
			m->hits++;
			return e->answer;
		}
		/* an empty entry (used 0) is taken before any live one */
		if (e->used < victim->used)
			victim = e;
	}
	m->misses++;
	free(victim->key);
	victim->key = xstrdup(word);
	victim->hash = h;
	victim->used = m->clock;
	victim->answer = schema_suggest_in(m->sug, word);
	return victim->answer;
}

void suggest_memo_release(struct suggest_memo *m)
{
	for (size_t i = 0; m->v && i < m->sets * m->ways; i++)
		free(m->v[i].key);
	free(m->v);
	m->v = NULL;
}

/* One table's prepared names and memo, made on first use and kept. */
struct table_memo {
	const struct engine_flags *t;
	const char **names;
	struct schema_suggestions sug;
	struct suggest_memo memo;
};

/* 8,192 keys a table: four times the generated large recipe's unknown keys,
 * a few hundred KiB at most. */
#define MEMO_SETS 1024
#define MEMO_WAYS 8

const char *engine_flags_suggest(const struct engine_flags *t, const char *key)
{
	static struct table_memo memos[4];
	static size_t nmemos;
	struct table_memo *tm = NULL;
	for (size_t i = 0; i < nmemos && !tm; i++)
		if (memos[i].t == t)
			tm = &memos[i];
	if (!tm) {
		if (nmemos == sizeof(memos) / sizeof(memos[0])) {
			/* more tables than slots: answer without remembering */
			size_t n;
			const char **names = engine_flags_names(t, &n);
			const char *s = schema_suggest(key, names, n);
			free(names);
			return s;
		}
		tm = &memos[nmemos++];
		size_t n;
		tm->t = t;
		tm->names = engine_flags_names(t, &n);
		schema_suggestions_init(&tm->sug, tm->names, n);
		suggest_memo_init(&tm->memo, &tm->sug, MEMO_SETS, MEMO_WAYS);
	}
	return suggest_memo_get(&tm->memo, key);
}
