/* Thread bands (bands.h): cuts in a histogram of the polygons' heights, weighted by vertex count
 * (bands_update); the polygons grouped by band in index order (a counting sort). O(polygons) per
 * step and cut level: four bins per polygon, at most BINS (serial work that every step waits
 * for). */
#include "bands.h"
#include <math.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* (each level cuts a bin into as many again: for 300 polygons, 6 levels of 1,200 span 10^18) */
enum { BINS = 4096, LEVELS = 6 };

/* The calling thread and the size of its team. */
static void whoami(int *tid, int *nth)
{
    *tid = 0; *nth = 1;
#ifdef _OPENMP
    *tid = omp_get_thread_num(); *nth = omp_get_num_threads();
#endif
}

/* The histogram bin of height y. */
static inline int bin_of(double y, double lo, double scale, int nbins)
{
    double k = (y - lo) * scale;   /* (clamped before the conversion: the scale may be large) */
    return k < 0 ? 0 : k < nbins ? (int)k : nbins - 1;
}

/* The band of height y: the number of cuts at or below it. */
static inline int band_of(const struct EnsembleBands *b, int nt, double y)
{
    int t = 0;
    while (t + 1 < nt && y >= b->y[t + 1]) t++;
    return t;
}

void bands_update(Ensemble *e, int nt)
{
    struct EnsembleBands *b = &e->bands;
    b->np = -1;
    if (nt < 2 || e->np < 2) return;
    if (nt > b->ncap) {
        b->ncap = nt;
        b->at = ph_realloc(b->at, (size_t)(nt + 1) * sizeof *b->at);
        b->y = ph_realloc(b->y, (size_t)(nt + 1) * sizeof *b->y);
    }
    if (e->np > b->cap) {
        b->cap = e->np + e->np / 2;
        b->order = ph_realloc(b->order, (size_t)b->cap * sizeof *b->order);
    }
    double lo = INFINITY, hi = -INFINITY;
    for (int p = 0; p < e->np; p++) {
        double y = e->y[e->start[p]];
        lo = y < lo ? y : lo;
        hi = y > hi ? y : hi;
    }
    if (!(hi > lo) || !isfinite(hi - lo)) return;
    /* The cuts y[1 .. nt - 1], each where the running count passes t / nt of the total: at an edge
     * of the histogram's bins, and where the bin it falls in holds much (more than a quarter of a
     * band's count: a few polygons far away make the bins wide), at an edge of that bin's own
     * histogram, up to LEVELS deep. A polygon's band: the number of cuts at or below its height. */
    long hist0[BINS], hist[BINS], total = 0;
    int nbins = e->np < BINS / 4 ? 4 * e->np : BINS;
    const double scale0 = nbins / (hi - lo);
    for (int k = 0; k < nbins; k++) hist0[k] = 0;
    for (int p = 0; p < e->np; p++) {
        hist0[bin_of(e->y[e->start[p]], lo, scale0, nbins)] += e->count[p];
        total += e->count[p];
    }
    b->y[0] = -INFINITY;
    b->y[nt] = INFINITY;
    for (int t = 1; t < nt; t++) {
        double a = lo, scale = scale0, at[LEVELS][2];   /* (the bins refined: lower edge, scale) */
        int bin[LEVELS];
        long run = 0;   /* (the count below the bin refined) */
        for (int level = 0; level < LEVELS; level++) {
            const long *h = hist0;
            if (level) {   /* (the polygons in the bins refined) */
                for (int k = 0; k < nbins; k++) hist[k] = 0;
                for (int p = 0; p < e->np; p++) {
                    double y = e->y[e->start[p]];
                    int inside = 1;
                    for (int l = 0; l < level && inside; l++)
                        inside = bin_of(y, at[l][0], at[l][1], nbins) == bin[l];
                    if (inside) hist[bin_of(y, a, scale, nbins)] += e->count[p];
                }
                h = hist;
            }
            int k = 0;
            while (k + 1 < nbins && (run + h[k]) * nt < total * t) run += h[k++];
            b->y[t] = a + (k + 1) / scale;
            if (4 * (long)nt * h[k] <= total) break;
            at[level][0] = a; at[level][1] = scale; bin[level] = k;
            a += k / scale;
            scale *= nbins;
        }
    }
    /* the polygons by band (a counting sort) */
    for (int t = 0; t <= nt; t++) b->at[t] = 0;
    for (int p = 0; p < e->np; p++) b->at[band_of(b, nt, e->y[e->start[p]]) + 1]++;
    for (int t = 0; t < nt; t++) b->at[t + 1] += b->at[t];
    for (int p = 0; p < e->np; p++) b->order[b->at[band_of(b, nt, e->y[e->start[p]])]++] = p;
    for (int t = nt; t > 0; t--) b->at[t] = b->at[t - 1];
    b->at[0] = 0;
    b->n = nt;
    b->np = e->np;
}

const int *bands_mine(const Ensemble *e, int *k0, int *k1)
{
    int tid, nth;
    whoami(&tid, &nth);
    const struct EnsembleBands *b = &e->bands;
    if (b->np == e->np && b->n == nth) {
        *k0 = b->at[tid]; *k1 = b->at[tid + 1];
        return b->order;
    }
    *k0 = (int)((int64_t)e->np * tid / nth); *k1 = (int)((int64_t)e->np * (tid + 1) / nth);
    return NULL;
}

/* The first strip whose middle lies at or above y. */
static int strip_from(double y, double y0, double hs, int nstrips)
{
    double s = ceil((y - y0) / hs - 0.5);
    return !(s > 0) ? 0 : s >= nstrips ? nstrips : (int)s;
}

/* The first of the n strips numbered id[] (increasing; NULL: 0, 1, ...) numbered r or more. */
static int strip_at(const int *id, int n, int r)
{
    if (!id) return r;
    int lo = 0, hi = n;
    while (lo < hi) { int m = lo + (hi - lo) / 2; if (id[m] < r) lo = m + 1; else hi = m; }
    return lo;
}

void bands_strips(const Ensemble *e, double y0, double hs, const int *id, int nstrips, int *s0,
                  int *s1)
{
    int tid, nth;
    whoami(&tid, &nth);
    const struct EnsembleBands *b = &e->bands;
    if (b->np == e->np && b->n == nth) {
        int all = id && nstrips ? id[nstrips - 1] + 1 : nstrips;
        *s0 = tid ? strip_at(id, nstrips, strip_from(b->y[tid], y0, hs, all)) : 0;
        *s1 = tid + 1 < nth ? strip_at(id, nstrips, strip_from(b->y[tid + 1], y0, hs, all))
                            : nstrips;
        return;
    }
    *s0 = (int)((int64_t)nstrips * tid / nth); *s1 = (int)((int64_t)nstrips * (tid + 1) / nth);
}
