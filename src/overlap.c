/* The overlap check of the input (overlap.h). Two passes over the contact grid (cells at least
 * as wide as the longest edge, edges binned by their midpoints):
 *   1. every pair of edges of two polygons whose midpoints lie in neighbouring cells (all edges
 *      that can meet) is tested for crossing and touching, from the lower polygon's side;
 *   2. if nothing met, each polygon's innermost container is found from the edge hit first by a
 *      ray to the left from its leftmost vertex: if that edge's polygon r holds the vertex (the
 *      edge runs downwards: a counter-clockwise polygon's inside is on its left), r is the
 *      container; otherwise the vertex lies beside r, in the same region as r's boundary, and
 *      shares r's container. r's leftmost vertex lies left of the hit, so taking the polygons
 *      from left to right finds every container from one already known. The ray stops as soon
 *      as no cell farther left can hold a nearer edge. */
#include "overlap.h"
#include "geometry.h"
#include "grid.h"
#include "status.h"
#include <limits.h>
#include <math.h>
#include <stdlib.h>

/* the polygons in order of their leftmost vertex (x, then y, then index) */
typedef struct { double x, y; int p, v; } Leftmost;

static int by_leftmost(const void *a, const void *b)
{
    const Leftmost *u = a, *w = b;
    return u->x < w->x ? -1 : u->x > w->x ? 1
         : u->y < w->y ? -1 : u->y > w->y ? 1
         : (u->p > w->p) - (u->p < w->p);
}

static int by_int(const void *a, const void *b)
{
    int u = *(const int *)a, w = *(const int *)b;
    return (u > w) - (u < w);
}

/* Pass 1: the crossing and touching pairs. */
static long find_meeting(const Ensemble *e, const Grid *g, double h, OverlapPair *first)
{
    int *mark = malloc((size_t)e->np * sizeof *mark), *list = malloc((size_t)e->np * sizeof *list);
    unsigned char *crosses = malloc((size_t)e->np);
    if (!mark || !list || !crosses) { free(mark); free(list); free(crosses); return -1; }
    for (int q = 0; q < e->np; q++) mark[q] = -1;
    long count = 0;
    double touch = OVERLAP_TOUCH * h;
    GridRows r = { 0 };
    int64_t cell = -1;
    int hint[3] = { 0, 0, 0 };   /* (successive edges lie in nearby cells) */
    for (int p = 0; p < e->np; p++) {
        int n = 0;
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            int ix, iy, i1 = ens_next(e, i);
            Vec2 a = { e->x[i], e->y[i] }, b = { e->x[i1], e->y[i1] };
            /* (the stencil of the cell of edge i's midpoint) */
            int64_t c = grid_cell(g, 0.5 * (a.x + b.x), 0.5 * (a.y + b.y), &ix, &iy);
            if (c != cell) { cell = c; grid_rows(g, ix, iy, hint, &r); }
            for (int row = 0; row < r.n; row++)
                for (int m = g->start[r.b[row]]; m < g->start[r.e[row]]; m++) {
                    int j = g->gs[m].k, q = e->pid[j];
                    if (q <= p || (e->rigid[p] && e->rigid[q]) || (mark[q] == p && crosses[q]))
                        continue;
                    int j1 = ens_next(e, j);
                    Vec2 c = { e->x[j], e->y[j] }, d = { e->x[j1], e->y[j1] };
                    if (fmax(a.x, b.x) + touch < fmin(c.x, d.x) ||
                        fmax(c.x, d.x) + touch < fmin(a.x, b.x) ||
                        fmax(a.y, b.y) + touch < fmin(c.y, d.y) ||
                        fmax(c.y, d.y) + touch < fmin(a.y, b.y))
                        continue;   /* (boxes apart) */
                    int cross = geom_segments_cross(a, b, c, d);
                    if (!cross && !(geom_segment_distance(a, b, c, d) < touch)) continue;
                    if (mark[q] != p) { mark[q] = p; crosses[q] = 0; list[n++] = q; }
                    crosses[q] |= (unsigned char)cross;
                }
        }
        if (n && !count) {
            qsort(list, (size_t)n, sizeof *list, by_int);
            *first = (OverlapPair){ p, list[0],
                                    crosses[list[0]] ? OVERLAP_CROSS : OVERLAP_TOUCH_KIND };
        }
        count += n;
    }
    free(mark); free(list); free(crosses);
    return count;
}

/* The edge hit first by the ray to the left of (vx, vy), not of polygon p, and whether the point
 * lies inside that edge's polygon; -1 if none. The ray counts a vertex at height vy as below it
 * (as geom_point_inside does), i.e. it runs just above vy: of two edges hit at the same x (a
 * lowest vertex of a polygon), the one farther right just above is nearer. */
