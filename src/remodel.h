/* Remodeling (paper 3.1, SPEC 4): every step, before the forces, edges shorter than lmin are
 * collapsed (non-rigid polygons with more than 3 vertices) and edges longer than lmax are split
 * (all polygons), so that edge lengths stay in [lmin, lmax]. */
#ifndef PH_REMODEL_H
#define PH_REMODEL_H
#include "ensemble.h"
#include "params.h"

/* A second set of vertex arrays: remodeling writes the new vertex lists there, then swaps. */
typedef struct Remodel {
    int cap;
    double *x, *y, *vx, *vy, *fx, *fy, *l0;
    int *pid;
    int *newstart, *newcount, npcap;
} Remodel;

void remodel_init(Remodel *r);
void remodel_free(Remodel *r);

/* Remodels every polygon; afterwards the vertex slots are contiguous in polygon order.
 * Returns the number of vertices added minus removed. Costs O(vertices) only when a polygon
 * changed or gaps existed; otherwise one read-only pass over the edge lengths. */
int remodel(Ensemble *e, const Params *P, Remodel *r);

#endif
