/* Pair detection and the step driver: the strip walks over the grid or the neighbour list, the
 * choice of the picking ends, the race-free sums of forces and reactions, when to build, patch
 * or reuse the list, and the neighbour count. See contact.h for how the work is split between
 * threads; the list's budgets, patches and checkpoint section are in contact_list.c, the grid in
 * grid.c, the force of one pair in pair.h. */
#define _POSIX_C_SOURCE 200809L   /* (sched_yield) */
#include "contact_impl.h"
#include "bands.h"
#include <math.h>
#include <sched.h>
#if defined(__SSE2__)
#include <immintrin.h>
#endif
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

void contact_init(Contact *c)
{
    memset(c, 0, sizeof *c);
    grid_init(&c->grid);
    c->snap = ph_realloc(NULL, sizeof *c->snap);
    memset(c->snap, 0, sizeof *c->snap);
}

void contact_free(Contact *c)
{
    grid_free(&c->grid);
    for (int t = 0; t < c->nthreads; t++) {
        struct ContactWork *w = &c->work[t];
        free(w->rec); free(w->near); free(w->cand); free(w->nb); free(w->dv); free(w->sel); free(w->batch);
    }
    for (int k = 0; k < c->strips_cap; k++) free(c->strip[k].i);   /* (k lies in i's allocation) */
    struct ContactSnap *sn = c->snap;
    if (sn) {
        free(sn->id); free(sn->start); free(sn->count); free(sn->edits); free(sn->newstart); free(sn->smap);
        free(sn->changed); free(sn->mark); free(sn->hkey); free(sn->hval); free(sn->marked); free(sn->coarse); free(sn->dirty); free(sn->dv); free(sn->dv_at); free(sn->sel); free(sn->mean); free(sn->wander);
        free(sn);
    }
    free(c->work); free(c->u); free(c->strip); free(c->strip_id); free(c->done); free(c->wander);
    memset(c, 0, sizeof *c);
}

/* The index of the edge that starts at slot k in nr (nn edges in slot order, each once), or -1. */
static inline int near_find(const Near *nr, int nn, int k)
{
    int lo = 0, hi = nn;
    while (lo < hi) { int m = lo + (hi - lo) / 2; if (nr[m].k < k) lo = m + 1; else hi = m; }
    return lo < nn && nr[lo].k == k ? lo : -1;
}

/* Which ends of the nearby edge nr[a] of vertex i pick it (docs/model.md 2: the closer of a
 * vertex's two edges, the one after it on a tie; not when i lies beyond the far end or next to
 * that vertex): bit 0 for k, bit 1 for k1. The adjacent edges are in the same list when they
 * are within the reach at all, and the list is in slot order (record_sort), so the edge that
 * ends at k is the one before nr[a] and the edge that starts at k1 the one after it, unless one
 * of them is a polygon's last edge (k1 < k; wrap = 1 if the list has one): then it is looked up
 * by its first slot (in O(log nn): a reach of a whole packing lists every edge for each vertex). */
static inline int picking_ends(const Ensemble *e, const Near *nr, int nn, int a, int i, int wrap)
{
    int same = nr[a].same, k = nr[a].k, k1 = nr[a].k1, ends = 0, b;
    double d2 = nr[a].d2;
    if (nr[a].w < 1 && !(same && ens_prev(e, k) == i)) {
        ends |= 1;
        if (!wrap) { if (a > 0 && nr[a - 1].k1 == k && nr[a - 1].d2 < d2) ends &= ~1; }
        else if ((b = near_find(nr, nn, ens_prev(e, k))) >= 0 && nr[b].d2 < d2) ends &= ~1;
    }
    if (nr[a].w > 0 && !(same && ens_next(e, k1) == i)) {
        ends |= 2;
        if (!wrap) { if (a + 1 < nn && nr[a + 1].k == k1 && nr[a + 1].d2 <= d2) ends &= ~2; }
        else if ((b = near_find(nr, nn, k1)) >= 0 && nr[b].d2 <= d2) ends &= ~2;
    }
    return ends;
}

/* The forces between vertex i and its nn nearby edges (all within the reach), counted once per
 * picking end, on i and as reactions on the edge's ends (forces on rigid vertices discarded;
 * none with efx NULL). Returns the pair energy that i owns with want_u, else 0. plain (a
 * constant where it is inlined): no polygon is rigid, no pair is recorded and no cell types' matrix
 * is set, so none of them is looked up pair by pair. */
static inline __attribute__((always_inline)) double vertex_forces(Contact *c, const Ensemble *e, const Params *P, double *restrict efx, double *restrict efy,
                            int tid, int want_u, int i, int rigid, int nn, int wrap, int plain)
{
    struct ContactWork *wk = &c->work[tid];
    const Near *nr = wk->near;
    double fx = 0, fy = 0, u = 0;
    for (int a = 0; a < nn; a++) {
        int same = nr[a].same, k = nr[a].k, k1 = nr[a].k1, ends = picking_ends(e, nr, nn, a, i, wrap);
        double f1x, f1y, u1, w = nr[a].w, n = ends == 3 ? 2 : 1;
        if (!ends || !pair_force_typed(e, P, i, k, k1, w, same, nr[a].gx, nr[a].gy, &f1x, &f1y, want_u ? &u1 : NULL, !plain)) continue;
        f1x *= n; f1y *= n;
        fx += f1x; fy += f1y;
        if (want_u) u += n * u1;
        if (efx && (plain || !e->rigid[e->pid[k]])) {
            efx[k] -= (1 - w) * f1x; efy[k] -= (1 - w) * f1y;
            efx[k1] -= w * f1x; efy[k1] -= w * f1y;
        }
        if (!plain && c->keep_records) {
            PH_RESERVE(wk->rec, wk->rec_cap, wk->rec_n + 1);
            wk->rec[wk->rec_n++] = (PairRec){ i, k, k1, ends, w };
        }
    }
    if (efx && !rigid) { efx[i] += fx; efy[i] += fy; }
    return u;
}

/* The polygons that interact with vertex i through its nn nearby edges, exactly as
 * vertex_forces would find them (picked by an end, in reach by pair_force's own test), as
 * (polygon of i, other polygon) pairs appended to the thread's nb. */
static void vertex_neighbors(Contact *c, const Ensemble *e, const Params *P, int tid, int i, int nn, int wrap)
{
    struct ContactWork *wk = &c->work[tid];
    const Near *nr = wk->near;
    int p = e->pid[i];
    for (int a = 0; a < nn; a++) {
        if (nr[a].same) continue;
        int q = e->pid[nr[a].k], from = c->nb_vertex ? i : p;
        if (wk->nb_n && wk->nb[wk->nb_n - 2] == from && wk->nb[wk->nb_n - 1] == q) continue;   /* (counted already) */
        if (!picking_ends(e, nr, nn, a, i, wrap) || !pair_in_reach(P, sqrt(nr[a].d2))) continue;
        PH_RESERVE(wk->nb, wk->nb_cap, wk->nb_n + 2);
        wk->nb[wk->nb_n++] = from;
        wk->nb[wk->nb_n++] = q;
    }
}

