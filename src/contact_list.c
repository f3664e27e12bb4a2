/* The neighbour list's lifetime (see contact.h): the work space of the threads and the strips,
 * the motion budgets after each step, the patch that renumbers the list and gives new records to
 * the vertices around changed polygons, and the list's section of a checkpoint. The walks over
 * the grid or the list are in contact.c, which calls this file; this file calls nothing there. */
#include "contact_impl.h"
#include "bands.h"
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdarg.h>

void contact_reserve_strips(Contact *c, int n)
{
    if (n <= c->strips_cap) return;
    c->strip = ph_realloc(c->strip, (size_t)n * sizeof *c->strip);
    c->strip_id = ph_realloc(c->strip_id, (size_t)n * sizeof *c->strip_id);
    memset(c->strip + c->strips_cap, 0, (size_t)(n - c->strips_cap) * sizeof *c->strip);
    c->strips_cap = n;
}

void contact_reserve_threads(Contact *c, int what)
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

void contact_invalidate(Contact *c) { c->list_ok = 0; }

void contact_trim(Contact *c)
{
    struct ContactSnap *sn = c->snap;
    if (sn->nv < GRID_LARGE) return;   /* (small: allocating anew costs more than the memory is worth) */
    free(sn->smap); free(sn->changed); free(sn->mark); free(sn->hkey); free(sn->hval); free(sn->marked); free(sn->coarse); free(sn->dirty);
    free(sn->dv); free(sn->dv_at); free(sn->sel);
    sn->smap = sn->changed = sn->dv_at = NULL; sn->mark = sn->hval = sn->coarse = sn->dirty = NULL; sn->hkey = sn->marked = NULL; sn->dv = sn->sel = NULL;
    sn->smap_cap = sn->changed_cap = sn->mark_cap = sn->hcap = sn->marked_cap = sn->coarse_cap = sn->dirty_cap = sn->dv_cap = sn->dv_at_cap = sn->sel_cap = 0;
    for (int t = 0; t < c->nthreads; t++) {
        struct ContactWork *w = &c->work[t];
        free(w->dv); free(w->sel);
        w->dv = w->sel = NULL;
        w->dv_n = w->dv_cap = w->sel_n = w->sel_cap = 0;
    }
#ifdef __GLIBC__
    malloc_trim(0);   /* (the pieces below the mapping threshold are in the heap) */
#endif
}

/* Room for a snapshot of np polygons. */
static void snap_reserve(struct ContactSnap *sn, int np)
{
    if (np <= sn->cap) return;
    sn->cap = np + np / 2 + 16;
    sn->id = ph_realloc(sn->id, (size_t)sn->cap * sizeof *sn->id);
    sn->start = ph_realloc(sn->start, (size_t)sn->cap * sizeof *sn->start);
    sn->count = ph_realloc(sn->count, (size_t)sn->cap * sizeof *sn->count);
    sn->edits = ph_realloc(sn->edits, (size_t)sn->cap * sizeof *sn->edits);
    sn->newstart = ph_realloc(sn->newstart, (size_t)sn->cap * sizeof *sn->newstart);
}

void contact_take_snapshot(Contact *c, const Ensemble *e)
{
    struct ContactSnap *sn = c->snap;
    snap_reserve(sn, e->np);
    sn->np = e->np; sn->nv = e->nv_used; sn->next_id = e->next_id;
    if (!e->np) return;   /* (memcpy from NULL is undefined, even for 0 bytes) */
    memcpy(sn->id, e->id, (size_t)e->np * sizeof *sn->id);
    memcpy(sn->start, e->start, (size_t)e->np * sizeof *sn->start);
    memcpy(sn->count, e->count, (size_t)e->np * sizeof *sn->count);
    memcpy(sn->edits, e->edits, (size_t)e->np * sizeof *sn->edits);
}

/* contact_moved for this thread's band of polygons: their budgets, the largest into *wmax, the
 * polygons slower than vmax / 2 relative to the flow counted in *slow. */
static void wander_band(Contact *c, const Ensemble *e, double dt, double vmax, double ulp, double spread, double *wmax, int *slow)
{
    struct ContactSnap *sn = c->snap;
    const double *f = c->flow;
    double wtop = *wmax;   /* (in registers: the pointers might alias the arrays) */
    int nslow = 0;
    int m0, m1;
    const int *order = bands_mine(e, &m0, &m1);
    for (int m = m0; m < m1; m++) {
        int p = order ? order[m] : m;
        double w2 = 0, sx = 0, sy = 0, su = 0, sv = 0;
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            double x = e->x[i], y = e->y[i], ux = e->vx[i] - (f[0] + f[2] * x + f[3] * y), uy = e->vy[i] - (f[1] + f[4] * x + f[5] * y);
            double u2 = ux * ux + uy * uy;
            w2 = u2 > w2 ? u2 : w2;
            sx += x; sy += y; su += e->vx[i]; sv += e->vy[i];
        }
        double n = e->count[p];
        sn->mean[4 * p] = sx / n; sn->mean[4 * p + 1] = sy / n; sn->mean[4 * p + 2] = su / n; sn->mean[4 * p + 3] = sv / n;
        double w = sqrt(w2) + spread;
        c->wander[p] += c->lazy + (dt * w + 2 * ulp);
        nslow += w < 0.5 * vmax;
        wtop = c->wander[p] > wtop ? c->wander[p] : wtop;
    }
    *wmax = wtop;
    *slow += nslow;
}

