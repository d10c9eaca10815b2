/*
 * plan_atom_direct.h — frontend.type: atom, ATOM's direct frontend: the one
 * aggregate ATOM worker serves the OpenAI endpoint on the public port itself
 * and no router or frontend process is started.  The worker step is the
 * AToMesh one with the public port as --server-port (render/plan.c); this
 * holds the layouts srtctl refuses for it.
 */
#ifndef SRT_PLAN_ATOM_DIRECT_H
#define SRT_PLAN_ATOM_DIRECT_H

#include "model/recipe.h"

/* Whether frontend.type names ATOM's direct frontend. */
int atom_direct(const struct recipe *r);

/* Why srtctl refuses this recipe under the direct ATOM frontend, malloc'd
 * (its words); NULL when it runs, or the frontend is another. */
char *atom_direct_refusal(const struct recipe *r);

#endif
