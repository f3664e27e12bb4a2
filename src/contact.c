/* Pair detection and the step driver: the strip walks over the grid or the neighbour list, the
 * choice of the picking ends, the race-free sums of forces and reactions, the list's lifetime
 * and its checkpoint section, and the neighbour count. See contact.h for how the work is split
 * between threads; the grid is in grid.c, the force of one pair in pair.h. */
#include "contact.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* the skin of the neighbour list, in units of the reach: measured best of 0.25, 0.5, 1, 1.5 and 2
 * (a thicker skin means more edges per vertex, a thinner one more rebuilds) */
static const double SKIN = 1.0;
/* slots that changed after fewer than CALM steps without a change are likely to change again at
 * once (a growing tissue remodels nearly every step): then no list is built (measured: 1, 2 and 4
 * alike on the dense tissue; 1 best on the default growth) */
enum { CALM = 1 };

/* A nearby edge of the vertex being evaluated (work list of one thread). */
typedef struct Near {
    int same;       /* 1: the edge belongs to the vertex's polygon */
    int k, k1;      /* the slots of its ends */
    double d2, w;   /* squared distance from the vertex, barycentric coordinate of the closest point */
} Near;

/* What a walk over the strips does for each vertex. */
enum { WANT_FORCES, WANT_ENERGY, WANT_NEIGHBORS };

/* The work space of one thread. */
struct ContactWork {
    PairRec *rec;           /* the pairs it found (with keep_records) */
    int rec_n, rec_cap;
    Near *near;             /* the nearby edges of its current vertex */
    int near_cap;
    int *cand, cand_cap;    /* the stencil's candidate items of its current vertex */
    int *lst;               /* its streams of the neighbour list (see contact.h) */
    size_t lst_n, lst_cap;
    int *nb, nb_n, nb_cap;  /* the neighbour count's (polygon, other polygon) pairs */
};

void contact_init(Contact *c)
{
    memset(c, 0, sizeof *c);
    grid_init(&c->grid);
}

void contact_free(Contact *c)
{
    grid_free(&c->grid);
    for (int t = 0; t < c->nthreads; t++) {
        struct ContactWork *w = &c->work[t];
        free(w->rec); free(w->near); free(w->cand); free(w->lst); free(w->nb);
    }
    free(c->work); free(c->u);
    free(c->strip_tid); free(c->strip_at); free(c->strip_end);
    memset(c, 0, sizeof *c);
}

/* Grows a per-thread buffer to hold n + 1 elements. */
#define RESERVE(buf, cap, n) do { if ((n) == (cap)) { (cap) = (cap) ? 2 * (cap) : 256; \
    (buf) = ph_realloc((buf), (size_t)(cap) * sizeof *(buf)); } } while (0)

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

/* Which ends of the nearby edge nr[a] of vertex i pick it (docs/model.md 2: the closer of a
 * vertex's two edges, the one after it on a tie; not when i lies beyond the far end or next to
 * that vertex): bit 0 for k, bit 1 for k1. The adjacent edges are in the same list when they
 * are within the reach at all. */
static inline int picking_ends(const Ensemble *e, const Near *nr, int nn, int a, int i)
{
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
    return ends;
}

/* The forces between vertex i and its nn nearby edges (all within the reach), counted once per
 * picking end, on i and as reactions on the edge's ends (forces on rigid vertices discarded). */
