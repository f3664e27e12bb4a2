/* Time integration (paper 3.5, docs/model.md 3): semi-implicit Euler for every vertex of a
 * non-rigid polygon, v <- v + dt f, r <- r + dt v (m = 1), and growth of the target area,
 * A0 <- A0 + alpha dt while A / A0 > beta (beta = 0: always). */
#ifndef PH_INTEGRATE_H
#define PH_INTEGRATE_H
#include "ensemble.h"
#include "params.h"

/* Advances positions, velocities and target areas by one step (A from the step's geometry pass)
 * and stores the largest new speed in *vmax (no vertex moved farther than dt * vmax). Returns -1,
 * or the lowest index of a polygon with a vertex whose new position is not finite or that moved
 * farther than h in the step (contacts would then be missed: the run is unstable). */
int integrate_step(Ensemble *e, const Params *P, double *vmax);

#endif
