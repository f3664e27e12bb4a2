/* The contact grid: binning, the sorts (counting sorts of dense grids, serial and parallel by
 * strips for large ensembles; a radix sort of sparse ones), the strip table and the stencil
 * scan. See grid.h for the layout. */
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
    free(g->start); free(g->ckey); free(g->key); free(g->vstrip); free(g->strip_id); free(g->vitems);
    free(g->gs); free(g->rkey); free(g->rslot); free(g->scount); free(g->tmp);
    memset(g, 0, sizeof *g);
}

/* Sorts the vertex slots by key[slot] in [0, ncell) into out[m * stride], keeping slot order
 * within a key; start[k] is the first position of key k. Serial: a few memory operations per
 * vertex, and no work space. */
static void counting_sort(const Ensemble *e, const int64_t *key, int ncell, int *start, int *out, int stride)
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

/* The same in parallel, for large ensembles (key[slot] a cell of nx * ny, row-major), with the
 * result of the serial sort: first by strip of GRID_STRIP rows (each thread takes a fixed range
 * of polygons and counts its own slots, so slot order is kept), then each strip by cell. */
static void parallel_sort(Grid *g, const Ensemble *e, const int64_t *key, int nx, int ny, int *start, int *out, int stride)
{
    const int ns = (ny + GRID_STRIP - 1) / GRID_STRIP, per = GRID_STRIP * nx, ncell = nx * ny;
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

/* A dense grid's sort: by the nx * ny cells key[slot] into out (stride apart), start[c] = first
 * position of cell c; in parallel in a large ensemble (below GRID_LARGE, the barriers of the
 * parallel sort cost more than it saves). */
static void dense_sort(Grid *g, const Ensemble *e, int nv, int nx, int ny, int *out, int stride)
{
    size_t need = (size_t)nx * (size_t)ny + 1;
    if (need > g->start_cap) { g->start_cap = need; g->start = ph_realloc(g->start, need * sizeof *g->start); }
    if (nv >= GRID_LARGE) parallel_sort(g, e, g->key, nx, ny, g->start, out, stride);
    else counting_sort(e, g->key, nx * ny, g->start, out, stride);
}

/* A sparse grid's sort: the nv slots by key[slot] (below kmax), slot order within a key (a
 * radix sort, least significant digit first: as few passes of at most 8 to 16 bits, as the count
 * asks, as the largest key needs, their counts in one pass over the keys; so its work space stays
 * in proportion). Returns the sorted keys; *slots: the slots. */
static const int64_t *sparse_sort(Grid *g, const Ensemble *e, int nv, int64_t kmax, const int **slots)
{
    if (nv > g->rcap) {
        g->rcap = nv;
        g->rkey = ph_realloc(g->rkey, 2 * (size_t)nv * sizeof *g->rkey);
        g->rslot = ph_realloc(g->rslot, 2 * (size_t)nv * sizeof *g->rslot);
    }
    int64_t *ka = g->rkey, *kb = g->rkey + nv;
    int *sa = g->rslot, *sb = g->rslot + nv, n = 0, most = 8, kbits = 0;
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) { ka[n] = g->key[i]; sa[n++] = i; }
    while (most < 16 && (1 << most) < nv) most++;
    while (kbits < 62 && (kmax - 1) >> kbits) kbits++;
    const int passes = (kbits + most - 1) / most, bits = passes ? (kbits + passes - 1) / passes : 0, nb = 1 << bits;
    const size_t need = (size_t)passes * (size_t)(nb + 1);
    if (need > g->scount_cap) { g->scount_cap = need; g->scount = ph_realloc(g->scount, need * sizeof *g->scount); }
    memset(g->scount, 0, need * sizeof *g->scount);
    for (int k = 0; k < n; k++)
        for (int d = 0; d < passes; d++) g->scount[(size_t)d * (size_t)(nb + 1) + (size_t)((ka[k] >> (d * bits)) & (nb - 1)) + 1]++;
    for (int d = 0; d < passes; d++) {
        int *count = g->scount + (size_t)d * (size_t)(nb + 1), same = 0;
        for (int c = 1; c <= nb && !same; c++) same = count[c] == n;   /* (a digit that all keys share: nothing to do) */
        if (same) continue;
        for (int c = 0; c < nb; c++) count[c + 1] += count[c];
        for (int k = 0; k < n; k++) { int at = count[(ka[k] >> (d * bits)) & (nb - 1)]++; kb[at] = ka[k]; sb[at] = sa[k]; }
        int64_t *swk = ka; ka = kb; kb = swk;
        int *sws = sa; sa = sb; sb = sws;
    }
    *slots = sa;
    return ka;
}

