/* The contact grid: binning, the counting sorts (serial, and parallel by strips for large
 * ensembles) and the stencil scan. See grid.h for the layout. */
#include "grid.h"
#include "geometry.h"
#include <math.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

void grid_init(Grid *g) { memset(g, 0, sizeof *g); }

void grid_free(Grid *g)
{
    free(g->cell_start); free(g->cell); free(g->vstrip); free(g->vitems);
    free(g->gs); free(g->scount); free(g->tmp);
    memset(g, 0, sizeof *g);
}

/* Sorts the vertex slots by key[slot] in [0, ncell) into out[m * stride], keeping slot order
 * within a key; start[k] is the first position of key k. Serial: a few memory operations per
 * vertex, and no work space. */
static void counting_sort(const Ensemble *e, const int *key, int ncell, int *start, int *out, int stride)
{
    memset(start, 0, (size_t)(ncell + 1) * sizeof *start);
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) start[key[i] + 1]++;
    for (int k = 0; k < ncell; k++) start[k + 1] += start[k];
    /* start[k] walks to the start of key k+1, then shift back */
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) out[(size_t)stride * (size_t)start[key[i]]++] = i;
    for (int k = ncell; k > 0; k--) start[k] = start[k - 1];
    start[0] = 0;
}

/* The same in parallel, for large ensembles (key[slot] is a cell, row-major), with the result of
 * the serial sort: first by strip of GRID_STRIP rows (each thread takes a fixed range of polygons
 * and counts its own slots, so slot order is kept), then each strip by cell. */
static void parallel_sort(Grid *g, const Ensemble *e, const int *key, int *start, int *out, int stride)
{
    const int nx = g->nx, ns = (g->ny + GRID_STRIP - 1) / GRID_STRIP, per = GRID_STRIP * nx, ncell = nx * g->ny;
    #pragma omp parallel
    {
        int nt = 1, t = 0;
#ifdef _OPENMP
        nt = omp_get_num_threads();
        t = omp_get_thread_num();
#endif
        #pragma omp single
        {
            size_t need = (size_t)(nt + 1) * (size_t)(ns + 1);   /* the last row: where each strip starts */
            if (need > g->scount_cap) { g->scount_cap = need; g->scount = ph_realloc(g->scount, need * sizeof *g->scount); }
            if (e->nv_used > g->tmp_cap) { g->tmp_cap = e->nv_used; g->tmp = ph_realloc(g->tmp, (size_t)g->tmp_cap * sizeof *g->tmp); }
        }
        int *cnt = g->scount + (size_t)t * (size_t)(ns + 1);
        int p0 = (int)((long long)e->np * t / nt), p1 = (int)((long long)e->np * (t + 1) / nt);
        memset(cnt, 0, (size_t)(ns + 1) * sizeof *cnt);
        for (int p = p0; p < p1; p++)
            for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) cnt[key[i] / per]++;
        #pragma omp barrier
        #pragma omp single
        {   /* strip s gets thread 0's slots, then thread 1's, ... */
            int run = 0, *first = g->scount + (size_t)nt * (size_t)(ns + 1);
            for (int s = 0; s < ns; s++) {
                first[s] = run;
                for (int u = 0; u < nt; u++) {
                    int *q = g->scount + (size_t)u * (size_t)(ns + 1) + s, n = *q;
                    *q = run;
                    run += n;
                }
            }
            first[ns] = run;
        }
        for (int p = p0; p < p1; p++)
            for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) g->tmp[cnt[key[i] / per]++] = i;
        #pragma omp barrier
        const int *first = g->scount + (size_t)nt * (size_t)(ns + 1);
        #pragma omp for schedule(dynamic, 4)
        for (int s = 0; s < ns; s++) {
            int a = first[s], b = first[s + 1];
            int c0 = s * per, c1 = c0 + per < ncell ? c0 + per : ncell, run = a;
            for (int k = c0; k < c1; k++) start[k] = 0;
            for (int m = a; m < b; m++) start[key[g->tmp[m]]]++;
            for (int k = c0; k < c1; k++) { int n = start[k]; start[k] = run; run += n; }
            for (int m = a; m < b; m++) { int i = g->tmp[m]; out[(size_t)stride * (size_t)start[key[i]]++] = i; }
            for (int k = c1 - 1; k > c0; k--) start[k] = start[k - 1];   /* back to the first positions */
            start[c0] = a;
        }
        #pragma omp single nowait
        start[ncell] = first[ns];
    }
}

/* Sorts the nv vertex slots by cell key[slot] into out (stride apart), cell_start[c] = first
 * position of cell c: in parallel in a large ensemble (below GRID_LARGE, the barriers of the
 * parallel sort cost more than it saves). */
