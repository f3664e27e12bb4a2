/* Remodeling (paper 3.1, docs/model.md 4): every step, before the forces, twisted edges are cut
 * out (non-rigid polygons of more than 5 vertices; remodel.c), edges shorter than lmin collapsed
 * (non-rigid polygons of more than 3 vertices) and edges longer than lmax bisected until every
 * piece is at most lmax (all polygons), so that edge lengths stay in [lmin, lmax]. */
#ifndef PH_REMODEL_H
#define PH_REMODEL_H
#include "ensemble.h"
#include "params.h"

/* Work space of remodeling. The vertex arrays are rewritten in place; only the new vertex lists
 * of the polygons that change are built aside (in `side`), not a second copy of every array. */
typedef struct Remodel {
    int *newstart, *newcount, *sideat, npcap;   /* per polygon: new first slot, new count (-1:
                                                 * unchanged), first slot in side */
    double *side;                               /* x, y, vx, vy, l0 of the changed polygons, */
    size_t side_cap;                            /* side_cap slots each */
    double **scratch;                           /* per thread: the sweeps of one polygon */
    size_t *scratch_cap;
    int nscratch;
    int64_t twists;                             /* twisted edges cut out since the run began */
    int64_t max_slots;                          /* the most vertex slots, INT32_MAX (indices are
                                                 * int; tests lower it): remodel_apply ends the
                                                 * run past it */
} Remodel;

void remodel_init(Remodel *r);
void remodel_free(Remodel *r);

/* The pieces refinement cuts an edge of length l into: the least 2^k with l <= 2^k lmax. */
static inline double remodel_pieces(double l, double lmax)
{
    double n = 1;
    while (l > n * lmax && n < 1e300) n *= 2;
    return n;
}

/* Room to grow that a polygon of n vertices gets when all slots are laid out anew. */
#define REMODEL_ROOM(n) ((n) / 32 + 1)

/* Remodels every polygon; returns the vertices added minus removed. A polygon that changes is
 * written back in its own slots when it fits below the next polygon's (in the gaps that
 * divisions, removals and shrinking leave, and the REMODEL_ROOM of a fresh layout); one that does
 * not pushes the polygons after it up until a gap absorbs the push. So most steps of a growing
 * tissue move no other polygon, and slot numbers kept across steps (the contact list) stay valid.
 * All slots are laid out anew when those in use would exceed the vertices by more than a quarter,
 * or a push would move more than a sixteenth of them. A step without a change costs one read-only
 * pass over the edges. Slots past r->max_slots end the run (status_exit, out of memory). */
int remodel_apply(Ensemble *e, const Params *P, Remodel *r);

/* Every REMODEL_SORT_EVERY steps, an ensemble of REMODEL_SORT_FROM vertices or more is put in
 * memory in the order of positions (a grown tissue's birth order is scattered in space), so that
 * the contact walk finds nearby vertices near in memory and threads' bands (bands.h) do not
 * share cache lines. Only the order in memory changes (sums may round differently). */
enum { REMODEL_SORT_EVERY = 1000, REMODEL_SORT_FROM = 1 << 10 };

/* Reorders the polygons by their centroids (vertex means): rows of height sqrt(sum |A| / np)
 * from the lowest up, each by x, ties by id; each polygon's room (its free slots) moves with it.
 * Returns 1 if the order changed (every slot is new: Ensemble.layout changed), else 0. The
 * per-vertex forces are not kept. */
int remodel_sort(Ensemble *e);

#endif
