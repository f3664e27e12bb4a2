/* Tests of the OFF reader. Each input is written into a fresh mkdtemp directory, read with stderr
 * captured, and the directory removed before any check, so a failing test leaves nothing behind.
 * Every rejection is checked for the return value, the "path:line: " prefix and a phrase that names
 * the fault. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "off.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    int rc;
    OffData d;
    char path[64];  /* where the input was (already removed) */
    char err[512];  /* off_read's message */
    char warn[512]; /* what off_read printed to stderr */
} Result;

/* Runs off_read on `len` bytes of `text`. */
static Result run(const char *text, size_t len)
{
    Result res = { 0 };
    char dir[] = "/tmp/ph_off_XXXXXX", capture[64];
    ENSURE(mkdtemp(dir));
    snprintf(res.path, sizeof res.path, "%s/in.off", dir);
    snprintf(capture, sizeof capture, "%s/stderr.txt", dir);
    FILE *f = fopen(res.path, "wb");
    ENSURE(f);
    ENSURE(fwrite(text, 1, len, f) == len && fclose(f) == 0);

    fflush(stderr);
    int saved = dup(STDERR_FILENO), fd = open(capture, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ENSURE(saved >= 0 && fd >= 0);
    dup2(fd, STDERR_FILENO);
    close(fd);
    res.rc = off_read(res.path, &res.d, res.err, sizeof res.err);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);

    f = fopen(capture, "r");
    ENSURE(f);
    res.warn[fread(res.warn, 1, sizeof res.warn - 1, f)] = '\0';
    fclose(f);
    remove(capture);
    remove(res.path);
    rmdir(dir);
    return res;
}

static Result run_text(const char *text) { return run(text, strlen(text)); }

/* off_read must reject with "path:line: ..." (line 0: "path: ...", the file as a whole)
 * containing `phrase`, and leave the output empty. */
static void check_message(const char *path, int rc, const OffData *d, const char *err, int line, const char *phrase)
{
    char want[128];
    if (line > 0) snprintf(want, sizeof want, "%s:%d: ", path, line);
    else snprintf(want, sizeof want, "%s: ", path);
    ENSURE_MSG(rc == -1, "accepted; expected '%s%s...'", want, phrase);
    ENSURE_MSG(strncmp(err, want, strlen(want)) == 0, "message '%s' should start with '%s'", err, want);
    ENSURE_MSG(strstr(err, phrase), "message '%s' should contain '%s'", err, phrase);
    ENSURE(d->np == 0 && d->poly == NULL);
}

static void expect_reject(const char *text, int line, const char *phrase)
{
    Result res = run_text(text);
    check_message(res.path, res.rc, &res.d, res.err, line, phrase);
}

/* A unit square: vertices on lines 3-6, so the face written after it is on line 7. */
#define SQUARE_VERTICES "OFF\n4 1 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n"
#define SQUARE SQUARE_VERTICES "4 0 1 2 3\n"

void test_off_valid_file(void)
{
    Result res = run_text(
        "# two triangles sharing an edge\r\n"           /* 1 */
        "OFF\r\n"                                        /* 2 */
        "\r\n"                                           /* 3 */
        "5\t2 999   # Ne is read and ignored\r\n"        /* 4 */
        "0 0 0\r\n"                                      /* 5 */
        "\t1.5\t0\t2\r\n"                                /* 6 */
        "   \t \r\n"                                     /* 7 */
        "1 1 -4 # even z\r\n"                            /* 8 */
        "-2.5e-1 1 0\r\n"                                /* 9 */
        "7 8 1\r\n"                                      /* 10: unused, other phase */
        "# faces\r\n"                                    /* 11 */
        "3 0 1 2\r\n"                                    /* 12 */
        "\r\n"                                           /* 13 */
        "3\t0 2\t3   # shares vertices 0 and 2\r\n"      /* 14 */
        "\r\n"                                           /* 15 */
        "# end without a newline");                      /* 16 */
    ENSURE_MSG(res.rc == 0, "%s", res.err);
    ENSURE(res.warn[0] == '\0');
    ENSURE(res.d.np == 2);
    const double x0[3] = { 0, 1.5, 1 }, y0[3] = { 0, 0, 1 }, x1[3] = { 0, 1, -0.25 }, y1[3] = { 0, 1, 1 };
    ENSURE(res.d.poly[0].n == 3 && res.d.poly[0].line == 12 && res.d.poly[0].phase == -1);
    ENSURE(res.d.poly[1].n == 3 && res.d.poly[1].line == 14 && res.d.poly[1].phase == -1);
    for (int k = 0; k < 3; k++) {
        ENSURE_CLOSE(res.d.poly[0].x[k], x0[k], 0);
        ENSURE_CLOSE(res.d.poly[0].y[k], y0[k], 0);
        ENSURE_CLOSE(res.d.poly[1].x[k], x1[k], 0);
        ENSURE_CLOSE(res.d.poly[1].y[k], y1[k], 0);
    }
    off_free(&res.d);
    ENSURE(res.d.np == 0 && res.d.poly == NULL);
}

