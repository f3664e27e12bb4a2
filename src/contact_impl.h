/* What the two halves of the contact module share (contact.c: the strip walks over the grid or
 * the list, and the step driver; contact_list.c: the list's lifetime, motion budgets, patches and
 * checkpoint section): the work space, the list's layout, and a few helpers. Not for other
 * modules: they use contact.h. */
#ifndef PH_CONTACT_IMPL_H
#define PH_CONTACT_IMPL_H
#include "contact.h"
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* the skin of the neighbour list, in units of the reach: measured best of 0.25, 0.5, 1, 1.5 and 2
 * (a thicker skin means more edges per vertex, a thinner one more rebuilds) */
static const double SKIN = 1.0;

/* A nearby edge of the vertex being evaluated (work list of one thread). */
typedef struct Near {
    int same;       /* 1: the edge belongs to the vertex's polygon */
    int k, k1;      /* the slots of its ends */
    double d2, w;   /* squared distance from the vertex, barycentric coordinate of the closest point */
    double gx, gy;  /* the vector from the vertex to the closest point */
} Near;

/* What a walk over the strips does for each vertex. */
enum { WANT_FORCES, WANT_ENERGY, WANT_NEIGHBORS };

/* A patch's candidate edge k -> next(k), or a vertex k that gets a new record: its cell of the
 * build's walk grid (of the midpoint, or of the vertex), and for an edge, for a cheap first test
 * as in grid_scan_cells, its midpoint relative to that cell's lower left corner and half its length,
 * packed as the grid packs its edges (grid.h): the midpoint from -2 to 3 cells (a vertex may have
 * left the build's box by up to 2 cells; its cell is the clamped one) in 11 bits a coordinate,
 * the half length in 10 bits of half the longest edge the cells allow, rounded up (sel_pack). */
typedef struct Sel { int64_t cell; int k; uint32_t xyr; } Sel;

/* The batched walk over the list (contact.c, strip_batch_walk): a batch of up to BATCH listed
 * edges of whole records, as arrays from index 1 (0 and n + 1 are sentinels for the picking ends,
 * and BATCH_VL - 1 more lanes pad the last vector): the edge's vertex i, its ends k -> k1, whether
 * it is of i's own polygon, and what the passes find. Int64 flags, as wide as a double's lane. */
#if defined(__AVX512F__)
enum { BATCH_VL = 8 };   /* (a vector register's doubles) */
#elif defined(__AVX__)
enum { BATCH_VL = 4 };
#else
enum { BATCH_VL = 2 };
#endif
enum { BATCH = 256, BATCH_ROOM = BATCH + BATCH_VL + 2 };
struct ContactBatch {
    int i[BATCH_ROOM], k[BATCH_ROOM], k1[BATCH_ROOM];
    int own[BATCH_ROOM];   /* 0: an edge of another polygon; else 1, + 2 if i is k's previous vertex, + 4 if k1's next */
    double d2[BATCH_ROOM], w[BATCH_ROOM], gx[BATCH_ROOM], gy[BATCH_ROOM], fx[BATCH_ROOM], fy[BATCH_ROOM];
    long long in[BATCH_ROOM], ends[BATCH_ROOM];   /* within the reach (-1 or 0); picking ends, 0 to 2 */
    int wrap[BATCH], nwrap;                       /* its polygons' last edges (their k1 is not k + 1) */
    int anyown;                                   /* whether an edge is of its vertex's own polygon */
};

/* The work space of one thread. */
struct ContactWork {
    struct ContactBatch *batch;   /* (allocated by its first batched walk) */
    PairRec *rec;           /* the pairs it found (with keep_records) */
    int rec_n, rec_cap;
    Near *near;             /* the nearby edges of its current vertex */
    int near_cap;
    int *cand, cand_cap;    /* the stencil's candidate items of its current vertex */
    int *nb, nb_n, nb_cap;  /* the neighbour count's (polygon, other polygon) pairs */
    Sel *dv, *sel;          /* a patch's vertices that get new records, and the edges around them */
    int dv_n, dv_cap, sel_n, sel_cap;
    int64_t walked;         /* the listed edges its steps' walks over the list took (contact_walked) */
    int64_t within;         /* of them, those within the reach (each_strip's choice of walk) */
    char apart[64];         /* (the next thread's counters on other cache lines: written by one
                             * thread while its neighbour reads its own, a shared line costs a
                             * third of a 2-thread walk) */
};
_Static_assert(sizeof(struct ContactWork) - offsetof(struct ContactWork, apart) >= 64, "threads' work spaces 64 bytes apart");

