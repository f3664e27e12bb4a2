/* The contact grid (a counting sort of vertex slots by cell) and the pair interaction.
 * See contact.h for how the work is split between threads. */
#include "contact.h"
#include "geometry.h"
#include <math.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

enum { STRIP = 4 };   /* grid rows per strip (see contact.h) */
/* the skin of the neighbour list, in units of the reach: measured best of 0.25, 0.5, 1, 1.5 and 2
 * (a thicker skin means more edges per vertex, a thinner one more rebuilds) */
static const double SKIN = 1.0;
/* slots that changed after fewer than CALM steps without a change are likely to change again at
 * once (a growing tissue remodels nearly every step): then no list is built (measured: 1, 2 and 4
 * alike on the dense tissue; 1 best on the default growth) */
enum { CALM = 1 };

void contact_init(Contact *c) { memset(c, 0, sizeof *c); }

void contact_free(Contact *c)
{
    free(c->cell_start); free(c->cell); free(c->vstrip); free(c->vitems);
    free(c->gs); free(c->u);
    free(c->scount); free(c->tmp);
    for (int t = 0; t < c->nthreads; t++) { free(c->rec[t]); free(c->near[t]); free(c->cand[t]); }
    for (int t = 0; t < c->nthreads; t++) free(c->lst[t]);
    free(c->rec); free(c->rec_n); free(c->rec_cap); free(c->near); free(c->near_cap); free(c->cand); free(c->cand_cap);
    free(c->lst); free(c->lst_n); free(c->lst_cap); free(c->strip_tid); free(c->strip_at); free(c->strip_end);
    memset(c, 0, sizeof *c);
}

/* Sorts the vertex slots by key[slot] in [0, ncell) into out[m * stride], keeping slot order
 * within a key; start[k] is the first position of key k. Serial: a few memory operations per
 * vertex, and no work space. */
static void counting_sort(const Ensemble *e, const int *key, int ncell, int *start, int *out, int stride)
{
    memset(start, 0, (size_t)(ncell + 1) * sizeof *start);
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) start[key[i] + 1]++;
    for (int k = 0; k < ncell; k++) start[k + 1] += start[k];
    /* start[k] walks to the start of key k+1, then shift back */
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) out[(size_t)stride * (size_t)start[key[i]]++] = i;
    for (int k = ncell; k > 0; k--) start[k] = start[k - 1];
    start[0] = 0;
}

/* The same in parallel, for large ensembles: sorts the vertex slots by key[slot] (a cell,
 * row-major) into out[m * stride], cell by cell and
 * in slot order within a cell; start[c] is the first position of cell c. In parallel, with the
 * result of a serial counting sort: first by strip of STRIP rows (each thread takes a fixed range
 * of polygons and counts its own slots, so slot order is kept), then each strip by cell. */
static void grid_sort(Contact *c, const Ensemble *e, const int *key, int *start, int *out, int stride)
{
    const int nx = c->nx, ns = (c->ny + STRIP - 1) / STRIP, per = STRIP * nx, ncell = nx * c->ny;
    #pragma omp parallel
    {
        int nt = 1, t = 0;
#ifdef _OPENMP
        nt = omp_get_num_threads();
        t = omp_get_thread_num();
#endif
        #pragma omp single
        {
            size_t need = (size_t)(nt + 1) * (size_t)(ns + 1);   /* the last row: where each strip starts */
            if (need > c->scount_cap) { c->scount_cap = need; c->scount = ph_realloc(c->scount, need * sizeof *c->scount); }
            if (e->nv_used > c->tmp_cap) { c->tmp_cap = e->nv_used; c->tmp = ph_realloc(c->tmp, (size_t)c->tmp_cap * sizeof *c->tmp); }
        }
        int *cnt = c->scount + (size_t)t * (size_t)(ns + 1);
        int p0 = (int)((long long)e->np * t / nt), p1 = (int)((long long)e->np * (t + 1) / nt);
        memset(cnt, 0, (size_t)(ns + 1) * sizeof *cnt);
        for (int p = p0; p < p1; p++)
            for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) cnt[key[i] / per]++;
        #pragma omp barrier
        #pragma omp single
        {   /* strip s gets thread 0's slots, then thread 1's, ... */
            int run = 0, *first = c->scount + (size_t)nt * (size_t)(ns + 1);
            for (int s = 0; s < ns; s++) {
                first[s] = run;
                for (int u = 0; u < nt; u++) {
                    int *q = c->scount + (size_t)u * (size_t)(ns + 1) + s, n = *q;
                    *q = run;
                    run += n;
                }
            }
            first[ns] = run;
        }
        for (int p = p0; p < p1; p++)
            for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) c->tmp[cnt[key[i] / per]++] = i;
        #pragma omp barrier
        const int *first = c->scount + (size_t)nt * (size_t)(ns + 1);
        #pragma omp for schedule(dynamic, 4)
        for (int s = 0; s < ns; s++) {
            int a = first[s], b = first[s + 1];
            int c0 = s * per, c1 = c0 + per < ncell ? c0 + per : ncell, run = a;
            for (int k = c0; k < c1; k++) start[k] = 0;
            for (int m = a; m < b; m++) start[key[c->tmp[m]]]++;
            for (int k = c0; k < c1; k++) { int n = start[k]; start[k] = run; run += n; }
            for (int m = a; m < b; m++) { int i = c->tmp[m]; out[(size_t)stride * (size_t)start[key[i]]++] = i; }
            for (int k = c1 - 1; k > c0; k--) start[k] = start[k - 1];   /* back to the first positions */
            start[c0] = a;
        }
        #pragma omp single nowait
        start[ncell] = first[ns];
    }
}

