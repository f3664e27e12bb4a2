/* The pair law: the energy, the self-contact exclusion and the model's pair definition taken
 * literally (for tests). The per-pair force is inline in pair.h. */
#include "pair.h"

double pair_u(const Params *P, double s, int same) { return pair_u_kh(P, P->kh, s, same); }

double pair_u_kh(const Params *P, double kh, double s, int same)
{
    if (same) return s < 0 ? 0.5 * P->kr * s * s : 0;
    /* eq. 4 minus its value beyond the reach, u_inf = (kh sh^2 + ks ss^2) / 2, ks = kh sh / ss */
    double sh = P->sh, ss = P->ss, uinf = 0.5 * kh * sh * (sh + ss);
    if (s <= 0) return 0.5 * P->kr * s * s - uinf;
    if (s <= sh) return 0.5 * kh * s * s - uinf;
    if (s < sh + ss) return 0.5 * (kh * sh * sh + kh * sh / ss * (s - sh) * (2 * ss + sh - s)) - uinf;
    return 0;
}

int pair_along_hoop_within(const Ensemble *e, int i, int k, int k1, double w, double h)
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

int pair_eval(const Ensemble *e, const Params *P, int i, int q, PairRec *r, double *fx, double *fy, double *u)
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
    double nx, ny;
    pair_gap(e, i, r->k, r->k1, r->w, &nx, &ny);
    if (!pair_force(e, P, i, r->k, r->k1, r->w, pi == pq, nx, ny, fx, fy, u ? &uu : NULL)) return 0;
    if (u) *u += uu;
    return 1;
}
