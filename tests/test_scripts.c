/* Tests of the helper scripts in scripts/: every script has one shebang style and its run bits,
 * the Python ones print help for -h and exit 0 without writing anything (make_inputs.py --help
 * leaves inputs/ as it was), every generator writes a valid input, every showcase builds and
 * runs a few steps, and scripts/paraview_view.py draws a phase -1 drop nested inside a phase +1
 * drop of the emulsion over the drop around it (skipped, with the install line, where ParaView
 * is missing). Run from the repository root, like every test. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "fixtures.h"
#include "geometry.h"
#include "off.h"
#include "overlap.h"
#include <math.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PARAVIEW_INSTALL "apt-get install -y paraview python3-paraview xvfb"

/* system() and the exit status of the command (-1 when it did not exit normally). */
static int run(const char *cmd)
{
    int st = system(cmd);
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* Reads a whole file into a malloc'd buffer; *len gets its size. NULL when it cannot be read. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap);
    for (size_t got; s && (got = fread(s + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) { char *t = realloc(s, cap *= 2); if (!t) { free(s); s = NULL; } else s = t; }
    }
    fclose(f);
    *len = n;
    return s;
}

void test_scripts_shebang_and_run_bits(void)
{
    DIR *d = opendir("scripts");
    ENSURE(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        int py = has_suffix(e->d_name, ".py"), sh = has_suffix(e->d_name, ".sh");
        if (!py && !sh) continue;
        char path[512], line[64] = "";
        snprintf(path, sizeof path, "scripts/%s", e->d_name);
        FILE *f = fopen(path, "r");
        ENSURE(f);
        ENSURE(fgets(line, sizeof line, f) != NULL);
        fclose(f);
        const char *want = py ? "#!/usr/bin/env python3\n" : "#!/usr/bin/env bash\n";
        ENSURE_MSG(!strcmp(line, want), "%s starts with '%.40s', expected '%.30s'", path, line, want);
        ENSURE_MSG(access(path, X_OK) == 0, "%s is not executable (chmod +x, git update-index --chmod=+x)", path);
        n++;
    }
    closedir(d);
    ENSURE(n >= 5);
}

void test_scripts_help_exits_zero(void)
{
    DIR *d = opendir("scripts");
    ENSURE(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!has_suffix(e->d_name, ".py") && !has_suffix(e->d_name, ".sh")) continue;
        char cmd[600];
        snprintf(cmd, sizeof cmd, "scripts/%s -h > /dev/null 2>&1", e->d_name);
        int st = run(cmd);
        if (st == 127) { closedir(d); SKIP("python3 is not on PATH"); }
        ENSURE_MSG(st == 0, "%s exited %d", cmd, st);
        n++;
    }
    closedir(d);
    ENSURE(n >= 4);
}

/* inputs/'s files: names, contents and modification times, to compare before and after. */
enum { MAX_INPUTS = 64 };
typedef struct { int n; char name[MAX_INPUTS][256]; char *data[MAX_INPUTS]; size_t len[MAX_INPUTS]; struct timespec mtime[MAX_INPUTS]; } Snapshot;

static void snapshot(Snapshot *s)
{
    memset(s, 0, sizeof *s);
    DIR *d = opendir("inputs");
    ENSURE(d);
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        ENSURE(s->n < MAX_INPUTS);
        char path[512];
        struct stat st;
        snprintf(path, sizeof path, "inputs/%s", e->d_name);
        ENSURE(stat(path, &st) == 0);
        snprintf(s->name[s->n], sizeof s->name[0], "%s", e->d_name);
        s->mtime[s->n] = st.st_mtim;
        s->data[s->n] = slurp(path, &s->len[s->n]);
        ENSURE(s->data[s->n]);
        s->n++;
    }
    closedir(d);
}

static int same_snapshot(const Snapshot *a, const Snapshot *b)
{
    if (a->n != b->n) return 0;
    for (int i = 0; i < a->n; i++) {
        int found = 0;
        for (int j = 0; j < b->n && !found; j++)
            found = !strcmp(a->name[i], b->name[j]) && a->len[i] == b->len[j] &&
                    !memcmp(a->data[i], b->data[j], a->len[i]) &&
                    a->mtime[i].tv_sec == b->mtime[j].tv_sec && a->mtime[i].tv_nsec == b->mtime[j].tv_nsec;
        if (!found) return 0;
    }
    return 1;
}