/* The first item in [b, end) (one cell: its edges in slot order) whose edge starts at slot k or
 * later. With it the neighbour count skips a polygon's own edges in O(log) per cell: a polygon
 * given with 100,000 vertices in a small circle no longer costs 10^9 tests before the first step
 * has remodeled it. */
static int first_slot_at(const Grid *g, int b, int end, int k)
{
    while (b < end) {
        int m = b + (end - b) / 2;
        if (g->gs[m].k < k) b = m + 1;
        else end = m;
    }
    return b;
}

/* Drops the repeats from the n edges k at r, sorted; returns how many are left. */
static int dedupe_edges(int *r, int n)
{
    int u = 0;
    for (int a = 0; a < n; a++)
        if (!u || r[a] != r[u - 1]) r[u++] = r[a];
    return u;
}

/* The occupied cells of the 3x3 stencil of a search cell: their edges gs[sb .. se) and their
 * corners relative to the cell's; kept while successive vertices lie in the same cell (hint:
 * where grid_rows' last searches ended, for cells near each other). */
typedef struct Stencil { int64_t cell; int n, hint[3], sb[9], se[9]; double sx[9], sy[9]; } Stencil;

/* The nearby edges of vertex i from the grid into the thread's near list, in slot order; with
 * skin >= 0 also its record of the edges within the reach plus the skin, appended to strip st.
 * Returns how many, and in *wrap whether one of them is its polygon's last edge. */
static inline int grid_near(Contact *c, const Ensemble *e, const Params *P, int i, int tid, int what, double skin,
                            struct ContactStrip *st, Stencil *sc, int *wrap)
{
    const Grid *g = &c->grid;
    struct ContactWork *wk = &c->work[tid];
    const double reach = params_reach(P), h = P->h, reach2[2] = { reach * reach, h * h }, cs = g->cs;
    const double sk = skin > 0 ? skin : 0, list2[2] = { (reach + sk) * (reach + sk), (h + sk) * (h + sk) };
    const int keep = skin >= 0;
    int ix, iy;
    int64_t vc = grid_cell(g, e->x[i], e->y[i], &ix, &iy);
    if (vc != sc->cell) {   /* a new search cell: its stencil */
        GridRows rows = { 0 };
        sc->cell = vc;
        int nst = grid_rows(g, ix, iy, sc->hint, &rows);
        PH_RESERVE(wk->cand, wk->cand_cap, nst);
        sc->n = 0;
        for (int r = 0; r < rows.n; r++)
            for (int q = rows.b[r]; q < rows.e[r]; q++)
                if (g->start[q + 1] > g->start[q]) {
                    sc->sb[sc->n] = g->start[q]; sc->se[sc->n] = g->start[q + 1];
                    sc->sx[sc->n] = (double)(grid_key(g, q) - rows.base[r] - ix) * cs; sc->sy[sc->n++] = rows.dy[r] * cs;
                }
    }
    int *cand = wk->cand;
    int p = e->pid[i], rigid = e->rigid[p], nc = 0;
    int s0 = e->start[p], n0 = e->count[p], iprev = i == s0 ? s0 + n0 - 1 : i - 1;
    double px = e->x[i], py = e->y[i], ox = px - g->x0 - ix * cs, oy = py - g->y0 - iy * cs;   /* (from its cell's corner) */
    /* the edges within reach (h within one polygon; plus the skin for the list), with the
     * closest point of each; the edges that end at i never act on it. First the cheap test
     * of grid_scan_cells (the circle around the edge's midpoint), the stencil's cells in one call, each in
     * coordinates from that cell's corner, then the projection in double precision. */
    if (what == WANT_NEIGHBORS)
        for (int k = 0; k < sc->n; k++) {   /* only other polygons count: skip p's own edges, cell by cell */
            int lo = first_slot_at(g, sc->sb[k], sc->se[k], s0), hi = first_slot_at(g, lo, sc->se[k], s0 + n0);
            const int jb[2] = { sc->sb[k], hi }, je[2] = { lo, sc->se[k] };   /* (the cell's two parts, as two cells) */
            const double cx[2] = { sc->sx[k], sc->sx[k] }, cy[2] = { sc->sy[k], sc->sy[k] };
            nc = grid_scan_cells(g, 2, jb, je, cx, cy, ox, oy, i, iprev, s0, n0, h, reach, cand, nc);
        }
    else nc = grid_scan_cells(g, sc->n, sc->sb, sc->se, sc->sx, sc->sy, ox, oy, i, iprev, s0, n0, h + sk, reach + sk, cand, nc);
    if (keep) strip_reserve(st, st->n + (size_t)nc, st->n);
    int nn = 0, *rec = keep ? st->k + st->n : NULL, nl = 0;
    *wrap = 0;
    for (int a = 0; a < nc; a++) {
        int k = g->gs[cand[a]].k, k1 = ens_next(e, k), same = (unsigned)(k - s0) < (unsigned)n0;
        if (!same && rigid && e->rigid[e->pid[k]]) continue;
        double w, gx, gy, d2 = project(e, px, py, k, k1, &w, &gx, &gy);
        if (keep && d2 < list2[same]) rec[nl++] = edge_code(k, same | (k1 < k));
        if (d2 >= reach2[same]) continue;
        PH_RESERVE(wk->near, wk->near_cap, nn + 1);
        wk->near[nn++] = (Near){ same, k, k1, d2, w, gx, gy };
        *wrap |= k1 < k;
    }
    if (g->pieces) {   /* (an edge in pieces may have come from several cells: once each, in slot order) */
        if (nl) { record_sort(rec, nl); nl = dedupe_edges(rec, nl); }
        near_sort(wk->near, nn);
        int u = 0;
        for (int a = 0; a < nn; a++)
            if (!u || wk->near[a].k != wk->near[u - 1].k) wk->near[u++] = wk->near[a];
        nn = u;
    } else near_sort(wk->near, nn);   /* (in slot order, as a record keeps them) */
    if (nl) {
        record_sort(rec, nl);
        for (int a = 0; a < nl; a++) st->i[st->n + (size_t)a] = i;
        st->n += (size_t)nl;
    }
    return nn;
}

/* The pairs of the vertices of strip s, from the grid (see contact.h); with skin >= 0, also
 * makes the strip's part of the neighbour list (its arrays of listed edges). */
