/* The contact grid (paper 3.4, docs/model.md 2): edges binned into square cells and sorted by
 * cell, so that a search scans a 3x3 stencil of cells in contiguous memory. Built anew for each
 * use: by the contact module, the input's overlap check and the frame check (grid_crossing). Only
 * occupied cells are stored, so it costs O(vertices) whatever the extent.
 *
 * Search cells: side cs from (x0, y0); cell (ix, iy) has the key iy nx + ix. The edges (edge k:
 * slot k -> next(k)) are sorted into gs by the key of their midpoint's cell, in slot order within
 * a cell; entry m holds gs[start[m] .. start[m + 1]). A dense grid has an entry per cell (entry =
 * key), a sparse one per occupied cell (its key in ckey; grid_lower). Either way the occupied
 * cells of a stencil row are consecutive entries: one range of edges (grid_rows).
 *
 * Walk cells: the vertex slots sorted by walk cell into vitems, the walk rows cut into strips of
 * GRID_STRIP rows, the contact module's unit of parallel work. The walk cells are the requested
 * cells enlarged to at most GRID_CELLS_PER_VERTEX per vertex if that takes at most
 * GRID_WALK_ENLARGE times their side, else the search cells; the walk fixes the order in which
 * pair forces are summed, so this rule is part of the results. Strip s of the table holds
 * vitems[vstrip[s] .. vstrip[s + 1]) and is real strip strip_id[s]: every strip of a dense walk;
 * of a sparse one the occupied strips, their neighbours (where a vertex may be at a later patch of
 * the contact list) and fillers that give strip_id[s] the parity of s, so that strips two apart in
 * the table are at least two real strips apart.
 *
 * Memory: 8 bytes per edge, 4 per vertex, 4 per entry (8 or 12 if sparse); the sorts keep no key
 * per item. */
#ifndef PH_GRID_H
#define PH_GRID_H
#include "ensemble.h"
#include <math.h>

/* grid rows per strip: the contact module runs strips two apart at once (see contact.h) */
enum { GRID_STRIP = 4 };

/* From this many vertex slots on, memory counts more than a little time: the grid sorts in
 * parallel, keeps fewer dense cells and is released while the contact list serves, and a patch
 * of the list renews at most an eighth of the vertices. */
enum { GRID_LARGE = 1 << 16 };

/* Cells per vertex that bound the walk cells (+16; half that in a large ensemble); a grid of up
 * to 4 times as many cells (below GRID_LARGE) is dense. */
enum { GRID_CELLS_PER_VERTEX = 4 };
#define GRID_WALK_ENLARGE 2.0

/* A sparse grid of at most this many cells per item finds an entry by occupancy bits. */
enum { GRID_OCC_CELLS = 16 };

/* Cells across and up stay below this; beyond it the cells grow. */
#define GRID_MAX_CELLS 1073741824.0

/* An edge (or a piece of one) in 8 bytes, for a cheap first test: in xyr its midpoint in its cell
 * in steps of qxy = cs / 2048 (11 bits each) and its half length in steps of qr = the longest /
 * 1023, rounded up (10 bits); k, the slot of its first end. */
typedef struct GridScan { uint32_t xyr; int k; } GridScan;

