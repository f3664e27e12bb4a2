/* Tests of the picture writer (src/png.c). Every picture is read back by an independent decoder,
 * tests/png_probe.py (Python's struct and zlib: chunk CRCs, inflate, row filters), which prints
 * the size and the RGB of chosen pixels, or the colours of a region with their pixel counts; the
 * tests skip without /usr/bin/python3. Pictures that
 * check pixels use an explicit view of [0, 2] x [0, 2] on 40 x 40 pixels (20 pixels per unit,
 * no legend since the height is below 60), so world (x, y) is pixel (20 x, 40 - 20 y) and an edge
 * at a multiple of 0.25 falls exactly on a pixel boundary. Each test works in its own mkdtemp
 * directory and removes it when it passes. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "ensemble.h"
#include "geometry.h"
#include "png.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const PngView VIEW = { 0, 0, 2, 2 };
static const int WHITE[3] = { 255, 255, 255 }, DARK[3] = { 40, 40, 40 };

typedef struct { char dir[64], path[96], tmp[100]; } Dir;

static void dir_open(Dir *d)
{
    strcpy(d->dir, "/tmp/ph_test_png_XXXXXX");
    ENSURE(mkdtemp(d->dir) != NULL);
    snprintf(d->path, sizeof d->path, "%s/frame.png", d->dir);
    snprintf(d->tmp, sizeof d->tmp, "%s.tmp", d->path);
}

static void dir_close(const Dir *d)
{
    remove(d->path);
    remove(d->tmp);
    ENSURE(rmdir(d->dir) == 0);
}

static int exists(const char *path) { struct stat st; return lstat(path, &st) == 0; }

/* Appends the counter-clockwise rectangle [x0, x1] x [y0, y1]. */
static void add_rect(Ensemble *e, double x0, double y0, double x1, double y1, int rigid)
{
    double x[4] = { x0, x1, x1, x0 }, y[4] = { y0, y0, y1, y1 };
    ensemble_add_polygon(e, 4, x, y, 1, rigid);
}

/* Decodes path with tests/png_probe.py: the size into wh, the RGB of pixel (xy[2k], xy[2k+1])
 * into rgb[k], k < n. */
static void probe(const char *path, const int *xy, int n, int wh[2], int (*rgb)[3])
{
    char cmd[4096];
    size_t len = (size_t)snprintf(cmd, sizeof cmd, "/usr/bin/python3 tests/png_probe.py %s", path);
    for (int k = 0; k < n; k++) {
        ENSURE(len < sizeof cmd);
        len += (size_t)snprintf(cmd + len, sizeof cmd - len, " %d,%d", xy[2 * k], xy[2 * k + 1]);
    }
    ENSURE(len < sizeof cmd);
    FILE *p = popen(cmd, "r");
    ENSURE(p != NULL);
    int got = fscanf(p, "%d %d", &wh[0], &wh[1]) == 2;
    for (int k = 0; got && k < n; k++)
        got = fscanf(p, "%d %d %d", &rgb[k][0], &rgb[k][1], &rgb[k][2]) == 3;
    int status = pclose(p);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) SKIP("/usr/bin/python3 missing");
    ENSURE_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0 && got,
               "png_probe.py rejected %s (status %d)", path, status);
}

static int same(const int a[3], const int b[3]) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; }

static void ensure_colour(const int got[3], const int want[3], int x, int y)
{
    ENSURE_MSG(same(got, want), "pixel %d,%d is %d %d %d, expected %d %d %d", x, y, got[0],
               got[1], got[2], want[0], want[1], want[2]);
}

/* want[k] = the colour map at t[k] */
static void map_colour(double t, int want[3])
{
    unsigned char c[3];
    png_colour(t, c);
    for (int k = 0; k < 3; k++) want[k] = c[k];
}

/* Probes the pixels (xy pairs) of a 40 x 40 picture and checks each against want[k]. */
static void ensure_pixels(const char *path, const int *xy, int n, int (*want)[3])
{
    int wh[2], rgb[16][3];
    ENSURE(n <= 16);
    probe(path, xy, n, wh, rgb);
    ENSURE(wh[0] == 40 && wh[1] == 40);
    for (int k = 0; k < n; k++) ensure_colour(rgb[k], want[k], xy[2 * k], xy[2 * k + 1]);
}

/* Auto-fitted 200 x 150 picture with a legend; the ensemble is laid out by hand with a gap slot
 * at (99, 99) between the polygons, which must neither be drawn nor widen the fitted view. The
 * rectangle [0, 4] x [0, 2] plus 5 % margins, 4.4 x 2.2 units, fits 200 x 116 pixels (150 less
 * the 34-row legend) at 45.45 pixels per unit: it covers pixels x 9.1..190.9, y 8.0..108.0. The
 * values 0 and 1 take the ends of the map (their range 0.02..0.98 clamps them). */
void test_png_valid_file(void)
{
    double x[8] = { 0, 4, 4, 0, 99, 0.5, 1.5, 1 }, y[8] = { 0, 0, 2, 2, 99, 0.5, 0.5, 1.5 };
    int start[2] = { 0, 5 }, count[2] = { 4, 3 };
    unsigned char rigid[2] = { 0, 0 };
    double value[2] = { 0, 1 };
    Ensemble e = { .x = x, .y = y, .start = start, .count = count, .rigid = rigid, .np = 2,
                   .nv_used = 8, .gaps = 1 };
    Dir d;
    dir_open(&d);
    char err[256] = "";
    ENSURE_MSG(png_write(d.path, &e, value, "area", 0, 0, 0, 200, 150, NULL, err, sizeof err) == 0,
               "%s", err);
    ENSURE(!exists(d.tmp));

    /* triangle centre (1, 0.83) -> pixel (54, 65); rectangle; margins; then columns 100 and 8 of
     * the legend strip (rows 116..149): the colour bar's middle, the label's first letter */
    int xy[2 * 80] = { 54, 65, 150, 62, 4, 62, 195, 62, 100, 5, 100, 112 }, n = 6;
    for (int j = 116; j < 150; j++, n += 2) xy[2 * n] = 100, xy[2 * n + 1] = j, xy[2 * n + 2] = 8, xy[2 * n + 3] = j;
    int wh[2], rgb[80][3], top[3], bottom[3], mid[3];
    probe(d.path, xy, n, wh, rgb);
    ENSURE(wh[0] == 200 && wh[1] == 150);
    map_colour(1, top);
    map_colour(0, bottom);
    map_colour(0.5, mid);
    ensure_colour(rgb[0], top, 54, 65);
    ensure_colour(rgb[1], bottom, 150, 62);
    for (int k = 2; k < 6; k++) ensure_colour(rgb[k], WHITE, xy[2 * k], xy[2 * k + 1]);
    int bar = 0, text = 0;
    for (int k = 6; k < n; k += 2) {
        bar += abs(rgb[k][0] - mid[0]) + abs(rgb[k][1] - mid[1]) + abs(rgb[k][2] - mid[2]) <= 6;
        text += same(rgb[k + 1], DARK);
    }
    ENSURE_MSG(bar >= 3 && text >= 6, "legend columns: %d bar pixels, %d text pixels", bar, text);
    dir_close(&d);
}

