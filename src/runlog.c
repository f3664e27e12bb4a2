/* The run's log (see runlog.h): events.csv and observables.csv. Lines are appended with one
 * write() per frame to a file opened with O_APPEND; a restart rewrites each file atomically,
 * keeping its header and the lines up to the checkpoint (and dropping a last line cut short). */
#define _POSIX_C_SOURCE 200809L
#include "runlog.h"
#include "atomic.h"
#include "forces.h"
#include "geometry.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char EVENTS_HEADER[] = "step,time,event,before,after\n";
#define EVENT_NAME(index, name) [index] = name,
static const char *const EVENT_NAMES[EVENT_KINDS] = { ENSEMBLE_EVENTS(EVENT_NAME) };
#undef EVENT_NAME

static int fail(char *err, size_t len, const char *path, const char *why, int errnum)
{
    snprintf(err, len, "%s: %s (%s)", path, why, strerror(errnum));
    return -1;
}

/* The header of observables.csv: frame, step, time, counts, statistics, energies by term. */
static void observables_header(const Sim *s, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "frame,step,time,polygons,vertices,area_mean,area_std,"
                                          "neighbors_mean,kinetic");
    for (int t = 0; t < U_TERMS && n < len; t++)
        n += (size_t)snprintf(buf + n, len - n, ",U_%s", forces_terms[t]);
    if (n < len) n += (size_t)snprintf(buf + n, len - n, ",U_contact,U_total,nested");
    if (s->chem.m.ntypes > 1 && n < len) n += (size_t)snprintf(buf + n, len - n, ",homotypic");
    for (int k = 0; k < s->chem.m.ns && n < len; k++)
        n += (size_t)snprintf(buf + n, len - n, ",amount_%s", s->chem.m.sp[k].name);
    for (int k = 0; k < s->chem.m.nvar && n < len; k++)
        n += (size_t)snprintf(buf + n, len - n, ",sum_%s,mean_%s", s->chem.m.var[k].name,
                              s->chem.m.var[k].name);
    if (n < len) snprintf(buf + n, len - n, "\n");
}

/* Appends n bytes to path in one write (O_APPEND: a reader never sees two frames interleaved). */
static int append(const char *path, const char *text, size_t n, char *err, size_t len)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return fail(err, len, path, "cannot open the log", errno);
    ssize_t w = n ? write(fd, text, n) : 0;
    int e = w == (ssize_t)n ? 0 : w < 0 ? errno : EIO;
    if (close(fd) && !e) e = errno;
    return e ? fail(err, len, path, "cannot append to the log", e) : 0;
}

/* Rewrites path with header and, from its old contents, the whole lines after the header whose
 * first field is at most last (a restart's cut). A missing file gets the header only. */
static int cut(const char *path, const char *header, int64_t last, char *err, size_t len)
{
    char *old = NULL, *keep = NULL;
    size_t n = 0, k = 0;
    FILE *f = fopen(path, "rb");
    if (f) {
        size_t cap = 0;
        for (size_t got = 1; got;) {
            if (n + 65536 > cap) {
                char *more = realloc(old, cap = 2 * cap + 65536);
                if (!more) {
                    free(old);
                    fclose(f);
                    return fail(err, len, path, "out of memory", ENOMEM);
                }
                old = more;
            }
            n += got = fread(old + n, 1, cap - n, f);
        }
        fclose(f);
    }
    keep = malloc(n + strlen(header) + 1);
    if (!keep) { free(old); return fail(err, len, path, "out of memory", ENOMEM); }
    memcpy(keep, header, k = strlen(header));
    const char *line = old ? memchr(old, '\n', n) : NULL;   /* (the old header is replaced) */
    for (line = line ? line + 1 : NULL; line && line < old + n;) {
        const char *end = memchr(line, '\n', (size_t)(old + n - line));
        if (!end) break;   /* cut short */
        char *after;
        long long v = strtoll(line, &after, 10);
        if (after != line && *after == ',' && v <= last) {
            memcpy(keep + k, line, (size_t)(end + 1 - line));
            k += (size_t)(end + 1 - line);
        }
        line = end + 1;
    }
    free(old);
    const void *part = keep;
    int r = atomic_write(path, &part, &k, 1, 1, err, len);
    free(keep);
    return r;
}

int runlog_open(const char *dir, Sim *s, int restart, int64_t step, int frame, char *err,
                size_t len)
{
    char path[4200], header[2048];
    observables_header(s, header, sizeof header);
    s->e.log_events = 1;
    s->e.nevents = 0;
    snprintf(path, sizeof path, "%s/events.csv", dir);
    if (cut(path, EVENTS_HEADER, restart ? step : -1, err, len)) return -1;
    snprintf(path, sizeof path, "%s/observables.csv", dir);
    return cut(path, header, restart ? frame : -1, err, len);
}

