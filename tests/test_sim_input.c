/* A simulation's input and frames: the frame check's self-crossings, inputs below Amin, initial
 * velocities, vertex updates that skip gaps, overlaps without repulsion named, the likely cause of
 * a fast input. */
#define _POSIX_C_SOURCE 200809L
#include "checkpoint.h"
#include "contact.h"
#include "remodel.h"
#include "topology.h"
#include "fixtures.h"
#include "forces.h"
#include "geometry.h"
#include "grid.h"
#include "harness.h"
#include "sim.h"
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <omp.h>
#include <math.h>

/* The check every frame passes before it is written (grid_crossing with self: no polygon crosses
 * itself) finds exactly what the brute-force validation of every edge pair finds, on the default
 * input run with lmin = 0 and theta = 1, where polygons do cross themselves (every 20th step up
 * to 240, then every step to 320). */
void test_sim_frame_check_finds_self_crossings(void)
{
    Params P = params_compiled;
    P.lmin = 0; P.theta = 1;
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);   /* (one small polygon: more threads would only wait at barriers) */
    static Sim s;
    sim_init(&s, &P, 1);
    ENSURE(sim_load_input(&s, "inputs/ensemble.off", 0) == 0);
    int crossed = 0, steps = 0;
    char msg[512];
    for (; steps < 320 && sim_step(&s) == 0; steps++) {
        if (steps < 240 && steps % 20) continue;   /* (every step around the first crossing, at 259) */
        int brute = ensemble_validate(&s.e, msg, sizeof msg) != 0 && strstr(msg, "intersects itself") != NULL, a, b;
        int grid = grid_crossing(&s.e, forces_update_geometry(&s.e), 1, &a, &b);
        ENSURE_MSG(brute == grid && (!grid || a == b), "step %d: brute force %d (%s), grid %d (%d, %d)", steps, brute, brute ? msg : "", grid, a, b);
        crossed += grid;
    }
    ENSURE_MSG(crossed > 0, "no polygon crossed itself in %d steps: the case tests nothing", steps);
    sim_free(&s);
    omp_set_num_threads(threads);
}

/* writes text into a new file path */
static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ENSURE(f && fputs(text, f) >= 0 && fclose(f) == 0);
}

/* whether a line of file path holds needle */
static int grep_file(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) found = strstr(line, needle) != NULL;
    fclose(f);
    return found;
}

/* sim_load_input of path with what it writes to stderr going to the file log */
static int load_input_logged(Sim *s, const char *path, const char *log)
{
    fflush(stderr);
    int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ENSURE(saved >= 0 && fd >= 0);
    dup2(fd, 2);
    close(fd);
    int r = sim_load_input(s, path, 0);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    return r;
}

/* Polygons of an input below Amin are not dropped silently: the warning counts them and names the
 * first, and the first step removes exactly those. */
void test_sim_input_below_amin_reported(void)
{
    char dir[] = "/tmp/ph_test_amin_XXXXXX", path[128], log[128];
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/in.off", dir);
    snprintf(log, sizeof log, "%s/err", dir);
    write_text(path, "OFF\n12 3 0\n0 0 0\n2 0 0\n2 2 0\n0 2 0\n5 0 0\n5.1 0 0\n5.1 0.1 0\n5 0.1 0\n8 0 0\n10 0 0\n10 2 0\n8 2 0\n"
               "4 0 1 2 3\n4 4 5 6 7\n4 8 9 10 11\n");
    Params P = params_compiled;
    P.Amin = 0.5; P.alpha_mu = 0; P.Amax_mu = INFINITY;
    static Sim s;
    sim_init(&s, &P, 1);
    int r = load_input_logged(&s, path, log);
    ENSURE(r == 0);
    ENSURE_MSG(grep_file(log, "warning: 1 of 3 polygons (the first: polygon 1) have an area below Amin = 0.5: the first step removes them"),
               "no warning naming the small polygon (%s)", log);
    ENSURE(sim_step(&s) == 0);
    ENSURE_MSG(s.e.np == 2 && s.removals == 1, "%d polygons, %lld removals after the first step", s.e.np, (long long)s.removals);
    sim_free(&s);
    remove(path);
    remove(log);
    ENSURE(rmdir(dir) == 0);
}

/* Initial velocities from a velocity file (docs/model.md 7): with cv = 0 and no contact, a free
 * polygon given (3, -4) moves its centroid by v t (internal forces sum to zero), the unlisted one
 * stays at rest. (A malformed file through the program: tests/cli/program.sh.) */
