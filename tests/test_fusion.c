/* Fusion of two polygons (type I, external and nested) and splitting of one (type II, external
 * and nested), with the validation pass on: every polygon stays counter-clockwise, positive and
 * free of self-intersections. */
#include "fixtures.h"
#include "geometry.h"
#include "harness.h"
#include "sim.h"
#include <stdlib.h>

static Params fusion_params(void)
{
    Params P = params_compiled;
    P.theta = 1;
    P.alpha_mu = 0;
    P.Amax_mu = INFINITY;
    return P;
}

static double area_of(const Ensemble *e, int p) { return geom_area(e->x + e->start[p], e->y + e->start[p], e->count[p]); }

static int add_polygon(Ensemble *e, int n, const double *x, const double *y, int phase)
{
    return ensemble_add_polygon(e, n, x, y, phase, 0);
}

void test_fusion_two_circles_merge(void)
{
    Params P = fusion_params();
    static Sim s;
    sim_init(&s, &P, 1);
    s.validate = 1;
    fx_add_ngon(&s.e, 40, 0.5, -0.5 - 0.003, 0, 0);          /* 0.006 apart: closer than theta h */
    fx_add_ngon(&s.e, 40, 0.5, 0.5 + 0.003, 0, PH_PI);
    double A0 = s.e.A0[0] + s.e.A0[1], A = area_of(&s.e, 0) + area_of(&s.e, 1);
    int64_t id0 = s.e.id[0], id1 = s.e.id[1];
    ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    ENSURE(s.e.np == 1 && s.fusions1 == 1 && s.fusions2 == 0);
    /* a new id, never used before; its parent is one of the two; one generation on */
    ENSURE(s.e.id[0] > id0 && s.e.id[0] > id1 && (s.e.parent[0] == id0 || s.e.parent[0] == id1));
    ENSURE(s.e.gen[0] == 1);
    ENSURE_CLOSE(s.e.A0[0], A0, 1e-12);
    ENSURE_CLOSE(area_of(&s.e, 0), A, 0.01 * A);
    for (int k = 0; k < 200; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);    /* and it stays valid as it relaxes */
    ENSURE(s.e.np == 1);
    sim_free(&s);
}

/* a circle of radius 0.4 inside one of radius 1, touching its wall from inside */
void test_fusion_nested_circles_merge(void)
{
    Params P = fusion_params();
    static Sim s;
    sim_init(&s, &P, 1);
    s.validate = 1;
    fx_add_ngon(&s.e, 60, 1, 0, 0, 0.02);
    fx_add_ngon(&s.e, 30, 0.4, 0.6 - 0.006, 0, 0);
    double Ao = area_of(&s.e, 0), Ai = area_of(&s.e, 1), A0 = s.e.A0[0] - s.e.A0[1];
    s.e.phase[1] = -1;
    ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    ENSURE(s.e.np == 1 && s.fusions1 == 1);
    ENSURE_CLOSE(s.e.A0[0], A0, 1e-12);                      /* outer minus inner */
    ENSURE_CLOSE(area_of(&s.e, 0), Ao - Ai, 0.02 * (Ao - Ai));
    ENSURE(s.e.phase[0] == 1);
    sim_free(&s);
}

/* The other nesting: a vertex of the outer polygon (a dimple in its right wall) touches a flat
 * edge of the inner one. */
void test_fusion_nested_outer_vertex_merges(void)
{
    Params P = fusion_params();
    static Sim s;
    sim_init(&s, &P, 1);
    s.validate = 1;
    double ox[] = { -1, 1, 1, 0.995, 1, 1, -1 }, oy[] = { -1, -1, -0.5, 0, 0.5, 1, 1 };
    double ix[] = { 0.6, 0.987, 0.987, 0.6 }, iy[] = { -0.2, -0.2, 0.2, 0.2 };
    add_polygon(&s.e, 7, ox, oy, 1);
    add_polygon(&s.e, 4, ix, iy, -1);
    double Ao = area_of(&s.e, 0), Ai = area_of(&s.e, 1), A0 = s.e.A0[0] - s.e.A0[1];
    ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    ENSURE(s.e.np == 1 && s.fusions1 == 1);
    ENSURE_CLOSE(s.e.A0[0], A0, 1e-12);
    ENSURE_CLOSE(area_of(&s.e, 0), Ao - Ai, 0.02 * (Ao - Ai));
    sim_free(&s);
}

/* a dumbbell: two bulbs of radius 0.5 joined by a neck 0.4 long and 0.005 wide (< theta h) */
static int add_dumbbell(Ensemble *e, double neck_len, double bulb_r, double width)
{
    double x[400], y[400], a = asin(0.5 * width / bulb_r), c = 0.5 * neck_len + bulb_r;
    int n = 0, m = 8;
    for (int k = 0; k < m; k++) { x[n] = -0.5 * neck_len + neck_len * (k + 0.25) / m; y[n++] = -0.5 * width; }
    for (int k = 0; k <= 40; k++) { double t = PH_PI + a + (2 * PH_PI - 2 * a) * k / 40; x[n] = c + bulb_r * cos(t); y[n++] = bulb_r * sin(t); }
    for (int k = 0; k < m; k++) { x[n] = 0.5 * neck_len - neck_len * (k + 0.75) / m; y[n++] = 0.5 * width; }
    for (int k = 0; k <= 40; k++) { double t = a + (2 * PH_PI - 2 * a) * k / 40; x[n] = -c + bulb_r * cos(t); y[n++] = bulb_r * sin(t); }
    return add_polygon(e, n, x, y, 1);
}

