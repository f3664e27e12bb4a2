/* Tests of src/params.c: PARAMS_LIST and its users agree. Every parameter has its line in
 * params_print (the banner, the frames and the restart comparison), survives a checkpoint, and a
 * changed value of each is refused on restart, by the program itself. */
#define _POSIX_C_SOURCE 200809L
#include "checkpoint.h"
#include "forces.h"
#include "geometry.h"
#include "fixtures.h"
#include "harness.h"
#include "params.h"
#include "sim.h"
#include "text.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the parameters of the list, by name, in order */
static const char *const names[] = {
#define NAME(type, name, fmt, range) #name,
    PARAMS_LIST(NAME)
#undef NAME
};
enum { NPARAMS = sizeof names / sizeof names[0] };

/* the smallest change of a value that prints differently */
static double bump_double(double v) { return isfinite(v) ? nextafter(v, INFINITY) : 1.0; }
static int bump_int(int v) { return v + 1; }

/* P with parameter k changed */
static Params bumped(Params P, int k)
{
    int j = 0;
#define BUMP(type, name, fmt, range) if (j++ == k) P.name = bump_##type(P.name);
    PARAMS_LIST(BUMP)
#undef BUMP
    return P;
}

/* params_print of P into buf: its lines, one per parameter */
static int print_lines(const Params *P, char *buf, size_t size, char **line)
{
    FILE *f = fmemopen(buf, size, "w");
    ENSURE(f != NULL);
    params_print(f, P, "# ");
    ENSURE(fclose(f) == 0);
    int n = 0;
    for (char *s = strtok(buf, "\n"); s; s = strtok(NULL, "\n")) line[n < 64 ? n++ : n] = s;
    return n;
}

/* One line per parameter, in list order, "# name = value"; a change of parameter k changes line
 * k and no other. The box's lines (PARAMS_BOX, the last) are there when a wall is, and only then
 * (without them, the lines of a run without walls are what they were before the box existed). */
void test_params_print_every_parameter(void)
{
    static char a[8192], b[8192];
    char *la[65], *lb[65];
#define ONE(type, name, fmt, range) + 1
    enum { NBOX = 0 PARAMS_BOX(ONE) };
#undef ONE
    Params P = params_compiled;
    ENSURE(!params_box_on(&P));
    ENSURE_MSG(print_lines(&P, a, sizeof a, la) == NPARAMS - NBOX, "without walls, params_print wrote a line count unlike "
               "PARAMS_LIST's %d less the box's %d", NPARAMS, NBOX);
    ENSURE(!strstr(la[NPARAMS - NBOX - 1], "box_") && !strncmp(names[NPARAMS - NBOX], "box_", 4));
    P.box_x0 = -3;   /* (a left wall) */
    ENSURE_MSG(print_lines(&P, a, sizeof a, la) == NPARAMS, "params_print wrote a line count unlike PARAMS_LIST's %d", NPARAMS);
    for (int k = 0; k < NPARAMS; k++) {
        size_t n = strlen(names[k]);
        ENSURE_MSG(!strncmp(la[k], "# ", 2) && !strncmp(la[k] + 2, names[k], n) && la[k][2 + n] == ' ' &&
                   strstr(la[k], " = "), "line %d is '%s', not parameter %s", k, la[k], names[k]);
    }
    for (int k = 0; k < NPARAMS; k++) {
        Params Q = bumped(P, k);
        print_lines(&P, a, sizeof a, la);
        ENSURE(print_lines(&Q, b, sizeof b, lb) == NPARAMS);
        for (int j = 0; j < NPARAMS; j++)
            ENSURE_MSG(!strcmp(la[j], lb[j]) == (j != k), "changing %s: line %d '%s' vs '%s'", names[k], j, la[j], lb[j]);
    }
}