static void free_snapshot(Snapshot *s)
{
    for (int i = 0; i < s->n; i++) free(s->data[i]);
}

/* make_inputs.py --help (and -h) prints help and leaves inputs/ untouched; run with --dir it
 * writes the very files that are in inputs/ (it is deterministic). */
void test_scripts_make_inputs_help_keeps_inputs(void)
{
    static Snapshot before, after;
    snapshot(&before);
    int st = run("scripts/make_inputs.py --help > /dev/null 2>&1");
    if (st == 127) SKIP("python3 is not on PATH");
    ENSURE_MSG(st == 0, "make_inputs.py --help exited %d", st);
    ENSURE(run("scripts/make_inputs.py -h > /dev/null 2>&1") == 0);
    ENSURE(run("scripts/make_inputs.py --bogus > /dev/null 2>&1") == 2);
    snapshot(&after);
    ENSURE_MSG(same_snapshot(&before, &after), "make_inputs.py -h/--help changed inputs/");
    free_snapshot(&after);

    char dir[] = "/tmp/ph_test_scripts_XXXXXX", cmd[256], path[300];
    ENSURE(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "scripts/make_inputs.py --dir %s > /dev/null", dir);
    ENSURE(run(cmd) == 0);
    for (int i = 0; i < 3; i++) {
        const char *name = i == 0 ? "emulsion.off" : i == 1 ? "foam.off" : "hourglass.off";
        size_t n, m;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        char *fresh = slurp(path, &n);
        snprintf(path, sizeof path, "inputs/%s", name);
        char *kept = slurp(path, &m);
        ENSURE(fresh && kept);
        ENSURE_MSG(n == m && !memcmp(fresh, kept, n), "make_inputs.py wrote a %s that differs from inputs/%s", name, name);
        free(fresh);
        free(kept);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        ENSURE(remove(path) == 0);
    }
    ENSURE(rmdir(dir) == 0);
    snapshot(&after);
    ENSURE(same_snapshot(&before, &after));
    free_snapshot(&after);
    free_snapshot(&before);
}

/* The bounding box of an OFF polygon, grown by pad. */
static void bbox(const OffPolygon *p, double pad, double b[4])
{
    b[0] = b[2] = p->x[0], b[1] = b[3] = p->y[0];
    for (int k = 1; k < p->n; k++)
        b[0] = fmin(b[0], p->x[k]), b[1] = fmin(b[1], p->y[k]), b[2] = fmax(b[2], p->x[k]), b[3] = fmax(b[3], p->y[k]);
    b[0] -= pad, b[1] -= pad, b[2] += pad, b[3] += pad;
}

/* The smallest distance from a vertex of p to an edge of q. */
static double vertex_edge_gap(const OffPolygon *p, const OffPolygon *q)
{
    double d = INFINITY;
    for (int i = 0; i < p->n; i++)
        for (int k = 0; k < q->n; k++) {
            Vec2 v = { p->x[i], p->y[i] }, a = { q->x[k], q->y[k] }, b = { q->x[(k + 1) % q->n], q->y[(k + 1) % q->n] };
            d = fmin(d, geom_point_segment_distance(v, a, b, NULL));
        }
    return d;
}

/* Every generator of scripts/ writes an input that the program's OFF reader takes with the number
 * of polygons asked for: make_inputs.py for each of its scenes, another draw (--size, --seed) where
 * it has them, and make_tissue.py. Each file is read three times: by ./polyhoop with
 * --strict-input, which refuses polygons that cross, touch or nest in one of the same phase and
 * must print nothing (a clockwise polygon would be reversed with a warning) — for scenes with
 * walls, which share corners as rigid polygons may, by the overlap check with those walls rigid
 * (as the showcase's Nr makes them) and by ./polyhoop without --strict-input —, and by off_read
 * here, to see that no polygon lies inside another (but the emulsion's
 * nested drops) and that different polygons keep at least 0.009 apart (the generators leave
 * h = 0.01 or more), except the rigid walls among themselves, which meet at corners. */
