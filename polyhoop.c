/* polyhoop: two-dimensional soft matter as deformable polygons ("hoops"), after the PolyHoop
 * paper (Vetter, Runser & Iber 2023); the model is docs/model.md.
 *
 * main() in three parts: prolog (options, input or checkpoint, banner, frame 0), loop (Nf frames
 * of Ns steps, a status line per frame), epilog (summary). The step is sim_step (sim.c); what is
 * written and when, output.c. Every end of a run is here: an error reaches main as a status and
 * a message and leaves through status_exit (status.h), but for the options' own (usage, -h, a
 * restart's options), which main returns once they have said what was wrong. */
#define _POSIX_C_SOURCE 200809L
#include "atomic.h"
#include "checkpoint.h"
#include "options.h"
#include "output.h"
#include "params.h"
#include "runlog.h"
#include "sim.h"
#include "status.h"
#include "text.h"
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <errno.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PH_REPO
#define PH_REPO "."
#endif
#ifndef PH_VERSION
#define PH_VERSION "unknown"
#endif

/* SIGINT, SIGTERM in the step loop: said at once, acted on after the step (and its frame) with a
 * checkpoint and exit 128 + signal; a long chemical step is given up instead, and the checkpoint
 * is of the state before it (output_hold). A second signal ends the run at once, with no file
 * half-written. Before the loop (reading, checking, frame 0) a signal ends the run at once,
 * without a checkpoint. */
static volatile sig_atomic_t stop_signal, in_loop;
static void say(const char *text, size_t n)
{
    if (write(2, text, n) < 0) { /* (nothing more to do) */ }
}
#define SAY(text) say(text, sizeof text - 1)
static void on_signal(int sig)
{
    int term = sig == SIGTERM;
    if (in_loop && !stop_signal) {
        stop_signal = sig;
        if (term) SAY("polyhoop: SIGTERM: stopping after this step with a checkpoint "
                      "(a second signal stops at once, without one)\n");
        else SAY("polyhoop: SIGINT: stopping after this step with a checkpoint "
                 "(a second signal stops at once, without one)\n");
        return;
    }
    atomic_abandon();
    if (in_loop && term)
        SAY("polyhoop: stopped by a second signal (SIGTERM); "
            "the frames and the checkpoint written before are intact\n");
    else if (in_loop)
        SAY("polyhoop: stopped by a second signal (SIGINT); "
            "the frames and the checkpoint written before are intact\n");
    else if (term)
        SAY("polyhoop: stopped by SIGTERM while setting up (before the first step); "
            "no checkpoint\n");
    else
        SAY("polyhoop: stopped by SIGINT while setting up (before the first step); "
            "no checkpoint\n");
    _exit(128 + sig);
}

/* A blow-up (sim.error says which polygon, when and why) ends the run with what is intact and
 * the likely cause; status 3, or 2 where the header's response rule is at fault. */
static _Noreturn void blow_up(const Sim *sim, const char *intact)
{
    char cause[300];
    sim_likely_cause(sim, cause, sizeof cause);
    status_exit(sim_failure_status(sim), "%s; %s. Likely cause: %s", sim->error, intact, cause);
}

/* A frame: the state checked (sim_check_frame), then written. Either failing ends the run. */
static void write_frame(Output *out, Sim *sim, int frame)
{
    if (sim_check_frame(sim))
        blow_up(sim, frame ? "the frames written before are intact (each was validated)"
                           : "no frame was written");
    int rc = output_frame(out, sim, frame);
    if (rc) status_exit(rc, "%s", out->error);
}

static void write_checkpoint(Output *out, Sim *sim, int frame)
{
    int rc = output_checkpoint(out, sim, frame);
    if (rc) status_exit(rc, "%s", out->error);
}

/* Whether any polygon can still move (nothing adds one to an ensemble where none moves). */
static int any_movable(const Ensemble *e)
{
    for (int p = 0; p < e->np; p++)
        if (!e->rigid[p]) return 1;
    return 0;
}

/* After a frame before the last: an end it meets (--max-cells, --max-time, no movable polygon
 * left) ends the run with a checkpoint for --restart and status 0. */
