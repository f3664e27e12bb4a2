/* Advection and dilution of the fields by the cells' motion (docs/model.md 11): a translated
 * field keeps its shape, growth dilutes, the amount is conserved, cells too fast are refused, the
 * same at any thread count and after a checkpoint. */
#define _POSIX_C_SOURCE 200809L   /* (mkdtemp) */
#include "chem_fixtures.h"
#include "forces.h"
#include "geometry.h"
#include "pair.h"
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* One step of a field carried by polygons whose vertex velocities the test sets: the cover, the
 * motion's faces and sub-steps, the advance by dt. */
static void carried_step(Chem *ch, Ensemble *e, double dt)
{
    char err[1024];
    forces_update_geometry(e);
    ENSURE(chem_respond(ch, e, 0.0) == 0);
    ENSURE_MSG(chem_transport(ch, e, dt, err, sizeof err) == 0, "%s", err);
    chem_advance(ch, dt);
}

/* the amount, centroid and variances of species 0 over the nodes (plain sums) */
static void moments(const Chem *ch, double *mass, double *mx, double *my, double *vx, double *vy)
{
    double m = 0, sx = 0, sy = 0, sxx = 0, syy = 0;
    for (int j = 0; j < ch->ny; j++)
        for (int i = 0; i < ch->nx; i++) {
            double c = ch->c[(size_t)j * ch->nx + i], x = ch->m.x0 + i * ch->m.dx, y = ch->m.y0 + j * ch->m.dx;
            m += c, sx += c * x, sy += c * y, sxx += c * x * x, syy += c * y * y;
        }
    *mass = m, *mx = sx / m, *my = sy / m;
    *vx = sxx / m - *mx * *mx, *vy = syy / m - *my * *my;
}

/* A blob of concentration (a Gaussian of width 0.2) inside a cell of radius 2.5 that translates at
 * V = (2, 1), with no diffusion, moves with the cell. Upwind transport at Courant numbers
 * nu = V h / dx (per sub-step h) moves the matter of a node one node downstream with probability
 * nu per sub-step, so the blob's centroid moves at exactly V and its variance grows by
 * dx^2 nu (1 - nu) per sub-step: by t V dx (1 - nu) in time t (the scheme's numerical diffusion
 * V dx (1 - nu) / 2), as long as its matter stays inside the cell. dx = 0.05, dt = 0.02 (two
 * sub-steps: nu = 0.4 in x, 0.2 in y), t = 2: the centroid must follow the cell's within 1e-6 (the
 * matter 5 widths out, at the membrane, is below that), the variances grow by 0.12 and 0.08
 * within 1 %, and the amount is kept to round-off. */