static int ray_left(const Ensemble *e, const Grid *g, double lmax, int p, double vx, double vy,
                    int *inside)
{
    int cx, cy, best = -1, n = 0, pos[3], first[3];
    double bx = -INFINITY, bslope = 0;
    int64_t base[3];
    grid_cell(g, vx, vy, &cx, &cy);
    /* the cells of rows cy - 1 .. cy + 1 from column cx + 1 leftwards: per row, its entries down
     * to its first (only occupied cells in a sparse grid), the rows merged by column */
    for (int row = cy > 0 ? cy - 1 : 0; row <= cy + 1 && row < g->ny; row++, n++) {
        base[n] = (int64_t)row * g->nx;
        first[n] = grid_lower(g, base[n], 0);
        pos[n] = grid_lower(g, base[n] + (cx + 1 < g->nx ? cx + 1 : cx) + 1, first[n]) - 1;
    }
    for (;;) {
        int r = -1;
        int64_t col = -1;
        for (int k = 0; k < n; k++)
            if (pos[k] >= first[k] && grid_key(g, pos[k]) - base[k] > col) {
                col = grid_key(g, pos[k]) - base[k];
                r = k;
            }
        if (r < 0) break;
        /* (every edge of this column lies left of the hit) */
        if (best >= 0 && g->x0 + (double)(col + 1) * g->cs + 0.5 * lmax < bx) break;
        int q = pos[r]--;
        for (int m = g->start[q]; m < g->start[q + 1]; m++) {
            int j = g->gs[m].k, j1 = ens_next(e, j);
            if (e->pid[j] == p) continue;
            double xa = e->x[j], ya = e->y[j], xb = e->x[j1], yb = e->y[j1];
            if ((ya > vy) == (yb > vy)) continue;
            double slope = (xb - xa) / (yb - ya), x = xa + (vy - ya) * slope;
            if (!(x < vx)) continue;
            if (x > bx || (x == bx && (slope > bslope || (slope == bslope && j < best)))) {
                best = j; bx = x; bslope = slope;
                *inside = ya > vy;   /* running downwards */
            }
        }
    }
    return best < 0 ? -1 : e->pid[best];
}

/* Pass 2: the nested pairs, given that no boundaries meet. */
static long find_nested(const Ensemble *e, const Grid *g, double lmax, OverlapPair *first)
{
    Leftmost *order = malloc((size_t)e->np * sizeof *order);
    int *parent = malloc((size_t)e->np * sizeof *parent);
    if (!order || !parent) { free(order); free(parent); return -1; }
    for (int p = 0; p < e->np; p++) {
        order[p] = (Leftmost){ INFINITY, INFINITY, p, -1 };
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++)
            if (e->x[i] < order[p].x || (e->x[i] == order[p].x && e->y[i] < order[p].y))
                order[p] = (Leftmost){ e->x[i], e->y[i], p, i };
    }
    qsort(order, (size_t)e->np, sizeof *order, by_leftmost);
    for (int k = 0; k < e->np; k++) {
        int p = order[k].p, inside = 0,
            r = ray_left(e, g, lmax, p, order[k].x, order[k].y, &inside);
        parent[p] = r < 0 ? -1 : inside ? r : parent[r];
    }
    long count = 0;
    for (int p = 0; p < e->np; p++) {
        int q = parent[p];
        if (q < 0 || e->rigid[q] || e->phase[q] != e->phase[p]) continue;
        if (!count++) *first = (OverlapPair){ p, q, OVERLAP_NESTED };
    }
    free(order);
    free(parent);
    return count;
}

/* A copy of e with every edge longer than lmax cut into equal pieces no longer than lmax, as
 * remodeling will cut it: the points added lie on the edges, so nothing that meets, crosses or
 * nests changes, but the grid's cells stay small (one long wall would otherwise make a single
 * cell of everything). Only what the check reads is copied (positions, polygons, their phase
 * and rigidity): 20 bytes a vertex, not the 60 of a full ensemble. nv: the copy's vertices.
 * Returns the longest edge of the copy. */
static double refine(const Ensemble *e, double lmax, int64_t nv, Ensemble *r)
{
    double longest = 0;
    if (nv > INT_MAX)
        status_exit(PH_EXIT_MEMORY, "out of memory (the overlap check's copy of the polygons, "
                                    "their long edges cut, would have %lld vertices)",
                    (long long)nv);
    r->x = ph_realloc(NULL, (size_t)nv * sizeof *r->x);
    r->y = ph_realloc(NULL, (size_t)nv * sizeof *r->y);
    r->pid = ph_realloc(NULL, (size_t)nv * sizeof *r->pid);
    r->start = ph_realloc(NULL, ((size_t)e->np + 1) * sizeof *r->start);
    r->count = ph_realloc(NULL, ((size_t)e->np + 1) * sizeof *r->count);
    r->phase = ph_realloc(NULL, ((size_t)e->np + 1) * sizeof *r->phase);
    r->rigid = ph_realloc(NULL, ((size_t)e->np + 1) * sizeof *r->rigid);
    int n = 0;
    for (int p = 0; p < e->np; p++) {
        r->start[p] = n;
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            int j = ens_next(e, i);
            double l = hypot(e->x[j] - e->x[i], e->y[j] - e->y[i]);
            int k = l > lmax ? (int)ceil(l / lmax) : 1;
            for (int m = 0; m < k; m++, n++) {
                r->x[n] = e->x[i] + (e->x[j] - e->x[i]) * (double)m / (double)k;
                r->y[n] = e->y[i] + (e->y[j] - e->y[i]) * (double)m / (double)k;
                r->pid[n] = p;
            }
            longest = fmax(longest, l / (double)k);
        }
        r->count[p] = n - r->start[p];
        r->phase[p] = (signed char)(e->phase[p] >= 0 ? 1 : -1);
        r->rigid[p] = (unsigned char)(e->rigid[p] != 0);
    }
    r->np = r->np_cap = e->np;
    r->nv_used = r->nv_cap = n;
    return longest;
}

