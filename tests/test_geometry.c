/* Geometry of polygons with known values: square, rotated and shifted rectangle, regular n-gon,
 * L-shape (non-convex). */
#include "geometry.h"
#include "harness.h"

/* S_x = int y dA (eq. 14): the area times the centroid's y */
static double first_moment_x(const double *x, const double *y, int n)
{
    return geom_area(x, y, n) * geom_centroid(x, y, n).y;
}

void test_geometry_square(void)
{
    double x[] = { 0, 1, 1, 0 }, y[] = { 0, 0, 1, 1 }, cxx, cyy, cxy;
    ENSURE_CLOSE(geom_area(x, y, 4), 1, 1e-15);
    ENSURE_CLOSE(geom_perimeter(x, y, 4), 4, 1e-15);
    Vec2 c = geom_centroid(x, y, 4);
    ENSURE_CLOSE(c.x, 0.5, 1e-15);
    ENSURE_CLOSE(c.y, 0.5, 1e-15);
    ENSURE_CLOSE(first_moment_x(x, y, 4), 0.5, 1e-15);
    geom_second_moments(x, y, 4, &cxx, &cyy, &cxy);
    ENSURE_CLOSE(cxx, 1.0 / 12, 1e-15);
    ENSURE_CLOSE(cyy, 1.0 / 12, 1e-15);
    ENSURE_SMALL(cxy, 1e-15);
    Vec2 a;
    ENSURE(geom_short_axis(x, y, 4, &a) == -1);          /* isotropic: no axis */
    double xr[] = { 0, 0, 1, 1 }, yr[] = { 0, 1, 1, 0 };   /* clockwise: negative area */
    ENSURE_CLOSE(geom_area(xr, yr, 4), -1, 1e-15);
}

/* a 2 x 1 rectangle turned by 30 degrees about its centre (3, -2) */
void test_geometry_rotated_rectangle(void)
{
    double th = PH_PI / 6, c = cos(th), s = sin(th), u[] = { -1, 1, 1, -1 }, v[] = { -0.5, -0.5, 0.5, 0.5 };
    double x[4], y[4], cxx, cyy, cxy;
    for (int k = 0; k < 4; k++) { x[k] = 3 + c * u[k] - s * v[k]; y[k] = -2 + s * u[k] + c * v[k]; }
    ENSURE_CLOSE(geom_area(x, y, 4), 2, 1e-14);
    ENSURE_CLOSE(geom_perimeter(x, y, 4), 6, 1e-14);
    Vec2 m = geom_centroid(x, y, 4);
    ENSURE_CLOSE(m.x, 3, 1e-14);
    ENSURE_CLOSE(m.y, -2, 1e-14);
    ENSURE_CLOSE(first_moment_x(x, y, 4), 2 * -2.0, 1e-13);
    double iuu = 8.0 / 12, ivv = 2.0 / 12;                 /* a^3 b / 12 and a b^3 / 12 */
    geom_second_moments(x, y, 4, &cxx, &cyy, &cxy);
    ENSURE_CLOSE(cxx, c * c * iuu + s * s * ivv, 1e-13);
    ENSURE_CLOSE(cyy, s * s * iuu + c * c * ivv, 1e-13);
    ENSURE_CLOSE(cxy, c * s * (iuu - ivv), 1e-13);
    Vec2 a;
    ENSURE(geom_short_axis(x, y, 4, &a) == 0);
    ENSURE_CLOSE(fabs(a.x * -s + a.y * c), 1, 1e-12);      /* along the short side, (-sin, cos) */
}