/* Sorts the nv vertex slots by cell key[slot] into out (stride apart), cell_start[c] = first
 * position of cell c: in parallel from 65,536 vertices on (below that, the barriers of the
 * parallel sort cost more than it saves). */
static void sort_by_cell(Contact *c, const Ensemble *e, int nv, const int *key, int *out, int stride)
{
    if (nv >= 1 << 16) grid_sort(c, e, key, c->cell_start, out, stride);
    else counting_sort(e, key, c->nx * c->ny, c->cell_start, out, stride);
}

/* The cell of point (x, y): always computed by this one expression, so that the sort and the scan
 * agree (clamped: guards against rounding at the edges). */
static inline int grid_cell(const Contact *c, double x, double y)
{
    int ix = (int)((x - c->x0) * c->inv), iy = (int)((y - c->y0) * c->inv);
    ix = ix < 0 ? 0 : ix >= c->nx ? c->nx - 1 : ix;
    iy = iy < 0 ? 0 : iy >= c->ny ? c->ny - 1 : iy;
    return iy * c->nx + ix;
}

void contact_grid(Contact *c, const Ensemble *e, double cell_size)
{
    if (e->nv_used > c->nv_cap || !c->gs || !c->cell) {   /* (at least one item, even for no vertex) */
        c->nv_cap = e->nv_used > 0 ? e->nv_used : 1;
        size_t n = (size_t)c->nv_cap;
        c->cell = ph_realloc(c->cell, n * sizeof *c->cell);
        c->vitems = ph_realloc(c->vitems, n * sizeof *c->vitems);
        c->gs = ph_realloc(c->gs, n * sizeof *c->gs);
    }
    double xmin = INFINITY, ymin = INFINITY, xmax = -INFINITY, ymax = -INFINITY;
    int nv = 0;
    #pragma omp parallel for schedule(static) reduction(min : xmin, ymin) reduction(max : xmax, ymax) reduction(+ : nv)
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
     * never more than CELLS_PER_VERTEX per vertex: a vertex that escaped far away enlarges the
     * cells instead. */
    double cs = cell_size > 0 ? cell_size : 1, limit = (nv < 1 << 16 ? CELLS_PER_VERTEX : CELLS_PER_VERTEX / 2) * (double)nv + 16;
    double wx = (xmax - xmin) / cs + 1, wy = (ymax - ymin) / cs + 1;
    if (wx * wy > limit) {
        cs *= sqrt(wx * wy / limit) * 1.000001;
        wx = (xmax - xmin) / cs + 1;
        wy = (ymax - ymin) / cs + 1;
    }
    while (wx * wy > limit) { cs *= 2; wx = (xmax - xmin) / cs + 1; wy = (ymax - ymin) / cs + 1; }
    c->x0 = xmin; c->y0 = ymin; c->cs = cs;
    /* covers the rounding of the single-precision first test: coordinates up to the extent,
     * lengths and distances up to a few cells */
    c->scan_margin = 1e-5 * cs + 64 * ldexp(fmax(xmax - xmin, ymax - ymin) + cs, -24);
    c->nx = (int)wx; c->ny = (int)wy;
    int ncell = c->nx * c->ny, nx = c->nx, ny = c->ny;
    if (ncell + 1 > c->ncell_cap) {
        c->ncell_cap = ncell + 1;
        c->cell_start = ph_realloc(c->cell_start, (size_t)c->ncell_cap * sizeof *c->cell_start);
    }
    int nstrips = (ny + STRIP - 1) / STRIP;
    if (nstrips + 1 > c->vstrip_cap) {
        c->vstrip_cap = nstrips + 1;
        c->vstrip = ph_realloc(c->vstrip, (size_t)c->vstrip_cap * sizeof *c->vstrip);
    }
    c->inv = 1 / cs;
    /* the vertices by cell, with cell_start as work space (only where each strip starts is kept:
     * a second array of cells would cost up to 16 bytes per vertex; the scan computes a vertex's
     * cell again), then the edges by the cell of their midpoints; `cell` holds the keys of each */
    #pragma omp parallel for schedule(static)
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) c->cell[i] = grid_cell(c, e->x[i], e->y[i]);
    sort_by_cell(c, e, nv, c->cell, c->vitems, 1);
    for (int s = 0; s < nstrips; s++) c->vstrip[s] = c->cell_start[s * STRIP * nx];
    c->vstrip[nstrips] = c->cell_start[ncell];
    #pragma omp parallel for schedule(static)
    for (int p = 0; p < e->np; p++) {
        int s = e->start[p], n = e->count[p];
        for (int i = s; i < s + n; i++) {
            int j = i + 1 < s + n ? i + 1 : s;
            c->cell[i] = grid_cell(c, 0.5 * (e->x[i] + e->x[j]), 0.5 * (e->y[i] + e->y[j]));
        }
    }
    sort_by_cell(c, e, nv, c->cell, &c->gs[0].k, (int)(sizeof *c->gs / sizeof(int)));
    /* the per-item copies, gathered in parallel */
    #pragma omp parallel for schedule(static)
    for (int m = 0; m < nv; m++) {
        int i = c->gs[m].k, j = ens_next(e, i);
        double ex = e->x[j] - e->x[i], ey = e->y[j] - e->y[i];
        c->gs[m] = (GridScan){ (float)(e->x[i] + 0.5 * ex - xmin), (float)(e->y[i] + 0.5 * ey - ymin), (float)(0.5 * sqrt(ex * ex + ey * ey)), i, j };
    }
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