static void strip_forces(Contact *c, const Ensemble *e, const Params *P, double *efx, double *efy,
                         int strip, int tid, int what, double skin)
{
    const Grid *g = &c->grid;
    struct ContactStrip *st = skin >= 0 ? &c->strip[strip] : NULL;
    if (st) st->n = 0;
    Stencil sc = { .cell = -1 };   /* (its hint: the vertices come in walk order, mostly growing search keys) */
    for (int m = g->vstrip[strip]; m < g->vstrip[strip + 1]; m++) {   /* the strip's vertices, cell by cell */
        int i = g->vitems[m], wrap, nn = grid_near(c, e, P, i, tid, what, skin, st, &sc, &wrap);
        if (what == WANT_NEIGHBORS) vertex_neighbors(c, e, P, tid, i, nn, wrap);
        else if (what == WANT_ENERGY) c->u[i] = vertex_forces(c, e, P, efx, efy, tid, 1, i, e->rigid[e->pid[i]], nn, wrap, 0);
        else vertex_forces(c, e, P, efx, efy, tid, 0, i, e->rigid[e->pid[i]], nn, wrap, 0);
    }
}

/* The nearby edges of the record at m of strip st (its vertex i = st->i[m]) into the thread's near
 * list; returns how many, in *nl the record's length and in *wrap whether one of them is its
 * polygon's last edge. */
static inline __attribute__((always_inline)) int record_near(struct ContactWork *wk, const Ensemble *e, const struct ContactStrip *st,
                                                             size_t m, const double reach2[2], size_t *nl, int *wrap)
{
    const int i = st->i[m], p = e->pid[i], s0 = e->start[p], n0 = e->count[p];
    const double px = e->x[i], py = e->y[i];
    const int *vi = st->i + m, *q = st->k + m;
    const size_t left = st->n - m;
    if (wk->near_cap < 64) PH_RESERVE(wk->near, wk->near_cap, 64);
    int nn = 0, wr = 0;
    size_t a = 0;
    for (; a < left && vi[a] == i; a++) {
        if (a == (size_t)wk->near_cap) PH_RESERVE(wk->near, wk->near_cap, a + 1);
        int k = edge_slot(q[a]), k1 = q[a] < 0 ? ens_next(e, k) : k + 1, same = (unsigned)(k - s0) < (unsigned)n0;
        double w, gx, gy, d2 = project(e, px, py, k, k1, &w, &gx, &gy);
        if (d2 >= reach2[same]) continue;
        wk->near[nn++] = (Near){ same, k, k1, d2, w, gx, gy };
        wr |= k1 < k;
    }
    *nl = a;
    *wrap = wr;
    return nn;
}

/* The pairs of strip s from the neighbour list, pair by pair: the neighbour count, and the forces
 * where pairs are recorded or few listed edges are within the reach (strip_batch_walk's
 * otherwise). plain: as for vertex_forces. */
static inline __attribute__((always_inline)) void strip_list_walk(Contact *c, const Ensemble *e, const Params *P, double *efx, double *efy,
                                                                  int strip, int tid, int what, int plain)
{
    struct ContactWork *wk = &c->work[tid];
    const double reach = params_reach(P), h = P->h, reach2[2] = { reach * reach, h * h };
    const struct ContactStrip *st = &c->strip[strip];
    int64_t walked = 0, near = 0;   /* (summed here: the threads' work spaces may share cache lines) */
    for (size_t m = 0, nl; m < st->n; m += nl) {
        int i = st->i[m], wrap, nn = record_near(wk, e, st, m, reach2, &nl, &wrap);
        walked += (int64_t)nl;
        near += nn;
        if (what == WANT_NEIGHBORS) vertex_neighbors(c, e, P, tid, i, nn, wrap);
        else vertex_forces(c, e, P, efx, efy, tid, 0, i, plain ? 0 : e->rigid[e->pid[i]], nn, wrap, plain);
    }
    if (what == WANT_FORCES) { wk->walked += walked; wk->within += near; }
}

/* The batched walk: vertex_forces' forces, bit for bit, in passes over a batch of records that
 * have no branch that depends on the data and run BATCH_VL edges at once in vectors: the
 * projections, the picking ends, the pair law, then the sums in the records' order. The walk
 * pair by pair mispredicts about 1.5 branches a listed edge (which end picks it, whether the
 * closest point is inside it, repulsion or adhesion: they change from edge to edge), and each
 * pair's division, square root and division wait for each other. */
typedef double vdbl __attribute__((vector_size(8 * BATCH_VL)));
typedef long long vmask __attribute__((vector_size(8 * BATCH_VL)));   /* (-1: true, 0: false) */
static inline vdbl vdbl_sel(vmask m, vdbl a, vdbl b)
{
    return (vdbl)(((vmask)a & m) | ((vmask)b & ~m));
}
static inline vdbl v_at(const double *p, const int *ix) { vdbl r; for (int l = 0; l < BATCH_VL; l++) r[l] = p[ix[l]]; return r; }
static inline vdbl v_load(const double *p) { vdbl r; memcpy(&r, p, sizeof r); return r; }
static inline void v_store(double *p, vdbl v) { memcpy(p, &v, sizeof v); }
typedef int vint __attribute__((vector_size(4 * BATCH_VL)));
static inline vmask v_own(const int *p) { vint r; memcpy(&r, p, sizeof r); return __builtin_convertvector(r, vmask) != 0; }
/* (the instruction itself: sqrt() would test each lane for errno) */
static inline vdbl vdbl_sqrt(vdbl v)
{
#if defined(__AVX512F__)
    return (vdbl)_mm512_sqrt_pd((__m512d)v);
#elif defined(__AVX__)
    return (vdbl)_mm256_sqrt_pd((__m256d)v);
#elif defined(__SSE2__)
    return (vdbl)_mm_sqrt_pd((__m128d)v);
#else
    for (int l = 0; l < BATCH_VL; l++) v[l] = sqrt(v[l]);
    return v;
#endif
}
/* (its sign bit cleared) */
static inline vdbl vdbl_abs(vdbl v) { return (vdbl)((vmask)v & ~(vmask)(-(vdbl){ 0 })); }
PAIR_LAW(vdbl, vmask)

/* The picking ends of edge a of batch b (picking_ends' count of them): within the reach, its
 * end k unless the edge before it is closer or i is k's previous vertex, its end k1 unless the
 * edge after it is as close or i is k1's next vertex. */
static inline int batch_ends(const struct ContactBatch *b, int a, int before, int after)
{
    return (b->in[a] != 0) * (((b->w[a] < 1) & !before & !(b->own[a] >> 1 & 1)) + ((b->w[a] > 0) & !after & !(b->own[a] >> 2 & 1)));
}

/* Whether the edge before edge a of batch b (of n edges) along its polygon, k' -> k, stands before it in
 * its record (a record lists its edges in slot order; but for a polygon's first edge), is within
 * the reach and closer; whether the edge after it, k1 -> k1', stands after it (but for a polygon's
 * last edge), is within the reach and as close. (A record's edges follow each other: its vertex
 * is another's than its neighbours'.) */