void test_off_phase_rule(void)
{
    Result res = run_text("OFF\n8 2 0\n"
                          "0 0 1\n1 0 -3\n1 1 5\n0 1 1\n"      /* odd, also negative: phase +1 */
                          "3 0 -2\n4 0 -2\n4 1 0\n3 1 2.0e0\n" /* even: negative, zero, integer-valued: -1 */
                          "4 0 1 2 3\n4 4 5 6 7\n");
    ENSURE_MSG(res.rc == 0, "%s", res.err);
    ENSURE(res.d.np == 2 && res.d.poly[0].phase == 1 && res.d.poly[1].phase == -1);
    off_free(&res.d);
}

void test_off_clockwise_reversed(void)
{
    Result res = run_text("OFF\n4 2 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n4 0 1 2 3\n4 0 3 2 1\n");
    ENSURE_MSG(res.rc == 0, "%s", res.err);
    ENSURE(res.d.np == 2);
    /* Polygon 0 is counter-clockwise and kept; polygon 1, (0,0) (0,1) (1,1) (1,0), is reversed. */
    const double x0[4] = { 0, 1, 1, 0 }, x1[4] = { 1, 1, 0, 0 }, y1[4] = { 0, 1, 1, 0 };
    for (int k = 0; k < 4; k++) {
        ENSURE_CLOSE(res.d.poly[0].x[k], x0[k], 0);
        ENSURE_CLOSE(res.d.poly[1].x[k], x1[k], 0);
        ENSURE_CLOSE(res.d.poly[1].y[k], y1[k], 0);
    }
    char want[256];
    snprintf(want, sizeof want, "%s:8: warning: polygon 1 is clockwise; reversed to counter-clockwise\n", res.path);
    ENSURE_MSG(strcmp(res.warn, want) == 0, "stderr was '%s'", res.warn);
    off_free(&res.d);
}

void test_off_long_lines(void)
{
    /* A 1 MB comment line and a vertex line padded with 1 MB of blanks: no limit on line length. */
    size_t pad = 1 << 20, cap = 2 * pad + 200;
    char *text = malloc(cap);
    ENSURE(text);
    size_t n = 0;
    text[n++] = '#';
    memset(text + n, 'c', pad); n += pad;
    n += (size_t)snprintf(text + n, cap - n, "\nOFF\n3 1 0\n0 0 0\n");
    memset(text + n, '\t', pad); n += pad;
    n += (size_t)snprintf(text + n, cap - n, "2 0 0\n0 2 0\n3 0 1 2\n");
    Result res = run(text, n);
    free(text);
    ENSURE_MSG(res.rc == 0, "%s", res.err);
    ENSURE(res.d.np == 1 && res.d.poly[0].line == 7);
    ENSURE_CLOSE(res.d.poly[0].x[1], 2, 0);
    off_free(&res.d);
}

void test_off_reject_empty(void)
{
    expect_reject("", 1, "empty file");
    expect_reject("# only a comment\n\n", 2, "empty file");
}

void test_off_reject_header(void)
{
    expect_reject("COFF\n4 1 0\n", 1, "expected header 'OFF', found 'COFF'");
    expect_reject("# comment\n\noff\n", 3, "expected header 'OFF', found 'off'");
    expect_reject("OFF 4 1 0\n", 1, "expected only 'OFF' on the header line");
}

