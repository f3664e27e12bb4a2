/* Diffusion-limited growth (docs/model.md 11.2): a colony grows from one cell (inputs/ensemble.off,
 * the default growth and division) in the square [-12, 12]^2, whose sides hold a nutrient at
 * c = 1. The nutrient diffuses alike in the cells and the medium (D = 16 [L^2/T]); the cells
 * take it up at the rate q c, q = 16 [1/T], at the nodes they cover, and each grows at
 *     alpha = alpha_max c / (K + c),   alpha_max = 2 [L^2/T], K = 0.25,
 * of the nutrient c it senses (Monod's law; its mean over the nodes it covers), set every step by
 * the response rule.
 * Penetration length: inside the colony the steady nutrient obeys D lap c = q c, so it decays
 * into the colony over l = sqrt(D / q) = 1 L (about two thirds of a cell's diameter). In a disc of
 * radius R, c(r) = c_R I0(r / l) / I0(R / l) (the solution regular at r = 0), which for R >> l
 * is c_R sqrt(R / r) exp(-(R - r) / l): only cells within a few l of the rim are fed, and the
 * centre gets c(0) = c_R / I0(R / l), about c_R sqrt(2 pi R / l) exp(-R / l). The profile is
 * quasi-static: it relaxes within 1/q = 0.06 T, while a rim cell takes over 2 T to double.
 * Outside the colony the nutrient has no sink: c = 1 - (1 - c_R) ln(L / r) / ln(L / R) up to
 * the reservoir, L = 13.5 (the disc of the square's area), and the flux into the rim must be the
 * uptake, D c_R I1(R / l) / (l I0(R / l)) = D (1 - c_R) / (R ln(L / R)), so
 *     c_R = 1 / (1 + (R / l) (I1 / I0)(R / l) ln(L / R)),
 * 0.19 at R = 4.5 (0.20 measured): the supply through the medium limits the whole colony. Its
 * rim cells grow at about a third of alpha_max, cells 2 l deep (c about 0.03) at a tenth and the
 * centre hardly at all: the core stops dividing and the colony grows at its rim, where bulges
 * reach further into the supply and outgrow the rest, so that it branches (the Mullins-Sekerka
 * instability of diffusion-limited growth).
 * The grid: dx = 0.25, four nodes per l (97 x 97 nodes). A cell that grows at less than a quarter
 * of alpha_max (c < K / 3) takes type 1, "starving" (--png-color type); types change nothing else.
 * What it shows (tests/cli/chem_showcases.sh): at t = 8 (28 cells, R = 4.46 l) the rim cells
 * (within l of the rim) grow at 0.68, 3.2 times as fast as the core cells (deeper than 2 l:
 * 0.21; the test asks for 2.5 times), the centre holds 0.015 of the boundary's nutrient (the test:
 * below 5 %), and c(0) / c_R = 0.074 against 1 / I0(R / l) = 0.059 (the test: within a factor
 * 1.5; the gaps between cells take up nothing, and the colony is not a disc). */
#include "default.h"
#undef P_Nf
#define P_Nf        160       /* frames after the initial one (t = 16) */
#undef P_ntypes
#define P_ntypes    2         /* 0: fed, 1: starving (c < K / 3) */
#undef P_NS
#define P_NS        1
#undef P_chem_x0
#define P_chem_x0   -12.0     /* [L] the grid: the colony's square */
#undef P_chem_y0
#define P_chem_y0   -12.0
#undef P_chem_x1
#define P_chem_x1   12.0
#undef P_chem_y1
#define P_chem_y1   12.0
#undef P_chem_dx
#define P_chem_dx   0.25

#define NUTRIENT_Q     16.0   /* [1/T]   uptake rate per unit of nutrient */
#define NUTRIENT_K     0.25   /* [1/L^2] half-saturation of growth */
#define NUTRIENT_ALPHA 2.0    /* [L^2/T] growth rate with nutrient in excess */

/* the nutrient: D = 16 in cells and medium, held at 1 on every side, 1 everywhere at the start */
#define P_CHEM_SPECIES { { .name = "nutrient", .D_in = 16.0, .D_out = 16.0, .c0 = 1.0, \
                           .bc = { CHEM_FIXED, CHEM_FIXED, CHEM_FIXED, CHEM_FIXED }, .c_bc = { 1.0, 1.0, 1.0, 1.0 } } }

/* uptake -q c at the nodes that cells cover */
static inline double nutrient_reaction(int s, const double *c, int type)
{
    (void)s;
    return type >= 0 ? -NUTRIENT_Q * c[0] : 0.0;
}
#define P_CHEM_REACTION nutrient_reaction

/* growth by Monod's law of the sensed nutrient; starving below K / 3 */
static inline void nutrient_response(const ChemCell *cell, ChemAct *act)
{
    double c = cell->c[0];
    act->alpha = NUTRIENT_ALPHA * c / (NUTRIENT_K + c);
    act->type = c < NUTRIENT_K / 3;
}
#define P_CHEM_RESPONSE nutrient_response