/* Square [0.5, 1.5]^2 with value 1 of 0..1: its edges lie on pixel lines 10 and 30. */
void test_png_known_square(void)
{
    Ensemble e;
    ensemble_init(&e, 1);
    add_rect(&e, 0.5, 0.5, 1.5, 1.5, 0);
    double value[1] = { 1 };
    Dir d;
    dir_open(&d);
    char err[256] = "";
    ENSURE_MSG(png_write(d.path, &e, value, "v", 0, 1, 0, 40, 40, &VIEW, err, sizeof err) == 0,
               "%s", err);
    int top[3];
    map_colour(1, top);
    const int xy[] = { 20, 20, 11, 11, 29, 29, 5, 5, 35, 35, 9, 20, 31, 20, 20, 31, 20, 39,
                       10, 20, 30, 20, 20, 10, 20, 30 };
    int expect[13][3];
    for (int k = 0; k < 13; k++)
        memcpy(expect[k], k < 3 ? top : k < 9 ? WHITE : DARK, sizeof expect[k]);
    ensure_pixels(d.path, xy, 13, expect);
    ensemble_free(&e);
    dir_close(&d);
}

/* An exact colour from the middle of the map, a rigid polygon (mid grey whatever its value) and
 * a NaN value (light grey), with the explicit range 0..1. */
void test_png_colours(void)
{
    Ensemble e;
    ensemble_init(&e, 1);
    add_rect(&e, 0.25, 0.75, 0.75, 1.25, 0);
    add_rect(&e, 1.0, 0.75, 1.5, 1.25, 1);
    add_rect(&e, 1.5, 0.25, 1.75, 0.5, 0);
    double value[3] = { 0.3, 0.3, NAN };
    Dir d;
    dir_open(&d);
    char err[256] = "";
    ENSURE_MSG(png_write(d.path, &e, value, "v", 0, 1, 0, 40, 40, &VIEW, err, sizeof err) == 0,
               "%s", err);
    const int xy[] = { 10, 20, 25, 20, 33, 33 };
    int wh[2], rgb[3][3], c30[3];
    probe(d.path, xy, 3, wh, rgb);
    map_colour(0.3, c30);
    ensure_colour(rgb[0], c30, 10, 20);
    ENSURE(rgb[1][0] == rgb[1][1] && rgb[1][1] == rgb[1][2] && rgb[1][0] > 100 && rgb[1][0] < 160);
    ENSURE(rgb[2][0] == rgb[2][1] && rgb[2][1] == rgb[2][2] && rgb[2][0] > rgb[1][0] + 40 &&
           rgb[2][0] < 255);
    ensemble_free(&e);
    dir_close(&d);
}

/* Without a range (vmin >= vmax) the values 2 and 4 span the map (their 2nd to 98th percentile,
 * 2.04 to 3.96, clamps them to its ends), the rigid polygon's 100 does not count; a constant
 * value gives the middle colour. */
void test_png_auto_range(void)
{
    Ensemble e;
    ensemble_init(&e, 1);
    add_rect(&e, 0.25, 0.75, 0.75, 1.25, 0);
    add_rect(&e, 1.25, 0.75, 1.75, 1.25, 0);
    add_rect(&e, 0.75, 1.5, 1.25, 1.75, 1);
    double value[3] = { 2, 4, 100 }, flat[3] = { 3, 3, 3 };
    Dir d;
    dir_open(&d);
    char err[256] = "";
    ENSURE_MSG(png_write(d.path, &e, value, "v", 1, 1, 0, 40, 40, &VIEW, err, sizeof err) == 0,
               "%s", err);
    const int xy[] = { 10, 20, 30, 20 };
    int want[2][3];
    map_colour(0, want[0]);
    map_colour(1, want[1]);
    ensure_pixels(d.path, xy, 2, want);
    ENSURE_MSG(png_write(d.path, &e, flat, "v", 0, 0, 0, 40, 40, &VIEW, err, sizeof err) == 0,
               "%s", err);
    map_colour(0.5, want[0]);
    map_colour(0.5, want[1]);
    ensure_pixels(d.path, xy, 2, want);
    ensemble_free(&e);
    dir_close(&d);
}

/* A U shape, [0.5, 1.5]^2 less the slot [0.75, 1.25] x [0.75, 1.5]: rows through the arms cross
 * four edges, and the slot between the arms stays white. */
void test_png_nonconvex(void)
{
    Ensemble e;
    ensemble_init(&e, 1);
    double x[8] = { 0.5, 1.5, 1.5, 1.25, 1.25, 0.75, 0.75, 0.5 };
    double y[8] = { 0.5, 0.5, 1.5, 1.5, 0.75, 0.75, 1.5, 1.5 };
    ensemble_add_polygon(&e, 8, x, y, 1, 0);
    double value[1] = { 0 };
    Dir d;
    dir_open(&d);
    char err[256] = "";
    ENSURE_MSG(png_write(d.path, &e, value, "v", 0, 1, 0, 40, 40, &VIEW, err, sizeof err) == 0,
               "%s", err);
    const int xy[] = { 12, 15, 27, 15, 20, 27, 20, 18, 20, 12 };
    int want[5][3];
    for (int k = 0; k < 5; k++) {
        if (k < 3) map_colour(0, want[k]);
        else memcpy(want[k], WHITE, sizeof want[k]);
    }
    ensure_pixels(d.path, xy, 5, want);
    ensemble_free(&e);
    dir_close(&d);
}

