/*
 * plan_mocker.h — the worker command of Dynamo's mocker engine (engine.type
 * mocker: `python3 -m dynamo.mocker`, a scheduler simulator that loads only
 * the tokenizer), for the launch plan and the Workers previews.  Appends to
 * the caller's vector or buffer; nothing is kept.
 */
#ifndef SRT_PLAN_MOCKER_H
#define SRT_PLAN_MOCKER_H

#include "model/recipe.h"
#include "lib/util.h"
#include "render/topology.h"
#include "render/workers.h"

/* The role args are flags as srtctl writes them for the mocker: sorted, '_'
 * as '-', true as a bare flag, a list as the flag then its items.  This is
 * the skip list render/plan passes with them (nothing is left out). */
extern const char *const mocker_skip_args[];

/* argv of process pr: python3 -m dynamo.mocker --model-path /model
 * --model-name <served>, the P/D mode and a prefill's bootstrap port, then
 * the simulation flags (mocker_sim_flags); the role args follow (the
 * caller's). */
void mocker_argv(const struct recipe *r, const struct topo_proc *pr, const char *served,
		 struct strvec *argv);

/* The simulation flags of role: the six srtctl always passes (engine type,
 * speed-up, DP size, KV blocks, batch limits), then the optional ones that
 * differ from their defaults. */
void mocker_sim_flags(const struct recipe *r, enum role_id role, struct strvec *argv);

/* The Workers preview line of a mocker role (nothing for other engines). */
void mocker_workers_note(struct strbuf *out, const struct recipe *r, enum role_id role,
			 enum workers_layout layout);

#endif
