/* The bench scenario `gradient` (scripts/bench.sh): the default growth with one chemical species
 * on the default grid, 201 x 201 nodes over [-10, 10]^2 (dx = 0.1). Every cell makes it at rate
 * 1 per area, it diffuses with D = 1 inside and outside and is degraded at rate k = 1, and every
 * cell samples it each step (a response that reads the samples and changes nothing), so that the
 * chemical step pays for the whole coupling: the cover, the samples and the solver. A chemical
 * step every 20 time steps (docs/model.md 11): 20 dt = 0.002 against the node's diffusion time
 * dx^2 / D = 0.01, one solver sub-step (20 dt (4 D / dx^2 + k) = 0.80 <= 1). Compared with
 * `default`, it measures what one species costs. */
#include "default.h"
#undef P_NS
#define P_NS        1
#undef P_chem_every
#define P_chem_every 20
#define P_CHEM_SPECIES { { .name = "signal", .D_in = 1.0, .D_out = 1.0, .k = 1.0, .c0 = 0.0 } }

static inline double bench_gradient_reaction(int s, const double *c, int type)
{
    (void)s; (void)c;
    return type >= 0 ? 1.0 : 0.0;
}
#define P_CHEM_REACTION bench_gradient_reaction

/* the growth rate stays the header's: the response reads the sample only */
static inline void bench_gradient_response(const ChemCell *cell, ChemAct *act)
{
    act->alpha = cell->c[0] >= 0 ? cell->alpha : 0.0;
}
#define P_CHEM_RESPONSE bench_gradient_response