void test_off_reject_nul_byte(void)
{
    static const char text[] = "OFF\n4 1 0\n0 0 0\0\n";
    Result res = run(text, sizeof text - 1);
    check_message(res.path, res.rc, &res.d, res.err, 3, "unexpected NUL byte");
}

void test_off_reject_counts(void)
{
    expect_reject("OFF\n# no counts\n", 2, "expected counts 'Nv Np Ne' after the header, found end of file");
    expect_reject("OFF\n4 1\n", 2, "expected 3 counts 'Nv Np Ne', found 2 fields");
    expect_reject("OFF\n4 1 0 0\n", 2, "expected 3 counts 'Nv Np Ne', found 4 fields");
    expect_reject("OFF\n4.0 1 0\n", 2, "non-negative integer for Nv (vertex count), found '4.0'");
    expect_reject("OFF\n4 x 0\n", 2, "non-negative integer for Np (polygon count), found 'x'");
    expect_reject("OFF\n-4 1 0\n", 2, "non-negative integer for Nv (vertex count), found '-4'");
    expect_reject("OFF\n4 1 -1\n", 2, "non-negative integer for Ne (edge count), found '-1'");
    expect_reject("OFF\n4 1 99999999999999999999999\n", 2, "non-negative integer for Ne (edge count)");
}

void test_off_reject_huge_counts(void)
{
    /* A lying header must end in a clean rejection, not in an allocation of the claimed size
     * (which -fsanitize=address would also report). */
    expect_reject("OFF\n1000000000000 1 0\n", 2, "Nv (vertex count) = 1000000000000 is too large");
    expect_reject("OFF\n2000000000 1 0\n0 0 0\n", 3, "expected 2000000000 vertex lines, found 1");
    expect_reject("OFF\n3 2000000000 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n", 6, "expected 2000000000 face lines, found 1");
    expect_reject(SQUARE_VERTICES "1000000000000 0 1 2\n", 7, "face 0 declares k = 1000000000000 vertices but lists 3 indices");
}

void test_off_reject_no_polygons(void)
{
    expect_reject("OFF\n3 0 0\n0 0 0\n1 0 0\n0 1 0\n", 2, "Np = 0: the file declares no polygons, nothing to simulate");
}

void test_off_reject_short_vertices(void)
{
    expect_reject("OFF\n4 1 0\n0 0 0\n1 0 0\n", 4, "premature end of file: expected 4 vertex lines, found 2");
    expect_reject("OFF\n4 1 0\n0 0 0\n1 0 0\n\n# ends here\n", 6, "premature end of file: expected 4 vertex lines, found 2");
}

void test_off_reject_short_faces(void)
{
    expect_reject("OFF\n4 2 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n4 0 1 2 3\n", 7, "premature end of file: expected 2 face lines, found 1");
}

void test_off_reject_coordinate_not_number(void)
{
    expect_reject("OFF\n3 1 0\n0 0 0\n1 abc 0\n", 4, "expected a number for y of vertex 1, found 'abc'");
    expect_reject("OFF\n3 1 0\n0 0 0\n1,5 1 0\n", 4, "expected a number for x of vertex 1, found '1,5'");
    expect_reject("OFF\n3 1 0\n0 0 0\n1 1 x\n", 4, "expected a number for z of vertex 1, found 'x'");
}

void test_off_reject_coordinate_not_finite(void)
{
    expect_reject("OFF\n3 1 0\nnan 0 0\n", 3, "x of vertex 0 is not finite: 'nan'");
    expect_reject("OFF\n3 1 0\n0 -inf 0\n", 3, "y of vertex 0 is not finite: '-inf'");
    expect_reject("OFF\n3 1 0\n0 0 0\n1e999 0 0\n", 4, "x of vertex 1 is not finite: '1e999'");
}

void test_off_reject_z_not_integer(void)
{
    expect_reject("OFF\n3 1 0\n0 0 0.5\n", 3, "expected an integer z (odd: phase +1, even: phase -1) for vertex 0, found '0.5'");
    expect_reject("OFF\n3 1 0\n0 0 1e300\n", 3, "z of vertex 0 is too large to tell odd from even");
    /* (2^53 + 1, odd, reads as 2^53: its parity is lost too) */
    expect_reject("OFF\n3 1 0\n0 0 9007199254740993\n", 3, "z of vertex 0 is too large to tell odd from even: '9007199254740993'");
    expect_reject("OFF\n3 1 0\n0 0 -9007199254740993\n", 3, "z of vertex 0 is too large to tell odd from even");
}

