/* Which thread works on which polygons. Every phase that works polygon by polygon and the
 * contact strips give each thread the same horizontal band of the ensemble, so that its data stay
 * in its core's cache from phase to phase. Bands follow space, not the polygon order, which in a
 * grown tissue is the order of birth.
 *
 * Scheduling only: no result depends on it. Each polygon is worked on by one thread, the strips'
 * sums keep their fixed order (contact.h), and the reductions are exact (counts, maxima). When
 * polygons are added or removed after the bands were chosen, or the thread count differs, the
 * loops fall back to blocks of polygon indices. */
#ifndef PH_BANDS_H
#define PH_BANDS_H
#include "ensemble.h"
#ifdef _OPENMP
#include <omp.h>
#endif

/* Splits the polygons into nt bands by the height of their first vertex, with about equal vertex
 * counts, for parallel regions of nt threads. */
void bands_update(Ensemble *e, int nt);

/* Whether a parallel region would have one thread: the phases then call their band's work
 * directly, as libgomp sets up a team even for one thread. */
static inline int bands_serial(void)
{
#ifdef _OPENMP
    return omp_get_max_threads() == 1;
#else
    return 1;
#endif
}

/* The next parallel regions must not use the bands (polygons were added or removed). */
static inline void bands_invalidate(Ensemble *e) { e->bands.np = -1; }

/* In a parallel region: the positions [*k0, *k1) this thread works on. The polygon at position k
 * is order[k] for the order returned, or k itself when it returns NULL. */
const int *bands_mine(const Ensemble *e, int *k0, int *k1);

/* In a parallel region: the strips [*s0, *s1) this thread works on (those in its band), of
 * nstrips strips of height hs stacked from y0: strip s is the id[s]-th of them (increasing; id
 * NULL: the s-th), for a grid that keeps only some strips (grid.h). */
void bands_strips(const Ensemble *e, double y0, double hs, const int *id, int nstrips, int *s0,
                  int *s1);

#endif
