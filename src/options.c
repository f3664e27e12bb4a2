/* The command line: every option in one table-like if-chain, each checked as it is read, and the
 * help text that lists them. Usage errors name the option and what it needs. */
#define _DEFAULT_SOURCE   /* getloadavg */
#include "options.h"
#include "chem.h"
#include "params.h"
#include "text.h"
#include "vtp.h"
#include <ctype.h>
#include <errno.h>
#include <omp.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void usage(FILE *f)
{
    /* (the build's species, for --png-field) */
    char species[300] = ";\n                 this build has none";
    for (int s = 0, n = 0; s < chem_compiled.ns; s++)
        n += snprintf(species + n, sizeof species - (size_t)n, "%s%s",
                      s ? ", " : ";\n                 this build's: ",
                      chem_compiled.sp[s].name ? chem_compiled.sp[s].name : "?");
    fprintf(f,
        "usage: polyhoop [options] [--velocities FILE] [[--] input.off]\n"
        "       polyhoop [options] --restart DIR\n"
        "Simulates the polygons of input.off (default inputs/ensemble.off, in the current folder or\n"
        "else in the repository this program was built in) with the parameters compiled in\n"
        "from %s; writes DIR/frame%%06d.vtp, DIR/frames.pvd, DIR/checkpoint.bin and the\n"
        "run's log, DIR/events.csv and DIR/observables.csv. After --, a word is the input, not an option.\n"
        "  -o DIR         output folder, created if missing (default outputs/)\n"
        "  -n N           number of frames after the initial one (default Nf = %d)\n"
        "  -s N           steps per frame (default Ns = %d)\n"
        "  --set NAME=VALUE  parameter NAME (a name of the banner's parameter lines) is VALUE in\n"
        "                 this run instead of the header's; repeat for more. Checked as the header\n"
        "                 is, named in the banner and the frames, kept by the checkpoint: --restart\n"
        "                 goes on with it and refuses another value. --set Nf=N is -n N, --set Ns=N\n"
        "                 is -s N (the last given counts). The chemistry's and the cell types' own\n"
        "                 (P_NS, P_ntypes, P_chem_*, P_TYPE_*, P_CHEM_*) need a rebuild\n"
        "  -j N           threads (default: OMP_NUM_THREADS, else automatic: one per %d vertices,\n"
        "                 up to the cores not busy at the start, chosen again every frame;\n"
        "                 at most 4 per core)\n"
        "  --seed N       seed of the random numbers (default 1)\n"
        "  --velocities FILE  initial velocities of the input's polygons, lines 'polygon vx vy'\n"
        "                 (polygon: 0-based, in face order; unlisted ones start at rest)\n"
        "  --ascii        write frames as ASCII instead of zlib-compressed binary\n"
        "  --png          also draw every frame as DIR/frame%%06d.png (see --png-*)\n"
        "  --png-color A  colour the cells by cell array A (default area), one of:\n"
        "                 %s;\n"
        "                 or velocity (magnitude of the polygon's mean vertex velocity).\n"
        "                 Integer arrays with at most 10 values in a frame get a colour per\n"
        "                 value present; the others the colour map over the 2nd to 98th\n"
        "                 percentile of the frame's cells (a few outliers do not flatten it)\n"
        "  --png-size WxH picture size in pixels (default 800x800)\n"
        "  --png-view x0,y0,x1,y1  fixed world rectangle shown (default: fitted to frame 0 and\n"
        "                 widened only when cells leave it, so sizes compare across frames;\n"
        "                 the scale bar gives the length)\n"
        "  --png-range MIN,MAX  fixed colour range, the same in every frame (default: each\n"
        "                 frame's own, as above)\n"
        "  --png-field S  draw chemical species S under the cells, which are outlined (its colour\n"
        "                 range: --png-range, else each frame's least to largest value)%s\n"
        "  --overwrite    replace the output of an earlier run in the output folder\n"
        "  --checkpoint-every K  write DIR/checkpoint.bin every K frames (default 1; 0: never)\n"
        "  --max-cells N  stop after the first frame with at least N polygons (checkpoint, status 0)\n"
        "  --max-time T   stop after the first frame at t >= T (checkpoint, status 0)\n"
        "  --max-vertices N  refuse an input that remodels into more than N vertices (default:\n"
        "                 the larger of 10^6 and 1000 times its vertices, at most half the memory)\n",
        params_file, params_compiled.Nf, params_compiled.Ns, VERTICES_PER_THREAD,
        vtp_cell_array_list(), species);
    fputs(   /* (in two parts: a C11 compiler need not take a string over 4095 characters) */
        "  --restart DIR  continue the run found in DIR (its checkpoint), writing on into DIR, with\n"
        "                 its own --ascii, --check, --checkpoint-every and --png* options (given\n"
        "                 again with another value: refused, so that its frames and pictures are\n"
        "                 made one way); -n, -j, -q, --strict-input, --max-cells and --max-time may\n"
        "                 change. A build of other rules (another header, or this one edited) refuses it\n"
        "  --check        validate every polygon after every step (slow; stops at the first fault)\n"
        "  --strict-input reject inputs (and, with --restart, checkpoints) whose polygons\n"
        "                 overlap, touch or nest (default: warn)\n"
        "  -q             quiet: no banner, no status line per frame\n"
        "  -h, --help     this help\n"
        "SIGINT or SIGTERM: the run writes a checkpoint after its step (in a long chemical step: at\n"
        "once, of the state before the step) and stops (status 130/143).\n"
        "Exit status: 0 done, 1 out of memory, 2 bad input or usage, 3 numerical blow-up, 4 output error.\n",
        f);
}