/* Whether an even strip is done in the current walk: the walk's number once it is (each_strip,
 * whose odd strips wait on it); a cache line each, since neighbouring bands' threads set them. */
struct ContactDone { _Atomic int64_t walk; char pad[64 - sizeof(int64_t)]; };

/* One strip of the list (see contact.h): its n listed edges, each as its vertex i[m] and its edge
 * k[m] (edge_code), room for cap; one allocation, i's cap ints then k's (k = i + cap). */
struct ContactStrip { int *i, *k; size_t n, cap; };

/* Gives strip st room for exactly cap listed edges, keeping its first `used` (<= cap, its cap):
 * one allocation, as a single array's. */
static inline void strip_resize(struct ContactStrip *st, size_t cap, size_t used)
{
    int *b = st->i;
    if (cap < st->cap && used) memmove(b + cap, b + st->cap, used * sizeof *b);   /* (k down, then shrink) */
    b = ph_realloc(b, 2 * cap * sizeof *b);
    if (cap > st->cap && used) memmove(b + cap, b + st->cap, used * sizeof *b);   /* (grow, then k up) */
    st->i = b; st->k = b + cap; st->cap = cap;
}

/* Room for n listed edges in strip st, whose first `used` are kept (the record being written
 * may lie past st->n). */
static inline void strip_reserve(struct ContactStrip *st, size_t n, size_t used)
{
    if (n > st->cap) strip_resize(st, n + n / 4 + 64, used);
}

/* A listed edge k -> k1 of vertex i as the list keeps it: k, or ~k (negative) where the edge is of
 * i's own polygon or is its polygon's last (k1 is not k + 1): the walks look those up. */
static inline int edge_code(int k, int special) { return special ? ~k : k; }
static inline int edge_slot(int code) { return code ^ (code >> 31); }

/* The polygons the list's slot numbers refer to (as at its build or last patch), and the work
 * space of a patch. */
struct ContactSnap {
    int np, nv, cap;            /* polygons, slots in use */
    int64_t next_id;            /* every polygon made later has an id >= this */
    int64_t *id;
    int *start, *count;
    uint32_t *edits;
    int *newstart;              /* per polygon of the snapshot: its start now, or -1: changed or gone */
    int *smap, smap_cap;        /* per slot of the snapshot: its slot now, or -1 */
    int *changed, changed_cap;  /* the polygons that are new or changed */
    unsigned char *mark;        /* per cell of the build's grid: 3 within reach + skin of a changed */
    int mark_cap;               /* polygon's box, 2 next to such a cell, 1 next to those */
    int64_t *hkey;              /* a sparse grid's marks instead: a hash table of the marked cells */
    unsigned char *hval;        /* (key -1: a free place), hcap places (a power of 2) */
    int hcap, sparse;           /* sparse: the marks are in the hash table */
    unsigned char *coarse;      /* per block of 4 x 4 cells (of a grid with marks per cell): whether */
    int coarse_cap, coarse_nx;  /* a cell in it may be marked; coarse_nx blocks a row */
    int64_t *marked;            /* the marked cells */
    int marked_n, marked_cap;
    unsigned char *dirty;       /* per slot: gets a new record (all 0 between patches) */
    int dirty_cap;
    Sel *dv;                    /* those vertices by (cell, slot): strip s has dv[dv_at[s] .. dv_at[s + 1]) */
    int dv_cap, *dv_at, dv_at_cap;
    Sel *sel;                   /* the edges around them by (cell, slot) */
    int sel_cap;
    double *mean;               /* contact_moved's centroid and mean velocity of each polygon */
    int mean_cap;
    double *wander;             /* the patch's new contact.wander */
    int wander_cap;
};

/* The exact test of edge k -> k1 against vertex i at (px, py): the closest point's coordinate w,
 * the vector (*gx, *gy) from the vertex to it and its squared length. */