static inline int batch_before(const struct ContactBatch *b, int a)
{
    int first = (a == 1) | (b->i[a] != b->i[a - 1]);
    return !first & (b->in[a - 1] != 0) & (b->k1[a - 1] == b->k[a]) & (b->d2[a - 1] < b->d2[a]);
}
static inline int batch_after(const struct ContactBatch *b, int a, int n)
{
    int last = (a == n) | (b->i[a + 1] != b->i[a]);
    return !last & (b->in[a + 1] != 0) & (b->k[a + 1] == b->k1[a]) & (b->d2[a + 1] <= b->d2[a]);
}

/* The forces of the n listed edges of batch b (whole records), added to efx, efy exactly as
 * vertex_forces adds them. typed: the ensemble has a cell types' matrix (kh and mu looked up
 * pair by pair); rigid: some polygon is rigid (no force on its vertices). Returns how many of
 * the edges are within the reach. */
static int batch_forces(const Ensemble *e, const Params *P, struct ContactBatch *b, int n, double *restrict efx, double *restrict efy,
                         int typed, int rigid)
{
    const double reach = params_reach(P), reach2 = reach * reach, h = P->h, mu = P->mu;
    const int nt = e->ntypes_kh;
    const double *restrict X = e->x, *restrict Y = e->y, *restrict VX = e->vx, *restrict VY = e->vy;
    const int *I = b->i + 1, *K = b->k + 1, *K1 = b->k1 + 1;
    const vdbl zero = { 0 }, one = zero + 1;
    const vmask none = { 0 };
    for (int l = n + 1; l < n + BATCH_VL + 1; l++) b->i[l] = b->k[l] = b->k1[l] = b->i[1];   /* (the last vector's spare lanes) */
    /* the projections (list_near: w clamped to [0, 1], within the reach or not) */
    for (int a = 0; a < n; a += BATCH_VL) {
        vdbl xk = v_at(X, K + a), yk = v_at(Y, K + a), dx = v_at(X, I + a) - xk, dy = v_at(Y, I + a) - yk, ex = v_at(X, K1 + a) - xk, ey = v_at(Y, K1 + a) - yk;
        vdbl dot = dx * ex + dy * ey, l2 = ex * ex + ey * ey;
        vdbl w = vdbl_sel(dot > zero, vdbl_sel(dot < l2, dot / l2, one), zero);
        vdbl rx = dx - w * ex, ry = dy - w * ey, d2 = rx * rx + ry * ry;
        vdbl r2 = b->anyown ? vdbl_sel(v_own(b->own + 1 + a), zero + h * h, zero + reach2) : zero + reach2;
        vmask in = ~(d2 >= r2);   /* (h within one polygon) */
        v_store(b->d2 + 1 + a, d2); v_store(b->w + 1 + a, w); v_store(b->gx + 1 + a, -rx); v_store(b->gy + 1 + a, -ry);
        memcpy(b->in + 1 + a, &in, sizeof in);
    }
    /* the picking ends (picking_ends: the edge before one along its polygon, k' -> k, and the edge
     * after it, k1 -> k1', if in its record and within the reach; a record lists its edges in slot
     * order, so they stand next to it, but for a polygon's last edge and first: those are paired
     * below) */
    b->in[0] = b->in[n + 1] = 0;
    int near = 0;
    for (int a = 1; a <= n; a++) {
        near += b->in[a] != 0;
        b->ends[a] = batch_ends(b, a, batch_before(b, a), batch_after(b, a, n));
    }
    for (int r = 0; r < b->nwrap; r++) {   /* a polygon's last edge l -> s0 and its first s0 -> s0 + 1, before it in the record */
        int l = b->wrap[r], f = l - 1;
        while (f >= 1 && b->i[f] == b->i[l] && b->k[f] > b->k1[l]) f--;
        if (f < 1 || b->i[f] != b->i[l] || b->k[f] != b->k1[l]) continue;
        b->ends[l] = batch_ends(b, l, batch_before(b, l), batch_after(b, l, n) | ((b->in[f] != 0) & (b->d2[f] <= b->d2[l])));
        b->ends[f] = batch_ends(b, f, batch_before(b, f) | ((b->in[l] != 0) & (b->d2[l] < b->d2[f])), batch_after(b, f, n));
    }
    /* the pair law (pair.h), times the picking ends; 0 where there is no pair */
    const PairLaw law = pair_law_of(P);
    const int friction = mu > 0 || (typed && e->type_mu);
    for (int a = 0; a < n; a += BATCH_VL) {
        vmask ends;
        memcpy(&ends, b->ends + 1 + a, sizeof ends);
        vdbl w = v_load(b->w + 1 + a), dist = vdbl_sqrt(v_load(b->d2 + 1 + a)), ne, fx, fy;
        for (int l = 0; l < BATCH_VL; l++) ne[l] = (double)ends[l];
        vdbl kh = zero + P->kh, muv = zero + mu;
        if (typed)   /* (pair_kh, pair_mu) */
            for (int l = 0; l < BATCH_VL; l++) {
                int ab = e->type[e->pid[I[a + l]]] * nt + e->type[e->pid[K[a + l]]];
                if (e->type_kh) kh[l] = e->type_kh[ab];
                if (e->type_mu) muv[l] = e->type_mu[ab];
            }
        vmask same = b->anyown ? v_own(b->own + 1 + a) : none;
        vmask pair = pair_acts_vdbl(&law, dist, same) & (ends != 0);
        pair_law_vdbl(&law, dist, v_load(b->gx + 1 + a), v_load(b->gy + 1 + a), w, v_at(VX, K + a),
                      v_at(VY, K + a), v_at(VX, K1 + a), v_at(VY, K1 + a), v_at(VX, I + a),
                      v_at(VY, I + a), kh, muv, same, friction, &fx, &fy);
        if (b->anyown)   /* (self-contact exclusion: rare, walked along the hoop) */
            for (int l = 0; l < BATCH_VL; l++)
                if (pair[l] & same[l] && pair_along_hoop_within(e, I[a + l], K[a + l], K1[a + l], w[l], h)) pair[l] = 0;
        v_store(b->fx + 1 + a, vdbl_sel(pair, fx * ne, zero));
        v_store(b->fy + 1 + a, vdbl_sel(pair, fy * ne, zero));
    }
    /* the sums, in the records' order (a force of +0 leaves every sum as it was: none is -0);
     * none on a rigid polygon's vertices */
    double sx = 0, sy = 0;
    if (!rigid) {   /* (each edge stores its vertex's force, changed at its record's last: fewer mispredictions than a test for a new record) */
        b->i[n + 1] = -1;
        for (int a = 1; a <= n; a++) {
            double w = b->w[a], fx = b->fx[a], fy = b->fy[a];
            int k = b->k[a], k1 = b->k1[a], i = b->i[a], last = b->i[a + 1] != i;
            sx += fx; sy += fy;
            efx[k] -= (1 - w) * fx; efy[k] -= (1 - w) * fy;
            efx[k1] -= w * fx; efy[k1] -= w * fy;
            double gx = efx[i], gy = efy[i];
            efx[i] = last ? gx + sx : gx; efy[i] = last ? gy + sy : gy;
            sx = last ? 0 : sx; sy = last ? 0 : sy;
        }
        return near;
    }
    const unsigned char *rg = e->rigid;
    for (int a = 1; a <= n; a++) {
        if (a > 1 && b->i[a] != b->i[a - 1]) {
            int i = b->i[a - 1];
            if (!rg[e->pid[i]]) { efx[i] += sx; efy[i] += sy; }
            sx = sy = 0;
        }
        double w = b->w[a], fx = b->fx[a], fy = b->fy[a];
        int k = b->k[a], k1 = b->k1[a];
        sx += fx; sy += fy;
        if (rg[e->pid[k]]) continue;
        efx[k] -= (1 - w) * fx; efy[k] -= (1 - w) * fy;
        efx[k1] -= w * fx; efy[k1] -= w * fy;
    }
    if (!rg[e->pid[b->i[n]]]) { efx[b->i[n]] += sx; efy[b->i[n]] += sy; }
    return near;
}