/* The strip table (grid.h): appends real strip id (above the last) whose vertices start at
 * vitems[first], after a filler when the parity asks for one (an empty strip: the one after the
 * last, or before the first). */
static void strip_push(Grid *g, int id, int first)
{
    if ((size_t)g->nstrips + 3 > g->strip_cap) {
        g->strip_cap = 2 * (size_t)g->nstrips + 64;
        g->vstrip = ph_realloc(g->vstrip, g->strip_cap * sizeof *g->vstrip);
        g->strip_id = ph_realloc(g->strip_id, g->strip_cap * sizeof *g->strip_id);
    }
    int n = g->nstrips;
    if (n ? (id - g->strip_id[n - 1]) % 2 == 0 : id % 2) {
        g->strip_id[n] = n ? g->strip_id[n - 1] + 1 : id - 1;
        g->vstrip[n++] = first;
    }
    g->strip_id[n] = id;
    g->vstrip[n++] = first;
    g->nstrips = n;
}

/* Real strip id holds vitems[first .. end): it and its neighbours (where a vertex may later be,
 * for the patches of the contact list) join the table. */
static void strip_occupied(Grid *g, int id, int first, int end, int nreal)
{
    int last = g->nstrips ? g->strip_id[g->nstrips - 1] : -1;
    if (id - 1 > last) strip_push(g, id - 1, first);
    if (id > last) strip_push(g, id, first);   /* (else it was pushed as the neighbour of the last) */
    if (id + 1 < nreal) strip_push(g, id + 1, end);
}

/* The earlier grids' cell side (grid.h): at least cs, enlarged until the cells that cover the box
 * number at most `limit`. *wx, *wy: the cells across and up. */
static double bounded_cells(double cs, double limit, double a, double b, double *wx, double *wy)
{
    *wx = a / cs + 1; *wy = b / cs + 1;
    if (*wx * *wy > limit) {   /* the smallest cs with (a / cs + 1) (b / cs + 1) <= limit: a quadratic in 1 / cs */
        double u = a * b > 0 ? (sqrt((a + b) * (a + b) + 4 * a * b * (limit - 1)) - (a + b)) / (2 * a * b) : (limit - 1) / (a + b);
        cs = fmax(cs, 1 / u * (1 + 1e-9));
        *wx = a / cs + 1; *wy = b / cs + 1;
    }
    while (*wx * *wy > limit) { cs *= 2; *wx = a / cs + 1; *wy = b / cs + 1; }
    return cs;
}