/* Every parameter, each set to its own value, reads back from a checkpoint bit for bit. */
void test_params_checkpoint_roundtrip(void)
{
    Params P = params_compiled;
    int k = 0;
#define SET(type, name, fmt, range) k++; P.name = (type)(1.25 * k);   /* (distinct values: 1.25, 2.5, ..., 35, 36, 37) */
    PARAMS_LIST(SET)
#undef SET
    P.lmax = 5.125; P.theta = 0.625; P.alpha_normal = 1;   /* (distinct too, and within params_check: a checkpoint must pass it) */
    static Sim s, r;
    sim_init(&s, &P, 3);
    for (int k = 0; k < P.Nr; k++) {   /* (a checkpoint holds Nr rigid polygons) */
        int p = fx_add_ngon(&s.e, 3, 0.1, 0.5 * k, 10, 0);
        s.e.rigid[p] = 1;
    }
    fx_add_ngon(&s.e, 12, 1, 0, 0, 0);
    sim_draw_traits(&s);   /* (and division areas drawn as a run draws them) */
    char dir[] = "/tmp/ph_test_params_XXXXXX", path[96], err[512] = "", input[64];
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/checkpoint.bin", dir);
    ENSURE_MSG(checkpoint_write(path, &s, 0, "in.off", NULL, err, sizeof err) == 0, "%s", err);
    sim_init(&r, &params_compiled, 1);
    int frame;
    ENSURE_MSG(checkpoint_read(path, &r, &frame, input, sizeof input, NULL, err, sizeof err) == 0, "%s", err);
    remove(path);
    rmdir(dir);
#define SAME(type, name, fmt, range) ENSURE_MSG(!memcmp(&r.P.name, &s.P.name, sizeof s.P.name), "%s did not survive", #name);
    PARAMS_LIST(SAME)
#undef SAME
    sim_free(&s);
    sim_free(&r);
}

/* The program refuses to restart from a checkpoint of a run with any parameter changed, but the
 * frame count and steps per frame, which are the run's own (-n, -s) and taken from it, and the
 * stiffness of walls that the build does not have. */
void test_params_restart_refuses_changes(void)
{
    char dir[] = "/tmp/ph_test_params_XXXXXX", run[96], path[128], log[128], args[256], err[512] = "";
    ENSURE(mkdtemp(dir));
    snprintf(run, sizeof run, "%s/run", dir);
    snprintf(path, sizeof path, "%s/checkpoint.bin", run);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(args, sizeof args, "-q -n 0 --restart %s", run);
    ENSURE(mkdir(run, 0755) == 0);
    static Sim s;
    for (int k = -1; k < NPARAMS; k++) {   /* (k = -1: nothing changed) */
        Params P = k < 0 ? params_compiled : bumped(params_compiled, k);
        sim_init(&s, &P, 1);
        fx_add_ngon(&s.e, 12, 1, 0, 0, 0);
        sim_draw_traits(&s);   /* (its division area as a run draws it) */
        ENSURE_MSG(checkpoint_write(path, &s, 0, "inputs/ensemble.off", NULL, err, sizeof err) == 0, "%s", err);
        sim_free(&s);
        int own = k >= 0 && (!strcmp(names[k], "Nf") || !strcmp(names[k], "Ns"));
        /* (the walls' stiffness of a build without walls acts nowhere, and is neither printed nor
         * compared; a wall's position changed from infinity puts up a wall, which is refused) */
        own |= k >= 0 && !strcmp(names[k], "box_k") && !params_box_on(&params_compiled);
        int status = fx_run(args, log);
        ENSURE_MSG(status == (k < 0 || own ? 0 : 2), "restart with %s changed: exit status %d (see %s)",
                   k < 0 ? "nothing" : names[k], status, log);
    }
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(fx_sh(cmd) == 0);
}

/* The stiffness omega^2 = -d.(dF/dr).d / |d|^2 of polygon 0 along the mode d (central
 * differences of the internal forces, amplitude eps). */
static double mode_stiffness(Ensemble *e, const Params *P, const double *dx, const double *dy, double eps)
{
    int s0 = e->start[0], n = e->count[0];
    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y), num = 0, den = 0;
    ENSURE(x && y);
    memcpy(x, e->x + s0, (size_t)n * sizeof *x);
    memcpy(y, e->y + s0, (size_t)n * sizeof *y);
    for (int sign = 1; sign >= -1; sign -= 2) {
        for (int k = 0; k < n; k++) { e->x[s0 + k] = x[k] + sign * eps * dx[k]; e->y[s0 + k] = y[k] + sign * eps * dy[k]; }
        forces_update_geometry(e);
        fx_internal_forces(e, P, NULL);
        for (int k = 0; k < n; k++) num -= sign * (e->fx[s0 + k] * dx[k] + e->fy[s0 + k] * dy[k]) / (2 * eps);
    }
    for (int k = 0; k < n; k++) { den += dx[k] * dx[k] + dy[k] * dy[k]; e->x[s0 + k] = x[k]; e->y[s0 + k] = y[k]; }
    free(x);
    free(y);
    return num / den;
}

