/* Tests of the picture writer (src/png.c). Every picture is read back by an independent decoder,
 * tests/png_probe.py (Python's struct and zlib: chunk CRCs, inflate, row filters), which prints
 * the size and the RGB of chosen pixels; the tests skip without /usr/bin/python3. Pictures that
 * check pixels use an explicit view of [0, 2] x [0, 2] on 40 x 40 pixels (20 pixels per unit,
 * no legend since the height is below 60), so world (x, y) is pixel (20 x, 40 - 20 y) and an edge
 * at a multiple of 0.25 falls exactly on a pixel boundary. Each test works in its own mkdtemp
 * directory and removes it when it passes. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "ensemble.h"
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
 * rectangle [0, 4] x [0, 2] plus 5 % margins, 44 x 22 units, fits 200 x 124 pixels (150 less the
 * 26-row legend) at 45.45 pixels per unit: it covers pixels x 9.1..190.9, y 16.5..107.5. */
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

    /* triangle centre (1, 0.83) -> pixel (54, 70); rectangle; margins; then column 100 of the
     * legend strip (rows 124..149): colour bar and the label */
    int xy[2 * 32] = { 54, 70, 150, 62, 4, 62, 195, 62, 100, 10, 100, 112 }, n = 6;
    for (int j = 124; j < 150; j++, n++) xy[2 * n] = 100, xy[2 * n + 1] = j;
    int wh[2], rgb[32][3], top[3], bottom[3], mid[3];
    probe(d.path, xy, n, wh, rgb);
    ENSURE(wh[0] == 200 && wh[1] == 150);
    map_colour(1, top);
    map_colour(0, bottom);
    map_colour(0.5, mid);
    ensure_colour(rgb[0], top, 54, 70);
    ensure_colour(rgb[1], bottom, 150, 62);
    for (int k = 2; k < 6; k++) ensure_colour(rgb[k], WHITE, xy[2 * k], xy[2 * k + 1]);
    int bar = 0, text = 0;
    for (int k = 6; k < n; k++) {
        bar += abs(rgb[k][0] - mid[0]) + abs(rgb[k][1] - mid[1]) + abs(rgb[k][2] - mid[2]) <= 6;
        text += same(rgb[k], DARK);
    }
    ENSURE_MSG(bar >= 3 && text >= 3, "legend column: %d bar pixels, %d text pixels", bar, text);
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

/* Without a range (vmin >= vmax) the values 2 and 4 span the map, the rigid polygon's 100 does
 * not count; a constant value gives the middle colour. */
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
        snprintf(cmd, sizeof cmd, "./polyhoop -q -n 0 --png --png-color area %s -o %s/r%d > /dev/null", range[k], dir, k);
        ENSURE_MSG(system(cmd) == 0, "%s failed", cmd);
        snprintf(path, sizeof path, "%s/r%d/frame000000.png", dir, k);
        probe(path, xy, 1, wh, &rgb[k]);
    }
    ENSURE_MSG(!same(rgb[0], rgb[1]) && !same(rgb[0], rgb[2]) && !same(rgb[1], rgb[2]),
               "centre colours %d %d %d (fitted), %d %d %d (0,100), %d %d %d (3,4): the range was not used",
               rgb[0][0], rgb[0][1], rgb[0][2], rgb[1][0], rgb[1][1], rgb[1][2], rgb[2][0], rgb[2][1], rgb[2][2]);
    snprintf(cmd, sizeof cmd, "./polyhoop -q -n 0 --png-range 4,4 -o %s/bad 2> /dev/null", dir);
    int st = system(cmd);
    ENSURE_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 2, "--png-range 4,4 exited %d, not 2", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ENSURE(system(cmd) == 0);
}

/* Integer arrays are drawn in categories: value v in colour v mod 10, ten colours all different
 * and none of them a grey, whatever the other values are. */
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
    const double value[2][3] = { { 3, 13, 4 }, { 3, 1003, 4 } };   /* (a far value changes no colour) */
    Dir d0;
    dir_open(&d0);
    char err[256] = "";
    const int xy[] = { 10, 20, 30, 20, 20, 7 };
    int want[3][3];
    for (int k = 0; k < 3; k++)
        for (int q = 0; q < 3; q++) want[k][q] = c[k == 2 ? 4 : 3][q];
    for (int r = 0; r < 2; r++) {
        ENSURE_MSG(png_write(d0.path, &e, value[r], "v", 0, 0, 1, 40, 40, &VIEW, err, sizeof err) == 0, "%s", err);
        ensure_pixels(d0.path, xy, 3, want);
    }
    ensemble_free(&e);
    dir_close(&d0);
}

