/* Growth, division and removal (docs/model.md 5). */
#include "fixtures.h"
#include "geometry.h"
#include "harness.h"
#include "rng.h"
#include "sim.h"
#include "topology.h"

/* One default cell grows at alpha = 1 and divides when its area passes Amax = pi: into two CCW
 * daughters of nearly equal area whose target areas sum to the mother's, and only once. */
void test_topology_growing_cell_divides_once(void)
{
    Params P = params_compiled;
    static Sim s;
    sim_init(&s, &P, 7);
    fx_add_ngon(&s.e, 40, 1, 0.2, -0.1, 0);
    sim_draw_traits(&s);
    int64_t mother = s.e.id[0];
    double A0_before = 0;
    int steps = 0;
    while (s.e.np == 1 && steps < 30000) {
        A0_before = s.e.A0[0];
        ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        steps++;
    }
    ENSURE_MSG(s.e.np == 2, "no division after %d steps", steps);
    ENSURE(s.divisions == 1);
    double A1 = geom_area(s.e.x + s.e.start[0], s.e.y + s.e.start[0], s.e.count[0]);
    double A2 = geom_area(s.e.x + s.e.start[1], s.e.y + s.e.start[1], s.e.count[1]);
    ENSURE(A1 > 0 && A2 > 0);                                        /* both CCW */
    ENSURE_CLOSE(A1 + A2, P.Amax_mu, 0.02 * P.Amax_mu);              /* it divided near Amax */
    ENSURE_SMALL((A1 - A2) / (A1 + A2), 0.03);
    ENSURE_CLOSE(s.e.A0[0] + s.e.A0[1], A0_before + P.alpha_mu * P.dt, 1e-12);
    ENSURE(s.e.parent[0] == mother && s.e.parent[1] == mother);
    ENSURE(s.e.id[0] != mother && s.e.id[1] != mother && s.e.id[0] != s.e.id[1]);
    /* the daughters need about (pi - pi/2) / alpha = 1.6 time units to divide again */
    for (int k = 0; k < 5000; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    ENSURE(s.e.np == 2 && s.divisions == 1);
    sim_free(&s);
}

/* An ellipse with semi-axes 1.5 (x) and 0.6 (y) is cut along its short axis (the y direction):
 * the daughters are its left and right halves; each seal edge has the mother's mean stretch. */
void test_topology_divides_along_short_axis(void)
{
    Params P = params_compiled;
    Ensemble e;
    ensemble_init(&e, 3);
    double x[60], y[60];
    for (int k = 0; k < 60; k++) { x[k] = 2 + 1.5 * cos(2 * PH_PI * (k + 0.5) / 60); y[k] = -1 + 0.6 * sin(2 * PH_PI * (k + 0.5) / 60); }
    ensemble_add_polygon(&e, 60, x, y, -1, 0);
    for (int i = 0; i < 60; i++) e.l0[i] *= 0.8;   /* mother stretched by 1.25 */
    e.A0[0] = 3.0;
    e.L[0] = geom_perimeter(x, y, 60);
    int q = topology_divide(&e, &P, 0);
    ENSURE(q == 1 && e.np == 2);
    Vec2 c0 = geom_centroid(e.x + e.start[0], e.y + e.start[0], e.count[0]);
    Vec2 c1 = geom_centroid(e.x + e.start[1], e.y + e.start[1], e.count[1]);
    ENSURE((c0.x - 2) * (c1.x - 2) < 0);          /* opposite sides of x = 2 */
    ENSURE_SMALL(c0.y + 1, 1e-9);
    ENSURE_SMALL(c1.y + 1, 1e-9);
    ENSURE_CLOSE(e.A0[0] + e.A0[1], 3.0, 1e-12);
    ENSURE(e.phase[0] == -1 && e.phase[1] == -1);
    for (int p = 0; p < 2; p++) {
        int last = e.start[p] + e.count[p] - 1, first = e.start[p];
        double l = hypot(e.x[first] - e.x[last], e.y[first] - e.y[last]);
        ENSURE(l > 1.0);                               /* the seal spans the ellipse */
        ENSURE_CLOSE(l / e.l0[last], 1.25, 1e-9);
        ENSURE(geom_area(e.x + first, e.y + first, e.count[p]) > 0);
    }
    /* the two seals are at least h apart */
    int a = e.start[0] + e.count[0] - 1, b = e.start[1] + e.count[1] - 1;
    ENSURE(fabs(e.x[a] - e.x[b]) >= P.h || fabs(e.x[e.start[0]] - e.x[e.start[1]]) >= P.h);
    ensemble_free(&e);
}

void test_topology_removal_below_amin(void)
{
    Params P = fx_params_zero();
    P.Amin = 0.5;
    Ensemble e;
    ensemble_init(&e, 1);
    fx_add_ngon(&e, 20, 1.0, 0, 0, 0);     /* area ~3.1: kept */
    fx_add_ngon(&e, 20, 0.3, 5, 0, 0);     /* area ~0.28: removed */
    fx_add_ngon(&e, 20, 0.3, 9, 0, 0);     /* rigid: kept */
    e.rigid[2] = 1;
    int64_t id0 = e.id[0], id2 = e.id[2];
    int removed;
    ENSURE(topology_update(&e, &P, &removed) == 0);
    ENSURE(removed == 1 && e.np == 2 && e.id[0] == id0 && e.id[1] == id2);
    ensemble_free(&e);
}

/* Lognormal traits: CV = 0 gives the mean exactly; otherwise the sample mean and CV match. */
void test_topology_lognormal_traits(void)
{
    uint64_t draws = 0;
    ENSURE(rng_lognormal(5, &draws, 3.14159, 0) == 3.14159 && draws == 0);
    double s = 0, s2 = 0;
    int n = 200000;
    for (int k = 0; k < n; k++) { double v = rng_lognormal(5, &draws, 2.0, 0.3); s += v; s2 += v * v; }
    double mean = s / n, sd = sqrt(s2 / n - mean * mean);
    ENSURE_CLOSE(mean, 2.0, 0.01);
    ENSURE_CLOSE(sd / mean, 0.3, 0.01);
}