typedef struct Grid {
    double x0, y0, cs, inv;   /* origin and side of the search cells (inv = 1 / cs) */
    int nx, ny;               /* search cells across and up */
    int dense;                /* 1: an entry per cell (entry = key); 0: per occupied cell */
    int nentries;             /* entries of start, less one */
    int64_t *ckey;            /* sparse: the key of each entry, increasing; or, where every key */
    uint32_t *ckey32;         /* is below 2^32, ckey32 instead (ckey NULL) */
    uint64_t *occ;            /* sparse, at most GRID_OCC_CELLS cells per item (occ_words > 0): */
    int *occ_rank;            /* bit c % 64 of occ[c / 64] set if cell c is occupied, and the */
    size_t occ_words, occ_cap;   /* entries below word w's first cell in occ_rank[w] */
    int *start;               /* edges of entry m: gs[start[m] .. start[m + 1]) */
    GridScan *gs;             /* the edges by cell of their midpoint, slot order within a cell */
    double scan_margin;       /* covers gs's steps and the rounding of the single-precision test */
    double qxy, qr;           /* gs's steps (see GridScan) */
    int nitems;               /* items: an edge, or the pieces of an edge longer than lpiece */
    int pieces;               /* whether some edge is in pieces */
    double lpiece;
    int *item, *piece;        /* with pieces, per item: its slot (an edge's first end) and piece */
    int *poff;                /* per polygon: its first vertex item; then its first edge item */
    size_t poff_cap;
    double wcs;               /* walk cells: side (>= cs), wnx * wny of them from (x0, y0) */
    int wnx, wny;
    int *vitems;              /* the vertex slots sorted by walk cell */
    int nstrips;              /* the strip table (above) */
    int *vstrip, *strip_id;
    size_t start_cap, ckey_cap, strip_cap;
    int item_cap, vcap;       /* the room of gs (and item, piece) and of vitems */
    int *scount;              /* the sorts' work space (grid.c): counts per thread and strip, */
    int *bat, *bid, *nocc;    /* the buckets' first items, strips and occupied cells, and a */
    void *sbuf;               /* small grid's buffer of the largest strip (a large grid's threads */
    size_t scount_cap, bat_cap, bid_cap, nocc_cap, sbuf_cap;   /* allocate their own) */
} Grid;

void grid_init(Grid *g);
void grid_free(Grid *g);

/* Bins all edges by their midpoints into cells of side cell_size, and with walk, the vertices
 * into walk cells and strips. An edge longer than lpiece is binned in pieces (grid_piece), so that
 * one long edge (a division's cut before remodeling) does not make every cell as large; unless
 * that makes more than 8 pieces per vertex (a vertex escaped far away): then the cells grow by
 * the longest edge's excess over lpiece instead. */
void grid_build(Grid *g, const Ensemble *e, double cell_size, double lpiece, int walk);

/* The pieces edge (ex, ey) is binned as: 1, or enough to make each at most lpiece long. */
static inline int grid_pieces(double ex, double ey, double lpiece)
{
    double l2 = ex * ex + ey * ey;
    if (!(l2 > lpiece * lpiece)) return 1;
    double n = ceil(sqrt(l2) / lpiece);
    return n < 1e9 ? (int)n : 1000000000;
}

/* One coordinate of the midpoint of piece q of n of the edge from coordinate a to b. */
static inline double grid_piece_mid(double a, double b, int q, int n)
{
    return n == 1 ? 0.5 * (a + b) : a + (q + 0.5) / n * (b - a);
}

/* The midpoint and half length of piece q of n of the edge i -> j. */
static inline void grid_piece(const Ensemble *e, int i, int j, int q, int n, double *mx,
                              double *my, double *r)
{
    double ex = e->x[j] - e->x[i], ey = e->y[j] - e->y[i];
    *mx = grid_piece_mid(e->x[i], e->x[j], q, n);
    *my = grid_piece_mid(e->y[i], e->y[j], q, n);
    *r = 0.5 * sqrt(ex * ex + ey * ey) / n;
}

/* The row of the search cells that holds height y (clamped as grid_cell). */
static inline int grid_row(const Grid *g, double y)
{
    double fy = (y - g->y0) * g->inv;
    return fy < 0 ? 0 : fy >= g->ny ? g->ny - 1 : (int)fy;
}

/* The search cell (*ix, *iy) of point (x, y) and its key: the one expression that the sort and
 * the scans share, so they agree (clamped against rounding at the edges). */
static inline int64_t grid_cell(const Grid *g, double x, double y, int *ix, int *iy)
{
    double fx = (x - g->x0) * g->inv;
    int cx = fx < 0 ? 0 : fx >= g->nx ? g->nx - 1 : (int)fx, cy = grid_row(g, y);
    *ix = cx; *iy = cy;
    return (int64_t)cy * g->nx + cx;
}

/* The key of entry m. */
static inline int64_t grid_key(const Grid *g, int m)
{
    return g->dense ? m : g->ckey32 ? (int64_t)g->ckey32[m] : g->ckey[m];
}

/* The first entry whose key is >= key: a sparse grid counts the occupied cells below key in its
 * occupancy bits, or else gallops from entry `from` (an earlier answer: a nearby key costs a few
 * comparisons). */
