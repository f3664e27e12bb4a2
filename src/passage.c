/* Membrane passage (docs/model.md 5.2). The pairs of the step between a projectile (a non-rigid
 * polygon with A <= A_pass) and a cell (a non-rigid polygon with A > A_pass) give candidates:
 * the membrane's outward unit normal n at the contact (of the cell's edge, or at the cell's
 * vertex) and the approach speed v_n = (v_cell - v_proj) . n, with the mean vertex velocities of
 * both (the cell's as a whole: the membrane's own ringing after an impact does not count). Those
 * with v_n > v_pass are taken fastest first (ties by vertex and edge slot), each projectile once
 * per step. A passage translates the projectile along -n until its farthest-out vertex lies 2h
 * inside the tangent at the contact, if there every vertex lies inside the cell, at least h from
 * its hoop, and at least h from any other polygon and not inside one (else nothing happens: the
 * membrane stops it this step); the membrane is left as it was (it never opened). The
 * projectile's velocity loses the normal part that the passage costs: v_n becomes
 * sqrt(v_n^2 - v_pass^2), the kinetic energy per vertex mass of v_pass being the membrane's
 * barrier. */
#include "passage.h"
#include "geometry.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int proj, cell, i, k; double vn, nx, ny, cx, cy; } Candidate;

static int cmp_candidate(const void *a, const void *b)
{
    const Candidate *u = a, *v = b;
    if (u->vn != v->vn) return u->vn > v->vn ? -1 : 1;
    if (u->i != v->i) return u->i < v->i ? -1 : 1;
    return (u->k > v->k) - (u->k < v->k);
}

static Vec2 mean_velocity(const Ensemble *e, int p)
{
    Vec2 v = { 0, 0 };
    for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
        v.x += e->vx[i];
        v.y += e->vy[i];
    }
    return (Vec2){ v.x / e->count[p], v.y / e->count[p] };
}

/* the polygon's mean velocity, computed once per step (vm[p].x is NaN until then) */
static Vec2 mean_velocity_of(const Ensemble *e, Vec2 *vm, int p)
{
    if (isnan(vm[p].x)) vm[p] = mean_velocity(e, p);
    return vm[p];
}

/* 1 if the projectile p, as it now is, lies inside cell and clear (by h) of every hoop */
static int clear_inside(const Ensemble *e, int p, int cell, double h)
{
    const double *px = e->x + e->start[p], *py = e->y + e->start[p];
    int n = e->count[p];
    double x0 = px[0], x1 = px[0], y0 = py[0], y1 = py[0];
    for (int j = 1; j < n; j++) {
        x0 = fmin(x0, px[j]); x1 = fmax(x1, px[j]); y0 = fmin(y0, py[j]); y1 = fmax(y1, py[j]);
    }
    for (int j = 0; j < n; j++)
        if (!geom_point_inside(e->x + e->start[cell], e->y + e->start[cell], e->count[cell], px[j],
                               py[j]))
            return 0;
    for (int q = 0; q < e->np; q++) {
        if (q == p) continue;
        const double *qx = e->x + e->start[q], *qy = e->y + e->start[q];
        int m = e->count[q];
        double a0 = qx[0], a1 = qx[0], b0 = qy[0], b1 = qy[0];
        for (int j = 1; j < m; j++) {
            a0 = fmin(a0, qx[j]); a1 = fmax(a1, qx[j]); b0 = fmin(b0, qy[j]); b1 = fmax(b1, qy[j]);
        }
        if (a0 > x1 + h || a1 < x0 - h || b0 > y1 + h || b1 < y0 - h) continue;
        if (q != cell && geom_point_inside(qx, qy, m, px[0], py[0])) return 0;   /* (in a third) */
        for (int j = 0; j < n; j++)
            for (int k = 0; k < m; k++) {
                Vec2 a = { px[j], py[j] }, b = { px[(j + 1) % n], py[(j + 1) % n] };
                Vec2 c = { qx[k], qy[k] }, d = { qx[(k + 1) % m], qy[(k + 1) % m] };
                if (geom_segment_distance(a, b, c, d) < h) return 0;
            }
    }
    return 1;
}