static const struct { const char *name; int size, seed, polygons, at_least, walls, nested; } generated[] = {
    { "foam",         40, 9, 43, 0, 3, 0 },   /* 3 walls (Nr = 3) and the bubbles */
    { "emulsion",     12, 5, 16, 1, 4, 1 },   /* 4 walls, the drops and the drops nested in some */
    { "hourglass",     0, 0,  4, 1, 3, 0 },   /* no size: 3 walls and the particles the bulb holds */
    { "vesicles",      3, 7, 51, 0, 0, 0 },   /* 17 per vesicle: a lumen and 16 cells */
    { "floppy",       12, 3, 12, 0, 0, 0 },
    { "rubber_bands",  7, 2, 10, 0, 3, 0 },   /* 3 walls and the rings */
    { "hex_packing",  10, 1, 14, 0, 4, 0 },   /* 4 walls and the cells */
    { "projectiles",  12, 3, 14, 0, 1, 0 },   /* a wall (Nr = 1), the cell and the particles */
    { "tissue",       60, 4, 50, 1, 0, 0 },   /* make_tissue.py 60: about 60 cells */
};

void test_scripts_generated_inputs_valid(void)
{
    char dir[] = "/tmp/ph_test_gen_XXXXXX", cmd[2048], path[600];
    ENSURE(mkdtemp(dir));
    for (size_t g = 0; g < sizeof generated / sizeof generated[0]; g++) {
        const char *name = generated[g].name;
        if (!strcmp(name, "tissue"))
            snprintf(cmd, sizeof cmd, "scripts/make_tissue.py %d %s/tissue.off --seed %d", generated[g].size, dir, generated[g].seed);
        else if (generated[g].size)
            snprintf(cmd, sizeof cmd, "scripts/make_inputs.py --size %d --seed %d --dir %s %s > /dev/null",
                     generated[g].size, generated[g].seed, dir, name);
        else
            snprintf(cmd, sizeof cmd, "scripts/make_inputs.py --dir %s %s > /dev/null", dir, name);
        int st = run(cmd);
        if (st == 127) SKIP("python3 is not on PATH");
        ENSURE_MSG(st == 0, "%s exited %d", cmd, st);
        snprintf(cmd, sizeof cmd, "./polyhoop -q %s -n 0 -o %s/run_%s %s/%s.off > /dev/null 2> %s/%s.err && "
                 "[ %s %s/%s.err ]", generated[g].walls ? "" : "--strict-input", dir, name, dir, name, dir, name,
                 generated[g].walls ? "-e" : "! -s", dir, name);
        ENSURE_MSG(run(cmd) == 0, "./polyhoop refused or warned about %s/%s.off: see %s/%s.err", dir, name, dir, name);
        if (generated[g].walls) {   /* the check of --strict-input, with the walls rigid */
            OffData w;
            char werr[512];
            snprintf(path, sizeof path, "%s/%s.off", dir, name);
            ENSURE_MSG(off_read(path, &w, werr, sizeof werr) == 0, "%s", werr);
            static Ensemble e;
            ensemble_init(&e, 1);
            for (int p = 0; p < w.np; p++)
                ensemble_add_polygon(&e, w.poly[p].n, w.poly[p].x, w.poly[p].y, w.poly[p].phase, p < generated[g].walls);
            off_free(&w);
            OverlapPair first;
            long pairs = overlap_find(&e, 0.2, 0.01, &first);
            ensemble_free(&e);
            ENSURE_MSG(pairs == 0, "%s: polygons %d and %d overlap, touch or nest (%ld pairs)", path, first.a, first.b, pairs);
        }

        OffData d;
        char err[512];
        snprintf(path, sizeof path, "%s/%s.off", dir, name);
        ENSURE_MSG(off_read(path, &d, err, sizeof err) == 0, "%s", err);
        int np = d.np;
        ENSURE_MSG(generated[g].at_least ? np >= generated[g].polygons : np == generated[g].polygons,
                   "%s has %d polygons, expected %s%d", path, np, generated[g].at_least ? "at least " : "", generated[g].polygons);
        if (!strcmp(name, "tissue")) ENSURE_MSG(np <= 70, "%s has %d cells, asked for about 60", path, np);
        for (int p = 0; p < np; p++) {
            double bp[4];
            bbox(&d.poly[p], 0.05, bp);
            for (int q = 0; q < np; q++) {
                double bq[4];
                bbox(&d.poly[q], 0, bq);
                if (q == p || (p < generated[g].walls && q < generated[g].walls) || bq[0] > bp[2] || bq[2] < bp[0] || bq[1] > bp[3] || bq[3] < bp[1]) continue;
                const OffPolygon *a = &d.poly[p], *b = &d.poly[q];
                ENSURE_MSG(generated[g].nested || !geom_point_inside(b->x, b->y, b->n, a->x[0], a->y[0]),
                           "%s: polygon %d lies inside polygon %d", path, p, q);
                double gap = vertex_edge_gap(a, b);
                ENSURE_MSG(generated[g].nested || gap >= 0.009, "%s: polygons %d and %d are %.3g apart", path, p, q, gap);
            }
        }
        off_free(&d);
    }
    snprintf(cmd, sizeof cmd, "grep -q 'polydisperse bubbles (seed 9)' %s/foam.off && rm -rf %s", dir, dir);
    ENSURE(run(cmd) == 0);
}

