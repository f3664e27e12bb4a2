/* Noise, activity and rate-driven birth and death (docs/model.md 3.1, 5.1): the defaults leave
 * a run as it was, diffusion and persistence against their formulas, reproducibility, and the
 * statistics of the event rates. */
#define _POSIX_C_SOURCE 200809L
#include "checkpoint.h"
#include "fixtures.h"
#include "forces.h"
#include "geometry.h"
#include "harness.h"
#include "sim.h"
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* With the noise and activity parameters at 0 (their defaults), the default input evolves exactly
 * as it does without them: positions and velocities after 3,000 steps (one division) hash to the
 * value recorded with their code compiled out (x86-64, GCC 12, glibc 2.36: other platforms may
 * round the traits' random draws differently, and then say so here). Recorded again when the
 * pair gap came to be taken from the projection, when a vertex's nearby edges came to be
 * summed in slot order (deliberate changes of rounding), and when refinement and division came
 * to follow the paper's program (docs/model.md 4, 5: the daughters differ). */
void test_sim_zero_noise_unchanged(void)
{
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);   /* (two polygons: more threads only wait at barriers) */
    static Sim s;
    sim_init(&s, &params_compiled, 1);
    ENSURE(sim_load_input(&s, "inputs/ensemble.off", 0) == 0);
    for (int k = 0; k < 3000; k++) ENSURE(sim_step(&s) == 0);
    uint64_t h = fx_state_hash(&s.e);
    ENSURE_MSG(h == 0xf46e360532d26cb6ull && s.e.np == 2, "state hash %016llx with %d polygons, recorded f46e360532d26cb6 with 2",
               (unsigned long long)h, s.e.np);
    sim_free(&s);
    omp_set_num_threads(threads);
}

/* A lattice of N free octagons (edges 0.1, between lmin and lmax: no remodeling), far apart, with
 * the given noise and activity; no growth, no adhesion. */
static void free_octagons(Sim *s, int N, double D, double v0, double Dr, double cv)
{
    Params P = params_compiled;
    P.alpha_mu = 0; P.Amax_mu = INFINITY; P.kh = 0; P.theta = 0;
    P.D = D; P.v0 = v0; P.Dr = Dr; P.cv = cv;
    sim_init(s, &P, 3);
    for (int k = 0; k < N; k++) fx_add_ngon(&s->e, 8, 0.13, 3.0 * (k % 20), 3.0 * (k / 20), 0);
    sim_draw_traits(s);
}

static void centroid(const Ensemble *e, int p, double *cx, double *cy)
{
    *cx = *cy = 0;
    for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) { *cx += e->x[i]; *cy += e->y[i]; }
    *cx /= e->count[p]; *cy /= e->count[p];
}

/* The index of the polygon with this id now (runs reorder polygons in memory: remodel.h). */
static int polygon_with_id(const Ensemble *e, int64_t id)
{
    for (int p = 0; p < e->np; p++)
        if (e->id[p] == id) return p;
    return -1;
}

/* Free diffusion (docs/model.md 3.1): each vertex's velocity is Maxwell-distributed with
 * <v^2> = 2 cv D per vertex (kT = cv D), and the centroid of a free polygon of n vertices
 * diffuses with D / n: <|dr|^2> = 4 (D / n) t, here for D and 4 D. 400 octagons, relaxed without
 * noise first (line tension shapes them: their deterministic motion would add to <v^2>), then
 * t = 1 with noise; the tolerances are about 3.5 standard errors (1 / sqrt(400) = 5 % for the
 * displacement). */
