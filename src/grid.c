/* The contact grid: binning, the sorts (by strip, then each strip by cell, without a key per
 * item), the strip table and the stencil scan. See grid.h for the layout. */
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
    free(g->start); free(g->ckey); free(g->ckey32); free(g->item); free(g->piece);
    free(g->vstrip); free(g->strip_id); free(g->vitems);
    free(g->gs); free(g->scount); free(g->bat); free(g->bid); free(g->nocc); free(g->poff);
    free(g->sbuf); free(g->occ); free(g->occ_rank);
    memset(g, 0, sizeof *g);
}

/* ---- the sorts ----
 * Items (vertices by walk cell, or edges' items by search cell) are sorted stably by cell in two
 * passes, without a key per item. First by strip (the buckets): each thread counts the items of
 * a contiguous range of polygons per strip, then places them, so item order is kept within a
 * strip. Then each strip by cell, in a buffer of the thread's own, the keys computed again from
 * the positions. Where the strips far outnumber the items (a tall, sparse extent), the items'
 * strip numbers are radix sorted instead, and the buckets are the occupied strips. An item's
 * payload is its slot, or with pieces its number (g->item, g->piece). */

/* What a sort orders. */
typedef struct Order {
    const Ensemble *e;
    Grid cells;            /* the cells it sorts by (walk or search), for grid_cell */
    int edges;             /* 0: the vertices; 1: the edges' items */
    const int *first;      /* per polygon: its first item (np + 1 of them) */
    int n;                 /* the items */
} Order;

/* The key of the item with payload pay, its cell's column and row in *ix, *iy; for an edge's
 * item also its midpoint and half length. */
static inline int64_t order_key(const Order *o, const Grid *g, int pay, double *mx, double *my,
                                double *r, int *ix, int *iy)
{
    const Ensemble *e = o->e;
    if (!o->edges) return grid_cell(&o->cells, e->x[pay], e->y[pay], ix, iy);
    int i = g->pieces ? g->item[pay] : pay, j = ens_next(e, i);
    int pieces = g->pieces ? grid_pieces(e->x[j] - e->x[i], e->y[j] - e->y[i], g->lpiece) : 1;
    grid_piece(e, i, j, g->pieces ? g->piece[pay] : 0, pieces, mx, my, r);
    return grid_cell(&o->cells, *mx, *my, ix, iy);
}

/* The payload of item j of polygon p, and its strip: the row of order_key's cell from the y
 * coordinates alone, so the same as its key over GRID_STRIP nx. */
static inline int item_strip(const Order *o, const Grid *g, int p, int j, int *pay)
{
    const Ensemble *e = o->e;
    if (!o->edges || !g->pieces) {   /* (a vertex, or a whole edge: its far end without ens_next) */
        int i = *pay = e->start[p] + j, k = j + 1 < e->count[p] ? i + 1 : e->start[p];
        return grid_row(&o->cells, o->edges ? grid_piece_mid(e->y[i], e->y[k], 0, 1) : e->y[i])
               / GRID_STRIP;
    }
    *pay = o->first[p] + j;
    int i = g->item[*pay], k = ens_next(e, i),
        n = grid_pieces(e->x[k] - e->x[i], e->y[k] - e->y[i], g->lpiece);
    return grid_row(&o->cells, grid_piece_mid(e->y[i], e->y[k], g->piece[*pay], n)) / GRID_STRIP;
}

/* A key (below 2^32) with its payload and, for an edge's item, its packed midpoint. */
typedef struct KeyPay { uint32_t key; int pay; uint32_t xyr; } KeyPay;

/* Sorts a[0 .. n) stably by key (below kmax) through b: least significant digit first, in as
 * few passes of 4 to 11 bits as the count asks. Returns the sorted array, a or b. */
