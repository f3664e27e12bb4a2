/* The contact grid: it finds exactly the pairs an all-pairs search finds (sparse grids, far
 * polygons and long edges in pieces too) in bounded memory, and the neighbour count equals the
 * count from the pair records. */
#include "contact_fixtures.h"
#include "contact_impl.h"
#include "geometry.h"
#include "grid.h"
#include "harness.h"
#include "sim.h"
#include <omp.h>

/* the (P, Q) pairs found through the grid, as a sorted list of P * nv + Q */
static int cmp_long(const void *a, const void *b) { long x = *(const long *)a, y = *(const long *)b; return (x > y) - (x < y); }

/* The model's definition of a pair taken literally (docs/model.md 2): the pair (vertex i, the
 * closer of the two edges incident on vertex q); if they interact, returns 1, stores the edge in
 * r (ends = the bit of q), the force on i in (*fx, *fy) and adds the pair energy to *u (if u). */
static int pair_eval(const Ensemble *e, const Params *P, int i, int q, PairRec *r, double *fx,
                     double *fy, double *u)
{
    int pi = e->pid[i], pq = e->pid[q];
    if (e->rigid[pi] && e->rigid[pq]) return 0;
    int qn = ens_next(e, q), qp = ens_prev(e, q);
    if (i == q || i == qn || i == qp) return 0;
    double px = e->x[i], py = e->y[i], qx = e->x[q], qy = e->y[q];
    /* project P on q->qn and q->qp; t in [0,1] is measured from q */
    double ax = e->x[qn] - qx, ay = e->y[qn] - qy, bx = e->x[qp] - qx, by = e->y[qp] - qy;
    double dx = px - qx, dy = py - qy;
    double aa = ax * ax + ay * ay, bb = bx * bx + by * by;
    double ta = (dx * ax + dy * ay) / aa, tb = (dx * bx + dy * by) / bb;
    ta = ta > 0 ? (ta < 1 ? ta : 1) : 0;   /* (a zero-length edge gives NaN: then 0) */
    tb = tb > 0 ? (tb < 1 ? tb : 1) : 0;
    double ra2 = (dx - ta * ax) * (dx - ta * ax) + (dy - ta * ay) * (dy - ta * ay);
    double rb2 = (dx - tb * bx) * (dx - tb * bx) + (dy - tb * by) * (dy - tb * by);
    double t = ra2 <= rb2 ? ta : tb;     /* tie: the edge after q */
    if (t >= 1) return 0;   /* P lies beyond the far end: that vertex's pair covers it */
    if (ra2 <= rb2) *r = (PairRec){ i, q, qn, 1, ta };
    else *r = (PairRec){ i, qp, q, 2, 1 - tb };
    double uu;
    double nx, ny;
    pair_gap(e, i, r->k, r->k1, r->w, &nx, &ny);
    if (!pair_force(e, P, i, r->k, r->k1, r->w, pi == pq, nx, ny, fx, fy, u ? &uu : NULL)) return 0;
    if (u) *u += uu;
    return 1;
}

/* The grid's per-edge evaluation against the model's definition taken literally: every (P, Q)
 * pair of vertices through pair_eval. Same pairs, and the same forces and energy up to
 * rounding. */