int runlog_events(const char *dir, Sim *s, char *err, size_t len)
{
    Ensemble *e = &s->e;
    char path[4200];
    size_t cap = 192 * (size_t)e->nevents + 1, n = 0;   /* (5 numbers of 20 digits, a name) */
    char *text = malloc(cap);
    if (!text) return fail(err, len, dir, "out of memory", ENOMEM);
    for (int k = 0; k < e->nevents; k++) {
        const Event *v = &e->events[k];
        char before[48] = "", after[48] = "";
        if (v->before[1] >= 0)
            snprintf(before, sizeof before, "%lld %lld", (long long)v->before[0],
                     (long long)v->before[1]);
        else snprintf(before, sizeof before, "%lld", (long long)v->before[0]);
        if (v->after[1] >= 0)
            snprintf(after, sizeof after, "%lld %lld", (long long)v->after[0],
                     (long long)v->after[1]);
        else if (v->after[0] >= 0) snprintf(after, sizeof after, "%lld", (long long)v->after[0]);
        n += (size_t)snprintf(text + n, cap - n, "%lld,%.12g,%s,%s,%s\n", (long long)v->step,
                              (double)v->step * s->P.dt, EVENT_NAMES[v->type], before, after);
    }
    snprintf(path, sizeof path, "%s/events.csv", dir);
    int r = append(path, text, n, err, len);
    free(text);
    if (r) return -1;
    e->nevents = 0;
    return 0;
}

/* A centroid in the sorted cells of nested_count: its cell's key (row by row) and its polygon. */
typedef struct { int64_t key; int p; } Centroid;

static int by_key(const void *a, const void *b)
{
    const Centroid *u = a, *w = b;
    return u->key != w->key ? (u->key > w->key) - (u->key < w->key) : (u->p > w->p) - (u->p < w->p);
}

/* The first of the n sorted centroids whose key is >= key. */
static int first_key(const Centroid *c, int n, int64_t key)
{
    int lo = 0, hi = n;
    while (lo < hi) { int m = lo + (hi - lo) / 2; if (c[m].key < key) lo = m + 1; else hi = m; }
    return lo;
}

/* The movable polygons whose centroid lies inside another movable polygon of larger area
 * (projectiles delivered into a cell, nested drops and vesicles). Centroids are binned in cells
 * as wide as the polygons are on average, sorted by cell (only the occupied cells: polygons far
 * apart do not make the cells larger); each polygon tests the centroids in the cells its bounding
 * box covers, a binary search per row, so the work stays near linear for polygons of similar size
 * (the rows all boxes cover are at most twice the polygons). Needs e->A. */
static int nested_count(const Ensemble *e)
{
    int np = e->np, count = 0;
    if (np < 2) return 0;
    /* per polygon cx cy; then x0 y0 x1 y1 */
    double *c = ph_realloc(NULL, 6 * (size_t)np * sizeof *c), *box = c + 2 * (size_t)np;
    double gx0 = INFINITY, gy0 = INFINITY, gx1 = -INFINITY, gy1 = -INFINITY, wsum = 0;
    for (int p = 0; p < np; p++) {
        const double *x = e->x + e->start[p], *y = e->y + e->start[p];
        Vec2 g = geom_centroid(x, y, e->count[p]);
        double *b = box + 4 * p;
        b[0] = b[2] = x[0]; b[1] = b[3] = y[0];
        for (int j = 1; j < e->count[p]; j++) {
            b[0] = fmin(b[0], x[j]); b[2] = fmax(b[2], x[j]);
            b[1] = fmin(b[1], y[j]); b[3] = fmax(b[3], y[j]);
        }
        c[2 * p] = g.x; c[2 * p + 1] = g.y;
        gx0 = fmin(gx0, g.x); gx1 = fmax(gx1, g.x); gy0 = fmin(gy0, g.y); gy1 = fmax(gy1, g.y);
        wsum += fmax(b[2] - b[0], b[3] - b[1]);
    }
    /* (at most 2^30 cells across, for 64-bit keys) */
    double side = fmax(fmax(wsum / np, 1e-12), fmax(gx1 - gx0, gy1 - gy0) / 1073741824.0);
    int64_t nx = (int64_t)((gx1 - gx0) / side) + 1, ny = (int64_t)((gy1 - gy0) / side) + 1;
    Centroid *cell = ph_realloc(NULL, (size_t)np * sizeof *cell);
    unsigned char *in = memset(ph_realloc(NULL, (size_t)np), 0, (size_t)np);
    for (int p = 0; p < np; p++) {
        int64_t a = (int64_t)fmin((c[2 * p] - gx0) / side, (double)(nx - 1)),
                b = (int64_t)fmin((c[2 * p + 1] - gy0) / side, (double)(ny - 1));
        cell[p] = (Centroid){ b * nx + a, p };
    }
    qsort(cell, (size_t)np, sizeof *cell, by_key);
    for (int q = 0; q < np; q++) {
        if (e->rigid[q]) continue;
        const double *b = box + 4 * q;
        int64_t a0 = (int64_t)fmax(0, floor((b[0] - gx0) / side)),
                a1 = (int64_t)fmin((double)(nx - 1), floor((b[2] - gx0) / side));
        int64_t b0 = (int64_t)fmax(0, floor((b[1] - gy0) / side)),
                b1 = (int64_t)fmin((double)(ny - 1), floor((b[3] - gy0) / side));
        for (int64_t r = b0; r <= b1; r++)
            for (int u = first_key(cell, np, r * nx + a0); u < np && cell[u].key <= r * nx + a1;
                 u++) {
                int p = cell[u].p;
                if (p != q && !in[p] && !e->rigid[p] && e->A[p] < e->A[q] &&
                    geom_point_inside(e->x + e->start[q], e->y + e->start[q], e->count[q],
                                      c[2 * p], c[2 * p + 1])) {
                    in[p] = 1;
                    count++;
                }
            }
    }
    free(c); free(cell); free(in);
    return count;
}