static void vertex_forces(Contact *c, const Ensemble *e, const Params *P, double *restrict efx, double *restrict efy,
                          int tid, int want_u, int i, int rigid, int nn)
{
    struct ContactWork *wk = &c->work[tid];
    const Near *nr = wk->near;
    double fx = 0, fy = 0, u = 0;
    for (int a = 0; a < nn; a++) {
        int same = nr[a].same, k = nr[a].k, k1 = nr[a].k1, ends = picking_ends(e, nr, nn, a, i);
        double f1x, f1y, u1, w = nr[a].w, n = ends == 3 ? 2 : 1;
        if (!ends || !pair_force(e, P, i, k, k1, w, same, &f1x, &f1y, want_u ? &u1 : NULL)) continue;
        f1x *= n; f1y *= n;
        fx += f1x; fy += f1y;
        if (want_u) u += n * u1;
        if (!e->rigid[e->pid[k]]) {
            efx[k] -= (1 - w) * f1x; efy[k] -= (1 - w) * f1y;
            efx[k1] -= w * f1x; efy[k1] -= w * f1y;
        }
        if (c->keep_records) {
            RESERVE(wk->rec, wk->rec_cap, wk->rec_n);
            wk->rec[wk->rec_n++] = (PairRec){ i, k, k1, ends, w };
        }
    }
    if (!rigid) { efx[i] += fx; efy[i] += fy; }
    if (want_u) c->u[i] = u;
}

/* The polygons that interact with vertex i through its nn nearby edges, exactly as
 * vertex_forces would find them (picked by an end, in reach by pair_force's own test), as
 * (polygon of i, other polygon) pairs appended to the thread's nb. */
static void vertex_neighbors(Contact *c, const Ensemble *e, const Params *P, int tid, int i, int nn)
{
    struct ContactWork *wk = &c->work[tid];
    const Near *nr = wk->near;
    int p = e->pid[i];
    for (int a = 0; a < nn; a++) {
        if (nr[a].same) continue;
        int q = e->pid[nr[a].k];
        double nx, ny;
        if (wk->nb_n && wk->nb[wk->nb_n - 2] == p && wk->nb[wk->nb_n - 1] == q) continue;   /* (counted already) */
        if (!picking_ends(e, nr, nn, a, i) || !pair_in_reach(P, pair_gap(e, i, nr[a].k, nr[a].k1, nr[a].w, &nx, &ny))) continue;
        if (wk->nb_n + 2 > wk->nb_cap) { wk->nb_cap = 2 * wk->nb_cap + 256; wk->nb = ph_realloc(wk->nb, (size_t)wk->nb_cap * sizeof *wk->nb); }
        wk->nb[wk->nb_n++] = p;
        wk->nb[wk->nb_n++] = q;
    }
}

/* The pairs of the vertices of strip s, from the grid (see contact.h); with skin >= 0, also
 * appends the strip's part of the neighbour list to the thread's stream. */