/* --png-view's rectangle: corners within VIEW_MAX of the origin (a run's vertices stay within 1e8
 * lmax, checkpoint.c), sides at least VIEW_MIN (a polygon side is at least lmin) */
#define VIEW_MAX 1e9
#define VIEW_MIN 1e-6

/* An integer option's value in [min, INT_MAX], or -1 after saying what was wrong. */
static long parse_count(const char *opt, const char *arg, long min)
{
    char *end;
    errno = 0;
    long v = arg ? strtol(arg, &end, 10) : 0;
    if (!arg) {
        fprintf(stderr, "polyhoop: option %s needs a value\n", opt);
        return -1;
    }
    if (errno || *end || end == arg || v < min || v > INT_MAX) {
        fprintf(stderr, "polyhoop: option %s needs an integer >= %ld, got '%s'%s\n", opt, min,
                TEXT_ESC(arg), (errno == ERANGE || v > INT_MAX) && !*end && end != arg
                               ? " (at most 2147483647)" : "");
        return -1;
    }
    return v;
}

static const char *const OPTION_NAMES[] = {   /* (ties: the first) */
    "-o", "-n", "-s", "-j", "-q", "-h", "--help", "--seed", "--velocities", "--ascii",
    "--png", "--png-color", "--png-size", "--png-view", "--png-range", "--png-field",
    "--overwrite", "--checkpoint-every", "--max-cells", "--max-time", "--max-vertices",
    "--restart", "--check", "--strict-input", "--set" };
enum { NOPTIONS = sizeof OPTION_NAMES / sizeof OPTION_NAMES[0] };

/* The option nearest to a, or NULL (an exact match: an option that is missing its value). */
static const char *closest_option(const char *a) { return text_closest(a, OPTION_NAMES, NOPTIONS); }

/* Whether a is one of the options' names. */
static int is_option(const char *a)
{
    for (int k = 0; k < NOPTIONS; k++)
        if (!strcmp(a, OPTION_NAMES[k])) return 1;
    return 0;
}

/* The compiled-in species named name (chem_compiled), or NULL. */
static const char *species_named(const char *name)
{
    for (int s = 0; s < chem_compiled.ns; s++)
        if (chem_compiled.sp[s].name && !strcmp(chem_compiled.sp[s].name, name))
            return chem_compiled.sp[s].name;
    return NULL;
}

