/* Both fusion types join two chains of vertices by two new "bridge" edges:
 * - type I, vertex P of polygon X close to edge (k, k1) of polygon Y: chain 1 is X without P,
 *   chain 2 is Y opened between k and k1; the bridges run from the end of one chain to the start
 *   of the other. If one polygon lies inside the other (ray casting), the inner one is walked
 *   backwards, so the result is counter-clockwise and encloses the outer minus the inner area.
 * - type II, vertex P of X close to its own edge (k, k1): the chains are the two loops of X on
 *   either side of the contact, each closed by its own bridge. A loop that comes out clockwise
 *   lies inside the other: it is reversed and its phase flipped.
 * The chain ends nearest the contact are dropped until the two bridges are at least h apart.
 * A bridge gets the mean stretch of its mother(s), sum l / sum l0. Events that would leave a
 * polygon with fewer than 5 vertices or an area below max(Amin, (h + lmax)^2) are not done. */
#include "fusion.h"
#include "cells.h"
#include "geometry.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int i, k, k1; double d; } Candidate;

typedef struct { int p, s, dir, len; } Chain;   /* polygon, first index, step (+1/-1), length */

static int chain_slot(const Ensemble *e, const Chain *c, int j)
{
    int n = e->count[c->p];
    return e->start[c->p] + (((c->s + c->dir * j) % n) + n) % n;
}

static Vec2 at(const Ensemble *e, int slot) { return (Vec2){ e->x[slot], e->y[slot] }; }

/* Drops chain ends nearest to the contact point until the bridges are h apart. With joined = 1
 * (type I) the bridges are end1->start2 and end2->start1, otherwise end1->start1 and end2->start2.
 * Returns -1 if a chain would get shorter than 2. */
static int separate_bridges(const Ensemble *e, Chain *c1, Chain *c2, int joined, Vec2 contact,
                            double h)
{
    for (;;) {
        int s1 = chain_slot(e, c1, 0), e1 = chain_slot(e, c1, c1->len - 1);
        int s2 = chain_slot(e, c2, 0), e2 = chain_slot(e, c2, c2->len - 1);
        double d = joined ? geom_segment_distance(at(e, e1), at(e, s2), at(e, e2), at(e, s1))
                          : geom_segment_distance(at(e, e1), at(e, s1), at(e, e2), at(e, s2));
        if (d >= h) return 0;
        int ends[4] = { s1, e1, s2, e2 }, best = -1;
        double dbest = INFINITY;
        for (int j = 0; j < 4; j++) {
            Vec2 v = at(e, ends[j]);
            double dj = hypot(v.x - contact.x, v.y - contact.y);
            if ((j < 2 ? c1 : c2)->len > 2 && dj < dbest) { dbest = dj; best = j; }
        }
        if (best < 0) return -1;
        Chain *c = best < 2 ? c1 : c2;
        if (best % 2 == 0) c->s += c->dir;
        c->len--;
    }
}

/* Copies a chain into the arrays d (the vertex fields) from index m on; l0 of the last vertex is
 * left for the bridge. Returns the new m. */
static int copy_chain(const Ensemble *e, const Chain *c, double *d[ENSEMBLE_NFIELDS], int m)
{
    for (int j = 0; j < c->len; j++, m++) {
        int s = chain_slot(e, c, j);
        double *v[ENSEMBLE_NFIELDS];
        ensemble_fields(e, s, v);
        for (int f = 0; f < V_l0; f++) d[f][m] = *v[f];
        /* walked backwards, the edge from s to its predecessor has the predecessor's rest length */
        d[V_l0][m] = c->dir > 0 ? e->l0[s] : e->l0[ens_prev(e, s)];
    }
    return m;
}

static double stretch_of(const Ensemble *e, int p, double *sum_l, double *sum_l0)
{
    for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
        int j = ens_next(e, i);
        *sum_l += hypot(e->x[j] - e->x[i], e->y[j] - e->y[i]);
        *sum_l0 += e->l0[i];
    }
    return *sum_l / *sum_l0;
}

/* sets the rest length of the bridge from vertex `from` to vertex `to` of the arrays d */
static void bridge(double *d[ENSEMBLE_NFIELDS], int from, int to, double stretch)
{
    d[V_l0][from] = hypot(d[V_x][to] - d[V_x][from], d[V_y][to] - d[V_y][from]) / stretch;
}

static void reverse(double *d[ENSEMBLE_NFIELDS], int n)
{
    /* reversed, the edge i -> i+1 becomes the edge from i+1 to i: the rest lengths shift */
    double *l = ph_realloc(NULL, (size_t)n * sizeof *l);
    for (int i = 0; i < n; i++) l[i] = d[V_l0][(n - 2 - i + n) % n];
    for (int f = 0; f < V_l0; f++)
        for (int i = 0, j = n - 1; i < j; i++, j--) {
            double t = d[f][i]; d[f][i] = d[f][j]; d[f][j] = t;
        }
    memcpy(d[V_l0], l, (size_t)n * sizeof *l);
    free(l);
}