void contact_moved(Contact *c, const Ensemble *e, double dt, double vmax)
{
    if (!c->list_ok) return;
    if (c->list_layout != e->layout) { contact_invalidate(c); return; }   /* (its wander is per polygon of the list's layout) */
    struct ContactSnap *sn = c->snap;
    /* the rounding of a position update: half an ulp of the largest coordinate */
    double ulp = ldexp(c->list_extent + c->moved + dt * vmax, -53);
    c->moved += dt * vmax + ulp;
    /* far from the budgets, or where the flow did not help most polygons at the last look (they
     * all move alike, as in a vibrating packing), the bound without a flow (|v| <= vmax) for all
     * polygons at once */
    double inc = dt * vmax + 2 * ulp;
    if (!c->flow_helps || c->wander_max + c->lazy + inc < 0.125 * c->list_skin) { c->lazy += inc; return; }
    /* each polygon's speed relative to the flow u(x) = a + B x, and its centroid and mean
     * velocity for the next fit (each polygon in vertex order: the same at any thread count) */
    const double *f = c->flow, spread = 0.5 * (c->list_reach + c->list_skin) *
        sqrt(f[2] * f[2] + f[3] * f[3] + f[4] * f[4] + f[5] * f[5]);   /* |B| (R + skin) / 2 (Frobenius >= spectral norm) */
    PH_RESERVE(sn->mean, sn->mean_cap, 4 * e->np);
    double wmax = 0;
    int slow = 0;   /* polygons that moved less than half vmax relative to the flow (an exact count) */
    if (bands_serial()) wander_band(c, e, dt, vmax, ulp, spread, &wmax, &slow);
    else {
        #pragma omp parallel reduction(max : wmax) reduction(+ : slow)
        wander_band(c, e, dt, vmax, ulp, spread, &wmax, &slow);
    }
    c->wander_max = wmax;
    c->lazy = 0;
    c->flow_helps = 2 * slow > e->np;
    /* the next flow: least squares of the polygons' mean velocities, weighted by vertex count */
    double W = 0, X = 0, Y = 0, U = 0, V = 0, cxx = 0, cxy = 0, cyy = 0, cux = 0, cuy = 0, cvx = 0, cvy = 0;
    for (int p = 0; p < e->np; p++) {
        double n = e->count[p], *m = sn->mean + 4 * p;
        W += n; X += n * m[0]; Y += n * m[1]; U += n * m[2]; V += n * m[3];
    }
    if (W == 0) return;
    X /= W; Y /= W; U /= W; V /= W;
    for (int p = 0; p < e->np; p++) {
        double n = e->count[p], *m = sn->mean + 4 * p, dx = m[0] - X, dy = m[1] - Y, du = m[2] - U, dv = m[3] - V;
        cxx += n * dx * dx; cxy += n * dx * dy; cyy += n * dy * dy;
        cux += n * du * dx; cuy += n * du * dy; cvx += n * dv * dx; cvy += n * dv * dy;
    }
    double det = cxx * cyy - cxy * cxy, B[4] = { 0, 0, 0, 0 };
    if (det > 1e-12 * (cxx * cyy) && det > 0) {
        B[0] = (cux * cyy - cuy * cxy) / det; B[1] = (cuy * cxx - cux * cxy) / det;
        B[2] = (cvx * cyy - cvy * cxy) / det; B[3] = (cvy * cxx - cvx * cxy) / det;
    }
    double g[6] = { U - B[0] * X - B[1] * Y, V - B[2] * X - B[3] * Y, B[0], B[1], B[2], B[3] };
    for (int k = 0; k < 6; k++) c->flow[k] = isfinite(g[k]) ? g[k] : 0;
}

/* A Sel's packed midpoint (rx, ry from its cell's corner) and half length r: steps of 5 cs / 2048
 * from -2 cs, and of lcell / 2046 (new_records reads them). */
static inline uint32_t sel_pack(const Contact *c, double rx, double ry, double r)
{
    const double q = 5 * c->list_cs / 2048, qr = c->list_lcell / 2046;
    const double fx = floor((rx + 2 * c->list_cs) / q), fy = floor((ry + 2 * c->list_cs) / q), fr = ceil(r / qr);
    uint32_t ux = fx > 0 ? (fx < 2047 ? (uint32_t)fx : 2047) : 0, uy = fy > 0 ? (fy < 2047 ? (uint32_t)fy : 2047) : 0;
    return ux | uy << 11 | (fr > 0 ? (fr < 1023 ? (uint32_t)fr : 1023) : 0) << 22;
}

/* The first of the sorted edges sel[from .. n) in a cell >= cell, for a cell at or after the one
 * whose first edge is sel[from]: galloping from there, since successive calls look a little
 * further each time. */
static int sel_lower(const Sel *sel, int from, int n, int64_t cell)
{
    int lo = from, step = 1;
    while (lo + step < n && sel[lo + step].cell < cell) { lo += step; step *= 2; }
    int hi = lo + step < n ? lo + step : n;
    while (lo < hi) { int m = (lo + hi) / 2; if (sel[m].cell < cell) lo = m + 1; else hi = m; }
    return lo;
}

/* Appends to strip st new records for the vertices dv[0 .. ndv) (sorted by cell): for each, the
 * edges among the sorted sel[0 .. nsel) within the reach plus the skin (h plus the skin within
 * its own polygon), as strip_forces keeps them. */
static void new_records(const Contact *c, const Ensemble *e, const Params *P, struct ContactStrip *st,
                        const Sel *dv, int ndv, const Sel *sel, int nsel)
{
    const double reach = params_reach(P), skin = c->list_skin, list2[2] = { (reach + skin) * (reach + skin), (P->h + skin) * (P->h + skin) };
    const double cs = c->list_cs;
    /* (coordinates from a cell's corner, up to a few cells, a vertex that left the grid's box up
     * to `moved` beyond its clamped cell; the corners rounded far from the origin) */
    const float margin = (float)(1e-5 * cs + 64 * ldexp(8 * cs + c->moved, -24) + ldexp(c->list_extent + c->moved + 8 * cs, -46) +
                                 5 * cs / 2048);   /* (+ a step of the packed midpoints: sel_pack) */
    const float qs = (float)(5 * cs / 2048), qr = (float)(c->list_lcell / 2046), x2 = (float)(2 * cs) - 0.5f * qs;   /* (a step's centre) */
    const float lim0[2] = { (float)(reach + skin) + margin, (float)(P->h + skin) + margin };
    const int64_t nx = c->list_nx;
    int from[3] = { 0 }, to[3] = { 0 }, at[3] = { 0 }, cx = 0, row = 0;   /* (at: where row r's search starts) */
    int64_t cell = -1;
    for (int d = 0; d < ndv; d++) {
        int i = dv[d].k;
        if (dv[d].cell != cell) {   /* a new cell: the ranges of its stencil's rows */
            cell = dv[d].cell;
            row = (int)(cell / nx); cx = (int)(cell - row * nx);
            int x0 = cx > 0 ? cx - 1 : 0, x1 = cx + 1 < nx ? cx + 1 : cx;
            for (int r = 0; r < 3; r++) {
                int64_t y = row - 1 + r;
                from[r] = to[r] = 0;
                if (y < 0 || y >= c->list_ny) continue;
                from[r] = at[r] = sel_lower(sel, at[r], nsel, y * nx + x0);
                to[r] = sel_lower(sel, from[r], nsel, y * nx + x1 + 1);
            }
        }
        int p = e->pid[i], rigid = e->rigid[p], s0 = e->start[p], n0 = e->count[p], iprev = ens_prev(e, i);
        double px = e->x[i], py = e->y[i], ox = px - c->list_x0 - cx * cs, oy = py - c->list_y0 - row * cs;
        const float fx[3] = { (float)(ox + cs), (float)ox, (float)(ox - cs) };   /* (from the corner of column cx - 1, cx, cx + 1) */
        size_t at = st->n, nl = 0;
        for (int r = 0; r < 3; r++) {
            const int64_t base = (int64_t)(row - 1 + r) * nx + cx - 1;   /* (the key of column cx - 1 in row r) */
            const float fy = (float)(oy - (r - 1) * cs);
            for (int a = from[r]; a < to[r]; a++) {
                const Sel *q = &sel[a];
                int k = q->k, same = (unsigned)(k - s0) < (unsigned)n0;
                const uint32_t v = q->xyr;
                float dx = fx[q->cell - base] - ((float)(v & 2047) * qs - x2), dy = fy - ((float)(v >> 11 & 2047) * qs - x2);
                float lim = (float)(v >> 22) * qr + lim0[same];
                if (dx * dx + dy * dy >= lim * lim || k == i || k == iprev || (!same && rigid && e->rigid[e->pid[k]])) continue;
                double w, gx, gy;
                int k1 = ens_next(e, k);
                if (project(e, px, py, k, k1, &w, &gx, &gy) >= list2[same]) continue;
                strip_reserve(st, at + nl + 1, at + nl);
                st->i[at + nl] = i;
                st->k[at + nl++] = edge_code(k, same | (k1 < k));
            }
        }
        if (nl) { st->n = at + nl; record_sort(st->k + at, (int)nl); }
    }
}

