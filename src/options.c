/* The command line: every option in one table-like if-chain, each checked as it is read, and the
 * help text that lists them. Usage errors name the option and what it needs. */
#include "options.h"
#include "params.h"
#include "vtp.h"
#include <errno.h>
#include <omp.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        "  -j N           threads (default: OMP_NUM_THREADS or all cores; at most 4 per core)\n"
        "  --seed N       seed of the random numbers (default 1)\n"
        "  --ascii        write frames as ASCII instead of zlib-compressed binary\n"
        "  --png          also draw every frame as DIR/frame%%06d.png (see --png-*)\n"
        "  --png-color A  colour the cells by cell array A (default area), one of:\n"
        "                 %s\n"
        "  --png-size WxH picture size in pixels (default 800x800)\n"
        "  --png-view x0,y0,x1,y1  fixed world rectangle shown (default: fit each frame)\n"
        "  --png-range MIN,MAX  fixed colour range, the same in every picture (default: fit each frame)\n"
        "  --overwrite    replace the output of an earlier run in the output folder\n"
        "  --checkpoint-every K  write DIR/checkpoint.bin every K frames (default 1; 0: never)\n"
        "  --max-cells N  stop after the first frame with at least N polygons (checkpoint, status 0)\n"
        "  --max-time T   stop after the first frame at t >= T (checkpoint, status 0)\n"
        "  --restart DIR  continue the run found in DIR (its checkpoint), writing on into DIR\n"
        "  --check        validate every polygon after every step (slow; stops at the first fault)\n"
        "  --strict-input reject inputs whose polygons overlap (default: warn)\n"
        "  -q             quiet: no banner, no status line per frame\n"
        "  -h, --help     this help\n"
        "SIGINT or SIGTERM: the run finishes its step, writes a checkpoint and stops (status 130/143).\n"
        "Exit status: 0 done, 1 out of memory, 2 bad input or usage, 3 numerical blow-up, 4 output error.\n",
        params_file, params_compiled.Nf, params_compiled.Ns, vtp_cell_array_list());
}

/* An integer option's value in [min, INT_MAX], or -1 after saying what was wrong. */
static long parse_count(const char *opt, const char *arg, long min)
{
    char *end;
    errno = 0;
    long v = arg ? strtol(arg, &end, 10) : 0;
    if (!arg || errno || *end || end == arg || v < min || v > INT_MAX) {
        fprintf(stderr, "polyhoop: option %s needs an integer >= %ld, got '%s'\n", opt, min, arg ? arg : "");
        return -1;
    }
    return v;
}