/* ---- the showcases -------------------------------------------------------------------------- */

/* 1 when every number in the <DataArray> elements of an ASCII VTK file is finite (and there are
 * some); the XML comment before them may say "inf" for a parameter such as Amax. */
static int frame_finite(const char *path, int *numbers)
{
    size_t len;
    char *s = slurp(path, &len);
    if (!s) return 0;
    char *t = realloc(s, len + 1);
    if (!t) { free(s); return 0; }
    s = t, s[len] = '\0';
    int ok = 1;
    *numbers = 0;
    for (char *p = strstr(s, "<DataArray"); ok && p; p = strstr(p, "<DataArray")) {
        char *body = strchr(p, '>'), *end = body ? strstr(body, "</DataArray") : NULL;
        if (!end) { ok = 0; break; }
        for (char *q = body + 1, *next; ok; q = next) {
            while (q < end && (*q == ' ' || *q == '\n' || *q == '\t' || *q == '\r')) q++;
            if (q >= end) break;
            double v = strtod(q, &next);
            ok = next > q && next <= end && isfinite(v);
            (*numbers)++;
        }
        p = end;
    }
    free(s);
    return ok && *numbers > 0;
}

/* The facts the gallery states for hex_packing and the emulsion, from their full runs
 * (tests/cli/showcase_claims.sh: hexagons inside the packing, shape index >= 3.70; at least 20
 * fusions and the rising phase mostly one polygon). */
void test_scripts_showcase_claims(void)
{
    char dir[] = "/tmp/ph_test_claims_XXXXXX", cmd[512];
    ENSURE(mkdtemp(dir));
    if (run("command -v python3 > /dev/null") != 0) SKIP("python3 is not on PATH");
    snprintf(cmd, sizeof cmd, "tests/cli/showcase_claims.sh %s > %s/out 2>&1", dir, dir);
    int st = run(cmd);
    ENSURE_MSG(st == 0, "tests/cli/showcase_claims.sh failed: see %s/out", dir);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(run(cmd) == 0);
}

/* Every parameter header compiles with its checks (src/params.c, warnings as errors), and every
 * showcase of scripts/showcase.sh --list builds in build/showcase/NAME (the builds run two at a
 * time first), makes its input and runs 2 frames of 20 steps with --check into a temporary folder:
 * exit status 0, and the last frame holds numbers only, all finite. */
