/* What a run writes besides its state: the frames (.vtp), their collection (frames.pvd), the
 * pictures (.png), the checkpoints and their cadence, the banner, the status line per frame and
 * the closing summary. */
#ifndef PH_OUTPUT_H
#define PH_OUTPUT_H
#include "checkpoint.h"
#include "options.h"
#include "sim.h"

typedef struct Output {
    const Options *o;
    const char *input;   /* the input's name, as recorded in the frames */
    const char *version; /* the program's revision */
    char *meta;          /* the frames' XML comment: version, parameters, input, seed */
    double *values;      /* the coloured cell array of the picture */
    int *nb, *same;      /* neighbour counts of the frame; those of the same cell type */
    size_t nbcap;
    int pvd_frames[2];   /* the frames frames.pvd, fields.pvd list as written (0: none yet) */
    double wall0, wlast; /* wall clock at the loop's start and at the last status line */
    int64_t slast;       /* at the last status line: the step, */
    double vslast;       /* Sim's vertex_steps */
    int nvlast;          /* and the vertex count */
    int threads_max;     /* the most threads the run has used */
    PngCamera camera;    /* the pictures' camera so far (kept in the checkpoint) */
    CheckpointBytes held;/* the state before the step in progress (output_hold) */
    int hold_failed;     /* output_hold could not hold one (said once) */
    char error[8192];    /* why the last call failed */
} Output;

/* Creates the output folder, records the run's description and prints the banner (unless
 * quiet); frame0 is the first frame this run writes. Returns 0, or an exit status (status.h)
 * with the reason in out->error, as do the other calls that return an int. */
int output_open(Output *out, const Options *o, const Sim *s, const char *input,
                const char *version, int frame0);

/* Writes a frame of the current state (checked by sim_check_frame), the collection up to it,
 * its picture and, if due, a checkpoint. 0, PH_EXIT_OUTPUT, or PH_EXIT_MEMORY. */
int output_frame(Output *out, Sim *s, int frame);

/* Writes the checkpoint of the state at `frame` and the event log up to it. */
int output_checkpoint(Output *out, Sim *s, int frame);

/* Before a chemical step that may be long (the last took over a quarter of a second, or it is
 * this process's first): holds the checkpoint of the state before it in memory and makes the
 * step give up (sim_step returns 1) once *stop is non-zero, so that a signal is honoured within
 * a sub-step however long the step. */
int output_hold(Output *out, Sim *s, int frame, const volatile sig_atomic_t *stop);

/* After a step given up: writes the checkpoint held by output_hold. */
int output_abandon(Output *out);

/* The status line of a frame (unless quiet): steps per second since the last line, time left. */
void output_status(Output *out, const Sim *s, int frame);

/* The wall time left (s) for `frames` frames of `steps` steps at `rate` vertex steps per second,
 * the vertex count growing from nv as it grew from nv_before in the last frame (a growing
 * tissue's last frames take most of its time); 0 if rate is not positive. */
double output_eta(double rate, int nv_before, int nv, int frames, int steps);

/* Sets the thread count for the steps that follow (frames are the same at any count). */
void output_threads(Output *out, int n);

/* The closing lines of a run: counts, speed, memory and the time of each phase of the step. */
void output_summary(const Output *out, const Sim *s, const char *what, int frames);

void output_close(Output *out);

#endif