/* The small square comes first in the ensemble but is drawn last, on top of the big one. */
void test_png_nesting(void)
{
    Ensemble e;
    ensemble_init(&e, 1);
    add_rect(&e, 0.75, 0.75, 1.25, 1.25, 0);
    add_rect(&e, 0.25, 0.25, 1.75, 1.75, 0);
    double value[2] = { 1, 0 };
    Dir d;
    dir_open(&d);
    char err[256] = "";
    ENSURE_MSG(png_write(d.path, &e, value, "v", 0, 1, 0, 40, 40, &VIEW, err, sizeof err) == 0,
               "%s", err);
    const int xy[] = { 20, 20, 8, 8, 31, 20 };
    int want[3][3];
    map_colour(1, want[0]);
    map_colour(0, want[1]);
    map_colour(0, want[2]);
    ensure_pixels(d.path, xy, 3, want);
    ensemble_free(&e);
    dir_close(&d);
}

/* A missing directory or a bad size: -1, the path in err, no file and no .tmp left. */
void test_png_failure(void)
{
    Ensemble e;
    ensemble_init(&e, 1);
    add_rect(&e, 0, 0, 1, 1, 0);
    double value[1] = { 1 };
    Dir d;
    dir_open(&d);
    char path[160], tmp[170], err[256] = "";
    snprintf(path, sizeof path, "%s/missing/frame.png", d.dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    ENSURE(png_write(path, &e, value, "v", 0, 1, 0, 100, 100, NULL, err, sizeof err) == -1);
    ENSURE_MSG(strstr(err, path) == err, "err: %s", err);
    ENSURE(!exists(path) && !exists(tmp));
    err[0] = 0;
    ENSURE(png_write(d.path, &e, value, "v", 0, 1, 0, 0, 100, NULL, err, sizeof err) == -1);
    ENSURE_MSG(strstr(err, d.path) == err, "err: %s", err);
    ENSURE(!exists(d.path) && !exists(d.tmp));
    ensemble_free(&e);
    dir_close(&d);
}

static long read_all(const char *path, unsigned char *buf, long cap)
{
    FILE *f = fopen(path, "rb");
    ENSURE(f != NULL);
    long n = (long)fread(buf, 1, (size_t)cap, f);
    fclose(f);
    return n;
}

/* The same input twice gives the same bytes. */
void test_png_deterministic(void)
{
    Ensemble e;
    ensemble_init(&e, 1);
    for (int k = 0; k < 12; k++) add_rect(&e, k % 4, k / 4, k % 4 + 0.9, k / 4 + 0.7, k == 5);
    double value[12];
    for (int k = 0; k < 12; k++) value[k] = k == 7 ? NAN : 0.1 * k * k;
    Dir d;
    dir_open(&d);
    char second[128], err[256] = "";
    snprintf(second, sizeof second, "%s/again.png", d.dir);
    ENSURE(png_write(d.path, &e, value, "speed", 0, 0, 0, 320, 240, NULL, err, sizeof err) == 0);
    ENSURE(png_write(second, &e, value, "speed", 0, 0, 0, 320, 240, NULL, err, sizeof err) == 0);
    enum { CAP = 1 << 20 };
    unsigned char *a = malloc(CAP), *b = malloc(CAP);
    ENSURE(a && b);
    long na = read_all(d.path, a, CAP), nb = read_all(second, b, CAP);
    int equal = na > 8 && na < CAP && na == nb && memcmp(a, b, (size_t)na) == 0;
    free(a);
    free(b);
    ENSURE(equal);
    remove(second);
    ensemble_free(&e);
    dir_close(&d);
}

/* --png-range fixes the colour range: the default cell (area pi) drawn with the range 0,100 and
 * with 3,4 gets two different colours at its centre, and neither is the mid colour that a fitted
 * range gives a single value; a range with MIN >= MAX is a usage error (exit 2). */
void test_png_range_option(void)
{
    char dir[] = "/tmp/ph_test_pngrange_XXXXXX", cmd[1024], path[300];
    ENSURE(mkdtemp(dir));
    const char *range[3] = { "", "--png-range 0,100", "--png-range 3,4" };
    int rgb[3][3], wh[2], xy[2] = { 400, 380 };
    for (int k = 0; k < 3; k++) {
        snprintf(cmd, sizeof cmd, "tests/polyhoop -q -n 0 --png --png-color area %s -o %s/r%d > /dev/null", range[k], dir, k);
        ENSURE_MSG(system(cmd) == 0, "%s failed", cmd);
        snprintf(path, sizeof path, "%s/r%d/frame000000.png", dir, k);
        probe(path, xy, 1, wh, &rgb[k]);
    }
    ENSURE_MSG(!same(rgb[0], rgb[1]) && !same(rgb[0], rgb[2]) && !same(rgb[1], rgb[2]),
               "centre colours %d %d %d (fitted), %d %d %d (0,100), %d %d %d (3,4): the range was not used",
               rgb[0][0], rgb[0][1], rgb[0][2], rgb[1][0], rgb[1][1], rgb[1][2], rgb[2][0], rgb[2][1], rgb[2][2]);
    snprintf(cmd, sizeof cmd, "tests/polyhoop -q -n 0 --png-range 4,4 -o %s/bad 2> /dev/null", dir);
    int st = system(cmd);
    ENSURE_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 2, "--png-range 4,4 exited %d, not 2", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(system(cmd) == 0);
}

/* Integer arrays are drawn in categories: png_category(v) is colour v mod 10, ten colours all
 * different and none of them a grey. In a picture each value present gets its own colour:
 * 3, 5 and 4 (residues all different) those of their residues, the same whatever else the
 * picture holds; 3, 13 and 4 (3 and 13 share a residue) the first three colours in the order
 * of the values, so that 3 and 13 differ. */
void test_png_categorical(void)
{
    unsigned char c[10][3], d[3];
    for (int v = 0; v < 10; v++) {
        png_category(v, c[v]);
        png_category(v + 10, d);
        ENSURE_MSG(!memcmp(c[v], d, 3), "%d and %d differ in colour", v, v + 10);
        png_category(v - 10, d);
        ENSURE_MSG(!memcmp(c[v], d, 3), "%d and %d differ in colour", v, v - 10);
        ENSURE(!(c[v][0] == c[v][1] && c[v][1] == c[v][2]));
        for (int u = 0; u < v; u++) ENSURE_MSG(memcmp(c[u], c[v], 3), "%d and %d share a colour", u, v);
    }
    Ensemble e;
    ensemble_init(&e, 1);
    add_rect(&e, 0.25, 0.75, 0.75, 1.25, 0);
    add_rect(&e, 1.25, 0.75, 1.75, 1.25, 0);
    add_rect(&e, 0.75, 1.5, 1.25, 1.75, 0);
    const double value[2][3] = { { 3, 5, 4 }, { 3, 13, 4 } };
    const int slot[2][3] = { { 3, 5, 4 }, { 0, 2, 1 } };
    Dir d0;
    dir_open(&d0);
    char err[256] = "";
    const int xy[] = { 10, 20, 30, 20, 20, 7 };
    int want[3][3];
    for (int r = 0; r < 2; r++) {
        for (int k = 0; k < 3; k++)
            for (int q = 0; q < 3; q++) want[k][q] = c[slot[r][k]][q];
        ENSURE_MSG(png_write(d0.path, &e, value[r], "v", 0, 0, 1, 40, 40, &VIEW, err, sizeof err) == 0, "%s", err);
        ensure_pixels(d0.path, xy, 3, want);
    }
    ensemble_free(&e);
    dir_close(&d0);
}

/* 13 rectangles 0.25 wide in two rows, values 0 .. 12 of an integer array: more than ten
 * categories, so drawn in the colour map over their 2nd to 98th percentile (0.24 to 11.76): 0
 * and 12 at its ends, 6 at its middle, 3 and 13 nowhere the same colour as they were mod 10. */
void test_png_many_categories(void)
{
    Ensemble e;
    ensemble_init(&e, 1);
    double value[13];
    for (int k = 0; k < 13; k++) {
        add_rect(&e, 0.25 * (k % 7), k < 7 ? 0.25 : 1.25, 0.25 * (k % 7) + 0.25, k < 7 ? 0.75 : 1.75, 0);
        value[k] = k;
    }
    double cat[PNG_CATEGORIES];
    ENSURE(png_categories(&e, value, cat) == PNG_CATEGORIES + 1);
    Dir d;
    dir_open(&d);
    char err[256] = "";
    ENSURE_MSG(png_write(d.path, &e, value, "generation", 0, 0, 1, 40, 40, &VIEW, err, sizeof err) == 0, "%s", err);
    const int xy[] = { 2, 30, 27, 10, 32, 30 };   /* (centres of the rectangles of 0, 12 and 6) */
    int want[3][3];
    map_colour(0, want[0]);
    map_colour(1, want[1]);
    map_colour(0.5, want[2]);
    ensure_pixels(d.path, xy, 3, want);
    ensemble_free(&e);
    dir_close(&d);
}

/* The colour range of a picture: of 1 .. 100 and one outlier 1e6 (a rigid polygon's 1e9 and a NaN
 * aside) the 2nd and 98th percentiles 3 and 99, so that the outlier does not flatten the rest;
 * two values: 2 % and 98 % of the way between them; all equal but one: the least and largest. */
void test_png_robust_range(void)
{
    Ensemble e;
    ensemble_init(&e, 1);
    double v[103], lo, hi;
    for (int k = 0; k < 103; k++) {
        add_rect(&e, k, 0, k + 0.5, 0.5, k == 101);
        v[k] = k < 100 ? 100 - k : k == 100 ? 1e6 : k == 101 ? 1e9 : NAN;
    }
    ENSURE(png_robust_range(&e, v, &lo, &hi) == 0);
    ENSURE_CLOSE(lo, 3, 1e-12);
    ENSURE_CLOSE(hi, 99, 1e-12);
    e.np = 2;
    v[0] = 2, v[1] = 4;
    ENSURE(png_robust_range(&e, v, &lo, &hi) == 0);
    ENSURE_CLOSE(lo, 2.04, 1e-12);
    ENSURE_CLOSE(hi, 3.96, 1e-12);
    e.np = 100;
    for (int k = 0; k < 100; k++) v[k] = k == 37 ? -5 : 7;
    ENSURE(png_robust_range(&e, v, &lo, &hi) == 0);
    ENSURE(lo == -5 && hi == 7);
    e.np = 0;
    ENSURE(png_robust_range(&e, v, &lo, &hi) == 0 && lo > hi);
    ensemble_free(&e);
}

/* Whether boxes a and b share a pixel */
static int overlap(const PngItem *a, const PngItem *b) { return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1; }

/* Lays out k at width w (the text scale of a picture max(w, 200) pixels high) and checks it: every box
 * inside the strip and not empty, no TEXT box overlapping any other item, the scale bar (where
 * there is one) round(value * scale) pixels long with its label "value L"; a middle tick only
 * with its number. Returns the layout. */
static PngLegend check_layout(const PngKey *k, int w)
{
    int s, rows = png_legend_rows(w > 200 ? w : 200, &s);
    PngLegend l;
    png_legend(k, w, s, &l);
    ENSURE(rows == 34 * s && l.n <= PNG_LEGEND_ITEMS);
    int texts = 0, ticks = 0;
    for (int a = 0; a < l.n; a++) {
        const PngItem *p = &l.item[a];
        ENSURE_MSG(p->x0 >= 0 && p->x1 <= w && p->y0 >= 0 && p->y1 <= rows && p->x0 < p->x1 && p->y0 < p->y1,
                   "width %d: item %d (kind %d, '%s') at %d..%d x %d..%d is outside the %d x %d strip", w, a, p->kind,
                   p->text, p->x0, p->x1, p->y0, p->y1, w, rows);
        if (p->kind == PNG_TEXT) {
            texts++;
            ENSURE(p->x1 - p->x0 == 6 * s * (int)strlen(p->text) - s && p->y1 - p->y0 == 7 * s);
            for (int b = 0; b < l.n; b++)
                ENSURE_MSG(b == a || !overlap(p, &l.item[b]), "width %d: text '%s' at %d..%d x %d..%d overlaps item %d "
                           "(kind %d, '%s') at %d..%d x %d..%d", w, p->text, p->x0, p->x1, p->y0, p->y1, b, l.item[b].kind,
                           l.item[b].text, l.item[b].x0, l.item[b].x1, l.item[b].y0, l.item[b].y1);
        }
        if (p->kind == PNG_SCALE) {
            char t[64];
            snprintf(t, sizeof t, "%g L", p->value);
            ENSURE(p->x1 - p->x0 == (int)lround(p->value * k->scale));
            int labelled = 0;
            for (int b = 0; b < l.n; b++) labelled |= l.item[b].kind == PNG_TEXT && !strcmp(l.item[b].text, t);
            ENSURE_MSG(labelled, "width %d: the scale bar of %g has no label '%s'", w, p->value, t);
        }
        ticks += p->kind == PNG_TICK;
    }
    ENSURE(ticks == 0 || texts >= 3);
    return l;
}

static int has_text(const PngLegend *l, const char *t)
{
    for (int a = 0; a < l->n; a++)
        if (l->item[a].kind == PNG_TEXT && !strcmp(l->item[a].text, t)) return 1;
    return 0;
}

static int count_kind(const PngLegend *l, int kind)
{
    int n = 0;
    for (int a = 0; a < l->n; a++) n += l->item[a].kind == kind;
    return n;
}

/* The legend's layout at 200, 400 and 800 pixels (png_legend's boxes): for a long label with the
 * range -1.234567e-05 .. 987654.3, one whose ends differ only in the sixth digit, a constant, ten
 * categories of six-digit ids and two of phase, at scales from 1e-3 to 1e4 pixels per unit, no
 * text overlaps anything and nothing leaves the strip; what must show does: at 200 pixels the
 * default run's "pressure  t = 2" and its range's ends, the range's three numbers with digits
 * enough to tell 1627.29 and 1627.32 apart, the constant, both phases and the scale bar. */
void test_png_legend_layout(void)
{
    const int widths[3] = { 200, 400, 800 };
    const double scales[4] = { 1e-3, 36.6, 181.8, 1e4 };
    for (int wi = 0; wi < 3; wi++)
        for (int si = 0; si < 4; si++) {
            int w = widths[wi];
            PngKey k = { .label = "target_area  t = 123.5  (range: 2-98 % of cells)", .have_range = 1, .lo = -1.234567e-05,
                         .hi = 987654.3, .scale = scales[si] };
            PngLegend l = check_layout(&k, w);
            ENSURE(count_kind(&l, PNG_SCALE) == 1 && count_kind(&l, PNG_BAR) == 1);
            ENSURE(has_text(&l, "target_area") || has_text(&l, "target_area  t = 123.5") ||
                   has_text(&l, "target_area  t = 123.5  (range: 2-98 % of cells)"));
            k.label = "pressure  t = 2  (range: 2-98 % of cells)", k.lo = 1627.29, k.hi = 1627.32;
            l = check_layout(&k, w);
            ENSURE(has_text(&l, "1627.29") && has_text(&l, "1627.32") && (w < 400 || has_text(&l, "1627.3") || has_text(&l, "1627.31")));
            ENSURE(has_text(&l, "pressure  t = 2") || has_text(&l, "pressure  t = 2  (range: 2-98 % of cells)"));
            k.lo = 1739.5, k.hi = 2166.5;
            l = check_layout(&k, w);
            ENSURE(has_text(&l, "1740") && has_text(&l, "2166") && has_text(&l, "1953"));
            k.lo = k.hi = -0.0;
            l = check_layout(&k, w);
            ENSURE(has_text(&l, "0") && !has_text(&l, "-0"));
            PngKey c = { .label = "id  t = 12.25", .ncat = 10, .scale = scales[si] };
            for (int q = 0; q < 10; q++) c.cat[q] = 123450 + q, c.slot[q] = q;
            l = check_layout(&c, w);
            ENSURE(count_kind(&l, PNG_SWATCH) == 10 && has_text(&l, "123450") && count_kind(&l, PNG_TEXT) >= 4);
            PngKey ph = { .label = "phase  t = 1", .ncat = 2, .cat = { -1, 1 }, .slot = { 9, 1 }, .scale = scales[si] };
            l = check_layout(&ph, w);
            ENSURE(count_kind(&l, PNG_SWATCH) == 2 && has_text(&l, "-1") && has_text(&l, "1") && has_text(&l, "phase  t = 1"));
        }
    /* a picture too narrow for it all: what does not fit is left out, nothing is clipped */
    for (int w = 1; w < 200; w += 7) {
        PngKey k = { .label = "target_area  t = 123.5", .have_range = 1, .lo = -1.234567e-05, .hi = 987654.3, .scale = 50 };
        check_layout(&k, w);
    }
}

/* The numbers under the colour bar never read the same for a range that is not constant: the
 * default run's pressure at frame 4, 419.0476 .. 419.3255, at every width from 40 to 440 pixels and
 * text scales 1 and 4 shows two or three different numbers, or none (before, '419 419 419' at 72
 * to 106 pixels, and a wider picture showed fewer digits than a narrower one). */
void test_png_legend_numbers_differ(void)
{
    for (int s = 1; s <= 4; s += 3)
        for (int w = 40; w <= 440; w++) {
            PngKey k = { .label = "pressure", .have_range = 1, .lo = 419.0476, .hi = 419.3255, .scale = 0 };
            PngLegend l;
            png_legend(&k, w, s, &l);
            const char *num[3];
            int n = 0;
            for (int a = 0; a < l.n; a++)
                if (l.item[a].kind == PNG_TEXT && strcmp(l.item[a].text, "pressure") && n < 3) num[n++] = l.item[a].text;
            for (int a = 0; a < n; a++)
                for (int b = a + 1; b < n; b++)
                    ENSURE_MSG(strcmp(num[a], num[b]), "width %d, scale %d: the colour bar reads %s and %s", w, s, num[a], num[b]);
            ENSURE_MSG(n != 1, "width %d, scale %d: one number under the bar", w, s);
            if (w >= 108 * s) ENSURE_MSG(n >= 2, "width %d, scale %d: %d numbers", w, s, n);
        }
}

/* Decodes path with tests/png_probe.py --colours: the colours of region x0 <= x < x1, y0 <= y < y1
 * into c[k] = { count, R, G, B }, most frequent first; returns how many (at most max). */
static int colours(const char *path, int x0, int y0, int x1, int y1, int (*c)[4], int max)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 tests/png_probe.py %s --colours %d,%d,%d,%d", path, x0, y0, x1, y1);
    FILE *p = popen(cmd, "r");
    ENSURE(p != NULL);
    int wh[2], n = 0, got = fscanf(p, "%d %d", &wh[0], &wh[1]) == 2, row[4];
    while (got && fscanf(p, "%d %d %d %d", &row[0], &row[1], &row[2], &row[3]) == 4)
        if (n < max) memcpy(c[n++], row, sizeof row);
    int status = pclose(p);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) SKIP("/usr/bin/python3 missing");
    ENSURE_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0 && got, "png_probe.py rejected %s (status %d)", path, status);
    return n;
}