/* Moves projectile c->proj into c->cell if it fits there; 1 if it did. */
static int pass(Ensemble *e, const Params *P, const Candidate *c)
{
    int p = c->proj;
    Vec2 g = geom_centroid(e->x + e->start[p], e->y + e->start[p], e->count[p]);
    if (geom_point_inside(e->x + e->start[c->cell], e->y + e->start[c->cell], e->count[c->cell],
                          g.x, g.y))
        return 0;   /* (already in) */
    double top = -INFINITY;
    for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++)
        top = fmax(top, (e->x[i] - c->cx) * c->nx + (e->y[i] - c->cy) * c->ny);
    double d = top + 2 * P->h;
    int n = e->count[p], s = e->start[p];
    double *keep = ph_realloc(NULL, 2 * (size_t)n * sizeof *keep);
    memcpy(keep, e->x + s, (size_t)n * sizeof *keep);
    memcpy(keep + n, e->y + s, (size_t)n * sizeof *keep);
    for (int i = s; i < s + n; i++) { e->x[i] -= d * c->nx; e->y[i] -= d * c->ny; }
    int ok = clear_inside(e, p, c->cell, P->h);
    if (!ok) {   /* (back where it was, exactly) */
        memcpy(e->x + s, keep, (size_t)n * sizeof *keep);
        memcpy(e->y + s, keep + n, (size_t)n * sizeof *keep);
    }
    free(keep);
    if (!ok) return 0;
    double dv = c->vn - sqrt(c->vn * c->vn - P->v_pass * P->v_pass);
    for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
        e->vx[i] += dv * c->nx;
        e->vy[i] += dv * c->ny;
    }
    ensemble_event(e, EVENT_PASSAGE, e->id[p], e->id[c->cell], e->id[p], -1);
    return 1;
}

int passage_update(Ensemble *e, const Params *P, const Contact *c)
{
    if (!(P->v_pass > 0)) return 0;
    int n = 0, cap = 0, done = 0;
    Candidate *cand = NULL;
    Vec2 *vm = ph_realloc(NULL, (size_t)e->np * sizeof *vm);
    for (int p = 0; p < e->np; p++) vm[p].x = NAN;
    for (int t = 0; t < contact_record_parts(c); t++) {   /* (any order: candidates are sorted) */
        int nrec;
        const PairRec *rec = contact_records(c, t, &nrec);
        for (int m = 0; m < nrec; m++) {
            const PairRec *r = &rec[m];
            int x = e->pid[r->i], y = e->pid[r->k];
            if (x == y || e->rigid[x] || e->rigid[y]) continue;
            int x_proj = e->A[x] <= P->A_pass && e->A[y] > P->A_pass,
                y_proj = e->A[y] <= P->A_pass && e->A[x] > P->A_pass;
            if (!x_proj && !y_proj) continue;
            Candidate q = { x_proj ? x : y, x_proj ? y : x, r->i, r->k, 0, 0, 0, 0, 0 };
            double w = r->w;
            if (x_proj) {   /* the cell's edge k -> k1: outward normal (e_y, -e_x) / l (CCW hoop) */
                double ex = e->x[r->k1] - e->x[r->k], ey = e->y[r->k1] - e->y[r->k],
                       l = hypot(ex, ey);
                q.nx = ey / l; q.ny = -ex / l;
                q.cx = (1 - w) * e->x[r->k] + w * e->x[r->k1];
                q.cy = (1 - w) * e->y[r->k] + w * e->y[r->k1];
            } else {   /* the cell's vertex i: minus the inward normal (r_{i+1} - r_{i-1})^perp */
                int a = ens_prev(e, r->i), b = ens_next(e, r->i);
                double ex = e->x[b] - e->x[a], ey = e->y[b] - e->y[a], l = hypot(ex, ey);
                q.nx = ey / l; q.ny = -ex / l;
                q.cx = e->x[r->i]; q.cy = e->y[r->i];
            }
            Vec2 vp = mean_velocity_of(e, vm, q.proj), vc = mean_velocity_of(e, vm, q.cell);
            q.vn = (vc.x - vp.x) * q.nx + (vc.y - vp.y) * q.ny;
            if (!(q.vn > P->v_pass)) continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                cand = ph_realloc(cand, (size_t)cap * sizeof *cand);
            }
            cand[n++] = q;
        }
    }
    free(vm);
    if (!n) return 0;
    qsort(cand, (size_t)n, sizeof *cand, cmp_candidate);
    unsigned char *used = memset(ph_realloc(NULL, (size_t)e->np), 0, (size_t)e->np);
    for (int k = 0; k < n; k++)
        if (!used[cand[k].proj] && pass(e, P, &cand[k])) {
            used[cand[k].proj] = 1;
            done++;
        }
    free(used);
    free(cand);
    return done;
}
