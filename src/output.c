/* Frames, pictures, checkpoints and what the user reads on the terminal. Frames, pictures and
 * checkpoints are replaced atomically by their writers (vtp.c, png.c, checkpoint.c; frames.pvd
 * gets a frame's line in place, the logs an appended line: runlog.c); this module decides what
 * and when. */
#define _POSIX_C_SOURCE 200809L
#include "output.h"
#include "checkpoint.h"
#include "runlog.h"
#include "text.h"
#include "vtp.h"
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#ifndef PH_ARCH
#define PH_ARCH "portable"   /* (the Makefile says which: -march=native, or portable) */
#endif

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

/* A file a run writes into its folder: frames, pictures, the collection, the checkpoint, and
 * their temporary files. */
static int run_file(const char *name)
{
    size_t n = strlen(name);
    int digits = n >= 15 && !strncmp(name, "frame", 5) && strspn(name + 5, "0123456789") == 6;
    return (digits && (!strcmp(name + 11, ".vtp") || !strcmp(name + 11, ".png") ||
                       !strcmp(name + 11, ".vtp.tmp") || !strcmp(name + 11, ".png.tmp") ||
                       !strcmp(name + 11, ".vti") || !strcmp(name + 11, ".vti.tmp"))) ||
           !strcmp(name, "frames.pvd") || !strcmp(name, "frames.pvd.tmp") ||
           !strcmp(name, "fields.pvd") || !strcmp(name, "fields.pvd.tmp") ||
           !strcmp(name, "checkpoint.bin") || !strcmp(name, "checkpoint.bin.tmp") ||
           !strcmp(name, "events.csv") || !strcmp(name, "events.csv.tmp") ||
           !strcmp(name, "observables.csv") || !strcmp(name, "observables.csv.tmp");
}

/* out->error = the formatted message; returns status */
static int failed(Output *out, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int failed(Output *out, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->error, sizeof out->error, fmt, ap);
    va_end(ap);
    return status;
}

/* The exit status for a frame that could not be written, from errno as the failed call left it:
 * out of memory (a picture of 16384 x 16384 pixels needs 1.5 GB), else an output error. */
static int frame_failure(void) { return errno == ENOMEM ? PH_EXIT_MEMORY : PH_EXIT_OUTPUT; }

/* One run per folder: an exclusive lock on dir/.polyhoop.lock, held (by the open descriptor)
 * until the process ends. A new run (not a restart) refuses a folder that holds another run's
 * files unless told to overwrite them, so that two runs' frames are never mixed. */
static int claim_folder(Output *out)
{
    const Options *o = out->o;
    char path[4200];
    snprintf(path, sizeof path, "%s/.polyhoop.lock", o->dir);
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return failed(out, PH_EXIT_OUTPUT, "cannot lock output folder %s: %s: %s", TEXT_ESC(o->dir),
                      TEXT_ESC(path), strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB)) {
        close(fd);
        if (o->restart)   /* (-o does not go with --restart: the run continues in its own folder) */
            return failed(out, PH_EXIT_USAGE, "output folder %s is in use by another run (it holds "
                          "the lock %s): wait until that run has stopped (SIGINT or SIGTERM stops "
                          "it with a checkpoint), then restart", TEXT_ESC(o->dir), TEXT_ESC(path));
        return failed(out, PH_EXIT_USAGE, "output folder %s is in use by another run (it holds the "
                      "lock %s); choose another folder with -o", TEXT_ESC(o->dir), TEXT_ESC(path));
    }
    if (o->restart) return 0;
    DIR *d = opendir(o->dir);
    if (!d)
        return failed(out, PH_EXIT_OUTPUT, "cannot read output folder %s: %s", TEXT_ESC(o->dir),
                      strerror(errno));
    int found = 0;
    char first[300] = "";
    for (struct dirent *f; (f = readdir(d));) {
        if (!run_file(f->d_name)) continue;
        if (!found++) snprintf(first, sizeof first, "%s", f->d_name);
        if (o->overwrite && unlinkat(dirfd(d), f->d_name, 0)) {
            int rc = failed(out, PH_EXIT_OUTPUT, "--overwrite: cannot remove %s/%s: %s",
                            TEXT_ESC(o->dir), TEXT_ESC(f->d_name), strerror(errno));
            closedir(d);
            return rc;
        }
    }
    closedir(d);
    if (found && !o->overwrite)
        return failed(out, PH_EXIT_USAGE, "output folder %s holds another run's output (%s and %d "
                      "more files); continue it with --restart %s, replace it with --overwrite, or "
                      "choose another folder with -o", TEXT_ESC(o->dir), TEXT_ESC(first), found - 1,
                      TEXT_ESC(o->dir));
    return 0;
}