int options_parse(Options *o, int argc, char **argv)
{
    *o = (Options){ .input = "inputs/ensemble.off", .dir = "outputs", .frames = -1, .steps = -1, .seed = 1,
                    .every = 1, .png_w = 800, .png_h = 800, .png_color = "area" };
    const char *given_input = NULL, *given_dir = NULL, *given_seed = NULL;
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        const char *next = k + 1 < argc ? argv[k + 1] : NULL;
        long v = 0;
#define COUNT(field, min) do { if ((v = parse_count(a, next, min)) < 0) goto bad; o->field = (int)v; k++; } while (0)
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 1; }
        else if (!strcmp(a, "-o") && next) { o->dir = next; given_dir = a; k++; }
        else if (!strcmp(a, "--restart") && next) { o->restart = next; k++; }
        else if (!strcmp(a, "-n")) COUNT(frames, 0);
        else if (!strcmp(a, "-s")) COUNT(steps, 1);
        else if (!strcmp(a, "-j")) COUNT(threads, 1);
        else if (!strcmp(a, "--seed")) { if ((v = parse_count(a, next, 0)) < 0) goto bad; o->seed = (uint64_t)v; given_seed = a; k++; }
        else if (!strcmp(a, "--checkpoint-every")) COUNT(every, 0);
        else if (!strcmp(a, "--max-cells")) COUNT(max_cells, 1);
        else if (!strcmp(a, "--max-time")) {
            char *end;
            o->max_time = next ? strtod(next, &end) : 0;
            if (!next || *end || end == next || !(o->max_time > 0) || !isfinite(o->max_time)) {
                fprintf(stderr, "polyhoop: option --max-time needs a time > 0, got '%s'\n", next ? next : "");
                goto bad;
            }
            k++;
        }
        else if (!strcmp(a, "--ascii")) o->ascii = 1;
        else if (!strcmp(a, "--overwrite")) o->overwrite = 1;
        else if (!strcmp(a, "--png")) o->png = 1;
        else if (!strcmp(a, "--png-color") && next) { o->png_color = next; o->png = 1; k++; }
        else if (!strcmp(a, "--png-size") && next) {
            char *x, *end;
            errno = 0;
            long w = strtol(next, &x, 10), h = *x == 'x' ? strtol(x + 1, &end, 10) : 0;
            o->png_w = (int)(w > 0 && w <= 16384 ? w : 0);
            o->png_h = (int)(h > 0 && h <= 16384 ? h : 0);
            if (errno || *x != 'x' || *end || !o->png_w || !o->png_h || x == next || end == x + 1) {
                fprintf(stderr, "polyhoop: --png-size needs WxH with 1 <= W, H <= 16384, got '%s'\n", next);
                return -1;
            }
            o->png = 1;
            k++;
        } else if (!strcmp(a, "--png-view") && next) {
            PngView *w = &o->png_view;
            char c;
            if (sscanf(next, "%lf,%lf,%lf,%lf%c", &w->x0, &w->y0, &w->x1, &w->y1, &c) != 4 || !(w->x1 > w->x0) || !(w->y1 > w->y0)) {
                fprintf(stderr, "polyhoop: --png-view needs x0,y0,x1,y1 with x0 < x1 and y0 < y1, got '%s'\n", next);
                return -1;
            }
            o->png = o->png_fixed = 1;
            k++;
        } else if (!strcmp(a, "--png-range") && next) {
            char c;
            if (sscanf(next, "%lf,%lf%c", &o->png_lo, &o->png_hi, &c) != 2 || !isfinite(o->png_lo) || !isfinite(o->png_hi) || !(o->png_lo < o->png_hi)) {
                fprintf(stderr, "polyhoop: --png-range needs MIN,MAX with finite MIN < MAX, got '%s'\n", next);
                return -1;
            }
            o->png = 1;
            k++;
        }
        else if (!strcmp(a, "-q")) o->quiet = 1;
        else if (!strcmp(a, "--check")) o->check = 1;
        else if (!strcmp(a, "--strict-input")) o->strict = 1;
        else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "polyhoop: unknown or incomplete option '%s'\n", a);
            goto bad;
        } else if (given_input) {
            fprintf(stderr, "polyhoop: two input files, '%s' and '%s': a run reads one\n", given_input, a);
            return -1;
        } else o->input = given_input = a;
#undef COUNT
    }
    int known = 0;
    for (int k = 0; k < VTP_CELL_ARRAYS; k++) known |= !strcmp(o->png_color, vtp_cell_arrays[k]);
    if (!known) {
        fprintf(stderr, "polyhoop: --png-color: no cell array '%s' (%s)\n", o->png_color, vtp_cell_array_list());
        return -1;
    }
    /* a restart continues a run: its input, seed and folder are the run's own */
    const char *clash = given_input ? given_input : given_dir ? given_dir : given_seed;
    if (o->restart && clash) {
        fprintf(stderr, "polyhoop: %s cannot be combined with --restart: the run in %s keeps its own input, "
                "seed and folder\n", clash, o->restart);
        return -1;
    }
    if (o->restart) o->dir = o->restart;
    /* more threads than this only fight over the cores (and a huge count exhausts memory) */
    int cores = omp_get_num_procs(), cap = 4 * cores < 1024 ? 4 * cores : 1024;
    if (o->threads > cap) {
        fprintf(stderr, "polyhoop: -j %d: at most %d threads on this machine of %d cores\n", o->threads, cap, cores);
        return -1;
    }
    if (!o->threads && omp_get_max_threads() > cap) {
        fprintf(stderr, "polyhoop: warning: OMP_NUM_THREADS asks for %d threads; using %d (4 per core of %d)\n",
                omp_get_max_threads(), cap, cores);
        o->threads = cap;
    }
    return 0;
bad:
    usage(stderr);
    return -1;
}
