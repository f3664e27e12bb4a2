/* The input check for polygons that share area or boundary (docs/model.md 7): hoops keep a
 * distance h, so an input where two overlap starts with huge forces, and one where edges coincide
 * with forces that point wherever rounding says. Found with the contact grid in O(vertices):
 *   cross:  edges of the two polygons cross;
 *   touch:  edges of the two come closer than OVERLAP_TOUCH h without crossing (identical or
 *           stacked polygons, a shared edge or corner);
 *   nested: one lies inside the other with the same phase, and the outer one is not rigid (an
 *           emulsion's drop of one phase inside the other's is legitimate, as is anything inside
 *           a rigid polygon, which has no area term).
 * Pairs of two rigid polygons are never checked: they do not interact (docs/model.md 6). */
#ifndef PH_OVERLAP_H
#define PH_OVERLAP_H
#include "ensemble.h"

/* Edges closer than this many h count as touching: within rounding of coinciding. */
#define OVERLAP_TOUCH 1e-6

typedef enum { OVERLAP_CROSS = 1, OVERLAP_TOUCH_KIND, OVERLAP_NESTED } OverlapKind;

/* A pair found: a < b for cross and touch; for nested, a lies inside b. */
typedef struct { int a, b; OverlapKind kind; } OverlapPair;

/* Finds the pairs (edges in pieces of at most lmax, which keeps the grid's cells small). Returns
 * their number, or -1 when out of memory, and in *first the first crossing or touching pair (by
 * the lower polygon, then the higher), else the first nested one (by the inner polygon): nesting
 * is looked for only when no boundaries meet. */
long overlap_find(const Ensemble *e, double lmax, double h, OverlapPair *first);

/* The share of the smaller one's area that polygons p and q overlap, by the midpoint rule over
 * 1024 rows (identical polygons give exactly 1). For the message. */
double overlap_fraction(const Ensemble *e, int p, int q);

#endif
