/* The contact grid (a counting sort of vertex slots by cell) and the pair interaction.
 * See contact.h for how the work is split between threads. */
#include "contact.h"
#include "geometry.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

void contact_init(Contact *c) { memset(c, 0, sizeof *c); }

void contact_free(Contact *c)
{
    free(c->cell_start); free(c->items); free(c->cell); free(c->gx); free(c->gy); free(c->gl); free(c->gp); free(c->gn);
    free(c->rec_off); free(c->rec_n); free(c->rec_tid); free(c->u);
    for (int t = 0; t < c->nthreads; t++) free(c->buf[t]);
    free(c->buf); free(c->buf_n); free(c->buf_cap);
    memset(c, 0, sizeof *c);
}

void contact_grid(Contact *c, const Ensemble *e, double cell_size)
{
    if (e->nv_used > c->nv_cap) {
        c->nv_cap = e->nv_used;
        size_t n = (size_t)c->nv_cap;
        c->items = ph_realloc(c->items, n * sizeof *c->items);
        c->cell = ph_realloc(c->cell, n * sizeof *c->cell);
        c->gx = ph_realloc(c->gx, n * sizeof *c->gx);
        c->gy = ph_realloc(c->gy, n * sizeof *c->gy);
        c->gl = ph_realloc(c->gl, n * sizeof *c->gl);
        c->gp = ph_realloc(c->gp, n * sizeof *c->gp);
        c->gn = ph_realloc(c->gn, n * sizeof *c->gn);
        c->rec_off = ph_realloc(c->rec_off, n * sizeof *c->rec_off);
        c->rec_n = ph_realloc(c->rec_n, n * sizeof *c->rec_n);
        c->rec_tid = ph_realloc(c->rec_tid, n * sizeof *c->rec_tid);
        c->u = ph_realloc(c->u, n * sizeof *c->u);
    }
    double xmin = INFINITY, ymin = INFINITY, xmax = -INFINITY, ymax = -INFINITY;
    int nv = 0;
    for (int p = 0; p < e->np; p++) {
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            double x = e->x[i], y = e->y[i];   /* (plain comparisons: fmin/fmax are library calls) */
            xmin = x < xmin ? x : xmin; xmax = x > xmax ? x : xmax;
            ymin = y < ymin ? y : ymin; ymax = y > ymax ? y : ymax;
        }
        nv += e->count[p];
    }
    if (nv == 0) xmin = xmax = ymin = ymax = 0;
    /* Enough cells that the largest coordinate falls inside (floor(extent/cs) + 1 of them), but
     * never more than 4 per vertex: a vertex that escaped far away enlarges the cells instead. */
    double cs = cell_size > 0 ? cell_size : 1, limit = 4.0 * nv + 16;
    double wx = (xmax - xmin) / cs + 1, wy = (ymax - ymin) / cs + 1;
    if (wx * wy > limit) {
        cs *= sqrt(wx * wy / limit) * 1.000001;
        wx = (xmax - xmin) / cs + 1;
        wy = (ymax - ymin) / cs + 1;
    }
    while (wx * wy > limit) { cs *= 2; wx = (xmax - xmin) / cs + 1; wy = (ymax - ymin) / cs + 1; }
    c->x0 = xmin; c->y0 = ymin; c->cs = cs;
    c->nx = (int)wx; c->ny = (int)wy;
    int ncell = c->nx * c->ny;
    if (ncell + 1 > c->ncell_cap) {
        c->ncell_cap = ncell + 1;
        c->cell_start = ph_realloc(c->cell_start, (size_t)c->ncell_cap * sizeof *c->cell_start);
    }
    memset(c->cell_start, 0, (size_t)(ncell + 1) * sizeof *c->cell_start);
    double inv = 1 / cs;
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            int ix = (int)((e->x[i] - xmin) * inv), iy = (int)((e->y[i] - ymin) * inv);
            ix = ix < 0 ? 0 : ix >= c->nx ? c->nx - 1 : ix;   /* guards against rounding */
            iy = iy < 0 ? 0 : iy >= c->ny ? c->ny - 1 : iy;
            c->cell[i] = iy * c->nx + ix;
            c->cell_start[c->cell[i] + 1]++;
        }
    for (int k = 0; k < ncell; k++) c->cell_start[k + 1] += c->cell_start[k];
    /* fill in slot order; cell_start[k] walks to the start of cell k+1, then shift back */
    for (int p = 0; p < e->np; p++) {
        int s = e->start[p], n = e->count[p];
        double lprev = hypot(e->x[s] - e->x[s + n - 1], e->y[s] - e->y[s + n - 1]);
        for (int i = s; i < s + n; i++) {
            int j = i + 1 < s + n ? i + 1 : s, m = c->cell_start[c->cell[i]]++;
            double l = sqrt((e->x[j] - e->x[i]) * (e->x[j] - e->x[i]) + (e->y[j] - e->y[i]) * (e->y[j] - e->y[i]));
            c->items[m] = i;
            c->gx[m] = e->x[i];
            c->gy[m] = e->y[i];
            c->gl[m] = l > lprev ? l : lprev;
            c->gp[m] = p;
            lprev = l;
        }
    }
    for (int k = ncell; k > 0; k--) c->cell_start[k] = c->cell_start[k - 1];
    c->cell_start[0] = 0;
}