/* Takes the budgets the snapshot's work space holds (per polygon of the list's new snapshot,
 * np of them) as the list's own, and their largest. */
static void adopt_wander(Contact *c, int np)
{
    struct ContactSnap *sn = c->snap;
    double *swap = c->wander; c->wander = sn->wander; sn->wander = swap;
    int cap = c->wander_cap; c->wander_cap = sn->wander_cap; sn->wander_cap = cap;
    c->wander_max = 0;
    for (int p = 0; p < np; p++) c->wander_max = fmax(c->wander_max, c->wander[p]);
}

/* The marks of the cells: a byte per cell of the build's grid where the grid has few cells (as
 * many as 16 per vertex), else a hash table (open addressing, Fibonacci hashing) of the marked
 * cells only, so that their memory and time follow the marked cells, not the grid's extent. */
static inline size_t mark_home(int64_t cell, int hcap) { return (size_t)(((uint64_t)cell * 0x9E3779B97F4A7C15ull) >> 32) & (size_t)(hcap - 1); }

/* The mark of a cell (0: none). */
static inline int mark_get(const struct ContactSnap *sn, int64_t cell)
{
    if (!sn->sparse) return sn->mark[cell];
    if (!sn->hcap) return 0;   /* (nothing marked) */
    for (size_t h = mark_home(cell, sn->hcap);; h = (h + 1) & (size_t)(sn->hcap - 1))
        if (sn->hkey[h] == cell || sn->hkey[h] < 0) return sn->hkey[h] < 0 ? 0 : sn->hval[h];
}

/* Raises the mark of a cell to level. */
static void mark_raise(struct ContactSnap *sn, int64_t cell, int level)
{
    if (!sn->sparse) {
        if (!sn->mark[cell]) { PH_RESERVE(sn->marked, sn->marked_cap, sn->marked_n + 1); sn->marked[sn->marked_n++] = cell; }
        if (level > sn->mark[cell]) sn->mark[cell] = (unsigned char)level;
        return;
    }
    if (2 * ((int64_t)sn->marked_n + 1) > sn->hcap) {   /* (at most half full: twice as large, the marks moved over) */
        int old = sn->hcap, cap = old ? 2 * old : 1024;
        int64_t *key = sn->hkey;
        unsigned char *val = sn->hval;
        sn->hkey = ph_realloc(NULL, (size_t)cap * sizeof *sn->hkey);
        sn->hval = ph_realloc(NULL, (size_t)cap);
        sn->hcap = cap;
        for (int h = 0; h < cap; h++) sn->hkey[h] = -1;
        for (int h = 0; h < old; h++)
            if (key[h] >= 0) {
                size_t at = mark_home(key[h], cap);
                while (sn->hkey[at] >= 0) at = (at + 1) & (size_t)(cap - 1);
                sn->hkey[at] = key[h]; sn->hval[at] = val[h];
            }
        free(key); free(val);
    }
    size_t h = mark_home(cell, sn->hcap);
    while (sn->hkey[h] >= 0 && sn->hkey[h] != cell) h = (h + 1) & (size_t)(sn->hcap - 1);
    if (sn->hkey[h] < 0) {
        sn->hkey[h] = cell; sn->hval[h] = 0;
        PH_RESERVE(sn->marked, sn->marked_cap, sn->marked_n + 1);
        sn->marked[sn->marked_n++] = cell;
    }
    if (level > sn->hval[h]) sn->hval[h] = (unsigned char)level;
}

static void clear_marks(struct ContactSnap *sn)
{
    if (sn->sparse) {   /* (the whole table; one much larger than this patch needed is given back) */
        if (sn->hcap > 8 * sn->marked_n + 4096) { free(sn->hkey); free(sn->hval); sn->hkey = NULL; sn->hval = NULL; sn->hcap = 0; }
        for (int h = 0; h < sn->hcap; h++) sn->hkey[h] = -1;
    } else {
        for (int k = 0; k < sn->marked_n; k++) sn->mark[sn->marked[k]] = 0;
        if (sn->coarse_cap) memset(sn->coarse, 0, (size_t)sn->coarse_cap);
    }
    sn->marked_n = 0;
}

/* Marks the cells within r of the bounding box of polygon p (level 3: their vertices get new
 * records), the cells next to them (2: the candidate edges' midpoints lie there) and the cells
 * next to those (1: the candidate edges' first ends lie there, an edge being shorter than a cell).
 * Returns the cells it visited. */
