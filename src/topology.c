/* Division (paper 3.2, Fig. 1C; docs/model.md 5), the rule of the paper's program:
 * 1. The cut is the line through the centroid c along the short axis a (random if the polygon is
 *    isotropic); of the edges that cross it, the nearest to c on either side bound the chord.
 * 2. No vertex is created and, as a rule, none is removed: each daughter is the chain of the
 *    mother's vertices on one side, closed by a straight seal edge. Where the two ends of a
 *    crossing edge are closer than h, both walk outward along the hoop, dropping the vertices
 *    they pass, until they are h apart, so that the daughters do not overlap.
 * 3. Safeguard: the cut is postponed (tried again next step, and counted) only where it would
 *    give an invalid polygon: a daughter of fewer than 3 vertices or no area, or a seal crossing
 *    an edge of either daughter (which a non-convex mother can give).
 * 4. The seal gets the mother's mean stretch L / sum l0 (remodeling then refines it); the other
 *    edges keep their rest lengths. The target area is shared in proportion to the daughters'
 *    areas, summing exactly to the mother's; both draw new traits. Daughter 1 keeps the mother's
 *    slot and age, daughter 2 is appended and starts at age 0. */
#include "topology.h"
#include "cells.h"
#include "bands.h"
#include "geometry.h"
#include "rng.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void topology_draw_traits(Ensemble *e, const Params *P, int p)
{
    if (e->type_params) P = &e->type_params[e->type[p]];   /* (its type's growth, division area) */
    e->alpha[p] = P->alpha_normal
                      ? P->alpha_mu +
                            P->alpha_CV * fabs(P->alpha_mu) * rng_normal(e->seed, &e->draws)
                      : rng_lognormal(e->seed, &e->draws, P->alpha_mu, P->alpha_CV);
    e->Amax[p] = rng_lognormal(e->seed, &e->draws, P->Amax_mu, P->Amax_CV);
}

/* Copies one daughter, the mother's vertices from `first` to `last` walking forward (cyclic), into
 * d[V_x .. V_l0] (the last l0 is the seal's). Returns the vertex count. */
static int daughter(const Ensemble *e, int p, int first, int last, double stretch,
                    double *d[ENSEMBLE_NFIELDS])
{
    int n = e->count[p];
    double *src[ENSEMBLE_NFIELDS];
    ensemble_fields(e, e->start[p], src);
    int m = 0;
    for (int k = first;; k = (k + 1) % n) {
        for (int f = 0; f < ENSEMBLE_NFIELDS; f++) d[f][m] = src[f][k];
        m++;
        if (k == last) break;
    }
    d[V_l0][m - 1] = hypot(d[0][0] - d[0][m - 1], d[1][0] - d[1][m - 1]) / stretch;   /* seal */
    return m;
}

/* 1 if the seal of daughter a (its last edge, from vertex na-1 to 0) crosses an edge of a or of
 * daughter b. */
static int seal_crosses(double *const a[ENSEMBLE_NFIELDS], int na,
                        double *const b[ENSEMBLE_NFIELDS], int nb)
{
    Vec2 s0 = { a[0][na - 1], a[1][na - 1] }, s1 = { a[0][0], a[1][0] };
    for (int k = 1; k + 2 < na; k++)   /* a's edges that share no vertex with the seal */
        if (geom_segments_cross(s0, s1, (Vec2){ a[0][k], a[1][k] },
                                (Vec2){ a[0][k + 1], a[1][k + 1] }))
            return 1;
    for (int k = 0; k < nb; k++) {
        int k1 = k + 1 == nb ? 0 : k + 1;
        if (geom_segments_cross(s0, s1, (Vec2){ b[0][k], b[1][k] }, (Vec2){ b[0][k1], b[1][k1] }))
            return 1;
    }
    return 0;
}