/* Whether the arclength along the hoop between vertex i and the point (1 - w) r_k + w r_k1 of
 * edge k -> k1 of the same polygon is at most h either way (rare: only then is it walked). */
static int along_hoop_within(const Ensemble *e, int i, int k, int k1, double w, double h)
{
    double len = hypot(e->x[k1] - e->x[k], e->y[k1] - e->y[k]), a = w * len;
    for (int j = k; j != i && a <= h; ) {   /* backwards from the point: i lies before the edge */
        int jp = ens_prev(e, j);
        a += hypot(e->x[j] - e->x[jp], e->y[j] - e->y[jp]);
        j = jp;
    }
    if (a <= h) return 1;
    a = (1 - w) * len;
    for (int j = k1; j != i && a <= h; ) {   /* forwards: i lies after the edge */
        int jn = ens_next(e, j);
        a += hypot(e->x[jn] - e->x[j], e->y[jn] - e->y[j]);
        j = jn;
    }
    return a <= h;
}

/* The interaction of vertex i with the point (1 - w) r_k + w r_k1 of edge k -> k1 (same: of its
 * own polygon): the force on i in (*fx, *fy) and, if u, the pair energy in *u. Returns 0 if they
 * do not interact (beyond the reach, self-contact exclusion). */
static inline int pair_force(const Ensemble *e, const Params *P, int i, int k, int k1, double w, int same,
                             double *fx, double *fy, double *u)
{
    double cx = (1 - w) * e->x[k] + w * e->x[k1], cy = (1 - w) * e->y[k] + w * e->y[k1];
    double nx = cx - e->x[i], ny = cy - e->y[i], dist = sqrt(nx * nx + ny * ny);
    if (!(dist < params_cutoff(P)) || dist == 0) return 0;
    double s = dist - P->h;
    if (same) {
        if (s >= 0) return 0;
        if (along_hoop_within(e, i, k, k1, w, P->h)) return 0;   /* self-contact exclusion */
    }
    double inv = 1 / dist;
    nx *= inv; ny *= inv;
    /* normal force (eq. 5, -grad s = n by eq. 24), contact damping and Coulomb friction
     * (eqs. 25-28), all from the velocity of the closest point relative to P */
    double vrx = (1 - w) * e->vx[k] + w * e->vx[k1] - e->vx[i];
    double vry = (1 - w) * e->vy[k] + w * e->vy[k1] - e->vy[i];
    double vn = vrx * nx + vry * ny, fn = contact_du(P, s, same) + P->cc * vn;
    *fx = fn * nx;
    *fy = fn * ny;
    if (P->mu > 0 && !same) {
        double tx = vrx - vn * nx, ty = vry - vn * ny, vt = sqrt(tx * tx + ty * ty);
        if (vt > 0) { *fx += P->mu * fabs(fn) * tx / vt; *fy += P->mu * fabs(fn) * ty / vt; }
    }
    if (u) *u = contact_u(P, s, same);
    return 1;
}