/* The forces of strip s from the list (vertex_forces' for every record), in batches of whole
 * records; a record with more edges than a batch holds goes vertex_forces' way, in its place in
 * the order. */
static void strip_batch_walk(Contact *c, const Ensemble *e, const Params *P, double *efx, double *efy, int strip, int tid)
{
    struct ContactWork *wk = &c->work[tid];
    const struct ContactStrip *st = &c->strip[strip];
    if (!st->n) return;
    if (!wk->batch) { wk->batch = ph_realloc(NULL, sizeof *wk->batch); memset(wk->batch, 0, sizeof *wk->batch); }   /* (the sentinels at 0) */
    struct ContactBatch *b = wk->batch;
    const double reach = params_reach(P), reach2[2] = { reach * reach, P->h * P->h };
    const int plain = c->walk_plain, typed = e->type_kh || e->type_mu, rigid = c->walk_rigid;
    const int *VI = st->i, *VK = st->k;
    int64_t near = 0;
    for (size_t m = 0; m < st->n; ) {
        /* the batch: the records that begin in the next BATCH edges and end there */
        size_t end = m + BATCH < st->n ? m + BATCH : st->n;
        if (end < st->n)
            while (end > m && VI[end] == VI[end - 1]) end--;
        if (end == m) {   /* (rare: a record longer than a batch) */
            size_t nl;
            int i = VI[m], wrap, nn = record_near(wk, e, st, m, reach2, &nl, &wrap);
            vertex_forces(c, e, P, efx, efy, tid, 0, i, plain ? 0 : e->rigid[e->pid[i]], nn, wrap, plain);
            near += nn;
            m += nl;
            continue;
        }
        const int n = (int)(end - m);
        int *bi = b->i + 1, *bk = b->k + 1, *bk1 = b->k1 + 1, *bo = b->own + 1, anyspecial = 0;
        memcpy(bi, VI + m, (size_t)n * sizeof *bi);
        for (int a = 0; a < n; a++) {   /* (a loop the compiler vectorises) */
            int q = VK[m + a];
            anyspecial |= q;
            bk[a] = edge_slot(q); bk1[a] = bk[a] + 1; bo[a] = 0;
        }
        b->nwrap = b->anyown = 0;
        if (anyspecial < 0)   /* edges of the vertex's own polygon, or its polygon's last: looked up */
            for (int a = 0; a < n; a++) {
                if (VK[m + a] >= 0) continue;
                int i = bi[a], k = bk[a], p = e->pid[k], s0 = e->start[p], n0 = e->count[p];
                if (k + 1 == s0 + n0) { bk1[a] = s0; b->wrap[b->nwrap++] = a + 1; }
                if (e->pid[i] == p) {   /* (the ends next to i do not pick it) */
                    bo[a] = 1 | 2 * (ens_prev(e, k) == i) | 4 * (ens_next(e, bk1[a]) == i);
                    b->anyown = 1;
                }
            }
        near += batch_forces(e, P, b, n, efx, efy, typed, rigid);
        m = end;
    }
    wk->walked += (int64_t)st->n;
    wk->within += near;
}

static void strip_forces_list(Contact *c, const Ensemble *e, const Params *Pin, double *efx, double *efy,
                              int strip, int tid, int what)
{
    const Params Pv = *Pin, *P = &Pv;   /* (a copy of its own, which no force stored can change: the
                                         * pair law keeps its constants in registers) */
    if (what == WANT_FORCES && c->walk_batched) strip_batch_walk(c, e, P, efx, efy, strip, tid);
    else if (what == WANT_FORCES && c->walk_plain) strip_list_walk(c, e, P, efx, efy, strip, tid, what, 1);
    else strip_list_walk(c, e, P, efx, efy, strip, tid, what, 0);
}

static void run_strip(Contact *c, const Ensemble *e, const Params *P, double *efx, double *efy, int s, int tid,
                      int from_list, int what, double skin)
{
    if (from_list) strip_forces_list(c, e, P, efx, efy, s, tid, what);
    else strip_forces(c, e, P, efx, efy, s, tid, what, skin);
}

/* Waits until strip s is done in this walk. (Spinning, since the strip is the first that its
 * thread runs; yielding after a while, in case that thread has no core.) */
static void wait_strip(const Contact *c, int s, int64_t walk)
{
    for (int k = 0; atomic_load_explicit(&c->done[s].walk, memory_order_acquire) != walk; k++)
        if (k >= 1000) sched_yield();
}

/* This thread's part of each_strip's walk number `walk`. */
static void strips_band(Contact *c, const Ensemble *e, const Params *P, double *efx, double *efy,
                        int nstrips, int from_list, int what, double skin, int64_t walk)
{
    int tid = 0;
#ifdef _OPENMP
    tid = omp_get_thread_num();
#endif
    int s0, s1;   /* this thread's strips: those of its band (bands.h) */
    if (from_list) bands_strips(e, c->list_y0, GRID_STRIP * c->list_cs, c->strip_id, nstrips, &s0, &s1);
    else bands_strips(e, c->grid.y0, GRID_STRIP * c->grid.wcs, c->grid.strip_id, nstrips, &s0, &s1);
    int last = -1;   /* (the band's last even strip) */
    for (int s = s0 + (s0 & 1); s < s1; s += 2) {
        run_strip(c, e, P, efx, efy, s, tid, from_list, what, skin);
        atomic_store_explicit(&c->done[s].walk, walk, memory_order_release);
        if (s - 2 >= s0) run_strip(c, e, P, efx, efy, s - 1, tid, from_list, what, skin);
        last = s;
    }
    if (last >= 0 && last + 1 < nstrips) {
        if (last + 2 < nstrips) wait_strip(c, last + 2, walk);
        run_strip(c, e, P, efx, efy, last + 1, tid, from_list, what, skin);
    }
}