/* The cell type floor(z / 2) as read, however large (a build with few types refuses it naming it:
 * tests/test_sim_input.c), up to z = 2^53 - 1, the largest whose parity survives */
void test_off_large_types_as_read(void)
{
    Result res = run_text("OFF\n6 2 0\n0 0 10000001\n1 0 10000001\n0 1 10000001\n"
                          "5 0 9007199254740991\n6 0 9007199254740991\n5 1 9007199254740991\n3 0 1 2\n3 3 4 5\n");
    ENSURE_MSG(res.rc == 0, "%s", res.err);
    ENSURE(res.d.np == 2 && res.d.poly[0].type == 5000000 && res.d.poly[0].phase == 1 && res.d.poly[0].other_type == -1);
    ENSURE(res.d.poly[1].type == 4503599627370495 && res.d.poly[1].phase == 1 && res.d.poly[1].other_type == -1);
    off_free(&res.d);
}

void test_off_reject_vertex_fields(void)
{
    expect_reject("OFF\n3 1 0\n0 0 0\n1 0\n", 4, "expected 3 fields 'x y z' for vertex 1, found 2");
    expect_reject("OFF\n3 1 0\n0 0 0 1\n", 3, "expected 3 fields 'x y z' for vertex 0, found 4");
}

void test_off_reject_face_too_small(void)
{
    expect_reject(SQUARE_VERTICES "2 0 1\n", 7, "face 0 has k = 2 vertices, expected at least 3");
    expect_reject(SQUARE_VERTICES "-3 0 1 2\n", 7, "face 0 has k = -3 vertices, expected at least 3");
    expect_reject(SQUARE_VERTICES "x 0 1 2\n", 7, "expected an integer vertex count k at the start of face 0, found 'x'");
}

void test_off_reject_face_count_mismatch(void)
{
    expect_reject(SQUARE_VERTICES "4 0 1 2\n", 7, "face 0 declares k = 4 vertices but lists 3 indices");
    expect_reject(SQUARE_VERTICES "3 0 1 2 3\n", 7, "face 0 declares k = 3 vertices but lists 4 indices");
}

void test_off_reject_bad_index(void)
{
    expect_reject(SQUARE_VERTICES "4 0 1 2 4\n", 7, "vertex index 4 in face 0 is out of range (the file has 4 vertices");
    expect_reject(SQUARE_VERTICES "4 0 -1 2 3\n", 7, "vertex index -1 in face 0 is out of range");
    expect_reject(SQUARE_VERTICES "4 0 1.0 2 3\n", 7, "expected an integer vertex index in face 0, found '1.0'");
}

void test_off_reject_repeated_vertex(void)
{
    expect_reject(SQUARE_VERTICES "4 0 1 1 2\n", 7, "polygon 0 lists vertex 1 twice in a row (positions 1 and 2)");
    expect_reject(SQUARE_VERTICES "4 0 1 2 0\n", 7, "polygon 0 lists vertex 0 twice in a row (positions 3 and 0)");
    /* Vertex 4 is a copy of vertex 1. */
    const char *copy = "OFF\n5 1 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n1 0 0\n";
    char text[128];
    snprintf(text, sizeof text, "%s5 0 1 4 2 3\n", copy);
    expect_reject(text, 8, "polygon 0: consecutive vertices 1 and 4 have identical coordinates (1, 0)");
    snprintf(text, sizeof text, "%s5 4 2 3 0 1\n", copy);
    expect_reject(text, 8, "polygon 0: consecutive vertices 1 and 4 have identical coordinates (1, 0)");
}

void test_off_reject_zero_area(void)
{
    expect_reject("OFF\n3 1 0\n0 0 0\n1 0 0\n2 0 0\n3 0 1 2\n", 6, "polygon 0 has zero area");
    expect_reject("OFF\n3 1 0\n0 0 0\n0.49 0.63 0\n0.7 0.9 0\n3 0 1 2\n", 6, "polygon 0 has zero area");
    expect_reject(SQUARE_VERTICES "4 0 1 0 1\n", 7, "polygon 0 has zero area");
}

