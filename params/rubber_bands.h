/* Rubber bands (paper Fig. 2E, Table 3): thick elastic rings (h = 0.05) with bending rigidity and
 * no area stiffness, line tension or adhesion fall in piles under edge gravity into an open rigid
 * box and pack, partly aligned in parallel bundles. The box is not in the paper's table (it gives
 * no Nr): the input puts a floor and two walls first. Input: scripts/make_inputs.py rubber_bands
 * (made by make showcase NAME=rubber_bands). */
#include "default.h"
#undef P_h
#define P_h         0.05      /* [L]     edge thickness */
#undef P_lmin
#define P_lmin      0.01      /* [L]     minimum edge length */
#undef P_lmax
#define P_lmax      0.04      /* [L]     maximum edge length */
#undef P_sh
#define P_sh        0.0       /* [L]     no adhesion */
#undef P_ss
#define P_ss        0.0
#undef P_alpha_mu
#define P_alpha_mu  0.0       /* [L^2/T] no growth */
#undef P_Amax_mu
#define P_Amax_mu   INFINITY  /* [L^2]   no division */
#undef P_ka
#define P_ka        0.0       /* [1/(L^2 T^2)] no area stiffness */
#undef P_gamma
#define P_gamma     0.0       /* [L/T^2] no line tension */
#undef P_kl
#define P_kl        1e5       /* [L/T^2] edge (tensile) rigidity */
#undef P_kb
#define P_kb        1e2       /* [L^3/T^2] bending rigidity */
#undef P_kh
#define P_kh        0.0       /* [1/T^2] no adhesion */
#undef P_gl
#define P_gl        10.0      /* [L/T^2] edge gravity */
#undef P_cv
#define P_cv        2.0       /* [1/T]   viscous damping */
#undef P_cc
#define P_cc        100.0     /* [1/T]   contact damping */
#undef P_Nr
#define P_Nr        3         /* rigid: floor, left wall, right wall */