/* --png-field's name checked against the build's species; 0, or -1 after saying why (one line) */
static int check_field(const Options *o)
{
    if (!o->png_field) return 0;
    if (o->given & OPT_PNG_COLOR) {
        fprintf(stderr, "polyhoop: --png-field draws the cells as outlines over the field, so "
                "--png-color has nothing to colour: give one of them\n");
        return -1;
    }
    if (chem_compiled.ns == 0) {
        fprintf(stderr, "polyhoop: --png-field %s: %s has no chemical species (P_NS = 0), so there "
                "is no field to draw\n", TEXT_ESC(o->png_field), params_file);
        return -1;
    }
    if (species_named(o->png_field)) return 0;
    const char *names[CHEM_MAX_SPECIES];
    char list[300] = "";
    for (int s = 0, n = 0; s < chem_compiled.ns; s++) {
        names[s] = chem_compiled.sp[s].name ? chem_compiled.sp[s].name : "?";
        n += snprintf(list + n, sizeof list - (size_t)n, "%s%s", s ? ", " : "", names[s]);
    }
    const char *near = text_closest(o->png_field, names, (size_t)chem_compiled.ns);
    fprintf(stderr, "polyhoop: --png-field: no species '%s' in %s (%s)%s%s%s\n",
            TEXT_ESC(o->png_field), params_file, list, near ? "; did you mean " : "",
            near ? near : "", near ? "?" : "");
    return -1;
}

/* --set NAME=VALUE into o->P and o->set (params_set); Nf and Ns are -n and -s (a restart may
 * change Nf and keeps its Ns: neither is one of the run's --set). 0, or -1 after saying why (one
 * line). */
static int set_parameter(Options *o, const char *text)
{
    const char *name = strncmp(text, "P_", 2) ? text : text + 2, *eq = strchr(text, '=');
    if (eq && eq - name == 2 && (!strncmp(name, "Nf", 2) || !strncmp(name, "Ns", 2))) {
        char opt[16];
        snprintf(opt, sizeof opt, "--set %.2s", name);
        long v = parse_count(opt, eq + 1, name[1] == 'f' ? 0 : 1);
        if (v < 0) return -1;
        *(name[1] == 'f' ? &o->frames : &o->steps) = (int)v;
        return 0;
    }
    char msg[1024];
    if (params_set(&o->P, &o->set, text, msg, sizeof msg) >= 0) return 0;
    fprintf(stderr, "polyhoop: --set %s: %s\n", TEXT_ESC(text), msg);
    return -1;
}

/* The first line of /proc/stat ("cpu" and the cores' times in ticks since boot) as its total of
 * user, nice, system, idle, iowait, irq, softirq and steal time, and the idle part (idle and
 * iowait; guest time is counted in user time already). Returns -1 for a line that is not one. */
static int cpu_ticks(const char *line, double *total, double *idle)
{
    unsigned long long v[8];
    if (sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
               &v[4], &v[5], &v[6], &v[7]) != 8)
        return -1;
    *total = 0;
    for (int k = 0; k < 8; k++) *total += (double)v[k];
    *idle = (double)v[3] + (double)v[4];
    return 0;
}

double options_busy_share(const char *before, const char *after)
{
    double t0, i0, t1, i1;
    if (cpu_ticks(before, &t0, &i0) || cpu_ticks(after, &t1, &i1) || !(t1 > t0) || i1 < i0)
        return -1;
    double busy = 1 - (i1 - i0) / (t1 - t0);
    return busy < 0 ? 0 : busy > 1 ? 1 : busy;
}

/* The first line of /proc/stat into buf, or "" where there is none (not Linux). */
static void read_cpu_line(char *buf, int len)
{
    buf[0] = 0;
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return;
    if (!fgets(buf, len, f)) buf[0] = 0;
    fclose(f);
}

/* The cores that no other program keeps busy now, at least 1: from the share of the cores' time
 * that was not idle over the next 0.1 s (/proc/stat), else from the load average of the last
 * minute (which still counts a run that has just ended: in a batch, each run after the first
 * would see the one before). */
static int free_cores(int cores)
{
    char before[256], after[256];
    double busy = -1;
    read_cpu_line(before, sizeof before);
    if (before[0]) {
        struct timespec pause = { 0, 100 * 1000 * 1000 };
        nanosleep(&pause, NULL);
        read_cpu_line(after, sizeof after);
        double share = options_busy_share(before, after);
        if (share >= 0) busy = share * cores;
    }
    if (busy < 0 && getloadavg(&busy, 1) != 1) busy = 0;
    int n = cores - (int)(busy + 0.5);
    return n < 1 ? 1 : n;
}