long overlap_find(const Ensemble *e, double lmax, double h, OverlapPair *first)
{
    double longest = 0;
    int64_t nv = 0;   /* (the vertices of the refined copy) */
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            int j = ens_next(e, i);
            double l = hypot(e->x[j] - e->x[i], e->y[j] - e->y[i]);
            longest = fmax(longest, l);
            nv += l > lmax ? (int64_t)ceil(l / lmax) : 1;
        }
    Ensemble fine;
    const Ensemble *use = e;
    if (longest > lmax) {
        ensemble_init(&fine, e->seed);
        longest = refine(e, lmax, nv, &fine);
        use = &fine;
    }
    Grid g;
    grid_init(&g);
    /* the midpoints of two edges that meet are at most the longest edge apart: neighbouring
     * cells */
    grid_build(&g, use, longest * (1 + 1e-9) + OVERLAP_TOUCH * h, INFINITY, 0);
    long count = find_meeting(use, &g, h, first);
    if (count == 0) count = find_nested(use, &g, longest, first);
    grid_free(&g);
    if (use == &fine) ensemble_free(&fine);
    return count;
}

/* The inside of polygon p along the line at height y: sorted crossings, pairs of which bound it.
 * Returns their number. */
static int row_crossings(const Ensemble *e, int p, double y, double *xs)
{
    int n = 0;
    for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
        int j = ens_next(e, i);
        if ((e->y[i] > y) != (e->y[j] > y))
            xs[n++] = e->x[i] + (y - e->y[i]) * (e->x[j] - e->x[i]) / (e->y[j] - e->y[i]);
    }
    for (int k = 1; k < n; k++)   /* (insertion sort: a row meets a hoop a few times) */
        for (int m = k; m > 0 && xs[m - 1] > xs[m]; m--) {
            double t = xs[m]; xs[m] = xs[m - 1]; xs[m - 1] = t;
        }
    return n;
}

static void y_range(const Ensemble *e, int p, double *lo, double *hi)
{
    *lo = INFINITY; *hi = -INFINITY;
    for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
        *lo = fmin(*lo, e->y[i]);
        *hi = fmax(*hi, e->y[i]);
    }
}

enum { ROWS = 1024 };

/* The midpoint-rule area over ROWS rows of [lo, hi] of p's inside (q < 0) or of the inside of
 * both p and q. */
static double row_area(const Ensemble *e, int p, int q, double lo, double hi, double *xp,
                       double *xq)
{
    double dy = (hi - lo) / ROWS, sum = 0;
    for (int k = 0; k < ROWS && hi > lo; k++) {
        double y = lo + (k + 0.5) * dy;
        int np = row_crossings(e, p, y, xp), nq = q < 0 ? 0 : row_crossings(e, q, y, xq);
        if (q < 0) { for (int a = 0; a + 1 < np; a += 2) sum += xp[a + 1] - xp[a]; continue; }
        for (int a = 0, b = 0; a + 1 < np && b + 1 < nq;) {   /* intersect the two lists */
            sum += fmax(0, fmin(xp[a + 1], xq[b + 1]) - fmax(xp[a], xq[b]));
            if (xp[a + 1] < xq[b + 1]) a += 2; else b += 2;
        }
    }
    return sum * dy;
}

double overlap_fraction(const Ensemble *e, int p, int q)
{
    double *xp = malloc((size_t)e->count[p] * sizeof *xp),
           *xq = malloc((size_t)e->count[q] * sizeof *xq);
    if (!xp || !xq) { free(xp); free(xq); return NAN; }
    double plo, phi, qlo, qhi;
    y_range(e, p, &plo, &phi);
    y_range(e, q, &qlo, &qhi);
    double both = row_area(e, p, q, fmax(plo, qlo), fmin(phi, qhi), xp, xq);
    double ap = row_area(e, p, -1, plo, phi, xp, NULL), aq = row_area(e, q, -1, qlo, qhi, xq, NULL);
    free(xp);
    free(xq);
    return both / fmin(ap, aq);
}