int topology_divide(Ensemble *e, const Params *P, TopologyWork *w, int p)
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
    /* signed distance of each vertex from the cut line, > 0 on its left */
    if ((size_t)n * (1 + 2 * ENSEMBLE_NFIELDS) > w->cut_cap) {   /* (sd, each daughter's fields) */
        w->cut_cap = (size_t)n * 22;
        w->cut = ph_realloc(w->cut, w->cut_cap * sizeof *w->cut);
    }
    double *sd = w->cut;
    for (int k = 0; k < n; k++) sd[k] = a.x * (y[k] - c.y) - a.y * (x[k] - c.x);
    int ka = -1, kb = -1;
    double ta = INFINITY, tb = -INFINITY;
    for (int k = 0; k < n; k++) {
        int k1 = k + 1 == n ? 0 : k + 1;
        if ((sd[k] > 0) == (sd[k1] > 0)) continue;
        double f = sd[k] / (sd[k] - sd[k1]);
        double t =
            (x[k] + f * (x[k1] - x[k]) - c.x) * a.x + (y[k] + f * (y[k1] - y[k]) - c.y) * a.y;
        if (t > 0 && t < ta) { ta = t; ka = k; }
        if (t <= 0 && t > tb) { tb = t; kb = k; }
    }
    if (ka < 0 || kb < 0 || (sd[ka] > 0) == (sd[kb] > 0)) return -1;

    /* daughter 1 runs from the end of crossing edge ka to the start of kb, daughter 2 from the end
     * of kb to the start of ka; where a crossing edge's ends are closer than h, both walk outward
     * (n1, n2: the vertices left to each chain) */
    int f1 = (ka + 1) % n, l1 = kb, f2 = (kb + 1) % n, l2 = ka;
    int n1 = (kb - ka + n) % n, n2 = n - n1;
    double h2 = P->h * P->h;
#define CLOSE(i, j) ((x[i] - x[j]) * (x[i] - x[j]) + (y[i] - y[j]) * (y[i] - y[j]) < h2)
    while (n1 >= 3 && n2 >= 3 && CLOSE(l2, f1)) {
        l2 = (l2 + n - 1) % n; f1 = (f1 + 1) % n; n1--; n2--;
    }
    while (n1 >= 3 && n2 >= 3 && CLOSE(l1, f2)) {
        l1 = (l1 + n - 1) % n; f2 = (f2 + 1) % n; n1--; n2--;
    }
#undef CLOSE
    if (n1 < 3 || n2 < 3) return -1;
    double sum0 = 0;
    for (int k = 0; k < n; k++) sum0 += e->l0[s + k];
    double stretch = geom_perimeter(x, y, n) / sum0, *d1[ENSEMBLE_NFIELDS], *d2[ENSEMBLE_NFIELDS];
    for (int f = 0; f < ENSEMBLE_NFIELDS; f++) {
        d1[f] = sd + (size_t)n * (1 + f);
        d2[f] = sd + (size_t)n * (1 + ENSEMBLE_NFIELDS + f);
    }
    n1 = daughter(e, p, f1, l1, stretch, d1);
    n2 = daughter(e, p, f2, l2, stretch, d2);
    double A1 = geom_area(d1[0], d1[1], n1), A2 = geom_area(d2[0], d2[1], n2);
    if (!(A1 > 0 && A2 > 0) || seal_crosses(d1, n1, d2, n2) || seal_crosses(d2, n2, d1, n1))
        return -1;

    /* the larger share first, the smaller as the rest: A0 - big is exact (Sterbenz, since
     * A0 / 2 <= big <= A0), so the shares sum exactly to A0 */
    double A0 = e->A0[p], big = A0 * (A1 >= A2 ? A1 : A2) / (A1 + A2), rest = A0 - big;
    int64_t mother = e->id[p];
    int phase = e->phase[p];
    int q = ensemble_push_polygon(e, n2, d2[V_x], d2[V_y], d2[V_vx], d2[V_vy], d2[V_l0]);
    s = e->start[p];   /* the arrays may have moved */
    double *dst[ENSEMBLE_NFIELDS];
    ensemble_fields(e, s, dst);
    for (int f = 0; f < ENSEMBLE_NFIELDS; f++) memcpy(dst[f], d1[f], (size_t)n1 * sizeof(double));
    e->count[p] = n1;
    e->gaps = 1;
    e->A[p] = A1;
    e->A0[p] = A1 >= A2 ? big : rest;
    e->A0[q] = A1 >= A2 ? rest : big;
    e->phase[q] = (signed char)phase;
    e->type[q] = e->type[p];
    e->attracted[q] = e->attracted[p];
    e->polarity[q] = e->polarity[p];
    cells_divide(e, p, p, q, e->A0[p], e->A0[q], P->ka);
    e->h_div[p] = e->h_death[p] = 0;   /* (new ids: new thresholds, hazards from zero) */
    e->id[p] = e->next_id++;
    e->parent[p] = e->parent[q] = mother;
    e->gen[p] = e->gen[q] = e->gen[p] + 1;
    e->birth[q] = e->t;   /* daughter 1 keeps the mother's age (paper Fig. 3) */
    ensemble_event(e, EVENT_DIVISION, mother, -1, e->id[p], e->id[q]);
    topology_draw_traits(e, P, p);
    topology_draw_traits(e, P, q);
    return q;
}