/* The pixels of region x0 <= x < x1, y0 <= y < y1 that are not white */
static int not_white(const char *path, int x0, int y0, int x1, int y1)
{
    int c[4096][4], n = colours(path, x0, y0, x1, y1, c, 4096), sum = 0;
    for (int k = 0; k < n; k++) sum += same(c[k] + 1, WHITE) ? 0 : c[k][0];
    return sum;
}

/* A legend shows only the values present: phase -1 and 1 drawn in a 400 x 100 picture give two
 * swatches in the legend's swatch row (strip rows 13 .. 20, picture row 66 + 16), 38 pixels each,
 * in the colours of slots 9 and 1 (-1 and 1 mod 10), and nothing else there but white; no swatch
 * for 0, which no cell has. */
void test_png_legend_present_values(void)
{
    Ensemble e;
    ensemble_init(&e, 1);
    add_rect(&e, 0.25, 0.25, 0.75, 0.75, 0);
    add_rect(&e, 1.25, 0.25, 1.75, 0.75, 0);
    add_rect(&e, 0.75, 1.25, 1.25, 1.75, 0);
    const double value[3] = { -1, 1, 1 };
    double cat[PNG_CATEGORIES];
    ENSURE(png_categories(&e, value, cat) == 2 && cat[0] == -1 && cat[1] == 1);
    Dir d;
    dir_open(&d);
    char err[256] = "";
    ENSURE_MSG(png_write(d.path, &e, value, "phase", 0, 0, 1, 400, 100, &VIEW, err, sizeof err) == 0, "%s", err);
    int c[8][4], n = colours(d.path, 0, 82, 400, 83, c, 8);
    unsigned char minus[3], plus[3];
    png_category(9, minus);
    png_category(1, plus);
    int want_minus[3] = { minus[0], minus[1], minus[2] }, want_plus[3] = { plus[0], plus[1], plus[2] }, m = 0, p = 0;
    for (int k = 0; k < n; k++) {
        if (same(c[k] + 1, want_minus)) m = c[k][0];
        else if (same(c[k] + 1, want_plus)) p = c[k][0];
        else ENSURE_MSG(same(c[k] + 1, WHITE), "the swatch row holds %d pixels of %d %d %d", c[k][0], c[k][1], c[k][2], c[k][3]);
    }
    ENSURE_MSG(n == 3 && m == 38 && p == 38, "swatch row: %d colours, %d pixels of -1's, %d of 1's", n, m, p);
    ensemble_free(&e);
    dir_close(&d);
}

