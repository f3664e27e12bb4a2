/* Pair interactions between hoop segments (paper eqs. 3-5, 16-18, 24-28; SPEC 2) and the contact
 * grid that finds them (paper 3.4). This module owns the grid: everything that needs neighbours
 * (pair forces, the neighbour count of the output, fusion) asks it.
 *
 * Work per edge, not per vertex pair: the SPEC defines pairs (vertex P, vertex Q), where Q picks
 * the closer of its two edges. Both ends of an edge may pick it, so the code projects P once on
 * each nearby edge and counts how many of the edge's two ends pick it (0, 1 or 2) by comparing
 * with the two adjacent edges, which lie in the same short list.
 *
 * The grid: edges are binned by their midpoint, in square cells of side lmax / 2 + reach, so the
 * edges that can reach a vertex have their midpoints in the vertex's 3x3 cells.
 *
 * Determinism without atomics or a second pass: the grid rows are cut into strips of four rows.
 * A vertex P in a strip writes its own force and the reactions on the ends of the edges it
 * touches, which are at most lmax + reach (less than two cells) away from P, so strips two apart
 * never write the same vertex. The even strips run in parallel, then the odd ones; each strip runs
 * in a fixed order. Every force is therefore summed in the same order whatever the number of
 * threads.
 *
 * Neighbour list (contact_forces_step): while building, each vertex also keeps the edges within
 * the reach plus a skin as thick as the reach. A pair's distance changes by at most twice the
 * largest displacement, so until the vertices have moved half the skin every pair within the
 * reach is in the list, and the steps evaluate it instead of the grid. The strips of the build
 * are kept, so the reactions stay race-free and the sums in a fixed order. */
#ifndef PH_CONTACT_H
#define PH_CONTACT_H
#include "ensemble.h"
#include "params.h"

/* One interacting (vertex, edge) pair, kept when Contact.keep_records is set: vertex i, edge
 * k -> k1 with closest point (1 - w) r_k + w r_k1; ends = which ends picked the edge
 * (bit 0: k, bit 1: k1), so the SPEC's (P, Q) pairs are (i, k) and/or (i, k1). */
typedef struct PairRec {
    int i, k, k1, ends;
    double w;
} PairRec;

/* A nearby edge of the vertex being evaluated (work list of one thread). */
typedef struct Near {
    int same;       /* 1: the edge belongs to the vertex's polygon */
    int k, k1;      /* the slots of its ends */
    double d2, w;   /* squared distance from the vertex, barycentric coordinate of the closest point */
} Near;

/* An edge in the grid: its midpoint relative to the grid origin and half its length (single
 * precision, for a cheap first test) and the slots k, k1 of its ends. */
typedef struct GridScan { float x, y, r; int k, k1; } GridScan;

typedef struct Contact {
    /* grid: square cells of side cs from (x0, y0), nx * ny of them */
    double x0, y0, cs, inv;   /* (inv = 1 / cs) */
    int nx, ny, ncell_cap, nv_cap;
    int *cell_start;       /* edges of cell c: gs[cell_start[c] .. cell_start[c+1]) */
    GridScan *gs;          /* the edges sorted by the cell of their midpoint, in slot order within
                            * a cell, so that a stencil is scanned contiguously */
    double scan_margin;    /* covers the rounding of the single-precision test */
    int *cell;             /* sort keys by slot: the cell of each vertex, then of each edge's midpoint */
    int *vitems;           /* the vertex slots sorted by the cell of their position */
    int *vstrip, vstrip_cap;   /* the vertices of strip s: vitems[vstrip[s] .. vstrip[s + 1]) */
    double *u;             /* pair energy owned by each vertex (allocated when requested) */
    int keep_records;      /* set by the caller: keep the pairs of the next evaluation */
    int nthreads;
    PairRec **rec;         /* per thread: the pairs found by that thread, in no particular order */
    int *rec_n, *rec_cap;
    Near **near;           /* per thread work lists: nearby edges, and candidate items */
    int *near_cap;
    int **cand, *cand_cap;
    int *scount, *tmp;     /* work space of the parallel sort: counts per thread and strip, slots */
    size_t scount_cap;
    int tmp_cap;

    /* the neighbour list: per thread a stream of records (i, n, k_1, k1_1, ..., k_n, k1_n), one
     * for each vertex i with n > 0 edges k -> k1 within the reach plus the skin; strip s is
     * lst[strip_tid[s]][strip_at[s] .. strip_end[s]) */
    int **lst;
    size_t *lst_n, *lst_cap;
    int *strip_tid;
    size_t *strip_at, *strip_end;
    int nstrips, strips_cap;
    int built;             /* a contact_forces_step has built since contact_init / contact_invalidate */
    int calm;              /* steps since the slots last changed (as seen by contact_forces_step) */
    uint64_t built_layout; /* Ensemble.layout at that build */
    int list_ok;           /* it built a list: usable while the layout and the reach are unchanged */
    double list_skin, list_cutoff, list_h, list_extent;   /* its skin and reach; largest |coordinate| */
    double drift;          /* bound on how far any vertex moved since it was built */
    int64_t builds, reuses, plain;   /* steps that built the list, reused it, used the grid only */
} Contact;

