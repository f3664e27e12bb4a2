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
    free(g->start); free(g->ckey); free(g->key); free(g->item); free(g->piece); free(g->vstrip); free(g->strip_id); free(g->vitems);
    free(g->gs); free(g->rkey); free(g->rslot); free(g->scount); free(g->tmp); free(g->poff);
    memset(g, 0, sizeof *g);
}

/* The sorts order n items by key[m], keeping item order within a key, and write each item's
 * payload (item[m], or with item NULL, m itself) to out[pos * stride]. */
static inline int payload(const int *item, int m) { return item ? item[m] : m; }

/* A dense grid's serial sort, keys in [0, ncell): start[k] is the first position of key k. A few
 * memory operations per item, and no work space. */
static void counting_sort(const int64_t *key, const int *item, int n, int ncell, int *start, int *out, int stride)
{
    memset(start, 0, (size_t)(ncell + 1) * sizeof *start);
    for (int m = 0; m < n; m++) start[key[m] + 1]++;
    for (int k = 0; k < ncell; k++) start[k + 1] += start[k];
    /* start[k] walks to the start of key k+1, then shift back */
    for (int m = 0; m < n; m++) out[(size_t)stride * (size_t)start[key[m]]++] = payload(item, m);
    for (int k = ncell; k > 0; k--) start[k] = start[k - 1];
    start[0] = 0;
}

/* The same in parallel, for large ensembles (keys cells of nx * ny, row-major), with the result
 * of the serial sort: first by strip of GRID_STRIP rows (each thread takes a fixed range of items
 * and counts its own, so item order is kept), then each strip by cell. */
static void parallel_sort(Grid *g, const int64_t *key, const int *item, int n, int nx, int ny, int *start, int *out, int stride)
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
            if (n > g->tmp_cap) { g->tmp_cap = n; g->tmp = ph_realloc(g->tmp, (size_t)g->tmp_cap * sizeof *g->tmp); }
        }
        int *cnt = g->scount + (size_t)t * (size_t)(ns + 1);
        int m0 = (int)((long long)n * t / nt), m1 = (int)((long long)n * (t + 1) / nt);
        memset(cnt, 0, (size_t)(ns + 1) * sizeof *cnt);
        for (int m = m0; m < m1; m++) cnt[key[m] / per]++;
        #pragma omp barrier
        #pragma omp single
        {   /* strip s gets thread 0's items, then thread 1's, ... */
            int run = 0, *first = g->scount + (size_t)nt * (size_t)(ns + 1);
            for (int s = 0; s < ns; s++) {
                first[s] = run;
                for (int u = 0; u < nt; u++) {
                    int *q = g->scount + (size_t)u * (size_t)(ns + 1) + s, c = *q;
                    *q = run;
                    run += c;
                }
            }
            first[ns] = run;
        }
        for (int m = m0; m < m1; m++) g->tmp[cnt[key[m] / per]++] = m;
        #pragma omp barrier
        const int *first = g->scount + (size_t)nt * (size_t)(ns + 1);
        #pragma omp for schedule(dynamic, 4)
        for (int s = 0; s < ns; s++) {
            int a = first[s], b = first[s + 1];
            int c0 = s * per, c1 = c0 + per < ncell ? c0 + per : ncell, run = a;
            for (int k = c0; k < c1; k++) start[k] = 0;
            for (int q = a; q < b; q++) start[key[g->tmp[q]]]++;
            for (int k = c0; k < c1; k++) { int c = start[k]; start[k] = run; run += c; }
            for (int q = a; q < b; q++) { int m = g->tmp[q]; out[(size_t)stride * (size_t)start[key[m]]++] = payload(item, m); }
            for (int k = c1 - 1; k > c0; k--) start[k] = start[k - 1];   /* back to the first positions */
            start[c0] = a;
        }
        #pragma omp single nowait
        start[ncell] = first[ns];
    }
}

/* A dense grid's sort: the n items by the nx * ny cells key[m] into out (stride apart), start[c] =
 * first position of cell c; in parallel in a large ensemble (below GRID_LARGE, the barriers of
 * the parallel sort cost more than it saves). */