int contact_pair(const Ensemble *e, const Params *P, int i, int q, PairRec *r, double *fx, double *fy, double *u)
{
    int pi = e->pid[i], pq = e->pid[q];
    if (e->rigid[pi] && e->rigid[pq]) return 0;
    int qn = ens_next(e, q), qp = ens_prev(e, q);
    if (i == q || i == qn || i == qp) return 0;
    double px = e->x[i], py = e->y[i], qx = e->x[q], qy = e->y[q];
    /* project P on q->qn and q->qp; t in [0,1] is measured from q */
    double ax = e->x[qn] - qx, ay = e->y[qn] - qy, bx = e->x[qp] - qx, by = e->y[qp] - qy;
    double dx = px - qx, dy = py - qy;
    double aa = ax * ax + ay * ay, bb = bx * bx + by * by;
    double ta = (dx * ax + dy * ay) / aa, tb = (dx * bx + dy * by) / bb;
    ta = ta > 0 ? (ta < 1 ? ta : 1) : 0;   /* (a zero-length edge gives NaN: then 0) */
    tb = tb > 0 ? (tb < 1 ? tb : 1) : 0;
    double ra2 = (dx - ta * ax) * (dx - ta * ax) + (dy - ta * ay) * (dy - ta * ay);
    double rb2 = (dx - tb * bx) * (dx - tb * bx) + (dy - tb * by) * (dy - tb * by);
    double t = ra2 <= rb2 ? ta : tb;     /* tie: the edge after q */
    if (t >= 1) return 0;                /* P lies beyond the far end: that vertex's pair covers it */
    if (ra2 <= rb2) *r = (PairRec){ i, q, qn, 1, ta };
    else *r = (PairRec){ i, qp, q, 2, 1 - tb };
    double uu;
    if (!pair_force(e, P, i, r->k, r->k1, r->w, pi == pq, fx, fy, u ? &uu : NULL)) return 0;
    if (u) *u += uu;
    return 1;
}

/* Grows a per-thread buffer to hold n + 1 elements. */
#define RESERVE(buf, cap, n) do { if ((n) == (cap)) { (cap) = (cap) ? 2 * (cap) : 256; \
    (buf) = ph_realloc((buf), (size_t)(cap) * sizeof *(buf)); } } while (0)

/* Appends to cand[nc..] the edges among items [jb, je) whose midpoints lie within half their
 * length plus the reach of (px, py); returns the new count. Branch-free: a mispredicted branch
 * per candidate cost more than the test. (A function of its own, so that the compiler keeps the
 * arrays in registers.) */
static __attribute__((noinline)) int scan(const Contact *c, int jb, int je, int i, int iprev, double px, double py,
                                          int s0, int n0, double h, double cutoff, int *restrict cand, int nc)
{
    const GridScan *restrict gs = c->gs;
    const float x = (float)(px - c->x0), y = (float)(py - c->y0);
    const float reach[2] = { (float)(cutoff + c->scan_margin), (float)(h + c->scan_margin) };   /* (a table: the compiler made a branch of ?:) */
    for (int j = jb; j < je; j++) {
        float dx = x - gs[j].x, dy = y - gs[j].y, lim = gs[j].r + reach[(unsigned)(gs[j].k - s0) < (unsigned)n0];   /* (same polygon: slots s0 .. s0+n0-1) */
        cand[nc] = j;   /* (the two edges that end at i always pass the distance test) */
        nc += (dx * dx + dy * dy < lim * lim) & (gs[j].k != i) & (gs[j].k != iprev);
    }
    return nc;
}

/* The exact test of edge k -> k1 against vertex i at (px, py): the closest point's coordinate w
 * and squared distance. */
static inline double project(const Ensemble *e, double px, double py, int k, int k1, double *w)
{
    double dx = px - e->x[k], dy = py - e->y[k], ex = e->x[k1] - e->x[k], ey = e->y[k1] - e->y[k];
    double t = (dx * ex + dy * ey) / (ex * ex + ey * ey), wt = t > 0 ? (t < 1 ? t : 1) : 0;
    double rx = dx - wt * ex, ry = dy - wt * ey;
    *w = wt;
    return rx * rx + ry * ry;
}

/* The forces between vertex i and its nn nearby edges near[tid] (all within the reach): which
 * ends of each edge pick it (SPEC 2: the closer of a vertex's two edges, the one after it on a
 * tie; not when i lies beyond the far end or next to that vertex), then the force, counted once
 * per picking end, on i and as reactions on the edge's ends. */