int options_parse(Options *o, int argc, char **argv)
{
    *o = (Options){ .dir = "outputs", .frames = -1, .steps = -1, .seed = 1, .P = params_compiled,
                    .every = 1, .png_w = 800, .png_h = 800, .png_color = "area" };
    const char *given_input = NULL, *given_dir = NULL, *given_seed = NULL, *given_vel = NULL,
               *given_new = NULL;
    int only_input = 0;   /* (after --: an input file named -x.off is no option) */
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        const char *next = k + 1 < argc ? argv[k + 1] : NULL;
        long v = 0;
        if (!only_input && !strcmp(a, "--")) { only_input = 1; continue; }
#define COUNT(field, min) \
    do { if ((v = parse_count(a, next, min)) < 0) goto bad; o->field = (int)v; k++; } while (0)
        if (only_input || a[0] != '-' || !a[1]) {   /* the input file */
            if (given_input) {
                fprintf(stderr, "polyhoop: two input files, '%s' and '%s': a run reads one\n",
                        TEXT_ESC(given_input), TEXT_ESC(a));
                return -1;
            }
            o->input = given_input = a;
            continue;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 1; }
        else if ((!strcmp(a, "-o") || !strcmp(a, "--restart")) && next && !*next) {
            /* (a usage error, not a folder to create) */
            fprintf(stderr, "polyhoop: option %s needs a folder name, got ''\n", a);
            goto bad;
        }
        else if ((!strcmp(a, "-o") || !strcmp(a, "--restart") || !strcmp(a, "--velocities")) &&
                 next && is_option(next)) {
            /* (-o --png: the folder was forgotten, not a folder named --png wanted) */
            const char *what = strcmp(a, "--velocities") ? "folder" : "file";
            fprintf(stderr, "polyhoop: option %s needs a %s name, got the option %s (for a %s of "
                    "that name: ./%s)\n", a, what, next, what, next);
            goto bad;
        }
        else if (!strcmp(a, "-o") && next) { o->dir = next; given_dir = a; k++; }
        else if (!strcmp(a, "--restart") && next) { o->restart = next; k++; }
        else if (!strcmp(a, "--velocities") && next) { o->velocities = next; given_vel = a; k++; }
        else if (!strcmp(a, "--set") && next) { if (set_parameter(o, next)) return -1; k++; }
        else if (!strcmp(a, "-n")) COUNT(frames, 0);
        else if (!strcmp(a, "-s")) COUNT(steps, 1);
        else if (!strcmp(a, "-j")) COUNT(threads, 1);
        else if (!strcmp(a, "--seed")) {
            if ((v = parse_count(a, next, 0)) < 0) goto bad;
            o->seed = (uint64_t)v; given_seed = a; k++;
        }
        else if (!strcmp(a, "--checkpoint-every")) { COUNT(every, 0); o->given |= OPT_EVERY; }
        else if (!strcmp(a, "--max-cells")) { COUNT(max_cells, 1); o->given |= OPT_MAX_CELLS; }
        else if (!strcmp(a, "--max-time") || !strcmp(a, "--max-vertices")) {
            char *end;
            double v = next ? strtod(next, &end) : 0;
            int time = !strcmp(a, "--max-time");
            if (!next || *end || end == next || !(v >= (time ? 0 : 1)) || v == 0 || !isfinite(v)) {
                fprintf(stderr, "polyhoop: option %s needs %s, got '%s'\n", a,
                        time ? "a time > 0" : "a number >= 1", TEXT_ESC(next ? next : ""));
                goto bad;
            }
            if (time) o->max_time = v, o->given |= OPT_MAX_TIME;
            else o->max_vertices = v, given_new = a;
            k++;
        }
        else if (!strcmp(a, "--ascii")) o->ascii = 1, o->given |= OPT_ASCII;
        else if (!strcmp(a, "--overwrite")) o->overwrite = 1, given_new = a;
        else if (!strcmp(a, "--png")) o->png = 1, o->given |= OPT_PNG;
        else if (!strcmp(a, "--png-color") && next) {
            o->png_color = next; o->png = 1; o->given |= OPT_PNG | OPT_PNG_COLOR; k++;
        }
        else if (!strcmp(a, "--png-field") && next) {
            o->png_field = next; o->png = 1; o->given |= OPT_PNG | OPT_PNG_FIELD; k++;
        }
        else if (!strcmp(a, "--png-size") && next) {
            char *x, *end;
            errno = 0;
            long w = strtol(next, &x, 10), h = *x == 'x' ? strtol(x + 1, &end, 10) : 0;
            o->png_w = (int)(w > 0 && w <= 16384 ? w : 0);
            o->png_h = (int)(h > 0 && h <= 16384 ? h : 0);
            /* (digits only: strtol would take ' 10' and '+5') */
            if (errno || *x != 'x' || *end || !o->png_w || !o->png_h ||
                !isdigit((unsigned char)next[0]) || !isdigit((unsigned char)x[1])) {
                fprintf(stderr, "polyhoop: --png-size needs WxH with 1 <= W, H <= 16384, "
                        "got '%s'\n", TEXT_ESC(next));
                return -1;
            }
            o->png = 1;
            o->given |= OPT_PNG | OPT_PNG_SIZE;
            k++;
        } else if (!strcmp(a, "--png-view") && next) {
            PngView *w = &o->png_view;
            char c;
            /* (a rectangle a picture can show: finite, not empty, and within VIEW_MAX, so that its
             * pixels per unit are finite and its scale bar a number) */
            int n = sscanf(next, "%lf,%lf,%lf,%lf%c", &w->x0, &w->y0, &w->x1, &w->y1, &c);
            if (n != 4 || !(fabs(w->x0) <= VIEW_MAX && fabs(w->y0) <= VIEW_MAX &&
                            fabs(w->x1) <= VIEW_MAX && fabs(w->y1) <= VIEW_MAX) ||
                !(w->x1 - w->x0 >= VIEW_MIN) || !(w->y1 - w->y0 >= VIEW_MIN)) {
                fprintf(stderr, "polyhoop: --png-view needs x0,y0,x1,y1 with x0 < x1 and y0 < y1, "
                        "each side at least %g and every number within %g of 0, got '%s'\n",
                        VIEW_MIN, VIEW_MAX, TEXT_ESC(next));
                return -1;
            }
            o->png = o->png_fixed = 1;
            o->given |= OPT_PNG | OPT_PNG_VIEW;
            k++;
        } else if (!strcmp(a, "--png-range") && next) {
            char c;
            if (sscanf(next, "%lf,%lf%c", &o->png_lo, &o->png_hi, &c) != 2 ||
                !isfinite(o->png_lo) || !isfinite(o->png_hi) || !(o->png_lo < o->png_hi)) {
                fprintf(stderr, "polyhoop: --png-range needs MIN,MAX with finite MIN < MAX, "
                        "got '%s'\n", TEXT_ESC(next));
                return -1;
            }
            o->png = 1;
            o->given |= OPT_PNG | OPT_PNG_RANGE;
            k++;
        }
        else if (!strcmp(a, "-q")) o->quiet = 1;
        else if (!strcmp(a, "--check")) o->check = 1, o->given |= OPT_CHECK;
        else if (!strcmp(a, "--strict-input")) o->strict = 1;
        else {   /* (an option no branch above knows) */
            const char *near = closest_option(a), *eq = strchr(a, '=');
            char name[64];
            snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - a) : 0, a);
            if (eq && is_option(name))   /* (--png-view=0,0,1,1: the value is the next word) */
                fprintf(stderr, "polyhoop: unknown option '%s': give the value as the next word, "
                        "%s %s\n", TEXT_ESC(a), name, TEXT_ESC(eq + 1));
            else if (near && !strcmp(near, a))
                fprintf(stderr, "polyhoop: option %s needs a value\n", TEXT_ESC(a));
            else if (near)
                fprintf(stderr, "polyhoop: unknown option '%s' (did you mean %s?)\n", TEXT_ESC(a),
                        near);
            else
                fprintf(stderr, "polyhoop: unknown option '%s'%s\n", TEXT_ESC(a),
                        strstr(a, ".off") ? " (an input file whose name starts with -: give it "
                                            "after --)" : "");
            goto bad;
        }
