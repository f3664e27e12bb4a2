/* The whole step against analytic cases: the energy without dissipation, Laplace's law, the flat
 * interface of adhesive cells, no attraction without adhesion, the attractor's terminal speed.
 * (The program end to end: tests/cli/.) */
#define _POSIX_C_SOURCE 200809L
#include "checkpoint.h"
#include "contact.h"
#include "remodel.h"
#include "topology.h"
#include "fixtures.h"
#include "forces.h"
#include "geometry.h"
#include "grid.h"
#include "integrate.h"
#include "harness.h"
#include "sim.h"
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <omp.h>
#include <math.h>

static double total_energy(Sim *s)
{
    double Ui, Up, K = 0, lmax = forces_update_geometry(&s->e);
    fx_internal_forces(&s->e, &s->P, &Ui);
    contact_forces(&s->contact, &s->e, &s->P, lmax, &Up);
    for (int i = 0; i < s->e.nv_used; i++) K += 0.5 * (s->e.vx[i] * s->e.vx[i] + s->e.vy[i] * s->e.vy[i]);
    return K + Ui + Up;
}

/* Without dissipation, a squeezed polygon oscillates; semi-implicit Euler is symplectic, so the
 * total energy oscillates by O(dt omega) about a constant: over 1e5 steps its band does not widen
 * and its mean does not drift. */
void test_sim_energy_bounded_without_dissipation(void)
{
    Params P = fx_params_zero();
    P.ka = 1e5; P.gamma = 1e3; P.kl = 1e4; P.kb = 0.1; P.kr = 1e7;
    P.lmin = 0; P.lmax = 10;                   /* no remodeling: the vertex set stays fixed */
    static Sim s;
    sim_init(&s, &P, 1);
    fx_add_ngon(&s.e, 30, 1, 0, 0, 0);
    for (int i = 0; i < 30; i++) { s.e.x[i] *= 1.15; s.e.y[i] *= 0.85; }   /* an ellipse, same l0 */
    s.e.A0[0] = 2.9;
    int n = 100000, window = n / 10;
    double Kmax = 0, mean[2] = { 0, 0 }, lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
    for (int k = 0; k < n; k++) {
        ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        double E = total_energy(&s), K = 0;
        for (int i = 0; i < s.e.nv_used; i++) K += 0.5 * (s.e.vx[i] * s.e.vx[i] + s.e.vy[i] * s.e.vy[i]);
        Kmax = fmax(Kmax, K);
        int w = k < window ? 0 : k >= n - window ? 1 : -1;
        if (w < 0) continue;
        mean[w] += E / window;
        lo[w] = fmin(lo[w], E);
        hi[w] = fmax(hi[w], E);
    }
    ENSURE(Kmax > 100);                                  /* it did oscillate */
    ENSURE_MSG((hi[0] - lo[0]) / Kmax < 0.05, "energy band %.3g of the kinetic scale", (hi[0] - lo[0]) / Kmax);
    ENSURE_MSG(hi[1] - lo[1] < 1.2 * (hi[0] - lo[0]), "band widened from %.4g to %.4g", hi[0] - lo[0], hi[1] - lo[1]);
    ENSURE_MSG(fabs(mean[1] - mean[0]) / Kmax < 1e-3, "drift %.3g of the kinetic scale", fabs(mean[1] - mean[0]) / Kmax);
    sim_free(&s);
}

/* A cell with line tension gamma and area stiffness ka relaxes to the radius where the pressure
 * p = -ka (A - A0) balances the tension, p = gamma / R (Laplace), i.e. ka (pi R^2 - A0) R = -gamma. */
void test_sim_laplace_law(void)
{
    Params P = fx_params_zero();
    P.ka = 1e3; P.gamma = 1e3; P.cv = 10; P.kr = 1e7;
    static Sim s;
    sim_init(&s, &P, 1);
    fx_add_ngon(&s.e, 40, 1, 0, 0, 0);
    s.e.A0[0] = PH_PI;
    double lo = 0.1, hi = 1;   /* solve the cubic by bisection */
    for (int k = 0; k < 100; k++) {
        double R = 0.5 * (lo + hi);
        if (P.ka * (PH_PI * R * R - PH_PI) * R + P.gamma < 0) lo = R; else hi = R;
    }
    double R = 0.5 * (lo + hi);
    ENSURE(R < 0.9);           /* a strong effect, not a rounding */
    for (int k = 0; k < 30000; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    int n = s.e.count[0];
    double A = geom_area(s.e.x, s.e.y, n), Rm = sqrt(A / PH_PI);
    ENSURE_MSG(fabs(Rm / R - 1) < 0.01, "radius %.5f, Laplace %.5f", Rm, R);
    double p = -P.ka * (A - s.e.A0[0]), Rl = geom_perimeter(s.e.x, s.e.y, n) / (2 * PH_PI);
    ENSURE_MSG(fabs(p * Rl / P.gamma - 1) < 0.01, "p R / gamma = %.5f", p * Rl / P.gamma);
    sim_free(&s);
}

/* minimum distance between the vertices of polygon p and the edges of polygon q */
static double gap(const Ensemble *e, int p, int q)
{
    double d = INFINITY;
    for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++)
        for (int j = e->start[q]; j < e->start[q] + e->count[q]; j++) {
            int k = ens_next(e, j);
            d = fmin(d, geom_point_segment_distance((Vec2){ e->x[i], e->y[i] }, (Vec2){ e->x[j], e->y[j] },
                                                    (Vec2){ e->x[k], e->y[k] }, NULL));
        }
    return d;
}