static inline int grid_lower(const Grid *g, int64_t key, int from)
{
    if (g->dense) return (int)key;
    if (g->occ_words) {
        if (key >= (int64_t)g->nx * g->ny) return g->nentries;
        return g->occ_rank[key >> 6] +
               __builtin_popcountll(g->occ[key >> 6] & ((UINT64_C(1) << (key & 63)) - 1));
    }
    int n = g->nentries, lo, hi, step = 1;
    from = from < n ? from : n;
    if (from < n && grid_key(g, from) < key) {   /* (after from: entries before lo are below key) */
        lo = from + 1;
        while (lo + step - 1 < n && grid_key(g, lo + step - 1) < key) { lo += step; step *= 2; }
        hi = lo + step - 1 < n ? lo + step - 1 : n;
    } else {   /* (at or before from: the answer is at most hi) */
        hi = from;
        while (hi - step >= 0 && grid_key(g, hi - step) >= key) { hi -= step; step *= 2; }
        lo = hi - step + 1 > 0 ? hi - step + 1 : 0;
    }
    while (lo < hi) {
        int m = lo + (hi - lo) / 2;
        if (grid_key(g, m) < key) lo = m + 1; else hi = m;
    }
    return lo;
}

/* The occupied rows of the 3x3 stencil of search cell (ix, iy), clipped to the grid: row
 * iy + dy[r] (r < n) has the entries [b[r], e[r]), whose columns are grid_key - base[r]. */
typedef struct GridRows { int n, b[3], e[3], dy[3]; int64_t base[3]; } GridRows;

/* Fills r for cell (ix, iy) and returns how many edges its stencil holds. hint (3 ints, or
 * NULL): where the last search of each row ended, for successive cells near each other. */
static inline int grid_rows(const Grid *g, int ix, int iy, int *hint, GridRows *r)
{
    int x0 = ix > 0 ? ix - 1 : 0, x1 = ix + 1 < g->nx ? ix + 1 : ix, n = 0, items = 0;
    for (int dy = -1; dy <= 1; dy++) {
        if (iy + dy < 0 || iy + dy >= g->ny) continue;
        int64_t base = (int64_t)(iy + dy) * g->nx;
        int b = grid_lower(g, base + x0, hint ? hint[dy + 1] : 0),
            e = grid_lower(g, base + x1 + 1, b);
        if (hint) hint[dy + 1] = b;
        if (g->start[e] == g->start[b]) continue;
        r->b[n] = b; r->e[n] = e; r->dy[n] = dy; r->base[n] = base;
        items += g->start[e] - g->start[b];
        n++;
    }
    r->n = n;
    return items;
}

/* Appends to cand[nc..] the items of the n cells [jb[c], je[c]) whose midpoint lies within half
 * their length plus a reach of the vertex at (ox - cx[c], oy - cy[c]) from cell c's corner: h
 * for the vertex's own polygon (slots s0 .. s0 + n0 - 1), else `reach`; not the two edges at
 * vertex i. Returns the new count. A first test in single precision, widened by scan_margin: the
 * caller projects exactly. */
int grid_scan_cells(const Grid *g, int n, const int *jb, const int *je, const double *cx,
                    const double *cy, double ox, double oy, int i, int iprev, int s0, int n0,
                    double h, double reach, int *restrict cand, int nc);

/* Frees the sorts' work space and, with all, the rest. Large grids only: for small ones,
 * allocating anew and malloc_trim cost more than the memory is worth. */
void grid_release(Grid *g, int all);

/* The midpoint (relative to its cell's corner) and half length that gs[q]'s first test uses. */
static inline void grid_unpack(const Grid *g, int q, double *x, double *y, double *r)
{
    uint32_t v = g->gs[q].xyr;
    *x = ((v & 2047) + 0.5) * g->qxy;
    *y = ((v >> 11 & 2047) + 0.5) * g->qxy;
    *r = (v >> 22) * g->qr;
}

/* Whether the grid's arrays are allocated, and the bytes it holds (for tests of memory use). */
static inline int grid_allocated(const Grid *g) { return g->gs != NULL; }
size_t grid_bytes(const Grid *g);

/* Whether two polygons' edges cross (or with self, two edges of one polygon that share no
 * vertex), by a grid of its own of cells lcut wide: 1 and the first such pair *a <= *b in slot
 * order, or 0. */
int grid_crossing(const Ensemble *e, double lcut, int self, int *a, int *b);

#endif
