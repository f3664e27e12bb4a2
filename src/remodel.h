/* Remodeling (paper 3.1, docs/model.md 4): every step, before the forces, twisted edges are cut
 * out (non-rigid polygons of more than 5 vertices; remodel.c), edges shorter than lmin collapsed
 * (non-rigid polygons of more than 3 vertices) and edges longer than lmax bisected until every
 * piece is at most lmax (all polygons), so that edge lengths stay in [lmin, lmax]. */
#ifndef PH_REMODEL_H
#define PH_REMODEL_H
#include "ensemble.h"
#include "params.h"

/* Work space of remodeling. The vertex arrays are rewritten in place; only the new vertex lists
 * of the polygons that change are built aside (in `side`), so the extra memory is about 40 bytes
 * per vertex of the changed polygons (with 50 % slack) and 88 bytes per vertex of the largest
 * polygon per thread, not a second copy of every array. */
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

/* The pieces refinement cuts an edge of length l into: 2^k, the least power of two with
 * l <= 2^k lmax (1 for l <= lmax; a double, so that any l is counted). */
static inline double remodel_pieces(double l, double lmax)
{
    double n = 1;
    while (l > n * lmax && n < 1e300) n *= 2;
    return n;
}

/* Room to grow that a polygon of n vertices gets when all slots are laid out anew. */
#define REMODEL_ROOM(n) ((n) / 32 + 1)

/* Remodels every polygon; returns the vertices added minus removed. The slots stay in polygon
 * order, not necessarily contiguous: a polygon that changes is written back in its own slots when
 * it fits below the next polygon's (in the gaps that divisions, removals and shrinking leave, and
 * the REMODEL_ROOM each gets when all are laid out anew); one that does not fit pushes the
 * polygons after it up until a gap absorbs the push. So most steps of a growing tissue move no
 * other polygon, and slot numbers kept across steps (the contact list) stay valid. All slots are
 * laid out anew when those in use would exceed the vertices by more than a quarter (+ 64) or a
 * push would move more than a sixteenth of them (+ 64). O(vertices) only when a polygon changed;
 * otherwise one read-only pass over the edge lengths. Slots past r->max_slots end the run
 * (status_exit, out of memory), naming the first polygon that would end past it. */
int remodel_apply(Ensemble *e, const Params *P, Remodel *r);

/* Polygons are kept in memory in the order of their positions, so that the contact walk, which
 * goes through space strip by strip, finds nearby vertices near in memory (a grown tissue's birth
 * order is scattered in space), and so that one thread's band of polygons (bands.h) does not
 * share cache lines with another's: every REMODEL_SORT_EVERY steps, an ensemble of
 * REMODEL_SORT_FROM vertices or more is sorted (remodel_sort). Only the order in memory changes,
 * so the physics is that of any order (sums may round differently). */
enum { REMODEL_SORT_EVERY = 1000, REMODEL_SORT_FROM = 1 << 10 };

/* Reorders the polygons by their centroids (vertex means): rows of height sqrt(sum |A| / np)
 * from the lowest centroid up, each by x, ties by id; each polygon's free slots after it (its
 * room) move with it, so no slots are added. Returns 1 if the order changed (then every slot is
 * new: Ensemble.layout changed, and slot numbers kept across steps are void), else 0. The
 * per-vertex forces are not kept. */
int remodel_sort(Ensemble *e);

#endif
