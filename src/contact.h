/* Contact detection and the pair forces of a step (paper 3.4; docs/model.md 2): which (vertex,
 * edge) pairs lie within the reach, found with the grid (grid.h) or a neighbour list, and their
 * forces by the pair law (pair.h) summed race-free in a fixed order. Everything that needs
 * neighbours (the step's pair forces, fusion, the neighbour count of the output) asks this
 * module.
 *
 * Work per edge, not per vertex pair: the model defines pairs (vertex P, vertex Q), where Q picks
 * the closer of its two edges. Both ends of an edge may pick it, so the code projects P once on
 * each nearby edge and counts how many of the edge's two ends pick it (0, 1 or 2) by comparing
 * with the two adjacent edges, which lie in the same short list.
 *
 * Strips: the edges are binned by their midpoint in cells of side lmax / 2 + reach, so the edges
 * that can reach a vertex have their midpoints in the vertex's 3x3 cells, and the grid rows are
 * cut into strips of GRID_STRIP (four) rows. A vertex P in a strip writes its own force and the
 * reactions on the ends of the edges it touches, which are at most lmax + reach (less than two
 * cells) away from P, so strips two apart never write the same vertex. The even strips run in
 * parallel, then the odd ones; each strip runs in a fixed order. Every force is therefore summed
 * in the same order whatever the number of threads, without atomics or a second pass.
 *
 * Neighbour list (contact_forces_step): while building, each vertex also keeps the edges within
 * the reach plus a skin as thick as the reach. A pair's distance changes by at most twice the
 * largest displacement, so until the vertices have moved half the skin every pair within the
 * reach is in the list, and the steps evaluate it instead of the grid. The strips of the build
 * are kept, so the reactions stay race-free and the sums in a fixed order. Layout: per thread a
 * stream of records (i, n, k_1, k1_1, ..., k_n, k1_n), one for each vertex i with n > 0 edges
 * k -> k1 within the reach plus the skin; strip s is the range [strip_at[s], strip_end[s]) of
 * thread strip_tid[s]'s stream. */
#ifndef PH_CONTACT_H
#define PH_CONTACT_H
#include "ensemble.h"
#include "grid.h"
#include "pair.h"
#include "params.h"
#include <stdio.h>

/* The state of contact detection. A Sim holds it by value, so its fields are visible here, but
 * they are this module's own: other modules use the functions below. */
typedef struct Contact {
    Grid grid;                /* of the last build; released while a list serves (large ensembles) */
    struct ContactWork *work; /* per thread: work lists, pair records, its streams of the list */
    int nthreads;
    int keep_records;         /* keep the pairs of the next evaluation (contact_keep_records) */
    double *u;                /* pair energy owned by each vertex (allocated when requested) */
    int *strip_tid;           /* the list's strips (see above) */
    size_t *strip_at, *strip_end;
    int nstrips, strips_cap;
    int built;                /* a contact_forces_step has built since contact_init / contact_invalidate */
    int calm;                 /* steps since the slots last changed (as seen by contact_forces_step) */
    uint64_t built_layout;    /* Ensemble.layout at that build */
    int list_ok;              /* it built a list: usable while the layout and the reach are unchanged */
    double list_skin, list_reach, list_h, list_extent;   /* its skin and reach; largest |coordinate| */
    double drift;             /* bound on how far any vertex moved since it was built */
    int64_t builds, reuses, plain;   /* steps that built the list, reused it, used the grid only */
} Contact;

void contact_init(Contact *c);
void contact_free(Contact *c);

/* Builds the grid for the current positions and adds all pair forces (conservative, contact
 * damping, friction) to fx, fy. lmax is the longest edge (forces_update_geometry); with
 * energy != NULL the total pair energy is stored there (summed in slot order). */
void contact_forces(Contact *c, Ensemble *e, const Params *P, double lmax, double *energy);

/* The same for a step of a simulation (no energy): reuses the neighbour list of the last call
 * while it is complete (see above), else builds the grid and a new list. When the slots changed
 * (Ensemble.layout) in this step and the one before, it uses the grid only: they will likely
 * change again at once (a large growing tissue remodels somewhere nearly every step), and the
 * list would be wasted. The caller reports every motion of the vertices with contact_moved; any
 * other change of positions must call contact_invalidate. */
void contact_forces_step(Contact *c, Ensemble *e, const Params *P, double lmax);

/* Every vertex moved at most d since the last call (integrate: dt times the largest speed). */
void contact_moved(Contact *c, double d);

/* The next contact_forces_step starts afresh, as after contact_init. */
void contact_invalidate(Contact *c);

/* nb[p] = the number of other polygons q such that a vertex of p and an edge of q interact: the
 * pairs whose forces contact_forces evaluates, but without evaluating them (fx, fy untouched).
 * From the list if it is usable, else from a new grid (released again for large ensembles). The
 * list and the state of the next step are unchanged; the count is the same at any thread count.
 * For the neighbour count of a frame. */
void contact_count_neighbors(Contact *c, const Ensemble *e, const Params *P, double lmax, int *nb);

/* Whether the next evaluations keep their pairs as records (fusion looks at a step's pairs). */
void contact_keep_records(Contact *c, int on);

/* The pair records of the last evaluation, in parts 0 .. contact_record_parts(c) - 1 (one per
 * thread, in no particular order): part `part` has *n of them. */
int contact_record_parts(const Contact *c);
const PairRec *contact_records(const Contact *c, int part, int *n);

/* How many steps built the list, reused it, and used the grid only. */
void contact_counts(const Contact *c, int64_t *builds, int64_t *reuses, int64_t *plain);

/* Whether the grid's memory is held (tests of memory use: a serving list frees it). */
int contact_holds_grid(const Contact *c);

/* Checkpoints carry the neighbour list, so that a continued run takes the same path. The state
 * of the list for the next step: 0 (the slots changed since the last build, or none yet),
 * 1 (unchanged, no list) or 2 (unchanged, with a list). */
int contact_saved_state(const Contact *c, const Ensemble *e);

/* Writes the list section of a checkpoint: int32 state, int32 calm, and for state 2 the list's
 * skin, reach, h, extent and drift (doubles), int32 strips, then per strip an int64 length and
 * its ints. Each piece goes through put(out, bytes, n), the checkpoint's writer (which checksums
 * it and keeps the first error). */
void contact_save(const Contact *c, const Ensemble *e, void (*put)(void *out, const void *d, size_t n), void *out);

/* Reads that section into c for the ensemble e just read; at most `left` bytes of it remain in
 * the file. Returns 0, or -1 when the
 * section is truncated or corrupt or does not fit e (then c starts afresh). */
int contact_load(Contact *c, const Ensemble *e, FILE *f, size_t left);

#endif
