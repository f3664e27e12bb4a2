/* The OFF reader. The file is read line by line (lines up to 16 MiB, so memory stays bounded);
 * '#' starts a comment, blank lines are skipped, and each remaining "content line" is cut into
 * whitespace-separated tokens in place. The grammar is line-oriented: the header "OFF" alone,
 * then "Nv Np Ne", then Nv lines "x y z", then Np lines "k i1 ... ik", then nothing but comments
 * and blank lines. Vertices and polygons are stored in arrays that grow as lines are actually
 * read, never at the size the header claims, so a lying header cannot make us allocate more than
 * the file holds. The optional velocity file of an input (off_read_velocities) is read with the
 * same tokenizer: lines "polygon vx vy", comments and blank lines as in OFF. */
#define _POSIX_C_SOURCE 200809L
#include "off.h"
#include "text.h"
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define WHITESPACE " \t\r\n\v\f"

typedef struct { double x, y; int phase; int64_t type; } Vertex;

typedef struct {
    const char *path;
    const char *kind;                /* what the file should be, for messages: "an OFF file" */
    FILE *f;
    char *buf; size_t bufcap;        /* one line of the file */
    char **tok; size_t ntok, tokcap; /* tokens of the current content line, pointing into buf */
    long line;                       /* number of the last line read */
    char *err; size_t errlen;
} Reader;

/* Writes "path:line: message" into the caller's buffer and returns -1, so errors read
 * `return fail(...)`. */