/* The hazard threshold of polygon id for one kind of event: Exp(1), keyed by the id (one per
 * polygon's life, the same whoever computes it). */
static double threshold(const Ensemble *e, int64_t id, int purpose)
{
    return -log(rng_keyed_uniform(e->seed, -1, id, 0, purpose));
}

void topology_free(TopologyWork *w)
{
    free(w->flag);
    free(w->cut);
    memset(w, 0, sizeof *w);
}

/* The areas, hazards and fates (flag) of this thread's band of polygons: those removed into
 * *gone, those that died (also in *gone) into *dead. */
static void hazards_band(Ensemble *e, const Params *P, unsigned char *flag, int *gone, int *dead)
{
    int m0, m1;
    const int *order = bands_mine(e, &m0, &m1);
    for (int m = m0; m < m1; m++) {
        int p = order ? order[m] : m;
        int s = e->start[p], n = e->count[p];
        double A = n >= 3 ? geom_area(e->x + s, e->y + s, n) : 0;
        e->A[p] = A;
        flag[p] = 1;
        if (e->rigid[p]) continue;
        if (P->k_death > 0) {
            double pressure = P->ka * (e->A0[p] - A);
            e->h_death[p] += P->dt * P->k_death * (P->p_death > 0 ? exp(pressure / P->p_death) : 1);
        }
        if (P->k_div > 0) e->h_div[p] += P->dt * P->k_div * pow(fmax(A, 0) / P->Amax_mu, P->n_div);
        if (n < 3 || A < P->Amin || !(e->A0[p] > 0)) {   /* (A0 <= 0: no reference perimeter) */
            flag[p] = 0;
            ++*gone;
        } else if (P->k_death > 0 && e->h_death[p] >= threshold(e, e->id[p], RNG_DEATH)) {
            flag[p] = 3;
            ++*gone;
            ++*dead;
        } else if (n > 5 && (P->k_div > 0 ? e->h_div[p] >= threshold(e, e->id[p], RNG_DIVISION)
                                          : A > e->Amax[p]))
            flag[p] = 2;
    }
}

int topology_update(Ensemble *e, const Params *P, TopologyWork *w, int *removed, int *died)
{
    int np = e->np, gone = 0, dead = 0, divisions = 0;
    if (2 * np >= w->cap) {   /* (and a flag for a daughter of each, for ensemble_keep) */
        w->cap = 4 * np + 16;
        w->flag = ph_realloc(w->flag, (size_t)w->cap);
    }
    unsigned char *flag = w->flag;
    /* flag: 0 remove, 1 keep, 2 divide, 3 dies. Rates (docs/model.md 5.1): each polygon sums its
     * hazard rate over the steps and the event comes when the sum passes its Exp(1) threshold */
    if (bands_serial()) hazards_band(e, P, flag, &gone, &dead);
    else {
        #pragma omp parallel reduction(+ : gone, dead)
        hazards_band(e, P, flag, &gone, &dead);
    }
    for (int p = 0; p < np; p++)
        if (flag[p] == 2) {
            if (topology_divide(e, P, w, p) >= 0) divisions++;
            else w->postponed++;
        }
    if (gone) {
        for (int p = 0; p < np; p++) {
            if (flag[p] == 0) ensemble_event(e, EVENT_REMOVAL, e->id[p], -1, -1, -1);
            if (flag[p] == 3) ensemble_event(e, EVENT_DEATH, e->id[p], -1, -1, -1);
        }
        for (int p = 0; p < np; p++) flag[p] = flag[p] == 1 || flag[p] == 2;
        for (int p = np; p < e->np; p++) flag[p] = 1;
        ensemble_keep(e, flag);
    }
    if (removed) *removed = gone - dead;
    if (died) *died = dead;
    return divisions;
}