static KeyPay *radix_sort(KeyPay *a, KeyPay *b, int n, uint64_t kmax)
{
    if (n < 2) return a;
    int most = 4, kbits = 0;
    while (most < 11 && (1 << most) < n) most++;
    while (kbits < 32 && (kmax - 1) >> kbits) kbits++;
    const int passes = (kbits + most - 1) / most, bits = passes ? (kbits + passes - 1) / passes : 0,
              nb = 1 << bits;
    for (int d = 0; d < passes; d++) {
        int count[2049];
        memset(count, 0, (size_t)(nb + 1) * sizeof *count);   /* (most sorts are short) */
        for (int k = 0; k < n; k++) count[((a[k].key >> (d * bits)) & (uint32_t)(nb - 1)) + 1]++;
        if (count[((a[0].key >> (d * bits)) & (uint32_t)(nb - 1)) + 1] == n)
            continue;   /* (a digit all keys share) */
        for (int c = 0; c < nb; c++) count[c + 1] += count[c];
        for (int k = 0; k < n; k++)
            b[count[(a[k].key >> (d * bits)) & (uint32_t)(nb - 1)]++] = a[k];
        KeyPay *t = a; a = b; b = t;
    }
    return a;
}

/* The polygons of thread t of nt: those whose first item is in [n t / nt, n (t + 1) / nt). */
static void polygon_range(const Order *o, int np, int t, int nt, int *p0, int *p1)
{
    for (int k = 0; k < 2; k++) {
        int64_t m = (int64_t)o->n * (t + k) / nt;
        int lo = 0, hi = np;   /* the first polygon whose first item is >= m */
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (o->first[mid] < m) lo = mid + 1; else hi = mid;
        }
        *(k ? p1 : p0) = t + k == nt ? np : lo;
    }
}

/* Pass 1: the payloads by strip into out[stride * position]; bucket u holds the positions
 * bat[u] .. bat[u + 1] of strip bid[u]. Returns the buckets. all: every strip a bucket (a dense
 * grid's cells all get their start). */
static int by_strip(Grid *g, const Order *o, int *out, int stride, int all)
{
    const Ensemble *e = o->e;
    const int ns = (int)(((int64_t)o->cells.ny + GRID_STRIP - 1) / GRID_STRIP), n = o->n;
    PH_RESERVE(g->bat, g->bat_cap, (size_t)(all || ns <= n / 16 + 4096 ? ns : n) + 1);
    PH_RESERVE(g->bid, g->bid_cap, (size_t)(all || ns <= n / 16 + 4096 ? ns : n) + 1);
    if (all || ns <= n / 16 + 4096) {
        #pragma omp parallel if (n >= GRID_LARGE)
        {
            int nt = 1, t = 0, p0 = 0, p1 = 0, pay;
#ifdef _OPENMP
            nt = omp_get_num_threads();
            t = omp_get_thread_num();
#endif
            #pragma omp single
            PH_RESERVE(g->scount, g->scount_cap, (size_t)nt * (size_t)(ns + 1));
            int *cnt = g->scount + (size_t)t * (size_t)(ns + 1);
            polygon_range(o, e->np, t, nt, &p0, &p1);
            memset(cnt, 0, (size_t)(ns + 1) * sizeof *cnt);
            for (int p = p0; p < p1; p++)
                for (int j = 0; j < o->first[p + 1] - o->first[p]; j++)
                    cnt[item_strip(o, g, p, j, &pay)]++;
            #pragma omp barrier
            #pragma omp single
            {   /* strip s gets thread 0's items, then thread 1's, ... */
                int run = 0;
                for (int s = 0; s < ns; s++) {
                    g->bat[s] = run;
                    g->bid[s] = s;
                    for (int u = 0; u < nt; u++) {
                        int *q = g->scount + (size_t)u * (size_t)(ns + 1) + s, c = *q;
                        *q = run;
                        run += c;
                    }
                }
                g->bat[ns] = run;
            }
            for (int p = p0; p < p1; p++)
                for (int j = 0; j < o->first[p + 1] - o->first[p]; j++) {
                    int strip = item_strip(o, g, p, j, &pay);
                    out[(size_t)stride * (size_t)cnt[strip]++] = pay;
                }
        }
        return ns;
    }
    /* many strips: the items' strip numbers (below 2^28), radix sorted; the occupied ones */
    KeyPay *a = ph_realloc(NULL, 2 * (size_t)n * sizeof *a), *s;
    for (int p = 0, m = 0; p < e->np; p++)
        for (int j = 0; j < o->first[p + 1] - o->first[p]; j++, m++) {
            int pay;
            a[m].key = (uint32_t)item_strip(o, g, p, j, &pay);
            a[m].pay = pay;
        }
    s = radix_sort(a, a + n, n, (uint64_t)ns);
    int nb = 0;
    for (int m = 0; m < n; m++) {
        if (m == 0 || s[m].key != s[m - 1].key) { g->bid[nb] = (int)s[m].key; g->bat[nb++] = m; }
        out[(size_t)stride * (size_t)m] = s[m].pay;
    }
    g->bat[nb] = n;
    free(a);
    return nb;
}