/* The stable time step names the term that limits it. The area and bending terms are the
 * stiffnesses of the modes derived in params.c, checked against the force code: a 40-gon of
 * radius 1 breathing along dA/dr_i (omega^2 = ka |dA/dr|^2, rigid polygons left out), and a
 * 400-gon of radius 1 (edges 0.0157, nearly straight) in its zigzag (omega^2 = 16 kb / l^3). With
 * ka or kb above the repulsion, the start-up warning names area elasticity or bending; walls
 * stiffer than it (box_k, counted only where there is a wall) or a damping of cv dt > 2 name
 * theirs. */
void test_params_stable_dt_names_the_stiffest_term(void)
{
    static Sim s;
    Params P = fx_params_zero();
    P.kr = 1e5;
    P.ka = 1e7;
    sim_init(&s, &P, 1);
    fx_add_ngon(&s.e, 40, 1, 0, 0, 0);
    double big[4] = { -50, 50, 50, -50 }, bigy[4] = { -50, -50, 50, 50 };
    ensemble_add_polygon(&s.e, 4, big, bigy, 1, 1);   /* rigid: has no area term */
    double g2 = sim_area_g2(&s), want = 40 * pow(sin(2 * PH_PI / 40), 2);
    ENSURE_CLOSE(g2, want, 1e-12);
    double dx[400], dy[400];
    for (int k = 0; k < 40; k++) {   /* dA/dr_k = (r_{k+1} - r_{k-1})^perp / 2, outward */
        int a = s.e.start[0] + (k + 39) % 40, b = s.e.start[0] + (k + 1) % 40;
        dx[k] = 0.5 * (s.e.y[b] - s.e.y[a]);
        dy[k] = -0.5 * (s.e.x[b] - s.e.x[a]);
    }
    ENSURE_CLOSE(mode_stiffness(&s.e, &P, dx, dy, 1e-7) / (P.ka * g2), 1, 1e-3);

    const char *what;
    double dt_max = params_stable_dt(&P, g2, &what);
    ENSURE_CLOSE(dt_max, 2 / sqrt(P.ka * g2), 1e-15);
    ENSURE_MSG(strstr(what, "area elasticity ka") != NULL, "%s", what);
    char buf[512];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    P.dt = 1e-3;   /* (dt_max = 6.39e-4) */
    ENSURE(params_warn_dt(f, &P, g2) == 1);
    fclose(f);
    ENSURE_MSG(strstr(buf, "warning: dt = 0.001 exceeds the stability limit 0.000639 ") &&
               strstr(buf, "(area elasticity ka of the largest polygon"), "%s", buf);
    P.dt = 5e-4;
    ENSURE(params_warn_dt(stderr, &P, g2) == 0);
    sim_free(&s);

    P = fx_params_zero();
    P.kr = 1e5;
    P.kb = 1;
    sim_init(&s, &P, 1);
    fx_add_ngon(&s.e, 400, 1, 0, 0, 0);
    for (int k = 0; k < 400; k++) {   /* vertices alternately out and in */
        double phi = 2 * PH_PI * k / 400;
        dx[k] = (k % 2 ? -1 : 1) * cos(phi);
        dy[k] = (k % 2 ? -1 : 1) * sin(phi);
    }
    double l = 2 * sin(PH_PI / 400);
    ENSURE_CLOSE(mode_stiffness(&s.e, &P, dx, dy, 1e-9) / (16 * P.kb / (l * l * l)), 1, 2e-2);
    P.lmin = 0.02;
    dt_max = params_stable_dt(&P, sim_area_g2(&s), &what);
    ENSURE_CLOSE(dt_max, 2 / sqrt(16 * P.kb / (P.lmin * P.lmin * P.lmin)), 1e-15);
    f = fmemopen(buf, sizeof buf, "w");
    P.dt = 2e-3;   /* (dt_max = 1.4e-3) */
    ENSURE(params_warn_dt(f, &P, sim_area_g2(&s)) == 1);
    fclose(f);
    ENSURE_MSG(strstr(buf, "(bending kb over lmin"), "%s", buf);
    sim_free(&s);

    P = params_compiled;   /* the defaults: repulsion limits, and dt is well below */
    params_stable_dt(&P, 1.0, &what);
    ENSURE_MSG(!strcmp(what, "repulsion kr"), "%s", what);
    ENSURE(params_warn_dt(stderr, &P, 1.0) == 0);

    /* walls stiffer than the repulsion (omega^2 = box_k), counted only when there is a wall; an
     * explicit damping of cv dt > 2 (omega^2 = cv^2) */
    P.box_k = 4e8;
    params_stable_dt(&P, 1.0, &what);
    ENSURE_MSG(!strcmp(what, "repulsion kr"), "%s", what);
    P.box_y0 = 0;
    ENSURE_CLOSE(params_stable_dt(&P, 1.0, &what), 1e-4, 1e-18);
    ENSURE_MSG(strstr(what, "box walls box_k"), "%s", what);
    P.cv = 3e4;
    ENSURE_CLOSE(params_stable_dt(&P, 1.0, &what), 2 / 3e4, 1e-18);
    ENSURE_MSG(strstr(what, "viscous damping cv"), "%s", what);
}

