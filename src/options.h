/* The command line of polyhoop: what a run reads, writes and how often, parsed into one struct
 * (the model's parameters are compiled in, see params.h, and --set changes them for a run). */
#ifndef PH_OPTIONS_H
#define PH_OPTIONS_H
#include "params.h"
#include "png.h"
#include <stdint.h>

typedef struct Options {
    const char *input;      /* OFF file; NULL: the default (see main) */
    const char *velocities; /* --velocities FILE, or NULL */
    const char *restart;    /* folder of the run to continue, or NULL */
    const char *dir;        /* output folder */
    int frames, steps;      /* -n, -s (or --set Nf=, Ns=); -1: the compiled Nf, Ns */
    Params P;               /* the header's parameters with --set's (Nf, Ns: frames, steps) */
    ParamsSet set;          /* which parameters --set gave */
    int threads;            /* -j, or OMP_NUM_THREADS; 0: automatic (options_threads) */
    int free_cores;         /* cores not busy when the run started (all of them with -j 1) */
    uint64_t seed;
    int quiet, check, strict;
    int ascii;              /* frames as ASCII instead of zlib */
    int overwrite;          /* replace an earlier run's files in dir */
    int every;              /* checkpoint every K frames (0: never) */
    int max_cells;          /* stop at the first frame with at least this many polygons (0: no) */
    double max_time;        /* stop after the first frame at t >= max_time (0: no) */
    double max_vertices;    /* the most vertices an input may remodel into (0: automatic) */
    int png, png_w, png_h, png_fixed;
    double png_lo, png_hi;  /* colour range (--png-range); lo >= hi: fitted to each frame */
    const char *png_color;
    const char *png_field;  /* the species drawn under the cells (of chem_compiled), or NULL */
    PngView png_view;
    unsigned given;         /* which of the recorded options (OPT_*) the command line gave */
} Options;

/* The share (0 to 1) of the cores' time that was not idle between two readings of the first line
 * of /proc/stat, or -1 if either is not such a line or no time passed. */
double options_busy_share(const char *before, const char *after);

/* The options a run keeps across restarts (options_record), as bits of Options.given. */
enum { OPT_ASCII = 1, OPT_CHECK = 2, OPT_EVERY = 4, OPT_PNG = 8, OPT_PNG_COLOR = 16,
       OPT_PNG_SIZE = 32, OPT_PNG_VIEW = 64, OPT_PNG_RANGE = 128, OPT_PNG_FIELD = 256,
       OPT_MAX_CELLS = 512, OPT_MAX_TIME = 1024 };

/* Vertices per thread of the automatic thread count: below about this many, a second thread
 * costs more in barriers than it saves (measured crossover: docs/performance.md). */
enum { VERTICES_PER_THREAD = 2000 };

/* The threads for nv vertices: -j or OMP_NUM_THREADS when given, else one per
 * VERTICES_PER_THREAD vertices, at least 1, at most the cores free when the run started. */
int options_threads(const Options *o, int nv);

/* The options a restart continues with (frame format, --check, checkpoint interval, pictures,
 * --max-cells and --max-time), as command-line words, into buf (at most len bytes). */
void options_record(const Options *o, char *buf, size_t len);

/* For a restart: puts the recorded options in force. One given again with another value is
 * refused (a run's frames and pictures are made one way), as is --png-color on a run that draws
 * a field. -n, -j, -q, --max-cells and --max-time may change; the recorded caps hold where not
 * given again, but for one that the checkpoint meets at a frame (at_frame: its step ends a
 * frame; np polygons at time t), which stopped the run. 0, or -1 after saying why on stderr. */
int options_restore(Options *o, const char *recorded, int at_frame, int np, double t);

/* Fills o from the command line. 0: run; 1: help printed; -1: usage error, said on stderr. */
int options_parse(Options *o, int argc, char **argv);

#endif
