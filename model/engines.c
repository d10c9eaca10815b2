/* SPDX-License-Identifier: Apache-2.0 */
/*
 * engines.c — the engines and frontends table (see engines.h).  The names
 * are srtctl's spelling (its schema's allowed values for backend.type and
 * frontend.type); the has_plan and plan_frontends columns say what the launch plan draws.
 */
#include "engines.h"

#include <string.h>

#define DY FE_BIT(FE_DYNAMO)

const struct engine engine_rows[ENG_COUNT] = {
	[ENG_ATOM] = { .id = ENG_ATOM, .name = "atom", .label = "ATOM",
		       .connector = ECONN_MOONCAKE, .agg = 1, .disagg = 1,
		       .has_plan = 1,
		       .plan_frontends = FE_BIT(FE_ATOMESH) | FE_BIT(FE_ATOM) },
	[ENG_SGLANG] = { .id = ENG_SGLANG, .name = "sglang", .label = "SGLang",
			 .flag_table = "sglang", .agg = 1, .disagg = 1,
			 .has_plan = 1,
			 .plan_frontends = DY | FE_BIT(FE_SGLANG) |
					   FE_BIT(FE_SGLANG_ROUTER) |
					   FE_BIT(FE_SGL_ROUTER) },
	[ENG_TILERT] = { .id = ENG_TILERT, .name = "tilert", .label = "TileRT",
			 .agg = 0, .disagg = 1, .has_plan = 1,
			 .plan_frontends = FE_BIT(FE_TILERT_ROUTER) },
	[ENG_TOKENSPEED] = { .id = ENG_TOKENSPEED, .name = "tokenspeed",
			     .label = "TokenSpeed", .agg = 1, .disagg = 1 },
	[ENG_TRTLLM] = { .id = ENG_TRTLLM, .name = "trtllm", .label = "TRT-LLM",
			 .connector = ECONN_ENGINE_YAML, .agg = 1, .disagg = 1,
			 .has_plan = 1,
			 .plan_frontends = DY | FE_BIT(FE_TRTLLM_SERVE) },
	[ENG_VLLM] = { .id = ENG_VLLM, .name = "vllm", .label = "vLLM",
		       .flag_table = "vllm", .connector = ECONN_VLLM, .agg = 1,
		       .disagg = 1, .has_plan = 1,
		       .plan_frontends = DY | FE_BIT(FE_VLLM) |
					 FE_BIT(FE_VLLM_ROUTER) },
	/* the mocker registers through Dynamo's discovery */
	[ENG_MOCKER] = { .id = ENG_MOCKER, .name = "mocker", .label = "mocker",
			 .agg = 1, .disagg = 1, .has_plan = 1,
			 .plan_frontends = DY },
};

#define ROUTER(i, n, pl) { .id = (i), .name = (n), .cls = FEC_ROUTER, \
			   .direct_engine = -1, .nginx = 1, .has_plan = (pl) }
#define DIRECT(i, n, e) { .id = (i), .name = (n), .cls = FEC_DIRECT, \
			  .direct_engine = (e), .direct_workers = 1, \
			  .has_plan = 1 }

const struct frontend frontend_rows[FE_COUNT] = {
	[FE_DYNAMO] = { .id = FE_DYNAMO, .name = "dynamo", .cls = FEC_DYNAMO,
			.direct_engine = -1, .nginx = 1, .has_plan = 1 },
	[FE_SGLANG_ROUTER] = ROUTER(FE_SGLANG_ROUTER, "sglang-router", 1),
	[FE_VLLM_ROUTER] = ROUTER(FE_VLLM_ROUTER, "vllm-router", 1),
	[FE_SMG] = ROUTER(FE_SMG, "smg", 0),
	[FE_LLM_D] = ROUTER(FE_LLM_D, "llm-d", 0),
	[FE_ATOMESH] = ROUTER(FE_ATOMESH, "atomesh", 1),
	[FE_TILERT_ROUTER] = ROUTER(FE_TILERT_ROUTER, "tilert-router", 1),
	[FE_SGLANG] = DIRECT(FE_SGLANG, "sglang", ENG_SGLANG),
	[FE_VLLM] = DIRECT(FE_VLLM, "vllm", ENG_VLLM),
	[FE_TRTLLM_SERVE] = DIRECT(FE_TRTLLM_SERVE, "trtllm_serve", ENG_TRTLLM),
	[FE_ATOM] = DIRECT(FE_ATOM, "atom", ENG_ATOM),
	[FE_NONE] = { .id = FE_NONE, .name = "none", .cls = FEC_NONE,
		      .direct_engine = -1, .has_plan = 1 },
	[FE_SGL_ROUTER] = { .id = FE_SGL_ROUTER, .name = "sgl-router",
			    .cls = FEC_ROUTER, .direct_engine = -1, .nginx = 1,
			    .has_plan = 1, .alias_of = "sglang-router" },
};

const struct engine *engine_find(const char *name)
{
	if (!name)
		return NULL;
	for (int i = 0; i < ENG_COUNT; i++)
		if (!strcmp(engine_rows[i].name, name))
			return &engine_rows[i];
	return NULL;
}

const struct frontend *frontend_find(const char *name)
{
	if (!name)
		return NULL;
	for (int i = 0; i < FE_COUNT; i++)
		if (!strcmp(frontend_rows[i].name, name))
			return &frontend_rows[i];
	return NULL;
}

int engine_is(const char *name, enum engine_id id)
{
	return name && !strcmp(name, engine_rows[id].name);
}

int frontend_is(const char *name, enum frontend_id id)
{
	return name && !strcmp(name, frontend_rows[id].name);
}

int engine_plan_takes(const struct engine *e, const struct frontend *f)
{
	if (!e || !f || !e->has_plan || !f->has_plan)
		return 0;
	return (e->plan_frontends & FE_BIT(f->id)) != 0;
}
