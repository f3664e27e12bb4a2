/* Tests of the run's log (src/runlog.c): the observables of a known state against their
 * formulas. (The logs of a growing run, and of a run stopped and continued, as the program writes
 * them: tests/cli/runlog.sh.) */
#define _POSIX_C_SOURCE 200809L
#include "fixtures.h"
#include "forces.h"
#include "geometry.h"
#include "harness.h"
#include "output.h"
#include "runlog.h"
#include "sim.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The numbers of the last line of path (at most n), into v; returns how many. */
static int last_line(const char *path, double *v, int n)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[2048], last[2048] = "";
    while (fgets(line, sizeof line, f)) memcpy(last, line, sizeof line);
    fclose(f);
    int k = 0;
    for (char *p = last, *end; k < n && *p; p = *end ? end + 1 : end) {
        v[k++] = strtod(p, &end);
        if (end == p) return k - 1;
    }
    return k;
}

/* Two unit squares 3 apart, moving, one squeezed (A0 = 1.5): the observables of the frame are the
 * formulas' values, and their total is the sum of the terms. */
void test_runlog_observables_of_a_known_state(void)
{
    char dir[] = "/tmp/ph_test_runlog_XXXXXX", err[512], path[128];
    ENSURE(mkdtemp(dir));
    Params P = fx_params_zero();
    P.ka = 10; P.gamma = 2; P.h = 0.1; P.lmax = 2; P.kr = 1; P.kh = 1;
    static Sim s;
    sim_init(&s, &P, 1);
    double x[4] = { 0, 1, 1, 0 }, y[4] = { 0, 0, 1, 1 }, x2[4] = { 3, 4, 4, 3 };
    ensemble_add_polygon(&s.e, 4, x, y, 1, 0);
    ensemble_add_polygon(&s.e, 4, x2, y, 1, 0);
    s.e.A0[0] = 1.5;
    for (int i = 0; i < 8; i++) s.e.vx[i] = 0.5 * i, s.e.vy[i] = -1;
    ENSURE_MSG(runlog_open(dir, &s, 0, 0, 0, err, sizeof err) == 0, "%s", err);
    int nb[2] = { 0, 0 };
    double uc = sim_neighbors(&s, nb, NULL);
    ENSURE_MSG(runlog_frame(dir, &s, 0, nb, NULL, uc, err, sizeof err) == 0, "%s", err);
    snprintf(path, sizeof path, "%s/observables.csv", dir);
    double v[32];
    ENSURE(last_line(path, v, 32) == 9 + U_TERMS + 3);
    double kin = 0;
    for (int i = 0; i < 8; i++) kin += 0.5 * (0.25 * i * i + 1);
    ENSURE(v[0] == 0 && v[3] == 2 && v[4] == 8);
    ENSURE_MSG(fabs(v[5] - 1) < 1e-12 && fabs(v[6]) < 1e-12, "area mean %g, sd %g", v[5], v[6]);
    ENSURE_MSG(fabs(v[8] - kin) < 1e-9, "kinetic %g, expected %g", v[8], kin);
    ENSURE_MSG(fabs(v[9 + U_AREA] - 0.5 * 10 * 0.25) < 1e-9, "area energy %g, expected 1.25", v[9 + U_AREA]);
    ENSURE_MSG(fabs(v[9 + U_TENSION] - 2 * 8) < 1e-9, "tension energy %g, expected 16", v[9 + U_TENSION]);
    ENSURE_MSG(v[9 + U_TERMS] == 0, "contact energy %g between squares 3 apart", v[9 + U_TERMS]);
    double sum = v[9 + U_TERMS];
    for (int t = 0; t < U_TERMS; t++) sum += v[9 + t];
    ENSURE(fabs(v[10 + U_TERMS] - sum) < 1e-9);
    ENSURE_MSG(v[11 + U_TERMS] == 0, "%g nested polygons between squares 3 apart", v[11 + U_TERMS]);
    sim_free(&s);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(system(cmd) == 0);
}

/* area_std of areas that differ by 10^-8 around 1.747 (a packing's first frame): the spread about
 * the mean, not the difference of two nearly equal numbers (mean of squares minus square of the
 * mean was 3 to 7 times too large there: 1.28e-7 for 2.79e-8). */