void test_off_reject_mixed_phase(void)
{
    expect_reject("OFF\n4 1 0\n0 0 0\n1 0 0\n1 1 1\n0 1 0\n4 0 1 2 3\n", 7,
                  "polygon 0 mixes phases: vertex 0 has phase -1 (z even) but vertex 2 has phase +1 (z odd)");
}

void test_off_reject_self_intersecting(void)
{
    /* A bow tie whose lobes do not cancel: edges 0-1 and 2-3 cross at (2/3, 2/3). */
    expect_reject("OFF\n4 1 0\n0 0 0\n2 2 0\n2 0 0\n0 1 0\n4 0 1 2 3\n", 7,
                  "polygon 0 is self-intersecting: edge 0-1 meets edge 2-3");
    /* Vertex 3 lies on edge 0-1. */
    expect_reject("OFF\n4 1 0\n0 0 0\n2 0 0\n2 2 0\n1 0 0\n4 0 1 2 3\n", 7, "edge 0-1 meets edge 2-3");
    /* Vertex 3 lies on edge 0-1 in decimal, but 0.7 * 0.63 - 0.9 * 0.49 rounds to -5.6e-17: a naive
     * orientation puts it strictly beside the edge and would miss the touch. */
    expect_reject("OFF\n4 1 0\n0 0 0\n0.7 0.9 0\n2 0 0\n0.49 0.63 0\n4 0 1 2 3\n", 7, "edge 0-1 meets edge 2-3");
    /* Two lobes pinched at (1,1): vertices 2 and 5 coincide; in polygon 1 the same index appears twice. */
    const char *pinch = "OFF\n6 2 0\n0 0 0\n1 0 0\n1 1 0\n2 1 0\n2 2 0\n1 1 0\n";
    char text[128];
    snprintf(text, sizeof text, "%s6 0 1 2 3 4 5\n3 0 1 2\n", pinch);
    expect_reject(text, 9, "polygon 0 is self-intersecting: edge 1-2 meets edge 4-5");
    snprintf(text, sizeof text, "%s3 0 1 2\n6 0 1 2 3 4 2\n", pinch);
    expect_reject(text, 10, "polygon 1 is self-intersecting: edge 1-2 meets edge 4-2");
}

/* a plain test of whether segments ab and cd cross (generic random positions: no touching) */
static int plain_cross(const double *x, const double *y, int a, int b, int c, int d)
{
#define SIDE(p, q, r) (((x[q] - x[p]) * (y[r] - y[p]) - (y[q] - y[p]) * (x[r] - x[p])) > 0)
    return SIDE(a, b, c) != SIDE(a, b, d) && SIDE(c, d, a) != SIDE(c, d, b);
#undef SIDE
}

/* Large polygons are checked for self-intersection with a grid, not pair by pair: on random noisy
 * circles and spiky stars of 64 to 3,000 vertices, some with vertices thrown across (so that edges
 * cross), the reader must reject exactly those that cross and name the same first pair of edges
 * as a loop over all pairs. */
