/* Geometry of one polygon given as n vertices (x[k], y[k]), k = 0..n-1, cyclic, counter-clockwise
 * for positive area: the shoelace family of paper eqs. 6, 8, 14, 31-36. Pure functions. */
#ifndef PH_GEOMETRY_H
#define PH_GEOMETRY_H

#define PH_PI 3.14159265358979323846

typedef struct { double x, y; } Vec2;

double geom_area(const double *x, const double *y, int n);          /* signed, > 0 if CCW (eq. 6) */
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
