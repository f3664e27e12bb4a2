/* Polygon geometry (paper eqs. 6, 8, 14, 31-34) and two small predicates used by the
 * topological changes. All sums run over the edges (k, k+1) of a cyclic vertex list. */
#include "geometry.h"
#include <math.h>
#include <stddef.h>

double geom_area(const double *x, const double *y, int n)
{
    return geom_area_edges(x, y, n, NULL, NULL, NULL);
}

double geom_perimeter(const double *x, const double *y, int n)
{
    double s = 0;
    for (int k = 0, j = n - 1; k < n; j = k++) s += hypot(x[k] - x[j], y[k] - y[j]);
    return s;
}

Vec2 geom_centroid(const double *x, const double *y, int n)
{
    double a = 0, sx = 0, sy = 0, ox = x[0], oy = y[0];
    for (int k = 0, j = n - 1; k < n; j = k++) {
        double xj = x[j] - ox, yj = y[j] - oy, xk = x[k] - ox, yk = y[k] - oy, w = xj * yk - xk * yj;
        a += w;
        sx += w * (xj + xk);
        sy += w * (yj + yk);
    }
    return (Vec2){ ox + sx / (3 * a), oy + sy / (3 * a) };
}

/* Second moments are taken relative to the first vertex and shifted to the centroid afterwards
 * (parallel axis theorem), which keeps them accurate for polygons far from the origin. */
void geom_second_moments(const double *x, const double *y, int n, double *cxx, double *cyy, double *cxy)
{
    double a = 0, sx = 0, sy = 0, ixx = 0, iyy = 0, ixy = 0, ox = x[0], oy = y[0];
    for (int k = 0, j = n - 1; k < n; j = k++) {
        double x0 = x[j] - ox, y0 = y[j] - oy, x1 = x[k] - ox, y1 = y[k] - oy;
        double w = x0 * y1 - x1 * y0;
        a += w;
        sx += w * (x0 + x1);
        sy += w * (y0 + y1);
        ixx += w * (x0 * x0 + x0 * x1 + x1 * x1);
        iyy += w * (y0 * y0 + y0 * y1 + y1 * y1);
        ixy += w * (2 * x0 * y0 + x0 * y1 + x1 * y0 + 2 * x1 * y1);
    }
    a *= 0.5;
    double cx = sx / (6 * a), cy = sy / (6 * a);
    *cxx = ixx / 12 - a * cx * cx;
    *cyy = iyy / 12 - a * cy * cy;
    *cxy = ixy / 24 - a * cx * cy;
}

int geom_short_axis(const double *x, const double *y, int n, Vec2 *axis)
{
    double cxx, cyy, cxy;
    geom_second_moments(x, y, n, &cxx, &cyy, &cxy);
    double half = 0.5 * (cxx - cyy), root = hypot(half, cxy);
    if (root <= 1e-12 * (cxx + cyy)) return -1;
    /* smaller eigenvalue lam = (cxx+cyy)/2 - root; its eigenvector, from the better-conditioned row */
    double lam = 0.5 * (cxx + cyy) - root, ax, ay;
    if (cxx > cyy) { ax = cxy; ay = lam - cxx; }
    else { ax = lam - cyy; ay = cxy; }
    double len = hypot(ax, ay);
    axis->x = ax / len;
    axis->y = ay / len;
    return 0;
}

int geom_point_inside(const double *x, const double *y, int n, double px, double py)
{
    int in = 0;
    for (int k = 0, j = n - 1; k < n; j = k++)
        if ((y[k] > py) != (y[j] > py) && px < x[k] + (x[j] - x[k]) * (py - y[k]) / (y[j] - y[k]))
            in = !in;
    return in;
}

double geom_point_segment_distance(Vec2 p, Vec2 a, Vec2 b, double *xi)
{
    double ex = b.x - a.x, ey = b.y - a.y, dx = p.x - a.x, dy = p.y - a.y;
    double ee = ex * ex + ey * ey, t = ee > 0 ? (dx * ex + dy * ey) / ee : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    if (xi) *xi = t;
    return hypot(dx - t * ex, dy - t * ey);
}

int geom_segments_cross(Vec2 a, Vec2 b, Vec2 c, Vec2 d)
{
    /* segments whose boxes are apart cannot cross; this also keeps apart two pieces of one
     * straight line, as refinement makes them, whose orientations below are rounding noise */
    if (fmax(a.x, b.x) < fmin(c.x, d.x) || fmax(c.x, d.x) < fmin(a.x, b.x) ||
        fmax(a.y, b.y) < fmin(c.y, d.y) || fmax(c.y, d.y) < fmin(a.y, b.y)) return 0;
    double d1 = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    double d2 = (b.x - a.x) * (d.y - a.y) - (b.y - a.y) * (d.x - a.x);
    double d3 = (d.x - c.x) * (a.y - c.y) - (d.y - c.y) * (a.x - c.x);
    double d4 = (d.x - c.x) * (b.y - c.y) - (d.y - c.y) * (b.x - c.x);
    return d1 * d2 < 0 && d3 * d4 < 0;
}

double geom_segment_distance(Vec2 a, Vec2 b, Vec2 c, Vec2 d)
{
    if (geom_segments_cross(a, b, c, d)) return 0;
    return fmin(fmin(geom_point_segment_distance(a, c, d, NULL), geom_point_segment_distance(b, c, d, NULL)),
                fmin(geom_point_segment_distance(c, a, b, NULL), geom_point_segment_distance(d, a, b, NULL)));
}
