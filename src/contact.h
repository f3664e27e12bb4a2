/* Pair interactions between hoop segments (paper eqs. 3-5, 16-18, 24-28; SPEC 2) and the contact
 * grid that finds them (paper 3.4). This module owns the grid: everything that needs neighbours
 * (pair forces, the neighbour count of the output) asks it.
 *
 * Determinism without atomics: every pair (vertex P, edge k-k1) is evaluated by the thread that
 * owns P, which adds the force on P to P and stores a record (k, k1, w, F). A second pass lets
 * every vertex collect the reactions -(1-w) F and -w F from the records of the vertices in its
 * 3x3 cells, in grid order. Each vertex's force is written by one thread only and summed in an
 * order that does not depend on the thread count. */
#ifndef PH_CONTACT_H
#define PH_CONTACT_H
#include "ensemble.h"
#include "params.h"

typedef struct PairRec {
    int q;          /* the vertex whose incident edges were searched */
    int k, k1;      /* the edge chosen (k1 follows k); the closest point is (1-w) r_k + w r_k1 */
    double w;
    double fx, fy;  /* force on the vertex P that owns the record */
} PairRec;

typedef struct Contact {
    /* grid: square cells of side cs from (x0, y0), nx * ny of them */
    double x0, y0, cs;
    int nx, ny, ncell_cap, nv_cap;
    int *cell_start;       /* items of cell c: items[cell_start[c] .. cell_start[c+1]) */
    int *items;            /* vertex slots sorted by cell, in slot order within a cell */
    int *cell;             /* cell of each vertex slot */
    /* in the order of items, for a contiguous first test of each candidate: position, longest
     * edge at the vertex, polygon, and number of records of the last evaluation */
    double *gx, *gy, *gl;
    int *gp, *gn;
    /* pair records of the last evaluation: those of vertex i are buf[tid[i]][off[i] ..+ n[i]] */
    int *rec_off, *rec_n;
    unsigned char *rec_tid;
    double *u;             /* pair energy owned by each vertex (when requested) */
    int nthreads;
    PairRec **buf;
    int *buf_n, *buf_cap;
} Contact;

void contact_init(Contact *c);
void contact_free(Contact *c);

/* Bins all vertices into square cells of side >= cell_size (larger if the bounding box would
 * need more than 4 cells per vertex, so memory stays bounded by the vertex count). */
void contact_grid(Contact *c, const Ensemble *e, double cell_size);

/* Builds the grid for the current positions and adds all pair forces (conservative, contact
 * damping, friction) to fx, fy. lmax is the longest edge (forces_update_geometry); with
 * energy != NULL the total pair energy is stored there (summed in slot order). */
void contact_forces(Contact *c, Ensemble *e, const Params *P, double lmax, double *energy);

/* Evaluates the pair (vertex i, the closer of the two edges incident on vertex q), fills r and
 * adds the pair energy to *u (if u). Returns 0 if they do not interact (SPEC 2). */
int contact_pair(const Ensemble *e, const Params *P, int i, int q, PairRec *r, double *u);

/* After contact_forces: nb[p] = number of other polygons with a vertex-edge pair of p within the
 * reach (params_cutoff: h + sh + ss, or h without adhesion). */
void contact_neighbors(const Contact *c, const Ensemble *e, int *nb);

/* Finds two different polygons whose edges cross, using the grid (O(vertices)). Returns 1 and
 * the lower polygon indices in *a < *b of the first such pair in slot order, or 0. */
int contact_crossing(Contact *c, const Ensemble *e, double lmax, int *a, int *b);

/* The pair energy u(s) of SPEC 2 / paper eq. 4, shifted so that it vanishes beyond the reach
 * (same = 1: within one polygon, repulsion only), and its derivative u'(s) (eq. 5). */
double contact_u(const Params *P, double s, int same);
double contact_du(const Params *P, double s, int same);

#endif