int output_open(Output *out, const Options *o, const Sim *s, const char *input,
                const char *version, int frame0)
{
    const Params *P = &s->P;
    *out = (Output){ .o = o, .input = input, .version = version, .slast = s->e.step,
                     .vslast = s->vertex_steps, .nvlast = ensemble_vertex_count(&s->e),
                     .threads_max = omp_get_max_threads() };
    if (make_dir(o->dir))
        return failed(out, PH_EXIT_OUTPUT, "cannot create output folder %s: %s", TEXT_ESC(o->dir),
                      strerror(errno));
    int rc = claim_folder(out);
    if (rc) return rc;
    size_t metalen = 0;
    FILE *m = open_memstream(&out->meta, &metalen);
    if (!m) return failed(out, PH_EXIT_MEMORY, "out of memory (the frames' description)");
    char sets[2048];   /* (the parameters --set gave: a line only when there are any) */
    params_set_text(P, &s->set, 0, sets, sizeof sets);
    fprintf(m, "polyhoop %s\nparameters: %s\n", version, params_file);
    if (sets[0]) fprintf(m, "set: %s\n", sets);
    fprintf(m, "input: %s\nseed: %llu\n", input, (unsigned long long)s->e.seed);
    params_print(m, P, "  ");
    chem_print(m, &s->chem.m, "  ");
    fclose(m);
    if (o->quiet) return 0;
    char threads[160];
    int nt = omp_get_max_threads();
    if (o->threads) snprintf(threads, sizeof threads, "%d thread%s", nt, nt > 1 ? "s" : "");
    else
        snprintf(threads, sizeof threads, "%d thread%s now: automatic, one per %d vertices "
                 "up to %d%s; -j N fixes it", nt, nt > 1 ? "s" : "", VERTICES_PER_THREAD,
                 o->free_cores, o->free_cores < omp_get_num_procs() ? " (the cores not busy)" : "");
    char frames[96];   /* (a restart at its last frame writes none) */
    if (frame0 <= P->Nf)
        snprintf(frames, sizeof frames, "frames %d..%d of %d steps", frame0, P->Nf, P->Ns);
    else
        snprintf(frames, sizeof frames, "no frame left to write (the run is at its last, %d, of "
                 "%d steps)", P->Nf, P->Ns);
    printf("polyhoop %s  (%s, %s build, %s)\n%s %s: %d polygon%s, %d vertices, %d rigid\n"
           "output %s/frame%%06d.vtp (%s): %s, dt = %g, to t = %g; seed %llu\n",
           version, params_file, PH_ARCH, threads, o->restart ? "restart from" : "input",
           TEXT_ESC(o->restart ? o->restart : input), s->e.np, s->e.np == 1 ? "" : "s",
           ensemble_vertex_count(&s->e), P->Nr, TEXT_ESC(o->dir), o->ascii ? "ASCII" : "zlib",
           frames, P->dt, P->Nf * (double)P->Ns * P->dt, (unsigned long long)s->e.seed);
    if (o->max_cells || o->max_time > 0) {   /* (a restart's may be the run's own: say so) */
        const char *kept = ", kept from the run";
        printf("stops after the first frame");
        if (o->max_cells)
            printf(" with at least %d polygons (--max-cells%s)", o->max_cells,
                   o->restart && !(o->given & OPT_MAX_CELLS) ? kept : "");
        if (o->max_time > 0)
            printf("%s at t >= %g (--max-time%s)", o->max_cells ? " or" : "", o->max_time,
                   o->restart && !(o->given & OPT_MAX_TIME) ? kept : "");
        printf(", with a checkpoint\n");
    }
    if (sets[0]) printf("set on the command line (--set), in place of the header's: %s\n", sets);
    params_print(stdout, P, "  ");
    chem_print(stdout, &s->chem.m, "  ");
    fflush(stdout);
    return 0;
}