void test_off_self_intersection_large(void)
{
    uint64_t st = 12345;
#define RND() ((st = st * 6364136223846793005ull + 1442695040888963407ull) >> 11) * 0x1.0p-53
    int rejected = 0, accepted = 0;
    for (int trial = 0; trial < 120; trial++) {
        int n = 64 + (int)(RND() * (trial % 10 == 0 ? 2936 : 400)), star = trial % 3 == 2, throws = (int)(RND() * 4);
        double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
        for (int k = 0; k < n; k++) {
            double a = 2 * 3.141592653589793 * (k + 0.3 * RND()) / n, r = star && k % 2 ? 0.2 : 1 + 0.01 * RND();
            x[k] = r * cos(a); y[k] = r * sin(a);
        }
        for (int m = 0; m < throws; m++) {   /* a vertex thrown to a random point inside */
            int k = (int)(RND() * n);
            x[k] = 1.6 * RND() - 0.8; y[k] = 1.6 * RND() - 0.8;
        }
        int fi = -1, fj = -1;
        for (int i = 0; i < n && fi < 0; i++)
            for (int j = i + 2; j < n - (i == 0) && fi < 0; j++)
                if (plain_cross(x, y, i, i + 1, j, (j + 1) % n)) { fi = i; fj = j; }
        size_t cap = (size_t)n * 64 + 64, len = 0;
        char *text = malloc(cap);
        len += (size_t)snprintf(text + len, cap - len, "OFF\n%d 1 0\n", n);
        for (int k = 0; k < n; k++) len += (size_t)snprintf(text + len, cap - len, "%.17g %.17g 0\n", x[k], y[k]);
        len += (size_t)snprintf(text + len, cap - len, "%d", n);
        for (int k = 0; k < n; k++) len += (size_t)snprintf(text + len, cap - len, " %d", k);
        snprintf(text + len, cap - len, "\n");
        Result res = run_text(text);
        if (fi < 0) {
            ENSURE_MSG(res.rc == 0, "trial %d (%d vertices, no crossing): %s", trial, n, res.err);
            accepted++;
        } else {
            char want[96];
            snprintf(want, sizeof want, "edge %d-%d meets edge %d-%d", fi, fi + 1, fj, (fj + 1) % n);
            ENSURE_MSG(res.rc == -1 && strstr(res.err, want), "trial %d (%d vertices): '%s', expected '%s'", trial, n, res.err, want);
            rejected++;
        }
        off_free(&res.d);
        free(text); free(x); free(y);
    }
#undef RND
    ENSURE_MSG(rejected >= 30 && accepted >= 30, "%d rejected, %d accepted: the cases are not mixed", rejected, accepted);
    /* A touch, exactly: a square with 80 edges along its bottom and a spike from the top whose tip
     * (5.1875, 0) lies inside bottom edge 41-42 (x from 5.125 to 5.25), so both spike edges touch it. */
    char text[4096];
    size_t len = (size_t)snprintf(text, sizeof text, "OFF\n86 1 0\n");
    for (int k = 0; k <= 80; k++) len += (size_t)snprintf(text + len, sizeof text - len, "%g 0 0\n", 0.125 * k);
    len += (size_t)snprintf(text + len, sizeof text - len, "10 10 0\n5.5 10 0\n5.1875 0 0\n5 10 0\n0 10 0\n86");
    for (int k = 0; k < 86; k++) len += (size_t)snprintf(text + len, sizeof text - len, " %d", k);
    snprintf(text + len, sizeof text - len, "\n");
    expect_reject(text, 89, "polygon 0 is self-intersecting: edge 41-42 meets edge 82-83");
}

/* Coordinates so far apart that the area overflows: found by make fuzz (tests/fuzz_off.c), which
 * saw this square read with an infinite area; a clockwise one was kept clockwise. */
void test_off_reject_too_large(void)
{
    expect_reject("OFF\n4 1 0\n-1e233 -1e150 1\n1e150 -1e150 1\n1e150 1e150 1\n-1e150 1e150 1\n4 0 1 2 3\n", 7,
                  "polygon 0 is too large to compute with: it spans 1e+233 by 2e+150");
    expect_reject("OFF\n4 1 0\n-1e308 -1e308 0\n1e308 -1e308 0\n1e308 1e308 0\n-1e308 1e308 0\n4 3 2 1 0\n", 7,
                  "polygon 0 is too large to compute with");
    /* large but still computable: read, and the clockwise listing reversed */
    Result res = run_text("OFF\n4 1 0\n-1e150 -1e150 0\n1e150 -1e150 0\n1e150 1e150 0\n-1e150 1e150 0\n4 3 2 1 0\n");
    ENSURE_MSG(res.rc == 0, "%s", res.err);
    ENSURE(res.d.np == 1 && res.d.poly[0].n == 4);
    const double x[4] = { -1e150, 1e150, 1e150, -1e150 }, y[4] = { -1e150, -1e150, 1e150, 1e150 };
    for (int k = 0; k < 4; k++) {
        ENSURE_CLOSE(res.d.poly[0].x[k], x[k], 0);
        ENSURE_CLOSE(res.d.poly[0].y[k], y[k], 0);
    }
    off_free(&res.d);
}

void test_off_reject_trailing_garbage(void)
{
    expect_reject(SQUARE "# fine\n\n3 0 1 2\n", 10, "unexpected content after the last face (1 faces declared): '3'");
    expect_reject(SQUARE "junk", 8, "unexpected content after the last face (1 faces declared): 'junk'");
}

