/* Remodeling of one polygon is a pure function of its vertex list. First twisted edges are cut
 * out (below). Then sweeps mark short edges to collapse (no vertex in two collapses, at least 3
 * vertices left): the two ends of each merge at the midpoint with the mean velocity, and its
 * rest length goes half to each neighbouring edge, so sum l0 is conserved. Then every edge longer
 * than lmax is bisected, and its halves again while they are longer (bisect). The sweeps repeat
 * until no edge is shorter than lmin, and halves are > lmax / 2 > lmin, so afterwards every edge
 * is in [lmin, lmax] (a triangle cannot be coarsened, and rigid polygons are only refined).
 *
 * Twists (docs/model.md 4): a vertex that meets an edge of its own hoop faster than the
 * repulsion can stop it (faster than sqrt(kr) h, the barrier kr h^2 / 2 per unit mass) passes
 * through it in a step. When that folds an edge m back, so that the edges m - 1 and m + 1 on
 * either side of it cross, the hoop has a tiny inverted loop that its own repulsion then holds in
 * place. Such a twist is cut out: vertices m and m + 1 are removed and m - 1 joined to m + 2 by
 * one edge with the hoop's mean stretch L / sum l0, as a division's seal (non-rigid polygons of
 * more than 5 vertices). The check is cheap: the crossing cuts off a triangle whose angles at m
 * and m + 1 are 180 degrees less the hoop's turn there and sum to less than 180, so the hoop turns
 * by more than 90 degrees at m or m + 1; only there are the edges tested. */
#include "remodel.h"
#include "bands.h"
#include "geometry.h"
#include "status.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

void remodel_init(Remodel *r)
{
    memset(r, 0, sizeof *r);
    r->max_slots = INT32_MAX;
}

void remodel_free(Remodel *r)
{
    free(r->newstart); free(r->newcount); free(r->sideat); free(r->side);
    for (int t = 0; t < r->nscratch; t++) free(r->scratch[t]);
    free(r->scratch); free(r->scratch_cap);
    memset(r, 0, sizeof *r);
}

/* Whether a polygon of n vertices turns by more than 90 degrees at vertex k (cyclic). */
static int sharp(const double *x, const double *y, int n, int k)
{
    int a = (k + n - 1) % n, b = k % n, c = (k + 1) % n;
    return (x[b] - x[a]) * (x[c] - x[b]) + (y[b] - y[a]) * (y[c] - y[b]) < 0;
}

/* Whether edge m of a polygon of n vertices is twisted: the edges m - 1 -> m and m + 1 -> m + 2
 * (cyclic) cross, which needs a sharp turn at m or m + 1 (see above). */
static int twisted(const double *x, const double *y, int n, int m)
{
    int a = (m + n - 1) % n, b = m % n, c = (m + 1) % n, d = (m + 2) % n;
    return (sharp(x, y, n, m) || sharp(x, y, n, m + 1)) &&
           geom_segments_cross((Vec2){ x[a], y[a] }, (Vec2){ x[b], y[b] },
                               (Vec2){ x[c], y[c] }, (Vec2){ x[d], y[d] });
}

/* Whether a polygon of n vertices may be untwisted (see above). */
static int untwists(const Ensemble *e, int p, int n) { return !e->rigid[p] && n > 5; }

static int needs_remodel(const Ensemble *e, const Params *P, int p)
{
    int s = e->start[p], n = e->count[p], coarsen = !e->rigid[p] && n > 3,
        untwist = untwists(e, p, n);
    const double *x = e->x + s, *y = e->y + s, lo = P->lmin * P->lmin, hi = P->lmax * P->lmax;
    double px = x[0] - x[n - 1], py = y[0] - y[n - 1];   /* the edge before vertex 0 */
    for (int k = 0; k < n; k++) {
        int k1 = k + 1 == n ? 0 : k + 1;
        double dx = x[k1] - x[k], dy = y[k1] - y[k], l2 = dx * dx + dy * dy;
        if (l2 > hi || (coarsen && l2 < lo)) return 1;
        /* (the turn at vertex k, from the edges at hand: a sharp one is rare) */
        if (untwist && px * dx + py * dy < 0 &&
            (twisted(x, y, n, k + n - 1) || twisted(x, y, n, k)))
            return 1;
        px = dx; py = dy;
    }
    return 0;
}

/* Refinement of the edge from vertex state u to w (x, y, vx, vy), rest length l0 (paper 3.1):
 * bisected while longer than lmax, each new vertex at the midpoint with the mean velocity, each
 * half with half the rest length, so it becomes 2^k equal pieces. Writes u and the new vertices,
 * each with the rest length of the piece after it, at slot `at` of out unless out is NULL;
 * returns how many. */