#undef COUNT
    }
    int known = 0;
    for (int k = 0; k < VTP_CELL_ARRAYS; k++) known |= !strcmp(o->png_color, vtp_cell_arrays[k]);
    char vars[CHEM_MAX_VARS * (CHEM_NAME_MAX + 2) + 1] = "";   /* (the cells' variables too) */
    for (int k = 0; k < chem_compiled.nvar; k++) {
        known |= !strcmp(o->png_color, chem_compiled.var[k].name);
        snprintf(vars + strlen(vars), sizeof vars - strlen(vars), ", %s", chem_compiled.var[k].name);
    }
    if (!known && strcmp(o->png_color, "velocity")) {
        fprintf(stderr, "polyhoop: --png-color: no cell array '%s' (%s%s, or velocity)\n",
                TEXT_ESC(o->png_color), vtp_cell_array_list(), vars);
        return -1;
    }
    if (check_field(o)) return -1;
    /* a restart continues a run: its input, seed and folder are the run's own */
    const char *clash = given_input ? given_input : given_dir ? given_dir
                      : given_seed ? given_seed : given_vel;
    if (o->restart && clash) {
        fprintf(stderr, "polyhoop: %s cannot be combined with --restart: the run in %s keeps its "
                "own input, velocities, seed and folder\n", TEXT_ESC(clash), TEXT_ESC(o->restart));
        return -1;
    }
    if (o->restart && given_new) {   /* (options of a new run, which a restart would not heed) */
        fprintf(stderr, "polyhoop: %s cannot be combined with --restart: it concerns a new run "
                "(%s), and the run in %s goes on\n", given_new,
                !strcmp(given_new, "--overwrite") ? "replacing an earlier run's files"
                                                  : "its input's vertices",
                TEXT_ESC(o->restart));
        return -1;
    }
    if (o->restart) o->dir = o->restart;
    /* more threads than this only fight over the cores (and a huge count exhausts memory) */
    int cores = omp_get_num_procs(), cap = 4 * cores < 1024 ? 4 * cores : 1024;
    if (o->threads > cap) {
        fprintf(stderr, "polyhoop: -j %d: at most %d threads on this machine of %d cores\n",
                o->threads, cap, cores);
        return -1;
    }
    const int by_j = o->threads > 0;
    const char *env = getenv("OMP_NUM_THREADS");
    if (!o->threads && env && *env) {
        char *end;
        long asked = strtol(env, &end, 10);   /* (a list "4,2" asks for 4 at the outer level) */
        while (isspace((unsigned char)*end)) end++;
        if (end == env || asked < 1 || (*end && *end != ','))   /* (libgomp ignores it) */
            fprintf(stderr, "polyhoop: warning: OMP_NUM_THREADS='%s' is not a thread count >= 1; "
                    "choosing automatically\n", TEXT_ESC(env));
        else {
            o->threads = omp_get_max_threads();
            if (o->threads > cap) {
                fprintf(stderr, "polyhoop: warning: OMP_NUM_THREADS asks for %d threads; using %d "
                        "(4 per core of %d)\n", o->threads, cap, cores);
                o->threads = cap;
            }
        }
    }
    /* (the automatic count follows the free cores; a fixed count above them is warned of, once:
     * on a busy machine threads that wait on each other's turn slow a run many times over) */
    o->free_cores = o->threads == 1 ? cores : free_cores(cores);
    if (o->threads > o->free_cores)
        fprintf(stderr, "polyhoop: warning: %s%d asks for %d threads, but only %d of this "
                "machine's %d cores %s free (the others are busy): threads beyond the free cores "
                "take turns, and the run may take many times as long as with -j %d\n",
                by_j ? "-j " : "OMP_NUM_THREADS=", o->threads, o->threads, o->free_cores, cores,
                o->free_cores == 1 ? "is" : "are", o->free_cores);
    return 0;