/* An edge's item in gs: its midpoint (mx, my) in its cell (ix, iy) in 11 bits a coordinate and
 * its half length r in 10 bits (grid.h). */
static inline uint32_t pack_scan(const Grid *g, double mx, double my, double r, int ix, int iy)
{
    double fx = floor((mx - g->x0 - (double)ix * g->cs) / g->qxy),
           fy = floor((my - g->y0 - (double)iy * g->cs) / g->qxy), fr = ceil(r / g->qr);
    uint32_t ux = fx > 0 ? (fx < 2047 ? (uint32_t)fx : 2047) : 0,
             uy = fy > 0 ? (fy < 2047 ? (uint32_t)fy : 2047) : 0;
    uint32_t ur = fr > 0 ? (fr < 1023 ? (uint32_t)fr : 1023) : 0;
    return ux | uy << 11 | ur << 22;
}

/* Pass 2: each bucket by cell: the vertices into vitems; the edges' items into gs, with the
 * entries (a sparse grid's for bucket u at ckey, start + bat[u], nocc[u] of them). */
static void by_cell(Grid *g, const Order *o, int nb, int *out, int stride)
{
    const int64_t nx = o->cells.nx, per = (int64_t)GRID_STRIP * nx, ncell = nx * o->cells.ny;
    int most = 0;
    for (int u = 0; u < nb; u++)
        most = g->bat[u + 1] - g->bat[u] > most ? g->bat[u + 1] - g->bat[u] : most;
    const int large = o->n >= GRID_LARGE;
    if (!large && 2 * (size_t)most + 1 > g->sbuf_cap) {   /* (a small grid keeps its buffer) */
        g->sbuf_cap = 3 * (size_t)most + 64;
        free(g->sbuf);
        g->sbuf = ph_realloc(NULL, g->sbuf_cap * sizeof(KeyPay));
    }
    #pragma omp parallel if (large)
    {
        KeyPay *buf = large ? ph_realloc(NULL, 2 * (size_t)most * sizeof *buf + 1) : g->sbuf;
        #pragma omp for schedule(dynamic, 4)
        for (int u = 0; u < nb; u++) {
            const int a = g->bat[u], n = g->bat[u + 1] - a;
            const int64_t base = (int64_t)g->bid[u] * per;   /* (the strip's first cell's key) */
            for (int m = 0; m < n; m++) {
                double mx = 0, my = 0, r = 0;
                int pay = out[(size_t)stride * (size_t)(a + m)], ix, iy;
                int64_t key = order_key(o, g, pay, &mx, &my, &r, &ix, &iy);
                buf[m] = (KeyPay){ (uint32_t)(key - base), pay,
                                   o->edges ? pack_scan(g, mx, my, r, ix, iy) : 0 };
            }
            const KeyPay *s = radix_sort(buf, buf + most, n, (uint64_t)per);
            if (!o->edges) {
                for (int m = 0; m < n; m++) g->vitems[a + m] = s[m].pay;
                continue;
            }
            for (int m = 0; m < n; m++)
                g->gs[a + m] = (GridScan){ s[m].xyr, g->pieces ? g->item[s[m].pay] : s[m].pay };
            if (g->dense) {   /* (the strip's cells: the first position of each) */
                int64_t c1 = base + per < ncell ? base + per : ncell;
                for (int64_t c = base, m = 0; c < c1; c++) {
                    while (m < n && base + s[m].key < c) m++;
                    g->start[c] = a + (int)m;
                }
            } else {
                int occ = 0;
                for (int m = 0; m < n; m++)
                    if (m == 0 || s[m].key != s[m - 1].key) {
                        if (g->ckey32) g->ckey32[a + occ] = (uint32_t)(base + s[m].key);
                        else g->ckey[a + occ] = base + s[m].key;
                        g->start[a + occ++] = a + m;
                    }
                g->nocc[u] = occ;
            }
        }
        if (large) free(buf);
    }
}

