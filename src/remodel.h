/* Remodeling (paper 3.1, docs/model.md 4): every step, before the forces, twisted edges are cut
 * out (non-rigid polygons with more than 5 vertices; remodel.c), edges shorter than lmin are
 * collapsed (non-rigid polygons with more than 3 vertices) and edges longer than lmax are
 * bisected until every piece is at most lmax (all polygons), so that edge lengths stay in [lmin, lmax]. */
#ifndef PH_REMODEL_H
#define PH_REMODEL_H
#include "ensemble.h"
#include "params.h"

/* Work space of remodeling. The vertex arrays are rewritten in place: only the new vertex lists
 * of the polygons that change are built aside (in `side`), so the memory needed is the ensemble
 * plus about 40 bytes per vertex of the changed polygons (kept with 50 % slack for the next
 * steps) and 88 bytes per vertex of the largest polygon per thread, not a second copy of every
 * array. */
typedef struct Remodel {
    int *newstart, *newcount, *sideat, npcap;   /* per polygon: new first slot, new count (-1:
                                                 * unchanged), first slot in side */
    double *side;                               /* x, y, vx, vy, l0 of the changed polygons, */
    size_t side_cap;                            /* side_cap slots each */
    double **scratch;                           /* per thread: the sweeps of one polygon */
    size_t *scratch_cap;
    int nscratch;
    int64_t twists;                             /* twisted edges cut out (remodel.c) since the run began */
    int64_t max_slots;                          /* the most vertex slots, INT32_MAX (indices are int;
                                                 * tests lower it): past it remodel_apply ends the run */
} Remodel;

void remodel_init(Remodel *r);
void remodel_free(Remodel *r);

/* The pieces that refinement cuts an edge of length l into (remodel.c): 2^k, the least power of
 * two with l <= 2^k lmax (1 for l <= lmax; as a double, so that any l is counted). */
static inline double remodel_pieces(double l, double lmax)
{
    double n = 1;
    while (l > n * lmax && n < 1e300) n *= 2;
    return n;
}

/* Room to grow that a polygon of n vertices gets when all slots are laid out anew. */
#define REMODEL_ROOM(n) ((n) / 32 + 1)

/* Remodels every polygon. The slots stay in polygon order, but not necessarily contiguous: a
 * polygon that changes is written back in its own slots when it fits below the next polygon's
 * (the gaps that divisions, removals and shrinking leave, and the room of REMODEL_ROOM slots
 * each polygon gets when all are laid out anew); one that does not fit pushes the polygons after
 * it up until a gap absorbs the push. So most steps of a growing tissue move no other polygon,
 * and slot numbers kept across steps (the contact list) stay valid. All slots are laid out anew,
 * contiguously with that room, when the slots in use would exceed the vertices by more than a
 * quarter (+ 64) or a push would move more than a sixteenth of them (+ 64). Returns the number of vertices added minus removed. Costs O(vertices) only when a polygon
 * changed; otherwise one read-only pass over the edge lengths. Slots past r->max_slots end the
 * run (status_exit, out of memory), naming the first polygon that would end past it. */
int remodel_apply(Ensemble *e, const Params *P, Remodel *r);

/* Polygons are kept in memory in the order of their positions, so that the contact walk, which
 * goes through space strip by strip, finds nearby vertices near in memory (a grown tissue's
 * birth order is scattered: the walk ran 1.4 times slower per vertex in it), and so that one
 * thread's band of polygons (bands.h) does not share cache lines with another's (the default
 * growth on 2 threads: 1.08 times as fast as on 1 in birth order, 1.25 times sorted from 1,024
 * vertices on): every REMODEL_SORT_EVERY steps, an ensemble of REMODEL_SORT_FROM vertices or
 * more is ordered by rows of the mean polygon's size, each row by x (remodel_sort). Only the
 * order in memory changes, so the physics is that of any order (sums may round differently). */
enum { REMODEL_SORT_EVERY = 1000, REMODEL_SORT_FROM = 1 << 10 };

/* Reorders the polygons by their centroids (vertex means): rows of height sqrt(sum |A| / np)
 * from the lowest centroid up, each by x, ties by id; each polygon's vertices move with the free
 * slots after them (its room), so no slots are added. Returns 1 if the order changed (the slots
 * of every polygon are new then: Ensemble.layout changed, and slot numbers kept across steps are
 * void), 0 if it was already so (nothing changed). The per-vertex forces are not kept. */
int remodel_sort(Ensemble *e);

#endif