static void vertex_forces(Contact *c, Ensemble *e, const Params *P, int tid, int want_u, int i, int rigid, int nn)
{
    const Near *nr = c->near[tid];
    double fx = 0, fy = 0, u = 0;
    for (int a = 0; a < nn; a++) {
        int same = nr[a].same, k = nr[a].k, k1 = nr[a].k1, ends = 0;
        if (nr[a].w < 1 && !(same && ens_prev(e, k) == i)) {
            ends |= 1;
            for (int b = 0; b < nn; b++)
                if (nr[b].k1 == k && nr[b].d2 < nr[a].d2) { ends &= ~1; break; }
        }
        if (nr[a].w > 0 && !(same && ens_next(e, k1) == i)) {
            ends |= 2;
            for (int b = 0; b < nn; b++)
                if (nr[b].k == k1 && nr[b].d2 <= nr[a].d2) { ends &= ~2; break; }
        }
        double f1x, f1y, u1, w = nr[a].w, n = ends == 3 ? 2 : 1;
        if (!ends || !pair_force(e, P, i, k, k1, w, same, &f1x, &f1y, want_u ? &u1 : NULL)) continue;
        f1x *= n; f1y *= n;
        fx += f1x; fy += f1y;
        if (want_u) u += n * u1;
        if (!e->rigid[e->pid[k]]) {
            e->fx[k] -= (1 - w) * f1x; e->fy[k] -= (1 - w) * f1y;
            e->fx[k1] -= w * f1x; e->fy[k1] -= w * f1y;
        }
        if (c->keep_records) {
            RESERVE(c->rec[tid], c->rec_cap[tid], c->rec_n[tid]);
            c->rec[tid][c->rec_n[tid]++] = (PairRec){ i, k, k1, ends, w };
        }
    }
    if (!rigid) { e->fx[i] += fx; e->fy[i] += fy; }
    if (want_u) c->u[i] = u;
}

/* The pairs of the vertices of grid rows [STRIP s, STRIP s + STRIP), from the grid (see
 * contact.h); with skin >= 0, also appends the strip's part of the neighbour list to lst[tid]. */
static void strip_forces(Contact *c, Ensemble *e, const Params *P, int strip, int tid, int want_u, double skin)
{
    const double cutoff = params_cutoff(P), h = P->h, reach2[2] = { cutoff * cutoff, h * h };
    const double sk = skin > 0 ? skin : 0, list2[2] = { (cutoff + sk) * (cutoff + sk), (h + sk) * (h + sk) };
    const int nx = c->nx, ny = c->ny, keep = skin >= 0;
    if (keep) { c->strip_tid[strip] = tid; c->strip_at[strip] = c->lst_n[tid]; }
    /* the strip's vertices, cell by cell */
    for (int m = c->vstrip[strip], cell = -1, x0 = 0, x1 = 0, y0 = 0, y1 = 0; m < c->vstrip[strip + 1]; m++) {
        int i = c->vitems[m], vc = grid_cell(c, e->x[i], e->y[i]);
        if (vc != cell) {   /* a new cell: its stencil */
            cell = vc;
            int cx = cell % nx, cy = cell / nx, nst = 0;
            x0 = cx > 0 ? cx - 1 : 0; x1 = cx + 1 < nx ? cx + 1 : cx;
            y0 = cy > 0 ? cy - 1 : 0; y1 = cy + 1 < ny ? cy + 1 : cy;
            /* the stencil's items: one contiguous range per row */
            for (int gy_ = y0; gy_ <= y1; gy_++) nst += c->cell_start[gy_ * nx + x1 + 1] - c->cell_start[gy_ * nx + x0];
            if (nst > c->cand_cap[tid]) {
                c->cand_cap[tid] = 2 * nst;
                c->cand[tid] = ph_realloc(c->cand[tid], (size_t)c->cand_cap[tid] * sizeof **c->cand);
            }
        }
        int *cand = c->cand[tid];
        int p = e->pid[i], rigid = e->rigid[p], nc = 0;
        int s0 = e->start[p], n0 = e->count[p], iprev = i == s0 ? s0 + n0 - 1 : i - 1;
        double px = e->x[i], py = e->y[i];
        /* the edges within reach (h within one polygon; plus the skin for the list), with the
         * closest point of each; the edges that end at i never act on it. First the cheap test
         * of scan() (the circle around the edge's midpoint), then the projection in double
         * precision. */
        for (int gy_ = y0; gy_ <= y1; gy_++)
            nc = scan(c, c->cell_start[gy_ * nx + x0], c->cell_start[gy_ * nx + x1 + 1], i, iprev, px, py, s0, n0, h + sk, cutoff + sk, cand, nc);
        if (keep && c->lst_n[tid] + 2 + 2 * (size_t)nc > c->lst_cap[tid]) {
            c->lst_cap[tid] = 2 * (c->lst_n[tid] + 2 + 2 * (size_t)nc);
            c->lst[tid] = ph_realloc(c->lst[tid], c->lst_cap[tid] * sizeof **c->lst);
        }
        int nn = 0, *rec = keep ? c->lst[tid] + c->lst_n[tid] : NULL, nl = 0;
        for (int a = 0; a < nc; a++) {
            int k = c->gs[cand[a]].k, k1 = c->gs[cand[a]].k1, same = (unsigned)(k - s0) < (unsigned)n0;
            if (!same && rigid && e->rigid[e->pid[k]]) continue;
            double w, d2 = project(e, px, py, k, k1, &w);
            if (keep && d2 < list2[same]) { rec[2 + 2 * nl] = k; rec[3 + 2 * nl] = k1; nl++; }
            if (d2 >= reach2[same]) continue;
            RESERVE(c->near[tid], c->near_cap[tid], nn);
            c->near[tid][nn++] = (Near){ same, k, k1, d2, w };
        }
        if (nl) { rec[0] = i; rec[1] = nl; c->lst_n[tid] += 2 + 2 * (size_t)nl; }
        vertex_forces(c, e, P, tid, want_u, i, rigid, nn);
    }
    if (keep) c->strip_end[strip] = c->lst_n[tid];
}

