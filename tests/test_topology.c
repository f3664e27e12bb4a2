/* Growth, division and removal (docs/model.md 5); the tissue the program grows with them:
 * tests/cli/tissue.sh. */
#define _POSIX_C_SOURCE 200809L
#include "fixtures.h"
#include "geometry.h"
#include "harness.h"
#include "rng.h"
#include "sim.h"
#include "topology.h"
#include <stdlib.h>

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
    /* it divided at Amax; the strip between the seals (up to an edge length wide) is lost */
    ENSURE(A1 + A2 < P.Amax_mu && A1 + A2 > 0.85 * P.Amax_mu);
    ENSURE_SMALL((A1 - A2) / (A1 + A2), 0.03);
    ENSURE(s.e.A0[0] + s.e.A0[1] == A0_before + P.alpha_mu * P.dt);   /* shared exactly */
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
    TopologyWork w = { 0 };
    int q = topology_divide(&e, &P, &w, 0);
    topology_free(&w);
    ENSURE(q == 1 && e.np == 2);
    Vec2 c0 = geom_centroid(e.x + e.start[0], e.y + e.start[0], e.count[0]);
    Vec2 c1 = geom_centroid(e.x + e.start[1], e.y + e.start[1], e.count[1]);
    ENSURE((c0.x - 2) * (c1.x - 2) < 0);          /* opposite sides of x = 2 */
    ENSURE_SMALL(c0.y + 1, 1e-9);
    ENSURE_SMALL(c1.y + 1, 1e-9);
    ENSURE(e.A0[0] + e.A0[1] == 3.0);
    ENSURE(e.phase[0] == -1 && e.phase[1] == -1);
    for (int p = 0; p < 2; p++) {
        int last = e.start[p] + e.count[p] - 1, first = e.start[p];
        double l = hypot(e.x[first] - e.x[last], e.y[first] - e.y[last]);
        ENSURE(l > 1.0);                               /* the seal spans the ellipse */
        ENSURE_CLOSE(l / e.l0[last], 1.25, 1e-9);
        ENSURE(geom_area(e.x + first, e.y + first, e.count[p]) > 0);
    }
    /* the seals are at least h from the line x = 2, so 2h apart */
    for (int p = 0; p < 2; p++)
        for (int i = e.start[p]; i < e.start[p] + e.count[p]; i++) ENSURE(fabs(e.x[i] - 2) >= P.h);
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
    TopologyWork w = { 0 };
    ENSURE(topology_update(&e, &P, &w, &removed, NULL) == 0);
    ENSURE(removed == 1 && e.np == 2 && e.id[0] == id0 && e.id[1] == id2);
    topology_free(&w);
    ensemble_free(&e);
}

/* A cell that shrinks (alpha = -1) with Amin = 0 and the edge elasticity on is removed at the step
 * its target area reaches 0, as below Amin, beside a growing one that stays: before, its reference
 * perimeter sqrt(4 pi Q A0) became 0, its strains infinite, and the run blew up. */