static void dense_sort(Grid *g, const int *item, int n, int nx, int ny, int *out, int stride)
{
    size_t need = (size_t)nx * (size_t)ny + 1;
    if (need > g->start_cap) { g->start_cap = need; g->start = ph_realloc(g->start, need * sizeof *g->start); }
    if (n >= GRID_LARGE) parallel_sort(g, g->key, item, n, nx, ny, g->start, out, stride);
    else counting_sort(g->key, item, n, nx * ny, g->start, out, stride);
}

/* A sparse grid's sort: the n items by key[m] (below kmax) (a radix sort, least significant digit
 * first: as few passes of at most 8 to 16 bits, as the count asks, as the largest key needs,
 * their counts in one pass over the keys; so its work space stays in proportion). Returns the
 * sorted keys; *out: the payloads. */
static const int64_t *sparse_sort(Grid *g, const int *item, int n, int64_t kmax, const int **out)
{
    if (n > g->rcap) {
        g->rcap = n;
        g->rkey = ph_realloc(g->rkey, 2 * (size_t)n * sizeof *g->rkey);
        g->rslot = ph_realloc(g->rslot, 2 * (size_t)n * sizeof *g->rslot);
    }
    int64_t *ka = g->rkey, *kb = g->rkey + n;
    int *sa = g->rslot, *sb = g->rslot + n, most = 8, kbits = 0;
    for (int m = 0; m < n; m++) { ka[m] = g->key[m]; sa[m] = payload(item, m); }
    while (most < 16 && (1 << most) < n) most++;
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
    *out = sa;
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

/* Room for n items (keys and payloads; with pieces, their numbers) and nv vertices, with room to
 * grow where the grid is kept (grid_release), not to allocate at every build. */
static void reserve(Grid *g, int n, int nv, int pieces)
{
    if (n > g->item_cap || !g->gs || !g->key) {   /* (at least one item, even for no vertex) */
        int room = n + n / 2 + 1;
        g->item_cap = n >= GRID_LARGE ? n : room < GRID_LARGE ? room : GRID_LARGE - 1;
        size_t c = (size_t)g->item_cap;
        g->key = ph_realloc(g->key, c * sizeof *g->key);
        g->item = ph_realloc(g->item, c * sizeof *g->item);
        g->gs = ph_realloc(g->gs, c * sizeof *g->gs);
        free(g->piece);
        g->piece = NULL;
    }
    if (pieces && !g->piece) g->piece = ph_realloc(NULL, (size_t)g->item_cap * sizeof *g->piece);
    if (nv + 1 > g->vcap) { g->vcap = nv + nv / 2 + 1; g->vitems = ph_realloc(g->vitems, (size_t)g->vcap * sizeof *g->vitems); }
}

void grid_build(Grid *g, const Ensemble *e, double cell_size, double lpiece, int walk)
{
    PH_RESERVE(g->poff, g->poff_cap, 2 * ((size_t)e->np + 1));
    int *voff = g->poff, *eoff = g->poff + e->np + 1;   /* per polygon: its first vertex item, its first edge item */
    voff[0] = 0;
    for (int p = 0; p < e->np; p++) voff[p + 1] = voff[p] + e->count[p];
    const int nv = voff[e->np];
    double xmin = INFINITY, ymin = INFINITY, xmax = -INFINITY, ymax = -INFINITY, l2max = 0;
    #pragma omp parallel for schedule(static) reduction(min : xmin, ymin) reduction(max : xmax, ymax, l2max)
    for (int p = 0; p < e->np; p++) {
        int np = 0;   /* (the pieces of its edges) */
        for (int i = e->start[p], end = i + e->count[p]; i < end; i++) {
            int j = i + 1 < end ? i + 1 : e->start[p];
            double x = e->x[i], y = e->y[i], ex = e->x[j] - x, ey = e->y[j] - y, l2 = ex * ex + ey * ey;   /* (plain comparisons: fmin/fmax are library calls) */
            xmin = x < xmin ? x : xmin; xmax = x > xmax ? x : xmax;
            ymin = y < ymin ? y : ymin; ymax = y > ymax ? y : ymax;
            l2max = l2 > l2max ? l2 : l2max;
            np += grid_pieces(ex, ey, lpiece);
        }
        eoff[p + 1] = np;
    }
    if (nv == 0) xmin = xmax = ymin = ymax = 0;
    /* the edges' pieces: cut where they are at most 8 per vertex (more: an edge that escaped far
     * away; not cut then, the cells grow by the longest edge's excess over lpiece instead) */
    eoff[0] = 0;
    for (int p = 0; p < e->np; p++) eoff[p + 1] += eoff[p];
    if (eoff[e->np] > nv && (double)eoff[e->np] > 8.0 * nv + 4096) {
        cell_size += sqrt(l2max) - lpiece;
        lpiece = INFINITY;
        for (int p = 0; p <= e->np; p++) eoff[p] = voff[p];
    }
    const int nitems = eoff[e->np];
    g->pieces = nitems > nv;
    g->lpiece = lpiece;
    reserve(g, nitems, nv, g->pieces);
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
    g->nstrips = 0;
    if (walk) {
        /* the walk cells: the earlier grids' where they are at most GRID_WALK_ENLARGE times
         * larger, else the search cells; the vertices' keys in them, in polygon order */
        double wcs = bounded_cells(cs0, limit, a, b, &wx, &wy);
        if (!(wcs <= GRID_WALK_ENLARGE * cs0)) wcs = cs;
        if (wcs == cs) { wx = a / cs + 1; wy = b / cs + 1; }
        g->wcs = wcs; g->wnx = (int)wx; g->wny = (int)wy;
        Grid w = *g;   /* (grid_cell with the walk cells) */
        w.inv = 1 / wcs; w.nx = g->wnx; w.ny = g->wny;
        #pragma omp parallel for schedule(static)
        for (int p = 0; p < e->np; p++)
            for (int k = 0; k < e->count[p]; k++) {
                int i = e->start[p] + k, ix, iy;
                g->key[voff[p] + k] = grid_cell(&w, e->x[i], e->y[i], &ix, &iy);
                g->item[voff[p] + k] = i;
            }
        /* the vertices by walk cell, and the strips they occupy */
        const int nreal = (g->wny + GRID_STRIP - 1) / GRID_STRIP, wnx = g->wnx;
        if (wx * wy <= dense_limit) {
            dense_sort(g, g->item, nv, g->wnx, g->wny, g->vitems, 1);
            for (int s = 0; s < nreal; s++) strip_push(g, s, g->start[s * GRID_STRIP * wnx]);   /* (all of them, as few as the cells) */
        } else {
            const int *slots;
            const int64_t *k = sparse_sort(g, g->item, nv, (int64_t)wnx * g->wny, &slots);
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
    /* then the edges' items, in slot order: an edge, or its pieces (grid_piece), keyed by the
     * search cell of its midpoint */
    #pragma omp parallel for schedule(static)
    for (int p = 0; p < e->np; p++) {
        int s = e->start[p], n = e->count[p], m = eoff[p];
        for (int i = s; i < s + n; i++) {
            int j = i + 1 < s + n ? i + 1 : s, pieces = lpiece < INFINITY ? grid_pieces(e->x[j] - e->x[i], e->y[j] - e->y[i], lpiece) : 1;
            for (int q = 0; q < pieces; q++, m++) {
                double mx, my, r;
                int ix, iy;
                grid_piece(e, i, j, q, pieces, &mx, &my, &r);
                g->key[m] = grid_cell(g, mx, my, &ix, &iy);
                g->item[m] = i;
                if (g->pieces) g->piece[m] = q;
            }
        }
    }
    /* the edges by search cell (each item's number into gs[].k): a dense grid's entries are its
     * cells, a sparse one's its occupied cells (their keys into ckey) */
    const int stride = (int)(sizeof *g->gs / sizeof(int));
    if (g->dense) {
        dense_sort(g, NULL, nitems, g->nx, g->ny, &g->gs[0].k, stride);
        g->nentries = g->nx * g->ny;
    } else {
        const int *order;
        const int64_t *k = sparse_sort(g, NULL, nitems, (int64_t)g->nx * g->ny, &order);
        size_t n = (size_t)nitems + 1;
        if (n > g->ckey_cap) { g->ckey_cap = n; g->ckey = ph_realloc(g->ckey, n * sizeof *g->ckey); }
        if (n > g->start_cap) { g->start_cap = n; g->start = ph_realloc(g->start, n * sizeof *g->start); }
        int m = 0;
        for (int q = 0; q < nitems; q++) {
            g->gs[q].k = order[q];
            if (q == 0 || k[q] != k[q - 1]) { g->ckey[m] = k[q]; g->start[m++] = q; }
        }
        g->start[m] = nitems;
        g->nentries = m;
    }
    g->nitems = nitems;
    /* the per-item copies, gathered in parallel: each midpoint relative to its cell's corner */
    #pragma omp parallel for schedule(static)
    for (int q = 0; q < nitems; q++) {
        int m = g->gs[q].k, i = g->item[m], j = ens_next(e, i), ix, iy, piece = g->pieces ? g->piece[m] : 0;
        int pieces = g->pieces ? grid_pieces(e->x[j] - e->x[i], e->y[j] - e->y[i], lpiece) : 1;
        double mx, my, r;
        grid_piece(e, i, j, piece, pieces, &mx, &my, &r);
        grid_cell(g, mx, my, &ix, &iy);
        g->gs[q] = (GridScan){ (float)(mx - xmin - ix * cs), (float)(my - ymin - iy * cs), (float)r, i, j };
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
    if (g->item_cap < GRID_LARGE) return;
    free(g->key); free(g->item); free(g->piece); free(g->tmp); free(g->rkey); free(g->rslot); free(g->poff);
    g->key = NULL; g->item = g->piece = g->tmp = g->rslot = g->poff = NULL; g->rkey = NULL;
    g->tmp_cap = g->rcap = 0;
    g->poff_cap = 0;
    if (all) {
        free(g->start); free(g->ckey); free(g->vstrip); free(g->strip_id); free(g->vitems); free(g->gs);
        g->start = g->vstrip = g->strip_id = g->vitems = NULL;
        g->ckey = NULL;
        g->gs = NULL;
        g->item_cap = g->vcap = 0;
        g->start_cap = g->ckey_cap = g->strip_cap = 0;
    }
#ifdef __GLIBC__
    malloc_trim(0);   /* (glibc may keep freed memory of the heap resident otherwise) */
#endif
}

size_t grid_bytes(const Grid *g)
{
    return g->start_cap * sizeof *g->start + g->ckey_cap * sizeof *g->ckey + g->strip_cap * (sizeof *g->vstrip + sizeof *g->strip_id) +
           (size_t)(g->key ? g->item_cap : 0) * (sizeof *g->key + sizeof *g->item) + (size_t)(g->piece ? g->item_cap : 0) * sizeof *g->piece +
           (size_t)(g->gs ? g->item_cap : 0) * sizeof *g->gs + (size_t)(g->vitems ? g->vcap : 0) * sizeof *g->vitems +
           2 * (size_t)g->rcap * (sizeof *g->rkey + sizeof *g->rslot) + g->scount_cap * sizeof *g->scount + (size_t)g->tmp_cap * sizeof *g->tmp +
           g->poff_cap * sizeof *g->poff;
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
            int i1 = ens_next(e, i), pieces = g->pieces ? grid_pieces(e->x[i1] - e->x[i], e->y[i1] - e->y[i], g->lpiece) : 1;
            for (int piece = 0; piece < pieces; piece++) {   /* the stencils of the cells of edge i's midpoint (or its pieces'), in grid order */
                double mx, my, rr;
                int ix, iy;
                grid_piece(e, i, i1, piece, pieces, &mx, &my, &rr);
                int64_t c = grid_cell(g, mx, my, &ix, &iy);
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
        }
    return 0;
}

int grid_crossing(const Ensemble *e, double lcut, int self, int *a, int *b)
{
    Grid g;
    grid_init(&g);
    /* the midpoints of two crossing edges (or pieces) at most lcut long are at most lcut apart:
     * neighbouring cells */
    grid_build(&g, e, lcut * (1 + 1e-9), lcut, 0);
    int found = first_crossing(&g, e, self, a, b);
    grid_free(&g);
    return found;
}
