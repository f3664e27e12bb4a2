/* polyhoop: two-dimensional soft matter as deformable polygons ("hoops"), after the PolyHoop
 * paper (Vetter, Runser & Iber 2023; ../shared/SPEC.md).
 *
 * main() is in three parts: prolog (options, input, banner, frame 0), loop (Nf frames of Ns
 * steps, a status line per frame), epilog (timing summary). One step, as in the paper:
 *   1. remodel:    split edges longer than lmax, collapse edges shorter than lmin   (3.1)
 *   2. geometry:   areas, perimeters, arclengths, longest edge
 *   3. internal:   forces within each polygon and per-vertex dissipation           (2.3)
 *   4. contact:    pair forces between hoop segments, from a list of nearby edges  (2.3, 3.4)
 *                  kept over steps while valid, rebuilt from the cell grid
 *   5. integrate:  semi-implicit Euler, growth of the target areas                 (3.5, 3.2)
 *   6. fusion:     merging and splitting of touching hoops                         (3.3)
 *   7. topology:   removal below Amin, division above Amax                         (3.2) */
#define _POSIX_C_SOURCE 200809L
#include "checkpoint.h"
#include "forces.h"
#include "geometry.h"
#include "fusion.h"
#include "integrate.h"
#include "off.h"
#include "png.h"
#include "sim.h"
#include "topology.h"
#include "vtp.h"
#include <errno.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <math.h>
#include <signal.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#ifndef PH_VERSION
#define PH_VERSION "unknown"
#endif

const char *const timer_names[T_COUNT] = { "remodel", "geometry", "internal forces", "contact",
                                           "integrate", "fusion", "topology", "output" };

void sim_init(Sim *s, const Params *P, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->P = *P;
    ensemble_init(&s->e, seed);
    contact_init(&s->contact);
    remodel_init(&s->remodel);
}

void sim_free(Sim *s)
{
    ensemble_free(&s->e);
    contact_free(&s->contact);
    remodel_free(&s->remodel);
}

void sim_draw_traits(Sim *s)
{
    for (int p = 0; p < s->e.np; p++)
        if (!s->e.rigid[p]) topology_draw_traits(&s->e, &s->P, p);
}

int step(Sim *s)
{
    Ensemble *e = &s->e;
    const Params *P = &s->P;
    double t0 = omp_get_wtime(), t1;
#define LAP(k) (t1 = omp_get_wtime(), s->timer[k] += t1 - t0, t0 = t1)
    remodel(e, P, &s->remodel);                          LAP(T_REMODEL);
    double lmax = forces_update_geometry(e);             LAP(T_GEOMETRY);
    forces_internal(e, P, NULL);                         LAP(T_INTERNAL);
    s->contact.keep_records = P->theta > 0;              /* fusion looks at this step's pairs */
    contact_forces_step(&s->contact, e, P, lmax);        LAP(T_CONTACT);
    s->vertex_steps += e->nv_used;
    double vmax;
    int bad = integrate(e, P, &vmax);                    LAP(T_INTEGRATE);
    contact_moved(&s->contact, P->dt * vmax);
    if (bad >= 0) {
        double vbad = 0;
        int finite = 1;
        for (int i = e->start[bad]; i < e->start[bad] + e->count[bad]; i++) {
            finite &= isfinite(e->x[i]) && isfinite(e->y[i]);
            vbad = fmax(vbad, hypot(e->vx[i], e->vy[i]));
        }
        snprintf(s->error, sizeof s->error, "numerical blow-up at t = %.6g (step %lld): polygon %d (id %lld) %s",
                 e->t + P->dt, (long long)e->step + 1, bad, (long long)e->id[bad],
                 finite ? "has a vertex moving farther than h in one step" : "has a non-finite vertex position");
        if (finite) snprintf(s->error + strlen(s->error), sizeof s->error - strlen(s->error), " (speed %.3g > h/dt = %.3g)", vbad, P->h / P->dt);
        return -1;
    }
    fusion_update(e, P, &s->contact, &s->fusions1, &s->fusions2);  LAP(T_FUSION);
    int removed;
    s->divisions += topology_update(e, P, &removed);
    s->removals += removed;                              LAP(T_TOPOLOGY);
#undef LAP
    e->step++;
    e->t = (double)e->step * P->dt;
    char msg[256];
    if (s->validate && ensemble_validate(e, msg, sizeof msg)) {
        snprintf(s->error, sizeof s->error, "invalid state after step %lld (t = %g): %s", (long long)e->step, e->t, msg);
        return -1;
    }
    return 0;
}

