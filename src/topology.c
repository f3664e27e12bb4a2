/* Division (paper 3.2, Fig. 1C; SPEC 5):
 * 1. The cut is the line through the centroid c along the short axis a (random if the polygon
 *    is isotropic). Each edge whose ends lie on opposite sides crosses it; of the crossings, the
 *    nearest to c on either side along a bound the chord through c.
 * 2. With the crossing edges (a0, a1) and (b0, b1), daughter 1 is the chain a1 .. b0 and
 *    daughter 2 the chain b1 .. a0 (counter-clockwise), each closed by a straight seal edge.
 * 3. While the two seal edges are closer than h, the chain end nearest to the cut line is
 *    dropped (each daughter keeps at least 3 vertices, otherwise the division is abandoned).
 * 4. A seal's rest length gives it the mother's mean stretch L / sum l0; the target area is
 *    shared in proportion to the daughters' areas; both draw new traits. The long seals are
 *    split by the next remodeling pass. */
#include "topology.h"
#include "geometry.h"
#include "rng.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void topology_draw_traits(Ensemble *e, const Params *P, int p)
{
    e->alpha[p] = rng_lognormal(e->seed, &e->draws, P->alpha_mu, P->alpha_CV);
    e->Amax[p] = rng_lognormal(e->seed, &e->draws, P->Amax_mu, P->Amax_CV);
}

static double segment_distance(Vec2 a, Vec2 b, Vec2 c, Vec2 d)
{
    double d1 = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    double d2 = (b.x - a.x) * (d.y - a.y) - (b.y - a.y) * (d.x - a.x);
    double d3 = (d.x - c.x) * (a.y - c.y) - (d.y - c.y) * (a.x - c.x);
    double d4 = (d.x - c.x) * (b.y - c.y) - (d.y - c.y) * (b.x - c.x);
    if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
        return 0;                                         /* they cross */
    return fmin(fmin(geom_point_segment_distance(a, c, d, NULL), geom_point_segment_distance(b, c, d, NULL)),
                fmin(geom_point_segment_distance(c, a, b, NULL), geom_point_segment_distance(d, a, b, NULL)));
}