int runlog_frame(const char *dir, Sim *s, int frame, const int *nb, const int *same, double uc,
                 char *err, size_t len)
{
    Ensemble *e = &s->e;
    const Params *P = &s->P;
    char path[4200];
    size_t n;
    if (runlog_events(dir, s, err, len)) return -1;

    /* observables: sums in polygon order, serially (the same at any thread count) */
    forces_update_geometry(e);
    double u[U_TERMS] = { 0 }, a1 = 0, a2 = 0, nbs = 0, alike = 0, kin = 0;
    int movable = 0;
    for (int p = 0; p < e->np; p++) {
        forces_polygon(e, P, p, u);
        if (e->rigid[p]) continue;
        movable++;
        a1 += e->A[p];
        nbs += nb[p];
        alike += same ? same[p] : 0;
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++)
            kin += 0.5 * (e->vx[i] * e->vx[i] + e->vy[i] * e->vy[i]);
    }
    /* with cell types: the share of the movable polygons' neighbours that have their own type
     * (docs/model.md 11; 1/2 for two types well mixed in equal numbers, 1 when sorted) */
    double homotypic = nbs > 0 ? alike / nbs : 0;
    double mean = movable ? a1 / movable : 0, total = uc;
    /* (the spread about the mean, in a second pass: a2 / n - mean^2 cancels when the areas are
     * close) */
    for (int p = 0; p < e->np; p++)
        if (!e->rigid[p]) a2 += (e->A[p] - mean) * (e->A[p] - mean);
    double sd = movable ? sqrt(a2 / movable) : 0;
    char line[2048];
    n = (size_t)snprintf(line, sizeof line, "%d,%lld,%.12g,%d,%d,%.12g,%.12g,%.12g,%.12g", frame,
                         (long long)e->step, (double)frame * P->Ns * P->dt, e->np,
                         ensemble_vertex_count(e), mean, sd, movable ? nbs / movable : 0, kin);
    for (int t = 0; t < U_TERMS; t++) {
        n += (size_t)snprintf(line + n, sizeof line - n, ",%.12g", u[t]);
        total += u[t];
    }
    n += (size_t)snprintf(line + n, sizeof line - n, ",%.12g,%.12g,%d", uc, total, nested_count(e));
    if (s->chem.m.ntypes > 1) n += (size_t)snprintf(line + n, sizeof line - n, ",%.12g", homotypic);
    for (int k = 0; k < s->chem.m.ns; k++)
        n += (size_t)snprintf(line + n, sizeof line - n, ",%.12g", chem_amount(&s->chem, k));
    for (int k = 0; k < e->nvar; k++) {   /* (the cells' variables over the movable polygons) */
        double sum = 0;
        for (int p = 0; p < e->np; p++)
            if (!e->rigid[p]) sum += e->var[(size_t)p * e->nvar + k];
        n += (size_t)snprintf(line + n, sizeof line - n, ",%.12g,%.12g", sum,
                              movable ? sum / movable : 0);
    }
    n += (size_t)snprintf(line + n, sizeof line - n, "\n");
    snprintf(path, sizeof path, "%s/observables.csv", dir);
    return append(path, line, n, err, len);
}
