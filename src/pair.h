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

/* The pair law's constants, read from P once for a walk (docs/model.md 2). */
typedef struct PairLaw { double h, reach, kr, sh, ss, shss, cc; } PairLaw;
static inline PairLaw pair_law_of(const Params *P)
{
    return (PairLaw){ P->h, params_reach(P), P->kr, P->sh, P->ss, P->sh + P->ss, P->cc };
}

/* The pair law over lanes of type L: double here, a GCC vector of doubles in the batched walk
 * (contact.c), whose forces are thus those of the walk pair by pair, bit for bit. M is the type
 * of L's comparisons (int 1/0; a vector of -1/0); L##_sel(m, a, b) (a where m, else b), L##_sqrt
 * and L##_abs are L's helpers. The three functions, for pairs of one polygon's vertex i and edge
 * k -> k1 at a time:
 *   pair_acts_L: whether the pair at distance dist interacts: within the reach and not on top of
 *     each other; within one polygon (same) only if they overlap, and the self-contact exclusion
 *     along the hoop (pair_along_hoop_within) is the caller's, since it walks.
 *   pair_du_L: u'(s), the normal force density between two polygons (eq. 5): repulsion kr s for
 *     s <= 0, adhesion kh s up to sh, softening ks (sh + ss - s) up to sh + ss, ks = kh sh / ss
 *     (within one polygon only s < 0 acts: repulsion).
 *   pair_law_L: the force on i, with (gx, gy) the vector from i to the closest point
 *     (1 - w) r_k + w r_k1 at distance dist, v* the velocities of k, k1 and i, kh and mu the
 *     pair's adhesion stiffness and friction coefficient: the normal force (eq. 5, -grad s = n by
 *     eq. 24), contact damping and Coulomb friction (eqs. 25-28), all from the velocity of the
 *     closest point relative to i. No friction within one polygon; friction = 0 where no lane
 *     has any (a value the same for all lanes). */
#define PAIR_LAW(L, M)                                                                             \
static inline M pair_acts_##L(const PairLaw *c, L dist, M same)                                   \
{                                                                                                  \
    return (dist < c->reach) & (dist != 0) & ((same == 0) | (dist - c->h < 0));                    \
}                                                                                                  \
static inline L pair_du_##L(const PairLaw *c, L kh, L s)                                          \
{                                                                                                  \
    return L##_sel(s <= 0, c->kr * s, L##_sel(s <= c->sh, kh * s,                                 \
                   L##_sel(s < c->shss, kh * c->sh / c->ss * (c->shss - s), (L){ 0 })));          \
}                                                                                                  \
static inline void pair_law_##L(const PairLaw *c, L dist, L gx, L gy, L w, L vkx, L vky,         \
                                L vk1x, L vk1y, L vix, L viy, L kh, L mu, M same, int friction,    \
                                L *fx, L *fy)                                                      \
{                                                                                                  \
    L s = dist - c->h, inv = 1 / dist, nx = gx * inv, ny = gy * inv, w1 = 1 - w;                  \
    L vrx = w1 * vkx + w * vk1x - vix, vry = w1 * vky + w * vk1y - viy;                           \
    L vn = vrx * nx + vry * ny, fn = pair_du_##L(c, kh, s) + c->cc * vn;                          \
    *fx = fn * nx;                                                                                 \
    *fy = fn * ny;                                                                                 \
    if (!friction) return;                                                                         \
    L tx = vrx - vn * nx, ty = vry - vn * ny, vt = L##_sqrt(tx * tx + ty * ty), afn = L##_abs(fn); \
    M slides = (same == 0) & (mu > 0) & (vt > 0);                                                  \
    *fx = L##_sel(slides, *fx + mu * afn * tx / vt, *fx);                                          \
    *fy = L##_sel(slides, *fy + mu * afn * ty / vt, *fy);                                          \
}

static inline double double_sel(int m, double a, double b) { return m ? a : b; }
static inline double double_sqrt(double a) { return sqrt(a); }
static inline double double_abs(double a) { return fabs(a); }
PAIR_LAW(double, int)

/* u'(s) (pair_du_L; same = 1: within one polygon, where s > 0 does not act) */
static inline double pair_du_kh(const Params *P, double kh, double s, int same)
{
    PairLaw c = pair_law_of(P);
    return same && s > 0 ? 0 : pair_du_double(&c, kh, s);
}
static inline double pair_du(const Params *P, double s, int same)
{
    return pair_du_kh(P, P->kh, s, same);
}

/* Whether a pair of two polygons at distance dist can interact (pair_acts_L) */
static inline int pair_in_reach(const Params *P, double dist)
{
    PairLaw c = pair_law_of(P);
    return pair_acts_double(&c, dist, 0);
}

/* The interaction of vertex i with the point (1 - w) r_k + w r_k1 of edge k -> k1 (same: of its
 * own polygon), (gx, gy) the vector from i to that point (pair_gap, or as the projection found
 * it): the force on i in (*fx, *fy) and, if u, the pair energy in *u. Returns 0 if they do not
 * interact (beyond the reach, self-contact exclusion). typed = 0 (a constant where it is inlined)
 * only where the ensemble has no matrices of cell types (e->type_kh and type_mu NULL): P->kh and
 * P->mu then, not looked up. */
static inline int pair_force_typed(const Ensemble *e, const Params *P, int i, int k, int k1,
                                   double w, int same, double gx, double gy, double *fx,
                                   double *fy, double *u, int typed)
{
    const PairLaw c = pair_law_of(P);
    double dist = sqrt(gx * gx + gy * gy);
    if (!pair_acts_double(&c, dist, same)) return 0;
    if (same && pair_along_hoop_within(e, i, k, k1, w, P->h)) return 0;   /* (self-contact) */
    double kh = typed ? pair_kh(e, P, i, k) : P->kh, mu = typed ? pair_mu(e, P, i, k) : P->mu;
    pair_law_double(&c, dist, gx, gy, w, e->vx[k], e->vy[k], e->vx[k1], e->vy[k1], e->vx[i],
                    e->vy[i], kh, mu, same, mu > 0, fx, fy);
    if (u) *u = pair_u_kh(P, kh, dist - P->h, same);
    return 1;
}

/* pair_force_typed for any ensemble */
static inline int pair_force(const Ensemble *e, const Params *P, int i, int k, int k1, double w,
                             int same, double gx, double gy, double *fx, double *fy, double *u)
{
    return pair_force_typed(e, P, i, k, k1, w, same, gx, gy, fx, fy, u, 1);
}

#endif