void test_geometry_regular_polygon(void)
{
    for (int n = 3; n <= 64; n *= 2) {
        double x[64], y[64], R = 1.7, cxx, cyy, cxy;
        for (int k = 0; k < n; k++) { x[k] = -4 + R * cos(2 * PH_PI * k / n); y[k] = 5 + R * sin(2 * PH_PI * k / n); }
        double A = 0.5 * n * R * R * sin(2 * PH_PI / n);
        ENSURE_CLOSE(geom_area(x, y, n), A, 1e-12);
        ENSURE_CLOSE(geom_perimeter(x, y, n), 2 * n * R * sin(PH_PI / n), 1e-12);
        Vec2 c = geom_centroid(x, y, n);
        ENSURE_CLOSE(c.x, -4, 1e-12);
        ENSURE_CLOSE(c.y, 5, 1e-12);
        ENSURE_CLOSE(first_moment_x(x, y, n), 5 * A, 1e-11);
        /* polar moment of n triangles about the centre: A R^2 (2 + cos(2 pi / n)) / 6 */
        geom_second_moments(x, y, n, &cxx, &cyy, &cxy);
        ENSURE_CLOSE(cxx + cyy, A * R * R * (2 + cos(2 * PH_PI / n)) / 6, 1e-11);
        ENSURE_CLOSE(cxx, cyy, 1e-11);
        ENSURE_SMALL(cxy, 1e-11);
    }
}

/* [0,2]x[0,1] united with [0,1]x[1,2] */
void test_geometry_l_shape(void)
{
    double x[] = { 0, 2, 2, 1, 1, 0 }, y[] = { 0, 0, 1, 1, 2, 2 }, cxx, cyy, cxy;
    ENSURE_CLOSE(geom_area(x, y, 6), 3, 1e-15);
    ENSURE_CLOSE(geom_perimeter(x, y, 6), 8, 1e-15);
    Vec2 c = geom_centroid(x, y, 6);
    ENSURE_CLOSE(c.x, 5.0 / 6, 1e-15);
    ENSURE_CLOSE(c.y, 5.0 / 6, 1e-15);
    ENSURE_CLOSE(first_moment_x(x, y, 6), 2.5, 1e-15);
    geom_second_moments(x, y, 6, &cxx, &cyy, &cxy);
    ENSURE_CLOSE(cxx, 11.0 / 12, 1e-14);   /* int x^2 = 3, minus A cx^2 = 25/12 */
    ENSURE_CLOSE(cyy, 11.0 / 12, 1e-14);
    ENSURE_CLOSE(cxy, -1.0 / 3, 1e-14);    /* int xy = 7/4, minus A cx cy = 25/12 */
    Vec2 a;   /* eigenvalues 11/12 -+ 1/3: the short axis is the diagonal (1, 1)/sqrt 2 */
    ENSURE(geom_short_axis(x, y, 6, &a) == 0);
    ENSURE_CLOSE(fabs(a.x + a.y) / sqrt(2), 1, 1e-12);
    ENSURE(!geom_point_inside(x, y, 6, 1.5, 1.5));         /* the notch */
    ENSURE(geom_point_inside(x, y, 6, 0.5, 1.5));
}

/* geom_point_inside (ray casting, even-odd rule) on a square, a diamond whose ray passes
 * through vertices, and a concave U, each also in reversed vertex order; points 1e-9 from an
 * edge on either side. Then geom_point_segment_distance with its clamped xi. */