void test_chem_advect_translation(void)
{
    ChemModel m = model(0, 0, -3.5, -3.5, 7.5, 5, 0.05);
    m.sp[0].advect = 1;
    Chem ch;
    char err[512];
    ENSURE_MSG(chem_init(&ch, &m, 0.02, err, sizeof err) == 0, "%s", err);
    Ensemble e;
    ensemble_init(&e, 1);
    fx_add_ngon(&e, 96, 2.5, 0, 0, 0.1);
    const double V[2] = { 2, 1 }, dt = 0.02, s2 = 0.04;
    for (int i = 0; i < 96; i++) e.vx[i] = V[0], e.vy[i] = V[1];
    for (int j = 0; j < ch.ny; j++)
        for (int i = 0; i < ch.nx; i++) {
            double x = -3.5 + i * 0.05 - 0.1, y = -3.5 + j * 0.05 + 0.05;
            *node(&ch, 0, i, j) = exp(-(x * x + y * y) / (2 * s2));
        }
    double m0, x0, y0, vx0, vy0, m1, x1, y1, vx1, vy1;
    moments(&ch, &m0, &x0, &y0, &vx0, &vy0);
    Vec2 g0 = geom_centroid(e.x, e.y, 96);
    int omp = omp_get_max_threads();
    omp_set_num_threads(1);
    for (int n = 0; n < 100; n++) {
        carried_step(&ch, &e, dt);
        ENSURE(ch.nstep == 2);
        for (int i = 0; i < 96; i++) e.x[i] += V[0] * dt, e.y[i] += V[1] * dt;
    }
    omp_set_num_threads(omp);
    moments(&ch, &m1, &x1, &y1, &vx1, &vy1);
    Vec2 g1 = geom_centroid(e.x, e.y, 96);
    double t = 2, h = dt / 2, px = t * V[0] * 0.05 * (1 - V[0] * h / 0.05), py = t * V[1] * 0.05 * (1 - V[1] * h / 0.05);
    fprintf(stderr, "  blob moved by (%.9f, %.9f), the cell by (%.9f, %.9f); variances grew by %.6f and %.6f, predicted "
            "%.6f and %.6f (relative differences %.2g, %.2g)\n", x1 - x0, y1 - y0, g1.x - g0.x, g1.y - g0.y, vx1 - vx0, vy1 - vy0,
            px, py, (vx1 - vx0) / px - 1, (vy1 - vy0) / py - 1);
    ENSURE_SMALL((x1 - x0) - (g1.x - g0.x), 1e-6);
    ENSURE_SMALL((y1 - y0) - (g1.y - g0.y), 1e-6);
    ENSURE_SMALL(g1.x - g0.x - 4, 1e-9);
    ENSURE_CLOSE(vx1 - vx0, px, 0.01 * px);
    ENSURE_CLOSE(vy1 - vy0, py, 0.01 * py);
    ENSURE_SMALL((m1 - m0) / m0, 1e-13);
    ensemble_free(&e);
    chem_free(&ch);
}

/* The velocity (vx, vy) at (x, y) of a cell centred at (cx, cy) that grows at the relative area
 * rate g (dilation g / 2 in each direction) and rotates at angular velocity w. */
static void grow_spin(double g, double w, double cx, double cy, double x, double y, double *vx, double *vy)
{
    *vx = 0.5 * g * (x - cx) - w * (y - cy);
    *vy = 0.5 * g * (y - cy) + w * (x - cx);
}

/* Dilution: a cell whose area grows as A(t) = A(0) e^(g t) (its vertices moving with the field
 * (g / 2) (x - c)), with matter of concentration 1 on its nodes and none outside, no diffusion.
 * The polygon's affine field has divergence g, so a node whose upwind neighbours share its value
 * falls by the factor (1 - g h) per sub-step h, which is A(0)/A(t) = e^(-g t) to within explicit
 * Euler's g^2 h t / 2 (0.0025 for g = 0.5, h = 0.01, t = 2). The edge of the matter moves with the
 * membrane and is smeared by the scheme's numerical diffusion |u| dx / 2, over a width
 * sqrt(|u| dx t) = 0.2 (|u| <= g r / 2 = 0.41 at the membrane, r = 1.65 at t = 2): the nodes more
 * than 4 such widths (0.8) inside the membrane must hold (1 - g h)^n to 1e-12, and A(0)/A(t)
 * within 0.003. The matter is not lost but spread over the area gained: the amount is kept to
 * round-off, and the mean the cell senses (over the nodes it covers, the smeared rim included)
 * is A(0)/A(t) within 5 %. */