double contact_du(const Params *P, double s, int same)
{
    if (s <= 0) return P->kr * s;
    if (same) return 0;                       /* adhesion acts between different polygons only */
    if (s <= P->sh) return P->kh * s;
    if (s < P->sh + P->ss) return P->kh * P->sh / P->ss * (P->sh + P->ss - s);
    return 0;
}

double contact_u(const Params *P, double s, int same)
{
    if (same) return s < 0 ? 0.5 * P->kr * s * s : 0;
    /* eq. 4 minus its value beyond the reach, u_inf = (kh sh^2 + ks ss^2) / 2, ks = kh sh / ss */
    double sh = P->sh, ss = P->ss, uinf = 0.5 * P->kh * sh * (sh + ss);
    if (s <= 0) return 0.5 * P->kr * s * s - uinf;
    if (s <= sh) return 0.5 * P->kh * s * s - uinf;
    if (s < sh + ss) return 0.5 * (P->kh * sh * sh + P->kh * sh / ss * (s - sh) * (2 * ss + sh - s)) - uinf;
    return 0;
}

int contact_pair(const Ensemble *e, const Params *P, int i, int q, PairRec *r, double *u)
{
    int pi = e->pid[i], pq = e->pid[q], same = pi == pq;
    if (e->rigid[pi] && e->rigid[pq]) return 0;
    int qn = ens_next(e, q), qp = ens_prev(e, q);
    if (i == qn || i == qp) return 0;
    double px = e->x[i], py = e->y[i], qx = e->x[q], qy = e->y[q];
    /* project P on q->qn and q->qp; t in [0,1] is measured from q */
    double ax = e->x[qn] - qx, ay = e->y[qn] - qy, bx = e->x[qp] - qx, by = e->y[qp] - qy;
    double dx = px - qx, dy = py - qy;
    double aa = ax * ax + ay * ay, bb = bx * bx + by * by;
    double ta = (dx * ax + dy * ay) / aa, tb = (dx * bx + dy * by) / bb;
    ta = ta < 0 ? 0 : ta > 1 ? 1 : ta;
    tb = tb < 0 ? 0 : tb > 1 ? 1 : tb;
    double ra2 = (dx - ta * ax) * (dx - ta * ax) + (dy - ta * ay) * (dy - ta * ay);
    double rb2 = (dx - tb * bx) * (dx - tb * bx) + (dy - tb * by) * (dy - tb * by);
    double t;
    if (ra2 <= rb2) { t = ta; r->k = q; r->k1 = qn; r->w = ta; }       /* tie: the edge after q */
    else { t = tb; r->k = qp; r->k1 = q; r->w = 1 - tb; }
    if (t >= 1) return 0;               /* P lies beyond the far end: that vertex's pair covers it */
    double w = r->w;
    double cx = (1 - w) * e->x[r->k] + w * e->x[r->k1], cy = (1 - w) * e->y[r->k] + w * e->y[r->k1];
    double nx = cx - px, ny = cy - py, dist = sqrt(nx * nx + ny * ny);
    if (!(dist < params_cutoff(P)) || dist == 0) return 0;
    double s = dist - P->h;
    if (same) {
        if (s >= 0) return 0;
        /* self-contact exclusion: arclength between P and the closest point <= h either way */
        double lk = e->L[pi] - e->arc[r->k];   /* edge length from the arclengths */
        if (r->k1 != e->start[pi]) lk = e->arc[r->k1] - e->arc[r->k];
        double L = e->L[pi], da = fabs(e->arc[r->k] + w * lk - e->arc[i]);
        if (da <= P->h || L - da <= P->h) return 0;
    }
    nx /= dist; ny /= dist;
    /* normal force (eq. 5, -grad s = n by eq. 24), contact damping and Coulomb friction
     * (eqs. 25-28), all from the velocity of the closest point relative to P */
    double vrx = (1 - w) * e->vx[r->k] + w * e->vx[r->k1] - e->vx[i];
    double vry = (1 - w) * e->vy[r->k] + w * e->vy[r->k1] - e->vy[i];
    double vn = vrx * nx + vry * ny, fn = contact_du(P, s, same) + P->cc * vn;
    r->fx = fn * nx;
    r->fy = fn * ny;
    if (P->mu > 0 && !same) {
        double tx = vrx - vn * nx, ty = vry - vn * ny, vt = sqrt(tx * tx + ty * ty);
        if (vt > 0) { r->fx += P->mu * fabs(fn) * tx / vt; r->fy += P->mu * fabs(fn) * ty / vt; }
    }
    r->q = q;
    if (u) *u += contact_u(P, s, same);
    return 1;
}

