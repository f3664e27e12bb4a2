/* Topological changes driven by area (paper 3.2, docs/model.md 5): removal of polygons smaller
 * than Amin and division of polygons larger than their division area, along the short axis.
 * Detection runs in parallel; changes are applied serially in polygon order, so runs are
 * reproducible. */
#ifndef PH_TOPOLOGY_H
#define PH_TOPOLOGY_H
#include "ensemble.h"
#include "params.h"

/* Draws a new growth rate and division area for polygon p (lognormal, docs/model.md 5). */
void topology_draw_traits(Ensemble *e, const Params *P, int p);

/* The work space of the topological changes, kept from step to step: a flag per polygon and the
 * cut of a division. Zero-initialise; release with topology_free. */
typedef struct TopologyWork {
    unsigned char *flag;
    int cap;
    double *cut;
    size_t cut_cap;
    int64_t postponed;   /* divisions due but postponed (topology_divide refused), over all steps */
} TopologyWork;
void topology_free(TopologyWork *w);

/* Divides polygon p along its short axis (topology.c); both daughters get new ids with parent =
 * p's id. Returns the index of daughter 2, or -1 if p cannot be divided now (too few vertices, a
 * centroid outside it, or a daughter that would be invalid). */
int topology_divide(Ensemble *e, const Params *P, TopologyWork *w, int p);

/* Divides the polygons above Amax (or, with k_div > 0, those whose division hazard passed its
 * threshold), then removes those below Amin and those whose death hazard passed its threshold.
 * Returns the number of divisions; *removed and *died (may be NULL) receive the numbers of
 * removals below Amin and of deaths. */
int topology_update(Ensemble *e, const Params *P, TopologyWork *w, int *removed, int *died);

#endif