/* A view a millionth of a unit wide, deep inside a polygon of radius 1 (7e8 pixels per unit: its
 * far vertices lie a billion pixels away), is the polygon's colour throughout; before, a polygon
 * with a vertex beyond 1e9 pixels was left out and the picture was white. */
void test_png_deep_view(void)
{
    Ensemble e;
    ensemble_init(&e, 1);
    double x[64], y[64];
    for (int k = 0; k < 64; k++) x[k] = cos(2 * PH_PI * k / 64), y[k] = sin(2 * PH_PI * k / 64);
    ensemble_add_polygon(&e, 64, x, y, 1, 0);
    const double value[1] = { 1 };
    const PngView deep = { 0.5, 0, 0.500001, 0.000001 };
    Dir d;
    dir_open(&d);
    char err[256] = "";
    ENSURE_MSG(png_write(d.path, &e, value, "v", 0, 1, 0, 800, 800, &deep, err, sizeof err) == 0, "%s", err);
    int c[4][4], top[3], n = colours(d.path, 0, 0, 800, 700, c, 4);
    map_colour(1, top);
    ENSURE_MSG(n == 1 && same(c[0] + 1, top), "the deep view holds %d colours, first %d pixels of %d %d %d", n, c[0][0], c[0][1],
               c[0][2], c[0][3]);
    ensemble_free(&e);
    dir_close(&d);
}