void test_chem_advect_dilution(void)
{
    ChemModel m = model(0, 0, -2.5, -2.5, 2.5, 2.5, 0.05);
    m.sp[0].advect = 1;
    Chem ch;
    char err[512];
    const double g = 0.5, dt = 0.01, cx = 0.13, cy = -0.07, r0 = 1;
    ENSURE_MSG(chem_init(&ch, &m, dt, err, sizeof err) == 0, "%s", err);
    Ensemble e;
    ensemble_init(&e, 1);
    fx_add_ngon(&e, 96, r0, cx, cy, 0.05);
    double X0[96], Y0[96];
    memcpy(X0, e.x, sizeof X0);
    memcpy(Y0, e.y, sizeof Y0);
    forces_update_geometry(&e);
    ENSURE(chem_respond(&ch, &e, 0.0) == 0);
    for (size_t k = 0; k < (size_t)ch.nx * ch.ny; k++) ch.c[k] = ch.owner[k] >= 0;
    double before = chem_amount(&ch, 0), expect = 1;
    int omp = omp_get_max_threads();
    omp_set_num_threads(1);
    for (int n = 0; n < 200; n++) {
        double f = exp(0.5 * g * n * dt);   /* (the radius's factor at this step's start) */
        for (int i = 0; i < 96; i++) {
            e.x[i] = cx + f * (X0[i] - cx), e.y[i] = cy + f * (Y0[i] - cy);
            grow_spin(g, 0, cx, cy, e.x[i], e.y[i], &e.vx[i], &e.vy[i]);
        }
        carried_step(&ch, &e, dt);
        for (int k = 0; k < ch.nstep; k++) expect *= 1 - g * dt / ch.nstep;
    }
    omp_set_num_threads(omp);
    double shrink = exp(-g * 200 * dt), r = r0 / sqrt(shrink), exact = 0, diluted = 0, sensed = 0;
    int inner = 0, covered = 0;
    for (int j = 0; j < ch.ny; j++)
        for (int i = 0; i < ch.nx; i++) {
            double c = *node(&ch, 0, i, j), d = hypot(-2.5 + i * 0.05 - cx, -2.5 + j * 0.05 - cy);
            if (d < r - 0.8) {
                exact = fmax(exact, fabs(c / expect - 1));
                diluted = fmax(diluted, fabs(c / shrink - 1));
                inner++;
            }
            if (d < r) sensed += c, covered++;
        }
    sensed /= covered;
    double after = chem_amount(&ch, 0);
    fprintf(stderr, "  A(0)/A(t) = %.6f; %d inner nodes hold (1 - g h)^n = %.6f within %.2g, A(0)/A(t) within %.4f; "
            "the mean over the cell %.6f; amount %.17g -> %.17g\n", shrink, inner, expect, exact, diluted, sensed, before, after);
    ENSURE(inner > 800);
    ENSURE_SMALL(exact, 1e-12);
    ENSURE_SMALL(diluted, 0.003);
    ENSURE_SMALL(sensed / shrink - 1, 0.05);
    ENSURE_SMALL((after - before) / before, 1e-13);
    ensemble_free(&e);
    chem_free(&ch);
}

/* With zero flux on every side, no reaction or degradation, and diffusion that jumps at the
 * membranes (D_in = 0.05, D_out = 0.01), advection keeps the amount to round-off while cells
 * translate into a side, grow and spin, and (the sub-steps following the speed) every
 * concentration stays >= 0; the field differs from the one at rest. An advected species whose
 * cells all rest gives the same bits as one not advected. */