static int64_t mark_around(Contact *c, const Ensemble *e, int p, double r)
{
    struct ContactSnap *sn = c->snap;
    double xmin, ymin, xmax, ymax;
    ensemble_polygon_box(e, p, &xmin, &ymin, &xmax, &ymax);
    int r0, r1, c0, c1;
    list_cell(c, xmin - r, ymin - r, &c0, &r0);
    list_cell(c, xmax + r, ymax + r, &c1, &r1);
    int64_t visited = 0;
    if (!sn->sparse) {   /* (the blocks of the marked cells) */
        int xa = c0 > 1 ? c0 - 2 : 0, xb = c1 + 2 < c->list_nx ? c1 + 2 : c->list_nx - 1;
        int ya = r0 > 1 ? r0 - 2 : 0, yb = r1 + 2 < c->list_ny ? r1 + 2 : c->list_ny - 1;
        for (int by = ya >> 2; by <= yb >> 2; by++)
            for (int bx = xa >> 2; bx <= xb >> 2; bx++) sn->coarse[(size_t)by * sn->coarse_nx + bx] = 1;
    }
    for (int y = r0 > 1 ? r0 - 2 : 0; y <= r1 + 2 && y < c->list_ny; y++)
        for (int x = c0 > 1 ? c0 - 2 : 0; x <= c1 + 2 && x < c->list_nx; x++, visited++) {
            int dy = y < r0 ? r0 - y : y > r1 ? y - r1 : 0, dx = x < c0 ? c0 - x : x > c1 ? x - c1 : 0;
            mark_raise(sn, (int64_t)y * c->list_nx + x, 3 - (dx > dy ? dx : dy));
        }
    return visited;
}

/* Sorts a[0 .. n) by cell, keeping the order of equal cells (LSD radix sort, 11 bits a pass,
 * through b); cells are below ncell. */
static void sort_by_cell(Sel *a, Sel *b, int n, int64_t ncell)
{
    Sel *from = a, *to = b;
    for (int shift = 0; shift == 0 || (shift < 63 && (ncell - 1) >> shift); shift += 11) {
        int count[2049] = { 0 };
        for (int k = 0; k < n; k++) count[((from[k].cell >> shift) & 2047) + 1]++;
        for (int d = 0; d < 2048; d++) count[d + 1] += count[d];
        for (int k = 0; k < n; k++) to[count[(from[k].cell >> shift) & 2047]++] = from[k];
        Sel *swap = from; from = to; to = swap;
    }
    if (from != a) memcpy(a, from, (size_t)n * sizeof *a);
}

/* Patch step 1: the snapshot's polygons now. The polygons that keep their id keep their order,
 * and those made since have ids >= next_id; unchanged = same id, vertex count and edits. A
 * polygon that is new, changed, or has moved (most of) its budget, `refresh` of it, is listed in
 * sn->changed to get new records around it. Returns how many; *nv: all vertices, *nvchanged:
 * theirs. */
static int match_polygons(Contact *c, const Ensemble *e, double refresh, long *nv, long *nvchanged)
{
    struct ContactSnap *sn = c->snap;
    PH_RESERVE(sn->changed, sn->changed_cap, e->np);
    PH_RESERVE(sn->wander, sn->wander_cap, e->np);
    int o = 0, nchanged = 0;
    *nv = *nvchanged = 0;
    const double budget = 0.5 * c->list_skin * (1 - 1e-9), renew = refresh * budget;
    for (int p = 0; p < e->np; p++) {
        int m = -1;
        if (e->id[p] < sn->next_id) {
            while (o < sn->np && sn->id[o] != e->id[p]) sn->newstart[o++] = -1;
            if (o < sn->np) m = o++;
        }
        int same = m >= 0 && sn->count[m] == e->count[p] && sn->edits[m] == e->edits[p];
        *nv += e->count[p];
        if (m >= 0) sn->newstart[m] = same ? e->start[p] : -1;
        sn->wander[p] = same ? c->wander[m] + c->lazy : 0;
        if (!same || sn->wander[p] >= renew) {
            sn->wander[p] = 0;
            sn->changed[nchanged++] = p;
            *nvchanged += e->count[p];
        }
    }
    while (o < sn->np) sn->newstart[o++] = -1;
    return nchanged;
}

/* Patch step 2: the cells around the changed polygons (mark_around), of a grid with nv vertices.
 * Returns 0, or -1 when the marks of a sparse grid (one with more than 16 cells per vertex) would
 * visit more cells than that (polygons with large boxes of empty cells): a rebuild costs less
 * then. (A grid with fewer cells has its bytes: its marks cost at most its cells, as before.) */
static int mark_cells(Contact *c, const Ensemble *e, int nchanged, double r, long nv)
{
    struct ContactSnap *sn = c->snap;
    const int64_t ncell = (int64_t)c->list_nx * c->list_ny, most = 16 * (int64_t)nv + 1024;
    sn->sparse = ncell > most;
    if (!sn->sparse && ncell > sn->mark_cap) {
        sn->mark = ph_realloc(sn->mark, (size_t)ncell);
        memset(sn->mark + sn->mark_cap, 0, (size_t)(ncell - sn->mark_cap));
        sn->mark_cap = (int)ncell;
    }
    if (!sn->sparse) {   /* (blocks of 4 x 4 cells, all 0 between patches) */
        int bn = ((c->list_nx + 3) >> 2) * ((c->list_ny + 3) >> 2);
        sn->coarse_nx = (c->list_nx + 3) >> 2;
        if (bn > sn->coarse_cap) {
            sn->coarse = ph_realloc(sn->coarse, (size_t)bn);
            memset(sn->coarse + sn->coarse_cap, 0, (size_t)(bn - sn->coarse_cap));
            sn->coarse_cap = bn;
        }
    }
    int64_t visited = 0;
    for (int k = 0; k < nchanged && visited <= most; k++) visited += mark_around(c, e, sn->changed[k], r);
    if (sn->sparse && visited > most) { clear_marks(sn); return -1; }
    return 0;
}

/* Whether a block (mark_around) holds a cell of the box of polygon p's vertices: else none of
 * its vertices, nor its edges' midpoints, lie in a marked cell. */
static int coarse_marked(const Contact *c, const Ensemble *e, int p)
{
    const struct ContactSnap *sn = c->snap;
    double xmin, ymin, xmax, ymax;
    ensemble_polygon_box(e, p, &xmin, &ymin, &xmax, &ymax);
    int c0, r0, c1, r1;
    list_cell(c, xmin, ymin, &c0, &r0);
    list_cell(c, xmax, ymax, &c1, &r1);
    for (int by = r0 >> 2; by <= r1 >> 2; by++)
        for (int bx = c0 >> 2; bx <= c1 >> 2; bx++)
            if (sn->coarse[(size_t)by * sn->coarse_nx + bx]) return 1;
    return 0;
}

/* The dirty marks of the vertices that select_vertices chose (each thread's dv) back to 0. */
static void clear_dirty(Contact *c, int nt)
{
    for (int t = 0; t < nt; t++)
        for (int a = 0; a < c->work[t].dv_n; a++) c->snap->dirty[c->work[t].dv[a].k] = 0;
}