static int edges_cross(const Ensemble *e, int p, int q)
{
    for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++)
        for (int j = e->start[q]; j < e->start[q] + e->count[q]; j++) {
            int i1 = ens_next(e, i), j1 = ens_next(e, j);
            double ax = e->x[i], ay = e->y[i], bx = e->x[i1], by = e->y[i1], cx = e->x[j], cy = e->y[j], dx = e->x[j1], dy = e->y[j1];
            double d1 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax), d2 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
            double d3 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx), d4 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
            if (d1 * d2 < 0 && d3 * d4 < 0) return 1;
        }
    return 0;
}

static void two_cells(Sim *s, const Params *P, double gap0)
{
    sim_init(s, P, 1);
    fx_add_ngon(&s->e, 60, 1, -1 - gap0 / 2, 0, 0.01);
    fx_add_ngon(&s->e, 60, 1, 1 + gap0 / 2, 0, PH_PI + 0.01);
}

/* Two default (adhesive) cells placed within the adhesion range zip together: they settle with a
 * straight shared interface on the symmetry line x = 0, at the separation h where adhesion and
 * repulsion balance (s = 0), and never overlap. */
void test_sim_adhesive_cells_flat_interface(void)
{
    Params P = params_compiled;
    P.alpha_mu = 0;
    static Sim s;
    two_cells(&s, &P, P.h + 0.005);
    for (int k = 0; k < 20000; k++) {
        ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        if (k % 500 == 0) ENSURE(!edges_cross(&s.e, 0, 1) && gap(&s.e, 0, 1) > 0.5 * P.h);
    }
    /* vertices of cell 0 within the adhesion range of cell 1 form the interface */
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    for (int i = s.e.start[0]; i < s.e.start[0] + s.e.count[0]; i++) {
        double d = INFINITY;
        for (int j = s.e.start[1]; j < s.e.start[1] + s.e.count[1]; j++) {
            int k = ens_next(&s.e, j);
            d = fmin(d, geom_point_segment_distance((Vec2){ s.e.x[i], s.e.y[i] }, (Vec2){ s.e.x[j], s.e.y[j] }, (Vec2){ s.e.x[k], s.e.y[k] }, NULL));
        }
        if (d < P.h + P.sh) {
            xmin = fmin(xmin, s.e.x[i]); xmax = fmax(xmax, s.e.x[i]);
            ymin = fmin(ymin, s.e.y[i]); ymax = fmax(ymax, s.e.y[i]);
        }
    }
    ENSURE_MSG(ymax - ymin > 0.3, "interface length %.3f", ymax - ymin);   /* they zipped up */
    ENSURE_CLOSE(gap(&s.e, 0, 1), P.h, 0.05 * P.h);
    ENSURE_MSG(xmax - xmin < 0.01 * (ymax - ymin), "interface not straight: x spans %.4g", xmax - xmin);
    ENSURE_SMALL(0.5 * (xmin + xmax) + 0.5 * P.h, 0.2 * P.h);               /* at x = -h/2 */
    ENSURE(!edges_cross(&s.e, 0, 1) && gap(&s.e, 0, 1) > 0.5 * P.h);
    sim_free(&s);
}

/* distance between the centroids of polygons 0 and 1 */
static double centroid_distance(const Ensemble *e)
{
    Vec2 a = geom_centroid(e->x + e->start[0], e->y + e->start[0], e->count[0]);
    Vec2 b = geom_centroid(e->x + e->start[1], e->y + e->start[1], e->count[1]);
    return hypot(b.x - a.x, b.y - a.y);
}

/* With kh = 0 the same two cells feel no attraction: their centroids never approach (the cells
 * breathe as they relax, which moves vertices but not centroids). The adhesive control run pulls
 * them together. */
