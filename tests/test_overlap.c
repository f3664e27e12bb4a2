/* Tests of src/overlap.c: the input check for polygons that share area or boundary. Stacked,
 * touching and crossing pairs are found with the shared area; a polygon inside another of the
 * same phase is found, a drop inside a drop of the other phase or inside a rigid polygon is not;
 * the ray that finds containers is not fooled by a vertex on its line; many polygons. */
#include "fixtures.h"
#include "forces.h"
#include "geometry.h"
#include "harness.h"
#include "off.h"
#include "overlap.h"

/* adds the rectangle [x0, x1] x [y0, y1], counter-clockwise */
static int rect(Ensemble *e, double x0, double y0, double x1, double y1, int phase, int rigid)
{
    double x[4] = { x0, x1, x1, x0 }, y[4] = { y0, y0, y1, y1 };
    return ensemble_add_polygon(e, 4, x, y, phase, rigid);
}

/* overlap_find on e, with lmax = 0.2 and h = 0.01 */
static long find(Ensemble *e, OverlapPair *f)
{
    *f = (OverlapPair){ -1, -1, 0 };
    forces_update_geometry(e);
    return overlap_find(e, 0.2, 0.01, f);
}

void test_overlap_stacked_touching_crossing(void)
{
    static const struct { double dx, dy; int rigid0, rigid1; long n; OverlapKind kind; double share; } c[] = {
        { 0, 0, 0, 0, 1, OVERLAP_TOUCH_KIND, 1 },        /* identical */
        { 1, 0, 0, 0, 1, OVERLAP_TOUCH_KIND, 0 },        /* sharing an edge */
        { 1, 1, 0, 0, 1, OVERLAP_TOUCH_KIND, 0 },        /* sharing a corner */
        { 1 + 1e-9, 0.3, 0, 0, 1, OVERLAP_TOUCH_KIND, 0 },   /* within rounding of an edge */
        { 0.5, 0.5, 0, 0, 1, OVERLAP_CROSS, 0.25 },      /* crossing */
        { 0.5, 0, 0, 0, 1, OVERLAP_TOUCH_KIND, 0.5 },    /* half stacked: edges coincide, none crosses */
        { 1.01, 0, 0, 0, 0, 0, 0 },                      /* h apart */
        { 1 + 1e-7, 0, 0, 0, 0, 0, 0 },                  /* 1e-5 h apart */
        { 1, 0, 1, 1, 0, 0, 0 },                         /* two rigid walls: never interact */
        { 1, 0, 1, 0, 1, OVERLAP_TOUCH_KIND, 0 },        /* a wall and a polygon */
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        static Ensemble e;
        ensemble_init(&e, 1);
        fx_add_ngon(&e, 40, 3, 20, 20, 0);   /* (far away: the pair is the first) */
        rect(&e, 0, 0, 1, 1, 1, c[k].rigid0);
        rect(&e, c[k].dx, c[k].dy, c[k].dx + 1, c[k].dy + 1, 1, c[k].rigid1);
        OverlapPair f;
        long n = find(&e, &f);
        ENSURE_MSG(n == c[k].n, "case %zu: %ld pairs, expected %ld", k, n, c[k].n);
        if (n) {
            ENSURE_MSG(f.a == 1 && f.b == 2 && f.kind == c[k].kind, "case %zu: pair %d %d of kind %d", k, f.a, f.b, (int)f.kind);
            ENSURE_MSG(fabs(overlap_fraction(&e, 1, 2) - c[k].share) < 1e-12, "case %zu: shared %.17g, expected %g",
                       k, overlap_fraction(&e, 1, 2), c[k].share);
        }
        ensemble_free(&e);
    }
    /* two identical circles: share exactly all; the stacked pair named first is the lowest */
    static Ensemble e;
    ensemble_init(&e, 1);
    for (int p = 0; p < 4; p++) fx_add_ngon(&e, 40, 1, p < 2 ? 5.0 * p : 5, 0, 0);
    OverlapPair f;
    ENSURE(find(&e, &f) == 3 && f.a == 1 && f.b == 2 && f.kind == OVERLAP_TOUCH_KIND);
    ENSURE(overlap_fraction(&e, 1, 3) == 1);
    ensemble_free(&e);
}

/* A square in a square: refused with the same phase (inner named first), allowed with the other
 * phase or in a rigid polygon; a double emulsion (+1 in -1 in +1) is fine, but a +1 drop beside
 * a -1 drop inside a +1 drop is nested in a drop of its own phase. */
void test_overlap_nesting_by_phase(void)
{
    static const struct { int outer, inner, rigid; long n; } c[] = {
        { 1, 1, 0, 1 }, { -1, -1, 0, 1 }, { 1, -1, 0, 0 }, { -1, 1, 0, 0 }, { 1, 1, 1, 0 },
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        static Ensemble e;
        ensemble_init(&e, 1);
        rect(&e, 2, 2, 3, 3, c[k].inner, 0);
        rect(&e, 0, 0, 5, 5, c[k].outer, c[k].rigid);
        OverlapPair f;
        long n = find(&e, &f);
        ENSURE_MSG(n == c[k].n, "case %zu: %ld pairs, expected %ld", k, n, c[k].n);
        if (n) ENSURE(f.a == 0 && f.b == 1 && f.kind == OVERLAP_NESTED);
        ensemble_free(&e);
    }
    static Ensemble e;
    ensemble_init(&e, 1);
    rect(&e, 0, 0, 10, 10, 1, 0);
    rect(&e, 1, 1, 6, 9, -1, 0);
    rect(&e, 2, 2, 5, 8, 1, 0);   /* +1 in -1 in +1 */
    OverlapPair f;
    ENSURE(find(&e, &f) == 0);
    rect(&e, 7, 1, 9, 9, 1, 0);   /* beside the -1 drop, in the +1 one */
    ENSURE(find(&e, &f) == 1 && f.a == 3 && f.b == 0 && f.kind == OVERLAP_NESTED);
    ensemble_free(&e);
}

