/* Fusion (paper 3.3, Fig. 1D; docs/model.md 5), enabled when theta > 0: where a vertex comes
 * closer than theta h to an edge, two polygons merge into one (type I; one may lie inside the
 * other) or one polygon touching itself splits into two (type II; one may end up inside the
 * other). */
#ifndef PH_FUSION_H
#define PH_FUSION_H
#include "contact.h"
#include "ensemble.h"
#include "params.h"

/* Applies the fusion events found in the pair records of the last contact_forces_step call (whose
 * slots must still be valid). Events are taken deepest first, ties broken by vertex and edge
 * slot, each polygon in at most one event. Adds the counts of type I and type II events. */
void fusion_update(Ensemble *e, const Params *P, const Contact *c, int64_t *type1, int64_t *type2);

#endif