/* What a checkpoint keeps of the run besides its state: its options and the pictures' camera */
static RunRecord run_record(const Output *out)
{
    RunRecord run = { "", out->camera };
    options_record(out->o, run.options, sizeof run.options);
    return run;
}

int output_checkpoint(Output *out, Sim *s, int frame)
{
    char path[4200], err[4400];
    RunRecord run = run_record(out);
    if (runlog_events(out->o->dir, s, err, sizeof err))   /* (every event up to the checkpoint) */
        return failed(out, PH_EXIT_OUTPUT, "cannot write the event log: %s", TEXT_ESC(err));
    snprintf(path, sizeof path, "%s/checkpoint.bin", out->o->dir);
    if (checkpoint_write(path, s, frame, out->input, &run, err, sizeof err))
        return failed(out, PH_EXIT_OUTPUT, "cannot write the checkpoint: %s", err);
    return 0;
}

/* a chemical step of more wall seconds than this makes the next one held */
#define HOLD_ABOVE 0.25

int output_hold(Output *out, Sim *s, int frame, const volatile sig_atomic_t *stop)
{
    s->stop = NULL;
    if (!chem_due(&s->chem, s->e.step) || (s->chem_wall >= 0 && s->chem_wall < HOLD_ABOVE))
        return 0;
    double t0 = omp_get_wtime();
    char err[4400];
    RunRecord run = run_record(out);
    if (runlog_events(out->o->dir, s, err, sizeof err))   /* (every event up to the state held) */
        return failed(out, PH_EXIT_OUTPUT, "cannot write the event log: %s", TEXT_ESC(err));
    if (checkpoint_snapshot(&out->held, s, frame, out->input, &run, err, sizeof err)) {
        if (!out->hold_failed)   /* (the run goes on; a signal then waits for the step to end) */
            fprintf(stderr, "polyhoop: warning: cannot hold the state before a long chemical step "
                    "in memory (%s): a signal waits for the step to end (said once)\n", err);
        out->hold_failed = 1;
    } else
        s->stop = stop;
    s->timer[T_OUTPUT] += omp_get_wtime() - t0;
    return 0;
}

int output_abandon(Output *out)
{
    char path[4200], err[4400];
    snprintf(path, sizeof path, "%s/checkpoint.bin", out->o->dir);
    if (checkpoint_commit(&out->held, path, err, sizeof err))
        return failed(out, PH_EXIT_OUTPUT, "cannot write the checkpoint: %s", err);
    return 0;
}

/* The speed of each polygon: the magnitude of its vertices' mean velocity. */
static void polygon_speeds(const Ensemble *e, double *out)
{
    for (int p = 0; p < e->np; p++) {
        double u = 0, v = 0;
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) u += e->vx[i], v += e->vy[i];
        out[p] = hypot(u, v) / e->count[p];
    }
}

/* frames.pvd up to frame: one entry added to the list this run has written, else (the run's
 * first frame, a restart's, or the list is not as it was left) the whole list again, of the
 * frames up to this one that are in the folder (ParaView fails on a listed file that is not
 * there, and a restarted run's earlier frames may have been deleted) */