static int bisect(const double u[V_l0], const double w[V_l0], double l0, double lmax2,
                  double *const *out, size_t at)
{
    double dx = w[V_x] - u[V_x], dy = w[V_y] - u[V_y];
    if (!(dx * dx + dy * dy > lmax2)) {
        for (int f = 0; out && f < V_l0; f++) out[f][at] = u[f];
        if (out) out[V_l0][at] = l0;
        return 1;
    }
    double mid[V_l0];
    for (int f = 0; f < V_l0; f++) mid[f] = 0.5 * (u[f] + w[f]);
    int m = bisect(u, mid, 0.5 * l0, lmax2, out, at);
    return m + bisect(mid, w, 0.5 * l0, lmax2, out, at + (size_t)m);
}

/* Remodels polygon p into slot `at` of out (unless NULL), counting the twists cut out (unless
 * NULL). Returns the new vertex count. Uses the calling thread's scratch of r. */
static int remodel_polygon(const Ensemble *e, const Params *P, int p, Remodel *r,
                           double *const *out, size_t at, int *twists)
{
    int s = e->start[p], n = e->count[p], t = 0;
#ifdef _OPENMP
    t = omp_get_thread_num();
#endif
    size_t need = (size_t)n * (2 * ENSEMBLE_NFIELDS + 1);   /* two sets of fields, n merge flags */
    if (need > r->scratch_cap[t]) {
        r->scratch_cap[t] = need + need / 2;
        r->scratch[t] = ph_realloc(r->scratch[t], r->scratch_cap[t] * sizeof *r->scratch[t]);
    }
    double *buf = r->scratch[t];
    /* merge[k]: edge k collapses */
    unsigned char *merge = (unsigned char *)(buf + (size_t)n * 2 * ENSEMBLE_NFIELDS);
    /* the sweeps go from one set to the other */
    double *a[ENSEMBLE_NFIELDS], *b[ENSEMBLE_NFIELDS], *src[ENSEMBLE_NFIELDS];
    ensemble_fields(e, s, src);
    for (int f = 0; f < ENSEMBLE_NFIELDS; f++) {
        a[f] = buf + (size_t)n * f;
        b[f] = buf + (size_t)n * (ENSEMBLE_NFIELDS + f);
        memcpy(a[f], src[f], (size_t)n * sizeof *buf);
    }

    /* untwist: cut out vertices m and m + 1 wherever the edges on either side of edge m cross */
    for (int m = 0; untwists(e, p, n) && m < n;) {
        const double *x = a[V_x], *y = a[V_y];
        if (!twisted(x, y, n, m)) { m++; continue; }
        int k0 = (m + n - 1) % n, k1 = m, k2 = (m + 1) % n, k3 = (m + 2) % n;
        double L = geom_perimeter(x, y, n), sum0 = 0;
        for (int k = 0; k < n; k++) sum0 += a[V_l0][k];
        int j = 0;
        for (int k = 0; k < n; k++)
            if (k != k1 && k != k2) {
                for (int f = 0; f < ENSEMBLE_NFIELDS; f++) b[f][j] = a[f][k];
                if (k == k0)   /* the joining edge */
                    b[V_l0][j] = hypot(x[k3] - x[k0], y[k3] - y[k0]) * sum0 / L;
                j++;
            }
        n = j;
        for (int f = 0; f < ENSEMBLE_NFIELDS; f++) {
            double *swap = a[f]; a[f] = b[f]; b[f] = swap;
        }
        if (twists) (*twists)++;
        m = m > 1 ? m - 2 : 0;   /* (the new edge and its neighbours may be twisted now) */
    }

    /* coarsen: sweep until no edge is shorter than lmin (or 3 vertices are left) */
    for (int merges = 1; merges && !e->rigid[p] && n > 3;) {
        const double *x = a[V_x], *y = a[V_y], *vx = a[V_vx], *vy = a[V_vy], *l0 = a[V_l0];
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
                b[V_x][m] = 0.5 * (x[k] + x[k1]); b[V_y][m] = 0.5 * (y[k] + y[k1]);
                b[V_vx][m] = 0.5 * (vx[k] + vx[k1]); b[V_vy][m] = 0.5 * (vy[k] + vy[k1]);
                b[V_l0][m] = l0[k1] + 0.5 * l0[k] + (merge[k2] ? 0.5 * l0[k2] : 0);
            } else {
                b[V_x][m] = x[k]; b[V_y][m] = y[k]; b[V_vx][m] = vx[k]; b[V_vy][m] = vy[k];
                b[V_l0][m] = l0[k] + (merge[k1] ? 0.5 * l0[k1] : 0);
            }
            m++;
        }
        n = m;
        for (int f = 0; f < ENSEMBLE_NFIELDS; f++) {
            double *swap = a[f]; a[f] = b[f]; b[f] = swap;
        }
    }

    /* refine: bisect every edge longer than lmax, and its halves again while they are */
    int m = 0;
    for (int k = 0; k < n; k++) {
        int k1 = k + 1 == n ? 0 : k + 1;
        double u[V_l0], w[V_l0];
        for (int f = 0; f < V_l0; f++) u[f] = a[f][k], w[f] = a[f][k1];
        m += bisect(u, w, a[V_l0][k], P->lmax * P->lmax, out, at + (size_t)m);
    }
    return m;
}