static void strip_forces(Contact *c, const Ensemble *e, const Params *P, double *efx, double *efy,
                         int strip, int tid, int what, double skin)
{
    const Grid *g = &c->grid;
    struct ContactWork *wk = &c->work[tid];
    const double reach = params_reach(P), h = P->h, reach2[2] = { reach * reach, h * h };
    const double sk = skin > 0 ? skin : 0, list2[2] = { (reach + sk) * (reach + sk), (h + sk) * (h + sk) };
    const int nx = g->nx, keep = skin >= 0;
    if (keep) { c->strip_tid[strip] = tid; c->strip_at[strip] = wk->lst_n; }
    /* the strip's vertices, cell by cell */
    for (int m = g->vstrip[strip], cell = -1, x0 = 0, x1 = 0, y0 = 0, y1 = 0; m < g->vstrip[strip + 1]; m++) {
        int i = g->vitems[m], vc = grid_cell(g, e->x[i], e->y[i]);
        if (vc != cell) {   /* a new cell: its stencil */
            cell = vc;
            int nst = grid_stencil(g, cell, &x0, &x1, &y0, &y1);
            if (nst > wk->cand_cap) {
                wk->cand_cap = 2 * nst;
                wk->cand = ph_realloc(wk->cand, (size_t)wk->cand_cap * sizeof *wk->cand);
            }
        }
        int *cand = wk->cand;
        int p = e->pid[i], rigid = e->rigid[p], nc = 0;
        int s0 = e->start[p], n0 = e->count[p], iprev = i == s0 ? s0 + n0 - 1 : i - 1;
        double px = e->x[i], py = e->y[i];
        /* the edges within reach (h within one polygon; plus the skin for the list), with the
         * closest point of each; the edges that end at i never act on it. First the cheap test
         * of grid_scan (the circle around the edge's midpoint), one stencil row at a time, then
         * the projection in double precision. */
        for (int y = y0; y <= y1; y++)
            nc = grid_scan(g, g->cell_start[y * nx + x0], g->cell_start[y * nx + x1 + 1], i, iprev, px, py, s0, n0, h + sk, reach + sk, cand, nc);
        if (keep && wk->lst_n + 2 + 2 * (size_t)nc > wk->lst_cap) {
            wk->lst_cap = 2 * (wk->lst_n + 2 + 2 * (size_t)nc);
            wk->lst = ph_realloc(wk->lst, wk->lst_cap * sizeof *wk->lst);
        }
        int nn = 0, *rec = keep ? wk->lst + wk->lst_n : NULL, nl = 0;
        for (int a = 0; a < nc; a++) {
            int k = g->gs[cand[a]].k, k1 = g->gs[cand[a]].k1, same = (unsigned)(k - s0) < (unsigned)n0;
            if (!same && rigid && e->rigid[e->pid[k]]) continue;
            double w, d2 = project(e, px, py, k, k1, &w);
            if (keep && d2 < list2[same]) { rec[2 + 2 * nl] = k; rec[3 + 2 * nl] = k1; nl++; }
            if (d2 >= reach2[same]) continue;
            RESERVE(wk->near, wk->near_cap, nn);
            wk->near[nn++] = (Near){ same, k, k1, d2, w };
        }
        if (nl) { rec[0] = i; rec[1] = nl; wk->lst_n += 2 + 2 * (size_t)nl; }
        if (what == WANT_NEIGHBORS) vertex_neighbors(c, e, P, tid, i, nn);
        else vertex_forces(c, e, P, efx, efy, tid, what == WANT_ENERGY, i, rigid, nn);
    }
    if (keep) c->strip_end[strip] = wk->lst_n;
}

/* The pairs of strip s from the neighbour list. */
static void strip_forces_list(Contact *c, const Ensemble *e, const Params *P, double *efx, double *efy,
                              int strip, int tid, int what)
{
    struct ContactWork *wk = &c->work[tid];
    const double reach = params_reach(P), h = P->h, reach2[2] = { reach * reach, h * h };
    if (c->strip_end[strip] == c->strip_at[strip]) return;   /* (its thread may have no buffer) */
    const int *q = c->work[c->strip_tid[strip]].lst, *end = q + c->strip_end[strip];
    for (q += c->strip_at[strip]; q < end; ) {
        int i = q[0], nl = q[1], p = e->pid[i], s0 = e->start[p], n0 = e->count[p], nn = 0;
        double px = e->x[i], py = e->y[i];
        q += 2;
        for (int a = 0; a < nl; a++, q += 2) {
            int k = q[0], k1 = q[1], same = (unsigned)(k - s0) < (unsigned)n0;
            double w, d2 = project(e, px, py, k, k1, &w);
            if (d2 >= reach2[same]) continue;
            RESERVE(wk->near, wk->near_cap, nn);
            wk->near[nn++] = (Near){ same, k, k1, d2, w };
        }
        if (what == WANT_NEIGHBORS) vertex_neighbors(c, e, P, tid, i, nn);
        else vertex_forces(c, e, P, efx, efy, tid, 0, i, e->rigid[p], nn);
    }
}

/* Evaluates strips 0 .. nstrips-1, the even ones in parallel, then the odd ones (see contact.h):
 * from the list, or from the grid (what and skin as for strip_forces). */
static void each_strip(Contact *c, const Ensemble *e, const Params *P, double *efx, double *efy,
                       int nstrips, int from_list, int what, double skin)
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
                if (from_list) strip_forces_list(c, e, P, efx, efy, s, tid, what);
                else strip_forces(c, e, P, efx, efy, s, tid, what, skin);
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

/* Work space for every thread; with what != WANT_NEIGHBORS, the records of a new evaluation
 * start empty (a neighbour count leaves those of the step). */