static int big_enough(const Params *P, int n, double area)
{
    double amin = (P->h + P->lmax) * (P->h + P->lmax);
    return n >= 5 && fabs(area) >= (P->Amin > amin ? P->Amin : amin);
}

/* vertex of polygon p farthest along the hoop from slot i */
static Vec2 far_vertex(const Ensemble *e, int p, int i)
{
    int n = e->count[p], j = e->start[p] + (i - e->start[p] + n / 2) % n;
    return at(e, j);
}

static int fuse_two(Ensemble *e, const Params *P, const Candidate *c, unsigned char *keep)
{
    int x = e->pid[c->i], y = e->pid[c->k], nx = e->count[x], ny = e->count[y];
    Vec2 fx = far_vertex(e, x, c->i), fy = far_vertex(e, y, c->k);
    int x_in_y = geom_point_inside(e->x + e->start[y], e->y + e->start[y], ny, fx.x, fx.y);
    int y_in_x =
        !x_in_y && geom_point_inside(e->x + e->start[x], e->y + e->start[x], nx, fy.x, fy.y);
    int ix = c->i - e->start[x], dx = x_in_y ? -1 : 1;
    Chain c1 = { x, ix + dx, dx, nx - 1 };
    Chain c2 = y_in_x ? (Chain){ y, c->k - e->start[y], -1, ny }
                      : (Chain){ y, c->k1 - e->start[y], 1, ny };
    if (separate_bridges(e, &c1, &c2, 1, at(e, c->i), P->h)) return 0;
    int n = c1.len + c2.len;
    double *buf = ph_realloc(NULL, (size_t)n * ENSEMBLE_NFIELDS * sizeof *buf),
           *d[ENSEMBLE_NFIELDS], sl = 0, sl0 = 0;
    for (int f = 0; f < ENSEMBLE_NFIELDS; f++) d[f] = buf + (size_t)n * f;
    copy_chain(e, &c2, d, copy_chain(e, &c1, d, 0));
    stretch_of(e, x, &sl, &sl0);
    double stretch = stretch_of(e, y, &sl, &sl0);
    bridge(d, c1.len - 1, c1.len, stretch);
    bridge(d, n - 1, 0, stretch);
    double area = geom_area(d[0], d[1], n);
    int ok = big_enough(P, n, area) && area > 0;
    if (ok) {
        int outer = x_in_y ? y : y_in_x ? x : (e->A[x] >= e->A[y] ? x : y),
            inner = outer == x ? y : x;
        int nested = x_in_y || y_in_x;
        double A0 = nested ? e->A0[outer] - e->A0[inner] : e->A0[x] + e->A0[y];
        double alpha = nested ? e->alpha[outer] - e->alpha[inner] : e->alpha[x] + e->alpha[y];
        double Amax = e->Amax[outer];
        int64_t parent = e->id[outer];
        int phase = e->phase[outer], gen = (e->gen[x] > e->gen[y] ? e->gen[x] : e->gen[y]) + 1,
            att = e->attracted[x] | e->attracted[y];
        int q = ensemble_push_polygon(e, n, d[V_x], d[V_y], d[V_vx], d[V_vy], d[V_l0]);
        e->attracted[q] = (unsigned char)att;
        e->polarity[q] = e->polarity[outer];
        e->A0[q] = A0; e->alpha[q] = alpha; e->Amax[q] = Amax;
        e->parent[q] = parent; e->gen[q] = gen;
        e->phase[q] = (signed char)phase;
        e->type[q] = e->type[outer];
        if (!nested) cells_fuse(e, x, y, q, e->A[x], e->A[y], P->ka);
        else if (e->nvar)   /* (a hole closing: the cell keeps its values) */
            memcpy(e->var + (size_t)q * e->nvar, e->var + (size_t)outer * e->nvar,
                   (size_t)e->nvar * sizeof *e->var);
        keep[x] = keep[y] = 0;
        ensemble_event(e, EVENT_FUSION, e->id[x], e->id[y], e->id[q], -1);
    }
    free(buf);
    return ok;
}