void test_topology_removal_at_zero_target_area(void)
{
    Params P = params_compiled;
    P.Amin = 0;
    ENSURE(P.kl > 0);
    static Sim s;
    sim_init(&s, &P, 1);
    fx_add_ngon(&s.e, 40, 0.5, 0, 0, 0);
    fx_add_ngon(&s.e, 40, 0.5, 5, 0, 0);
    sim_draw_traits(&s);
    s.e.alpha[0] = -1;
    int64_t grower = s.e.id[1];
    double A0 = s.e.A0[0];
    int steps = 0;
    while (s.e.np == 2 && steps < 20000) {
        ENSURE_MSG(sim_step(&s) == 0, "step %d: %s", steps, s.error);
        steps++;
    }
    ENSURE_MSG(s.e.np == 1 && s.e.id[0] == grower && s.removals == 1, "%d polygons, %lld removals after %d steps", s.e.np,
               (long long)s.removals, steps);
    ENSURE_MSG(abs(steps - (int)ceil(A0 / P.dt)) <= 1, "removed after %d steps; A0 = %g reaches 0 after %g", steps, A0, A0 / P.dt);
    for (int k = 0; k < 100; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    sim_free(&s);
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

/* 1 if two non-adjacent edges of the polygon cross. */
static int self_intersecting(const double *x, const double *y, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 2; j < n; j++) {
            if (i == 0 && j == n - 1) continue;
            int i1 = i + 1, j1 = j + 1 == n ? 0 : j + 1;
            if (geom_segments_cross((Vec2){ x[i], y[i] }, (Vec2){ x[i1], y[i1] },
                                    (Vec2){ x[j], y[j] }, (Vec2){ x[j1], y[j1] })) return 1;
        }
    return 0;
}

/* Divides irregular, partly non-convex hoops r(phi) = 1 + a sin(3 phi + b) + c cos(5 phi) of
 * 30..90 vertices (docs/model.md 5): each division that is done gives two CCW, simple daughters
 * made only of the mother's vertices (none created), the two daughters' ends at each cut at
 * least h apart, target areas summing exactly to the mother's, and daughter 1 keeping the
 * mother's age while daughter 2 starts at 0. */
void test_topology_daughters_valid(void)
{
    Params P = params_compiled;
    uint64_t rs = 11;
    int done = 0, tries = 60;
    TopologyWork w = { 0 };
    for (int t = 0; t < tries; t++) {
        Ensemble e;
        ensemble_init(&e, 5 + t);
        int n = 30 + (int)fx_uniform(&rs, 0, 61);
        double x[90], y[90], a = fx_uniform(&rs, 0, 0.3), b = fx_uniform(&rs, 0, 6.3), c = fx_uniform(&rs, 0, 0.15);
        double sx = fx_uniform(&rs, 0.7, 1.6);
        for (int k = 0; k < n; k++) {
            double phi = 2 * PH_PI * k / n, r = 1 + a * sin(3 * phi + b) + c * cos(5 * phi);
            x[k] = 3 + sx * r * cos(phi);
            y[k] = -2 + r * sin(phi);
        }
        ensemble_add_polygon(&e, n, x, y, 1, 0);
        e.t = 4.5;
        e.birth[0] = 1.25;
        e.A0[0] = fx_uniform(&rs, 2, 4);
        double A0 = e.A0[0];
        int q = topology_divide(&e, &P, &w, 0);   /* (one work space for all tries) */
        if (q < 0) { ENSURE(e.np == 1 && e.count[0] == n); ensemble_free(&e); continue; }
        done++;
        ENSURE(q == 1 && e.np == 2);
        ENSURE(e.A0[0] + e.A0[1] == A0);
        ENSURE(e.birth[0] == 1.25 && e.birth[1] == 4.5);
        for (int p = 0; p < 2; p++) {
            const double *px = e.x + e.start[p], *py = e.y + e.start[p];
            int m = e.count[p];
            ENSURE(m >= 3 && geom_area(px, py, m) > 0);
            ENSURE_MSG(!self_intersecting(px, py, m), "daughter %d of try %d crosses itself", p, t);
            for (int i = 0; i < m; i++) {
                int found = 0;
                for (int k = 0; k < n && !found; k++) found = px[i] == x[k] && py[i] == y[k];
                ENSURE_MSG(found, "try %d: a vertex was created", t);
            }
        }
        /* at each cut, the ends of the two daughters (their seals' ends) are at least h apart */
        int f1 = e.start[0], l1 = f1 + e.count[0] - 1, f2 = e.start[1], l2 = f2 + e.count[1] - 1;
        ENSURE_MSG(hypot(e.x[f1] - e.x[l2], e.y[f1] - e.y[l2]) >= P.h && hypot(e.x[l1] - e.x[f2], e.y[l1] - e.y[f2]) >= P.h,
                   "try %d: the daughters' ends at a cut are closer than h", t);
        ensemble_free(&e);
    }
    topology_free(&w);
    ENSURE_MSG(done > tries * 3 / 4, "only %d of %d divisions were done", done, tries);
}

/* The safeguard (docs/model.md 5): a long hexagon whose crossing edges, top and bottom, are
 * both shorter than h. Walking their ends apart until they are h apart leaves one daughter a
 * single vertex, an invalid polygon, so the division is postponed, p is untouched, and
 * topology_update counts the postponement. */
void test_topology_postpones_degenerate_daughter(void)
{
    Params P = params_compiled;
    Ensemble e;
    ensemble_init(&e, 1);
    double x[6] = { -1, -0.004, 0.004, 1, 0.004, -0.004 }, y[6] = { 0, -0.3, -0.3, 0, 0.3, 0.3 };
    ensemble_add_polygon(&e, 6, x, y, 1, 0);
    int64_t id = e.id[0];
    TopologyWork w = { 0 };
    ENSURE(topology_divide(&e, &P, &w, 0) == -1);
    ENSURE(e.np == 1 && e.count[0] == 6 && e.id[0] == id);
    for (int k = 0; k < 6; k++) ENSURE(e.x[k] == x[k] && e.y[k] == y[k]);
    e.Amax[0] = 0.1;   /* (due: its area is 0.6) */
    ENSURE(topology_update(&e, &P, &w, NULL, NULL) == 0 && w.postponed == 1 && e.np == 1);
    ENSURE(topology_update(&e, &P, &w, NULL, NULL) == 0 && w.postponed == 2);
    topology_free(&w);
    ensemble_free(&e);
}

/* The published rule (docs/model.md 5) on a hand-made 13-gon, long along x and cut along x = 0
 * (a line through the centroid, which lies within 1e-3 of the origin). The ends of the top crossing
 * edge, vertices 6 and 7, are 0.006 < h apart: both walk outward one vertex, to 5 and 8, 1.0
 * apart, and 6 and 7 are dropped. The ends of the bottom one, 12 and 0, are far apart, so both
 * stay, although vertex 0 lies within h of the line (a rule that drops the vertices near the
 * line would drop it). Each daughter is the mother's vertices on its side, in order, with a seal
 * of the mother's mean stretch; the target area is split in proportion to the areas, summing
 * exactly to the mother's. */
void test_topology_walks_close_ends_apart(void)
{
    Params P = params_compiled;
    double x[13] = { 0.004, 0.5, 0.8, 1, 0.8, 0.5, 0.003, -0.003, -0.5, -0.8, -1, -0.8, -0.5 };
    double y[13] = { -0.45, -0.4, -0.3, 0, 0.3, 0.4, 0.45, 0.45, 0.4, 0.3, 0, -0.3, -0.4 };
    Ensemble e;
    ensemble_init(&e, 1);
    ensemble_add_polygon(&e, 13, x, y, 1, 0);
    for (int k = 0; k < 13; k++) e.l0[k] *= 0.9;   /* mother stretched by 1/0.9 */
    e.A0[0] = 1.5;
    Vec2 c = geom_centroid(x, y, 13);
    ENSURE(fabs(c.x) < 1e-3 && hypot(x[6] - x[7], y[6] - y[7]) < P.h);   /* (the case) */
    TopologyWork w = { 0 };
    int q = topology_divide(&e, &P, &w, 0);
    topology_free(&w);
    ENSURE(q == 1 && e.np == 2);
    int right = e.x[e.start[0] + 1] > 0 ? 0 : 1, left = 1 - right, sr = e.start[right], sl = e.start[left];
    ENSURE_MSG(e.count[right] == 6 && e.count[left] == 5, "%d and %d vertices, not 6 and 5", e.count[right], e.count[left]);
    for (int k = 0; k < 6; k++) ENSURE(e.x[sr + k] == x[k] && e.y[sr + k] == y[k]);        /* 0..5 */
    for (int k = 0; k < 5; k++) ENSURE(e.x[sl + k] == x[8 + k] && e.y[sl + k] == y[8 + k]);  /* 8..12 */
    double A[2];
    for (int p = 0; p < 2; p++) {
        int s = e.start[p], last = s + e.count[p] - 1;
        A[p] = geom_area(e.x + s, e.y + s, e.count[p]);
        ENSURE(A[p] > 0);
        ENSURE_CLOSE(hypot(e.x[last] - e.x[s], e.y[last] - e.y[s]) / e.l0[last], 1 / 0.9, 1e-12);
    }
    /* the left daughter, (-0.5, 0.4) (-0.8, 0.3) (-1, 0) (-0.8, -0.3) (-0.5, -0.4): a trapezoid
     * and a triangle; the right one that and the triangle (0.5, 0.4) (0.004, -0.45) (0.5, -0.4) */
    double half = 0.3 * (0.8 + 0.6) / 2 + 0.2 * 0.6 / 2, tri = 0.5 * 0.8 * (0.5 - 0.004);
    ENSURE_CLOSE(A[left], half, 1e-14);
    ENSURE_CLOSE(A[right], half + tri, 1e-14);
    ENSURE(e.A0[0] + e.A0[1] == 1.5);
    ENSURE_CLOSE(e.A0[right] / e.A0[left], A[right] / A[left], 1e-14);
    ensemble_free(&e);
}