/* Patch step 3: the vertices in the marked cells get new records (sn->dirty, and each thread's
 * dv); the edges whose midpoints lie in or next to them are the candidates (each thread's sel).
 * Each of the nt threads takes a contiguous range of polygons, so that the lists joined in thread
 * order are in slot order. Only the polygons whose boxes meet a marked block are looked at
 * vertex by vertex (a growing tissue of 3,000 cells changes about 50 a step: this step took 7.6 %
 * of its run with every vertex looked at, 3.6 % so). Clears the marks; *ndv and *nsel: how many
 * of each. */
static void select_vertices(Contact *c, const Ensemble *e, int nt, int *ndv, int *nsel)
{
    struct ContactSnap *sn = c->snap;
    if (e->nv_used >= sn->dirty_cap) {   /* (its new part 0, as between patches; at least one
                                            * entry, which renew_strips reads for a vanished vertex) */
        int cap = e->nv_used + e->nv_used / 4 + 64;
        sn->dirty = ph_realloc(sn->dirty, (size_t)cap);
        memset(sn->dirty + sn->dirty_cap, 0, (size_t)(cap - sn->dirty_cap));
        sn->dirty_cap = cap;
    }
    contact_reserve_threads(c, WANT_FORCES);
    #pragma omp parallel num_threads(nt)
    {
        int tid = 0, nth = 1;
#ifdef _OPENMP
        tid = omp_get_thread_num(); nth = omp_get_num_threads();
#endif
        struct ContactWork *wk = &c->work[tid];
        wk->dv_n = wk->sel_n = 0;
        for (int t = nth; t < nt && tid == 0; t++) c->work[t].dv_n = c->work[t].sel_n = 0;
        int p0 = (int)((int64_t)e->np * tid / nth), p1 = (int)((int64_t)e->np * (tid + 1) / nth), last = 0, mx0, my0;
        int64_t at = -1;   /* (the last cell looked up, whose mark is `last`: a polygon's vertices share cells) */
        for (int p = p0; p < p1; p++) {
            if (!sn->sparse && !coarse_marked(c, e, p)) continue;   /* (no cell of its box is marked) */
            for (int i = e->start[p], end = i + e->count[p]; i < end; i++) {
                int j = i + 1 < end ? i + 1 : e->start[p];
                int64_t vc = list_cell(c, e->x[i], e->y[i], NULL, NULL);
                int mv = vc == at ? last : mark_get(sn, vc);
                at = vc; last = mv;
                if (!mv) continue;
                if (mv == 3) { sn->dirty[i] = 1; PH_RESERVE(wk->dv, wk->dv_cap, wk->dv_n + 1); wk->dv[wk->dv_n++] = (Sel){ vc, i, 0 }; }
                double mx = 0.5 * (e->x[i] + e->x[j]), my = 0.5 * (e->y[i] + e->y[j]);
                int64_t mc = list_cell(c, mx, my, &mx0, &my0);
                if (mark_get(sn, mc) >= 2) {   /* (the midpoint from its cell's corner) */
                    PH_RESERVE(wk->sel, wk->sel_cap, wk->sel_n + 1);
                    wk->sel[wk->sel_n++] = (Sel){ mc, i, sel_pack(c, mx - c->list_x0 - mx0 * c->list_cs, my - c->list_y0 - my0 * c->list_cs,
                                                                  0.5 * hypot(e->x[j] - e->x[i], e->y[j] - e->y[i])) };
                }
            }
        }
    }
    clear_marks(sn);
    *ndv = *nsel = 0;
    for (int t = 0; t < nt; t++) { *ndv += c->work[t].dv_n; *nsel += c->work[t].sel_n; }
}

/* Patch step 4: the candidates (sn->sel) and the dirty vertices (sn->dv) joined in thread order
 * and sorted by (cell, slot); strips are runs of rows, so the dirty vertices of strip s are the
 * range sn->dv[dv_at[s] .. dv_at[s + 1]). Returns 0, or -1 if a dirty vertex lies in a strip that
 * the build's table does not have (grid.h: it keeps the strips next to its vertices, and a vertex
 * that moved less than two cells stays in them). */
static int order_selection(Contact *c, int nt, int ndv, int nsel)
{
    struct ContactSnap *sn = c->snap;
    const int64_t ncell = (int64_t)c->list_nx * c->list_ny, per = (int64_t)GRID_STRIP * c->list_nx;
    PH_RESERVE(sn->sel, sn->sel_cap, 2 * nsel);   /* (and the sorts' work space) */
    PH_RESERVE(sn->dv, sn->dv_cap, ndv);
    PH_RESERVE(sn->dv_at, sn->dv_at_cap, c->nstrips + 1);
    nsel = ndv = 0;
    for (int t = 0; t < nt; t++) {
        struct ContactWork *w = &c->work[t];
        if (w->sel_n) memcpy(sn->sel + nsel, w->sel, (size_t)w->sel_n * sizeof *w->sel);
        if (w->dv_n) memcpy(sn->dv + ndv, w->dv, (size_t)w->dv_n * sizeof *w->dv);
        nsel += w->sel_n; ndv += w->dv_n;
    }
    sort_by_cell(sn->sel, sn->sel + nsel, nsel, ncell);   /* (slot order within a cell: they were in slot order) */
    PH_RESERVE(sn->sel, sn->sel_cap, nsel + ndv);
    sort_by_cell(sn->dv, sn->sel + nsel, ndv, ncell);
    int a = 0;
    for (int s = 0; s < c->nstrips; s++) {
        sn->dv_at[s] = a;
        while (a < ndv && sn->dv[a].cell / per == c->strip_id[s]) a++;
    }
    sn->dv_at[c->nstrips] = a;
    return a < ndv ? -1 : 0;
}

/* Patch step 5: each slot of the snapshot -> its slot now (-1: its polygon changed or vanished). */
static void map_slots(struct ContactSnap *sn)
{
    PH_RESERVE(sn->smap, sn->smap_cap, sn->nv);
    #pragma omp parallel for schedule(static)
    for (int q = 0; q < sn->np; q++)
        for (int k = 0; k < sn->count[q]; k++) sn->smap[sn->start[q] + k] = sn->newstart[q] < 0 ? -1 : sn->newstart[q] + k;
}

/* Patch step 6: each strip's records renumbered in place, without those of dirty or vanished
 * vertices and the entries of vanished edges, then the new records of its dirty vertices
 * (new_records, from the nsel candidates). A kept edge belongs to an unchanged polygon, whose
 * slots keep their order and offsets: its code (edge_code: of the vertex's own polygon, or its
 * polygon's last edge) stays right. */