static void compare_with_brute_force(Ensemble *e, const Params *P)
{
    Contact c;
    contact_init(&c);
    contact_keep_records(&c, 1);
    double U = pair_energy(&c, e, P), Ub = 0, big = 0, err = 0;
    int nv = e->nv_used, ng = 0, nb = 0, nrec;
    long *grid = malloc((size_t)nv * nv * sizeof *grid), *brute = malloc((size_t)nv * nv * sizeof *brute);
    double *bfx = calloc((size_t)nv, sizeof *bfx), *bfy = calloc((size_t)nv, sizeof *bfy);
    PairRec *rec = all_records(&c, &nrec);
    for (int m = 0; m < nrec; m++) {
        const PairRec *r = &rec[m];
        ENSURE(r->ends >= 1 && r->ends <= 3);
        if (r->ends & 1) grid[ng++] = (long)r->i * nv + r->k;
        if (r->ends & 2) grid[ng++] = (long)r->i * nv + r->k1;
    }
    free(rec);
    for (int i = 0; i < nv; i++)
        for (int q = 0; q < nv; q++) {
            PairRec r;
            double fx, fy;
            if (!pair_eval(e, P, i, q, &r, &fx, &fy, &Ub)) continue;
            brute[nb++] = (long)i * nv + q;
            if (!e->rigid[e->pid[i]]) { bfx[i] += fx; bfy[i] += fy; }
            if (!e->rigid[e->pid[r.k]]) {
                bfx[r.k] -= (1 - r.w) * fx; bfy[r.k] -= (1 - r.w) * fy;
                bfx[r.k1] -= r.w * fx; bfy[r.k1] -= r.w * fy;
            }
        }
    qsort(grid, (size_t)ng, sizeof *grid, cmp_long);
    ENSURE_MSG(ng == nb, "grid found %d pairs, all-pairs search %d", ng, nb);
    for (int k = 0; k < ng && k < nb; k++) ENSURE(grid[k] == brute[k]);
    ENSURE(nb > 0);
    for (int i = 0; i < nv; i++) big = fmax(big, hypot(bfx[i], bfy[i]));
    for (int i = 0; i < nv; i++) err = fmax(err, hypot(e->fx[i] - bfx[i], e->fy[i] - bfy[i]));
    ENSURE_MSG(err <= 1e-9 * big, "force difference %g of %g", err, big);
    ENSURE_CLOSE(U, Ub, 1e-9 * (1 + fabs(Ub)));
    free(grid); free(brute); free(bfx); free(bfy);
    contact_free(&c);
}

void test_contact_grid_matches_brute_force(void)
{
    Params P = pair_params();
    for (int trial = 0; trial < 20; trial++) {
        Ensemble e;
        ensemble_init(&e, 1);
        uint64_t st = 1000 + (uint64_t)trial;
        int np = 5 + trial * 3;
        double box = 0.15 * sqrt(np);
        for (int p = 0; p < np; p++) {
            int n = 3 + (int)fx_uniform(&st, 0, 10);
            fx_add_ngon(&e, n, fx_uniform(&st, 0.03, 0.15), fx_uniform(&st, 0, box), fx_uniform(&st, 0, box), fx_uniform(&st, 0, 6.3));
        }
        /* vertices exactly on the bounding box extremes, on a lattice of the cell size */
        double lmax = forces_update_geometry(&e), cs = (lmax + params_reach(&P)) * (1 + 1e-9);
        double sq[4][2] = { { 0, 0 }, { 3, 0 }, { 3, 3 }, { 0, 3 } }, x[4], y[4];
        for (int k = 0; k < 4; k++) { x[k] = -1 + cs * sq[k][0]; y[k] = -1 + cs * sq[k][1]; }
        ensemble_add_polygon(&e, 4, x, y, 1, 0);
        for (int k = 0; k < 4; k++) { x[k] = -1 + cs * (3 + sq[k][0] / 3) + 0.001; y[k] = -1 + cs * (3 + sq[k][1] / 3) + 0.001; }
        ensemble_add_polygon(&e, 4, x, y, 1, 0);
        if (trial % 5 == 4) {   /* one polygon far away */
            for (int k = 0; k < 4; k++) { x[k] = 1e6 + sq[k][0] * 0.01; y[k] = 1e6 + sq[k][1] * 0.01; }
            ensemble_add_polygon(&e, 4, x, y, 1, 0);
        }
        if (trial % 2) e.rigid[0] = e.rigid[1] = 1;   /* rigid-rigid pairs are skipped */
        compare_with_brute_force(&e, &P);
        ensemble_free(&e);
    }
    /* two dense hoops 0.005 apart: dozens of nearby edges per vertex, whose lists are sorted by
     * the Shell sort's larger gaps, not only by insertion */
    Ensemble e;
    ensemble_init(&e, 1);
    fx_add_ngon(&e, 300, 0.02, 0, 0, 0);
    fx_add_ngon(&e, 300, 0.02, 0.045, 0, 0.3);
    compare_with_brute_force(&e, &P);
    ensemble_free(&e);
}

/* The edges in the 3x3 stencils of the vertices' search cells, summed over the vertices (what
 * the pair search scans, up to the skipped edges of a vertex's own polygon); *most: the largest. */