/* The pairs of strip s from the neighbour list. */
static void strip_forces_list(Contact *c, Ensemble *e, const Params *P, int strip, int tid)
{
    const double cutoff = params_cutoff(P), h = P->h, reach2[2] = { cutoff * cutoff, h * h };
    if (c->strip_end[strip] == c->strip_at[strip]) return;   /* (its thread may have no buffer) */
    const int *q = c->lst[c->strip_tid[strip]], *end = q + c->strip_end[strip];
    for (q += c->strip_at[strip]; q < end; ) {
        int i = q[0], nl = q[1], p = e->pid[i], s0 = e->start[p], n0 = e->count[p], nn = 0;
        double px = e->x[i], py = e->y[i];
        q += 2;
        for (int a = 0; a < nl; a++, q += 2) {
            int k = q[0], k1 = q[1], same = (unsigned)(k - s0) < (unsigned)n0;
            double w, d2 = project(e, px, py, k, k1, &w);
            if (d2 >= reach2[same]) continue;
            RESERVE(c->near[tid], c->near_cap[tid], nn);
            c->near[tid][nn++] = (Near){ same, k, k1, d2, w };
        }
        vertex_forces(c, e, P, tid, 0, i, e->rigid[p], nn);
    }
}

/* Evaluates strips 0 .. nstrips-1, the even ones in parallel, then the odd ones (see contact.h):
 * from the list, or from the grid (want_u and skin as for strip_forces). */
static void each_strip(Contact *c, Ensemble *e, const Params *P, int nstrips, int from_list, int want_u, double skin)
{
    #pragma omp parallel
    {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        for (int phase = 0; phase < 2; phase++) {
            #pragma omp for schedule(dynamic, 1)
            for (int s = phase; s < nstrips; s += 2) {
                if (from_list) strip_forces_list(c, e, P, s, tid);
                else strip_forces(c, e, P, s, tid, want_u, skin);
            }
        }
    }
}

/* Room for the list's strip table of n strips. */
static void reserve_strips(Contact *c, int n)
{
    if (n <= c->strips_cap) return;
    c->strips_cap = n;
    c->strip_tid = ph_realloc(c->strip_tid, (size_t)n * sizeof *c->strip_tid);
    c->strip_at = ph_realloc(c->strip_at, (size_t)n * sizeof *c->strip_at);
    c->strip_end = ph_realloc(c->strip_end, (size_t)n * sizeof *c->strip_end);
}

/* Per-thread buffers for nt threads. */
static void reserve_threads(Contact *c)
{
    int nt = 1;
#ifdef _OPENMP
    nt = omp_get_max_threads();
#endif
    if (nt > c->nthreads) {
#define GROW(a) c->a = ph_realloc(c->a, (size_t)nt * sizeof *c->a)
        GROW(rec); GROW(rec_n); GROW(rec_cap); GROW(near); GROW(near_cap); GROW(cand); GROW(cand_cap);
        GROW(lst); GROW(lst_n); GROW(lst_cap);
#undef GROW
        for (int t = c->nthreads; t < nt; t++) {
            c->rec[t] = NULL; c->rec_cap[t] = 0; c->near[t] = NULL; c->near_cap[t] = 0; c->cand[t] = NULL; c->cand_cap[t] = 0;
            c->lst[t] = NULL; c->lst_n[t] = 0; c->lst_cap[t] = 0;
        }
        c->nthreads = nt;
    }
    for (int t = 0; t < c->nthreads; t++) c->rec_n[t] = 0;
}

/* Frees the sort's work space (the keys and the strip sort's slots, 8 bytes per vertex) and, with
 * all, the rest of the grid. Only for large ensembles: for small ones, allocating it anew and
 * malloc_trim cost more than the memory is worth (the foam ran 25 % slower). */
static void release(Contact *c, int all)
{
    if (c->nv_cap < 1 << 16) return;
    free(c->cell); free(c->tmp);
    c->cell = c->tmp = NULL;
    c->tmp_cap = 0;
    if (all) {
        free(c->cell_start); free(c->vstrip); free(c->vitems); free(c->gs);
        c->cell_start = c->vstrip = c->vitems = NULL;
        c->gs = NULL;
        c->nv_cap = c->ncell_cap = c->vstrip_cap = 0;
    }
#ifdef __GLIBC__
    malloc_trim(0);   /* (glibc may keep freed memory of the heap resident otherwise) */
#endif
}