static void renew_strips(Contact *c, const Ensemble *e, const Params *P, int nsel)
{
    struct ContactSnap *sn = c->snap;
    #pragma omp parallel
    {
        int s0, s1;   /* (the strips of this thread's band, as in the walks over the list: bands.h) */
        bands_strips(e, c->list_y0, GRID_STRIP * c->list_cs, c->strip_id, c->nstrips, &s0, &s1);
        for (int s = s0; s < s1; s++) {
            struct ContactStrip *st = &c->strip[s];
            size_t w = 0;
            for (size_t q = 0; q < st->n; q++) {   /* (edge by edge, without a branch: w <= q) */
                int code = st->k[q], i = sn->smap[st->i[q]], k = sn->smap[edge_slot(code)];
                int keep = (i >= 0) & (k >= 0) & !sn->dirty[i >= 0 ? i : 0];
                st->i[w] = i;
                st->k[w] = edge_code(k, code < 0);   /* (an edge of another polygon, own or last, stays so) */
                w += (size_t)keep;
            }
            st->n = w;
            new_records(c, e, P, st, sn->dv + sn->dv_at[s], sn->dv_at[s + 1] - sn->dv_at[s], sn->sel, nsel);
        }
    }
}

int contact_patch(Contact *c, const Ensemble *e, const Params *P, double refresh)
{
    long nv, nvchanged;
    int nchanged = match_polygons(c, e, refresh, &nv, &nvchanged);
    /* (a patch of many vertices costs as much as a rebuild and more memory: at most half of them,
     * an eighth from 65,536 vertices on, where the work lists' memory counts: one that gave 107,000
     * of 480,000 vertices new records raised a packing's peak memory by 11 % over a rebuild) */
    const long most = nv < GRID_LARGE ? nv / 2 : nv / 8;   /* (vertices, not slots: the same after a restart) */
    if (nvchanged > most) return -1;
    if (mark_cells(c, e, nchanged, params_reach(P) + c->list_skin, nv)) return -1;
    int nt = 1, ndv, nsel;   /* (the threads of this step: c->nthreads is the most any step has had) */
#ifdef _OPENMP
    nt = omp_get_max_threads();
#endif
    select_vertices(c, e, nt, &ndv, &nsel);
    if (ndv > most || order_selection(c, nt, ndv, nsel)) { clear_dirty(c, nt); return -1; }
    map_slots(c->snap);
    renew_strips(c, e, P, nsel);
    clear_dirty(c, nt);
    contact_take_snapshot(c, e);
    adopt_wander(c, e->np);
    c->lazy = 0;   /* (added to every polygon's budget above) */
    return 0;
}

/* The snapshot polygon that owns slot k, or -1 (its starts are increasing). */
static int snap_owner(const struct ContactSnap *sn, int k)
{
    int lo = 0, hi = sn->np;   /* the last polygon with start <= k */
    while (lo < hi) { int m = (lo + hi) / 2; if (sn->start[m] <= k) lo = m + 1; else hi = m; }
    return lo > 0 && k < sn->start[lo - 1] + sn->count[lo - 1] ? lo - 1 : -1;
}

void contact_save(const Contact *c, const Ensemble *e, void (*put)(void *out, const void *d, size_t n), void *out)
{
    int32_t state = !c->list_ok ? 0 : c->list_layout == e->layout ? 2 : 1;
    put(out, &state, sizeof state);
    if (!state) return;
    const struct ContactSnap *sn = c->snap;
    double d[18] = { c->list_skin, c->list_reach, c->list_h, c->list_extent, c->moved, c->list_x0, c->list_y0, c->list_cs, c->list_lcell,
                     c->flow[0], c->flow[1], c->flow[2], c->flow[3], c->flow[4], c->flow[5], c->lazy, c->flow_helps, (double)c->motion_patch };
    int32_t n[4] = { c->list_nx, c->list_ny, c->nstrips, sn->np };
    put(out, d, sizeof d); put(out, n, 3 * sizeof *n);
    if (c->nstrips && c->nstrips < (c->list_ny + GRID_STRIP - 1) / GRID_STRIP) put(out, c->strip_id, (size_t)c->nstrips * sizeof *c->strip_id);   /* (a table of some strips: their numbers) */
    /* Slots are written as if the snapshot's polygons lay contiguously (remodel.h leaves gaps
     * between them), so that the file does not depend on the gaps: a restarted run, whose
     * ensemble is contiguous, writes the same bytes as one never interrupted. */
    int *canon = ph_realloc(NULL, ((size_t)sn->nv + 1) * sizeof *canon), *buf = NULL;
    size_t buf_cap = 0;
    for (int p = 0, at = 0; p < sn->np; at += sn->count[p], p++)
        for (int k = 0; k < sn->count[p]; k++) canon[sn->start[p] + k] = at + k;
    for (int k = 0; k < c->nstrips; k++) {
        const struct ContactStrip *st = &c->strip[k];
        size_t len = 0;
        for (size_t q = 0; q < st->n; q += record_len(st->i, q, st->n)) len += 2;
        len += 2 * st->n;
        int64_t len64 = (int64_t)len;
        put(out, &len64, sizeof len64);
        if (!len) continue;   /* (an empty strip may have no buffer) */
        PH_RESERVE(buf, buf_cap, len);
        size_t b = 0;
        for (size_t q = 0; q < st->n; ) {   /* records (i, n, n edges k -> k1), k1 from the snapshot's polygons */
            size_t nl = record_len(st->i, q, st->n);
            buf[b++] = canon[st->i[q]]; buf[b++] = (int)nl;
            for (size_t a = q; a < q + nl; a++) {
                int kk = edge_slot(st->k[a]), p = st->k[a] < 0 ? snap_owner(sn, kk) : -1;
                buf[b++] = canon[kk];
                buf[b++] = canon[p >= 0 && kk + 1 == sn->start[p] + sn->count[p] ? sn->start[p] : kk + 1];
            }
            q += nl;
        }
        put(out, buf, len * sizeof *buf);
    }
    put(out, &n[3], sizeof n[3]); put(out, &sn->next_id, sizeof sn->next_id);
    for (int p = 0, at = 0; p < sn->np; at += sn->count[p], p++) {
        int32_t v[3] = { at, sn->count[p], (int32_t)sn->edits[p] };
        put(out, &sn->id[p], sizeof sn->id[p]); put(out, v, sizeof v); put(out, &c->wander[p], sizeof c->wander[p]);
    }
    free(canon); free(buf);
}