static void reserve_threads(Contact *c, int what)
{
    int nt = 1;
#ifdef _OPENMP
    nt = omp_get_max_threads();
#endif
    if (nt > c->nthreads) {
        c->work = ph_realloc(c->work, (size_t)nt * sizeof *c->work);
        memset(c->work + c->nthreads, 0, (size_t)(nt - c->nthreads) * sizeof *c->work);
        c->nthreads = nt;
    }
    for (int t = 0; t < c->nthreads; t++) {
        if (what == WANT_NEIGHBORS) c->work[t].nb_n = 0;
        else c->work[t].rec_n = 0;
    }
}

/* The pairs from a new grid (and a new list if skin >= 0): forces added to e->fx, fy (what =
 * WANT_FORCES, or WANT_ENERGY with the energy in *energy), or the neighbour pairs. transient:
 * the grid is released right after, so the sort's work space (8 bytes per vertex) is freed
 * before the pairs are found. */
static void from_grid(Contact *c, const Ensemble *e, const Params *P, double *efx, double *efy, double lmax,
                      double skin, int what, double *energy, int transient)
{
    /* the midpoint of an interacting edge is within lmax / 2 + reach of P: with cells that large
     * (and a margin against rounding) it lies in P's 3x3 cells */
    grid_build(&c->grid, e, (0.5 * lmax + params_reach(P) + (skin > 0 ? skin : 0)) * (1 + 1e-9));
    if (transient) grid_release(&c->grid, 0);
    reserve_threads(c, what);
    if (what == WANT_ENERGY) {   /* (tests only: the per-vertex energies; vertices in gaps own none) */
        c->u = ph_realloc(c->u, (size_t)e->nv_used * sizeof *c->u);
        for (int i = 0; i < e->nv_used; i++) c->u[i] = 0;
    }
    int nstrips = grid_strips(&c->grid);
    if (skin >= 0) {
        reserve_strips(c, nstrips);
        for (int t = 0; t < c->nthreads; t++) c->work[t].lst_n = 0;
        c->nstrips = nstrips;
    }
    each_strip(c, e, P, efx, efy, nstrips, 0, what, skin);
    if (what == WANT_ENERGY) {
        *energy = 0;
        for (int p = 0; p < e->np; p++)
            for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) *energy += c->u[i];
    }
}

void contact_forces(Contact *c, Ensemble *e, const Params *P, double lmax, double *energy)
{
    from_grid(c, e, P, e->fx, e->fy, lmax, -1, energy ? WANT_ENERGY : WANT_FORCES, energy, 0);
}

void contact_invalidate(Contact *c) { c->built = c->list_ok = 0; }

/* Whether the list holds every pair of the current state (see contact.h). */
static int list_usable(const Contact *c, const Ensemble *e, const Params *P)
{
    return c->built && c->built_layout == e->layout && c->list_ok && c->list_reach == params_reach(P) &&
           c->list_h == P->h && 2 * c->drift < c->list_skin * (1 - 1e-9);
}

/* The pairs of every strip from the list. */
static void from_list(Contact *c, const Ensemble *e, const Params *P, double *efx, double *efy, int what)
{
    reserve_threads(c, what);
    each_strip(c, e, P, efx, efy, c->nstrips, 1, what, 0);
}

void contact_moved(Contact *c, double d)
{
    /* plus the rounding of the position updates (half an ulp of the largest coordinate) */
    c->drift += d + ldexp(c->list_extent + c->drift, -52);
}