static long stencil_load(const Grid *g, const Ensemble *e, int *most)
{
    long sum = 0;
    *most = 0;
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            int ix, iy, n;
            GridRows r;
            grid_cell(g, e->x[i], e->y[i], &ix, &iy);
            n = grid_rows(g, ix, iy, NULL, &r);
            sum += n;
            *most = n > *most ? n : *most;
        }
    return sum;
}

/* Whether the grid's tables are consistent: every vertex once in vitems, in strips whose real
 * numbers increase with the parity of their place, each vertex in the strip of its walk row;
 * every edge in gs as often as it has pieces, each item in the entry of its midpoint's cell (its
 * midpoint within that cell), entries in increasing keys; a sparse grid's occupancy bits give
 * every cell the entry that the search finds. */
static int grid_consistent(const Grid *g, const Ensemble *e)
{
    int nv = ensemble_vertex_count(e), ok = g->nstrips > 0 && g->vstrip[0] == 0 && g->vstrip[g->nstrips] == nv;
    int *seen = calloc((size_t)e->nv_used, 2 * sizeof *seen);
    for (int s = 0; ok && s < g->nstrips; s++) {
        ok = (g->strip_id[s] - s) % 2 == 0 && (s == 0 || g->strip_id[s] > g->strip_id[s - 1]) && g->vstrip[s] <= g->vstrip[s + 1];
        for (int m = g->vstrip[s]; ok && m < g->vstrip[s + 1]; m++) {
            int i = g->vitems[m];
            double fy = (e->y[i] - g->y0) / g->wcs;
            int row = fy >= g->wny ? g->wny - 1 : (int)fy;
            ok = !seen[2 * i]++ && row / GRID_STRIP == g->strip_id[s];
        }
    }
    if (ok && g->occ_words) {   /* (a sparse grid's bits: the entry of every cell, as the search finds it) */
        Grid s = *g;
        s.occ_words = 0;
        for (int64_t c = 0, m = 0; ok && c <= (int64_t)g->nx * g->ny; c++) {
            while (m < g->nentries && grid_key(g, (int)m) < c) m++;
            ok = grid_lower(g, c, 0) == m && grid_lower(&s, c, (int)(c % (g->nentries + 1))) == m;
        }
    }
    for (int m = 0; ok && m < g->nentries; m++) {
        ok = g->start[m] <= g->start[m + 1] && (g->dense || m == 0 || grid_key(g, m) > grid_key(g, m - 1));
        for (int q = g->start[m]; ok && q < g->start[m + 1]; q++) {
            const GridScan *it = &g->gs[q];
            int64_t key = grid_key(g, m), iy = key / g->nx, ix = key - iy * g->nx;
            int k1 = ens_next(e, it->k), pieces = g->pieces ? grid_pieces(e->x[k1] - e->x[it->k], e->y[k1] - e->y[it->k], g->lpiece) : 1;
            double x, y, r, w, gx, gy, half = 0.5 * hypot(e->x[k1] - e->x[it->k], e->y[k1] - e->y[it->k]) / pieces;
            grid_unpack(g, q, &x, &y, &r);
            /* (its midpoint within its cell and within half a step of its edge, its half length
             * rounded up by less than a step) */
            ok = x > 0 && x < g->cs && y > 0 && y < g->cs && r >= half * (1 - 1e-9) && r <= half + g->qr * (1 + 1e-9) &&
                 project(e, g->x0 + ix * g->cs + x, g->y0 + iy * g->cs + y, it->k, k1, &w, &gx, &gy) <= 0.5 * g->qxy * g->qxy + 1e-10 * g->cs * g->cs;
            seen[2 * it->k + 1]++;
        }
    }
    for (int p = 0; ok && p < e->np; p++)
        for (int i = e->start[p]; ok && i < e->start[p] + e->count[p]; i++) {
            int j = ens_next(e, i), pieces = g->pieces ? grid_pieces(e->x[j] - e->x[i], e->y[j] - e->y[i], g->lpiece) : 1;
            ok = seen[2 * i] == (g->nstrips > 0) && seen[2 * i + 1] == pieces;
        }
    free(seen);
    return ok;
}

/* A vertex far away must not make the grid large, nor its cells: a 40-gon with one vertex moved
 * 10^6 away keeps the search cells that the pair search asks for (10^7 of them across), its
 * tables consistent and its memory in proportion to the vertices (at most 256 bytes each, and a
 * few kilobytes); one moved 10^9 away (10^10 cells across) enlarges them only as far as 2^30
 * cells across ask. */
