/* Pair interactions: the force is minus the gradient of the pair energy in each zone of the
 * trilinear law, between polygons and within one; pair forces conserve momentum; the contact
 * grid finds exactly the pairs an all-pairs search finds. */
#define _POSIX_C_SOURCE 200809L   /* (mkdtemp) */
#include "checkpoint.h"
#include "contact.h"
#include "contact_impl.h"
#include "fixtures.h"
#include "forces.h"
#include "geometry.h"
#include "harness.h"
#include "sim.h"
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static Params pair_params(void)
{
    Params P = fx_params_zero();
    P.kr = 1e7; P.kh = 1e6; P.sh = 0.01; P.ss = 0.01;
    return P;
}

/* The pair records of the last evaluation, all parts in one array (to free), *n of them. */
static PairRec *all_records(const Contact *c, int *n)
{
    PairRec *all = NULL;
    *n = 0;
    for (int t = 0; t < contact_record_parts(c); t++) {
        int k;
        const PairRec *r = contact_records(c, t, &k);
        all = realloc(all, ((size_t)*n + (size_t)k + 1) * sizeof *all);
        if (k) memcpy(all + *n, r, (size_t)k * sizeof *r);
        *n += k;
    }
    return all;
}

static double pair_energy(Contact *c, Ensemble *e, const Params *P)
{
    double U, lmax = forces_update_geometry(e);
    for (int i = 0; i < e->nv_used; i++) e->fx[i] = e->fy[i] = 0;
    contact_forces(c, e, P, lmax, &U);
    return U;
}

/* relative error of the pair forces against central differences of the pair energy */
static double gradient_error(Contact *c, Ensemble *e, const Params *P, double *fbig)
{
    int n = e->nv_used;
    double *f = malloc(2 * (size_t)n * sizeof *f), big = 0, err = 0, d = 1e-7;
    pair_energy(c, e, P);
    for (int i = 0; i < n; i++) { f[2 * i] = e->fx[i]; f[2 * i + 1] = e->fy[i]; big = fmax(big, hypot(e->fx[i], e->fy[i])); }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            double *r = k ? &e->y[i] : &e->x[i], r0 = *r;
            *r = r0 + d; double up = pair_energy(c, e, P);
            *r = r0 - d; double dn = pair_energy(c, e, P);
            *r = r0;
            err = fmax(err, fabs(f[2 * i + k] + (up - dn) / (2 * d)));
        }
    free(f);
    *fbig = big;
    return big > 0 ? err / big : INFINITY;
}

void test_contact_potential_derivative(void)
{
    Params P = pair_params();
    for (int same = 0; same < 2; same++)
        for (double s = -0.02; s < 0.03; s += 0.00037) {
            double d = 1e-7, g = (pair_u(&P, s + d, same) - pair_u(&P, s - d, same)) / (2 * d);
            ENSURE_MSG(fabs(g - pair_du(&P, s, same)) < 1e-3 * (1 + fabs(g)), "s = %g same = %d", s, same);
        }
    /* continuity at the zone boundaries, zero beyond the reach, attraction only between polygons */
    ENSURE_SMALL(pair_u(&P, 0.02, 0), 1e-12);
    ENSURE_SMALL(pair_du(&P, 0.02, 0), 1e-9);
    ENSURE_CLOSE(pair_du(&P, 0.01, 0), P.kh * 0.01, 1e-9);
    ENSURE(pair_du(&P, 0.005, 0) > 0 && pair_du(&P, 0.005, 1) == 0 && pair_du(&P, -0.001, 1) < 0);
}

/* A flat hoop with 0.1-long edges and a thin triangle whose tip sits at separation s above the
 * middle of one edge: the tip interacts with that edge only, in the zone chosen by s. */
static void probe_setup(Ensemble *e, double s, double h)
{
    ensemble_init(e, 1);
    double x[40], y[40];
    int n = 0;
    for (int k = 0; k <= 20; k++) { x[n] = -1 + 0.1 * k; y[n++] = 0; }
    x[n] = 1; y[n++] = -0.5; x[n] = -1; y[n++] = -0.5;
    ensemble_add_polygon(e, n, x, y, 1, 0);
    double tx[3] = { 0.0623, 0.0623 + 0.02, 0.0623 - 0.02 }, ty[3] = { s + h, s + h + 0.6, s + h + 0.6 };
    ensemble_add_polygon(e, 3, tx, ty, 1, 0);
    uint64_t st = 3;   /* small random shifts keep every projection away from edge ends */
    for (int i = 0; i < e->nv_used; i++) { e->x[i] += fx_uniform(&st, -1e-4, 1e-4); e->y[i] += fx_uniform(&st, -1e-4, 1e-4); }
}

void test_contact_gradient_each_zone(void)
{
    Params P = pair_params();
    double s_zone[3] = { -0.004, 0.004, 0.015 };   /* repulsion, hardening, softening */
    for (int z = 0; z < 3; z++) {
        Ensemble e;
        Contact c;
        contact_init(&c);
        probe_setup(&e, s_zone[z], P.h);
        double big, err = gradient_error(&c, &e, &P, &big);
        ENSURE_MSG(big > 1e3, "zone %d: no force (%g)", z, big);
        ENSURE_MSG(err < 1e-6, "zone %d: relative error %.3g", z, err);
        /* the tip is pushed away in the repulsive zone and pulled in the adhesive ones */
        int tip = e.start[1];
        ENSURE(z == 0 ? e.fy[tip] > 0 : e.fy[tip] < 0);
        contact_free(&c);
        ensemble_free(&e);
    }
}

/* One thin polygon (a strip of height 0.008 < h) whose long sides repel each other; vertices
 * of the two sides are staggered so every projection is interior. */
