/* The pair law (paper eqs. 3-5, 16-18, 24-28; docs/model.md 2): the force between a vertex and
 * the closest point of a nearby edge. Repulsion, adhesion and its softening (the energy pair_u
 * and its derivative pair_du), self-contact exclusion within one polygon, contact damping and
 * Coulomb friction. Which pairs exist is the contact module's business; this module says what
 * one pair does. The interaction range is the reach, params_reach: h + sh + ss, or h without
 * adhesion.
 *
 * A pair is (vertex i, point (1 - w) r_k + w r_k1 of edge k -> k1); pair_force, called for every
 * pair of every step, is inline here so that the contact kernel keeps it in registers. */
#ifndef PH_PAIR_H
#define PH_PAIR_H
#include "ensemble.h"
#include "params.h"
#include <math.h>

/* One interacting (vertex, edge) pair: vertex i, edge k -> k1 with closest point
 * (1 - w) r_k + w r_k1; ends = which ends picked the edge (bit 0: k, bit 1: k1), so the model's
 * (P, Q) pairs are (i, k) and/or (i, k1). */
typedef struct PairRec {
    int i, k, k1, ends;
    double w;
} PairRec;

/* The pair energy u(s) of docs/model.md 2 / paper eq. 4, shifted so that it vanishes beyond the
 * reach (same = 1: within one polygon, repulsion only). */
double pair_u(const Params *P, double s, int same);

/* Its derivative u'(s), the normal force density (eq. 5): repulsion kr s for s <= 0, adhesion
 * kh s up to sh, softening ks (sh + ss - s) up to sh + ss, ks = kh sh / ss. */
static inline double pair_du_kh(const Params *P, double kh, double s, int same)
{
    if (s <= 0) return P->kr * s;
    if (same) return 0;                       /* adhesion acts between different polygons only */
    if (s <= P->sh) return kh * s;
    if (s < P->sh + P->ss) return kh * P->sh / P->ss * (P->sh + P->ss - s);
    return 0;
}
static inline double pair_du(const Params *P, double s, int same) { return pair_du_kh(P, P->kh, s, same); }

/* pair_u with the adhesion stiffness kh instead of P->kh (a pair of cell types, docs/model.md 11) */
double pair_u_kh(const Params *P, double kh, double s, int same);

/* The adhesion stiffness between the polygons of vertex i and of edge k: P->kh, or their cell
 * types' entry of the header's matrix (docs/model.md 11). */
static inline double pair_kh(const Ensemble *e, const Params *P, int i, int k)
{
    return e->type_kh ? e->type_kh[e->type[e->pid[i]] * e->ntypes_kh + e->type[e->pid[k]]] : P->kh;
}

/* The Coulomb friction coefficient between the polygons of vertex i and of edge k: P->mu, or
 * their cell types' entry of the header's matrix (docs/model.md 11). */
static inline double pair_mu(const Ensemble *e, const Params *P, int i, int k)
{
    return e->type_mu ? e->type_mu[e->type[e->pid[i]] * e->ntypes_kh + e->type[e->pid[k]]] : P->mu;
}

/* Self-contact exclusion (docs/model.md 2): whether the arclength along the hoop between vertex i
 * and the point (1 - w) r_k + w r_k1 of edge k -> k1 of the same polygon is at most h either way
 * (rare: only then is it walked). */
int pair_along_hoop_within(const Ensemble *e, int i, int k, int k1, double w, double h);

/* The vector (*nx, *ny) from vertex i to the point (1 - w) r_k + w r_k1, and its length: from
 * differences, w (r_k1 - r_k) - (r_i - r_k), bit for bit as the contact search's projection
 * finds it, with no rounding of where the ensemble lies. */
static inline double pair_gap(const Ensemble *e, int i, int k, int k1, double w, double *nx, double *ny)
{
    *nx = w * (e->x[k1] - e->x[k]) - (e->x[i] - e->x[k]);
    *ny = w * (e->y[k1] - e->y[k]) - (e->y[i] - e->y[k]);
    return sqrt(*nx * *nx + *ny * *ny);
}

/* Whether a pair at distance dist can interact: within the reach, and not on top of each other
 * (no direction). Within one polygon the pair must also overlap and pass the exclusion. */
static inline int pair_in_reach(const Params *P, double dist) { return dist < params_reach(P) && dist != 0; }

/* The interaction of vertex i with the point (1 - w) r_k + w r_k1 of edge k -> k1 (same: of its
 * own polygon), (nx, ny) the vector from i to that point (pair_gap, or as the projection found
 * it): the force on i in (*fx, *fy) and, if u, the pair energy in *u. Returns 0 if they do not
 * interact (beyond the reach, self-contact exclusion). typed = 0 (a constant where it is inlined)
 * only where the ensemble has no matrices of cell types (e->type_kh and type_mu NULL): P->kh and
 * P->mu then, not looked up. */
static inline int pair_force_typed(const Ensemble *e, const Params *P, int i, int k, int k1, double w, int same,
                                   double nx, double ny, double *fx, double *fy, double *u, int typed)
{
    double dist = sqrt(nx * nx + ny * ny);
    if (!pair_in_reach(P, dist)) return 0;
    double s = dist - P->h;
    if (same) {
        if (s >= 0) return 0;
        if (pair_along_hoop_within(e, i, k, k1, w, P->h)) return 0;   /* self-contact exclusion */
    }
    double inv = 1 / dist;
    nx *= inv; ny *= inv;
    /* normal force (eq. 5, -grad s = n by eq. 24), contact damping and Coulomb friction
     * (eqs. 25-28), all from the velocity of the closest point relative to P */
    double vrx = (1 - w) * e->vx[k] + w * e->vx[k1] - e->vx[i];
    double vry = (1 - w) * e->vy[k] + w * e->vy[k1] - e->vy[i];
    double kh = same ? 0 : typed ? pair_kh(e, P, i, k) : P->kh;
    double vn = vrx * nx + vry * ny, fn = pair_du_kh(P, kh, s, same) + P->cc * vn;
    *fx = fn * nx;
    *fy = fn * ny;
    double mu = same ? 0 : typed ? pair_mu(e, P, i, k) : P->mu;
    if (mu > 0) {
        double tx = vrx - vn * nx, ty = vry - vn * ny, vt = sqrt(tx * tx + ty * ty);
        if (vt > 0) { *fx += mu * fabs(fn) * tx / vt; *fy += mu * fabs(fn) * ty / vt; }
    }
    if (u) *u = pair_u_kh(P, kh, s, same);
    return 1;
}

/* pair_force_typed for any ensemble */
static inline int pair_force(const Ensemble *e, const Params *P, int i, int k, int k1, double w, int same,
                             double nx, double ny, double *fx, double *fy, double *u)
{
    return pair_force_typed(e, P, i, k, k1, w, same, nx, ny, fx, fy, u, 1);
}

/* The model's definition, pair by pair, for tests: evaluates the pair (vertex i, the closer of
 * the two edges incident on vertex q); if they interact, returns 1, stores the edge in r (ends =
 * the bit of q), the force on i in (*fx, *fy) and adds the pair energy to *u (if u). */
int pair_eval(const Ensemble *e, const Params *P, int i, int q, PairRec *r, double *fx, double *fy, double *u);

#endif
