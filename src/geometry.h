/* Geometry of one polygon given as n vertices (x[k], y[k]), k = 0..n-1, cyclic, counter-clockwise
 * for positive area: the shoelace family of paper eqs. 6, 8, 14, 31-36. Pure functions. */
#ifndef PH_GEOMETRY_H
#define PH_GEOMETRY_H
#include <math.h>
#include <stddef.h>

#define PH_PI 3.14159265358979323846

typedef struct { double x, y; } Vec2;

/* The length of edge k -> k1, added to *sum, the longest in *top, and stored in len[k] if len
 * (geom_area_edges). */
static inline void geom_edge(const double *x, const double *y, int k, int k1, double *sum, double *top,
                             double *len)
{
    double dx = x[k1] - x[k], dy = y[k1] - y[k], l = sqrt(dx * dx + dy * dy);
    *sum += l;
    if (l > *top) *top = l;
    if (len) len[k] = l;
}

/* The signed area (eq. 6, > 0 if CCW) by the shoelace formula, in one pass with the edges'
 * lengths l_k = |r_{k+1} - r_k| where L is given: their sum, in the order of k, in *L, the
 * longest in *lmax (L and lmax: both or neither) and, with len, each in len[k]. The area is
 * summed relative to the first vertex: the same result, but a polygon far from the origin keeps
 * its precision (absolute coordinates of 1e9 would cancel to zero area); the two edges at that
 * vertex span no area about it. Inline, for the step's one pass over each polygon (forces.c). */
static inline double geom_area_edges(const double *x, const double *y, int n, double *L, double *lmax,
                                     double *len)
{
    double a = 0, sum = 0, top = 0, ox = x[0], oy = y[0];
    if (L && n > 0) geom_edge(x, y, 0, n > 1 ? 1 : 0, &sum, &top, len);
    for (int k = 1; k + 1 < n; k++) {
        if (L) geom_edge(x, y, k, k + 1, &sum, &top, len);
        a += (x[k] - ox) * (y[k + 1] - oy) - (x[k + 1] - ox) * (y[k] - oy);
    }
    if (L && n > 1) geom_edge(x, y, n - 1, 0, &sum, &top, len);
    if (L) { *L = sum; *lmax = top; }
    return 0.5 * a;
}

double geom_area(const double *x, const double *y, int n);          /* geom_area_edges' area */
double geom_perimeter(const double *x, const double *y, int n);     /* eq. 8 */
Vec2 geom_centroid(const double *x, const double *y, int n);        /* eq. 31 */

/* Second moments of area about the centroid: cxx = int (x-cx)^2 dA, cyy = int (y-cy)^2 dA,
 * cxy = int (x-cx)(y-cy) dA. (The paper's inertia tensor, eqs. 32-34, is [[cyy, -cxy], [-cxy, cxx]].) */
void geom_second_moments(const double *x, const double *y, int n, double *cxx, double *cyy, double *cxy);

/* Unit direction of the short axis through the centroid: the eigenvector of the second-moment
 * tensor with the smaller eigenvalue (= of the inertia tensor with the larger, eqs. 35-36).
 * Returns 0, or -1 if the tensor is isotropic to rounding (the axis is then undefined). */
int geom_short_axis(const double *x, const double *y, int n, Vec2 *axis);

/* 1 if (px, py) is inside the polygon (ray casting, even-odd rule), else 0. */
int geom_point_inside(const double *x, const double *y, int n, double px, double py);

/* 1 if segments ab and cd cross at a point inside both (touching does not count). */
int geom_segments_cross(Vec2 a, Vec2 b, Vec2 c, Vec2 d);

/* Distance between segments ab and cd (0 if they cross). */
double geom_segment_distance(Vec2 a, Vec2 b, Vec2 c, Vec2 d);

/* Distance from point p to segment ab; *xi (may be NULL) receives the clamped parameter in [0,1]. */
double geom_point_segment_distance(Vec2 p, Vec2 a, Vec2 b, double *xi);

#endif