static int write_collection(Output *out, const Sim *s, int which, int frame, char *err,
                            size_t errlen)
{
    const char *dir = out->o->dir;
    int *listed = &out->pvd_frames[which];
    if (frame && *listed == frame &&
        !vtp_append_collection(dir, which, frame, (double)frame * s->P.Ns * s->P.dt, err, errlen)) {
        *listed = frame + 1;
        return 0;
    }
    double *t = ph_realloc(NULL, ((size_t)frame + 1) * sizeof *t);
    int *k = ph_realloc(NULL, ((size_t)frame + 1) * sizeof *k), n = 0;
    for (int f = 0; f <= frame; f++) {
        char path[4200];
        struct stat st;
        snprintf(path, sizeof path, "%s/frame%06d.%s", dir, f, which == VTP_FIELDS ? "vti" : "vtp");
        if (f < frame && stat(path, &st)) continue;   /* (this frame's was just written) */
        k[n] = f;
        t[n++] = (double)f * s->P.Ns * s->P.dt;
    }
    int r = vtp_write_collection(dir, which, n, k, t, err, errlen);
    free(t);
    free(k);
    *listed = r ? 0 : frame + 1;
    return r;
}

/* The fields of the chemistry at this frame, frame%06d.vti, and their collection fields.pvd (none
 * without species) */
static int write_fields(Output *out, const Sim *s, int frame, char *err, size_t errlen)
{
    const Chem *ch = &s->chem;
    if (ch->m.ns == 0) return 0;
    const char *names[CHEM_MAX_SPECIES];
    const double *data[CHEM_MAX_SPECIES];
    for (int k = 0; k < ch->m.ns; k++) {
        names[k] = ch->m.sp[k].name;
        data[k] = ch->c + (size_t)k * ch->nx * ch->ny;
    }
    VtpImage im = { ch->nx, ch->ny, ch->m.ns, out->o->ascii, ch->m.x0, ch->m.y0, ch->m.dx, s->e.t,
                    names, data, out->meta };
    char path[4200];
    snprintf(path, sizeof path, "%s/frame%06d.vti", out->o->dir, frame);
    return vtp_write_image(path, &im, err, errlen) ||
           write_collection(out, s, VTP_FIELDS, frame, err, errlen) ? -1 : 0;
}

/* The view of a picture: --png-view, else the series' camera fitted or widened to this frame's
 * cells (and the field f's grid, unless NULL). */
static const PngView *picture_view(Output *out, const Sim *s, const PngField *f)
{
    const Options *o = out->o;
    if (o->png_fixed) return &o->png_view;
    png_camera_update(&out->camera, &s->e, f, o->png_w, o->png_h);
    return &out->camera.view;
}

/* The picture of frame `frame` with species o->png_field under the outlined cells (--png-field):
 * its range --png-range, else this frame's least to largest value (a function of the frame
 * alone, so a restart draws the same). 0, or -1 with err. */
static int field_picture(Output *out, const Sim *s, int frame, char *err, size_t errlen)
{
    const Options *o = out->o;
    const Chem *ch = &s->chem;
    int k = 0;
    while (k < ch->m.ns && strcmp(ch->m.sp[k].name ? ch->m.sp[k].name : "", o->png_field)) k++;
    if (k == ch->m.ns) {
        snprintf(err, errlen, "--png-field: no species '%s' in this run's chemistry",
                 TEXT_ESC(o->png_field));
        return -1;
    }
    PngField f = { ch->nx, ch->ny, ch->m.x0, ch->m.y0, ch->m.dx,
                   ch->c + (size_t)k * ch->nx * ch->ny };
    char label[256], path[4200];
    snprintf(label, sizeof label, "%s  t = %.4g%s", o->png_field, s->e.t,
             o->png_lo < o->png_hi ? "" : "  (range of this frame)");
    snprintf(path, sizeof path, "%s/frame%06d.png", o->dir, frame);
    return png_write_field(path, &s->e, &f, label, o->png_lo, o->png_hi, o->png_w, o->png_h,
                           picture_view(out, s, &f), err, errlen);
}