static void push_rec(Contact *c, int tid, const PairRec *r)
{
    if (c->buf_n[tid] == c->buf_cap[tid]) {
        c->buf_cap[tid] = c->buf_cap[tid] ? 2 * c->buf_cap[tid] : 1024;
        c->buf[tid] = ph_realloc(c->buf[tid], (size_t)c->buf_cap[tid] * sizeof *c->buf[tid]);
    }
    c->buf[tid][c->buf_n[tid]++] = *r;
}

/* Visits the positions m (in items order) of the 3x3 cells around slot i, in grid order: each
 * row of three cells is one contiguous range of items. */
#define FOR_NEIGHBOURS(c, i, m, ...) do { \
    int cx_ = (c)->cell[i] % (c)->nx, cy_ = (c)->cell[i] / (c)->nx; \
    int x0_ = cx_ > 0 ? cx_ - 1 : 0, x1_ = cx_ + 1 < (c)->nx ? cx_ + 1 : cx_; \
    for (int gy_ = cy_ > 0 ? cy_ - 1 : 0; gy_ <= cy_ + 1 && gy_ < (c)->ny; gy_++) { \
        int end_ = (c)->cell_start[gy_ * (c)->nx + x1_ + 1]; \
        for (int m = (c)->cell_start[gy_ * (c)->nx + x0_]; m < end_; m++) { __VA_ARGS__ } } } while (0)