int topology_divide(Ensemble *e, const Params *P, int p)
{
    int s = e->start[p], n = e->count[p];
    if (n <= 5 || e->rigid[p]) return -1;
    const double *x = e->x + s, *y = e->y + s;
    Vec2 c = geom_centroid(x, y, n), a;
    if (!geom_point_inside(x, y, n, c.x, c.y)) return -1;
    if (geom_short_axis(x, y, n, &a) != 0) {
        double phi = 2 * PH_PI * rng_uniform(e->seed, &e->draws);
        a.x = cos(phi); a.y = sin(phi);
    }
    /* side of each vertex: sd > 0 left of the cut line */
    double *sd = malloc((size_t)n * sizeof *sd);
    if (!sd) { fprintf(stderr, "polyhoop: out of memory\n"); exit(1); }
    for (int k = 0; k < n; k++) sd[k] = a.x * (y[k] - c.y) - a.y * (x[k] - c.x);
    int ka = -1, kb = -1;
    double ta = INFINITY, tb = -INFINITY;
    for (int k = 0; k < n; k++) {
        int k1 = k + 1 == n ? 0 : k + 1;
        if ((sd[k] > 0) == (sd[k1] > 0)) continue;
        double f = sd[k] / (sd[k] - sd[k1]);
        double t = (x[k] + f * (x[k1] - x[k]) - c.x) * a.x + (y[k] + f * (y[k1] - y[k]) - c.y) * a.y;
        if (t > 0 && t < ta) { ta = t; ka = k; }
        if (t <= 0 && t > tb) { tb = t; kb = k; }
    }
    if (ka < 0 || kb < 0 || (sd[ka] > 0) == (sd[kb] > 0)) { free(sd); return -1; }
    /* daughter 1: a1 .. b0, daughter 2: b1 .. a0 (indices walk forward, cyclic) */
    int a1 = (ka + 1) % n, b0 = kb, b1 = (kb + 1) % n, a0 = ka;
    int n1 = (b0 - a1 + n) % n + 1, n2 = (a0 - b1 + n) % n + 1;
    for (;;) {
        Vec2 pa0 = { x[a0], y[a0] }, pa1 = { x[a1], y[a1] }, pb0 = { x[b0], y[b0] }, pb1 = { x[b1], y[b1] };
        if (segment_distance(pb0, pa1, pa0, pb1) >= P->h) break;
        /* drop the chain end closest to the cut line (ties: fixed order a1, b0, b1, a0) */
        int ends[4] = { a1, b0, b1, a0 }, best = -1;
        for (int j = 0; j < 4; j++) {
            if ((j < 2 ? n1 : n2) <= 3) continue;
            if (best < 0 || fabs(sd[ends[j]]) < fabs(sd[ends[best]])) best = j;
        }
        if (best < 0) { free(sd); return -1; }
        if (best == 0) a1 = (a1 + 1) % n;
        else if (best == 1) b0 = (b0 - 1 + n) % n;
        else if (best == 2) b1 = (b1 + 1) % n;
        else a0 = (a0 - 1 + n) % n;
        if (best < 2) n1--; else n2--;
    }
    free(sd);

    /* copy the daughters out, then write daughter 1 over the mother and append daughter 2 */
    double sum0 = 0;
    for (int k = 0; k < n; k++) sum0 += e->l0[s + k];
    double stretch = e->L[p] > 0 ? geom_perimeter(x, y, n) / sum0 : 1;
    double *buf = malloc((size_t)(n1 + n2) * 5 * sizeof *buf);
    if (!buf) { fprintf(stderr, "polyhoop: out of memory\n"); exit(1); }
    int first[2] = { a1, b1 }, len[2] = { n1, n2 };
    double *d[2][5];
    for (int h = 0; h < 2; h++) {
        for (int f = 0; f < 5; f++) d[h][f] = buf + (size_t)(n1 + n2) * f + (h ? n1 : 0);
        for (int j = 0; j < len[h]; j++) {
            int i = s + (first[h] + j) % n;
            d[h][0][j] = e->x[i]; d[h][1][j] = e->y[i];
            d[h][2][j] = e->vx[i]; d[h][3][j] = e->vy[i]; d[h][4][j] = e->l0[i];
        }
        int last = len[h] - 1;   /* the seal runs from the last vertex back to the first */
        d[h][4][last] = hypot(d[h][0][0] - d[h][0][last], d[h][1][0] - d[h][1][last]) / stretch;
    }
    double A1 = geom_area(d[0][0], d[0][1], n1), A2 = geom_area(d[1][0], d[1][1], n2);
    double A0 = e->A0[p];
    int64_t mother = e->id[p];
    int phase = e->phase[p];
    int q = ensemble_push_polygon(e, n2, d[1][0], d[1][1], d[1][2], d[1][3], d[1][4]);
    s = e->start[p];   /* the arrays may have moved */
    for (int f = 0; f < 5; f++) {
        double *dst[5] = { e->x, e->y, e->vx, e->vy, e->l0 };
        memcpy(dst[f] + s, d[0][f], (size_t)n1 * sizeof(double));
    }
    e->count[p] = n1;
    e->gaps = 1;
    e->A[p] = A1;
    e->A0[p] = A0 * A1 / (A1 + A2);
    e->A0[q] = A0 * A2 / (A1 + A2);
    e->phase[q] = (signed char)phase;
    e->id[p] = e->next_id++;
    e->parent[p] = e->parent[q] = mother;
    e->birth[p] = e->birth[q] = e->t;
    topology_draw_traits(e, P, p);
    topology_draw_traits(e, P, q);
    free(buf);
    return q;
}

int topology_update(Ensemble *e, const Params *P, int *removed)
{
    int np = e->np, gone = 0, divisions = 0;
    unsigned char *flag = malloc((size_t)np + 1);
    if (!flag) { fprintf(stderr, "polyhoop: out of memory\n"); exit(1); }
    /* flag: 0 remove, 1 keep, 2 divide */
    #pragma omp parallel for schedule(dynamic, 16) reduction(+ : gone)
    for (int p = 0; p < np; p++) {
        int s = e->start[p], n = e->count[p];
        double A = n >= 3 ? geom_area(e->x + s, e->y + s, n) : 0;
        e->A[p] = A;
        flag[p] = 1;
        if (!e->rigid[p] && (n < 3 || A < P->Amin)) { flag[p] = 0; gone++; }
        else if (!e->rigid[p] && A > e->Amax[p] && n > 5) flag[p] = 2;
    }
    for (int p = 0; p < np; p++)
        if (flag[p] == 2) {
            /* perimeters are needed for the seal stretch */
            e->L[p] = geom_perimeter(e->x + e->start[p], e->y + e->start[p], e->count[p]);
            if (topology_divide(e, P, p) >= 0) divisions++;
        }
    if (gone) {
        flag = realloc(flag, (size_t)e->np);
        if (!flag) { fprintf(stderr, "polyhoop: out of memory\n"); exit(1); }
        for (int p = np; p < e->np; p++) flag[p] = 1;
        ensemble_keep(e, flag);
    }
    free(flag);
    if (removed) *removed = gone;
    return divisions;
}