bad:   /* (one line, not the whole usage: the message stays on the screen) */
    fprintf(stderr, "polyhoop: run polyhoop -h for the options\n");
    return -1;
}

int options_threads(const Options *o, int nv)
{
    if (o->threads > 0) return o->threads;
    int n = nv / VERTICES_PER_THREAD;
    return n < 1 ? 1 : n > o->free_cores ? o->free_cores : n;
}

void options_record(const Options *o, char *buf, size_t len)
{
    FILE *f = fmemopen(buf, len, "w");
    if (!f) { if (len) buf[0] = 0; return; }
    fprintf(f, "--checkpoint-every %d%s%s", o->every, o->ascii ? " --ascii" : "",
            o->check ? " --check" : "");
    if (o->png) {
        if (o->png_field)
            fprintf(f, " --png-field %s --png-size %dx%d", o->png_field, o->png_w, o->png_h);
        else fprintf(f, " --png-color %s --png-size %dx%d", o->png_color, o->png_w, o->png_h);
        const PngView *w = &o->png_view;
        if (o->png_fixed)
            fprintf(f, " --png-view %.17g,%.17g,%.17g,%.17g", w->x0, w->y0, w->x1, w->y1);
        if (o->png_lo < o->png_hi) fprintf(f, " --png-range %.17g,%.17g", o->png_lo, o->png_hi);
    }
    if (o->max_cells) fprintf(f, " --max-cells %d", o->max_cells);
    if (o->max_time > 0) fprintf(f, " --max-time %.17g", o->max_time);
    fclose(f);   /* (terminates buf; a record too long for it would be cut and then refused) */
}