/* The pair forces from a new grid (and a new list if skin >= 0). transient: the grid is released
 * right after, so the sort's work space (8 bytes per vertex) is freed before the pairs are found. */
static void forces_from_grid(Contact *c, Ensemble *e, const Params *P, double lmax, double skin, double *energy, int transient)
{
    /* the midpoint of an interacting edge is within lmax / 2 + reach of P: with cells that large
     * (and a margin against rounding) it lies in P's 3x3 cells */
    contact_grid(c, e, (0.5 * lmax + params_cutoff(P) + (skin > 0 ? skin : 0)) * (1 + 1e-9));
    if (transient) release(c, 0);
    reserve_threads(c);
    if (energy) {   /* (tests only: the per-vertex energies; vertices in gaps own none) */
        c->u = ph_realloc(c->u, (size_t)e->nv_used * sizeof *c->u);
        for (int i = 0; i < e->nv_used; i++) c->u[i] = 0;
    }
    int nstrips = (c->ny + STRIP - 1) / STRIP;
    if (skin >= 0) {
        reserve_strips(c, nstrips);
        for (int t = 0; t < c->nthreads; t++) c->lst_n[t] = 0;
        c->nstrips = nstrips;
    }
    each_strip(c, e, P, nstrips, 0, energy != NULL, skin);
    if (energy) {
        *energy = 0;
        for (int p = 0; p < e->np; p++)
            for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) *energy += c->u[i];
    }
}

void contact_forces(Contact *c, Ensemble *e, const Params *P, double lmax, double *energy)
{
    forces_from_grid(c, e, P, lmax, -1, energy, 0);
}

void contact_invalidate(Contact *c) { c->built = c->list_ok = 0; }

/* Frees the grid (about 36 bytes per vertex) while a list makes it unneeded; the next build
 * allocates it again. */
static void grid_release(Contact *c) { release(c, 1); }

/* Whether the list holds every pair of the current state (see contact.h). */
static int list_usable(const Contact *c, const Ensemble *e, const Params *P)
{
    return c->built && c->built_layout == e->layout && c->list_ok && c->list_cutoff == params_cutoff(P) &&
           c->list_h == P->h && 2 * c->drift < c->list_skin * (1 - 1e-9);
}

/* The pairs of every strip from the list. */
static void forces_from_list(Contact *c, Ensemble *e, const Params *P)
{
    reserve_threads(c);
    each_strip(c, e, P, c->nstrips, 1, 0, 0);
}

void contact_forces_now(Contact *c, Ensemble *e, const Params *P, double lmax)
{
    if (list_usable(c, e, P)) forces_from_list(c, e, P);
    else {
        forces_from_grid(c, e, P, lmax, -1, NULL, 1);
        grid_release(c);   /* (before the frame is assembled; a step allocates it again) */
    }
}

void contact_moved(Contact *c, double d)
{
    /* plus the rounding of the position updates (half an ulp of the largest coordinate) */
    c->drift += d + ldexp(c->list_extent + c->drift, -52);
}

void contact_forces_step(Contact *c, Ensemble *e, const Params *P, double lmax)
{
    const double cutoff = params_cutoff(P);
    int changed = !c->built || c->built_layout != e->layout, calm = c->calm;
    c->calm = changed ? 0 : calm < 1 << 30 ? calm + 1 : calm;
    if (list_usable(c, e, P)) {
        forces_from_list(c, e, P);
        c->reuses++;
        return;
    }
    c->built = 1;
    c->built_layout = e->layout;
    if (changed && calm < CALM) {   /* (see contact.h) */
        forces_from_grid(c, e, P, lmax, -1, NULL, 0);
        c->list_ok = 0;
        c->plain++;
        return;
    }
    double skin = SKIN * cutoff;
    forces_from_grid(c, e, P, lmax, skin, NULL, 1);
    c->list_ok = 1;
    c->list_skin = skin;
    c->list_cutoff = cutoff;
    c->list_h = P->h;
    c->list_extent = fmax(fmax(fabs(c->x0), fabs(c->y0)), fmax(fabs(c->x0 + c->nx * c->cs), fabs(c->y0 + c->ny * c->cs)));
    c->drift = 0;
    c->builds++;
    grid_release(c);
}

int contact_saved_state(const Contact *c, const Ensemble *e)
{
    /* (with gaps, the restored ensemble is numbered anew: the slots changed) */
    if (!c->built || c->built_layout != e->layout || e->gaps) return 0;
    return c->list_ok ? 2 : 1;
}