void test_sim_free_diffusion(void)
{
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    static Sim s;
    const int N = 400;
    double x0[400], y0[400], msd[2];
    int64_t id[400];
    for (int r = 0; r < 2; r++) {
        double D = r ? 0.04 : 0.01, v2 = 0;
        free_octagons(&s, N, 0, 0, 0, 10);
        for (int k = 0; k < 10000; k++) ENSURE(sim_step(&s) == 0);   /* (line tension shapes them first) */
        double still = 0;
        for (int i = 0; i < s.e.nv_used; i++) still += s.e.vx[i] * s.e.vx[i] + s.e.vy[i] * s.e.vy[i];
        ENSURE_MSG(still / s.e.nv_used < 0.01 * 2 * 10 * D, "<v^2> = %g after relaxing without noise", still / s.e.nv_used);
        s.P.D = D;
        double t0 = s.e.t;
        for (int p = 0; p < N; p++) { centroid(&s.e, p, &x0[p], &y0[p]); id[p] = s.e.id[p]; }
        int samples = 0;
        for (int k = 1; k <= 10000; k++) {
            ENSURE(sim_step(&s) == 0);
            if (k % 500 == 0 && k >= 2000)   /* (after the velocities settle, 1 / cv = 0.1) */
                for (int i = 0; i < s.e.nv_used; i++, samples++) v2 += s.e.vx[i] * s.e.vx[i] + s.e.vy[i] * s.e.vy[i];
        }
        v2 /= samples;
        ENSURE_MSG(fabs(v2 / (2 * 10 * D) - 1) < 0.05, "D = %g: <v^2> = %g, expected 2 cv D = %g", D, v2, 2 * 10 * D);
        msd[r] = 0;
        for (int p = 0; p < N; p++) {
            int q = polygon_with_id(&s.e, id[p]);
            ENSURE(q >= 0 && s.e.count[q] == 8);
            double cx, cy;
            centroid(&s.e, q, &cx, &cy);
            msd[r] += (cx - x0[p]) * (cx - x0[p]) + (cy - y0[p]) * (cy - y0[p]);
        }
        msd[r] /= N;
        double want = 4 * D / 8 * (s.e.t - t0);
        ENSURE_MSG(fabs(msd[r] / want - 1) < 0.18, "D = %g: centroid MSD %g after t = %g, expected 4 (D / 8) t = %g", D, msd[r], s.e.t - t0, want);
        sim_free(&s);
    }
    omp_set_num_threads(threads);
}

/* Active polygons without noise: the polarity diffuses, <cos(phi(t) - phi(0))> = exp(-Dr t), and
 * a free polygon's centroid follows the active Brownian particle: <|dr|^2> =
 * 2 v0^2 tau^2 (t / tau - 1 + exp(-t / tau)), tau = 1 / Dr, whose persistence length is v0 / Dr
 * (cv = 100: the polygon follows its propulsion within 0.01, short against tau = 0.5). */
void test_sim_active_persistence(void)
{
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    static Sim s;
    const int N = 400;
    const double v0 = 0.5, Dr = 2, tau = 1 / Dr;
    double x0[400], y0[400], phi0[400];
    int64_t id[400];
    free_octagons(&s, N, 0, v0, Dr, 100);
    for (int p = 0; p < N; p++) { centroid(&s.e, p, &x0[p], &y0[p]); phi0[p] = s.e.polarity[p]; id[p] = s.e.id[p]; }
    for (int k = 0; k < 10000; k++) ENSURE(sim_step(&s) == 0);
    double c = 0, msd = 0, t = s.e.t;
    for (int p = 0; p < N; p++) {
        int q = polygon_with_id(&s.e, id[p]);
        ENSURE(q >= 0);
        double cx, cy;
        centroid(&s.e, q, &cx, &cy);
        msd += (cx - x0[p]) * (cx - x0[p]) + (cy - y0[p]) * (cy - y0[p]);
        c += cos(s.e.polarity[q] - phi0[p]);
    }
    c /= N;
    msd /= N;
    double want = 2 * v0 * v0 * tau * tau * (t / tau - 1 + exp(-t / tau));
    ENSURE_MSG(fabs(c - exp(-Dr * t)) < 0.1, "<cos dphi> = %g at t = %g, expected exp(-Dr t) = %g", c, t, exp(-Dr * t));
    ENSURE_MSG(fabs(msd / want - 1) < 0.15, "MSD %g at t = %g, expected %g (persistence length v0 / Dr = %g)", msd, t, want, v0 / Dr);
    sim_free(&s);
    omp_set_num_threads(threads);
}

/* With noise, activity and rate-driven division and death, a packing of touching cells gives the
 * same state at 1 and 2 threads, and a checkpoint taken half-way continues to the same state. */