void grid_build(Grid *g, const Ensemble *e, double cell_size, int walk)
{
    if (e->nv_used > g->nv_cap || !g->gs || !g->key) {   /* (at least one item, even for no vertex) */
        /* with room to grow where the grid is kept (grid_release), not to allocate at every build */
        int room = e->nv_used + e->nv_used / 2 + 1;
        g->nv_cap = e->nv_used >= GRID_LARGE ? e->nv_used : room < GRID_LARGE ? room : GRID_LARGE - 1;
        size_t n = (size_t)g->nv_cap;
        g->key = ph_realloc(g->key, n * sizeof *g->key);
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
    const double a = xmax - xmin, b = ymax - ymin, ext = fmax(a, b), cs0 = cell_size > 0 ? cell_size : 1;
    const double limit = (nv < GRID_LARGE ? GRID_CELLS_PER_VERTEX : GRID_CELLS_PER_VERTEX / 2) * (double)nv + 16;
    const double dense_limit = nv < GRID_LARGE ? 4 * limit : limit;
    /* The search cells: cs0, unless the box is more than GRID_MAX_CELLS of them across; and a cell
     * index (x - x0) / cs is rounded by up to 3 ulps of itself, which the margin of the callers'
     * cell size (1e-9 of it) covers up to 10^6 cells across: beyond, the cells grow by as much
     * (2^-50 of the cells across: 1e-6 at 2^30). */
    double cs = fmax(cs0, ext / (GRID_MAX_CELLS - 2));
    if (ext / cs > 1048576) cs *= 1 + ext / cs * 0x1p-50;
    double wx = a / cs + 1, wy = b / cs + 1;
    g->x0 = xmin; g->y0 = ymin; g->cs = cs; g->inv = 1 / cs;
    g->nx = (int)wx; g->ny = (int)wy;
    g->dense = wx * wy <= dense_limit;
    /* covers the rounding of the single-precision first test: coordinates relative to a cell's
     * corner, lengths and distances up to a few cells, and the corner's rounding far from the
     * origin */
    g->scan_margin = 1e-5 * cs + 64 * ldexp(4 * cs, -24) + ldexp(ext + cs, -48);
    #pragma omp parallel for schedule(static)
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            int ix, iy;
            g->key[i] = grid_cell(g, e->x[i], e->y[i], &ix, &iy);
        }
    g->nstrips = 0;
    if (walk) {
        /* the walk cells: the earlier grids' where they are at most GRID_WALK_ENLARGE times
         * larger, else the search cells; each vertex's key in walk cells */
        double wcs = bounded_cells(cs0, limit, a, b, &wx, &wy);
        int same = !(wcs <= GRID_WALK_ENLARGE * cs0) || wcs == cs;
        if (same) { wcs = cs; wx = a / cs + 1; wy = b / cs + 1; }
        g->wcs = wcs; g->wnx = (int)wx; g->wny = (int)wy;
        if (!same) {
            Grid w = *g;   /* (grid_cell with the walk cells) */
            w.inv = 1 / wcs; w.nx = g->wnx; w.ny = g->wny;
            #pragma omp parallel for schedule(static)
            for (int p = 0; p < e->np; p++)
                for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
                    int ix, iy;
                    g->key[i] = grid_cell(&w, e->x[i], e->y[i], &ix, &iy);
                }
        }
        /* the vertices by walk cell, and the strips they occupy */
        const int nreal = (g->wny + GRID_STRIP - 1) / GRID_STRIP, wnx = g->wnx;
        if (wx * wy <= dense_limit) {
            dense_sort(g, e, nv, g->wnx, g->wny, g->vitems, 1);
            for (int s = 0; s < nreal; s++) strip_push(g, s, g->start[s * GRID_STRIP * wnx]);   /* (all of them, as few as the cells) */
        } else {
            const int *slots;
            const int64_t *k = sparse_sort(g, e, nv, (int64_t)wnx * g->wny, &slots);
            memcpy(g->vitems, slots, (size_t)nv * sizeof *slots);
            const int64_t per = (int64_t)GRID_STRIP * wnx;
            for (int m = 0; m < nv; ) {   /* (a division per strip, not per vertex) */
                int s = (int)(k[m] / per), f = m;
                for (int64_t end = (s + 1) * per; m < nv && k[m] < end; ) m++;
                strip_occupied(g, s, f, m, nreal);
            }
        }
        if (!g->nstrips) strip_push(g, 0, 0);   /* (a table, even for no vertex) */
        g->vstrip[g->nstrips] = nv;
    }
    /* then the search keys of the midpoints */
    #pragma omp parallel for schedule(static)
    for (int p = 0; p < e->np; p++) {
        int s = e->start[p], n = e->count[p];
        for (int i = s; i < s + n; i++) {
            int j = i + 1 < s + n ? i + 1 : s, ix, iy;
            g->key[i] = grid_cell(g, 0.5 * (e->x[i] + e->x[j]), 0.5 * (e->y[i] + e->y[j]), &ix, &iy);
        }
    }
    /* the edges by search cell: a dense grid's entries are its cells, a sparse one's its
     * occupied cells (their keys into ckey) */
    const int stride = (int)(sizeof *g->gs / sizeof(int));
    if (g->dense) {
        dense_sort(g, e, nv, g->nx, g->ny, &g->gs[0].k, stride);
        g->nentries = g->nx * g->ny;
    } else {
        const int *slots;
        const int64_t *k = sparse_sort(g, e, nv, (int64_t)g->nx * g->ny, &slots);
        if ((size_t)nv + 1 > g->ckey_cap || (size_t)nv + 1 > g->start_cap) {
            size_t n = (size_t)nv + 1;
            if (n > g->ckey_cap) { g->ckey_cap = n; g->ckey = ph_realloc(g->ckey, n * sizeof *g->ckey); }
            if (n > g->start_cap) { g->start_cap = n; g->start = ph_realloc(g->start, n * sizeof *g->start); }
        }
        int m = 0;
        for (int q = 0; q < nv; q++) {
            g->gs[q].k = slots[q];
            if (q == 0 || k[q] != k[q - 1]) { g->ckey[m] = k[q]; g->start[m++] = q; }
        }
        g->start[m] = nv;
        g->nentries = m;
    }
    /* the per-item copies, gathered in parallel: each midpoint relative to its cell's corner */
    #pragma omp parallel for schedule(static)
    for (int m = 0; m < nv; m++) {
        int i = g->gs[m].k, j = ens_next(e, i), ix, iy;
        double mx = 0.5 * (e->x[i] + e->x[j]), my = 0.5 * (e->y[i] + e->y[j]), ex = e->x[j] - e->x[i], ey = e->y[j] - e->y[i];
        grid_cell(g, mx, my, &ix, &iy);
        g->gs[m] = (GridScan){ (float)(mx - xmin - ix * cs), (float)(my - ymin - iy * cs), (float)(0.5 * sqrt(ex * ex + ey * ey)), i, j };
    }
}