void test_off_reject_directory(void)
{
    char dir[] = "/tmp/ph_off_XXXXXX", err[512];
    ENSURE(mkdtemp(dir));
    OffData d;
    int rc = off_read(dir, &d, err, sizeof err);
    rmdir(dir);
    check_message(dir, rc, &d, err, 0, "is a directory, expected an OFF file");
}

void test_off_reject_unopenable(void)
{
    char dir[] = "/tmp/ph_off_XXXXXX", path[64], err[512], phrase[128];
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/missing.off", dir);
    OffData d;
    int rc = off_read(path, &d, err, sizeof err);
    snprintf(phrase, sizeof phrase, "cannot open: %s", strerror(ENOENT));
    check_message(path, rc, &d, err, 0, phrase);

    /* Unreadable; root reads anything, so this half only runs as an ordinary user. */
    FILE *f = fopen(path, "w");
    ENSURE(f && fputs(SQUARE, f) >= 0 && fclose(f) == 0);
    ENSURE(chmod(path, 0) == 0);
    rc = off_read(path, &d, err, sizeof err);
    remove(path);
    rmdir(dir);
    if (geteuid() == 0) {
        ENSURE(rc == 0);
        off_free(&d);
        return;
    }
    snprintf(phrase, sizeof phrase, "cannot open: %s", strerror(EACCES));
    check_message(path, rc, &d, err, 0, phrase);
}

/* Every prefix of a valid file and every one-byte change of it is either read or rejected with a
 * "path:line: " message; under -fsanitize=address this also shows nothing leaks on any path. */
void test_off_survives_mutations(void)
{
    static const char base[] = "OFF\n# c\n5 2 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n-1 0.5 0\n4 0 1 2 3\n3 0 3 4\n";
    static const char subst[] = { '\0', '#', '-', '9', '.', ' ', '\n', 'x', 'e', '0' };
    size_t len = sizeof base - 1;
    char text[sizeof base];
    for (size_t m = 0; m <= len * (1 + sizeof subst); m++) {
        size_t n = len;
        memcpy(text, base, len);
        if (m <= len) n = m; /* a prefix */
        else text[(m - len - 1) / sizeof subst] = subst[(m - len - 1) % sizeof subst];
        Result res = run(text, n);
        char want[80];
        snprintf(want, sizeof want, "%s:", res.path);
        ENSURE_MSG(res.rc == 0 || (res.rc == -1 && strncmp(res.err, want, strlen(want)) == 0 && res.d.poly == NULL),
                   "variant %zu: rc %d, message '%s'", m, res.rc, res.err);
        off_free(&res.d);
    }
}

/* Reads `text` as the velocity file of an input of 3 polygons, the first rigid; returns
 * off_read_velocities' status with its message in err. */
static int read_velocities(const char *text, double *vx, double *vy, char *err, size_t len)
{
    char dir[] = "/tmp/ph_vel_XXXXXX", path[64];
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/in.vel", dir);
    FILE *f = fopen(path, "w");
    ENSURE(f && fputs(text, f) >= 0 && fclose(f) == 0);
    int rc = off_read_velocities(path, 3, 1, 100, vx, vy, err, len);
    char prefix[80];
    snprintf(prefix, sizeof prefix, "%s:", path);
    remove(path);
    rmdir(dir);
    ENSURE_MSG(rc == 0 || !strncmp(err, prefix, strlen(prefix)), "message without the file's name: %s", err);
    return rc;
}

/* A velocity file: polygons listed in any order with comments, the others at rest; every
 * malformed line refused with its number and what was expected, and nothing kept. */