void test_scripts_showcases_build_and_run(void)
{
    char names[16][32], cmd[2048];
    int n = 0;
    FILE *f = popen("scripts/showcase.sh --list", "r");
    ENSURE(f);
    while (n < 16 && fscanf(f, "%31s", names[n]) == 1) n++;
    ENSURE(pclose(f) == 0);
    ENSURE_MSG(n >= 10, "scripts/showcase.sh --list named %d showcases", n);

    DIR *d = opendir("params");
    ENSURE(d);
    int headers = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!has_suffix(e->d_name, ".h")) continue;
        snprintf(cmd, sizeof cmd, "gcc -std=c11 -fsyntax-only -Wall -Wextra -Wpedantic -Werror -Isrc -iquote . "
                 "-DPH_PARAMS_FILE='\"params/%s\"' src/params.c", e->d_name);
        ENSURE_MSG(run(cmd) == 0, "params/%s does not compile: %s", e->d_name, cmd);
        headers++;
    }
    closedir(d);
    ENSURE(headers > n);

    size_t len = (size_t)snprintf(cmd, sizeof cmd, "printf '%%s\\n'");
    for (int k = 0; k < n; k++) {
        char header[600];
        snprintf(header, sizeof header, "params/%s.h", names[k]);
        ENSURE_MSG(access(header, R_OK) == 0, "showcase %s has no %s", names[k], header);
        len += (size_t)snprintf(cmd + len, sizeof cmd - len, " %s", names[k]);
    }
    snprintf(cmd + len, sizeof cmd - len, " | xargs -P 2 -I {} make -s --no-print-directory B=build/showcase/{} "
             "PARAMS=params/{}.h build/showcase/{}/polyhoop > /dev/null");
    ENSURE_MSG(run(cmd) == 0, "building the showcases failed: %s", cmd);

    char dir[] = "/tmp/ph_test_showcase_XXXXXX", path[300];
    ENSURE(mkdtemp(dir));
    for (int k = 0; k < n; k++) {
        snprintf(cmd, sizeof cmd, "scripts/showcase.sh %s --out %s/%s -- -n 2 -s 20 --check --ascii > %s/%s.log 2>&1",
                 names[k], dir, names[k], dir, names[k]);
        int st = run(cmd);
        ENSURE_MSG(st == 0, "showcase %s exited %d: see %s/%s.log", names[k], st, dir, names[k]);
        int numbers;
        snprintf(path, sizeof path, "%s/%s/frame000002.vtp", dir, names[k]);
        ENSURE_MSG(frame_finite(path, &numbers), "showcase %s: %s is missing or holds a non-finite value", names[k], path);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(run(cmd) == 0);
}

/* ---- the nested drop in ParaView ------------------------------------------------------------ */

enum { MAX_POLYS = 256 };
typedef struct { double cx, cy, r; int phase; } Drop;

/* The polygons of an OFF file as centroid (vertex mean), mean radius and phase (z odd: +1, z
 * even: -1, as scripts/make_inputs.py writes them). Returns the count. */
static int read_drops(const char *path, Drop *drop)
{
    FILE *f = fopen(path, "r");
    ENSURE(f);
    char line[4096];
    int nv = -1, np = -1;
    while (nv < 0 && fgets(line, sizeof line, f))
        if (line[0] != '#' && strncmp(line, "OFF", 3) && sscanf(line, "%d %d", &nv, &np) != 2) nv = -1;
    ENSURE(nv > 0 && np > 0 && np <= MAX_POLYS);
    double *x = malloc(sizeof *x * (size_t)nv), *y = malloc(sizeof *y * (size_t)nv);
    int *z = malloc(sizeof *z * (size_t)nv);
    ENSURE(x && y && z);
    for (int i = 0; i < nv; i++) ENSURE(fscanf(f, "%lf %lf %d", &x[i], &y[i], &z[i]) == 3);
    for (int p = 0; p < np; p++) {
        int m, v = 0;
        ENSURE(fscanf(f, "%d", &m) == 1 && m >= 3);
        double sx = 0, sy = 0, sr = 0;
        int first = -1;
        int *idx = malloc(sizeof *idx * (size_t)m);
        ENSURE(idx);
        for (int k = 0; k < m; k++) {
            ENSURE(fscanf(f, "%d", &v) == 1 && v >= 0 && v < nv);
            idx[k] = v;
            sx += x[v], sy += y[v];
            if (first < 0) first = v;
        }
        drop[p].cx = sx / m, drop[p].cy = sy / m;
        for (int k = 0; k < m; k++) sr += hypot(x[idx[k]] - drop[p].cx, y[idx[k]] - drop[p].cy);
        drop[p].r = sr / m;
        drop[p].phase = z[first] % 2 ? 1 : -1;
        free(idx);
    }
    free(x), free(y), free(z);
    fclose(f);
    return np;
}

static int inside(const Drop *in, const Drop *out)
{
    return in != out && in->r < out->r && hypot(in->cx - out->cx, in->cy - out->cy) + in->r < out->r;
}

/* The pixel (x to the right, y down) where scripts/paraview_view.py --view X0,Y0,X1,Y1 draws
 * the point (x, y): its fit_camera, a parallel camera with a 5 % margin and the right 15 % of the
 * picture kept for the colour bar. */
static void to_pixel(const double view[4], int W, int H, double x, double y, int *px, int *py)
{
    double w = view[2] - view[0], h = view[3] - view[1], aspect = (double)W / H;
    double scale = 0.525 * fmax(h, w / (0.85 * aspect));
    double cx = (view[0] + view[2]) / 2 + 0.15 * scale * aspect, cy = (view[1] + view[3]) / 2;
    *px = (int)lround(W / 2.0 + (x - cx) * H / (2 * scale));
    *py = (int)lround(H / 2.0 - (y - cy) * H / (2 * scale));
}

