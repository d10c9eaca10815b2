/* SPDX-License-Identifier: Apache-2.0 */
/*
 * engines.h — the one table of what srt-tui knows about srtctl's engines
 * (`backend.type` / `engine`: srtctl's backends/ modules) and frontends
 * (`frontend.type`: srtctl's frontends/ modules).  A recipe resolves its names
 * to rows once (model/recipe.c); code reads the row's fields and compares
 * ids, never names.  Static data; nothing to free.
 *
 * A field added for a new rule goes at the end of its struct, so that the
 * designated initialisers of the rows stay valid; 0 is always "no"/"none".
 */
#ifndef SRT_ENGINES_H
#define SRT_ENGINES_H

/* Indices into engine_rows[], in srtctl's schema order. */
enum engine_id {
	ENG_ATOM,
	ENG_SGLANG,
	ENG_TILERT,
	ENG_TOKENSPEED,
	ENG_TRTLLM,
	ENG_VLLM,
	ENG_MOCKER,
	ENG_COUNT
};

/* How a worker of the engine is told about its KV connector. */
enum connector_style {
	ECONN_NONE,        /* no connector setting */
	ECONN_VLLM,        /* vLLM's connector presets (nixl, lmcache, ...) */
	ECONN_MOONCAKE,    /* ATOM's mooncake connector */
	ECONN_ENGINE_YAML, /* TRT-LLM: cache_transceiver in the engine YAML */
};

/* Indices into frontend_rows[], in srtctl's schema order. */
enum frontend_id {
	FE_DYNAMO,
	FE_SGLANG_ROUTER,
	FE_VLLM_ROUTER,
	FE_SMG,
	FE_LLM_D,
	FE_ATOMESH,
	FE_TILERT_ROUTER,
	FE_SGLANG,
	FE_VLLM,
	FE_TRTLLM_SERVE,
	FE_ATOM,
	FE_NONE,
	FE_SGL_ROUTER,
	FE_COUNT
};

/* What a frontend is: Dynamo's discovery-based frontend, a static router
 * given the worker list by srtctl, a worker that serves the public port
 * itself, or no frontend at all. */
enum frontend_class {
	FEC_DYNAMO,
	FEC_ROUTER,
	FEC_DIRECT,
	FEC_NONE,
};

struct engine {
	enum engine_id id;
	const char *name;            /* as srtctl spells backend.type */
	const char *label;           /* as people write it: "vLLM" */
	const char *flag_table;      /* engine_flags table name; NULL none */
	enum connector_style connector;
	int agg;                     /* srtctl runs it aggregated */
	int disagg;                  /* srtctl runs it prefill/decode */
	int has_plan;                /* srt-tui draws its launch plan */
	/* The frontends srt-tui draws with this engine (bit per frontend_id). */
	unsigned plan_frontends;
};

struct frontend {
	enum frontend_id id;
	const char *name;            /* as srtctl spells frontend.type */
	enum frontend_class cls;
	/* A direct frontend: the engine it is (srtctl refuses another one),
	 * and how many aggregated workers it serves on the public port. */
	int direct_engine;           /* enum engine_id, -1 when not direct */
	int direct_workers;          /* 0 when not direct */
	int direct_disagg;           /* it may serve a prefill/decode split */
	int nginx;                   /* several instances behind nginx */
	int has_plan;                /* srt-tui draws its launch plan */
	const char *alias_of;        /* another name for that row; NULL */
};

#define FE_BIT(id) (1u << (id))

extern const struct engine engine_rows[ENG_COUNT];
extern const struct frontend frontend_rows[FE_COUNT];

/* The row for a name as srtctl spells it (may be NULL); NULL when unknown. */
const struct engine *engine_find(const char *name);
const struct frontend *frontend_find(const char *name);
/* Is name (may be NULL) the row id? */
int engine_is(const char *name, enum engine_id id);
int frontend_is(const char *name, enum frontend_id id);

#define ENGINE_NAME(id) (engine_rows[(id)].name)
#define FRONTEND_NAME(id) (frontend_rows[(id)].name)

/* Does srt-tui draw engine e behind frontend f (both may be NULL)? */
int engine_plan_takes(const struct engine *e, const struct frontend *f);

#endif
