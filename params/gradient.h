/* A morphogen gradient (docs/model.md 11): a strip of 24 x 6 cells of radius 0.5 (scripts/
 * make_inputs.py gradient), whose first column is the source (cell type 1) and the rest the
 * tissue (type 0). The source cells make the morphogen at rate q per area; it diffuses with D
 * inside and outside the cells and is degraded at rate k everywhere, so that beyond the source
 * the steady profile decays as exp(-x / lambda), lambda = sqrt(D / k) = 3 (the right end, 8
 * lambda away, changes it by less than 0.1 %). The cells do not grow: the gradient forms in a
 * tissue at rest, within a few 1/k and the time 12 / (2 sqrt(D k)) its front takes to cross four
 * lambda, both small against t = 2. What it shows: the measured decay length of the last frame
 * (tests/cli/chemistry.sh fits it, within 5 % of sqrt(D/k)). */
#include "default.h"
#undef P_alpha_mu
#define P_alpha_mu  0.0       /* [L^2/T] no growth */
#undef P_Nf
#define P_Nf        20        /* frames after the initial one (t = 2) */
#undef P_ntypes
#define P_ntypes    2         /* 0: tissue, 1: source */
#undef P_NS
#define P_NS        1
#undef P_chem_x0
#define P_chem_x0   -1.0      /* [L] the grid: the strip with a margin */
#undef P_chem_y0
#define P_chem_y0   -1.0
#undef P_chem_x1
#define P_chem_x1   25.0
#undef P_chem_y1
#define P_chem_y1   5.5
#undef P_chem_dx
#define P_chem_dx   0.1

/* the morphogen: D = 36 and k = 4 (lambda = 3), zero flux on every side */
#define P_CHEM_SPECIES { { .name = "morphogen", .D_in = 36.0, .D_out = 36.0, .k = 4.0, .c0 = 0.0 } }

/* production q = 10 [1/(L^2 T)] at the nodes inside source cells */
static inline double gradient_reaction(int s, const double *c, int type)
{
    (void)s; (void)c;
    return type == 1 ? 10.0 : 0.0;
}
#define P_CHEM_REACTION gradient_reaction