static double colour_distance(const int a[3], const int b[3])
{
    return sqrt((double)(a[0] - b[0]) * (a[0] - b[0]) + (double)(a[1] - b[1]) * (a[1] - b[1]) +
                (double)(a[2] - b[2]) * (a[2] - b[2]));
}

void test_scripts_paraview_nested_drop_on_top(void)
{
    /* ParaView here? Debian's renders through X, so headless it runs under xvfb-run. */
    int have_xvfb = run("command -v xvfb-run > /dev/null 2>&1") == 0;
    if (run("command -v pvbatch > /dev/null 2>&1") != 0 || (!have_xvfb && !getenv("DISPLAY")))
        SKIP("needs ParaView and Xvfb: " PARAVIEW_INSTALL);
    if (access("src", F_OK) != 0 || access("polyhoop.c", F_OK) != 0)
        SKIP("needs the source tree (builds the emulsion program)");

    /* the nested pair: a phase -1 drop inside a phase +1 drop (the one a view from +z hid), and
     * free drops of either phase as the colour references */
    static Drop d[MAX_POLYS];
    int n = read_drops("inputs/emulsion.off", d), nr = 4;  /* the first Nr = 4 are the walls */
    const Drop *in = NULL, *out = NULL, *ref[2] = { NULL, NULL };
    for (int i = nr; i < n; i++) {
        int nested = 0, holds = 0;
        for (int j = nr; j < n; j++) nested |= inside(&d[i], &d[j]), holds |= inside(&d[j], &d[i]);
        for (int j = nr; j < n && !in; j++)
            if (d[i].phase == -1 && d[j].phase == 1 && inside(&d[i], &d[j])) in = &d[i], out = &d[j];
        if (!nested && !holds && !ref[d[i].phase > 0]) ref[d[i].phase > 0] = &d[i];
    }
    ENSURE_MSG(in && out && ref[0] && ref[1], "inputs/emulsion.off has no phase -1 drop nested in a phase +1 drop");

    char dir[] = "/tmp/ph_test_scripts_XXXXXX", cmd[2048], png[300];
    ENSURE(mkdtemp(dir));
    snprintf(cmd, sizeof cmd,
             "gcc -std=c11 -O0 -fopenmp -Isrc -iquote . -DPH_PARAMS_FILE='\"params/emulsion.h\"' src/*.c polyhoop.c "
             "-o %s/polyhoop_emulsion -lz -lm > %s/build.log 2>&1 && "
             "%s/polyhoop_emulsion -q -n 0 -o %s/run inputs/emulsion.off > %s/run.log 2>&1", dir, dir, dir, dir, dir);
    ENSURE_MSG(run(cmd) == 0, "building or running the emulsion failed: see %s", dir);

    /* the view: the box around every drop, whatever size the scene has */
    double view[4] = { INFINITY, INFINITY, -INFINITY, -INFINITY };
    for (int i = nr; i < n; i++) {
        view[0] = fmin(view[0], d[i].cx - d[i].r), view[1] = fmin(view[1], d[i].cy - d[i].r);
        view[2] = fmax(view[2], d[i].cx + d[i].r), view[3] = fmax(view[3], d[i].cy + d[i].r);
    }
    const int W = 800, H = 600;
    snprintf(png, sizeof png, "%s/nested.png", dir);
    snprintf(cmd, sizeof cmd,
             "%s pvbatch scripts/paraview_view.py %s/run --color phase --frame 0 --size %dx%d "
             "--view=%g,%g,%g,%g --out %s > %s/paraview.log 2>&1",
             have_xvfb ? "xvfb-run -a -s '-screen 0 1280x1024x24 -noreset'" : "", dir, W, H,
             view[0], view[1], view[2], view[3], png, dir);
    int st = run(cmd);
    if (st == 77) SKIP("ParaView's Python is missing: " PARAVIEW_INSTALL);
    ENSURE_MSG(st == 0, "paraview_view.py exited %d: see %s/paraview.log", st, dir);

    /* pixels: the inner drop's centre, the outer drop's ring on the side away from the inner
     * drop, and the centres of the two free drops */
    double ux = in->cx - out->cx, uy = in->cy - out->cy, u = hypot(ux, uy);
    if (u < 1e-9) ux = 1, uy = 0, u = 1;
    double ring = 0.5 * ((in->r - u) + out->r);  /* halfway from the inner drop's far edge to the outer's */
    double pts[4][2] = { { in->cx, in->cy }, { out->cx - ux / u * ring, out->cy - uy / u * ring },
                         { ref[0]->cx, ref[0]->cy }, { ref[1]->cx, ref[1]->cy } };
    int p[4][2];
    size_t len = (size_t)snprintf(cmd, sizeof cmd, "/usr/bin/python3 tests/png_probe.py %s", png);
    for (int k = 0; k < 4; k++) {
        to_pixel(view, W, H, pts[k][0], pts[k][1], &p[k][0], &p[k][1]);
        len += (size_t)snprintf(cmd + len, sizeof cmd - len, " %d,%d", p[k][0], p[k][1]);
    }
    FILE *f = popen(cmd, "r");
    ENSURE(f);
    int w = 0, h = 0, rgb[4][3];
    ENSURE(fscanf(f, "%d %d", &w, &h) == 2);
    for (int k = 0; k < 4; k++) ENSURE(fscanf(f, "%d %d %d", &rgb[k][0], &rgb[k][1], &rgb[k][2]) == 3);
    ENSURE(pclose(f) == 0);
    ENSURE(w == W && h == H);
    const int *inner = rgb[0], *outer = rgb[1], *minus = rgb[2], *plus = rgb[3];
    fprintf(stderr, "  inner %d,%d,%d  ring %d,%d,%d  phase -1 %d,%d,%d  phase +1 %d,%d,%d\n", inner[0], inner[1],
            inner[2], outer[0], outer[1], outer[2], minus[0], minus[1], minus[2], plus[0], plus[1], plus[2]);
    ENSURE_MSG(colour_distance(minus, plus) > 100, "the two phases look alike in %s", png);
    ENSURE_MSG(colour_distance(outer, plus) < 30, "the outer drop is not drawn in phase +1's colour in %s", png);
    ENSURE_MSG(colour_distance(inner, minus) < 30, "the nested drop is hidden: not phase -1's colour in %s", png);

    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(run(cmd) == 0);
}