/* Evaluates strips 0 .. nstrips-1 (see contact.h), from the list or from the grid (what and skin
 * as for strip_forces). Each thread walks up its band: an even strip, then the odd one below it
 * (both its neighbours are done), so that a strip's vertices are still in cache for the next.
 * Every odd strip is run by the thread of the even strip below it; the one above a band's last
 * even strip waits for the even strip above it, which the next band's thread runs first. No two
 * strips run at once that write the same vertex, and each runs after the strips it must follow. */
static void each_strip(Contact *c, const Ensemble *e, const Params *P, double *efx, double *efy,
                       int nstrips, int from_list, int what, double skin)
{
    if (nstrips > c->done_cap) {
        c->done = ph_realloc(c->done, (size_t)nstrips * sizeof *c->done);
        for (int s = c->done_cap; s < nstrips; s++) atomic_init(&c->done[s].walk, 0);
        c->done_cap = nstrips;
    }
    const int64_t walk = ++c->walks;
    c->walk_rigid = 0;
    for (int p = 0; p < e->np && !c->walk_rigid; p++) c->walk_rigid = e->rigid[p];
    c->walk_plain = !c->keep_records && !e->type_kh && !e->type_mu && !c->walk_rigid;
    /* in batches where most listed edges were within the reach in the last walk (a tissue, a
     * packing): where few are (grains that fly apart), the walk pair by pair drops the others
     * after their projection, and the batches' passes cost more than they save. The same forces
     * either way. */
    const int count = from_list && what == WANT_FORCES;
    c->walk_batched = count && !c->keep_records && 2 * c->last_near >= c->last_walked;
    int64_t walked = 0, near = 0;
    for (int t = 0; count && t < c->nthreads; t++) { walked -= c->work[t].walked; near -= c->work[t].within; }
    if (bands_serial()) strips_band(c, e, P, efx, efy, nstrips, from_list, what, skin, walk);
    else {
        #pragma omp parallel
        strips_band(c, e, P, efx, efy, nstrips, from_list, what, skin, walk);
    }
    for (int t = 0; count && t < c->nthreads; t++) { walked += c->work[t].walked; near += c->work[t].within; }
    if (count) { c->last_walked = walked; c->last_near = near; }
}

/* The pairs from a new grid (and a new list if skin >= 0): forces added to e->fx, fy (what =
 * WANT_FORCES, or WANT_ENERGY with the energy in *energy), or the neighbour pairs. transient:
 * the grid is released right after, so the sort's work space (8 bytes per vertex) is freed
 * before the pairs are found. */
