/* Growth, division and removal (docs/model.md 5). */
#define _POSIX_C_SOURCE 200809L
#include "fixtures.h"
#include "geometry.h"
#include "harness.h"
#include "rng.h"
#include "sim.h"
#include "topology.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
 * made only of the mother's vertices (none created), no vertex of one closer than h to the
 * other's seal (its last edge), target areas summing exactly to the mother's, and daughter 1
 * keeping the mother's age while daughter 2 starts at 0. */
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
            int o = 1 - p, so = e.start[o], mo = e.count[o];
            Vec2 s0 = { e.x[so + mo - 1], e.y[so + mo - 1] }, s1 = { e.x[so], e.y[so] };
            for (int i = 0; i < m; i++)
                ENSURE_MSG(geom_point_segment_distance((Vec2){ px[i], py[i] }, s0, s1, NULL) >= P.h,
                           "try %d: a vertex of daughter %d is closer than h to the other's seal", t, p);
        }
        ensemble_free(&e);
    }
    topology_free(&w);
    ENSURE_MSG(done > tries * 3 / 4, "only %d of %d divisions were done", done, tries);
}

/* A long hexagon whose two middle vertices on each side lie within h of the cut: removing them
 * would leave each daughter a single vertex, so the division is postponed and p is untouched. */
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
    topology_free(&w);
    ENSURE(e.np == 1 && e.count[0] == 6 && e.id[0] == id);
    for (int k = 0; k < 6; k++) ENSURE(e.x[k] == x[k] && e.y[k] == y[k]);
    ensemble_free(&e);
}

/* The number after "key": in the JSON text, searched from the first "anchor" on. */
static double json_number(const char *text, const char *anchor, const char *key)
{
    char a[64], k[64];
    snprintf(a, sizeof a, "\"%s\"", anchor);
    snprintf(k, sizeof k, "\"%s\": ", key);
    const char *p = strstr(text, a);
    p = p ? strstr(p, k) : NULL;
    return p ? strtod(p + strlen(k), NULL) : NAN;
}

/* The default run has the structure of the paper's program (docs/model.md 5 and 10.8), measured
 * by scripts/tissue_stats.py on its last frame: 4.7..5.5 neighbours per cell, 5.3..6.1 per
 * interior cell, at most two sets of four cells pairwise in contact. (The run is chaotic: the
 * last digits of a sum decide which way a later cell divides. Over 33 runs that differ only so
 * (seeds 1-19, and the order of the contact sums), the mean ranged 4.77..5.16, the interior mean
 * 5.39..5.83, and 0..2 such sets appeared: bounds for one run must hold them all.) It grows as
 * with the old division rule:
 * the first frame with 4, 8, ..., 128 cells within 2 frames of 17, 32, 49, 66, 82, 99. The run
 * goes on 2 frames past the default 100 so that a 128th cell up to 2 frames late is seen. */
void test_topology_default_tissue_structure(void)
{
    char dir[] = "/tmp/ph_test_tissue_XXXXXX", cmd[1024];
    ENSURE(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "./polyhoop -q -j 2 -n 102 -o %s/run > %s/log 2>&1", dir, dir);
    ENSURE_MSG(fx_sh(cmd) == 0, "the default run failed (%s/log)", dir);
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 scripts/tissue_stats.py --json --growth %s/run > %s/stats 2> %s/err",
             dir, dir, dir);
    int st = fx_sh(cmd);
    if (st == 127) SKIP("/usr/bin/python3 missing");
    ENSURE_MSG(st == 0, "tissue_stats.py failed (%s/err)", dir);
    snprintf(cmd, sizeof cmd, "%s/stats", dir);
    FILE *f = fopen(cmd, "r");
    ENSURE(f);
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = 0;
    double cells = json_number(text, "frames", "cells"), mean = json_number(text, "neighbors", "mean");
    double inner = json_number(text, "interior_neighbors", "mean"), cliques = json_number(text, "frames", "cliques4");
    ENSURE_MSG(cells == 128, "%g cells at the last frame (t = 10.2)", cells);
    ENSURE_MSG(mean >= 4.7 && mean <= 5.5, "mean neighbour number %g", mean);
    ENSURE_MSG(inner >= 5.3 && inner <= 6.1, "interior mean neighbour number %g", inner);
    ENSURE_MSG(cliques <= 2, "%g 4-cell cliques", cliques);
    const int count[6] = { 4, 8, 16, 32, 64, 128 }, before[6] = { 17, 32, 49, 66, 82, 99 };
    for (int k = 0; k < 6; k++) {
        char key[16];
        snprintf(key, sizeof key, "%d", count[k]);
        double at = json_number(text, "growth", key);
        ENSURE_MSG(fabs(at - before[k]) <= 2, "%d cells first at frame %g, was %d", count[k], at, before[k]);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(fx_sh(cmd) == 0);
}