void test_geometry_point_inside_and_distance(void)
{
    double sx[] = { 0, 1, 1, 0 }, sy[] = { 0, 0, 1, 1 };
    double dx[] = { 0, 1, 0, -1 }, dy[] = { -1, 0, 1, 0 };
    double ux[] = { 0, 3, 3, 2, 2, 1, 1, 0 }, uy[] = { 0, 0, 3, 3, 1, 1, 3, 3 };   /* a notch [1,2]x[1,3] from the top */
    struct { const double *x, *y; int n; double px, py; int in; } c[] = {
        { sx, sy, 4, 0.5, 0.5, 1 },       { sx, sy, 4, 1.5, 0.5, 0 },        { sx, sy, 4, -0.5, 0.5, 0 },
        { sx, sy, 4, 0.5, 2, 0 },         { sx, sy, 4, 0.5, 1e-9, 1 },       { sx, sy, 4, 0.5, -1e-9, 0 },
        { sx, sy, 4, 1 - 1e-9, 0.5, 1 },  { sx, sy, 4, 1 + 1e-9, 0.5, 0 },   { sx, sy, 4, 1e-9, 1 - 1e-9, 1 },
        { dx, dy, 4, 0.5, 0, 1 },         { dx, dy, 4, -0.5, 0, 1 },         { dx, dy, 4, -2, 0, 0 },
        { dx, dy, 4, 2, 0, 0 },           { dx, dy, 4, 0.6, 0.6, 0 },        { dx, dy, 4, 0.49, 0.49, 1 },
        { ux, uy, 8, 1.5, 2, 0 },         { ux, uy, 8, 0.5, 2, 1 },          { ux, uy, 8, 2.5, 2, 1 },
        { ux, uy, 8, 1.5, 0.5, 1 },       { ux, uy, 8, 1.5, 1 + 1e-9, 0 },   { ux, uy, 8, 1.5, 1 - 1e-9, 1 },
        { ux, uy, 8, 1 - 1e-9, 2, 1 },    { ux, uy, 8, 1 + 1e-9, 2, 0 },     { ux, uy, 8, 1.5, 3.5, 0 },
    };
    for (size_t t = 0; t < sizeof c / sizeof c[0]; t++) {
        double rx[8], ry[8];
        for (int k = 0; k < c[t].n; k++) rx[k] = c[t].x[c[t].n - 1 - k], ry[k] = c[t].y[c[t].n - 1 - k];
        ENSURE_MSG(geom_point_inside(c[t].x, c[t].y, c[t].n, c[t].px, c[t].py) == c[t].in, "case %zu: (%g, %g) should be %s",
                   t, c[t].px, c[t].py, c[t].in ? "inside" : "outside");
        ENSURE_MSG(geom_point_inside(rx, ry, c[t].n, c[t].px, c[t].py) == c[t].in, "case %zu reversed: (%g, %g) should be %s",
                   t, c[t].px, c[t].py, c[t].in ? "inside" : "outside");
    }
    double xi;
    Vec2 a = { 0, 0 }, b = { 2, 0 };
    ENSURE_CLOSE(geom_point_segment_distance((Vec2){ 0.5, 1 }, a, b, &xi), 1, 1e-15);
    ENSURE_CLOSE(xi, 0.25, 1e-15);
    ENSURE_CLOSE(geom_point_segment_distance((Vec2){ 5, 4 }, a, b, &xi), 5, 1e-15);
    ENSURE_CLOSE(xi, 1, 0);
    ENSURE_CLOSE(geom_point_segment_distance((Vec2){ -3, -4 }, a, b, &xi), 5, 1e-15);
    ENSURE_CLOSE(xi, 0, 0);
}

/* Points of one straight edge bisected 5 times (as refinement does, docs/model.md 4) are
 * collinear up to rounding, where the orientation signs are noise: two pieces apart on the line
 * never cross (a seal of a division was once reported as crossing itself so), and two that do
 * cross are still found. */
void test_geometry_collinear_pieces_do_not_cross(void)
{
    Vec2 p[33] = { { -0.5424755574590947, 0.8905413911078446 } };
    p[32] = (Vec2){ 0.8028549152229671, -0.9388200339328929 };
    for (int step = 16; step >= 1; step /= 2)
        for (int k = step; k < 32; k += 2 * step)
            p[k] = (Vec2){ 0.5 * (p[k - step].x + p[k + step].x), 0.5 * (p[k - step].y + p[k + step].y) };
    for (int i = 0; i < 32; i++)
        for (int j = i + 2; j < 32; j++)
            ENSURE_MSG(!geom_segments_cross(p[i], p[i + 1], p[j], p[j + 1]), "pieces %d and %d cross", i, j);
    ENSURE(geom_segments_cross((Vec2){ 0, 0 }, (Vec2){ 1, 1 }, (Vec2){ 0, 1 }, (Vec2){ 1, 0 }));
    ENSURE(geom_segments_cross((Vec2){ 0, 0 }, (Vec2){ 2, 0 }, (Vec2){ 1, -1e-9 }, (Vec2){ 1, 1 }));
}