void test_runlog_area_spread_of_close_areas(void)
{
    char dir[] = "/tmp/ph_test_runlog_XXXXXX", err[512], path[128];
    ENSURE(mkdtemp(dir));
    Params P = fx_params_zero();
    P.h = 0.1; P.lmax = 2;
    static Sim s;
    sim_init(&s, &P, 1);
    const double dA[3] = { 0, 3e-8, -2e-8 };
    double A[3], mean = 0, var = 0;
    for (int k = 0; k < 3; k++) {
        double a = sqrt(1.747 + dA[k]), x[4] = { 3 * k, 3 * k + a, 3 * k + a, 3 * k }, y[4] = { 0, 0, a, a };
        ensemble_add_polygon(&s.e, 4, x, y, 1, 0);
        A[k] = geom_area(x, y, 4);
        mean += A[k] / 3;
    }
    for (int k = 0; k < 3; k++) var += (A[k] - mean) * (A[k] - mean) / 3;
    ENSURE_MSG(runlog_open(dir, &s, 0, 0, 0, err, sizeof err) == 0, "%s", err);
    int nb[3] = { 0, 0, 0 };
    double uc = sim_neighbors(&s, nb, NULL);
    ENSURE_MSG(runlog_frame(dir, &s, 0, nb, NULL, uc, err, sizeof err) == 0, "%s", err);
    snprintf(path, sizeof path, "%s/observables.csv", dir);
    double v[32];
    ENSURE(last_line(path, v, 32) >= 7);
    ENSURE_MSG(sqrt(var) > 1e-8 && fabs(v[6] - sqrt(var)) <= 1e-6 * sqrt(var), "area_std %.12g, the spread is %.12g", v[6], sqrt(var));
    sim_free(&s);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(system(cmd) == 0);
}

/* The nested count (the last column): 10 hoops each holding a smaller one, 10 small hoops alone,
 * and with a small hoop 10^6 away: 10 either way. (The count's cells no longer grow with the
 * extent: it enlarged them to at most 4 per polygon, one cell for all with the far hoop.) */
void test_runlog_nested_with_far_polygon(void)
{
    for (int far = 0; far < 2; far++) {
        char dir[] = "/tmp/ph_test_runlog_XXXXXX", err[512], path[128], cmd[200];
        ENSURE(mkdtemp(dir));
        static Sim s;
        sim_init(&s, &params_compiled, 1);
        for (int k = 0; k < 10; k++) {
            fx_add_ngon(&s.e, 24, 1, 3.0 * k, 0, 0);
            fx_add_ngon(&s.e, 12, 0.2, 3.0 * k + 0.3, 0.1, 0);   /* (inside the last) */
            fx_add_ngon(&s.e, 12, 0.2, 3.0 * k, 5, 0);
        }
        if (far) fx_add_ngon(&s.e, 12, 0.2, 1e6, 1e6, 0);
        int *nb = calloc((size_t)s.e.np, sizeof *nb);
        ENSURE_MSG(runlog_open(dir, &s, 0, 0, 0, err, sizeof err) == 0, "%s", err);
        double uc = sim_neighbors(&s, nb, NULL);
        ENSURE_MSG(runlog_frame(dir, &s, 0, nb, NULL, uc, err, sizeof err) == 0, "%s", err);
        snprintf(path, sizeof path, "%s/observables.csv", dir);
        double v[32];
        ENSURE(last_line(path, v, 32) == 9 + U_TERMS + 3);
        ENSURE_MSG(v[11 + U_TERMS] == 10, "%g nested polygons%s, expected 10", v[11 + U_TERMS], far ? " with a hoop far away" : "");
        free(nb);
        sim_free(&s);
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        ENSURE(system(cmd) == 0);
    }
}

/* The status line's time left: constant vertices give frames x steps x vertices / rate; a count
 * that doubled in the last frame is taken to go on doubling (2 + 4 + 8 times as many vertex
 * steps in 3 frames as one frame at today's count); none without a rate. */
void test_output_eta_extrapolates_growth(void)
{
    ENSURE_CLOSE(output_eta(1e6, 1000, 1000, 3, 100), 3 * 100 * 1000 / 1e6, 1e-12);
    ENSURE_CLOSE(output_eta(1e6, 500, 1000, 3, 100), (2 + 4 + 8) * 100 * 1000 / 1e6, 1e-12);
    ENSURE_CLOSE(output_eta(1e6, 2000, 1000, 3, 100), 3 * 100 * 1000 / 1e6, 1e-12);   /* (shrinking: as now) */
    ENSURE(output_eta(0, 500, 1000, 3, 100) == 0);
    ENSURE(output_eta(1e6, 500, 1000, 0, 100) == 0);
    ENSURE(isfinite(output_eta(1, 1, 1 << 30, 1 << 30, 1 << 30)));
}