int output_frame(Output *out, Sim *s, int frame)
{
    const Options *o = out->o;
    double t0 = omp_get_wtime();
    char path[4200], err[4400];
    if ((size_t)s->e.np > out->nbcap) {
        out->nbcap = (size_t)s->e.np_cap;
        out->nb = ph_realloc(out->nb, out->nbcap * sizeof *out->nb);
        out->same = ph_realloc(out->same, out->nbcap * sizeof *out->same);
        out->values = ph_realloc(out->values, out->nbcap * sizeof *out->values);
    }
    int *same = s->chem.m.ntypes > 1 ? out->same : NULL;   /* (the log's homotypic neighbours) */
    double contact_u = sim_neighbors(s, out->nb, same);   /* (and binds the cell types) */
    VtpOptions opt = { .ascii = o->ascii, .ka = s->P.ka, .neighbors = out->nb, .meta = out->meta,
                       .types = s->chem.m.ntypes > 1 };
    for (int k = 0; k < s->chem.m.nvar; k++) opt.var_name[k] = s->chem.m.var[k].name;
    snprintf(path, sizeof path, "%s/frame%06d.vtp", o->dir, frame);
    errno = 0;   /* (frame_failure reads what a failure leaves) */
    if (vtp_write(path, &s->e, &opt, err, sizeof err) ||
        write_collection(out, s, VTP_FRAMES, frame, err, sizeof err) ||
        runlog_frame(o->dir, s, frame, out->nb, same, contact_u, err, sizeof err) ||
        write_fields(out, s, frame, err, sizeof err))
        return failed(out, frame_failure(), "cannot write frame %d: %s", frame, err);
    if (o->png && o->png_field) {
        if (field_picture(out, s, frame, err, sizeof err))
            return failed(out, frame_failure(), "cannot draw frame %d: %s", frame, err);
    } else if (o->png) {
        if (!strcmp(o->png_color, "velocity")) polygon_speeds(&s->e, out->values);
        else vtp_cell_values(&s->e, &opt, o->png_color, out->values);
        /* integers in at most PNG_CATEGORIES values: a colour each; else the colour map, over
         * --png-range or this frame's 2nd to 98th percentile (png_robust_range: a function of the
         * frame alone, which no transient of another frame flattens) */
        int categorical = vtp_cell_array_integer(o->png_color);
        int mapped = !categorical || png_categories(&s->e, out->values, NULL) > PNG_CATEGORIES;
        char label[256];
        snprintf(label, sizeof label, "%s  t = %.4g%s", o->png_color, s->e.t,
                 mapped && !(o->png_lo < o->png_hi) ? "  (range: 2-98 % of cells)" : "");
        snprintf(path, sizeof path, "%s/frame%06d.png", o->dir, frame);
        if (png_write(path, &s->e, out->values, label, o->png_lo, o->png_hi, categorical,
                      o->png_w, o->png_h, picture_view(out, s, NULL), err, sizeof err))
            return failed(out, frame_failure(), "cannot draw frame %d: %s", frame, err);
    }
    int rc = o->every > 0 && frame % o->every == 0 ? output_checkpoint(out, s, frame) : 0;
    s->timer[T_OUTPUT] += omp_get_wtime() - t0;
    return rc;
}

double output_eta(double rate, int nv_before, int nv, int frames, int steps)
{
    if (!(rate > 0) || frames <= 0) return 0;
    double g = nv_before > 0 && nv > nv_before ? (double)nv / nv_before : 1, left = 0, n = nv;
    for (int k = 0; k < frames && left < 1e300; k++) {   /* (each frame's vertex steps; finite) */
        n = fmin(n * g, 1e300);
        left = fmin(left + n * steps, 1e300);
    }
    return left / rate;
}

