/* The state of a simulation: polygons ("hoops") and their vertices.
 *
 * Layout: vertex data live in flat arrays (structure of arrays). Polygon p owns the slots
 * [start[p], start[p] + count[p]) in counter-clockwise order; edge i runs from vertex i to the
 * next vertex of the same polygon and l0[i] is its rest length. Topological changes may leave
 * unused slots between polygons or append polygons at the end (`gaps` is then set), but the
 * slots always stay in polygon order (start[p] + count[p] <= start[p + 1]); the next remodeling
 * pass writes all polygons contiguously again, in place. Nothing keeps a pointer into these
 * arrays across a step: they move when they grow.
 *
 * Polygons carry a stable id (never reused), the id of their parent and their birth time. */
#ifndef PH_ENSEMBLE_H
#define PH_ENSEMBLE_H
#include <stdint.h>
#include <stddef.h>

typedef struct Ensemble {
    /* vertices: nv_used slots in use (including gaps), nv_cap allocated */
    int nv_used, nv_cap;
    double *x, *y;     /* position */
    double *vx, *vy;   /* velocity */
    double *fx, *fy;   /* force = acceleration (m = 1) of the current step */
    double *l0;        /* rest length of the edge that follows the vertex */
    int *pid;          /* polygon that owns the slot */

    /* polygons */
    int np, np_cap;
    int *start, *count;
    double *A;         /* current area (geometry pass) */
    double *L;         /* current perimeter (geometry pass) */
    double *A0;        /* target area */
    double *Amax;      /* division area */
    double *alpha;     /* growth rate dA0/dt */
    double *birth;     /* time of birth */
    int64_t *id, *parent;
    int *gen;          /* generation: 0 for input polygons, mother's + 1 for the products of events */
    signed char *phase;    /* +1 or -1 */
    unsigned char *rigid;  /* 1: never moves (SPEC section 6) */

    int gaps;          /* 1 when the vertex slots are not contiguous in polygon order */
    uint64_t layout;   /* changes whenever slots are reassigned (polygons added, removed, remodeled):
                        * whoever keeps slot numbers across steps (the contact list) compares it */
    int64_t next_id;   /* next polygon id to hand out */
    double t;          /* simulated time */
    int64_t step;      /* steps done */
    uint64_t seed;     /* random stream (rng.h): seed and the number of draws taken */
    uint64_t draws;
} Ensemble;

/* realloc that ends the program (status 1) when memory runs out: there is no sensible way on. */
void *ph_realloc(void *p, size_t size);

void ensemble_init(Ensemble *e, uint64_t seed);
void ensemble_free(Ensemble *e);

/* Ensures room for nv_used + nv more vertex slots and one more polygon (may move the arrays). */
void ensemble_reserve(Ensemble *e, int nv, int np);

/* Appends a polygon with n vertices (rest lengths = current edge lengths, zero velocity,
 * A0 = its area, id from next_id) and returns its index. Amax and alpha are set by the caller. */
int ensemble_add_polygon(Ensemble *e, int n, const double *x, const double *y, int phase, int rigid);

/* Appends a polygon with the given vertex data (velocities and rest lengths included; A0 = its
 * area, a new id, no parent, born now) and returns its index. */
int ensemble_push_polygon(Ensemble *e, int n, const double *x, const double *y, const double *vx,
                          const double *vy, const double *l0);

/* Removes the polygons with keep[p] == 0, keeping the order of the others. */
void ensemble_keep(Ensemble *e, const unsigned char *keep);

/* Index of the vertex after / before slot i (cyclic within its polygon). */
static inline int ens_next(const Ensemble *e, int i)
{
    int p = e->pid[i];
    return i + 1 == e->start[p] + e->count[p] ? e->start[p] : i + 1;
}
static inline int ens_prev(const Ensemble *e, int i)
{
    int p = e->pid[i];
    return i == e->start[p] ? e->start[p] + e->count[p] - 1 : i - 1;
}

/* Checks every polygon: at least 3 vertices, slots in polygon order and owned by it, finite
 * positions, counter-clockwise with positive area, no two non-adjacent edges crossing. Returns 0,
 * or -1 with the first problem in msg. O(sum of squared polygon sizes): for tests and checked
 * runs. */
int ensemble_validate(const Ensemble *e, char *msg, size_t len);

/* Total number of vertices in polygons (excludes gaps). */
int ensemble_vertex_count(const Ensemble *e);

#endif