/* Moves the vertex data of polygon p (unchanged by remodeling) from its slots to its new ones. */
static void move_polygon(Ensemble *e, const Remodel *r, int p)
{
    size_t from = (size_t)e->start[p], to = (size_t)r->newstart[p],
           n = (size_t)e->count[p] * sizeof(double);
    double *d[ENSEMBLE_NFIELDS];
    ensemble_fields(e, 0, d);
    for (int f = 0; f < ENSEMBLE_NFIELDS; f++) memmove(d[f] + to, d[f] + from, n);
}

/* Finds the polygons of this thread's band that change, their new vertex counts, and adds the
 * changed polygons, the vertices after remodeling and the twists to *changed, *nv, *twists. */
static void remodel_band(const Ensemble *e, const Params *P, Remodel *r, int *changed, long *nv,
                         int *twists)
{
    int m0, m1;
    const int *order = bands_mine(e, &m0, &m1);
    for (int m = m0; m < m1; m++) {
        int p = order ? order[m] : m;
        r->newcount[p] = -1;
        if (needs_remodel(e, P, p)) {
            r->newcount[p] = remodel_polygon(e, P, p, r, NULL, 0, twists);
            ++*changed;
        }
        *nv += r->newcount[p] < 0 ? e->count[p] : r->newcount[p];
    }
}

/* Ends the run: polygon `over` would end at slot `end`, past r->max_slots; names the polygon
 * that grows most (an edge far longer than lmax makes many vertices). */
static _Noreturn void too_many_slots(const Ensemble *e, const Remodel *r, int over, long end,
                                     long nv)
{
    int most = -1;
    for (int p = 0; p < e->np; p++)
        if (r->newcount[p] >= 0 &&
            (most < 0 || r->newcount[p] - e->count[p] > r->newcount[most] - e->count[most]))
            most = p;
    char grown[160] = "";
    if (most >= 0)
        snprintf(grown, sizeof grown,
                 "; remodeling grows polygon %d (id %lld) most, from %d to %d vertices", most,
                 (long long)e->id[most], e->count[most], r->newcount[most]);
    status_exit(PH_EXIT_MEMORY,
                "remodeling would need more vertex slots than there can be, %lld (slot indices "
                "are 32-bit integers): polygon %d (id %lld) would end at slot %ld%s; the %d "
                "polygons would have %ld vertices",
                (long long)r->max_slots, over, (long long)e->id[over], end, grown, e->np, nv);
}