void sim_neighbors(Sim *s, int *nb)
{
    double lmax = forces_update_geometry(&s->e);
    s->contact.keep_records = 1;
    contact_forces_now(&s->contact, &s->e, &s->P, lmax);
    contact_neighbors(&s->contact, &s->e, nb);
    if (!(s->P.theta > 0)) contact_drop_records(&s->contact);   /* (without fusion, no step needs them) */
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: polyhoop [options] [input.off]\n"
        "       polyhoop [options] --restart DIR\n"
        "Simulates the polygons of input.off (default inputs/ensemble.off) with the parameters\n"
        "compiled in from %s; writes DIR/frame%%06d.vtp, DIR/frames.pvd and DIR/checkpoint.bin.\n"
        "  -o DIR         output folder, created if missing (default outputs/)\n"
        "  -n N           number of frames after the initial one (default Nf = %d)\n"
        "  -s N           steps per frame (default Ns = %d)\n"
        "  -j N           threads (default: OMP_NUM_THREADS or all cores)\n"
        "  --seed N       seed of the random numbers (default 1)\n"
        "  --ascii        write frames as ASCII instead of zlib-compressed binary\n"
        "  --png          also draw every frame as DIR/frame%%06d.png (see --png-*)\n"
        "  --png-color A  colour the cells by cell array A (default area), one of:\n"
        "                 %s\n"
        "  --png-size WxH picture size in pixels (default 800x800)\n"
        "  --png-view x0,y0,x1,y1  fixed world rectangle shown (default: fit each frame)\n"
        "  --checkpoint-every K  write DIR/checkpoint.bin every K frames (default 1; 0: never)\n"
        "  --restart DIR  continue the run found in DIR (its checkpoint), writing on into DIR\n"
        "  --check        validate every polygon after every step (slow; stops at the first fault)\n"
        "  --strict-input reject inputs whose polygons overlap (default: warn)\n"
        "  -q             no status line per frame\n"
        "  -h, --help     this help\n"
        "SIGINT or SIGTERM: the run finishes its step, writes a checkpoint and stops (status 130/143).\n"
        "Exit status: 0 done, 2 bad input or usage, 3 numerical blow-up, 4 output error.\n",
        params_file, params_compiled.Nf, params_compiled.Ns, vtp_cell_array_list());
}

static long parse_count(const char *opt, const char *arg, long min)
{
    char *end;
    errno = 0;
    long v = arg ? strtol(arg, &end, 10) : 0;
    if (!arg || errno || *end || end == arg || v < min || v > INT_MAX) {
        fprintf(stderr, "polyhoop: option %s needs an integer >= %ld, got '%s'\n", opt, min, arg ? arg : "");
        usage(stderr);
        exit(2);
    }
    return v;
}

/* mkdir -p */
static int make_dir(const char *path)
{
    char buf[4096];
    if (strlen(path) >= sizeof buf) { errno = ENAMETOOLONG; return -1; }
    strcpy(buf, path);
    for (char *c = buf + 1; *c; c++)
        if (*c == '/') {
            *c = 0;
            if (mkdir(buf, 0777) && errno != EEXIST) return -1;
            *c = '/';
        }
    if (mkdir(buf, 0777) && errno != EEXIST) return -1;
    struct stat st;
    if (stat(buf, &st) || !S_ISDIR(st.st_mode)) { errno = ENOTDIR; return -1; }
    return 0;
}

/* Checks an input beyond what the reader can: polygons whose edges cross (hoops that overlap
 * beyond their thickness push apart violently: a warning, an error with strict), and edges so
 * long that remodeling would create an unreasonable number of vertices. Returns 0 or -1. */