/* The banner's and frames' numbers: 0.2 is printed as 0.2 (not 0.20000000000000001), pi as
 * 3.141592653589793, and every one of 100,000 random doubles of every magnitude reads back as
 * itself. */
void test_params_numbers_shortest_exact(void)
{
    char buf[32];
    ENSURE(!strcmp(text_number(0.2, buf), "0.2"));
    ENSURE(!strcmp(text_number(3.14159265358979323846, buf), "3.141592653589793"));
    ENSURE(!strcmp(text_number(1e-4, buf), "0.0001") && !strcmp(text_number(1e5, buf), "100000"));
    uint64_t rng = 1;
    for (int k = 0; k < 100000; k++) {
        double v = fx_uniform(&rng, -1, 1) * pow(10, fx_uniform(&rng, -300, 300));
        ENSURE_MSG(strtod(text_number(v, buf), NULL) == v, "%.17g printed as %s", v, buf);
    }
    FILE *f = tmpfile();
    ENSURE(f);
    params_print(f, &params_compiled, "");
    rewind(f);
    char line[256];
    int seen = 0;
    while (fgets(line, sizeof line, f)) seen |= !strcmp(line, "lmax      = 0.2\n");
    fclose(f);
    ENSURE(seen);
}

/* --set NAME=VALUE (params_set): every form of a number that the header could hold is read as the
 * compiler reads it (1e3, 0x1p-3, -INFINITY, an int with a sign), with P_ or without, into its
 * parameter alone; box_k follows a set kr (the header's box_k is its kr) unless it is set too.
 * Each malformed text is refused with its reason, leaving the parameters and marks as they were:
 * no '=', an unknown name (with the closest), a name fixed at build time, a value that is not a
 * number in full, an int parameter given a non-integer or one beyond an int. */
