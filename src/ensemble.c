/* Storage of the ensemble: allocation, growth of the flat arrays, adding and removing polygons.
 * See ensemble.h for the layout. Every allocation failure ends the program (status 1, status.h):
 * there is no sensible way to go on without memory. */
#include "ensemble.h"
#include "geometry.h"
#include "status.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *ph_realloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q) status_exit(PH_EXIT_MEMORY, "out of memory (%zu bytes)", size);
    return q;
}

static void *grow(void *p, size_t n, size_t size) { return ph_realloc(p, n * size); }

void ensemble_init(Ensemble *e, uint64_t seed)
{
    memset(e, 0, sizeof *e);
    e->seed = seed;
    e->var_bad = -1;
}

void ensemble_free(Ensemble *e)
{
    free(e->x); free(e->y); free(e->vx); free(e->vy); free(e->fx); free(e->fy);
    free(e->l0); free(e->pid); free(e->events); free(e->var);
    free(e->bands.order); free(e->bands.at); free(e->bands.y);
#define FREE(type, name, file_type, init) free(e->name);
    ENSEMBLE_POLYGON_FIELDS(FREE)
#undef FREE
    memset(e, 0, sizeof *e);
}

void ensemble_reserve(Ensemble *e, int nv, int np)
{
    if (e->nv_used + nv > e->nv_cap) {
        int cap = e->nv_cap ? e->nv_cap : 64;
        while (cap < e->nv_used + nv) cap *= 2;
        e->x = grow(e->x, (size_t)cap, sizeof *e->x);
        e->y = grow(e->y, (size_t)cap, sizeof *e->y);
        e->vx = grow(e->vx, (size_t)cap, sizeof *e->vx);
        e->vy = grow(e->vy, (size_t)cap, sizeof *e->vy);
        e->fx = grow(e->fx, (size_t)cap, sizeof *e->fx);
        e->fy = grow(e->fy, (size_t)cap, sizeof *e->fy);
        e->l0 = grow(e->l0, (size_t)cap, sizeof *e->l0);
        e->pid = grow(e->pid, (size_t)cap, sizeof *e->pid);
        e->nv_cap = cap;
    }
    if (e->np + np > e->np_cap) {
        int cap = e->np_cap ? e->np_cap : 16;
        while (cap < e->np + np) cap *= 2;
#define GROW_FIELD(type, name, file_type, init) \
        e->name = grow(e->name, (size_t)cap, sizeof *e->name);
        ENSEMBLE_POLYGON_FIELDS(GROW_FIELD)
#undef GROW_FIELD
        if (e->nvar) e->var = grow(e->var, (size_t)cap * e->nvar, sizeof *e->var);
        e->np_cap = cap;
    }
}

int ensemble_push_polygon(Ensemble *e, int n, const double *x, const double *y, const double *vx,
                          const double *vy, const double *l0)
{
    ensemble_reserve(e, n, 1);
    int p = e->np++;
    double area = geom_area(x, y, n), perimeter = geom_perimeter(x, y, n);
#define INIT(type, name, file_type, init) e->name[p] = (type)(init);
    ENSEMBLE_POLYGON_FIELDS(INIT)
#undef INIT
    if (e->nvar) memcpy(e->var + (size_t)p * e->nvar, e->var_new, (size_t)e->nvar * sizeof *e->var);
    int s = e->start[p];
    e->layout++;
    e->bands.np = -1;   /* (polygons added) */
    memcpy(e->x + s, x, (size_t)n * sizeof *x);
    memcpy(e->y + s, y, (size_t)n * sizeof *y);
    memcpy(e->vx + s, vx, (size_t)n * sizeof *vx);
    memcpy(e->vy + s, vy, (size_t)n * sizeof *vy);
    memcpy(e->l0 + s, l0, (size_t)n * sizeof *l0);
    for (int k = 0; k < n; k++) {
        e->fx[s + k] = e->fy[s + k] = 0;
        e->pid[s + k] = p;
    }
    e->nv_used += n;
    return p;
}

int ensemble_add_polygon(Ensemble *e, int n, const double *x, const double *y, int phase, int rigid)
{
    double *v = ph_realloc(NULL, (size_t)n * sizeof *v),
           *l0 = ph_realloc(NULL, (size_t)n * sizeof *l0);
    memset(v, 0, (size_t)n * sizeof *v);
    for (int k = 0; k < n; k++) l0[k] = hypot(x[(k + 1) % n] - x[k], y[(k + 1) % n] - y[k]);
    int p = ensemble_push_polygon(e, n, x, y, v, v, l0);
    e->phase[p] = (signed char)(phase >= 0 ? 1 : -1);
    e->rigid[p] = (unsigned char)(rigid != 0);
    free(v);
    free(l0);
    return p;
}

void ensemble_keep(Ensemble *e, const unsigned char *keep)
{
    int q = 0;
    e->layout++;
    e->bands.np = -1;   /* (polygons removed) */
    for (int p = 0; p < e->np; p++) {
        if (!keep[p]) { e->gaps = 1; continue; }
        if (q != p) {
#define MOVE(type, name, file_type, init) e->name[q] = e->name[p];
            ENSEMBLE_POLYGON_FIELDS(MOVE)
#undef MOVE
            if (e->nvar) memcpy(e->var + (size_t)q * e->nvar, e->var + (size_t)p * e->nvar,
                                (size_t)e->nvar * sizeof *e->var);
            for (int i = e->start[q]; i < e->start[q] + e->count[q]; i++) e->pid[i] = q;
        }
        q++;
    }
    e->np = q;
}

int ensemble_vertex_count(const Ensemble *e)
{
    int n = 0;
    for (int p = 0; p < e->np; p++) n += e->count[p];
    return n;
}

