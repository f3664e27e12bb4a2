/* Remodeling of one polygon is a pure function of its vertex list: first a greedy sweep marks
 * short edges to collapse (no vertex in two collapses, at least 3 vertices left), the two ends
 * of each merge at the midpoint with the mean velocity and the collapsed edge's rest length goes
 * half to each neighbouring edge, so sum l0 is conserved; then every edge longer than lmax is
 * cut into ceil(l / lmax) equal pieces sharing its rest length. The collapse sweeps repeat until
 * no edge is shorter than lmin, and pieces are >= lmax / 2 > lmin, so afterwards every edge is in
 * [lmin, lmax] (a triangle cannot be coarsened, and rigid polygons are only refined). */
#include "remodel.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void remodel_init(Remodel *r) { memset(r, 0, sizeof *r); }

void remodel_free(Remodel *r)
{
    free(r->x); free(r->y); free(r->vx); free(r->vy); free(r->fx); free(r->fy);
    free(r->l0); free(r->pid); free(r->newstart); free(r->newcount);
    memset(r, 0, sizeof *r);
}

static int needs_remodel(const Ensemble *e, const Params *P, int p)
{
    int s = e->start[p], n = e->count[p], coarsen = !e->rigid[p] && n > 3;
    double lo = P->lmin * P->lmin, hi = P->lmax * P->lmax;
    for (int k = 0; k < n; k++) {
        int k1 = k + 1 == n ? 0 : k + 1;
        double dx = e->x[s + k1] - e->x[s + k], dy = e->y[s + k1] - e->y[s + k], l2 = dx * dx + dy * dy;
        if (l2 > hi || (coarsen && l2 < lo)) return 1;
    }
    return 0;
}

/* Remodels polygon p of e; writes the result at slot `at` of the arrays of r if `write`.
 * Returns the new vertex count. */
static int remodel_polygon(const Ensemble *e, const Params *P, int p, Remodel *r, int at, int write)
{
    int s = e->start[p], n = e->count[p];
    unsigned char *merge = ph_realloc(NULL, (size_t)n);      /* merge[k]: edge k collapses */
    double *buf = ph_realloc(NULL, (size_t)n * 10 * sizeof *buf);
    /* two sets of (x, y, vx, vy, l0): the sweeps go from one to the other */
    double *a[5], *b[5];
    for (int f = 0; f < 5; f++) { a[f] = buf + (size_t)n * f; b[f] = buf + (size_t)n * (5 + f); }
    memcpy(a[0], e->x + s, (size_t)n * sizeof *buf); memcpy(a[1], e->y + s, (size_t)n * sizeof *buf);
    memcpy(a[2], e->vx + s, (size_t)n * sizeof *buf); memcpy(a[3], e->vy + s, (size_t)n * sizeof *buf);
    memcpy(a[4], e->l0 + s, (size_t)n * sizeof *buf);

    /* coarsen: sweep until no edge is shorter than lmin (or 3 vertices are left) */
    for (int merges = 1; merges && !e->rigid[p] && n > 3;) {
        const double *x = a[0], *y = a[1], *vx = a[2], *vy = a[3], *l0 = a[4];
        merges = 0;
        memset(merge, 0, (size_t)n);
        for (int k = 0; k < n && n - merges > 3; k++) {
            int k1 = k + 1 == n ? 0 : k + 1, km = k ? k - 1 : n - 1;
            if (merge[km] || (k1 == 0 && merge[0])) continue;   /* vertex k or k1 already taken */
            double dx = x[k1] - x[k], dy = y[k1] - y[k];
            if (dx * dx + dy * dy < P->lmin * P->lmin) { merge[k] = 1; merges++; }
        }
        if (!merges) break;
        int m = 0;
        for (int k = 0; k < n; k++) {
            int km = k ? k - 1 : n - 1, k1 = k + 1 == n ? 0 : k + 1, k2 = k1 + 1 == n ? 0 : k1 + 1;
            if (merge[km]) continue;             /* vertex k went into the merge of edge k-1 */
            if (merge[k]) {                      /* vertices k and k1 become their midpoint */
                b[0][m] = 0.5 * (x[k] + x[k1]); b[1][m] = 0.5 * (y[k] + y[k1]);
                b[2][m] = 0.5 * (vx[k] + vx[k1]); b[3][m] = 0.5 * (vy[k] + vy[k1]);
                b[4][m] = l0[k1] + 0.5 * l0[k] + (merge[k2] ? 0.5 * l0[k2] : 0);
            } else {
                b[0][m] = x[k]; b[1][m] = y[k]; b[2][m] = vx[k]; b[3][m] = vy[k];
                b[4][m] = l0[k] + (merge[k1] ? 0.5 * l0[k1] : 0);
            }
            m++;
        }
        n = m;
        for (int f = 0; f < 5; f++) { double *t = a[f]; a[f] = b[f]; b[f] = t; }
    }

    /* refine: cut every edge longer than lmax into ceil(l / lmax) equal pieces */
    int out = 0;
    for (int k = 0; k < n; k++) {
        int k1 = k + 1 == n ? 0 : k + 1;
        double dx = a[0][k1] - a[0][k], dy = a[1][k1] - a[1][k], l = sqrt(dx * dx + dy * dy);
        int pieces = l > P->lmax ? (int)ceil(l / P->lmax) : 1;
        if (write)
            for (int j = 0; j < pieces; j++) {
                double f = (double)j / pieces;
                int o = at + out + j;
                r->x[o] = a[0][k] + f * dx;
                r->y[o] = a[1][k] + f * dy;
                r->vx[o] = a[2][k] + f * (a[2][k1] - a[2][k]);
                r->vy[o] = a[3][k] + f * (a[3][k1] - a[3][k]);
                r->l0[o] = a[4][k] / pieces;
            }
        out += pieces;
    }
    free(merge);
    free(buf);
    return out;
}