void contact_forces_step(Contact *c, Ensemble *e, const Params *P, double lmax)
{
    const double reach = params_reach(P);
    int changed = !c->built || c->built_layout != e->layout, calm = c->calm;
    c->calm = changed ? 0 : calm < 1 << 30 ? calm + 1 : calm;
    if (list_usable(c, e, P)) {
        from_list(c, e, P, e->fx, e->fy, WANT_FORCES);
        c->reuses++;
        return;
    }
    c->built = 1;
    c->built_layout = e->layout;
    if (changed && calm < CALM) {   /* (see contact.h) */
        from_grid(c, e, P, e->fx, e->fy, lmax, -1, WANT_FORCES, NULL, 0);
        c->list_ok = 0;
        c->plain++;
        return;
    }
    const Grid *g = &c->grid;
    double skin = SKIN * reach;
    from_grid(c, e, P, e->fx, e->fy, lmax, skin, WANT_FORCES, NULL, 1);
    c->list_ok = 1;
    c->list_skin = skin;
    c->list_reach = reach;
    c->list_h = P->h;
    c->list_extent = fmax(fmax(fabs(g->x0), fabs(g->y0)), fmax(fabs(g->x0 + g->nx * g->cs), fabs(g->y0 + g->ny * g->cs)));
    c->drift = 0;
    c->builds++;
    grid_release(&c->grid, 1);   /* (about 36 bytes per vertex, unneeded while the list serves) */
}

static int cmp_pair(const void *a, const void *b)
{
    const int *u = a, *v = b;
    return u[0] != v[0] ? (u[0] > v[0]) - (u[0] < v[0]) : (u[1] > v[1]) - (u[1] < v[1]);
}

void contact_count_neighbors(Contact *c, const Ensemble *e, const Params *P, double lmax, int *nb)
{
    if (list_usable(c, e, P)) from_list(c, e, P, NULL, NULL, WANT_NEIGHBORS);
    else {
        from_grid(c, e, P, NULL, NULL, lmax, -1, WANT_NEIGHBORS, NULL, 1);
        grid_release(&c->grid, 1);   /* (before the frame is assembled; a step builds it again) */
    }
    /* the pairs of all threads, sorted: the count is the same whoever found which */
    size_t n = 0;
    for (int t = 0; t < c->nthreads; t++) n += (size_t)c->work[t].nb_n / 2;
    int (*all)[2] = ph_realloc(NULL, (n + 1) * sizeof *all);
    n = 0;
    for (int t = 0; t < c->nthreads; t++) {
        struct ContactWork *w = &c->work[t];
        if (w->nb_n) memcpy(all + n, w->nb, (size_t)w->nb_n * sizeof *w->nb);   /* (memcpy of NULL is undefined, even for 0 bytes) */
        n += (size_t)w->nb_n / 2;
        free(w->nb);
        w->nb = NULL;
        w->nb_n = w->nb_cap = 0;
    }
    qsort(all, n, sizeof *all, cmp_pair);
    for (int p = 0; p < e->np; p++) nb[p] = 0;
    for (size_t k = 0; k < n; k++)
        if (k == 0 || all[k][0] != all[k - 1][0] || all[k][1] != all[k - 1][1]) nb[all[k][0]]++;
    free(all);
}

void contact_keep_records(Contact *c, int on) { c->keep_records = on; }

int contact_record_parts(const Contact *c) { return c->nthreads; }

const PairRec *contact_records(const Contact *c, int part, int *n)
{
    *n = c->work[part].rec_n;
    return c->work[part].rec;
}

void contact_counts(const Contact *c, int64_t *builds, int64_t *reuses, int64_t *plain)
{
    *builds = c->builds; *reuses = c->reuses; *plain = c->plain;
}

int contact_holds_grid(const Contact *c) { return grid_allocated(&c->grid); }

int contact_saved_state(const Contact *c, const Ensemble *e)
{
    /* (with gaps, the restored ensemble is numbered anew: the slots changed) */
    if (!c->built || c->built_layout != e->layout || e->gaps) return 0;
    return c->list_ok ? 2 : 1;
}

void contact_save(const Contact *c, const Ensemble *e, void (*put)(void *out, const void *d, size_t n), void *out)
{
    int32_t state = contact_saved_state(c, e), calm = c->calm, ns = c->nstrips;
    put(out, &state, sizeof state); put(out, &calm, sizeof calm);
    if (state != 2) return;
    double d[5] = { c->list_skin, c->list_reach, c->list_h, c->list_extent, c->drift };
    put(out, d, sizeof d); put(out, &ns, sizeof ns);
    for (int k = 0; k < ns; k++) {
        int64_t len = (int64_t)(c->strip_end[k] - c->strip_at[k]);
        put(out, &len, sizeof len);
        if (len) put(out, c->work[c->strip_tid[k]].lst + c->strip_at[k], (size_t)len * sizeof(int));   /* (an empty strip may have no buffer) */
    }
}