void test_contact_gradient_self_repulsion(void)
{
    Params P = pair_params();
    double x[64], y[64];
    int n = 0;
    for (int k = 0; k <= 10; k++) { x[n] = 0.1 * k; y[n++] = 0; }
    for (int k = 0; k < 10; k++) { x[n] = 0.95 - 0.1 * k; y[n++] = 0.008; }
    Ensemble e;
    Contact c;
    ensemble_init(&e, 1);
    contact_init(&c);
    ensemble_add_polygon(&e, n, x, y, 1, 0);
    uint64_t st = 11;
    for (int i = 0; i < n; i++) { e.x[i] += fx_uniform(&st, -1e-4, 1e-4); e.y[i] += fx_uniform(&st, -1e-4, 1e-4); }
    double big, err = gradient_error(&c, &e, &P, &big);
    ENSURE(big > 1e3);
    ENSURE_MSG(err < 1e-6, "relative error %.3g", err);
    /* the sides push apart: bottom vertices down, top vertices up (the middle ones) */
    ENSURE(e.fy[5] < 0 && e.fy[15] > 0);
    contact_free(&c);
    ensemble_free(&e);
}

/* Self-contact exclusion (docs/model.md 2): a hairpin, a 0.03 x 0.004 rectangle with edges of about h/4,
 * repels itself across its width, except where the two points are within h of each other along
 * the hoop (around its short ends). Checked with cumulative arclengths, independently of the
 * code's walk along the hoop. */
void test_contact_self_exclusion_along_hoop(void)
{
    Params P = pair_params();
    double x[64], y[64], arc[64];
    int n = 0;
    for (int k = 0; k < 12; k++) { x[n] = 0.0025 * k; y[n++] = 0; }
    x[n] = 0.03; y[n++] = 0; x[n] = 0.03; y[n++] = 0.002;
    for (int k = 0; k < 12; k++) { x[n] = 0.03 - 0.00125 - 0.0025 * k; y[n++] = 0.004; }   /* staggered */
    x[n] = 0; y[n++] = 0.004; x[n] = 0; y[n++] = 0.002;
    Ensemble e;
    Contact c;
    ensemble_init(&e, 1);
    contact_init(&c);
    ensemble_add_polygon(&e, n, x, y, 1, 0);
    arc[0] = 0;
    for (int i = 1; i <= n; i++) arc[i] = arc[i - 1] + hypot(x[i % n] - x[i - 1], y[i % n] - y[i - 1]);
    contact_keep_records(&c, 1);
    pair_energy(&c, &e, &P);
    int pairs = 0;
    PairRec *rec = all_records(&c, &pairs);
    for (int m = 0; m < pairs; m++) {
        const PairRec *r = &rec[m];
        double at = arc[r->k] + r->w * (arc[r->k + 1] - arc[r->k]), d = fabs(at - arc[r->i]);
        ENSURE_MSG(d > P.h && arc[n] - d > P.h, "vertex %d and edge %d are %.3g apart along the hoop", r->i, r->k, fmin(d, arc[n] - d));
    }
    free(rec);
    ENSURE(pairs >= 10);   /* the long sides do repel each other */
    contact_free(&c);
    ensemble_free(&e);
}

/* With damping and friction on and random velocities, the pair forces of an overlapping pile of
 * polygons sum to zero. */
void test_contact_momentum(void)
{
    Params P = pair_params();
    P.cc = 30; P.mu = 0.4;
    Ensemble e;
    Contact c;
    ensemble_init(&e, 1);
    contact_init(&c);
    uint64_t st = 5;
    for (int p = 0; p < 30; p++)
        fx_add_ngon(&e, 12, 0.1, fx_uniform(&st, 0, 0.6), fx_uniform(&st, 0, 0.6), fx_uniform(&st, 0, 6));
    for (int i = 0; i < e.nv_used; i++) { e.vx[i] = fx_uniform(&st, -1, 1); e.vy[i] = fx_uniform(&st, -1, 1); }
    pair_energy(&c, &e, &P);
    double sx = 0, sy = 0, big = 0;
    for (int i = 0; i < e.nv_used; i++) { sx += e.fx[i]; sy += e.fy[i]; big = fmax(big, hypot(e.fx[i], e.fy[i])); }
    ENSURE(big > 1e3);
    ENSURE_SMALL(sx / big, 1e-11);
    ENSURE_SMALL(sy / big, 1e-11);
    contact_free(&c);
    ensemble_free(&e);
}

/* The pair forces do not depend on where the ensemble lies: 30 hexagon-ish 12-gons with contact
 * damping and friction, their coordinates multiples of 2^-24 so that moving them by (1024, -512)
 * is exact, give the same forces there up to the rounding of their sums. (The gap between a
 * vertex and an edge is taken from differences of coordinates; taken from the closest point's
 * absolute position it would carry the rounding of coordinates near 1024, 10^-11 of the force.) */
void test_contact_translation_invariant(void)
{
    Params P = pair_params();
    P.cc = 30; P.mu = 0.4;
    Ensemble e;
    Contact c;
    uint64_t st = 11;
    ensemble_init(&e, 1);
    contact_init(&c);
    for (int p = 0; p < 30; p++)
        fx_add_ngon(&e, 12, 0.1, fx_uniform(&st, 0, 0.6), fx_uniform(&st, 0, 0.6), fx_uniform(&st, 0, 6));
    int n = e.nv_used;
    for (int i = 0; i < n; i++) {
        e.x[i] = ldexp(round(ldexp(e.x[i], 24)), -24); e.y[i] = ldexp(round(ldexp(e.y[i], 24)), -24);
        e.vx[i] = fx_uniform(&st, -1, 1); e.vy[i] = fx_uniform(&st, -1, 1);
    }
    double *f0 = malloc(2 * (size_t)n * sizeof *f0), big = 0, err = 0;
    pair_energy(&c, &e, &P);
    for (int i = 0; i < n; i++) { f0[2 * i] = e.fx[i]; f0[2 * i + 1] = e.fy[i]; big = fmax(big, hypot(e.fx[i], e.fy[i])); }
    for (int i = 0; i < n; i++) { e.x[i] += 1024; e.y[i] -= 512; }
    pair_energy(&c, &e, &P);
    for (int i = 0; i < n; i++) err = fmax(err, hypot(e.fx[i] - f0[2 * i], e.fy[i] - f0[2 * i + 1]));
    ENSURE(big > 1e3);
    ENSURE_MSG(err <= 1e-14 * big, "forces differ by %g of %g after the move", err, big);
    free(f0);
    contact_free(&c);
    ensemble_free(&e);
}