/* Branch-free: a mispredicted branch per candidate cost more than the test. (Not inlined, so
 * that the compiler keeps the arrays in registers.) */
__attribute__((noinline)) int grid_scan(const Grid *g, int jb, int je, int i, int iprev, float x, float y,
                                        int s0, int n0, double h, double reach, int *restrict cand, int nc)
{
    const GridScan *restrict gs = g->gs;
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
    free(g->key); free(g->tmp); free(g->rkey); free(g->rslot);
    g->key = NULL; g->tmp = g->rslot = NULL; g->rkey = NULL;
    g->tmp_cap = g->rcap = 0;
    if (all) {
        free(g->start); free(g->ckey); free(g->vstrip); free(g->strip_id); free(g->vitems); free(g->gs);
        g->start = g->vstrip = g->strip_id = g->vitems = NULL;
        g->ckey = NULL;
        g->gs = NULL;
        g->nv_cap = 0;
        g->start_cap = g->ckey_cap = g->strip_cap = 0;
    }
#ifdef __GLIBC__
    malloc_trim(0);   /* (glibc may keep freed memory of the heap resident otherwise) */
#endif
}

size_t grid_bytes(const Grid *g)
{
    return g->start_cap * sizeof *g->start + g->ckey_cap * sizeof *g->ckey + g->strip_cap * (sizeof *g->vstrip + sizeof *g->strip_id) +
           (size_t)(g->key ? g->nv_cap : 0) * sizeof *g->key + (size_t)(g->vitems ? g->nv_cap : 0) * sizeof *g->vitems +
           (size_t)(g->gs ? g->nv_cap : 0) * sizeof *g->gs + 2 * (size_t)g->rcap * (sizeof *g->rkey + sizeof *g->rslot) +
           g->scount_cap * sizeof *g->scount + (size_t)g->tmp_cap * sizeof *g->tmp;
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
    GridRows r = { 0 };
    int64_t cell = -1;
    int hint[3] = { 0, 0, 0 };   /* (successive edges lie in nearby cells) */
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            int i1 = ens_next(e, i), ix, iy;   /* the stencil of the cell of edge i's midpoint, in grid order */
            int64_t c = grid_cell(g, 0.5 * (e->x[i] + e->x[i1]), 0.5 * (e->y[i] + e->y[i1]), &ix, &iy);
            if (c != cell) { cell = c; grid_rows(g, ix, iy, hint, &r); }
            for (int row = 0; row < r.n; row++)
                for (int m = g->start[r.b[row]]; m < g->start[r.e[row]]; m++) {
                    int j = g->gs[m].k, q = e->pid[j];
                    if (self ? q != p || j == i || j == i1 || i == ens_next(e, j) : q == p) continue;
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
    grid_build(&g, e, lmax * (1 + 1e-9), 0);
    int found = first_crossing(&g, e, self, a, b);
    grid_free(&g);
    return found;
}
