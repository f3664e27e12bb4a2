/* Which thread works on which polygons. Every phase of a step that works polygon by polygon
 * (remodel, geometry, internal forces, integrate, the list's motion budgets, topology) and the
 * contact strips give each thread the same horizontal band of the ensemble, so that the data a
 * thread works on stay in its core's cache from phase to phase. Bands follow space, not the
 * polygon order, because a grown tissue's order is its order of birth.
 *
 * Scheduling only: no result depends on it. Each polygon is worked on by one thread whichever it
 * is, the strips' sums keep their fixed order (contact.h), and the phases' reductions are exact
 * (counts, maxima). The bands are chosen at the start of a step; when polygons are added or
 * removed later in it, or the number of threads differs, the loops fall back to blocks of
 * polygon indices. */
#ifndef PH_BANDS_H
#define PH_BANDS_H
#include "ensemble.h"
#ifdef _OPENMP
#include <omp.h>
#endif

/* Splits the polygons into nt bands by the height of their first vertex, with about equal vertex
 * counts, for parallel regions of nt threads. */
void bands_update(Ensemble *e, int nt);

/* Whether a parallel region would have one thread. The phases then call their band's work
 * directly instead of opening a region, which libgomp sets up (allocates, clears and frees a
 * team) even for one thread. The work is the same: a lone thread's band is every polygon, and
 * the regions' reductions are exact. */
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