/* ---- sweeps --------------------------------------------------------------------------------- */

/* scripts/sweep.py: a 2 x 2 sweep of the default parameters, dt = 1e-4 and dt = 1e-2 (far too
 * large: those runs blow up with status 3), seeds 1 and 2, two runs at a time: four run folders
 * with result.json, the blown-up runs reported as failed and the others as ok with their counts,
 * a summary of four rows, exit status 1. A variant that does not compile (lmin = 0.2 breaks
 * lmax > 2 lmin), run alone as an array task would (--task 0), is reported as a failed build.
 * Last, scripts/sweep.slurm submit through a stand-in sbatch that runs each job at once, array
 * tasks one after the other: its summary has the same four rows. */
void test_scripts_sweep_runs_and_failures(void)
{
    char dir[64];
    int st = fx_script("sweep",
        "S='scripts/sweep.py params/default.h --name test_sweep --set dt=1e-4,1e-2 --seeds 1,2'\n"
        "$S -j 2 --out $D/s -- -n 2 -s 50 > $D/s.log 2>&1; [ $? = 1 ] || exit 10\n"
        "[ $(ls $D/s/*-seed*/result.json | wc -l) = 4 ] || exit 11\n"
        "[ $(wc -l < $D/s/summary.csv) = 5 ] || exit 12\n"
        "head -n 1 $D/s/summary.csv | grep -qx 'run,dt,seed,status,exit,wall_s,polygons,vertices' || exit 13\n"
        "for s in 1 2; do\n"
        "    grep -Eqx \"dt_1e-4-seed$s,1e-4,$s,ok,0,[0-9.]+,1,[0-9]+\" $D/s/summary.csv || exit 14\n"
        "    grep -Eqx \"dt_1e-2-seed$s,1e-2,$s,failed,3,[0-9.]+,[0-9]*,[0-9]*\" $D/s/summary.csv || exit 15\n"
        "    grep -q 'numerical blow-up' $D/s/dt_1e-2-seed$s/stderr.txt || exit 16\n"
        "    [ -f $D/s/dt_1e-4-seed$s/frame000002.vtp ] || exit 17\n"
        "done\n"
        "grep -q '2 of 4 runs ok' $D/s/summary.txt && grep -q '2 of 4 runs ok' $D/s.log || exit 18\n"
        "B='scripts/sweep.py params/default.h --name test_sweep_bad --set lmin=0.2'\n"
        "[ \"$($B --list)\" = \"$(printf '0\\tlmin_0.2-seed1')\" ] || exit 20\n"
        "$B --out $D/b --task 0 > $D/b.log 2>&1; [ $? = 1 ] || exit 21\n"
        "grep -q '\"status\": \"build failed\"' $D/b/lmin_0.2-seed1/result.json || exit 22\n"
        "grep -q 'lmax must be > 2 lmin' build/sweep/test_sweep_bad/lmin_0.2/build.log || exit 23\n"
        "mkdir $D/bin && cat > $D/bin/sbatch << 'EOF'\n"
        "#!/usr/bin/env bash\n"
        "array=\n"
        "while [ \"${1#--}\" != \"$1\" ]; do case $1 in --array=*) array=${1#--array=} ;; esac; shift; done\n"
        "job=$1; shift\n"
        "for k in $(if [ -n \"$array\" ]; then seq ${array%-*} ${array#*-}; else echo none; fi); do\n"
        "    SLURM_ARRAY_TASK_ID=$k SLURM_SUBMIT_DIR=$PWD bash \"$job\" \"$@\" >> \"$SBATCH_LOG\" 2>&1 || true\n"
        "done\n"
        "echo $RANDOM\n"
        "EOF\n"
        "chmod +x $D/bin/sbatch\n"
        "PATH=$D/bin:$PATH SBATCH_LOG=$D/jobs.log scripts/sweep.slurm submit params/default.h --name test_sweep "
        "--set dt=1e-4,1e-2 --seeds 1,2 --out $D/slurm -- -n 2 -s 50 > $D/submit.log 2>&1 || exit 30\n"
        "grep -q '^sweep.slurm: 4 runs' $D/submit.log || exit 31\n"
        "[ $(wc -l < $D/slurm/summary.csv) = 5 ] && grep -q '2 of 4 runs ok' $D/slurm/summary.txt || exit 32\n",
        dir, sizeof dir);
    if (st == 127) SKIP("python3 is not on PATH");
    ENSURE_MSG(st == 0, "step %d of the sweep script failed (%s)", st, dir);
}