void contact_init(Contact *c);
void contact_free(Contact *c);

/* Bins all vertices, and all edges by their midpoints, into square cells of side >= cell_size
 * (larger if the bounding box would need more than CELLS_PER_VERTEX cells per vertex, so memory
 * stays bounded by the vertex count: 4, or 2 from 65,536 vertices on, where memory matters more
 * than the longer scans of larger cells in a sparse ensemble). */
enum { CELLS_PER_VERTEX = 4 };
void contact_grid(Contact *c, const Ensemble *e, double cell_size);

/* Builds the grid for the current positions and adds all pair forces (conservative, contact
 * damping, friction) to fx, fy. lmax is the longest edge (forces_update_geometry); with
 * energy != NULL the total pair energy is stored there (summed in slot order). */
void contact_forces(Contact *c, Ensemble *e, const Params *P, double lmax, double *energy);

/* The same for a step of a simulation (no energy): reuses the neighbour list of the last call
 * while it is complete (see above), else builds the grid and a new list. When the slots changed
 * (Ensemble.layout) in this step and the one before, it uses the grid only: they will likely
 * change again at once (a large growing tissue remodels somewhere nearly every step), and the
 * list would be wasted. The caller reports
 * every motion of the vertices with contact_moved; any other change of positions must call
 * contact_invalidate. */
void contact_forces_step(Contact *c, Ensemble *e, const Params *P, double lmax);

/* The pair forces (and records) of the current state, without changing the list: from the list
 * if it is usable, else from a new grid, which it frees again. For the neighbour count of a
 * frame. */
void contact_forces_now(Contact *c, Ensemble *e, const Params *P, double lmax);

/* Every vertex moved at most d since the last call (integrate: dt times the largest speed). */
void contact_moved(Contact *c, double d);

/* The next contact_forces_step starts afresh, as after contact_init. */
void contact_invalidate(Contact *c);

/* For checkpoints, so that a continued run takes the same path: the state of the list for the
 * next step, 0 (the slots changed since the last build, or none yet), 1 (unchanged, no list) or
 * 2 (unchanged, with a list); and setting it and Contact.calm in a new Contact: states 0 and 1
 * with nstrips = 0, state 2 with the saved list (nstrips strips, strip s in data[at[s] .. at[s + 1]), d = skin,
 * cutoff, h, extent, drift), which it takes. Returns 0, or -1 (data freed) if the list does not
 * fit e. */
int contact_saved_state(const Contact *c, const Ensemble *e);
int contact_restore(Contact *c, const Ensemble *e, int state, int calm, int nstrips, int *data, const size_t *at, const double d[5]);

/* The SPEC's definition, pair by pair, for tests: evaluates the pair (vertex i, the closer of the
 * two edges incident on vertex q); if they interact, returns 1, stores the edge in r (ends = the
 * bit of q), the force on i in (*fx, *fy) and adds the pair energy to *u (if u). */
int contact_pair(const Ensemble *e, const Params *P, int i, int q, PairRec *r, double *fx, double *fy, double *u);

/* After contact_forces with keep_records: nb[p] = number of other polygons with a vertex-edge pair of p within the
 * reach (params_cutoff: h + sh + ss, or h without adhesion). */
void contact_neighbors(const Contact *c, const Ensemble *e, int *nb);

/* Frees the records (a frame's neighbour count needs them once; fusion every step). */
void contact_drop_records(Contact *c);

/* Finds two different polygons whose edges cross, using the grid (O(vertices)). Returns 1 and
 * the lower polygon indices in *a < *b of the first such pair in slot order, or 0. */
int contact_crossing(Contact *c, const Ensemble *e, double lmax, int *a, int *b);

/* The pair energy u(s) of SPEC 2 / paper eq. 4, shifted so that it vanishes beyond the reach
 * (same = 1: within one polygon, repulsion only), and its derivative u'(s) (eq. 5). */
double contact_u(const Params *P, double s, int same);
double contact_du(const Params *P, double s, int same);

#endif
