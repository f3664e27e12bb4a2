/* Organ growth (paper Fig. 3, Table 3): from one cell, every cell grows at rate 1 and divides at
 * an area drawn from a lognormal distribution (mean pi, coefficient of variation 0.3); colour by
 * age to see the clones. As in the paper's run (section 4.6), cells grow only while A / A0 > 0.9,
 * so that the pressure inside does not build up without bound: past about 10^4 cells the
 * compressed centre divides only now and then while the rim keeps dividing, and the ages form a
 * radial gradient (young at the rim). make showcase NAME=organ runs to 10,000 cells (--max-cells).
 * Table 3 gives gamma = 1e5; against ka = 1e5 that line tension crushes every cell of area below
 * about 3 (the first daughters collapsed and the run stopped at step 20, t = 0.002, with a vertex
 * faster than h/dt). With gamma = 1e4 (Fig. 2A's) a daughter of area 1 is squeezed by its own line tension
 * to about 0.82 of its target area (Laplace's law, gamma / R = ka (A0 - A)), below the growth
 * threshold 0.9, and never grows (measured: 6 cells from t = 2.8 to t = 40); by the same law the
 * default 1e3 squeezes it by about 2 %, and the tissue grows (measured: 10,056 cells by t = 19.6).
 * Input: inputs/ensemble.off. */
#include "default.h"
#undef P_lmax
#define P_lmax      0.1       /* [L]     maximum edge length */
#undef P_Amax_CV
#define P_Amax_CV   0.3       /* [-]     division areas lognormal around pi */
#undef P_kl
#define P_kl        1e4       /* [L/T^2] edge (tensile) rigidity */
#undef P_gamma
#define P_gamma     1e3       /* [L/T^2] line tension (Table 3: 1e5; see above) */
#undef P_cv
#define P_cv        2.0       /* [1/T]   viscous damping */
#undef P_beta
#define P_beta      0.9       /* [-]     grow only while A/A0 > 0.9 (paper 4.6) */
#undef P_Nf
#define P_Nf        400       /* frames after the initial one (t = 40; the showcase stops at 10^4 cells) */