/* Whether the records of the saved list (strips of data[at[s] .. at[s + 1])) name edges of e. */
static int list_fits(const Ensemble *e, const int *data, const size_t *at, int nstrips)
{
    for (int s = 0; s < nstrips; s++)
        for (size_t m = at[s]; m < at[s + 1]; ) {   /* records (i, n, n edges k -> k1) */
            if (!(m + 2 <= at[s + 1] && data[m] >= 0 && data[m] < e->nv_used && data[m + 1] > 0 &&
                  (size_t)data[m + 1] <= (at[s + 1] - m - 2) / 2)) return 0;
            for (int a = 0; a < data[m + 1]; a++) {
                int k = data[m + 2 + 2 * a], k1 = data[m + 3 + 2 * a];
                if (!(k >= 0 && k < e->nv_used && ens_next(e, k) == k1)) return 0;
            }
            m += 2 + 2 * (size_t)data[m + 1];
        }
    return 1;
}

int contact_load(Contact *c, const Ensemble *e, FILE *f, size_t left)
{
    int32_t state = 0, calm = 0, ns = 0;
    double d[5] = { 0 };
    int *data = NULL;
    size_t *at = NULL;
    contact_invalidate(c);
    c->calm = 0;
    /* every length is checked against the bytes left in the file */
    int ok = fread(&state, sizeof state, 1, f) == 1 && state >= 0 && state <= 2 && fread(&calm, sizeof calm, 1, f) == 1 && calm >= 0;
    if (ok && state == 2) ok = fread(d, sizeof d, 1, f) == 1 && fread(&ns, sizeof ns, 1, f) == 1 && ns >= 0 &&
                               (size_t)ns <= left / sizeof(int64_t) && (at = malloc(((size_t)ns + 1) * sizeof *at)) != NULL &&
                               (data = malloc(left + sizeof *data)) != NULL;
    /* skin in (0, 4 reach], as built */
    ok = ok && (state != 2 || (d[0] > 0 && d[0] <= 4 * d[1] && isfinite(d[1]) && isfinite(d[2]) && isfinite(d[3]) && d[4] >= 0 && isfinite(d[4])));
    if (ok && state == 2) at[0] = 0;
    for (int k = 0; ok && state == 2 && k < ns; k++) {
        int64_t len;
        ok = fread(&len, sizeof len, 1, f) == 1 && len >= 0 && (uint64_t)len <= (left - at[k] * sizeof *data) / sizeof *data;
        if (ok) { ok = fread(data + at[k], sizeof *data, (size_t)len, f) == (size_t)len; at[k + 1] = at[k] + (size_t)len; }
    }
    ok = ok && (state != 2 || list_fits(e, data, at, ns));
    if (!ok) { free(data); free(at); return -1; }
    c->calm = calm;
    if (state == 1) { c->built = 1; c->built_layout = e->layout; }
    if (state != 2) { free(data); free(at); return 0; }
    reserve_threads(c, WANT_FORCES);
    free(c->work[0].lst);
    c->work[0].lst = data;
    c->work[0].lst_n = c->work[0].lst_cap = at[ns];
    reserve_strips(c, ns);
    for (int s = 0; s < ns; s++) { c->strip_tid[s] = 0; c->strip_at[s] = at[s]; c->strip_end[s] = at[s + 1]; }
    free(at);
    c->nstrips = ns;
    c->built = c->list_ok = 1;
    c->built_layout = e->layout;
    c->list_skin = d[0]; c->list_reach = d[1]; c->list_h = d[2]; c->list_extent = d[3]; c->drift = d[4];
    return 0;
}