/* the (P, Q) pairs found through the grid, as a sorted list of P * nv + Q */
static int cmp_long(const void *a, const void *b) { long x = *(const long *)a, y = *(const long *)b; return (x > y) - (x < y); }

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

/* From 65,536 vertices on, a patch gives at most an eighth of the vertices new records (its work
 * lists cost memory in proportion): in a packing of 67,200 vertices, 20 polygons changed in the
 * bottom rows are patched, 180 (8,640 vertices, more than an eighth) make a rebuild. */
void test_contact_large_patch_limit(void)
{
    Params P = params_compiled;
    Ensemble e;
    static Contact c;
    ensemble_init(&e, 1);
    contact_init(&c);
    for (int r = 0; r < 35; r++)
        for (int k = 0; k < 40; k++)
            fx_add_ngon(&e, 48, 1, (2 + P.h) * (k + 0.5 * (r % 2)), (2 + P.h) * 0.8660254037844386 * r, 0);
    ENSURE(ensemble_vertex_count(&e) == 67200);
    const int changes[2] = { 20, 180 };
    int64_t expect[2][2] = { { 1, 1 }, { 2, 1 } }, builds, patches, reuses;
    double lmax = forces_update_geometry(&e);
    contact_forces_step(&c, &e, &P, lmax);
    for (int t = 0; t < 2; t++) {
        for (int p = 0; p < changes[t]; p++) e.edits[p]++;   /* (rewritten in place: the same vertices) */
        e.layout++;
        contact_forces_step(&c, &e, &P, lmax);
        contact_counts(&c, &builds, &patches, &reuses);
        ENSURE_MSG(builds == expect[t][0] && patches == expect[t][1], "%d polygons changed: list built %lld times, patched %lld",
                   changes[t], (long long)builds, (long long)patches);
    }
    contact_free(&c);
    ensemble_free(&e);
}

/* Every force is summed in the same order at any thread count, for the grid and for the list:
 * a dividing tissue of 60 cells (many strips, bands that start at even and at odd strips) steps
 * 300 times at 1, 2, 3, 4 and 7 threads to the same state, bit for bit, and the forces of a
 * new grid agree bit for bit too. */
