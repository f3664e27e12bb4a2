/* Organ growth (paper Fig. 3, Table 3): from one cell, every cell grows at rate 1 and divides at
 * an area drawn from a lognormal distribution (mean pi, coefficient of variation 0.3); colour by
 * age to see the clones. Table 3 gives gamma = 1e5; against ka = 1e5 that line tension crushes
 * every cell of area below about 3 (it outweighs any pressure the area term can build), so the
 * first daughters collapsed and the run stopped at step 9 with a vertex faster than h/dt.
 * gamma = 1e4 (Fig. 2A's) lets the tissue grow. Input: inputs/ensemble.off. make showcase NAME=organ */
#include "default.h"
#undef P_lmax
#define P_lmax      0.1       /* [L]     maximum edge length */
#undef P_Amax_CV
#define P_Amax_CV   0.3       /* [-]     division areas lognormal around pi */
#undef P_kl
#define P_kl        1e4       /* [L/T^2] edge (tensile) rigidity */
#undef P_gamma
#define P_gamma     1e4       /* [L/T^2] line tension (Table 3: 1e5; see above) */
#undef P_cv
#define P_cv        2.0       /* [1/T]   viscous damping */
#undef P_Nf
#define P_Nf        120       /* frames after the initial one (t = 12) */