/* Appends real strip id (above the last) to the strip table (grid.h), its vertices from
 * vitems[first], after an empty filler when the parity asks for one. */
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

/* Real strip id holds vitems[first .. end): it and its neighbours join the table. */
static void strip_occupied(Grid *g, int id, int first, int end, int nreal)
{
    int last = g->nstrips ? g->strip_id[g->nstrips - 1] : -1;
    if (id - 1 > last) strip_push(g, id - 1, first);
    if (id > last) strip_push(g, id, first);   /* (else pushed as the last one's neighbour) */
    if (id + 1 < nreal) strip_push(g, id + 1, end);
}

/* The walk's cell side (grid.h): at least cs, enlarged until the cells that cover the box
 * number at most `limit`. *wx, *wy: the cells across and up. */
static double bounded_cells(double cs, double limit, double a, double b, double *wx, double *wy)
{
    *wx = a / cs + 1; *wy = b / cs + 1;
    if (*wx * *wy > limit) {   /* the least cs with (a / cs + 1) (b / cs + 1) <= limit */
        double u = a * b > 0
                       ? (sqrt((a + b) * (a + b) + 4 * a * b * (limit - 1)) - (a + b)) / (2 * a * b)
                       : (limit - 1) / (a + b);
        cs = fmax(cs, 1 / u * (1 + 1e-9));
        *wx = a / cs + 1; *wy = b / cs + 1;
    }
    while (*wx * *wy > limit) { cs *= 2; *wx = a / cs + 1; *wy = b / cs + 1; }
    return cs;
}

/* Room for n items and nv vertices, with room to grow where the grid is kept (grid_release).
 * No realloc: the old contents are not wanted, and a copy would hold both at once. */
static void reserve(Grid *g, int n, int nv, int pieces)
{
    if (n > g->item_cap || !g->gs) {   /* (at least one item, even for no vertex) */
        int room = n + n / 2 + 1;
        g->item_cap = n >= GRID_LARGE ? n : room < GRID_LARGE ? room : GRID_LARGE - 1;
        free(g->gs); free(g->item); free(g->piece);
        g->gs = ph_realloc(NULL, (size_t)g->item_cap * sizeof *g->gs);
        g->item = g->piece = NULL;
    }
    if (pieces && !g->item) {
        g->item = ph_realloc(NULL, (size_t)g->item_cap * sizeof *g->item);
        g->piece = ph_realloc(NULL, (size_t)g->item_cap * sizeof *g->piece);
    }
    if (nv + 1 > g->vcap || !g->vitems) {
        g->vcap = nv >= GRID_LARGE ? nv + 1 : nv + nv / 2 + 1;
        free(g->vitems);
        g->vitems = ph_realloc(NULL, (size_t)g->vcap * sizeof *g->vitems);
    }
}

/* Room for n ints in start and, for a sparse grid, n keys in ckey or ckey32 (as reserve). */
static void reserve_entries(Grid *g, size_t n, int keys, int wide)
{
    if (n > g->start_cap) {
        g->start_cap = n + n / 2;
        free(g->start);
        g->start = ph_realloc(NULL, g->start_cap * sizeof *g->start);
    }
    if (keys && (n > g->ckey_cap || (wide ? !g->ckey : !g->ckey32))) {
        g->ckey_cap = n + n / 2;
        free(g->ckey); free(g->ckey32);
        g->ckey = NULL; g->ckey32 = NULL;
        if (wide) g->ckey = ph_realloc(NULL, g->ckey_cap * sizeof *g->ckey);
        else g->ckey32 = ph_realloc(NULL, g->ckey_cap * sizeof *g->ckey32);
    }
}

/* A sparse grid's occupancy bits and the entries below each word, where its cells are at most
 * GRID_OCC_CELLS per item; else none (grid_lower searches). */