static void sort_by_cell(Grid *g, const Ensemble *e, int nv, const int *key, int *out, int stride)
{
    if (nv >= GRID_LARGE) parallel_sort(g, e, key, g->cell_start, out, stride);
    else counting_sort(e, key, g->nx * g->ny, g->cell_start, out, stride);
}

void grid_build(Grid *g, const Ensemble *e, double cell_size)
{
    if (e->nv_used > g->nv_cap || !g->gs || !g->cell) {   /* (at least one item, even for no vertex) */
        /* with room to grow where the grid is kept (grid_release), not to allocate at every build */
        int room = e->nv_used + e->nv_used / 2 + 1;
        g->nv_cap = e->nv_used >= GRID_LARGE ? e->nv_used : room < GRID_LARGE ? room : GRID_LARGE - 1;
        size_t n = (size_t)g->nv_cap;
        g->cell = ph_realloc(g->cell, n * sizeof *g->cell);
        g->vitems = ph_realloc(g->vitems, n * sizeof *g->vitems);
        g->gs = ph_realloc(g->gs, n * sizeof *g->gs);
    }
    double xmin = INFINITY, ymin = INFINITY, xmax = -INFINITY, ymax = -INFINITY;
    int nv = 0;
    #pragma omp parallel for schedule(static) reduction(min : xmin, ymin) reduction(max : xmax, ymax) reduction(+ : nv)
    for (int p = 0; p < e->np; p++) {
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            double x = e->x[i], y = e->y[i];   /* (plain comparisons: fmin/fmax are library calls) */
            xmin = x < xmin ? x : xmin; xmax = x > xmax ? x : xmax;
            ymin = y < ymin ? y : ymin; ymax = y > ymax ? y : ymax;
        }
        nv += e->count[p];
    }
    if (nv == 0) xmin = xmax = ymin = ymax = 0;
    /* Enough cells that the largest coordinate falls inside (floor(extent/cs) + 1 of them), but
     * never more than GRID_CELLS_PER_VERTEX per vertex: a vertex that escaped far away enlarges the
     * cells instead. */
    double cs = cell_size > 0 ? cell_size : 1, limit = (nv < GRID_LARGE ? GRID_CELLS_PER_VERTEX : GRID_CELLS_PER_VERTEX / 2) * (double)nv + 16;
    double wx = (xmax - xmin) / cs + 1, wy = (ymax - ymin) / cs + 1;
    if (wx * wy > limit) {   /* the smallest cs with (a / cs + 1) (b / cs + 1) <= limit: a quadratic in 1 / cs */
        double a = xmax - xmin, b = ymax - ymin, u = a * b > 0 ? (sqrt((a + b) * (a + b) + 4 * a * b * (limit - 1)) - (a + b)) / (2 * a * b)
                                                                : (limit - 1) / (a + b);
        cs = fmax(cs, 1 / u * (1 + 1e-9));
        wx = (xmax - xmin) / cs + 1;
        wy = (ymax - ymin) / cs + 1;
    }
    while (wx * wy > limit) { cs *= 2; wx = (xmax - xmin) / cs + 1; wy = (ymax - ymin) / cs + 1; }
    g->x0 = xmin; g->y0 = ymin; g->cs = cs;
    /* covers the rounding of the single-precision first test: coordinates up to the extent,
     * lengths and distances up to a few cells */
    g->scan_margin = 1e-5 * cs + 64 * ldexp(fmax(xmax - xmin, ymax - ymin) + cs, -24);
    g->nx = (int)wx; g->ny = (int)wy;
    int ncell = g->nx * g->ny, nx = g->nx, ny = g->ny;
    if (ncell + 1 > g->ncell_cap) {
        g->ncell_cap = ncell + 1;
        g->cell_start = ph_realloc(g->cell_start, (size_t)g->ncell_cap * sizeof *g->cell_start);
    }
    int nstrips = (ny + GRID_STRIP - 1) / GRID_STRIP;
    if (nstrips + 1 > g->vstrip_cap) {
        g->vstrip_cap = nstrips + 1;
        g->vstrip = ph_realloc(g->vstrip, (size_t)g->vstrip_cap * sizeof *g->vstrip);
    }
    g->inv = 1 / cs;
    /* the vertices by cell, with cell_start as work space (only where each strip starts is kept:
     * a second array of cells would cost up to 16 bytes per vertex; the scan computes a vertex's
     * cell again), then the edges by the cell of their midpoints; `cell` holds the keys of each */
    #pragma omp parallel for schedule(static)
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) g->cell[i] = grid_cell(g, e->x[i], e->y[i]);
    sort_by_cell(g, e, nv, g->cell, g->vitems, 1);
    for (int s = 0; s < nstrips; s++) g->vstrip[s] = g->cell_start[s * GRID_STRIP * nx];
    g->vstrip[nstrips] = g->cell_start[ncell];
    #pragma omp parallel for schedule(static)
    for (int p = 0; p < e->np; p++) {
        int s = e->start[p], n = e->count[p];
        for (int i = s; i < s + n; i++) {
            int j = i + 1 < s + n ? i + 1 : s;
            g->cell[i] = grid_cell(g, 0.5 * (e->x[i] + e->x[j]), 0.5 * (e->y[i] + e->y[j]));
        }
    }
    sort_by_cell(g, e, nv, g->cell, &g->gs[0].k, (int)(sizeof *g->gs / sizeof(int)));
    /* the per-item copies, gathered in parallel */
    #pragma omp parallel for schedule(static)
    for (int m = 0; m < nv; m++) {
        int i = g->gs[m].k, j = ens_next(e, i);
        double ex = e->x[j] - e->x[i], ey = e->y[j] - e->y[i];
        g->gs[m] = (GridScan){ (float)(e->x[i] + 0.5 * ex - xmin), (float)(e->y[i] + 0.5 * ey - ymin), (float)(0.5 * sqrt(ex * ex + ey * ey)), i, j };
    }
}