/* The scale bar: a 400 x 400 picture of the view [0, 10]^2 has a drawing area of 400 x 366 pixels,
 * so 36.6 pixels per unit; a fifth of the legend's inner width, 384 / 5 pixels, is 2.1 units, so
 * the bar is 2 units long: 73 pixels (round(73.2)), drawn dark on the strip's row 10 (picture row
 * 376) ending 8 pixels from the right edge, with white on either side; png_legend says "2 L". */
void test_png_scale_bar(void)
{
    Ensemble e;
    ensemble_init(&e, 1);
    add_rect(&e, 2, 2, 8, 8, 0);
    double value[1] = { 1 };
    const PngView view = { 0, 0, 10, 10 };
    Dir d;
    dir_open(&d);
    char err[256] = "";
    ENSURE_MSG(png_write(d.path, &e, value, "area", 0, 0, 0, 400, 400, &view, err, sizeof err) == 0, "%s", err);
    int c[8][4], n = colours(d.path, 300, 376, 400, 377, c, 8), dark = 0;
    for (int k = 0; k < n; k++) dark += same(c[k] + 1, DARK) ? c[k][0] : 0;
    const int xy[] = { 318, 376, 319, 376, 391, 376, 392, 376 };
    int want[4][3], wh[2], rgb[4][3];
    probe(d.path, xy, 4, wh, rgb);
    for (int k = 0; k < 4; k++) memcpy(want[k], k == 1 || k == 2 ? DARK : WHITE, sizeof want[k]);
    for (int k = 0; k < 4; k++) ensure_colour(rgb[k], want[k], xy[2 * k], xy[2 * k + 1]);
    PngKey k = { .label = "area", .scale = 366 / 10.0 };
    PngLegend l = check_layout(&k, 400);
    int bar = -1;
    for (int q = 0; q < l.n; q++) bar = l.item[q].kind == PNG_SCALE ? q : bar;
    ENSURE(bar >= 0 && l.item[bar].value == 2 && has_text(&l, "2 L"));
    ENSURE_MSG(dark == 73 && l.item[bar].x1 - l.item[bar].x0 == 73, "the scale bar is %d pixels (%d laid out), not 2 x 36.6",
               dark, l.item[bar].x1 - l.item[bar].x0);
    ensemble_free(&e);
    dir_close(&d);
}

