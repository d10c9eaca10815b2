/*
 * engine_flags.h — the command-line flags vLLM and SGLang accept, so a typo
 * in a role's args (`gpu-memory-utilisation`) is caught before the job runs.
 *
 * srtctl turns each key of roles.<role>.args into `--key` (an underscore read
 * as a dash) and hands the worker's argv to the engine's argparse, which exits
 * on a flag it does not know.  The tables are the engines' own flags, read
 * from their source at the commits each table names (model/engine_flags_vllm.c,
 * model/engine_flags_sglang.c), plus the flags of Dynamo's worker wrapper
 * (`python -m dynamo.vllm` / `dynamo.sglang`, which srtctl runs behind a
 * Dynamo frontend) and the keys srtctl itself reads, rewrites or adds.
 *
 * A user's engine may be newer than a table, so an unknown key is only ever a
 * warning (validate_engine_flags.c).
 */
#ifndef SRT_ENGINE_FLAGS_H
#define SRT_ENGINE_FLAGS_H

#include <stddef.h>

struct engine_flag {
	const char *name; /* without the leading "--", dashes only */
	int negatable;    /* argparse BooleanOptionalAction: "--no-<name>" too */
};

struct engine_flags {
	const char *engine; /* the engine type as recipes write it: "vllm" */
	const char *label;  /* "vLLM" */
	const char *source; /* where the table was read: repo @commit (files) */
	const char *help;   /* the command that lists a release's flags */
	const struct engine_flag *flags; /* sorted by name */
	size_t nflags;
	const struct engine_flag *wrapper; /* Dynamo's wrapper for this engine, sorted */
	size_t nwrapper;
	const char *const *srtctl; /* keys srtctl handles itself, NULL-terminated */
};

extern const struct engine_flags engine_flags_vllm;
extern const struct engine_flags engine_flags_sglang;

/* The table of an engine type, or NULL when there is none (trtllm's args are
 * its YAML config, not flags). */
const struct engine_flags *engine_flags_find(const char *engine);

enum engine_flag_kind {
	EFLAG_UNKNOWN,
	EFLAG_ENGINE,  /* a flag of the engine itself */
	EFLAG_WRAPPER, /* a flag of Dynamo's worker (engine wrapper or runtime) */
	EFLAG_SRTCTL,  /* a key srtctl reads, rewrites or adds */
};

/* What a role's args key is to t: the key as written, '_' read as '-' (as
 * srtctl writes it), and "no-<flag>" for a negatable flag. */
enum engine_flag_kind engine_flags_kind(const struct engine_flags *t, const char *key);

/* Every name a key may take (engine, wrapper, Dynamo runtime, srtctl), for a
 * did-you-mean; *n is set to the count.  malloc'd array of borrowed strings. */
const char **engine_flags_names(const struct engine_flags *t, size_t *n);

/* The did-you-mean of an unknown key: schema_suggest over
 * engine_flags_names(t), NULL when nothing is close.  The editor validates the
 * whole recipe on every edit and a large recipe may hold thousands of unknown
 * keys, so the answers are remembered process-wide (engine_flags_suggest.c):
 * a pure function of (t, key), bounded in memory.  The result points into t's
 * static names. */
const char *engine_flags_suggest(const struct engine_flags *t, const char *key);

/* The bounded memo behind it, over any prepared candidate list: `sets` (a
 * power of two) sets of `ways` entries; a key evicts the least recently used
 * entry of its set.  hits and misses are counted for tests. */
struct schema_suggestions;
struct suggest_memo_entry;
struct suggest_memo {
	const struct schema_suggestions *sug; /* borrowed */
	struct suggest_memo_entry *v;
	size_t sets, ways;
	unsigned long long clock, hits, misses;
};
void suggest_memo_init(struct suggest_memo *m, const struct schema_suggestions *sug, size_t sets,
		       size_t ways);
const char *suggest_memo_get(struct suggest_memo *m, const char *word);
void suggest_memo_release(struct suggest_memo *m);

#endif
