/* Pair interactions: the force is minus the gradient of the pair energy in each zone of the
 * trilinear law, between polygons and within one; pair forces conserve momentum and do not
 * depend on where the polygons are; a frame's energy is the forces' energy, bit for bit. */
#include "contact_fixtures.h"
#include "harness.h"
#include "sim.h"
#include <omp.h>

/* relative error of the pair forces against central differences of the pair energy */
static double gradient_error(Contact *c, Ensemble *e, const Params *P, double *fbig)
{
    int n = e->nv_used;
    double *f = malloc(2 * (size_t)n * sizeof *f), big = 0, err = 0, d = 1e-7;
    pair_energy(c, e, P);
    for (int i = 0; i < n; i++) { f[2 * i] = e->fx[i]; f[2 * i + 1] = e->fy[i]; big = fmax(big, hypot(e->fx[i], e->fy[i])); }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            double *r = k ? &e->y[i] : &e->x[i], r0 = *r;
            *r = r0 + d; double up = pair_energy(c, e, P);
            *r = r0 - d; double dn = pair_energy(c, e, P);
            *r = r0;
            err = fmax(err, fabs(f[2 * i + k] + (up - dn) / (2 * d)));
        }
    free(f);
    *fbig = big;
    return big > 0 ? err / big : INFINITY;
}

void test_contact_potential_derivative(void)
{
    Params P = pair_params();
    for (int same = 0; same < 2; same++)
        for (double s = -0.02; s < 0.03; s += 0.00037) {
            double d = 1e-7, g = (pair_u(&P, s + d, same) - pair_u(&P, s - d, same)) / (2 * d);
            ENSURE_MSG(fabs(g - pair_du(&P, s, same)) < 1e-3 * (1 + fabs(g)), "s = %g same = %d", s, same);
        }
    /* continuity at the zone boundaries, zero beyond the reach, attraction only between polygons */
    ENSURE_SMALL(pair_u(&P, 0.02, 0), 1e-12);
    ENSURE_SMALL(pair_du(&P, 0.02, 0), 1e-9);
    ENSURE_CLOSE(pair_du(&P, 0.01, 0), P.kh * 0.01, 1e-9);
    ENSURE(pair_du(&P, 0.005, 0) > 0 && pair_du(&P, 0.005, 1) == 0 && pair_du(&P, -0.001, 1) < 0);
}

/* A flat hoop with 0.1-long edges and a thin triangle whose tip sits at separation s above the
 * middle of one edge: the tip interacts with that edge only, in the zone chosen by s. */
static void probe_setup(Ensemble *e, double s, double h)
{
    ensemble_init(e, 1);
    double x[40], y[40];
    int n = 0;
    for (int k = 0; k <= 20; k++) { x[n] = -1 + 0.1 * k; y[n++] = 0; }
    x[n] = 1; y[n++] = -0.5; x[n] = -1; y[n++] = -0.5;
    ensemble_add_polygon(e, n, x, y, 1, 0);
    double tx[3] = { 0.0623, 0.0623 + 0.02, 0.0623 - 0.02 }, ty[3] = { s + h, s + h + 0.6, s + h + 0.6 };
    ensemble_add_polygon(e, 3, tx, ty, 1, 0);
    uint64_t st = 3;   /* small random shifts keep every projection away from edge ends */
    for (int i = 0; i < e->nv_used; i++) { e->x[i] += fx_uniform(&st, -1e-4, 1e-4); e->y[i] += fx_uniform(&st, -1e-4, 1e-4); }
}

void test_contact_gradient_each_zone(void)
{
    Params P = pair_params();
    double s_zone[3] = { -0.004, 0.004, 0.015 };   /* repulsion, hardening, softening */
    for (int z = 0; z < 3; z++) {
        Ensemble e;
        Contact c;
        contact_init(&c);
        probe_setup(&e, s_zone[z], P.h);
        double big, err = gradient_error(&c, &e, &P, &big);
        ENSURE_MSG(big > 1e3, "zone %d: no force (%g)", z, big);
        ENSURE_MSG(err < 1e-6, "zone %d: relative error %.3g", z, err);
        /* the tip is pushed away in the repulsive zone and pulled in the adhesive ones */
        int tip = e.start[1];
        ENSURE(z == 0 ? e.fy[tip] > 0 : e.fy[tip] < 0);
        contact_free(&c);
        ensemble_free(&e);
    }
}

/* One thin polygon (a strip of height 0.008 < h) whose long sides repel each other; vertices
 * of the two sides are staggered so every projection is interior. */