void test_contact_grid_bounded_memory(void)
{
    Params P = pair_params();
    const double far[2] = { 1e6, 1e9 };
    for (int k = 0; k < 2; k++) {
        Ensemble e;
        Grid g;
        ensemble_init(&e, 1);
        grid_init(&g);
        fx_add_ngon(&e, 40, 1, 0, 0, 0);
        double cs = 0.5 * forces_update_geometry(&e) + params_reach(&P);   /* (the hoop's cells: the far vertex's edges are long) */
        e.x[7] = far[k]; e.y[7] = far[k];
        grid_build(&g, &e, cs, INFINITY, 1);
        ENSURE(grid_consistent(&g, &e));
        ENSURE_MSG(k ? g.cs <= 1.001 * far[k] / GRID_MAX_CELLS && g.cs > cs : g.cs <= cs * (1 + 1e-6),
                   "cells %g wide for %g asked, the far vertex %g away", g.cs, cs, far[k]);
        ENSURE_MSG(!g.dense && g.nentries <= 40 && g.nstrips <= 6 * 40 && grid_bytes(&g) <= 256 * 40 + 16384,
                   "far vertex %g away: %d entries, %d strips, %zu bytes", far[k], g.nentries, g.nstrips, grid_bytes(&g));
        grid_free(&g);
        ensemble_free(&e);
    }
}

/* A sparse grid finds a cell's entry by its occupancy bits where its cells are at most
 * GRID_OCC_CELLS per item, else by a search: 30 pairs of small polygons 0.008 apart, spread ever
 * thinner (box 6 to 12), give dense grids, sparse ones with bits and sparse ones without; each is
 * consistent (the bits give every cell the entry the search gives: grid_consistent), and the
 * pairs and forces are those of the all-pairs search. */
void test_contact_grid_occupancy_bits(void)
{
    Params P = pair_params();
    int kinds[3] = { 0, 0, 0 };   /* dense, sparse with bits, sparse without */
    for (double box = 6; box < 12; box *= 1.04) {
        Ensemble e;
        ensemble_init(&e, 1);
        uint64_t st = 4242;
        for (int p = 0; p < 30; p++) {
            double x = fx_uniform(&st, 0, box), y = fx_uniform(&st, 0, box), ra = fx_uniform(&st, 0.03, 0.06), rb = fx_uniform(&st, 0.03, 0.06);
            fx_add_ngon(&e, 3 + (int)fx_uniform(&st, 0, 10), ra, x - ra - 0.004, y, 0);
            fx_add_ngon(&e, 3 + (int)fx_uniform(&st, 0, 10), rb, x + rb + 0.004, y, 0);
        }
        Grid g;
        grid_init(&g);
        grid_build(&g, &e, (0.5 * forces_update_geometry(&e) + params_reach(&P)) * (1 + 1e-9), INFINITY, 1);
        ENSURE_MSG(grid_consistent(&g, &e), "box %g: %s grid", box, g.dense ? "dense" : g.occ_words ? "a sparse with bits" : "a sparse");
        kinds[g.dense ? 0 : g.occ_words ? 1 : 2]++;
        grid_free(&g);
        compare_with_brute_force(&e, &P);
        ensemble_free(&e);
    }
    ENSURE_MSG(kinds[0] && kinds[1] && kinds[2], "grids: %d dense, %d sparse with bits, %d without", kinds[0], kinds[1], kinds[2]);
}

/* The (P, Q) pairs of a force evaluation from a new grid (records: P = r.i, Q = the picking end),
 * as a sorted list of P * base + Q; *n of them. */
static long *grid_pairs(Ensemble *e, const Params *P, long base, int *n)
{
    Contact c;
    contact_init(&c);
    contact_keep_records(&c, 1);
    pair_energy(&c, e, P);
    int nrec;
    PairRec *rec = all_records(&c, &nrec);
    long *pairs = malloc((2 * (size_t)nrec + 1) * sizeof *pairs);
    *n = 0;
    for (int m = 0; m < nrec; m++) {
        if (rec[m].ends & 1) pairs[(*n)++] = rec[m].i * base + rec[m].k;
        if (rec[m].ends & 2) pairs[(*n)++] = rec[m].i * base + rec[m].k1;
    }
    qsort(pairs, (size_t)*n, sizeof *pairs, cmp_long);
    free(rec);
    contact_free(&c);
    return pairs;
}

