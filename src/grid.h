/* The contact grid (paper 3.4, docs/model.md 2): vertices and edges binned into square cells by
 * a counting sort of slots, so that everything that looks for nearby edges scans a 3x3 stencil
 * of cells in contiguous memory. Built anew for each use; owned by the contact module, which
 * finds the pairs with it, and also used alone for the overlap check of the input (overlap.c).
 *
 * Layout: cells of side cs from (x0, y0), nx * ny of them, row-major. The edges (one per vertex
 * slot k, the edge k -> next(k)) are sorted by the cell of their midpoint, in slot order within a
 * cell, into gs: the edges of cell c are gs[cell_start[c] .. cell_start[c + 1]), so a row of a
 * stencil is one contiguous range. The vertex slots are sorted the same way by the cell of their
 * position into vitems, and the rows are cut into strips of GRID_STRIP rows: the vertices of
 * strip s are vitems[vstrip[s] .. vstrip[s + 1]) (the contact module's unit of parallel work). */
#ifndef PH_GRID_H
#define PH_GRID_H
#include "ensemble.h"

/* grid rows per strip: the parallel sort sorts strip by strip, and the contact module runs
 * strips two apart at once (see contact.h) */
enum { GRID_STRIP = 4 };

/* A large ensemble: from this many vertex slots on, memory counts more than a little time. The
 * grid then sorts in parallel, has fewer cells per vertex and is released while the contact list
 * serves (grid_release), and a patch of the list renews at most an eighth of the vertices. */
enum { GRID_LARGE = 1 << 16 };

/* Memory stays bounded by the vertex count: never more than GRID_CELLS_PER_VERTEX cells per
 * vertex (+16), or half that in a large ensemble, where memory matters more than the longer
 * scans of larger cells in a sparse ensemble; a vertex that escaped far away enlarges the cells
 * instead. */
enum { GRID_CELLS_PER_VERTEX = 4 };

/* An edge in the grid: its midpoint relative to the grid origin and half its length (single
 * precision, for a cheap first test) and the slots k, k1 of its ends. */
typedef struct GridScan { float x, y, r; int k, k1; } GridScan;

typedef struct Grid {
    double x0, y0, cs, inv;   /* origin and side of the cells (inv = 1 / cs) */
    int nx, ny, ncell_cap, nv_cap;
    int *cell_start;          /* edges of cell c: gs[cell_start[c] .. cell_start[c + 1]) */
    GridScan *gs;             /* the edges by cell of their midpoint, slot order within a cell */
    double scan_margin;       /* covers the rounding of the single-precision test */
    int *cell;                /* sort keys by slot: the cell of each vertex, then of each edge's midpoint */
    int *vitems;              /* the vertex slots sorted by the cell of their position */
    int *vstrip, vstrip_cap;  /* the vertices of strip s: vitems[vstrip[s] .. vstrip[s + 1]) */
    int *scount, *tmp;        /* work space of the parallel sort: counts per thread and strip, slots */
    size_t scount_cap;
    int tmp_cap;
} Grid;

void grid_init(Grid *g);
void grid_free(Grid *g);

/* Bins all vertices, and all edges by their midpoints, into square cells of side >= cell_size
 * (larger where GRID_CELLS_PER_VERTEX demands it). */
void grid_build(Grid *g, const Ensemble *e, double cell_size);

/* The number of strips of the built grid. */
static inline int grid_strips(const Grid *g) { return (g->ny + GRID_STRIP - 1) / GRID_STRIP; }

/* The cell of point (x, y): always computed by this one expression, so that the sort and the scan
 * agree (clamped: guards against rounding at the edges). */
static inline int grid_cell(const Grid *g, double x, double y)
{
    int ix = (int)((x - g->x0) * g->inv), iy = (int)((y - g->y0) * g->inv);
    ix = ix < 0 ? 0 : ix >= g->nx ? g->nx - 1 : ix;
    iy = iy < 0 ? 0 : iy >= g->ny ? g->ny - 1 : iy;
    return iy * g->nx + ix;
}

/* The 3x3 stencil of a cell, clipped to the grid: columns x0..x1 of rows y0..y1 (row y is the
 * items cell_start[y nx + x0] .. cell_start[y nx + x1 + 1]); returns how many edges it holds. */
static inline int grid_stencil(const Grid *g, int cell, int *x0, int *x1, int *y0, int *y1)
{
    int nx = g->nx, cx = cell % nx, cy = cell / nx, n = 0;
    *x0 = cx > 0 ? cx - 1 : 0; *x1 = cx + 1 < nx ? cx + 1 : cx;
    *y0 = cy > 0 ? cy - 1 : 0; *y1 = cy + 1 < g->ny ? cy + 1 : cy;
    for (int y = *y0; y <= *y1; y++) n += g->cell_start[y * nx + *x1 + 1] - g->cell_start[y * nx + *x0];
    return n;
}

/* Appends to cand[nc..] the items among [jb, je) (a row of a stencil) whose edge's midpoint lies
 * within half its length plus a reach of (px, py), the reach being h for the edges of the
 * vertex's own polygon (slots s0 .. s0 + n0 - 1) and `reach` for the others; leaves out the two
 * edges that end at vertex i (iprev -> i, i -> next). Returns the new count. A cheap first test
 * in single precision, widened by scan_margin: the caller projects exactly. */
int grid_scan(const Grid *g, int jb, int je, int i, int iprev, double px, double py,
              int s0, int n0, double h, double reach, int *restrict cand, int nc);

/* Frees the sort's work space (the keys and the strip sort's slots, 8 bytes per vertex) and, with
 * all, the rest of the grid. Only for large ensembles (65,536 vertices on): for small ones,
 * allocating it anew and malloc_trim cost more than the memory is worth (the foam ran 25 %
 * slower). */
void grid_release(Grid *g, int all);

/* Whether the grid's arrays are allocated (for tests of memory use). */
static inline int grid_allocated(const Grid *g) { return g->gs != NULL; }

/* Finds two different polygons whose edges cross, or with self a polygon that crosses itself
 * (two of its edges that share no vertex cross), with a grid of its own with cells lmax wide
 * (lmax: the longest edge; O(vertices)). Returns 1 and the polygon indices *a <= *b of the first
 * such pair in slot order (with self, *a == *b), or 0. */
int grid_crossing(const Ensemble *e, double lmax, int self, int *a, int *b);

#endif
