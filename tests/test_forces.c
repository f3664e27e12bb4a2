/* Internal forces: each conservative term is minus the gradient of its energy (central finite
 * differences on randomly perturbed polygons), internal forces carry no net force or torque,
 * and the dissipative terms have the paper's form. */
#include "fixtures.h"
#include "forces.h"
#include "geometry.h"
#include "harness.h"
#include <stdlib.h>
#include <string.h>

static double energy(Ensemble *e, const Params *P)
{
    double U;
    forces_update_geometry(e);
    fx_internal_forces(e, P, &U);
    return U;
}

/* A perturbed 16-gon away from the origin with random rest lengths and A0 != A. */
static void make_polygon(Ensemble *e, uint64_t seed, int phase)
{
    ensemble_init(e, 1);
    int p = fx_add_ngon(e, 16, 1.0, 0.7, -0.4, 0.3);
    uint64_t st = seed;
    for (int i = 0; i < 16; i++) {
        e->x[i] += fx_uniform(&st, -0.08, 0.08);
        e->y[i] += fx_uniform(&st, -0.08, 0.08);
        e->l0[i] *= fx_uniform(&st, 0.7, 1.3);
    }
    e->A0[p] = 2.4;
    e->phase[p] = (signed char)phase;
}

/* max over coordinates of |f + dU/dx| relative to max |f|; returns max |f| too */
static double gradient_error(Ensemble *e, const Params *P, double *fbig)
{
    int n = e->count[0];
    double *fx = malloc((size_t)n * sizeof *fx), *fy = malloc((size_t)n * sizeof *fy), big = 0, err = 0;
    energy(e, P);
    for (int i = 0; i < n; i++) { fx[i] = e->fx[i]; fy[i] = e->fy[i]; big = fmax(big, fmax(fabs(fx[i]), fabs(fy[i]))); }
    const double d = 1e-6;
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 2; c++) {
            double *r = c ? &e->y[i] : &e->x[i], r0 = *r;
            *r = r0 + d; double up = energy(e, P);
            *r = r0 - d; double dn = energy(e, P);
            *r = r0;
            double g = (up - dn) / (2 * d), f = c ? fy[i] : fx[i];
            err = fmax(err, fabs(f + g));
        }
    free(fx);
    free(fy);
    *fbig = big;
    return err / big;
}

void test_forces_gradient_each_term(void)
{
    static const char *names[] = { "area", "line tension", "edge elasticity", "bending", "hydrostatic", "edge gravity", "attractor",
                                   "box walls" };
    for (int term = 0; term < 8; term++)
        for (int trial = 0; trial < 3; trial++) {
            Params P = fx_params_zero();
            if (term == 0) P.ka = 1e5;
            if (term == 1) P.gamma = 1e3;
            if (term == 2) { P.kl = 1e4; P.Q = 1.2; }
            if (term == 3) P.kb = 2.0;
            if (term == 4) { P.rho = 3; P.g = 9.8; }
            if (term == 5) P.gl = 4.0;
            Ensemble e;
            make_polygon(&e, 17 + 101 * (uint64_t)trial, trial == 1 ? -1 : 1);
            if (term == 6) {   /* (trial 0: the point within h of a vertex, where the pull softens) */
                P.att_k = 3; P.att_n = 1; P.h = 0.05;
                P.att_x = e.x[e.start[0]] + (trial ? 0.7 : 0.3 * P.h); P.att_y = e.y[e.start[0]] - (trial ? 0.4 : 0.2 * P.h);
                e.attracted[0] = 1;
            }
            if (term == 7) {   /* (the 16-gon spans about [-0.3, 1.7] x [-1.4, 0.6]: vertices beyond each wall, and
                                * with trial 2 one beyond two walls at a corner, near (1.4, 0.3)) */
                P.box_k = 1e5;
                P.box_x0 = -0.2 + 0.1 * trial; P.box_x1 = 1.6 - 0.1 * trial;
                P.box_y0 = -1.3 + 0.1 * trial; P.box_y1 = 0.5 - 0.1 * trial;
            }
            double fmax, err = gradient_error(&e, &P, &fmax);
            ENSURE_MSG(fmax > 0, "%s: no force", names[term]);
            ENSURE_MSG(err < 1e-6, "%s (trial %d): relative error %.3g", names[term], trial, err);
            ensemble_free(&e);
        }
}