/* A far polygon changes no pair: small random ensembles find the same (P, Q) pairs with a
 * triangle added 3 10^4, 10^7 or 10^12 away (right, diagonally, below; the cells stay as asked
 * up to 2^30 across, a sparse grid) as without it, and with it the pairs of an all-pairs search
 * and its forces up to rounding (compare_with_brute_force). */
void test_contact_far_polygon_same_pairs(void)
{
    Params P = pair_params();
    const double dist[3] = { 3e4, 1e7, 1e12 }, dir[3][2] = { { 1, 0 }, { 0.6, 0.8 }, { 0, -1 } };
    for (int trial = 0; trial < 9; trial++) {
        Ensemble e;
        ensemble_init(&e, 1);
        uint64_t st = 77 + (uint64_t)trial;
        int np = 10 + 4 * trial;
        double box = 0.15 * sqrt(np);
        for (int p = 0; p < np; p++)
            fx_add_ngon(&e, 3 + (int)fx_uniform(&st, 0, 10), fx_uniform(&st, 0.03, 0.15), fx_uniform(&st, 0, box), fx_uniform(&st, 0, box), fx_uniform(&st, 0, 6.3));
        int near = e.nv_used, n0, n1;
        long base = near + 3;
        long *alone = grid_pairs(&e, &P, base, &n0);
        double d = dist[trial % 3], x[3], y[3];
        for (int k = 0; k < 3; k++) {
            x[k] = box / 2 + d * dir[trial / 3][0] + 0.3 * cos(2.1 * k);
            y[k] = box / 2 + d * dir[trial / 3][1] + 0.3 * sin(2.1 * k);
        }
        ensemble_add_polygon(&e, 3, x, y, 1, 0);
        long *with = grid_pairs(&e, &P, base, &n1);
        ENSURE_MSG(n0 > 0 && n0 == n1, "trial %d, triangle %g away: %d pairs without it, %d with it", trial, d, n0, n1);
        for (int k = 0; k < n0 && k < n1; k++) ENSURE_MSG(alone[k] == with[k], "trial %d: pair %d differs", trial, k);
        Grid g;
        grid_init(&g);
        double cs = (0.5 * forces_update_geometry(&e) + params_reach(&P)) * (1 + 1e-9);
        grid_build(&g, &e, cs, INFINITY, 1);
        ENSURE(grid_consistent(&g, &e) && !g.dense && (d > 1e9 || g.cs <= cs * (1 + 1e-6)));
        grid_free(&g);
        compare_with_brute_force(&e, &P);
        free(alone); free(with);
        ensemble_free(&e);
    }
}

/* The number of polygons whose edges cross one of another polygon, the first pair (a <= b) in
 * slot order, by testing every pair of edges. */
static int crossing_brute(const Ensemble *e, int *a, int *b)
{
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++)
            for (int q = 0; q < e->np; q++)
                for (int j = e->start[q]; q != p && j < e->start[q] + e->count[q]; j++) {
                    int i1 = ens_next(e, i), j1 = ens_next(e, j);
                    if (geom_segments_cross((Vec2){ e->x[i], e->y[i] }, (Vec2){ e->x[i1], e->y[i1] }, (Vec2){ e->x[j], e->y[j] }, (Vec2){ e->x[j1], e->y[j1] })) {
                        *a = p < q ? p : q; *b = p < q ? q : p;
                        return 1;
                    }
                }
    return 0;
}

/* grid_crossing in a sparse ensemble: a row of hoops with a triangle 10^5 away finds no
 * crossing; two hoops planted across each other, by the row or by the far triangle, are found,
 * the same first pair as a test of every pair of edges. */
