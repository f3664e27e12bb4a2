/* The command line of polyhoop: what a run reads, writes and how often, parsed into one struct
 * (the model's parameters are compiled in, see params.h). */
#ifndef PH_OPTIONS_H
#define PH_OPTIONS_H
#include "png.h"
#include <stdint.h>

typedef struct Options {
    const char *input;      /* OFF file (default inputs/ensemble.off) */
    const char *restart;    /* folder of the run to continue, or NULL */
    const char *dir;        /* output folder */
    int frames, steps;      /* -n, -s; -1: the compiled Nf, Ns */
    int threads;            /* -j; 0: OpenMP's default */
    uint64_t seed;
    int quiet, check, strict;
    int ascii;              /* frames as ASCII instead of zlib */
    int overwrite;          /* replace an earlier run's files in dir */
    int every;              /* checkpoint every K frames (0: never) */
    int max_cells;          /* stop after the first frame with at least this many polygons (0: no) */
    double max_time;        /* stop after the first frame at t >= max_time (0: no) */
    int png, png_w, png_h, png_fixed;
    double png_lo, png_hi;  /* colour range (--png-range); lo >= hi: fitted to each frame */
    const char *png_color;
    PngView png_view;
} Options;

/* Fills o from the command line. Returns 0 (run), 1 (help printed: exit 0) or -1 (usage error,
 * printed to stderr: exit PH_EXIT_USAGE). */
int options_parse(Options *o, int argc, char **argv);

#endif