void test_forces_gradient_all_terms(void)
{
    Params P = fx_params_zero();
    P.ka = 1e5; P.gamma = 1e3; P.kl = 1e4; P.kb = 0.5; P.rho = 2; P.g = 5; P.gl = 1; P.att_k = 2; P.att_n = 1; P.att_x = 0.3;
    P.box_k = 1e4; P.box_x1 = 1.5; P.box_y0 = -1.2;
    Ensemble e;
    make_polygon(&e, 99, 1);
    e.attracted[0] = 1;
    double fmax, err = gradient_error(&e, &P, &fmax);
    ENSURE_MSG(err < 1e-6, "relative error %.3g", err);
    ensemble_free(&e);
}

/* Area, tension, edge elasticity and bending are invariant under translation and rotation:
 * their forces sum to zero and carry no torque. */
void test_forces_momentum_and_torque(void)
{
    Params P = fx_params_zero();
    P.ka = 1e5; P.gamma = 1e3; P.kl = 1e4; P.Q = 1.1; P.kb = 1.5;
    Ensemble e;
    make_polygon(&e, 5, 1);
    energy(&e, &P);
    double sx = 0, sy = 0, tq = 0, big = 0;
    for (int i = 0; i < e.count[0]; i++) {
        sx += e.fx[i]; sy += e.fy[i];
        tq += e.x[i] * e.fy[i] - e.y[i] * e.fx[i];
        big = fmax(big, hypot(e.fx[i], e.fy[i]));
    }
    ENSURE(big > 1e3);
    ENSURE_SMALL(sx / big, 1e-12);
    ENSURE_SMALL(sy / big, 1e-12);
    ENSURE_SMALL(tq / big, 1e-11);
    ensemble_free(&e);
}

/* viscous damping -cv v and drag -(rho cd / 4) |v.n| v, with n = perp(r_{k+1} - r_{k-1}) */
void test_forces_dissipation(void)
{
    Params P = fx_params_zero();
    P.cv = 7; P.rho = 2; P.cd = 0.5;
    Ensemble e;
    ensemble_init(&e, 1);
    fx_add_ngon(&e, 8, 1.0, 0, 0, 0);
    for (int i = 0; i < 8; i++) { e.vx[i] = 0.1 * i - 0.3; e.vy[i] = 0.05 * i * i - 0.2; }
    energy(&e, &P);
    for (int i = 0; i < 8; i++) {
        int a = (i + 7) % 8, b = (i + 1) % 8;
        double nx = -(e.y[b] - e.y[a]), ny = e.x[b] - e.x[a];
        double c = 7 + 0.25 * 2 * 0.5 * fabs(e.vx[i] * nx + e.vy[i] * ny);
        ENSURE_CLOSE(e.fx[i], -c * e.vx[i], 1e-14);
        ENSURE_CLOSE(e.fy[i], -c * e.vy[i], 1e-14);
    }
    ensemble_free(&e);
}

/* The step's one-pass forces_step gives, bit for bit, what forces_update_geometry and then
 * fx_internal_forces give: areas, perimeters, the longest edge and every force (all terms on,
 * several polygons with their vertices moving, on the threads of the run; one polygon larger
 * than the step's buffer of edge lengths). */