void test_params_set_reads_and_refuses(void)
{
    ENSURE(params_compiled.box_k == params_compiled.kr);   /* (the default header's, which the cases assume) */
    Params P = params_compiled;
    ParamsSet set = { { 0, 0 } };
    char msg[512];
    ENSURE(params_set(&P, &set, "gamma=2e3", msg, sizeof msg) == PARAM_gamma && P.gamma == 2000);
    ENSURE(params_set(&P, &set, "P_h=0x1p-7", msg, sizeof msg) == PARAM_h && P.h == 0.0078125);
    ENSURE(params_set(&P, &set, "box_x0=-INFINITY", msg, sizeof msg) == PARAM_box_x0 && P.box_x0 == -INFINITY);
    ENSURE(params_set(&P, &set, "att_n=+3", msg, sizeof msg) == PARAM_att_n && P.att_n == 3);
    ENSURE(params_set(&P, &set, "Amax_mu=3.14159265358979323846", msg, sizeof msg) == PARAM_Amax_mu && P.Amax_mu == 3.14159265358979323846);
    ENSURE(params_set(&P, &set, "kr=2e7", msg, sizeof msg) == PARAM_kr && P.kr == 2e7 && P.box_k == 2e7);
    int k = 0;
#define SAME(type, name, fmt, range) \
    ENSURE_MSG(params_is_set(&set, k) == (k == PARAM_gamma || k == PARAM_h || k == PARAM_box_x0 || k == PARAM_att_n || \
               k == PARAM_Amax_mu || k == PARAM_kr), "%s marked %d", #name, params_is_set(&set, k)); \
    if (!params_is_set(&set, k) && k != PARAM_box_k) ENSURE_MSG(!memcmp(&P.name, &params_compiled.name, sizeof P.name), "%s changed", #name); \
    k++;
    PARAMS_LIST(SAME)
#undef SAME
    ENSURE(set.bits[1] == 0 && k == PARAMS_COUNT);
    ENSURE(params_set(&P, &set, "box_k=5", msg, sizeof msg) == PARAM_box_k && params_set(&P, &set, "kr=3e7", msg, sizeof msg) == PARAM_kr);
    ENSURE(P.box_k == 5 && P.kr == 3e7);   /* (box_k set: it no longer follows kr) */
    static const struct { const char *text, *want; } bad[] = {
        { "gamma", "expected NAME=VALUE" },
        { "gama=1", "no parameter 'gama'; did you mean gamma?" },
        { "P_lmn=1", "no parameter 'lmn'; did you mean lmin?" },
        { "xyzzy=1", "no parameter 'xyzzy' (the names are those of the banner's parameter lines)" },
        { "NS=2", "P_NS is fixed at build time" },
        { "P_ntypes=2", "P_ntypes is fixed at build time" },
        { "chem_dx=0.5", "P_chem_dx is fixed at build time" },
        { "TYPE_gamma=1", "P_TYPE_gamma is fixed at build time" },
        { "CHEM_SPECIES=1", "P_CHEM_SPECIES is fixed at build time" },
        { "gamma=abc", "gamma needs a number (such as 1e3, -0.5 or INFINITY), not 'abc'" },
        { "gamma=1e", "not '1e'" },
        { "gamma=", "not ''" },
        { "gamma= 1", "not ' 1'" },
        { "gamma=1 ", "not '1 '" },
        { "gamma=1e999", "gamma = 1e999 is beyond the range of a double" },
        { "Nr=1.5", "Nr is an integer parameter, and '1.5' is not an integer" },
        { "att_n=1e3", "'1e3' is not an integer" },
        { "att_n=", "'' is not an integer" },
        { "att_n=99999999999", "att_n = 99999999999 is beyond the range of an int" },
    };
    for (size_t j = 0; j < sizeof bad / sizeof bad[0]; j++) {
        Params Q = P;
        ParamsSet before = set;
        msg[0] = 0;
        ENSURE_MSG(params_set(&Q, &set, bad[j].text, msg, sizeof msg) == -1 && strstr(msg, bad[j].want),
                   "--set %s: '%s', expected '%s'", bad[j].text, msg, bad[j].want);
        ENSURE_MSG(!memcmp(&Q, &P, sizeof P) && !memcmp(&set, &before, sizeof set), "--set %s changed the parameters", bad[j].text);
    }
    /* nan is a number to read, and params_check's ranges refuse it as they do for the header's values */
    ENSURE(params_set(&P, &set, "gamma=nan", msg, sizeof msg) == PARAM_gamma);
    ENSURE(params_check(&P, msg, sizeof msg) == -1 && !strcmp(msg, "gamma must be a finite number"));
}

/* The words of the banner and the messages (params_set_text): names in list order, or --set words
 * with the values as the frames print them. */
void test_params_set_text(void)
{
    Params P = params_compiled;
    ParamsSet set = { { 0, 0 } };
    char msg[256], text[256];
    params_set_text(&P, &set, 0, text, sizeof text);
    ENSURE(!strcmp(text, ""));
    ENSURE(params_set(&P, &set, "Nr=2", msg, sizeof msg) == PARAM_Nr && params_set(&P, &set, "lmax=0.3", msg, sizeof msg) == PARAM_lmax);
    params_set_text(&P, &set, 0, text, sizeof text);
    ENSURE_MSG(!strcmp(text, "lmax, Nr"), "%s", text);
    params_set_text(&P, &set, 1, text, sizeof text);
    ENSURE_MSG(!strcmp(text, "--set lmax=0.3 --set Nr=2"), "%s", text);
}

/* A restart (params_merge): the run's --set values replace the header's, and its marks become the
 * run's; a --set given again with the run's value is taken, with another value refused, naming
 * the parameter and both values; so is a --set of a parameter the run did not set, but changes. */
void test_params_merge_restart(void)
{
    Params run = params_compiled, P;
    ParamsSet run_set = { { 0, 0 } }, set;
    char msg[512];
    ENSURE(params_set(&run, &run_set, "gamma=3e3", msg, sizeof msg) >= 0 && params_set(&run, &run_set, "att_n=2", msg, sizeof msg) >= 0);
    ENSURE(params_set(&run, &run_set, "kr=2e7", msg, sizeof msg) >= 0);
    /* no --set on the restart: the run's */
    P = params_compiled, set = (ParamsSet){ { 0, 0 } };
    ENSURE(params_merge(&P, &set, &run, &run_set, msg, sizeof msg) == 0);
    ENSURE(!memcmp(&P, &run, sizeof P) && !memcmp(&set, &run_set, sizeof set));   /* (box_k followed kr again) */
    /* the run's value again, and a parameter it did not set at the header's value */
    P = params_compiled, set = (ParamsSet){ { 0, 0 } };
    ENSURE(params_set(&P, &set, "gamma=3000", msg, sizeof msg) >= 0 && params_set(&P, &set, "kb=0", msg, sizeof msg) >= 0);
    ENSURE_MSG(params_merge(&P, &set, &run, &run_set, msg, sizeof msg) == 0, "%s", msg);
    ENSURE(!memcmp(&P, &run, sizeof P) && !memcmp(&set, &run_set, sizeof set));
    /* another value: refused */
    static const char *const bad[][2] = { { "gamma=2e3", "--set gamma=2000: the run was started with gamma = 3000" },
                                          { "att_n=1", "--set att_n=1: the run was started with att_n = 2" },
                                          { "kb=1", "--set kb=1: the run was started with kb = 0" } };
    for (int j = 0; j < 3; j++) {
        P = params_compiled, set = (ParamsSet){ { 0, 0 } };
        ENSURE(params_set(&P, &set, bad[j][0], msg, sizeof msg) >= 0);
        ENSURE_MSG(params_merge(&P, &set, &run, &run_set, msg, sizeof msg) == -1 && strstr(msg, bad[j][1]), "--set %s: %s", bad[j][0], msg);
    }
}

/* The parameters set on the command line survive a checkpoint, bit for bit. */
void test_params_set_checkpoint_roundtrip(void)
{
    static Sim s, r;
    char dir[] = "/tmp/ph_test_params_XXXXXX", path[96], err[512] = "", input[64];
    Params P = params_compiled;
    ParamsSet set = { { 0, 0 } };
    ENSURE(params_set(&P, &set, "gamma=1500", err, sizeof err) >= 0 && params_set(&P, &set, "box_k=7", err, sizeof err) >= 0);
    sim_init(&s, &P, 3);
    s.set = set;
    fx_add_ngon(&s.e, 12, 1, 0, 0, 0);
    sim_draw_traits(&s);
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/checkpoint.bin", dir);
    ENSURE_MSG(checkpoint_write(path, &s, 0, "in.off", NULL, err, sizeof err) == 0, "%s", err);
    sim_init(&r, &params_compiled, 1);
    int frame;
    ENSURE_MSG(checkpoint_read(path, &r, &frame, input, sizeof input, NULL, err, sizeof err) == 0, "%s", err);
    remove(path);
    rmdir(dir);
    ENSURE(!memcmp(&r.set, &set, sizeof set) && r.P.gamma == 1500 && r.P.box_k == 7);
    sim_free(&s);
    sim_free(&r);
}