static int check_input(Sim *s, const char *input, int strict)
{
    double pieces = 0;
    for (int p = 0; p < s->e.np; p++)
        for (int i = s->e.start[p]; i < s->e.start[p] + s->e.count[p]; i++) {
            int j = ens_next(&s->e, i);
            pieces += ceil(hypot(s->e.x[j] - s->e.x[i], s->e.y[j] - s->e.y[i]) / s->P.lmax);
        }
    if (pieces > 1e8) {
        fprintf(stderr, "polyhoop: %s: the polygons are %.3g edges of length lmax = %g long; remodeling would "
                "create that many vertices (wrong units, or a stray vertex?)\n", input, pieces, s->P.lmax);
        return -1;
    }
    int a, b;
    double lmax = forces_update_geometry(&s->e);
    if (contact_crossing(&s->contact, &s->e, lmax, &a, &b)) {
        fprintf(stderr, "polyhoop: %s: %s: polygons %d and %d overlap (their edges cross)%s\n", input,
                strict ? "error" : "warning", a, b, strict ? "" : "; they will push apart violently (--strict-input rejects this)");
        if (strict) return -1;
    }
    return 0;
}

static volatile sig_atomic_t stop_signal;
static void on_signal(int sig) { stop_signal = sig; }

/* What the output of a run needs besides the simulation. */
typedef struct Output {
    const char *dir, *input;
    char *meta;
    int ascii, every;
    int png, png_w, png_h, png_fixed;
    const char *png_color;
    PngView png_view;
    double *values;    /* the coloured cell array of the picture */
    int *nb;
    size_t nbcap;
    double *times;     /* simulated time of every frame, for the .pvd */
} Output;

static void save_checkpoint(Sim *s, Output *o, int frame)
{
    char path[4200], err[4400];
    snprintf(path, sizeof path, "%s/checkpoint.bin", o->dir);
    if (checkpoint_write(path, s, frame, o->input, err, sizeof err)) {
        fprintf(stderr, "polyhoop: cannot write the checkpoint: %s\n", err);
        exit(4);
    }
}

/* Writes frame `frame` of the current state, the collection up to it and, if due, a checkpoint. */
static void write_frame(Sim *s, Output *o, int frame)
{
    double t0 = omp_get_wtime();
    char path[4200], err[4400];
    /* a polygon turned inside out (area <= 0) means the run has gone wrong: stop before writing */
    for (int p = 0; p < s->e.np; p++) {
        double a = geom_area(s->e.x + s->e.start[p], s->e.y + s->e.start[p], s->e.count[p]);
        if (!(a > 0)) {
            fprintf(stderr, "polyhoop: numerical blow-up at t = %.6g: polygon %d (id %lld) is inverted (area %g); "
                    "%s. Try a smaller dt.\n", s->e.t, p, (long long)s->e.id[p], a,
                    frame ? "the earlier frames are intact" : "no frame was written");
            exit(3);
        }
    }
    if ((size_t)s->e.np > o->nbcap) {
        o->nbcap = (size_t)s->e.np_cap;
        o->nb = realloc(o->nb, o->nbcap * sizeof *o->nb);
        o->values = realloc(o->values, o->nbcap * sizeof *o->values);
        if (!o->nb || !o->values) { perror("polyhoop"); exit(1); }
    }
    sim_neighbors(s, o->nb);
    VtpOptions opt = { o->ascii, s->P.ka, o->nb, o->meta };
    snprintf(path, sizeof path, "%s/frame%06d.vtp", o->dir, frame);
    o->times[frame] = (double)frame * s->P.Ns * s->P.dt;
    if (vtp_write(path, &s->e, &opt, err, sizeof err) || vtp_write_collection(o->dir, frame + 1, o->times, err, sizeof err)) {
        fprintf(stderr, "polyhoop: cannot write frame %d: %s\n", frame, err);
        exit(4);
    }
    if (o->png) {
        vtp_cell_values(&s->e, &opt, o->png_color, o->values);
        snprintf(path, sizeof path, "%s/frame%06d.png", o->dir, frame);
        char label[256];
        snprintf(label, sizeof label, "%s  t = %.4g", o->png_color, s->e.t);
        if (png_write(path, &s->e, o->values, label, 0, 0, o->png_w, o->png_h, o->png_fixed ? &o->png_view : NULL, err, sizeof err)) {
            fprintf(stderr, "polyhoop: cannot draw frame %d: %s\n", frame, err);
            exit(4);
        }
    }
    if (o->every > 0 && frame % o->every == 0) save_checkpoint(s, o, frame);
    s->timer[T_OUTPUT] += omp_get_wtime() - t0;
}