int remodel_apply(Ensemble *e, const Params *P, Remodel *r)
{
    if (e->np > r->npcap) {
        r->npcap = e->np_cap;
        r->newstart = ph_realloc(r->newstart, (size_t)r->npcap * sizeof *r->newstart);
        r->newcount = ph_realloc(r->newcount, (size_t)r->npcap * sizeof *r->newcount);
        r->sideat = ph_realloc(r->sideat, (size_t)r->npcap * sizeof *r->sideat);
    }
    int nt = 1;
#ifdef _OPENMP
    nt = omp_get_max_threads();
#endif
    if (nt > r->nscratch) {
        r->scratch = ph_realloc(r->scratch, (size_t)nt * sizeof *r->scratch);
        r->scratch_cap = ph_realloc(r->scratch_cap, (size_t)nt * sizeof *r->scratch_cap);
        for (int t = r->nscratch; t < nt; t++) { r->scratch[t] = NULL; r->scratch_cap[t] = 0; }
        r->nscratch = nt;
    }
    int changed = 0, twists = 0;
    long nv = 0;   /* vertices after remodeling */
    if (bands_serial()) remodel_band(e, P, r, &changed, &nv, &twists);
    else {
        #pragma omp parallel reduction(+ : changed, nv, twists)
        remodel_band(e, P, r, &changed, &nv, &twists);
    }
    /* the new slots (remodel.h): pushed up only as far as the gaps do not absorb it, or all laid
     * out anew with room to grow */
    r->twists += twists;
    const long most = nv + nv / 4 + 64;
    if (!changed && e->nv_used <= most) return 0;
    int before = 0, nside = 0, over = -1;   /* (over: the first polygon to end past max_slots) */
    long end = 0;
    long total = 0, pushed = 0;
    for (int p = 0; p < e->np; p++) {
        int n = r->newcount[p] < 0 ? e->count[p] : r->newcount[p];
        r->newstart[p] = (int)(e->start[p] > total ? e->start[p] : total);
        if (r->newstart[p] != e->start[p] && r->newcount[p] < 0) pushed += n;
        total = r->newstart[p] + n;
        if (over < 0 && total > r->max_slots) over = p, end = total;
        before += e->count[p];
        r->sideat[p] = nside;
        if (r->newcount[p] >= 0) nside += n;
    }
    if (total > most || pushed > nv / 16 + 64) {
        total = 0, over = -1;
        for (int p = 0; p < e->np; p++) {
            int n = r->newcount[p] < 0 ? e->count[p] : r->newcount[p];
            r->newstart[p] = (int)total;
            total += n;
            if (over < 0 && total > r->max_slots) over = p, end = total;
            total += p + 1 < e->np ? REMODEL_ROOM(n) : 0;   /* (the last grows into the free end) */
        }
    }
    if (over >= 0) too_many_slots(e, r, over, end, nv);
    if ((size_t)nside > r->side_cap) {
        r->side_cap = (size_t)nside + (size_t)nside / 2 + 64;
        r->side = ph_realloc(r->side, ENSEMBLE_NFIELDS * r->side_cap * sizeof *r->side);
    }
    double *side[ENSEMBLE_NFIELDS];
    for (int f = 0; f < ENSEMBLE_NFIELDS; f++) side[f] = r->side + (size_t)f * r->side_cap;
    #pragma omp parallel
    {
        int m0, m1;
        const int *order = bands_mine(e, &m0, &m1);
        for (int m = m0; m < m1; m++) {
            int p = order ? order[m] : m;
            if (r->newcount[p] >= 0) remodel_polygon(e, P, p, r, side, (size_t)r->sideat[p], NULL);
        }
    }

    /* Unchanged polygons that move are moved in place: slots are in polygon order before and
     * after, so those moving down go in ascending order and those moving up in descending order
     * without overwriting one another (a changed polygon's new list is aside). */
    if (total > e->nv_cap) ensemble_reserve(e, (int)total - e->nv_used, 0);
    for (int p = 0; p < e->np; p++)
        if (r->newcount[p] < 0 && r->newstart[p] < e->start[p]) move_polygon(e, r, p);
    for (int p = e->np - 1; p >= 0; p--)
        if (r->newcount[p] < 0 && r->newstart[p] > e->start[p]) move_polygon(e, r, p);
    #pragma omp parallel
    {
        int m0, m1;
        const int *order = bands_mine(e, &m0, &m1);
        for (int m = m0; m < m1; m++) {
            int p = order ? order[m] : m;
            int at = r->newstart[p], n = r->newcount[p] < 0 ? e->count[p] : r->newcount[p];
            if (r->newcount[p] >= 0) {
                size_t o = (size_t)r->sideat[p], bytes = (size_t)n * sizeof(double);
                double *d[ENSEMBLE_NFIELDS];
                ensemble_fields(e, at, d);
                for (int f = 0; f < ENSEMBLE_NFIELDS; f++) memcpy(d[f], side[f] + o, bytes);
            }
            if (at != e->start[p] || r->newcount[p] >= 0)
                for (int k = 0; k < n; k++) e->pid[at + k] = p;
        }
    }
    for (int p = 0; p < e->np; p++) {
        e->start[p] = r->newstart[p];
        if (r->newcount[p] >= 0) {   /* (ensemble.h) */
            e->count[p] = r->newcount[p];
            e->edits[p]++;
        }
    }
    e->nv_used = (int)total;
    e->gaps = total != nv;
    e->layout++;
    return (int)(nv - before);
}

/* A polygon's place in the spatial order (remodel_sort). */
typedef struct SortKey { int row, p; double x; int64_t id; } SortKey;

static int cmp_key(const void *a, const void *b)
{
    const SortKey *u = a, *v = b;
    if (u->row != v->row) return u->row < v->row ? -1 : 1;
    if (u->x != v->x) return u->x < v->x ? -1 : 1;
    return u->id < v->id ? -1 : u->id > v->id;
}