int options_restore(Options *o, const char *recorded, int at_frame, int np, double t)
{
    char copy[512], *word[24] = { "polyhoop" };
    int n = 1;
    snprintf(copy, sizeof copy, "%s", recorded);
    for (char *w = strtok(copy, " "); w; w = strtok(NULL, " "))
        if (n < 24) word[n++] = w;
    Options r;
    if (n == 24 || options_parse(&r, n, word)) {
        fprintf(stderr, "polyhoop: the checkpoint's options cannot be read: '%s'\n",
                TEXT_ESC(recorded));
        return -1;
    }
    /* each recorded option: the command line's value must be the same, or it takes the record's
     * (a run's frames and pictures are made one way throughout, so that its restart writes the
     * files of the run never interrupted); a run drawing a field has no colour of the cells */
    struct { unsigned bit; const char *name; int same; } kept[] = {
        { OPT_ASCII, "--ascii", o->ascii == r.ascii },
        { OPT_CHECK, "--check", o->check == r.check },
        { OPT_EVERY, "--checkpoint-every", o->every == r.every },
        { OPT_PNG, "--png", o->png == r.png },
        { OPT_PNG_COLOR, "--png-color", !r.png_field && !strcmp(o->png_color, r.png_color) },
        { OPT_PNG_SIZE, "--png-size", o->png_w == r.png_w && o->png_h == r.png_h },
        { OPT_PNG_VIEW, "--png-view",
          o->png_fixed == r.png_fixed && !memcmp(&o->png_view, &r.png_view, sizeof r.png_view) },
        { OPT_PNG_RANGE, "--png-range", o->png_lo == r.png_lo && o->png_hi == r.png_hi },
        { OPT_PNG_FIELD, "--png-field",
          !o->png_field == !r.png_field && (!o->png_field || !strcmp(o->png_field, r.png_field)) },
    };
    for (size_t k = 0; k < sizeof kept / sizeof kept[0]; k++)
        if ((o->given & kept[k].bit) && !kept[k].same) {
            char field[160] = "";
            if (kept[k].bit == OPT_PNG_COLOR && r.png_field)
                snprintf(field, sizeof field,
                         " its pictures draw the field %s under outlined cells, and",
                         TEXT_ESC(r.png_field));
            fprintf(stderr, "polyhoop: %s cannot change on --restart: the run in %s continues with "
                    "its own options (%s):%s a run's frames and pictures are made one way "
                    "throughout, as if it had never been interrupted; leave it out, or start a "
                    "new run\n", kept[k].name, TEXT_ESC(o->restart), TEXT_ESC(recorded), field);
            return -1;
        }
    o->ascii = r.ascii, o->check = r.check, o->every = r.every, o->png = r.png;
    o->png_w = r.png_w, o->png_h = r.png_h, o->png_fixed = r.png_fixed, o->png_view = r.png_view;
    o->png_lo = r.png_lo, o->png_hi = r.png_hi;
    /* (png_color points into the record's copy: find the same name in the program's list) */
    o->png_color = "velocity";
    for (int k = 0; k < VTP_CELL_ARRAYS; k++)
        if (!strcmp(r.png_color, vtp_cell_arrays[k])) o->png_color = vtp_cell_arrays[k];
    o->png_field = r.png_field ? species_named(r.png_field) : NULL;   /* (likewise) */
    /* the caps (a frame that meets one is the last the run wrote: it stopped there) */
    if (!(o->given & OPT_MAX_CELLS))
        o->max_cells = at_frame && r.max_cells && np >= r.max_cells ? 0 : r.max_cells;
    if (!(o->given & OPT_MAX_TIME))
        o->max_time = at_frame && r.max_time > 0 && t >= r.max_time ? 0 : r.max_time;
    return 0;
}