static void from_grid(Contact *c, const Ensemble *e, const Params *P, double *efx, double *efy, double lmax,
                      double skin, int what, double *energy, int transient)
{
    /* the midpoint of an interacting edge (or piece) at most lc long is within lc / 2 + reach of
     * P: with cells that large (and a margin against rounding) it lies in P's 3x3 cells. A list's
     * cells serve every edge (lmax: at least the longest); a grid of its own serves the edges up
     * to the longest that remodeling leaves, and longer ones (a division's cut, until the next
     * step remodels it) in pieces. */
    double lc = skin >= 0 ? lmax : fmin(lmax, P->lmax);
    grid_build(&c->grid, e, (0.5 * lc + params_reach(P) + (skin > 0 ? skin : 0)) * (1 + 1e-9), lc, 1);
    if (transient) grid_release(&c->grid, 0);
    contact_reserve_threads(c, what);
    if (what == WANT_ENERGY) {   /* (tests only: the per-vertex energies; vertices in gaps own none) */
        c->u = ph_realloc(c->u, (size_t)e->nv_used * sizeof *c->u);
        for (int i = 0; i < e->nv_used; i++) c->u[i] = 0;
    }
    int nstrips = c->grid.nstrips;
    if (skin >= 0) {
        contact_reserve_strips(c, nstrips);
        c->nstrips = nstrips;
        memcpy(c->strip_id, c->grid.strip_id, (size_t)nstrips * sizeof *c->strip_id);
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

/* The grid of contact_forces for a frame's figures (its search cells: the walk's are not needed),
 * released by frame_grid_done. */
static void frame_grid(Contact *c, const Ensemble *e, const Params *P, double lmax)
{
    const double lc = fmin(lmax, P->lmax);
    grid_build(&c->grid, e, (0.5 * lc + params_reach(P)) * (1 + 1e-9), lc, 0);
    grid_release(&c->grid, 0);
}

static void frame_grid_done(Contact *c) { grid_release(&c->grid, 1); }

/* On the grid of frame_grid: each vertex's energy as contact_forces finds it, summed in slot
 * order block by block (no energy per vertex kept). */
static double grid_energy(Contact *c, const Ensemble *e, const Params *P)
{
    enum { BLOCK = 2048 };
    contact_reserve_threads(c, WANT_ENERGY);
    int *first = ph_realloc(NULL, ((size_t)e->np + 1) * sizeof *first);   /* (per polygon: the vertices before it) */
    first[0] = 0;
    for (int p = 0; p < e->np; p++) first[p + 1] = first[p] + e->count[p];
    const int nv = first[e->np], nblocks = (nv + BLOCK - 1) / BLOCK;
    double total = 0;
    #pragma omp parallel
    {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        double u[BLOCK];
        Stencil sc = { .cell = -1 };
        #pragma omp for ordered schedule(static, 1)
        for (int b = 0; b < nblocks; b++) {
            int m0 = b * BLOCK, m1 = m0 + BLOCK < nv ? m0 + BLOCK : nv, lo = 0, hi = e->np;
            while (lo < hi) { int mid = lo + (hi - lo) / 2; if (first[mid + 1] <= m0) lo = mid + 1; else hi = mid; }   /* (the polygon of vertex m0) */
            for (int m = m0, p = lo; m < m1; m++) {
                while (m >= first[p + 1]) p++;
                int i = e->start[p] + (m - first[p]), wrap, nn = grid_near(c, e, P, i, tid, WANT_ENERGY, -1, NULL, &sc, &wrap);
                u[m - m0] = vertex_forces(c, e, P, NULL, NULL, tid, 1, i, e->rigid[p], nn, wrap, 0);
            }
            #pragma omp ordered
            for (int m = m0; m < m1; m++) total += u[m - m0];
        }
    }
    free(first);
    return total;
}

double contact_energy(Contact *c, const Ensemble *e, const Params *P, double lmax)
{
    frame_grid(c, e, P, lmax);
    double u = grid_energy(c, e, P);
    frame_grid_done(c);
    return u;
}

/* Whether the list can still serve once patched (see contact.h): built for this reach, and no
 * vertex has left the band of its strip. */
static int list_fresh(const Contact *c, const Params *P)
{
    return c->list_ok && c->list_reach == params_reach(P) && c->list_h == P->h &&
           c->moved < (2 * c->list_cs - c->list_reach - c->list_lcell) * (1 - 1e-9);
}

/* Whether the list holds every pair of the current state as it is. */
static int list_usable(const Contact *c, const Ensemble *e, const Params *P)
{
    return list_fresh(c, P) && c->list_layout == e->layout && c->wander_max + c->lazy < 0.5 * c->list_skin * (1 - 1e-9);
}

/* The pairs of every strip from the list. */
static void from_list(Contact *c, const Ensemble *e, const Params *P, double *efx, double *efy, int what)
{
    contact_reserve_threads(c, what);
    each_strip(c, e, P, efx, efy, c->nstrips, 1, what, 0);
}

void contact_forces_step(Contact *c, Ensemble *e, const Params *P, double lmax)
{
    const double reach = params_reach(P), skin = SKIN * reach;
    if (list_usable(c, e, P)) {
        from_list(c, e, P, e->fx, e->fy, WANT_FORCES);
        c->reuses++;
        return;
    }
    /* a patch's stencil needs cells of at least lmax / 2 + reach + skin (see from_grid) */
    /* When only motion calls for a patch, the polygons past half their budget are refreshed with
     * those past all of it: in a packing where all move alike, that is nearly all of them at once
     * (a rebuild), not a patch every step. When that would be too many but no such patch came in
     * the last 8 steps, only those past their budget: a few fast polygons in a calm tissue. */
    int motion = c->list_layout == e->layout, r = -1;
    if (list_fresh(c, P) && lmax <= c->list_lcell) {
        r = contact_patch(c, e, P, motion ? 0.5 : 1);
        if (r && motion && e->step - c->motion_patch >= 8) r = contact_patch(c, e, P, 1);
    }
    if (r == 0) {
        if (motion) c->motion_patch = e->step;
        c->list_layout = e->layout;
        from_list(c, e, P, e->fx, e->fy, WANT_FORCES);
        c->patches++;
        return;
    }
    /* cells for edges up to the longest that remodeling allows, when that costs little, so that
     * patches can go on when an edge grows */
    double lcell = fmax(lmax, fmin(P->lmax, lmax + skin));
    const Grid *g = &c->grid;
    contact_trim(c);
    from_grid(c, e, P, e->fx, e->fy, lcell, skin, WANT_FORCES, NULL, 1);
    c->list_ok = 1;
    c->list_layout = e->layout;
    c->list_skin = skin;
    c->list_reach = reach;
    c->list_h = P->h;
    c->list_extent = fmax(fmax(fabs(g->x0), fabs(g->y0)), fmax(fabs(g->x0 + g->wnx * g->wcs), fabs(g->y0 + g->wny * g->wcs)));
    c->list_x0 = g->x0; c->list_y0 = g->y0; c->list_cs = g->wcs; c->list_inv = 1 / g->wcs; c->list_nx = g->wnx; c->list_ny = g->wny;
    c->list_lcell = lcell;
    c->moved = c->wander_max = c->lazy = 0;
    c->flow_helps = 1;
    PH_RESERVE(c->wander, c->wander_cap, e->np);
    for (int p = 0; p < e->np; p++) c->wander[p] = 0;
    c->builds++;
    contact_take_snapshot(c, e);
    /* a strip keeps the room of its largest list, which a tissue's first, not yet relaxed, makes
     * 40 % larger than its later ones: in a large ensemble, an eighth more than this one's */
    for (int s = 0; s < c->nstrips && e->nv_used >= GRID_LARGE; s++) {
        struct ContactStrip *st = &c->strip[s];
        if (st->cap > st->n + st->n / 4 + 1024) strip_resize(st, st->n + st->n / 8 + 64, st->n);
    }
    grid_release(&c->grid, 1);   /* (about 20 bytes per vertex, unneeded while the list serves; and the strips' room) */
}

static int cmp_pair(const void *a, const void *b)
{
    const int *u = a, *v = b;
    return u[0] != v[0] ? (u[0] > v[0]) - (u[0] < v[0]) : (u[1] > v[1]) - (u[1] < v[1]);
}

void contact_count_neighbors(Contact *c, const Ensemble *e, const Params *P, double lmax, int *nb)
{
    contact_count_neighbor_types(c, e, P, lmax, nb, NULL);
}

/* The neighbour counts from the (polygon of a vertex, polygon of an edge it interacts with)
 * pairs in the threads' nb: each pair counted both ways, since both polygons are in contact
 * (a cell pressing on a rigid wall's long edges is the wall's neighbour too), once per
 * polygon; sorted, so the count is the same whoever found which. The threads' nb are freed. */
static void count_pairs(Contact *c, const Ensemble *e, int *nb, int *same)
{
    size_t n = 0;
    for (int t = 0; t < c->nthreads; t++) n += (size_t)c->work[t].nb_n / 2;
    int (*all)[2] = ph_realloc(NULL, (2 * n + 1) * sizeof *all);
    n = 0;
    for (int t = 0; t < c->nthreads; t++) {
        struct ContactWork *w = &c->work[t];
        if (w->nb_n) memcpy(all + n, w->nb, (size_t)w->nb_n * sizeof *w->nb);   /* (memcpy of NULL is undefined, even for 0 bytes) */
        n += (size_t)w->nb_n / 2;
        free(w->nb);
        w->nb = NULL;
        w->nb_n = w->nb_cap = 0;
    }
    for (size_t k = 0; k < n; k++) all[n + k][0] = all[k][1], all[n + k][1] = all[k][0];
    n *= 2;
    qsort(all, n, sizeof *all, cmp_pair);
    for (int p = 0; p < e->np; p++) nb[p] = 0;
    for (int p = 0; same && p < e->np; p++) same[p] = 0;
    for (size_t k = 0; k < n; k++)
        if (k == 0 || all[k][0] != all[k - 1][0] || all[k][1] != all[k - 1][1]) {
            nb[all[k][0]]++;
            if (same && e->type[all[k][0]] == e->type[all[k][1]]) same[all[k][0]]++;
        }
    free(all);
}

/* The neighbour pairs on the grid of frame_grid (contact_count_neighbor_types without a usable
 * list): polygon by polygon, the other polygons its vertices interact with, each once (a few
 * pairs per polygon, not per vertex), into the threads' nb. */
static void grid_pairs(Contact *c, const Ensemble *e, const Params *P)
{
    contact_reserve_threads(c, WANT_NEIGHBORS);
    #pragma omp parallel
    {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        struct ContactWork *wk = &c->work[tid];
        Stencil sc = { .cell = -1 };
        wk->nb_n = 0;
        #pragma omp for schedule(dynamic, 16)
        for (int p = 0; p < e->np; p++) {
            int from = wk->nb_n;   /* (p's pairs: sorted, then each kept once) */
            for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
                int wrap, nn = grid_near(c, e, P, i, tid, WANT_NEIGHBORS, -1, NULL, &sc, &wrap);
                vertex_neighbors(c, e, P, tid, i, nn, wrap);
            }
            int n = (wk->nb_n - from) / 2, (*pq)[2] = (int (*)[2])(wk->nb + from), kept = 0;
            if (n > 1) qsort(pq, (size_t)n, sizeof *pq, cmp_pair);   /* (qsort of NULL is undefined, even for 0) */
            for (int k = 0; k < n; k++)
                if (k == 0 || pq[k][1] != pq[k - 1][1] || pq[k][0] != pq[k - 1][0])
                    pq[kept][0] = pq[k][0], pq[kept][1] = pq[k][1], kept++;
            wk->nb_n = from + 2 * kept;
        }
    }
}

void contact_count_neighbor_types(Contact *c, const Ensemble *e, const Params *P, double lmax, int *nb, int *same)
{
    if (list_usable(c, e, P)) from_list(c, e, P, NULL, NULL, WANT_NEIGHBORS);
    else {
        frame_grid(c, e, P, lmax);
        grid_pairs(c, e, P);
        frame_grid_done(c);
    }
    count_pairs(c, e, nb, same);
}

static int cmp_length(const void *a, const void *b)
{
    const ContactLength *u = a, *v = b;
    return u->p != v->p ? (u->p > v->p) - (u->p < v->p) : (u->q > v->q) - (u->q < v->q);
}

int contact_lengths(Contact *c, const Ensemble *e, const Params *P, double lmax,
                    ContactLength **pq)
{
    c->nb_vertex = 1;   /* ((vertex, polygon) pairs) */
    if (list_usable(c, e, P)) from_list(c, e, P, NULL, NULL, WANT_NEIGHBORS);
    else {
        frame_grid(c, e, P, lmax);
        grid_pairs(c, e, P);
        frame_grid_done(c);
    }
    c->nb_vertex = 0;
    /* the other polygons of each vertex slot, bucketed by slot (a counting sort): at[i] .. */
    const size_t ns = (size_t)e->nv_used;
    int *at = ph_realloc(NULL, (ns + 1) * sizeof *at), *q = NULL;
    for (size_t i = 0; i <= ns; i++) at[i] = 0;
    size_t n = 0;
    for (int t = 0; t < c->nthreads; t++) {
        const struct ContactWork *w = &c->work[t];
        for (int k = 0; k + 1 < w->nb_n; k += 2) at[w->nb[k] + 1]++;
        n += (size_t)w->nb_n / 2;
    }
    for (size_t i = 0; i < ns; i++) at[i + 1] += at[i];
    q = ph_realloc(NULL, (n + 1) * sizeof *q);
    for (int t = 0; t < c->nthreads; t++) {
        struct ContactWork *w = &c->work[t];
        for (int k = 0; k + 1 < w->nb_n; k += 2) q[at[w->nb[k]]++] = w->nb[k + 1];
        free(w->nb);
        w->nb = NULL;
        w->nb_n = w->nb_cap = 0;
    }
    for (size_t i = ns; i > 0; i--) at[i] = at[i - 1];   /* (back to the buckets' starts) */
    at[0] = 0;
    /* polygon by polygon, vertex by vertex in slot order: half of each vertex's two edges to
     * L(p -> q) for each other polygon q it meets (once each), so the sums have one order */
    ContactLength *out = ph_realloc(*pq, (2 * n + 1) * sizeof *out);
    size_t m = 0;
    for (int p = 0; p < e->np; p++) {
        const size_t from = m;
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            if (at[i] == at[i + 1]) continue;
            int a = ens_prev(e, i), b = ens_next(e, i);
            double ax = e->x[i] - e->x[a], ay = e->y[i] - e->y[a], bx = e->x[b] - e->x[i],
                   by = e->y[b] - e->y[i], share = 0.5 * (sqrt(ax * ax + ay * ay) + sqrt(bx * bx + by * by));
            for (int k = at[i]; k < at[i + 1]; k++) {
                int dup = 0;
                for (int j = at[i]; j < k && !dup; j++) dup = q[j] == q[k];
                if (dup) continue;
                size_t u = from;
                while (u < m && out[u].q != q[k]) u++;
                if (u == m) out[m++] = (ContactLength){ p, q[k], 0 };
                out[u].len += share;
            }
        }
    }
    free(at);
    free(q);
    /* each pair both ways, half of either's length; by p (a counting sort), then by q within
     * (a few each), the two halves summed (a + b = b + a: one result whichever comes first) */
    size_t one = m;
    ContactLength *both = ph_realloc(NULL, (2 * one + 1) * sizeof *both);
    int *start = ph_realloc(NULL, ((size_t)e->np + 1) * sizeof *start);
    for (int p = 0; p <= e->np; p++) start[p] = 0;
    for (size_t k = 0; k < one; k++) start[out[k].p + 1]++, start[out[k].q + 1]++;
    for (int p = 0; p < e->np; p++) start[p + 1] += start[p];
    for (size_t k = 0; k < one; k++) {
        const double half = 0.5 * out[k].len;
        both[start[out[k].p]++] = (ContactLength){ out[k].p, out[k].q, half };
        both[start[out[k].q]++] = (ContactLength){ out[k].q, out[k].p, half };
    }
    free(start);
    m = 2 * one;
    for (size_t k = 1; k < m; k++) {   /* (insertion sort: in order between polygons already) */
        ContactLength x = both[k];
        size_t j = k;
        for (; j > 0 && cmp_length(&both[j - 1], &x) > 0; j--) both[j] = both[j - 1];
        both[j] = x;
    }
    memcpy(out, both, m * sizeof *out);
    free(both);
    size_t u = 0;
    for (size_t k = 0; k < m; k++) {
        if (u && out[u - 1].p == out[k].p && out[u - 1].q == out[k].q) out[u - 1].len += out[k].len;
        else out[u++] = out[k];
    }
    *pq = out;
    return (int)u;
}

double contact_frame(Contact *c, const Ensemble *e, const Params *P, double lmax, int *nb, int *same)
{
    frame_grid(c, e, P, lmax);
    double u = grid_energy(c, e, P);
    grid_pairs(c, e, P);
    frame_grid_done(c);
    count_pairs(c, e, nb, same);
    return u;
}

void contact_keep_records(Contact *c, int on) { c->keep_records = on; }

int contact_record_parts(const Contact *c) { return c->nthreads; }

const PairRec *contact_records(const Contact *c, int part, int *n)
{
    *n = c->work[part].rec_n;
    return c->work[part].rec;
}

void contact_counts(const Contact *c, int64_t *builds, int64_t *patches, int64_t *reuses)
{
    *builds = c->builds; *patches = c->patches; *reuses = c->reuses;
}

int64_t contact_walked(const Contact *c)
{
    int64_t n = 0;
    for (int t = 0; t < c->nthreads; t++) n += c->work[t].walked;
    return n;
}

int contact_holds_grid(const Contact *c) { return grid_allocated(&c->grid); }

