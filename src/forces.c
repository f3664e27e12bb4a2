/* Internal forces of a polygon, the terms of paper eq. 1 / docs/model.md 2: those every run has
 * (area, tension and edge elasticity, damping) in one pass, each optional term in a block of its
 * own. Each adds its energy to U and minus its gradient to (fx, fy). Notation as in docs/model.md:
 * e_k = r_{k+1} - r_k, l_k = |e_k|, t_k = e_k / l_k, perp(x, y) = (-y, x). Vertex k of the
 * polygon is slot s + k; the polygon is processed by one thread, so scattering into the
 * neighbouring vertices of the same polygon is race-free. The box walls, which act on each vertex
 * alone, are one of the optional terms. */
#include "forces.h"
#include "bands.h"
#include "geometry.h"
#include "rng.h"
#include <math.h>

/* The coefficient of viscous damping and drag on vertex k (between km and kp) of a polygon: its
 * force is minus that times its velocity. */
static inline double damping(const Params *P, double cdrag, const double *x, const double *y, const double *vx, const double *vy,
                             int km, int k, int kp)
{
    double c = P->cv;
    if (cdrag != 0) c += cdrag * fabs(-vx[k] * (y[kp] - y[km]) + vy[k] * (x[kp] - x[km]));
    return c;
}

/* A and L of polygon p; returns its longest edge. With len, stores the edge lengths there. */
static inline double polygon_geometry(Ensemble *e, int p, double *len)
{
    int s = e->start[p], n = e->count[p];
    const double *x = e->x + s, *y = e->y + s;
    double L, lmax;
    e->A[p] = geom_area_edges(x, y, n, &L, &lmax, len);
    e->L[p] = L;
    return lmax;
}

double forces_update_geometry(Ensemble *e)
{
    double lmax = 0;
    #pragma omp parallel reduction(max : lmax)
    {
        int m0, m1;
        const int *order = bands_mine(e, &m0, &m1);
        for (int m = m0; m < m1; m++) lmax = fmax(lmax, polygon_geometry(e, order ? order[m] : m, NULL));
    }
    return lmax;
}

static inline double polygon_forces(Ensemble *e, const Params *P, int p, double *u, const double *len, int energy);

/* A step needs no energies, and the forces' pass takes the edge lengths that the geometry's pass
 * found (polygons of up to STEP_LEN vertices, in a buffer on the stack; larger ones take the
 * square roots again): the same forces as forces_polygon, 25 % less time for the two passes. */
enum { STEP_LEN = 256 };

/* forces_step for this thread's band of polygons: returns its longest edge. */
static double step_band(Ensemble *e, const Params *P)
{
    int m0, m1;
    const int *order = bands_mine(e, &m0, &m1);
    double len[STEP_LEN], lmax = 0;
    for (int m = m0; m < m1; m++) {
        int p = order ? order[m] : m;
        double *l = e->count[p] <= STEP_LEN ? len : NULL;
        lmax = fmax(lmax, polygon_geometry(e, p, l));
        polygon_forces(e, P, p, NULL, l, 0);
    }
    return lmax;
}

double forces_step(Ensemble *e, const Params *P)
{
    if (bands_serial()) return step_band(e, P);
    double lmax = 0;
    #pragma omp parallel reduction(max : lmax)
    lmax = fmax(lmax, step_band(e, P));
    return lmax;
}

#define TERM_NAME(index, name) [index] = name,
const char *const forces_terms[U_TERMS] = { FORCES_TERMS(TERM_NAME) };
#undef TERM_NAME

double forces_polygon(Ensemble *e, const Params *P, int p, double *u) { return polygon_forces(e, P, p, u, NULL, 1); }

/* forces_polygon; len: the edge lengths, or NULL; energy = 0: the energies of tension and edge
 * elasticity, the terms of every run, are not summed (the return value and u are then
 * incomplete). Inlined where energy is a constant. */