static inline double project(const Ensemble *e, double px, double py, int k, int k1, double *w, double *gx, double *gy)
{
    double dx = px - e->x[k], dy = py - e->y[k], ex = e->x[k1] - e->x[k], ey = e->y[k1] - e->y[k];
    /* w = (d . e) / |e|^2 clamped to [0, 1], dividing only for a point inside the edge (the
     * same value: the rounded quotient is monotone) */
    double dot = dx * ex + dy * ey, l2 = ex * ex + ey * ey, wt = dot > 0 ? (dot < l2 ? dot / l2 : 1) : 0;
    double rx = dx - wt * ex, ry = dy - wt * ey;
    *w = wt;
    *gx = -rx; *gy = -ry;
    return rx * rx + ry * ry;
}

/* A vertex's record lists its edges in slot order, so that the edges before and after an edge of
 * its list are its neighbours there (the picking ends, contact.c). The sorts are Shell sorts with
 * Ciura's gaps (beyond 701 times 2.25 each): an insertion sort for the few edges a record has,
 * and no quadratic time for the thousands that a very dense input may give a vertex (nor an
 * allocation). */
static const int SORT_GAPS[] = { 17965, 7984, 3548, 1577, 701, 301, 132, 57, 23, 10, 4, 1 };
enum { SORT_NGAPS = sizeof SORT_GAPS / sizeof SORT_GAPS[0] };

/* Defines NAME(T *a, int n), which sorts a[0 .. n) by KEY(a[m]) with those gaps (the same
 * algorithm for a record's edges and for the nearby edges of contact.c). */
#define DEFINE_SLOT_SORT(NAME, T, KEY) \
    static inline void NAME(T *a, int n) \
    { \
        for (int g = n > 16 ? 0 : SORT_NGAPS - 1; g < SORT_NGAPS; g++) \
            for (int gap = SORT_GAPS[g], i = gap; i < n; i++) { \
                T v = a[i]; \
                int b = i; \
                for (; b >= gap && KEY(a[b - gap]) > KEY(v); b -= gap) a[b] = a[b - gap]; \
                a[b] = v; \
            } \
    }
#define SLOT_OF_NEAR(x) ((x).k)

/* Sorts the n edge codes of a record at a by their edges' slots. */
DEFINE_SLOT_SORT(record_sort, int, edge_slot)
DEFINE_SLOT_SORT(near_sort, Near, SLOT_OF_NEAR)

/* The length of the record (the run of listed edges of one vertex) at m of the n edges of vertex
 * array vi. */
static inline size_t record_len(const int *vi, size_t m, size_t n)
{
    size_t e = m + 1;
    while (e < n && vi[e] == vi[m]) e++;
    return e - m;
}

/* The cell of the build's walk grid that holds (x, y), clamped like grid_cell: its key, column
 * and row. */
static inline int64_t list_cell(const Contact *c, double x, double y, int *col, int *row)
{
    double fx = (x - c->list_x0) * c->list_inv, fy = (y - c->list_y0) * c->list_inv;
    int ix = fx < 0 ? 0 : fx >= c->list_nx ? c->list_nx - 1 : (int)fx, iy = fy < 0 ? 0 : fy >= c->list_ny ? c->list_ny - 1 : (int)fy;
    if (col) *col = ix;
    if (row) *row = iy;
    return (int64_t)iy * c->list_nx + ix;
}

/* Room for the list's strip table of n strips (a strip keeps its buffer for the next build). */
void contact_reserve_strips(Contact *c, int n);

/* Work space for every thread; with what != WANT_NEIGHBORS, the records of a new evaluation
 * start empty (a neighbour count leaves those of the step). */
void contact_reserve_threads(Contact *c, int what);

/* The list's snapshot: the polygons its slot numbers now refer to (after a build or a patch). */
void contact_take_snapshot(Contact *c, const Ensemble *e);

/* Patches the list to the polygons of e (see contact.h), refreshing the polygons that have used a
 * fraction `refresh` of their motion budget. Returns 0, or -1 when a rebuild is due instead (too
 * many vertices would get new records, the marks of a sparse grid would visit too many cells, or
 * a vertex lies in a strip that the build's table lacks); the list is unchanged then. */
int contact_patch(Contact *c, const Ensemble *e, const Params *P, double refresh);

#endif