void test_contact_gradient_self_repulsion(void)
{
    Params P = pair_params();
    double x[64], y[64];
    int n = 0;
    for (int k = 0; k <= 10; k++) { x[n] = 0.1 * k; y[n++] = 0; }
    for (int k = 0; k < 10; k++) { x[n] = 0.95 - 0.1 * k; y[n++] = 0.008; }
    Ensemble e;
    Contact c;
    ensemble_init(&e, 1);
    contact_init(&c);
    ensemble_add_polygon(&e, n, x, y, 1, 0);
    uint64_t st = 11;
    for (int i = 0; i < n; i++) { e.x[i] += fx_uniform(&st, -1e-4, 1e-4); e.y[i] += fx_uniform(&st, -1e-4, 1e-4); }
    double big, err = gradient_error(&c, &e, &P, &big);
    ENSURE(big > 1e3);
    ENSURE_MSG(err < 1e-6, "relative error %.3g", err);
    /* the sides push apart: bottom vertices down, top vertices up (the middle ones) */
    ENSURE(e.fy[5] < 0 && e.fy[15] > 0);
    contact_free(&c);
    ensemble_free(&e);
}

/* Self-contact exclusion (docs/model.md 2): a hairpin, a 0.03 x 0.004 rectangle with edges of about h/4,
 * repels itself across its width, except where the two points are within h of each other along
 * the hoop (around its short ends). Checked with cumulative arclengths, independently of the
 * code's walk along the hoop. */
void test_contact_self_exclusion_along_hoop(void)
{
    Params P = pair_params();
    double x[64], y[64], arc[64];
    int n = 0;
    for (int k = 0; k < 12; k++) { x[n] = 0.0025 * k; y[n++] = 0; }
    x[n] = 0.03; y[n++] = 0; x[n] = 0.03; y[n++] = 0.002;
    for (int k = 0; k < 12; k++) { x[n] = 0.03 - 0.00125 - 0.0025 * k; y[n++] = 0.004; }   /* staggered */
    x[n] = 0; y[n++] = 0.004; x[n] = 0; y[n++] = 0.002;
    Ensemble e;
    Contact c;
    ensemble_init(&e, 1);
    contact_init(&c);
    ensemble_add_polygon(&e, n, x, y, 1, 0);
    arc[0] = 0;
    for (int i = 1; i <= n; i++) arc[i] = arc[i - 1] + hypot(x[i % n] - x[i - 1], y[i % n] - y[i - 1]);
    contact_keep_records(&c, 1);
    pair_energy(&c, &e, &P);
    int pairs = 0;
    PairRec *rec = all_records(&c, &pairs);
    for (int m = 0; m < pairs; m++) {
        const PairRec *r = &rec[m];
        double at = arc[r->k] + r->w * (arc[r->k + 1] - arc[r->k]), d = fabs(at - arc[r->i]);
        ENSURE_MSG(d > P.h && arc[n] - d > P.h, "vertex %d and edge %d are %.3g apart along the hoop", r->i, r->k, fmin(d, arc[n] - d));
    }
    free(rec);
    ENSURE(pairs >= 10);   /* the long sides do repel each other */
    contact_free(&c);
    ensemble_free(&e);
}

/* With damping and friction on and random velocities, the pair forces of an overlapping pile of
 * polygons sum to zero. */
void test_contact_momentum(void)
{
    Params P = pair_params();
    P.cc = 30; P.mu = 0.4;
    Ensemble e;
    Contact c;
    ensemble_init(&e, 1);
    contact_init(&c);
    uint64_t st = 5;
    for (int p = 0; p < 30; p++)
        fx_add_ngon(&e, 12, 0.1, fx_uniform(&st, 0, 0.6), fx_uniform(&st, 0, 0.6), fx_uniform(&st, 0, 6));
    for (int i = 0; i < e.nv_used; i++) { e.vx[i] = fx_uniform(&st, -1, 1); e.vy[i] = fx_uniform(&st, -1, 1); }
    pair_energy(&c, &e, &P);
    double sx = 0, sy = 0, big = 0;
    for (int i = 0; i < e.nv_used; i++) { sx += e.fx[i]; sy += e.fy[i]; big = fmax(big, hypot(e.fx[i], e.fy[i])); }
    ENSURE(big > 1e3);
    ENSURE_SMALL(sx / big, 1e-11);
    ENSURE_SMALL(sy / big, 1e-11);
    contact_free(&c);
    ensemble_free(&e);
}