int remodel(Ensemble *e, const Params *P, Remodel *r)
{
    if (e->np > r->npcap) {
        r->npcap = e->np_cap;
        r->newstart = ph_realloc(r->newstart, (size_t)r->npcap * sizeof *r->newstart);
        r->newcount = ph_realloc(r->newcount, (size_t)r->npcap * sizeof *r->newcount);
    }
    int changed = 0;
    #pragma omp parallel for schedule(dynamic, 16) reduction(+ : changed)
    for (int p = 0; p < e->np; p++) {
        r->newcount[p] = -1;
        if (needs_remodel(e, P, p)) {
            r->newcount[p] = remodel_polygon(e, P, p, r, 0, 0);
            changed++;
        }
    }
    if (!changed && !e->gaps) return 0;

    int total = 0, before = 0;
    for (int p = 0; p < e->np; p++) {
        int n = r->newcount[p] < 0 ? e->count[p] : r->newcount[p];
        r->newstart[p] = total;
        total += n;
        before += e->count[p];
    }
    if (total > r->cap) {
        int cap = total + total / 2 + 64;
        size_t n = (size_t)cap;
        r->x = ph_realloc(r->x, n * sizeof *r->x); r->y = ph_realloc(r->y, n * sizeof *r->y);
        r->vx = ph_realloc(r->vx, n * sizeof *r->vx); r->vy = ph_realloc(r->vy, n * sizeof *r->vy);
        r->fx = ph_realloc(r->fx, n * sizeof *r->fx); r->fy = ph_realloc(r->fy, n * sizeof *r->fy);
        r->l0 = ph_realloc(r->l0, n * sizeof *r->l0);
        r->pid = ph_realloc(r->pid, n * sizeof *r->pid);
        r->cap = cap;
    }
    #pragma omp parallel for schedule(dynamic, 16)
    for (int p = 0; p < e->np; p++) {
        int at = r->newstart[p], s = e->start[p], n = e->count[p];
        if (r->newcount[p] >= 0) {
            n = remodel_polygon(e, P, p, r, at, 1);
        } else {
            memcpy(r->x + at, e->x + s, (size_t)n * sizeof *r->x);
            memcpy(r->y + at, e->y + s, (size_t)n * sizeof *r->y);
            memcpy(r->vx + at, e->vx + s, (size_t)n * sizeof *r->vx);
            memcpy(r->vy + at, e->vy + s, (size_t)n * sizeof *r->vy);
            memcpy(r->l0 + at, e->l0 + s, (size_t)n * sizeof *r->l0);
        }
        for (int k = 0; k < n; k++) r->pid[at + k] = p;
    }
    /* swap the two sets of vertex arrays */
#define SWAP(a) do { void *t_ = e->a; e->a = r->a; r->a = t_; } while (0)
    SWAP(x); SWAP(y); SWAP(vx); SWAP(vy); SWAP(fx); SWAP(fy); SWAP(l0); SWAP(pid);
#undef SWAP
    int cap = e->nv_cap;
    e->nv_cap = r->cap;
    r->cap = cap;
    for (int p = 0; p < e->np; p++) {
        e->start[p] = r->newstart[p];
        e->count[p] = r->newcount[p] < 0 ? e->count[p] : r->newcount[p];
    }
    e->nv_used = total;
    e->gaps = 0;
    e->layout++;
    return total - before;
}
