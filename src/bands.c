/* Thread bands (bands.h): a histogram of the polygons' heights, weighted by vertex count, cut
 * where the running count passes t / nt of the total, at bin edges, so a polygon's band is its
 * bin's; the polygons grouped by band in index order (a counting sort). O(polygons) per step:
 * four bins per polygon, at most BINS (the histogram of a small ensemble is serial work that
 * every step waits for). */
#include "bands.h"
#include <math.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

enum { BINS = 4096 };

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
    int k = (int)((y - lo) * scale);
    return k < nbins ? k : nbins - 1;
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
    /* the cuts y[1 .. nt - 1] at bin edges, so that each band holds about total / nt vertices;
     * band[k]: the band of bin k */
    long hist[BINS];
    int band[BINS], nbins = e->np < BINS / 4 ? 4 * e->np : BINS;
    for (int k = 0; k < nbins; k++) hist[k] = 0;
    double scale = nbins / (hi - lo);
    long total = 0;
    for (int p = 0; p < e->np; p++) {
        hist[bin_of(e->y[e->start[p]], lo, scale, nbins)] += e->count[p];
        total += e->count[p];
    }
    b->y[0] = -INFINITY;
    long run = 0;
    for (int k = 0, t = 1; k < nbins; k++) {
        band[k] = t - 1;
        run += hist[k];
        while (t < nt && run * nt >= total * t) b->y[t++] = lo + (k + 1) / scale;
    }
    b->y[nt] = INFINITY;
    /* the polygons by band (a counting sort) */
    for (int t = 0; t <= nt; t++) b->at[t] = 0;
    for (int p = 0; p < e->np; p++) b->at[band[bin_of(e->y[e->start[p]], lo, scale, nbins)] + 1]++;
    for (int t = 0; t < nt; t++) b->at[t + 1] += b->at[t];
    for (int p = 0; p < e->np; p++) b->order[b->at[band[bin_of(e->y[e->start[p]], lo, scale, nbins)]]++] = p;
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

void bands_strips(const Ensemble *e, double y0, double hs, const int *id, int nstrips, int *s0, int *s1)
{
    int tid, nth;
    whoami(&tid, &nth);
    const struct EnsembleBands *b = &e->bands;
    if (b->np == e->np && b->n == nth) {
        int all = id && nstrips ? id[nstrips - 1] + 1 : nstrips;
        *s0 = tid ? strip_at(id, nstrips, strip_from(b->y[tid], y0, hs, all)) : 0;
        *s1 = tid + 1 < nth ? strip_at(id, nstrips, strip_from(b->y[tid + 1], y0, hs, all)) : nstrips;
        return;
    }
    *s0 = (int)((int64_t)nstrips * tid / nth); *s1 = (int)((int64_t)nstrips * (tid + 1) / nth);
}