/* The pair forces do not depend on where the ensemble lies: 30 hexagon-ish 12-gons with contact
 * damping and friction, their coordinates multiples of 2^-24 so that moving them by (1024, -512)
 * is exact, give the same forces there up to the rounding of their sums. (The gap between a
 * vertex and an edge is taken from differences of coordinates; taken from the closest point's
 * absolute position it would carry the rounding of coordinates near 1024, 10^-11 of the force.) */
void test_contact_translation_invariant(void)
{
    Params P = pair_params();
    P.cc = 30; P.mu = 0.4;
    Ensemble e;
    Contact c;
    uint64_t st = 11;
    ensemble_init(&e, 1);
    contact_init(&c);
    for (int p = 0; p < 30; p++)
        fx_add_ngon(&e, 12, 0.1, fx_uniform(&st, 0, 0.6), fx_uniform(&st, 0, 0.6), fx_uniform(&st, 0, 6));
    int n = e.nv_used;
    for (int i = 0; i < n; i++) {
        e.x[i] = ldexp(round(ldexp(e.x[i], 24)), -24); e.y[i] = ldexp(round(ldexp(e.y[i], 24)), -24);
        e.vx[i] = fx_uniform(&st, -1, 1); e.vy[i] = fx_uniform(&st, -1, 1);
    }
    double *f0 = malloc(2 * (size_t)n * sizeof *f0), big = 0, err = 0;
    pair_energy(&c, &e, &P);
    for (int i = 0; i < n; i++) { f0[2 * i] = e.fx[i]; f0[2 * i + 1] = e.fy[i]; big = fmax(big, hypot(e.fx[i], e.fy[i])); }
    for (int i = 0; i < n; i++) { e.x[i] += 1024; e.y[i] -= 512; }
    pair_energy(&c, &e, &P);
    for (int i = 0; i < n; i++) err = fmax(err, hypot(e.fx[i] - f0[2 * i], e.fy[i] - f0[2 * i + 1]));
    ENSURE(big > 1e3);
    ENSURE_MSG(err <= 1e-14 * big, "forces differ by %g of %g after the move", err, big);
    free(f0);
    contact_free(&c);
    ensemble_free(&e);
}

/* contact_energy (a frame's log) sums each vertex's pair energy in slot order a block of 2,048
 * vertices at a time, without the forces: the same bits as contact_forces' energy, at 1 and 2
 * threads, in a jostling packing of 2,640 vertices with rigid polygons (two blocks, a polygon
 * split between them), and no force touched. */
void test_contact_energy_matches_forces(void)
{
    static Sim s;
    sim_init(&s, &params_compiled, 1);
    for (int c = 0; c < 80; c++) fx_add_ngon(&s.e, 33, 1, 2.01 * (c % 10) + 0.3 * (c / 10 % 2), 1.75 * (c / 10), 0);
    s.e.rigid[3] = s.e.rigid[44] = 1;
    sim_draw_traits(&s);
    int threads = omp_get_max_threads(), checked = 0;
    for (int st = 1; st <= 60; st++) {
        ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        if (st % 20) continue;
        Ensemble *e = &s.e;
        size_t nbytes = (size_t)e->nv_used * sizeof(double);
        double *fx = malloc(nbytes), *fy = malloc(nbytes), U = 0, lmax = forces_update_geometry(e);
        memcpy(fx, e->fx, nbytes); memcpy(fy, e->fy, nbytes);
        for (int t = 1; t <= 2; t++) {
            static Contact c;
            omp_set_num_threads(t);
            contact_init(&c);
            double Uref;
            contact_forces(&c, e, &s.P, lmax, &Uref);
            memcpy(e->fx, fx, nbytes); memcpy(e->fy, fy, nbytes);
            contact_free(&c);
            contact_init(&c);
            U = contact_energy(&c, e, &s.P, lmax);
            contact_free(&c);
            ENSURE_MSG(memcmp(&U, &Uref, sizeof U) == 0 && U != 0, "step %d, %d threads: energy %.17g, contact_forces' %.17g", st, t, U, Uref);
            ENSURE_MSG(!memcmp(fx, e->fx, nbytes) && !memcmp(fy, e->fy, nbytes), "step %d: contact_energy changed the forces", st);
        }
        omp_set_num_threads(threads);
        ENSURE(ensemble_vertex_count(e) > 2048);
        free(fx); free(fy);
        checked++;
    }
    ENSURE(checked == 3);
    sim_free(&s);
}