/* Whether a read snapshot's polygons lie in slot order, and the strips' records (data[at[s] ..
 * at[s + 1])) name vertices and edges of them, one record a vertex (the list keeps a vertex's
 * edges as one run). (Its ids need no check: a patch only trusts the polygons whose id, count
 * and edits match the ensemble's.) */
static int list_fits(const struct ContactSnap *sn, const int *data, const size_t *at, int nstrips)
{
    for (int p = 1; p < sn->np; p++)
        if (sn->start[p] < sn->start[p - 1] + sn->count[p - 1]) return 0;
    const size_t nv = sn->np ? (size_t)sn->start[sn->np - 1] + (size_t)sn->count[sn->np - 1] : 0;
    unsigned char *seen = ph_realloc(NULL, nv + 1);
    memset(seen, 0, nv + 1);
    int ok = 1;
    for (int s = 0; ok && s < nstrips; s++)
        for (size_t m = at[s]; ok && m < at[s + 1]; m += 2 + 2 * (size_t)data[m + 1]) {   /* records (i, n, n edges k -> k1) */
            ok = m + 2 <= at[s + 1] && snap_owner(sn, data[m]) >= 0 && !seen[data[m]] && data[m + 1] > 0 &&
                 (size_t)data[m + 1] <= (at[s + 1] - m - 2) / 2;
            if (!ok) break;
            seen[data[m]] = 1;
            for (int a = 0; ok && a < data[m + 1]; a++) {
                int k = data[m + 2 + 2 * a], k1 = data[m + 3 + 2 * a], p = snap_owner(sn, k);
                ok = p >= 0 && k1 == (k + 1 == sn->start[p] + sn->count[p] ? sn->start[p] : k + 1);
            }
        }
    free(seen);
    return ok;
}

/* Writes "the contact list section: " and the reason into why and returns -1. */
static int corrupt(char *why, size_t len, const char *fmt, ...)
{
    int n = snprintf(why, len, "the contact list section: ");
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < len) vsnprintf(why + n, len - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* The list's numbers against what a run with the parameters P, at the step `step`, can have
 * written (d and n as contact_save writes them); 0, or -1 with why. contact_forces_step builds
 * it with reach params_reach(P), skin SKIN reach and h = P->h, cells of side cs >= lcell / 2 +
 * reach + skin in nx * ny (an int counts them) and extent the largest |coordinate| of their
 * rectangle. Any positive skin is taken, not only SKIN reach: a build of another SKIN wrote
 * its own, and the list holds every edge within the reach plus the skin it was built with, which
 * its budgets and patches go on using (list_skin) until the next rebuild takes SKIN. Each step
 * that keeps the list began with moved < 2 cs - reach - lcell (list_fresh) and lazy < skin / 2
 * (list_usable), and contact_moved adds at most one step's motion, h (a faster vertex stops the
 * run) and its rounding: hence the bounds + 2 h. motion_patch is the step of a patch, at most
 * the checkpoint's. */
static int numbers_ok(const double *d, const int32_t *n, const Params *P, int64_t step, char *why, size_t len)
{
    const double reach = params_reach(P);
    for (int k = 0; k < 18; k++)
        if (!isfinite(d[k])) return corrupt(why, len, "its number %d (of 18) is not finite", k);
    if (d[1] != reach) return corrupt(why, len, "its reach %g is not this run's %g (h + sh + ss with adhesion, else h)", d[1], reach);
    if (!(d[0] > 0)) return corrupt(why, len, "its skin %g is not positive", d[0]);
    if (d[2] != P->h) return corrupt(why, len, "its h = %g is not this run's %g", d[2], P->h);
    if (!(d[8] > 0 && d[7] >= 0.5 * d[8] + d[1] + d[0]))
        return corrupt(why, len, "its cells of side %g are too small for its longest edge %g and the reach plus skin %g", d[7], d[8], d[1] + d[0]);
    if (n[0] < 1 || n[1] < 1 || n[0] > GRID_MAX_CELLS || n[1] > GRID_MAX_CELLS)
        return corrupt(why, len, "its grid of %d x %d cells is out of range (1 to %.0f across)", (int)n[0], (int)n[1], GRID_MAX_CELLS);
    if (n[2] < 0 || n[2] > ((int64_t)n[1] + GRID_STRIP - 1) / GRID_STRIP)
        return corrupt(why, len, "its %d strips are more than the %d rows of its grid in strips of %d", (int)n[2], (int)n[1], GRID_STRIP);
    double extent = fmax(fmax(fabs(d[5]), fabs(d[6])), fmax(fabs(d[5] + n[0] * d[7]), fabs(d[6] + n[1] * d[7])));
    if (d[3] != extent) return corrupt(why, len, "its extent %g is not that of its grid, %g", d[3], extent);
    double most = 2 * d[7] - d[1] - d[8] + 2 * P->h;
    if (!(d[4] >= 0 && d[4] <= most))
        return corrupt(why, len, "its motion bound %g is outside 0 to %g (what its cells allow, 2 cs - reach - lcell, and one "
                       "step's h with its rounding)", d[4], most);
    if (!(d[15] >= 0 && d[15] <= 0.5 * d[0] + 2 * P->h))
        return corrupt(why, len, "its motion not yet shared out, %g, is outside 0 to %g (half the skin, and one step's h with its "
                       "rounding)", d[15], 0.5 * d[0] + 2 * P->h);
    if (d[16] != 0 && d[16] != 1) return corrupt(why, len, "whether the flow helps is %g, not 0 or 1", d[16]);
    if (!(d[17] == floor(d[17]) && d[17] >= 0 && d[17] <= (double)step))
        return corrupt(why, len, "the step of its last patch, %g, is not a step from 0 to %lld", d[17], (long long)step);
    return 0;
}

/* For a list of state 2, whose slots must be the ensemble's (e contiguous, as the file numbers
 * the snapshot's slots): -1 if the snapshot is e's polygons (id, start, vertices, edits), else
 * the first that is not, or the snapshot's polygon count when e has another. */
static int snap_differs(const struct ContactSnap *sn, const Ensemble *e)
{
    if (sn->np != e->np) return sn->np;
    for (int p = 0; p < sn->np; p++)
        if (sn->id[p] != e->id[p] || sn->start[p] != e->start[p] || sn->count[p] != e->count[p] || sn->edits[p] != e->edits[p]) return p;
    return -1;
}