void test_sim_initial_velocities(void)
{
    char dir[] = "/tmp/ph_test_vel_XXXXXX", off[128], vel[128];
    ENSURE(mkdtemp(dir));
    snprintf(off, sizeof off, "%s/in.off", dir);
    snprintf(vel, sizeof vel, "%s/in.vel", dir);
    FILE *f = fopen(off, "w");
    ENSURE(f);
    fputs("OFF\n16 2 0\n", f);
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < 8; k++) fprintf(f, "%.17g %.17g 1\n", 5.0 * p + 0.2 * cos(0.785398 * k), 0.2 * sin(0.785398 * k));
    fputs("8 0 1 2 3 4 5 6 7\n8 8 9 10 11 12 13 14 15\n", f);
    fclose(f);
    write_text(vel, "# polygon vx vy\n1 3 -4\n");
    Params P = fx_params_zero();
    P.ka = 1e4; P.gamma = 1;   /* (undamped: a stronger tension sets off a breathing mode that collapses the octagon) */
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    static Sim s;
    sim_init(&s, &P, 1);
    const SimSetup setup = { .frames = -1, .steps = -1, .velocities = vel };
    ENSURE_MSG(sim_load_input(&s, off, &setup) == 0, "%s", s.error);
    Vec2 c0[2], c1[2];
    for (int p = 0; p < 2; p++) c0[p] = geom_centroid(s.e.x + s.e.start[p], s.e.y + s.e.start[p], s.e.count[p]);
    const int steps = 2000;
    for (int k = 0; k < steps; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    for (int p = 0; p < 2; p++) c1[p] = geom_centroid(s.e.x + s.e.start[p], s.e.y + s.e.start[p], s.e.count[p]);
    double t = steps * P.dt;
    ENSURE_CLOSE(c1[1].x - c0[1].x, 3 * t, 1e-9);
    ENSURE_CLOSE(c1[1].y - c0[1].y, -4 * t, 1e-9);
    ENSURE_SMALL(hypot(c1[0].x - c0[0].x, c1[0].y - c0[0].y), 1e-8);   /* (rounding of the internal forces) */
    sim_free(&s);
    omp_set_num_threads(threads);
    remove(off);
    remove(vel);
    ENSURE(rmdir(dir) == 0);
}

/* The vertex updates a run reports count vertices, not slots: a removal leaves a gap that
 * remodeling keeps (remodel.h), and the gap's stale slots are neither counted nor moved. */
void test_sim_vertex_updates_skip_gaps(void)
{
    Params P = fx_params_zero();
    P.lmin = 0; P.lmax = 10;   /* (nothing to remodel) */
    static Sim s;
    sim_init(&s, &P, 1);
    for (int p = 0; p < 3; p++) fx_add_ngon(&s.e, 40, 1, 3.0 * p, 0, 0);
    unsigned char keep[3] = { 1, 0, 1 };
    ensemble_keep(&s.e, keep);
    ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    ENSURE(s.e.nv_used == 120 && s.e.start[1] == 80);   /* the gap stayed */
    ENSURE_MSG(s.vertex_steps == 80, "%g vertex updates for 80 vertices", s.vertex_steps);
    ENSURE_CLOSE(s.e.x[80], 7, 1e-12);
    sim_free(&s);
}

/* Stacked polygons in a build without repulsion (kr = 0): the warning says that nothing pushes
 * them apart, not that they "push apart violently" (which it says with kr > 0). */
void test_sim_overlap_without_repulsion_named(void)
{
    char dir[] = "/tmp/ph_test_kr0_XXXXXX", path[128], log[128];
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/in.off", dir);
    snprintf(log, sizeof log, "%s/err", dir);
    write_text(path, "OFF\n8 2 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n0.5 0.5 0\n1.5 0.5 0\n1.5 1.5 0\n0.5 1.5 0\n4 0 1 2 3\n4 4 5 6 7\n");
    for (int kr = 0; kr < 2; kr++) {
        Params P = params_compiled;
        P.kr = kr ? 1e7 : 0;
        static Sim s;
        sim_init(&s, &P, 1);
        int r = load_input_logged(&s, path, log);
        ENSURE(r == 0);
        ENSURE_MSG(grep_file(log, "polygons 0 (line 11) and 1 (line 12) overlap on 25% of the smaller one's area (their edges cross)"),
                   "no warning naming the pair (%s)", log);
        if (kr) ENSURE_MSG(grep_file(log, "; they will push apart violently (--strict-input rejects this)"), "kr > 0: %s", log);
        else {
            ENSURE_MSG(grep_file(log, "; with kr = 0 there is no repulsion: nothing pushes them apart (--strict-input rejects this)"),
                       "kr = 0: no word that nothing separates them");
            ENSURE_MSG(!grep_file(log, "violently"), "kr = 0: said to push apart violently");
        }
        sim_free(&s);
    }
    remove(path);
    remove(log);
    ENSURE(rmdir(dir) == 0);
}