static void occupancy(Grid *g, int64_t ncell)
{
    g->occ_words = 0;
    if (ncell > (int64_t)GRID_OCC_CELLS * g->nitems + 4096) return;
    const size_t nw = (size_t)(ncell + 63) / 64;
    if (nw > g->occ_cap || (g->nitems >= GRID_LARGE && nw < g->occ_cap / 2)) {
        free(g->occ); free(g->occ_rank);
        g->occ_cap = g->nitems >= GRID_LARGE ? nw : nw + nw / 2;
        g->occ = ph_realloc(NULL, g->occ_cap * sizeof *g->occ);
        g->occ_rank = ph_realloc(NULL, g->occ_cap * sizeof *g->occ_rank);
    }
    memset(g->occ, 0, nw * sizeof *g->occ);
    for (int m = 0; m < g->nentries; m++) {
        uint64_t c = g->ckey32 ? g->ckey32[m] : (uint64_t)g->ckey[m];
        g->occ[c / 64] |= UINT64_C(1) << (c % 64);
    }
    for (size_t w = 0, run = 0; w < nw; w++) {
        g->occ_rank[w] = (int)run;
        run += (size_t)__builtin_popcountll(g->occ[w]);
    }
    g->occ_words = nw;
}

void grid_build(Grid *g, const Ensemble *e, double cell_size, double lpiece, int walk)
{
    PH_RESERVE(g->poff, g->poff_cap, 2 * ((size_t)e->np + 1));
    int *voff = g->poff, *eoff = g->poff + e->np + 1;   /* per polygon: first vertex, edge item */
    voff[0] = 0;
    for (int p = 0; p < e->np; p++) voff[p + 1] = voff[p] + e->count[p];
    const int nv = voff[e->np];
    double xmin = INFINITY, ymin = INFINITY, xmax = -INFINITY, ymax = -INFINITY, l2max = 0;
    #pragma omp parallel for schedule(static) reduction(min : xmin, ymin) \
                                              reduction(max : xmax, ymax, l2max)
    for (int p = 0; p < e->np; p++) {
        int np = 0;   /* (the pieces of its edges) */
        for (int i = e->start[p], end = i + e->count[p]; i < end; i++) {
            int j = i + 1 < end ? i + 1 : e->start[p];
            double x = e->x[i], y = e->y[i], ex = e->x[j] - x, ey = e->y[j] - y,
                   l2 = ex * ex + ey * ey;   /* (plain comparisons: fmin/fmax are library calls) */
            xmin = x < xmin ? x : xmin; xmax = x > xmax ? x : xmax;
            ymin = y < ymin ? y : ymin; ymax = y > ymax ? y : ymax;
            l2max = l2 > l2max ? l2 : l2max;
            np += grid_pieces(ex, ey, lpiece);
        }
        eoff[p + 1] = np;
    }
    if (nv == 0) xmin = xmax = ymin = ymax = 0;
    /* the edges' pieces, where they are at most 8 per vertex (grid_build in grid.h) */
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
    const double a = xmax - xmin, b = ymax - ymin, ext = fmax(a, b),
                 cs0 = cell_size > 0 ? cell_size : 1;
    const double limit =
        (nv < GRID_LARGE ? GRID_CELLS_PER_VERTEX : GRID_CELLS_PER_VERTEX / 2) * (double)nv + 16;
    const double dense_limit = nv < GRID_LARGE ? 4 * limit : limit;
    /* The search cells: cs0, unless the box is more than GRID_MAX_CELLS of them across. A cell
     * index (x - x0) / cs is rounded by up to 3 ulps, which the callers' margin on the cell size
     * (1e-9 of it) covers up to 10^6 cells across; beyond, the cells grow by as much. */
    double cs = fmax(cs0, ext / (GRID_MAX_CELLS - 2));
    if (ext / cs > 1048576) cs *= 1 + ext / cs * 0x1p-50;
    double wx = a / cs + 1, wy = b / cs + 1;
    g->x0 = xmin; g->y0 = ymin; g->cs = cs; g->inv = 1 / cs;
    g->nx = (int)wx; g->ny = (int)wy;
    g->dense = wx * wy <= dense_limit;
    /* the single-precision first test's rounding (of coordinates in a cell, of lengths of a few
     * cells, of the corner far from the origin), and gs's steps */
    g->scan_margin = 1e-5 * cs + 64 * ldexp(4 * cs, -24) + ldexp(ext + cs, -48) + cs / 2048;
    g->qxy = cs / 2048;
    g->qr = l2max > 0 ? 0.5 * sqrt(l2max) / 1023 : 1;   /* (no piece is longer than the edges) */
    g->nstrips = 0;
    g->nitems = nitems;
    /* the edges' items (an edge, or its pieces) by search cell, into gs: a dense grid's entries
     * are its cells, a sparse one's its occupied cells (their keys into ckey) */
    if (g->pieces) {
        #pragma omp parallel for schedule(static)
        for (int p = 0; p < e->np; p++) {
            int s = e->start[p], n = e->count[p], m = eoff[p];
            for (int i = s; i < s + n; i++) {
                int j = i + 1 < s + n ? i + 1 : s,
                    pieces = grid_pieces(e->x[j] - e->x[i], e->y[j] - e->y[i], lpiece);
                for (int q = 0; q < pieces; q++, m++) { g->item[m] = i; g->piece[m] = q; }
            }
        }
    }
    const int64_t ncell = (int64_t)g->nx * g->ny;
    g->occ_words = 0;
    reserve_entries(g, g->dense ? (size_t)ncell + 1 : (size_t)nitems + 1, !g->dense,
                    ncell > UINT32_MAX);
    Order o = { e, *g, 1, eoff, nitems };
    int nb = by_strip(g, &o, &g->gs[0].k, (int)(sizeof *g->gs / sizeof(int)), g->dense);
    PH_RESERVE(g->nocc, g->nocc_cap, (size_t)nb + 1);
    by_cell(g, &o, nb, &g->gs[0].k, (int)(sizeof *g->gs / sizeof(int)));
    if (g->dense) {
        g->start[ncell] = nitems;
        g->nentries = (int)ncell;
    } else {   /* bucket u's entries were written from start + bat[u]: close the gaps */
        int m = 0;
        for (int u = 0; u < nb; m += g->nocc[u++])
            if (m < g->bat[u] && g->nocc[u]) {
                if (g->ckey32)
                    memmove(g->ckey32 + m, g->ckey32 + g->bat[u],
                            (size_t)g->nocc[u] * sizeof *g->ckey32);
                else
                    memmove(g->ckey + m, g->ckey + g->bat[u], (size_t)g->nocc[u] * sizeof *g->ckey);
                memmove(g->start + m, g->start + g->bat[u], (size_t)g->nocc[u] * sizeof *g->start);
            }
        g->start[m] = nitems;
        g->nentries = m;
        occupancy(g, ncell);
        if (nitems >= GRID_LARGE) {   /* (the pages of the rest, written to or not, go back) */
            g->start_cap = g->ckey_cap = (size_t)m + 1;
            g->start = ph_realloc(g->start, g->start_cap * sizeof *g->start);
            if (g->ckey32) g->ckey32 = ph_realloc(g->ckey32, g->ckey_cap * sizeof *g->ckey32);
            else g->ckey = ph_realloc(g->ckey, g->ckey_cap * sizeof *g->ckey);
        }
    }
    if (walk) {   /* (the walk's vertices go beside gs, not into the edges' entries) */
        /* the walk cells (grid.h) */
        double wcs = bounded_cells(cs0, limit, a, b, &wx, &wy);
        if (!(wcs <= GRID_WALK_ENLARGE * cs0)) wcs = cs;
        if (wcs == cs) { wx = a / cs + 1; wy = b / cs + 1; }
        g->wcs = wcs; g->wnx = (int)wx; g->wny = (int)wy;
        /* the vertices by walk cell, and the strip table: every strip of a dense walk, else the
         * occupied ones with their neighbours */
        Order ov = { e, *g, 0, voff, nv };
        ov.cells.inv = 1 / wcs; ov.cells.nx = g->wnx; ov.cells.ny = g->wny;
        nb = by_strip(g, &ov, g->vitems, 1, 0);
        by_cell(g, &ov, nb, g->vitems, 1);
        const int nreal = (g->wny + GRID_STRIP - 1) / GRID_STRIP;
        if (wx * wy <= dense_limit)
            for (int s = 0, u = 0; s < nreal; s++) {   /* (from its first bucket at or above s) */
                while (u < nb && g->bid[u] < s) u++;
                strip_push(g, s, u < nb ? g->bat[u] : nv);
            }
        else
            for (int u = 0; u < nb; u++)
                if (g->bat[u + 1] > g->bat[u])
                    strip_occupied(g, g->bid[u], g->bat[u], g->bat[u + 1], nreal);
        if (!g->nstrips) strip_push(g, 0, 0);   /* (a table, even for no vertex) */
        g->vstrip[g->nstrips] = nv;
    }
}