void test_sim_no_attraction_without_adhesion(void)
{
    for (int adhesive = 0; adhesive < 2; adhesive++) {
        Params P = params_compiled;
        P.alpha_mu = 0;
        if (!adhesive) P.kh = 0;
        static Sim s;
        two_cells(&s, &P, P.h + 0.005);
        double d0 = centroid_distance(&s.e), dmin = d0;
        for (int k = 0; k < 5000; k++) {
            ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
            dmin = fmin(dmin, centroid_distance(&s.e));
        }
        if (adhesive) ENSURE_MSG(dmin < d0 - 0.01, "the adhesive control did not attract (%.4g)", d0 - dmin);
        else ENSURE_MSG(dmin >= d0 - 1e-9, "centroids approached by %.3g", d0 - dmin);
        sim_free(&s);
    }
}

/* The attractor (paper Fig. 2B): a free cell far from the point drifts towards it at the speed
 * where viscous damping balances the pull, att_k / cv (within 1 %, after the transient e^{-cv t}),
 * and the others stay where they are; att_n cells are drawn at random, the same ones for the same
 * seed, and daughters inherit the mark. */
void test_sim_attractor_pulls_at_terminal_speed(void)
{
    Params P = fx_params_zero();
    P.cv = 10; P.att_k = 5; P.att_n = 2; P.att_x = 100; P.att_y = 0;
    P.ka = 1e4; P.gamma = 100;   /* (internal forces sum to zero: they must not move the centroid) */
    static Sim s, t;
    for (int k = 0; k < 2; k++) {
        Sim *m = k ? &t : &s;
        sim_init(m, &P, 9);
        for (int c = 0; c < 6; c++) fx_add_ngon(&m->e, 24, 0.5, 3.0 * c, 0, 0);
        sim_draw_traits(m);
        sim_pick_attracted(m);
    }
    int picked = 0;
    for (int p = 0; p < s.e.np; p++) {
        picked += s.e.attracted[p];
        ENSURE_MSG(s.e.attracted[p] == t.e.attracted[p], "polygon %d: the draw differs for the same seed", p);
    }
    ENSURE_MSG(picked == 2, "%d polygons picked, not att_n = 2", picked);
    double x0[6];
    for (int p = 0; p < 6; p++) { x0[p] = 0; for (int i = s.e.start[p]; i < s.e.start[p] + s.e.count[p]; i++) x0[p] += s.e.x[i] / s.e.count[p]; }
    const int steps = 3000;   /* t = 0.3 */
    for (int k = 0; k < steps; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    double T = steps * P.dt, v = P.att_k / P.cv, want = v * (T - (1 - exp(-P.cv * T)) / P.cv);
    for (int p = 0; p < 6; p++) {
        double xc = 0;
        for (int i = s.e.start[p]; i < s.e.start[p] + s.e.count[p]; i++) xc += s.e.x[i] / s.e.count[p];
        if (s.e.attracted[p]) ENSURE_MSG(fabs(xc - x0[p] - want) < 0.01 * want, "polygon %d moved %.6g towards the attractor, expected %.6g", p, xc - x0[p], want);
        else ENSURE_MSG(fabs(xc - x0[p]) < 1e-9, "polygon %d, not attracted, moved %.3g", p, xc - x0[p]);
    }
    for (int p = 0; p < 6; p++)
        if (s.e.attracted[p]) {
            int q = topology_divide(&s.e, &s.P, &s.topology, p);
            ENSURE_MSG(q >= 0 && s.e.attracted[p] && s.e.attracted[q], "division of polygon %d: daughters %d, %d marked %d, %d", p, p, q,
                       s.e.attracted[p], q >= 0 ? s.e.attracted[q] : -1);
            break;
        }
    sim_free(&s); sim_free(&t);
}

/* Growth gated by beta (docs/model.md 3, step 4): a compressed cell (A < beta A0) with a positive
 * rate keeps its A0; one with a negative rate still shrinks (the published program's rule), and
 * an uncompressed one grows. */
void test_sim_growth_gate_lets_compressed_cells_shrink(void)
{
    Params P = fx_params_zero();
    P.dt = 1e-3; P.h = 0.01; P.beta = 0.9;
    Ensemble e;
    ensemble_init(&e, 1);
    const double alpha[3] = { 2, -2, 2 }, squeeze[3] = { 0.5, 0.5, 1 };
    for (int p = 0; p < 3; p++) {
        fx_add_ngon(&e, 12, 1.0, 3.0 * p, 0, 0);
        e.A0[p] = 3; e.A[p] = squeeze[p] * 3; e.alpha[p] = alpha[p];
    }
    double vmax;
    ENSURE(integrate_step(&e, &P, &vmax) < 0);
    ENSURE(e.A0[0] == 3);
    ENSURE_CLOSE(e.A0[1], 3 - 2e-3, 1e-15);
    ENSURE_CLOSE(e.A0[2], 3 + 2e-3, 1e-15);
    ensemble_free(&e);
}
