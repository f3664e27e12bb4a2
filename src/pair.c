/* The pair law's energy and the self-contact exclusion; the per-pair force is inline in pair.h. */
#include "pair.h"

double pair_u(const Params *P, double s, int same) { return pair_u_kh(P, P->kh, s, same); }

double pair_u_kh(const Params *P, double kh, double s, int same)
{
    if (same) return s < 0 ? 0.5 * P->kr * s * s : 0;
    /* eq. 4 minus its value beyond the reach, u_inf = (kh sh^2 + ks ss^2) / 2, ks = kh sh / ss */
    double sh = P->sh, ss = P->ss, uinf = 0.5 * kh * sh * (sh + ss);
    if (s <= 0) return 0.5 * P->kr * s * s - uinf;
    if (s <= sh) return 0.5 * kh * s * s - uinf;
    if (s < sh + ss) return 0.5 * (kh * sh * sh + kh * sh / ss * (s - sh) * (2 * ss + sh - s)) - uinf;
    return 0;
}

int pair_along_hoop_within(const Ensemble *e, int i, int k, int k1, double w, double h)
{
    double len = hypot(e->x[k1] - e->x[k], e->y[k1] - e->y[k]), a = w * len;
    for (int j = k; j != i && a <= h; ) {   /* backwards from the point: i lies before the edge */
        int jp = ens_prev(e, j);
        a += hypot(e->x[j] - e->x[jp], e->y[j] - e->y[jp]);
        j = jp;
    }
    if (a <= h) return 1;
    a = (1 - w) * len;
    for (int j = k1; j != i && a <= h; ) {   /* forwards: i lies after the edge */
        int jn = ens_next(e, j);
        a += hypot(e->x[jn] - e->x[j], e->y[jn] - e->y[j]);
        j = jn;
    }
    return a <= h;
}