/* Branch-free: a mispredicted branch per candidate costs more than the test. Not inlined, so
 * that the compiler keeps the arrays in registers. */
__attribute__((noinline)) int grid_scan_cells(const Grid *g, int n, const int *jb, const int *je,
                                              const double *cx, const double *cy, double ox,
                                              double oy, int i, int iprev, int s0, int n0,
                                              double h, double reach, int *restrict cand, int nc)
{
    const GridScan *restrict gs = g->gs;
    /* (a table: ?: compiles to a branch) */
    const float lim0[2] = { (float)(reach + g->scan_margin), (float)(h + g->scan_margin) };
    const float qxy = (float)g->qxy, qr = (float)g->qr;
    for (int c = 0; c < n; c++) {
        /* (the midpoint is its step's centre: see grid_unpack) */
        const float x = (float)(ox - cx[c]) - 0.5f * qxy, y = (float)(oy - cy[c]) - 0.5f * qxy;
        for (int j = jb[c]; j < je[c]; j++) {
            const uint32_t v = gs[j].xyr;
            float dx = x - (float)(v & 2047) * qxy, dy = y - (float)(v >> 11 & 2047) * qxy;
            float lim = (float)(v >> 22) * qr +
                        lim0[(unsigned)(gs[j].k - s0) < (unsigned)n0];   /* (own polygon) */
            cand[nc] = j;   /* (the two edges that end at i always pass the distance test) */
            nc += (dx * dx + dy * dy < lim * lim) & (gs[j].k != i) & (gs[j].k != iprev);
        }
    }
    return nc;
}