/* scripts/plot_log.py draws a column of observables.csv as one polyline with a point per row,
 * and cumulative event counts from events.csv; an unknown column is an error naming it. */
void test_scripts_plot_log(void)
{
    char dir[] = "/tmp/ph_test_plot_XXXXXX", cmd[2048];
    ENSURE(mkdtemp(dir));
    snprintf(cmd, sizeof cmd,
             "cd %s && printf 'frame,step,time,polygons\\n0,0,0,1\\n1,10,0.5,2\\n2,20,1,4\\n' > obs.csv && "
             "printf 'step,time,event,before,after\\n5,0.25,division,0,2 1\\n15,0.75,death,2,\\n' > ev.csv", dir);
    ENSURE(run(cmd) == 0);
    snprintf(cmd, sizeof cmd, "scripts/plot_log.py %s/obs.csv polygons --log -o %s/a.svg && scripts/plot_log.py %s/ev.csv division death -o %s/b.svg",
             dir, dir, dir, dir);
    int st = run(cmd);
    if (st == 127) SKIP("python3 is not on PATH");
    ENSURE_MSG(st == 0, "%s exited %d", cmd, st);
    snprintf(cmd, sizeof cmd, "[ $(grep -c '<polyline' %s/a.svg) = 1 ] && grep '<polyline' %s/a.svg | grep -q 'points=\"[0-9.]*,[0-9.]* [0-9.]*,[0-9.]* [0-9.]*,[0-9.]*\"' && "
             "[ $(grep -c '<polyline' %s/b.svg) = 2 ] && ! scripts/plot_log.py %s/obs.csv nosuch -o %s/c.svg 2> %s/err && grep -q \"no column 'nosuch'\" %s/err",
             dir, dir, dir, dir, dir, dir, dir);
    ENSURE_MSG(run(cmd) == 0, "the plots are not as expected (%s)", dir);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(run(cmd) == 0);
}