void test_off_velocities(void)
{
    double vx[3], vy[3];
    char err[512];
    ENSURE(read_velocities("# polygon vx vy\n2 -1.5 0.25\n\n1 3e1 -2 # fast\n", vx, vy, err, sizeof err) == 0);
    ENSURE(vx[0] == 0 && vy[0] == 0 && vx[1] == 30 && vy[1] == -2 && vx[2] == -1.5 && vy[2] == 0.25);
    static const struct { const char *text, *phrase; int line; } bad[] = {
        { "1 2\n", "expected 3 fields", 1 },
        { "# c\n1 2 3 4\n", "expected 3 fields", 2 },
        { "3 0 0\n", "polygon index from 0 to 2", 1 },
        { "-1 0 0\n", "polygon index from 0 to 2", 1 },
        { "x 0 0\n", "polygon index", 1 },
        { "1 0 0\n2 1 abc\n", "finite number for vy of polygon 2", 2 },
        { "1 nan 0\n", "finite number for vx", 1 },
        { "1 1 0\n\n1 2 0\n", "already has a velocity (line 1)", 3 },
        { "0 1 0\n", "rigid", 1 },
        { "0 0 0\n2 80 60\n", "below h/dt = 100", 2 },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        ENSURE_MSG(read_velocities(bad[k].text, vx, vy, err, sizeof err) == -1, "accepted: %s", bad[k].text);
        char at[16];
        snprintf(at, sizeof at, ":%d: ", bad[k].line);
        ENSURE_MSG(strstr(err, at) && strstr(err, bad[k].phrase), "'%s': %s", bad[k].text, err);
        ENSURE(vx[1] == 0 && vx[2] == 0);
    }
    ENSURE(off_read_velocities("/nonexistent/in.vel", 3, 0, 100, vx, vy, err, sizeof err) == -1 && strstr(err, "/nonexistent/in.vel: cannot open"));
}

/* A symmetric bow tie, whose two loops cancel to a signed area of exactly zero, is named for what
 * it is, self-intersecting, not as collinear; a collinear polygon still has zero area. */
void test_off_reject_bowtie_as_crossing(void)
{
    expect_reject("OFF\n4 1 0\n0 0 0\n1 1 0\n1 0 0\n0 1 0\n4 0 1 2 3\n", 7,
                  "polygon 0 is self-intersecting: edge 0-1 meets edge 2-3 (its loops cancel: zero area)");
    expect_reject("OFF\n4 1 0\n0 0 0\n2 1 0\n2 0 0\n0 1 0\n4 0 1 2 3\n", 7, "self-intersecting: edge 0-1 meets edge 2-3");
    expect_reject("OFF\n4 1 0\n0 0 0\n1 0 0\n2 0 0\n3 0 0\n4 0 1 2 3\n", 7, "polygon 0 has zero area (collinear");
}

/* A byte-order mark (U+FEFF, invisible on a terminal) before the header, or at the start of a
 * velocity file, is named in words and never printed as itself. */
void test_off_reject_byte_order_mark(void)
{
    Result res = run_text("\xEF\xBB\xBFOFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n");
    check_message(res.path, res.rc, &res.d, res.err, 1, "expected header 'OFF', found a byte-order mark (U+FEFF, the bytes "
                  "EF BB BF) before 'OFF': save the file without it");
    ENSURE_MSG(!strstr(res.err, "\xEF\xBB\xBF"), "the message shows the mark itself: %s", res.err);
    res = run_text("\xEF\xBB\xBF# a comment\nOFF\n");
    check_message(res.path, res.rc, &res.d, res.err, 1, "found a byte-order mark (U+FEFF, the bytes EF BB BF): save");
    double vx[3], vy[3];
    char err[512];
    ENSURE(read_velocities("\xEF\xBB\xBF" "1 2 3\n", vx, vy, err, sizeof err) == -1);
    ENSURE_MSG(strstr(err, ":1: expected a polygon index, found a byte-order mark (U+FEFF, the bytes EF BB BF)") &&
               !strstr(err, "\xEF\xBB\xBF"), "%s", err);
}

/* A binary file (/dev/zero: NUL bytes without end) is refused at its first byte, as what it
 * should have been: an OFF file or a velocity file. */
void test_off_binary_files_named(void)
{
    OffData d;
    char err[512];
    double vx[3], vy[3];
    ENSURE(off_read("/dev/zero", &d, err, sizeof err) == -1);
    ENSURE_MSG(!strcmp(err, "/dev/zero:1: unexpected NUL byte (binary data, not an OFF file?)"), "%s", err);
    ENSURE(off_read_velocities("/dev/zero", 3, 1, 100, vx, vy, err, sizeof err) == -1);
    ENSURE_MSG(!strcmp(err, "/dev/zero:1: unexpected NUL byte (binary data, not a velocity file?)"), "%s", err);
}
