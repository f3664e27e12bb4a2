/* Semi-implicit Euler and growth; see integrate.h. The check (finite, and no faster than h per
 * step) costs a few comparisons per vertex and stops the run at the first step that went wrong. */
#include "integrate.h"
#include "bands.h"
#include "rng.h"
#include <math.h>

/* Integrates this thread's band of polygons: the first polygon that went wrong into *bad (if
 * lower), the largest squared speed into *v2max (if larger). */
static void integrate_band(Ensemble *e, const Params *P, int *bad, double *v2max)
{
    const double dt = P->dt, vmax2 = (P->h / dt) * (P->h / dt);
    double v2top = *v2max;   /* (a local: *v2max might alias the vertex arrays) */
    int m0, m1;
    const int *order = bands_mine(e, &m0, &m1);
    for (int m = m0; m < m1; m++) {
        int p = order ? order[m] : m;
        if (e->rigid[p]) continue;
        int ok = 1;
        for (int i = e->start[p], end = i + e->count[p]; i < end; i++) {
            double vx = e->vx[i] + dt * e->fx[i], vy = e->vy[i] + dt * e->fy[i];
            double x = e->x[i] + dt * vx, y = e->y[i] + dt * vy, v2 = vx * vx + vy * vy;
            e->vx[i] = vx; e->vy[i] = vy; e->x[i] = x; e->y[i] = y;
            ok &= isfinite(x) && isfinite(y) && v2 <= vmax2;
            v2top = v2 > v2top ? v2 : v2top;
        }
        if (!ok && p < *bad) *bad = p;
        /* growth only while A / A0 > beta; shrinking always (docs/model.md 3, step 4) */
        if (P->beta == 0 || e->alpha[p] < 0 || e->A[p] > P->beta * e->A0[p])
            e->A0[p] += e->alpha[p] * dt;
        if (P->Dr > 0) {   /* the polarity diffuses: d(phi) = sqrt(2 Dr dt) N(0, 1) */
            double a, b;
            rng_keyed_normals(e->seed, e->step, e->id[p], 0, RNG_POLARITY, &a, &b);
            e->polarity[p] += sqrt(2 * P->Dr * dt) * a;
        }
    }
    *v2max = v2top;
}

int integrate_step(Ensemble *e, const Params *P, double *vmax)
{
    double v2max = 0;
    int bad = e->np;
    if (bands_serial()) integrate_band(e, P, &bad, &v2max);
    else {
        #pragma omp parallel reduction(min : bad) reduction(max : v2max)
        integrate_band(e, P, &bad, &v2max);
    }
    *vmax = sqrt(v2max);
    return bad < e->np ? bad : -1;
}