/* The likely cause of a blow-up names what is true. Two squares sent at each other at 99.9 of
 * h/dt = 100 by their velocity file blow up in the first step (the contact adds to that speed):
 * the cause names the velocity file's polygon and speed against h/dt. A vertex flung to 1e300
 * in a sound state (its speed was not checked: set by hand) blows up too, and the stability
 * estimate comes from the last sound state, not the flung one: no "use dt <= 0". */
void test_sim_likely_cause_of_fast_input(void)
{
    char dir[] = "/tmp/ph_test_fast_XXXXXX", off[128], vel[128], cause[512];
    ENSURE(mkdtemp(dir));
    snprintf(off, sizeof off, "%s/in.off", dir);
    snprintf(vel, sizeof vel, "%s/in.vel", dir);
    write_text(off, "OFF\n8 2 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n1.015 0 0\n2.015 0 0\n2.015 1 0\n1.015 1 0\n4 0 1 2 3\n4 4 5 6 7\n");
    write_text(vel, "0 99.9 0\n1 -99.9 0\n");
    static Sim s;
    const SimSetup fast = { .frames = -1, .steps = -1, .velocities = vel }, still = { .frames = -1, .steps = -1 };
    sim_init(&s, &params_compiled, 1);
    ENSURE_MSG(sim_load_input(&s, off, &fast) == 0 && sim_setup(&s, &fast) == 0, "%s", s.error);
    ENSURE_MSG(sim_step(&s) == -1, "no blow-up at 99.9 of h/dt");
    sim_likely_cause(&s, cause, sizeof cause);
    ENSURE_MSG(strstr(cause, "the velocity file gives polygon 0 a speed of 99.9, 99.9% of h/dt = 100 (the most a vertex may "
                      "move per step is h): start it slower, or use a smaller dt"), "%s", cause);
    sim_free(&s);
    sim_init(&s, &params_compiled, 1);
    ENSURE_MSG(sim_load_input(&s, off, &still) == 0 && sim_setup(&s, &still) == 0, "%s", s.error);
    s.e.vx[s.e.start[1]] = 1e300;
    ENSURE(sim_step(&s) == -1);
    sim_likely_cause(&s, cause, sizeof cause);
    ENSURE_MSG(!strstr(cause, "use dt <=") && strstr(cause, "it happened within 100 steps of the input"), "%s", cause);
    sim_free(&s);
    remove(off);
    remove(vel);
    ENSURE(rmdir(dir) == 0);
}

/* In a build with cell types, an input's type beyond them is named as read: z = 10000001 is type
 * 5000000 (it was named 1048577, the reader's cap), and a polygon mixing two large types names
 * both. */
void test_sim_input_large_type_named(void)
{
    char dir[] = "/tmp/ph_test_types_XXXXXX", path[128];
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/in.off", dir);
    Params P = params_compiled;
    ChemModel m = { .ntypes = 2 };
    static Sim s;
    const char *const text[2] = { "OFF\n3 1 0\n0 0 10000001\n1 0 10000001\n0 1 10000001\n3 0 1 2\n",
                                  "OFF\n3 1 0\n0 0 10000001\n1 0 4000000001\n0 1 10000001\n3 0 1 2\n" };
    const char *const want[2] = { "in.off: polygon 0 (line 6) has cell type 5000000 (its z is 2 type + phase bit), but "
                                  "params/default.h has 2 cell types (ntypes)",
                                  "in.off: polygon 0 (line 6) mixes cell types 5000000 and 2000000000 (a vertex's z is 2 type + "
                                  "phase bit)" };
    for (int k = 0; k < 2; k++) {
        write_text(path, text[k]);
        sim_init(&s, &P, 1);
        ENSURE_MSG(sim_chemistry(&s, &m) == 0, "%s", s.error);
        ENSURE(sim_load_input(&s, path, 0) == -1);
        ENSURE_MSG(strstr(s.error, want[k]), "%s", s.error);
        sim_free(&s);
    }
    remove(path);
    ENSURE(rmdir(dir) == 0);
}