void test_contact_grid_crossing_sparse(void)
{
    for (int plant = 0; plant < 3; plant++) {
        Ensemble e;
        ensemble_init(&e, 1);
        for (int k = 0; k < 12; k++) fx_add_ngon(&e, 20, 0.5, 1.2 * k, 0.1 * (k % 3), 0.1 * k);
        double x[3] = { 1e5, 1e5 + 0.4, 1e5 }, y[3] = { -1e5, -1e5, -1e5 + 0.4 };
        ensemble_add_polygon(&e, 3, x, y, 1, 0);
        if (plant == 1) fx_add_ngon(&e, 16, 0.3, 1.2 * 5 + 0.6, 0, 0);           /* across hoops 5 and 6 */
        if (plant == 2) fx_add_ngon(&e, 16, 0.3, 1e5 + 0.3, -1e5 + 0.1, 0);      /* across the triangle */
        int a = -1, b = -1, ba = -1, bb = -1, found = grid_crossing(&e, forces_update_geometry(&e), 0, &a, &b), brute = crossing_brute(&e, &ba, &bb);
        ENSURE_MSG(found == (plant > 0) && brute == found && a == ba && b == bb,
                   "planted %d: grid %d (%d, %d), all pairs %d (%d, %d)", plant, found, a, b, brute, ba, bb);
        ensemble_free(&e);
    }
}

/* The cost of the pair search follows the vertices, not the extent (counted, not timed): in a
 * packing of 100 cells of 48 vertices (3.5 edges per stencil) the stencils hold as many edges with
 * a small triangle 3 10^4 away as without it; the earlier grids, limited to 4 cells per vertex,
 * made cells 218 wide, one for the whole packing, 4,803 edges in every stencil. The grid's memory
 * stays below 200 bytes per vertex (91 measured). A ring of 100,000 vertices 0.1 apart (extent
 * 3,200: the earlier cells were 7.1 wide, 70 edges each) has at most 30 edges in a stencil (4
 * measured), no crossing and no neighbour. */
void test_contact_sparse_grid_counted(void)
{
    Params P = params_compiled;
    Ensemble e;
    ensemble_init(&e, 1);
    for (int r = 0; r < 10; r++)
        for (int k = 0; k < 10; k++) fx_add_ngon(&e, 48, 1, (2 + P.h) * (k + 0.5 * (r % 2)), (2 + P.h) * 0.8660254037844386 * r, 0);
    long load[2];
    int most[2];
    for (int far = 0; far < 2; far++) {
        if (far) { double x[3] = { 3e4, 3e4 + 0.08, 3e4 }, y[3] = { 3e4, 3e4, 3e4 + 0.08 }; ensemble_add_polygon(&e, 3, x, y, 1, 0); }
        Grid g;
        grid_init(&g);
        grid_build(&g, &e, (0.5 * forces_update_geometry(&e) + params_reach(&P)) * (1 + 1e-9), INFINITY, 1);
        load[far] = stencil_load(&g, &e, &most[far]);
        int nv = ensemble_vertex_count(&e);
        ENSURE_MSG(grid_consistent(&g, &e) && grid_bytes(&g) <= 200 * (size_t)nv, "%zu bytes for %d vertices", grid_bytes(&g), nv);
        grid_free(&g);
    }
    ENSURE_MSG(load[1] <= load[0] + 100 && most[1] <= most[0] + 2 && load[0] < 5 * 4800, "stencils hold %ld edges (at most %d) with the far triangle, %ld (%d) without",
               load[1], most[1], load[0], most[0]);
    ensemble_free(&e);
    /* the ring */
    ensemble_init(&e, 1);
    int n = 100000;
    double pi = acos(-1), R = 0.1 / (2 * sin(pi / n)), *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    for (int k = 0; k < n; k++) { x[k] = R * cos(2 * pi * k / n); y[k] = R * sin(2 * pi * k / n); }
    ensemble_add_polygon(&e, n, x, y, 1, 0);
    free(x); free(y);
    double lmax = forces_update_geometry(&e);
    Grid g;
    grid_init(&g);
    grid_build(&g, &e, (0.5 * lmax + params_reach(&P)) * (1 + 1e-9), INFINITY, 1);
    int ring_most;
    long ring = stencil_load(&g, &e, &ring_most);
    ENSURE_MSG(grid_consistent(&g, &e) && ring_most <= 30 && grid_bytes(&g) <= 200 * (size_t)n, "ring: at most %d edges in a stencil (%ld in all), %zu bytes",
               ring_most, ring, grid_bytes(&g));
    grid_free(&g);
    int a, b, *nb = malloc(sizeof *nb);
    ENSURE(!grid_crossing(&e, lmax, 1, &a, &b));
    Contact c;
    contact_init(&c);
    contact_count_neighbors(&c, &e, &P, lmax, nb);
    ENSURE(nb[0] == 0);
    contact_free(&c);
    free(nb);
    ensemble_free(&e);
}