void grid_release(Grid *g, int all)
{
    if (g->item_cap < GRID_LARGE) return;
    free(g->item); free(g->piece); free(g->scount); free(g->bat); free(g->bid); free(g->nocc);
    free(g->poff);
    g->item = g->piece = g->scount = g->bat = g->bid = g->nocc = g->poff = NULL;
    g->scount_cap = g->bat_cap = g->bid_cap = g->nocc_cap = g->poff_cap = 0;
    if (all) {
        free(g->start); free(g->ckey); free(g->ckey32); free(g->vstrip); free(g->strip_id);
        free(g->vitems); free(g->gs);
        free(g->occ); free(g->occ_rank);
        g->occ = NULL; g->occ_rank = NULL;
        g->occ_words = g->occ_cap = 0;
        g->start = g->vstrip = g->strip_id = g->vitems = NULL;
        g->ckey = NULL;
        g->ckey32 = NULL;
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
    return g->start_cap * sizeof *g->start +
           g->ckey_cap * (g->ckey ? sizeof *g->ckey : g->ckey32 ? sizeof *g->ckey32 : 0) +
           g->strip_cap * (sizeof *g->vstrip + sizeof *g->strip_id) +
           (size_t)(g->gs ? g->item_cap : 0) * sizeof *g->gs +
           (size_t)(g->item ? g->item_cap : 0) * (sizeof *g->item + sizeof *g->piece) +
           (size_t)(g->vitems ? g->vcap : 0) * sizeof *g->vitems +
           g->scount_cap * sizeof *g->scount +
           (g->bat_cap + g->bid_cap + g->nocc_cap + g->poff_cap) * sizeof(int) +
           g->sbuf_cap * sizeof(KeyPay) + g->occ_cap * (sizeof *g->occ + sizeof *g->occ_rank);
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
            int i1 = ens_next(e, i),
                pieces = g->pieces
                             ? grid_pieces(e->x[i1] - e->x[i], e->y[i1] - e->y[i], g->lpiece) : 1;
            for (int piece = 0; piece < pieces; piece++) {   /* the stencil of each piece's cell */
                double mx, my, rr;
                int ix, iy;
                grid_piece(e, i, i1, piece, pieces, &mx, &my, &rr);
                int64_t c = grid_cell(g, mx, my, &ix, &iy);
                if (c != cell) { cell = c; grid_rows(g, ix, iy, hint, &r); }
                for (int row = 0; row < r.n; row++)
                    for (int m = g->start[r.b[row]]; m < g->start[r.e[row]]; m++) {
                        int j = g->gs[m].k, q = e->pid[j];
                        if (self ? q != p || j == i || j == i1 || i == ens_next(e, j) : q == p)
                            continue;
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