void test_fusion_dumbbell_splits(void)
{
    Params P = fusion_params();
    static Sim s;
    sim_init(&s, &P, 1);
    s.validate = 1;
    add_dumbbell(&s.e, 0.4, 0.5, 0.005);
    double A0 = s.e.A0[0];
    int64_t mother = s.e.id[0];
    ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    ENSURE(s.fusions2 == 1 && s.e.np == 2);
    ENSURE(s.e.parent[0] == mother && s.e.parent[1] == mother);
    ENSURE(s.e.id[0] != s.e.id[1] && s.e.id[0] > mother && s.e.id[1] > mother);
    ENSURE(area_of(&s.e, 0) > 0 && area_of(&s.e, 1) > 0);
    ENSURE_CLOSE(s.e.A0[0] + s.e.A0[1], A0, 1e-12);
    ENSURE(s.e.phase[0] == 1 && s.e.phase[1] == 1);
    Vec2 c0 = geom_centroid(s.e.x + s.e.start[0], s.e.y + s.e.start[0], s.e.count[0]);
    Vec2 c1 = geom_centroid(s.e.x + s.e.start[1], s.e.y + s.e.start[1], s.e.count[1]);
    ENSURE(c0.x * c1.x < 0);                                  /* one bulb each */
    for (int k = 0; k < 200; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    sim_free(&s);
}

/* A ring (radii 1 and 0.6) cut open by a slit 0.005 wide: when the slit's sides touch, the
 * boundary splits into the outer disc and, inside it, the inner disc, reversed to
 * counter-clockwise and with the opposite phase. */
void test_fusion_fold_spawns_nested_polygon(void)
{
    Params P = fusion_params();
    static Sim s;
    sim_init(&s, &P, 1);
    s.validate = 1;
    double x[400], y[400], w = 0.0025, ao = asin(w / 1), ai = asin(w / 0.6);
    int n = 0, m = 8;
    for (int k = 0; k <= 60; k++) { double t = ao + (2 * PH_PI - 2 * ao) * k / 60; x[n] = cos(t); y[n++] = sin(t); }
    for (int k = 0; k < m; k++) { x[n] = 1 - 0.4 * (k + 0.25) / m; y[n++] = -w; }            /* slit, bottom, inwards */
    for (int k = 0; k <= 36; k++) { double t = -ai - (2 * PH_PI - 2 * ai) * k / 36; x[n] = 0.6 * cos(t); y[n++] = 0.6 * sin(t); }
    for (int k = 0; k < m; k++) { x[n] = 0.6 + 0.4 * (k + 0.75) / m; y[n++] = w; }           /* slit, top, outwards */
    add_polygon(&s.e, n, x, y, 1);
    ENSURE(area_of(&s.e, 0) > 0);
    ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    ENSURE(s.fusions2 == 1 && s.e.np == 2);
    int inner = area_of(&s.e, 0) < area_of(&s.e, 1) ? 0 : 1, outer = 1 - inner;
    ENSURE(area_of(&s.e, inner) > 0);                         /* reversed to counter-clockwise */
    ENSURE_CLOSE(area_of(&s.e, inner), PH_PI * 0.36, 0.05);
    ENSURE_CLOSE(area_of(&s.e, outer), PH_PI, 0.05);
    ENSURE(s.e.phase[inner] == -1 && s.e.phase[outer] == 1);
    Vec2 c = geom_centroid(s.e.x + s.e.start[inner], s.e.y + s.e.start[inner], s.e.count[inner]);
    ENSURE(geom_point_inside(s.e.x + s.e.start[outer], s.e.y + s.e.start[outer], s.e.count[outer], c.x, c.y));
    sim_free(&s);
}

/* A lobe of area < (h + lmax)^2 about to pinch off: no event makes such a fragment. */
void test_fusion_no_small_fragments(void)
{
    Params P = fusion_params();
    static Sim s;
    sim_init(&s, &P, 1);
    s.validate = 1;
    add_dumbbell(&s.e, 0.1, 0.1, 0.005);                     /* bulbs of area ~0.03 < 0.0441 */
    ENSURE(area_of(&s.e, 0) > 0);
    for (int k = 0; k < 20; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    ENSURE(s.fusions2 == 0 && s.e.np == 1);
    sim_free(&s);
}

void test_fusion_off_when_theta_zero(void)
{
    Params P = fusion_params();
    P.theta = 0;
    static Sim s;
    sim_init(&s, &P, 1);
    s.validate = 1;
    fx_add_ngon(&s.e, 40, 0.5, -0.5 - 0.003, 0, 0);
    fx_add_ngon(&s.e, 40, 0.5, 0.5 + 0.003, 0, PH_PI);
    add_dumbbell(&s.e, 0.4, 0.5, 0.005);
    for (int k = 0; k < 20; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    ENSURE(s.e.np == 3 && s.fusions1 == 0 && s.fusions2 == 0);
    sim_free(&s);
}