/* The ray from a polygon's leftmost vertex runs through the lowest vertex of a triangle beside
 * it (both of the triangle's edges there are hit at the same point): the polygon is beside the
 * triangle, not in it, and so in the big square of the other phase. Likewise through a vertex
 * of the container itself. */
void test_overlap_ray_through_a_lowest_vertex(void)
{
    static Ensemble e;
    ensemble_init(&e, 1);
    rect(&e, -5, -5, 5, 5, -1, 0);
    double tx[3] = { -1.5, -1, -2 }, ty[3] = { 0, 1, 1 };
    ensemble_add_polygon(&e, 3, tx, ty, 1, 0);
    double px[4] = { 0, 1, 2, 1 }, py[4] = { 0, -1, 0, 1 };   /* leftmost vertex (0, 0) */
    ensemble_add_polygon(&e, 4, px, py, 1, 0);
    OverlapPair f;
    ENSURE_MSG(find(&e, &f) == 0, "polygon %d found inside %d", f.a, f.b);
    ensemble_free(&e);
    ensemble_init(&e, 1);
    double dx[4] = { 0, 5, 0, -5 }, dy[4] = { -5, 0, 5, 0 };   /* a diamond with a vertex at (-5, 0) */
    ensemble_add_polygon(&e, 4, dx, dy, 1, 0);
    ensemble_add_polygon(&e, 4, px, py, 1, 0);
    ENSURE(find(&e, &f) == 1 && f.a == 1 && f.b == 0);
    e.phase[1] = -1;
    ENSURE(find(&e, &f) == 0);
    ensemble_free(&e);
}

/* 40,000 squares of 0.8 in a lattice of pitch 1, in a rigid box, are accepted; one more square
 * stacked on square 12,345 is named with it, and one of the same phase inside square 30,000 (a
 * drop in a drop) as well. */
void test_overlap_many_polygons(void)
{
    static Ensemble e;
    ensemble_init(&e, 1);
    rect(&e, -1, -1, 201, 201, 1, 1);
    for (int k = 0; k < 40000; k++) rect(&e, k % 200 + 0.1, k / 200 + 0.1, k % 200 + 0.9, k / 200 + 0.9, 1, 0);
    OverlapPair f;
    ENSURE(find(&e, &f) == 0);
    int p = 1 + 30000;
    rect(&e, 30000 % 200 + 0.3, 30000 / 200 + 0.3, 30000 % 200 + 0.7, 30000 / 200 + 0.7, 1, 0);
    ENSURE(find(&e, &f) == 1 && f.a == 40001 && f.b == p && f.kind == OVERLAP_NESTED);
    p = 1 + 12345;
    rect(&e, 12345 % 200 + 0.1, 12345 / 200 + 0.1, 12345 % 200 + 0.9, 12345 / 200 + 0.9, 1, 0);
    ENSURE(find(&e, &f) == 1 && f.a == p && f.b == 40002 && f.kind == OVERLAP_TOUCH_KIND);
    ENSURE(overlap_fraction(&e, p, 40002) == 1);
    ensemble_free(&e);
}

/* The inputs of inputs/ pass, with the first Nr polygons rigid as in their parameter headers:
 * the emulsion's nested drops are of the other phase, and walls that share edges are rigid.
 * (Its drops are checked: giving one nested drop its outer drop's phase is found.) */
void test_overlap_inputs_pass(void)
{
    static const struct { const char *file; int Nr; } in[] = {
        { "inputs/ensemble.off", 0 }, { "inputs/emulsion.off", 4 }, { "inputs/foam.off", 3 }, { "inputs/hourglass.off", 3 },
    };
    for (size_t k = 0; k < sizeof in / sizeof in[0]; k++) {
        OffData off;
        char err[512];
        ENSURE_MSG(off_read(in[k].file, &off, err, sizeof err) == 0, "%s", err);
        static Ensemble e;
        ensemble_init(&e, 1);
        for (int p = 0; p < off.np; p++)
            ensemble_add_polygon(&e, off.poly[p].n, off.poly[p].x, off.poly[p].y, off.poly[p].phase, p < in[k].Nr);
        off_free(&off);
        OverlapPair f;
        long n = find(&e, &f);
        ENSURE_MSG(n == 0, "%s: %ld pairs, the first %d and %d (kind %d)", in[k].file, n, f.a, f.b, (int)f.kind);
        if (k == 1) {
            int flipped = 0;
            for (int p = in[k].Nr; p + 1 < e.np && !flipped; p++)   /* a nested drop follows its outer drop */
                if (e.phase[p + 1] != e.phase[p] && geom_point_inside(e.x + e.start[p], e.y + e.start[p], e.count[p],
                                                                     e.x[e.start[p + 1]], e.y[e.start[p + 1]])) {
                    e.phase[p + 1] = e.phase[p];
                    ENSURE(find(&e, &f) == 1 && f.a == p + 1 && f.b == p && f.kind == OVERLAP_NESTED);
                    flipped = 1;
                }
            ENSURE(flipped);
        }
        ensemble_free(&e);
    }
}