void test_contact_same_sums_any_thread_count(void)
{
    const int counts[] = { 1, 2, 3, 4, 7 }, threads = omp_get_max_threads();
    uint64_t hash[5];
    double *ref = NULL;
    for (int t = 0; t < 5; t++) {
        static Sim s;
        sim_init(&s, &params_compiled, 1);
        for (int c = 0; c < 60; c++) fx_add_ngon(&s.e, 24, 1, 2.01 * (c % 6) + 0.3 * (c / 6 % 2), 1.8 * (c / 6), 0);
        sim_draw_traits(&s);
        for (int p = 0; p < s.e.np; p += 5) s.e.Amax[p] = 3;   /* (these divide at once) */
        omp_set_num_threads(counts[t]);
        for (int k = 0; k < 300; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        int64_t builds, patches, reuses;
        contact_counts(&s.contact, &builds, &patches, &reuses);
        ENSURE_MSG(builds > 0 && patches + reuses > 0, "list built %lld, patched %lld, reused %lld", (long long)builds, (long long)patches, (long long)reuses);
        hash[t] = fx_state_hash(&s.e);
        /* the forces of the final state from a new grid */
        Ensemble *e = &s.e;
        double lmax = forces_update_geometry(e);
        for (int i = 0; i < e->nv_used; i++) e->fx[i] = e->fy[i] = 0;
        static Contact c;
        contact_init(&c);
        contact_forces(&c, e, &s.P, lmax, NULL);
        contact_free(&c);
        if (!t) {
            ref = malloc(2 * (size_t)e->nv_used * sizeof *ref);
            memcpy(ref, e->fx, (size_t)e->nv_used * sizeof *ref);
            memcpy(ref + e->nv_used, e->fy, (size_t)e->nv_used * sizeof *ref);
            ENSURE_MSG(s.e.np > 60, "%d cells: no division", s.e.np);
        } else {
            ENSURE_MSG(hash[t] == hash[0], "%d threads: another state than 1 thread after 300 steps", counts[t]);
            ENSURE_MSG(!memcmp(ref, e->fx, (size_t)e->nv_used * sizeof *ref) && !memcmp(ref + e->nv_used, e->fy, (size_t)e->nv_used * sizeof *ref),
                       "%d threads: the grid's forces differ from 1 thread's", counts[t]);
        }
        sim_free(&s);
    }
    omp_set_num_threads(threads);
    free(ref);
}

/* contact_energy (a frame's log) sums each vertex's pair energy in slot order a block of 2,048
 * vertices at a time, without the forces: the same bits as contact_forces' energy, at 1 and 2
 * threads, in a jostling packing of 2,640 vertices with rigid polygons (two blocks, a polygon
 * split between them), and no force touched. */
void test_contact_energy_matches_forces(void)
{
    static Sim s;
    sim_init(&s, &params_compiled, 1);
    for (int c = 0; c < 80; c++) fx_add_ngon(&s.e, 33, 1, 2.01 * (c % 10) + 0.3 * (c / 10 % 2), 1.75 * (c / 10), 0);
    s.e.rigid[3] = s.e.rigid[44] = 1;
    sim_draw_traits(&s);
    int threads = omp_get_max_threads(), checked = 0;
    for (int st = 1; st <= 60; st++) {
        ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        if (st % 20) continue;
        Ensemble *e = &s.e;
        size_t nbytes = (size_t)e->nv_used * sizeof(double);
        double *fx = malloc(nbytes), *fy = malloc(nbytes), U = 0, lmax = forces_update_geometry(e);
        memcpy(fx, e->fx, nbytes); memcpy(fy, e->fy, nbytes);
        for (int t = 1; t <= 2; t++) {
            static Contact c;
            omp_set_num_threads(t);
            contact_init(&c);
            double Uref;
            contact_forces(&c, e, &s.P, lmax, &Uref);
            memcpy(e->fx, fx, nbytes); memcpy(e->fy, fy, nbytes);
            contact_free(&c);
            contact_init(&c);
            U = contact_energy(&c, e, &s.P, lmax);
            contact_free(&c);
            ENSURE_MSG(memcmp(&U, &Uref, sizeof U) == 0 && U != 0, "step %d, %d threads: energy %.17g, contact_forces' %.17g", st, t, U, Uref);
            ENSURE_MSG(!memcmp(fx, e->fx, nbytes) && !memcmp(fy, e->fy, nbytes), "step %d: contact_energy changed the forces", st);
        }
        omp_set_num_threads(threads);
        ENSURE(ensemble_vertex_count(e) > 2048);
        free(fx); free(fy);
        checked++;
    }
    ENSURE(checked == 3);
    sim_free(&s);
}

/* The memory of contact detection per vertex (docs/performance.md, Memory), in a packing of
 * 72,000 vertices (above GRID_LARGE: the grid freed while the list serves, the patches' work
 * space given back for a frame's grids), a few of its cells thrown in so that the list is
 * patched: the bytes its structures hold (contact_bytes, grid_bytes; their rooms included), not
 * the process's resident memory, so the bounds hold on any machine. Measured 2026-11-26, bytes
 * per vertex (the bounds): the list with its snapshot 9.0 (10.5), with a patch's work space
 * 22.9 (26), the grid of a list build 17.8 (20.5), a frame's grid (no walk cells, smaller
 * cells) 18.7 (21.5). A list of two ints an edge, a grid of 20-byte edges or 64-bit keys of
 * occupied cells would each break one. */
void test_contact_memory_per_vertex(void)
{
    Params P = params_compiled;
    P.alpha_mu = 0; P.Amax_mu = INFINITY;   /* no growth, no division */
    static Sim s;
    sim_init(&s, &P, 1);
    uint64_t rng = 7;
    for (int r = 0; r < 30; r++)
        for (int c = 0; c < 50; c++) {
            double x = (2 + P.h) * (c + 0.5 * (r % 2)), y = (2 + P.h) * 0.8660254037844386 * r;
            if ((r * 50 + c) % 97 == 5) fx_add_moving_ngon(&s.e, 48, 1, x, y, 0, &rng, 0.2 * P.h / P.dt);
            else fx_add_ngon(&s.e, 48, 1, x, y, 0);
        }
    sim_draw_traits(&s);
    const double nv = ensemble_vertex_count(&s.e);
    ENSURE(nv == 72000 && s.e.nv_used >= GRID_LARGE);
    int64_t builds = 0, patches = 0, reuses = 0, before = 0;
    for (int k = 0; k < 200 && !(builds > 0 && patches > before); k++) {   /* (until a step patches the list) */
        before = patches;
        ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        contact_counts(&s.contact, &builds, &patches, &reuses);
    }
    double serving = contact_bytes(&s.contact) / nv;
    contact_trim(&s.contact);
    double list = contact_bytes(&s.contact) / nv;
    /* the grid a list build makes (contact_forces_step: cells for the reach plus the skin) */
    const double lmax = forces_update_geometry(&s.e), reach = params_reach(&P), lcell = fmax(lmax, fmin(P.lmax, lmax + SKIN * reach));
    Grid g;
    grid_init(&g);
    grid_build(&g, &s.e, (0.5 * lcell + reach + SKIN * reach) * (1 + 1e-9), lcell, 1);
    grid_release(&g, 0);
    double build = grid_bytes(&g) / nv;
    grid_free(&g);
    grid_init(&g);   /* (a frame's: contact_energy, the neighbour count) */
    grid_build(&g, &s.e, (0.5 * fmin(lmax, P.lmax) + reach) * (1 + 1e-9), fmin(lmax, P.lmax), 0);
    grid_release(&g, 0);
    double frame = grid_bytes(&g) / nv;
    grid_free(&g);
    ENSURE_MSG(builds > 0 && patches > 0 && reuses > 0 && !contact_holds_grid(&s.contact), "list built %lld, patched %lld, reused %lld",
               (long long)builds, (long long)patches, (long long)reuses);
    ENSURE_MSG(serving <= 26 && list <= 10.5 && list < serving, "the list and its snapshot: %.1f bytes per vertex, %.1f with the patches' work space",
               list, serving);
    ENSURE_MSG(build <= 20.5 && frame <= 21.5, "the grid of a list build: %.1f bytes per vertex, a frame's: %.1f", build, frame);
    sim_free(&s);
}

/* Whether every record of c's list names its edges in slot order; *nrec = the records. */
static int records_in_slot_order(const Contact *c, int *nrec)
{
    *nrec = 0;
    for (int s = 0; s < c->nstrips; s++) {
        const int *q = c->strip[s].rec;
        for (size_t m = 0; m < c->strip[s].n; m += 2 + (size_t)rec_count(q[m + 1]), ++*nrec)
            for (int a = 1; a < rec_count(q[m + 1]); a++)
                if (q[m + 2 + a] <= q[m + 1 + a]) return 0;
    }
    return 1;
}

/* contact_walked counts the listed edges that each step's walk over the list takes: none in a
 * step that built the list (it walks the grid), every edge of the list after the step in a step
 * that patched or reused it, in a dividing tissue, step by step. */
void test_contact_walked_counts_listed_edges(void)
{
    static Sim s;
    sim_init(&s, &params_compiled, 1);
    for (int c = 0; c < 30; c++) fx_add_ngon(&s.e, 24, 1, 2.01 * (c % 6) + 0.3 * (c / 6 % 2), 1.8 * (c / 6), 0);
    sim_draw_traits(&s);
    for (int p = 0; p < s.e.np; p += 5) s.e.Amax[p] = 3;   /* (these divide at once) */
    int64_t seen[3] = { 0, 0, 0 }, walked = contact_walked(&s.contact), edges_total = 0;
    ENSURE(walked == 0);
    for (int k = 0; k < 300; k++) {
        int64_t b0, p0, r0, b1, p1, r1, edges = 0;
        contact_counts(&s.contact, &b0, &p0, &r0);
        ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        contact_counts(&s.contact, &b1, &p1, &r1);
        for (int st = 0; st < s.contact.nstrips; st++) {
            const int *q = s.contact.strip[st].rec;
            for (size_t m = 0; m < s.contact.strip[st].n; m += 2 + (size_t)rec_count(q[m + 1])) edges += rec_count(q[m + 1]);
        }
        int64_t now = contact_walked(&s.contact), kind = b1 > b0 ? 0 : p1 > p0 ? 1 : 2;
        ENSURE_MSG(b1 + p1 + r1 == b0 + p0 + r0 + 1, "step %d counted %lld times", k, (long long)(b1 + p1 + r1 - b0 - p0 - r0));
        ENSURE_MSG(now - walked == (kind ? edges : 0), "step %d (%s): %lld edges walked, the list has %lld", k,
                   kind == 0 ? "built" : kind == 1 ? "patched" : "reused", (long long)(now - walked), (long long)edges);
        seen[kind]++;
        edges_total += kind ? edges : 0;
        walked = now;
    }
    ENSURE_MSG(seen[0] > 0 && seen[1] > 0 && seen[2] > 0 && s.e.np > 30, "%d cells; steps built %lld, patched %lld, reused %lld",
               s.e.np, (long long)seen[0], (long long)seen[1], (long long)seen[2]);
    ENSURE(walked == edges_total && edges_total > 100 * seen[2]);
    sim_free(&s);
}

/* The picking ends (contact.c) look for an edge's neighbours next to it in a vertex's list, so
 * every record names its edges in slot order: after the builds and patches of a dividing tissue,
 * and after reading a checkpoint whose records are not (an earlier version's): that file goes
 * on exactly like the same state with its records in order. */
void test_contact_records_in_slot_order(void)
{
    static Sim s, r[2];
    sim_init(&s, &params_compiled, 1);
    for (int c = 0; c < 30; c++) fx_add_ngon(&s.e, 24, 1, 2.01 * (c % 6) + 0.3 * (c / 6 % 2), 1.8 * (c / 6), 0);
    sim_draw_traits(&s);
    for (int p = 0; p < s.e.np; p += 5) s.e.Amax[p] = 3;   /* (these divide at once) */
    for (int k = 0; k < s.P.Ns; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);   /* (one frame) */
    int64_t builds, patches, reuses;
    contact_counts(&s.contact, &builds, &patches, &reuses);
    int nrec, reversed = 0;
    ENSURE_MSG(s.e.np > 30 && builds > 0 && patches > 0, "%d cells, list built %lld, patched %lld", s.e.np, (long long)builds, (long long)patches);
    ENSURE(records_in_slot_order(&s.contact, &nrec) && nrec > 100);
    char dir[] = "/tmp/ph_test_contact_XXXXXX", path[2][96], err[512] = "", input[64];
    ENSURE(mkdtemp(dir));
    for (int v = 0; v < 2; v++) {
        snprintf(path[v], sizeof path[v], "%s/c%d.bin", dir, v);
        if (v)   /* the second file: each record's edges in reverse order */
            for (int st = 0; st < s.contact.nstrips; st++) {
                int *q = s.contact.strip[st].rec;
                for (size_t m = 0; m < s.contact.strip[st].n; m += 2 + (size_t)rec_count(q[m + 1]))
                    for (int a = 0, b = rec_count(q[m + 1]) - 1; a < b; a++, b--, reversed++) { int t = q[m + 2 + a]; q[m + 2 + a] = q[m + 2 + b]; q[m + 2 + b] = t; }
            }
        ENSURE_MSG(checkpoint_write(path[v], &s, 1, "in.off", NULL, err, sizeof err) == 0, "%s", err);
    }
    ENSURE(reversed > 0 && !records_in_slot_order(&s.contact, &nrec));
    uint64_t hash[2];
    for (int v = 0; v < 2; v++) {
        int frame;
        sim_init(&r[v], &params_compiled, 1);
        ENSURE_MSG(checkpoint_read(path[v], &r[v], &frame, input, sizeof input, NULL, err, sizeof err) == 0, "%s", err);
        ENSURE(records_in_slot_order(&r[v].contact, &nrec));
        for (int k = 0; k < 100; k++) ENSURE_MSG(sim_step(&r[v]) == 0, "%s", r[v].error);
        hash[v] = fx_state_hash(&r[v].e);
        ENSURE(records_in_slot_order(&r[v].contact, &nrec));
        remove(path[v]);
        sim_free(&r[v]);
    }
    rmdir(dir);
    ENSURE_MSG(hash[0] == hash[1], "the file with reversed records went on differently");
    sim_free(&s);
}

/* Two dividing tissues of 20 cells, 1.2 10^4 apart: a sparse grid, whose walk is in the search
 * cells and whose list keeps a table of some strips. */
static void two_tissues(Sim *s)
{
    sim_init(s, &params_compiled, 1);
    for (int c = 0; c < 40; c++) {
        double far = c < 20 ? 0 : 1;
        fx_add_ngon(&s->e, 24, 1, 2.01 * (c % 5) + 0.3 * (c / 5 % 2) + 6e3 * far, 1.8 * (c / 5 % 4) + 1e4 * far, 0);
    }
    sim_draw_traits(s);
    for (int p = 0; p < s->e.np; p += 5) s->e.Amax[p] = 3;   /* (these divide at once) */
}

/* A growable buffer for contact_save. */
typedef struct { char *b; size_t n; } Buf;
static void buf_put(void *out, const void *d, size_t n)
{
    Buf *w = out;
    w->b = realloc(w->b, w->n + n);
    memcpy(w->b + w->n, d, n);
    w->n += n;
}

/* contact_load of the bytes b[0 .. n), the list of a run with parameters P at step */
static int load_bytes(Contact *c, const char *b, size_t n, const Params *P, int64_t step)
{
    char why[512];
    FILE *f = fmemopen((void *)b, n, "rb");
    int r = contact_load(c, NULL, f, n, P, step, why, sizeof why);
    fclose(f);
    return r;
}

/* The list of a sparse grid keeps its guarantees: 300 steps of two dividing tissues 1.2 10^4
 * apart (built, patched and reused; a table of some strips, far fewer than the grid's rows ask)
 * reach the same state bit for bit at 1, 2, 3 and 7 threads; a checkpoint written at frame 1
 * (step 1,000) and read back goes on for 300 steps to the same state as the run never stopped;
 * and its section's strip numbers are checked: one that repeats the one before, or of the
 * wrong parity, or past the grid, is refused. */
void test_contact_sparse_list_threads_restart(void)
{
    const int counts[] = { 1, 2, 3, 7 }, threads = omp_get_max_threads();
    uint64_t hash[4], resumed = 0, straight = 0;
    char dir[] = "/tmp/ph_test_sparse_XXXXXX", path[96], err[512] = "", input[64];
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/c.bin", dir);
    for (int t = 0; t < 4; t++) {
        static Sim s, r;
        two_tissues(&s);
        omp_set_num_threads(counts[t]);
        for (int k = 0; k < 300; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        hash[t] = fx_state_hash(&s.e);
        int64_t builds, patches, reuses;
        contact_counts(&s.contact, &builds, &patches, &reuses);
        const Contact *c = &s.contact;
        ENSURE_MSG(builds > 0 && patches > 0 && reuses > 0 && s.e.np > 40, "%d cells; list built %lld, patched %lld, reused %lld",
                   s.e.np, (long long)builds, (long long)patches, (long long)reuses);
        ENSURE_MSG(c->list_ok && (double)c->list_nx * c->list_ny > 1e8 && c->nstrips < 100 && c->nstrips < (c->list_ny + GRID_STRIP - 1) / GRID_STRIP,
                   "the list's grid: %d x %d cells, %d strips", c->list_nx, c->list_ny, c->nstrips);
        ENSURE_MSG(hash[t] == hash[0], "%d threads: another state than 1 thread after 300 steps", counts[t]);
        if (t == 0) {   /* on to frame 1, its checkpoint, 300 steps more; and the same from the checkpoint */
            for (int k = 300; k < s.P.Ns; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
            ENSURE_MSG(checkpoint_write(path, &s, 1, "in.off", NULL, err, sizeof err) == 0, "%s", err);
            int frame;
            sim_init(&r, &params_compiled, 1);
            ENSURE_MSG(checkpoint_read(path, &r, &frame, input, sizeof input, NULL, err, sizeof err) == 0, "%s", err);
            for (int k = 0; k < 300; k++) ENSURE_MSG(sim_step(&s) == 0 && sim_step(&r) == 0, "%s%s", s.error, r.error);
            resumed = fx_state_hash(&r.e);
            straight = fx_state_hash(&s.e);
            sim_free(&r);
            /* the section's strip numbers (after int32 state, 18 doubles and int32 nx, ny, strips) */
            Buf w = { NULL, 0 };
            contact_save(c, &s.e, buf_put, &w);
            static Contact back;
            contact_init(&back);
            ENSURE(load_bytes(&back, w.b, w.n, &s.P, s.e.step) == 0 && back.nstrips == c->nstrips && !memcmp(back.strip_id, c->strip_id, (size_t)c->nstrips * sizeof *c->strip_id));
            int32_t *id = (int32_t *)(w.b + 4 + 18 * 8 + 12), keep = id[1];
            ENSURE(c->nstrips >= 3 && id[0] == c->strip_id[0] && id[c->nstrips - 1] == c->strip_id[c->nstrips - 1]);
            const int32_t bad[3] = { id[0], id[1] + 1, (c->list_ny + GRID_STRIP - 1) / GRID_STRIP + 1 };
            for (int b = 0; b < 3; b++) {
                id[b < 2 ? 1 : c->nstrips - 1] = bad[b];
                ENSURE_MSG(load_bytes(&back, w.b, w.n, &s.P, s.e.step) == -1 && !back.list_ok, "strip number %d (%d) accepted", b, bad[b]);
                id[1] = keep; id[c->nstrips - 1] = c->strip_id[c->nstrips - 1];
            }
            ENSURE(load_bytes(&back, w.b, w.n, &s.P, s.e.step) == 0);
            contact_free(&back);
            free(w.b);
        }
        sim_free(&s);
    }
    omp_set_num_threads(threads);
    ENSURE_MSG(resumed == straight, "the run continued from the checkpoint differs");
    remove(path);
    rmdir(dir);
}

/* (test_contact_sparse_patch_without_marks, four of the hoops d away) */
static void patch_without_marks(double d)
{
    Params P = params_compiled;
    Ensemble e;
    static Contact c, fresh;
    ensemble_init(&e, 1);
    contact_init(&c);
    for (int k = 0; k < 8; k++) fx_add_ngon(&e, 24, 0.5, 1.02 * (k % 4) + (k < 4 ? 0 : d), 1.02 * (k % 2) + (k < 4 ? 0 : d), 0);
    double lmax = forces_update_geometry(&e);
    int nv = e.nv_used;
    double *f = malloc(2 * (size_t)nv * sizeof *f);
    contact_forces_step(&c, &e, &P, lmax);
    for (int t = 0; t < 2; t++) {
        if (t) e.edits[5]++;   /* (rewritten in place: the same vertices) */
        e.layout++;
        for (int i = 0; i < nv; i++) e.fx[i] = e.fy[i] = 0;
        contact_forces_step(&c, &e, &P, lmax);
        memcpy(f, e.fx, (size_t)nv * sizeof *f); memcpy(f + nv, e.fy, (size_t)nv * sizeof *f);
        for (int i = 0; i < nv; i++) e.fx[i] = e.fy[i] = 0;
        contact_init(&fresh);
        contact_forces(&fresh, &e, &P, lmax, NULL);
        contact_free(&fresh);
        int64_t builds, patches, reuses;
        contact_counts(&c, &builds, &patches, &reuses);
        ENSURE_MSG(builds == 1 && patches == t + 1 && c.nstrips < (c.list_ny + GRID_STRIP - 1) / GRID_STRIP,
                   "list built %lld times, patched %lld; %d strips of %d rows", (long long)builds, (long long)patches, c.nstrips, c.list_ny);
        ENSURE_MSG(!memcmp(f, e.fx, (size_t)nv * sizeof *f) && !memcmp(f + nv, e.fy, (size_t)nv * sizeof *f), "patch %d: other forces than a new grid's", t);
    }
    ENSURE_MSG(d < 1e6 || (double)c.list_nx * c.list_ny > 0x1p55, "the list's grid, hoops %g away: %d x %d cells", d, c.list_nx, c.list_ny);
    free(f);
    contact_free(&c);
    ensemble_free(&e);
}

/* A patch of a sparse grid's list with no polygon to renew (the layout changed, every polygon
 * unchanged: as after a removal) marks nothing and renumbers the list; then a patch that renews
 * one polygon: both give the forces of a new grid, bit for bit (the same records, in the same
 * strips, in the same order). Four hoops 3 10^4 away, and 10^9 away: a grid of more than 2^55
 * cells, whose cell numbers take every pass of the patch's radix sort. */
void test_contact_sparse_patch_without_marks(void)
{
    for (int far = 0; far < 2; far++) patch_without_marks(far ? 1e9 : 3e4);
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

/* The forces of one walk over the list with kept pair records, whose walk takes the pairs one by
 * one, with no data-independent passes (vertex_forces), into fx, fy; counts the walk. */
static void list_walk_forces(Contact *c, Ensemble *e, const Params *P, double lmax, int keep, double *fx, double *fy)
{
    int64_t b0, p0, r0, b1, p1, r1;
    contact_counts(c, &b0, &p0, &r0);
    for (int i = 0; i < e->nv_used; i++) e->fx[i] = e->fy[i] = 0;
    contact_keep_records(c, keep);
    contact_forces_step(c, e, P, lmax);
    contact_keep_records(c, 0);
    contact_counts(c, &b1, &p1, &r1);
    ENSURE_MSG(b1 == b0 && p1 == p0 && r1 == r0 + 1, "the list was not reused (built %lld, patched %lld)", (long long)(b1 - b0), (long long)(p1 - p0));
    memcpy(fx, e->fx, (size_t)e->nv_used * sizeof *fx);
    memcpy(fy, e->fy, (size_t)e->nv_used * sizeof *fy);
}

/* The batched walk over the list (contact.c: projections, picking ends, pair law and sums in
 * passes over batches of records) gives the forces of the walk pair by pair bit for bit: in a
 * jostled packing of 3- to 40-gons (their last edges: records with the wrap flag; distances in
 * every zone of the pair law) with random velocities, contact damping and with and without
 * friction, two thin hairpins, one with edges of 0.003, four polygons with edges of about 0.003
 * and two folds (pairs within one polygon: ends next to the vertex, the exclusion along the hoop), a 600-gon of radius 0.004
 * beside another polygon's vertex (a record of more edges than a batch holds, which goes the pair
 * by pair way in its place); then with every seventh polygon rigid, and with three cell
 * types whose matrices set kh and mu pair by pair (one entry 0: no friction there). Many
 * batches, none of them empty. */
void test_contact_batched_walk_same_bits(void)
{
    const double kh3[9] = { 1e6, 2e5, 0, 2e5, 3e6, 1e5, 0, 1e5, 5e5 }, mu3[9] = { 0.4, 0.1, 0.2, 0.1, 0, 0.3, 0.2, 0.3, 0.6 };
    for (int v = 0; v < 8; v++) {
        Params P = pair_params();
        P.cc = 30; P.mu = v % 2 ? 0.4 : 0;
        Ensemble e;
        Contact c;
        uint64_t st = 23 + (uint64_t)v;
        ensemble_init(&e, 1);
        contact_init(&c);
        for (int p = 0; p < 120; p++)
            fx_add_ngon(&e, 3 + p % 38, 0.1, 0.19 * (p % 12) + fx_uniform(&st, -0.02, 0.02), 0.19 * (p / 12) + fx_uniform(&st, -0.02, 0.02),
                        fx_uniform(&st, 0, 6));
        double hx[320], hy[320];   /* two hairpins: arms 0.006 apart, less than h, vertices 0.05 and 0.003 apart */
        for (int k = 0; k < 60; k++) { hx[k] = -1 + 0.05 * k; hy[k] = -0.5; hx[119 - k] = hx[k]; hy[119 - k] = -0.494; }
        ensemble_add_polygon(&e, 120, hx, hy, 1, 0);
        for (int k = 0; k < 100; k++) { hx[k] = -1 + 0.003 * k; hy[k] = -0.8; hx[199 - k] = hx[k]; hy[199 - k] = -0.794; }
        ensemble_add_polygon(&e, 200, hx, hy, 1, 0);
        const double zx[8] = { 0, 0.003, 0.003, -0.003, -0.003, 0.1, 0.1, 0.0035 }, zy[8] = { 0, 0, 0.002, 0.002, -0.05, -0.05, -0.001, -0.001 };
        for (int k = 0; k < 8; k++) { hx[k] = 5 + zx[k]; hy[k] = 5 + zy[k]; }   /* (a fold whose vertex 0 sees edge 2 -> 3, 0.008 away */
        ensemble_add_polygon(&e, 8, hx, hy, 1, 0);                             /* along the hoop: excluded) */
        /* folds of long edges, A = (0, 0): A lies beside edge B -> C, whose end B follows A on the
         * hoop, and C beside edge A -> B, whose end B precedes C (pairs within one polygon that the
         * ends next to the vertex do not pick); the last edge far from the fold, then next to it
         * (records with the wrap flag) */
        for (int f = 0; f < 4; f++) {
            const double fx7[7] = { -0.3, -0.05, 0, 0.05, f % 2 ? 0.02 : -0.01, -0.05, -0.3 }, fy7[7] = { -0.3, -0.05, 0, 0, 0.004, 0.05, 0.3 };
            for (int k = 0; k < 7; k++) { hx[k] = 6 + f + fx7[(k + 5 * (f / 2)) % 7]; hy[k] = 6 + fy7[(k + 5 * (f / 2)) % 7]; }
            ensemble_add_polygon(&e, 7, hx, hy, 1, 0);
        }
        for (int f = 0; f < 2; f++) {
            const double fx5[5] = { 0, 0.05, f ? 0.02 : -0.01, -0.05, -0.05 }, fy5[5] = { 0, 0, 0.004, 0.05, -0.05 };
            for (int k = 0; k < 5; k++) { hx[k] = 7 + f + fx5[k]; hy[k] = 7 + fy5[k]; }
            ensemble_add_polygon(&e, 5, hx, hy, 1, 0);
        }
        fx_add_ngon(&e, 600, 0.004, 3, -0.5, 0);
        for (int k = 0; k < 4; k++) fx_add_ngon(&e, 40 + 10 * k, 0.02 + 0.005 * k, 2.5 + 0.2 * k, -0.8, k);   /* (edges of 0.003: pairs within one polygon) */
        fx_add_ngon(&e, 8, 0.05, 3.06, -0.5, 0);
        for (int i = 0; i < e.nv_used; i++) { e.vx[i] = fx_uniform(&st, -1, 1); e.vy[i] = fx_uniform(&st, -1, 1); }
        for (int p = 0; p < e.np; p++) {
            e.rigid[p] = (v == 2 || v == 3 || v == 7) && p % 7 == 3;
            e.type[p] = p % 3;
        }
        if (v >= 4) { e.type_kh = kh3; e.ntypes_kh = 3; }
        if (v == 5 || v == 7) e.type_mu = mu3;
        double lmax = forces_update_geometry(&e);
        for (int i = 0; i < e.nv_used; i++) e.fx[i] = e.fy[i] = 0;
        contact_forces_step(&c, &e, &P, lmax);   /* (builds the list) */
        long most = 0, own = 0, wraps = 0, edges = 0;
        for (int s = 0; s < c.nstrips; s++)
            for (size_t m = 0; m < c.strip[s].n; ) {
                const int *q = c.strip[s].rec + m;
                int nl = rec_count(q[1]), p = e.pid[q[0]], mine = 0;
                for (int a = 0; a < nl; a++) mine |= e.pid[q[2 + a]] == p;
                most = nl > most ? nl : most; own += mine; wraps += (q[1] & REC_WRAP) != 0; edges += nl;
                m += 2 + (size_t)nl;
            }
        ENSURE_MSG(most > BATCH && own > 10 && wraps > 100 && edges > 20 * BATCH, "records: longest %ld edges, %ld with own edges, %ld with the "
                   "wrap flag; %ld edges", most, own, wraps, edges);
        int n = e.nv_used;
        double *f = malloc(4 * (size_t)n * sizeof *f), big = 0;
        list_walk_forces(&c, &e, &P, lmax, 0, f, f + n);
        ENSURE(c.walk_batched);
        list_walk_forces(&c, &e, &P, lmax, 1, f + 2 * n, f + 3 * n);
        ENSURE(!c.walk_batched);
        int differ = 0;
        for (int i = 0; i < n; i++) {
            differ += memcmp(&f[i], &f[2 * n + i], sizeof *f) || memcmp(&f[n + i], &f[3 * n + i], sizeof *f);
            big = fmax(big, hypot(f[i], f[n + i]));
        }
        ENSURE_MSG(!differ && big > 1e3, "case %d: %d of %d vertices' forces differ (largest force %g)", v, differ, n, big);
        free(f);
        contact_free(&c);
        ensemble_free(&e);
    }
}