/* The camera of a series: fitted to the unit square of a cell with 5 % margins and widened to the
 * 400 x 366 drawing area's aspect ratio; the cell grown by 1.05 (still inside) leaves it as it is,
 * and the cell's pixels grow by 1.05^2 (to 2 %); moved out to [5, 6]^2, the camera grows to take
 * it in and holds the old view too (never shrinks); moved back, it stays. No cells: the unit
 * square. */
void test_png_camera(void)
{
    Ensemble e;
    ensemble_init(&e, 1);
    add_rect(&e, 0, 0, 1, 1, 0);
    PngCamera cam = { { 0, 0, 0, 0 }, 0, 0 };
    png_camera_update(&cam, &e, NULL, 400, 400);
    const PngView v = cam.view;
    ENSURE(cam.state == 1 && v.y0 == -0.05 && v.y1 == 1.05 && v.x0 < -0.05 && v.x1 > 1.05);
    ENSURE_CLOSE((v.x1 - v.x0) / (v.y1 - v.y0), 400 / 366.0, 1e-12);
    ENSURE_CLOSE(v.x0 + v.x1, 1, 1e-12);
    double value[1] = { 1 };
    Dir d;
    dir_open(&d);
    char err[256] = "";
    ENSURE_MSG(png_write(d.path, &e, value, "area", 0, 0, 0, 400, 400, &cam.view, err, sizeof err) == 0, "%s", err);
    int before = not_white(d.path, 0, 0, 400, 366);
    for (int i = 0; i < 4; i++) e.x[i] = 0.5 + 1.05 * (e.x[i] - 0.5), e.y[i] = 0.5 + 1.05 * (e.y[i] - 0.5);
    png_camera_update(&cam, &e, NULL, 400, 400);
    ENSURE(!memcmp(&cam.view, &v, sizeof v));
    ENSURE_MSG(png_write(d.path, &e, value, "area", 0, 0, 0, 400, 400, &cam.view, err, sizeof err) == 0, "%s", err);
    int after = not_white(d.path, 0, 0, 400, 366);
    ENSURE_MSG(fabs((double)after / before - 1.1025) < 0.02, "the cell's pixels went from %d to %d (x %.4f), not x 1.1025",
               before, after, (double)after / before);
    for (int i = 0; i < 4; i++) e.x[i] += 5, e.y[i] += 5;
    png_camera_update(&cam, &e, NULL, 400, 400);
    const PngView w = cam.view;
    ENSURE(w.x0 <= v.x0 && w.y0 <= v.y0 && w.x1 >= 6.025 && w.y1 >= 6.025 && w.x1 >= v.x1 && w.y1 >= v.y1);
    ENSURE_CLOSE((w.x1 - w.x0) / (w.y1 - w.y0), 400 / 366.0, 1e-12);
    for (int i = 0; i < 4; i++) e.x[i] -= 5, e.y[i] -= 5;
    png_camera_update(&cam, &e, NULL, 400, 400);
    ENSURE(!memcmp(&cam.view, &w, sizeof w));
    e.np = 0;
    PngCamera none = { { 0, 0, 0, 0 }, 0, 0 };
    png_camera_update(&none, &e, NULL, 40, 40);
    ENSURE(none.state == 1 && none.view.x0 == -0.05 && none.view.x1 == 1.05 && none.view.y0 == -0.05 && none.view.y1 == 1.05);
    e.np = 1;
    ensemble_free(&e);
    dir_close(&d);
}