int contact_load(Contact *c, const Ensemble *e, FILE *f, size_t left, const Params *P, int64_t step, char *why, size_t whylen)
{
    int32_t state = 0, n[4] = { 0 };
    double d[18] = { 0 };
    int *data = NULL, *id = NULL;
    size_t *at = NULL;
    struct ContactSnap *sn = c->snap;
    contact_invalidate(c);
    /* every length is checked against the bytes left in the file */
    if (fread(&state, sizeof state, 1, f) != 1) return corrupt(why, whylen, "cut short");
    if (state < 0 || state > 2) return corrupt(why, whylen, "its state %d is not 0 (no list), 1 or 2 (a list)", (int)state);
    if (!state) return 0;
    if (fread(d, sizeof d, 1, f) != 1 || fread(n, sizeof *n, 3, f) != 3) return corrupt(why, whylen, "cut short");
    if (numbers_ok(d, n, P, step, why, whylen)) return -1;
    /* the strip table: all strips of the grid, or some, whose numbers follow (grid.h: increasing,
     * each of its place's parity); its length against the bytes of the file (a corrupt count
     * cannot ask for all memory) */
    const int strips = (int)(((int64_t)n[1] + GRID_STRIP - 1) / GRID_STRIP);
    int ok = (size_t)n[2] <= left / sizeof(int64_t) && (at = malloc(((size_t)n[2] + 1) * sizeof *at)) != NULL &&
             (data = malloc(left + sizeof *data)) != NULL && (id = malloc(((size_t)n[2] + 1) * sizeof *id)) != NULL;
    if (ok && n[2] < strips) {
        ok = fread(id, sizeof *id, (size_t)n[2], f) == (size_t)n[2];
        for (int s = 0; ok && s < n[2]; s++) ok = id[s] >= (s ? id[s - 1] + 1 : 0) && (id[s] - s) % 2 == 0 && id[s] < strips;
    } else
        for (int s = 0; ok && s < n[2]; s++) id[s] = s;
    if (ok) at[0] = 0;
    for (int k = 0; ok && k < n[2]; k++) {
        int64_t len;
        ok = fread(&len, sizeof len, 1, f) == 1 && len >= 0 && (uint64_t)len <= (left - at[k] * sizeof *data) / sizeof *data;
        if (ok) { ok = fread(data + at[k], sizeof *data, (size_t)len, f) == (size_t)len; at[k + 1] = at[k] + (size_t)len; }
    }
    int64_t next_id = 0;
    ok = ok && fread(&n[3], sizeof n[3], 1, f) == 1 && n[3] >= 0 && (size_t)n[3] <= left / 28 &&
         fread(&next_id, sizeof next_id, 1, f) == 1 && next_id >= 0;
    if (ok) { snap_reserve(sn, n[3]); PH_RESERVE(sn->wander, sn->wander_cap, n[3]); }
    for (int p = 0; ok && p < n[3]; p++) {
        int32_t v[3];
        ok = fread(&sn->id[p], sizeof sn->id[p], 1, f) == 1 && fread(v, sizeof v, 1, f) == 1 && fread(&sn->wander[p], sizeof(double), 1, f) == 1 &&
             v[0] >= 0 && v[1] >= 3 && (int64_t)v[0] + v[1] <= INT32_MAX && sn->id[p] < next_id && sn->wander[p] >= 0 && isfinite(sn->wander[p]);
        if (ok) { sn->start[p] = v[0]; sn->count[p] = v[1]; sn->edits[p] = (uint32_t)v[2]; }
    }
    sn->np = ok ? n[3] : 0;
    ok = ok && list_fits(sn, data, at, n[2]);
    const int differs = ok && state == 2 && e ? snap_differs(sn, e) : -1;
    if (!ok || differs >= 0) {
        const int np = sn->np;
        free(data); free(at); free(id); sn->np = sn->nv = 0;
        if (!ok) return corrupt(why, whylen, "its records or polygons are cut short or do not fit together");
        if (differs == np) return corrupt(why, whylen, "its state 2 says its slots are the polygons', but it has %d polygons, not %d", np, e->np);
        return corrupt(why, whylen, "its state 2 says its slots are the polygons', but polygon %d (id %lld) is not its snapshot's "
                       "(start, vertices, edits)", differs, (long long)e->id[differs]);
    }
    sn->nv = sn->np ? sn->start[sn->np - 1] + sn->count[sn->np - 1] : 0;
    sn->next_id = next_id;
    contact_reserve_strips(c, n[2]);
    for (int s = 0; s < n[2]; s++) {   /* (the file's edges k -> k1 as the list keeps them: edge_code) */
        struct ContactStrip *st = &c->strip[s];
        const int *d = data + at[s];
        size_t len = at[s + 1] - at[s], w = 0;
        strip_reserve(st, len / 2, 0);
        for (size_t m = 0; m < len; m += 2 + 2 * (size_t)d[m + 1]) {
            int nl = d[m + 1], i = d[m], p = snap_owner(sn, i);
            for (int a = 0; a < nl; a++) {
                int k = d[m + 2 + 2 * a], same = (unsigned)(k - sn->start[p]) < (unsigned)sn->count[p];
                st->i[w + (size_t)a] = i;
                st->k[w + (size_t)a] = edge_code(k, same | (d[m + 3 + 2 * a] < k));
            }
            record_sort(st->k + w, nl);   /* (files of earlier versions) */
            w += (size_t)nl;
        }
        st->n = w;
    }
    if (n[2]) memcpy(c->strip_id, id, (size_t)n[2] * sizeof *id);
    free(data); free(at); free(id);
    adopt_wander(c, sn->np);
    c->nstrips = n[2];
    c->list_ok = 1;
    /* a list whose slots were the ensemble's serves the restored ensemble as it is, and the steps
     * take the path of the run never interrupted (a first patch, by motion or not, decides what
     * the next patch does); else the next step patches it to the restored slots */
    c->list_layout = state == 2 && e ? e->layout : UINT64_MAX;
    c->list_skin = d[0]; c->list_reach = d[1]; c->list_h = d[2]; c->list_extent = d[3]; c->moved = d[4];
    c->list_x0 = d[5]; c->list_y0 = d[6]; c->list_cs = d[7]; c->list_inv = 1 / d[7]; c->list_lcell = d[8]; c->list_nx = n[0]; c->list_ny = n[1];
    for (int k = 0; k < 6; k++) c->flow[k] = d[9 + k];
    c->lazy = d[15];
    c->flow_helps = d[16] != 0;
    c->motion_patch = (int64_t)d[17];
    return 0;
}