static int split_one(Ensemble *e, const Params *P, const Candidate *c, unsigned char *keep)
{
    int x = e->pid[c->i], n = e->count[x], s = e->start[x];
    int ip = c->i - s, ik = c->k - s, ik1 = c->k1 - s;
    Chain c1 = { x, ik1, 1, (ip - ik1 + n) % n }, c2 = { x, ip + 1, 1, (ik - ip + n) % n };
    if (c1.len < 2 || c2.len < 2) return 0;
    if (separate_bridges(e, &c1, &c2, 0, at(e, c->i), P->h)) return 0;
    int n1 = c1.len, n2 = c2.len;
    double *buf = ph_realloc(NULL, (size_t)(n1 + n2) * ENSEMBLE_NFIELDS * sizeof *buf),
           *d1[ENSEMBLE_NFIELDS], *d2[ENSEMBLE_NFIELDS];
    double sl = 0, sl0 = 0;
    for (int f = 0; f < ENSEMBLE_NFIELDS; f++) {
        d1[f] = buf + (size_t)(n1 + n2) * f;
        d2[f] = d1[f] + n1;
    }
    copy_chain(e, &c1, d1, 0);
    copy_chain(e, &c2, d2, 0);
    double stretch = stretch_of(e, x, &sl, &sl0);
    bridge(d1, n1 - 1, 0, stretch);
    bridge(d2, n2 - 1, 0, stretch);
    double A1 = geom_area(d1[0], d1[1], n1), A2 = geom_area(d2[0], d2[1], n2);
    int ok = big_enough(P, n1, A1) && big_enough(P, n2, A2) && A1 + A2 > 0;
    if (ok) {
        /* a clockwise loop is the inner one: reverse it and flip its phase; the outer keeps the
         * growth; target areas follow the areas with the mother's relative compression */
        int nested = A1 < 0 || A2 < 0;
        double ratio = e->A0[x] / (A1 + A2), alpha = e->alpha[x], Amax = e->Amax[x];
        int64_t parent = e->id[x];
        int phase = e->phase[x], gen = e->gen[x] + 1, att = e->attracted[x];
        double polarity = e->polarity[x];
        if (A1 < 0) reverse(d1, n1);
        if (A2 < 0) reverse(d2, n2);
        double **d[2] = { d1, d2 };
        double A[2] = { A1, A2 };
        int len[2] = { n1, n2 };
        int64_t made[2];
        for (int h = 0; h < 2; h++) {
            int q = ensemble_push_polygon(e, len[h], d[h][V_x], d[h][V_y], d[h][V_vx], d[h][V_vy],
                                          d[h][V_l0]);
            e->A0[q] = fabs(A[h]) * ratio;
            e->alpha[q] = nested ? (A[h] < 0 ? 0 : alpha) : alpha * A[h] / (A1 + A2);
            e->Amax[q] = Amax;
            e->parent[q] = parent;
            e->gen[q] = gen;
            e->phase[q] = (signed char)(A[h] < 0 ? -phase : phase);
            e->type[q] = e->type[x];
            e->attracted[q] = (unsigned char)att;
            e->polarity[q] = polarity;
            made[h] = e->id[q];
        }
        int q0 = e->np - 2, q1 = e->np - 1;
        cells_divide(e, x, q0, q1, e->A0[q0], e->A0[q1], P->ka);
        keep[x] = 0;
        ensemble_event(e, EVENT_SPLIT, e->id[x], -1, made[0], made[1]);
    }
    free(buf);
    return ok;
}

static int cmp_candidate(const void *a, const void *b)
{
    const Candidate *u = a, *v = b;
    if (u->d != v->d) return u->d < v->d ? -1 : 1;
    if (u->i != v->i) return u->i < v->i ? -1 : 1;
    return (u->k > v->k) - (u->k < v->k);
}

void fusion_update(Ensemble *e, const Params *P, const Contact *c, int64_t *type1, int64_t *type2)
{
    if (P->theta <= 0) return;
    int n = 0, cap = 0, np = e->np;
    Candidate *cand = NULL;
    for (int t = 0; t < contact_record_parts(c); t++) {   /* (any order: candidates are sorted) */
        int nrec;
        const PairRec *rec = contact_records(c, t, &nrec);
        for (int m = 0; m < nrec; m++) {
            const PairRec *r = &rec[m];
            int i = r->i;
            if (e->rigid[e->pid[i]] || e->rigid[e->pid[r->k]]) continue;
            /* (the gap as the pair force takes it) */
            double dx, dy, d = pair_gap(e, i, r->k, r->k1, r->w, &dx, &dy);
            if (!(d < P->theta * P->h)) continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                cand = ph_realloc(cand, (size_t)cap * sizeof *cand);
            }
            cand[n++] = (Candidate){ i, r->k, r->k1, d };
        }
    }
    if (!n) return;
    qsort(cand, (size_t)n, sizeof *cand, cmp_candidate);
    unsigned char *keep = ph_realloc(NULL, (size_t)np),
                  *used = memset(ph_realloc(NULL, (size_t)np), 0, (size_t)np);
    memset(keep, 1, (size_t)np);
    for (int k = 0; k < n; k++) {
        int x = e->pid[cand[k].i], y = e->pid[cand[k].k];
        if (used[x] || used[y]) continue;
        if (x != y ? fuse_two(e, P, &cand[k], keep) : split_one(e, P, &cand[k], keep)) {
            used[x] = used[y] = 1;
            if (x != y) ++*type1; else ++*type2;
        }
    }
    /* the new polygons were appended after np: keep them, drop the ones that took part */
    unsigned char *all = ph_realloc(NULL, (size_t)e->np);
    memcpy(all, keep, (size_t)np);
    memset(all + np, 1, (size_t)(e->np - np));
    ensemble_keep(e, all);
    free(all);
    free(keep);
    free(used);
    free(cand);
}