void test_sim_noise_reproducible(void)
{
    int threads = omp_get_max_threads();
    Params P = params_compiled;
    P.D = 0.05; P.v0 = 0.3; P.Dr = 1; P.k_div = 5; P.k_death = 2; P.p_death = 1e3;
    static Sim a, b, c;
    uint64_t h[2];
    for (int r = 0; r < 2; r++) {
        omp_set_num_threads(r + 1);
        sim_init(&a, &P, 9);
        for (int k = 0; k < 16; k++) fx_add_ngon(&a.e, 24, 0.5, 1.02 * (k % 4), 1.02 * (k / 4), 0.1 * k);
        sim_draw_traits(&a);
        for (int k = 0; k < 600; k++) ENSURE(sim_step(&a) == 0);
        h[r] = fx_state_hash(&a.e);
        ENSURE_MSG(a.divisions > 0 && a.deaths > 0, "%lld divisions, %lld deaths: the case tests no event",
                   (long long)a.divisions, (long long)a.deaths);
        if (r == 0) { sim_free(&a); continue; }
        char dir[] = "/tmp/ph_test_noisecp_XXXXXX", path[128], err[512], input[64];
        ENSURE(mkdtemp(dir));
        snprintf(path, sizeof path, "%s/checkpoint.bin", dir);
        sim_init(&b, &P, 9);
        for (int k = 0; k < 16; k++) fx_add_ngon(&b.e, 24, 0.5, 1.02 * (k % 4), 1.02 * (k / 4), 0.1 * k);
        sim_draw_traits(&b);
        for (int k = 0; k < 300; k++) ENSURE(sim_step(&b) == 0);
        ENSURE_MSG(checkpoint_write(path, &b, 0, "noise", NULL, err, sizeof err) == 0, "%s", err);
        sim_init(&c, &P, 1);
        int frame;
        ENSURE_MSG(checkpoint_read(path, &c, &frame, input, sizeof input, NULL, err, sizeof err) == 0, "%s", err);
        for (int k = 0; k < 300; k++) ENSURE(sim_step(&c) == 0);
        ENSURE_MSG(fx_state_hash(&c.e) == h[1], "the continued run differs from the uninterrupted one");
        sim_free(&a); sim_free(&b); sim_free(&c);
        snprintf(path, sizeof path, "rm -rf %s", dir);
        ENSURE(system(path) == 0);
    }
    ENSURE_MSG(h[0] == h[1], "1 and 2 threads differ with noise");
    omp_set_num_threads(threads);
}

/* Death at a constant rate (docs/model.md 5.1): each polygon dies when its integrated hazard
 * k_death t passes its Exp(1) threshold, so the survivors of 400 follow N exp(-k t): checked at
 * two times within 4 standard deviations of the binomial count. The deaths are counted apart
 * from the removals below Amin. */
void test_sim_death_rate_exponential(void)
{
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    static Sim s;
    free_octagons(&s, 400, 0, 0, 0, 10);
    s.P.k_death = 2;
    const double ts[2] = { 0.25, 0.5 };
    for (int k = 0, j = 0; j < 2; k++) {
        ENSURE(sim_step(&s) == 0);
        if (fabs(s.e.t - ts[j]) < 0.5 * s.P.dt) {
            double p = exp(-2 * ts[j]), want = 400 * p, sd = sqrt(400 * p * (1 - p));
            ENSURE_MSG(fabs(s.e.np - want) < 4 * sd, "%d survivors at t = %g, expected %.1f +- %.1f", s.e.np, ts[j], want, sd);
            ENSURE(s.deaths == 400 - s.e.np && s.removals == 0);
            j++;
        }
    }
    sim_free(&s);
    omp_set_num_threads(threads);
}

/* Division at a constant rate (n_div = 0): a Yule process, N0 exp(k t) cells on average with
 * variance N0 e^{kt} (e^{kt} - 1); 100 cells of 48 vertices with k = 1 to t = 0.5, within 4
 * standard deviations; Amax plays no part (it is far below the areas). */