/* Branch-free: a mispredicted branch per candidate cost more than the test. (Not inlined, so
 * that the compiler keeps the arrays in registers.) */
__attribute__((noinline)) int grid_scan(const Grid *g, int jb, int je, int i, int iprev, double px, double py,
                                        int s0, int n0, double h, double reach, int *restrict cand, int nc)
{
    const GridScan *restrict gs = g->gs;
    const float x = (float)(px - g->x0), y = (float)(py - g->y0);
    const float lim0[2] = { (float)(reach + g->scan_margin), (float)(h + g->scan_margin) };   /* (a table: the compiler made a branch of ?:) */
    for (int j = jb; j < je; j++) {
        float dx = x - gs[j].x, dy = y - gs[j].y, lim = gs[j].r + lim0[(unsigned)(gs[j].k - s0) < (unsigned)n0];   /* (same polygon: slots s0 .. s0+n0-1) */
        cand[nc] = j;   /* (the two edges that end at i always pass the distance test) */
        nc += (dx * dx + dy * dy < lim * lim) & (gs[j].k != i) & (gs[j].k != iprev);
    }
    return nc;
}

void grid_release(Grid *g, int all)
{
    if (g->nv_cap < GRID_LARGE) return;
    free(g->cell); free(g->tmp);
    g->cell = g->tmp = NULL;
    g->tmp_cap = 0;
    if (all) {
        free(g->cell_start); free(g->vstrip); free(g->vitems); free(g->gs);
        g->cell_start = g->vstrip = g->vitems = NULL;
        g->gs = NULL;
        g->nv_cap = g->ncell_cap = g->vstrip_cap = 0;
    }
#ifdef __GLIBC__
    malloc_trim(0);   /* (glibc may keep freed memory of the heap resident otherwise) */
#endif
}

static int edges_cross(const Ensemble *e, int i, int j)
{
    int i1 = ens_next(e, i), j1 = ens_next(e, j);
    return geom_segments_cross((Vec2){ e->x[i], e->y[i] }, (Vec2){ e->x[i1], e->y[i1] },
                               (Vec2){ e->x[j], e->y[j] }, (Vec2){ e->x[j1], e->y[j1] });
}

/* The first crossing pair in slot order, with the grid built: edges of two polygons, or with
 * self, two edges of one polygon that share no vertex (then *a == *b). */
static int first_crossing(const Grid *g, const Ensemble *e, int self, int *a, int *b)
{
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            int x0, x1, y0, y1;   /* the stencil of the cell of edge i's midpoint, in grid order */
            grid_stencil(g, g->cell[i], &x0, &x1, &y0, &y1);
            for (int y = y0; y <= y1; y++)
                for (int m = g->cell_start[y * g->nx + x0]; m < g->cell_start[y * g->nx + x1 + 1]; m++) {
                    int j = g->gs[m].k, q = e->pid[j];
                    if (self ? q != p || j == i || j == ens_next(e, i) || i == ens_next(e, j) : q == p) continue;
                    if (edges_cross(e, i, j)) {
                        *a = p < q ? p : q;
                        *b = p < q ? q : p;
                        return 1;
                    }
                }
        }
    return 0;
}

int grid_crossing(const Ensemble *e, double lmax, int self, int *a, int *b)
{
    Grid g;
    grid_init(&g);
    /* the midpoints of two crossing edges are at most lmax apart: neighbouring cells */
    grid_build(&g, e, lmax * (1 + 1e-9));
    int found = first_crossing(&g, e, self, a, b);
    grid_free(&g);
    return found;
}