void contact_forces(Contact *c, Ensemble *e, const Params *P, double lmax, double *energy)
{
    /* every interacting pair lies within lmax + reach: with cells that large (and a margin
     * against rounding), both vertices of every pair's edge lie in the 3x3 cells of P */
    double cutoff = params_cutoff(P) * (1 + 1e-9), reach = (lmax + params_cutoff(P)) * (1 + 1e-9), reach2 = reach * reach;
    contact_grid(c, e, reach);
    int nt = 1;
#ifdef _OPENMP
    nt = omp_get_max_threads();
#endif
    if (nt > c->nthreads) {
        c->buf = ph_realloc(c->buf, (size_t)nt * sizeof *c->buf);
        c->buf_n = ph_realloc(c->buf_n, (size_t)nt * sizeof *c->buf_n);
        c->buf_cap = ph_realloc(c->buf_cap, (size_t)nt * sizeof *c->buf_cap);
        for (int t = c->nthreads; t < nt; t++) { c->buf[t] = NULL; c->buf_cap[t] = 0; }
        c->nthreads = nt;
    }
    for (int t = 0; t < c->nthreads; t++) c->buf_n[t] = 0;

    #pragma omp parallel
    {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        /* pass 1: each vertex evaluates its pairs, keeps its force, records the reactions */
        #pragma omp for schedule(dynamic, 8)
        for (int p = 0; p < e->np; p++) {
            for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
                double fx = 0, fy = 0, u = 0;
                c->rec_tid[i] = (unsigned char)tid;
                c->rec_off[i] = c->buf_n[tid];
                /* a candidate q can interact only if it lies within the reach (h within one polygon)
                 * plus its longer edge; the two neighbours of i along its hoop never do */
                double px = e->x[i], py = e->y[i];
                int inext = ens_next(e, i), iprev = ens_prev(e, i);
                FOR_NEIGHBOURS(c, i, m, {
                    double dx = c->gx[m] - px, dy = c->gy[m] - py, lim = c->gl[m] + (c->gp[m] == p ? P->h : cutoff);
                    if (dx * dx + dy * dy >= lim * lim) continue;
                    int j = c->items[m];
                    PairRec r;
                    if (j != i && j != inext && j != iprev && contact_pair(e, P, i, j, &r, energy ? &u : NULL)) {
                        fx += r.fx; fy += r.fy;
                        push_rec(c, tid, &r);
                    }
                });
                c->rec_n[i] = c->buf_n[tid] - c->rec_off[i];
                if (energy) c->u[i] = u;
                if (!e->rigid[p]) { e->fx[i] += fx; e->fy[i] += fy; }
            }
        }
        #pragma omp for schedule(static)
        for (int m = 0; m < c->cell_start[c->nx * c->ny]; m++) c->gn[m] = c->rec_n[c->items[m]];
        /* pass 2: each moving vertex collects the reactions on the edges it ends */
        #pragma omp for schedule(dynamic, 8)
        for (int p = 0; p < e->np; p++) {
            if (e->rigid[p]) continue;
            for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
                double fx = 0, fy = 0, px = e->x[i], py = e->y[i];
                FOR_NEIGHBOURS(c, i, m, {
                    if (!c->gn[m]) continue;
                    double dx = c->gx[m] - px, dy = c->gy[m] - py;
                    if (dx * dx + dy * dy >= reach2) continue;
                    int j = c->items[m];
                    const PairRec *r = c->buf[c->rec_tid[j]] + c->rec_off[j];
                    for (int m = 0; m < c->rec_n[j]; m++) {
                        if (r[m].k == i) { fx -= (1 - r[m].w) * r[m].fx; fy -= (1 - r[m].w) * r[m].fy; }
                        if (r[m].k1 == i) { fx -= r[m].w * r[m].fx; fy -= r[m].w * r[m].fy; }
                    }
                });
                e->fx[i] += fx; e->fy[i] += fy;
            }
        }
    }
    if (energy) {
        *energy = 0;
        for (int p = 0; p < e->np; p++)
            for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) *energy += c->u[i];
    }
}

static int cmp_int(const void *a, const void *b) { return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b); }

void contact_neighbors(const Contact *c, const Ensemble *e, int *nb)
{
    int cap = 0, *list = NULL;
    for (int p = 0; p < e->np; p++) {
        int n = 0;
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            const PairRec *r = c->buf[c->rec_tid[i]] + c->rec_off[i];
            for (int m = 0; m < c->rec_n[i]; m++) {
                if (e->pid[r[m].q] == p) continue;
                if (n == cap) { cap = cap ? 2 * cap : 64; list = ph_realloc(list, (size_t)cap * sizeof *list); }
                list[n++] = e->pid[r[m].q];
            }
        }
        if (n > 1) qsort(list, (size_t)n, sizeof *list, cmp_int);   /* (qsort of NULL is undefined, even for n = 0) */
        int distinct = 0;
        for (int k = 0; k < n; k++) distinct += k == 0 || list[k] != list[k - 1];
        nb[p] = distinct;
    }
    free(list);
}

static int edges_cross(const Ensemble *e, int i, int j)
{
    int i1 = ens_next(e, i), j1 = ens_next(e, j);
    return geom_segments_cross((Vec2){ e->x[i], e->y[i] }, (Vec2){ e->x[i1], e->y[i1] },
                               (Vec2){ e->x[j], e->y[j] }, (Vec2){ e->x[j1], e->y[j1] });
}

int contact_crossing(Contact *c, const Ensemble *e, double lmax, int *a, int *b)
{
    /* the start vertices of two crossing edges are at most 2 lmax apart: neighbouring cells */
    contact_grid(c, e, 2 * lmax * (1 + 1e-9));
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++)
            FOR_NEIGHBOURS(c, i, m, {
                int j = c->items[m];
                if (c->gp[m] != p && edges_cross(e, i, j)) {
                    *a = p < c->gp[m] ? p : c->gp[m];
                    *b = p < c->gp[m] ? c->gp[m] : p;
                    return 1;
                }
            });
    return 0;
}