void test_sim_division_rate_yule(void)
{
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    Params P = params_compiled;
    P.alpha_mu = 0; P.kh = 0; P.theta = 0; P.k_div = 1; P.n_div = 0; P.Amax_mu = 0.01; P.Amin = 0;
    static Sim s;
    sim_init(&s, &P, 5);
    for (int k = 0; k < 100; k++) fx_add_ngon(&s.e, 48, 0.6, 4.0 * (k % 10), 4.0 * (k / 10), 0);
    sim_draw_traits(&s);
    for (int k = 0; k < 5000; k++) ENSURE(sim_step(&s) == 0);
    double g = exp(0.5), want = 100 * g, sd = sqrt(100 * g * (g - 1));
    ENSURE_MSG(fabs(s.e.np - want) < 4 * sd, "%d cells at t = 0.5, expected %.1f +- %.1f", s.e.np, want, sd);
    ENSURE(s.divisions == s.e.np - 100);
    sim_free(&s);
    omp_set_num_threads(threads);
}

/* Birth and death at constant rates b and d, no dependence on crowding: the population grows on
 * average as N0 exp((b - d) t). Four seeds of 50 cells (48 vertices, radius 1.2, far apart: a
 * daughter of the fifth generation still has an area of about 0.1 and no polygon collapses), b = 2, d = 1, to
 * t = 0.5; the mean count is within 4 standard errors of the linear birth-death process's
 * (variance N0 (b + d) / (b - d) e^{(b-d)t} (e^{(b-d)t} - 1) per seed). */
void test_sim_birth_death_growth(void)
{
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    Params P = params_compiled;
    P.alpha_mu = 0; P.kh = 0; P.theta = 0; P.k_div = 2; P.n_div = 0; P.k_death = 1; P.p_death = 0; P.Amax_mu = 0.01; P.Amin = 0;
    static Sim s;
    double sum = 0;
    for (int seed = 1; seed <= 4; seed++) {
        sim_init(&s, &P, (uint64_t)seed);
        for (int k = 0; k < 50; k++) fx_add_ngon(&s.e, 48, 1.2, 4.0 * (k % 10), 4.0 * (k / 10), 0);
        sim_draw_traits(&s);
        for (int k = 0; k < 5000; k++) ENSURE(sim_step(&s) == 0);
        ENSURE_MSG(s.e.np == 50 + s.divisions - s.deaths, "seed %d: %d cells, %lld divisions (%lld postponed), %lld deaths, %lld removals", seed, s.e.np, (long long)s.divisions, (long long)s.topology.postponed, (long long)s.deaths, (long long)s.removals);
        sum += s.e.np;
        sim_free(&s);
    }
    double g = exp(0.5), want = 50 * g, se = sqrt(50 * 3.0 * g * (g - 1) / 4);
    ENSURE_MSG(fabs(sum / 4 - want) < 4 * se, "mean count %g at t = 0.5 over 4 seeds, expected %.1f +- %.1f", sum / 4, want, se);
    omp_set_num_threads(threads);
}

/* The waiting times of death at rate d = 5 are exponential: the death times of 400 polygons (from
 * the event log) against 1 - exp(-d t), Kolmogorov-Smirnov distance below the 1 % critical value
 * 1.63 / sqrt(n), with a fixed seed. */
void test_sim_waiting_times_exponential(void)
{
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    static Sim s;
    free_octagons(&s, 400, 0, 0, 0, 10);
    s.P.k_death = 5;
    s.e.log_events = 1;
    for (int k = 0; k < 20000 && s.e.np; k++) ENSURE(sim_step(&s) == 0);
    int n = s.e.nevents;
    ENSURE_MSG(n >= 399, "%d deaths of 400 by t = %g", n, s.e.t);
    double dmax = 0;
    for (int k = 0; k < n; k++) {   /* (the log is in time order) */
        ENSURE(s.e.events[k].type == EVENT_DEATH);
        double t = s.e.events[k].step * s.P.dt, F = 1 - exp(-5 * t);
        dmax = fmax(dmax, fmax(fabs((k + 1) / 400.0 - F), fabs(k / 400.0 - F)));
    }
    ENSURE_MSG(dmax < 1.63 / sqrt(400.0), "Kolmogorov-Smirnov distance %g, critical %g", dmax, 1.63 / 20);
    sim_free(&s);
    omp_set_num_threads(threads);
}