void test_chem_advect_conserves(void)
{
    Chem ch[3];
    char err[512];
    for (int run = 0; run < 3; run++) {   /* advected and moving; advected at rest; not advected at rest */
        ChemModel m = model(0.05, 0, -2, -1.5, 2, 1.5, 0.05);
        m.sp[0].D_out = 0.01;
        m.sp[0].advect = run < 2;
        ENSURE_MSG(chem_init(&ch[run], &m, 0.01, err, sizeof err) == 0, "%s", err);
        Ensemble e;
        ensemble_init(&e, 1);
        fx_add_ngon(&e, 48, 0.6, 1.0, 0.1, 0);     /* into the right side */
        fx_add_ngon(&e, 48, 0.5, -1.0, 0.2, 0);    /* growing and spinning */
        fx_add_ngon(&e, 32, 0.4, -0.2, -0.9, 0);   /* spinning the other way */
        uint64_t rng = 11;
        for (size_t k = 0; k < (size_t)ch[run].nx * ch[run].ny; k++) ch[run].c[k] = fx_uniform(&rng, 0, 1);
        double before = chem_amount(&ch[run], 0), low = INFINITY;
        int most = 0;
        for (int n = 0; n < 100; n++) {
            for (int p = 0; p < 3 && run == 0; p++) {
                Vec2 c = geom_centroid(e.x + e.start[p], e.y + e.start[p], e.count[p]);
                for (int i = e.start[p]; i < e.start[p] + e.count[p]; i++) {
                    if (p == 0) e.vx[i] = 1.5, e.vy[i] = 0.3;
                    else grow_spin(p == 1 ? 1.0 : 0, p == 1 ? 3.0 : -5.0, c.x, c.y, e.x[i], e.y[i], &e.vx[i], &e.vy[i]);
                }
            }
            carried_step(&ch[run], &e, 0.01);
            if (run == 0) most = ch[run].nstep > most ? ch[run].nstep : most;
            for (int i = 0; i < e.nv_used; i++) e.x[i] += e.vx[i] * 0.01, e.y[i] += e.vy[i] * 0.01;
            for (size_t k = 0; k < (size_t)ch[run].nx * ch[run].ny; k++) low = fmin(low, ch[run].c[k]);
        }
        double after = chem_amount(&ch[run], 0);
        fprintf(stderr, "  run %d: amount %.17g -> %.17g (relative change %.2g), least c %.3g, at most %d sub-steps\n",
                run, before, after, fabs(after - before) / before, low, most > 0 ? most : ch[run].nsub);
        ENSURE_SMALL((after - before) / before, 1e-13);
        ENSURE(low >= 0);
        if (run == 0) ENSURE(most > ch[run].nsub);   /* (the motion, not diffusion, set the sub-steps) */
        ensemble_free(&e);
    }
    size_t n = (size_t)ch[0].nx * ch[0].ny;
    double differ = 0;
    for (size_t k = 0; k < n; k++) differ = fmax(differ, fabs(ch[0].c[k] - ch[2].c[k]));
    ENSURE_MSG(differ > 0.01, "advection changed the field by at most %g", differ);
    ENSURE_MSG(!memcmp(ch[1].c, ch[2].c, n * sizeof *ch[1].c), "an advected species at rest is not the same as one not advected");
    for (int run = 0; run < 3; run++) chem_free(&ch[run]);
}

/* Cells faster than max_substeps sub-steps can follow are refused in the step (the motion is not
 * known at start), naming the speed, D, dx and dt, and that the motion limits it: a cell moving
 * at 64 along x, on dx = 1/16 with dt = 1/64, carries matter out of a node at 1024 per time
 * unit, so it needs 16 sub-steps (diffusion alone 1). */