static void stop_at_cap(Output *out, Sim *sim, const Options *opt, int frame, const char *argv0)
{
    const char *why = opt->max_cells && sim->e.np >= opt->max_cells ? "stopped by --max-cells"
                    : opt->max_time > 0 && sim->e.t >= opt->max_time ? "stopped by --max-time"
                    : !any_movable(&sim->e) ? "stopped: no movable polygon left" : NULL;
    if (!why || frame >= sim->P.Nf) return;
    if (!(opt->every > 0 && frame % opt->every == 0))   /* (else written with the frame) */
        write_checkpoint(out, sim, frame);
    char what[200];
    snprintf(what, sizeof what, "%s (%d polygon%s at t = %g)", why, sim->e.np,
             sim->e.np == 1 ? "" : "s", sim->e.t);
    output_summary(out, sim, what, frame);
    if (any_movable(&sim->e))   /* (a line of its own, to copy) */
        printf("continue with: %s --restart %s\n", TEXT_ESC(argv0), TEXT_ESC(opt->dir));
    output_close(out);
    sim_free(sim);
    exit(PH_EXIT_OK);
}

int main(int argc, char **argv)
{
    /* ---- prolog ---- */
#ifdef __GLIBC__
    /* Every allocation of 1 MiB or more gets its own mapping: it grows without a copy (which
     * would double it for a moment) and goes back to the system when freed. glibc's default
     * threshold rises after the first large free, and big arrays then stay in the heap. */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    static Options opt;   /* static, like sim and out: an early exit leaves nothing unreachable */
    static Sim sim;
    static Output out;
    switch (options_parse(&opt, argc, argv)) {
    case 1:   /* -h: the help written, or an output error */
        if (fflush(stdout) == 0 && !ferror(stdout)) return PH_EXIT_OK;
        fprintf(stderr, "polyhoop: cannot write the help: %s\n", strerror(errno ? errno : EIO));
        return PH_EXIT_OUTPUT;
    case -1: return PH_EXIT_USAGE;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    omp_set_num_threads(opt.threads ? opt.threads : opt.free_cores);   /* (then by size) */
    char err[8192], saved_input[1024], from[8192];
    RunRecord run = { 0 };
    /* the parameters: the header's with the command line's --set, and on a restart the run's own */
    Params P = opt.P;
    ParamsSet set = opt.set;
    if (opt.restart && checkpoint_params(opt.restart, &P, &set, err, sizeof err))
        status_exit(PH_EXIT_USAGE, "%s", err);
    params_source(&P, &set, from, sizeof from);   /* (what the messages name) */
    if (params_check(&P, err, sizeof err)) status_exit(PH_EXIT_USAGE, "%s: %s", from, err);
    params_warn_off(stderr, &P);
    if (params_is_set(&set, PARAM_box_k) && !params_box_on(&P))
        fprintf(stderr, "polyhoop: warning: --set box_k=%g has no effect: %s has no box walls "
                "(set box_x0 .. box_y1 for them)\n", P.box_k, params_file);
    sim_init(&sim, &P, opt.seed);
    sim.set = set;
    if (sim_chemistry(&sim, &chem_compiled)) status_exit(PH_EXIT_USAGE, "%s: %s", from, sim.error);
    const SimSetup setup = { opt.frames, opt.steps, opt.check, opt.strict, opt.max_vertices,
                             opt.velocities };
    const char *input = opt.input;
    int frame = 0;
    if (opt.restart) {
        if (checkpoint_restart(&sim, opt.restart, opt.strict, &frame, saved_input,
                               sizeof saved_input, &run, err, sizeof err))
            status_exit(PH_EXIT_USAGE, "%s", err);
        if (options_restore(&opt, run.options, sim.e.step % sim.P.Ns == 0, sim.e.np, sim.e.t))
            return PH_EXIT_USAGE;
        input = saved_input;
        if (!any_movable(&sim.e)) {
            printf("nothing to continue: the run in %s stopped with no movable polygon left "
                   "(%d polygon%s at t = %g)\n",
                   TEXT_ESC(opt.restart), sim.e.np, sim.e.np == 1 ? "" : "s", sim.e.t);
            sim_free(&sim);
            return PH_EXIT_OK;
        }
    } else {
        if (!input) {   /* the default: here, else in the repository that built us */
            input = "inputs/ensemble.off";
            if (access(input, R_OK) && !access(PH_REPO "/inputs/ensemble.off", R_OK))
                input = PH_REPO "/inputs/ensemble.off";
            else if (access(input, R_OK))
                status_exit(PH_EXIT_USAGE, "no input file given, and the default "
                            "inputs/ensemble.off is neither in the current folder nor in %s/ "
                            "(where this program was built); give one: polyhoop FILE.off",
                            TEXT_ESC(PH_REPO));
        }
        struct stat st;
        if (!opt.quiet && stat(input, &st) == 0 && st.st_size > (32 << 20))   /* (a long read) */
            fprintf(stderr, "polyhoop: reading %s (%.0f MB)...\n", TEXT_ESC(input),
                    st.st_size / 1e6);
        if (sim_load_input(&sim, input, &setup)) status_exit(PH_EXIT_USAGE, "%s", sim.error);
    }
    if (sim_setup(&sim, &setup)) status_exit(PH_EXIT_USAGE, "%s", sim.error);
    sim_warn_dt(stderr, &sim);
    sim_warn_grid(stderr, &sim);
    omp_set_num_threads(options_threads(&opt, ensemble_vertex_count(&sim.e)));
    int rc = output_open(&out, &opt, &sim, input, PH_VERSION, opt.restart ? frame + 1 : 0);
    if (rc) status_exit(rc, "%s", out.error);
    out.camera = run.camera;   /* (the pictures' camera so far) */
    if (runlog_open(opt.dir, &sim, opt.restart != NULL, sim.e.step, frame, err, sizeof err))
        status_exit(PH_EXIT_OUTPUT, "cannot start the run's log: %s", TEXT_ESC(err));
    out.wall0 = omp_get_wtime();   /* (frame 0's writing is within the summary's wall time) */
    if (!opt.restart) write_frame(&out, &sim, 0);
    if (!opt.restart) output_status(&out, &sim, 0);
    if (!opt.restart) stop_at_cap(&out, &sim, &opt, 0, argv[0]);   /* (the input may meet a cap) */

    in_loop = 1;

    /* ---- loop: steps until the last frame; a frame every Ns steps ---- */
    const int64_t step_end = (int64_t)sim.P.Nf * sim.P.Ns;
    while (sim.e.step < step_end) {
        if ((rc = output_hold(&out, &sim, frame, &stop_signal))) status_exit(rc, "%s", out.error);
        int stepped = sim_step(&sim);
        if (stepped < 0) {
            char intact[80];
            snprintf(intact, sizeof intact, "frames up to %d are intact (each was validated)",
                     frame);
            blow_up(&sim, intact);
        }
        if (stepped > 0) {   /* a signal in a long chemical step: write the state before it */
            if ((rc = output_abandon(&out))) status_exit(rc, "%s", out.error);
            output_summary(&out, &sim, "stopped", frame);
            status_exit(128 + stop_signal, "stopped by signal %d at t = %g (step %lld), giving up "
                        "the step in progress; checkpoint written. Continue with: %s --restart %s",
                        (int)stop_signal, sim.e.t, (long long)sim.e.step, TEXT_ESC(argv[0]),
                        TEXT_ESC(opt.dir));
        }
        if (sim.e.step % sim.P.Ns == 0) {
            frame = (int)(sim.e.step / sim.P.Ns);
            write_frame(&out, &sim, frame);
            output_status(&out, &sim, frame);
            output_threads(&out, options_threads(&opt, ensemble_vertex_count(&sim.e)));
            stop_at_cap(&out, &sim, &opt, frame, argv[0]);
        }
        if (stop_signal) {
            write_checkpoint(&out, &sim, frame);
            output_summary(&out, &sim, "stopped", frame);
            status_exit(128 + stop_signal, "stopped by signal %d at t = %g (step %lld); checkpoint "
                        "written. Continue with: %s --restart %s", (int)stop_signal, sim.e.t,
                        (long long)sim.e.step, TEXT_ESC(argv[0]), TEXT_ESC(opt.dir));
        }
    }
    if (opt.every > 0 && frame % opt.every) write_checkpoint(&out, &sim, frame);

    /* ---- epilog ---- */
    output_summary(&out, &sim, "done", sim.P.Nf);
    output_close(&out);
    sim_free(&sim);
    if (fflush(stdout) || ferror(stdout))   /* (the frames are safe; the user's log is not) */
        status_exit(PH_EXIT_OUTPUT, "cannot write to standard output: %s", strerror(errno));
    return PH_EXIT_OK;
}