static inline double polygon_forces(Ensemble *e, const Params *P, int p, double *u, const double *len, int energy)
{
    int s = e->start[p], n = e->count[p];
    if (e->type_params) P = &e->type_params[e->type[p]];   /* (its type's parameters: docs/model.md 11) */
    /* (restrict: the forces are stored once a vertex, not reloaded after every input's store) */
    const double *restrict x = e->x + s, *restrict y = e->y + s, *restrict vx = e->vx + s, *restrict vy = e->vy + s, *restrict l0 = e->l0 + s;
    double *restrict fx = e->fx + s, *restrict fy = e->fy + s, U = 0, Ut[U_TERMS] = { 0 };
    if (e->rigid[p] || n < 3) {   /* (a polygon below 3 vertices is removed at the step's end) */
        for (int k = 0; k < n; k++) fx[k] = fy[k] = 0;
        return 0;
    }

    /* One pass over the vertices for the terms every run has, each vertex's force summed in the
     * order of the terms below (area, the tension of the edge before it, then of the edge after
     * it (vertex 0: after, then before), damping; then the optional terms in their own passes).
     * Area elasticity: U = ka/2 (A - A0)^2, dA/dr_k = -n_k / 2 with n_k = perp(r_{k+1} - r_{k-1}).
     * Line tension U = gamma L, and edge elasticity U = kl/2 sum eps_k^2 l0'_k with
     * eps_k = l_k / l0'_k - 1 and l0'_k = l0_k L0 / sum l0, L0 = sqrt(4 pi Q A0) (docs/model.md 2):
     * edge k pulls its start along +c_k e_k / l_k and its end along minus that.
     * Dissipation (paper eq. 25): viscous damping -cv v and drag -(rho cd / 4) |v.n| v. */
    double dA = e->A[p] - e->A0[p];
    Ut[U_AREA] = 0.5 * P->ka * dA * dA;
    double ca = 0.5 * P->ka * dA, scale = 0, cdrag = 0.25 * P->rho * P->cd;
    if (P->kl > 0) {
        double sum0 = 0;
        for (int k = 0; k < n; k++) sum0 += l0[k];
        scale = sqrt(4 * PH_PI * P->Q * fmax(e->A0[p], 0)) / sum0;
    }
    double tx = 0, ty = 0;   /* the pull of the edge before */
    for (int k = 0; k < n; k++) {
        int km = k ? k - 1 : n - 1, kp = k + 1 == n ? 0 : k + 1;
        double ex = x[kp] - x[k], ey = y[kp] - y[k], l = len ? len[k] : sqrt(ex * ex + ey * ey), c = P->gamma;
        if (energy) Ut[U_TENSION] += P->gamma * l;
        if (P->kl > 0) {
            double lr = l0[k] * scale, eps = l / lr - 1;
            if (energy) Ut[U_EDGE] += 0.5 * P->kl * eps * eps * lr;
            c += P->kl * eps;
        }
        double gx = 0 - ca * (y[kp] - y[km]), gy = 0 + ca * (x[kp] - x[km]);
        if (k) { gx -= tx; gy -= ty; }
        tx = c * ex / l; ty = c * ey / l;
        gx += tx; gy += ty;
        if (k) {
            double cd = damping(P, cdrag, x, y, vx, vy, km, k, kp);
            gx -= cd * vx[k]; gy -= cd * vy[k];
        }
        fx[k] = gx; fy[k] = gy;
    }
    double cd0 = damping(P, cdrag, x, y, vx, vy, n - 1, 0, 1);
    fx[0] = (fx[0] - tx) - cd0 * vx[0];   /* (vertex 0 ends the last edge) */
    fy[0] = (fy[0] - ty) - cd0 * vy[0];

    /* bending: U = kb/2 sum kappa_k^2 lbar_k with kappa_k = 2 d_k / (lbar_k b_k) (paper eqs.
     * 11-13), d_k = e_{k-1} ^ e_k, b_k = l_{k-1} l_k + e_{k-1}.e_k. Our choice: current lengths
     * in b and lbar, so kappa_k = 2 tan(theta_k / 2) / lbar_k and U_k = 2 kb (d_k/b_k)^2 / lbar_k
     * depends on positions only; below is its exact gradient (the paper's eq. 19 assumes
     * inextensible edges and is not the gradient of any energy). */
    if (P->kb > 0) {
        for (int k = 0; k < n; k++) {
            int km = k ? k - 1 : n - 1, kp = k + 1 == n ? 0 : k + 1;
            double ax = x[k] - x[km], ay = y[k] - y[km];     /* e1 = e_{k-1} */
            double bx = x[kp] - x[k], by = y[kp] - y[k];     /* e2 = e_k */
            double l1 = sqrt(ax * ax + ay * ay), l2 = sqrt(bx * bx + by * by), lb = 0.5 * (l1 + l2);
            double d = ax * by - ay * bx, b = l1 * l2 + ax * bx + ay * by, phi = d / b;
            Ut[U_BENDING] += 2 * P->kb * phi * phi / lb;
            /* dU/de = 2 kb (2 phi dphi/de / lb - phi^2 dlb/de / lb^2), dphi/de = (dd/de - phi db/de) / b */
            double c1 = 4 * P->kb * phi / (lb * b), c2 = P->kb * phi * phi / (lb * lb);
            double g1x = c1 * (by - phi * (l2 / l1 * ax + bx)) - c2 * ax / l1;
            double g1y = c1 * (-bx - phi * (l2 / l1 * ay + by)) - c2 * ay / l1;
            double g2x = c1 * (-ay - phi * (l1 / l2 * bx + ax)) - c2 * bx / l2;
            double g2y = c1 * (ax - phi * (l1 / l2 * by + ay)) - c2 * by / l2;
            /* e1 = r_k - r_{k-1}, e2 = r_{k+1} - r_k; force = -gradient */
            fx[km] += g1x; fy[km] += g1y;
            fx[k] -= g1x - g2x; fy[k] -= g1y - g2y;
            fx[kp] -= g2x; fy[kp] -= g2y;
        }
    }

    /* hydrostatic pressure: U = rho g phi S_x with S_x = 1/6 sum w_k (y_k + y_{k+1}),
     * w_k = r_k ^ r_{k+1} (paper eq. 14); r_k appears in the terms k-1 and k */
    double cg = P->rho * P->g * e->phase[p] / 6;
    if (cg != 0) {
        for (int k = 0; k < n; k++) {
            int km = k ? k - 1 : n - 1, kp = k + 1 == n ? 0 : k + 1;
            double wm = x[km] * y[k] - x[k] * y[km], w = x[k] * y[kp] - x[kp] * y[k];
            Ut[U_PRESSURE] += cg * w * (y[k] + y[kp]);
            fx[k] -= cg * (y[kp] * (y[k] + y[kp]) - y[km] * (y[km] + y[k]));
            fy[k] -= cg * (x[km] * (y[km] + y[k]) - x[kp] * (y[k] + y[kp]) + wm + w);
        }
    }

    /* attractor (paper Fig. 2B): U = att_k sum sqrt(|r_k - r_a|^2 + h^2), a pull of nearly att_k
     * towards r_a from farther than h, softened within h so that the force is smooth */
    if (e->attracted[p] && P->att_k != 0)
        for (int k = 0; k < n; k++) {
            double dx = x[k] - P->att_x, dy = y[k] - P->att_y, d = sqrt(dx * dx + dy * dy + P->h * P->h);
            Ut[U_ATTRACTOR] += P->att_k * d;
            fx[k] -= P->att_k * dx / d;
            fy[k] -= P->att_k * dy / d;
        }

    /* edge gravity: U = gl sum y_k (paper eq. 15) */
    if (P->gl != 0)
        for (int k = 0; k < n; k++) {
            Ut[U_GRAVITY] += P->gl * y[k];
            fy[k] -= P->gl;
        }

    /* box walls: U = box_k/2 d^2 for a vertex a distance d beyond a wall's line (x0 - x beyond the
     * left wall, and so on; at a corner both), whose gradient pushes it back along the wall's
     * normal with box_k d. A side at infinity is never passed. */
    if (params_box_on(P)) {
        double kw = P->box_k, d;
        for (int k = 0; k < n; k++) {
            if ((d = P->box_x0 - x[k]) > 0) { Ut[U_BOX] += 0.5 * kw * d * d; fx[k] += kw * d; }
            if ((d = x[k] - P->box_x1) > 0) { Ut[U_BOX] += 0.5 * kw * d * d; fx[k] -= kw * d; }
            if ((d = P->box_y0 - y[k]) > 0) { Ut[U_BOX] += 0.5 * kw * d * d; fy[k] += kw * d; }
            if ((d = y[k] - P->box_y1) > 0) { Ut[U_BOX] += 0.5 * kw * d * d; fy[k] -= kw * d; }
        }
    }

    /* noise and activity (docs/model.md 3.1): a random force cv sqrt(2 D / dt) N(0, 1) per
     * component (fluctuation-dissipation with the damping cv: kT = cv D per degree of freedom),
     * keyed by (step, id, vertex): the same whatever the thread count; and self-propulsion cv v0
     * along the polarity, so that a free polygon moves at v0 */
    if (P->D > 0) {
        double amp = P->cv * sqrt(2 * P->D / P->dt), a, b;
        for (int k = 0; k < n; k++) {
            rng_keyed_normals(e->seed, e->step, e->id[p], k, RNG_VERTEX_NOISE, &a, &b);
            fx[k] += amp * a;
            fy[k] += amp * b;
        }
    }
    if (P->v0 > 0) {
        double px = P->cv * P->v0 * cos(e->polarity[p]), py = P->cv * P->v0 * sin(e->polarity[p]);
        for (int k = 0; k < n; k++) { fx[k] += px; fy[k] += py; }
    }
    for (int t = 0; t < U_TERMS; t++) {
        U += Ut[t];
        if (u) u[t] += Ut[t];
    }
    return U;
}