static int fail(Reader *r, long line, const char *fmt, ...)
{
    if (r->errlen == 0) return -1;
    int n = line > 0 ? snprintf(r->err, r->errlen, "%s:%ld: ", TEXT_ESC(r->path), line)
                     : snprintf(r->err, r->errlen, "%s: ", TEXT_ESC(r->path));   /* (whole file) */
    if (n >= 0 && (size_t)n < r->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Reads one line (with its newline, if any) into r->buf; returns its length, -1 at end of file,
 * -2 if it is longer than MAX_LINE (memory stays bounded whatever the file holds), -3 at a NUL
 * byte (which would silently end the line for the string functions below; a binary file is told
 * at its first one). */
enum { MAX_LINE = 1 << 24 };
static long read_line(Reader *r)
{
    size_t n = 0;
    int c;
    while ((c = getc(r->f)) != EOF) {
        if (c == '\0') return -3;
        if (n + 2 > r->bufcap) {
            if (r->bufcap >= MAX_LINE) return -2;
            size_t cap = r->bufcap ? 2 * r->bufcap : 256;
            char *b = realloc(r->buf, cap);
            if (!b) return -2;
            r->buf = b;
            r->bufcap = cap;
        }
        r->buf[n++] = (char)c;
        if (c == '\n') break;
    }
    if (n == 0 && c == EOF) return -1;
    r->buf[n] = '\0';
    return (long)n;
}

/* Advances to the next line with at least one token. Returns 1, 0 at end of file, -1 on error. */
static int next_line(Reader *r)
{
    long len;
    while ((len = read_line(r)) != -1) {
        r->line++;
        if (len == -2)
            return fail(r, r->line, "line longer than %d MiB (not %s?)", MAX_LINE >> 20, r->kind);
        if (len == -3)
            return fail(r, r->line, "unexpected NUL byte (binary data, not %s?)", r->kind);
        char *hash = strchr(r->buf, '#');
        if (hash) *hash = '\0';
        r->ntok = 0;
        for (char *s = r->buf + strspn(r->buf, WHITESPACE); *s; s += strspn(s, WHITESPACE)) {
            if (r->ntok == r->tokcap) {
                size_t cap = 2 * r->tokcap + 8;
                char **t = realloc(r->tok, cap * sizeof *t);
                if (!t) return fail(r, r->line, "out of memory");
                r->tok = t;
                r->tokcap = cap;
            }
            r->tok[r->ntok++] = s;
            s += strcspn(s, WHITESPACE);
            if (*s) *s++ = '\0';
        }
        if (r->ntok) return 1;
    }
    if (ferror(r->f)) return fail(r, r->line, "read error: %s", strerror(errno));
    return 0;
}

/* 1 if the whole token is a decimal integer that fits in a long. */
static int parse_long(const char *s, long *v)
{
    char *end;
    errno = 0;
    *v = strtol(s, &end, 10);
    return end != s && *end == '\0' && errno == 0;
}

/* 1 if the whole token is a number. Overflow (ERANGE) gives +-HUGE_VAL and is caught by the
 * callers' isfinite check; underflow to a subnormal or zero is a harmless loss of precision. */
static int parse_double(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && *end == '\0';
}

/* UTF-8's byte-order mark, U+FEFF: invisible, so a message must name it rather than show it */
static const char BOM[] = "\xEF\xBB\xBF";

static int read_header(Reader *r, int *nv, int *np)
{
    int got = next_line(r);
    if (got < 0) return -1;
    if (got == 0)
        return fail(r, r->line ? r->line : 1,
                    "expected header 'OFF', found end of file (empty file)");
    if (!strncmp(r->tok[0], BOM, 3))
        return fail(r, r->line,
                    "expected header 'OFF', found a byte-order mark (U+FEFF, the bytes EF BB BF)"
                    "%s%s%s: save the file without it (plain ASCII, or UTF-8 without BOM)",
                    r->tok[0][3] ? " before '" : "", TEXT_ESC_N(r->tok[0] + 3, 40),
                    r->tok[0][3] ? "'" : "");
    if (strcmp(r->tok[0], "OFF") != 0)
        return fail(r, r->line, "expected header 'OFF', found '%s'", TEXT_ESC_N(r->tok[0], 40));
    if (r->ntok > 1)
        return fail(r, r->line, "expected only 'OFF' on the header line, found '%s' after it",
                    TEXT_ESC_N(r->tok[1], 40));

    got = next_line(r);
    if (got < 0) return -1;
    if (got == 0)
        return fail(r, r->line, "expected counts 'Nv Np Ne' after the header, found end of file");
    if (r->ntok != 3)
        return fail(r, r->line, "expected 3 counts 'Nv Np Ne', found %zu fields", r->ntok);
    static const char *const name[3] = { "Nv (vertex count)", "Np (polygon count)",
                                         "Ne (edge count)" };
    long c[3];
    for (int a = 0; a < 3; a++) {
        if (!parse_long(r->tok[a], &c[a]) || c[a] < 0)
            return fail(r, r->line, "expected a non-negative integer for %s, found '%s'", name[a],
                        TEXT_ESC_N(r->tok[a], 40));
        if (a < 2 && c[a] > INT_MAX)
            return fail(r, r->line, "%s = %ld is too large (at most %d)", name[a], c[a], INT_MAX);
    }
    if (c[1] == 0)
        return fail(r, r->line, "Np = 0: the file declares no polygons, nothing to simulate");
    *nv = (int)c[0];
    *np = (int)c[1];
    return 0;
}

static int read_vertices(Reader *r, int nv, Vertex **v)
{
    size_t cap = 0;
    for (int i = 0; i < nv; i++) {
        int got = next_line(r);
        if (got < 0) return -1;
        if (got == 0)
            return fail(r, r->line, "premature end of file: expected %d vertex lines, found %d",
                        nv, i);
        if (r->ntok != 3)
            return fail(r, r->line, "expected 3 fields 'x y z' for vertex %d, found %zu", i,
                        r->ntok);
        double c[3];
        for (int a = 0; a < 3; a++) {
            if (!parse_double(r->tok[a], &c[a]))
                return fail(r, r->line, "expected a number for %c of vertex %d, found '%s'",
                            "xyz"[a], i, TEXT_ESC_N(r->tok[a], 40));
            if (!isfinite(c[a]))
                return fail(r, r->line, "%c of vertex %d is not finite: '%s'", "xyz"[a], i,
                            TEXT_ESC_N(r->tok[a], 40));
        }
        /* z carries the phase and the cell type, z = 2 type + (1 for phase +1), so any
         * integer-valued number is accepted ("2", "2.0", "2e0"); a negative z carries the phase
         * only. */
        if (c[2] != floor(c[2]))
            return fail(r, r->line,
                        "expected an integer z (odd: phase +1, even: phase -1) for vertex %d, "
                        "found '%s'",
                        i, TEXT_ESC_N(r->tok[2], 40));
        /* from 2^53 on doubles are all even: the parity in the text is lost (9007199254740993,
         * odd, reads as 2^53) */
        if (fabs(c[2]) >= 0x1p53)
            return fail(r, r->line, "z of vertex %d is too large to tell odd from even: '%s'", i,
                        TEXT_ESC_N(r->tok[2], 40));
        if ((size_t)i == cap) {
            cap = cap ? 2 * cap : 16;
            if (cap > (size_t)nv) cap = (size_t)nv;
            Vertex *t = realloc(*v, cap * sizeof *t);
            if (!t) return fail(r, r->line, "out of memory");
            *v = t;
        }
        (*v)[i] = (Vertex){ c[0], c[1], fmod(c[2], 2.0) != 0 ? 1 : -1,
                            c[2] > 0 ? (int64_t)floor(c[2] / 2) : 0 };
    }
    return 0;
}

/* Sign of the turn a -> b -> c: +1 left, -1 right, 0 collinear. When rounding could flip the sign
 * (|det| within the first-stage error bound (3 + 16 eps) eps (|l| + |r|) of Shewchuk's
 * orientation predicate) we answer 0: the crossing test then counts a touch, so a polygon that is
 * degenerate to within rounding is rejected rather than let through by luck. */
static int orient(const double *x, const double *y, int a, int b, int c)
{
    double l = (x[b] - x[a]) * (y[c] - y[a]), r = (y[b] - y[a]) * (x[c] - x[a]), d = l - r;
    double bound = 3.3306690738754716e-16 * (fabs(l) + fabs(r));
    return d > bound ? 1 : d < -bound ? -1 : 0;
}

/* 1 if c, known to be collinear with segment ab, lies on it. */
static int on_segment(const double *x, const double *y, int a, int b, int c)
{
    return fmin(x[a], x[b]) <= x[c] && x[c] <= fmax(x[a], x[b]) &&
           fmin(y[a], y[b]) <= y[c] && y[c] <= fmax(y[a], y[b]);
}

/* 1 if the closed segments ab and cd cross or touch. */
static int segments_meet(const double *x, const double *y, int a, int b, int c, int d)
{
    int o1 = orient(x, y, a, b, c), o2 = orient(x, y, a, b, d);
    int o3 = orient(x, y, c, d, a), o4 = orient(x, y, c, d, b);
    if (o1 * o2 < 0 && o3 * o4 < 0) return 1;
    return (o1 == 0 && on_segment(x, y, a, b, c)) || (o2 == 0 && on_segment(x, y, a, b, d)) ||
           (o3 == 0 && on_segment(x, y, c, d, a)) || (o4 == 0 && on_segment(x, y, c, d, b));
}

/* The grid of first_crossing: square cells of side cs from (x0, y0), nx by ny of them. */
typedef struct { double x0, y0, cs; int nx, ny; } BoxGrid;

/* the column (or row) of coordinate v: monotone in v, clamped to the grid */
static int box_cell(double v, double o, double cs, int m)
{
    return (int)fmin(fmax((v - o) / cs, 0), m - 1);
}

/* the cells [*a0, *a1] x [*b0, *b1] covered by the bounding box of edge k -> k1 */
static void edge_cells(const BoxGrid *g, const double *x, const double *y, int k, int k1, int *a0,
                       int *a1, int *b0, int *b1)
{
    *a0 = box_cell(fmin(x[k], x[k1]), g->x0, g->cs, g->nx);
    *a1 = box_cell(fmax(x[k], x[k1]), g->x0, g->cs, g->nx);
    *b0 = box_cell(fmin(y[k], y[k1]), g->y0, g->cs, g->ny);
    *b1 = box_cell(fmax(y[k], y[k1]), g->y0, g->cs, g->ny);
}

/* The first pair of edges i < j (edge k runs from vertex k to k + 1) that share no vertex and
 * meet, in the order of a loop over all pairs; *pi = -1 if none. All pairs are tested for small
 * polygons only. Otherwise the edges are binned by their bounding boxes into a grid of at most
 * 2n + 1 square cells (w h / cs^2 <= n and (w + h) / cs <= perimeter / cs <= n), and a pair is
 * tested only in the cell of the lower-left corner of the overlap of its boxes: edges that meet
 * have overlapping boxes (a touch counts, see orient), and the cell of a point is monotone in its
 * coordinates, so that cell holds both. A polygon whose long edges would fill too many cells is
 * tested pair by pair. Returns 0, or -1 if memory ran out. */
static int first_crossing(const double *x, const double *y, int n, double x0, double y0, double w,
                          double h, int *pi, int *pj)
{
    *pi = *pj = -1;
    double per = 0;
    for (int k = 0; k < n; k++) per += hypot(x[(k + 1) % n] - x[k], y[(k + 1) % n] - y[k]);
    BoxGrid g = { x0, y0, fmax(per / n, sqrt(w * h / n)), 0, 0 };
    size_t total = 0;   /* cell entries of all edges */
    int a0, a1, b0, b1;
    if (n >= 64 && g.cs > 0) {
        g.nx = (int)(w / g.cs) + 1; g.ny = (int)(h / g.cs) + 1;
        for (int k = 0; k < n; k++) {
            edge_cells(&g, x, y, k, (k + 1) % n, &a0, &a1, &b0, &b1);
            total += (size_t)(a1 - a0 + 1) * (size_t)(b1 - b0 + 1);
        }
    }
    if (total == 0 || total > (size_t)32 * (size_t)n) {   /* all pairs */
        for (int i = 0; i < n; i++)
            for (int j = i + 2; j < n - (i == 0); j++)
                if (segments_meet(x, y, i, i + 1, j, (j + 1) % n)) { *pi = i; *pj = j; return 0; }
        return 0;
    }
    size_t ncell = (size_t)g.nx * (size_t)g.ny, *start = calloc(ncell + 1, sizeof *start);
    int *item = malloc(total * sizeof *item);
    if (!start || !item) { free(start); free(item); return -1; }
    for (int pass = 0; pass < 2; pass++) {   /* count per cell, then fill (edges in order) */
        for (int k = 0; k < n; k++) {
            edge_cells(&g, x, y, k, (k + 1) % n, &a0, &a1, &b0, &b1);
            for (int b = b0; b <= b1; b++)
                for (int a = a0; a <= a1; a++) {
                    size_t c = (size_t)b * (size_t)g.nx + (size_t)a;
                    if (pass) item[start[c]++] = k; else start[c + 1]++;
                }
        }
        if (!pass) for (size_t c = 0; c < ncell; c++) start[c + 1] += start[c];
        else { memmove(start + 1, start, ncell * sizeof *start); start[0] = 0; }
    }
    int bi = INT_MAX, bj = INT_MAX;
    for (size_t c = 0; c < ncell; c++)
        for (size_t u = start[c]; u < start[c + 1]; u++)
            for (size_t v = u + 1; v < start[c + 1]; v++) {
                /* (i < j: filled in order) */
                int i = item[u], j = item[v], i1 = i + 1, j1 = (j + 1) % n;
                if (j == i1 || (i == 0 && j == n - 1) || i > bi || (i == bi && j >= bj)) continue;
                double lx = fmax(fmin(x[i], x[i1]), fmin(x[j], x[j1])),
                       ly = fmax(fmin(y[i], y[i1]), fmin(y[j], y[j1]));
                if ((size_t)box_cell(ly, g.y0, g.cs, g.ny) * (size_t)g.nx +
                        (size_t)box_cell(lx, g.x0, g.cs, g.nx) != c)
                    continue;
                if (segments_meet(x, y, i, i1, j, j1)) { bi = i; bj = j; }
            }
    free(start);
    free(item);
    if (bi < INT_MAX) { *pi = bi; *pj = bj; }
    return 0;
}

/* Checks polygon p (vertex indices idx[0..n-1], coordinates already copied into P) and makes it
 * counter-clockwise. Phase and repeats are checked first: they explain the later failures. */
static int check_polygon(Reader *r, int p, const int *idx, const Vertex *v, OffPolygon *P)
{
    int n = P->n;
    for (int j = 0; j < n; j++) {
        int a = idx[j], b = idx[(j + 1) % n];
        if (a == b)
            return fail(r, r->line,
                        "polygon %d lists vertex %d twice in a row (positions %d and %d)", p, a, j,
                        (j + 1) % n);
        if (v[a].x == v[b].x && v[a].y == v[b].y)
            return fail(r, r->line,
                        "polygon %d: consecutive vertices %d and %d have identical coordinates "
                        "(%.17g, %.17g)",
                        p, a, b, v[a].x, v[a].y);
        if (v[a].phase != v[idx[0]].phase)
            return fail(r, r->line,
                        "polygon %d mixes phases: vertex %d has phase %+d (z %s) but vertex %d "
                        "has phase %+d (z %s)",
                        p, idx[0], v[idx[0]].phase, v[idx[0]].phase > 0 ? "odd" : "even", a,
                        v[a].phase, v[a].phase > 0 ? "odd" : "even");
    }
    P->phase = v[idx[0]].phase;
    P->type = v[idx[0]].type;
    P->other_type = -1;
    for (int j = 0; j < n && P->other_type < 0; j++)
        if (v[idx[j]].type != P->type) P->other_type = v[idx[j]].type;

    /* Every product below is of two coordinate differences, each at most the bounding box's width
     * or height, and the shoelace adds up 2 (n - 2) of them. A box so large that this overflows
     * would leave area and orientation inf or nan: reject it. */
    double x0 = P->x[0], x1 = P->x[0], y0 = P->y[0], y1 = P->y[0];
    for (int j = 1; j < n; j++) {
        x0 = fmin(x0, P->x[j]); x1 = fmax(x1, P->x[j]);
        y0 = fmin(y0, P->y[j]); y1 = fmax(y1, P->y[j]);
    }
    if (!(2.0 * n * (x1 - x0) * (y1 - y0) <= DBL_MAX))
        return fail(r, r->line, "polygon %d is too large to compute with: it spans %.3g by %.3g",
                    p, x1 - x0, y1 - y0);

    /* Shoelace about vertex 0, which keeps the products small when the polygon is far from the
     * origin. An area within the sum's rounding error (about n eps times the sum of |products|)
     * counts as zero: collinear points such as (0,0) (0.49,0.63) (0.7,0.9) leave a residue of
     * 5.6e-17, not 0. */
    double twice_area = 0, magnitude = 0;
    for (int j = 1; j + 1 < n; j++) {
        double l = (P->x[j] - P->x[0]) * (P->y[j + 1] - P->y[0]),
               rr = (P->x[j + 1] - P->x[0]) * (P->y[j] - P->y[0]);
        twice_area += l - rr;
        magnitude += fabs(l) + fabs(rr);
    }
    /* A zero area is that of collinear vertices only when every triangle of the fan about vertex 0
     * is flat; otherwise the polygon's loops cancel, as the two of a symmetric bowtie do, and it
     * crosses itself, which the crossing test below names. */
    int flat = 1;
    for (int j = 1; j + 1 < n && flat; j++) flat = orient(P->x, P->y, 0, j, j + 1) == 0;
    int zero = fabs(twice_area) <= (n + 4) * DBL_EPSILON * magnitude;
    if (zero && flat)
        return fail(r, r->line, "polygon %d has zero area (collinear or degenerate vertices)", p);

    int i, j;
    if (first_crossing(P->x, P->y, n, x0, y0, x1 - x0, y1 - y0, &i, &j) < 0)
        return fail(r, r->line, "out of memory checking polygon %d for self-intersections", p);
    if (i >= 0)
        return fail(r, r->line, "polygon %d is self-intersecting: edge %d-%d meets edge %d-%d%s",
                    p, idx[i], idx[i + 1], idx[j], idx[(j + 1) % n],
                    zero ? " (its loops cancel: zero area)" : "");
    if (zero)
        return fail(r, r->line, "polygon %d has zero area (collinear or degenerate vertices)", p);

    if (twice_area < 0) {
        for (int j = 0, k = n - 1; j < k; j++, k--) {
            double tx = P->x[j], ty = P->y[j];
            P->x[j] = P->x[k]; P->y[j] = P->y[k];
            P->x[k] = tx; P->y[k] = ty;
        }
        fprintf(stderr, "%s:%ld: warning: polygon %d is clockwise; reversed to counter-clockwise\n",
                TEXT_ESC(r->path), r->line, p);
    }
    return 0;
}

static int read_faces(Reader *r, int nv, int np, const Vertex *v, OffData *out)
{
    size_t cap = 0, idxcap = 0;
    int *idx = NULL, rc = 0;
    for (int p = 0; p < np && rc == 0; p++) {
        int got = next_line(r);
        if (got <= 0) {
            rc = got < 0 ? -1
                         : fail(r, r->line,
                                "premature end of file: expected %d face lines, found %d", np, p);
            break;
        }
        long k;
        if (!parse_long(r->tok[0], &k)) {
            rc = fail(r, r->line,
                      "expected an integer vertex count k at the start of face %d, found '%s'", p,
                      TEXT_ESC_N(r->tok[0], 40));
            break;
        }
        if (k < 3) {
            rc = fail(r, r->line, "face %d has k = %ld vertices, expected at least 3", p, k);
            break;
        }
        if ((size_t)k != r->ntok - 1) { /* from here on k is bounded by the line's length */
            rc = fail(r, r->line, "face %d declares k = %ld vertices but lists %zu indices", p, k,
                      r->ntok - 1);
            break;
        }
        if ((size_t)p == cap) {
            cap = cap ? 2 * cap : 16;
            if (cap > (size_t)np) cap = (size_t)np;
            OffPolygon *t = realloc(out->poly, cap * sizeof *t);
            if (!t) { rc = fail(r, r->line, "out of memory"); break; }
            out->poly = t;
        }
        if ((size_t)k > idxcap) {
            int *t = realloc(idx, (size_t)k * sizeof *t);
            if (!t) { rc = fail(r, r->line, "out of memory"); break; }
            idx = t;
            idxcap = (size_t)k;
        }
        OffPolygon *P = &out->poly[out->np++]; /* counted now: off_free releases it on failure */
        *P = (OffPolygon){ (int)k, malloc((size_t)k * sizeof(double)),
                           malloc((size_t)k * sizeof(double)), 0, 0, -1, (int)r->line };
        if (!P->x || !P->y) { rc = fail(r, r->line, "out of memory"); break; }
        for (int j = 0; j < k && rc == 0; j++) {
            long i;
            if (!parse_long(r->tok[j + 1], &i))
                rc = fail(r, r->line, "expected an integer vertex index in face %d, found '%s'", p,
                          TEXT_ESC_N(r->tok[j + 1], 40));
            else if (i < 0 || i >= nv)
                rc = fail(r, r->line,
                          "vertex index %ld in face %d is out of range (the file has %d vertices, "
                          "numbered from 0)",
                          i, p, nv);
            else {
                idx[j] = (int)i;
                P->x[j] = v[i].x;
                P->y[j] = v[i].y;
            }
        }
        if (rc == 0) rc = check_polygon(r, p, idx, v, P);
    }
    free(idx);
    return rc;
}

int off_read(const char *path, OffData *out, char *err, size_t errlen)
{
    Reader r = { .path = path, .kind = "an OFF file", .err = err, .errlen = errlen };
    Vertex *v = NULL;
    int nv = 0, np = 0, rc;
    *out = (OffData){ 0, NULL };
    if (errlen) err[0] = '\0';

    r.f = fopen(path, "r");
    if (!r.f) return fail(&r, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    /* (fopen accepts a directory; reading it fails later) */
    if (fstat(fileno(r.f), &st) == 0 && S_ISDIR(st.st_mode))
        rc = fail(&r, 0, "is a directory, expected an OFF file");
    else
        rc = read_header(&r, &nv, &np);
    if (rc == 0) rc = read_vertices(&r, nv, &v);
    if (rc == 0) rc = read_faces(&r, nv, np, v, out);
    if (rc == 0) {
        int got = next_line(&r);
        if (got != 0)
            rc = got < 0 ? -1
                         : fail(&r, r.line,
                                "unexpected content after the last face (%d faces declared): '%s'",
                                np, TEXT_ESC_N(r.tok[0], 40));
    }

    fclose(r.f);
    free(r.buf);
    free(r.tok);
    free(v);
    if (rc) off_free(out);
    return rc;
}

int off_read_velocities(const char *path, int np, int nrigid, double vmax, double *vx, double *vy,
                        char *err, size_t errlen)
{
    Reader r = { .path = path, .kind = "a velocity file", .err = err, .errlen = errlen };
    if (errlen) err[0] = '\0';
    for (int p = 0; p < np; p++) vx[p] = vy[p] = 0;
    long *given = calloc((size_t)np + 1, sizeof *given);   /* the line that gave p its velocity */
    if (!given) return fail(&r, 0, "out of memory");
    r.f = fopen(path, "r");
    int rc = 0, got;
    struct stat st;
    if (!r.f) rc = fail(&r, 0, "cannot open: %s", strerror(errno));
    else if (fstat(fileno(r.f), &st) == 0 && S_ISDIR(st.st_mode))
        rc = fail(&r, 0, "is a directory, expected a velocity file");
    while (rc == 0 && (got = next_line(&r)) != 0) {
        if (got < 0) { rc = -1; break; }
        long p;
        double v[2];
        if (!strncmp(r.tok[0], BOM, 3)) {
            rc = fail(&r, r.line, "expected a polygon index, found a byte-order mark (U+FEFF, the "
                                  "bytes EF BB BF): save the file without it (plain ASCII, or "
                                  "UTF-8 without BOM)");
            break;
        }
        if (r.ntok != 3) {
            rc = fail(&r, r.line, "expected 3 fields 'polygon vx vy', found %zu", r.ntok);
            break;
        }
        if (!parse_long(r.tok[0], &p) || p < 0 || p >= np) {
            rc = fail(&r, r.line,
                      "expected a polygon index from 0 to %d (the input has %d polygons), found "
                      "'%s'",
                      np - 1, np, TEXT_ESC_N(r.tok[0], 40));
            break;
        }
        for (int a = 0; a < 2 && rc == 0; a++)
            if (!parse_double(r.tok[a + 1], &v[a]) || !isfinite(v[a]))
                rc = fail(&r, r.line, "expected a finite number for v%c of polygon %ld, found '%s'",
                          "xy"[a], p, TEXT_ESC_N(r.tok[a + 1], 40));
        if (rc) break;
        if (given[p]) {
            rc = fail(&r, r.line, "polygon %ld already has a velocity (line %ld)", p, given[p]);
            break;
        }
        if (p < nrigid && (v[0] != 0 || v[1] != 0)) {
            rc = fail(&r, r.line,
                      "polygon %ld is rigid (the first Nr = %d polygons): it cannot move", p,
                      nrigid);
            break;
        }
        /* (a vertex faster than h/dt stops the run in its first step: say so here, by the line) */
        if (!(hypot(v[0], v[1]) < vmax)) {
            rc = fail(&r, r.line, "expected a speed below h/dt = %g for polygon %ld, found %g",
                      vmax, p, hypot(v[0], v[1]));
            break;
        }
        given[p] = r.line;
        vx[p] = v[0];
        vy[p] = v[1];
    }
    if (r.f) fclose(r.f);
    free(r.buf);
    free(r.tok);
    free(given);
    if (rc) for (int p = 0; p < np; p++) vx[p] = vy[p] = 0;
    return rc;
}

void off_free(OffData *d)
{
    if (!d) return;
    for (int p = 0; p < d->np; p++) {
        free(d->poly[p].x);
        free(d->poly[p].y);
    }
    free(d->poly);
    *d = (OffData){ 0, NULL };
}
