/* Helpers of the contact tests (test_contact.c: the pair law; test_contact_grid.c: the grid and
 * the neighbour count; test_contact_list.c: the neighbour list). */
#ifndef PH_CONTACT_FIXTURES_H
#define PH_CONTACT_FIXTURES_H
#include "contact.h"
#include "fixtures.h"
#include "forces.h"
#include <stdlib.h>
#include <string.h>

static inline Params pair_params(void)
{
    Params P = fx_params_zero();
    P.kr = 1e7; P.kh = 1e6; P.sh = 0.01; P.ss = 0.01;
    return P;
}

/* The pair records of the last evaluation, all parts in one array (to free), *n of them. */
static inline PairRec *all_records(const Contact *c, int *n)
{
    PairRec *all = NULL;
    *n = 0;
    for (int t = 0; t < contact_record_parts(c); t++) {
        int k;
        const PairRec *r = contact_records(c, t, &k);
        all = realloc(all, ((size_t)*n + (size_t)k + 1) * sizeof *all);
        if (k) memcpy(all + *n, r, (size_t)k * sizeof *r);
        *n += k;
    }
    return all;
}

static inline double pair_energy(Contact *c, Ensemble *e, const Params *P)
{
    double U, lmax = forces_update_geometry(e);
    for (int i = 0; i < e->nv_used; i++) e->fx[i] = e->fy[i] = 0;
    contact_forces(c, e, P, lmax, &U);
    return U;
}

#endif