/* The range of a series: fitted to the first picture's values (rigid ones and NaN aside), kept
 * while later ones fall inside it, widened (and the time noted) when they do not. */
void test_png_range_update(void)
{
    Ensemble e;
    ensemble_init(&e, 1);
    add_rect(&e, 0, 0, 1, 1, 0);
    add_rect(&e, 2, 0, 3, 1, 0);
    add_rect(&e, 4, 0, 5, 1, 1);
    PngRange r = { 0 };
    const double a[3] = { 2, 5, 100 }, b[3] = { 3, 4, -100 }, c[3] = { 1, NAN, 0 }, d[3] = { 6, 4, 0 };
    png_range_update(&r, &e, a, 0.5);
    ENSURE(r.state == 1 && r.lo == 2 && r.hi == 5 && r.since == 0.5);
    png_range_update(&r, &e, b, 1);
    ENSURE(r.state == 1 && r.lo == 2 && r.hi == 5 && r.since == 0.5);
    png_range_update(&r, &e, c, 2);
    ENSURE(r.state == 2 && r.lo == 1 && r.hi == 5 && r.since == 2);
    png_range_update(&r, &e, d, 3);
    ENSURE(r.state == 2 && r.lo == 1 && r.hi == 6 && r.since == 3);
    ensemble_free(&e);
}

/* A series through the program: two cells far apart, both growing. With the range of frame 0
 * kept, the smaller cell leaves the bottom colour as it grows (a range refitted every picture
 * would keep it there), and the larger one stays at the top. A restart continues with the
 * run's picture options and colour range: every file equals the uninterrupted run's. A picture
 * option given again with another value is refused; velocity is a colouring too. */
void test_png_series_fixed_range(void)
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
    const char *png = "--png --png-size 200x200 --png-view -1,-2,4.5,2";
    snprintf(cmd, sizeof cmd, "./polyhoop -q -n 4 -s 500 %s -o %s/a %s > /dev/null && "
             "./polyhoop -q -n 4 -s 500 %s --max-time 0.1 -o %s/b %s > /dev/null && "
             "./polyhoop -q --restart %s/b > /dev/null && [ -f %s/b/frame000004.png ] && "
             "for f in %s/a/*; do cmp -s $f %s/b/${f##*/} || { echo $f; exit 1; }; done",
             png, dir, path, png, dir, path, dir, dir, dir, dir);
    ENSURE_MSG(system(cmd) == 0, "the series and its restart differ (%s)", dir);
    /* centres at pixels: 200 x 174 drawing area, 36.36 px per unit, world (1.75, 0) at (100, 87) */
    const int xy[4] = { 36, 87, 145, 87 };
    int wh[2], first[2][3], last[2][3], bottom[3], top[3];
    snprintf(path, sizeof path, "%s/a/frame000000.png", dir);
    probe(path, xy, 2, wh, first);
    snprintf(path, sizeof path, "%s/a/frame000004.png", dir);
    probe(path, xy, 2, wh, last);
    map_colour(0, bottom);
    map_colour(1, top);
    ensure_colour(first[0], bottom, xy[0], xy[1]);
    ensure_colour(first[1], top, xy[2], xy[3]);
    ensure_colour(last[1], top, xy[2], xy[3]);
    ENSURE_MSG(!same(last[0], bottom), "the smaller cell is still at the bottom of the range in frame 4");
    int on_map = 0;   /* (and it is a colour of the map, not the background) */
    for (int k = 1; k < 1000 && !on_map; k++) {
        int c[3];
        map_colour(k / 1000.0, c);
        on_map = same(c, last[0]);
    }
    ENSURE_MSG(on_map, "pixel %d,%d of frame 4 is %d %d %d, not a colour of the map", xy[0], xy[1], last[0][0], last[0][1], last[0][2]);
    snprintf(cmd, sizeof cmd, "./polyhoop -q --restart %s/b --png-color id 2> %s/err; [ $? = 2 ] && "
             "grep -q -- '--png-color cannot change on --restart' %s/err && "
             "./polyhoop -q -n 1 -s 10 --png-color velocity -o %s/v %s/two.off > /dev/null && [ -f %s/v/frame000001.png ]",
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