void ensemble_polygon_box(const Ensemble *e, int p, double *xmin, double *ymin, double *xmax,
                          double *ymax)
{
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
        double x = e->x[i], y = e->y[i];
        x0 = x < x0 ? x : x0; x1 = x > x1 ? x : x1;
        y0 = y < y0 ? y : y0; y1 = y > y1 ? y : y1;
    }
    *xmin = x0; *ymin = y0; *xmax = x1; *ymax = y1;
}

static int crosses(const Ensemble *e, int a, int b, int c, int d)
{
    return geom_segments_cross((Vec2){ e->x[a], e->y[a] }, (Vec2){ e->x[b], e->y[b] },
                               (Vec2){ e->x[c], e->y[c] }, (Vec2){ e->x[d], e->y[d] });
}

/* An edge of the polygon being checked for self-intersection: the low end of its extent along
 * the sweep's axis, and its number m (slots s + m -> s + m + 1, the last back to s). */
typedef struct SweepEdge { double lo; int m; } SweepEdge;

static int cmp_sweep(const void *a, const void *b)
{
    const SweepEdge *u = a, *v = b;
    return u->lo != v->lo ? (u->lo > v->lo) - (u->lo < v->lo) : (u->m > v->m) - (u->m < v->m);
}

/* Whether polygon p (n vertices from slot s, finite coordinates) crosses itself: the first pair of
 * non-adjacent edges (i, j), i < j, that crosses in the order of all pairs (the edges numbered
 * from s), as a loop over every pair would find it, in *ei, *ej. A sweep along the polygon's
 * longer side: the edges sorted by their low end there, each tested against those that start
 * before it ends, so a polygon of n vertices costs O(n log n) plus the pairs that overlap on that
 * axis, not n^2 / 2. buf: room for n edges. */
static int self_crossing(const Ensemble *e, int p, SweepEdge *buf, int *ei, int *ej)
{
    const int s = e->start[p], n = e->count[p];
    double x0, y0, x1, y1;
    ensemble_polygon_box(e, p, &x0, &y0, &x1, &y1);
    const double *c = x1 - x0 >= y1 - y0 ? e->x : e->y;
    for (int m = 0; m < n; m++) {
        int a = s + m, b = m + 1 < n ? a + 1 : s;
        buf[m] = (SweepEdge){ c[a] < c[b] ? c[a] : c[b], m };
    }
    qsort(buf, (size_t)n, sizeof *buf, cmp_sweep);
    int bi = n, bj = n;   /* (the first crossing pair so far; none: n) */
    for (int u = 0; u < n; u++) {
        int m = buf[u].m, a = s + m, a1 = m + 1 < n ? a + 1 : s;
        double hi = c[a] > c[a1] ? c[a] : c[a1];
        for (int v = u + 1; v < n && buf[v].lo <= hi; v++) {
            int i = m < buf[v].m ? m : buf[v].m, j = m ^ buf[v].m ^ i;
            if (j == i + 1 || (i == 0 && j == n - 1)) continue;   /* (adjacent: share a vertex) */
            if (i > bi || (i == bi && j > bj)) continue;
            if (crosses(e, s + i, s + i + 1, s + j, j + 1 < n ? s + j + 1 : s)) { bi = i; bj = j; }
        }
    }
    *ei = s + bi; *ej = s + bj;
    return bi < n;
}

int ensemble_validate(const Ensemble *e, char *msg, size_t len)
{
    int nmax = 0;
    for (int p = 0; p < e->np; p++) nmax = e->count[p] > nmax ? e->count[p] : nmax;
    SweepEdge *buf = ph_realloc(NULL, ((size_t)nmax + 1) * sizeof *buf);
    int r = 0;
    for (int p = 0; p < e->np && !r; p++) {
        int s = e->start[p], n = e->count[p], i, j;
        r = -1;
        if (n < 3) {
            snprintf(msg, len, "polygon %d (id %lld) has %d vertices", p, (long long)e->id[p], n);
            break;
        }
        /* (remodeling relies on the order) */
        if (s < (p ? e->start[p - 1] + e->count[p - 1] : 0) || s + n > e->nv_used) {
            snprintf(msg, len, "polygon %d (id %lld): slots %d to %d out of polygon order", p,
                     (long long)e->id[p], s, s + n - 1);
            break;
        }
        for (i = s; i < s + n; i++)
            if (e->pid[i] != p || !isfinite(e->x[i]) || !isfinite(e->y[i]) || !(e->l0[i] > 0))
                break;
        if (i < s + n) {
            snprintf(msg, len,
                     "polygon %d (id %lld): vertex slot %d is bad (owner %d, rest length %g)",
                     p, (long long)e->id[p], i, e->pid[i], e->l0[i]);
            break;
        }
        double a = geom_area(e->x + s, e->y + s, n);
        if (!(a > 0)) {
            snprintf(msg, len, "polygon %d (id %lld) has area %g (not counter-clockwise)", p,
                     (long long)e->id[p], a);
            break;
        }
        if (self_crossing(e, p, buf, &i, &j)) {
            snprintf(msg, len, "polygon %d (id %lld) intersects itself (edges at slots %d and %d)",
                     p, (long long)e->id[p], i, j);
            break;
        }
        r = 0;
    }
    free(buf);
    return r;
}

void ensemble_event(Ensemble *e, int type, int64_t before0, int64_t before1, int64_t after0,
                    int64_t after1)
{
    if (!e->log_events) return;
    if (e->nevents == e->events_cap) {
        e->events_cap = 2 * e->events_cap + 64;
        e->events = ph_realloc(e->events, (size_t)e->events_cap * sizeof *e->events);
    }
    e->events[e->nevents++] =
        (Event){ e->step + 1, type, { before0, before1 }, { after0, after1 } };
}
