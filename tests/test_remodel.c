/* Remodeling: afterwards every edge of a non-rigid polygon is in [lmin, lmax], the sum of rest
 * lengths of every polygon is unchanged, rigid polygons are refined but never coarsened, and the
 * vertex slots are contiguous in polygon order. */
#include "fixtures.h"
#include "geometry.h"
#include "harness.h"
#include "remodel.h"
#include <stdlib.h>

/* a wobbly polygon with edges from much shorter than lmin to much longer than lmax */
static int add_ragged(Ensemble *e, uint64_t *st, double cx, int rigid)
{
    double x[200], y[200], a = 0;
    int n = 0;
    while (a < 2 * PH_PI && n < 200) {
        double r = 1 + fx_uniform(st, -0.05, 0.05);
        x[n] = cx + r * cos(a); y[n] = r * sin(a); n++;
        a += fx_uniform(st, 0, 1) < 0.5 ? fx_uniform(st, 0.001, 0.02) : fx_uniform(st, 0.1, 0.9);
    }
    return ensemble_add_polygon(e, n, x, y, 1, rigid);
}

static double sum_l0(const Ensemble *e, int p)
{
    double s = 0;
    for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) s += e->l0[i];
    return s;
}

void test_remodel_edges_in_range(void)
{
    Params P = fx_params_zero();
    for (int trial = 0; trial < 10; trial++) {
        Ensemble e;
        Remodel r;
        ensemble_init(&e, 1);
        remodel_init(&r);
        uint64_t st = 77 + (uint64_t)trial;
        for (int p = 0; p < 5; p++) add_ragged(&e, &st, 3.0 * p, 0);
        remodel(&e, &P, &r);
        int short_edges = 0, long_edges = 0;
        for (int p = 0; p < e.np; p++)
            for (int i = e.start[p]; i < e.start[p] + e.count[p]; i++) {
                int j = ens_next(&e, i);
                double l = hypot(e.x[j] - e.x[i], e.y[j] - e.y[i]);
                short_edges += l < P.lmin;
                long_edges += l > P.lmax * (1 + 1e-12);
            }
        ENSURE_MSG(short_edges == 0 && long_edges == 0, "trial %d: %d short, %d long", trial, short_edges, long_edges);
        remodel_free(&r);
        ensemble_free(&e);
    }
}

void test_remodel_conserves_rest_length(void)
{
    Params P = fx_params_zero();
    Ensemble e;
    Remodel r;
    ensemble_init(&e, 1);
    remodel_init(&r);
    uint64_t st = 5;
    double before[4];
    for (int p = 0; p < 4; p++) {
        add_ragged(&e, &st, 3.0 * p, 0);
        for (int i = e.start[p]; i < e.start[p] + e.count[p]; i++) e.l0[i] *= fx_uniform(&st, 0.5, 1.5);
        before[p] = sum_l0(&e, p);
    }
    int n0 = e.nv_used;
    ENSURE(remodel(&e, &P, &r) != 0 || e.nv_used != n0);
    for (int p = 0; p < 4; p++) ENSURE_CLOSE(sum_l0(&e, p), before[p], 1e-12 * before[p]);
    remodel_free(&r);
    ensemble_free(&e);
}

void test_remodel_rigid_only_refined(void)
{
    Params P = fx_params_zero();
    Ensemble e;
    Remodel r;
    ensemble_init(&e, 1);
    remodel_init(&r);
    uint64_t st = 9;
    int p = add_ragged(&e, &st, 0, 1);
    int n0 = e.count[p], shortest = 0;
    double x0 = e.x[0], y0 = e.y[0];
    remodel(&e, &P, &r);
    ENSURE(e.count[p] > n0);              /* long edges were split ... */
    for (int i = 0; i < e.count[p]; i++) {
        int j = ens_next(&e, i);
        double l = hypot(e.x[j] - e.x[i], e.y[j] - e.y[i]);
        ENSURE(l <= P.lmax * (1 + 1e-12));
        shortest += l < P.lmin;
    }
    ENSURE(shortest > 0);                 /* ... short ones kept */
    ENSURE(e.x[0] == x0 && e.y[0] == y0); /* and the original vertices did not move */
    remodel_free(&r);
    ensemble_free(&e);
}

void test_remodel_compacts_gaps(void)
{
    Params P = fx_params_zero();
    Ensemble e;
    Remodel r;
    ensemble_init(&e, 1);
    remodel_init(&r);
    for (int p = 0; p < 3; p++) fx_add_ngon(&e, 40, 1, 3.0 * p, 0, 0);
    unsigned char keep[3] = { 1, 0, 1 };
    ensemble_keep(&e, keep);
    ENSURE(e.gaps && e.np == 2 && e.start[1] == 80);
    remodel(&e, &P, &r);
    ENSURE(!e.gaps && e.start[1] == 40 && e.nv_used == 80);
    for (int i = 0; i < 80; i++) ENSURE(e.pid[i] == i / 40);
    ENSURE_CLOSE(e.x[40], 7, 1e-12);
    remodel_free(&r);
    ensemble_free(&e);
}
