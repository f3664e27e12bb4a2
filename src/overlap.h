/* The input check for polygons that share area or boundary (docs/model.md 7). Hoops keep a
 * distance h from each other; an input where two of them overlap, or where edges of two
 * coincide, starts with forces that are huge (overlap) or point wherever rounding says
 * (coinciding edges). Found with the contact grid in time linear in the vertices:
 *   cross:  edges of the two polygons cross;
 *   touch:  edges of the two come closer than OVERLAP_TOUCH h without crossing: identical or
 *           stacked polygons, polygons that share an edge or a corner;
 *   nested: one lies inside the other with the same phase, and the outer one is not rigid.
 *           A drop of one phase inside a drop of the other (an emulsion's nested drops) is a
 *           legitimate nesting, as is anything inside a rigid polygon (which has no area term).
 * Pairs of two rigid polygons are never checked: they do not interact (docs/model.md 6). */
#ifndef PH_OVERLAP_H
#define PH_OVERLAP_H
#include "ensemble.h"

/* Edges closer than this many h count as touching: within rounding of coinciding. */
#define OVERLAP_TOUCH 1e-6

typedef enum { OVERLAP_CROSS = 1, OVERLAP_TOUCH_KIND, OVERLAP_NESTED } OverlapKind;

/* A pair found: a < b for cross and touch; for nested, a lies inside b. */
typedef struct { int a, b; OverlapKind kind; } OverlapPair;

/* Finds the pairs; edges longer than lmax are looked at in pieces of at most lmax (the grid's
 * cells are as wide as the longest edge). Returns
 * the number of pairs and the first in *first: the first crossing or touching pair (in order of
 * the lower polygon, then the higher), else the first nested one (in order of the inner
 * polygon). Nesting is looked for only when nothing crosses or touches (its test assumes
 * boundaries that do not meet). Returns -1 when memory for the search runs out. */
long overlap_find(const Ensemble *e, double lmax, double h, OverlapPair *first);

/* The area that polygons p and q share, as a fraction of the smaller one's area, by the
 * midpoint rule over 1024 rows of each (exact for polygons whose widths are piecewise constant
 * in y, such as rectangles; identical polygons give exactly 1). Used for the message. */
double overlap_fraction(const Ensemble *e, int p, int q);

#endif