/* The neighbour count by its definition, for reference: from the records of a full force
 * evaluation on a new grid, the distinct other polygons that a polygon meets in a pair, as the
 * vertex's or as the edge's. */
static void neighbors_from_records(const Ensemble *e, const Params *P, int *nb)
{
    static Contact c;
    Ensemble copy = *e;   /* (the forces go into copies of fx, fy) */
    copy.fx = calloc((size_t)e->nv_cap, sizeof *copy.fx);
    copy.fy = calloc((size_t)e->nv_cap, sizeof *copy.fy);
    contact_init(&c);
    contact_keep_records(&c, 1);
    contact_forces(&c, &copy, P, forces_update_geometry(&copy), NULL);
    int n;
    PairRec *rec = all_records(&c, &n);
    char *seen = calloc((size_t)e->np * (size_t)e->np, 1);
    for (int p = 0; p < e->np; p++) nb[p] = 0;
    for (int m = 0; m < n; m++) {
        int a = e->pid[rec[m].i], b = e->pid[rec[m].k];
        if (a != b && !seen[(size_t)a * (size_t)e->np + (size_t)b]++) nb[a]++;
        if (a != b && !seen[(size_t)b * (size_t)e->np + (size_t)a]++) nb[b]++;
    }
    free(seen); free(rec); free(copy.fx); free(copy.fy);
    contact_free(&c);
}

/* contact_count_neighbors equals the record-based count for every polygon, on the states of a
 * growing, dividing, remodeling tissue of 36 cells (two of them rigid, side by side), from the
 * step's list and from a new grid, at 1 and 2 threads; it leaves the forces alone, and a run
 * that counts goes on bit for bit like one that does not. */
void test_contact_count_neighbors_matches_records(void)
{
    static Sim a, b;
    int threads = omp_get_max_threads(), checked = 0, *nb = NULL, *ref = NULL, *nb2 = NULL;
    long total = 0;
    for (int k = 0; k < 2; k++) {
        Sim *s = k ? &b : &a;
        sim_init(s, &params_compiled, 1);
        for (int c = 0; c < 36; c++) fx_add_ngon(&s->e, 24, 1, 2.01 * (c % 6) + 0.2 * (c / 6 % 2), 2.01 * (c / 6), 0);
        s->e.rigid[0] = s->e.rigid[1] = 1;
        sim_draw_traits(s);
    }
    static Contact fresh;
    contact_init(&fresh);
    for (int st = 1; st <= 1000; st++) {
        ENSURE_MSG(sim_step(&a) == 0 && sim_step(&b) == 0, "%s%s", a.error, b.error);
        if (st % 25) continue;
        Ensemble *e = &b.e;
        size_t nbytes = (size_t)e->nv_used * sizeof(double);
        double *fx = malloc(nbytes), *fy = malloc(nbytes);
        memcpy(fx, e->fx, nbytes); memcpy(fy, e->fy, nbytes);
        nb = realloc(nb, (size_t)e->np * sizeof *nb);
        ref = realloc(ref, (size_t)e->np * sizeof *ref);
        nb2 = realloc(nb2, (size_t)e->np * sizeof *nb2);
        neighbors_from_records(e, &b.P, ref);
        for (int t = 1; t <= 2; t++) {
            omp_set_num_threads(t);
            if (t == 1) contact_count_neighbors(&b.contact, e, &b.P, forces_update_geometry(e), nb);
            else contact_count_neighbors(&fresh, e, &b.P, forces_update_geometry(e), nb2);
        }
        omp_set_num_threads(threads);
        for (int p = 0; p < e->np; p++) {
            ENSURE_MSG(nb[p] == ref[p] && nb2[p] == ref[p], "step %d, polygon %d: %d neighbours from the step's contact, %d from a new grid, %d from records",
                       st, p, nb[p], nb2[p], ref[p]);
            total += nb[p];
        }
        ENSURE_MSG(!memcmp(fx, e->fx, nbytes) && !memcmp(fy, e->fy, nbytes), "step %d: counting changed the forces", st);
        free(fx); free(fy);
        checked++;
    }
    int64_t builds, patches, reuses;
    contact_counts(&b.contact, &builds, &patches, &reuses);
    ENSURE_MSG(reuses > 0 && builds > 0, "list built %lld, reused %lld", (long long)builds, (long long)reuses);
    ENSURE_MSG(b.e.np > 36 && total > 4 * 36 * checked, "%d cells, %ld neighbours in all: no growing tissue", b.e.np, total);
    ENSURE_MSG(fx_state_hash(&a.e) == fx_state_hash(&b.e), "counting changed the run");
    contact_free(&fresh);
    free(nb); free(ref); free(nb2);
    sim_free(&a);
    sim_free(&b);
}