/* dst[newstart[k] ..] = src[start[order[k]] ..] for every polygon k of the new order. */
static void gather(double *dst, const double *src, const Ensemble *e, const SortKey *key,
                   const int *newstart)
{
    #pragma omp parallel for schedule(static)
    for (int k = 0; k < e->np; k++)
        memcpy(dst + newstart[k], src + e->start[key[k].p],
               (size_t)e->count[key[k].p] * sizeof *dst);
}

int remodel_sort(Ensemble *e)
{
    int np = e->np;
    if (np < 2) return 0;
    SortKey *key = ph_realloc(NULL, (size_t)np * sizeof *key);
    double area = 0, ymin = INFINITY, *cy = ph_realloc(NULL, 2 * (size_t)np * sizeof *cy),
           *a = cy + np;
    #pragma omp parallel for schedule(static)
    for (int p = 0; p < np; p++) {
        int s = e->start[p], n = e->count[p];
        double sx = 0, sy = 0;
        for (int i = s; i < s + n; i++) { sx += e->x[i]; sy += e->y[i]; }
        key[p] = (SortKey){ 0, p, sx / n, e->id[p] };
        cy[p] = sy / n;
        a[p] = fabs(geom_area(e->x + s, e->y + s, n));
    }
    for (int p = 0; p < np; p++) {   /* (in order: the same sum at any thread count) */
        area += a[p];
        ymin = cy[p] < ymin ? cy[p] : ymin;
    }
    double rows = 1 / sqrt(area / np);   /* (per unit height) */
    if (!isfinite(rows)) rows = 0;
    for (int p = 0; p < np; p++) {
        double r = (cy[p] - ymin) * rows;
        /* (a stray polygon far away: the last row) */
        key[p].row = r >= 0 && r < INT32_MAX ? (int)r : INT32_MAX;
    }
    free(cy);
    qsort(key, (size_t)np, sizeof *key, cmp_key);
    int moved = 0;
    for (int k = 0; k < np; k++) moved |= key[k].p != k;
    if (!moved) { free(key); return 0; }
    /* the new slots: each polygon takes its room (the free slots after it) along, so the slot
     * count stays the same */
    int *newstart = ph_realloc(NULL, (size_t)np * sizeof *newstart);
    int total = 0;
    for (int k = 0; k < np; k++) {
        int p = key[k].p;
        newstart[k] = total;
        total += (p + 1 < np ? e->start[p + 1] : e->nv_used) - e->start[p];
    }
    /* the vertex arrays one at a time through one spare array (8 bytes per slot at most extra) */
#define FIELD_ADDRESS(name) &e->name,
    double *spare = ph_realloc(NULL, (size_t)e->nv_cap * sizeof *spare),
           **arr[ENSEMBLE_NFIELDS] = { ENSEMBLE_VERTEX_FIELDS(FIELD_ADDRESS) };
#undef FIELD_ADDRESS
    for (int f = 0; f < ENSEMBLE_NFIELDS; f++) {
        gather(spare, *arr[f], e, key, newstart);
        double *t = *arr[f]; *arr[f] = spare; spare = t;
    }
    free(spare);
    /* the polygon arrays, one at a time */
    void *tmp = ph_realloc(NULL, (size_t)np * 8);
#define PERMUTE(type, name, file_type, init) \
    for (int k = 0; k < np; k++) ((type *)tmp)[k] = e->name[key[k].p]; \
    memcpy(e->name, tmp, (size_t)np * sizeof(type));
    ENSEMBLE_POLYGON_FIELDS(PERMUTE)
#undef PERMUTE
    free(tmp);
    if (e->nvar) {   /* (and the cells' variables, nvar per polygon) */
        const size_t nv = (size_t)e->nvar;
        double *var = ph_realloc(NULL, (size_t)e->np_cap * nv * sizeof *var);
        for (int k = 0; k < np; k++) memcpy(var + k * nv, e->var + key[k].p * nv, nv * sizeof *var);
        free(e->var);
        e->var = var;
    }
    long nv = 0;
    for (int p = 0; p < np; p++) {
        e->start[p] = newstart[p];
        for (int i = newstart[p]; i < newstart[p] + e->count[p]; i++) e->pid[i] = p;
        nv += e->count[p];
    }
    free(newstart);
    free(key);
    e->nv_used = total;   /* (less a gap before the first polygon, if there was one) */
    e->gaps = total != nv;
    e->layout++;
    bands_invalidate(e);   /* (polygons reordered) */
    return 1;
}