int contact_restore(Contact *c, const Ensemble *e, int state, int calm, int nstrips, int *data, const size_t *at, const double d[5])
{
    contact_invalidate(c);
    c->calm = calm;
    if (state == 1) { c->built = 1; c->built_layout = e->layout; }
    if (state != 2) { free(data); return 0; }
    int ok = nstrips >= 0 && at[0] == 0 && d[0] > 0 && d[4] >= 0;
    for (int s = 0; ok && s < nstrips; s++)
        for (size_t m = at[s]; ok && m < at[s + 1]; ) {   /* records (i, n, n edges k -> k1) */
            ok = m + 2 <= at[s + 1] && data[m] >= 0 && data[m] < e->nv_used && data[m + 1] > 0 &&
                 (size_t)data[m + 1] <= (at[s + 1] - m - 2) / 2;
            if (!ok) break;
            for (int a = 0; ok && a < data[m + 1]; a++) {
                int k = data[m + 2 + 2 * a], k1 = data[m + 3 + 2 * a];
                ok = k >= 0 && k < e->nv_used && ens_next(e, k) == k1;
            }
            m += 2 + 2 * (size_t)data[m + 1];
        }
    if (!ok) { free(data); return -1; }
    reserve_threads(c);
    free(c->lst[0]);
    c->lst[0] = data;
    c->lst_n[0] = c->lst_cap[0] = at[nstrips];
    reserve_strips(c, nstrips);
    for (int s = 0; s < nstrips; s++) { c->strip_tid[s] = 0; c->strip_at[s] = at[s]; c->strip_end[s] = at[s + 1]; }
    c->nstrips = nstrips;
    c->built = c->list_ok = 1;
    c->built_layout = e->layout;
    c->list_skin = d[0]; c->list_cutoff = d[1]; c->list_h = d[2]; c->list_extent = d[3]; c->drift = d[4];
    return 0;
}

static int cmp_pair(const void *a, const void *b)
{
    const int *u = a, *v = b;
    return u[0] != v[0] ? (u[0] > v[0]) - (u[0] < v[0]) : (u[1] > v[1]) - (u[1] < v[1]);
}

void contact_drop_records(Contact *c)
{
    for (int t = 0; t < c->nthreads; t++) { free(c->rec[t]); c->rec[t] = NULL; c->rec_cap[t] = c->rec_n[t] = 0; }
}

void contact_neighbors(const Contact *c, const Ensemble *e, int *nb)
{
    size_t n = 0, cap = 0;
    int (*list)[2] = NULL;
    for (int t = 0; t < c->nthreads; t++)
        for (int m = 0; m < c->rec_n[t]; m++) {
            int a = e->pid[c->rec[t][m].i], b = e->pid[c->rec[t][m].k];
            if (a == b) continue;
            if (n == cap) { cap = cap ? 2 * cap : 256; list = ph_realloc(list, cap * sizeof *list); }
            list[n][0] = a; list[n][1] = b; n++;
        }
    if (n > 1) qsort(list, n, sizeof *list, cmp_pair);   /* (qsort of NULL is undefined, even for n = 0) */
    for (int p = 0; p < e->np; p++) nb[p] = 0;
    for (size_t k = 0; k < n; k++)
        if (k == 0 || list[k][0] != list[k - 1][0] || list[k][1] != list[k - 1][1]) nb[list[k][0]]++;
    free(list);
}

/* Visits the positions m (in items order) of the 3x3 cells around slot i, in grid order: each
 * row of three cells is one contiguous range of items. */
#define FOR_NEIGHBOURS(c, i, m, ...) do { \
    int cx_ = (c)->cell[i] % (c)->nx, cy_ = (c)->cell[i] / (c)->nx; \
    int x0_ = cx_ > 0 ? cx_ - 1 : 0, x1_ = cx_ + 1 < (c)->nx ? cx_ + 1 : cx_; \
    for (int gy_ = cy_ > 0 ? cy_ - 1 : 0; gy_ <= cy_ + 1 && gy_ < (c)->ny; gy_++) { \
        int end_ = (c)->cell_start[gy_ * (c)->nx + x1_ + 1]; \
        for (int m = (c)->cell_start[gy_ * (c)->nx + x0_]; m < end_; m++) { __VA_ARGS__ } } } while (0)

static int edges_cross(const Ensemble *e, int i, int j)
{
    int i1 = ens_next(e, i), j1 = ens_next(e, j);
    return geom_segments_cross((Vec2){ e->x[i], e->y[i] }, (Vec2){ e->x[i1], e->y[i1] },
                               (Vec2){ e->x[j], e->y[j] }, (Vec2){ e->x[j1], e->y[j1] });
}

int contact_crossing(Contact *c, const Ensemble *e, double lmax, int *a, int *b)
{
    /* the midpoints of two crossing edges are at most lmax apart: neighbouring cells */
    contact_grid(c, e, lmax * (1 + 1e-9));
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++)
            FOR_NEIGHBOURS(c, i, m, {
                int j = c->gs[m].k, q = e->pid[j];
                if (q != p && edges_cross(e, i, j)) {
                    *a = p < q ? p : q;
                    *b = p < q ? q : p;
                    return 1;
                }
            });
    return 0;
}