void output_status(Output *out, const Sim *s, int frame)
{
    if (out->o->quiet) return;
    double w = omp_get_wtime() - out->wall0;
    double rate = w > out->wlast ? (double)(s->e.step - out->slast) / (w - out->wlast) : 0;
    double vrate = w > out->wlast ? (s->vertex_steps - out->vslast) / (w - out->wlast) : 0;
    int nv = ensemble_vertex_count(&s->e);
    double eta = output_eta(vrate, frame > 0 ? out->nvlast : nv, nv, s->P.Nf - frame, s->P.Ns);
    char left[48];   /* (a tissue that keeps growing as fast may need centuries: not 1e+12 s) */
    if (eta < 1e8) snprintf(left, sizeof left, "%.0f s", eta);
    else snprintf(left, sizeof left, "over 3 years");
    printf("frame %6d/%d  t = %-9.6g polygons %7d  vertices %9d  wall %8.2f s  %7.0f steps/s  "
           "ETA %s\n", frame, s->P.Nf, s->e.t, s->e.np, nv, w, rate, left);
    fflush(stdout);
    out->wlast = w;
    out->slast = s->e.step;
    out->vslast = s->vertex_steps;
    out->nvlast = nv;
}

void output_threads(Output *out, int n)
{
    omp_set_num_threads(n);
    if (n > out->threads_max) out->threads_max = n;
}

void output_summary(const Output *out, const Sim *s, const char *what, int frames)
{
    double wall = omp_get_wtime() - out->wall0;
    double loop = 0;
    for (int k = 0; k < T_COUNT; k++) loop += s->timer[k];
    double compute = loop - s->timer[T_OUTPUT];   /* the step's phases, without frame writing */
    struct rusage ru;   /* (Linux: the peak resident set in KiB) */
    int nv = ensemble_vertex_count(&s->e);
    int64_t builds, patches, reuses, walked = contact_walked(&s->contact);
    contact_counts(&s->contact, &builds, &patches, &reuses);
    double peak = getrusage(RUSAGE_SELF, &ru) == 0 ? 1024.0 * (double)ru.ru_maxrss : 0;
    char per_vertex[64] = "";   /* (none without vertices) */
    if (nv > 0)
        snprintf(per_vertex, sizeof per_vertex, ", %.0f bytes per vertex at the end", peak / nv);
    /* (a restart: the run's frames and steps, and this process's part, which the rest counts) */
    char steps[160];
    int n = snprintf(steps, sizeof steps, "%d frames, %lld steps", frames, (long long)s->e.step);
    if (s->from_checkpoint && n > 0 && (size_t)n < sizeof steps)
        snprintf(steps + n, sizeof steps - (size_t)n,
                 ", of which this process ran %lld (from step %lld)",
                 (long long)(s->e.step - s->first_step), (long long)s->first_step);
    printf("%s: %s in %.2f s wall, threads: %s%d; %.0f vertex updates, %.3g per second of "
           "computing; %d polygon%s, %d vertices at the end\n"
           "events: divisions %lld, removals %lld, deaths %lld, fusions (type I) %lld, "
           "splits (type II) %lld, passages %lld, divisions postponed %lld, twists cut out %lld\n"
           "contact list: built in %lld steps, patched in %lld (polygons changed), reused in %lld; "
           "%lld listed edges walked\n"
           "memory: peak %.1f MB resident%s\n",
           what, steps, wall, out->o->threads ? "" : "automatic, up to ", out->threads_max,
           s->vertex_steps, s->vertex_steps / (compute > 0 ? compute : 1), s->e.np,
           s->e.np == 1 ? "" : "s", nv,
           (long long)s->divisions, (long long)s->removals, (long long)s->deaths,
           (long long)s->fusions1, (long long)s->fusions2, (long long)s->passages,
           (long long)s->topology.postponed, (long long)s->remodel.twists,
           (long long)builds, (long long)patches, (long long)reuses, (long long)walked,
           peak / 1e6, per_vertex);
    for (int k = 0; k < T_COUNT; k++)
        if (k != T_CHEM || chem_on(&s->chem.m))
            printf("  %-16s %8.2f s  %5.1f %%\n", timer_names[k], s->timer[k],
                   100 * s->timer[k] / (loop > 0 ? loop : 1));
    fflush(stdout);
}

void output_close(Output *out)
{
    free(out->held.data);
    free(out->nb);
    free(out->same);
    free(out->values);
    free(out->meta);
    *out = (Output){ 0 };
}