/* An edge longer than remodeling leaves (a division's cut, until the next step remodels it) goes
 * into a grid of its own in pieces, so it does not make every cell as large: hoops of 12 vertices
 * along a strip 30 long and 0.05 thick (two edges of 30, 150 pieces each), touching it, find the
 * pairs and forces of an all-pairs search, and the neighbour count of the records; the stencils
 * hold at most 40 items (16 measured: cells for the 0.2 that remodeling leaves, 0.13 wide; cells
 * for an edge of 30 would be 15 wide, a stencil every hoop); grid_crossing finds no crossing, then
 * a hoop planted across the middle of a long edge, as an all-pairs test does. */
void test_contact_long_edge_in_pieces(void)
{
    Params P = pair_params();
    for (int plant = 0; plant < 2; plant++) {
        Ensemble e;
        ensemble_init(&e, 1);
        double x[4] = { 0, 30, 30, 0 }, y[4] = { 0, 0, 0.05, 0.05 };
        ensemble_add_polygon(&e, 4, x, y, 1, 0);
        for (int k = 0; k < 40; k++) fx_add_ngon(&e, 12, 0.1, 0.5 + 0.72 * k, k % 2 ? 0.16 : -0.11, 0.1 * k);   /* (0.01 from the strip) */
        if (plant) fx_add_ngon(&e, 12, 0.1, 15.3, 0.02, 0);
        double lmax = forces_update_geometry(&e), lc = fmin(lmax, P.lmax);
        int a = -1, b = -1, ba = -1, bb = -1, found = grid_crossing(&e, lc, 0, &a, &b), brute = crossing_brute(&e, &ba, &bb);
        ENSURE_MSG(found == plant && brute == found && a == ba && b == bb, "planted %d: grid %d (%d, %d), all pairs %d (%d, %d)", plant, found, a, b, brute, ba, bb);
        if (plant) { ensemble_free(&e); break; }
        Grid g;
        grid_init(&g);
        grid_build(&g, &e, (0.5 * lc + params_reach(&P)) * (1 + 1e-9), lc, 1);
        int most;
        long load = stencil_load(&g, &e, &most);
        ENSURE_MSG(lmax > 29 && g.pieces && g.nitems == e.nv_used - 2 + 300 && most <= 40 && grid_consistent(&g, &e),
                   "longest edge %g: %d items for %d edges, stencils of at most %d items (%ld in all)", lmax, g.nitems, e.nv_used, most, load);
        grid_free(&g);
        compare_with_brute_force(&e, &P);
        int *nb = malloc((size_t)e.np * sizeof *nb), *ref = malloc((size_t)e.np * sizeof *ref);
        static Contact c;
        contact_init(&c);
        contact_count_neighbors(&c, &e, &P, lmax, nb);
        neighbors_from_records(&e, &P, ref);
        for (int p = 0; p < e.np; p++) ENSURE_MSG(nb[p] == ref[p], "polygon %d: %d neighbours counted, %d from records", p, nb[p], ref[p]);
        for (int p = 1; p <= 40; p++) ENSURE_MSG(nb[p] == 1, "hoop %d: %d neighbours (the strip, through its long edges)", p, nb[p]);
        ENSURE_MSG(nb[0] == 40, "the strip: %d neighbours (the 40 hoops that touch it)", nb[0]);   /* (counted both ways) */
        contact_free(&c);
        free(nb); free(ref);
        ensemble_free(&e);
    }
}