void test_chem_advect_refuses_fast_cells(void)
{
    ChemModel m = model(0, 0, -2, -2, 2, 2, 0.0625);
    m.sp[0].advect = 1;
    m.max_substeps = 15;
    Chem ch;
    char err[1024];
    ENSURE_MSG(chem_init(&ch, &m, 0.015625, err, sizeof err) == 0, "%s", err);
    ENSURE(ch.nsub == 1);
    Ensemble e;
    ensemble_init(&e, 1);
    fx_add_ngon(&e, 32, 0.8, 0, 0, 0);
    for (int i = 0; i < 32; i++) e.vx[i] = 64, e.vy[i] = 0;
    forces_update_geometry(&e);
    ENSURE(chem_respond(&ch, &e, 0.0) == 0);
    ENSURE(chem_transport(&ch, &e, 0.015625, err, sizeof err) == -1 && ch.too_fast);
    ENSURE_MSG(strstr(err, "species 0 (a) at speeds up to 64,") && strstr(err, "at rates up to 1024") && strstr(err, "D = 0 ") &&
               strstr(err, "dx = 0.0625") && strstr(err, "dt = 0.015625 takes 16 sub-steps, more than max_substeps = 15") &&
               strstr(err, "the motion is what limits it (diffusion alone takes 1)"), "%s", err);
    chem_free(&ch);
    m.every = 4;   /* (the same chemical step, 4 time steps: the message says which it is) */
    ENSURE_MSG(chem_init(&ch, &m, 0.015625 / 4, err, sizeof err) == 0, "%s", err);
    ENSURE(chem_respond(&ch, &e, 0.0) == 0);
    ENSURE(chem_transport(&ch, &e, 0.015625, err, sizeof err) == -1);
    ENSURE_MSG(strstr(err, "so a chemical step of 0.015625 (chem_every = 4 time steps of 0.00390625) takes 16 sub-steps"), "%s", err);
    chem_free(&ch);
    m.every = 1;
    m.max_substeps = 16;
    ENSURE_MSG(chem_init(&ch, &m, 0.015625, err, sizeof err) == 0, "%s", err);
    ENSURE(chem_respond(&ch, &e, 0.0) == 0);
    ENSURE_MSG(chem_transport(&ch, &e, 0.015625, err, sizeof err) == 0, "%s", err);
    ENSURE(ch.nstep == 16 && ch.moving && !ch.too_fast);
    chem_advance(&ch, 0.015625);
    ENSURE(!ch.moving);
    ensemble_free(&e);
    chem_free(&ch);
    /* in a simulation: the step fails with the time, and the likely cause names max_substeps */
    static Sim s;
    Params P = fx_params_zero();
    P.dt = 0.015625;
    m.max_substeps = 15;
    sim_init(&s, &P, 1);
    ENSURE_MSG(sim_chemistry(&s, &m) == 0, "%s", s.error);
    fx_add_ngon(&s.e, 32, 0.8, 0, 0, 0);
    for (int i = 0; i < 32; i++) s.e.vx[i] = 64;
    ENSURE(sim_step(&s) == -1);
    char cause[400];
    sim_likely_cause(&s, cause, sizeof cause);
    ENSURE_MSG(strstr(s.error, "chemistry at t = 0 (step 0): the cells carry species 0 (a) at speeds up to 64,"), "%s", s.error);
    ENSURE_MSG(strstr(cause, "max_substeps = 15") && strstr(cause, "raise P_chem_dx or P_chem_max_substeps, or lower dt"), "%s", cause);
    sim_free(&s);
}

/* The coupled run with the morphogen advected: the same bits at 1 and 2 threads (after 300
 * steps) and after a checkpoint at step 700 of 1500 (the motion is a function of the state at
 * each step's start), and not the bits of the run without advection. */
void test_chem_advect_threads_and_checkpoint(void)
{
    int threads = omp_get_max_threads();
    static Sim a, b, c, d;
    coupled_sim(&a, 1, 1, 1);
    coupled_sim(&b, 2, 1, 1);
    coupled_sim(&c, 1, 1, 1);
    coupled_sim(&d, 1, 0, 1);
    uint64_t early = 0;
    for (int k = 0; k < 1500; k++) {
        ENSURE_MSG(sim_step(&a) == 0, "%s", a.error);
        if (k == 299) early = fields_hash(&a);
    }
    for (int k = 0; k < 300; k++) ENSURE_MSG(sim_step(&d) == 0, "%s", d.error);
    omp_set_num_threads(2);
    for (int k = 0; k < 300; k++) ENSURE_MSG(sim_step(&b) == 0, "%s", b.error);
    omp_set_num_threads(1);
    ENSURE_MSG(early == fields_hash(&b), "1 and 2 threads differ");
    ENSURE_MSG(early != fields_hash(&d), "advection changed nothing");
    for (int k = 0; k < 700; k++) ENSURE(sim_step(&c) == 0);
    char path[] = "/tmp/ph_test_chem_XXXXXX", file[64], err[512], input[64];
    int frame;
    through_checkpoint(&c, 1, 1, path, file, sizeof file);
    for (int k = 0; k < 800; k++) ENSURE(sim_step(&c) == 0);
    ENSURE_MSG(fields_hash(&a) == fields_hash(&c), "the run continued from its checkpoint differs");
    /* a build without advection refuses the checkpoint */
    sim_free(&d);
    coupled_sim(&d, 1, 0, 1);
    ENSURE(checkpoint_read(file, &d, &frame, input, sizeof input, NULL, err, sizeof err) == -1);
    ENSURE_MSG(strstr(err, "other cell types or species settings"), "%s", err);
    unlink(file);
    rmdir(path);
    sim_free(&a); sim_free(&b); sim_free(&c); sim_free(&d);
    omp_set_num_threads(threads);
}