/* The closing lines of a run: counts, speed, and the time of each phase of the step. */
static void summary(const Sim *s, const char *what, int frames, double wall)
{
    double loop = 0;
    for (int k = 0; k < T_COUNT; k++) loop += s->timer[k];
    double compute = loop - s->timer[T_OUTPUT];   /* the step's phases, without frame writing */
    struct rusage ru;   /* (Linux: the peak resident set in KiB) */
    int nv = ensemble_vertex_count(&s->e);
    double peak = getrusage(RUSAGE_SELF, &ru) == 0 ? 1024.0 * (double)ru.ru_maxrss : 0;
    printf("%s: %d frames, %lld steps in %.2f s wall, threads: %d; %.0f vertex updates, %.3g per second of computing; "
           "%d polygons, %d vertices at the end\n"
           "events: divisions %lld, removals %lld, fusions (type I) %lld, splits (type II) %lld\n"
           "contact list: built in %lld steps, reused in %lld; grid only in %lld (slots changed two steps running)\n"
           "memory: peak %.1f MB resident, %.0f bytes per vertex at the end\n",
           what, frames, (long long)s->e.step, wall, omp_get_max_threads(), s->vertex_steps,
           s->vertex_steps / (compute > 0 ? compute : 1), s->e.np, nv,
           (long long)s->divisions, (long long)s->removals, (long long)s->fusions1, (long long)s->fusions2,
           (long long)s->contact.builds, (long long)s->contact.reuses, (long long)s->contact.plain,
           peak / 1e6, peak / (nv > 0 ? nv : 1));
    for (int k = 0; k < T_COUNT; k++)
        printf("  %-16s %8.2f s  %5.1f %%\n", timer_names[k], s->timer[k], 100 * s->timer[k] / (loop > 0 ? loop : 1));
    fflush(stdout);
}