void test_forces_step_matches_phases(void)
{
    Params P = fx_params_zero();
    P.ka = 1e5; P.gamma = 1e3; P.kl = 1e4; P.Q = 1.1; P.kb = 0.5; P.rho = 2; P.g = 5; P.gl = 1; P.cv = 10; P.cd = 0.3;
    Ensemble a, b;
    ensemble_init(&a, 1);
    uint64_t st = 7;
    for (int p = 0; p < 40; p++) fx_add_ngon(&a, 12 + p % 9, 0.4 + 0.01 * p, (p % 8) * 1.1, (p / 8) * 1.1, 0.1 * p);
    fx_add_ngon(&a, 300, 1.5, 12, 0, 0);
    for (int p = 0; p < a.np; p++) a.A0[p] *= 1.1;
    ensemble_init(&b, 1);
    for (int p = 0; p < a.np; p++) {
        int s = a.start[p], q = ensemble_push_polygon(&b, a.count[p], a.x + s, a.y + s, a.vx + s, a.vy + s, a.l0 + s);
        b.A0[q] = a.A0[p];
    }
    /* (moved after the polygons were made: their stored areas and perimeters are stale) */
    for (int i = 0; i < a.nv_used; i++) {
        double dx = fx_uniform(&st, -0.02, 0.02), dy = fx_uniform(&st, -0.02, 0.02), vx = fx_uniform(&st, -1, 1), vy = fx_uniform(&st, -1, 1);
        a.x[i] += dx; a.y[i] += dy; a.vx[i] = vx; a.vy[i] = vy;
        b.x[i] += dx; b.y[i] += dy; b.vx[i] = vx; b.vy[i] = vy;
    }
    double la = forces_update_geometry(&a);
    fx_internal_forces(&a, &P, NULL);
    double lb = forces_step(&b, &P);
    ENSURE(la == lb && la > 0);
    for (int p = 0; p < a.np; p++) {
        ENSURE(a.A[p] == b.A[p] && a.L[p] == b.L[p]);
        for (int k = 0; k < a.count[p]; k++) {
            int i = a.start[p] + k, j = b.start[p] + k;
            ENSURE_MSG(a.fx[i] == b.fx[j] && a.fy[i] == b.fy[j], "polygon %d vertex %d", p, k);
        }
    }
    ensemble_free(&a);
    ensemble_free(&b);
}

/* The box walls' energy, term by term: U_box is box_k/2 times the sum of the squared distances of
 * the vertices beyond the walls (counted once per wall passed), as a direct sum finds it; a rigid
 * polygon is not pushed (no force, no energy); with every side at infinity nothing acts. */
void test_forces_box_walls_energy(void)
{
    Params P = fx_params_zero();
    P.box_k = 2e4; P.box_x0 = 0; P.box_x1 = 1.4; P.box_y0 = -1.1; P.box_y1 = 0.3;
    Ensemble e;
    make_polygon(&e, 3, 1);
    forces_update_geometry(&e);
    double u[U_TERMS] = { 0 }, want = 0;
    int beyond = 0;
    forces_polygon(&e, &P, 0, u);
    for (int i = 0; i < e.count[0]; i++) {
        double d[4] = { P.box_x0 - e.x[i], e.x[i] - P.box_x1, P.box_y0 - e.y[i], e.y[i] - P.box_y1 }, f[2] = { 0, 0 };
        for (int w = 0; w < 4; w++)
            if (d[w] > 0) { want += 0.5 * P.box_k * d[w] * d[w]; beyond++; f[w / 2] += (w % 2 ? -1 : 1) * P.box_k * d[w]; }
        ENSURE_CLOSE(e.fx[i], f[0], 1e-9 * P.box_k);
        ENSURE_CLOSE(e.fy[i], f[1], 1e-9 * P.box_k);
    }
    ENSURE_MSG(beyond >= 4, "only %d vertices beyond a wall", beyond);
    ENSURE_CLOSE(u[U_BOX], want, 1e-12 * want);
    ENSURE(!strcmp(forces_terms[U_BOX], "box"));
    e.rigid[0] = 1;
    double u2[U_TERMS] = { 0 };
    ENSURE(forces_polygon(&e, &P, 0, u2) == 0 && u2[U_BOX] == 0);
    for (int i = 0; i < e.count[0]; i++) ENSURE(e.fx[i] == 0 && e.fy[i] == 0);
    e.rigid[0] = 0;
    P.box_x0 = P.box_y0 = -INFINITY; P.box_x1 = P.box_y1 = INFINITY;
    ENSURE(!params_box_on(&P) && forces_polygon(&e, &P, 0, u2) == 0);
    ensemble_free(&e);
}