/* The sum of the cell array `area` of an ASCII frame */
static double frame_area(const char *path)
{
    long n;
    FILE *f = fopen(path, "rb");
    ENSURE(f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0);
    rewind(f);
    char *b = malloc((size_t)n + 1);
    ENSURE(b && fread(b, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    b[n] = 0;
    char *a = strstr(b, "Name=\"area\"");
    ENSURE(a && (a = strchr(a, '>')));
    double sum = 0;
    for (char *end; (sum += strtod(a + 1, &end)), end != a + 1; a = end) {}
    free(b);
    return sum;
}

/* A series through the program: two cells far apart, both growing, drawn without --png-view. The
 * camera stays as frame 0 fitted it (bounding box -0.715 .. 4.015 across, 42.28 pixels per unit
 * in the 200 x 166 drawing area; cell centres (0, 0) and (3, 0) at pixels (30, 83) and (157, 83)),
 * so the cells' pixels grow with their area, to 1.5 % (a view refitted every frame grows them
 * 4 % less here); each frame's colour range is its own, the smaller cell at the map's bottom and
 * the larger at its top in frame 0 and in frame 4. A restart continues with the run's picture
 * options and camera: every file equals the uninterrupted run's. A picture option given again
 * with another value is refused; velocity is a colouring too. */
void test_png_series_camera(void)
{
    char dir[] = "/tmp/ph_test_pngseries_XXXXXX", cmd[2048], path[300];
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/two.off", dir);
    FILE *f = fopen(path, "w");
    ENSURE(f);
    fprintf(f, "OFF\n80 2 0\n");
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 40; k++)
            fprintf(f, "%.17g %.17g 0\n", 3.0 * c + (c ? 0.8 : 0.5) * cos(6.283185307179586 * k / 40), (c ? 0.8 : 0.5) * sin(6.283185307179586 * k / 40));
    fprintf(f, "40");
    for (int k = 0; k < 40; k++) fprintf(f, " %d", k);
    fprintf(f, "\n40");
    for (int k = 0; k < 40; k++) fprintf(f, " %d", 40 + k);
    fprintf(f, "\n");
    fclose(f);
    const char *png = "--ascii --png --png-size 200x200";
    snprintf(cmd, sizeof cmd, "tests/polyhoop -q -n 4 -s 500 %s -o %s/a %s > /dev/null && "
             "tests/polyhoop -q -n 4 -s 500 %s --max-time 0.1 -o %s/b %s > /dev/null && "
             "tests/polyhoop -q --restart %s/b > /dev/null && [ -f %s/b/frame000004.png ] && "
             "for f in %s/a/*; do cmp -s $f %s/b/${f##*/} || { echo $f; exit 1; }; done",
             png, dir, path, png, dir, path, dir, dir, dir, dir);
    ENSURE_MSG(system(cmd) == 0, "the series and its restart differ (%s)", dir);
    const int xy[4] = { 30, 83, 157, 83 };
    int wh[2], first[2][3], last[2][3], bottom[3], top[3];
    snprintf(path, sizeof path, "%s/a/frame000000.png", dir);
    probe(path, xy, 2, wh, first);
    int px0 = not_white(path, 0, 0, 200, 166);
    snprintf(path, sizeof path, "%s/a/frame000004.png", dir);
    probe(path, xy, 2, wh, last);
    int px4 = not_white(path, 0, 0, 200, 166);
    map_colour(0, bottom);
    map_colour(1, top);
    ensure_colour(first[0], bottom, xy[0], xy[1]);
    ensure_colour(first[1], top, xy[2], xy[3]);
    ensure_colour(last[0], bottom, xy[0], xy[1]);
    ensure_colour(last[1], top, xy[2], xy[3]);
    snprintf(path, sizeof path, "%s/a/frame000000.vtp", dir);
    double a0 = frame_area(path);
    snprintf(path, sizeof path, "%s/a/frame000004.vtp", dir);
    double a4 = frame_area(path);
    ENSURE_MSG(a4 > 1.1 * a0 && fabs((double)px4 / px0 / (a4 / a0) - 1) < 0.015,
               "the cells' area grew x %.4f, their pixels x %.4f (%d to %d)", a4 / a0, (double)px4 / px0, px0, px4);
    snprintf(cmd, sizeof cmd, "tests/polyhoop -q --restart %s/b --png-color id 2> %s/err; [ $? = 2 ] && "
             "grep -q -- '--png-color cannot change on --restart' %s/err && "
             "tests/polyhoop -q -n 1 -s 10 --png-color velocity -o %s/v %s/two.off > /dev/null && [ -f %s/v/frame000001.png ]",
             dir, dir, dir, dir, dir, dir);
    ENSURE_MSG(system(cmd) == 0, "a changed option on restart, or --png-color velocity, misbehaved (%s)", dir);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(system(cmd) == 0);
}

/* A field under the cells (png_write_field): nodes 0.5 apart on [0, 2] x [0, 1.5], 0 for x <= 0.5,
 * 1 for x >= 1.5 (0.5 between). A pixel far from the cells in the high region has the colour of
 * the map's high end, one in the low region its low end (range fitted: 0..1), one above the grid
 * white; inside a cell the field shows (no fill); a cell's outline is white over the dark low
 * end and dark over the light high end; a rigid polygon is filled mid grey. With the range
 * -1..3 the same pixels take the map's colours at 0.5 and 0.25. */
void test_png_field(void)
{
    double c[20];
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 5; i++) c[j * 5 + i] = i >= 3 ? 1 : i <= 1 ? 0 : 0.5;
    const PngField f = { 5, 4, 0, 0, 0.5, c };
    Ensemble e;
    ensemble_init(&e, 1);
    add_rect(&e, 0.25, 0.25, 0.75, 0.75, 0);   /* over the low end */
    add_rect(&e, 1.5, 0.25, 1.75, 0.75, 0);    /* over the high end */
    add_rect(&e, 1.0, 1.0, 1.25, 1.25, 1);     /* rigid */
    Dir d;
    dir_open(&d);
    char err[256] = "";
    ENSURE_MSG(png_write_field(d.path, &e, &f, "m", 0, 0, 40, 40, &VIEW, err, sizeof err) == 0, "%s", err);
    /* high (1.825, 1.175), low (0.175, 1.175), above the grid (1.825, 1.775), in the low cell
     * (0.425, 0.475), the low cell's left edge, the high cell's left edge, in the rigid one */
    const int xy[] = { 36, 16, 3, 16, 36, 4, 8, 30, 5, 30, 30, 30, 22, 17 };
    int expect[7][3], grey[3] = { 128, 128, 128 };
    map_colour(1, expect[0]);
    map_colour(0, expect[1]);
    memcpy(expect[2], WHITE, sizeof expect[2]);
    map_colour(0, expect[3]);
    memcpy(expect[4], WHITE, sizeof expect[4]);
    memcpy(expect[5], DARK, sizeof expect[5]);
    memcpy(expect[6], grey, sizeof expect[6]);
    ensure_pixels(d.path, xy, 7, expect);
    ENSURE_MSG(png_write_field(d.path, &e, &f, "m", -1, 3, 40, 40, &VIEW, err, sizeof err) == 0, "%s", err);
    map_colour(0.5, expect[0]);
    map_colour(0.25, expect[1]);
    ensure_pixels(d.path, xy, 3, expect);
    ensemble_free(&e);
    dir_close(&d);
}