int main(int argc, char **argv)
{
    /* ---- prolog ---- */
#ifdef __GLIBC__
    /* Every allocation of 1 MiB or more gets its own mapping: it grows without a copy (which
     * would double it for a moment) and goes back to the system when freed. glibc's default
     * raises this threshold after the first large free, after which the big arrays came from
     * the heap, were copied when they grew, and stayed resident when freed. */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    const char *input = "inputs/ensemble.off", *restart = NULL;
    static Output out = { .dir = "outputs", .every = 1, .png_w = 800, .png_h = 800, .png_color = "area" };  /* static, like sim: an early exit leaves nothing unreachable */
    int frames = -1, steps = -1, quiet = 0, check = 0, strict = 0;
    uint64_t seed = 1;
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        const char *next = k + 1 < argc ? argv[k + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
        else if (!strcmp(a, "-o") && next) { out.dir = next; k++; }
        else if (!strcmp(a, "--restart") && next) { restart = next; k++; }
        else if (!strcmp(a, "-n")) { frames = (int)parse_count(a, next, 0); k++; }
        else if (!strcmp(a, "-s")) { steps = (int)parse_count(a, next, 1); k++; }
        else if (!strcmp(a, "-j")) { omp_set_num_threads((int)parse_count(a, next, 1)); k++; }
        else if (!strcmp(a, "--seed")) { seed = (uint64_t)parse_count(a, next, 0); k++; }
        else if (!strcmp(a, "--checkpoint-every")) { out.every = (int)parse_count(a, next, 0); k++; }
        else if (!strcmp(a, "--ascii")) out.ascii = 1;
        else if (!strcmp(a, "--png")) out.png = 1;
        else if (!strcmp(a, "--png-color") && next) { out.png_color = next; out.png = 1; k++; }
        else if (!strcmp(a, "--png-size") && next) {
            char c;
            if (sscanf(next, "%dx%d%c", &out.png_w, &out.png_h, &c) != 2 || out.png_w < 1 || out.png_h < 1 ||
                out.png_w > 16384 || out.png_h > 16384) {
                fprintf(stderr, "polyhoop: --png-size needs WxH with 1 <= W, H <= 16384, got '%s'\n", next);
                return 2;
            }
            out.png = 1;
            k++;
        } else if (!strcmp(a, "--png-view") && next) {
            PngView *v = &out.png_view;
            char c;
            if (sscanf(next, "%lf,%lf,%lf,%lf%c", &v->x0, &v->y0, &v->x1, &v->y1, &c) != 4 || !(v->x1 > v->x0) || !(v->y1 > v->y0)) {
                fprintf(stderr, "polyhoop: --png-view needs x0,y0,x1,y1 with x0 < x1 and y0 < y1, got '%s'\n", next);
                return 2;
            }
            out.png = out.png_fixed = 1;
            k++;
        }
        else if (!strcmp(a, "-q")) quiet = 1;
        else if (!strcmp(a, "--check")) check = 1;
        else if (!strcmp(a, "--strict-input")) strict = 1;
        else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "polyhoop: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        } else input = a;
    }
    char err[8192], saved_input[1024];
    int known = 0;
    for (int k = 0; k < VTP_CELL_ARRAYS; k++) known |= !strcmp(out.png_color, vtp_cell_arrays[k]);
    if (!known) {
        fprintf(stderr, "polyhoop: --png-color: no cell array '%s' (%s)\n", out.png_color, vtp_cell_array_list());
        return 2;
    }
    if (params_check(&params_compiled, err, sizeof err)) {
        fprintf(stderr, "polyhoop: %s: %s\n", params_file, err);
        return 2;
    }
    static Sim sim;
    sim_init(&sim, &params_compiled, seed);
    sim.validate = check;
    int frame = 0;
    if (restart) {
        /* continue a run: its checkpoint has the state and the parameters, which must be the
         * ones compiled in (frames -n may be raised) */
        char path[4200];
        out.dir = restart;
        snprintf(path, sizeof path, "%s/checkpoint.bin", restart);
        if (checkpoint_read(path, &sim, &frame, saved_input, sizeof saved_input, err, sizeof err)) {
            fprintf(stderr, "polyhoop: cannot restart: %s\n", err);
            return 2;
        }
        Params compiled = params_compiled;
        compiled.Nf = sim.P.Nf;
        compiled.Ns = sim.P.Ns;
        char a[4096], b[4096];
        FILE *fa = fmemopen(a, sizeof a, "w"), *fb = fmemopen(b, sizeof b, "w");
        params_print(fa, &compiled, ""); params_print(fb, &sim.P, "");
        fclose(fa); fclose(fb);
        if (strcmp(a, b)) {
            fprintf(stderr, "polyhoop: cannot restart %s: it was run with other parameters than %s\n", path, params_file);
            return 2;
        }
        if (steps >= 0 && steps != sim.P.Ns) {
            fprintf(stderr, "polyhoop: cannot restart with -s %d: the run has %d steps per frame\n", steps, sim.P.Ns);
            return 2;
        }
        input = saved_input;
        seed = sim.e.seed;
        sim.validate = check;
        if (frames >= 0) sim.P.Nf = frames;
    } else {
        OffData off;
        if (off_read(input, &off, err, sizeof err)) {
            fprintf(stderr, "polyhoop: %s\n", err);
            return 2;
        }
        if (frames >= 0) sim.P.Nf = frames;
        if (steps >= 0) sim.P.Ns = steps;
        for (int p = 0; p < off.np; p++)
            ensemble_add_polygon(&sim.e, off.poly[p].n, off.poly[p].x, off.poly[p].y, off.poly[p].phase, p < sim.P.Nr);
        off_free(&off);
        if (sim.P.Nr > sim.e.np) {
            fprintf(stderr, "polyhoop: %s: Nr = %d rigid polygons requested but the input has only %d\n",
                    params_file, sim.P.Nr, sim.e.np);
            return 2;
        }
        sim_draw_traits(&sim);
    }
    frames = sim.P.Nf;
    steps = sim.P.Ns;
    out.input = input;
    const char *stiff;
    double dt_max = params_stable_dt(&sim.P, &stiff);
    if (sim.P.dt > dt_max)
        fprintf(stderr, "polyhoop: warning: dt = %g exceeds the stability limit %.3g of the stiffest spring (%s); "
                "expect a blow-up. Suggested: dt <= %.2g\n", sim.P.dt, dt_max, stiff, 0.5 * dt_max);
    if (!restart && check_input(&sim, input, strict))
        return 2;
    if (make_dir(out.dir)) {
        fprintf(stderr, "polyhoop: cannot create output folder %s: %s\n", out.dir, strerror(errno));
        return 4;
    }
    out.times = malloc(((size_t)frames + 1) * sizeof *out.times);
    if (!out.times) { perror("polyhoop"); return 1; }
    for (int k = 0; k <= frames; k++) out.times[k] = (double)k * steps * sim.P.dt;

    size_t metalen = 0;
    FILE *m = open_memstream(&out.meta, &metalen);
    if (!m) { perror("polyhoop"); return 1; }
    fprintf(m, "polyhoop %s\nparameters: %s\ninput: %s\nseed: %llu\n", PH_VERSION, params_file, input,
            (unsigned long long)seed);
    params_print(m, &sim.P, "  ");
    fclose(m);
    printf("polyhoop %s  (%s, %d threads)\n%s %s: %d polygons, %d vertices, %d rigid\n"
           "output %s/frame%%06d.vtp (%s): frames %d..%d of %d steps, dt = %g, to t = %g; seed %llu\n",
           PH_VERSION, params_file, omp_get_max_threads(), restart ? "restart from" : "input", restart ? restart : input,
           sim.e.np, ensemble_vertex_count(&sim.e), sim.P.Nr, out.dir, out.ascii ? "ASCII" : "zlib",
           restart ? frame + 1 : 0, frames, steps, sim.P.dt, frames * (double)steps * sim.P.dt,
           (unsigned long long)seed);
    params_print(stdout, &sim.P, "  ");
    fflush(stdout);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    if (!restart) write_frame(&sim, &out, 0);
    double wall0 = omp_get_wtime();
    int64_t step0 = sim.e.step, step_end = (int64_t)frames * steps;
    /* the status line: steps per second over the last frame, and the time left at that rate */
    double wlast = 0;
    int64_t slast = step0;
#define STATUS(f) do { if (!quiet) { double w_ = omp_get_wtime() - wall0, r_ = w_ > wlast ? (double)(sim.e.step - slast) / (w_ - wlast) : 0; \
    printf("frame %6d/%d  t = %-9.6g polygons %7d  vertices %9d  wall %8.2f s  %7.0f steps/s  ETA %.0f s\n", \
           f, frames, sim.e.t, sim.e.np, ensemble_vertex_count(&sim.e), w_, r_, r_ > 0 ? (double)(step_end - sim.e.step) / r_ : 0.0); \
    fflush(stdout); wlast = w_; slast = sim.e.step; } } while (0)
    if (!restart) STATUS(0);

    /* ---- loop: steps until the last frame; a frame every `steps` steps ---- */
    while (sim.e.step < step_end) {
        if (step(&sim)) {
            fprintf(stderr, "polyhoop: %s; frames up to %d are intact. Try a smaller dt.\n", sim.error, frame);
            return 3;
        }
        if (sim.e.step % steps == 0) {
            frame = (int)(sim.e.step / steps);
            write_frame(&sim, &out, frame);
            STATUS(frame);
        }
        if (stop_signal) {
            save_checkpoint(&sim, &out, frame);
            summary(&sim, "stopped", frame, omp_get_wtime() - wall0);
            fprintf(stderr, "polyhoop: stopped by signal %d at t = %g (step %lld); checkpoint written. "
                    "Continue with: ./polyhoop --restart %s\n", (int)stop_signal, sim.e.t, (long long)sim.e.step, out.dir);
            return 128 + stop_signal;
        }
    }
    if (out.every > 0 && frame % out.every) save_checkpoint(&sim, &out, frame);
#undef STATUS

    /* ---- epilog ---- */
    summary(&sim, "done", frames, omp_get_wtime() - wall0);
    free(out.nb);
    free(out.values);
    free(out.meta);
    free(out.times);
    sim_free(&sim);
    return 0;
}
