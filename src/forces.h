/* Forces on the vertices from terms that act within one polygon (docs/model.md 2, paper eq. 19
 * and eq. 25): the conservative terms, each the exact gradient of the energy computed beside it
 * (the box walls among them), and the per-vertex dissipation (viscous damping, drag). Pair
 * interactions are in contact.h. */
#ifndef PH_FORCES_H
#define PH_FORCES_H
#include "ensemble.h"
#include "params.h"

/* Recomputes A and L of every polygon; returns the longest edge. */
double forces_update_geometry(Ensemble *e);

/* The internal energy's terms, in the order of the log's columns (docs/model.md 7): X(index, name
 * in the log). */
#define FORCES_TERMS(X) \
    X(U_AREA, "area") X(U_TENSION, "tension") X(U_EDGE, "edge") X(U_BENDING, "bending") \
    X(U_PRESSURE, "pressure") X(U_ATTRACTOR, "attractor") X(U_GRAVITY, "gravity") X(U_BOX, "box")
#define FORCES_TERM_INDEX(index, name) index,
enum { FORCES_TERMS(FORCES_TERM_INDEX) U_TERMS };
#undef FORCES_TERM_INDEX
extern const char *const forces_terms[U_TERMS];

/* Sets fx, fy of every vertex of polygon p to its internal force (zero for rigid polygons) and
 * returns the polygon's internal potential energy; with u != NULL, also adds each term's part
 * to u[U_...]. Needs A of p from forces_update_geometry. */
double forces_polygon(Ensemble *e, const Params *P, int p, double *u);

/* What a step needs, in one pass over each polygon's vertices while they are in cache (and one
 * parallel region): forces_update_geometry, then forces_polygon of each polygon. Returns the
 * longest edge. */
double forces_step(Ensemble *e, const Params *P);

#endif
